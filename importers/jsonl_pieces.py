"""A JSON Lines log cut into pieces that are read apart, for an import's worker
processes (``store.jobs``): each worker reads only its own pieces, not every line of
the log, as it must with a GBN file to find where each game begins.

A log can be cut before any line that begins a game whatever the lines before it
(``jsonl.begins_game``: a ``game-started``, whole and well formed). Such a line ends
the game before it and begins its own, so the games of a piece are exactly those the
whole log read in one go gives there: a piece is read to its end and on through the
line that begins the next (``iter_jsonl``'s ``cut``), which ends its last game as it
would in the whole log. Its games are numbered from 1; the process that takes them
numbers them on (``store.jobs``), since how many games a damaged piece holds is known
only by reading it.

Finding the cuts reads the bytes, not the events: a search for ``"game-started"``,
and the line found parsed alone. A log with no such line in ``PIECE_MAX`` bytes (a
damaged one, or one that spells its types with escapes) is read the usual way from
there on (a ``Rest``), so a piece is never larger than that in memory.
"""

from __future__ import annotations

import io
from collections.abc import Iterator
from pathlib import Path

import attrs

from getbit_events.errors import InputError
from getbit_events.record import RecordedGame
from importers.jsonl import begins_game, iter_jsonl
from importers.reading import open_bytes, texts_of, with_text
from importers.skipping import Skip, Skipped

__all__ = ["BLOCK", "PIECE_MAX", "Piece", "Rest", "pieces", "read_piece", "read_rest"]

#: The most bytes a piece may hold: past it with no game begun, the rest is read whole.
PIECE_MAX = 8 << 20
#: Bytes read at once while finding the cuts.
BLOCK = 1 << 20
_NEEDLE = b'"game-started"'


@attrs.frozen
class Piece:
    """Lines of a log that are read apart: ``data`` holds them (its first ``size``
    bytes) and, when ``cut``, the line that begins the next piece after them; ``line``
    is the number of its first line, ``first`` whether it is the log's first piece."""

    source: str
    line: int
    size: int
    data: bytes = attrs.field(repr=False)
    cut: bool
    first: bool

    def __str__(self) -> str:  # what every worker must agree it is (``skipping.mark``)
        return f"{self.source}:{self.line}: a piece of {self.size} bytes"


@attrs.frozen
class Rest:
    """The rest of a log from byte ``offset``, its line ``line`` (one that begins a
    game), read the usual way: no cut was found in ``PIECE_MAX`` bytes."""

    path: Path
    source: str
    offset: int
    line: int


def pieces(path: Path, source: str) -> Iterator[Piece | Rest]:
    """The pieces of the log at ``path``, in order, then its ``Rest`` if any. A log with
    no cut at all is one ``Rest`` (read the usual way, from its start)."""
    try:
        f = open_bytes(path)
    except OSError as exc:
        raise InputError(f"{source}: cannot read: {exc.strerror or exc}") from None
    with f:
        buf = b""  # the log as far as read, from at most BLOCK bytes before ``base`` on
        base = 0  # where in buf the current piece's first line is
        line = 1  # its number
        offset = 0  # where buf begins in the file
        search = 0  # where in buf the next cut may be looked for
        first = True
        eof = False
        while True:
            at = buf.find(_NEEDLE, search)
            end = buf.find(b"\n", at) if at >= 0 else -1
            if at < 0 or end < 0:  # more of the log is needed (or there is no more cut)
                if eof:
                    break
                if len(buf) - base > PIECE_MAX:
                    yield Rest(path, source, offset + base, line)
                    return
                more = f.read(BLOCK)
                eof = not more
                search = (at if at >= 0 else max(base, len(buf) - len(_NEEDLE) + 1)) - base
                buf = buf[base:] + more
                offset += base
                base = 0
                continue
            search = end + 1
            newline = buf.rfind(b"\n", base, at)
            if newline < 0 or not begins_game(buf[newline + 1 : search]):
                continue  # the piece's own first line, or no cut
            start = newline + 1
            yield Piece(source, line, start - base, buf[base:search], True, first)
            line += buf.count(b"\n", base, start)
            base = start
            first = False
        if first:  # no cut: the usual way
            yield Rest(path, source, 0, 1)
        elif base < len(buf):
            yield Piece(source, line, len(buf) - base, buf[base:], False, False)


def read_piece(piece: Piece) -> Iterator[RecordedGame]:
    """The games of ``piece``, each with its text, numbered from 1."""
    data = piece.data
    games = iter_jsonl(io.BytesIO(data), piece.source, None, piece.line, piece.cut)
    for game in texts_of(games, io.BytesIO(data[: piece.size]), piece.line):
        assert isinstance(game, RecordedGame)  # no skip: every game is read
        yield game


def read_rest(rest: Rest, skip: Skip) -> Iterator[RecordedGame | Skipped]:
    """The games of ``rest``, each with its text, numbered from 1 (``skip``:
    ``iter_jsonl``'s)."""
    with open_bytes(rest.path) as stream:
        stream.seek(rest.offset)
        games = iter_jsonl(stream, rest.source, skip, rest.line)
        yield from with_text(games, rest.path, rest.offset, rest.line)
