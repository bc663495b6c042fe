"""A recorded game of "Come on! Bite me!" as a reader gives it, before any rule.

A reader of any notation makes these (``importers.bmn`` for BMN); the validator
turns them into events. Names and cards are kept as written; the validator
matches them ignoring case.
"""

from __future__ import annotations

import attrs

from getbit_events.events import SourcePos
from getbit_events.record import RecordedTag, Violation

__all__ = ["BiteRecord", "BiteStep", "BiteTurn", "RecordedTag"]


@attrs.frozen
class BiteStep:
    """One step a turn states after its action: ``kind`` is ``claims`` (``who``
    claims ``other``'s ``card``), ``picks`` (``who`` takes ``card`` from ``other``'s
    trophies, B13), ``draws`` (``who`` draws ``card``), ``takes`` (``who`` takes
    ``other``'s ``card``, B12) or ``looks`` (B11); ``other`` and ``card`` are empty
    where the kind has none."""

    kind: str
    who: str
    other: str = ""
    card: str = ""
    pos: SourcePos = attrs.field(factory=lambda: SourcePos("", 0))


@attrs.frozen
class BiteTurn:
    """One turn line: its number, who acts and how (``attack``, ``retreat``,
    ``pass``), the cards revealed, and the steps that followed, as written.

    ``card`` is the actor's card (attacking or retreating), ``joined`` the players
    who joined a Join Forces with their cards (empty for a plain Attack).
    """

    number: int
    pos: SourcePos
    who: str
    action: str
    card: str = ""
    defender: str = ""
    defender_card: str = ""
    joined: tuple[tuple[str, str], ...] = ()
    steps: tuple[BiteStep, ...] = ()


@attrs.frozen
class BiteRecord:
    """One game of a file: its tags and turns, or the syntax errors that spoil it.

    ``rounds`` is ``turns`` under the name Get Bit!'s records use, so code that
    counts a record's rounds counts a record of either game.
    """

    source: str
    index: int
    pos: SourcePos
    tags: tuple[RecordedTag, ...] = ()
    turns: tuple[BiteTurn, ...] = ()
    syntax_errors: tuple[Violation, ...] = ()
    text: bytes | None = attrs.field(default=None, eq=False, repr=False)

    @property
    def rounds(self) -> tuple[BiteTurn, ...]:
        return self.turns
