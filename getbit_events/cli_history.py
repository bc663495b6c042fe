"""A game's history on the command line: ``getbit import FILE --replaces ID``
(:func:`import_revision`), ``getbit retract``, and the history lines of ``show``.

Nothing is deleted or rewritten: a revision stores the corrected record and
appends that it supersedes the old game; a retraction appends that a game is
taken back. Both are refused, with a message and nothing written (exit 2), when
the store's history does not allow them (``sqlite_store.revisions``).
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import attrs
import typer
from rich.markup import escape

from getbit_events.cli_output import SafeConsole, write_json
from getbit_events.errors import GetbitError, InputError
from getbit_events.record import RecordedGame
from getbit_events.sqlite_store import AddResult, GameStore, HistoryEntry, default_path
from getbit_events.validate import GameReport, validate_game

__all__ = ["Revision", "history_lines", "import_revision", "register", "replace_command"]

EXIT_OK, EXIT_INVALID, EXIT_UNREADABLE = 0, 1, 2

out = SafeConsole(highlight=False, soft_wrap=True)
err = SafeConsole(stderr=True, highlight=False, soft_wrap=True)


@attrs.frozen
class Revision:
    """What ``import FILE --replaces ID`` did: the corrected record's game, stored
    (or found already stored), and the fact appended (None: it was already there)."""

    report: GameReport
    added: AddResult
    target: str
    entry: HistoryEntry | None

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.added.game_id,
            "stored": self.added.stored,
            "status": self.added.status,
            "supersedes": self.target,
            "already": self.entry is None,
            "at": self.entry.at if self.entry else None,
            "reason": self.entry.reason if self.entry else None,
        }


def import_revision(
    store: GameStore,
    paths: list[Path],
    target: str,
    reason: str | None = None,
    fmt: str = "auto",
    valid_only: bool = False,
) -> Revision:
    """Store the one game of ``paths`` (the corrected record) and append that it
    supersedes game ``target``, in one write transaction: both or neither.

    InputError, and nothing written, when ``paths`` hold no game or several, the
    record has syntax errors (or, with ``valid_only``, breaks the rules), or the
    store refuses the revision (``GameStore.supersede``).
    """
    from importers import iter_file

    records: list[RecordedGame] = []
    for path in paths:
        if path.is_dir():
            raise InputError(f"{path}: --replaces takes one file, the corrected record")
        if not path.exists():
            raise InputError(f"{path}: no such file")
        records.extend(iter_file(path, fmt))
        if len(records) > 1:
            break
    if len(records) != 1:
        many = "several games" if records else "no game"
        raise InputError(
            f"{', '.join(map(str, paths))}: holds {many}; --replaces takes a file of exactly "
            "one game (the corrected record); nothing is stored"
        )
    report = validate_game(records[0])
    if not report.readable:
        first = report.violations[0] if report.violations else report.source
        raise InputError(f"{first}: the corrected record has syntax errors: nothing is stored")
    if valid_only and not report.valid:
        raise InputError(
            f"{report.source}: the corrected record breaks the rules ({report.violations[0]}) "
            "and --valid-only refuses it: nothing is stored"
        )
    with store.batch():
        added = store.add(report)
        entry = store.supersede(added.game_id, target, reason)
    return Revision(report, added, store.game(target).id, entry)


def replace_command(
    paths: list[Path],
    fmt: str,
    db: Path | None,
    valid_only: bool,
    as_json: bool,
    target: str,
    reason: str | None,
) -> None:
    """``getbit import FILE --replaces ID``: exits 0 (1 when the corrected record
    still breaks the rules), 2 with nothing written when it is refused."""
    try:
        with GameStore(db if db is not None else default_path()) as store:
            done = import_revision(store, paths, target, reason, fmt, valid_only)
    except GetbitError as exc:
        err.print(f"getbit import: {escape(str(exc))}")
        raise typer.Exit(EXIT_UNREADABLE) from None
    for v in done.report.violations:
        err.print(f"  {escape(str(v))}")
    if as_json:
        write_json(done.to_json())
    else:
        added = done.added
        what = "stored" if added.stored else "already stored"
        if added.status == "invalid":
            what += " as invalid"
        if done.entry is None:
            said = f"it already supersedes {done.target}: nothing to do"
        else:
            why = f" ({done.entry.reason})" if done.entry.reason else ""
            said = f"it supersedes {done.target}{why}"
        out.print(escape(f"game {added.game_id} {what}; {said}"))
    raise typer.Exit(EXIT_INVALID if done.added.status == "invalid" else EXIT_OK)


def history_lines(game_id: str, entries: list[HistoryEntry]) -> list[str]:
    """What ``getbit show`` says of a game's history, a line a fact (plain text)."""
    lines = []
    for e in entries:
        why = f" ({e.reason})" if e.reason else ""
        if e.kind == "retracts":
            lines.append(f"retracted on {e.at}{why}: not counted")
        elif e.target == game_id:
            lines.append(f"superseded by {e.game} on {e.at}{why}: not counted")
        else:
            lines.append(f"supersedes {e.target} (since {e.at}){why}")
    return lines


def retract_command(
    game: Annotated[str, typer.Argument(help="the id of the game (or its start)")],
    reason: Annotated[str, typer.Option("--reason", help="why it is taken back (kept)")],
    db: Annotated[
        Path | None,
        typer.Option("--db", help="the store file (default: $GETBIT_DB, else ./getbit.db)"),
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="the fact appended, as JSON")] = False,
) -> None:
    """Take back a stored game entered by mistake (it stays stored, marked retracted).

    Statistics, ratings and 'getbit games' leave it out.
    """
    try:
        with GameStore(db if db is not None else default_path(), create=False) as store:
            entry = store.retract(game, reason.strip() or None)
    except GetbitError as exc:
        err.print(escape(f"getbit retract: {exc}"))
        raise typer.Exit(EXIT_UNREADABLE) from None
    if as_json:
        write_json(entry.to_json())
    else:
        out.print(escape(f"retracted {entry.game} on {entry.at} ({entry.reason})"))
    raise typer.Exit(EXIT_OK)


def register(app: typer.Typer) -> None:
    """Add ``getbit retract`` to the ``getbit`` app."""
    app.command("retract")(retract_command)
