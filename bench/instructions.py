"""Instructions a pass of validating GBN takes, counted by valgrind: the one measure
of the validator's speed that a busy machine does not move.

    python bench/instructions.py [--games 100] [--gbn FILE] [--write FILE] [--import]

Wall-clock ratios (``bench/validate.py``) swing by a third on a shared machine;
instruction counts do not. This runs the interpreter it is started with under
``valgrind --tool=cachegrind`` (Debian's ``valgrind``) over the same games with
no pass and with two, and gives the difference halved: the instructions one
pass takes, without start-up. Two lines, as ``bench/validate.py``'s (a):

- validate: read the GBN and validate every game (``validate_game(g).valid``);
- validate and make events: the same, and each report's events made.

With ``--import``, two lines more, in instructions a game: what an import's worker
process does of each game (``store.jobs._work`` over the pieces of a file: read it,
check it, make it ready to store, and pickle it in its chunk as it is sent to the
writer), of a JSON Lines log and of GBN, the games of ``bench/scale.py``'s million
(``write_log``). The first pass, which fills the worker's caches, is left out: the
difference is ``1 + 2`` passes less ``1``.

To compare two builds, give both the same games: write them once with one
build (``--write FILE``), then ``--gbn FILE`` under each build's interpreter.
Run it from outside the source tree so that the installed (compiled) build is
the one measured; it says which build it ran.
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

from sibling import sibling

PASSES = 2
_REFS = re.compile(r"I\s+refs:\s+([\d,]+)")


def _child(gbn: Path, passes: int, events: bool) -> None:
    """The measured process: ``passes`` passes over the games of ``gbn``."""
    from getbit_events.validate import validate_game
    from importers.gbn import iter_gbn

    text = gbn.read_text(encoding="utf-8")
    for _ in range(passes):
        if events:
            sum(len(validate_game(g).events) for g in iter_gbn(text, gbn.name))
        else:
            sum(validate_game(g).valid for g in iter_gbn(text, gbn.name))


def _worker_child(path: Path, fmt: str, passes: int) -> None:
    """The measured process: ``passes`` passes of an import's worker over the file at
    ``path``, every piece of it its own."""
    import pickle

    here = Path(__file__).resolve().parent  # bench/store.py is not the package ``store``
    sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != here]
    from importers.pieces import Piece, pieces
    from store.jobs import CHUNK, _work

    for _ in range(passes):
        done = []
        for piece in pieces(path, str(path), fmt):
            assert isinstance(piece, Piece)
            done.append(_work(piece, False, True))
            if len(done) == CHUNK:
                pickle.dumps(done, pickle.HIGHEST_PROTOCOL)
                done = []


def _count(gbn: Path, passes: int, events: bool | str) -> int:
    """Instructions of a child process making ``passes`` passes (``events``: a format,
    ``jsonl`` or ``gbn``, for an import's worker)."""
    which = events if isinstance(events, str) else "1" if events else "0"
    args = ["valgrind", "--tool=cachegrind", "--cache-sim=no", "--cachegrind-out-file=/dev/null",
            sys.executable, __file__, "--child", str(gbn), str(passes), which]
    done = subprocess.run(args, capture_output=True, text=True,
                          env={**os.environ, "PYTHONHASHSEED": "0"})
    found = _REFS.search(done.stderr)
    if done.returncode != 0 or found is None:
        raise SystemExit(f"valgrind failed ({done.returncode}): {done.stderr[-1500:]}")
    return int(found.group(1).replace(",", ""))


def _simulated(n: int, path: Path) -> None:
    """``bench/validate.py``'s ``n`` games (its ``make_games``), written as GBN to ``path``."""
    bench_validate = sibling("validate")
    path.write_text(bench_validate.write_gbn(bench_validate.make_games(n)), encoding="utf-8")


def main() -> None:
    if len(sys.argv) == 5 and sys.argv[1] == "--child":
        if sys.argv[4] in ("jsonl", "gbn"):
            _worker_child(Path(sys.argv[2]), sys.argv[4], int(sys.argv[3]))
        else:
            _child(Path(sys.argv[2]), int(sys.argv[3]), sys.argv[4] == "1")
        return
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100, help="games to simulate")
    parser.add_argument("--gbn", type=Path, help="the games to validate (not simulated)")
    parser.add_argument("--write", type=Path, help="write the simulated games here and stop")
    parser.add_argument("--import", dest="worker", action="store_true",
                        help="and the instructions a game of an import's worker, log and GBN")
    args = parser.parse_args()
    import getbit_events.validate as validate

    compiled = not validate.__file__.endswith(".py")
    print(f"getbit_events, {'compiled by mypyc' if compiled else 'pure Python'}: "
          f"{Path(validate.__file__).parent}")
    with tempfile.TemporaryDirectory() as tmp:
        gbn = args.gbn
        if gbn is None:
            gbn = args.write or Path(tmp) / "games.gbn"
            _simulated(args.games, gbn)
            if args.write:
                print(f"wrote {args.games} games to {gbn}")
                return
        size = gbn.stat().st_size
        print(f"{gbn}: {size:,} bytes of GBN; instructions a pass (valgrind, {PASSES} passes "
              "less none, halved):")
        for label, events in (("validate", False), ("validate and make events", True)):
            per_pass = (_count(gbn, PASSES, events) - _count(gbn, 0, events)) / PASSES
            print(f"  {label:<26} {per_pass / 1e6:9.1f} M")
        if args.worker:
            _worker_lines(args.games, Path(tmp))


def _worker_lines(games: int, tmp: Path) -> None:
    """The import's worker lines (``--import``): ``games`` games of each format."""
    write_log = sibling("scale").write_log
    print(f"an import's worker, {games} games of bench/scale.py's (write_log); instructions "
          f"a game (valgrind, 1 + {PASSES} passes less 1, over {PASSES} passes):")
    for fmt, label in (("jsonl", "a JSON Lines log"), ("gbn", "GBN")):
        path = tmp / f"games.{fmt}"
        write_log(path, games, fmt)
        per_game = (_count(path, 1 + PASSES, fmt) - _count(path, 1, fmt)) / PASSES / games
        print(f"  {label:<26} {per_game / 1e6:9.2f} M")


if __name__ == "__main__":
    main()
