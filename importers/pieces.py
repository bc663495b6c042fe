"""A record file (GBN, or a JSON Lines log) cut into pieces that are read apart, for an
import's worker processes (``store.jobs``): each worker reads only its own pieces,
instead of going through every line of the file to find where the others' games end.

A file can be cut before any line that begins a game whatever the lines before it:
in a log, a ``game-started`` whole and well formed (``jsonl.begins_game``); in GBN, a
tag line after a round line (``gbn.cut_before``). Such a line ends the game before it
and begins its own, and the reader is then as it is at the start of a file, so the
games of a piece are exactly those the whole file read in one go gives there: a piece
is read to its end and on through the line that begins the next (the readers'
``cut``), which ends its last game as it would in the whole file. Its games are
numbered from 1; the process that takes them numbers them on (``store.jobs``), since
how many games a damaged piece holds is known only by reading it.

Finding the cuts reads bytes, not games: a search for ``"game-started"`` (a log) or a
``[`` beginning a line (GBN), and the lines found looked at alone. A file with no cut
in ``PIECE_MAX`` bytes (a damaged one, a log that spells its types with escapes, GBN
with no blank line between games' rounds and tags) is read the usual way from there on
(a ``Rest``), so a piece is never larger than that in memory.
"""

from __future__ import annotations

import io
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import IO

import attrs

from getbit_events.errors import InputError
from getbit_events.record import RecordedGame
from importers.gbn import cut_before, iter_gbn_stream
from importers.jsonl import begins_game, iter_jsonl
from importers.reading import open_bytes, texts_of, with_text
from importers.skipping import Skip, Skipped

__all__ = ["BLOCK", "FORMATS", "PIECE_MAX", "Piece", "Rest", "pieces", "read_piece", "read_rest"]

#: The most bytes a piece may hold: past it with no game begun, the rest is read whole.
PIECE_MAX = 8 << 20
#: Bytes read at once while finding the cuts.
BLOCK = 1 << 20


def _log_cut(buf: bytes, base: int, start: int, end: int) -> bool:
    return begins_game(buf[start:end])


def _gbn_cut(buf: bytes, base: int, start: int, end: int) -> bool:
    low = max(base, start - _LOOK_BEFORE)  # the lines before it, as far as one looks back
    if low > base and buf[low - 1] != 0x0A:  # from the first whole line on
        newline = buf.find(b"\n", low, start)
        low = start if newline < 0 else newline + 1
    return cut_before(buf[low:start], buf[start:end])


_LOOK_BEFORE = 4096  # bytes before a tag line that ``cut_before`` is shown, at most


#: The formats cut, each with what is looked for and whether the line holding it is a
#: cut (given the buffer, where the piece begins in it, and where the line begins and ends).
FORMATS: dict[str, tuple[bytes, Callable[[bytes, int, int, int], bool]]] = {
    "jsonl": (b'"game-started"', _log_cut),
    "gbn": (b"\n[", _gbn_cut),
}


@attrs.frozen
class Piece:
    """Lines of a file that are read apart: ``data`` holds them (its first ``size``
    bytes) and, when ``cut``, the line that begins the next piece after them; ``line``
    is the number of its first line, ``first`` whether it is the file's first piece."""

    source: str
    fmt: str
    line: int
    size: int
    data: bytes = attrs.field(repr=False)
    cut: bool
    first: bool

    def __str__(self) -> str:  # what every worker must agree it is (``skipping.mark``)
        return f"{self.source}:{self.line}: a piece of {self.size} bytes"


@attrs.frozen
class Rest:
    """The rest of a file from byte ``offset``, its line ``line`` (one that begins a
    game, or the first), read the usual way: no cut was found in ``PIECE_MAX`` bytes."""

    path: Path
    source: str
    fmt: str
    offset: int
    line: int


def pieces(path: Path, source: str, fmt: str) -> Iterator[Piece | Rest]:
    """The pieces of the file at ``path`` (``fmt``: one of ``FORMATS``), in order, then
    its ``Rest`` if any. A file with no cut at all is one ``Rest`` (read the usual way,
    from its start)."""
    needle, is_cut = FORMATS[fmt]
    try:
        f = open_bytes(path)
    except OSError as exc:
        raise InputError(f"{source}: cannot read: {exc.strerror or exc}") from None
    with f:
        buf = b""  # the file as far as read, from at most BLOCK bytes before ``base`` on
        base = 0  # where in buf the current piece's first line is
        line = 1  # its number
        offset = 0  # where buf begins in the file
        search = 0  # where in buf the next cut may be looked for
        first = True
        eof = False
        while True:
            at = buf.find(needle, search)
            end = buf.find(b"\n", at + 1) if at >= 0 else -1
            if at < 0 or end < 0:  # more of the file is needed (or there is no more cut)
                if eof:
                    break
                if len(buf) - base > PIECE_MAX:
                    yield Rest(path, source, fmt, offset + base, line)
                    return
                more = f.read(BLOCK)
                eof = not more
                search = (at if at >= 0 else max(base, len(buf) - len(needle) + 1)) - base
                buf = buf[base:] + more
                offset += base
                base = 0
                continue
            search = end + 1
            newline = buf.rfind(b"\n", base, at + 1)
            if newline < 0 or not is_cut(buf, base, newline + 1, search):
                continue  # the piece's own first line, or no cut
            start = newline + 1
            yield Piece(source, fmt, line, start - base, buf[base:search], True, first)
            line += buf.count(b"\n", base, start)
            base = start
            first = False
        if first:  # no cut: the usual way
            yield Rest(path, source, fmt, 0, 1)
        elif base < len(buf):
            yield Piece(source, fmt, line, len(buf) - base, buf[base:], False, False)


def _games(
    fmt: str, stream: IO[bytes], source: str, skip: Skip, first: int, cut: bool
) -> Iterator[RecordedGame | Skipped]:
    if fmt == "gbn":
        return iter_gbn_stream(stream, source, skip, first, cut)
    return iter_jsonl(stream, source, skip, first, cut)


def read_piece(piece: Piece) -> Iterator[RecordedGame]:
    """The games of ``piece``, each with its text, numbered from 1."""
    data = piece.data
    games = _games(piece.fmt, io.BytesIO(data), piece.source, None, piece.line, piece.cut)
    for game in texts_of(games, io.BytesIO(data[: piece.size]), piece.line):
        assert isinstance(game, RecordedGame)  # no skip: every game is read
        yield game


def read_rest(rest: Rest, skip: Skip) -> Iterator[RecordedGame | Skipped]:
    """The games of ``rest``, each with its text, numbered from 1 (``skip``: the
    readers')."""
    with open_bytes(rest.path) as stream:
        stream.seek(rest.offset)
        games = _games(rest.fmt, stream, rest.source, skip, rest.line, False)
        yield from with_text(games, rest.path, rest.offset, rest.line)
