"""The store's commands: ``getbit import`` (with ``--replaces``), ``games``, ``show``,
``export``, ``rebuild``, ``check`` and ``retract``.

Each is a thin shell over :class:`store.GameStore` and the import use case
(``store.importing``). Exit codes are ``validate``'s: 0 all good, 1 a game breaks
the rules (``check``: the store is damaged), 2 an input or the store cannot be
read, a damaged game could not be shown, an import or retraction is refused with
nothing written (or the command is misused), 3 an internal error (a bug).
Problems go to stderr; names and messages are printed escaped, never as markup.
"""

from __future__ import annotations

import sys
from collections import Counter
from contextlib import ExitStack
from pathlib import Path
from typing import Annotated, Any, Literal

import typer
from rich.markup import escape
from rich.progress import MofNCompleteColumn, Progress, SpinnerColumn, TextColumn
from rich.table import Table
from rich.text import Text

from console import ERR, EXIT_INVALID, EXIT_OK, EXIT_UNREADABLE, OUT, say_error, write_json
from console.options import db_option, json_option, output_option
from getbit_events.errors import GetbitError, InputError, StoreError
from getbit_events.validate import GameReport
from store import (
    Damage,
    GameStore,
    HistoryEntry,
    StoredGame,
    check_store,
    default_path,
)
from store.importing import GameFailure, import_paths, import_revision, revision_hint

__all__ = ["history_lines", "register"]

out, err = OUT, ERR

DbOption = Annotated[Path | None, db_option()]


def _open(db: Path | None, create: bool = False) -> GameStore:
    return GameStore(db if db is not None else default_path(), create=create)


def _fail(exc: GetbitError) -> typer.Exit:
    say_error(str(exc))
    return typer.Exit(EXIT_UNREADABLE)


def import_command(
    paths: Annotated[
        list[Path],
        typer.Argument(metavar="PATH", help="GBN, JSON Lines or CSV files, or folders"),
    ],
    fmt: Annotated[
        Literal["auto", "gbn", "jsonl", "csv"],
        typer.Option(
            "--format", case_sensitive=False, help="the record format (auto: by file ending)"
        ),
    ] = "auto",
    db: DbOption = None,
    valid_only: Annotated[
        bool, typer.Option("--valid-only", help="refuse games that break the rules")
    ] = False,
    as_json: Annotated[bool, json_option("the summary as JSON")] = False,
    replaces: Annotated[
        str | None,
        typer.Option(
            "--replaces", metavar="ID", help="FILE (one game) is a corrected record of game ID"
        ),
    ] = None,
    reason: Annotated[
        str | None,
        typer.Option("--reason", metavar="TEXT", help="with --replaces: why (kept in the history)"),
    ] = None,
) -> None:
    """Store recorded games: valid ones, and invalid ones with their violations."""
    if replaces is not None:
        replace_command(paths, fmt, db, valid_only, as_json, replaces, reason)
    if reason is not None:
        say_error("--reason goes with --replaces")
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
                say_error(str(report))
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
    player: Annotated[
        str | None, typer.Option(metavar="NAME", help="games this swimmer or player played")
    ] = None,
    status: Annotated[
        Literal["valid", "invalid", "unfinished"] | None,
        typer.Option(case_sensitive=False, help="only games of this status"),
    ] = None,
    db: DbOption = None,
    as_json: Annotated[bool, json_option("one JSON object per game")] = False,
    everything: Annotated[
        bool, typer.Option("--all", help="superseded and retracted games too, marked")
    ] = False,
) -> None:
    """List the stored games (the latest live revision of each; --all: every one)."""
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
        say_error(f"{damage}; run getbit check")


def show_command(
    game: Annotated[str, typer.Argument(metavar="ID", help="a game id, or the start of one")],
    db: DbOption = None,
    as_json: Annotated[bool, json_option("as a JSON object")] = False,
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
            f"game {game_id} keeps no record text (it was stored before "
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
        list[str], typer.Argument(metavar="ID", help="game ids (or the start of them)")
    ],
    fmt: Annotated[
        Literal["gbn", "jsonl"],
        typer.Option("--format", case_sensitive=False, help="GBN, or a JSON Lines event log"),
    ] = "gbn",
    output: Annotated[Path | None, output_option()] = None,
    db: DbOption = None,
) -> None:
    """Write stored games back as canonical GBN or as a JSON Lines event log."""
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
                    say_error(str(exc))
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
        say_error(f"{output}: cannot write: {exc.strerror or exc}")
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
        say_error(f"skipped {n} damaged game{'s' * (n != 1)}: they are not in the read models")
        raise typer.Exit(EXIT_UNREADABLE)


def check_command(
    db: DbOption = None,
    as_json: Annotated[bool, json_option("the findings as one JSON object")] = False,
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
        say_error(str(exc))
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
    game: Annotated[str, typer.Argument(metavar="ID", help="the id of the game (or its start)")],
    reason: Annotated[
        str, typer.Option("--reason", metavar="TEXT", help="why it is taken back (kept)")
    ],
    db: DbOption = None,
    as_json: Annotated[bool, json_option("the fact appended, as JSON")] = False,
) -> None:
    """Take back a stored game entered by mistake (it stays stored, marked retracted).

    Statistics, ratings and 'getbit games' leave it out.
    """
    try:
        with GameStore(db if db is not None else default_path(), create=False) as store:
            entry = store.retract(game, reason.strip() or None)
    except GetbitError as exc:
        say_error(str(exc))
        raise typer.Exit(EXIT_UNREADABLE) from None
    if as_json:
        write_json(entry.to_json())
    else:
        out.print(escape(f"retracted {entry.game} on {entry.at} ({entry.reason})"))
    raise typer.Exit(EXIT_OK)


def register(app: typer.Typer) -> None:
    """Add the store's commands to the ``getbit`` app."""
    app.command("import")(import_command)
    app.command("games")(games_command)
    app.command("show")(show_command)
    app.command("export")(export_command)
    app.command("rebuild")(rebuild_command)
    app.command("check")(check_command)
    app.command("retract")(retract_command)
