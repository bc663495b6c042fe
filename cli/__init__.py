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

import io
import os
import sys
import traceback
from collections.abc import Iterator
from contextlib import redirect_stdout
from pathlib import Path
from typing import Annotated, Any

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
from getbit_events.errors import GetbitError, InputError
from getbit_events.events import Event
from getbit_events.record import RecordedGame
from getbit_events.simulate import BOTS, simulate_games
from getbit_events.validate import GameReport, validate_game
from importers import find_files
from replay import cli as replay_cli
from reports import cli as reports_cli
from store import cli as store_cli
from store.jobs import default_jobs, in_order

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


def _games(path: Path) -> Iterator[RecordedGame]:
    """The games of one file as it is read (memory bounded by one game)."""
    from importers import iter_file

    return iter_file(path)


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
    jobs: Annotated[
        int | None,
        typer.Option("--jobs", min=1, help="worker processes checking the games "
                     "(default: the number of cores)"),
    ] = None,
) -> None:
    """Check recorded games against the rules; report every violation."""
    code = EXIT_OK
    counts = {"games": 0, "valid": 0, "invalid": 0, "unfinished": 0, "unchecked": 0}
    jobs = jobs or default_jobs()
    if jobs > 1:
        code = _validate_in_workers(paths, as_json, counts, jobs)
    for path in find_files(paths, missing_ok=True) if jobs == 1 else ():
        try:
            if not path.exists():  # said, and the other paths are still read
                raise InputError(f"{path}: no such file or folder")
            # the games read before a file turns out unreadable still count
            for game in _games(path):
                code = max(code, _check(game, as_json, counts))
        except InputError as exc:
            err.print(escape(str(exc)))
            code = max(code, EXIT_UNREADABLE)
        except Exception as exc:  # a reader's bug: the rest of this file is lost, not the others
            _say_bug(str(path), exc)
            code = EXIT_BUG
    if not as_json:
        games_word = "game" if counts["games"] == 1 else "games"
        unchecked = f", {counts['unchecked']} not checked (a bug)" if counts["unchecked"] else ""
        out.print(
            f"{counts['games']} {games_word}: {counts['valid']} valid "
            f"({counts['unfinished']} unfinished), {counts['invalid']} with violations"
            + unchecked
        )
    raise typer.Exit(code)


def _validate_in_workers(
    paths: list[Path], as_json: bool, counts: dict[str, int], jobs: int
) -> int:
    """``validate`` with the games checked in ``jobs`` worker processes (``store.jobs``):
    each game's output made there as it would be here, written here in input order."""
    found = list(find_files(paths, missing_ok=True))

    def items() -> Iterator[RecordedGame | Exception | tuple[str, Exception]]:
        for path in found:
            try:
                if not path.exists():
                    raise InputError(f"{path}: no such file or folder")
                yield from _games(path)
            except InputError as exc:
                yield exc
            except Exception as exc:  # a reader's bug: the rest of this file is lost
                yield str(path), exc

    def work(item: RecordedGame | Exception | tuple[str, Exception]) -> tuple[Any, ...]:
        mine = dict.fromkeys(counts, 0)
        held = _Held(getattr(sys.stdout, "encoding", None))
        with out.capture() as said, err.capture() as warned, redirect_stdout(held) as js:
            if isinstance(item, InputError):
                err.print(escape(str(item)))
                code = EXIT_UNREADABLE
            elif isinstance(item, tuple):
                _say_bug(*item)
                code = EXIT_BUG
            else:
                code = _check(item, as_json, mine)  # type: ignore[arg-type]
        return code, mine, said.get() + js.getvalue(), warned.get()

    code = EXIT_OK
    for done, mine, said, warned in in_order(items, work, jobs):
        code = max(code, done)
        for key, n in mine.items():
            counts[key] += n
        if warned:
            err.file.write(warned)
            err.file.flush()
        if said:
            out.file.write(said)
            out.file.flush()
    return code


class _Held(io.StringIO):
    """A worker's stdout, held to be written in input order. It says the real
    stdout's encoding, so JSON is written as it would be there (raw, not escaped,
    on UTF-8)."""

    def __init__(self, encoding: str | None) -> None:
        super().__init__()
        self._encoding = encoding

    @property
    def encoding(self) -> str | None:  # type: ignore[override]
        return self._encoding


def _check(game: RecordedGame, as_json: bool, counts: dict[str, int]) -> int:
    """Validate and show one game; its exit code. A crash while checking it is
    reported as that game's (file:line) and the other games go on."""
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
    if shown is not None:
        write_json(shown)
    else:
        _render(report)
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
