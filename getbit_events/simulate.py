"""Plays complete games by the rules with seeded bots, as event streams.

Two bots: ``random`` plays a uniformly random legal card; ``sensible`` avoids
values others are likely to play (ties keep a swimmer at the back) and keeps
its high cards for when it is in danger at the back of the line.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence

from getbit_events import rules
from getbit_events.events import (
    Event,
    GameStarted,
)
from getbit_events.reducer import apply
from getbit_events.state import GameState, initial_state

__all__ = ["BOTS", "NAMES", "SETUPS", "simulate_game", "simulate_games"]

NAMES: tuple[str, ...] = ("Ann", "Bob", "Cid", "Dee", "Eve", "Fay")
SHARK_NAME = "Jaws"
PLAYERS = ("North", "South")
BOTS: tuple[str, ...] = ("random", "sensible")
#: Every set-up R2 allows, as (variant, swimmers): what a mixed set of games is drawn from.
SETUPS: tuple[tuple[str, int], ...] = (
    ("standard", 4),
    ("standard", 5),
    ("standard", 6),
    ("three-player", 4),
    ("two-player", 4),
    ("shark", 4),
    ("shark", 5),
    ("shark", 6),
)
_MAX_ROUNDS = 1000  # far beyond any game: every round costs a limb, a token or a card


def make_setup(
    variant: str,
    swimmers: int,
    memory: bool = False,
    names: Sequence[str] | None = None,
    tags: tuple[tuple[str, str], ...] = (),
    rng: random.Random | None = None,
) -> GameStarted:
    """A legal set-up (R1, R2); the starting line is shuffled when ``rng`` is given."""
    if variant in ("three-player", "two-player"):
        swimmers = 4
    if (variant, swimmers) not in SETUPS:
        allowed = ", ".join(str(n) for v, n in SETUPS if v == variant) or "none"
        raise ValueError(
            f"{variant} is played by {allowed} swimmers, not {swimmers} (R2)"
            if variant in {v for v, _ in SETUPS}
            else f"unknown variant {variant!r}: choose one of {', '.join(rules.VARIANTS)}"
        )
    line = list((names or NAMES)[:swimmers])
    if len(line) != swimmers:
        raise ValueError(f"need {swimmers} names, got {len(line)}")
    if rng is not None:
        rng.shuffle(line)
    problems = rules.setup_problems(
        variant,
        tuple(line),
        line[-1] if variant == "three-player" else None,
        _teams(line) if variant == "two-player" else (),
        SHARK_NAME if variant == "shark" else None,
    )
    if problems:
        raise ValueError("; ".join(p.message for p in problems))
    return GameStarted(
        0,
        variant,
        memory,
        tuple(line),
        rules.hand_size(len(line)),
        line[-1] if variant == "three-player" else None,
        _teams(line) if variant == "two-player" else (),
        SHARK_NAME if variant == "shark" else None,
        len(line) if variant == "shark" else 0,
        tags,
    )


def _teams(line: Sequence[str]) -> tuple[tuple[str, tuple[str, ...]], ...]:
    ordered = sorted(line)
    return ((PLAYERS[0], tuple(ordered[:2])), (PLAYERS[1], tuple(ordered[2:])))


def simulate_game(
    variant: str = "standard",
    swimmers: int = 4,
    seed: int = 0,
    bot: str = "random",
    memory: bool = False,
    tags: tuple[tuple[str, str], ...] = (),
) -> list[Event]:
    """One complete game played by the rules, as its event stream."""
    if bot not in BOTS:
        raise ValueError(f"unknown bot {bot!r}: choose one of {', '.join(BOTS)}")
    rng = random.Random(seed)
    setup = make_setup(variant, swimmers, memory, tags=tags, rng=rng)
    events: list[Event] = [setup]
    state = initial_state(setup)
    while not state.finished:
        r = state.round + 1
        if r > _MAX_ROUNDS:  # pragma: no cover - the rules end every game long before
            raise RuntimeError("game did not end")
        cards = tuple((name, _choose(state, name, bot, rng)) for name in state.line)
        shark_card = None
        shark_hand = rules.legal_shark_cards(state)  # R5: empty in round 1
        if shark_hand:
            shark_card = rng.choice(sorted(shark_hand))
        round_events = rules.round_events(r, None, cards, setup.shark, shark_card)
        for event in round_events:
            state = apply(state, event)
        back = state.line[-1]
        choice = {back: rng.choice(state.swimmer(back).limbs)} if bot == "random" else {}
        outcome = rules.resolve_round(state, choice)
        for event in outcome.events:
            state = apply(state, event)
        events.extend(round_events)
        events.extend(outcome.events)
    return events


def _choose(state: GameState, name: str, bot: str, rng: random.Random) -> int | None:
    hand = sorted(rules.legal_cards(state, name))
    if not hand:
        return None  # R15: nothing left to play
    if bot == "random" or len(hand) == 1:
        return rng.choice(hand)
    # sensible: at the back, or next to it, play the highest card to escape
    place = state.line.index(name)
    if place >= len(state.line) - 2 and rng.random() < 0.7:
        return hand[-1]
    # otherwise prefer values few others still hold, low ones to keep high ones
    others = [state.swimmer(n).hand for n in state.line if n != name]
    return min(hand, key=lambda v: (sum(v in h for h in others), v, rng.random()))


def simulate_games(
    games: int,
    variant: str = "standard",
    swimmers: int = 4,
    seed: int = 0,
    bot: str = "random",
    memory: bool = False,
) -> Iterator[list[Event]]:
    """``games`` complete games; game k is seeded by ``seed`` and k."""
    for k in range(games):
        yield simulate_game(variant, swimmers, seed * 1_000_003 + k, bot, memory)
