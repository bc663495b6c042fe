"""Games read, checked and made ready to store in worker processes, handed back in
the order of the input (``import --jobs N``; the workers are ``importers.workers``).

Every worker reads the same files in the same order (the readers are
deterministic, so all agree on what the k-th item is: a game, a file that
cannot be read, or what a reader says of a file, a ``Note``) and takes its share:
chunk ``c`` of ``CHUNK`` items is worker ``c % N``'s. Nothing but the results
crosses a pipe: a worker checks its games
(``validate_game``) and makes them ready to store (``adding.prepare``), and
sends each chunk back on a queue of its own, at most ``AHEAD`` chunks ahead of
the writer. A GBN file or a JSON Lines log in UTF-8 is not gone through line by line
by every worker: its items are pieces each worker reads only if they are its own
(``importers.pieces``), each piece's games numbered from 1 and numbered on here
(``_numbered``). The writer
takes chunk 0 from worker 0, chunk 1 from worker 1, ...:
the games reach it in input order, so ids, the chain and the read models come
out the same whatever N. Memory is bounded by ``N * AHEAD * CHUNK`` games.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Generator, Iterator
from pathlib import Path
from typing import NamedTuple

import attrs

from biteme.record import BiteRecord
from biteme.validate import BiteReport, validate_bite
from getbit_events.errors import GetbitError, InputError
from getbit_events.record import RecordedGame
from getbit_events.validate import GameReport, validate_game
from importers.pieces import Piece, Rest, read_piece, read_rest
from importers.reading import date_warnings, present
from importers.skipping import Positions, Skipped, mark
from importers.workers import AHEAD, Share, bug, default_jobs, in_order
from importers.workers import CHUNK as WORKER_CHUNK
from store.adding import NewGame, prepare
from store.bite import prepare_bite

__all__ = [
    "AHEAD",
    "CHUNK",
    "Checked",
    "GameFailure",
    "Note",
    "Work",
    "bug",
    "checked_games",
    "default_jobs",
    "files_items",
    "in_order",
]

#: Items (games, or files that cannot be read) a worker sends back at once.
CHUNK = WORKER_CHUNK


@attrs.frozen
class GameFailure:
    """A game (or the rest of a file) the import could not check or store: left out.

    ``bug`` is True when getbit itself failed (an internal error), not the input.
    """

    source: str
    line: int
    game: int | None
    reason: str
    bug: bool

    def __str__(self) -> str:
        which = f" game {self.game}:" if self.game is not None else ""
        what = "internal error (a bug)" if self.bug else "not stored"
        return f"{self.source}:{self.line}:{which} {what}: {self.reason}"

    @classmethod
    def of(cls, record: RecordedGame | BiteRecord | Checked, exc: Exception) -> GameFailure:
        line, game = (
            (record.line, record.game) if isinstance(record, Checked)
            else (record.pos.line, record.index)
        )
        if isinstance(exc, GetbitError):
            return cls(record.source, line, game, str(exc), False)
        return cls(record.source, line, game, bug(exc), True)


@attrs.frozen
class Note:
    """What a reader says of a file (the encoding it detected), in its place among
    the items: said once, by the writer, whatever the workers. ``empty``: a path
    given holds no games (said as a warning; the import exits 2, as validate does)."""

    text: str
    empty: bool = False


@attrs.frozen
class _Pos:
    line: int


@attrs.frozen
class _Where:
    pos: _Pos


@attrs.frozen
class Checked:
    """A game checked in a worker, as an import reports it: what its reporters read
    of a ``GameReport`` (``source``, ``game``, ``record.pos.line``, ``readable``,
    ``valid``, ``violations``), as plain values; ``size``, the bytes of its text
    (for the bar), and ``dates``, its Date warnings (``reading.date_warnings``)."""

    source: str
    game: int | None
    line: int
    readable: bool
    valid: bool
    violations: tuple[str, ...]
    size: int
    dates: tuple[str, ...]

    @property
    def record(self) -> _Where:
        return _Where(_Pos(self.line))

    @classmethod
    def of(cls, report: GameReport | BiteReport) -> Checked:
        return cls(
            report.source, report.game, report.record.pos.line, report.readable, report.valid,
            tuple(str(v) for v in report.violations), len(report.record.text or b""),
            tuple(date_warnings(report.record)),
        )


#: What the writer gets for one item of the input: a checked game and what to
#: store of it (None: nothing), or a file that cannot be read, or a failure.
Work = tuple[
    GameReport | BiteReport | Checked | InputError | GameFailure | Note, NewGame | None
]


class Continued(NamedTuple):
    """A game of a file read the usual way after pieces of it (``pieces.Rest``):
    numbered from the first game of the rest, so numbered on as a piece's are."""

    record: RecordedGame | Skipped


@attrs.frozen
class PieceWork:
    """The work of a piece of a file (``importers.pieces``) or of a game ``Continued``: its
    games numbered from 1, as the writer numbers them on (``_numbered``), the count
    begun again at a file's ``first`` piece."""

    works: tuple[Work, ...]
    first: bool


#: One item of the input, as the workers read it (a game of either game, a piece of a file).
Item = (
    RecordedGame | BiteRecord | InputError | GameFailure | Note | Skipped | Piece | Continued
)


def _work(item: Item, valid_only: bool, light: bool) -> Work | PieceWork:
    """Check one game and make it ready to store; anything it raises is its failure.
    A piece of a file: each of its games so."""
    if isinstance(item, Piece):
        return PieceWork(_piece_work(item, valid_only, light), item.first)
    if isinstance(item, Continued):
        return PieceWork((_work_game(item.record, valid_only, light),), False)
    return _work_game(item, valid_only, light)


def _piece_work(piece: Piece, valid_only: bool, light: bool) -> tuple[Work, ...]:
    """Each game of ``piece`` checked and made ready; a bug of the reader, the piece's
    last (the rest of the piece is left out)."""
    works: list[Work] = []
    line = piece.line
    try:
        for record in read_piece(piece):
            line = record.pos.line
            works.append(_work_game(record, valid_only, light))
    except Exception as exc:  # a reader's bug: the rest of this piece is left out
        works.append((GameFailure(piece.source, line, None, bug(exc), True), None))
    return tuple(works)


def _work_game(
    item: RecordedGame | BiteRecord | InputError | GameFailure | Note | Skipped,
    valid_only: bool,
    light: bool,
) -> Work:
    if isinstance(item, InputError | GameFailure | Note):
        return item, None
    if isinstance(item, Skipped):  # never: a worker's share is read (``files_items``)
        raise AssertionError(f"game {item.index} of {item.source} was not read")
    try:
        # each game by its own rules, and made ready to store as its own (store.bite)
        report = validate_bite(item) if isinstance(item, BiteRecord) else validate_game(item)
        new = None
        if report.readable and (report.valid or not valid_only):
            new = prepare_bite(report) if isinstance(report, BiteReport) else prepare(report)
        return (Checked.of(report) if light else report), new
    except Exception as exc:  # this game only: the next one goes on
        return GameFailure.of(item, exc), None


def checked_games(
    items: Callable[[Share | None], Iterator[Item]],
    valid_only: bool,
    jobs: int,
) -> Generator[Work, None, None]:
    """Every item of ``items()`` checked and made ready to store, in order: here
    (``jobs`` 1, the reports whole) or in ``jobs`` worker processes (``Checked``)."""
    if jobs <= 1:  # (no pieces: a process that does all reads the whole of each file)
        return (_work_game(item, valid_only, False) for item in items(None))  # type: ignore[arg-type]
    work = functools.partial(_work, valid_only=valid_only, light=True)
    return _numbered(in_order(items, work, jobs, CHUNK, mark))


def _numbered(results: Iterator[Work | PieceWork]) -> Generator[Work, None, None]:
    """``results`` with the games of the pieces of a file numbered on from the pieces
    before (each piece's are numbered from 1: ``pieces``)."""
    count = 0  # games of the file before this piece
    for got in results:
        if not isinstance(got, PieceWork):
            yield got
            continue
        if got.first:
            count = 0
        for work in got.works:
            report, new = work
            if isinstance(report, Checked | GameFailure) and report.game is not None:
                count += 1
                yield _renumbered(report, count), _new_renumbered(new, count)
            else:
                yield work


def _renumbered(report: Checked | GameFailure, number: int) -> Checked | GameFailure:
    """``report`` (a game checked, or one that failed) as game ``number`` of its file."""
    return report if report.game == number else attrs.evolve(report, game=number)


def _new_renumbered(new: NewGame | None, number: int) -> NewGame | None:
    """``new`` with its games row's number of the game in its file (``games_row``) ``number``."""
    if new is None or new.row[2] == number:
        return new
    return attrs.evolve(new, row=(*new.row[:2], number, *new.row[3:]))


def files_items(
    given: list[tuple[Path, list[Path]]], fmt: str, encoding: str | None = "utf-8"
) -> Callable[[Share | None], Iterator[Item]]:
    """The items of the paths given, each with its files (found already): every game
    of each file as it is read, an InputError for a file that cannot be read, a
    failure for a reader's bug (the rest of that file is left out), and a ``Note``
    of the encoding a file was read in when it was detected (``encoding`` is
    ``importers.iter_file``'s); after a path given that gave none of these (an
    empty file, a folder of none), a ``Note`` that it holds no games. Given a
    worker's share (``in_order``), the games outside it are left unread where the
    reader can (``importers.skipping``)."""

    def items(share: Share | None) -> Iterator[Item]:
        from importers import no_games, record_suffixes

        positions = Positions(share)
        for path, files in given:
            said = 0  # every worker finds as many (its skipped games too)
            for item in _file_items(files, fmt, encoding, positions):
                said += not isinstance(item, Note)
                yield item
            if not said:
                nothing = no_games(path, record_suffixes(fmt), path.is_dir() and not files)
                yield positions.given(Note(nothing, empty=True))

    return items


def _file_items(
    files: list[Path], fmt: str, encoding: str | None, positions: Positions
) -> Iterator[Item]:
    from importers import iter_records, record_pieces

    for path in files:
        line = 1
        try:
            if not present(path):  # said, and the other paths are still read
                raise InputError(f"{path}: no such file or folder")
            notes: list[str] = []
            # workers read a file's pieces apart, not every line of it (``importers.pieces``)
            split = None if positions.share is None else record_pieces(
                path, fmt, encoding, notes.append
            )
            games = None if split is not None else iter_records(
                path, fmt, encoding=encoding, say=notes.append, skip=positions.skip()
            )
            for note in notes:  # said on opening it: before its games
                yield positions.given(Note(note))
            positions.games_begin()
            if split is not None:
                games = yield from _pieces_items(split, positions)
            for record in games or ():
                line = record.pos.line
                yield positions.given(record)
        except InputError as exc:
            yield positions.given(exc)
        except Exception as exc:  # a reader's bug: the rest of this file is left out
            yield positions.given(GameFailure(str(path), line, None, bug(exc), True))


def _pieces_items(
    split: Iterator[Piece | Rest], positions: Positions
) -> Generator[Item, None, Iterator[RecordedGame | Skipped] | None]:
    """The pieces of a file as items; then the games of a rest read the usual way (from
    the file's start: returned, numbered as they are; after pieces: given here,
    ``Continued``)."""
    for piece in split:
        if isinstance(piece, Piece):
            yield positions.given(piece)
            continue
        positions.games_begin()  # the rest's games are numbered from its first
        games = read_rest(piece, positions.skip())
        if piece.offset == 0:
            return games
        for record in games:
            yield Continued(positions.given(record))
    return None
