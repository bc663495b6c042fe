"""``getbit replay``: a thin shell that finds one game (in a file or the store),
validates it, and hands its events to the ``replay`` library to print, step
through or write as an HTML page.

Exit codes as for every command: 0 shown, 1 shown but the record breaks the
rules (each violation is shown at its round), 2 the game cannot be found or read.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any, NoReturn

import attrs
import typer
from rich.markup import escape

from biteme.events import BiteEvent
from console import (
    ERR,
    EXIT_INVALID,
    EXIT_OK,
    EXIT_UNREADABLE,
    OUT,
    flat,
    refuse_overwrite,
    say_error,
    say_warning,
    shown,
    write_output,
)
from console.options import (
    ONE_RECORD_FORMAT_HELP,
    RecordFormat,
    db_option,
    encoding_option,
    format_option,
    game_option,
    id_option,
)
from getbit_events.errors import GetbitError, InputError
from getbit_events.events import Event, SourcePos
from getbit_events.record import Violation
from getbit_events.validate import validate_game

__all__ = ["register"]

_ENCODING_HELP = "the file's text encoding (default: UTF-8, else detected and said)"


@attrs.frozen
class _Found:
    """The game to replay: its events, what the validator said, and a title."""

    events: tuple[Event, ...]
    title: str
    violations: tuple[Violation, ...] = ()
    warnings: tuple[Violation, ...] = ()


@attrs.frozen
class _BiteFound:
    """A game of "Come on! Bite me!" to replay: its events, what the validator said
    of it, and a title."""

    events: tuple[BiteEvent, ...]
    title: str
    violations: tuple[Violation, ...] = ()
    warnings: tuple[Violation, ...] = ()


def _from_store(db: Path, ref: str) -> _Found | _BiteFound:
    """A stored game (``ref``: its id or the start of it) with the violations kept
    with it; a game of "Come on! Bite me!" with the warnings of its record (B3)."""
    from biteme.findings import TurnViolation
    from store import GameStore
    from store.bite_cli import warnings_of
    from store.stored import BITE_ME, lookup_store

    lookup_store(db, ref)

    with GameStore(db, create=False) as store:
        stored = store.game(ref)
        title = f"stored game {stored.id} ({db.name})"
        where = stored.source or str(db)
        made = TurnViolation if stored.game == BITE_ME else Violation
        violations = tuple(
            made(v.code, v.message, SourcePos(where, v.line, v.column), v.round, v.rule)
            for v in store.violations(stored.id)
        )
        if stored.game == BITE_ME:
            bites = tuple(store.bite_events(stored.id))
            warned = tuple(
                Violation("unchecked", w, SourcePos(where, 0)) for w in warnings_of(bites)
            )
            return _BiteFound(bites, title, violations, warned)
        events = tuple(store.events(stored.id))
    return _Found(events, title, violations)


def find_game(
    source: str,
    number: int | None,
    game_id: str | None,
    db: Path,
    encoding: str | None = "utf-8",
    say: Callable[[str], None] | None = None,
    fmt: str = "auto",
) -> _Found | _BiteFound:
    """The game SOURCE names: a record file (or a pipe copied), a store file with
    ``--id``, or a stored id (a file is read as ``fmt``, in ``encoding``; None:
    detected, and ``say`` told which)."""
    from store.stored import refuse_file_options, source_kind

    kind = source_kind(source)
    path = Path(source)
    if kind != "file":
        refuse_file_options(fmt, encoding, number)
    if kind == "store":
        if game_id is None:
            raise InputError(f"{path}: a game store; say which game with --id")
        return _from_store(path, game_id)
    if kind == "id":
        return _from_store(db, source)
    from importers import read_file
    from importers.picking import pick_game

    game = pick_game(path, read_file(path, fmt, encoding=encoding, say=say), number, game_id)
    report = validate_game(game)
    title = f"{path.name} game {game.index}"
    return _Found(report.events, title, report.violations, report.warnings)


def replay_command(
    source: Annotated[
        str,
        typer.Argument(
            metavar="SOURCE",
            help="a record file (GBN, JSONL, CSV; BMN; - reads one piped in, with --format), "
            "or the id of a stored game",
        ),
    ],
    game: Annotated[int | None, game_option()] = None,
    game_id: Annotated[
        str | None, id_option("the game with this id (an Id tag, or a stored game's id)")
    ] = None,
    rnd: Annotated[
        int | None,
        typer.Option(
            "--round", metavar="R",
            help="print only this round (or start --step there); a turn of Come on! Bite me!",
        ),
    ] = None,
    seat: Annotated[
        str | None,
        typer.Option(
            "--as", metavar="NAME",
            help="as one swimmer, player or the Shark saw it ('table': public; B17)",
        ),
    ] = None,
    step: Annotated[bool, typer.Option("--step", help="step through it with the keyboard")] = False,
    html: Annotated[
        Path | None,
        typer.Option(
            "--html", metavar="FILE",
            help="write one self-contained HTML page here (-: standard output)",
        ),
    ] = None,
    db: Annotated[Path | None, db_option()] = None,
    encoding: Annotated[str | None, encoding_option(_ENCODING_HELP)] = None,
    fmt: Annotated[RecordFormat, format_option(ONE_RECORD_FORMAT_HELP)] = "auto",
) -> None:
    """Replay one game round by round: cards, ties, swims, bites, the line after each round."""
    from importers.reading import spool
    from replay.cursor import Cursor
    from replay.html import write_html
    from replay.interactive import run
    from replay.terminal import print_game
    from replay.view import EVERYTHING, Viewer
    from store import default_path

    out, err = OUT, ERR
    try:
        spool(Path(source))  # a record piped in is read from a copy, as a file
        refuse_overwrite(html, [Path(source), db if db is not None else default_path()])
    except InputError as exc:
        say_error(str(exc))
        raise typer.Exit(EXIT_UNREADABLE) from None
    if (bite := _bite_kind(source, fmt)) is not None:
        found_bite = _bite_file(Path(source), game, game_id, encoding, bite == "log")
        _replay_bite(found_bite, rnd, seat, step, html)
    try:
        found = find_game(
            source, game, game_id, db if db is not None else default_path(), encoding,
            say_warning, fmt,
        )
        if isinstance(found, _BiteFound):  # a stored game of Come on! Bite me!
            _replay_bite(found, rnd, seat, step, html)
        if not found.events:  # a syntax error or a broken set-up: nothing to fold
            say_error(f"{found.title} cannot be replayed:")
            for v in found.violations:
                err.print(f"  {escape(flat(str(v)))}")
            raise typer.Exit(EXIT_INVALID)
        cursor = Cursor(found.events, found.violations, found.warnings, found.title)
        viewer = EVERYTHING if seat is None else Viewer.named(cursor.setup, seat)
        if rnd is not None and rnd < 1:  # round 0 is the set-up, not a round to print
            raise InputError(
                f"there is no round {rnd}: this game runs from round 1 to {cursor.last_round}"
            )
        if rnd is not None:
            cursor.goto_round(rnd)  # a clear error for a round the game lacks
        if html is not None:
            page = write_html(cursor, viewer, start=cursor.position)
            write_output(html, page, f"{len(cursor)} steps, {viewer.label}")
        if step or html is None:  # on the terminal: every control character shown
            cursor = Cursor(
                _on_screen(cursor.events), _on_screen(found.violations),
                _on_screen(found.warnings), found.title,
            )
            if seat is not None:
                viewer = Viewer.named(cursor.setup, shown(seat))
        if step:
            run(cursor, out, viewer, rnd)
        elif html is None:
            print_game(cursor, out, viewer, rnd)
    except GetbitError as exc:
        say_error(str(exc))
        raise typer.Exit(EXIT_UNREADABLE) from None
    raise typer.Exit(EXIT_INVALID if found.violations else EXIT_OK)


def _on_screen(value: Any) -> Any:
    """``value`` (events, violations) with each text in it ``shown``: a control
    character in a name written as its escape. For the terminal, whose rich ``Text``
    pieces would drop a BEL, a backspace or a form feed, not show it (the HTML page
    escapes them its own way)."""
    if isinstance(value, str):
        return shown(value)
    if isinstance(value, tuple | list):
        return type(value)(map(_on_screen, value))
    if attrs.has(type(value)):
        fields = attrs.fields(type(value))
        changed = {f.alias: _on_screen(getattr(value, f.name)) for f in fields if f.init}
        return attrs.evolve(value, **changed)
    return value


def _bite_kind(source: str, fmt: str) -> str | None:
    """What SOURCE, a file (or a pipe copied) read as ``fmt``, holds of "Come on! Bite
    me!" (``importers.bite_jsonl.bite_kind``: BMN or a log, docs/biteme.md); None when
    it is not such a file."""
    from importers.bite_jsonl import bite_kind
    from importers.reading import spooled

    path = Path(source)
    return bite_kind(path, fmt) if path.is_file() or spooled(path) else None


def _bite_file(
    path: Path, number: int | None, game_id: str | None, encoding: str | None, log: bool
) -> _BiteFound:
    """The game of "Come on! Bite me!" ``--game``/``--id`` pick in a file read in
    ``encoding`` (None: UTF-8, else detected and said), checked; exits 2 when it
    cannot be read or picked."""
    from biteme.validate import validate_bite
    from importers.bite_jsonl import iter_bite_file
    from importers.picking import pick_game

    try:
        record = pick_game(
            path, list(iter_bite_file(path, encoding, say_warning, log)), number, game_id
        )
    except GetbitError as exc:
        say_error(str(exc))
        raise typer.Exit(EXIT_UNREADABLE) from None
    report = validate_bite(record)
    title = f"{path.name} game {record.index}"
    return _BiteFound(tuple(report.events), title, report.violations, report.warnings)


def _replay_bite(
    found: _BiteFound,
    turn: int | None,
    seat: str | None,
    step: bool,
    html: Path | None,
) -> NoReturn:
    """``getbit replay FILE.bmn`` (or a log of its events, or a stored game's id): a
    game of "Come on! Bite me!", turn by turn (``--round`` is its turn, as in
    ``validate --json``); exits as the command does."""
    from replay.bite import TABLE, BiteCursor, render_bite
    from replay.bite_html import write_bite_html
    from replay.bite_step import run_bite

    title = found.title
    try:
        if not found.events:  # a syntax error or a broken set-up: nothing to fold
            say_error(f"{title} cannot be replayed:")
            for v in found.violations:
                ERR.print(f"  {escape(flat(str(v)))}")
            raise typer.Exit(EXIT_INVALID)
        player = None if seat is None else TABLE if seat.casefold() == "table" else seat
        cursor = BiteCursor(found.events, found.violations, found.warnings, title, player)
        if turn is not None:
            cursor.turn_events(turn)  # a clear error for a turn the game lacks
        if html is not None:
            start = cursor.turns[turn][-1] if turn is not None else 0
            page = write_bite_html(cursor, start)
            write_output(html, page, f"{len(cursor.events)} steps, {cursor.label}")
        if step or html is None:  # on the terminal: every control character shown
            cursor = BiteCursor(
                _on_screen(cursor.events), _on_screen(found.violations),
                _on_screen(found.warnings), title,
                player if player in (None, TABLE) else shown(str(player)),
            )
        if step:
            run_bite(cursor, OUT, turn)
        elif html is None:
            for part in render_bite(cursor, turn):
                OUT.print(part)
    except GetbitError as exc:
        say_error(str(exc))
        raise typer.Exit(EXIT_UNREADABLE) from None
    raise typer.Exit(EXIT_INVALID if found.violations else EXIT_OK)


def register(app: typer.Typer) -> None:
    """Add ``getbit replay`` to the ``getbit`` command."""
    app.command("replay")(replay_command)
