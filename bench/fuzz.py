"""Fuzz ``getbit validate`` and ``getbit import`` with thousands of damaged record files.

    python bench/fuzz.py [--cases N] [--seed S] [--out DIR] [--formats gbn,jsonl,csv]
                         [--kinds flip,truncate,...] [--long-line BYTES] [--simulated SHARE]
                         [--keep K] [--slow SECONDS] [--memory-mb MB] [--exports gbn,jsonl]
                         [--work DIR]

Runs N seeded mutants per format (``tests/fuzz_corpus.py`` builds and checks
them; ``tests/test_fuzz.py`` says what each must meet: exit code 0, 1 or 2
with no traceback, every undamaged game reported valid and stored with its own
hash, nothing stored half, what was stored exported as GBN and as JSON Lines
and imported again the same), and prints per format the cases, the failing
cases, and the failures by kind and by mutation. The K smallest failing inputs
of each (format, failure, mutation) are saved under ``--out`` with a ``.txt``
beside each saying what was done to it and what broke; run ``getbit validate``
or ``getbit import`` on them to see.
A command taking more than ``--slow`` seconds on one case, or raising the
process's peak memory by more than ``--memory-mb``, fails it too (the limits
bound memory by the largest game: a 2 MiB line must not cost hundreds of MB).
A share ``--simulated`` of the cases (default a half) mutate freshly simulated
files of random set-ups, the rest the fixed bases (fixtures, mixed set-ups).
``tests/test_fuzz.py`` runs a few hundred of the same kind in CI.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from collections import Counter, defaultdict
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
for folder in (ROOT, ROOT / "tests"):  # run as a script from anywhere
    if str(folder) not in sys.path:
        sys.path.insert(0, str(folder))

from fuzz_corpus import (  # noqa: E402
    FORMATS,
    KINDS,
    LONG_LINE,
    Bounds,
    Failure,
    Mutant,
    check,
    mutant,
    run_cases,
    save,
)


class _Kept:
    """The ``keep`` smallest failing inputs of each group, saved under ``out``: each
    narrowed to the damaged game and its neighbours when that still fails the same way."""

    def __init__(self, out: Path, keep: int, work: Path, bounds: Bounds) -> None:
        self.out = out
        self.keep = keep
        self.work = work
        self.bounds = bounds
        self.saved: dict[tuple[str, str, str], list[tuple[int, str]]] = defaultdict(list)

    def offer(self, case: Mutant, failures: list[Failure], number: int) -> None:
        narrow: tuple[Mutant, list[Failure]] | None = None
        for kind in sorted({f.kind for f in failures}):
            group = (case.base.fmt, kind, case.kind)
            saved = self.saved[group]
            if len(saved) >= self.keep and len(case.data) >= max(saved)[0]:
                continue
            if narrow is None:
                small = case.narrowed()
                narrow = small, check(small, self.work / "narrow", self.bounds)
            shown, said = narrow if kind in {f.kind for f in narrow[1]} else (case, failures)
            if len(saved) >= self.keep:
                largest = max(saved)
                saved.remove(largest)
                for stale in self.out.joinpath(*group[:2]).glob(f"{largest[1]}.*"):
                    stale.unlink()
            name = f"{case.kind}-{number}"
            save(shown, said, self.out.joinpath(*group[:2]), name)
            saved.append((len(shown.data), name))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cases", type=int, default=2000, help="cases per format")
    parser.add_argument("--seed", type=int, default=0, help="same seed, same cases")
    parser.add_argument("--out", type=Path, default=Path("fuzz-failures"),
                        help="where failing inputs are saved")
    parser.add_argument("--formats", default=",".join(FORMATS))
    parser.add_argument("--kinds", default=",".join(KINDS), help="mutation kinds drawn from")
    parser.add_argument("--long-line", type=int, default=LONG_LINE,
                        help="bytes a long-line mutation adds")
    parser.add_argument("--simulated", type=float, default=0.5,
                        help="share of cases on newly simulated files")
    parser.add_argument("--keep", type=int, default=2, help="inputs kept per failure group")
    parser.add_argument("--slow", type=float, default=10.0,
                        help="seconds a command may take on one case")
    parser.add_argument("--work", type=Path, default=None,
                        help="where the cases' files and stores are made (/dev/shm is faster)")
    parser.add_argument("--exports", default="gbn,jsonl",
                        help="formats stored games are exported as and imported again ('' none)")
    parser.add_argument("--memory-mb", type=float, default=300.0,
                        help="MB one case may add to the peak memory")
    args = parser.parse_args()
    kinds = args.kinds.split(",")
    exports = tuple(f for f in args.exports.split(",") if f)
    bounds = Bounds(args.slow, args.memory_mb, exports)
    kept = _Kept(args.out, args.keep, Path(tempfile.gettempdir()), bounds)
    totals: dict[str, Counter[str]] = {}
    by_failure: dict[str, Counter[str]] = {}
    by_mutation: dict[str, Counter[str]] = {}
    started = time.monotonic()
    for fmt in args.formats.split(","):
        totals[fmt], by_failure[fmt], by_mutation[fmt] = Counter(), Counter(), Counter()
        numbers = range(args.seed * 1_000_000, args.seed * 1_000_000 + args.cases)

        def cases(fmt: str = fmt, numbers: range = numbers) -> Iterator[Mutant]:
            for number in numbers:
                kind = kinds[number % len(kinds)]
                yield mutant(fmt, number, kind, args.long_line, args.simulated)

        def on_case(
            case: Mutant, failures: list[Failure], fmt: str = fmt, first: int = numbers.start
        ) -> None:
            count = totals[fmt]
            count["cases"] += 1
            by_mutation[fmt][f"{case.kind} cases"] += 1
            if failures:
                count["failing"] += 1
                by_mutation[fmt][case.kind] += 1
                for kind in {f.kind for f in failures}:
                    by_failure[fmt][kind] += 1
                kept.offer(case, failures, first + count["cases"] - 1)  # mutant()'s number
            if count["cases"] % 500 == 0:
                print(f"  {fmt}: {count['cases']} cases, {count['failing']} failing "
                      f"({time.monotonic() - started:.0f} s)", file=sys.stderr, flush=True)

        with tempfile.TemporaryDirectory(prefix="getbit-fuzz-", dir=args.work) as work:
            kept.work = Path(work)
            run_cases(cases(), Path(work), on_case, bounds)
    elapsed = time.monotonic() - started
    print(f"fuzz: seed {args.seed}, {elapsed:.0f} s; failing inputs under {args.out}")
    for fmt, count in totals.items():
        print(f"\n{fmt}: {count['cases']} cases, {count['failing']} failing")
        for kind, n in sorted(by_failure[fmt].items()):
            print(f"  {kind:34} {n}")
        mutations = by_mutation[fmt]
        print("  by mutation (failing / cases):")
        for kind in kinds:
            print(f"    {kind:14} {mutations[kind]:5} / {mutations[kind + ' cases']}")
    sys.exit(1 if any(c["failing"] for c in totals.values()) else 0)


if __name__ == "__main__":
    main()
