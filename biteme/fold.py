"""The one fold of "Come on! Bite me!": every event reaches its handler on a
``Table`` (a compact mutable copy of the state), which hands out frozen
``BiteState`` snapshots. The validator walks a record on a ``Table`` through the
same handlers; ``fold`` and ``replay`` are for everyone else.

The fold trusts its input: a card revealed that is not the one held is taken as
held (the record is the fact), a claim takes the card the record names. After
the game has ended it changes nothing.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator

from biteme import rules
from biteme.events import (
    Attacked,
    BiteEnded,
    BiteEvent,
    BiteStarted,
    Claimed,
    Drew,
    Looked,
    Passed,
    Picked,
    Retreated,
    SourcePos,
    Took,
)
from biteme.state import BiteState, PlayerState

__all__ = ["Seat", "Table", "fold", "replay"]


class Seat:
    """One player at the table, mutable while the fold runs."""

    __slots__ = ("card", "discards", "meerkats", "name", "trophies")

    def __init__(self, name: str, card: str | None) -> None:
        self.name = name
        self.card = card
        self.meerkats = 0
        self.trophies: list[str] = []
        self.discards: list[str] = []

    def frozen(self) -> PlayerState:
        return PlayerState(
            self.name, self.card, self.meerkats, tuple(self.trophies), tuple(self.discards)
        )


class Table:
    """The game as it stands, mutable: the fold's and the validator's working state."""

    def __init__(self, setup: BiteStarted) -> None:
        self.setup = setup
        self.seats = {name: Seat(name, None) for name in setup.seats}
        self.order = tuple(setup.seats)
        self.strengths = dict(setup.strengths)
        players = min(max(len(setup.seats), rules.MIN_PLAYERS), rules.MAX_PLAYERS)
        self.deck = rules.deck(players)  # B1 (a set-up out of range: the nearest deck)
        self.left = sum(self.deck.values())
        self.turn = 0
        self.finished = False
        self.winners: tuple[str, ...] = ()
        self.ranking: tuple[str, ...] = ()
        for name, card in zip(setup.seats, setup.deal, strict=False):  # B2
            self._drawn(name, card)

    # -- the handlers: one per event class --------------------------------------

    def attacked(self, e: Attacked) -> None:
        self.turn = e.turn
        for name, card in ((e.who, e.card), (e.defender, e.defender_card), *e.joined):
            if name in self.seats:
                self.seats[name].card = card  # the cards revealed are the cards held

    def retreated(self, e: Retreated) -> None:
        self.turn = e.turn
        seat = self.seats.get(e.who)
        if seat is None:
            return
        if e.card == rules.MEERKAT:  # B10: active, not discarded
            seat.meerkats += 1
        else:  # B9, B11, B12
            seat.discards.append(e.card)
        seat.card = None

    def passed(self, e: Passed) -> None:
        self.turn = e.turn

    def claimed(self, e: Claimed) -> None:
        taker, owner = self.seats.get(e.who), self.seats.get(e.owner)
        if taker is None or owner is None:
            return
        # B10: the owner's active Meerkats go with the card
        taker.trophies.extend([e.card] + [rules.MEERKAT] * owner.meerkats)
        owner.meerkats = 0
        owner.card = None

    def picked(self, e: Picked) -> None:
        taker, owner = self.seats.get(e.who), self.seats.get(e.owner)
        if taker is None or owner is None:
            return
        if e.card in owner.trophies:  # B13
            owner.trophies.remove(e.card)
        taker.trophies.append(e.card)

    def drew(self, e: Drew) -> None:
        self._drawn(e.who, e.card)
        if self.left <= 0:  # B15: the last card is drawn
            self.finished = True

    def looked(self, e: Looked) -> None:
        """B11: a look changes nothing on the table (a player's view, B17, keeps it)."""

    def took(self, e: Took) -> None:
        taker, owner = self.seats.get(e.who), self.seats.get(e.owner)
        if taker is None or owner is None:
            return
        taker.card = e.card  # B12: not the owner's Meerkats
        owner.card = None

    def ended(self, e: BiteEnded) -> None:
        self.finished = True
        self.winners, self.ranking = e.winners, e.ranking

    def _drawn(self, name: str, card: str) -> None:
        seat = self.seats.get(name)
        if seat is not None:
            seat.card = card
        self.deck[card] = self.deck.get(card, 0) - 1
        self.left -= 1

    # -- folding and snapshots --------------------------------------------------

    def fold(self, event: BiteEvent) -> None:
        """Fold one event in (nothing changes after the end)."""
        if self.finished and not isinstance(event, BiteEnded):
            return
        handler = _HANDLERS.get(type(event))
        if handler is not None:
            handler(self, event)

    def snapshot(self) -> BiteState:
        """The table as a frozen value."""
        return BiteState(
            tuple(self.seats[n].frozen() for n in self.order),
            tuple(self.setup.strengths),
            tuple(sorted(self.deck.items())),
            self.left,
            self.turn,
            self.finished,
            self.winners,
            self.ranking,
        )

    def ending(self, turn: int, pos: SourcePos | None = None) -> BiteEnded:
        """B15, B16: the end as it stands, with the scores and winners when every
        strength they need is known (B3)."""
        score = rules.scores(
            [(n, self.seats[n].trophies, self.seats[n].discards) for n in self.order],
            self.strengths,
        )
        if isinstance(score, frozenset):
            return BiteEnded(turn, pos=pos)
        trophies = {n: len(self.seats[n].trophies) for n in self.order}
        ranking, winners = rules.standings(score, trophies, self.order)
        return BiteEnded(turn, tuple(score.items()), winners, ranking, pos)

    def holding(self, name: str) -> tuple[str | None, int]:
        """A player's card and active Meerkats (None and 0 for a name not at the table)."""
        seat = self.seats.get(name)
        return (seat.card, seat.meerkats) if seat is not None else (None, 0)


_HANDLERS: dict[type, Callable[[Table, BiteEvent], None]] = {
    Attacked: Table.attacked,  # type: ignore[dict-item]
    Retreated: Table.retreated,  # type: ignore[dict-item]
    Passed: Table.passed,  # type: ignore[dict-item]
    Claimed: Table.claimed,  # type: ignore[dict-item]
    Picked: Table.picked,  # type: ignore[dict-item]
    Drew: Table.drew,  # type: ignore[dict-item]
    Looked: Table.looked,  # type: ignore[dict-item]
    Took: Table.took,  # type: ignore[dict-item]
    BiteEnded: Table.ended,  # type: ignore[dict-item]
}


def replay(events: Iterable[BiteEvent]) -> Iterator[BiteState]:
    """The state after each event (the first must be ``BiteStarted``)."""
    it = iter(events)
    first = next(it, None)
    if not isinstance(first, BiteStarted):
        raise ValueError("a game's events begin with bm-game-started")
    table = Table(first)
    yield table.snapshot()
    for event in it:
        table.fold(event)
        yield table.snapshot()


def fold(events: Iterable[BiteEvent]) -> BiteState:
    """The state after all of ``events``."""
    it = iter(events)
    first = next(it, None)
    if not isinstance(first, BiteStarted):
        raise ValueError("a game's events begin with bm-game-started")
    table = Table(first)
    for event in it:
        table.fold(event)
    return table.snapshot()
