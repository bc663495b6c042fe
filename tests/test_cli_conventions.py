"""The conventions every ``getbit`` command keeps (docs/cli.md): one table of options
that is the real one, -h, --version, completion, readable help, one vocabulary."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path
from typing import get_args

import pytest
from typer.main import get_command
from typer.testing import CliRunner

from cli import app
from console.options import BOT_CHOICES, VARIANT_CHOICES, Bot, Variant
from getbit_events.rules import VARIANTS
from getbit_events.simulate import BOTS

ROOT = Path(__file__).resolve().parent.parent
FRIDAY = ROOT / "fixtures" / "games" / "friday-club.gbn"
GROUP = get_command(app)
COMMANDS = sorted(GROUP.commands)  # type: ignore[attr-defined]


def _real_options() -> set[tuple[str, str]]:
    """(command, option) for every visible option and argument of the real commands."""
    found = set()
    for param in GROUP.params:
        if not param.hidden:  # type: ignore[attr-defined]
            found.add(("getbit", "/".join(param.opts)))
    for name in COMMANDS:
        for param in GROUP.commands[name].params:  # type: ignore[attr-defined]
            if getattr(param, "hidden", False) or "--help" in param.opts:
                continue
            if param.param_type_name == "argument":
                found.add((name, str(param.metavar)))
            else:
                found.add((name, "/".join((*param.opts, *param.secondary_opts))))
    return found


def _table() -> set[tuple[str, str]]:
    text = (ROOT / "docs" / "cli.md").read_text(encoding="utf-8")
    table = text.split("<!-- options -->")[1].split("<!-- /options -->")[0]
    rows = re.findall(r"^\| (\S+) \| `([^`]+)` \|", table, re.MULTILINE)
    assert len(rows) == len(set(rows)), "a row twice"
    return set(rows)


def test_the_table_in_docs_lists_exactly_the_real_options() -> None:
    assert _table() == _real_options()


@pytest.mark.parametrize("command", [[], *([c] for c in COMMANDS)])
def test_help_is_readable_and_h_is_help(command: list[str]) -> None:
    runner = CliRunner()
    short = runner.invoke(app, [*command, "-h"])
    assert short.exit_code == 0
    assert short.stdout == runner.invoke(app, [*command, "--help"]).stdout
    for python in ("<list[", "<str>", "<int", "<bool>", "<path>", "<Path>", "<float"):
        assert python not in short.stdout, (command, python)


def test_choices_are_the_cores() -> None:
    assert get_args(Variant) == VARIANT_CHOICES == VARIANTS
    assert get_args(Bot) == BOT_CHOICES == BOTS


def test_version_says_which_build() -> None:
    result = CliRunner().invoke(app, ["--version"])
    assert result.exit_code == 0
    assert re.fullmatch(
        r"getbit \S+, (compiled build \(mypyc\)|pure Python build), Python [\d.]+\n",
        result.stdout,
    )


@pytest.mark.parametrize("shell", ["bash", "zsh", "fish"])
def test_completion_script_for_each_shell(shell: str) -> None:
    getbit = Path(sys.executable).with_name("getbit")
    result = subprocess.run(
        [str(getbit), "--show-completion", shell], capture_output=True, text=True, check=False
    )
    assert result.returncode == 0, result.stderr
    assert "_GETBIT_COMPLETE" in result.stdout


def test_completion_answers_the_shell() -> None:
    getbit = Path(sys.executable).with_name("getbit")
    env = {"_GETBIT_COMPLETE": "complete_bash", "COMP_WORDS": "getbit val", "COMP_CWORD": "1"}
    result = subprocess.run(
        [str(getbit)], capture_output=True, text=True, check=False,
        env={**dict(__import__("os").environ), **env},
    )
    assert "validate" in result.stdout, result.stderr


def _run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(app, list(args))
    return result.exit_code, result.stderr


def test_replay_and_report_say_a_missing_file_the_same_way() -> None:
    assert _run("replay", "nosuch.gbn") == (2, "getbit replay: nosuch.gbn: no such file\n")
    assert _run("report", "nosuch.gbn") == (2, "getbit report: nosuch.gbn: no such file\n")


def test_one_game_is_not_games() -> None:
    for command in ("replay", "report"):
        code, err = _run(command, str(FRIDAY), "--game", "4")
        assert code == 2
        assert err.endswith("friday-club.gbn: holds 1 game; there is no game 4\n")


def test_stats_id_is_not_silently_ignored() -> None:
    code, err = _run("stats", str(FRIDAY), "--id", "x")
    assert (code, err) == (2, "getbit stats: --id goes with --html (the game its chart follows)\n")
    code, err = _run("stats", str(FRIDAY), "--game", "x", "--html", "x.html")
    assert code == 2
    assert "say --id x" in err


def test_a_misused_command_line_is_one_error_line() -> None:
    code, err = _run("replay", str(FRIDAY), "--game", "0")
    assert code == 2
    assert err.startswith("getbit replay: Invalid value for '--game'")
    assert err.endswith("(see 'getbit replay -h')\n")
    code, err = _run("valdate")
    assert (code, err) == (
        2, "getbit: No such command 'valdate'. Did you mean 'validate'? (see 'getbit -h')\n"
    )
