"""Importing a large archive, end to end: ``getbit import`` as a whole process.

    python bench/scale.py --games N [--format gbn|jsonl] [--log] [--jobs 1,2] [--keep DIR]
                          [--more M [--reuse]]

Simulates N five-swimmer games (``getbit simulate``, the sensible bot, in two
halves side by side) to one file (``--log``: a JSON Lines log of N distinct
games made cheaply from 200 simulated ones, ``bench/store.py``'s ``write_log``,
the choices and reveals only, as for issue 15's million; ``--log --format gbn``:
N distinct five-swimmer games of the sensible bot as GBN, made from 200 as
``getbit simulate`` writes them, ``write_archive``), then, for each number of jobs, times
``getbit import --jobs J`` of it into a new store, and says: games per second,
the store's bytes per byte of the records, the peak memory (the largest
process, and all of the import's processes together, sampled every 0.2 s: their
resident sizes summed, which counts the pages the forked workers share with the
writer once in each, and their proportional shares, which count them once),
the CPU time of all its processes (what the times would be on an idle machine:
about the CPU time for one job, the larger of the writer's and half the whole
for two), and the time of ``getbit stats`` on the result. Run it with the interpreter of
the build to measure (the compiled one: ``pip install .``); ``getbit`` is taken
from next to it. The extrapolation to a million games is linear in N.

``--more M`` then times importing M more simulated games into that store and into
an empty one, in turn: the ratio is what a store of N games costs each new game
(its indexes grown past SQLite's cache). ``--reuse`` takes a store kept in
``--keep`` by an earlier run instead of importing the N games again.
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

from sibling import sibling

GETBIT = Path(sys.executable).with_name("getbit")


def _python() -> str:
    """Which Python runs it: its version and interpreter, which an import's speed depends
    on as much as on the code (docs/scale.md, "Which Python")."""
    import platform

    base = Path(getattr(sys, "_base_executable", sys.executable)).resolve()
    return f"Python {platform.python_version()} ({base})"


def _memory(pid: int) -> tuple[int, int, int]:
    """KiB resident of ``pid``; of it with all its descendants; and their proportional
    share (PSS: a page the forked workers share with the writer counted once, not in
    each of them as their resident sizes count it)."""
    own = total = shared = 0
    todo = [pid]
    while todo:
        p = todo.pop()
        try:
            status = Path(f"/proc/{p}/status").read_text()
            kib = int(status.split("VmRSS:")[1].split()[0])
            rollup = Path(f"/proc/{p}/smaps_rollup").read_text()
            pss = int(rollup.split("\nPss:")[1].split()[0])
            for task in Path(f"/proc/{p}/task").iterdir():
                todo.extend(int(c) for c in (task / "children").read_text().split())
        except (OSError, IndexError, ValueError):
            continue
        total += kib
        shared += pss
        own = max(own, kib)
    return own, total, shared


def run(
    args: list[str], env: dict[str, str] | None = None
) -> tuple[float, float, int, int, int, str]:
    """Seconds, CPU seconds (all its processes), peak KiB of the largest process, of
    all together, and of all together counting shared pages once (PSS), stdout."""
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    proc = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env=env)
    peaks = [0, 0, 0]

    def sample() -> None:
        while proc.poll() is None:
            now = _memory(proc.pid)
            peaks[:] = [max(peak, kib) for peak, kib in zip(peaks, now, strict=True)]
            time.sleep(0.2)

    watcher = threading.Thread(target=sample, daemon=True)
    watcher.start()
    out, err = proc.communicate()
    seconds = time.perf_counter() - t0
    watcher.join()
    now = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = now.ru_utime + now.ru_stime - used.ru_utime - used.ru_stime
    if proc.returncode not in (0, 1):
        raise SystemExit(f"{' '.join(args)} failed ({proc.returncode}): {err[-2000:]}")
    return seconds, cpu, peaks[0], peaks[1], peaks[2], out


def simulate(n: int, fmt: str, path: Path, seeds: tuple[int, int] = (1, 2)) -> float:
    t0 = time.perf_counter()
    half = n // 2
    parts = [(half, seeds[0], path.with_suffix(".a")), (n - half, seeds[1], path.with_suffix(".b"))]
    procs = [
        subprocess.Popen([str(GETBIT), "simulate", "--swimmers", "5", "--games", str(k),
                          "--seed", str(seed), "--format", fmt, "-o", str(part)])
        for k, seed, part in parts
    ]
    for proc in procs:
        if proc.wait() != 0:
            raise SystemExit("getbit simulate failed")
    with path.open("wb") as out:
        for _, _, part in parts:
            with part.open("rb") as f:
                shutil.copyfileobj(f, out)
            part.unlink()
    return time.perf_counter() - t0


def write_log(path: Path, n: int, fmt: str = "jsonl") -> None:
    """``n`` distinct games made from 200 simulated ones: ``bench/store.py``'s log of
    them (its mix of set-ups), or with ``fmt`` gbn its GBN archive of five-swimmer
    games of the sensible bot, the games ``simulate`` makes (``write_archive``)."""
    bench_store = sibling("store")
    if fmt == "gbn":
        games = [bench_store.simulate_game("standard", 5, k, "sensible") for k in range(200)]
        bench_store.write_archive(path, n, games)
        return
    templates = [
        bench_store.simulate_game(*bench_store.SETUPS[k % len(bench_store.SETUPS)], seed=k,
                                  bot="sensible")
        for k in range(200)
    ]
    bench_store.write_log(path, n, templates)


def _more(db: Path, more: Path, jobs: int, env: dict[str, str]) -> None:
    """Time importing ``more`` into the store ``db`` and into an empty one, in turn."""
    empty = db.with_name(f"empty-jobs{jobs}.db")
    for leftover in (empty, Path(f"{empty}-wal"), Path(f"{empty}-shm")):
        leftover.unlink(missing_ok=True)
    into_it = run([str(GETBIT), "import", "--db", str(db), "--jobs", str(jobs), str(more)], env)
    alone = run([str(GETBIT), "import", "--db", str(empty), "--jobs", str(jobs), str(more)], env)
    print(f"  {more.name} into it: {into_it[0]:6.1f}s (CPU {into_it[1]:.1f}s); into an empty "
          f"store: {alone[0]:6.1f}s (CPU {alone[1]:.1f}s); ratio {into_it[0] / alone[0]:.2f} "
          f"[{into_it[5].strip()}]", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--format", choices=("gbn", "jsonl"),
                        help="simulated: gbn (the default) or jsonl; --log: jsonl (the default) "
                        "or gbn")
    parser.add_argument("--jobs", default="1,2", help="the numbers of jobs, comma-separated")
    parser.add_argument("--keep", type=Path, help="a folder to keep the records and stores in")
    parser.add_argument("--log", action="store_true",
                        help="games made from templates (write_log), not simulated: a JSON "
                        "Lines log, or with --format gbn the same games as GBN")
    parser.add_argument("--more", type=int, default=0, metavar="M",
                        help="then import M more simulated games of GBN into the store, and "
                        "into an empty one: what the store's size costs a game (a ratio)")
    parser.add_argument("--reuse", action="store_true",
                        help="take the store an earlier run kept in --keep as it is (with "
                        "--more): no import of the N games")
    args = parser.parse_args()
    if args.reuse and not args.more:
        parser.error("--reuse times only the --more import: give --more M")
    args.format = args.format or ("jsonl" if args.log else "gbn")
    if not GETBIT.exists():
        raise SystemExit(f"no getbit next to {sys.executable}")
    folder = args.keep or Path(tempfile.mkdtemp(prefix="getbit-scale-"))
    folder.mkdir(parents=True, exist_ok=True)
    records = folder / f"{'log' if args.log else 'sim'}-{args.games}.{args.format}"
    size = 0
    if not args.reuse:  # --reuse imports only the --more games: no need of the N's records
        if not records.exists() and args.log:
            t0 = time.perf_counter()
            write_log(records, args.games, args.format)
            print(f"wrote a log of {args.games:,} games in {time.perf_counter() - t0:.0f}s")
        if not records.exists():
            seconds = simulate(args.games, args.format, records)
            print(f"simulated {args.games:,} games in {seconds:.0f}s", flush=True)
        size = records.stat().st_size
        print(f"{args.games:,} games, {size / 1e6:.1f} MB of {records.suffix[1:]}; "
              f"getbit {GETBIT}; {_python()}")
    env = {**os.environ, "GETBIT_DEBUG": "1"}
    more = folder / f"more-{args.more}.gbn"
    if args.more and not more.exists():  # seeds of their own: none is one of the N
        simulate(args.more, "gbn", more, seeds=(3, 4))
    for jobs in (int(j) for j in args.jobs.split(",")):
        db = folder / f"store-{args.games}-jobs{jobs}.db"
        if args.reuse:
            if not db.exists():
                raise SystemExit(f"--reuse: no store {db}")
            _more(db, more, jobs, env)
            continue
        for leftover in (db, Path(f"{db}-wal"), Path(f"{db}-shm")):
            leftover.unlink(missing_ok=True)
        seconds, cpu, own, total, pss, out = run(
            [str(GETBIT), "import", "--db", str(db), "--jobs", str(jobs), str(records)], env
        )
        stored = db.stat().st_size
        rate = args.games / seconds
        print(f"import --jobs {jobs}: {seconds:7.1f}s  {rate:7,.0f} games/s  "
              f"(CPU {cpu:6.1f}s, {cpu / args.games * 1000:.2f} ms a game)  "
              f"store {stored / 1e6:7.1f} MB = {stored / size:.2f} x the records  "
              f"peak {own / 1024:5.0f} MiB (all processes {total / 1024:5.0f} MiB, "
              f"shared pages once {pss / 1024:5.0f} MiB)  "
              f"a million: {1e6 / rate / 60:5.1f} min   [{out.strip()}]", flush=True)
        seconds, cpu, own, _, _, _ = run([str(GETBIT), "stats", "--db", str(db)], env)
        print(f"  stats on it: {seconds:6.1f}s (CPU {cpu:.1f}s)  peak {own / 1024:5.0f} MiB",
              flush=True)
        if args.more:
            _more(db, more, jobs, env)
    if args.keep is None:
        shutil.rmtree(folder)


if __name__ == "__main__":
    main()
