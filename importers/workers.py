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

That the workers agree is checked, not assumed: a file deleted, cut or added to
while they read it can make one see other items than the other. Each worker
keeps a running hash of every item's mark (``mark``: a game by its file and
number, read or skipped alike) and sends it with each chunk, at its start and
its end; where one chunk's start is not the chunk before's end, or the workers
see the input end in different places, ``in_order`` stops with ``InputChanged``
rather than give a game twice or leave one out. A worker that dies (killed, out
of memory) is ``WorkerLost``, not a wait for ever; a worker whose taker dies ends
within a second, whatever it was doing.
"""

from __future__ import annotations

import contextlib
import gc
import multiprocessing
import os
import queue
import signal
import threading
import time
from collections.abc import Callable, Generator, Hashable, Iterable
from typing import Any, TypeVar

from getbit_events.errors import GetbitError, InputError

__all__ = [
    "AHEAD",
    "CHUNK",
    "NICER",
    "SMALL_INPUT",
    "InputChanged",
    "Share",
    "WorkerLost",
    "bug",
    "cores",
    "default_jobs",
    "in_order",
    "too_many_jobs",
    "workers_for",
]

#: Items (games, or files that cannot be read) a worker sends back at once.
CHUNK = 64
#: Chunks a worker may have made that the writer has not taken yet: enough that
#: the workers go on while the writer commits a batch or copies its log back into
#: the store (docs/architecture.md, "Speed tricks").
AHEAD = 8
#: How much lower the workers' priority is than the process that takes their work
#: (``os.nice``): with more processes than cores (the workers and the writer), the
#: writer gets a core whenever it has work, rather than a share of one while the
#: workers wait on their full queues for it (docs/architecture.md, "Speed tricks").
NICER = 5
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


class InputChanged(InputError):
    """The workers read the input differently: a file changed while it was read."""

    def __init__(self, where: Hashable) -> None:
        said = _said(where)
        super().__init__(
            f"the files changed while they were read{said}: the workers saw different "
            "games, so nothing after that point was taken; what was done before it is "
            "kept. Run the command again once the files stay as they are"
        )


class WorkerLost(GetbitError, RuntimeError):
    """A worker process ended before its share was done."""

    def __init__(self, code: int | None) -> None:
        how = (f"killed by signal {-code} ({signal.Signals(-code).name}), perhaps for want "
               "of memory" if code is not None and code < 0 and -code in _SIGNALS
               else f"exit code {code}")
        super().__init__(
            f"a worker process stopped before its share was done ({how}): what was done "
            "before it is kept. Run the command again to do the rest"
        )


_SIGNALS = {s.value for s in signal.Signals}


def _said(where: Hashable) -> str:
    """Where the workers were found to disagree, as a person reads it: a game's file and
    number (the marks of ``importers.skipping.mark``), or nothing."""
    if isinstance(where, tuple) and len(where) == 3 and where[0] == "game":
        return f" (found at {where[1]} game {where[2]})"
    return ""


_T = TypeVar("_T")
_R = TypeVar("_R")


#: Which positions of the items a worker works on (``in_order``).
Share = Callable[[int], bool]


def in_order(
    items: Callable[[Share | None], Iterable[_T]],
    work: Callable[[_T], _R],
    jobs: int,
    chunk: int | None = None,
    mark: Callable[[_T], Hashable] = repr,
) -> Generator[_R, None, None]:
    """``work(item)`` for every item of ``items()``, in ``jobs`` worker processes,
    given back in the order of the items. Every worker calls ``items()`` and
    takes its share (so ``items()`` must give the same items each time); what
    ``work`` gives must pickle. Closing the generator stops the workers.
    ``chunk``: items a worker sends back at once (default ``CHUNK``).

    ``items`` is called with the worker's share (``mine(position)``: True for the
    positions it works on; None where one process does all): it may give anything in
    place of an item not in the share (a reader that skips the games it need not
    read, ``importers.skipping``), as long as it gives one for every position, and
    ``mark`` gives it the mark of the item it stands for (the same in every worker).
    InputChanged where the workers' marks part; WorkerLost for a worker that died. What a
    worker raises is raised here: a ``GetbitError`` as it is (the input's fault: a store
    that cannot be read), anything else as a RuntimeError saying it is a bug."""
    size = CHUNK if chunk is None else chunk
    context = multiprocessing.get_context("fork")  # the workers start as this process is
    queues = [context.Queue(AHEAD) for _ in range(jobs)]
    workers = [
        context.Process(
            target=_worker,
            args=(items, work, mark, w, jobs, size, queues[w], os.getpid()),
            daemon=True,
        )
        for w in range(jobs)
    ]
    # The workers start as forks of this process, sharing its memory until a page is
    # written. Its objects are moved out of the collector's sight first, so that a
    # worker's collections do not write to (and so copy) every page of them: about
    # 8 MiB less a worker (docs/scale.md, "Memory"). Objects a caller froze stay frozen.
    frozen = gc.get_freeze_count()
    gc.freeze()
    # Ctrl-C is this process's to answer (it ends the workers, below): each worker
    # ignores SIGINT from its first instruction, so none shows a traceback however the
    # terminal's signal finds it. Blocked while they start, not ignored: one that comes
    # then reaches this process after.
    blocked = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        for worker in workers:
            worker.start()
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, blocked)
    if not frozen:
        gc.unfreeze()
    try:
        chunk = 0
        agreed = _START  # the hash of the marks of every item given so far
        while True:
            w = chunk % jobs
            got = _take(queues[w], workers[w])
            if got[0] == "end":  # its share is done: so is every chunk after this one
                if got[2] != agreed:
                    raise InputChanged(None)
                for other in range(jobs):  # and every other worker ends there too
                    if other != w and _take(queues[other], workers[other]) != got:
                        raise InputChanged(None)
                return
            _, before, after, first, results = got
            if before != agreed:
                raise InputChanged(first)
            yield from results
            agreed = after
            chunk += 1
    finally:
        for worker in workers:
            if worker.is_alive():
                worker.kill()
            worker.join()
        for q in queues:
            q.close()


_START = 0


def _take(box: Any, worker: Any) -> Any:
    """The next message of ``worker`` on ``box``; WorkerLost when it died without one,
    and what it sent about a bug raised here."""
    while True:
        try:
            got = box.get(timeout=1.0)
            break
        except queue.Empty:
            if worker.is_alive():
                continue
            try:  # what it sent just before it ended
                got = box.get(timeout=1.0)
                break
            except queue.Empty:
                raise WorkerLost(worker.exitcode) from None
    if isinstance(got, BaseException):
        raise got
    return got


def _worker(
    items: Callable[[Share | None], Iterable[_T]],
    work: Callable[[_T], _R],
    mark: Callable[[_T], Hashable],
    me: int,
    jobs: int,
    chunk: int,
    out: Any,
    parent: int,
) -> None:
    """One worker: its share of the items, chunk by chunk (each with the hash of the
    marks of every item before it and of every item to its end), then the end (how
    many items there were, and the hash of all their marks)."""

    def mine(position: int) -> bool:
        return (position // chunk) % jobs == me

    # forked with SIGINT blocked (``in_order``): the process that takes the work answers Ctrl-C
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})

    # The process that takes the work gone (killed): stop, rather than wait for it for
    # ever on a full queue, or at the end for the last results to leave (they wait for
    # room in the pipe, and no one reads it any more).
    threading.Thread(target=_orphaned, args=(parent,), daemon=True).start()
    with contextlib.suppress(OSError):  # not allowed here: the same work, at the same priority
        os.nice(NICER)
    try:
        done: list[_R] = []
        trace = before = _START
        first: Hashable = None
        count = 0
        for position, item in enumerate(items(mine)):
            count = position + 1
            marked = mark(item)
            if mine(position):
                if position % chunk == 0:
                    before, first = trace, marked
                done.append(work(item))
            trace = hash((trace, marked))  # forks of one process: one string hash seed
            if mine(position) and count % chunk == 0:
                out.put(("chunk", before, trace, first, done))
                done = []
        if done:
            out.put(("chunk", before, trace, first, done))
        out.put(("end", count, trace))
    except GetbitError as exc:  # the input's fault (a store that cannot be read): as it is
        out.put(exc)
    except BaseException as exc:  # a bug here: the writer says so
        out.put(RuntimeError(bug(exc)))
    out.close()
    out.join_thread()


def _orphaned(parent: int) -> None:
    """End this worker once ``parent`` (the process that takes its work) is gone."""
    while os.getppid() == parent:
        time.sleep(0.5)
    os._exit(1)
