"""Benchmark of the replay cursor (issue 4). Not a test: run it and read the numbers.

    .venv/bin/python bench/replay.py [--swimmers 52] [--jumps 2000] [--seed 1]

The game. Under R1/R2 a real game has 4 to 6 swimmers and so at most 24 bitten
rounds; a 200-round game has to be constructed. This one is a standard game of
52 swimmers (hands 1 to 53) played to its end by the random bot through the
project's own rules engine (``rules.resolve_round``, which is generic in the
number of swimmers): from round 2 every round bites one limb, four bites devour
a swimmer, and the game ends when two are left, so it lasts 50 x 4 + 1 = 201
rounds. Its events are those of any game, only more of them per round.

What is timed, all on the same events in the same run:

- ``fold``: ``reducer.fold`` over all events (the baseline);
- ``open``: ``Cursor(events)``;
- ``forward (cold)``: step from the first event to the last, reading the state
  at each, folding as it goes; ``back``: then from the last to the first;
  ``forward (warm)``: first to last again;
- ``jumps``: random ``goto`` + state, on a fresh cursor, against folding each
  prefix from scratch (what a replay without held states would do).

Stepping back must not be slower than stepping forward: the cursor holds every
state it has made (immutable values sharing their unchanged parts).
"""

from __future__ import annotations

import argparse
import importlib.util
import random
import sys
import time
import tracemalloc
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# The package as installed, compiled or not (``pip install .`` compiles the hot modules
# with mypyc; an editable install is the source tree); the source tree if not installed,
# and then for the processes this bench starts too (``SOURCE``, their PYTHONPATH).
# This folder is left off the path: its store.py, replay.py would hide those packages.
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != ROOT / "bench"]
SOURCE = {} if importlib.util.find_spec("getbit_events") else {"PYTHONPATH": str(ROOT)}
if SOURCE:
    sys.path.insert(0, str(ROOT))

from getbit_events import rules  # noqa: E402
from getbit_events.events import Event, GameStarted  # noqa: E402
from getbit_events.reducer import apply, fold  # noqa: E402
from getbit_events.state import initial_state  # noqa: E402
from replay.cursor import Cursor  # noqa: E402


def build() -> str:
    """Which build of getbit_events this bench measures."""
    import getbit_events.board as board

    compiled = not (board.__file__ or "").endswith(".py")
    return f"getbit_events, {'compiled by mypyc' if compiled else 'pure Python'}: " + str(
        Path(board.__file__ or "?").parent
    )


def long_game(swimmers: int, seed: int) -> list[Event]:
    """A complete standard game of ``swimmers`` swimmers, random legal cards."""
    rng = random.Random(seed)
    line = tuple(f"S{k:02d}" for k in range(swimmers))
    setup = GameStarted(0, "standard", False, line, rules.hand_size(swimmers))
    events: list[Event] = [setup]
    state = initial_state(setup)
    while not state.finished:
        r = state.round + 1
        cards = tuple((n, rng.choice(sorted(rules.legal_cards(state, n)))) for n in state.line)
        round_events = rules.round_events(r, None, cards, None, None)
        for e in round_events:
            state = apply(state, e)
        outcome = rules.resolve_round(state)
        for e in outcome.events:
            state = apply(state, e)
        events.extend(round_events)
        events.extend(outcome.events)
    return events


def timed(fn: Callable[[], object], repeat: int = 3) -> float:
    """The best of ``repeat`` runs, in seconds (freeing what ``fn`` returns is not timed)."""
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        kept = fn()
        best = min(best, time.perf_counter() - start)
        del kept
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--swimmers", type=int, default=52)
    parser.add_argument("--jumps", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    print(build())

    start = time.perf_counter()
    events = long_game(args.swimmers, args.seed)
    made = time.perf_counter() - start
    rounds = events[-1].round
    print(
        f"game: {args.swimmers} swimmers, {rounds} rounds, {len(events)} events "
        f"(made in {made:.2f} s)"
    )

    t_fold = timed(lambda: fold(events))

    def walk() -> tuple[float, float, float, float, Cursor]:
        t0 = time.perf_counter()
        cursor = Cursor(events)
        t1 = time.perf_counter()
        while not cursor.at_end:
            cursor.forward()
            _ = cursor.state
        t2 = time.perf_counter()
        while not cursor.at_start:
            cursor.back()
            _ = cursor.state
        t3 = time.perf_counter()
        while not cursor.at_end:
            cursor.forward()
            _ = cursor.state
        t4 = time.perf_counter()
        return t1 - t0, t2 - t1, t3 - t2, t4 - t3, cursor

    runs = []
    for _ in range(3):
        *times, cursor = walk()
        runs.append(times)
        del cursor  # freed between runs, outside the timings
    t_open, t_cold, t_back, t_warm = (min(r[k] for r in runs) for k in range(4))

    rng = random.Random(args.seed)
    targets = [rng.randrange(len(events)) for _ in range(args.jumps)]

    def jumps() -> Cursor:
        cursor = Cursor(events)
        for i in targets:
            cursor.goto(i)
            _ = cursor.state
        return cursor

    t_jumps = timed(jumps)
    naive_targets = targets[:20]
    t_naive = timed(lambda: [fold(events[: i + 1]) for i in naive_targets], repeat=1)
    per_naive = t_naive / len(naive_targets)
    per_jump = t_jumps / len(targets)

    n = len(events)
    print(f"{'':22}{'total':>11}{'per event':>12}{'vs fold':>9}")
    for label, t in (
        ("fold (baseline)", t_fold),
        ("open", t_open),
        ("forward (cold)", t_cold),
        ("back", t_back),
        ("forward (warm)", t_warm),
    ):
        print(f"{label:22}{t * 1e3:9.2f}ms{t / n * 1e6:10.2f}us{t / t_fold:8.2f}x")
    print(
        f"{'jumps':22}{t_jumps * 1e3:9.2f}ms  {args.jumps} random jumps on a fresh cursor: "
        f"{per_jump * 1e6:.1f} us each"
    )
    print(
        f"{'fold per jump':22}{per_naive * 1e3:9.2f}ms  folding the prefix instead: "
        f"{per_naive / per_jump:.0f}x slower per jump"
    )
    tracemalloc.start()
    held = Cursor(events)
    held.last()
    size = tracemalloc.get_traced_memory()[0]
    tracemalloc.stop()
    print(f"memory held by a cursor with every state made: {size / 2**20:.1f} MiB")
    verdict = "ok" if t_back <= t_cold else "SLOWER THAN FORWARD"
    print(
        f"back / forward (cold) = {t_back / t_cold:.3f}, back / forward (warm) = "
        f"{t_back / t_warm:.3f}: {verdict}"
    )


if __name__ == "__main__":
    main()
