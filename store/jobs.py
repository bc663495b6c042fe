"""Games read, checked and made ready to store in worker processes, handed back in
the order of the input (``import --jobs N``).

Every worker reads the same files in the same order (the readers are
deterministic, so all agree on what the k-th item is: a game, or a file that
cannot be read) and takes its share: chunk ``c`` of ``CHUNK`` items is worker
``c % N``'s. Nothing but the results crosses a pipe: a worker checks its games
(``validate_game``) and makes them ready to store (``adding.prepare``), and
sends each chunk back on a queue of its own, at most ``AHEAD`` chunks ahead of
the writer. The writer takes chunk 0 from worker 0, chunk 1 from worker 1, ...:
the games reach it in input order, so ids, the chain and the read models come
out the same whatever N. Memory is bounded by ``N * AHEAD * CHUNK`` games.
"""

from __future__ import annotations

import functools
import multiprocessing
import os
import queue
from collections.abc import Callable, Generator, Iterable, Iterator
from pathlib import Path
from typing import Any, TypeVar

import attrs

from getbit_events.errors import GetbitError, InputError
from getbit_events.record import RecordedGame
from getbit_events.validate import GameReport, validate_game
from store.adding import NewGame, prepare

__all__ = [
    "AHEAD",
    "CHUNK",
    "Checked",
    "GameFailure",
    "Work",
    "bug",
    "checked_games",
    "default_jobs",
    "files_items",
    "in_order",
]

#: Items (games, or files that cannot be read) a worker sends back at once.
CHUNK = 64
#: Chunks a worker may have made that the writer has not taken yet.
AHEAD = 2


def default_jobs() -> int:
    """The number of cores this process may use."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # pragma: no cover - not Linux
        return max(1, os.cpu_count() or 1)


def bug(exc: BaseException) -> str:
    """An internal error on one line: its type and message, never a traceback."""
    said = " ".join(str(exc).split())[:300] or "(no message)"
    return f"{type(exc).__name__}: {said} (please report it)"


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
    def of(cls, record: RecordedGame | Checked, exc: Exception) -> GameFailure:
        line, game = (
            (record.line, record.game) if isinstance(record, Checked)
            else (record.pos.line, record.index)
        )
        if isinstance(exc, GetbitError):
            return cls(record.source, line, game, str(exc), False)
        return cls(record.source, line, game, bug(exc), True)


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
    ``valid``, ``violations``), as plain values."""

    source: str
    game: int | None
    line: int
    readable: bool
    valid: bool
    violations: tuple[str, ...]

    @property
    def record(self) -> _Where:
        return _Where(_Pos(self.line))

    @classmethod
    def of(cls, report: GameReport) -> Checked:
        return cls(
            report.source, report.game, report.record.pos.line, report.readable, report.valid,
            tuple(str(v) for v in report.violations),
        )


#: What the writer gets for one item of the input: a checked game and what to
#: store of it (None: nothing), or a file that cannot be read, or a failure.
Work = tuple[GameReport | Checked | InputError | GameFailure, NewGame | None]


def _work(item: RecordedGame | InputError | GameFailure, valid_only: bool, light: bool) -> Work:
    """Check one game and make it ready to store; anything it raises is its failure."""
    if isinstance(item, InputError | GameFailure):
        return item, None
    try:
        report = validate_game(item)
        new = None
        if report.readable and (report.valid or not valid_only):
            new = prepare(report)
        return (Checked.of(report) if light else report), new
    except Exception as exc:  # this game only: the next one goes on
        return GameFailure.of(item, exc), None


def checked_games(
    items: Callable[[], Iterator[RecordedGame | InputError | GameFailure]],
    valid_only: bool,
    jobs: int,
) -> Generator[Work, None, None]:
    """Every item of ``items()`` checked and made ready to store, in order: here
    (``jobs`` 1, the reports whole) or in ``jobs`` worker processes (``Checked``)."""
    if jobs <= 1:
        return (_work(item, valid_only, False) for item in items())
    return in_order(items, functools.partial(_work, valid_only=valid_only, light=True), jobs)


_T = TypeVar("_T")
_R = TypeVar("_R")


def in_order(
    items: Callable[[], Iterable[_T]], work: Callable[[_T], _R], jobs: int
) -> Generator[_R, None, None]:
    """``work(item)`` for every item of ``items()``, in ``jobs`` worker processes,
    given back in the order of the items. Every worker calls ``items()`` and
    takes its share (so ``items()`` must give the same items each time); what
    ``work`` gives must pickle. Closing the generator stops the workers."""
    context = multiprocessing.get_context("fork")  # the workers start as this process is
    queues = [context.Queue(AHEAD) for _ in range(jobs)]
    workers = [
        context.Process(
            target=_worker, args=(items, work, w, jobs, queues[w], os.getpid()), daemon=True
        )
        for w in range(jobs)
    ]
    for worker in workers:
        worker.start()
    try:
        chunk = 0
        while True:
            got = queues[chunk % jobs].get()
            if got is None:  # its share is done: so is every chunk after this one
                return
            if isinstance(got, BaseException):
                raise got
            yield from got
            chunk += 1
    finally:
        for worker in workers:
            if worker.is_alive():
                worker.kill()
            worker.join()
        for q in queues:
            q.close()


def _worker(
    items: Callable[[], Iterable[_T]],
    work: Callable[[_T], _R],
    me: int,
    jobs: int,
    out: Any,
    parent: int,
) -> None:
    """One worker: its share of the items, chunk by chunk, then None."""

    def send(value: object) -> None:
        while True:  # the writer gone (killed): stop, do not wait for it forever
            try:
                out.put(value, timeout=1.0)
                return
            except queue.Full:
                if os.getppid() != parent:
                    os._exit(1)

    try:
        done: list[_R] = []
        for position, item in enumerate(items()):
            if (position // CHUNK) % jobs != me:
                continue
            done.append(work(item))
            if (position + 1) % CHUNK == 0:
                send(done)
                done = []
        if done:
            send(done)
        send(None)
    except BaseException as exc:  # a bug here: the writer says so
        send(RuntimeError(bug(exc)))
    out.close()
    out.join_thread()


def files_items(
    paths: list[Path], fmt: str
) -> Callable[[], Iterator[RecordedGame | InputError | GameFailure]]:
    """The items of ``paths`` (found already): every game of each file as it is
    read, an InputError for a file that cannot be read, a failure for a reader's bug
    (the rest of that file is left out)."""

    def items() -> Iterator[RecordedGame | InputError | GameFailure]:
        from importers import iter_file

        for path in paths:
            line = 1
            try:
                for record in iter_file(path, fmt):
                    line = record.pos.line
                    yield record
            except InputError as exc:
                yield exc
            except Exception as exc:  # a reader's bug: the rest of this file is left out
                yield GameFailure(str(path), line, None, bug(exc), True)

    return items

