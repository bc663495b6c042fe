"""The store's commands: ``getbit import``, ``games``, ``show``, ``export``,
``rebuild`` and ``check`` (``retract`` and ``import --replaces``: ``cli_history``).

Each is a thin shell over :class:`getbit_events.sqlite_store.GameStore`. Exit
codes are ``validate``'s: 0 all good, 1 a game breaks the rules (``check``: the
store is damaged), 2 an input or the store cannot be read, a damaged game could
not be shown (or the command is misused), 3 an internal error (a bug). Problems
go to stderr; names and messages are printed escaped, never as markup.
"""

from __future__ import annotations

import sys
import time
from collections import Counter
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

from getbit_events import cli_history
from getbit_events.cli_history import history_lines
from getbit_events.cli_output import SafeConsole, write_json
from getbit_events.errors import GetbitError, InputError, StoreError
from getbit_events.record import RecordedGame
from getbit_events.sqlite_store import (
    AddResult,
    BatchLost,
    Damage,
    GameStore,
    StoredGame,
    check_store,
    default_path,
)
from getbit_events.validate import GameReport, validate_game

__all__ = ["GameFailure", "ImportSummary", "import_paths", "register"]

EXIT_OK, EXIT_INVALID, EXIT_UNREADABLE, EXIT_BUG = 0, 1, 2, 3
_FORMATS = ("auto", "gbn", "jsonl", "csv")

out = SafeConsole(highlight=False, soft_wrap=True)
err = SafeConsole(stderr=True, highlight=False, soft_wrap=True)

DbOption = Annotated[
    Path | None,
    typer.Option("--db", help="the store file (default: $GETBIT_DB, else ./getbit.db)"),
]


def _bug(exc: BaseException) -> str:
    """An internal error on one line: its type and message, never a traceback."""
    said = " ".join(str(exc).split())[:300] or "(no message)"
    return f"{type(exc).__name__}: {said} (please report it)"


@attrs.frozen
class GameFailure:
    """A game (or the rest of a file) the import could not check or store: left out.

    ``bug`` is True when getbit itself failed (an internal error), not the input.
    """

    source: str
    line: int
    game: int | None
    reason: str
    bug: bool

    def __str__(self) -> str:
        which = f" game {self.game}:" if self.game is not None else ""
        what = "internal error (a bug)" if self.bug else "not stored"
        return f"{self.source}:{self.line}:{which} {what}: {self.reason}"

    @classmethod
    def of(cls, record: RecordedGame, exc: Exception) -> GameFailure:
        if isinstance(exc, GetbitError):
            return cls(record.source, record.pos.line, record.index, str(exc), False)
        return cls(record.source, record.pos.line, record.index, _bug(exc), True)


@attrs.define
class ImportSummary:
    """What an import did, game by game counted."""

    stored: int = 0
    already: int = 0
    invalid: int = 0
    refused: int = 0
    unreadable: int = 0  # games with syntax errors, and whole files that cannot be read
    unreadable_files: int = 0
    failed: int = 0  # games the store could not take (left out, the others stored)
    errors: int = 0  # internal errors (bugs): games, or the rest of a file, left out
    # new games that look like a revision of a stored one: where, and of which
    revisions: list[dict[str, Any]] = attrs.Factory(list)

    @property
    def exit_code(self) -> int:
        """As ``getbit validate``: 3 an internal error, 2 a file cannot be read, 1 a
        game is wrong or was not stored, else 0."""
        if self.errors:
            return EXIT_BUG
        if self.unreadable_files:
            return EXIT_UNREADABLE
        wrong = self.invalid or self.refused or self.unreadable or self.failed
        return EXIT_INVALID if wrong else EXIT_OK

    def to_json(self) -> dict[str, Any]:
        return attrs.asdict(self)

    def count(
        self, report: GameReport | InputError | GameFailure, result: AddResult | None
    ) -> None:
        """Count one game (or one file that could not be read) of the import."""
        if isinstance(report, GameFailure):
            if report.bug:
                self.errors += 1
            else:
                self.failed += 1
        elif isinstance(report, InputError):
            self.unreadable += 1
            self.unreadable_files += 1
        elif not report.readable:
            self.unreadable += 1
        elif result is None:
            self.refused += 1
        elif not result.stored:
            self.already += 1
        else:
            if result.status == "invalid":
                self.invalid += 1
            else:
                self.stored += 1
            if result.revision_of:
                self.revisions.append(revision_hint(report, result))


def revision_hint(report: GameReport, result: AddResult) -> dict[str, Any]:
    """Where a new game is that looks like a revision of stored ones, and how to
    say it replaces one (the hint is never acted on)."""
    target = result.revision_of[-1]  # the latest stored
    return {
        "source": report.source,
        "line": report.record.pos.line,
        "game": report.game,
        "id": result.game_id,
        "revision_of": list(result.revision_of),
        "command": f"getbit import {report.source} --replaces {target}",
    }


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
    game the store cannot take, for any reason (an error, or a bug in checking
    or storing it), is left out alone (its savepoint is rolled back) and the
    others are stored; a bug in reading a file leaves out the rest of that
    file. Only a store that fails as a whole (its batch lost, a StoreError
    from committing it) stops the import: that batch is not stored, the ones
    before it are.

    ``on_report(item, result_or_None)`` is called for each game once its batch
    is stored: ``item`` is its GameReport, an InputError for a file that cannot
    be read at all, or a GameFailure for a game left out.
    """
    from importers import iter_file

    summary = ImportSummary()
    Item = tuple[GameReport | InputError | GameFailure, AddResult | None]
    pending: list[Item] = []

    def store_one(record: RecordedGame) -> Item:
        try:
            report = validate_game(record)
            result = None
            if report.readable and (report.valid or not valid_only):
                result = store.add(report)
        except BatchLost:
            raise
        except Exception as exc:  # this game only: the next one goes on
            return GameFailure.of(record, exc), None
        return report, result

    def outcomes() -> Iterator[Item]:
        for path in list(_walk(paths, fmt)):  # every path checked before anything is stored
            line = 1
            try:
                for record in iter_file(path, fmt):
                    line = record.pos.line
                    yield store_one(record)
            except InputError as exc:
                yield exc, None
            except BatchLost:
                raise
            except Exception as exc:  # a reader's bug: the rest of this file is left out
                yield GameFailure(str(path), line, None, _bug(exc), True), None

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
    replaces: Annotated[
        str | None,
        typer.Option("--replaces", help="ID: FILE (one game) is a corrected record of game ID"),
    ] = None,
    reason: Annotated[
        str | None, typer.Option("--reason", help="with --replaces: why (kept in the history)")
    ] = None,
) -> None:
    """Store recorded games: valid ones, and invalid ones with their violations."""
    if fmt not in _FORMATS:
        err.print(f"getbit import: --format is one of {', '.join(_FORMATS)}, not {escape(fmt)}")
        raise typer.Exit(EXIT_UNREADABLE)
    if replaces is not None:
        cli_history.replace_command(paths, fmt, db, valid_only, as_json, replaces, reason)
    if reason is not None:
        err.print("getbit import: --reason goes with --replaces")
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

        def report_game(report: GameReport | InputError | GameFailure, result: Any) -> None:
            progress.advance(task)
            if isinstance(report, InputError | GameFailure):
                err.print(escape(str(report)))
                return
            head = f"{report.source} game {report.game} (line {report.record.pos.line})"
            if not report.readable:
                err.print(f"{escape(head)}: [red]unreadable[/red], not stored")
            elif not report.valid:
                n = len(report.violations)
                what = "refused" if result is None else f"stored as invalid ({result.game_id})"
                err.print(f"{escape(head)}: {n} violation{'s' * (n != 1)}, {what}")
            if result is not None and result.revision_of:
                hint = revision_hint(report, result)
                err.print(
                    f"{escape(head)}: looks like a revision of {', '.join(result.revision_of)}; "
                    f"to replace it: {escape(hint['command'])}"
                )
            if report.readable and report.valid:
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
        if summary.failed:
            parts.append(f"{summary.failed} not stored")
        if summary.errors:
            parts.append(f"{summary.errors} left out by an internal error (a bug)")
        out.print(", ".join(parts))
    raise typer.Exit(summary.exit_code)


def games_command(
    player: Annotated[str | None, typer.Option(help="games this swimmer or player played")] = (
        None
    ),
    status: Annotated[str | None, typer.Option(help="valid, invalid or unfinished")] = None,
    db: DbOption = None,
    as_json: Annotated[bool, typer.Option("--json", help="one JSON object per game")] = False,
    everything: Annotated[
        bool, typer.Option("--all", help="superseded and retracted games too, marked")
    ] = False,
) -> None:
    """List the stored games (the latest live revision of each; --all: every one)."""
    if status is not None and status not in ("valid", "invalid", "unfinished"):
        err.print(f"getbit games: --status is valid, invalid or unfinished, not {escape(status)}")
        raise typer.Exit(EXIT_UNREADABLE)
    damaged: list[Damage] = []
    try:
        with _open(db) as store:
            found = list(
                store.games(
                    player=player, status=status, on_damaged=damaged.append, everything=True
                )
            )
            dropped = store.dropped()
    except GetbitError as exc:
        raise _fail(exc) from None
    hidden = Counter(dropped[g.id] for g in found if g.id in dropped)
    if not everything:
        found = [g for g in found if g.id not in dropped]
    _say_damaged(damaged)
    if as_json:
        for game in found:
            write_json(game.to_json() | {"history": dropped.get(game.id)})
        raise typer.Exit(EXIT_UNREADABLE if damaged else EXIT_OK)
    table = Table()
    table.add_column("id", no_wrap=True, min_width=12)
    for name in ("status", "variant", "swimmers", "winner", "rounds", "source"):
        table.add_column(name)
    for game in found:
        where = f"{game.source}:{game.source_line}" if game.source else ""
        table.add_row(
            game.id,
            game.status + (f" ({dropped[game.id]})" if game.id in dropped else ""),
            game.variant or "",
            Text(", ".join(game.swimmers)),
            Text(game.winner or ""),
            str(game.rounds),
            Text(where),
        )
    out.print(table)
    said = f"{len(found)} game{'s' * (len(found) != 1)}"
    if hidden:
        left = " and ".join(f"{n} {why}" for why, n in sorted(hidden.items(), reverse=True))
        said += f" ({left}{' listed' if everything else ' not listed: see --all'})"
    out.print(said)
    raise typer.Exit(EXIT_UNREADABLE if damaged else EXIT_OK)


def _say_damaged(damaged: list[Damage]) -> None:
    for damage in damaged:
        err.print(escape(f"{damage}; run getbit check"))


def show_command(
    game: Annotated[str, typer.Argument(help="a game id, or the start of one")],
    db: DbOption = None,
    as_json: Annotated[bool, typer.Option("--json", help="as a JSON object")] = False,
    source: Annotated[
        bool, typer.Option("--source", help="the record's text as imported, byte for byte")
    ] = False,
) -> None:
    """One stored game: tags, result and violations (or, with --source, its record)."""
    problem = None
    try:
        with _open(db) as store:
            stored = store.game(game)
            if source:
                _show_source(stored.id, store.source(stored.id))
                return
            violations = store.violations(stored.id)
            history = store.history(stored.id)
            try:  # what the row says is shown only with a word on its events
                store.events(stored.id)
            except StoreError as exc:
                problem = exc
    except GetbitError as exc:
        raise _fail(exc) from None
    if as_json:
        data = stored.to_json()
        data["violation_list"] = [v.to_json() for v in violations]
        data["history"] = [e.to_json() for e in history]
        write_json(data)
    else:
        _render(stored, violations)
        for line in history_lines(stored.id, history):
            out.print(f"  {escape(line)}")
    if problem is not None:
        raise _fail(problem)


def _show_source(game_id: str, text: bytes | None) -> None:
    """The record text, written out as it was imported (not escaped: it is the file's)."""
    if text is None:
        raise InputError(
            f"getbit show: game {game_id} keeps no record text (it was stored before "
            "texts were kept, came from a record of over 512 KiB, or from Python)"
        )
    sys.stdout.flush()
    sys.stdout.buffer.write(text)
    sys.stdout.buffer.flush()


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
    games: Annotated[
        list[str] | None, typer.Argument(help="game ids (or the start of them)")
    ] = None,
    fmt: Annotated[
        str, typer.Option("--format", help="gbn, jsonl, or parquet (a folder: -o DIR)")
    ] = "gbn",
    output: Annotated[
        Path | None, typer.Option("-o", "--output", help="write here, not to the screen")
    ] = None,
    db: DbOption = None,
    everything: Annotated[
        bool, typer.Option("--all", help="parquet: every game, superseded and retracted marked")
    ] = False,
    status: Annotated[str | None, typer.Option(help="parquet: only valid, invalid or "
                                               "unfinished games")] = None,
    player: Annotated[str | None, typer.Option(help="parquet: only this swimmer's or "
                                               "player's games")] = None,
) -> None:
    """Write stored games back as canonical GBN or as a JSON Lines event log, or
    as Parquet tables for DuckDB and Spark (docs/scale.md)."""
    if fmt == "parquet":
        from getbit_events.cli_parquet import export_parquet

        export_parquet(games, output, db, everything, status, player)
    if fmt not in ("gbn", "jsonl"):
        err.print(f"getbit export: --format is gbn, jsonl or parquet, not {escape(fmt)}")
        raise typer.Exit(EXIT_UNREADABLE)
    if everything or status is not None or player is not None or not games:
        err.print("getbit export: give game ids (--all, --status and --player are for "
                  "--format parquet)")
        raise typer.Exit(EXIT_UNREADABLE)
    from importers.gbn import write_gbn
    from importers.jsonl import write_jsonl

    problems = 0
    try:
        with _open(db) as store:
            streams = []
            for ref in games:  # a game that cannot be exported is said; the others are
                try:
                    stored = store.game(ref)
                    events = store.events(stored.id)
                    if not events:
                        raise InputError(
                            f"game {stored.id} has no events (its set-up breaks the rules): "
                            "there is nothing to export"
                        )
                except GetbitError as exc:
                    err.print(escape(str(exc)))
                    problems += 1
                    continue
                streams.append((stored.id, events))
    except GetbitError as exc:
        raise _fail(exc) from None
    if fmt == "gbn":
        text = write_gbn(events for _, events in streams)
    else:
        text = "".join(write_jsonl(streams))
    _write(text, output)
    raise typer.Exit(EXIT_UNREADABLE if problems else EXIT_OK)


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
    if result.skipped:
        _say_damaged(list(result.skipped))
        n = len(result.skipped)
        err.print(f"skipped {n} damaged game{'s' * (n != 1)}: they are not in the read models")
        raise typer.Exit(EXIT_UNREADABLE)


def check_command(
    db: DbOption = None,
    as_json: Annotated[bool, typer.Option("--json", help="the findings as one JSON object")] = (
        False
    ),
) -> None:
    """Check that every stored game is as it was stored (exit 0 intact, 1 damaged).

    Each game's events against its hash, its row and its read-model rows, and the
    chain of games; exit 2 when the file is not a store.
    """
    try:
        result = check_store(db if db is not None else default_path())
    except GetbitError as exc:
        raise _fail(exc) from None
    if as_json:
        write_json(result.to_json())
    else:
        for damage in result.damage:
            out.print(escape(str(damage)))
        for note in result.notes:
            err.print(f"note: {escape(note)}")
        games = f"{result.games} game{'s' * (result.games != 1)}, {result.events} events"
        if result.ok:
            out.print(f"ok: {games}" + ("" if result.notes else ", chain intact"))
        else:
            hit = {d.game for d in result.damage if d.game is not None}
            whole = any(d.game is None for d in result.damage)
            also = " and the store as a whole" if whole else ""
            out.print(f"damaged: {len(hit)} game{'s' * (len(hit) != 1)}{also} (of {games})")
    raise typer.Exit(EXIT_OK if result.ok else EXIT_INVALID)


def register(app: typer.Typer) -> None:
    """Add the store's commands to the ``getbit`` app."""
    app.command("import")(import_command)
    app.command("games")(games_command)
    app.command("show")(show_command)
    app.command("export")(export_command)
    app.command("rebuild")(rebuild_command)
    app.command("check")(check_command)
    cli_history.register(app)
