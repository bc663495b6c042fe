"""The ``getbit`` command, put together: the typer app, the core's own commands
(``validate`` and ``simulate``: the importers and the core; validate's games read,
checked and said in ``checking``), the commands of
``store``, ``replay`` and ``reports`` (each defined next to its library, in its
``cli`` module), and ``main`` with its error -> exit code mapping. Nothing
imports this package.

Exit codes: 0 all good, 1 a game breaks the rules, 2 an input cannot be read
or the command is misused, 3 an internal error (a bug in getbit, never the
input's fault: one line on stderr says so; ``GETBIT_DEBUG=1`` shows the traceback),
130 interrupted, 141 the output was closed first (docs/errors.md).
"""

from __future__ import annotations

import ast
import difflib
import importlib
import inspect
import itertools
import os
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Annotated, Any, Literal, NoReturn

import typer
from typer._click.exceptions import NoArgsIsHelpError, UsageError  # typer >= 0.29: its click
from typer._click.utils import PacifyFlushWrapper
from typer.core import TyperArgument, TyperCommand, TyperGroup
from typer.main import get_command_from_info

from cli.checking import check_paths, say_bug
from console import (
    EXIT_BUG,
    EXIT_CLOSED,
    EXIT_INTERRUPTED,
    EXIT_OK,
    EXIT_UNREADABLE,
    OUT,
    plural,
    refuse_overwrite,
    say_error,
    tolerant_streams,
)
from console.options import (
    Bot,
    RecordFormat,
    Variant,
    encoding_option,
    format_option,
    jobs_option,
    json_option,
    output_option,
)
from getbit_events.errors import GetbitError, InputError
from getbit_events.events import Event
from getbit_events.simulate import BOTS, simulate_games

__all__ = ["ELSEWHERE", "app", "commands", "main"]



# The commands that live next to their library (command: its module and function). A
# module is imported when one of its commands runs, not to list them in `getbit -h`:
# the store's brings SQLite and sqlite-utils, and a start stays under 0.3 s.
ELSEWHERE: dict[str, tuple[str, str]] = {
    "import": ("store.import_cli", "import_command"),
    "games": ("store.cli", "games_command"),
    "show": ("store.cli", "show_command"),
    "export": ("store.cli", "export_command"),
    "rebuild": ("store.cli", "rebuild_command"),
    "check": ("store.cli", "check_command"),
    "retract": ("store.cli", "retract_command"),
    "replay": ("replay.cli", "replay_command"),
    "stats": ("reports.cli", "stats_command"),
    "report": ("reports.cli", "report_command"),
}


class _Getbit(TyperGroup):
    """The ``getbit`` group: its commands from ``ELSEWHERE`` are loaded when asked for;
    a misused command line is one error line, ``getbit COMMAND: what is wrong (see
    'getbit COMMAND -h')``, and exit code 2, like every other error (not click's box)."""

    _listing = False

    def list_commands(self, ctx: Any) -> list[str]:
        return [*self.commands, *(name for name in ELSEWHERE if name not in self.commands)]

    def get_command(self, ctx: Any, name: str) -> Any:
        if name in self.commands or name not in ELSEWHERE:
            return self.commands.get(name)
        if self._listing:  # `getbit -h`: its help, read from the source
            return TyperCommand(name=name, help=_docstring(*ELSEWHERE[name]))
        commands = importlib.import_module(ELSEWHERE[name][0])
        group = typer.Typer()
        commands.register(group)
        for info in group.registered_commands:
            info.cls = _Command
            made = get_command_from_info(info, pretty_exceptions_short=True, rich_markup_mode=None)
            self.commands.setdefault(str(made.name), made)
        return self.commands.get(name)

    def format_commands(self, ctx: Any, formatter: Any) -> None:
        self._listing = True
        try:
            super().format_commands(ctx, formatter)
        finally:
            self._listing = False

    def resolve_command(self, ctx: Any, args: list[str]) -> Any:
        try:
            return self._click_resolve_command(ctx, args)
        except UsageError as exc:  # "did you mean", over every command
            close = difflib.get_close_matches(args[0], self.list_commands(ctx)) if args else []
            if close:
                said = ", ".join(map(repr, close))
                exc.message = f"{exc.message.rstrip('.')}. Did you mean {said}?"
            raise

    def make_context(
        self, info_name: str | None, args: list[str], parent: Any = None, **extra: Any
    ) -> Any:
        try:
            return super().make_context(info_name, args, parent, **extra)
        except UsageError as exc:
            raise _misused(exc) from None

    def invoke(self, ctx: Any) -> Any:
        try:
            return super().invoke(ctx)
        except UsageError as exc:
            # the parser may leave the error without the command's context: name it
            own = exc.ctx if exc.ctx is not None and exc.ctx is not ctx else None
            path = own.command_path if own is not None else f"getbit {ctx.invoked_subcommand or ''}"
            raise _misused(exc, path.strip()) from None
        except BrokenPipeError:
            _output_closed()


def _output_closed() -> NoReturn:
    """The output's reader went away (``getbit games | head -1``): stop without a word,
    as other tools do, with 141 (the shell's code for a command SIGPIPE ended), not
    the 1 click gives, which here says a game breaks the rules. What is still
    buffered for the closed pipe is dropped at exit, without an error."""
    sys.stdout = PacifyFlushWrapper(sys.stdout)
    sys.stderr = PacifyFlushWrapper(sys.stderr)
    sys.exit(EXIT_CLOSED)


class _Command(TyperCommand):
    """A ``getbit`` command: an argument's help shows its name (``PATH...``), not
    the Python type behind it (``<list[Path]>``)."""

    def get_params(self, ctx: Any) -> Any:
        params = super().get_params(ctx)
        for param in params:
            if isinstance(param, TyperArgument) and param.metavar:
                vars(param)["display_type_rich"] = _no_type
        return params


def _no_type(ctx: Any) -> None:
    return None


def _docstring(module: str, function: str) -> str | None:
    """The docstring of ``function`` in ``module``, read from its source (not imported)."""
    source = Path(__file__).resolve().parent.parent.joinpath(*module.split(".")).with_suffix(".py")
    try:
        tree = ast.parse(source.read_text(encoding="utf-8"))
    except OSError:  # pragma: no cover - installed without sources: import it
        return inspect.getdoc(getattr(importlib.import_module(module), function))
    for node in tree.body:
        if isinstance(node, ast.FunctionDef) and node.name == function:
            return ast.get_docstring(node)
    return None


def _misused(exc: Any, path: str | None = None) -> BaseException:
    """The usage error ``exc`` said as an error line; the exit that ends the command."""
    if isinstance(exc, NoArgsIsHelpError):  # `getbit` alone: its help, as click gives it
        return exc
    if path is None:
        path = exc.ctx.command_path if exc.ctx is not None else "getbit"
    said = exc.format_message().replace("Value error, ", "")  # typer's wording of a choice
    say_error(f"{said} (see '{path} -h')", command=path)
    return typer.Exit(EXIT_UNREADABLE)


app = typer.Typer(
    name="getbit",
    cls=_Getbit,
    help="Record, check, replay and study games of Get Bit!",
    no_args_is_help=True,
    add_completion=False,  # our own --show-completion SHELL: typer's guesses the shell
    pretty_exceptions_enable=False,
    rich_markup_mode=None,  # plain help, as the docs show it
    context_settings={"help_option_names": ["-h", "--help"]},
)
out = OUT
Shell = Literal["bash", "zsh", "fish"]


def _version(value: bool) -> None:
    if not value:
        return
    from importlib.metadata import PackageNotFoundError, version

    import getbit_events.validate as checker

    try:
        number = version("getbit-events")
    except PackageNotFoundError:  # pragma: no cover - run from a source tree
        number = "(not installed)"
    compiled = Path(checker.__file__ or "").suffix in (".so", ".pyd")
    build = "compiled build (mypyc)" if compiled else "pure Python build"
    sys.stdout.write(f"getbit {number}, {build}, Python {sys.version.split()[0]}\n")
    raise typer.Exit(EXIT_OK)


def _completion(shell: str | None) -> None:
    if shell is None:
        return
    from typer._completion_classes import completion_init
    from typer._completion_shared import get_completion_script

    completion_init()
    script = get_completion_script(prog_name="getbit", complete_var="_GETBIT_COMPLETE", shell=shell)
    sys.stdout.write(script + "\n")
    raise typer.Exit(EXIT_OK)


@app.callback()
def _getbit(
    version: Annotated[
        bool,
        typer.Option(
            "--version", is_eager=True, callback=_version,
            help="the version, and whether the compiled build is running",
        ),
    ] = False,
    show_completion: Annotated[
        Shell | None,
        typer.Option(
            "--show-completion", is_eager=True, callback=_completion,
            help="print the completion script for SHELL (see docs/cli.md to install it)",
        ),
    ] = None,
) -> None:
    """Record, check, replay and study games of Get Bit!"""


@app.command()
def validate(
    paths: Annotated[
        list[Path],
        typer.Argument(
            metavar="PATH", help="record files (.gbn, .jsonl, .csv, .bmn), or folders of them"
        ),
    ],
    as_json: Annotated[bool, json_option("one JSON object per game, for programs")] = False,
    fmt: Annotated[
        RecordFormat,
        format_option("by file ending (auto; folders give .gbn, .jsonl and .bmn), or this one"),
    ] = "auto",
    encoding: Annotated[str | None, encoding_option()] = None,
    jobs: Annotated[
        int | None,
        jobs_option("worker processes checking the games "
                    "(default, and at most: the number of cores; 1 for under 64 KiB of records)"),
    ] = None,
    strengths: Annotated[
        Path | None,
        typer.Option(
            metavar="FILE",
            help="Come on! Bite me!: strengths the records leave out (CARD = NUMBER lines)",
        ),
    ] = None,
) -> None:
    """Check recorded games against the rules; report every violation.

    A path with no games in it is a warning and exit 2. Records of "Come on! Bite
    me!" (.bmn, or a Game tag naming it) are checked against its rules (B1-B17).
    """
    from importers.bmn import read_strengths_file
    from importers.reading import codec

    given: dict[str, int] = {}
    if strengths is not None:
        try:
            given = read_strengths_file(strengths)
        except InputError as exc:
            say_error(str(exc))
            raise typer.Exit(EXIT_UNREADABLE) from None

    if encoding is not None:
        try:
            codec(encoding)
        except InputError as exc:
            say_error(str(exc))
            raise typer.Exit(EXIT_UNREADABLE) from None
    counts = {"games": 0, "valid": 0, "invalid": 0, "unfinished": 0, "unchecked": 0}
    try:
        code = check_paths(paths, fmt, encoding, as_json, counts, jobs, given)
    except KeyboardInterrupt:  # Ctrl-C: the workers are stopped by now
        say_error("interrupted: the games said above were checked, the rest were not")
        raise typer.Exit(EXIT_INTERRUPTED) from None
    if not as_json:
        unchecked = f", {counts['unchecked']} not checked (a bug)" if counts["unchecked"] else ""
        out.print(
            f"{plural(counts['games'], 'game')}: {counts['valid']} valid "
            f"({counts['unfinished']} unfinished), {counts['invalid']} with violations"
            + unchecked
        )
    raise typer.Exit(code)


@app.command()
def simulate(
    ctx: typer.Context,
    variant: Annotated[
        Variant, typer.Option(case_sensitive=False, help="the variant of the games (R1)")
    ] = "standard",
    swimmers: Annotated[
        int, typer.Option(metavar="N", help="swimmers per game: 4 to 6 (standard and shark)")
    ] = 4,
    games: Annotated[int, typer.Option(metavar="N", min=0, help="how many games")] = 1,
    seed: Annotated[int, typer.Option(metavar="N", help="same seed, same games")] = 0,
    bot: Annotated[Bot, typer.Option(case_sensitive=False, help="how the bots choose")] = (
        "sensible"
    ),
    memory: Annotated[bool, typer.Option(help="the memory variant (R16)")] = False,
    output: Annotated[Path | None, output_option()] = None,
    fmt: Annotated[
        Literal["gbn", "jsonl"],
        typer.Option("--format", case_sensitive=False, help="GBN, or a JSON Lines event log"),
    ] = "gbn",
    rules: Annotated[
        Literal["get-bit", "bite-me"],
        typer.Option(
            case_sensitive=False,
            help="which game: Get Bit! (R1-R17) or Come on! Bite me! (B1-B17, written as BMN)",
        ),
    ] = "get-bit",
    players: Annotated[
        int, typer.Option(metavar="N", help="Come on! Bite me!: players per game, 3 to 10 (B1)")
    ] = 4,
    strengths: Annotated[
        Path | None,
        typer.Option(
            metavar="FILE",
            help="Come on! Bite me!: the strengths the bots play with (CARD = NUMBER lines)",
        ),
    ] = None,
) -> None:
    """Play complete games by the rules with seeded bots; write them as GBN or a JSON Lines log."""
    assert bot in BOTS  # the choices are the simulator's (a test holds them equal)
    if output is not None and str(output) == "-":  # '-': standard output, as everywhere
        output = None
    try:
        refuse_overwrite(output, [strengths])
    except InputError as exc:
        say_error(str(exc))
        raise typer.Exit(EXIT_UNREADABLE) from None
    # the options of the other game: an error, not silently ignored
    other = ("--players", "--strengths") if rules == "get-bit" else (
        "--variant", "--swimmers", "--bot", "--memory/--no-memory")
    given = [o for o in other if _given(ctx, o)]
    if given:
        which = "Come on! Bite me!'s (--rules bite-me)" if rules == "get-bit" else "Get Bit!'s"
        say_error(f"{', '.join(given)}: {which} only, not for this game")
        raise typer.Exit(EXIT_UNREADABLE)
    if rules == "bite-me":
        _simulate_bite(games, players, seed, strengths, output, fmt)
        return
    if variant not in ("standard", "shark") and _given(ctx, "--swimmers"):  # it was ignored
        say_error(f"--swimmers: the {variant} variant sets its own swimmers (R2); "
                  "--swimmers is for standard and shark")
        raise typer.Exit(EXIT_UNREADABLE)
    played = simulate_games(games, variant, swimmers, seed, bot, memory)
    try:
        target = sys.stdout if output is None else output.open("w", encoding="utf-8")
    except OSError as exc:
        say_error(f"{output}: cannot write: {exc.strerror or exc}")
        raise typer.Exit(EXIT_UNREADABLE) from None
    try:
        if fmt == "jsonl":
            _simulate_jsonl(played, seed, target)
        else:  # a game at a time: memory holds one, however many are asked for
            from importers.gbn import game_gbn

            for k, events in enumerate(played):
                target.write(f"\n{game_gbn(events)}" if k else game_gbn(events))
    except ValueError as exc:  # set-ups the rules do not allow (swimmers for the variant)
        say_error(str(exc))
        raise typer.Exit(EXIT_UNREADABLE) from None
    finally:
        if output is not None:
            target.close()


def _given(ctx: typer.Context, option: str) -> bool:
    """Whether ``option`` (as ``simulate -h`` spells it) was given, not its default."""
    name = option.removeprefix("--").split("/")[0].replace("-", "_")
    source = ctx.get_parameter_source(name)
    return source is not None and source.name not in ("DEFAULT", "DEFAULT_MAP")


def _simulate_bite(
    games: int, players: int, seed: int, strengths: Path | None, output: Path | None, fmt: str
) -> None:
    """``simulate --rules bite-me``: games of "Come on! Bite me!" written as BMN, or as
    a JSON Lines log of their events (``--format jsonl``)."""
    from biteme.simulate import simulate_bites
    from importers.bite_jsonl import write_bite_jsonl
    from importers.bmn import read_strengths_file
    from importers.bmn_write import game_bmn

    try:
        given = read_strengths_file(strengths) if strengths is not None else None
        played = simulate_bites(games, players, seed, given)
        if games:  # a bad --players is said before anything is written
            first = next(played)
            played = itertools.chain([first], played)
    except (InputError, ValueError) as exc:
        say_error(str(exc))
        raise typer.Exit(EXIT_UNREADABLE) from None
    try:
        target = sys.stdout if output is None else output.open("w", encoding="utf-8")
    except OSError as exc:
        say_error(f"{output}: cannot write: {exc.strerror or exc}")
        raise typer.Exit(EXIT_UNREADABLE) from None
    try:
        if fmt == "jsonl":
            for line in write_bite_jsonl((f"sim-{seed}-{k}", g) for k, g in enumerate(played, 1)):
                target.write(line)
            return
        for k, game in enumerate(played):
            target.write(("\n" if k else "") + game_bmn(game))
    finally:
        if output is not None:
            target.close()


def _simulate_jsonl(played: Iterator[list[Event]], seed: int, target: Any) -> None:
    """Stream simulated games as a JSON Lines log, a game at a time (flat memory)."""
    from importers.jsonl import write_jsonl

    for line in write_jsonl((f"sim-{seed}-{k}", g) for k, g in enumerate(played, 1)):
        target.write(line)


# Each group of commands lives next to its library and registers itself (ELSEWHERE).
for _info in app.registered_commands:
    _info.cls = _Command


def commands() -> dict[str, Any]:
    """Every ``getbit`` command, loaded, by name (for the docs and the tests)."""
    group = typer.main.get_command(app)
    assert isinstance(group, _Getbit)
    ctx = typer.Context(group)
    return {name: group.get_command(ctx, name) for name in group.list_commands(ctx)}


def main() -> None:
    """Entry point of the ``getbit`` script: no traceback for bad input, and a bug is
    told apart from it (exit code 3, one line saying it is a bug)."""
    tolerant_streams()
    if "_GETBIT_COMPLETE" in os.environ:  # the shell asks for completions (docs/cli.md)
        from typer._completion_classes import completion_init

        completion_init()
    command = " ".join(["getbit", *(a for a in sys.argv[1:2] if not a.startswith("-"))])
    try:
        app(prog_name="getbit")  # "getbit validate: ...", however it was started
    except GetbitError as exc:
        say_error(str(exc), command)
        sys.exit(EXIT_UNREADABLE)
    except Exception as exc:
        say_bug("", exc, command)
        sys.exit(EXIT_BUG)
