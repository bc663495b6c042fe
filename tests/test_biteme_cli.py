"""``getbit validate`` and ``getbit simulate --rules bite-me`` on records of "Come on!
Bite me!": the hand-made fixtures with their literal results, the same JSON
contract and exit codes as Get Bit!'s, bad input refused in one line."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent
BITEME = ROOT / "fixtures" / "biteme"
MISTAKES = ROOT / "fixtures" / "biteme-invalid" / "mistakes.bmn"
FRIDAY = ROOT / "fixtures" / "games" / "friday-club.gbn"


def getbit(*args: str | Path) -> subprocess.CompletedProcess[str]:
    script = Path(sys.executable).with_name("getbit")
    return subprocess.run(
        [str(script), *map(str, args)], capture_output=True, text=True, check=False, cwd=ROOT
    )


def _json(out: str) -> list[dict[str, Any]]:
    return [json.loads(line) for line in out.splitlines()]


def test_the_worked_game_is_valid_and_unfinished() -> None:
    done = getbit("validate", "--json", "--jobs", "1", BITEME / "worked.bmn")
    assert done.returncode == 0, done.stderr
    [report] = _json(done.stdout)
    assert report["valid"] is True
    assert (report["finished"], report["rounds"], report["winner"]) == (False, 8, None)
    assert report["final"] == {
        "scores": {"Ann": 6, "Bob": 0, "Cid": 5, "Dee": 3},
        "trophies": {"Ann": 1, "Bob": 1, "Cid": 2, "Dee": 1},
        "discards": {"Ann": 1, "Bob": 0, "Cid": 1, "Dee": 0},
    }


def test_the_mistakes_are_reported_with_line_column_turn_and_code() -> None:
    done = getbit("validate", "--json", "--jobs", "1", MISTAKES)
    assert done.returncode == 1
    [report] = _json(done.stdout)
    assert [
        (v["line"], v["column"], v["round"], v["code"], v["rule"]) for v in report["violations"]
    ] == [
        (8, 63, 1, "wrong-pick", "B13"),
        (9, 33, 2, "wrong-trophy", "B5"),
        (10, 26, 3, "wrong-take", "B12"),
        (11, 1, 4, "turn-number", None),
        (12, 1, 5, "wrong-player", "B4"),
    ]
    assert report["violations"][2]["message"] == "Bob holds Lion, not Tiger (B12)"


def test_the_json_contract_is_get_bit_s() -> None:
    """The keys a program reads are those of Get Bit!'s report, the turn as round."""
    done = getbit("validate", "--json", "--jobs", "2", BITEME / "sim-3.bmn", FRIDAY)
    bite, friday, *_ = _json(done.stdout)
    assert set(friday) <= set(bite) | {"final"}
    assert set(bite["violations"][0] if bite["violations"] else {}) <= {
        "line", "column", "round", "code", "rule", "message"
    }
    assert (bite["kind"], bite["winner"], bite["ranking"]) == ("bite-me", "Cid",
                                                               ["Cid", "Bob", "Ann"])


def test_simulated_fixtures_have_their_winners() -> None:
    done = getbit("validate", "--json", "--jobs", "1", BITEME / "sim-3.bmn", BITEME / "sim-6.bmn")
    assert done.returncode == 0
    assert [(r["line"], r["finished"], r["rounds"], r["winner"]) for r in _json(done.stdout)] == [
        (1, True, 22, "Cid"),
        (31, True, 23, "Bob"),
        (1, True, 52, "Fay"),
    ]


def test_a_shared_win_is_said_with_win_one_winner_with_wins() -> None:
    shared = ROOT / "fixtures" / "biteme-stats" / "shared.bmn"  # Vic 30, Wes 30 (B16)
    sim = BITEME / "sim-3.bmn"
    done = getbit("validate", "--jobs", "1", shared, sim)
    assert done.stdout.splitlines()[:3] == [
        f"{shared} game 1 (line 4): ok (Vic and Wes win)",
        f"{sim} game 1 (line 1): ok (Cid wins)",
        f"{sim} game 2 (line 31): ok (Bob wins)",
    ]
    # the JSON contract keeps its one text: the winners joined by "and"
    (first,) = _json(getbit("validate", "--json", shared).stdout)
    assert (first["winner"], first["winners"]) == ("Vic and Wes", ["Vic", "Wes"])


def test_a_folder_gives_its_bmn_files_and_the_screen_says_turns() -> None:
    done = getbit("validate", "--jobs", "1", BITEME, MISTAKES)
    assert done.returncode == 1
    assert "worked.bmn game 1 (line 2): ok (unfinished after 8 turns)" in done.stdout
    assert "mistakes.bmn:10:26: turn 3: Bob holds Lion, not Tiger (B12) [wrong-take]" in (
        done.stdout
    )
    assert done.stdout.splitlines()[-1] == "5 games: 4 valid (1 unfinished), 1 with violations"


def test_a_game_tag_is_enough_whatever_the_ending(tmp_path: Path) -> None:
    copy = tmp_path / "worked.txt"
    copy.write_text((BITEME / "worked.bmn").read_text(encoding="utf-8"), encoding="utf-8")
    done = getbit("validate", "--jobs", "1", copy)
    assert done.returncode == 0, done.stderr
    assert "ok (unfinished after 8 turns)" in done.stdout


def test_strengths_from_a_file(tmp_path: Path) -> None:
    text = (BITEME / "worked.bmn").read_text(encoding="utf-8")
    bare = tmp_path / "bare.bmn"
    bare.write_text(
        "\n".join(x for x in text.splitlines() if not x.startswith("[Strengths")) + "\n",
        encoding="utf-8",
    )
    unchecked = getbit("validate", "--jobs", "1", bare)
    assert unchecked.returncode == 0
    assert "nobody stated the strength of Mosquito" not in unchecked.stdout
    assert "warning: " in unchecked.stdout
    assert "[unchecked]" in unchecked.stdout
    strengths = tmp_path / "strengths.toml"
    strengths.write_text("Tiger = 8\nLion = 7\nPanda = 5\nSnake = 3\nMeerkat = 1\n")
    checked = getbit("validate", "--jobs", "1", "--strengths", strengths, bare)
    assert checked.returncode == 0
    assert "warning" not in checked.stdout


def test_a_bad_strengths_file_is_one_line_and_exit_2(tmp_path: Path) -> None:
    strengths = tmp_path / "s.txt"
    strengths.write_text("Tiger = eight\n")
    done = getbit("validate", "--strengths", strengths, BITEME / "worked.bmn")
    assert done.returncode == 2
    assert done.stderr.strip() == (
        f"getbit validate: {strengths}:1:1: 'Tiger=eight': write each as CARD = NUMBER"
    )
    assert "Traceback" not in done.stderr


def test_a_syntax_error_is_exit_1_at_its_place(tmp_path: Path) -> None:
    bad = tmp_path / "bad.bmn"
    bad.write_text('[Game "Come on! Bite me!"]\n[Seats "A, B, C"]\n\n1. A jumps\n')
    done = getbit("validate", "--jobs", "1", bad)
    assert done.returncode == 1
    assert f"{bad}:4:4: expected 'NAME CARD attacks NAME CARD'" in done.stdout


def test_simulate_writes_games_that_validate(tmp_path: Path) -> None:
    out = tmp_path / "sim.bmn"
    made = getbit("simulate", "--rules", "bite-me", "--players", "5", "--games", "3",
                  "--seed", "4", "-o", out)
    assert made.returncode == 0, made.stderr
    assert out.read_text(encoding="utf-8").startswith('[Game "Come on! Bite me!"]\n')
    done = getbit("validate", "--jobs", "1", out)
    assert done.returncode == 0
    assert done.stdout.splitlines()[-1] == "3 games: 3 valid (0 unfinished), 0 with violations"


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (("--players", "2"), "getbit simulate: 2 players: the game is for 3 to 10 players (B1)"),
    ],
)
def test_simulate_refuses_what_it_cannot_do(args: tuple[str, ...], says: str) -> None:
    done = getbit("simulate", "--rules", "bite-me", *args)
    assert done.returncode == 2
    assert done.stderr.startswith(says)
    assert done.stdout == ""
