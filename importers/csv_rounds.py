"""CSV rounds (``docs/csv.md``): a score sheet kept in a spreadsheet, read as recorded games.

One column per swimmer in starting-line order (and one for the Shark), one row
per round, tags as ``# Name: value`` lines above the header. The reader checks
only the layout, with file:line:col for every error, and leaves the rules to the
validator; a broken game spoils only itself. A file is read line by line (the
lines of ``importers.gbn_lex``: a NUL, a byte that is not UTF-8 or a line past the
limit is an error of its game), so memory holds one game.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import IO

from getbit_events.events import SourcePos
from getbit_events.limits import MAX_ROUNDS, MAX_TEXT
from getbit_events.record import RecordedGame, RecordedPlay, RecordedRound, RecordedTag, Violation
from getbit_events.rules import SHARK_CARDS
from importers.gbn_lex import Line, file_lines, is_number, open_record, short, text_lines
from importers.reading import GameErrors, Held

__all__ = ["iter_csv", "iter_csv_file", "iter_csv_stream", "read_csv", "read_csv_file"]

_TAG = re.compile(r"#\s*([A-Za-z][A-Za-z0-9_-]*)\s*:\s*(.*?)\s*$")
_SHARK = frozenset(SHARK_CARDS)
_ALNUM = re.compile(r"[A-Za-z0-9]")


def iter_csv_file(path: str | Path, source: str | None = None) -> Iterator[RecordedGame]:
    """The games of a CSV file one at a time, read line by line
    (InputError at once when it cannot be opened)."""
    stream, name = open_record(path, source)
    return iter_csv_stream(stream, name)


def iter_csv_stream(stream: IO[bytes], source: str) -> Iterator[RecordedGame]:
    """The games of a binary stream of CSV rounds, read line by line; closed after."""
    with stream:
        yield from _Reader(source).games(file_lines(stream))


def read_csv_file(path: str | Path, source: str | None = None) -> list[RecordedGame]:
    """Every game of a CSV file (InputError when it cannot be opened)."""
    return list(iter_csv_file(path, source))


def iter_csv(text: str, source: str = "<text>") -> Iterator[RecordedGame]:
    """The games of CSV ``text`` one at a time."""
    return _Reader(source).games(text_lines(text))


def read_csv(text: str, source: str = "<text>") -> list[RecordedGame]:
    """Every game of CSV ``text``, in order; games with layout errors carry them."""
    return list(iter_csv(text, source))


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


def _is_card(cell: str) -> bool:
    return not cell or is_number(cell) or cell == "-" or cell.casefold() in _SHARK


class _Reader:
    """The games of a sheet's lines, read one line at a time.

    Where a game begins (``docs/csv.md``, how a damaged file is read): a tag line
    or a header row after the header; after a blank line, a row numbered 1; a row
    of names (a header whose ``round`` is damaged) after rows; and a line that is
    not a row after a blank line, when the next row does not go on with the
    game's rounds. Such a line is held (its error only) until a row or tag says
    which game it is in.
    """

    def __init__(self, source: str) -> None:
        self.source = source
        self.index = 0
        self.held = Held()  # lines after a game's rows whose game is not known yet
        self._reset(None)

    def _reset(self, start: SourcePos | None) -> None:
        self.start = start
        self.tags: list[RecordedTag] = []
        self.header: list[tuple[str, int]] | None = None
        self.header_line = 0
        self.sep = ","
        self.rounds: list[RecordedRound] = []
        self.rows = 0  # rows read, those past MAX_ROUNDS too
        self.last = 0  # the round number of the last row (0: none readable)
        self.errors = GameErrors()

    def _game(self) -> RecordedGame:
        assert self.start is not None
        self.index += 1
        if self.header is None and self.errors.empty():
            self._error("expected the header row 'round,NAME,NAME,...' of the game", self.start)
        tags = list(self.tags)
        if self.header:
            line = [name for name, _ in self.header[1:] if not self._is_shark(name)]
            where = SourcePos(self.source, self.header_line, 1)
            tags.append(RecordedTag("Line", ", ".join(line), where))
        return RecordedGame(
            self.source,
            self.index,
            self.start,
            tuple(tags),
            tuple(self.rounds),
            self.errors.final(),
        )

    def _next_games(self, start: SourcePos) -> list[RecordedGame]:
        """The game read so far; a new one begins at ``start``. Held lines begin it too,
        or, when none holds a letter or a digit (a damaged blank line between two
        games), they are a game of their own, so that neither neighbour takes them."""
        games = [self._game()]
        held = self.held
        if held.any() and held.junk:
            self._reset(held.start)
            self.header = []  # its lines' errors say what is wrong
            self.errors.take(held.release())
            games.append(self._game())
        self._reset(held.start or start)
        self.errors.take(held.release())
        return games

    def _error(self, message: str, pos: SourcePos, rnd: int | None = None) -> None:
        self.errors.add(Violation("syntax", message, pos, rnd))

    def _is_shark(self, name: str) -> bool:
        shark = next((t.value for t in self.tags if t.name.casefold() == "shark"), None)
        return shark is not None and name.casefold() == shark.strip().casefold()

    def games(self, lines: Iterable[Line]) -> Iterator[RecordedGame]:
        blank = False  # a blank line since the last line read
        for number, line, fault in lines:
            body = line.strip()
            if not body or not body.strip(",;"):
                blank = True
                continue  # blank, or a spreadsheet's empty row
            pos = SourcePos(self.source, number, len(line) - len(line.lstrip()) + 1)
            tag = body.startswith("#")  # a tag, or a comment or tag with a bad byte
            match = _TAG.match(body) if tag else None
            if tag and match is None and fault is None:
                continue  # a comment
            cells = _cells(line, self.sep)
            header = not tag and cells[0][0].casefold() == "round"
            row = not tag and not header and fault is None and is_number(cells[0][0])
            if tag or header:
                if self.rounds or self.header is not None or self.rows:
                    yield from self._next_games(pos)
            elif self.rows:  # which game does this line belong to?
                if row:
                    written = int(cells[0][0])
                    if self.held.any():
                        if written > self.last:  # it goes on with the game: so do the held lines
                            self.errors.take(self.held.release())
                        else:
                            junk = self.held.junk
                            yield from self._next_games(pos)
                            if not junk:
                                self.header = []  # the held line was its header, and said so
                    elif blank and written == 1:
                        yield from self._next_games(pos)
                else:
                    junk = _ALNUM.search(body) is None
                    if blank or self.held.any() or junk:
                        self.held.add(self._stray(line, number, pos, fault), junk)
                        blank = False
                        continue
                    if not all(_is_card(cell) for cell, _ in cells[1:]):  # names: a header
                        yield from self._next_games(pos)
            blank = False
            if self.start is None:
                self.start = pos
            if tag:
                self._tag(match, pos, fault)
            elif self.header is None or header:
                self._read_header(line, pos, fault)
            else:
                self._read_row(line, number, fault)
        if self.start is not None:
            game = self._game()
            self._reset(None)
            yield game
        if self.held.any():  # lines after the last game's rows, in no game: a game of their own
            self.start = self.held.start
            self.header = []  # its lines' errors say what is wrong
            self.errors.take(self.held.release())
            yield self._game()

    def _stray(
        self, line: str, number: int, pos: SourcePos, fault: tuple[int, str] | None
    ) -> Violation:
        """The error of a line after a game's rows that is not a row."""
        if fault is not None:
            return Violation("syntax", fault[1], SourcePos(self.source, number, fault[0]), None)
        return Violation(
            "syntax",
            f"expected a row 'N,CARD,CARD,...', a tag '# Name: value' or a header "
            f"'round,NAME,...', not {short(line.strip())}",
            pos,
            None,
        )

    def _tag(self, m: re.Match[str] | None, pos: SourcePos, fault: tuple[int, str] | None) -> None:
        if fault is not None or m is None:
            assert fault is not None, "a line of '#' without a tag is a comment"
            self._error(fault[1], SourcePos(self.source, pos.line, fault[0]))
            return
        name, value = m.group(1, 2)
        if name.casefold() == "teams":
            longest = max(len(p.strip()) for p in re.split(r"[,;:]", value))
        else:
            longest = len(value)
        longest = max(longest, len(name))
        if longest > MAX_TEXT:
            self._error(f"a tag's name or value of {longest} characters; at most {MAX_TEXT}", pos)
            return
        self.tags.append(RecordedTag(name, value, pos))

    def _read_header(self, line: str, pos: SourcePos, fault: tuple[int, str] | None) -> None:
        self.header_line = pos.line
        if fault is not None:
            self._error(fault[1], SourcePos(self.source, pos.line, fault[0]))
            self.header = []
            return
        self.sep = ";" if "," not in line and ";" in line else ","
        cells = _cells(line, self.sep)
        if cells[0][0].casefold() != "round":
            self._error(
                f"expected the header row 'round,NAME,NAME,...', not {short(line.strip())}",
                SourcePos(self.source, pos.line, cells[0][1]),
            )
            self.header = []
            return
        ok = True
        for name, column in cells[1:]:
            where = SourcePos(self.source, pos.line, column)
            if not name:
                self._error(
                    "an empty column name: every column after 'round' names a swimmer", where
                )
            elif len(name) > MAX_TEXT:
                self._error(
                    f"a name of {len(name)} characters ({short(name)}); at most {MAX_TEXT}",
                    where,
                )
                ok = False
        self.header = cells if ok else []

    def _read_row(self, line: str, number: int, fault: tuple[int, str] | None) -> None:
        assert self.header is not None
        self.rows += 1
        if self.rows > MAX_ROUNDS:  # one error; the rest is skipped, not kept
            if self.rows == MAX_ROUNDS + 1:
                self._error(
                    f"more than {MAX_ROUNDS} rounds: a game ends long before; "
                    "its further rows are not read",
                    SourcePos(self.source, number, 1),
                )
            return
        cells = _cells(line, self.sep)
        if is_number(cells[0][0]):
            self.last = int(cells[0][0])
        if not self.header:
            return  # the header is broken; its error says so
        index = len(self.rounds) + 1
        pos = SourcePos(self.source, number, cells[0][1])
        if fault is not None:
            self._error(fault[1], SourcePos(self.source, number, fault[0]), index)
            self.rounds.append(RecordedRound(index, index, pos, ()))
            return
        wrong = self._width_fault(cells, line)
        if wrong is not None:
            message, column = wrong
            self._error(message, SourcePos(self.source, number, column), index)
            self.rounds.append(RecordedRound(index, index, pos, ()))
            return
        value, column = cells[0]
        if not is_number(value):
            self._error(
                f"expected the round number (ASCII digits), not {short(value)}",
                SourcePos(self.source, number, column),
                index,
            )
            self.rounds.append(RecordedRound(index, index, pos, ()))
            return
        self.rounds.append(RecordedRound(index, int(value), pos, self._plays(cells, number, index)))

    def _width_fault(self, cells: list[tuple[str, int]], line: str) -> tuple[str, int] | None:
        """What is wrong with a row of another number of cells than the header, and the
        column; None for a row as wide as the header."""
        assert self.header is not None
        width = len(self.header)
        if len(cells) == width:
            return None
        if len(cells) < width:
            names = [n for n, _ in self.header[1:]]
            missing = ", ".join(names[len(cells) - 1 :])
            message = (
                f"{len(cells)} cells where the header has {width}: no cell for "
                f"{short(missing) if len(missing) > 60 else missing} "
                "(leave a cell empty, not out)"
            )
            return message, len(line.rstrip()) + 1
        return f"{len(cells)} cells where the header has {width} columns", cells[width][1]

    def _plays(
        self, cells: list[tuple[str, int]], number: int, index: int
    ) -> tuple[RecordedPlay, ...]:
        """A row's plays, a cell a swimmer (none when a card is flagged)."""
        assert self.header is not None
        plays: list[RecordedPlay] = []
        ok = True
        for (name, _), (card, column) in zip(self.header[1:], cells[1:], strict=True):
            if not card:
                continue  # not in the game (or the Shark in round 1)
            folded = card.casefold()
            if is_number(card) or card == "-" or folded in _SHARK:
                card = folded if folded in _SHARK else card
                plays.append(RecordedPlay(name, card, number, column))
            else:
                self._error(
                    f"expected a card for {name}: 1 to 7, '-' or a Shark card "
                    f"({', '.join(SHARK_CARDS)}), not {short(card)}",
                    SourcePos(self.source, number, column),
                    index,
                )
                ok = False
        return tuple(plays) if ok else ()
