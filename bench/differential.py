"""Differential run of ``getbit validate --json``: two revisions, one corpus, same bytes?

    python bench/differential.py --base REV [--head REV] [--records 5000] [--seed 1]
                                 [--verbose] [--keep]

Issue 13's refactor is done when this says IDENTICAL on at least 5,000 records
(``--base`` the commit before it, ``--head`` omitted). Run it from the worktree
whose code is the head side, with the Python of a venv that has the project's
dependencies:

- each revision is checked out as a detached ``git worktree`` in a temporary
  folder; without ``--head``, the head side is the current working tree as it
  is on disk, uncommitted changes included;
- each side runs its own ``getbit`` (the ``[project.scripts]`` entry of ITS
  pyproject.toml) with this Python, ``PYTHONPATH`` set to its tree only: the
  venv's editable install is taken out of the import machinery, and every run
  fails if it imported a module from outside its own tree (``--verbose`` lists
  the project modules each side imported);
- the corpus is made once, by the base: its simulator plays every set-up it
  accepts (variants and swimmer counts, both bots, memory on and off), a
  seeded mutator here damages about three quarters of the games (cards,
  stated outcomes, names, round numbers, round lines, cut records, winners,
  tags, syntax, NUL and bad UTF-8 bytes, huge numbers), and the games are
  written 100 to a GBN file; a fifth of the files are imported into a store and
  exported as JSON Lines with the base's CLI (CSV is not made: no ``getbit``
  command writes it);
- both sides validate every file, then the whole folder, from the same working
  directory; stdout bytes, stderr bytes and exit codes must be equal.

Exit codes: 0 identical, 1 a difference (the first file, and a diff of its
first differing game), 2 bad input (a revision git does not know, a side with
no ``getbit`` script, a base that cannot make the corpus), 3 internal error.
``--keep`` keeps the temporary folder (corpus, stores, worktrees) and says where.
"""

from __future__ import annotations

import argparse
import difflib
import json
import os
import random
import re
import shutil
import subprocess
import sys
import sysconfig
import tempfile
import threading
import time
import tomllib
from collections import Counter
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import NamedTuple

EXIT_IDENTICAL, EXIT_DIFFERENT, EXIT_USAGE, EXIT_BUG = 0, 1, 2, 3
GAMES_PER_FILE = 100
JSONL_EVERY = 5  # every fifth GBN file is also exported as JSON Lines
UNMUTATED = 0.25
VARIANTS = ("standard", "three-player", "two-player", "shark")  # if the base does not list them
SWIMMER_COUNTS = range(2, 9)
BOTS = ("random", "sensible")
DIFF_LINES = 40

# Run inside each side's process: the editable install of the venv would hand out
# the worktree's packages for any name the side's own tree lacks, so it goes first.
_WRAPPER = """\
import atexit, json, os, sys
sys.meta_path[:] = [f for f in sys.meta_path
                    if not getattr(f, "__module__", "").startswith("__editable__")]
sys.path[:] = [p for p in sys.path if "__editable__" not in p]
def _modules():
    files = {{getattr(m, "__file__", None) for m in list(sys.modules.values())}}
    with open(os.environ["GETBIT_DIFF_MODULES"], "w", encoding="utf-8") as out:
        json.dump(sorted(f for f in files if f), out)
atexit.register(_modules)
sys.argv = {argv!r}
from {module} import {function}
{call}()
"""


class DiffError(Exception):
    """Bad input or a side that cannot run: a message and exit code 2."""


class Side:
    """One revision's tree and how to run its ``getbit``."""

    def __init__(self, name: str, label: str, tree: Path, scratch: Path) -> None:
        self.name, self.label, self.tree, self.scratch = name, label, tree, scratch
        self.entry = _entry_point(tree)
        self.seconds = 0.0
        self.runs = 0
        self.modules: list[str] = []  # the project modules one validate run imported
        self._lock = threading.Lock()

    def run(self, args: Sequence[str], cwd: Path) -> Run:
        """``getbit ARGS`` with this side's code only; checks where its modules came from."""
        module, _, attr = self.entry.partition(":")
        head, _, rest = attr.partition(".")
        code = _WRAPPER.format(
            argv=["getbit", *args], module=module, function=head, call=attr if rest else head
        )
        with self._lock:
            self.runs += 1
            record = self.scratch / f"modules-{self.name}-{self.runs}.json"
        env = {k: v for k, v in os.environ.items() if k not in ("GETBIT_DEBUG", "GETBIT_DB")}
        env["PYTHONPATH"] = str(self.tree)
        env["GETBIT_DIFF_MODULES"] = str(record)
        start = time.perf_counter()
        done = subprocess.run(
            [sys.executable, "-P", "-c", code], cwd=cwd, env=env, capture_output=True, check=False
        )
        with self._lock:
            self.seconds += time.perf_counter() - start
        foreign = self._foreign(record, keep=args[0] == "validate")
        if foreign:
            raise DiffError(
                f"{self.name}: getbit {' '.join(args[:1])} imported {foreign[0]}, "
                f"outside its tree {self.tree}"
            )
        return Run(tuple(args), done.returncode, done.stdout, done.stderr)

    def _foreign(self, record: Path, keep: bool) -> list[str]:
        """Project modules imported from outside this side's tree (none, or a shadowing bug)."""
        try:
            files = json.loads(record.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return []  # the process died before exit: its output says why
        paths = sysconfig.get_paths()  # the stdlib and the venv's site-packages
        outside = {Path(paths[k]).resolve() for k in ("stdlib", "platstdlib", "purelib", "platlib")}
        ours = [
            f
            for f in files
            if not any(Path(f).resolve().is_relative_to(p) for p in outside) and f != "-c"
        ]
        with self._lock:
            if keep and not self.modules:
                self.modules = ours
        tree = self.tree.resolve()
        return [f for f in ours if not Path(f).resolve().is_relative_to(tree)]


class Run(NamedTuple):
    """One run's exit code and output bytes."""

    args: tuple[str, ...]
    code: int
    out: bytes
    err: bytes

    def same(self, other: Run) -> bool:
        return (self.code, self.out, self.err) == (other.code, other.out, other.err)


def _entry_point(tree: Path) -> str:
    """The ``getbit = "module:function"`` script of the tree's pyproject.toml."""
    try:
        project = tomllib.loads((tree / "pyproject.toml").read_text(encoding="utf-8"))
        entry = project["project"]["scripts"]["getbit"]
    except (OSError, ValueError, KeyError) as exc:
        raise DiffError(f"{tree}: no [project.scripts] getbit in pyproject.toml ({exc})") from None
    if not isinstance(entry, str) or not re.fullmatch(r"[\w.]+:[\w.]+", entry):
        raise DiffError(f"{tree}: getbit script {entry!r} is not 'module:function'")
    return entry


def _git(repo: Path, *args: str) -> str:
    done = subprocess.run(["git", *args], cwd=repo, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise DiffError(f"git {' '.join(args)}: {done.stderr.strip()}")
    return done.stdout.strip()


# ---------------------------------------------------------------- the corpus


def _probe_setups(base: Side, cwd: Path, pool: ThreadPoolExecutor) -> list[tuple[str, int]]:
    """Every (variant, swimmers) the base's simulator plays, each once."""
    asked = base.run(["simulate", "--variant", "?", "--games", "1"], cwd)
    said = asked.err.decode(errors="replace")
    listed = re.search(r"choose one of ([\w\-, ]+)", said)
    variants = [v.strip() for v in listed.group(1).split(",")] if listed else list(VARIANTS)
    asks = [(v, n) for v in variants for n in SWIMMER_COUNTS]
    runs = pool.map(
        lambda a: base.run(["simulate", "--variant", a[0], "--swimmers", str(a[1])], cwd), asks
    )
    seen: set[bytes] = set()
    setups = []
    for (variant, n), run in zip(asks, runs, strict=True):
        if run.code == 0 and run.out not in seen:  # a variant with a fixed count ignores n
            seen.add(run.out)
            line = re.search(rb'\[Line "([^"]*)"\]', run.out)
            setups.append((variant, len(line.group(1).split(b",")) if line else n))
    if not setups:
        raise DiffError(f"base: its simulator plays no set-up ({said.strip()})")
    return setups


def _games(text: bytes) -> list[list[bytes]]:
    """A GBN file's games, each as its lines (blank lines between games dropped)."""
    games: list[list[bytes]] = []
    previous = b""
    for line in text.splitlines():
        if line.startswith(b"[") and not previous.startswith(b"["):
            games.append([])
        if line.strip() and games:
            games[-1].append(line)
        previous = line if line.strip() else previous
    return games


def _simulate(
    base: Side, cwd: Path, pool: ThreadPoolExecutor, records: int, seed: int
) -> tuple[list[list[bytes]], str]:
    """``records`` games from the base's simulator, over every set-up, bot and memory."""
    setups = _probe_setups(base, cwd, pool)
    jobs = [(v, n, b, m) for v, n in setups for b in BOTS for m in (False, True)]
    per_job = -(-records // len(jobs))

    def play(k: int) -> list[list[bytes]]:
        variant, n, bot, memory = jobs[k]
        args = ["simulate", "--variant", variant, "--swimmers", str(n), "--games", str(per_job)]
        args += ["--seed", str(seed * 1000 + k), "--bot", bot]
        run = base.run([*args, "--memory" if memory else "--no-memory"], cwd)
        if run.code != 0:
            raise DiffError(f"base: getbit {' '.join(args)}: {run.err.decode(errors='replace')}")
        return _games(run.out)

    played = list(pool.map(play, range(len(jobs))))
    games = [g for k in range(per_job) for job in played for g in job[k : k + 1]][:records]
    shown = ", ".join(f"{v} {n}" for v, n in setups)
    return games, f"{len(setups)} set-ups ({shown}) x {len(BOTS)} bots x memory off/on"


_ROUND = re.compile(rb"^(\d+)\.(\s*)(.*)$")
LIMBS = (b"right-arm", b"left-arm", b"right-leg", b"left-leg")


def _names(game: list[bytes]) -> list[bytes]:
    for line in game:
        if line.startswith(b"[Line "):
            return [n.strip() for n in line[7:].rstrip(b'"]').split(b",") if n.strip()]
    return [b"Ann", b"Bob"]


def _rounds(game: list[bytes]) -> list[int]:
    return [i for i, line in enumerate(game) if _ROUND.match(line)]


class Mutator:
    """Seeded damage to one game's lines, of a kind picked at random (counted by kind).

    Each kind returns the changed lines, or None when the game has nothing it can
    change; a kind of round damage is given the index of a random round line.
    """

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.in_round: dict[str, Callable[[list[bytes], int], list[bytes] | None]] = {
            "card": self.card,
            "outcome": self.outcome,
            "drop-outcome": self.drop_outcome,
            "add-outcome": self.add_outcome,
            "renumber": self.renumber,
            "drop-round": lambda game, i: game[:i] + game[i + 1 :],
            "duplicate-round": lambda game, i: game[: i + 1] + game[i:],
            "syntax": self.syntax,
            "huge": self.huge,
        }
        self.in_game: dict[str, Callable[[list[bytes]], list[bytes] | None]] = {
            "name": self.name,
            "swap-rounds": self.swap_rounds,
            "cut": self.cut,
            "winner": self.winner,
            "tag": self.tag,
            "junk": self.junk,
        }
        self.counts: Counter[str] = Counter()

    def __call__(self, game: list[bytes]) -> list[bytes]:
        kinds = [*self.in_round, *self.in_game]
        for _ in range(self.rng.choice((1, 1, 1, 2, 2, 3))):
            for _attempt in range(5):
                kind = self.rng.choice(kinds)
                rounds = _rounds(game)
                if kind in self.in_game:
                    changed = self.in_game[kind](list(game))
                elif rounds:
                    changed = self.in_round[kind](list(game), self.rng.choice(rounds))
                else:
                    continue
                if changed and changed != game:
                    game = changed
                    self.counts[kind] += 1
                    break
        return game

    def card(self, game: list[bytes], i: int) -> list[bytes] | None:
        parts = game[i].split(b" ; ")
        plays = parts[0].split(b", ")
        k = self.rng.randrange(len(plays))
        value = self.rng.choice((b"0", b"1", b"2", b"3", b"4", b"5", b"6", b"7", b"9", b"-1"))
        plays[k] = re.sub(rb"\S+$", value, plays[k])
        game[i] = b" ; ".join([b", ".join(plays), *parts[1:]])
        return game

    def outcome(self, game: list[bytes], i: int) -> list[bytes] | None:
        parts = game[i].split(b" ; ")
        if len(parts) < 2:
            return None
        k = self.rng.randrange(1, len(parts))
        words = parts[k].split(b" ")
        names = _names(game)
        if words[0] == b"line" and len(words) > 2:
            line = b" ".join(words[1:]).split(b", ")
            self.rng.shuffle(line)
            parts[k] = b"line " + b", ".join(line[: len(line) - self.rng.choice((0, 0, 1))])
        elif words[0] == b"hunger":
            parts[k] = b"hunger %d" % self.rng.choice((-1, 0, 1, 2, 3, 4, 7))
        elif words[0] == b"bit" and len(words) > 2:
            parts[k] = b"bit " + self.rng.choice((self.rng.choice(names), words[1])) + b" "
            parts[k] += self.rng.choice((*LIMBS, b"tail", b"head"))
        else:
            parts[k] = words[0] + b" " + b", ".join(self.rng.sample(names, min(2, len(names))))
        game[i] = b" ; ".join(parts)
        return game

    def drop_outcome(self, game: list[bytes], i: int) -> list[bytes] | None:
        parts = game[i].split(b" ; ")
        if len(parts) < 2:
            return None
        del parts[self.rng.randrange(1, len(parts))]
        game[i] = b" ; ".join(parts)
        return game

    def add_outcome(self, game: list[bytes], i: int) -> list[bytes] | None:
        parts = game[i].split(b" ; ")
        names = _names(game)
        who = self.rng.choice(names)
        added = self.rng.choice(
            (
                b"bit " + who + b" " + self.rng.choice(LIMBS),
                b"out " + who,
                b"refresh " + who,
                b"hunger %d" % self.rng.randrange(0, 6),
                b"discard " + who + b" %d" % self.rng.randrange(1, 7),
                b"line " + b", ".join(self.rng.sample(names, len(names))),
            )
        )
        parts.insert(self.rng.randrange(1, len(parts) + 1), added)
        game[i] = b" ; ".join(parts)
        return game

    def renumber(self, game: list[bytes], i: int) -> list[bytes] | None:
        match = _ROUND.match(game[i])
        assert match is not None
        number = int(match.group(1)) + self.rng.choice((-2, -1, 1, 2, 10))
        game[i] = b"%d.%s%s" % (max(0, number), match.group(2), match.group(3))
        return game

    def syntax(self, game: list[bytes], i: int) -> list[bytes] | None:
        line = game[i]
        game[i] = self.rng.choice(
            (
                line.replace(b", ", b" ", 1),
                line.replace(b". ", b" ", 1),
                line.replace(b" ; ", b" ;; ", 1),
                line + b" ;",
                line.replace(b" ", b"\t", 2),
                b"   " + line + b"  ",
                line + b" {comment",
                line[: len(line) // 2] + b"]" + line[len(line) // 2 :],
            )
        )
        return game

    def huge(self, game: list[bytes], i: int) -> list[bytes] | None:
        big = b"%d" % 10 ** self.rng.choice((6, 19, 20, 40, 400))
        hit = self.rng.choice(list(re.finditer(rb"\d+", game[i])))
        game[i] = game[i][: hit.start()] + big + game[i][hit.end() :]
        return game

    def name(self, game: list[bytes]) -> list[bytes] | None:
        who = self.rng.choice(_names(game))
        wrong = self.rng.choice((who[:-1], who + who[-1:], who.lower(), who.upper(), who[::-1]))
        spots = [i for i, line in enumerate(game) if who in line]
        if not spots or wrong == who:
            return None
        i = self.rng.choice(spots)
        at = self.rng.choice([m.start() for m in re.finditer(re.escape(who), game[i])])
        game[i] = game[i][:at] + wrong + game[i][at + len(who) :]
        return game

    def swap_rounds(self, game: list[bytes]) -> list[bytes] | None:
        rounds = _rounds(game)
        if len(rounds) < 2:
            return None
        k = self.rng.randrange(len(rounds) - 1)
        i, j = rounds[k], rounds[k + 1]
        game[i], game[j] = game[j], game[i]
        return game

    def cut(self, game: list[bytes]) -> list[bytes] | None:
        if len(game) < 2:
            return None
        game = game[: self.rng.randrange(1, len(game))]
        if self.rng.random() < 0.5 and len(game[-1]) > 2:
            game[-1] = game[-1][: self.rng.randrange(1, len(game[-1]))]
        return game

    def winner(self, game: list[bytes]) -> list[bytes] | None:
        tags = [i for i, line in enumerate(game) if line.startswith(b"[Winner ")]
        if not tags:
            return None
        if self.rng.random() < 0.2:
            del game[tags[0]]
        else:
            who = self.rng.choice((*_names(game), b"Nobody", b"North", b""))
            game[tags[0]] = b'[Winner "' + who + b'"]'
        return game

    def tag(self, game: list[bytes]) -> list[bytes] | None:
        tags = [i for i, line in enumerate(game) if line.startswith(b"[")]
        if not tags:
            return None
        i = self.rng.choice(tags)
        line = game[i]
        game[i] = self.rng.choice(
            (
                line[:-1],
                line.replace(b'"', b"", 1),
                line.replace(b" ", b"", 1),
                b"[Colour" + line[line.find(b" ") :],
                line[:1] + line[1:].lower(),
                line.replace(b", ", b",, ", 1),
            )
        )
        if self.rng.random() < 0.2:
            game.insert(i, line)  # the tag twice
        return game

    def junk(self, game: list[bytes]) -> list[bytes] | None:
        i = self.rng.randrange(len(game))
        at = self.rng.randrange(len(game[i]) + 1)
        junk = self.rng.choice((b"\x00", b"\xff", b"\xc3", b"\xe2\x82", b"\xef\xbb\xbf", b"\r"))
        game[i] = game[i][:at] + junk + game[i][at:]
        return game


def _write_corpus(
    games: list[list[bytes]], folder: Path, rng: random.Random
) -> tuple[list[Path], Mutator, int]:
    """The games shuffled, most of them mutated, GAMES_PER_FILE to a GBN file."""
    rng.shuffle(games)
    mutate = Mutator(rng)
    mutated = 0
    files = []
    folder.mkdir(parents=True)
    for start in range(0, len(games), GAMES_PER_FILE):
        chunk = []
        for game in games[start : start + GAMES_PER_FILE]:
            if rng.random() >= UNMUTATED:
                game = mutate(game)
                mutated += 1
            tags = next((i for i, line in enumerate(game) if not line.startswith(b"[")), len(game))
            chunk.append(b"\n".join(game[:tags]) + b"\n\n" + b"\n".join(game[tags:]) + b"\n")
        path = folder / f"records-{start // GAMES_PER_FILE + 1:03d}.gbn"
        path.write_bytes(b"\n".join(chunk))
        files.append(path)
    return files, mutate, mutated


def _to_jsonl(base: Side, cwd: Path, gbn: Path, stores: Path) -> tuple[Path, int] | None:
    """One GBN file imported into a fresh store and exported as a JSON Lines log."""
    db = stores / (gbn.stem + ".db")
    base.run(["import", "--db", str(db), str(gbn.relative_to(cwd))], cwd)
    listed = base.run(["games", "--db", str(db), "--json", "--all"], cwd)
    stored = [json.loads(line) for line in listed.out.splitlines() if line.strip()]
    ids = [game["id"] for game in stored if game.get("events")]  # a broken set-up has none
    if listed.code != 0 or not ids:
        return None
    target = cwd / "corpus" / "jsonl" / (gbn.stem + ".jsonl")
    run = base.run(["export", "--db", str(db), "--format", "jsonl", "-o", str(target), *ids], cwd)
    if run.code != 0:
        raise DiffError(f"base: getbit export: {run.err.decode(errors='replace')}")
    return target, len(ids)


# ---------------------------------------------------------------- comparing


def _first_difference(path: str, base: Run, head: Run) -> str:
    """Where two runs part, with a short unified diff of the first differing game."""
    said = [f"DIFFERENT: getbit {' '.join(base.args)}"]
    if base.code != head.code:
        said.append(f"  exit code: base {base.code}, head {head.code}")
    if base.out == head.out and base.err == head.err:
        return "\n".join(said)
    stream = "stdout" if base.out != head.out else "stderr"
    left = (base.out if stream == "stdout" else base.err).splitlines()
    right = (head.out if stream == "stdout" else head.err).splitlines()
    pairs = enumerate(zip(left, right, strict=False))
    k = next((i for i, (a, b) in pairs if a != b), min(len(left), len(right)))
    said.append(f"  {stream} line {k + 1} (base {len(left)} lines, head {len(right)})")
    try:
        shown = json.loads(left[k]) if k < len(left) else {}
        said.append(f"  game {shown['game']} of {shown['source']}, record line {shown['line']}")
    except (ValueError, KeyError, TypeError):
        pass  # not a game's JSON object: the diff shows what it is
    a, b = _pretty(left[k : k + 1]), _pretty(right[k : k + 1])
    diff = list(difflib.unified_diff(a, b, f"base/{path}", f"head/{path}", n=2, lineterm=""))
    said += diff[:DIFF_LINES]
    if len(diff) > DIFF_LINES:
        said.append(f"... ({len(diff) - DIFF_LINES} more lines)")
    return "\n".join(said)


def _pretty(lines: list[bytes]) -> list[str]:
    """A game's JSON object, a field a line (or the raw line when it is not JSON)."""
    out: list[str] = []
    for line in lines:
        try:
            out += json.dumps(json.loads(line), indent=1, ensure_ascii=False).splitlines()
        except ValueError:
            out.append(line.decode(errors="backslashreplace"))
    return out


def _tally(runs: list[Run]) -> str:
    """Games reported, how many valid, and the exit codes: what the runs saw."""
    games = valid = 0
    for run in runs:
        for line in run.out.splitlines():
            try:
                shown = json.loads(line)
            except ValueError:
                continue
            games += 1
            valid += shown.get("valid") is True
    codes = Counter(run.code for run in runs)
    shown_codes = ", ".join(f"{c} x{n}" for c, n in sorted(codes.items()))
    return f"{games} games reported ({valid} valid, {games - valid} not); exit codes {shown_codes}"


def _make_corpus(
    base: Side, cwd: Path, pool: ThreadPoolExecutor, records: int, seed: int
) -> list[str]:
    """The corpus under ``cwd/corpus``, made by the base; its files, relative to ``cwd``."""
    start = time.perf_counter()
    games, setups = _simulate(base, cwd, pool, records, seed)
    files, mutate, mutated = _write_corpus(games, cwd / "corpus" / "gbn", random.Random(seed))
    (cwd / "corpus" / "jsonl").mkdir()
    stores = cwd.parent / "stores"
    stores.mkdir()
    converted = pool.map(lambda f: _to_jsonl(base, cwd, f, stores), files[::JSONL_EVERY])
    exported = [done for done in converted if done is not None]
    print(f"records: {len(games)} ({mutated} mutated) from {setups}")
    print("mutations: " + ", ".join(f"{k} {n}" for k, n in mutate.counts.most_common()))
    print(
        f"files: {len(files)} GBN, {len(exported)} JSON Lines "
        f"({sum(n for _, n in exported)} games the base's store took and exported); "
        "CSV: none (no getbit command writes CSV)"
    )
    print(f"corpus made by the base in {time.perf_counter() - start:.1f} s")
    return [str(p.relative_to(cwd)) for p in [*files, *(p for p, _ in exported)]]


def _side(repo: Path, name: str, rev: str | None, scratch: Path, trees: list[Path]) -> Side:
    """A side: a detached worktree of ``rev`` (added to ``trees``), or the working tree."""
    if rev is None:
        return Side(name, f"working tree {repo}", repo, scratch)
    try:
        commit = _git(repo, "rev-parse", "--verify", "--quiet", f"{rev}^{{commit}}")
    except DiffError:
        raise DiffError(f"--{name} {rev}: not a commit of {repo}") from None
    tree = scratch / name
    _git(repo, "worktree", "add", "--detach", str(tree), commit)
    trees.append(tree)
    return Side(name, f"{rev} ({commit[:10]})", tree, scratch)


def differential(
    repo: Path, revs: tuple[str, str | None], records: int, seed: int, verbose: bool, keep: bool
) -> int:
    """Make the corpus with the base, validate it on both sides, compare."""
    scratch = Path(tempfile.mkdtemp(prefix="getbit-diff-"))
    trees: list[Path] = []
    try:
        base = _side(repo, "base", revs[0], scratch, trees)
        head = _side(repo, "head", revs[1], scratch, trees)
        cwd = scratch / "run"  # both sides run here: the same relative paths in their output
        cwd.mkdir()
        with ThreadPoolExecutor(max_workers=max(2, os.cpu_count() or 2)) as pool:
            paths = [*_make_corpus(base, cwd, pool, records, seed), "corpus"]  # then the folder
            base.seconds = head.seconds = 0.0
            jobs = [(side, path) for path in paths for side in (base, head)]
            first = jobs[-2:] + jobs[:-2]  # the longest runs (the whole folder) start first
            runs = pool.map(lambda j: j[0].run(["validate", "--json", j[1]], cwd), first)
            done = dict(zip(first, runs, strict=True))
            results = [done[job] for job in jobs]
        for side in (base, head):
            took = f"{side.seconds:.1f} s (the sum of its {len(paths)} runs)"
            print(f"{side.name}: {side.label}, getbit = {side.entry}: {took}")
            if verbose:
                print("\n".join(f"  imported {module}" for module in side.modules))
        pairs = list(zip(results[::2], results[1::2], strict=True))
        print(f"base saw: {_tally([b for b, _ in pairs[:-1]])}")
        for path, (left, right) in zip(paths, pairs, strict=True):
            if not left.same(right):
                print(_first_difference(path, left, right))
                return EXIT_DIFFERENT
        print(f"IDENTICAL: stdout, stderr and exit code of {len(pairs)} runs per side")
        return EXIT_IDENTICAL
    finally:
        if keep:
            print(f"kept: {scratch}", file=sys.stderr)
        for tree in trees:
            if keep:
                print(f"  when done: git worktree remove --force {tree}", file=sys.stderr)
            else:
                remove = ["git", "worktree", "remove", "--force", str(tree)]
                subprocess.run(remove, cwd=repo, capture_output=True, check=False)
        if not keep:
            shutil.rmtree(scratch, ignore_errors=True)


def main(argv: Sequence[str] | None = None) -> int:
    """Parse options, run, and turn errors into exit codes."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0] if __doc__ else None)
    parser.add_argument("--base", required=True, help="the revision before (makes the corpus)")
    parser.add_argument("--head", help="the revision after (default: the working tree as it is)")
    parser.add_argument("--records", type=int, default=5000, help="games in the corpus")
    parser.add_argument("--seed", type=int, default=1, help="same seed, same corpus")
    parser.add_argument("--verbose", action="store_true", help="list each side's imported modules")
    parser.add_argument("--keep", action="store_true", help="keep the temporary folder")
    options = parser.parse_args(argv)
    if options.records < 1:
        parser.error("--records must be at least 1")
    try:
        repo = Path(_git(Path.cwd(), "rev-parse", "--show-toplevel"))
        revs = (options.base, options.head)
        return differential(
            repo, revs, options.records, options.seed, options.verbose, options.keep
        )
    except DiffError as exc:
        print(f"differential: {exc}", file=sys.stderr)
        return EXIT_USAGE
    except Exception as exc:  # a bug here, not a difference between the sides
        print(f"differential: internal error: {type(exc).__name__}: {exc}", file=sys.stderr)
        if os.environ.get("GETBIT_DEBUG") == "1":
            raise
        return EXIT_BUG


if __name__ == "__main__":
    sys.exit(main())
