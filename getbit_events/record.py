"""A recorded game as read from a file, before any rule is applied.

Every importer (GBN, CSV, JSON Lines) produces these; the validator turns them
into events. Names are kept as written; the validator matches them ignoring case.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple, Protocol

import attrs

from getbit_events.events import SourcePos
from getbit_events.steps import Step

__all__ = [
    "RecordedGame",
    "RecordedOutcome",
    "RecordedPlay",
    "RecordedRound",
    "RecordedTag",
    "RoundText",
    "Violation",
]


@attrs.frozen
class Violation:
    """One problem found in a record: where, which round, what code and why."""

    code: str
    message: str
    pos: SourcePos
    round: int | None = None
    rule: str | None = None

    def __str__(self) -> str:
        where = f"round {self.round}: " if self.round is not None else ""
        return f"{self.pos}: {where}{self.message} [{self.code}]"

    def to_json(self) -> dict[str, object]:
        return {
            "line": self.pos.line,
            "column": self.pos.column,
            "round": self.round,
            "code": self.code,
            "rule": self.rule,
            "message": self.message,
        }


@attrs.frozen
class RecordedTag:
    name: str
    value: str
    pos: SourcePos


class RecordedPlay(NamedTuple):
    """``NAME CARD``: ``card`` is as written: a number, ``-``, or a Shark card name.

    ``line`` and ``column`` say where it is written in the game's source file.
    (Named tuples, not attrs classes: a long record holds one per card played.)
    """

    name: str
    card: str
    line: int
    column: int


class RecordedOutcome(NamedTuple):
    """One stated outcome: ``kind`` is bit, out, miss, hunger, discard, refresh or line.

    An event log also states ``shark-back``: ``names`` holds the Shark when it took
    its played cards back this round (R12, R13), nothing when it did not. GBN has
    no outcome for that; its ``refresh`` lists swimmers only.
    """

    kind: str
    line: int
    column: int
    names: tuple[str, ...] = ()
    limb: str | None = None
    number: int | None = None
    cards: tuple[tuple[str, str], ...] = ()


class RoundText(Protocol):
    """A round line a reader kept as written, to read the rest of it when asked.

    Besides its position, plays and outcomes, it answers the two questions the
    validator asks first, in the record's own notation: which bite it states,
    and whether it states exactly a given outcome. ``steps`` are the facts that
    followed the round's card moves, each an event not yet made (``steps.Step``);
    ``line`` is the line after them.
    """

    def pos(self) -> SourcePos: ...

    def plays(self) -> tuple[RecordedPlay, ...]: ...

    def outcomes(self) -> tuple[RecordedOutcome, ...]: ...

    def bite(self) -> tuple[str, str] | None:
        """The swimmer (as written) and limb of the bite the text states, if it states one."""
        ...

    def states(self, steps: Sequence[Step], line: Sequence[str]) -> bool:
        """Whether the text states just these outcomes, as the notation writes them in full."""
        ...


class RecordedRound:
    """One round line; ``index`` is its position in the game (1 for the first).

    ``plays`` are the round's plays, each with its place in the file; ``cards``
    are the same plays as (name, card) pairs, as written; ``outcomes`` are the
    outcomes it states.

    A reader may give ``cards`` alone with the line they came from (``text``)
    and leave the position, the plays and the outcomes unread until someone
    asks: the validator works from the pairs and asks the text whether it states
    just what the rules say, reading the rest only to say what is wrong and
    where. Immutable once made, like the rest of a record.
    """

    __slots__ = ("_outcomes", "_plays", "_pos", "cards", "index", "number", "text")

    def __init__(
        self,
        index: int,
        number: int,
        pos: SourcePos | None,
        plays: tuple[RecordedPlay, ...] = (),
        outcomes: tuple[RecordedOutcome, ...] = (),
        *,
        cards: tuple[tuple[str, str], ...] | None = None,
        text: RoundText | None = None,
    ) -> None:
        """``pos``, ``plays`` and ``outcomes`` come from ``text`` where it is given."""
        self.index = index
        self.number = number
        self.cards = tuple([(p.name, p.card) for p in plays]) if cards is None else cards
        self.text = text
        self._pos = pos
        self._plays = plays if text is None else None
        self._outcomes = outcomes if text is None else None

    @property
    def pos(self) -> SourcePos:
        """Where the round line starts."""
        if self._pos is None:
            assert self.text is not None, "a round needs a position or its text"
            self._pos = self.text.pos()
        return self._pos

    @property
    def plays(self) -> tuple[RecordedPlay, ...]:
        """Each play, in the order written."""
        if self._plays is None:
            assert self.text is not None
            self._plays = self.text.plays()
        return self._plays

    @property
    def outcomes(self) -> tuple[RecordedOutcome, ...]:
        """Each stated outcome, in the order written."""
        if self._outcomes is None:
            assert self.text is not None
            self._outcomes = self.text.outcomes()
        return self._outcomes

    def _key(self) -> tuple[object, ...]:
        return (self.index, self.number, self.pos, self.plays, self.outcomes)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, RecordedRound):
            return NotImplemented
        return self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        return (
            f"RecordedRound(index={self.index!r}, number={self.number!r}, pos={self.pos!r}, "
            f"plays={self.plays!r}, outcomes={self.outcomes!r})"
        )


@attrs.frozen
class RecordedGame:
    """One game of a file: its tags and rounds, or the syntax errors that spoil it.

    ``text`` is the game's part of the file, byte for byte, where it was read from a
    file (``importers.iter_file``): the provenance of what its events say.
    """

    source: str
    index: int
    pos: SourcePos
    tags: tuple[RecordedTag, ...] = ()
    rounds: tuple[RecordedRound, ...] = ()
    syntax_errors: tuple[Violation, ...] = ()
    text: bytes | None = attrs.field(default=None, eq=False, repr=False)
