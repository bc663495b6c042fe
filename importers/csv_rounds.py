"""CSV rounds (``docs/csv.md``): a score sheet kept in a spreadsheet, read as recorded games.

One column per swimmer in starting-line order (and one for the Shark), one row
per round, tags as ``# Name: value`` lines above the header. The reader checks
only the layout, with file:line:col for every error, and leaves the rules to the
validator; a broken game spoils only itself.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

from getbit_events.events import SourcePos
from getbit_events.record import RecordedGame, RecordedPlay, RecordedRound, RecordedTag, Violation
from getbit_events.rules import SHARK_CARDS

__all__ = ["read_csv", "read_csv_file"]

_TAG = re.compile(r"#\s*([A-Za-z][A-Za-z0-9_-]*)\s*:\s*(.*?)\s*$")
_SHARK = frozenset(SHARK_CARDS)


def read_csv_file(path: str | Path, source: str | None = None) -> list[RecordedGame]:
    """Every game of a CSV file (InputError when it cannot be read as UTF-8 text)."""
    from importers.gbn import read_text

    return read_csv(*read_text(path, source))


def read_csv(text: str, source: str = "<text>") -> list[RecordedGame]:
    """Every game of CSV ``text``, in order; games with layout errors carry them."""
    return list(_Reader(source).games(text))


def _cells(line: str, sep: str) -> list[tuple[str, int]]:
    """The cells of one line with the 1-based column each starts at ("" quotes allowed)."""
    cells: list[tuple[str, int]] = []
    i, n = 0, len(line)
    while True:
        start = i
        while i < n and line[i] == " ":
            i += 1
        if i < n and line[i] == '"':
            i += 1
            value = []
            while i < n:
                if line[i] == '"':
                    if i + 1 < n and line[i + 1] == '"':
                        value.append('"')
                        i += 2
                        continue
                    i += 1
                    break
                value.append(line[i])
                i += 1
            end = line.find(sep, i)
            end = n if end < 0 else end
            cells.append(("".join(value) + line[i:end].strip(), start + 1))
        else:
            end = line.find(sep, i)
            end = n if end < 0 else end
            cells.append((line[i:end].strip(), start + 1))
        if end >= n:
            return cells
        i = end + 1


class _Reader:
    def __init__(self, source: str) -> None:
        self.source = source
        self.index = 0
        self._reset(None)

    def _reset(self, start: SourcePos | None) -> None:
        self.start = start
        self.tags: list[RecordedTag] = []
        self.header: list[tuple[str, int]] | None = None
        self.sep = ","
        self.rounds: list[RecordedRound] = []
        self.errors: list[Violation] = []

    def _game(self) -> RecordedGame:
        assert self.start is not None
        self.index += 1
        if self.header is None and not self.errors:
            self._error("expected the header row 'round,NAME,NAME,...' of the game", self.start)
        tags = list(self.tags)
        if self.header is not None:
            line = [name for name, _ in self.header[1:] if not self._is_shark(name)]
            where = SourcePos(self.source, self.header_line, 1)
            tags.append(RecordedTag("Line", ", ".join(line), where))
        return RecordedGame(
            self.source, self.index, self.start, tuple(tags), tuple(self.rounds), tuple(self.errors)
        )

    def _error(self, message: str, pos: SourcePos, rnd: int | None = None) -> None:
        self.errors.append(Violation("syntax", message, pos, rnd))

    def _is_shark(self, name: str) -> bool:
        shark = next((t.value for t in self.tags if t.name.casefold() == "shark"), None)
        return shark is not None and name.casefold() == shark.strip().casefold()

    def games(self, text: str) -> Iterator[RecordedGame]:
        for number, raw in enumerate(text.split("\n"), 1):
            line = raw[:-1] if raw.endswith("\r") else raw
            body = line.strip()
            if not body or not body.strip(",;"):
                continue  # blank, or a spreadsheet's empty row
            pos = SourcePos(self.source, number, len(line) - len(line.lstrip()) + 1)
            if body.startswith("#"):
                m = _TAG.match(body)
                if m is None:
                    continue  # a comment
                if self.rounds or self.header is not None:  # a tag after rows: the next game
                    yield self._game()
                    self._reset(None)
                if self.start is None:
                    self.start = pos
                self.tags.append(RecordedTag(m.group(1), m.group(2), pos))
                continue
            if self.start is None:
                self.start = pos
            if self.header is None:
                self._read_header(line, pos)
            elif self._looks_like_header(line):
                yield self._game()
                self._reset(pos)
                self._read_header(line, pos)
            else:
                self._read_row(line, number)
        if self.start is not None:
            yield self._game()

    def _looks_like_header(self, line: str) -> bool:
        first = _cells(line, self.sep)[0][0]
        return first.casefold() == "round"

    def _read_header(self, line: str, pos: SourcePos) -> None:
        self.sep = ";" if "," not in line and ";" in line else ","
        cells = _cells(line, self.sep)
        self.header_line = pos.line
        if cells[0][0].casefold() != "round":
            self._error(
                f"expected the header row 'round,NAME,NAME,...', not {line.strip()!r}",
                SourcePos(self.source, pos.line, cells[0][1]),
            )
            self.header = []
            return
        for name, column in cells[1:]:
            if not name:
                self._error(
                    "an empty column name: every column after 'round' names a swimmer",
                    SourcePos(self.source, pos.line, column),
                )
        self.header = cells

    def _read_row(self, line: str, number: int) -> None:
        assert self.header is not None
        if not self.header:
            return  # the header is broken; its error says so
        cells = _cells(line, self.sep)
        index = len(self.rounds) + 1
        pos = SourcePos(self.source, number, cells[0][1])
        width = len(self.header)
        if len(cells) != width:
            names = [n for n, _ in self.header[1:]]
            if len(cells) < width:
                missing = ", ".join(names[len(cells) - 1 :])
                message = (
                    f"{len(cells)} cells where the header has {width}: no cell for {missing} "
                    "(leave a cell empty, not out)"
                )
                column = len(line.rstrip()) + 1
            else:
                message = f"{len(cells)} cells where the header has {width} columns"
                column = cells[width][1]
            self._error(message, SourcePos(self.source, number, column), index)
            self.rounds.append(RecordedRound(index, index, pos, ()))
            return
        value, column = cells[0]
        if not value.isdigit():
            self._error(
                f"expected the round number, not {value!r}",
                SourcePos(self.source, number, column),
                index,
            )
            self.rounds.append(RecordedRound(index, index, pos, ()))
            return
        plays: list[RecordedPlay] = []
        ok = True
        for (name, _), (card, column) in zip(self.header[1:], cells[1:], strict=True):
            where = SourcePos(self.source, number, column)
            if not card:
                continue  # not in the game (or the Shark in round 1)
            folded = card.casefold()
            if card.isdigit() or card == "-" or folded in _SHARK:
                card = folded if folded in _SHARK else card
                plays.append(RecordedPlay(name, card, number, column))
            else:
                self._error(
                    f"expected a card for {name}: 1 to 7, '-' or a Shark card "
                    f"({', '.join(SHARK_CARDS)}), not {card!r}",
                    where,
                    index,
                )
                ok = False
        self.rounds.append(RecordedRound(index, int(value), pos, tuple(plays) if ok else ()))
