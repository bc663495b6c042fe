"""The ``getbit`` command, put together: the typer app, the core's own commands
(``validate`` and ``simulate``: the importers and the core), the commands of
``store``, ``replay`` and ``reports`` (each defined next to its library, in its
``cli`` module), and ``main`` with its error -> exit code mapping. Nothing
imports this package.

Exit codes: 0 all good, 1 a game breaks the rules, 2 an input cannot be read
or the command is misused, 3 an internal error (a bug in getbit, never the
input's fault: one line on stderr says so; ``GETBIT_DEBUG=1`` shows the traceback).
"""

from __future__ import annotations

import os
import sys
import traceback
from collections.abc import Iterator
from pathlib import Path
from typing import Annotated

import typer
from rich.markup import escape

from console import (
    EXIT_BUG,
    EXIT_INVALID,
    EXIT_OK,
    EXIT_UNREADABLE,
    SafeConsole,
    bug_line,
    utf8,
    write_json,
)
from console.progress import Bar, file_sizes
from getbit_events.errors import GetbitError, InputError
from getbit_events.events import Event
from getbit_events.record import RecordedGame
from getbit_events.simulate import BOTS, simulate_games
from getbit_events.validate import GameReport, validate_game
from importers import find_files
from replay import cli as replay_cli
from reports import cli as reports_cli
from store import cli as store_cli

__all__ = ["app", "main"]

app = typer.Typer(
    name="getbit",
    help="Record, check, replay and study games of Get Bit!",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
out = SafeConsole(highlight=False, soft_wrap=True)
err = SafeConsole(stderr=True, highlight=False, soft_wrap=True)


def _games(
    path: Path, fmt: str, encoding: str | None, notes: list[str]
) -> Iterator[RecordedGame]:
    """The games of one file as it is read (memory bounded by one game); the encoding
    it was read in, when detected, is said on stderr and kept in ``notes``."""
    from importers import iter_file

    def say(note: str) -> None:
        err.print(f"[yellow]warning[/yellow]: {escape(note)}")
        notes.append(note)

    return iter_file(path, fmt, encoding=encoding, say=say)


def _render(report: GameReport) -> None:
    head = f"{report.source} game {report.game} (line {report.record.pos.line})"
    if report.valid:
        if report.finished:
            result = f"{report.winner} wins"
        else:
            n = len(report.record.rounds)
            result = f"unfinished after {n} round{'s' if n != 1 else ''}"
        out.print(f"{escape(head)}: [green]ok[/green] ({escape(result)})")
    else:
        n = len(report.violations)
        out.print(f"{escape(head)}: [red]{n} violation{'s' if n != 1 else ''}[/red]")
        for v in report.violations:
            out.print(f"  {escape(str(v))}")
    for w in report.warnings:
        out.print(f"  [yellow]warning[/yellow]: {escape(str(w))}")


@app.command()
def validate(
    paths: Annotated[
        list[Path], typer.Argument(help="record files (.gbn, .jsonl, .csv), or folders of them")
    ],
    as_json: Annotated[
        bool, typer.Option("--json", help="One JSON object per game, for programs")
    ] = False,
    fmt: Annotated[
        str,
        typer.Option(
            "--format",
            help="auto (by file ending; folders give .gbn and .jsonl), gbn, jsonl or csv",
        ),
    ] = "auto",
    encoding: Annotated[
        str | None,
        typer.Option(help="the files' text encoding (default: UTF-8, else detected and said)"),
    ] = None,
) -> None:
    """Check recorded games against the rules; report every violation.

    A path with no games in it is a warning and exit 2.
    """
    from importers import FORMATS
    from importers.reading import codec

    if fmt != "auto" and fmt not in FORMATS:
        err.print(f"getbit validate: --format is auto, gbn, jsonl or csv, not {escape(fmt)}")
        raise typer.Exit(EXIT_UNREADABLE)
    if encoding is not None:
        try:
            codec(encoding)
        except InputError as exc:
            err.print(f"getbit validate: {escape(str(exc))}")
            raise typer.Exit(EXIT_UNREADABLE) from None
    counts = {"games": 0, "valid": 0, "invalid": 0, "unfinished": 0, "unchecked": 0}
    code = _check_paths(paths, fmt, encoding, as_json, counts)
    if not as_json:
        games_word = "game" if counts["games"] == 1 else "games"
        unchecked = f", {counts['unchecked']} not checked (a bug)" if counts["unchecked"] else ""
        out.print(
            f"{counts['games']} {games_word}: {counts['valid']} valid "
            f"({counts['unfinished']} unfinished), {counts['invalid']} with violations"
            + unchecked
        )
    raise typer.Exit(code)


def _check_paths(
    paths: list[Path], fmt: str, encoding: str | None, as_json: bool, counts: dict[str, int]
) -> int:
    """Check and show every game of ``paths``, with a bar on a terminal; the exit code.
    A path given that holds no games is a warning, and exit 2 (nothing was checked)."""
    from importers import folder_suffixes

    code = EXIT_OK
    suffixes = folder_suffixes(fmt)
    files = [(p, f) for p in paths for f in find_files([p], suffixes, missing_ok=True)]
    sizes = file_sizes(f for _, f in files)
    said = dict.fromkeys(paths, 0)  # games, or problems already said, per path given
    with Bar(err, "checking", sum(sizes.values()), not as_json, in_bytes=True) as bar:
        for given, path in files:
            bar.next_file(sizes[path])
            before = counts["games"]
            try:
                if not path.exists():  # said, and the other paths are still read
                    raise InputError(f"{path}: no such file or folder")
                # the games read before a file turns out unreadable still count
                notes: list[str] = []
                for game in _games(path, fmt, encoding, notes):
                    code = max(code, _check(game, as_json, counts, notes))
                    bar.advance(len(game.text or b""))
            except InputError as exc:
                err.print(escape(str(exc)))
                code = max(code, EXIT_UNREADABLE)
                said[given] += 1
            except Exception as exc:  # a reader's bug: the rest of this file is lost, not others
                _say_bug(str(path), exc)
                code = EXIT_BUG
                said[given] += 1
            said[given] += counts["games"] - before
    for given in (p for p, n in said.items() if not n):  # an empty file or folder
        hint = f" (no record files: {', '.join(suffixes)})" if given.is_dir() else ""
        err.print(f"[yellow]warning[/yellow]: no games in {escape(str(given))}{hint}")
        code = max(code, EXIT_UNREADABLE)
    return code


def _check(game: RecordedGame, as_json: bool, counts: dict[str, int], notes: list[str]) -> int:
    """Validate and show one game; its exit code. A crash while checking it is
    reported as that game's (file:line) and the other games go on. ``notes`` (the
    encoding detected) and a Date the reports cannot read are warnings of the game."""
    counts["games"] += 1
    try:
        report = validate_game(game)
        shown = report.to_json() if as_json else None
    except Exception as exc:
        _say_bug(f"{game.source}:{game.pos.line}: game {game.index}: not checked", exc)
        counts["unchecked"] += 1
        return EXIT_BUG
    counts["valid" if report.valid else "invalid"] += 1
    counts["unfinished"] += report.valid and not report.finished
    extra = [*notes, *store_cli.date_warnings(game)]
    if shown is not None:
        if extra:  # never there for a UTF-8 record with a readable Date: its JSON is as before
            shown["warnings"] = [*shown["warnings"], *extra]
        write_json(shown)
    else:
        _render(report)
        for warning in extra[len(notes) :]:
            out.print(f"  [yellow]warning[/yellow]: {escape(warning)}")
    return EXIT_OK if report.valid else EXIT_INVALID


def _say_bug(where: str, exc: Exception) -> None:
    """An internal error on one line after ``where`` (with GETBIT_DEBUG=1, its traceback)."""
    if os.environ.get("GETBIT_DEBUG") == "1":
        traceback.print_exc()
    err.print(escape(f"{where}: {bug_line(exc)}"))


@app.command()
def simulate(
    variant: Annotated[str, typer.Option(help="standard, three-player, two-player or shark")] = (
        "standard"
    ),
    swimmers: Annotated[int, typer.Option(help="4 to 6 (standard and shark)")] = 4,
    games: Annotated[int, typer.Option(min=0, help="how many games")] = 1,
    seed: Annotated[int, typer.Option(help="same seed, same games")] = 0,
    bot: Annotated[str, typer.Option(help=f"one of {', '.join(BOTS)}")] = "sensible",
    memory: Annotated[bool, typer.Option(help="the memory variant (R16)")] = False,
    output: Annotated[
        Path | None, typer.Option("-o", "--output", help="write here, not to the screen")
    ] = None,
    fmt: Annotated[str, typer.Option("--format", help="gbn, or jsonl (an event log)")] = "gbn",
) -> None:
    """Play complete games by the rules with seeded bots; write them as GBN or a JSON Lines log."""
    from importers.gbn import write_gbn

    if fmt == "jsonl":
        _simulate_jsonl(simulate_games(games, variant, swimmers, seed, bot, memory), seed, output)
        return
    if fmt != "gbn":
        err.print(f"getbit simulate: --format is gbn or jsonl, not {escape(fmt)}")
        raise typer.Exit(EXIT_UNREADABLE)
    try:
        text = write_gbn(simulate_games(games, variant, swimmers, seed, bot, memory))
    except ValueError as exc:
        err.print(f"getbit simulate: {escape(str(exc))}")
        raise typer.Exit(EXIT_UNREADABLE) from None
    if output is None:
        sys.stdout.write(text)
    else:
        output.write_text(text, encoding="utf-8")


def _simulate_jsonl(played: Iterator[list[Event]], seed: int, output: Path | None) -> None:
    """Stream simulated games as a JSON Lines log, a game at a time (flat memory)."""
    from importers.jsonl import write_jsonl

    target = output.open("w", encoding="utf-8") if output is not None else sys.stdout
    try:
        for line in write_jsonl((f"sim-{seed}-{k}", g) for k, g in enumerate(played, 1)):
            target.write(line)
    except ValueError as exc:
        err.print(f"getbit simulate: {escape(str(exc))}")
        raise typer.Exit(EXIT_UNREADABLE) from None
    finally:
        if output is not None:
            target.close()


# Each group of commands lives next to its library and registers itself here.
for _commands in (store_cli, replay_cli, reports_cli):
    _commands.register(app)


def _tolerant_streams() -> None:
    """A name the terminal cannot show prints as an escape, never as a crash."""
    for stream in (sys.stdout, sys.stderr):
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None and not utf8(stream):
            reconfigure(errors="backslashreplace")


def main() -> None:
    """Entry point of the ``getbit`` script: no traceback for bad input, and a bug is
    told apart from it (exit code 3, one line saying it is a bug)."""
    _tolerant_streams()
    try:
        app()
    except GetbitError as exc:
        err.print(escape(str(exc)))
        sys.exit(EXIT_UNREADABLE)
    except Exception as exc:
        _say_bug(" ".join(["getbit", *(a for a in sys.argv[1:2] if not a.startswith("-"))]), exc)
        sys.exit(EXIT_BUG)
