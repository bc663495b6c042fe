"""``importers.workers.in_order``: work done in worker processes, given back in the
order of the input; workers that read the input differently are stopped, not
trusted, and a worker that dies is said, not waited for."""

from __future__ import annotations

import os
import signal
from collections.abc import Iterator
from types import FrameType

import pytest

from importers import workers
from importers.workers import InputChanged, Share, WorkerLost, in_order

#: what these test is plain Python in both builds (none of setup.py's COMPILED is their
#: subject): the compiled build's pass of .ci/run leaves them to the plain pass
pytestmark = pytest.mark.layers


@pytest.fixture(autouse=True)
def deadline() -> Iterator[None]:
    """A test that would wait for ever fails instead."""

    def late(signum: int, frame: FrameType | None) -> None:
        raise TimeoutError("in_order still waiting after 60 s")

    before = signal.signal(signal.SIGALRM, late)
    signal.alarm(60)
    yield
    signal.alarm(0)
    signal.signal(signal.SIGALRM, before)


def _double(n: int) -> int:
    return 2 * n


def _worker_of(share: Share | None, chunk: int) -> int:
    """Which worker ``share`` is, of two (chunk 0 is worker 0's)."""
    assert share is not None
    return 0 if share(0) else 1


@pytest.mark.parametrize("jobs", [1, 2, 3])
def test_the_results_come_in_the_order_of_the_items_whatever_the_jobs(jobs: int) -> None:
    assert list(in_order(lambda share: range(50), _double, jobs, chunk=4)) == [
        2 * n for n in range(50)
    ]


def _priority(n: int) -> int:
    return os.getpriority(os.PRIO_PROCESS, 0)


def test_the_workers_yield_the_cores_to_the_process_that_takes_their_work() -> None:
    """Workers and the writer are more processes than cores: the workers run ``NICER``
    lower, so the one that takes their work never waits for a core while they wait for
    it (their queues full); this process keeps its own priority."""
    mine = os.getpriority(os.PRIO_PROCESS, 0)
    [theirs] = set(in_order(lambda share: range(8), _priority, 2, chunk=2))
    assert theirs == min(mine + workers.NICER, 19) > mine
    assert os.getpriority(os.PRIO_PROCESS, 0) == mine


def test_workers_that_read_an_item_differently_are_stopped_at_the_next_chunk() -> None:
    """Worker 1 sees item 9 as something else (a file changed between their reads). Item
    9 is in worker 0's chunk (8-11), given as worker 0 read it; worker 1's next chunk
    (12-15) does not start where that one ended, so it is never given."""

    def items(share: Share | None) -> list[int]:
        seen = list(range(40))
        if _worker_of(share, 4) == 1:
            seen[9] = -9
        return seen

    got: list[int] = []

    def take() -> None:
        got.extend(in_order(items, _double, 2, chunk=4))

    with pytest.raises(InputChanged, match="the files changed while they were read"):
        take()
    assert got == [2 * n for n in range(12)]


def test_workers_that_see_a_different_number_of_items_are_stopped() -> None:
    """A file cut short for one worker: every later position would be another item."""

    def items(share: Share | None) -> list[int]:
        seen = list(range(40))
        if _worker_of(share, 4) == 1:
            del seen[5]
        return seen

    with pytest.raises(InputChanged):
        list(in_order(items, _double, 2, chunk=4))


@pytest.mark.parametrize("longer", [0, 1])
def test_workers_that_see_the_input_end_in_different_places_are_stopped(longer: int) -> None:
    def items(share: Share | None) -> list[int]:
        return list(range(22 if _worker_of(share, 4) == longer else 20))

    with pytest.raises(InputChanged):
        list(in_order(items, _double, 2, chunk=4))


def test_a_worker_that_dies_is_said_not_waited_for() -> None:
    def work(n: int) -> int:
        if n == 13:
            os.kill(os.getpid(), signal.SIGKILL)  # as the kernel does for want of memory
        return n

    with pytest.raises(WorkerLost, match=r"killed by signal 9 \(SIGKILL\)"):
        list(in_order(lambda share: range(40), work, 2, chunk=4))


def test_ctrl_c_is_for_the_process_that_takes_the_work_not_its_workers() -> None:
    """The terminal sends Ctrl-C's SIGINT to every process of the command: a worker
    ignores it whatever it is doing (in the middle of an item, or at its end waiting
    for its last results to leave), so none dies with a traceback of its own; this
    process answers it, and ends the workers."""

    def work(n: int) -> int:
        os.kill(os.getpid(), signal.SIGINT)  # as a Ctrl-C would, mid-item
        return n

    def items(share: Share | None) -> range:
        os.kill(os.getpid(), signal.SIGINT)  # and before a worker's first item
        return range(12)

    assert list(in_order(items, work, 2, chunk=3)) == list(range(12))


def test_a_bug_in_a_worker_is_raised_here_with_its_message() -> None:
    def work(n: int) -> int:
        if n == 6:
            raise KeyError("the sixth")
        return n

    with pytest.raises(RuntimeError, match="KeyError: 'the sixth' \\(please report it\\)"):
        list(in_order(lambda share: range(40), work, 2, chunk=4))


def test_more_jobs_than_cores_start_as_many_workers_as_cores() -> None:
    assert workers.workers_for(workers.cores() + 5) == workers.cores()
