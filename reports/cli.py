"""``getbit stats`` and ``getbit report``: thin shells over the ``reports`` library.

``stats`` reads the store's read model (``--db``, default ``$GETBIT_DB`` or
``getbit.db``), or, given record files, validates them and builds the same
rows on the spot. ``report`` summarises one game of a file or of the store.

Exit codes as for every command: 0 shown; 1 (``report``) the game breaks the
rules; 2 an input cannot be read, a game cannot be found, or an option is misused.
"""

from __future__ import annotations

import io
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.console import Console
from rich.markup import escape

from console import EXIT_INVALID, EXIT_OK, EXIT_UNREADABLE, SafeConsole, utf8, write_json
from getbit_events.errors import GetbitError, InputError
from getbit_events.events import Event
from getbit_events.rules import VARIANTS
from getbit_events.validate import GameReport, validate_game

if TYPE_CHECKING:
    from reports.selection import Aliases, Filters
    from reports.stats import StatsReport

__all__ = ["register"]

DB_SUFFIXES = (".db", ".sqlite", ".sqlite3")
_DB_HELP = "the store file (default: $GETBIT_DB, else ./getbit.db)"


def _consoles() -> tuple[Console, Console]:
    """Consoles for stdout and stderr that never crash on a name the terminal
    cannot encode (an ASCII pipe, say): such characters come out as ``?``."""
    for stream in (sys.stdout, sys.stderr):
        if isinstance(stream, io.TextIOWrapper) and not utf8(stream):
            stream.reconfigure(errors="replace")
    return (
        SafeConsole(highlight=False, soft_wrap=True),
        SafeConsole(stderr=True, highlight=False, soft_wrap=True),
    )


def _store_path(db: Path | None) -> Path:
    from store import default_path

    path = db if db is not None else default_path()
    if not path.is_file():
        raise InputError(f"no game store at {path}: import games first, or give FILES or --db")
    return path


class _Loaded:
    """Rows for a report (``reports.columns.ROW`` tuples), with the events of file
    games kept for ``--html``."""

    def __init__(self) -> None:
        self.rows: list[tuple[Any, ...]] = []
        self.unreadable: list[str] = []
        self.problems: list[str] = []
        self.events: dict[str, Sequence[Event]] = {}
        self.db: Path | None = None


def _from_files(
    paths: Sequence[Path], encoding: str | None, err: Console, quiet: bool
) -> _Loaded:
    """The games of the files, checked, with a bar on a terminal (not when ``quiet``)."""
    from console.progress import Bar, file_sizes
    from importers import find_files, iter_file
    from importers.reading import codec
    from reports.columns import as_tuples
    from reports.sources import game_id_of, rows_from_reports

    def say(note: str) -> None:
        err.print(f"[yellow]warning[/yellow]: {escape(note)}")

    if encoding is not None:
        codec(encoding)  # a misspelt --encoding is said once, not once a file
    loaded = _Loaded()
    reports: list[GameReport] = []
    sizes = file_sizes(find_files(paths))
    with Bar(err, "reading", sum(sizes.values()), not quiet, in_bytes=True) as bar:
        for path, size in sizes.items():
            bar.next_file(size)
            try:
                for game in iter_file(path, encoding=encoding, say=say):
                    reports.append(validate_game(game))
                    bar.advance(len(game.text or b""))
            except InputError as exc:  # one unreadable file does not stop the others
                loaded.problems.append(str(exc))
    loaded.rows = list(as_tuples(rows_from_reports(reports, loaded.unreadable)))
    loaded.events = {game_id_of(r): r.events for r in reports if r.events}
    return loaded


def _store_report(
    db: Path | None, filters: Filters, aliases: Aliases, history: bool
) -> tuple[_Loaded, StatsReport]:
    from reports.totals import store_report
    from store import GameStore

    loaded = _Loaded()
    loaded.db = _store_path(db)
    with GameStore(loaded.db, create=False) as store:
        return loaded, store_report(store, filters, aliases, history)


def _write(path: Path, text: str) -> None:
    if str(path) == "-":
        sys.stdout.write(text)
        return
    try:
        path.write_text(text, encoding="utf-8")
    except OSError as exc:
        raise InputError(f"{path}: cannot write: {exc.strerror or exc}") from None


def _game_events(loaded: _Loaded, game: str) -> tuple[str, Sequence[Event]]:
    if loaded.db is None:
        if game in loaded.events:
            return game, loaded.events[game]
        matches = [gid for gid in loaded.events if gid.endswith(game)]
        if len(matches) != 1:
            raise InputError(f"--game {game}: no single game of the files is called that")
        return matches[0], loaded.events[matches[0]]
    from store import GameStore

    with GameStore(loaded.db, create=False) as store:
        found = store.game(game)
        return found.id, store.events(found.id)


def stats_command(
    paths: Annotated[
        list[Path] | None,
        typer.Argument(help="record files or folders; without them, the game store"),
    ] = None,
    db: Annotated[
        Path | None,
        typer.Option("--db", envvar="GETBIT_DB", help=_DB_HELP),
    ] = None,
    player: Annotated[
        list[str] | None,
        typer.Option("--player", help="only games with this player (repeatable); one: profile"),
    ] = None,
    alias: Annotated[
        list[str] | None,
        typer.Option("--alias", help="A=B: count the name A as the player B (repeatable)"),
    ] = None,
    variant: Annotated[str | None, typer.Option(help=f"one of {', '.join(VARIANTS)}")] = None,
    swimmers: Annotated[
        int | None, typer.Option(help="only games with this many swimmers", min=1)
    ] = None,
    since: Annotated[str | None, typer.Option(help="only games dated on or after (Date tag)")] = (
        None
    ),
    until: Annotated[str | None, typer.Option(help="only games dated on or before")] = None,
    tag: Annotated[
        list[str] | None, typer.Option("--tag", help="KEY=VALUE: only games with this tag")
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="one JSON object, for programs")] = False,
    csv_path: Annotated[
        Path | None, typer.Option("--csv", help="write one CSV row per player here ('-': stdout)")
    ] = None,
    html_path: Annotated[
        Path | None, typer.Option("--html", help="write a self-contained HTML report here")
    ] = None,
    game: Annotated[
        str | None, typer.Option("--game", help="--html: the game to chart position by round")
    ] = None,
    encoding: Annotated[
        str | None,
        typer.Option(help="FILES' text encoding (default: UTF-8, else detected and said)"),
    ] = None,
) -> None:
    """Statistics per player over stored games (or FILES): results, bites, cards, the Shark."""
    from reports.game import summarise_game
    from reports.html import html_report
    from reports.render import profile_renderable, report_json, table_renderable, write_csv
    from reports.selection import Aliases, Filters
    from reports.stats import report_from_tuples

    out, err = _consoles()
    try:
        if sum((as_json, csv_path is not None, html_path is not None)) > 1:
            raise InputError("give one of --json, --csv and --html")
        if encoding is not None and not paths:
            raise InputError("--encoding goes with FILES (a store keeps text, not bytes)")
        if variant is not None and variant.casefold() not in VARIANTS:
            raise InputError(f"--variant must be one of {', '.join(VARIANTS)}, not {variant!r}")
        filters = Filters.make(player or (), variant, swimmers, since, until, tag or ())
        aliases = Aliases.make(alias or ())
        if paths:
            loaded = _from_files(paths, encoding, err, as_json)
            report = report_from_tuples(
                loaded.rows, filters, aliases, history=html_path is not None,
                unreadable=len(loaded.unreadable),
            )
        else:
            loaded, report = _store_report(db, filters, aliases, html_path is not None)
        for problem in loaded.problems:
            err.print(escape(problem))
        if as_json:
            write_json(report_json(report), indent=2)
        elif csv_path is not None:
            _write(csv_path, write_csv(report))
            if str(csv_path) != "-":
                err.print(f"wrote {escape(str(csv_path))} ({len(report.players)} players)")
        elif html_path is not None:
            chosen = game or report.latest_game
            summary = None
            if chosen is not None:
                game_id, events = _game_events(loaded, chosen)
                summary = summarise_game(game_id, events) if events else None
            _write(html_path, html_report(report, summary))
            err.print(f"wrote {escape(str(html_path))} ({report.games_included} games)")
        elif len(filters.players) == 1:
            profile = report.player(filters.players[0])
            if profile is None:
                out.print(f"{escape(filters.players[0])}: no games among those selected")
            else:
                out.print(profile_renderable(report, profile))
        else:
            out.print(table_renderable(report))
    except GetbitError as exc:
        err.print(f"getbit stats: {escape(str(exc))}")
        raise typer.Exit(EXIT_UNREADABLE) from None
    raise typer.Exit(EXIT_UNREADABLE if loaded.problems else EXIT_OK)


def report_command(
    game: Annotated[str, typer.Argument(help="a record file, or the id of a stored game")],
    number: Annotated[
        int | None, typer.Option("--game", help="which game of the file, from 1", min=1)
    ] = None,
    db: Annotated[
        Path | None,
        typer.Option("--db", envvar="GETBIT_DB", help=_DB_HELP),
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="one JSON object, for programs")] = False,
    encoding: Annotated[
        str | None,
        typer.Option(help="a file's text encoding (default: UTF-8, else detected and said)"),
    ] = None,
) -> None:
    """One game's summary: ranking, bites by round, cards played per swimmer."""
    from reports.game import game_json, game_renderable, summarise_game

    out, err = _consoles()
    violations = 0
    try:
        path = Path(game)
        if path.is_file() and path.suffix.lower() not in DB_SUFFIXES:
            game_id, events, violations = _file_game(path, number, encoding, err)
        else:
            from store import GameStore

            with GameStore(_store_path(path if path.is_file() else db), create=False) as store:
                if path.is_file():
                    raise InputError(f"{path}: a game store; give a stored game's id and --db")
                found = store.game(game)
                game_id, events = found.id, store.events(found.id)
                violations = found.violations
        if not events:
            raise InputError(f"game {game_id}: its set-up breaks the rules, nothing to report")
        summary = summarise_game(game_id, events)
    except GetbitError as exc:
        err.print(f"getbit report: {escape(str(exc))}")
        raise typer.Exit(EXIT_UNREADABLE) from None
    if as_json:
        write_json(game_json(summary) | {"violations": violations}, indent=2)
    else:
        out.print(game_renderable(summary))
        if violations:
            err.print(
                f"{violations} rule violation{'s' if violations != 1 else ''}: "
                "see 'getbit validate'"
            )
    raise typer.Exit(EXIT_INVALID if violations else EXIT_OK)


def _file_game(
    path: Path, number: int | None, encoding: str | None, err: Console
) -> tuple[str, Sequence[Event], int]:
    from importers import read_file
    from reports.sources import game_id_of

    def say(note: str) -> None:
        err.print(f"[yellow]warning[/yellow]: {escape(note)}")

    games = read_file(path, encoding=encoding, say=say)
    n = number or 1
    if not 1 <= n <= len(games):
        raise InputError(f"{path}: holds {len(games)} games; there is no game {n}")
    report = validate_game(games[n - 1])
    if not report.events:  # a syntax error or a broken set-up: there is no game to show
        first = report.violations[0] if report.violations else f"{path}: game {n}"
        raise InputError(f"{first} (nothing to report: see 'getbit validate')")
    return game_id_of(report), report.events, len(report.violations)


def register(app: typer.Typer) -> None:
    """Add ``getbit stats`` and ``getbit report`` to the ``getbit`` command."""
    app.command("stats")(stats_command)
    app.command("report")(report_command)
