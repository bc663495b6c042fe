"""Complete games of "Come on! Bite me!" played by seeded bots, for tests and
benchmarks: each turn a random legal action, each choice a random legal one,
the deck a seeded shuffle. The rules decide what follows (``rules.expected_steps``),
and the events are folded on a ``Table`` as they are made, so a game is legal by
construction.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Mapping

from biteme import rules
from biteme.events import (
    Attacked,
    BiteEvent,
    BiteStarted,
    Claimed,
    Drew,
    Looked,
    Passed,
    Picked,
    Retreated,
    Took,
)
from biteme.fold import Table

__all__ = ["NAMES", "SIM_STRENGTHS", "simulate_bite", "simulate_bites"]

#: The strengths the bots play with unless given others: an example for tests, not
#: a ruling (the leaflet gives none of these, B3).
SIM_STRENGTHS: dict[str, int] = {
    "Tiger": 8, "Lion": 7, "Leopard": 6, "Panda": 5, "Hyena": 4, "Snake": 3, "Fox": 2,
    "Monkey": 2, "Rabbit": 1, "Meerkat": 1,
}
NAMES = ("Ann", "Bob", "Cid", "Dee", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jon")


def simulate_bite(
    players: int, seed: int = 0, strengths: Mapping[str, int] | None = None
) -> list[BiteEvent]:
    """One complete game for ``players`` players (3 to 10: ValueError otherwise)."""
    rng = random.Random(seed)
    cards = [card for card, n in rules.deck(players).items() for _ in range(n)]
    rng.shuffle(cards)
    seats = NAMES[:players]
    given = dict(SIM_STRENGTHS if strengths is None else strengths)
    setup = BiteStarted(
        0,
        seats,
        tuple(cards.pop() for _ in seats),
        tuple(sorted(given.items(), key=lambda kv: rules.CARDS.index(kv[0]))),
    )
    table = Table(setup)
    events: list[BiteEvent] = [setup]
    k = 0
    while not table.finished:
        k += 1
        who = seats[(k - 1) % players]
        action, target = _action(rng, table, k, who)
        made = [action]
        table.fold(action)
        expected = _steps(table, action, target)
        for expect in expected:
            event = _step(rng, table, k, expect, made, target)
            if event is None:
                continue
            if isinstance(event, Drew):
                event = Drew(k, event.who, cards.pop())
            made.append(event)
            table.fold(event)
            if table.finished:
                made.append(table.ending(k))
                table.fold(made[-1])
                break
        events.extend(made)
    return events


def simulate_bites(
    games: int, players: int, seed: int = 0, strengths: Mapping[str, int] | None = None
) -> Iterator[list[BiteEvent]]:
    """``games`` games, the k-th played with seed ``seed + k``."""
    for k in range(games):
        yield simulate_bite(players, seed + k, strengths)


def _action(rng: random.Random, table: Table, k: int, who: str) -> tuple[BiteEvent, str | None]:
    """A random legal action for ``who`` (B4-B14), and a Monkey's target."""
    card = table.seats[who].card
    assert card is not None
    others = [n for n in table.order if n != who]
    choices = ["pass"]
    if rules.may_attack(card):
        choices += ["attack"] * 3
    if rules.may_retreat(card):
        choices += ["retreat"] * 2
    if rules.may_join(card):
        choices += ["join"] * 2
    chosen = rng.choice(choices)
    if chosen == "pass":
        return Passed(k, who), None
    if chosen == "retreat":
        target = rng.choice(others) if card == rules.MONKEY else None
        return Retreated(k, who, card), target
    defender = rng.choice(others)
    joined: tuple[tuple[str, str], ...] = ()
    if chosen == "join":
        able = [n for n in others if n != defender and rules.may_join(_held(table, n))]
        if able:
            picked = rng.sample(able, min(len(able), rng.choice((1, 2))))
            joined = tuple((n, _held(table, n)) for n in sorted(picked, key=table.order.index))
    return Attacked(k, who, card, defender, _held(table, defender), joined), None


def _held(table: Table, name: str) -> str:
    card = table.seats[name].card
    assert card is not None
    return card


def _steps(table: Table, action: BiteEvent, target: str | None) -> list[rules.Expect]:
    if isinstance(action, Attacked):
        found = rules.expected_steps(
            "attack", action.who, action.card, action.defender, action.defender_card,
            action.joined, table.order, table.holding, table.strengths, target,
        )
    elif isinstance(action, Retreated):
        found = rules.expected_steps(
            "retreat", action.who, action.card, None, None, (), table.order, table.holding,
            table.strengths, target,
        )
    else:
        found = []
    assert not isinstance(found, frozenset), "the simulator knows every strength"
    return found


def _step(
    rng: random.Random,
    table: Table,
    k: int,
    expect: rules.Expect,
    made: list[BiteEvent],
    target: str | None,
) -> BiteEvent | None:
    """An event for one expected step, its choices made at random (None: left out)."""
    who = rng.choice(expect.who)
    if expect.kind == "claims":
        assert expect.other is not None
        assert expect.card is not None
        return Claimed(k, who, expect.other[0], expect.card)
    if expect.kind == "picks":  # B13: from the one who claimed the Mosquito
        owner = next(e.who for e in made if isinstance(e, Claimed) and e.owner == who)
        return Picked(k, who, owner, rng.choice(table.seats[owner].trophies))
    if expect.kind == "looks":
        return Looked(k, who) if rng.random() < 0.5 else None
    if expect.kind == "takes":
        assert target is not None
        return Took(k, who, target, _held(table, target))
    return Drew(k, who, "")  # the card: the deck's next
