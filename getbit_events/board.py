"""The board: a game's mutable working state, and the one set of event handlers.

Every layer folds events through this module: the validator walks a record on
a ``Board`` (``reveal``/``place``/``revealed_all``, then ``settle_in`` of the
steps the rules gave), and the reducer's fold (``reducer.py``), which replay,
the read models and the store use, keeps a ``Board`` as its private holder and
hands out frozen ``GameState`` snapshots of it (``Board.snapshot``). A step
(``rules.settle``) and an event go through the same handler: a step is an event
not yet made (``steps.py``), its fields after ``round`` by the event's names,
e.g. ``Bitten(who="Ted", limb="right-arm")`` for a ``SwimmerBitten``.

The handlers trust their input (the rules judge): a fact the game cannot take
(a name not in the game, a swimmer devoured before) is kept in the events and
changes nothing here.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from typing import Any, Protocol, TypeVar

from getbit_events.events import (
    CardChosen,
    CardsDiscarded,
    CardsRevealed,
    CardsTakenBack,
    Event,
    GameEnded,
    GameStarted,
    HungerLost,
    HungerStated,
    LineStated,
    MissStated,
    OutcomeStated,
    PlayStated,
    SharkCardPlayed,
    SharkCardsTakenBack,
    SwimmerBitten,
    SwimmerDevoured,
    SwimmerMoved,
)
from getbit_events.setups import LIMBS, SHARK_CARDS, starting_hand
from getbit_events.state import GameState, SharkState, SwimmerState
from getbit_events.steps import EVENT_OF, Bitten, Moved, Step, TookBack

__all__ = ["Board", "Outcome", "Seat", "SharkSeat", "own_plays"]

Plays = tuple[tuple[str, int | None], ...]

# Speed trick (docs/architecture.md, "Speed tricks in the fold"): the fold makes
# every state value one way, without running its class's ``__init__``: a copy of
# its class's dict of fields (``_SWIMMER``...: taken from a value the constructor
# made, so a copy shares its keys as the constructor's own dicts do) is given the
# value's fields, then to an empty object of a plain class (``type()`` keeps it one
# under mypyc too), whose class is then set to the value's, of the same layout. A
# replay makes one per event (``Board.snapshot``); tests/test_properties.py holds
# every value so made equal, field for field and class for class, to the
# constructor's (``state.initial_state`` uses the constructors: once a game).
_T = TypeVar("_T")
_Blank = type("_Blank", (), {})

_SWIMMER: dict[str, Any] = SwimmerState("", (), frozenset()).__dict__
_SHARK: dict[str, Any] = SharkState("", frozenset()).__dict__
_GAME: dict[str, Any] = GameState(GameStarted(0, "standard", False, (), 0), (), ()).__dict__


def _made(cls: type[_T], fields: dict[str, Any]) -> _T:
    """The frozen ``cls`` value holding ``fields`` (the dict itself: a copy of the
    class's ``_SWIMMER``, ``_SHARK`` or ``_GAME`` with each field set)."""
    value = _Blank()
    value.__dict__ = fields
    value.__class__ = cls
    return value  # type: ignore[no-any-return]


class Outcome(Protocol):
    """What ``Board.settle_in`` folds in (``rules.Settlement``)."""

    moved: tuple[str, ...]  # who moved to the front by its card (R4)
    steps: list[Step]  # what followed the moves
    line: tuple[str, ...]  # the line after the round


def own_plays(cards: Plays, line: Iterable[str]) -> Plays:
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
    against the rules makes the table unclean until it is cleared. ``frozen``
    holds its last snapshot until it changes, and ``frozen_hand``,
    ``frozen_table``, ``frozen_discards`` each field's last frozen value, so a
    snapshot after a bite shares the hand and the table of the one before.
    """

    __slots__ = (
        "clean", "devoured", "discards", "face_down", "frozen", "frozen_discards", "frozen_hand",
        "frozen_table", "hand", "limbs", "name", "table",
    )

    def __init__(
        self,
        name: str,
        limbs: tuple[str, ...],
        hand: Iterable[int],
        table: Iterable[int] = (),
        discards: Iterable[int] = (),
        face_down: int = 0,
        devoured: bool = False,
    ) -> None:
        self.name = name
        self.limbs = limbs
        self.hand: set[int] = set(hand)
        self.table: list[int] = list(table)
        self.discards: list[int] = list(discards)
        self.face_down = face_down  # R16: table cards, oldest first, turned face down
        self.devoured = devoured
        self.clean = not self.table  # a table of unknown history is looked at card by card
        self.frozen: SwimmerState | None = None
        self.frozen_hand: frozenset[int] | None = None
        self.frozen_table: tuple[int, ...] | None = None
        self.frozen_discards: tuple[int, ...] | None = None

    def snapshot(self) -> SwimmerState:
        """This seat as a frozen value (made again only after a change, sharing the
        fields that did not change)."""
        frozen = self.frozen
        if frozen is None:
            hand = self.frozen_hand
            if hand is None:
                hand = self.frozen_hand = frozenset(self.hand)
            table = self.frozen_table
            if table is None:
                table = self.frozen_table = tuple(self.table)
            discards = self.frozen_discards
            if discards is None:
                discards = self.frozen_discards = tuple(self.discards)
            fields = _SWIMMER.copy()  # _made: the one way
            fields["name"] = self.name
            fields["limbs"] = self.limbs
            fields["hand"] = hand
            fields["table"] = table
            fields["discards"] = discards
            fields["face_down"] = self.face_down
            fields["devoured"] = self.devoured
            frozen = self.frozen = _made(SwimmerState, fields)
        return frozen


def _seat_of(s: SwimmerState) -> Seat:
    seat = Seat(s.name, s.limbs, s.hand, s.table, s.discards, s.face_down, s.devoured)
    seat.frozen = s
    seat.frozen_hand = s.hand
    seat.frozen_table = s.table
    seat.frozen_discards = s.discards
    return seat


class SharkSeat:
    """The Shark player on the board: its hand, played Shark cards and hunger."""

    __slots__ = ("frozen", "hand", "hunger", "key", "name", "table")

    def __init__(
        self, name: str, hand: Iterable[str], table: Iterable[str] = (), hunger: int = 0
    ) -> None:
        self.name = name
        self.key = name.casefold()  # names match ignoring case
        self.hand: set[str] = set(hand)
        self.table: list[str] = list(table)
        self.hunger = hunger
        self.frozen: SharkState | None = None  # its last snapshot, until it changes

    def snapshot(self) -> SharkState:
        frozen = self.frozen
        if frozen is None:
            fields = _SHARK.copy()
            fields["name"] = self.name
            fields["hand"] = frozenset(self.hand)
            fields["table"] = tuple(self.table)
            fields["hunger"] = self.hunger
            frozen = self.frozen = _made(SharkState, fields)
        return frozen


class Board:
    """A game in progress: the validator's walk, and the reducer's private holder."""

    __slots__ = (
        "chosen",
        "devoured",
        "end_reason",
        "fields",
        "frozen",
        "line",
        "line_frozen",
        "phase",
        "ranking",
        "recorded",
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
        hand = starting_hand(setup.hand_size)
        self.setup = setup
        self.seats: dict[str, Seat] = {n: Seat(n, LIMBS, hand) for n in setup.line}
        frozen_hand = frozenset(hand)  # one value for every full hand, as initial_state's
        for seat in self.seats.values():
            seat.frozen_hand = frozen_hand
            seat.frozen_table = seat.frozen_discards = ()
        self.line: list[str] = list(setup.line)  # front first
        self.line_frozen: tuple[str, ...] | None = setup.line  # the line's last snapshot
        self.devoured: tuple[str, ...] = ()
        self.shark: SharkSeat | None = (
            SharkSeat(setup.shark, SHARK_CARDS, (), setup.hunger)
            if setup.shark is not None
            else None
        )
        self.round = 0
        self.phase = "setup"
        self.chosen: tuple[str, ...] = ()
        self.revealed: Plays = ()  # the plays the game takes (own_plays)
        self.recorded: Plays = ()  # the plays as the record states them
        self.shark_card: str | None = None
        self.winner: str | None = None
        self.ranking: tuple[str, ...] | None = None
        self.end_reason: str | None = None
        self.frozen: tuple[SwimmerState, ...] | None = None  # the swimmers' last snapshot
        # the last snapshot's fields, copied by the next (None: make them all again)
        self.fields: dict[str, Any] | None = None

    @classmethod
    def of(cls, state: GameState) -> Board:
        """A board holding the same facts as a frozen ``state``."""
        board = cls(state.setup)
        board.seats = {s.name: _seat_of(s) for s in state.swimmers}
        board.frozen = state.swimmers
        board.line = list(state.line)
        board.line_frozen = state.line
        board.devoured = state.devoured
        shark = state.shark
        if shark is not None:
            board.shark = SharkSeat(shark.name, shark.hand, shark.table, shark.hunger)
            board.shark.frozen = shark
        else:
            board.shark = None
        board.round = state.round
        board.phase = state.phase
        board.chosen = state.chosen
        board.recorded = state.revealed
        board.revealed = own_plays(state.revealed, board.line)
        board.shark_card = state.shark_card
        board.winner = state.winner
        board.ranking = state.ranking
        board.end_reason = state.end_reason
        return board

    def snapshot(self) -> GameState:
        """The board as a frozen value; unchanged swimmers are the values made before.

        A copy of the last snapshot's fields, with those that may have changed set
        again: the swimmers, the line and the Shark only when changed, the fields of
        a round always; ``devour`` and ``ended`` have every field set again."""
        shark = self.shark
        last = self.fields
        if last is None:
            fields = _GAME.copy()
            fields["setup"] = self.setup
            fields["swimmers"] = self._swimmers()
            fields["line"] = self._line()
            fields["shark"] = shark.snapshot() if shark is not None else None
            fields["devoured"] = self.devoured
            fields["winner"] = self.winner
            fields["ranking"] = self.ranking
            fields["end_reason"] = self.end_reason
        else:
            fields = last.copy()
            if self.frozen is None:
                fields["swimmers"] = self._swimmers()
            if self.line_frozen is None:
                fields["line"] = self._line()
            if shark is not None and shark.frozen is None:
                fields["shark"] = shark.snapshot()
        fields["round"] = self.round
        fields["phase"] = self.phase
        fields["chosen"] = self.chosen
        fields["revealed"] = self.recorded
        fields["shark_card"] = self.shark_card
        self.fields = fields
        return _made(GameState, fields)

    def _swimmers(self) -> tuple[SwimmerState, ...]:
        swimmers = self.frozen
        if swimmers is None:
            swimmers = self.frozen = tuple([seat.snapshot() for seat in self.seats.values()])
        return swimmers

    def _line(self) -> tuple[str, ...]:
        line = self.line_frozen
        if line is None:
            line = self.line_frozen = tuple(self.line)
        return line

    def swimmer(self, name: str) -> Seat:
        return self.seats[name]

    @property
    def finished(self) -> bool:
        return self.winner is not None

    def limbs(self) -> dict[str, int]:
        """Limbs left per swimmer, 0 for the devoured, in starting-line order."""
        return {n: len(s.limbs) for n, s in self.seats.items()}

    # -- a round's plays (R3) ----------------------------------------------------

    def choose(self, r: int, who: str) -> None:
        """``who`` chose a card for round ``r`` (the first choice opens the round)."""
        if self.phase == "choose":
            self.chosen += (who,)
            return
        if self.phase == "ended":  # R17: a round recorded after the end changes nothing
            return
        self.round = r
        self.chosen = (who,)
        self.recorded = self.revealed = ()
        self.shark_card = None
        self.phase = "choose"

    def reveal(self, r: int, cards: Plays, shark_card: str | None) -> None:
        """R3: every card played this round leaves its hand for the table, in play order
        (a play by a name not in the line, or a swimmer's second, is left aside)."""
        own = own_plays(cards, self.line)
        for name, value in own:
            if value is not None:
                self.place(name, value)
        self.revealed_all(r, own, shark_card)
        self.recorded = cards

    def place(self, name: str, value: int) -> None:
        """One card on the table: from the hand, or, against the rules, from nowhere."""
        seat = self.seats[name]
        if value in seat.hand:
            seat.hand.remove(value)
            seat.frozen_hand = None
        else:
            seat.clean = False
        seat.table.append(value)
        seat.frozen_table = None
        seat.frozen = None
        self.frozen = None

    def revealed_all(self, r: int, cards: Plays, shark_card: str | None) -> None:
        """The round's swimmer cards are on the table (``place``); now the Shark's too."""
        shark = self.shark
        if shark_card is not None and shark is not None:
            shark.hand.discard(shark_card)
            shark.table.append(shark_card)
            shark.frozen = None
        self.round = r
        self.revealed = self.recorded = cards
        self.shark_card = shark_card
        self.phase = "reveal"
        self.chosen = ()

    def shark_played(self, shark: str, card: str) -> None:
        """The Shark's card of the round, on the table (R11)."""
        if self.phase == "ended":  # R17
            return
        seat = self.shark
        if seat is None:  # a Shark the set-up does not name, as recorded
            seat = self.shark = SharkSeat(shark, ())
        seat.hand.discard(card)
        seat.table.append(card)
        seat.frozen = None
        self.shark_card = card
        self.phase = "reveal"

    # -- what follows (R4-R14) ---------------------------------------------------

    def settle_in(self, outcome: Outcome) -> None:
        """Fold a round's outcome in: its steps, with the line its moves leave
        (``outcome.line``) taken whole instead of one move at a time."""
        self.line = list(outcome.line)
        self.line_frozen = None
        if outcome.moved:
            self.phase = "move"
        handlers = _ON_STEP
        for step in outcome.steps:
            if isinstance(step, TookBack):  # the commonest steps, called directly
                self.taken_back(step.who, step.cards)
            elif isinstance(step, Bitten):
                self.bitten(step.who, step.limb)
            elif not isinstance(step, Moved):  # a bitten swimmer's swim: in outcome.line already
                handlers[type(step)](self, step)

    def moved(self, who: str, why: str) -> None:
        """``who`` swims to the front (R4 by its card, R6 after a bite, or as stated)."""
        line = self.line
        if who in line:
            if line[0] != who:
                line.remove(who)
                line.insert(0, who)
                self.line_frozen = None
        elif who in self.seats:
            line.insert(0, who)
            self.line_frozen = None
        if why == "card":
            self.phase = "move"

    def bitten(self, who: str, limb: str) -> None:
        """``who`` loses ``limb`` (R6, R11)."""
        seat = self.seats.get(who)
        if seat is None:  # a name not in the game: nothing to bite
            return
        limbs = seat.limbs
        if limb in limbs:
            seat.limbs = tuple([x for x in limbs if x != limb])
        else:  # R6: a limb already lost, as recorded: the bite takes the first one left
            seat.limbs = limbs[1:]
        seat.frozen = None
        self.frozen = None
        if self.setup.memory:  # R16: the played cards are turned face down at the bite
            for s in self.seats.values():
                if s.face_down != len(s.table):
                    s.face_down = len(s.table)
                    s.frozen = None
                    self.frozen = None
        self.phase = "bite"

    def devour(self, who: str, why: str) -> None:
        """``who`` is devoured (R6, R8, or as recorded)."""
        seat = self.seats.get(who)
        if seat is None or who in self.devoured:  # not in the game (any more)
            return
        seat.limbs = ()
        seat.devoured = True
        seat.frozen = None
        self.frozen = None
        if who in self.line:
            self.line.remove(who)
            self.line_frozen = None
        self.devoured = (*self.devoured, who)
        self.fields = None  # a field the next snapshot does not copy changed
        self.phase = "bite"

    def taken_back(self, who: str, cards: tuple[int, ...]) -> None:
        """``who`` takes ``cards`` back into its hand, and its table is cleared (R6, R7)."""
        seat = self.seats.get(who)
        if seat is None:  # a name not in the game
            return
        if cards:
            seat.hand.update(cards)
            seat.frozen_hand = None
        seat.table.clear()
        seat.frozen_table = ()
        seat.face_down = 0
        seat.clean = True
        seat.frozen = None
        self.frozen = None
        if self.phase in ("move", "bite", "reveal"):
            self.phase = "refresh"

    def shark_taken_back(self, cards: tuple[str, ...]) -> None:
        """R13: the Shark takes its played cards back."""
        shark = self.shark
        if shark is not None:
            shark.hand.update(cards)
            shark.table.clear()
            shark.frozen = None

    def hunger_lost(self, left: int) -> None:
        """R12: the Shark missed and has ``left`` hunger tokens."""
        shark = self.shark
        if shark is not None:
            shark.hunger = left
            shark.frozen = None
        self.phase = "bite"

    def discarded(self, cards: tuple[tuple[str, int], ...]) -> None:
        """R11 Exhaustion: each tied card leaves its table for the discards."""
        for name, value in cards:
            seat = self.seats.get(name)
            if seat is None:  # a name not in the game
                continue
            table = seat.table
            if value in table:
                del table[len(table) - 1 - table[::-1].index(value)]
            seat.discards.append(value)
            seat.face_down = min(seat.face_down, len(table))
            seat.frozen_table = seat.frozen_discards = None
            seat.frozen = None
            self.frozen = None
        self.phase = "bite"

    def stated(self, value: Any = None) -> None:
        """A stated fact the game cannot take (``HungerStated``, ``LineStated``,
        ``MissStated``, ``PlayStated``): kept
        in the events as recorded, and it changes nothing."""

    def ended(self, winner: str, ranking: tuple[str, ...], why: str) -> None:
        """The game is over (R8, R10, R14)."""
        self.phase = "ended"
        self.winner = winner
        self.ranking = ranking
        self.end_reason = why
        self.fields = None  # fields the next snapshot does not copy changed

    # -- events ------------------------------------------------------------------

    def fold(self, event: Event) -> None:
        """Fold one event in (a ``GameStarted`` is the caller's: it starts a new board)."""
        _ON_EVENT[type(event)](self, event)

    def snapshots(self, events: Iterable[Event]) -> Iterator[GameState]:
        """Fold ``events`` in one by one, yielding a snapshot after each (``reducer.replay``)."""
        on_event = _ON_EVENT
        for event in events:
            try:
                handler = on_event[type(event)]
            except KeyError:  # a second game-started
                raise ValueError("a game's events hold one game-started, at the start") from None
            handler(self, event)
            yield self.snapshot()


# Each event's fields, handed to the handler its step would reach. The board is
# typed, so that compiled, each is a direct call of the handler; the event is not,
# as a step (``steps.py``) with the same fields reaches the same function.


def _chosen(b: Board, e: Any) -> None:
    b.choose(e.round, e.who)


def _revealed(b: Board, e: Any) -> None:
    if b.phase != "ended":  # R17: a round recorded after the end changes nothing
        b.reveal(e.round, e.cards, None)


def _shark_played(b: Board, e: Any) -> None:
    b.shark_played(e.shark, e.card)


def _moved(b: Board, e: Any) -> None:
    b.moved(e.who, e.why)


def _bitten(b: Board, e: Any) -> None:
    b.bitten(e.who, e.limb)


def _devoured(b: Board, e: Any) -> None:
    b.devour(e.who, e.why)


def _taken_back(b: Board, e: Any) -> None:
    b.taken_back(e.who, e.cards)


def _shark_taken_back(b: Board, e: Any) -> None:
    b.shark_taken_back(e.cards)


def _hunger_lost(b: Board, e: Any) -> None:
    b.hunger_lost(e.left)


def _discarded(b: Board, e: Any) -> None:
    b.discarded(e.cards)


def _stated(b: Board, e: Any) -> None:
    b.stated()


def _ended(b: Board, e: Any) -> None:
    b.ended(e.winner, e.ranking, e.why)


_ON_EVENT: dict[type[Any], Callable[[Board, Any], None]] = {
    CardChosen: _chosen,
    CardsRevealed: _revealed,
    SharkCardPlayed: _shark_played,
    SwimmerMoved: _moved,
    SwimmerBitten: _bitten,
    SwimmerDevoured: _devoured,
    CardsTakenBack: _taken_back,
    SharkCardsTakenBack: _shark_taken_back,
    HungerLost: _hunger_lost,
    CardsDiscarded: _discarded,
    HungerStated: _stated,
    LineStated: _stated,
    MissStated: _stated,
    PlayStated: _stated,
    OutcomeStated: _stated,
    GameEnded: _ended,
}

# a step reaches the handler of the event it becomes: its fields have the event's names
_ON_STEP: dict[type[Any], Callable[[Board, Any], None]] = {
    step: _ON_EVENT[event] for step, event in EVENT_OF.items()
}
