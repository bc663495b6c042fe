"""What the game store keeps and hands out, apart from SQL: stored games and
violations as values, what adding and rebuilding did, a game's content hash,
the chain that links the games, what is damaged, and the check that a file
may be opened as a store. ``store``
is the store itself, and re-exports the public names.
"""

from __future__ import annotations

import datetime
import hashlib
import json
import os
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

import attrs

from biteme.validate import BiteReport
from getbit_events.errors import InputError, StoreError
from getbit_events.events import Event
from getbit_events.record import Violation
from getbit_events.validate import GameReport
from importers.reading import spooled
from importers.wire import payload_json
from store import readmodel

__all__ = [
    "BITE_ME",
    "DB_SUFFIXES",
    "DEFAULT_DB",
    "GAMES",
    "GAME_NAMES",
    "GENESIS",
    "GET_BIT",
    "AddResult",
    "CheckResult",
    "Damage",
    "HistoryEntry",
    "RebuildResult",
    "StoredGame",
    "StoredViolation",
    "chain_head",
    "chain_row",
    "chain_value",
    "check_file",
    "default_path",
    "digest",
    "game_hash",
    "kept_violations",
    "lines_digest",
    "lookup_store",
    "read_head",
    "record_digest",
    "refuse_file_options",
    "rows_digest",
    "source_kind",
    "status_of",
    "utc_now",
]

DEFAULT_DB = "getbit.db"
#: The games a store keeps, as ``games.game`` and ``--rules`` name them.
GET_BIT = "get-bit"
BITE_ME = "bite-me"
GAMES = (GET_BIT, BITE_ME)
#: each game's name, as people read it
GAME_NAMES = {GET_BIT: "Get Bit!", BITE_ME: "Come on! Bite me!"}
#: the file endings of a game store: a command given such a file reads it as a store
DB_SUFFIXES = (".db", ".sqlite", ".sqlite3")
_HEADER = b"SQLite format 3\x00"


def utc_now() -> str:
    """The time now in UTC, to the second, as the store writes it (ISO 8601)."""
    return datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds")


def source_kind(source: str) -> str:
    """What a command's SOURCE names: ``"file"`` (a record file, or a pipe copied),
    ``"store"`` (a file ending in one of ``DB_SUFFIXES``) or ``"id"`` (a stored game's
    id, to look up in the store of ``--db``); an ``InputError`` for a folder or a file
    that is not there, said the same way by every command."""
    path = Path(source)
    if spooled(path):  # a record piped in (``-``, a pipe: ``importers.reading.spool``)
        return "file"
    if path.is_dir():
        raise InputError(f"{source}: a folder; give one record file, or a stored game's id")
    if path.is_file():
        return "store" if path.suffix.lower() in DB_SUFFIXES else "file"
    if path.suffix or os.sep in source or "/" in source:
        raise InputError(f"{source}: no such file")
    return "id"


def refuse_file_options(fmt: str, encoding: str | None, number: int | None = None) -> None:
    """An ``InputError`` when ``--format``, ``--encoding`` or ``--game N`` is given for a
    stored game (a SOURCE that is not a record file): they say how to read a file and
    which of its games, and a store keeps text, not bytes, each game under its id; said
    the same way by every command."""
    given = [f"--{name}" for name, value in (
        ("format", fmt != "auto"), ("encoding", encoding), ("game", number is not None))
        if value]
    if given:
        raise InputError(f"{', '.join(given)} go{'es' * (len(given) == 1)} with a record "
                         "file (a stored game is read from the store, as text, by its id)")


def lookup_store(db: Path, ref: str) -> Path:
    """``db``, the store to look the stored game ``ref`` up in; an ``InputError`` when
    there is none (a look-up never creates a store), said the same way by every command."""
    if not db.is_file():
        raise InputError(f"{ref}: no such file, and no game store at {db} (see --db)")
    return db


def default_path() -> Path:
    """``$GETBIT_DB`` when set, else ``getbit.db`` in the current folder."""
    return Path(os.environ.get("GETBIT_DB") or DEFAULT_DB)


@attrs.frozen
class StoredViolation:
    """One violation kept with an invalid game."""

    line: int
    column: int
    round: int | None
    code: str
    rule: str | None
    message: str

    def to_json(self) -> dict[str, Any]:
        return attrs.asdict(self)


@attrs.frozen
class StoredGame:
    """One row of ``games``: what the store knows about a game without replaying it."""

    id: str
    hash: str
    source: str | None
    source_line: int | None
    source_game: int | None
    tags: tuple[tuple[str, str], ...]
    variant: str | None
    swimmers: tuple[str, ...]
    status: str
    winner: str | None
    rounds: int
    events: int
    violations: int
    imported_at: str
    game: str = GET_BIT  # which game: GET_BIT or BITE_ME ("Come on! Bite me!")

    def to_json(self) -> dict[str, Any]:
        data = attrs.asdict(self)
        data["tags"] = dict(self.tags)
        data["swimmers"] = list(self.swimmers)
        return data


@attrs.frozen
class AddResult:
    """What :meth:`GameStore.add` did: ``stored`` is False when the game was already there.

    ``revision_of``: live stored games this new one looks like a revision of
    (the same identifying tags and starting line, other content): a hint, never
    acted on.
    """

    game_id: str
    stored: bool
    status: str
    revision_of: tuple[str, ...] = ()


@attrs.frozen
class HistoryEntry:
    """One fact of a game's history: ``game`` supersedes ``target`` (a revision),
    or ``game`` is retracted (``target`` None). Who said so is not known."""

    seq: int
    kind: str  # "supersedes" or "retracts"
    game: str
    target: str | None
    reason: str | None
    at: str  # UTC, ISO 8601

    def to_json(self) -> dict[str, Any]:
        return attrs.asdict(self)


@attrs.frozen
class Damage:
    """What is wrong with one stored game (``game`` is its id; ``None``: the store as a whole)."""

    game: str | None
    problem: str

    def __str__(self) -> str:
        if self.game is None:
            return f"the store is damaged: {self.problem}"
        return f"game {self.game} is damaged: {self.problem}"

    def to_json(self) -> dict[str, Any]:
        return attrs.asdict(self)


@attrs.frozen
class RebuildResult:
    """What :meth:`GameStore.rebuild` did; ``skipped``: damaged games left out."""

    games: int
    events: int
    rows: int
    skipped: tuple[Damage, ...] = ()


@attrs.frozen
class CheckResult:
    """What ``getbit check`` found: every damaged game and what is wrong with it."""

    games: int
    events: int
    damage: tuple[Damage, ...]
    notes: tuple[str, ...] = ()  # what could not be checked, and why
    chained: bool = True  # whether the chain of games was followed (a store before it: no)

    @property
    def ok(self) -> bool:
        return not self.damage

    def to_json(self) -> dict[str, Any]:
        return {
            "ok": self.ok,
            "games": self.games,
            "events": self.events,
            "damage": [d.to_json() for d in self.damage],
            "notes": list(self.notes),
        }


def status_of(report: GameReport) -> str:
    """``invalid`` with violations, ``unfinished`` before the end, else ``valid``."""
    return readmodel.game_status(report.valid, report.finished)


def game_hash(report: GameReport) -> str:
    """SHA-256 of the game's canonical content: events (no positions) and violations.

    The file it came from, its line ends and its layout do not count.
    """
    return digest(report, [payload_json(e) for e in report.events])


def digest(
    report: GameReport, payloads: Sequence[str], events: Sequence[Event] | None = None
) -> str:
    """:func:`game_hash` with the payload texts made already; ``events``, the report's
    events when at hand (the compiled build makes ``report.events`` again each time
    it is read)."""
    if events is None:
        events = report.events
    lines = [
        f"{e.TYPE}\t{e.VERSION}\t{e.round}\t{p}\n"
        for e, p in zip(events, payloads, strict=True)
    ]
    return lines_digest(report, lines)


def lines_digest(report: GameReport, lines: list[str]) -> str:
    """:func:`digest` of a game whose events' lines are made already (each
    ``TYPE\\tVERSION\\tround\\tpayload\\n``, as ``encoding.Shapes.encode_facts`` makes
    them); ``lines`` is added to."""
    if not lines:  # no set-up: the tags, and the record as written, are all there is
        lines.extend(f"tag\t{tag.name}\t{tag.value}\n" for tag in report.record.tags)
        lines.extend(record_lines(report.record.text))
    lines.extend(
        f"violation\t{v.code}\t{v.round}\t{v.message}\n" for v in kept_violations(report)
    )
    return hashlib.sha256("".join(lines).encode()).hexdigest()


def record_lines(text: bytes | None) -> list[str]:
    """What a game with no events hashes of its record text besides its tags: two records
    whose set-up breaks the rules, with the same tags and the same violations but other
    rounds, are two games (they were one, and the second record was lost). Nothing
    for a game with no text kept."""
    return [] if text is None else [f"record\t{hashlib.sha256(text).hexdigest()}\n"]


def kept_violations(report: GameReport | BiteReport) -> list[Violation]:
    """A game's violations in the order the store keeps and hashes them: by round, code
    and message, not by where the record wrote them (a GBN round line and an event log
    put one round's outcomes in different places), so one game has one id."""
    return sorted(report.violations, key=lambda v: (v.round or 0, v.code, v.message))


def rows_digest(
    events: Iterable[tuple[str, int, int, str]],
    tags: Iterable[tuple[str, str]],
    violations: Iterable[tuple[str, int | None, str]],
    record: bytes | None = None,
) -> str:
    """:func:`digest` of a game as stored: its event rows (type, version, round,
    payload), its tags and record text (counted only without events:
    :func:`record_lines`) and violations (code, round, message). ``getbit check``
    compares it with the hash the game was stored under.
    """
    lines = [f"{t}\t{v}\t{r}\t{p}\n" for t, v, r, p in events]
    if not lines:
        lines.extend(f"tag\t{name}\t{value}\n" for name, value in tags)
        lines.extend(record_lines(record))
    lines.extend(f"violation\t{code}\t{rnd}\t{message}\n" for code, rnd, message in violations)
    return hashlib.sha256("".join(lines).encode()).hexdigest()


#: The chain value before the first game.
GENESIS = ""


def chain_value(prev: str, row: Sequence[object]) -> str:
    """The chain value of a game: SHA-256 over the previous game's and the game's
    row (``schema.GAME_COLUMNS``, as stored). Changing or removing a row breaks it."""
    text = json.dumps([prev, *row], separators=(",", ":"))  # ASCII: any text encodes
    return hashlib.sha256(text.encode()).hexdigest()


def chain_row(row: Sequence[object], game: str, record: str | None = None) -> Sequence[object]:
    """What a game's chain value covers: its ``schema.GAME_COLUMNS``, its game when
    that is not Get Bit!, and its ``record`` (``record_digest``) with its game when it
    has one (so the chain values of games stored before each column stand)."""
    if record is not None:
        return (*row, game, record)
    return row if game == GET_BIT else (*row, game)


def record_digest(
    source: tuple[bytes, int | None] | None, violations: Iterable[Sequence[object]]
) -> str:
    """The hash of what a game keeps beside its events (``schema.RECORD``): its record
    text as ``sources`` keeps it (the bytes and their length unpacked; None: no text)
    and its violation rows (line, column, round, code, rule, message), in order."""
    text = None if source is None else [hashlib.sha256(bytes(source[0])).hexdigest(), source[1]]
    rows = [list(v) for v in violations]
    packed = json.dumps([text, rows], separators=(",", ":"))  # ASCII: any text encodes
    return hashlib.sha256(packed.encode()).hexdigest()


def chain_head(count: int, last: str) -> str:
    """The chain's head as ``meta`` keeps it: how many games, and the last one's value."""
    return json.dumps([count, last])


def read_head(text: str | None) -> tuple[int, str] | None:
    """The head :func:`chain_head` wrote (None when missing or unreadable)."""
    try:
        count, last = json.loads(text or "")
    except (ValueError, TypeError):
        return None
    if not isinstance(count, int) or not isinstance(last, str):
        return None
    return count, last


def check_file(path: Path) -> None:
    """Refuse, before SQLite touches it, a path that is not a store or a new file."""
    if path.is_dir():
        raise StoreError(f"{path} is a folder, not a getbit store")
    if not path.exists():
        if not path.parent.exists():
            raise StoreError(f"{path}: the folder {path.parent} does not exist")
        return
    try:
        with path.open("rb") as f:
            head = f.read(len(_HEADER))
    except OSError as exc:
        raise StoreError(f"{path}: cannot read: {exc.strerror or exc}") from None
    if head and head != _HEADER:
        raise StoreError(
            f"{path} is not an SQLite database (it does not start like one); "
            "refusing to touch it: give another --db"
        )
