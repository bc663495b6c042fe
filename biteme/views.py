"""What each player saw (B17): a game's events as one player knew them.

A battle's cards (and the trophies and random trophy that follow it) are seen
by the players in it; a Retreat's card by everyone; a drawn card by its
drawer; a Monkey's take by the two players it passes between; a dealt card by
its holder. Every other card is ``HIDDEN``. The events are the record's, an
observer's; a view is derived from them, never stored.

A Fox's look (B11) shows its player every other card held at that moment: the
view keeps the ``Looked`` event, and ``looked_at`` gives those cards.
"""

from __future__ import annotations

from collections.abc import Iterable

import attrs

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
    StepStated,
    Took,
    TurnStated,
)
from biteme.fold import Table

__all__ = ["HIDDEN", "looked_at", "view_of"]

#: a card the player could not see
HIDDEN = "?"


def view_of(events: Iterable[BiteEvent], player: str) -> list[BiteEvent]:
    """``events`` as ``player`` saw them: each card it could not see is ``HIDDEN``."""
    seen: list[BiteEvent] = []
    battle: frozenset[str] = frozenset()  # the players of this turn's battle
    for event in events:
        if isinstance(event, Retreated | Passed):  # a turn with no battle
            battle = frozenset()
        elif isinstance(event, BiteStarted):
            deal = tuple(
                c if n == player else HIDDEN for n, c in zip(event.seats, event.deal, strict=True)
            )
            event = attrs.evolve(event, deal=deal)
        elif isinstance(event, Attacked):
            battle = frozenset((event.who, event.defender, *(n for n, _ in event.joined)))
            if player not in battle:
                event = attrs.evolve(
                    event,
                    card=HIDDEN,
                    defender_card=HIDDEN,
                    joined=tuple((n, HIDDEN) for n, _ in event.joined),
                )
        elif isinstance(event, Claimed | Picked):
            if player not in battle:
                event = attrs.evolve(event, card=HIDDEN)
        elif isinstance(event, Took):
            if player not in (event.who, event.owner):
                event = attrs.evolve(event, card=HIDDEN)
        elif isinstance(event, Drew) and event.who != player:
            event = attrs.evolve(event, card=HIDDEN)
        elif isinstance(event, TurnStated):  # kept as recorded: no battle is fought
            battle = frozenset()
            named = (event.who, event.defender, *(n for n, _ in event.joined))
            if player not in named and event.action == "attack":
                event = attrs.evolve(
                    event,
                    card=HIDDEN,
                    defender_card=HIDDEN if event.defender_card else "",
                    joined=tuple((n, HIDDEN) for n, _ in event.joined),
                )
        elif isinstance(event, StepStated) and event.card and player not in (
            event.who, event.other
        ):
            event = attrs.evolve(event, card=HIDDEN)
        seen.append(event)
    return seen


def looked_at(events: Iterable[BiteEvent], look: Looked) -> dict[str, str]:
    """B11: the cards ``look``'s player saw: every other player's card at that moment."""
    it = iter(events)
    first = next(it)
    assert isinstance(first, BiteStarted)
    table = Table(first)
    for event in it:
        if event == look:
            break
        table.fold(event)
    return {
        n: s.card for n, s in table.seats.items() if n != look.who and s.card is not None
    }
