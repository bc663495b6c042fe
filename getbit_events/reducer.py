"""The fold: ``apply(state, event)`` and ``replay(events)``. It trusts its input.

Whether an event was legal is for the rules and the validator to say; the
reducer only records what the event says happened, so a trusted stream from the
store replays fast and a checked record is folded by the very same code.

The fold works on a private mutable holder (a dict of the state's fields) and
hands out frozen ``GameState`` snapshots; every field it holds is itself an
immutable value, so a snapshot shares structure with the one before and costs
one dict copy (measured against ``attrs.evolve`` in bench/validate.py).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from typing import Any, TypeVar

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
    SharkCardPlayed,
    SharkCardsTakenBack,
    SwimmerBitten,
    SwimmerDevoured,
    SwimmerMoved,
)
from getbit_events.state import GameState, SharkState, SwimmerState, initial_state

__all__ = ["Fold", "apply", "fold", "replay"]

_T = TypeVar("_T")
_Fields = dict[str, Any]

# The fold makes its frozen values without running their ``__init__`` (it trusts
# its input): an empty object of a plain class (``type()`` keeps it one under
# mypyc too) is given the value's fields and then the value's class, which both
# have the same layout. CPython makes a value so in about two thirds of the time
# of ``object.__new__`` plus ``object.__setattr__(obj, "__dict__", ...)``, and a
# replay makes one per event and one per card played (bench/validate.py, (b)).
_Blank = type("_Blank", (), {})


def _make(cls: type[_T], fields: _Fields) -> _T:
    """A ``cls`` value holding ``fields`` (the dict itself, not a copy)."""
    value = _Blank()
    value.__dict__ = fields
    value.__class__ = cls
    return value  # type: ignore[no-any-return]


def _evolve(obj: _T, **changes: Any) -> _T:
    """A copy of a frozen state value with ``changes`` (one dict copy)."""
    fields = obj.__dict__.copy()
    fields.update(changes)
    return _make(type(obj), fields)


def _snapshot(fields: _Fields) -> GameState:
    return _make(GameState, fields.copy())


def _change_swimmer(d: _Fields, name: str, **changes: Any) -> None:
    if name not in d["setup"].line:  # a name not in the game: nothing to change
        return
    i = d["setup"].line.index(name)
    swimmers = list(d["swimmers"])
    swimmers[i] = _evolve(swimmers[i], **changes)
    d["swimmers"] = tuple(swimmers)


def _chosen(d: _Fields, e: CardChosen) -> None:
    if d["phase"] == "choose":
        d["chosen"] += (e.who,)
        return
    if d["phase"] == "ended":  # R17: a round recorded after the end changes nothing
        return
    d["round"] = e.round
    d["chosen"] = (e.who,)
    d["revealed"] = ()
    d["shark_card"] = None
    d["phase"] = "choose"


def _revealed(d: _Fields, e: CardsRevealed) -> None:
    if d["phase"] == "ended":  # R17: a round recorded after the end changes nothing
        return
    swimmers = list(d["swimmers"])
    index = d["setup"].line.index
    line = d["line"]
    placed: set[str] = set()
    for name, value in e.cards:
        # a recorded play the game cannot take (a name not in the line, a second
        # play of one swimmer) is kept in the event and changes nothing
        if name in placed or name not in line:
            continue
        placed.add(name)
        if value is None:
            continue
        i = index(name)
        fields = swimmers[i].__dict__.copy()
        fields["hand"] = fields["hand"] - {value}
        fields["table"] += (value,)
        s = _Blank()  # _make, inlined: a replay makes one per card played
        s.__dict__ = fields
        s.__class__ = SwimmerState
        swimmers[i] = s
    d["swimmers"] = tuple(swimmers)
    d["round"] = e.round
    d["phase"] = "reveal"
    d["chosen"] = ()
    d["revealed"] = e.cards
    d["shark_card"] = None


def _shark_played(d: _Fields, e: SharkCardPlayed) -> None:
    if d["phase"] == "ended":  # R17
        return
    shark = d["shark"] or SharkState(e.shark, frozenset())
    fields = shark.__dict__.copy()  # as _evolve, minus its keyword dict (a replay is faster)
    fields["hand"] = shark.hand - {e.card}
    fields["table"] = (*shark.table, e.card)
    d["shark"] = _make(SharkState, fields)
    d["shark_card"] = e.card
    d["phase"] = "reveal"


def _moved(d: _Fields, e: SwimmerMoved) -> None:
    who = e.who
    line = d["line"]
    if who in line:
        i = line.index(who)
        if i:
            d["line"] = (who, *line[:i], *line[i + 1 :])
    elif who in d["setup"].line:
        d["line"] = (who, *line)
    if e.why == "card":
        d["phase"] = "move"


def _bitten(d: _Fields, e: SwimmerBitten) -> None:
    if e.who not in d["setup"].line:  # a name not in the game: nothing to bite
        return
    i = d["setup"].line.index(e.who)
    swimmers = list(d["swimmers"])
    fields = swimmers[i].__dict__.copy()
    limbs = fields["limbs"]
    if e.limb in limbs:
        j = limbs.index(e.limb)
        fields["limbs"] = limbs[:j] + limbs[j + 1 :]
    else:  # R6: a limb already lost, as recorded: the bite takes the first one left
        fields["limbs"] = limbs[1:]
    swimmers[i] = _make(SwimmerState, fields)
    if d["setup"].memory:  # R16: the played cards are turned face down at the bite
        for k, s in enumerate(swimmers):
            if s.face_down != len(s.table):
                fields = s.__dict__.copy()  # as _evolve, minus its keyword dict
                fields["face_down"] = len(s.table)
                swimmers[k] = _make(SwimmerState, fields)
    d["swimmers"] = tuple(swimmers)
    d["phase"] = "bite"


def _devoured(d: _Fields, e: SwimmerDevoured) -> None:
    if e.who not in d["setup"].line or e.who in d["devoured"]:  # not in the game (any more)
        return
    _change_swimmer(d, e.who, limbs=(), devoured=True)
    d["line"] = tuple(n for n in d["line"] if n != e.who)
    d["devoured"] = (*d["devoured"], e.who)
    d["phase"] = "bite"


def _taken_back(d: _Fields, e: CardsTakenBack) -> None:
    if e.who not in d["setup"].line:  # a name not in the game
        return
    i = d["setup"].line.index(e.who)
    swimmers = list(d["swimmers"])
    fields = swimmers[i].__dict__.copy()
    fields["hand"] = fields["hand"].union(e.cards)
    fields["table"] = ()
    fields["face_down"] = 0
    swimmers[i] = _make(SwimmerState, fields)
    d["swimmers"] = tuple(swimmers)
    if d["phase"] in ("move", "bite", "reveal"):
        d["phase"] = "refresh"


def _shark_taken_back(d: _Fields, e: SharkCardsTakenBack) -> None:
    shark = d["shark"]
    if shark is not None:
        d["shark"] = _evolve(shark, hand=shark.hand | frozenset(e.cards), table=())


def _hunger(d: _Fields, e: HungerLost) -> None:
    shark = d["shark"]
    if shark is not None:
        d["shark"] = _evolve(shark, hunger=e.left)
    d["phase"] = "bite"


def _discarded(d: _Fields, e: CardsDiscarded) -> None:
    swimmers = list(d["swimmers"])
    index = d["setup"].line.index
    for name, value in e.cards:
        if name not in d["setup"].line:  # a name not in the game
            continue
        i = index(name)
        s: SwimmerState = swimmers[i]
        table = list(s.table)
        if value in table:
            del table[len(table) - 1 - table[::-1].index(value)]
        swimmers[i] = _evolve(
            s,
            table=tuple(table),
            discards=(*s.discards, value),
            face_down=min(s.face_down, len(table)),
        )
    d["swimmers"] = tuple(swimmers)
    d["phase"] = "bite"


def _stated(d: _Fields, e: HungerStated | LineStated) -> None:
    """A stated outcome the game cannot take (a hunger without a miss, a line of other
    swimmers): kept in the events as recorded, and it changes nothing."""


def _ended(d: _Fields, e: GameEnded) -> None:
    d["phase"] = "ended"
    d["winner"] = e.winner
    d["ranking"] = e.ranking
    d["end_reason"] = e.why


_HANDLERS: dict[type[Any], Callable[[_Fields, Any], None]] = {
    CardChosen: _chosen,
    CardsRevealed: _revealed,
    SharkCardPlayed: _shark_played,
    SwimmerMoved: _moved,
    SwimmerBitten: _bitten,
    SwimmerDevoured: _devoured,
    CardsTakenBack: _taken_back,
    SharkCardsTakenBack: _shark_taken_back,
    HungerLost: _hunger,
    CardsDiscarded: _discarded,
    HungerStated: _stated,
    LineStated: _stated,
    GameEnded: _ended,
}


class Fold:
    """A fold in progress: apply events one by one, take a frozen snapshot any time."""

    __slots__ = ("_fields",)

    def __init__(self, state: GameState) -> None:
        self._fields: _Fields = state.__dict__.copy()

    def apply(self, event: Event) -> None:
        if isinstance(event, GameStarted):
            self._fields = initial_state(event).__dict__.copy()
        else:
            _HANDLERS[type(event)](self._fields, event)

    def extend(self, events: Iterable[Event]) -> None:
        handlers = _HANDLERS
        for event in events:
            handler = handlers.get(type(event))
            if handler is None:
                self.apply(event)  # game-started: the fold starts again
            else:
                handler(self._fields, event)

    def snapshot(self) -> GameState:
        return _snapshot(self._fields)

    @property
    def finished(self) -> bool:
        return bool(self._fields["phase"] == "ended")


def apply(state: GameState | None, event: Event) -> GameState:
    """The state after ``event``; a ``GameStarted`` starts from scratch."""
    if isinstance(event, GameStarted):
        return initial_state(event)
    if state is None:
        raise ValueError(f"a game must start with game-started, not {event.TYPE}")
    fields = state.__dict__.copy()
    _HANDLERS[type(event)](fields, event)
    return _make(GameState, fields)


def replay(events: Iterable[Event]) -> Iterator[GameState]:
    """Yield the state after every event, in order; the first must be ``game-started``."""
    stream = iter(events)
    first = next(stream, None)
    if first is None:
        return
    if not isinstance(first, GameStarted):
        raise ValueError(f"a game must start with game-started, not {first.TYPE}")
    fields: _Fields = initial_state(first).__dict__.copy()
    handlers = _HANDLERS
    blank, cls = _Blank, GameState
    yield _make(cls, fields.copy())
    for event in stream:
        kind = type(event)
        # the two commonest events (half of a stream) are folded here, saving a call
        # each; they do just what _chosen and _moved do
        if type(event) is CardChosen and fields["phase"] == "choose":
            fields["chosen"] += (event.who,)
        elif type(event) is SwimmerMoved and event.why == "card" and event.who in fields["line"]:
            who, line = event.who, fields["line"]
            i = line.index(who)
            if i:
                fields["line"] = (who, *line[:i], *line[i + 1 :])
            fields["phase"] = "move"
        else:
            try:
                apply_event = handlers[kind]
            except KeyError:
                raise ValueError("a game's events hold one game-started, at the start") from None
            apply_event(fields, event)
        state = blank()  # _make, inlined: one per event
        state.__dict__ = fields.copy()
        state.__class__ = cls
        yield state


def fold(events: Iterable[Event], state: GameState | None = None) -> GameState:
    """The state after all ``events`` (optionally continuing from ``state``).

    Folds into one private holder and takes a single snapshot at the end.
    """
    stream = iter(events)
    if state is None:
        first = next(stream, None)
        if first is None:
            raise ValueError("no events to fold")
        if not isinstance(first, GameStarted):
            raise ValueError(f"a game must start with game-started, not {first.TYPE}")
        state = initial_state(first)
    holder = Fold(state)
    holder.extend(stream)
    return holder.snapshot()
