"""Every ``getbit`` command, driven with generated arguments and hostile files: exit
code 0, 1 or 2, never a traceback, and every error line ``getbit COMMAND: ...``.

``GETBIT_FUZZ_EXAMPLES=N`` runs N examples per command (default 30) for a longer
local run.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from cli import app, commands
from store import GameStore

#: what these test is plain Python in both builds (none of setup.py's COMPILED is their
#: subject): the compiled build's pass of .ci/run leaves them to the plain pass
pytestmark = pytest.mark.layers

ROOT = Path(__file__).resolve().parent.parent
FRIDAY = ROOT / "fixtures" / "games" / "friday-club.gbn"
EXAMPLES = int(os.environ.get("GETBIT_FUZZ_EXAMPLES", "30"))
COMMANDS = sorted(commands())

# a per-game report line of validate/import, not an error of the command
_GAME_LINE = re.compile(r"^\S.* game \d+ \(line \d+\): ")
# `games` in a pipe: its count on stderr, so that stdout is only the listing
_COUNT_LINE = re.compile(r"^\d+ games?( \(.*\))?$")


@pytest.fixture(scope="module")
def place(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The hostile folder the generated command lines share (they may write in it)."""
    return _hostile(tmp_path_factory.mktemp("hostile"))


@pytest.fixture
def fresh(tmp_path: Path) -> Path:
    """The hostile folder as made, for one test."""
    return _hostile(tmp_path)


def _hostile(root: Path) -> Path:
    """A folder of hostile inputs: empty, binary and not-a-store files, a store of
    simulated games, a folder that holds nothing, and one good record."""
    (root / "empty.gbn").write_bytes(b"")
    (root / "binary.gbn").write_bytes(bytes(range(256)) * 4)
    (root / "binary.jsonl").write_bytes(b"\x00\xff\xfe{\n" * 10)
    (root / "notastore.db").write_bytes(b"this is not SQLite\n" * 20)
    (root / "emptyfolder").mkdir()
    (root / "friday.gbn").write_bytes(FRIDAY.read_bytes())
    from getbit_events.validate import validate_game
    from importers.gbn import read_gbn_file

    with GameStore(root / "games.db") as store:
        for f in sorted((ROOT / "fixtures" / "games").glob("sim-standard-*.gbn")):
            for game in read_gbn_file(f):
                store.add(validate_game(game))
    return root


_FILES = [
    "empty.gbn", "binary.gbn", "binary.jsonl", "notastore.db", "emptyfolder", "friday.gbn",
    "games.db", "nodir/x.gbn", "nosuch.gbn", "-",
]
_VALUES = st.one_of(
    st.sampled_from(_FILES),
    st.sampled_from(["0", "-1", "1", "2", "99", "", "a", "zz", "sim", "standard", "shark"]),
    st.integers(-5, 12).map(str),
    # any text but a path that walks a big tree ("/", "..": a real folder, not hostile)
    st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=6).filter(
        lambda t: "/" not in t and "\\" not in t and t.strip() not in ("..", "~")
    ),
)


def _options(command: str) -> list[str]:
    """Every option string of ``command`` (but help), read from the click command."""
    cmd = commands()[command]
    names = [o for p in cmd.params for o in (*p.opts, *p.secondary_opts)]
    return [n for n in names if n not in ("-h", "--help")]


def _arguments(command: str) -> st.SearchStrategy[list[str]]:
    options = _options(command)
    word = st.one_of(_VALUES, st.sampled_from(options)) if options else _VALUES
    pair = st.tuples(st.sampled_from(options), _VALUES).map(list) if options else st.just([])
    return st.lists(st.one_of(word.map(lambda w: [w]), pair), max_size=5).map(
        lambda parts: [w for part in parts for w in part]
    )


def _check(command: str, code: int, stderr: str) -> None:
    assert "Traceback" not in stderr
    assert code in (0, 1, 2), (code, stderr)
    prefix = f"getbit {command}: "
    for line in stderr.splitlines():
        if not line.strip() or line.startswith((" ", "wrote ", "note: ", "warning: ")):
            continue
        if _GAME_LINE.match(line) or (command == "games" and _COUNT_LINE.match(line)):
            continue
        assert line.startswith(prefix), (command, line)


@pytest.mark.parametrize("command", COMMANDS)
def test_every_command_survives_generated_arguments(
    command: str, place: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(place)
    monkeypatch.setenv("GETBIT_DB", str(place / "games.db"))
    runner = CliRunner()

    @settings(
        max_examples=EXAMPLES, deadline=None, derandomize=True,
        suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
    )
    @given(args=_arguments(command))
    def run(args: list[str]) -> None:
        if command == "replay" and "--step" in args:  # reads the keyboard
            args = [a for a in args if a != "--step"]
        result = runner.invoke(app, [command, *args])
        if result.exception is not None and not isinstance(result.exception, SystemExit):
            raise result.exception
        _check(command, result.exit_code, result.stderr)

    run()


@pytest.mark.parametrize(
    "args",
    [
        ["simulate", "-o", "nodir/s.gbn"],
        ["replay", "friday.gbn", "--round", "0"],
        ["replay", "friday.gbn", "--round", "-2"],
        ["report", "binary.gbn"],
        ["games", "--db", "notastore.db"],
        ["stats", "--id", "x"],
        ["export", "sim", "--db", "games.db", "-o", "nodir/e.gbn"],
        ["validate", "--bogus"],
    ],
)
def test_known_hostile_lines_in_a_real_process(fresh: Path, args: list[str]) -> None:
    """As a shell runs them (the real stderr, main's handling): one error line."""
    getbit = Path(sys.executable).with_name("getbit")
    env = {k: v for k, v in os.environ.items() if k != "GETBIT_DB"}
    result = subprocess.run(
        [str(getbit), *args], cwd=fresh, capture_output=True, text=True, env=env, check=False
    )
    # a file of no text is a game with a syntax error: it breaks the rules (1), as
    # validate and replay say it; every other line cannot be carried out (2)
    assert result.returncode == (1 if args == ["report", "binary.gbn"] else 2), result.stderr
    _check(args[0], result.returncode, result.stderr)
    assert result.stderr.startswith(f"getbit {args[0]}: ")


def test_the_two_tracebacks_of_issue_14_are_errors(fresh: Path) -> None:
    runner = CliRunner()
    cwd = os.getcwd()
    os.chdir(fresh)
    try:
        made = runner.invoke(app, ["simulate", "-o", "nodir/s.gbn"])
        replayed = runner.invoke(app, ["replay", "friday.gbn", "--round", "0"])
    finally:
        os.chdir(cwd)
    assert made.exit_code == 2
    assert made.stderr == (
        "getbit simulate: nodir/s.gbn: cannot write: No such file or directory\n"
    )
    assert replayed.exit_code == 2
    assert replayed.stderr == (
        "getbit replay: there is no round 0: this game runs from round 1 to 3\n"
    )


@pytest.mark.parametrize("command", ["show", "replay", "report", "export", "retract"])
def test_an_id_that_matches_several_games_is_an_error(fresh: Path, command: str) -> None:
    with GameStore(fresh / "games.db", create=False) as store:
        ids = [g.id for g in store.games()]
    shared = next(i[:1] for i in ids if sum(j.startswith(i[:1]) for j in ids) > 1)
    extra = ["--reason", "typo"] if command == "retract" else []
    result = CliRunner().invoke(app, [command, shared, "--db", str(fresh / "games.db"), *extra])
    assert result.exit_code == 2, result.stderr
    _check(command, result.exit_code, result.stderr)
    assert result.stderr.startswith(f"getbit {command}: ")
