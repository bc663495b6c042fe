"""``getbit import``: the import use case (``store.importing``) as a command, with
``--replaces`` for a corrected record of a stored game; what it says of each game as
its batch is stored, and the line it ends with. Exit codes as the store's other
commands (``store.cli``): 0 all good, 1 a game stored as invalid (``--valid-only``: one
refused), 2 an input or the store cannot be read, or a revision refused with nothing
written, 3 an internal error (a bug), 130 interrupted (the games stored before kept)."""

from __future__ import annotations

from contextlib import ExitStack
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.markup import escape

from biteme.validate import BiteReport
from console import (
    EXIT_INTERRUPTED,
    EXIT_INVALID,
    EXIT_OK,
    EXIT_UNREADABLE,
    flat,
    plural,
    say_error,
    say_warning,
    write_json,
)
from console.options import RecordFormat, encoding_option, format_option, jobs_option, json_option
from console.progress import Bar, file_sizes
from getbit_events.errors import GetbitError, InputError
from getbit_events.validate import GameReport
from importers import find_files, record_suffixes
from importers.reading import date_warnings
from importers.workers import too_many_jobs, workers_for
from store.cli import DbOption, check_encoding, err, fail, open_store, out
from store.importing import (
    GameFailure,
    ImportSummary,
    import_paths,
    import_revision,
    revision_hint,
)
from store.jobs import Checked

__all__ = ["register"]


def import_command(
    paths: Annotated[
        list[Path],
        typer.Argument(
            metavar="PATH", help="GBN, JSON Lines, CSV or BMN (Come on! Bite me!) files, or folders"
        ),
    ],
    fmt: Annotated[
        RecordFormat, format_option("the record format (auto: by file ending)")
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
    encoding: Annotated[str | None, encoding_option()] = None,
    jobs: Annotated[int | None, jobs_option()] = None,
) -> None:
    """Store recorded games: valid ones, and invalid ones with their violations.

    A folder gives its .gbn, .jsonl and .bmn files (its .csv too with --format csv);
    games of Get Bit! and of Come on! Bite me! go in the same store.
    """
    check_encoding(encoding)
    if replaces is not None:
        replace_command(paths, fmt, db, valid_only, as_json, replaces, reason, encoding)
    if (slower := too_many_jobs(jobs)) is not None:
        say_warning(slower)
    if reason is not None:
        say_error("--reason goes with --replaces")
        raise typer.Exit(EXIT_UNREADABLE)
    with ExitStack() as stack:
        try:
            store = stack.enter_context(open_store(db, create=True))
        except GetbitError as exc:
            raise fail(exc) from None
        try:
            sizes = file_sizes(find_files(paths, record_suffixes(fmt), missing_ok=True))
        except GetbitError as exc:
            raise fail(exc) from None
        bar = stack.enter_context(
            Bar(err, "importing", sum(sizes.values()), not as_json, in_bytes=True)
        )

        def report_game(
            report: GameReport | BiteReport | Checked | InputError | GameFailure, result: Any
        ) -> None:  # the writer's, in input order, whatever --jobs
            if isinstance(report, Checked):
                bar.advance(report.size)
            elif isinstance(report, GameReport | BiteReport):
                bar.advance(len(report.record.text or b""))
            _tell_game(report, result, store.path)

        try:
            summary = import_paths(
                store,
                paths,
                fmt,
                valid_only,
                report_game,
                encoding=encoding,
                say=say_warning,
                jobs=workers_for(jobs, sum(sizes.values())),
            )
        except GetbitError as exc:
            raise fail(exc) from None
        except KeyboardInterrupt:  # said once the bar is gone
            summary = None
    if summary is None:
        say_error(
            "interrupted: the games stored before are kept, each whole; the same import "
            "again stores the rest (it finds those stored already)"
        )
        raise typer.Exit(EXIT_INTERRUPTED)
    if as_json:
        write_json(summary.to_json())
    else:
        out.print(_summary_line(summary, valid_only))
    raise typer.Exit(summary.exit_code)


def _tell_game(
    report: GameReport | BiteReport | Checked | InputError | GameFailure, result: Any, db: Path
) -> None:
    """What import says on stderr of one game once its batch is stored (in the store at
    ``db``): a file it could not read, a game left out, warnings, violations, a likely
    revision."""
    if isinstance(report, InputError | GameFailure):
        say_error(str(report))
        return
    head = f"{flat(report.source)} game {report.game} (line {report.record.pos.line})"
    dates = report.dates if isinstance(report, Checked) else date_warnings(report.record)
    for warning in dates:
        say_warning(warning)
    if not report.readable:
        err.print(f"{escape(head)}: [red]unreadable[/red], not stored")
    elif not report.valid:
        n = len(report.violations)
        what = ("refused" if result is None else
                f"{'stored' if result.stored else 'already stored'} as invalid ({result.game_id})")
        err.print(f"{escape(head)}: {plural(n, 'violation')}, {what}")
    if result is not None and result.revision_of:
        hint = revision_hint(report, result, db)
        err.print(
            f"{escape(head)}: looks like a revision of {', '.join(result.revision_of)}; "
            f"to replace it: {escape(flat(hint['command']))}"
        )
    if report.readable and report.valid:
        return
    for v in report.violations:
        err.print(f"  {escape(flat(str(v)))}")


def _summary_line(summary: ImportSummary, valid_only: bool) -> str:
    """The one line import ends with (plain text)."""
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
    return ", ".join(parts)


def replace_command(
    paths: list[Path],
    fmt: str,
    db: Path | None,
    valid_only: bool,
    as_json: bool,
    target: str,
    reason: str | None,
    encoding: str | None = None,
) -> None:
    """``getbit import FILE --replaces ID``: exits 0 (1 when the corrected record
    still breaks the rules), 2 with nothing written when it is refused."""
    try:
        # the store must hold the game it replaces: none is made for it
        with open_store(db) as store:
            done = import_revision(
                store, paths, target, reason, fmt, valid_only, encoding=encoding, say=say_warning
            )
    except GetbitError as exc:
        say_error(str(exc))
        raise typer.Exit(EXIT_UNREADABLE) from None
    for v in done.report.violations:
        err.print(f"  {escape(flat(str(v)))}")
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
        out.print(escape(flat(f"game {added.game_id} {what}; {said}")))
    raise typer.Exit(EXIT_INVALID if done.added.status == "invalid" else EXIT_OK)


def register(app: typer.Typer) -> None:
    """Add ``getbit import`` to the ``getbit`` app."""
    app.command("import")(import_command)
