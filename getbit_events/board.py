"""The board: the validator's private, mutable working state of one game.

A recorded game is checked round by round on a board, so a long record costs
no frozen snapshot and no event object per fact; the events and the frozen
``GameState`` of a checked game are made from its round log only when someone
asks for them (``GameReport.events``, ``GameReport.state``).

The board changes in two ways only: ``reveal`` puts the round's cards on the
table (R3; the validator does the same card by card as it reads the plays,
with ``place`` and then ``revealed_all``), and ``apply`` (or ``settle_in``)
folds in the steps the rules gave (``rules.settle``).
A step is an event not yet made into an object: its class and its fields after
the round, e.g. ``(SwimmerBitten, "Ted", "right-arm")``. ``apply`` does what the
reducer's fold does with the same events; tests/test_board.py holds the two
equal after every round of random games, legal and illegal.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any

from getbit_events.events import (
    CardsDiscarded,
    CardsTakenBack,
    GameEnded,
    GameStarted,
    HungerLost,
    HungerStated,
    LineStated,
    SharkCardsTakenBack,
    SwimmerBitten,
    SwimmerDevoured,
    SwimmerMoved,
)
from getbit_events.rules import LIMBS, SHARK_CARDS

if TYPE_CHECKING:
    from getbit_events.rules import Settlement
    from getbit_events.state import GameState

__all__ = ["Board", "Seat", "SharkSeat", "Step", "own_plays"]

#: An event not yet made: its class, then its fields after ``round`` (no ``pos``).
Step = tuple[Any, ...]



def own_plays(
    cards: tuple[tuple[str, int | None], ...], line: Iterable[str]
) -> tuple[tuple[str, int | None], ...]:
    """The plays the game takes: the first of each swimmer in the line (R3). A record
    may state others (a name not in the game, a swimmer devoured, a second play): the
    events keep them, and the fold leaves them aside."""
    inline = set(line)
    seen: set[str] = set()
    own: list[tuple[str, int | None]] = []
    for name, value in cards:
        if name in inline and name not in seen:
            seen.add(name)
            own.append((name, value))
    return cards if len(own) == len(cards) else tuple(own)


class Seat:
    """One swimmer on the board: limbs left, hand, table (play order), discards.

    ``clean`` says every card on its table was played from its hand, so all of
    them come back when it takes its played cards back (R6, R7); a card played
    against the rules makes the table unclean until it is cleared.
    """

    __slots__ = ("clean", "discards", "hand", "limbs", "name", "table")

    def __init__(
        self,
        name: str,
        limbs: tuple[str, ...],
        hand: Iterable[int],
        table: Iterable[int] = (),
        discards: Iterable[int] = (),
    ) -> None:
        self.name = name
        self.limbs = limbs
        self.hand: set[int] = set(hand)
        self.table: list[int] = list(table)
        self.discards: list[int] = list(discards)
        self.clean = not self.table  # a table of unknown history is looked at card by card


class SharkSeat:
    """The Shark player on the board: its hand, played Shark cards and hunger."""

    __slots__ = ("hand", "hunger", "key", "name", "table")

    def __init__(
        self, name: str, hand: Iterable[str], table: Iterable[str] = (), hunger: int = 0
    ) -> None:
        self.name = name
        self.key = name.casefold()  # names match ignoring case
        self.hand: set[str] = set(hand)
        self.table: list[str] = list(table)
        self.hunger = hunger


class Board:
    """A game in progress, as the validator walks it (never handed out)."""

    __slots__ = (
        "devoured",
        "end_reason",
        "line",
        "ranking",
        "revealed",
        "round",
        "seats",
        "setup",
        "shark",
        "shark_card",
        "winner",
    )

    def __init__(self, setup: GameStarted) -> None:
        """The board before round 1: full hands (R1), four limbs each, the starting line."""
        hand = range(1, setup.hand_size + 1)
        self.setup = setup
        self.seats: dict[str, Seat] = {n: Seat(n, LIMBS, hand) for n in setup.line}
        self.line: list[str] = list(setup.line)
        self.devoured: list[str] = []
        self.shark: SharkSeat | None = (
            SharkSeat(setup.shark, SHARK_CARDS, (), setup.hunger)
            if setup.shark is not None
            else None
        )
        self.round = 0
        self.revealed: tuple[tuple[str, int | None], ...] = ()
        self.shark_card: str | None = None
        self.winner: str | None = None
        self.ranking: tuple[str, ...] | None = None
        self.end_reason: str | None = None

    @classmethod
    def of(cls, state: GameState) -> Board:
        """A board holding the same facts as a frozen ``state``."""
        board = cls(state.setup)
        board.seats = {
            s.name: Seat(s.name, s.limbs, s.hand, s.table, s.discards) for s in state.swimmers
        }
        board.line = list(state.line)
        board.devoured = list(state.devoured)
        shark = state.shark
        board.shark = (
            SharkSeat(shark.name, shark.hand, shark.table, shark.hunger)
            if shark is not None
            else None
        )
        board.round = state.round
        board.revealed = own_plays(state.revealed, board.line)
        board.shark_card = state.shark_card
        board.winner = state.winner
        board.ranking = state.ranking
        board.end_reason = state.end_reason
        return board

    def swimmer(self, name: str) -> Seat:
        return self.seats[name]

    @property
    def finished(self) -> bool:
        return self.winner is not None

    def limbs(self) -> dict[str, int]:
        """Limbs left per swimmer, 0 for the devoured, in starting-line order."""
        return {n: len(s.limbs) for n, s in self.seats.items()}

    # -- the fold --------------------------------------------------------------

    def reveal(
        self, r: int, cards: tuple[tuple[str, int | None], ...], shark_card: str | None
    ) -> None:
        """R3: every card played this round leaves its hand for the table, in play order
        (a play by a name not in the line, or a swimmer's second, is left aside)."""
        cards = own_plays(cards, self.line)
        for name, value in cards:
            if value is not None:
                self.place(name, value)
        self.revealed_all(r, cards, shark_card)

    def place(self, name: str, value: int) -> None:
        """One card on the table: from the hand, or, against the rules, from nowhere."""
        seat = self.seats[name]
        if value in seat.hand:
            seat.hand.remove(value)
        else:
            seat.clean = False
        seat.table.append(value)

    def revealed_all(
        self, r: int, cards: tuple[tuple[str, int | None], ...], shark_card: str | None
    ) -> None:
        """The round's swimmer cards are on the table (``place``); now the Shark's too."""
        shark = self.shark
        if shark_card is not None and shark is not None:
            shark.hand.discard(shark_card)
            shark.table.append(shark_card)
        self.round = r
        self.revealed = cards
        self.shark_card = shark_card

    def apply(self, steps: Iterable[Step]) -> None:
        """Fold the steps of a round in, as the reducer folds the same events."""
        handlers = _HANDLERS
        for step in steps:
            handlers[step[0]](self, *step[1:])

    def settle_in(self, outcome: Settlement) -> None:
        """Fold a round's outcome in: ``apply`` of its steps, with the line its moves leave
        (``outcome.line``) taken whole instead of one move at a time."""
        self.line = list(outcome.line)
        handlers = _HANDLERS
        for step in outcome.steps:
            kind = step[0]
            if kind is CardsTakenBack:  # the commonest steps, called directly
                self._taken_back(step[1], step[2])
            elif kind is SwimmerBitten:
                self._bitten(step[1], step[2])
            elif kind is not SwimmerMoved:  # a bitten swimmer's swim: in outcome.line already
                handlers[kind](self, *step[1:])

    def _moved(self, who: str, why: str) -> None:
        line = self.line
        if who in line:
            line.remove(who)
        line.insert(0, who)

    def _bitten(self, who: str, limb: str) -> None:
        seat = self.seats[who]
        limbs = seat.limbs
        if limb in limbs:
            seat.limbs = tuple([x for x in limbs if x != limb])
        else:  # R6: a limb already lost, as recorded: the bite takes the first one left
            seat.limbs = limbs[1:]

    def _devoured(self, who: str, why: str) -> None:
        if who in self.devoured:  # devoured before, as a record may say again
            return
        self.seats[who].limbs = ()
        if who in self.line:
            self.line.remove(who)
        self.devoured.append(who)

    def _taken_back(self, who: str, cards: tuple[int, ...]) -> None:
        seat = self.seats[who]
        seat.hand.update(cards)
        seat.table.clear()
        seat.clean = True

    def _shark_taken_back(self, cards: tuple[str, ...]) -> None:
        shark = self.shark
        if shark is not None:
            shark.hand.update(cards)
            shark.table.clear()

    def _hunger(self, left: int) -> None:
        if self.shark is not None:
            self.shark.hunger = left

    def _discarded(self, cards: tuple[tuple[str, int], ...]) -> None:
        for name, value in cards:
            seat = self.seats[name]
            table = seat.table
            if value in table:
                del table[len(table) - 1 - table[::-1].index(value)]
            seat.discards.append(value)

    def _stated(self, value: Any) -> None:
        """A stated outcome the game cannot take (``HungerStated``, ``LineStated``)."""

    def _ended(self, winner: str, ranking: tuple[str, ...], why: str) -> None:
        self.winner = winner
        self.ranking = ranking
        self.end_reason = why


_HANDLERS: dict[Any, Callable[..., None]] = {
    SwimmerMoved: Board._moved,
    SwimmerBitten: Board._bitten,
    SwimmerDevoured: Board._devoured,
    CardsTakenBack: Board._taken_back,
    SharkCardsTakenBack: Board._shark_taken_back,
    HungerLost: Board._hunger,
    CardsDiscarded: Board._discarded,
    HungerStated: Board._stated,
    LineStated: Board._stated,
    GameEnded: Board._ended,
}
