"""What every record reader shares: a file's lines read in bounded memory, and the
syntax errors of one game, capped, with those of lines held until it is known
which game they are in (``docs/gbn.md``, how a damaged file is read).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import IO

from getbit_events.events import SourcePos
from getbit_events.findings import left_out
from getbit_events.limits import MAX_LINE, MAX_VIOLATIONS
from getbit_events.record import Violation

__all__ = ["GameErrors", "Held", "raw_lines"]

_BOM = b"\xef\xbb\xbf"


def raw_lines(stream: IO[bytes]) -> Iterator[tuple[int, bytes, bool]]:
    """Each line of a binary ``stream``: its number, its bytes (line end kept) and
    whether it is past MAX_LINE bytes. A byte-order mark at the start is dropped.

    A line is never held past MAX_LINE + 1 bytes: a longer one comes as its first
    MAX_LINE + 1 bytes, and the rest is skipped in small pieces.
    """
    number = 0
    while True:
        raw = stream.readline(MAX_LINE + 1)
        if not raw:
            return
        number += 1
        if number == 1 and raw.startswith(_BOM):
            raw = raw[3:]
        if len(raw) > MAX_LINE and not raw.endswith(b"\n"):
            while True:  # skip the rest of the line without holding it
                chunk = stream.readline(1 << 16)
                if not chunk or chunk.endswith(b"\n"):
                    break
            yield number, raw, True
        else:
            yield number, raw, False


class GameErrors:
    """The syntax errors a reader finds in one game: the first MAX_VIOLATIONS kept,
    the rest counted (then one more says how many, as the validator's own do)."""

    def __init__(self) -> None:
        self.kept: list[Violation] = []
        self.left_out = 0

    def add(self, violation: Violation) -> None:
        if len(self.kept) < MAX_VIOLATIONS:
            self.kept.append(violation)
        else:
            self.left_out += 1

    def take(self, other: GameErrors) -> None:
        """Add ``other``'s errors (and its count of those left out) to these."""
        for violation in other.kept:
            self.add(violation)
        self.left_out += other.left_out

    def empty(self) -> bool:
        return not self.kept and not self.left_out

    def final(self) -> tuple[Violation, ...]:
        """The errors kept, and the count of those left out, as the game carries them."""
        if not self.left_out:
            return tuple(self.kept)
        return (*self.kept, left_out(self.left_out, self.kept[-1].pos))


class Held:
    """The errors of lines after a game's rounds whose game is not known yet: the
    next round line or tag says whether they go on with that game or begin the next."""

    def __init__(self) -> None:
        self.errors = GameErrors()
        self.start: SourcePos | None = None  # where the first held line is
        self.junk = False  # no held line holds a letter or a digit

    def add(self, violation: Violation, junk: bool) -> None:
        self.junk = junk and (self.junk or self.errors.empty())
        if self.start is None:
            self.start = violation.pos
        self.errors.add(violation)

    def any(self) -> bool:
        return not self.errors.empty()

    def release(self) -> GameErrors:
        """The held errors, handed to the game they belong to; nothing is held after."""
        errors = self.errors
        self.errors = GameErrors()
        self.start = None
        self.junk = False
        return errors
