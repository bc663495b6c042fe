"""What the game store keeps and hands out, apart from SQL: stored games and
violations as values, what adding and rebuilding did, a game's content hash,
and the check that a file may be opened as a store. ``getbit_events.sqlite_store``
is the store itself, and re-exports the public names.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import attrs

from getbit_events import readmodel
from getbit_events.errors import StoreError
from getbit_events.serialize import payload_json
from getbit_events.validate import GameReport

__all__ = [
    "DEFAULT_DB",
    "AddResult",
    "RebuildResult",
    "StoredGame",
    "StoredViolation",
    "check_file",
    "default_path",
    "digest",
    "game_hash",
    "status_of",
]

DEFAULT_DB = "getbit.db"
_HEADER = b"SQLite format 3\x00"


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

    def to_json(self) -> dict[str, Any]:
        data = attrs.asdict(self)
        data["tags"] = dict(self.tags)
        data["swimmers"] = list(self.swimmers)
        return data


@attrs.frozen
class AddResult:
    """What :meth:`GameStore.add` did: ``stored`` is False when the game was already there."""

    game_id: str
    stored: bool
    status: str


@attrs.frozen
class RebuildResult:
    games: int
    events: int
    rows: int


def status_of(report: GameReport) -> str:
    """``invalid`` with violations, ``unfinished`` before the end, else ``valid``."""
    return readmodel.game_status(report.valid, report.finished)


def game_hash(report: GameReport) -> str:
    """SHA-256 of the game's canonical content: events (no positions) and violations.

    The file it came from, its line ends and its layout do not count.
    """
    return digest(report, [payload_json(e) for e in report.events])


def digest(report: GameReport, payloads: Sequence[str]) -> str:
    lines = [
        f"{e.TYPE}\t{e.VERSION}\t{e.round}\t{p}\n"
        for e, p in zip(report.events, payloads, strict=True)
    ]
    if not report.events:  # no set-up: the tags are all there is
        lines.extend(f"tag\t{tag.name}\t{tag.value}\n" for tag in report.record.tags)
    lines.extend(f"violation\t{v.code}\t{v.round}\t{v.message}\n" for v in report.violations)
    return hashlib.sha256("".join(lines).encode()).hexdigest()


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
