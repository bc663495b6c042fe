"""The store's commands: ``getbit games``, ``show``, ``export``, ``rebuild``, ``check`` and
``retract`` (``import``, with ``--replaces``, is ``import_cli``'s), and what they share:
the store opened, a misspelt encoding said, a store or input that cannot be read.

Each is a thin shell over :class:`store.GameStore` and the import use case
(``store.importing``). Exit codes are ``validate``'s: 0 all good, 1 a game breaks
the rules (``check``: the store is damaged), 2 an input or the store cannot be
read, a damaged game could not be shown, an import or retraction is refused with
nothing written (or the command is misused), 3 an internal error (a bug).
Problems go to stderr; names and messages are printed escaped, never as markup.
"""

from __future__ import annotations

import sys
from collections.abc import Iterable
from pathlib import Path
from typing import Annotated, Any, Literal

import attrs
import typer
from rich.cells import cell_len
from rich.markup import escape
from rich.text import Text

from console import (
    ERR,
    EXIT_INVALID,
    EXIT_OK,
    EXIT_UNREADABLE,
    OUT,
    flat,
    plural,
    refuse_overwrite,
    say_error,
    say_warning,
    shown,
    write_json,
)
from console.options import (
    Rules,
    Status,
    Variant,
    db_option,
    format_option,
    jobs_option,
    json_option,
    limit_option,
    output_option,
    player_option,
    rules_option,
    since_option,
    status_option,
    until_option,
    variant_option,
)
from console.progress import Bar
from getbit_events.errors import GetbitError, InputError, StoreError
from importers.reading import codec
from importers.workers import too_many_jobs
from store import (
    Damage,
    GameStore,
    HistoryEntry,
    StoredGame,
    check_store,
    default_path,
)
from store.bite_cli import export_texts, show_bite, show_head
from store.check import SHARED
from store.listing import (
    HEADER,
    GameFilter,
    cells,
    chosen_games,
    default_game,
    exported_games,
    listed_games,
    tab_line,
)
from store.stored import BITE_ME, GAME_NAMES, GAMES, GET_BIT

__all__ = [
    "DbOption",
    "check_encoding",
    "err",
    "fail",
    "history_lines",
    "open_store",
    "out",
    "register",
]

out, err = OUT, ERR

DbOption = Annotated[Path | None, db_option()]


def open_store(db: Path | None, create: bool = False) -> GameStore:
    """The store at ``db`` (the default store when None)."""
    return GameStore(db if db is not None else default_path(), create=create)


def check_encoding(encoding: str | None) -> None:
    """A misspelt ``--encoding`` is said once, before any file is read (exit 2)."""
    if encoding is None:
        return
    try:
        codec(encoding)
    except InputError as exc:
        raise fail(exc) from None


def fail(exc: GetbitError) -> typer.Exit:
    """``exc`` said, and the exit of an input or store that cannot be read (2)."""
    say_error(str(exc))
    return typer.Exit(EXIT_UNREADABLE)


# The filters of `games`, which `export --all` shares (console.options).
_PlayerOption = Annotated[str | None, player_option()]
_StatusOption = Annotated[Status | None, status_option()]
_VariantOption = Annotated[Variant | None, variant_option()]
_SinceOption = Annotated[str | None, since_option()]
_UntilOption = Annotated[str | None, until_option()]
_LimitOption = Annotated[int | None, limit_option()]
_RulesOption = Annotated[Rules | None, rules_option()]


def games_command(
    player: _PlayerOption = None,
    status: _StatusOption = None,
    variant: _VariantOption = None,
    since: _SinceOption = None,
    until: _UntilOption = None,
    limit: _LimitOption = None,
    rules: _RulesOption = None,
    db: DbOption = None,
    as_json: Annotated[bool, json_option("one JSON object per game")] = False,
    everything: Annotated[
        bool, typer.Option("--all", help="superseded and retracted games too, marked")
    ] = False,
) -> None:
    """List the stored games (the latest live revision of each; --all: every one).

    On a terminal, a table; piped, one tab-separated line a game under a header line.
    """
    damaged: list[Damage] = []
    hidden: dict[str, int] = {}
    found = 0  # games listed (with --json: not said)
    try:
        chosen = GameFilter.make(player, status, variant, since, until, limit, rules)
        with open_store(db) as store:
            dropped = store.dropped()
            games = listed_games(store, chosen, dropped, hidden, everything, damaged.append)
            if as_json:  # a game at a time, as they are read: a large store is never held
                for game in games:
                    write_json(game.to_json() | {"history": dropped.get(game.id)})
            else:
                found = _print_rows(list(HEADER), (cells(game, dropped) for game in games))
    except GetbitError as exc:
        raise fail(exc) from None
    _say_damaged(damaged)
    code = EXIT_UNREADABLE if damaged else EXIT_OK
    if as_json:
        raise typer.Exit(code)
    said = plural(found, "game")
    if hidden:
        left = " and ".join(f"{n} {why}" for why, n in sorted(hidden.items(), reverse=True))
        said += f" ({left}{' listed' if everything else ' not listed: see --all'})"
    (out if out.is_terminal else err).print(said)
    raise typer.Exit(code)


def _print_rows(header: list[str], rows: Iterable[list[str]]) -> int:
    """Aligned columns on a terminal wide enough for every cell whole (a game a line,
    no name wrapped, no word cut; the table holds every row, for its widths);
    otherwise tab-separated lines under a header line, each written as it comes (in a
    pipe, a large store is never held). How many rows. Plain string work either way:
    10,000 games in a blink (a rich Table took 5 s)."""
    if out.is_terminal:
        rows = list(rows)
        cells = [[shown(c.replace("\n", " ")) for c in row] for row in rows]
        widths = [max(map(cell_len, column)) for column in zip(header, *cells, strict=True)]
        if sum(widths) + 2 * (len(widths) - 1) <= out.width:
            out.print(Text(_aligned(header, widths).rstrip(), style="bold"))
            out.print(Text(_aligned(["─" * w for w in widths], widths).rstrip(), style="dim"))
            out.file.flush()
            sys.stdout.writelines(_aligned(row, widths).rstrip() + "\n" for row in cells)
            sys.stdout.flush()
            return len(rows)
    count = 0
    sys.stdout.write(tab_line(header, shown))
    for row in rows:
        count += 1
        sys.stdout.write(tab_line(row, shown))
    sys.stdout.flush()
    return count


def _aligned(cells: list[str], widths: list[int]) -> str:
    """One line of cells, each padded to its column's width, two spaces apart."""
    return "  ".join(c + " " * (w - cell_len(c)) for c, w in zip(cells, widths, strict=True))


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
    if source and as_json:  # the record's bytes are not JSON: neither is chosen silently
        say_error("--source writes the record's text as imported, not JSON: give one of them")
        raise typer.Exit(EXIT_UNREADABLE)
    problem = None
    try:
        with open_store(db) as store:
            stored = store.game(game)
            if source:
                _show_source(stored.id, store.source(stored.id))
                return
            if stored.game == BITE_ME:  # Come on! Bite me!: its verdict and record
                said = history_lines(stored.id, store.history(stored.id))
                problem = show_bite(store, stored, as_json, said)
                if problem is not None:
                    raise fail(problem)
                return
            violations = store.violations(stored.id)
            history = store.history(stored.id)
            try:  # what the row says is shown only with a word on its events
                store.events(stored.id)
            except StoreError as exc:
                problem = exc
    except GetbitError as exc:
        raise fail(exc) from None
    if as_json:
        data = stored.to_json()
        data["violation_list"] = [v.to_json() for v in violations]
        data["history"] = [e.to_json() for e in history]
        write_json(data)
    else:
        _render(stored, violations)
        for line in history_lines(stored.id, history):
            out.print(f"  {escape(flat(line))}")
    if problem is not None:
        raise fail(problem)


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
    show_head(game)
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
        list[str] | None,
        typer.Argument(metavar="ID", help="game ids (or the start of them)", show_default=False),
    ] = None,
    fmt: Annotated[
        Literal["gbn", "bmn", "jsonl", "parquet"] | None,
        format_option(
            "GBN (BMN for Come on! Bite me!), a JSON Lines event log, or Parquet tables "
            "(a folder: -o DIR)  [default: gbn, or bmn]"
        ),
    ] = None,
    output: Annotated[Path | None, output_option()] = None,
    db: DbOption = None,
    every: Annotated[
        bool, typer.Option("--all", help="superseded and retracted games too, as 'games --all'")
    ] = False,
    player: _PlayerOption = None,
    status: _StatusOption = None,
    variant: _VariantOption = None,
    since: _SinceOption = None,
    until: _UntilOption = None,
    limit: _LimitOption = None,
    rules: _RulesOption = None,
) -> None:
    """Write stored games back as canonical GBN, a JSON Lines event log, or Parquet.

    Give game ids, or none: the games 'getbit games' lists with the same options
    (--all: superseded and retracted too). --format parquet writes a folder (-o DIR)
    of tables for DuckDB and Spark, the history of each game in its revision column.
    """
    filtered = any(v is not None for v in (player, status, variant, since, until, limit, rules))
    if games and (every or filtered):
        say_error("give game ids, or choose games as 'getbit games' does, not both")
        raise typer.Exit(EXIT_UNREADABLE)
    if output is not None and str(output) == "-":  # '-': standard output, as everywhere
        output = None
    if fmt == "parquet" and output is None:
        say_error("--format parquet writes a folder: give -o DIR")
        raise typer.Exit(EXIT_UNREADABLE)
    try:
        refuse_overwrite(output, [db if db is not None else default_path()])
        chosen = GameFilter.make(player, status, variant, since, until, limit, rules)
        with open_store(db) as store:
            damaged: list[Damage] = []
            refs = list(games) if games else None
            if refs is None and chosen.game is None:  # one game at a time: Get Bit!'s,
                # unless no other (Parquet's tables are Get Bit!'s: none of another game)
                game = GET_BIT if fmt == "parquet" else default_game(store)
                chosen = attrs.evolve(chosen, game=game)
                _say_other_game_left_out(store, game, fmt == "parquet")
            if fmt == "parquet":
                from store.parquet_cli import export_parquet  # pyarrow: only for this

                if refs is None and not (every and not filtered):
                    refs = [g.id for g in chosen_games(store, chosen, every, damaged.append)]
                _say_damaged(damaged)
                assert output is not None
                export_parquet(store, refs, output, EXIT_UNREADABLE if damaged else EXIT_OK)
            picked = chosen_games(store, chosen, every, damaged.append) if refs is None else refs
            exported, problems, broken = exported_games(store, picked, named=refs is not None)
            if broken:
                _note(
                    f"{plural(broken, 'game')} left out: a set-up that breaks the rules leaves "
                    "no events to write ('getbit show ID --source' gives its record as imported)"
                )
            _say_damaged(damaged)
            for problem in problems:
                say_error(str(problem))
            unread: list[GetbitError] = []
            _write(export_texts(store, exported, fmt, unread), output)
            for problem in unread:
                say_error(str(problem))
    except GetbitError as exc:
        raise fail(exc) from None
    raise typer.Exit(EXIT_UNREADABLE if problems or unread or damaged else EXIT_OK)


def _note(text: str) -> None:
    """A note on stderr: what a command left aside, and how to have it."""
    err.print(f"note: {escape(text)}")


def _say_other_game_left_out(store: GameStore, game: str, parquet: bool) -> None:
    """Say that an export without ``--rules`` leaves out the store's games of the other
    game (``games`` lists both; an export writes one game's records at a time, and
    Parquet's tables are Get Bit!'s)."""
    other = next(g for g in GAMES if g != game)
    count = store.count(game=other)
    if count:
        why = ("the Parquet tables hold Get Bit!'s games only" if parquet else
               f"an export writes one game's records (--rules {other} exports them)")
        _note(f"{plural(count, 'game')} of {GAME_NAMES[other]} left out: {why}")


def _write(texts: Iterable[str], output: Path | None) -> None:
    """Write ``texts`` as they come: to stdout, or to ``output``, which is replaced only
    once all of it is written (an export that fails leaves no half-written file)."""
    if output is None:
        for text in texts:
            sys.stdout.write(text)
        return
    part = output.with_name(f".{output.name}.part")
    try:
        with part.open("w", encoding="utf-8", newline="\n") as f:
            for text in texts:
                f.write(text)
        part.replace(output)
    except OSError as exc:
        say_error(f"{output}: cannot write: {exc.strerror or exc}")
        raise typer.Exit(EXIT_UNREADABLE) from None
    finally:
        part.unlink(missing_ok=True)


def rebuild_command(db: DbOption = None) -> None:
    """Recompute the read models (statistics tables) from the stored events."""
    try:
        with open_store(db) as store, Bar(err, "rebuilding", store.count(), True) as bar:
            result = store.rebuild(bar.advance)
    except GetbitError as exc:
        raise fail(exc) from None
    out.print(f"rebuilt {result.rows} rows from {result.events} events of {result.games} games")
    if result.skipped:
        _say_damaged(list(result.skipped))
        n = len(result.skipped)
        say_error(f"skipped {plural(n, 'damaged game')}: they are not in the read models")
        raise typer.Exit(EXIT_UNREADABLE)


def check_command(
    db: DbOption = None,
    as_json: Annotated[bool, json_option("the findings as one JSON object")] = False,
    jobs: Annotated[
        int | None,
        jobs_option("worker processes checking the games (default, and at most: the "
                    f"number of cores; 1 for a store of under {SHARED:,} games)"),
    ] = None,
) -> None:
    """Check that every stored game is as it was stored (exit 0 intact, 1 damaged).

    Each game's events against its hash, its row and its read-model rows, and the
    chain of games; exit 2 when the file is not a store.
    """
    if (slower := too_many_jobs(jobs)) is not None:
        say_warning(slower)
    path = db if db is not None else default_path()
    try:
        with GameStore(path, create=False, readonly=True) as store:
            total = store.count()
        with Bar(err, "checking", total, not as_json) as bar:
            result = check_store(path, jobs, bar.advance)
    except GetbitError as exc:
        raise fail(exc) from None
    if as_json:
        write_json(result.to_json())
    else:
        for damage in result.damage:
            out.print(escape(str(damage)))
        for note in result.notes:
            _note(note)
        games = f"{plural(result.games, 'game')}, {result.events} events"
        if result.ok:
            out.print(f"ok: {games}" + (", chain intact" if result.chained else ""))
        else:
            hit = {d.game for d in result.damage if d.game is not None}
            whole = any(d.game is None for d in result.damage)
            also = " and the store as a whole" if whole else ""
            out.print(f"damaged: {plural(len(hit), 'game')}{also} (of {games})")
    raise typer.Exit(EXIT_OK if result.ok else EXIT_INVALID)


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
    if not reason.strip():  # a retraction is kept for good: it says why
        say_error("--reason: say why the game is taken back (it is kept in its history)")
        raise typer.Exit(EXIT_UNREADABLE)
    try:
        with open_store(db) as store:
            entry = store.retract(game, reason.strip())
    except GetbitError as exc:
        say_error(str(exc))
        raise typer.Exit(EXIT_UNREADABLE) from None
    if as_json:
        write_json(entry.to_json())
    else:
        out.print(escape(flat(f"retracted {entry.game} on {entry.at} ({entry.reason})")))
    raise typer.Exit(EXIT_OK)


def register(app: typer.Typer) -> None:
    """Add the store's commands to the ``getbit`` app."""
    app.command("games")(games_command)
    app.command("show")(show_command)
    app.command("export")(export_command)
    app.command("rebuild")(rebuild_command)
    app.command("check")(check_command)
    app.command("retract")(retract_command)
