"""The store's commands: ``getbit import``, ``games``, ``show``, ``export`` and ``rebuild``.

Each is a thin shell over :class:`getbit_events.sqlite_store.GameStore`. Exit
codes are ``validate``'s: 0 all good, 1 a game breaks the rules, 2 an input or
the store cannot be read (or the command is misused). Problems go to stderr;
names and messages are printed escaped, never as markup.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Iterator
from contextlib import ExitStack
from pathlib import Path
from typing import Annotated, Any

import attrs
import typer
from rich.markup import escape
from rich.progress import MofNCompleteColumn, Progress, SpinnerColumn, TextColumn
from rich.table import Table
from rich.text import Text

from getbit_events.cli_output import SafeConsole, write_json
from getbit_events.errors import GetbitError, InputError
from getbit_events.sqlite_store import AddResult, GameStore, StoredGame, default_path
from getbit_events.validate import GameReport, validate_game

__all__ = ["ImportSummary", "import_paths", "register"]

EXIT_OK, EXIT_INVALID, EXIT_UNREADABLE = 0, 1, 2
_FORMATS = ("auto", "gbn", "jsonl", "csv")

out = SafeConsole(highlight=False, soft_wrap=True)
err = SafeConsole(stderr=True, highlight=False, soft_wrap=True)

DbOption = Annotated[
    Path | None,
    typer.Option("--db", help="the store file (default: $GETBIT_DB, else ./getbit.db)"),
]


@attrs.define
class ImportSummary:
    """What an import did, game by game counted."""

    stored: int = 0
    already: int = 0
    invalid: int = 0
    refused: int = 0
    unreadable: int = 0  # games with syntax errors, and whole files that cannot be read
    unreadable_files: int = 0

    @property
    def exit_code(self) -> int:
        """As ``getbit validate``: 2 a file cannot be read, 1 a game is wrong, else 0."""
        if self.unreadable_files:
            return EXIT_UNREADABLE
        return EXIT_INVALID if self.invalid or self.refused or self.unreadable else EXIT_OK

    def to_json(self) -> dict[str, int]:
        return attrs.asdict(self)

    def count(self, report: GameReport | InputError, result: AddResult | None) -> None:
        """Count one game (or one file that could not be read) of the import."""
        if isinstance(report, InputError):
            self.unreadable += 1
            self.unreadable_files += 1
        elif not report.readable:
            self.unreadable += 1
        elif result is None:
            self.refused += 1
        elif not result.stored:
            self.already += 1
        elif result.status == "invalid":
            self.invalid += 1
        else:
            self.stored += 1


def _walk(paths: list[Path], fmt: str) -> Iterator[Path]:
    from importers import FORMATS, SUFFIXES

    suffixes = SUFFIXES if fmt == "auto" else FORMATS[fmt]
    for path in paths:
        if path.is_dir():
            found = (p for p in path.rglob("*") if p.suffix.lower() in suffixes and p.is_file())
            yield from sorted(found)
        elif path.exists():
            yield path
        else:
            raise InputError(f"{path}: no such file or folder")


#: A batch of an import is committed after this many games, or this many seconds.
BATCH_GAMES = 200
BATCH_SECONDS = 0.5


def import_paths(
    store: GameStore,
    paths: list[Path],
    fmt: str = "auto",
    valid_only: bool = False,
    on_report: Any = None,
) -> ImportSummary:
    """Import every game of ``paths`` (folders walked); unreadable files are reported.

    A path that does not exist is an InputError before anything is stored.
    Games are written in batches (``GameStore.batch``, at most ``BATCH_GAMES``
    games or ``BATCH_SECONDS`` each); every game is still whole or absent. A
    store that fails (StoreError) stops the import: the batch being written is
    not stored, the ones before it are.

    ``on_report(report, result_or_None)`` is called for each game once its
    batch is stored, and with ``(InputError, None)`` for a file that cannot be
    read at all.
    """
    from importers import iter_file

    summary = ImportSummary()
    pending: list[tuple[GameReport | InputError, AddResult | None]] = []

    def outcomes() -> Iterator[tuple[GameReport | InputError, AddResult | None]]:
        for path in list(_walk(paths, fmt)):  # every path checked before anything is stored
            try:
                for record in iter_file(path, fmt):
                    report = validate_game(record)
                    result = None
                    if report.readable and (report.valid or not valid_only):
                        result = store.add(report)
                    yield report, result
            except InputError as exc:
                yield exc, None

    games = outcomes()
    while True:
        started = time.monotonic()
        with store.batch():  # the batch is stored (or not at all) before it is reported
            for item in games:
                pending.append(item)
                if len(pending) >= BATCH_GAMES or time.monotonic() - started > BATCH_SECONDS:
                    break
        for report, result in pending:
            summary.count(report, result)
            if on_report is not None:
                on_report(report, result)
        if not pending:
            return summary
        pending.clear()


def _open(db: Path | None, create: bool = False) -> GameStore:
    return GameStore(db if db is not None else default_path(), create=create)


def _fail(exc: GetbitError) -> typer.Exit:
    err.print(escape(str(exc)))
    return typer.Exit(EXIT_UNREADABLE)


def import_command(
    paths: Annotated[list[Path], typer.Argument(help="GBN, JSON Lines or CSV files, or folders")],
    fmt: Annotated[
        str, typer.Option("--format", help="auto (by file ending), gbn, jsonl or csv")
    ] = "auto",
    db: DbOption = None,
    valid_only: Annotated[
        bool, typer.Option("--valid-only", help="refuse games that break the rules")
    ] = False,
    as_json: Annotated[bool, typer.Option("--json", help="the summary as JSON")] = False,
) -> None:
    """Store recorded games: valid ones, and invalid ones with their violations."""
    if fmt not in _FORMATS:
        err.print(f"getbit import: --format is one of {', '.join(_FORMATS)}, not {escape(fmt)}")
        raise typer.Exit(EXIT_UNREADABLE)
    with ExitStack() as stack:
        try:
            store = stack.enter_context(_open(db, create=True))
        except GetbitError as exc:
            raise _fail(exc) from None
        progress = stack.enter_context(
            Progress(
                SpinnerColumn(),
                TextColumn("importing"),
                MofNCompleteColumn(),
                TextColumn("games"),
                console=err,
                transient=True,
                disable=not err.is_terminal,
            )
        )
        task = progress.add_task("import", total=None)

        def report_game(report: GameReport | InputError, result: Any) -> None:
            progress.advance(task)
            if isinstance(report, InputError):
                err.print(escape(str(report)))
                return
            head = f"{report.source} game {report.game} (line {report.record.pos.line})"
            if not report.readable:
                err.print(f"{escape(head)}: [red]unreadable[/red], not stored")
            elif not report.valid:
                n = len(report.violations)
                what = "refused" if result is None else f"stored as invalid ({result.game_id})"
                err.print(f"{escape(head)}: {n} violation{'s' * (n != 1)}, {what}")
            else:
                return
            for v in report.violations:
                err.print(f"  {escape(str(v))}")

        try:
            summary = import_paths(store, paths, fmt, valid_only, report_game)
        except GetbitError as exc:
            raise _fail(exc) from None
    if as_json:
        write_json(summary.to_json())
    else:
        parts = [
            f"{summary.stored} stored",
            f"{summary.already} already stored",
            f"{summary.invalid} stored as invalid",
        ]
        if valid_only:
            parts.append(f"{summary.refused} invalid refused")
        parts.append(f"{summary.unreadable} unreadable")
        out.print(", ".join(parts))
    raise typer.Exit(summary.exit_code)


def games_command(
    player: Annotated[str | None, typer.Option(help="games this swimmer or player played")] = (
        None
    ),
    status: Annotated[str | None, typer.Option(help="valid, invalid or unfinished")] = None,
    db: DbOption = None,
    as_json: Annotated[bool, typer.Option("--json", help="one JSON object per game")] = False,
) -> None:
    """List the stored games."""
    if status is not None and status not in ("valid", "invalid", "unfinished"):
        err.print(f"getbit games: --status is valid, invalid or unfinished, not {escape(status)}")
        raise typer.Exit(EXIT_UNREADABLE)
    try:
        with _open(db) as store:
            found = list(store.games(player=player, status=status))
    except GetbitError as exc:
        raise _fail(exc) from None
    if as_json:
        for game in found:
            write_json(game.to_json())
        return
    table = Table()
    table.add_column("id", no_wrap=True, min_width=12)
    for name in ("status", "variant", "swimmers", "winner", "rounds", "source"):
        table.add_column(name)
    for game in found:
        where = f"{game.source}:{game.source_line}" if game.source else ""
        table.add_row(
            game.id,
            game.status,
            game.variant or "",
            Text(", ".join(game.swimmers)),
            Text(game.winner or ""),
            str(game.rounds),
            Text(where),
        )
    out.print(table)
    out.print(f"{len(found)} game{'s' * (len(found) != 1)}")


def show_command(
    game: Annotated[str, typer.Argument(help="a game id, or the start of one")],
    db: DbOption = None,
    as_json: Annotated[bool, typer.Option("--json", help="as a JSON object")] = False,
) -> None:
    """One stored game: tags, result and violations."""
    try:
        with _open(db) as store:
            stored = store.game(game)
            violations = store.violations(stored.id)
    except GetbitError as exc:
        raise _fail(exc) from None
    if as_json:
        data = stored.to_json()
        data["violation_list"] = [v.to_json() for v in violations]
        write_json(data)
        return
    _render(stored, violations)


def _render(game: StoredGame, violations: list[Any]) -> None:
    out.print(f"[bold]game {escape(game.id)}[/bold] ({escape(game.status)})")
    if game.source:
        out.print(f"  from {escape(game.source)}:{game.source_line} (game {game.source_game})")
    out.print(f"  imported {escape(game.imported_at)}")
    for name, value in game.tags:
        out.print(f"  {escape(name)}: {escape(value)}")
    if game.variant:
        out.print(f"  variant: {escape(game.variant)}")
        out.print(f"  line: {escape(', '.join(game.swimmers))}")
    if game.winner:
        out.print(f"  result: {escape(game.winner)} wins after {game.rounds} rounds")
    elif game.status != "invalid":
        plural = "s" if game.rounds != 1 else ""
        out.print(f"  result: unfinished after {game.rounds} round{plural}")
    for v in violations:
        where = f"round {v.round}: " if v.round is not None else ""
        text = escape(f"{where}{v.message} [{v.code}]")
        out.print(f"  [red]line {v.line}:{v.column}[/red]: {text}")


def export_command(
    games: Annotated[list[str], typer.Argument(help="game ids (or the start of them)")],
    fmt: Annotated[str, typer.Option("--format", help="gbn or jsonl")] = "gbn",
    output: Annotated[
        Path | None, typer.Option("-o", "--output", help="write here, not to the screen")
    ] = None,
    db: DbOption = None,
) -> None:
    """Write stored games back as canonical GBN or as a JSON Lines event log."""
    if fmt not in ("gbn", "jsonl"):
        err.print(f"getbit export: --format is gbn or jsonl, not {escape(fmt)}")
        raise typer.Exit(EXIT_UNREADABLE)
    from importers.gbn import write_gbn
    from importers.jsonl import write_jsonl

    try:
        with _open(db) as store:
            streams = []
            for ref in games:
                stored = store.game(ref)
                events = store.events(stored.id)
                if not events:
                    raise InputError(
                        f"game {stored.id} has no events (its set-up breaks the rules): "
                        "there is nothing to export"
                    )
                streams.append((stored.id, events))
    except GetbitError as exc:
        raise _fail(exc) from None
    if fmt == "gbn":
        text = write_gbn(events for _, events in streams)
    else:
        text = "".join(write_jsonl(streams))
    _write(text, output)


def _write(text: str, output: Path | None) -> None:
    if output is None:
        sys.stdout.write(text)
        return
    try:
        with output.open("w", encoding="utf-8", newline="\n") as f:
            f.write(text)
    except OSError as exc:
        err.print(f"{escape(str(output))}: cannot write: {escape(exc.strerror or str(exc))}")
        raise typer.Exit(EXIT_UNREADABLE) from None


def rebuild_command(db: DbOption = None) -> None:
    """Recompute the read models (statistics tables) from the stored events."""
    try:
        with _open(db) as store:
            result = store.rebuild()
    except GetbitError as exc:
        raise _fail(exc) from None
    out.print(f"rebuilt {result.rows} rows from {result.events} events of {result.games} games")


def register(app: typer.Typer) -> None:
    """Add the store's commands to the ``getbit`` app."""
    app.command("import")(import_command)
    app.command("games")(games_command)
    app.command("show")(show_command)
    app.command("export")(export_command)
    app.command("rebuild")(rebuild_command)
