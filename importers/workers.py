"""Work on the records of files done in worker processes and handed back in the
order of the input (``import --jobs N``, ``validate --jobs N``): ``in_order``.

Every worker reads the same files in the same order (the readers are
deterministic, so all agree on what the k-th item is) and takes its share:
chunk ``c`` of ``CHUNK`` items is worker ``c % N``'s. Nothing but the results
crosses a pipe, each worker's on a queue of its own, at most ``AHEAD`` chunks
ahead of the one process that takes them: chunk 0 from worker 0, chunk 1 from
worker 1, ..., so the results come in input order whatever N. Memory is bounded
by ``N * AHEAD * CHUNK`` results. Loaded only by the commands that run workers
(``multiprocessing`` is not for ``getbit -h``).
"""

from __future__ import annotations

import gc
import multiprocessing
import os
import queue
from collections.abc import Callable, Generator, Iterable
from typing import Any, TypeVar

__all__ = [
    "AHEAD",
    "CHUNK",
    "SMALL_INPUT",
    "Share",
    "bug",
    "cores",
    "default_jobs",
    "in_order",
    "too_many_jobs",
    "workers_for",
]

#: Items (games, or files that cannot be read) a worker sends back at once.
CHUNK = 64
#: Chunks a worker may have made that the writer has not taken yet.
AHEAD = 2
#: Input smaller than this (bytes: some 40 games of GBN) is read and checked in the one
#: process when no ``--jobs`` is given: workers would cost more to start than they save.
SMALL_INPUT = 64 * 1024


def cores() -> int:
    """The number of cores this process may use."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # pragma: no cover - not Linux
        return max(1, os.cpu_count() or 1)


def default_jobs(input_bytes: int | None = None) -> int:
    """The number of cores this process may use, or 1 for an input of fewer than
    ``SMALL_INPUT`` bytes."""
    if input_bytes is not None and input_bytes < SMALL_INPUT:
        return 1
    return cores()


def workers_for(jobs: int | None, input_bytes: int | None = None) -> int:
    """The workers ``--jobs jobs`` starts for ``input_bytes`` of records: without
    ``--jobs``, ``default_jobs``; with it, as many, but never more than the cores
    this process may use. More would only take turns on the cores (slower, not
    faster), and each costs memory of its own, so the import's memory stays flat
    whatever ``--jobs`` says (issue 15: a million games under 300 MB)."""
    if jobs is None:
        return default_jobs(input_bytes)
    return min(jobs, cores())


def too_many_jobs(jobs: int | None) -> str | None:
    """What to tell someone who asks for more workers than there are cores (None:
    nothing): that ``workers_for`` starts only as many as there are cores."""
    have = cores()
    if jobs is None or jobs <= have:
        return None
    return (
        f"--jobs {jobs} is more than the {have} core{'s' if have > 1 else ''} getbit may use "
        f"here: starting {have} worker{'s' if have > 1 else ''} (more would only take turns "
        "on the cores, slower, each with memory of its own)"
    )


def bug(exc: BaseException) -> str:
    """An internal error on one line: its type and message, never a traceback."""
    said = " ".join(str(exc).split())[:300] or "(no message)"
    return f"{type(exc).__name__}: {said} (please report it)"


_T = TypeVar("_T")
_R = TypeVar("_R")


#: Which positions of the items a worker works on (``in_order``).
Share = Callable[[int], bool]


def in_order(
    items: Callable[[Share | None], Iterable[_T]],
    work: Callable[[_T], _R],
    jobs: int,
    chunk: int | None = None,
) -> Generator[_R, None, None]:
    """``work(item)`` for every item of ``items()``, in ``jobs`` worker processes,
    given back in the order of the items. Every worker calls ``items()`` and
    takes its share (so ``items()`` must give the same items each time); what
    ``work`` gives must pickle. Closing the generator stops the workers.
    ``chunk``: items a worker sends back at once (default ``CHUNK``).

    ``items`` is called with the worker's share (``mine(position)``: True for the
    positions it works on; None where one process does all): it may give anything in
    place of an item not in the share (a reader that skips the games it need not
    read, ``importers.skipping``), as long as it gives one for every position."""
    size = CHUNK if chunk is None else chunk
    context = multiprocessing.get_context("fork")  # the workers start as this process is
    queues = [context.Queue(AHEAD) for _ in range(jobs)]
    workers = [
        context.Process(
            target=_worker, args=(items, work, w, jobs, size, queues[w], os.getpid()), daemon=True
        )
        for w in range(jobs)
    ]
    # The workers start as forks of this process, sharing its memory until a page is
    # written. Its objects are moved out of the collector's sight first, so that a
    # worker's collections do not write to (and so copy) every page of them: about
    # 8 MiB less a worker (docs/scale.md, "Memory").
    gc.freeze()
    for worker in workers:
        worker.start()
    gc.unfreeze()
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
    items: Callable[[Share | None], Iterable[_T]],
    work: Callable[[_T], _R],
    me: int,
    jobs: int,
    chunk: int,
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

    def mine(position: int) -> bool:
        return (position // chunk) % jobs == me

    try:
        done: list[_R] = []
        for position, item in enumerate(items(mine)):
            if not mine(position):
                continue
            done.append(work(item))
            if (position + 1) % chunk == 0:
                send(done)
                done = []
        if done:
            send(done)
        send(None)
    except BaseException as exc:  # a bug here: the writer says so
        send(RuntimeError(bug(exc)))
    out.close()
    out.join_thread()


