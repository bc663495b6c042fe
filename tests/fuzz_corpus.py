"""Seeded mutants of multi-game record files (GBN, JSON Lines, CSV rounds) and the
requirement each must meet (issue 11), for ``tests/test_fuzz.py`` and ``bench/fuzz.py``.

A :class:`Base` is a valid file of several games, kept as one chunk of bytes per
game so that every game's lines are known. :func:`mutate` damages the lines of
one game's chunk (byte flips, a truncation, a duplicated or dropped line, a huge
number, an odd digit or space, NUL, bad UTF-8, a very long line, a very long
name) and says which lines of the base it touched. :func:`check` runs
``getbit validate --json`` and ``getbit import --json`` on the mutant in-process
and returns what went wrong: nothing, when the tools do what issue 11 asks.

What "undamaged" means and what every input must meet is said in
``tests/test_fuzz.py``'s docstring; :func:`check` is that statement as code.
"""

from __future__ import annotations

import bisect
import json
import random
import re
import resource
import shutil
import sqlite3
import time
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path

import attrs
from typer.testing import CliRunner

from cli import app
from getbit_events.events import CardsRevealed, Event, GameEnded, GameStarted, SharkCardPlayed
from getbit_events.limits import MAX_LINE
from getbit_events.simulate import NAMES, SETUPS, simulate_game
from importers.gbn import write_gbn
from importers.jsonl import write_jsonl
from store import readmodel

__all__ = [
    "FORMATS",
    "KINDS",
    "Base",
    "Bounds",
    "Failure",
    "Mutant",
    "bases",
    "check",
    "csv_game",
    "mutant",
    "mutate",
    "run_cases",
    "save",
    "simulated_base",
]

ROOT = Path(__file__).resolve().parent.parent
FORMATS: tuple[str, ...] = ("gbn", "jsonl", "csv")
SUFFIX = {"gbn": ".gbn", "jsonl": ".jsonl", "csv": ".csv"}
#: every kind of mutation, each applied inside one game's chunk
KINDS: tuple[str, ...] = (
    "flip",
    "truncate",
    "dup-line",
    "drop-line",
    "huge-number",
    "odd-digit",
    "odd-space",
    "nul",
    "bad-utf8",
    "long-line",
    "long-name",
)
#: digits str.isdigit() takes but int() may not: superscript, circled, Ethiopic,
#: Arabic-Indic, Extended Arabic-Indic, fullwidth, NKo, mathematical bold
ODD_DIGITS: tuple[str, ...] = ("²", "①", "፩", "٣", "۴", "３", "߂", "𝟠")
#: spaces and line breaks of other kinds: NBSP, tab, line and paragraph separator,
#: zero-width space, ideographic space, BOM, vertical tab, form feed, NEL,
#: the file separator (str.splitlines breaks at several of these)
ODD_SPACES: tuple[str, ...] = (
    "\u00a0", "\t", "\u2028", "\u2029", "\u200b", "\u3000", "\ufeff", "\x0b", "\x0c", "\x85",
    "\x1c",
)
#: byte sequences that are not UTF-8: a stray continuation byte, a lone lead
#: byte, 0xff, an encoded surrogate, an overlong slash, a five-byte form
BAD_UTF8: tuple[bytes, ...] = (
    b"\x80", b"\xc3", b"\xff", b"\xed\xa0\x80", b"\xc0\xaf", b"\xf8\x88\x80\x80\x80",
)
#: names the bases use (the simulator's, the Shark's, the teams', Friday club's)
KNOWN_NAMES: tuple[str, ...] = (*NAMES, "Jaws", "North", "South", "John", "Anne", "Beth", "Ted")
LONG_NAME = 5000
#: a huge number's digits: 2 (a card of 20 to 99: no hand holds it), 30 (past any
#: machine integer), 5000 (past Python's 4300-digit int() limit)
HUGE_DIGITS = (2, 30, 5000)
#: the share of mutations made in a game's first or last line
EDGE_SHARE = 0.35
#: a very long line: past the 1 MiB line limit (bench/fuzz.py --long-line sets it)
LONG_LINE = 2 * 1024 * 1024
assert LONG_LINE > MAX_LINE


# -- the bases -----------------------------------------------------------------


@attrs.frozen
class Base:
    """A valid file of several games, one chunk of bytes per game (separators at its end)."""

    name: str
    fmt: str
    chunks: tuple[bytes, ...]

    @property
    def data(self) -> bytes:
        return b"".join(self.chunks)

    def chunk_lines(self) -> list[range]:
        """The 1-based lines of each chunk."""
        out, line = [], 1
        for chunk in self.chunks:
            n = chunk.count(b"\n")
            out.append(range(line, line + n))
            line += n
        return out

    def regions(self) -> list[range]:
        """Each game's region, as tests/test_fuzz.py's docstring says (1-based lines)."""
        spans = []
        for chunk, lines in zip(self.chunks, self.chunk_lines(), strict=True):
            body = [
                number
                for number, text in zip(lines, chunk.split(b"\n"), strict=False)
                if text.strip() and not self._comment(text.strip())
            ]
            spans.append((body[0], body[-1]))
        total = self.data.count(b"\n")
        shared_opening = 1 if self.fmt in ("gbn", "csv") else 0
        regions = []
        for k in range(len(spans)):
            low = spans[k - 1][1] + 1 if k else 1
            high = spans[k + 1][0] - 1 + shared_opening if k + 1 < len(spans) else total + 1
            regions.append(range(low, high + 1))
        return regions

    def _comment(self, text: bytes) -> bool:
        if self.fmt == "gbn":
            return text.startswith(b"#")
        return self.fmt == "csv" and text.startswith(b"#") and not _CSV_TAG.match(text)


_CSV_TAG = re.compile(rb"#\s*[A-Za-z][A-Za-z0-9_-]*\s*:")


def _gbn_chunks(text: str) -> list[bytes]:
    """A GBN file cut before each tag line that follows a round line."""
    chunks: list[list[str]] = [[]]
    after_round = False
    for line in text.splitlines(keepends=True):
        body = line.strip()
        if body.startswith("[") and after_round:
            chunks.append([])
            after_round = False
        elif body and not body.startswith(("#", "[")):
            after_round = True
        chunks[-1].append(line)
    return ["".join(c).encode() for c in chunks]


def _games(setups: Sequence[tuple[str, int]], seed: int, bot: str) -> list[list[Event]]:
    return [
        simulate_game(variant, swimmers, seed * 101 + k, bot, memory=(k % 3 == 2))
        for k, (variant, swimmers) in enumerate(setups)
    ]


_MIX_A = (("standard", 4), ("shark", 5), ("two-player", 4), ("three-player", 4))
_MIX_B = (("standard", 6), ("shark", 4), ("standard", 5))


def csv_game(events: Sequence[Event]) -> str:
    """A complete game as a CSV score sheet (``docs/csv.md``): tags, header, one row a round.

    The limb of each bite is not written (the rules take the default), so the
    game must have been played with the default limbs (the ``sensible`` bot).
    """
    setup = events[0]
    assert isinstance(setup, GameStarted)
    lines = [f"# {name}: {value}" for name, value in setup.tags]
    if setup.variant != "standard":
        lines.append(f"# Variant: {setup.variant}")
    if setup.memory:
        lines.append("# Memory: on")
    if setup.automaton is not None:
        lines.append(f"# Automaton: {setup.automaton}")
    if setup.teams:
        teams = "; ".join(f"{player}: {', '.join(names)}" for player, names in setup.teams)
        lines.append(f"# Teams: {teams}")
    if setup.shark is not None:
        lines.append(f"# Shark: {setup.shark}")
    ended = [e for e in events if isinstance(e, GameEnded)]
    if ended:
        lines.append(f"# Winner: {ended[0].winner}")
    columns = list(setup.line) + ([setup.shark] if setup.shark is not None else [])
    lines.append(",".join(["round", *columns]))
    shark_cards = {e.round: e.card for e in events if isinstance(e, SharkCardPlayed)}
    for event in events:
        if not isinstance(event, CardsRevealed):
            continue
        cards = dict(event.cards)
        cells = [str(event.round)]
        for name in setup.line:
            card = cards.get(name, "")
            cells.append("-" if card is None else str(card))
        if setup.shark is not None:
            cells.append(shark_cards.get(event.round, ""))
        lines.append(",".join(cells))
    return "\n".join(lines) + "\n"


def _join(texts: Iterable[str]) -> tuple[bytes, ...]:
    """Game texts as chunks, a blank line after each but the last."""
    texts = list(texts)
    return tuple(
        (t if k + 1 == len(texts) else t + "\n").encode() for k, t in enumerate(texts)
    )


def simulated_base(fmt: str, setups: Sequence[tuple[str, int]], seed: int) -> Base:
    """A file of ``fmt`` holding one simulated game of each set-up (every third with memory)."""
    name = f"sim-{seed}-" + "-".join(f"{v}{n}" for v, n in setups)
    games = _games(setups, seed, "sensible" if fmt == "csv" else "random")
    if fmt == "gbn":
        return Base(name, fmt, _join(write_gbn([g]) for g in games))
    if fmt == "jsonl":
        chunks = tuple(
            "".join(write_jsonl([(f"{name}-{k}", g)])).encode() for k, g in enumerate(games, 1)
        )
        return Base(name, fmt, chunks)
    if fmt == "csv":
        return Base(name, fmt, _join(csv_game(g) for g in games))
    raise ValueError(f"unknown format {fmt!r}")


def bases(fmt: str) -> list[Base]:
    """The valid multi-game files the mutants of ``fmt`` start from."""
    if fmt == "gbn":
        found = []
        folder = ROOT / "fixtures" / "games"
        for path in sorted(folder.glob("*.gbn")):
            chunks = _gbn_chunks(path.read_text(encoding="utf-8"))
            if len(chunks) > 1:
                found.append(Base(path.name, fmt, tuple(chunks)))
        club = (folder / "friday-club.gbn").read_text(encoding="utf-8")
        four = (folder / "sim-standard-4.gbn").read_text(encoding="utf-8")
        found.append(Base("club+standard-4", fmt, tuple(_gbn_chunks(club + "\n" + four))))
        for mix, seed in ((_MIX_A, 1), (_MIX_B, 2)):
            found.append(simulated_base(fmt, mix, seed))
        return found
    if fmt in ("jsonl", "csv"):
        return [simulated_base(fmt, mix, seed) for mix, seed in ((_MIX_A, 3), (_MIX_B, 4))]
    raise ValueError(f"unknown format {fmt!r}")


# -- the mutations -------------------------------------------------------------


@attrs.frozen
class Mutant:
    """A base with one game's chunk damaged: the bytes, and which base lines it touched."""

    base: Base
    kind: str
    game: int  # 0-based: the game whose chunk was damaged
    data: bytes
    touched: frozenset[int]
    cut: int | None  # a truncation: every line from this one on is touched
    note: str

    def damaged(self) -> set[int]:
        """The games (0-based) whose region the mutation touched."""
        out = set()
        for k, region in enumerate(self.base.regions()):
            if self.touched & set(region) or (self.cut is not None and region[-1] >= self.cut):
                out.add(k)
        return out

    def undamaged(self) -> list[int]:
        damaged = self.damaged()
        return [k for k in range(len(self.base.chunks)) if k not in damaged]

    def narrowed(self) -> Mutant:
        """The same damage in a file of only the damaged game and its neighbours (to show)."""
        chunks = self.base.chunks
        low, high = max(self.game - 1, 0), min(self.game + 2, len(chunks))
        before = sum(len(c) for c in chunks[:low])
        after = sum(len(c) for c in chunks[high:]) if self.cut is None else 0
        shift = sum(c.count(b"\n") for c in chunks[:low])
        base = Base(f"{self.base.name}[{low + 1}-{high}]", self.base.fmt, chunks[low:high])
        return Mutant(
            base,
            self.kind,
            self.game - low,
            self.data[before : len(self.data) - after],
            frozenset(n - shift for n in self.touched),
            None if self.cut is None else self.cut - shift,
            f"{self.note}; games {low + 1} to {high} of {len(chunks)} kept (bytes counted in all)",
        )

    def describe(self) -> str:
        return (
            f"{self.base.fmt} {self.base.name}: {self.kind} in game {self.game + 1} "
            f"({self.note}); damaged games {sorted(k + 1 for k in self.damaged())}"
        )


Edit = tuple[int, int, bytes]  # replace data[start:end] with the bytes


class _Lines:
    """Where each line of a file starts, to turn byte offsets into line numbers."""

    def __init__(self, data: bytes) -> None:
        self.data = data
        self.starts = [0] + [i + 1 for i, b in enumerate(data) if b == 0x0A]

    def line(self, offset: int) -> int:
        return bisect.bisect_right(self.starts, offset)

    def span(self, number: int) -> tuple[int, int]:
        """Bytes of line ``number`` (its newline included)."""
        start = self.starts[number - 1]
        end = self.starts[number] if number < len(self.starts) else len(self.data)
        return start, end

    def touched(self, edits: Iterable[Edit]) -> set[int]:
        out: set[int] = set()
        for start, end, _ in edits:
            out.add(self.line(start))
            for p in range(start, end):
                out.add(self.line(p))
                if self.data[p] == 0x0A:
                    out.add(self.line(p) + 1)  # a changed newline joins two lines
        return out


def _apply(data: bytes, edits: Iterable[Edit]) -> bytes:
    out = bytearray(data)
    for start, end, new in sorted(edits, reverse=True):
        out[start:end] = new
    return bytes(out)


def mutate(
    base: Base, kind: str, game: int, rng: random.Random, long_line: int = LONG_LINE
) -> Mutant:
    """``kind`` applied inside the chunk of game ``game`` (0-based), drawn from ``rng``."""
    data = base.data
    lines = _Lines(data)
    chunk_lines = base.chunk_lines()[game]
    first, last = lines.span(chunk_lines[0])[0], lines.span(chunk_lines[-1])[1]
    content = [n for n in chunk_lines if data[slice(*lines.span(n))].strip()]
    # a game's first and last lines are where a reader finds where games part:
    # a share of the mutations go there
    focus = [rng.choice((content[0], content[-1]))] if rng.random() < EDGE_SHARE else content
    if focus != content:
        first, last = lines.span(focus[0])
    cut: int | None = None
    touched: set[int] | None = None
    edits: list[Edit] = []
    note = ""

    def matches(pattern: bytes, among: list[int] = focus) -> list[tuple[int, int]]:
        """Where ``pattern`` matches in the lines ``among`` (in any line, if none there)."""
        found = []
        for n in among:
            start, end = lines.span(n)
            found += [(start + m.start(), start + m.end())
                      for m in re.finditer(pattern, data[start:end])]
        return found if found or among is content else matches(pattern, content)

    if kind == "flip":
        for _ in range(rng.randint(1, 3)):
            p = rng.randrange(first, last)
            edits.append((p, p + 1, bytes([data[p] ^ rng.randrange(1, 256)])))
        edits = list({e[0]: e for e in edits}.values())
        note = ", ".join(f"byte {p} {data[p]:#04x}->{new[0]:#04x}" for p, _, new in edits)
    elif kind == "truncate":
        p = rng.randrange(first, last)
        cut = lines.line(p)
        note = f"cut at byte {p} (line {cut})"
        return Mutant(base, kind, game, data[:p], frozenset(), cut, note)
    elif kind in ("dup-line", "drop-line"):
        n = rng.choice(focus if focus != content else list(chunk_lines))
        start, end = lines.span(n)
        new = data[start:end] * 2 if kind == "dup-line" else b""
        edits.append((start, end, new))
        touched = {n}
        note = f"line {n}"
    elif kind == "huge-number":
        spans = matches(rb"[0-9]+")
        start, end = rng.choice(spans)
        digits = rng.choice(HUGE_DIGITS)
        number = str(rng.randint(2, 9)) + "".join(str(rng.randint(0, 9)) for _ in range(digits - 1))
        edits.append((start, end, number.encode()))
        note = f"{data[start:end].decode()} -> a {digits}-digit number at byte {start}"
    elif kind == "odd-digit":
        start, end = rng.choice(matches(rb"[0-9]"))
        digit = rng.choice(ODD_DIGITS)
        edits.append((start, end, digit.encode()))
        note = f"{data[start:end].decode()} -> {digit!r} at byte {start}"
    elif kind == "odd-space":
        space = rng.choice(ODD_SPACES)
        spaces = matches(rb" ")
        names = matches(rb"(?<![A-Za-z])(?:" + "|".join(KNOWN_NAMES).encode() + rb")(?![A-Za-z])")
        words = names if names and rng.random() < 0.7 else matches(rb"[A-Za-z]+")
        if spaces and rng.random() < 0.5:
            start, end = rng.choice(spaces)
            edits.append((start, end, space.encode()))
            note = f"space -> {space!r} at byte {start}"
        else:
            start, end = rng.choice(words)
            at = rng.choice((start, end))  # a leading or trailing space on a word (a name)
            edits.append((at, at, space.encode()))
            note = f"{space!r} inserted at byte {at}, by {data[start:end].decode()!r}"
    elif kind in ("nul", "bad-utf8"):
        n = rng.choice(focus)
        start, end = lines.span(n)
        p = rng.randrange(start, end)
        bad = b"\x00" if kind == "nul" else rng.choice(BAD_UTF8)
        edits.append((p, p + (rng.random() < 0.5), bad))  # inserted, or in place of a byte
        note = f"{bad!r} at byte {p} (line {n})"
    elif kind == "long-line":
        start, end = rng.choice(matches(rb"[A-Za-z]+"))
        edits.append((end, end, b"x" * long_line))
        note = f"{long_line} x's after {data[start:end].decode()!r} at byte {end}"
    elif kind == "long-name":
        def word(name: str) -> bytes:
            return rb"(?<![A-Za-z])" + re.escape(name.encode()) + rb"(?![A-Za-z])"

        name = rng.choice([name for name in KNOWN_NAMES if matches(word(name), content)])
        long = (name + "x" * LONG_NAME)[:LONG_NAME].encode()
        for start, end in matches(word(name), content):
            edits.append((start, end, long))
        note = f"{name} -> a {LONG_NAME}-character name, {len(edits)} times"
    else:
        raise ValueError(f"unknown mutation {kind!r}")
    if touched is None:
        touched = lines.touched(edits)
    return Mutant(base, kind, game, _apply(data, edits), frozenset(touched), cut, note)


def mutant(
    fmt: str,
    seed: int,
    kind: str | None = None,
    long_line: int = LONG_LINE,
    simulated: float = 0.0,
) -> Mutant:
    """Mutant number ``seed`` of ``fmt``: its base, kind (unless given) and game drawn from it.

    A share ``simulated`` of the bases are new simulated files (two to four
    games of random set-ups), the others are those of :func:`bases`.
    """
    rng = random.Random(f"{fmt}-{kind}-{seed}")
    if rng.random() < simulated:
        setups = [rng.choice(SETUPS) for _ in range(rng.randint(2, 4))]
        base = simulated_base(fmt, setups, rng.randrange(1 << 30))
    else:
        base = rng.choice(_bases(fmt))
    kind = kind if kind is not None else rng.choice(KINDS)
    return mutate(base, kind, rng.randrange(len(base.chunks)), rng, long_line)


_BASES: dict[str, list[Base]] = {}


def _bases(fmt: str) -> list[Base]:
    if fmt not in _BASES:
        _BASES[fmt] = bases(fmt)
    return _BASES[fmt]


# -- the requirement -----------------------------------------------------------


@attrs.frozen
class Failure:
    """One way a mutant broke the requirement: ``kind`` groups them, ``detail`` says more."""

    kind: str
    detail: str


@attrs.frozen
class _Baseline:
    results: tuple[str, ...]  # per game: what validate says of it
    hashes: tuple[str, ...]  # per game: its hash once imported


_RUNNER = CliRunner()
_BASELINES: dict[tuple[str, str], _Baseline] = {}


@attrs.frozen
class Bounds:
    """What one command may take on one case (seconds, growth of the peak memory in MB),
    and whether what was stored must also come back through an export."""

    seconds: float | None = None
    memory_mb: float | None = None
    #: the formats what was stored is also exported as, and imported again from
    roundtrip: tuple[str, ...] = ("gbn", "jsonl")


def _run(command: str, args: list[str], bounds: Bounds) -> tuple[list[Failure], str]:
    """``getbit command args`` in-process: its failures (a crash, a bad exit code) and stdout."""
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    started = time.monotonic()
    result = _RUNNER.invoke(app, [command, *args])
    elapsed = time.monotonic() - started
    grown = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024 - peak
    failures = []
    if bounds.seconds is not None and elapsed > bounds.seconds:
        failures.append(Failure(f"{command}:slow", f"{elapsed:.1f} s"))
    if bounds.memory_mb is not None and grown > bounds.memory_mb:
        failures.append(Failure(f"{command}:memory", f"peak memory grew by {grown:.0f} MB"))
    exc = result.exception
    if exc is not None and not isinstance(exc, SystemExit):
        where = ""
        if result.exc_info is not None and result.exc_info[2] is not None:
            import traceback

            frame = traceback.extract_tb(result.exc_info[2])[-1]
            where = f" at {Path(frame.filename).name}:{frame.lineno}"
        failures.append(Failure(f"{command}:crash:{type(exc).__name__}", f"{exc!s:.300}{where}"))
    elif result.exit_code not in (0, 1, 2):
        last = (result.stderr.strip().splitlines() or [""])[-1]
        failures.append(Failure(f"{command}:exit-{result.exit_code}", f"{last:.300}"))
    if "Traceback" in result.output:
        failures.append(Failure(f"{command}:traceback", f"{result.output[-300:]}"))
    return failures, result.stdout


def _result(report: dict[str, object]) -> str:
    keys = ("variant", "rounds", "winner", "ranking", "final")
    return json.dumps([report.get(k) for k in keys], sort_keys=True)


def _validate(path: Path, bounds: Bounds) -> tuple[list[Failure], list[str]]:
    """validate --json: its failures, and the result of every valid game it reports."""
    failures, stdout = _run("validate", ["--json", str(path)], bounds)
    valid = []
    for line in stdout.split("\n"):  # not splitlines: U+2028 may stand in a JSON string
        if not line:
            continue
        try:
            report = json.loads(line)
        except ValueError:
            failures.append(Failure("validate:output", f"not JSON: {line[:200]!r}"))
            continue
        if isinstance(report, dict) and report.get("valid"):
            valid.append(_result(report))
    return failures, valid


def _import(path: Path, db: Path, bounds: Bounds) -> tuple[list[Failure], list[str]]:
    """import --json into a new store: its failures, and the hash of each game stored."""
    for suffix in ("", "-wal", "-shm", "-journal"):
        Path(f"{db}{suffix}").unlink(missing_ok=True)
    failures, _ = _run("import", ["--json", "--db", str(db), str(path)], bounds)
    if not db.exists():
        return failures, []
    conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        rows = conn.execute(
            "SELECT g.hash, g.events, g.violations,"
            " (SELECT COUNT(*) FROM events e WHERE e.game_id = g.id),"
            " (SELECT COUNT(*) FROM violations v WHERE v.game_id = g.id),"
            f" (SELECT COUNT(*) FROM {readmodel.TABLE} s WHERE s.game_id = g.id)"
            " FROM games g"
        ).fetchall()
    except sqlite3.Error as exc:
        return [*failures, Failure("import:store", str(exc))], []
    finally:
        conn.close()
    stored = []
    for digest, events, violations, event_rows, violation_rows, swimmer_rows in rows:
        if event_rows != events or violation_rows != violations or (events and not swimmer_rows):
            failures.append(Failure(
                "import:half",
                f"game {digest[:12]}: {event_rows} of {events} events, {violation_rows} of "
                f"{violations} violations, {swimmer_rows} read-model rows",
            ))
        stored.append(digest)
    return failures, stored


def _baseline(base: Base, workdir: Path) -> _Baseline:
    key = (base.fmt, base.name)
    if key not in _BASELINES:
        path = workdir / f"base{SUFFIX[base.fmt]}"
        path.write_bytes(base.data)
        failures, valid = _validate(path, Bounds())
        more, stored = _import(path, workdir / "base.db", Bounds())
        failures += more
        n = len(base.chunks)
        if failures or len(valid) != n or len(stored) != n:
            raise AssertionError(
                f"the unmutated base {base.fmt} {base.name} is not {n} valid games: "
                f"{len(valid)} valid, {len(stored)} stored; {failures}"
            )
        _BASELINES[key] = _Baseline(tuple(valid), tuple(stored))
    return _BASELINES[key]


def check(mutant: Mutant, workdir: Path, bounds: Bounds = Bounds()) -> list[Failure]:
    """Every way ``getbit validate`` and ``getbit import`` break the requirement on ``mutant``
    (and ``bounds``, which by default are none)."""
    workdir.mkdir(parents=True, exist_ok=True)
    baseline = _baseline(mutant.base, workdir)
    path = workdir / f"case{SUFFIX[mutant.base.fmt]}"
    path.write_bytes(mutant.data)
    keep = mutant.undamaged()
    failures, valid = _validate(path, bounds)
    missing = Counter(baseline.results[k] for k in keep) - Counter(valid)
    if missing:
        failures.append(Failure(
            "validate:lost", f"{missing.total()} undamaged game(s) not reported valid as before"
        ))
    more, stored = _import(path, workdir / "case.db", bounds)
    failures += more
    lost = [k + 1 for k in keep if baseline.hashes[k] not in stored]
    if lost:
        failures.append(Failure("import:lost", f"undamaged game(s) {lost} not stored"))
    if bounds.roundtrip:
        failures += _roundtrip(workdir, bounds)
    return failures


def _roundtrip(workdir: Path, bounds: Bounds) -> list[Failure]:
    """Export the games stored as valid or unfinished (as GBN, as JSON Lines: ``bounds``
    says), import each export into a new store: every game must come back with its hash."""
    db = workdir / "case.db"
    if not db.exists():
        return []
    conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        games = dict(conn.execute("SELECT id, hash FROM games WHERE status != 'invalid'"))
    except sqlite3.Error:
        return []  # the import's own check said what is wrong with the store
    finally:
        conn.close()
    if not games:
        return []
    failures = []
    for fmt in bounds.roundtrip:
        out = workdir / f"export{SUFFIX[fmt]}"
        out.unlink(missing_ok=True)
        args = ["--db", str(db), "--format", fmt, "-o", str(out), *games]
        exported, _ = _run("export", args, bounds)
        failures += [attrs.evolve(f, kind=f"{f.kind}-{fmt}") for f in exported]
        if exported or not out.exists():
            continue
        more, stored = _import(out, workdir / "again.db", bounds)
        failures += [attrs.evolve(f, kind=f"reimport-{fmt}:{f.kind}") for f in more]
        lost = sorted(game_id for game_id, digest in games.items() if digest not in stored)
        if lost:
            failures.append(Failure(
                f"reimport-{fmt}:lost", f"exported games {lost} do not come back as they were"
            ))
    return failures


def save(mutant: Mutant, failures: Sequence[Failure], folder: Path, name: str) -> Path:
    """Write the mutant and what it broke under ``folder``, to run getbit on again."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{name}{SUFFIX[mutant.base.fmt]}"
    path.write_bytes(mutant.data)
    lines = [mutant.describe(), *(f"{f.kind}: {f.detail}" for f in failures)]
    (folder / f"{name}.txt").write_text("\n".join(lines) + "\n", encoding="utf-8",
                                        errors="backslashreplace")
    return path


def run_cases(
    cases: Iterable[Mutant],
    workdir: Path,
    on_case: Callable[[Mutant, list[Failure]], None],
    bounds: Bounds = Bounds(),
) -> None:
    """Check each mutant in turn (one work folder, cleaned after), telling ``on_case``."""
    try:
        for case in cases:
            on_case(case, check(case, workdir, bounds))
    finally:
        shutil.rmtree(workdir, ignore_errors=True)
