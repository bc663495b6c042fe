"""``getbit validate``: what a user sees on the screen, what a program reads from
``--json`` (issue 2), and the exit codes 0 valid / 1 violations / 2 unreadable."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from conftest import getbit_command

from getbit_events.errors import InputError
from importers.gbn import read_gbn_file

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "fixtures"
INVALID = FIXTURES / "invalid"
GAMES = FIXTURES / "games"

VIOLATION = re.compile(
    r"^  (?P<file>.+?):(?P<line>\d+):(?P<col>\d+): (?:round (?P<round>\d+): )?.+ "
    r"\[(?P<code>[a-z0-9-]+)\]$"
)
SUMMARY = re.compile(
    r"^(?P<games>\d+) games?: (?P<valid>\d+) valid \((?P<unfinished>\d+) unfinished\), "
    r"(?P<invalid>\d+) with violations$"
)

R8_GAME = """\
[Line "A, B, C, X"]

1. A 1, B 1, C 1, X 1
2. A 2, B 2, C 2, X 2
3. A 3, B 4, C 5, X 3
4. A 1, B 5, C 3, X 4
5. A 1, B 3, C 4, X 2
6. A 1, B 4, C 2, X 5
7. X 1, B 2, C 5
8. X 1, B 5, C 3
9. X 1, B 2, C 3
"""


def getbit(
    *args: str | Path, cwd: Path | None = None, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*getbit_command(), "validate", *map(str, args)],
        capture_output=True,
        text=True,
        encoding="utf-8",
        cwd=cwd or ROOT,
        timeout=120,
        env=None if env is None else {**os.environ, **env},
        errors="replace",
    )


def json_lines(result: subprocess.CompletedProcess[str]) -> list[dict[str, Any]]:
    return [json.loads(line) for line in result.stdout.splitlines() if line.strip()]


def no_traceback(result: subprocess.CompletedProcess[str]) -> None:
    assert "Traceback" not in result.stderr + result.stdout
    assert result.stderr.strip(), "a message on stderr"


# -- people's format ------------------------------------------------------------------


def test_the_bundled_games_are_valid() -> None:
    result = getbit(GAMES)
    assert result.returncode == 0, result.stdout + result.stderr
    lines = result.stdout.splitlines()
    n = sum(len(read_gbn_file(p)) for p in GAMES.rglob("*.gbn"))
    m = SUMMARY.match(lines[-1])
    assert m, lines[-1]
    assert (int(m["games"]), int(m["valid"]), int(m["invalid"])) == (n, n, 0)
    assert all(": ok (" in line for line in lines[:-1])


def test_one_violation_in_the_human_format(tmp_path: Path) -> None:
    path = tmp_path / "club.gbn"
    path.write_text(
        '[Line "John, Anne, Beth, Ted"]\n1. John 4, Anne 1, Beth 4, Ted 5\n'
        "2. John 4, Anne 2, Beth 5, Ted 1\n",
        encoding="utf-8",
    )
    result = getbit("club.gbn", cwd=tmp_path)
    assert result.returncode == 1
    assert result.stdout.splitlines() == [
        "club.gbn game 1 (line 1): 1 violation",
        (
            "  club.gbn:3:4: round 2: John plays 4, but that 4 is on the table since round 1 "
            "(R3) [card-not-in-hand]"
        ),
        "1 game: 0 valid (0 unfinished), 1 with violations",
    ]
    assert result.stderr == ""


def test_ok_lines_say_who_won_or_that_the_game_is_unfinished(tmp_path: Path) -> None:
    (tmp_path / "a.gbn").write_text(
        R8_GAME + '[Line "John, Anne, Beth, Ted"]\n1. John 4, Anne 1, Beth 4, Ted 5\n',
        encoding="utf-8",
    )
    result = getbit("a.gbn", cwd=tmp_path)
    assert result.returncode == 0
    assert result.stdout.splitlines() == [
        "a.gbn game 1 (line 1): ok (C wins)",
        "a.gbn game 2 (line 12): ok (unfinished after 1 round)",
        "2 games: 2 valid (1 unfinished), 0 with violations",
    ]


@pytest.fixture(scope="module")
def invalid_runs() -> tuple[subprocess.CompletedProcess[str], subprocess.CompletedProcess[str]]:
    """``getbit validate`` on fixtures/invalid, for people and with --json (run once)."""
    folder = INVALID.relative_to(ROOT)
    return getbit(folder), getbit("--json", folder)


@pytest.mark.parametrize("path", sorted(INVALID.glob("*.gbn")), ids=lambda p: p.stem)
def test_each_invalid_fixture_reports_what_its_comment_says(
    path: Path, invalid_runs: tuple[subprocess.CompletedProcess[str], ...]
) -> None:
    text = path.read_text(encoding="utf-8")
    [expect] = re.findall(r"^# expect: (\S+) round (\S+) line (\d+)$", text, re.M)
    code, rnd, line = expect[0], None if expect[1] == "-" else int(expect[1]), int(expect[2])
    assert text.startswith("# "), "each fixture says what is wrong and where"
    human, as_json = invalid_runs
    assert human.returncode == 1
    assert as_json.returncode == 1
    source = str(path.relative_to(ROOT))
    reports = [r for r in json_lines(as_json) if r["source"] == source]
    assert reports
    violations = [v for r in reports for v in r["violations"]]
    assert [(v["code"], v["round"], v["line"]) for v in violations] == [(code, rnd, line)]
    printed = [
        m.groupdict()
        for x in human.stdout.splitlines()
        if (m := VIOLATION.match(x)) and m["file"] == source
    ]
    assert [(p["code"], p["round"], p["line"]) for p in printed] == [
        (code, None if rnd is None else str(rnd), str(line))
    ]


def test_a_folder_is_walked_in_order(tmp_path: Path) -> None:
    (tmp_path / "sub" / "deeper").mkdir(parents=True)
    (tmp_path / "b.gbn").write_text(R8_GAME, encoding="utf-8")
    (tmp_path / "sub" / "a.GBN").write_text(R8_GAME, encoding="utf-8")
    (tmp_path / "sub" / "deeper" / "c.gbn").write_text('[Line "A, B, C"]\n', encoding="utf-8")
    (tmp_path / "notes.txt").write_text("not a record", encoding="utf-8")
    result = getbit("--json", ".", cwd=tmp_path)
    assert result.returncode == 1
    reports = json_lines(result)
    assert [Path(r["source"]).as_posix() for r in reports] == [
        "b.gbn",
        "sub/a.GBN",
        "sub/deeper/c.gbn",
    ]
    assert [r["valid"] for r in reports] == [True, True, False]


def test_the_invalid_folder_summary(
    invalid_runs: tuple[subprocess.CompletedProcess[str], ...],
) -> None:
    result = invalid_runs[0]
    assert result.returncode == 1
    m = SUMMARY.match(result.stdout.splitlines()[-1])
    assert m
    n = sum(len(read_gbn_file(p)) for p in INVALID.glob("*.gbn"))
    assert int(m["games"]) == n
    assert int(m["invalid"]) == len(list(INVALID.glob("*.gbn")))


# -- --json (issue 2) ------------------------------------------------------------------


def test_json_fields_of_a_finished_game(tmp_path: Path) -> None:
    (tmp_path / "g.gbn").write_text(R8_GAME, encoding="utf-8")
    result = getbit("--json", "g.gbn", cwd=tmp_path)
    assert result.returncode == 0
    [report] = json_lines(result)
    assert {
        "source",
        "game",
        "valid",
        "finished",
        "violations",
        "warnings",
        "winner",
        "ranking",
        "final",
    } <= set(report)
    assert report["source"] == "g.gbn"
    assert report["game"] == 1
    assert report["valid"] is True
    assert report["finished"] is True
    assert report["violations"] == []
    assert report["warnings"] == []
    # R8: C wins, B (devoured by the end) is second, then X, then A
    assert report["winner"] == "C"
    assert report["ranking"] == ["C", "B", "X", "A"]
    assert report["final"] == {
        "line": ["C"],
        "limbs": {"A": 0, "B": 0, "C": 4, "X": 0},
        "hunger": None,
    }


def test_json_of_an_unfinished_invalid_game(tmp_path: Path) -> None:
    (tmp_path / "g.gbn").write_text(
        '[Line "John, Anne, Beth, Ted"]\n'
        "# a comment\n"
        "1. John 4, Anne 1, Beth 4, Ted 5\n"
        "3. John 3, Anne 2, Beth 5, Ted 1 ; bit Anne\n",
        encoding="utf-8",
    )
    [report] = json_lines(getbit("--json", "g.gbn", cwd=tmp_path))
    assert report["valid"] is False
    assert report["finished"] is False
    assert report["winner"] is None
    assert report["ranking"] is None
    # sorted by line, then column; the round is the position of the round line
    assert [
        {k: v[k] for k in ("line", "column", "round", "code")} for v in report["violations"]
    ] == [
        {"line": 4, "column": 1, "round": 2, "code": "round-number"},
        {"line": 4, "column": 36, "round": 2, "code": "wrong-bite"},
    ]
    assert all(isinstance(v["message"], str) and v["message"] for v in report["violations"])
    # round 2: the rules bite Ted, at the back; the game as played goes on from the
    # bite the record states: Anne loses her right arm and swims to the front
    assert report["final"] == {
        "line": ["Anne", "Beth", "John", "Ted"],
        "limbs": {"John": 4, "Anne": 3, "Beth": 4, "Ted": 4},
        "hunger": None,
    }


def test_json_of_a_shark_game_and_its_warning(tmp_path: Path) -> None:
    # R11: A and B tie; any-limb bites A at the back, no limb stated: a warning
    (tmp_path / "s.gbn").write_text(
        '[Line "A, B, C, D"]\n[Variant "shark"]\n[Shark "Jaws"]\n'
        "1. A 1, B 2, C 3, D 4\n"
        "2. A 3, B 3, C 4, D 5, Jaws any-limb ; bit A\n",
        encoding="utf-8",
    )
    result = getbit("--json", "s.gbn", cwd=tmp_path)
    assert result.returncode == 0
    [report] = json_lines(result)
    assert report["valid"] is True
    assert len(report["warnings"]) == 1
    assert isinstance(report["warnings"][0], str)
    # the warning reads like a violation: FILE:LINE:COL: round R: message [CODE]
    assert report["warnings"][0] == (
        "s.gbn:5:1: round 2: the any-limb bite on A states no limb; taking the right arm"
        " [any-limb-default]"
    )
    # R2: C 4, D 5 move: D, C, B, A... from D, C, B, A: C, D, B, A then D, C, B, A;
    # A bitten (right arm) to the front: A, D, C, B
    assert report["final"] == {
        "line": ["A", "D", "C", "B"],
        "limbs": {"A": 3, "B": 4, "C": 4, "D": 4},
        "hunger": 4,
    }
    human = getbit("s.gbn", cwd=tmp_path)
    assert human.stdout.splitlines()[1] == "  warning: " + report["warnings"][0]


def test_json_syntax_error_and_game_numbers_within_each_file(tmp_path: Path) -> None:
    result = getbit("--json", INVALID / "syntax.gbn", INVALID / "wrong-line.gbn")
    reports = json_lines(result)
    assert [(Path(r["source"]).name, r["game"], r["valid"]) for r in reports] == [
        ("syntax.gbn", 1, True),
        ("syntax.gbn", 2, False),
        ("syntax.gbn", 3, True),
        ("wrong-line.gbn", 1, False),
    ]
    [v] = reports[1]["violations"]
    assert (v["line"], v["column"], v["round"], v["code"]) == (9, 12, 1, "syntax")
    assert reports[1]["final"] is None
    assert result.returncode == 1


def test_json_set_up_errors_have_no_round(tmp_path: Path) -> None:
    [report] = json_lines(getbit("--json", INVALID / "bad-setup.gbn"))
    [v] = report["violations"]
    assert (v["line"], v["round"], v["code"]) == (4, None, "bad-setup")


# -- exit codes and unreadable input ---------------------------------------------------


def test_missing_path_exits_2_with_a_clear_message(tmp_path: Path) -> None:
    result = getbit("nowhere.gbn", cwd=tmp_path)
    assert result.returncode == 2
    assert "nowhere.gbn" in result.stderr
    assert "no such file" in result.stderr
    no_traceback(result)


def test_a_missing_path_does_not_stop_the_others_being_read(tmp_path: Path) -> None:
    (tmp_path / "good.gbn").write_text(R8_GAME, encoding="utf-8")
    result = getbit("nowhere.gbn", "good.gbn", cwd=tmp_path)
    assert result.returncode == 2
    assert result.stderr.strip() == "getbit validate: nowhere.gbn: no such file or folder"
    assert "good.gbn game 1 (line 1): ok" in result.stdout
    assert result.stdout.splitlines()[-1] == "1 game: 1 valid (0 unfinished), 0 with violations"


def test_bad_utf8_spoils_only_its_game_named_at_its_place(tmp_path: Path) -> None:
    # a bad byte spoils the game it is in (a syntax error at its place), not the file
    (tmp_path / "a-bad.gbn").write_bytes(b'[Line "A, B, C, D"]\n1. A 1, B \xff2\n')
    (tmp_path / "b-good.gbn").write_text(R8_GAME, encoding="utf-8")
    result = getbit("a-bad.gbn", "b-good.gbn", cwd=tmp_path)
    assert result.returncode == 1
    assert "  a-bad.gbn:2:11: round 1: not UTF-8 text (byte 0xff) [syntax]" in result.stdout
    assert "b-good.gbn game 1 (line 1): ok (C wins)" in result.stdout
    assert "Traceback" not in result.stderr + result.stdout


def test_a_nul_byte_spoils_only_its_game(tmp_path: Path) -> None:
    (tmp_path / "nul.gbn").write_bytes(b'[Line "A, B, C, D"]\n1. A 1\x00\n')
    result = getbit("nul.gbn", cwd=tmp_path)
    assert result.returncode == 1
    assert "nul.gbn:2:7" in result.stdout
    assert "NUL" in result.stdout
    assert "Traceback" not in result.stderr + result.stdout


def test_unreadable_beats_invalid(tmp_path: Path) -> None:
    (tmp_path / "a.gbn").write_text('[Line "A, B, C"]\n', encoding="utf-8")
    assert getbit("a.gbn", "b.gbn", cwd=tmp_path).returncode == 2  # b.gbn: no such file
    assert getbit("b.gbn", "a.gbn", cwd=tmp_path).returncode == 2
    assert getbit("a.gbn", cwd=tmp_path).returncode == 1


def test_a_folder_path_that_is_a_file_of_another_kind(tmp_path: Path) -> None:
    (tmp_path / "notes.txt").write_text("hello", encoding="utf-8")
    result = getbit("notes.txt", cwd=tmp_path)
    assert result.returncode == 2
    assert "notes.txt" in result.stderr
    no_traceback(result)


@pytest.mark.parametrize("args", [(), ("--no-such-option", "x.gbn")])
def test_misuse_exits_2(args: tuple[str, ...], tmp_path: Path) -> None:
    result = getbit(*args, cwd=tmp_path)
    assert result.returncode == 2
    assert "Traceback" not in result.stderr


def test_an_empty_file_is_zero_games_a_warning_and_exit_2(tmp_path: Path) -> None:
    # nothing was checked: a program must not take it for "all good" (exit 2, as for
    # a file that cannot be read)
    (tmp_path / "empty.gbn").write_text("# nothing yet\n", encoding="utf-8")
    result = getbit("empty.gbn", cwd=tmp_path)
    assert result.returncode == 2
    assert result.stderr.strip() == "warning: no games in empty.gbn"
    assert result.stdout.splitlines()[-1] == "0 games: 0 valid (0 unfinished), 0 with violations"


# -- hostile names ---------------------------------------------------------------------

HOSTILE = ["<script>", "=cmd()", "../x", "O'Brien"]


def test_hostile_names_are_printed_as_given(tmp_path: Path) -> None:
    line = ", ".join(HOSTILE)
    # <script> 6 is not in a 4-swimmer hand; then =cmd() 1, ../x 2, O'Brien 3 and
    # <script> 6 move in that order: <script>, O'Brien, ../x, =cmd()
    (tmp_path / "[b]hostile.gbn").write_text(
        f'[Line "{line}"]\n1. <script> 6, =cmd() 1, ../x 2, O\'Brien 3\n', encoding="utf-8"
    )
    result = getbit("[b]hostile.gbn", cwd=tmp_path)
    assert result.returncode == 1
    lines = result.stdout.splitlines()
    assert lines[0] == "[b]hostile.gbn game 1 (line 1): 1 violation"
    assert lines[1].startswith("  [b]hostile.gbn:2:4: round 1: <script> plays 6, but ")
    assert lines[1].endswith(" [card-not-in-hand]")
    assert lines[2:] == ["1 game: 0 valid (0 unfinished), 1 with violations"]
    [report] = json_lines(getbit("--json", "[b]hostile.gbn", cwd=tmp_path))
    assert report["source"] == "[b]hostile.gbn"
    assert report["final"]["line"] == ["<script>", "O'Brien", "../x", "=cmd()"]
    assert set(report["final"]["limbs"]) == set(HOSTILE)
    assert report["violations"][0]["message"].startswith("<script> plays 6")


def test_control_characters_in_names_are_shown_escaped_never_sent(tmp_path: Path) -> None:
    # ESC (a terminal command would follow it), BEL (which rich would drop) and the
    # right-to-left override (it would reorder the rest of the line on screen)
    esc, bel, rlo = "B\x1bc", "C\x07", "D\u202e"
    (tmp_path / "c.gbn").write_text(
        f'[Line "A, {esc}, {bel}, {rlo}"]\n1. A 1, {esc} 9, {bel} 3, {rlo} 4\n', encoding="utf-8"
    )
    result = getbit("c.gbn", cwd=tmp_path)
    assert result.returncode == 1
    assert not set("\x1b\x07\u202e") & set(result.stdout + result.stderr)
    assert "round 1: B\\x1bc plays 9" in result.stdout
    [report] = json_lines(getbit("--json", "c.gbn", cwd=tmp_path))
    assert set(report["final"]["limbs"]) == {"A", esc, bel, rlo}  # kept as given


def test_hostile_winner_is_printed_as_given(tmp_path: Path) -> None:
    text = R8_GAME.replace("C", "=cmd()").replace("B", "<script>").replace("X", "O'Brien")
    text = text.replace("A", "../x")
    (tmp_path / "w.gbn").write_text(text, encoding="utf-8")
    result = getbit("w.gbn", cwd=tmp_path)
    assert result.returncode == 0, result.stdout
    assert "w.gbn game 1 (line 1): ok (=cmd() wins)" in result.stdout
    [report] = json_lines(getbit("--json", "w.gbn", cwd=tmp_path))
    assert report["ranking"] == ["=cmd()", "<script>", "O'Brien", "../x"]


def test_a_folder_named_like_a_record_is_walked_not_read(tmp_path: Path) -> None:
    # a sub-folder called "2025.gbn" is a folder: its records are read, and the
    # folder itself is not an unreadable file
    (tmp_path / "2025.gbn").mkdir()
    (tmp_path / "2025.gbn" / "g.gbn").write_text(R8_GAME, encoding="utf-8")
    (tmp_path / "h.gbn").write_text(R8_GAME, encoding="utf-8")
    result = getbit(".", cwd=tmp_path)
    assert result.stderr == ""
    assert result.returncode == 0
    assert result.stdout.splitlines() == [
        "2025.gbn/g.gbn game 1 (line 1): ok (C wins)",
        "h.gbn game 1 (line 1): ok (C wins)",
        "2 games: 2 valid (0 unfinished), 0 with violations",
    ]


@pytest.mark.parametrize("as_json", [False, True])
def test_names_outside_the_terminal_encoding_do_not_crash(tmp_path: Path, as_json: bool) -> None:
    # a terminal (or pipe) that is not UTF-8: the report must still come out,
    # with the documented exit code (1: a violation) and no traceback
    (tmp_path / "u.gbn").write_text(
        '[Line "Zoë, Ann, Bob, Cid"]\n1. Zoë 6, Ann 1, Bob 2, Cid 3\n', encoding="utf-8"
    )
    args = ("--json", "u.gbn") if as_json else ("u.gbn",)
    result = getbit(*args, cwd=tmp_path, env={"PYTHONIOENCODING": "ascii"})
    assert "Traceback" not in result.stderr
    assert result.returncode == 1
    if as_json:
        [report] = json_lines(result)
        assert report["final"]["line"] == ["Zoë", "Cid", "Bob", "Ann"]
    else:
        assert result.stdout.splitlines()[-1] == (
            "1 game: 0 valid (0 unfinished), 1 with violations"
        )


def test_line_and_paragraph_separators_are_shown_escaped_never_sent(tmp_path: Path) -> None:
    """U+2028, U+2029 and NEL (U+0085) reached the terminal raw, where they may break
    the line: they are printed as escapes like the other control characters; --json
    and the record keep them as given."""
    from getbit_events.simulate import simulate_game
    from importers.jsonl import write_jsonl

    names = {"Ann": "A\u2028nn", "Bob": "B\u2029ob", "Cid": "C\x85id"}
    text = "".join(write_jsonl([("g1", simulate_game("standard", 4, 1))]))
    for old, new in names.items():
        text = text.replace(f'"{old}"', json.dumps(new, ensure_ascii=False))
    stranger = json.dumps("Z\u2028ed", ensure_ascii=False)
    text = text.replace('"round":1,"cards":[', f'"round":1,"cards":[[{stranger},1],', 1)
    (tmp_path / "s.jsonl").write_text(text, encoding="utf-8")
    result = getbit("s.jsonl", cwd=tmp_path)
    assert result.returncode == 1, result.stdout + result.stderr
    assert not set("\u2028\u2029\x85") & set(result.stdout + result.stderr)
    said = "round 1: Z\\u2028ed is not a swimmer in this game [unknown-swimmer]"
    assert said in result.stdout
    as_json = getbit("--json", "s.jsonl", cwd=tmp_path)
    assert not set("\u2028\u2029\x85") & set(as_json.stdout)  # escaped: one report a line
    [report] = json_lines(as_json)
    assert set(names.values()) <= set(report["final"]["limbs"])  # kept as given


def test_a_crash_in_any_command_is_exit_code_3_and_one_line(tmp_path: Path) -> None:
    """A crash exited 1, like "a game breaks the rules", with a traceback: scripts
    could not tell them apart. It is exit code 3 and one line saying it is a bug."""
    boom = (
        "import sys, cli\n"
        "def crash(*args, **kwargs):\n"
        "    raise RuntimeError('no such\\nthing')\n"
        "cli.simulate_games = crash\n"
        "sys.argv = ['getbit', 'simulate', '--games', '2']\n"
        "cli.main()\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", boom], capture_output=True, text=True, cwd=tmp_path
    )
    assert result.returncode == 3
    assert result.stderr.splitlines() == [
        "getbit simulate: internal error (a bug, please report it): RuntimeError: no such thing"
    ]
    debug = subprocess.run(
        [sys.executable, "-c", boom],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env={**os.environ, "GETBIT_DEBUG": "1"},
    )
    assert debug.returncode == 3
    assert "Traceback" in debug.stderr
    assert debug.stderr.splitlines()[-1].startswith("getbit simulate: internal error")


def _validate_in_process(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], *args: str
) -> tuple[int, str, str]:
    import cli

    monkeypatch.setattr(sys, "argv", ["getbit", "validate", *args])
    with pytest.raises(SystemExit) as done:
        cli.main()
    captured = capsys.readouterr()
    code = done.value.code
    assert isinstance(code, int)
    return code, captured.out, captured.err


def test_a_crash_checking_one_game_loses_no_other_game(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A bug met while checking one game is reported as that game's (file:line), the
    other games are checked and shown, and the run exits 3."""
    import cli.checking
    from getbit_events.validate import validate_game

    (tmp_path / "three.gbn").write_text(R8_GAME * 3, encoding="utf-8")

    def crash_on_the_second(game: Any) -> Any:
        if game.index == 2:
            raise ZeroDivisionError("division by zero")
        return validate_game(game)

    monkeypatch.setattr(cli.checking, "validate_game", crash_on_the_second)
    monkeypatch.chdir(tmp_path)
    code, out, err = _validate_in_process(monkeypatch, capsys, "three.gbn")
    assert code == 3
    size = R8_GAME.count("\n")
    said = (
        f"getbit validate: three.gbn:{size + 1}: game 2: not checked: internal error (a bug, "
        "please report it): ZeroDivisionError: division by zero"
    )
    assert err.splitlines() == [said]
    assert out.splitlines() == [
        "three.gbn game 1 (line 1): ok (C wins)",
        f"three.gbn game 3 (line {2 * size + 1}): ok (C wins)",
        "3 games: 2 valid (0 unfinished), 0 with violations, 1 not checked (a bug)",
    ]


def test_games_read_before_a_file_turns_out_unreadable_still_count(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """validate reads a file a game at a time (memory bounded by one game): when the
    reader gives up midway, the games it gave are checked and shown, exit code 2."""
    import importers
    from importers.gbn import read_gbn

    def halfway(path: Any, fmt: str = "auto", source: str | None = None, **_: Any) -> Any:
        yield from read_gbn(R8_GAME, str(path))
        raise InputError(f"{path}:13:1: cannot read on")

    monkeypatch.setattr(importers, "iter_file", halfway)
    (tmp_path / "half.gbn").write_text(R8_GAME, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    code, out, err = _validate_in_process(monkeypatch, capsys, "half.gbn")
    assert code == 2
    assert err.splitlines() == ["getbit validate: half.gbn:13:1: cannot read on"]
    assert out.splitlines() == [
        "half.gbn game 1 (line 1): ok (C wins)",
        "1 game: 1 valid (0 unfinished), 0 with violations",
    ]


def test_the_violations_of_one_game_are_capped(tmp_path: Path) -> None:
    """A round line of 250 unknown names gave 250 violations (a 73 MB line gave 6.5
    million): 100 are reported, then one saying how many more were left out."""
    plays = ", ".join(f"Z{k} 1" for k in range(250))
    (tmp_path / "many.gbn").write_text(
        f'[Line "A, B, C, D"]\n\n1. A 1, B 2, C 3, D 4, {plays}\n', encoding="utf-8"
    )
    [report] = json_lines(getbit("--json", "many.gbn", cwd=tmp_path))
    violations = report["violations"]
    assert len(violations) == 101
    assert [v["code"] for v in violations[:100]] == ["unknown-swimmer"] * 100
    assert violations[99]["message"] == "Z99 is not a swimmer in this game"
    assert violations[100]["code"] == "too-many-violations"
    assert violations[100]["message"] == (
        "150 more violations were found in this game and left out: at most 100 are reported"
    )
    again = json_lines(getbit("--json", "many.gbn", cwd=tmp_path))
    assert again == [report]  # deterministic: it is hashed into the game's id


def test_a_slip_of_a_name_is_one_error_with_a_hint(tmp_path: Path) -> None:
    (tmp_path / "slip.gbn").write_text(
        '[Line "Ann, Bob, Cy, Dee"]\n\n'
        "1. Ann 2, Bobb 3, Cy 1, Dee 4\n2. Ann 3 Bob 4, Cy 2, Dee 5\n",
        encoding="utf-8",
    )
    result = getbit("slip.gbn", cwd=tmp_path)
    assert result.returncode == 1, result.stdout + result.stderr
    assert result.stdout.splitlines()[1:3] == [
        (
            "  slip.gbn:3:11: round 1: Bobb is not a swimmer in this game: did you mean Bob? "
            "[unknown-swimmer]"
        ),
        (
            "  slip.gbn:4:4: round 2: Ann 3 Bob is not a swimmer in this game: missing comma? "
            "(Ann 3, Bob 4) [unknown-swimmer]"
        ),
    ]
    assert "missing-play" not in result.stdout


def _getbit_fed(args: list[str], text: str) -> subprocess.CompletedProcess[str]:
    """``getbit ARGS`` as a shell runs it, with ``text`` on its standard input."""
    script = Path(sys.executable).with_name("getbit")
    return subprocess.run(
        [str(script), *args], input=text, capture_output=True, text=True, encoding="utf-8",
        cwd=ROOT, timeout=120,
    )


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="pipes by name are POSIX's")
@pytest.mark.parametrize("jobs", ["1", "2"])
def test_records_read_from_a_pipe_are_read_once_and_whole(tmp_path: Path, jobs: str) -> None:
    """``-`` (standard input), ``/dev/stdin`` and a named pipe are read as a file is,
    though a pipe can be read only once (a record is opened for its encoding, its
    game, then its games, and by each worker): they used to give no games."""
    records = sorted((ROOT / "fixtures" / "games").glob("*.gbn"))
    text = "\n".join(p.read_text(encoding="utf-8") for p in records)
    as_file = tmp_path / "all.gbn"
    as_file.write_text(text, encoding="utf-8")
    expected = json_lines(getbit(as_file, "--json", "--jobs", jobs))
    assert len(expected) > 20
    for name in ("-", "/dev/stdin"):
        fed = _getbit_fed(["validate", "--format", "gbn", "--json", "--jobs", jobs, name], text)
        assert fed.returncode == 0, fed.stderr
        said = [json.loads(line) for line in fed.stdout.splitlines()]
        assert [(g["game"], g["valid"], g["rounds"]) for g in said] == [
            (g["game"], g["valid"], g["rounds"]) for g in expected
        ]
    fifo = tmp_path / "games.fifo"
    os.mkfifo(fifo)
    writer = subprocess.Popen(["sh", "-c", f"cat '{as_file}' > '{fifo}'"])
    fed = _getbit_fed(["validate", "--format", "gbn", "--jobs", jobs, str(fifo)], "")
    writer.wait(timeout=60)
    assert fed.returncode == 0, fed.stderr
    assert f"{len(expected)} games: {len(expected)} valid" in fed.stdout
    log = _getbit_fed(["simulate", "--rules", "bite-me", "--games", "2", "--format", "jsonl"], "")
    assert log.returncode == 0
    fed = _getbit_fed(["validate", "--format", "jsonl", "--jobs", jobs, "-"], log.stdout)
    assert fed.returncode == 0, fed.stderr  # a log of Come on! Bite me! piped in
    assert "2 games: 2 valid" in fed.stdout
    closed = subprocess.run(
        [str(Path(sys.executable).with_name("getbit")), "validate", "--format", "gbn", "-"],
        capture_output=True, text=True, timeout=120,
        preexec_fn=lambda: os.close(0),  # as `getbit ... <&-` runs it
    )
    assert (closed.returncode, closed.stderr) == (
        2, "getbit validate: -: standard input is closed: there is nothing to read\n"
    )
    fed = _getbit_fed(["validate", "-"], text)
    assert fed.returncode == 2
    assert fed.stderr == (
        "getbit validate: -: standard input has no file ending to tell its format by "
        "(validate, import, replay and report take --format gbn|jsonl|csv)\n"
    )


def test_a_copy_of_a_pipe_left_by_a_killed_getbit_is_removed_by_the_next(
    tmp_path: Path,
) -> None:
    """A copy is removed as its process ends, but not when the process is killed
    (SIGTERM, SIGKILL): the next getbit that copies a pipe removes such leftovers,
    and only those of processes no longer running."""
    import tempfile

    gone = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"],
                          capture_output=True, text=True, check=True)
    dead = int(gone.stdout)  # a process that has ended
    temp = Path(tempfile.gettempdir())
    left = temp / f"getbit-{dead}-leftover.gbn"
    mine = temp / f"getbit-{os.getpid()}-in-use.gbn"  # this process runs: kept
    for path in (left, mine):
        path.write_text("x", encoding="utf-8")
    try:
        fed = _getbit_fed(["validate", "--format", "gbn", "-"],
                          (GAMES / "friday-club.gbn").read_text(encoding="utf-8"))
        assert fed.returncode == 0, fed.stderr
        assert not left.exists()
        assert mine.exists()
    finally:
        left.unlink(missing_ok=True)
        mine.unlink(missing_ok=True)
