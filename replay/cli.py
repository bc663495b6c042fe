"""``getbit replay``: a thin shell that finds one game (in a file or the store),
validates it, and hands its events to the ``replay`` library to print, step
through or write as an HTML page.

Exit codes as for every command: 0 shown, 1 shown but the record breaks the
rules (each violation is shown at its round), 2 the game cannot be found or read.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import Annotated

import attrs
import typer
from rich.markup import escape

from console import EXIT_INVALID, EXIT_OK, EXIT_UNREADABLE, SafeConsole
from getbit_events.errors import GetbitError, InputError
from getbit_events.events import Event, SourcePos
from getbit_events.record import RecordedGame, Violation
from getbit_events.validate import validate_game

__all__ = ["register"]

DB_SUFFIXES = (".db", ".sqlite", ".sqlite3")


@attrs.frozen
class _Found:
    """The game to replay: its events, what the validator said, and a title."""

    events: tuple[Event, ...]
    title: str
    violations: tuple[Violation, ...] = ()
    warnings: tuple[Violation, ...] = ()


def _pick(
    path: Path, games: list[RecordedGame], number: int | None, game_id: str | None
) -> RecordedGame:
    if not games:
        raise InputError(f"{path}: holds no game")
    if game_id is not None:
        for game in games:
            ids = {getattr(game, "id", None)}  # a JSON Lines log names its games
            ids.update(t.value for t in game.tags if t.name.casefold() in ("id", "gameid"))
            if game_id in ids:
                return game
        raise InputError(f"{path}: no game has the id {game_id!r} (an Id tag)")
    n = number or 1
    if not 1 <= n <= len(games):
        held = f"{len(games)} game{'s' if len(games) != 1 else ''}"
        raise InputError(f"{path}: holds {held}; there is no game {n}")
    return games[n - 1]


def _from_store(db: Path, ref: str) -> _Found:
    """A stored game (``ref``: its id or the start of it) with the violations kept with it."""
    if not db.is_file():  # a look-up never creates a store
        raise InputError(f"{ref}: no such file, and no game store at {db} (see --db)")
    from store import GameStore

    with GameStore(db, create=False) as store:
        stored = store.game(ref)
        events = tuple(store.events(stored.id))
        where = stored.source or str(db)
        violations = tuple(
            Violation(v.code, v.message, SourcePos(where, v.line, v.column), v.round, v.rule)
            for v in store.violations(stored.id)
        )
    return _Found(events, f"stored game {stored.id} ({db.name})", violations)


def find_game(
    source: str,
    number: int | None,
    game_id: str | None,
    db: Path,
    encoding: str | None = "utf-8",
    say: Callable[[str], None] | None = None,
) -> _Found:
    """The game SOURCE names: a record file, a store file with ``--id``, or a stored id
    (a file is read in ``encoding``; None: detected, and ``say`` told which)."""
    path = Path(source)
    if path.is_dir():
        raise InputError(f"{source}: a folder; give one record file, or a stored game's id")
    if path.is_file() and path.suffix.lower() in DB_SUFFIXES:
        if game_id is None:
            raise InputError(f"{path}: a game store; say which game with --id")
        return _from_store(path, game_id)
    if not path.is_file():
        if path.suffix or os.sep in source:
            raise InputError(f"{source}: no such file")
        return _from_store(db, source)
    from importers import read_file

    game = _pick(path, read_file(path, encoding=encoding, say=say), number, game_id)
    report = validate_game(game)
    title = f"{path.name} game {game.index}"
    return _Found(report.events, title, report.violations, report.warnings)


def replay_command(
    source: Annotated[
        str,
        typer.Argument(
            metavar="SOURCE", help="a record file (GBN, JSONL, CSV) or the id of a stored game"
        ),
    ],
    game: Annotated[
        int | None, typer.Option("--game", help="which game of the file, from 1", min=1)
    ] = None,
    game_id: Annotated[
        str | None, typer.Option("--id", help="the game with this id (Id tag, or in a store)")
    ] = None,
    rnd: Annotated[
        int | None, typer.Option("--round", help="print only this round (or start --step there)")
    ] = None,
    seat: Annotated[
        str | None,
        typer.Option("--as", help="as one swimmer, player or the Shark saw it ('table': public)"),
    ] = None,
    step: Annotated[bool, typer.Option("--step", help="step through it with the keyboard")] = False,
    html: Annotated[
        Path | None, typer.Option("--html", help="write one self-contained HTML page here")
    ] = None,
    db: Annotated[
        Path, typer.Option("--db", envvar="GETBIT_DB", help="the game store for stored ids")
    ] = Path("getbit.db"),
    encoding: Annotated[
        str | None,
        typer.Option(help="the file's text encoding (default: UTF-8, else detected and said)"),
    ] = None,
) -> None:
    """Replay one game round by round: cards, ties, swims, bites, the line after each round."""
    from replay.cursor import Cursor
    from replay.html import write_html
    from replay.interactive import run
    from replay.terminal import print_game
    from replay.view import EVERYTHING, Viewer

    out = SafeConsole(highlight=False, soft_wrap=True)
    err = SafeConsole(stderr=True, highlight=False, soft_wrap=True)
    if game is not None and game_id is not None:
        err.print("getbit replay: give --game or --id, not both")
        raise typer.Exit(EXIT_UNREADABLE)
    try:
        found = find_game(
            source, game, game_id, db, encoding, lambda note: err.print(f"warning: {escape(note)}")
        )
        if not found.events:  # a syntax error or a broken set-up: nothing to fold
            err.print(f"{escape(found.title)} cannot be replayed:")
            for v in found.violations:
                err.print(f"  {escape(str(v))}")
            raise typer.Exit(EXIT_INVALID)
        cursor = Cursor(found.events, found.violations, found.warnings, found.title)
        viewer = EVERYTHING if seat is None else Viewer.named(cursor.setup, seat)
        if rnd is not None:
            cursor.goto_round(rnd)  # a clear error for a round the game lacks
        if html is not None:
            try:
                html.write_text(write_html(cursor, viewer, start=cursor.position), encoding="utf-8")
            except OSError as exc:
                raise InputError(f"{html}: cannot write: {exc.strerror}") from None
            err.print(f"wrote {escape(str(html))} ({len(cursor)} steps, {viewer.label})")
        if step:
            run(cursor, out, viewer, rnd)
        elif html is None:
            print_game(cursor, out, viewer, rnd)
    except GetbitError as exc:
        err.print(f"getbit replay: {escape(str(exc))}")
        raise typer.Exit(EXIT_UNREADABLE) from None
    raise typer.Exit(EXIT_INVALID if found.violations else EXIT_OK)


def register(app: typer.Typer) -> None:
    """Add ``getbit replay`` to the ``getbit`` command."""
    app.command("replay")(replay_command)
