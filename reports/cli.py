"""``getbit stats`` and ``getbit report``: thin shells over the ``reports`` library.

``stats`` reads the store's read model (``--db``, default ``$GETBIT_DB`` or
``getbit.db``), or, given record files, validates them and builds the same
rows on the spot. ``report`` summarises one game of a file or of the store.

Exit codes as for every command: 0 shown; 1 (``report``) the game breaks the
rules; 2 an input cannot be read, a game cannot be found, or an option is misused.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, Literal

import attrs
import typer
from rich.markup import escape

from console import (
    ERR,
    EXIT_INVALID,
    EXIT_OK,
    EXIT_UNREADABLE,
    OUT,
    plural,
    refuse_overwrite,
    say_error,
    say_warning,
    write_json,
    write_output,
)
from console.options import (
    ONE_RECORD_FORMAT_HELP,
    RecordFormat,
    Variant,
    db_option,
    encoding_option,
    format_option,
    game_option,
    id_option,
    json_option,
    since_option,
    until_option,
)
from getbit_events.errors import GetbitError, InputError
from getbit_events.events import Event
from getbit_events.validate import GameReport, validate_game

if TYPE_CHECKING:
    from reports.bite_stats import BiteGame
    from reports.selection import Aliases, Filters
    from reports.stats import StatsReport

__all__ = ["register"]


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
        self.problems: list[str] = []  # files that cannot be read: errors (said)
        self.empty: list[str] = []  # files and folders given that hold no games (said)
        self.events: dict[str, Sequence[Event]] = {}
        self.db: Path | None = None


def _from_files(paths: Sequence[Path], encoding: str | None, quiet: bool) -> _Loaded:
    """The games of the files, checked, with a bar on a terminal (not when ``quiet``)."""
    from console.progress import Bar, file_sizes
    from importers import FOLDER_SUFFIXES, find_files, iter_file
    from importers.bite_jsonl import is_bite
    from reports.columns import as_tuples
    from reports.sources import game_id_of, rows_from_reports

    loaded = _Loaded()
    reports: list[GameReport] = []
    given = [(p, list(find_files([p], FOLDER_SUFFIXES, missing_ok=True))) for p in paths]
    sizes = file_sizes(f for _, files in given for f in files)
    with Bar(ERR, "reading", sum(sizes.values()), not quiet, in_bytes=True) as bar:

        def read(file: Path) -> int:
            before = len(reports)
            for game in iter_file(file, encoding=encoding, say=say_warning):
                reports.append(validate_game(game))
                bar.advance(len(game.text or b""))
            return len(reports) - before

        _each_file(
            given, FOLDER_SUFFIXES, encoding, lambda f: not is_bite(f),
            "no game of Get Bit! in it (--rules bite-me counts its games)",
            read, _said(say_error, loaded.problems), _said(say_warning, loaded.empty),
            lambda file: bar.next_file(sizes.get(file, 0)),
        )
    loaded.rows = list(as_tuples(rows_from_reports(reports, loaded.unreadable)))
    loaded.events = {game_id_of(r): r.events for r in reports if r.events}
    return loaded


def _said(say: Callable[[str], None], kept: list[str]) -> Callable[[str], None]:
    """Say a line at once (in the order of the paths given, as validate does) and keep it."""

    def said(text: str) -> None:
        say(text)
        kept.append(text)

    return said


def _each_file(
    given: Sequence[tuple[Path, Sequence[Path]]],
    suffixes: tuple[str, ...],
    encoding: str | None,
    ours: Callable[[Path], bool],
    theirs: str,
    read: Callable[[Path], int],
    problem: Callable[[str], None],
    empty: Callable[[str], None],
    begin: Callable[[Path], None] | None = None,
) -> None:
    """``read`` each record file of the paths ``given`` (each with the files it gives,
    ``importers.find_files``: a folder, its files of ``suffixes``) that holds the
    game counted (``ours``), as ``validate`` goes through them: a path
    that is not there and a file that cannot be read (``read`` raises InputError) are
    a ``problem`` each, and the other files are still read; a file named that holds
    the other game is said not counted (``theirs``), one in a folder passed over; a
    path given that gives neither games (``read`` says how many) nor problems is
    ``empty`` (a warning, and exit 2, as validate says it). ``begin(file)`` is called
    as each file is reached, read or not (a bar's next file)."""
    from importers import no_games
    from importers.reading import codec, present

    if encoding is not None:
        codec(encoding)  # a misspelt --encoding is said once, not once a file
    for path, files in given:
        found = problems = 0
        told = False  # a file named that holds the other game: said already
        for file in files:
            if begin is not None:
                begin(file)
            if not present(file):  # said, and the other paths are still counted
                problem(f"{file}: no such file or folder")
                problems += 1
            elif not ours(file):  # named: said, not counted; in a folder: passed over
                if file == path:
                    say_warning(f"{file}: {theirs}")
                    told = True
            else:
                try:
                    found += read(file)
                except InputError as exc:  # one unreadable file does not stop the others
                    problem(str(exc))
                    problems += 1
        if not (found or problems or told):
            empty(no_games(path, suffixes, path.is_dir() and not files))


def _store_report(
    db: Path | None, filters: Filters, aliases: Aliases, history: bool
) -> tuple[_Loaded, StatsReport]:
    from reports.totals import store_report
    from store import GameStore

    loaded = _Loaded()
    loaded.db = _store_path(db)
    with GameStore(loaded.db, create=False) as store:
        return loaded, store_report(store, filters, aliases, history)



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
        typer.Argument(
            metavar="PATH", help="record files or folders; without them, the game store"
        ),
    ] = None,
    db: Annotated[Path | None, db_option()] = None,
    player: Annotated[
        list[str] | None,
        typer.Option(
            "--player", metavar="NAME",
            help="only games with this player (repeatable); one: profile",
        ),
    ] = None,
    alias: Annotated[
        list[str] | None,
        typer.Option(
            "--alias", metavar="A=B", help="count the name A as the player B (repeatable)"
        ),
    ] = None,
    variant: Annotated[
        Variant | None, typer.Option(case_sensitive=False, help="only games of this variant")
    ] = None,
    swimmers: Annotated[
        int | None, typer.Option(metavar="N", help="only games with this many swimmers", min=1)
    ] = None,
    since: Annotated[
        str | None, since_option("only games dated on or after (Date tag)")
    ] = None,
    until: Annotated[str | None, until_option()] = None,
    tag: Annotated[
        list[str] | None,
        typer.Option("--tag", metavar="KEY=VALUE", help="only games with this tag (repeatable)"),
    ] = None,
    as_json: Annotated[bool, json_option("one JSON object, for programs")] = False,
    csv_path: Annotated[
        Path | None,
        typer.Option(
            "--csv", metavar="FILE", help="write one CSV row per player here ('-': stdout)"
        ),
    ] = None,
    html_path: Annotated[
        Path | None,
        typer.Option("--html", metavar="FILE", help="write a self-contained HTML report here"),
    ] = None,
    game_id: Annotated[
        str | None, id_option("with --html: the game to chart position by round (its id)")
    ] = None,
    old_game: Annotated[str | None, typer.Option("--game", hidden=True)] = None,
    encoding: Annotated[
        str | None, encoding_option("FILES' text encoding (default: UTF-8, else detected and said)")
    ] = None,
    rules: Annotated[
        Literal["get-bit", "bite-me"] | None,
        typer.Option(
            case_sensitive=False,
            help="which game: get-bit or bite-me "
            "(default: bite-me when every file is a record of that game)",
        ),
    ] = None,
) -> None:
    """Statistics per player over stored games (or FILES): results, bites, cards, the Shark."""
    from importers import find_files, record_suffixes
    from reports.selection import Aliases, Filters
    from store import default_path

    try:
        written = csv_path or html_path  # (one at most: _stats_options)
        if written is not None:  # not over the records it reads (a folder's too), the store
            reads = (
                list(find_files(paths, record_suffixes("auto"), missing_ok=True))
                if paths
                else [db if db is not None else default_path()]
            )
            refuse_overwrite(written, reads)
        if _which_game(paths or [], rules, db) == "bite-me":
            # Get Bit!'s only: its variants, swimmers and the chart of one game's rounds
            only = {"--variant": variant, "--swimmers": swimmers, "--id": game_id,
                    "--game": old_game}
            refused = [k for k, v in only.items() if v is not None]
            if refused:
                raise InputError(
                    f"{', '.join(refused)}: Get Bit! only, not for Come on! Bite me! (it "
                    "takes --player, --alias, --since, --until, --tag, --json, --csv, --html)"
                )
            _stats_options(as_json, csv_path, html_path, None, None)
            bite_filters = Filters.make(player or (), None, None, since, until, tag or ())
            _bite_stats(
                paths or [], db, encoding, bite_filters, Aliases.make(alias or ()),
                _BiteOutput(as_json, csv_path, html_path),
            )
        _stats_options(as_json, csv_path, html_path, game_id, old_game)
        if encoding is not None and not paths:
            raise InputError("--encoding goes with FILES (a store keeps text, not bytes)")
        filters = Filters.make(player or (), variant, swimmers, since, until, tag or ())
        loaded, report = _stats_report(
            paths, db, filters, Aliases.make(alias or ()), html_path is not None, encoding,
            as_json,
        )
        if as_json:
            from reports.render import report_json

            write_json(report_json(report), indent=2)
        elif csv_path is not None:
            _stats_csv(report, csv_path)
        elif html_path is not None:
            _stats_html(report, loaded, html_path, game_id)
        else:
            _stats_table(report, filters)
        if not paths:
            _say_other_game(db)
    except GetbitError as exc:
        say_error(str(exc))
        raise typer.Exit(EXIT_UNREADABLE) from None
    raise typer.Exit(EXIT_UNREADABLE if loaded.problems or loaded.empty else EXIT_OK)


def _say_other_game(db: Path | None) -> None:
    """Say on stderr that the store's games of Come on! Bite me!, which Get Bit!'s
    statistics do not count, are there, and how to count them."""
    from store import GameStore, default_path
    from store.stored import BITE_ME

    with GameStore(db or default_path(), create=False) as store:
        others = store.count(game=BITE_ME)
    if others:
        ERR.print(
            f"not counted: {plural(others, 'game')} of Come on! Bite me! "
            "(getbit stats --rules bite-me counts them)"
        )


def _which_game(paths: Sequence[Path], rules: str | None, db: Path | None = None) -> str:
    """Which game ``stats`` counts: ``--rules``, else bite-me when FILES are given and
    every record file of them is BMN (docs/biteme.md), or, without FILES, when the
    store holds games of Come on! Bite me! only; else get-bit."""
    if rules is not None:
        return rules
    if not paths:
        from store import GameStore, default_path
        from store.listing import default_game

        try:
            with GameStore(db or default_path(), create=False) as store:
                return default_game(store)
        except GetbitError:  # no store: said as Get Bit!'s statistics say it
            return "get-bit"
    from importers import FOLDER_SUFFIXES, find_files
    from importers.bite_jsonl import is_bite
    from importers.bmn import SUFFIX

    files = list(find_files(paths, (*FOLDER_SUFFIXES, SUFFIX), missing_ok=True))
    bite = [f for f in files if f.is_file() and is_bite(f)]
    if bite and len(bite) < len(files):
        other = next(f for f in files if f not in bite)
        raise InputError(
            f"{bite[0]} is a record of Come on! Bite me!, {other} is not: "
            "count one game at a time (--rules get-bit or --rules bite-me)"
        )
    return "bite-me" if bite else "get-bit"


@attrs.frozen
class _BiteOutput:
    """How ``stats`` shows the statistics of Come on! Bite me!: a table, or one of
    ``--json``, ``--csv FILE``, ``--html FILE``."""

    as_json: bool = False
    csv_path: Path | None = None
    html_path: Path | None = None


def _bite_stats(
    paths: Sequence[Path], db: Path | None, encoding: str | None, filters: Filters,
    aliases: Aliases, output: _BiteOutput,
) -> None:
    """``getbit stats --rules bite-me``: the checked games of Come on! Bite me!
    from where they come (FILES: BMN records and logs of its events; without FILES,
    the store), counted and shown; exits as ``stats`` does."""
    if paths:
        games, problems = _bite_games_of_files(paths, encoding)
    elif encoding is not None:
        raise InputError("--encoding goes with FILES (a store keeps text, not bytes)")
    else:
        games, problems = _stored_bite_games(db), 0
    _show_bite_stats(games, filters, aliases, output)
    raise typer.Exit(EXIT_UNREADABLE if problems else EXIT_OK)


def _stored_bite_games(db: Path | None) -> list[BiteGame]:
    """The store's live games of Come on! Bite me!, as checked when stored (the
    filters are applied to them as to FILES' games, by ``_show_bite_stats``)."""
    from reports.bite_stats import BiteGame
    from store import GameStore, default_path
    from store.listing import GameFilter, list_games

    with GameStore(db or default_path(), create=False) as store:
        return [
            BiteGame(store.bite_events(game.id), game.status != "invalid")
            for game in list_games(store, GameFilter.make(game="bite-me")).games
        ]


def _bite_games_of_files(
    paths: Sequence[Path], encoding: str | None
) -> tuple[list[BiteGame], int]:
    """The games of Come on! Bite me! of FILES, checked (``_each_file``); and how many
    problems and paths of no games there were."""
    from biteme.validate import validate_bite
    from importers import FOLDER_SUFFIXES, find_files
    from importers.bite_jsonl import is_bite, iter_bite_file
    from importers.bmn import SUFFIX
    from reports.bite_stats import BiteGame

    games: list[BiteGame] = []
    said: list[str] = []  # problems and paths of no games, said as they are found

    def read(file: Path) -> int:
        before = len(games)
        for record in iter_bite_file(file, encoding, say_warning):
            checked = validate_bite(record)
            games.append(BiteGame(checked.events, checked.valid))
        return len(games) - before

    suffixes = (*FOLDER_SUFFIXES, SUFFIX)
    given = [(p, list(find_files([p], suffixes, missing_ok=True))) for p in paths]
    _each_file(
        given, suffixes, encoding, is_bite,
        "no game of Come on! Bite me! in it (--rules bite-me)", read,
        _said(say_error, said), _said(say_warning, said),
    )
    return games, len(said)


def _show_bite_stats(
    games: Sequence[BiteGame], filters: Filters, aliases: Aliases, output: _BiteOutput
) -> None:
    """Count the checked ``games`` of Come on! Bite me! (``reports.bite_stats``) and
    show them as ``output`` says, wherever the games came from."""
    from reports.bite_stats import bite_csv, bite_html, bite_report, bite_report_json, bite_table

    report = bite_report(games, filters=filters, aliases=aliases)
    if output.as_json:
        write_json(bite_report_json(report), indent=2)
    elif output.csv_path is not None:
        write_output(output.csv_path, bite_csv(report), plural(len(report.players), "player"))
    elif output.html_path is not None:
        write_output(output.html_path, bite_html(report), plural(report.games_included, "game"))
    else:
        OUT.print(bite_table(report))


def _stats_options(
    as_json: bool, csv_path: Path | None, html_path: Path | None,
    game_id: str | None, old_game: str | None,
) -> None:
    """The combinations of ``stats`` options that mean nothing: an ``InputError`` each."""
    if old_game is not None:  # --game N is the N-th game of a file everywhere else
        raise InputError(f"--game {old_game}: say --id {old_game} (the game's id) with --html")
    if sum((as_json, csv_path is not None, html_path is not None)) > 1:
        raise InputError("give one of --json, --csv and --html")
    if game_id is not None and html_path is None:
        raise InputError("--id goes with --html (the game its chart follows)")


def _stats_report(
    paths: list[Path] | None, db: Path | None, filters: Filters, aliases: Aliases,
    history: bool, encoding: str | None, quiet: bool,
) -> tuple[_Loaded, StatsReport]:
    """The report over the games of ``paths`` (read in ``encoding``, a bar unless
    ``quiet``), or of the store when there are none."""
    from reports.stats import report_from_tuples

    if not paths:
        return _store_report(db, filters, aliases, history)
    loaded = _from_files(paths, encoding, quiet)
    report = report_from_tuples(
        loaded.rows, filters, aliases, history=history, unreadable=len(loaded.unreadable)
    )
    return loaded, report


def _stats_csv(report: StatsReport, csv_path: Path) -> None:
    from reports.render import write_csv

    write_output(csv_path, write_csv(report), plural(len(report.players), "player"))


def _stats_html(report: StatsReport, loaded: _Loaded, html_path: Path, game: str | None) -> None:
    from reports.game import summarise_game
    from reports.html import html_report

    chosen = game or report.latest_game
    summary = None
    if chosen is not None:
        game_id, events = _game_events(loaded, chosen)
        summary = summarise_game(game_id, events) if events else None
    write_output(html_path, html_report(report, summary), plural(report.games_included, "game"))


def _stats_table(report: StatsReport, filters: Filters) -> None:
    """The table of every player, or one player's profile when one was asked for."""
    from reports.render import profile_renderable, table_renderable

    if len(filters.players) != 1:
        OUT.print(table_renderable(report))
        return
    profile = report.player(filters.players[0])
    if profile is None:
        OUT.print(f"{escape(filters.players[0])}: no games among those selected")
    else:
        OUT.print(profile_renderable(report, profile))


def report_command(
    source: Annotated[
        str,
        typer.Argument(
            metavar="SOURCE",
            help="a record file (- reads one piped in, with --format), a store file (with --id), "
            "or the id of a stored game",
        ),
    ],
    number: Annotated[int | None, game_option()] = None,
    game_id: Annotated[
        str | None, id_option("the game with this id (an Id tag, or a stored game's id)")
    ] = None,
    db: Annotated[Path | None, db_option()] = None,
    as_json: Annotated[bool, json_option("one JSON object, for programs")] = False,
    encoding: Annotated[
        str | None,
        encoding_option("a file's text encoding (default: UTF-8, else detected and said)"),
    ] = None,
    fmt: Annotated[RecordFormat, format_option(ONE_RECORD_FORMAT_HELP)] = "auto",
) -> None:
    """One game's summary: ranking, bites by round, cards played per swimmer."""
    from importers.reading import spool
    from reports.game import game_json, game_renderable, summarise_game

    try:
        spool(Path(source))  # a record piped in is read from a copy, as a file
        game_id, events, violations = _report_game(source, number, game_id, db, encoding, fmt)
        if not events:
            raise _Unplayable(f"game {game_id}: its set-up breaks the rules, nothing to report")
        summary = summarise_game(game_id, events)
    except _Unplayable as exc:  # a game that breaks the rules: exit 1, as replay says it
        say_error(str(exc))
        raise typer.Exit(EXIT_INVALID) from None
    except GetbitError as exc:
        say_error(str(exc))
        raise typer.Exit(EXIT_UNREADABLE) from None
    if as_json:
        write_json(game_json(summary) | {"violations": violations}, indent=2)
    else:
        OUT.print(game_renderable(summary))
        if violations:
            say_error(f"{plural(violations, 'rule violation')}: see 'getbit validate'")
    raise typer.Exit(EXIT_INVALID if violations else EXIT_OK)


class _Unplayable(InputError):
    """A game found that cannot be played through (a syntax error, a broken set-up)."""


def _report_game(
    source: str,
    number: int | None,
    game_id: str | None,
    db: Path | None,
    encoding: str | None,
    fmt: str = "auto",
) -> tuple[str, Sequence[Event], int]:
    """The game SOURCE (and ``--game``/``--id``) names: its id, events and violations
    (a file, or a pipe copied, is read as ``fmt`` in ``encoding``; None: UTF-8, else
    detected and said)."""
    from store import GameStore, default_path
    from store.stored import lookup_store, refuse_file_options, source_kind

    kind = source_kind(source)
    if kind == "file":
        return _file_game(Path(source), number, game_id, encoding, fmt)
    refuse_file_options(fmt, encoding, number)
    if kind == "store":
        if game_id is None:
            raise InputError(f"{source}: a game store; say which game with --id")
        store_path, ref = Path(source), game_id
    else:
        store_path = lookup_store(db if db is not None else default_path(), source)
        ref = source
    with GameStore(store_path, create=False) as store:
        found = store.game(ref)
        return found.id, store.events(found.id), found.violations


def _file_game(
    path: Path, number: int | None, game_id: str | None, encoding: str | None, fmt: str
) -> tuple[str, Sequence[Event], int]:
    from importers import read_file
    from importers.bite_jsonl import bite_kind
    from importers.picking import pick_game
    from reports.sources import game_id_of

    if (bite := bite_kind(path, fmt)) is not None:  # as validate, import and replay tell
        what = "(BMN)" if bite == "bmn" else "(a log of its events)"
        raise InputError(f"{path}: a record of Come on! Bite me! {what}: validate, import, "
                         "replay and stats read it; report does not yet")
    read = read_file(path, fmt, encoding=encoding, say=say_warning)
    game = pick_game(path, read, number, game_id)
    report = validate_game(game)
    if not report.events:  # a syntax error or a broken set-up: there is no game to show
        first = report.violations[0] if report.violations else f"{path}: game {game.index}"
        raise _Unplayable(f"{first} (nothing to report: see 'getbit validate')")
    return game_id_of(report), report.events, len(report.violations)


def register(app: typer.Typer) -> None:
    """Add ``getbit stats`` and ``getbit report`` to the ``getbit`` command."""
    app.command("stats")(stats_command)
    app.command("report")(report_command)
