"""``getbit stats`` and ``getbit report``: what a user sees, field by field, and the
exit codes; the numbers are those worked by hand in tests/test_reports_stats.py."""

from __future__ import annotations

import csv
import io
import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from cli import app
from getbit_events.validate import validate_game
from importers.gbn import read_gbn_file
from reports.render import safe_cell
from store import GameStore

#: what these test is plain Python in both builds (none of setup.py's COMPILED is their
#: subject): the compiled build's pass of .ci/run leaves them to the plain pass
pytestmark = pytest.mark.layers

ROOT = Path(__file__).resolve().parent.parent
STATS = ROOT / "fixtures" / "stats"


@pytest.fixture
def runner(monkeypatch: pytest.MonkeyPatch) -> CliRunner:
    monkeypatch.delenv("GETBIT_DB", raising=False)
    return CliRunner()


@pytest.fixture
def db(tmp_path: Path) -> Path:
    path = tmp_path / "games.db"
    with GameStore(path) as store:
        for f in sorted(STATS.glob("*.gbn")):
            for game in read_gbn_file(f):
                store.add(validate_game(game))
    return path


def _run(runner: CliRunner, *args: str) -> tuple[int, str, str]:
    result = runner.invoke(app, list(args))
    assert "Traceback" not in result.output + result.stderr
    assert result.exception is None or isinstance(result.exception, SystemExit)
    return result.exit_code, result.stdout, result.stderr


def _json(runner: CliRunner, *args: str) -> dict[str, Any]:
    code, out, err = _run(runner, "stats", *args, "--json")
    assert code == 0, err
    data: dict[str, Any] = json.loads(out)
    return data


def test_json_field_by_field(runner: CliRunner) -> None:
    data = _json(runner, str(STATS), "--alias", "Annie=Ann")
    assert data["games_included"] == 4
    assert data["games_excluded"] == {
        "superseded": 0, "retracted": 0, "invalid": 1, "unfinished": 1, "filtered": 0
    }
    assert data["dated_games"] == 4
    assert data["filters"]["aliases"] == {"Annie": "Ann"}
    players = {p["name"]: p for p in data["players"]}
    assert set(players) == {"Ann", "Bob", "Cid", "Dee", "Jaws", "Nora", "Otto"}
    ann = players["Ann"]
    expected = {  # worked by hand: see tests/test_reports_stats.py
        "name": "Ann",
        "games": 3,
        "wins": 0,
        "win_rate": 0.0,
        "rank_distribution": {"3": 2, "4": 1},
        "swimmer_games": 3,
        "bites_taken": 9,
        "bites_taken_per_game": 3.0,
        "limbs_lost": 9,
        "limbs_lost_per_game": 3.0,
        "devoured": 2,
        "rounds_survived": 24,
        "rounds_survived_per_game": 8.0,
        "plays": 26,
        "plays_by_value": {"1": 11, "2": 6, "3": 5, "4": 3, "5": 1, "6": 0, "7": 0},
        "no_card_rounds": 0,
        "tied_plays": 4,
        "moved_plays": 22,
        "rounds_front": 8,
        "rounds_back": 11,
        "take_backs": 8,
        "cards_discarded": 0,
        "shark_games": 0,
        "shark_wins": 0,
        "shark_cards": 0,
        "shark_hits": 0,
        "shark_hit_rate": None,
        "shark_misses": 0,
        "hunger_left": 0,
        "average_hunger_left": None,
        "dated_games": 3,
        "longest_winning_streak": 0,
        "longest_losing_streak": 3,
    }
    assert {k: ann[k] for k in expected} == expected
    assert ann["average_rank"] == pytest.approx(10 / 3)
    assert ann["devoured_per_game"] == pytest.approx(2 / 3)
    assert ann["tied_share"] == pytest.approx(4 / 26)
    assert ann["moved_share"] == pytest.approx(22 / 26)
    assert ann["front_share"] == pytest.approx(8 / 24)
    assert ann["back_share"] == pytest.approx(11 / 24)
    assert ann["take_backs_per_game"] == pytest.approx(8 / 3)
    assert set(ann["rating"]) == {"mu", "sigma", "ordinal", "games"}
    assert ann["rating"]["games"] == 3
    assert ann["rating"]["ordinal"] == pytest.approx(
        ann["rating"]["mu"] - 3 * ann["rating"]["sigma"]
    )
    jaws = players["Jaws"]
    assert (jaws["shark_games"], jaws["shark_cards"], jaws["shark_hits"]) == (1, 7, 3)
    assert (jaws["shark_misses"], jaws["shark_bites"], jaws["shark_exhaustions"]) == (4, 2, 1)
    assert jaws["shark_hit_rate"] == pytest.approx(3 / 7)
    assert (jaws["hunger_left"], jaws["average_hunger_left"]) == (0, 0.0)
    assert {p["name"]: p["cards_discarded"] for p in data["players"]}["Bob"] == 1
    places = [(s["place"], s["games"], s["wins"]) for s in data["start_places"]
              if s["swimmers"] is None]
    assert places == [(1, 4, 0), (2, 4, 1), (3, 4, 1), (4, 4, 3)]
    h2h = {(h["first"], h["second"]): (h["games"], h["first_ahead"], h["second_ahead"])
           for h in data["head_to_head"]}
    assert h2h[("Ann", "Bob")] == (3, 2, 1)
    assert h2h[("Nora", "Otto")] == (1, 0, 1)


def test_store_and_files_give_the_same_json(runner: CliRunner, db: Path) -> None:
    from_store = _json(runner, "--db", str(db), "--alias", "Annie=Ann")
    from_files = _json(runner, str(STATS), "--alias", "Annie=Ann")
    assert from_store == from_files


def test_the_store_from_the_environment(
    runner: CliRunner, db: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("GETBIT_DB", str(db))
    assert _json(runner)["games_included"] == 4


def test_filters_on_the_command_line(runner: CliRunner, db: Path) -> None:
    data = _json(runner, "--db", str(db), "--since", "2026-01-02", "--until", "2026-01-03")
    assert (data["games_included"], data["games_excluded"]["filtered"]) == (2, 2)
    data = _json(runner, "--db", str(db), "--variant", "two-player")
    assert [p["name"] for p in data["players"]] == ["Otto", "Nora"]
    data = _json(runner, "--db", str(db), "--tag", "Event=Home", "--swimmers", "4")
    assert data["games_included"] == 1
    data = _json(runner, "--db", str(db), "--player", "bob")
    assert [p["name"] for p in data["players"]] == ["Bob"]
    assert data["games_included"] == 3


def test_the_table_says_what_it_covers(runner: CliRunner, db: Path) -> None:
    code, out, _ = _run(runner, "stats", "--db", str(db))
    assert code == 0
    assert "4 games covered; left out: 1 invalid, 1 unfinished, 0 filtered" in out
    assert re.search(r"Otto\s+│\s+1\s+│\s+1\s+│\s+100%", out)
    assert "The Shark" in out


def test_one_players_profile(runner: CliRunner, db: Path) -> None:
    code, out, _ = _run(runner, "stats", "--db", str(db), "--player", "ANNIE", "--alias",
                        "annie=ann")
    assert code == 0
    assert out.startswith("Ann: 3 games covered; left out: 1 invalid, 1 unfinished, 1 filtered")
    assert re.search(r"bites taken\s+│\s+9 \(3\.00/game\)", out)
    assert re.search(r"longest losing run\s+│\s+3", out)
    assert re.search(r"Cid\s+│\s+3\s+│\s+0\s+│\s+3", out)  # head to head: never ahead of Cid
    code, out, _ = _run(runner, "stats", "--db", str(db), "--player", "Nobody")
    assert (code, out.strip()) == (0, "Nobody: no games among those selected")


def test_csv_neutralises_formulas(runner: CliRunner, tmp_path: Path) -> None:
    text = (STATS / "standard.gbn").read_text(encoding="utf-8")
    for old, new in (("Ann", "=HYPERLINK(1)"), ("Bob", "@SUM(A1)"), ("Cid", "+1"), ("Dee", "-1")):
        text = re.sub(rf"\b{old}\b", new, text)
    record = tmp_path / "evil.gbn"
    record.write_text(text, encoding="utf-8")
    out_csv = tmp_path / "players.csv"
    code, _, err = _run(runner, "stats", str(record), "--csv", str(out_csv))
    assert code == 0, err
    rows = list(csv.DictReader(io.StringIO(out_csv.read_text(encoding="utf-8"))))
    assert sorted(r["name"] for r in rows) == ["'+1", "'-1", "'=HYPERLINK(1)", "'@SUM(A1)"]
    dee = next(r for r in rows if r["name"] == "'-1")
    assert (dee["games"], dee["wins"], dee["plays_3"], dee["rank_1"]) == ("1", "1", "3", "1")
    assert safe_cell("\tx") == "'\tx"
    assert safe_cell("\rx") == "'\rx"
    assert safe_cell("Ann") == "Ann"
    assert safe_cell(-3) == -3  # numbers we computed stay numbers


def test_csv_to_stdout(runner: CliRunner, db: Path) -> None:
    code, out, _ = _run(runner, "stats", "--db", str(db), "--csv", "-")
    assert code == 0
    assert out.splitlines()[0].startswith("name,games,wins,win_rate,average_rank,")
    assert len(out.splitlines()) == 1 + 8  # Annie is her own player without --alias


def test_html_to_stdout_says_no_file_written(runner: CliRunner, db: Path) -> None:
    # it said "wrote - (8 games)" on stderr, as if a file named - had been written
    code, out, err = _run(runner, "stats", "--db", str(db), "--html", "-")
    assert (code, err) == (0, "")
    assert out.startswith("<!DOCTYPE html>")
    bmn = str(ROOT / "fixtures" / "biteme" / "worked.bmn")
    code, out, err = _run(runner, "stats", bmn, "--html", "-")
    assert (code, err) == (0, "")
    assert out.startswith("<!DOCTYPE html>")


def test_html_file(runner: CliRunner, db: Path, tmp_path: Path) -> None:
    page = tmp_path / "stats.html"
    code, _, err = _run(runner, "stats", "--db", str(db), "--html", str(page))
    assert code == 0, err
    assert err.startswith(f"wrote {page} (")
    text = page.read_text(encoding="utf-8")
    assert text.count("<svg") == 4  # win rates, card values, positions, ratings
    assert "Position by round: game " in text
    code, _, err = _run(runner, "stats", str(STATS), "--html", str(page), "--id",
                        "two-player.gbn#1")
    assert code == 0, err
    assert "Position by round: game " in page.read_text(encoding="utf-8")
    assert "two-player.gbn#1" in page.read_text(encoding="utf-8")


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--since", "last week"], "--since is a date like 2026-11-20"),
        (["--tag", "Event"], "--tag must be KEY=VALUE"),
        (["--alias", "Ann"], "--alias must be KEY=VALUE"),
        (["--variant", "solo"], "'solo' is not one of 'standard', 'three-player'"),
        (["--json", "--csv", "x.csv"], "give one of --json, --csv and --html"),
        (["--html", "/no/such/folder/x.html"], "cannot write"),
        (["--id", "nope", "--html", "x.html"], "no game 'nope'"),
    ],
)
def test_bad_options_exit_2_without_traceback(
    runner: CliRunner, db: Path, args: list[str], message: str
) -> None:
    code, out, err = _run(runner, "stats", "--db", str(db), *args)
    assert code == 2
    assert message in err
    assert out == ""


def test_no_store_and_no_files(runner: CliRunner, tmp_path: Path) -> None:
    code, _, err = _run(runner, "stats", "--db", str(tmp_path / "none.db"))
    assert code == 2
    assert "no game store at" in err
    assert not (tmp_path / "none.db").exists()  # nothing created
    code, _, err = _run(runner, "stats", str(tmp_path / "missing.gbn"))
    assert (code, "no such file" in err) == (2, True)


def test_a_file_of_garbage_is_one_broken_game_left_out(runner: CliRunner, tmp_path: Path) -> None:
    # a bad byte spoils only the game it is in (issue 11): the garbage is a broken
    # game, left out as invalid, and the good file beside it is counted
    bad = tmp_path / "bad.gbn"
    bad.write_bytes(b"\xff\xfe\x00garbage")
    code, out, _ = _run(runner, "stats", str(bad), str(STATS / "standard.gbn"), "--json")
    assert code == 0
    data = json.loads(out)
    assert data["games_included"] == 1
    assert data["games_excluded"]["invalid"] == 1


def test_report_of_a_file_game(runner: CliRunner) -> None:
    code, out, _ = _run(runner, "report", str(STATS / "standard.gbn"))
    assert code == 0
    assert "Dee wins (R8)" in out
    assert re.search(r"│\s+9 │ Ann loses left leg: devoured; Cid\s+│ Dee\s+│", out)
    assert re.search(r"│\s+│ devoured \(R8: two left\)\s+│", out)
    assert re.search(r"│\s+1 │\s+3 │\s+3 │\s+1 │\s+2 │", out)  # round 1: Ann Bob Cid Dee
    code, out, _ = _run(runner, "report", str(STATS / "left-out.gbn"), "--game", "2")
    assert code == 1  # shown, but it breaks the rules
    code, out, err = _run(runner, "report", str(STATS / "left-out.gbn"), "--game", "3")
    assert (code, "holds 2 games" in err) == (2, True)


def test_report_json(runner: CliRunner) -> None:
    code, out, _ = _run(runner, "report", str(STATS / "shark.gbn"), "--json")
    assert code == 0
    data = json.loads(out)
    assert data["winner"] == "Bob"
    assert data["ranking"] == ["Bob", "Cid", "Dee", "Annie", "Jaws"]
    assert data["end_reason"] == "R14-hunger"
    assert data["violations"] == 0
    rounds = {r["round"]: r for r in data["rounds"]}
    assert rounds[3]["bites"] == [{"swimmer": "Dee", "limb": "right-leg"}]
    assert rounds[5]["discarded"] == [{"swimmer": "Bob", "card": 1}, {"swimmer": "Cid", "card": 1}]
    assert [r["round"] for r in data["rounds"] if r["shark_missed"]] == [2, 4, 6, 8]
    assert data["cards_played"]["Annie"] == [1, 2, 3, 4, 5, 1, 2, 1]
    assert rounds[8]["line"] == ["Bob", "Dee", "Cid", "Annie"]
    assert all(r["devoured"] == [] for r in data["rounds"])
    code, out, _ = _run(runner, "report", str(STATS / "standard.gbn"), "--json")
    last = json.loads(out)["rounds"][-1]
    assert last["devoured"] == [
        {"swimmer": "Ann", "why": "last-limb"},
        {"swimmer": "Cid", "why": "two-left"},
    ]


def test_report_of_a_stored_game(runner: CliRunner, db: Path) -> None:
    with GameStore(db) as store:
        game = next(g for g in store.games() if g.variant == "two-player")
    code, out, _ = _run(runner, "report", game.id[:8], "--db", str(db))
    assert code == 0
    assert "Otto wins (R10)" in out
    assert re.search(r"│\s+1 │ Otto\s+│ Green, Yellow\s+│", out)
    code, _, err = _run(runner, "report", "zzzz", "--db", str(db))
    assert (code, "no game 'zzzz'" in err) == (2, True)


@pytest.mark.parametrize("args", [[], ["--json"], ["--player", "zoë"]])
def test_names_outside_the_terminal_encoding(tmp_path: Path, args: list[str]) -> None:
    text = (STATS / "standard.gbn").read_text(encoding="utf-8")
    (tmp_path / "z.gbn").write_text(re.sub(r"\bAnn\b", "Zoë", text), encoding="utf-8")
    getbit = Path(sys.executable).with_name("getbit")
    result = subprocess.run(
        [str(getbit), "stats", "z.gbn", *args], cwd=tmp_path, capture_output=True, text=True,
        encoding="ascii", errors="strict", env={**os.environ, "PYTHONIOENCODING": "ascii"},
        check=False,
    )
    assert "Traceback" not in result.stderr
    assert result.returncode == 0
    if args == ["--json"]:
        assert "Zoë" in {p["name"] for p in json.loads(result.stdout)["players"]}
    else:
        assert "Zo\\xeb" in result.stdout  # the one way: as its escape


def test_report_of_a_game_with_no_events(runner: CliRunner, tmp_path: Path) -> None:
    bad = tmp_path / "bad.gbn"
    bad.write_text('[Line "Ann, Bob, Cid, Dee"]\n1. Ann one, Bob 2, Cid 3, Dee 4\n', "utf-8")
    code, out, err = _run(runner, "report", str(bad))
    assert (code, out) == (1, "")  # the game breaks the rules, as replay says it
    assert "bad.gbn:2:8" in err
    assert "nothing to report" in err
    assert runner.invoke(app, ["replay", str(bad)]).exit_code == 1


def test_a_file_or_folder_of_no_games_is_a_warning_and_exit_2(
    runner: CliRunner, tmp_path: Path
) -> None:
    empty, folder = tmp_path / "empty.gbn", tmp_path / "nothing"
    empty.write_text("", encoding="utf-8")
    folder.mkdir()
    code, out, err = _run(runner, "stats", str(empty), str(folder), str(STATS), "--json")
    assert code == 2
    assert err.splitlines() == [
        f"warning: no games in {empty}",
        f"warning: no games in {folder} (no record files: .gbn, .jsonl, .ndjson)",
    ]
    assert json.loads(out)["games_included"] == 4  # the other games counted as ever
    (folder / "empty.gbn").write_text("", encoding="utf-8")
    (folder / "club.gbn").write_text((STATS / "standard.gbn").read_text("utf-8"), "utf-8")
    code, _, err = _run(runner, "stats", str(folder), "--json")
    assert (code, err) == (0, "")  # a folder of games is not empty, whatever its files


def test_a_missing_path_is_said_and_the_other_games_counted(
    runner: CliRunner, tmp_path: Path
) -> None:
    """As validate and import do (stats used to stop at it, counting nothing)."""
    missing = tmp_path / "missing.gbn"
    code, out, err = _run(runner, "stats", str(missing), str(STATS), "--json")
    assert code == 2
    assert err == f"getbit stats: {missing}: no such file or folder\n"
    assert json.loads(out)["games_included"] == 4


def test_a_record_of_bite_me_named_with_rules_get_bit_is_said_not_counted(
    runner: CliRunner, tmp_path: Path
) -> None:
    """The mirror of stats --rules bite-me: a log of Come on! Bite me! was counted
    as invalid games of Get Bit!, a BMN record said to be one stats cannot read."""
    bmn = ROOT / "fixtures" / "biteme" / "worked.bmn"
    log = tmp_path / "bite.jsonl"
    code, out, _ = _run(runner, "simulate", "--rules", "bite-me", "--format", "jsonl")
    log.write_text(out, encoding="utf-8")
    code, out, err = _run(runner, "stats", "--rules", "get-bit", str(log), str(bmn), str(STATS),
                          "--json")
    assert code == 0
    assert err.splitlines() == [
        f"warning: {path}: no game of Get Bit! in it (--rules bite-me counts its games)"
        for path in (log, bmn)
    ]
    data = json.loads(out)
    assert (data["games_included"], data["games_excluded"]["invalid"]) == (4, 1)


def test_the_bar_of_stats_files_counts_the_files_passed_over_too(
    runner: CliRunner, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A folder holding a log of Come on! Bite me! beside records of Get Bit!: the bar
    goes through the log's bytes too (it stalled near 0%, the log in its total only)."""
    from console import progress

    folder = tmp_path / "mixed"
    folder.mkdir()
    code, out, _ = _run(runner, "simulate", "--rules", "bite-me", "--games", "5",
                        "--format", "jsonl")
    (folder / "a.jsonl").write_text(out, encoding="utf-8")
    for f in sorted(STATS.glob("*.gbn")):
        (folder / f.name).write_bytes(f.read_bytes())
    seen: dict[str, int] = {}

    class Counted(progress.Bar):
        def __init__(self, console: Any, what: str, total: int | None, *rest: Any,
                     **named: Any) -> None:
            super().__init__(console, what, total, *rest, **named)
            seen["total"], seen["files"] = total or 0, 0

        def next_file(self, size: int) -> None:
            seen["files"] += size
            super().next_file(size)

    monkeypatch.setattr(progress, "Bar", Counted)
    code, out, _ = _run(runner, "stats", "--rules", "get-bit", str(folder), "--json")
    assert code == 0
    assert json.loads(out)["games_included"] == 4
    assert seen["files"] == seen["total"] == sum(f.stat().st_size for f in folder.iterdir())


def test_what_stats_says_of_its_files_comes_in_the_order_they_are_given(
    runner: CliRunner, tmp_path: Path
) -> None:
    # as validate says it, and as stats --rules bite-me did (errors came after warnings)
    missing = tmp_path / "missing.gbn"
    bmn = ROOT / "fixtures" / "biteme" / "worked.bmn"
    empty = tmp_path / "empty"
    empty.mkdir()
    code, _, err = _run(runner, "stats", "--rules", "get-bit", str(missing), str(bmn),
                        str(empty), str(tmp_path / "gone.gbn"), str(STATS), "--json")
    assert code == 2
    assert err.splitlines() == [
        f"getbit stats: {missing}: no such file or folder",
        f"warning: {bmn}: no game of Get Bit! in it (--rules bite-me counts its games)",
        f"warning: no games in {empty} (no record files: .gbn, .jsonl, .ndjson)",
        f"getbit stats: {tmp_path / 'gone.gbn'}: no such file or folder",
    ]
