"""The conventions every ``getbit`` command keeps (docs/cli.md): one table of options
that is the real one, -h, --version, completion, readable help, one vocabulary."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path
from typing import get_args

import pytest
import typer
from conftest import getbit_command
from typer.main import get_command
from typer.testing import CliRunner

from cli import ELSEWHERE, app, commands
from console.options import BOT_CHOICES, VARIANT_CHOICES, Bot, Variant
from getbit_events.rules import VARIANTS
from getbit_events.simulate import BOTS, simulate_games
from importers.gbn import write_gbn

#: what these test is plain Python in both builds (none of setup.py's COMPILED is their
#: subject): the compiled build's pass of .ci/run leaves them to the plain pass
pytestmark = pytest.mark.layers

ROOT = Path(__file__).resolve().parent.parent
FRIDAY = ROOT / "fixtures" / "games" / "friday-club.gbn"
GROUP = get_command(app)
COMMANDS = sorted(commands())


def _real_options() -> set[tuple[str, str]]:
    """(command, option) for every visible option and argument of the real commands."""
    found = set()
    for param in GROUP.params:
        if not param.hidden:  # type: ignore[attr-defined]
            found.add(("getbit", "/".join(param.opts)))
    for name in COMMANDS:
        for param in commands()[name].params:
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


def test_replay_and_report_pick_a_game_the_same_way(tmp_path: Path) -> None:
    empty = tmp_path / "empty.gbn"
    empty.write_text("", encoding="utf-8")
    for command in ("replay", "report"):
        assert _run(command, str(empty)) == (2, f"getbit {command}: {empty}: holds no game\n")
        code, err = _run(command, str(FRIDAY), "--game", "1", "--id", "x")
        assert (code, err) == (2, f"getbit {command}: give --game or --id, not both\n")
        code, err = _run(command, "nosuch", "--db", str(tmp_path / "none.db"))
        assert code == 2
        assert err == (
            f"getbit {command}: nosuch: no such file, and no game store at "
            f"{tmp_path / 'none.db'} (see --db)\n"
        )


def test_report_takes_a_store_file_and_an_id_as_replay_does(tmp_path: Path) -> None:
    from getbit_events.validate import validate_game
    from importers.gbn import read_gbn_file
    from store import GameStore

    db = tmp_path / "games.db"
    with GameStore(db) as store:
        [game] = read_gbn_file(FRIDAY)
        stored = store.add(validate_game(game))
    code, err = _run("report", str(db))
    assert (code, err) == (2, f"getbit report: {db}: a game store; say which game with --id\n")
    result = CliRunner().invoke(app, ["report", str(db), "--id", stored.game_id[:6], "--json"])
    assert result.exit_code in (0, 1), result.stderr
    assert stored.game_id in result.stdout


def test_commands_load_when_asked_for_and_list_as_they_are() -> None:
    """``getbit -h`` lists every command without importing the store, charset
    detection, progress bars, Parquet or worker processes (its short help read
    from the source is the loaded command's own), and ELSEWHERE names every
    command its modules register."""
    code = (
        "import sys; sys.argv = ['getbit', '-h']\n"
        "import cli\n"
        "try:\n    cli.main()\nexcept SystemExit:\n    pass\n"
        "heavy = ('store', 'sqlite_utils', 'charset_normalizer', 'rich.progress',"
        " 'console.progress', 'pyarrow', 'multiprocessing')\n"
        "print(sorted(m for m in sys.modules if m in heavy or m.split('.')[0] in heavy))"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    )
    assert result.stdout.splitlines()[-1] == "[]"
    listed = CliRunner().invoke(app, ["-h"]).stdout
    every = commands()
    for name in COMMANDS:
        short = every[name].get_short_help_str(80 - 6 - max(map(len, COMMANDS)))
        assert f"  {name.ljust(max(map(len, COMMANDS)))}  {short}" in listed
    import importlib

    for module in {m for m, _ in ELSEWHERE.values()}:
        registered = typer.Typer()
        importlib.import_module(module).register(registered)  # type: ignore[attr-defined]
        names = {info.name for info in registered.registered_commands}
        assert names == {n for n, (m, _) in ELSEWHERE.items() if m == module}
        for info in registered.registered_commands:
            assert ELSEWHERE[str(info.name)][1] == info.callback.__name__  # type: ignore[union-attr]


def test_validate_checks_without_the_store() -> None:
    """``validate`` (with its Date warnings and its bar) never imports the store."""
    code = (
        f"import sys; sys.argv = ['getbit', 'validate', {str(FRIDAY)!r}]\n"
        "import cli\n"
        "try:\n    cli.main()\nexcept SystemExit:\n    pass\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in ('store', 'sqlite_utils')))"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines()[-1] == "[]"


def test_no_command_writes_over_what_it_reads(tmp_path: Path) -> None:
    """An output path that is the store, a record given, or a file SQLite keeps beside
    the store (under any name: ./, a link) is refused with exit 2, nothing changed."""
    from getbit_events.validate import validate_game
    from importers.gbn import read_gbn_file
    from store import GameStore

    db = tmp_path / "games.db"
    with GameStore(db) as store:
        [game] = read_gbn_file(FRIDAY)
        game_id = store.add(validate_game(game)).game_id
    record = tmp_path / "friday.gbn"
    record.write_bytes(FRIDAY.read_bytes())
    (tmp_path / "link.db").symlink_to(db)
    strengths = tmp_path / "strengths.txt"
    strengths.write_text("", encoding="utf-8")
    before = {p: p.read_bytes() for p in (db, record, strengths)}
    attempts = {
        f"{db}, which this command reads": [
            ["stats", "--db", str(db), "--html", str(db)],
            ["stats", "--db", str(db), "--csv", str(tmp_path / "." / "games.db")],
            ["export", "--db", str(db), "-o", str(db)],
            ["export", "--db", str(db), game_id, "-o", str(tmp_path / "link.db")],
            ["replay", game_id, "--db", str(db), "--html", str(db)],
        ],
        f"where SQLite keeps the wal file of {db}, which this command reads": [
            ["stats", "--db", str(db), "--html", f"{db}-wal"],
        ],
        f"{record}, which this command reads": [
            ["replay", str(record), "--html", str(record)],
            ["stats", str(record), "--csv", str(record)],
            ["stats", str(tmp_path), "--html", str(record)],  # a record of a folder given
        ],
        f"{strengths}, which this command reads": [
            ["simulate", "--rules", "bite-me", "--strengths", str(strengths),
             "-o", str(strengths)],
        ],
    }
    for what, commands_ in attempts.items():
        for args in commands_:
            code, err = _run(*args)
            assert code == 2, args
            assert err.endswith(f": that is {what}; write to another file (nothing was written)\n")
    link = tmp_path / "link.db"  # SQLite keeps its files beside the file a link names
    code, err = _run("export", "--db", str(link), "--all", "-o", f"{db}-journal")
    assert code == 2
    assert f"where SQLite keeps the journal file of {link}, which this command reads" in err
    assert {p: p.read_bytes() for p in (db, record, strengths)} == before
    assert not (tmp_path / "games.db-wal").exists()
    assert not (tmp_path / "games.db-journal").exists()
    code, _ = _run("stats", "--db", str(db), "--html", str(tmp_path / "report.html"))
    assert code == 0


def test_dash_is_standard_output_for_every_output_option(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(app, ["simulate", "-o", "-"])
    assert result.exit_code == 0
    assert result.stdout.startswith("[")
    assert not (tmp_path / "-").exists()


def test_simulate_refuses_the_options_of_the_other_game() -> None:
    code, err = _run("simulate", "--players", "5")
    assert code == 2
    assert err == (
        "getbit simulate: --players: Come on! Bite me!'s (--rules bite-me) only, "
        "not for this game\n"
    )
    code, err = _run("simulate", "--rules", "bite-me", "--variant", "shark", "--no-memory")
    assert (code, err) == (
        2, "getbit simulate: --variant, --memory/--no-memory: Get Bit!'s only, not for this game\n"
    )
    assert _run("simulate", "--rules", "bite-me", "--players", "5")[0] == 0
    assert _run("simulate", "--variant", "shark", "--swimmers", "5", "--memory")[0] == 0


def test_simulate_refuses_swimmers_for_a_variant_that_sets_its_own() -> None:
    # --variant two-player --swimmers 99 wrote a game of four swimmers, exit 0
    for variant in ("two-player", "three-player"):
        code, err = _run("simulate", "--variant", variant, "--swimmers", "99")
        assert (code, err) == (2, (
            f"getbit simulate: --swimmers: the {variant} variant sets its own swimmers (R2); "
            "--swimmers is for standard and shark\n"))
        assert _run("simulate", "--variant", variant)[0] == 0


@pytest.mark.parametrize(
    "args",
    [
        ["simulate", "--games", "200", "--format", "jsonl"],  # a JSON Lines log, a line at a time
        ["simulate", "--games", "300"],  # GBN, a game at a time
        ["validate", "many.gbn", "--jobs", "1"],  # a line a game through rich, in one process
        ["validate", "many.gbn", "--jobs", "2"],  # and from worker processes
    ],
    ids=["simulate", "simulate gbn", "validate", "validate --jobs 2"],
)
def test_a_closed_output_stops_a_command_quietly_with_141(args: list[str], tmp_path: Path) -> None:
    """``getbit ... | head -1``: the reader goes away after one line, long before the
    output is done; the command stops without a word and exits 141, as the shell
    counts a tool SIGPIPE ended, not 1 (which says a game breaks the rules)."""
    if "many.gbn" in args:
        game = FRIDAY.read_text(encoding="utf-8")
        (tmp_path / "many.gbn").write_text("\n\n".join([game] * 3000), encoding="utf-8")
    with subprocess.Popen(
        [*getbit_command(), *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        cwd=tmp_path,
    ) as proc:
        out, err = proc.stdout, proc.stderr
        assert out is not None
        assert err is not None
        assert out.readline()
        out.close()
        said = err.read()
        code = proc.wait(timeout=120)
    assert said == b""
    assert code == 141


def test_simulate_writes_the_gbn_of_its_games_a_game_at_a_time(tmp_path: Path) -> None:
    """``getbit simulate`` writes each game as it is played (memory holds one, however
    many are asked for), the same bytes as ``write_gbn`` of them all, to a file and
    to stdout."""
    out = tmp_path / "sim.gbn"
    written = CliRunner().invoke(app, ["simulate", "--games", "5", "--seed", "3", "-o", str(out)])
    assert written.exit_code == 0
    expected = write_gbn(simulate_games(5, "standard", 4, 3, "sensible"))
    assert out.read_text(encoding="utf-8") == expected
    shown = CliRunner().invoke(app, ["simulate", "--games", "5", "--seed", "3"])
    assert shown.stdout == expected
    assert CliRunner().invoke(app, ["simulate", "--games", "0"]).stdout == ""
