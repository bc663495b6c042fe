"""``getbit replay``: what a user sees for good games, bad games and bad input."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from regen_golden import ROOT
from typer.testing import CliRunner

from cli import app

FRIDAY = str(ROOT / "fixtures/games/friday-club.gbn")
INVALID = str(ROOT / "fixtures/golden/replay/inputs/invalid.gbn")
runner = CliRunner()


def _run(*args: str, env: dict[str, str] | None = None) -> tuple[int, str, str]:
    result = runner.invoke(app, ["replay", *args], env=env)
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result.exit_code, result.stdout, result.stderr


def test_a_game_round_by_round() -> None:
    code, out, _ = _run(FRIDAY)
    assert code == 0
    assert "Round 1" in out
    assert "Round 3" in out
    assert "  ties      John and Beth on 4: they stay (R4)" in out
    assert "Result: unfinished after round 3." in out


def test_one_round_as_one_swimmer() -> None:
    code, out, _ = _run(
        str(ROOT / "fixtures/games/sim-standard-4.gbn"),
        "--game",
        "2",
        "--round",
        "3",
        "--as",
        "cid",
    )
    assert code == 0
    assert "seen: as swimmer Cid" in out
    assert "Round 3" in out
    assert "Round 2" not in out
    assert "hands     Ann (5 cards) │ Cid 3 4 │ Bob (4 cards) │ Dee (2 cards)" in out


def test_an_invalid_game_replays_with_each_violation_at_its_round() -> None:
    code, out, _ = _run(INVALID)
    assert code == 1
    round2 = out.index("Round 2")
    round3 = out.index("Round 3")
    bite = out.index("John is recorded bitten, but Ted is at the back after movement")
    assert round2 < bite < round3
    assert "invalid.gbn:7:36: round 2:" in out
    assert "4 violations in this record." in out


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("nowhere.gbn",), "nowhere.gbn: no such file"),
        ((FRIDAY, "--game", "4"), "friday-club.gbn: holds 1 game; there is no game 4"),
        ((FRIDAY, "--round", "8"), "there is no round 8: this game runs from round 1 to 3"),
        ((FRIDAY, "--as", "Zed"), "nobody called 'Zed' plays in this game"),
        ((FRIDAY, "--game", "1", "--id", "x"), "give --game or --id, not both"),
        ((FRIDAY, "--id", "g7"), "no game has the id 'g7'"),
    ],
)
def test_bad_input_is_a_message_not_a_traceback(args: tuple[str, ...], message: str) -> None:
    code, out, err = _run(*args)
    assert code == 2
    assert message in err.replace("\n", " ")
    assert "Traceback" not in out + err


def test_a_stored_id_without_a_store_says_where_it_looked(tmp_path: Path) -> None:
    db = tmp_path / "none.db"
    code, _, err = _run("g1", env={"GETBIT_DB": str(db)})
    assert code == 2
    assert f"g1: no such file, and no game store at {db}" in err.replace("\n", "")


def test_a_broken_record_cannot_be_replayed(tmp_path: Path) -> None:
    bad = tmp_path / "bad.gbn"
    bad.write_text('[Line "A, B"]\n\n1. A 1, B 2\n', encoding="utf-8")
    code, _, err = _run(str(bad))
    assert code == 1
    assert "cannot be replayed" in err
    assert "standard is played by 4 to 6 swimmers, not 2" in err


def test_html_writes_one_page(tmp_path: Path) -> None:
    page = tmp_path / "game.html"
    code, out, err = _run(FRIDAY, "--html", str(page), "--as", "table")
    assert code == 0
    assert out == ""
    assert "wrote" in err
    assert "30 steps" in err
    text = page.read_text(encoding="utf-8")
    assert text.startswith("<!DOCTYPE html>")
    assert "the table (public)" in text


def test_step_without_a_terminal_prints_the_game() -> None:
    code, out, _ = _run(FRIDAY, "--step")
    assert code == 0
    assert "Round 3" in out


def test_a_stored_game(tmp_path: Path) -> None:
    store = pytest.importorskip("store", reason="the game store is not built")
    from getbit_events.validate import validate_game
    from importers import read_file

    db = tmp_path / "games.db"
    with store.GameStore(db) as games:
        game_id = games.add(validate_game(read_file(INVALID)[0])).game_id
    code, out, _ = _run(game_id[:6], "--db", str(db))  # the start of an id will do
    assert code == 1, out
    assert "Round 3" in out
    assert "round 2: John is recorded bitten, but Ted is at the back" in out
    code, out, _ = _run(str(db), "--id", game_id, "--round", "1")
    assert code == 1
    assert f"stored game {game_id} (games.db)" in out
    code, _, err = _run("nope", "--db", str(db))
    assert code == 2
    assert "no game 'nope'" in err


def test_json_lines_and_csv_sources(tmp_path: Path) -> None:
    from getbit_events.simulate import simulate_game
    from importers.jsonl import write_jsonl

    log = tmp_path / "games.jsonl"
    games = [("g1", simulate_game("standard", 4, 1)), ("g2", simulate_game("shark", 5, 2))]
    log.write_text("".join(write_jsonl(games)), encoding="utf-8")
    code, out, _ = _run(str(log), "--game", "2", "--as", "Jaws")
    assert code == 0
    assert "A game against the Shark: 5 swimmers" in out
    assert "seen: as shark Jaws" in out
    sheet = tmp_path / "sheet.csv"
    sheet.write_text(
        "# Event: Friday club\nround,John,Anne,Beth,Ted\n1,4,1,4,5\n2,3,2,5,1\n3,5,3,3,2\n",
        encoding="utf-8",
    )
    code, out, _ = _run(str(sheet))
    assert code == 0
    assert "  ties      Beth and Anne on 3: they stay (R4)" in out


@pytest.mark.parametrize("control", ["\x07", "\x08"])
def test_a_control_character_in_a_name_is_shown_not_dropped(
    tmp_path: Path, control: str
) -> None:
    """rich drops a BEL or a backspace from its text; the replay shows
    each as its escape, as every other command does, in either game and any view."""
    gbn = tmp_path / "odd.gbn"
    gbn.write_text(f'[Line "A{control}nn, Bob, Cid, Dee"]\n\n1. A{control}nn 1, Bob 2, Cid 3, '
                   "Dee 4\n", encoding="utf-8")
    escaped = control.encode("unicode_escape").decode()
    for args in ([], ["--as", f"A{control}nn"], ["--round", "1"]):
        code, out, _ = _run(str(gbn), *args)
        assert code == 0
        assert control not in out
        assert f"A{escaped}nn 1" in out
    worked = (ROOT / "fixtures" / "biteme" / "worked.bmn").read_text(encoding="utf-8")
    bmn = tmp_path / "odd.bmn"
    bmn.write_text(worked.replace("Ann", f"A{control}nn"), encoding="utf-8")
    for args in ([], ["--as", f"A{control}nn"]):
        code, out, _ = _run(str(bmn), *args)
        assert code == 0
        assert control not in out
        assert f"dealt A{escaped}nn Tiger" in out


def _fed(args: list[str], text: str) -> tuple[int, str, str]:
    """``getbit ARGS`` as a shell runs it, ``text`` piped to its standard input (a pipe:
    read once, so only a copy of it can be opened again)."""
    done = subprocess.run(
        [str(Path(sys.executable).with_name("getbit")), *args], input=text,
        capture_output=True, text=True, encoding="utf-8", cwd=ROOT, timeout=120,
    )
    return done.returncode, done.stdout, done.stderr


def test_a_game_piped_in_is_replayed_and_reported_as_from_its_file(tmp_path: Path) -> None:
    # replay and report read one game piped in (-, a pipe by name) as validate does
    # (they used to say "-: no such file, and no game store" or "/dev/fd/63: no such file")
    text = Path(FRIDAY).read_text(encoding="utf-8")
    _, as_file, _ = _run(FRIDAY, "--round", "2")
    code, piped, err = _fed(["replay", "--format", "gbn", "-", "--round", "2"], text)
    assert (code, err) == (0, "")
    assert piped.replace("- game 1", "friday-club.gbn game 1", 1) == as_file
    code, report, err = _fed(["report", "--format", "gbn", "--json", "-"], text)
    assert (code, err) == (0, "")
    from_file = runner.invoke(app, ["report", "--json", FRIDAY]).stdout
    assert report.replace('"-#1"', f'"{FRIDAY}#1"') == from_file
    fifo = tmp_path / "game.fifo"
    os.mkfifo(fifo)
    writer = subprocess.Popen(["sh", "-c", f"cat '{FRIDAY}' > '{fifo}'"])
    code, by_name, err = _fed(["replay", "--format", "gbn", str(fifo), "--round", "2"], "")
    writer.wait(timeout=60)
    assert (code, err) == (0, "")
    assert by_name.replace("game.fifo game 1", "friday-club.gbn game 1", 1) == as_file


def test_a_log_of_come_on_bite_me_piped_in_is_replayed_as_one(tmp_path: Path) -> None:
    code, log, _ = _fed(["simulate", "--rules", "bite-me", "--games", "2", "--format", "jsonl"], "")
    assert code == 0
    saved = tmp_path / "bite.jsonl"
    saved.write_text(log, encoding="utf-8")
    _, as_file, _ = _run(str(saved), "--game", "2", "--round", "3")
    piped_in = ["replay", "--format", "jsonl", "-", "--game", "2", "--round", "3"]
    code, piped, err = _fed(piped_in, log)
    assert (code, err) == (0, "")
    assert piped.replace("- game 2", "bite.jsonl game 2", 1) == as_file


@pytest.mark.parametrize("command", ["replay", "report"])
def test_a_game_piped_in_needs_its_format_and_standard_input_open(command: str) -> None:
    text = Path(FRIDAY).read_text(encoding="utf-8")
    assert _fed([command, "-"], text) == (
        2,
        "",
        (
            f"getbit {command}: -: standard input has no file ending to tell its format by "
            "(validate, import, replay and report take --format gbn|jsonl|csv)\n"
        ),
    )
    closed = subprocess.run(
        [str(Path(sys.executable).with_name("getbit")), command, "--format", "gbn", "-"],
        capture_output=True, text=True, timeout=120, preexec_fn=lambda: os.close(0),
    )
    assert (closed.returncode, closed.stderr) == (
        2, f"getbit {command}: -: standard input is closed: there is nothing to read\n"
    )


def test_a_page_written_over_the_record_redirected_to_standard_input_is_refused(
    tmp_path: Path,
) -> None:
    """``replay --format gbn - --html g.gbn < g.gbn`` replaced the record with the page."""
    record = tmp_path / "g.gbn"
    record.write_bytes(Path(FRIDAY).read_bytes())
    with record.open("rb") as stdin:
        done = subprocess.run(
            [str(Path(sys.executable).with_name("getbit")), "replay", "--format", "gbn", "-",
             "--html", str(record)],
            stdin=stdin, capture_output=True, text=True, timeout=120,
        )
    assert (done.returncode, done.stderr) == (
        2,
        (
            f"getbit replay: {record}: that is standard input (-), which this command reads; "
            "write to another file (nothing was written)\n"
        ),
    )
    assert record.read_bytes() == Path(FRIDAY).read_bytes()


def test_a_page_to_standard_output(tmp_path: Path) -> None:
    # --html - writes the page to stdout, as stats --html - does (it made a file named -)
    code, out, err = _fed(["replay", FRIDAY, "--html", "-"], "")
    assert (code, err) == (0, "")
    assert out.startswith("<!DOCTYPE html>")
    assert out.rstrip().endswith("</html>")
    bmn = str(ROOT / "fixtures/biteme/worked.bmn")
    code, out, err = _fed(["replay", bmn, "--html", "-"], "")
    assert (code, err) == (0, "")
    assert out.startswith("<!DOCTYPE html>")
    assert not (ROOT / "-").exists()


def test_report_refuses_a_record_of_come_on_bite_me_by_name_or_piped() -> None:
    # a piped BMN record was read as GBN (a syntax error, exit 1); a log, exit 1
    _, log, _ = _fed(["simulate", "--rules", "bite-me", "--games", "1", "--format", "jsonl"], "")
    bmn = ROOT / "fixtures/biteme/worked.bmn"
    for args, text, name, what in (
        ([str(bmn)], "", str(bmn), "(BMN)"),
        (["--format", "gbn", "-"], bmn.read_text(encoding="utf-8"), "-", "(BMN)"),
        (["--format", "jsonl", "-"], log, "-", "(a log of its events)"),
    ):
        assert _fed(["report", *args], text) == (
            2,
            "",
            (
                f"getbit report: {name}: a record of Come on! Bite me! {what}: validate, "
                "import, replay and stats read it; report does not yet\n"
            ),
        )


@pytest.mark.parametrize("command", ["replay", "report"])
def test_options_that_read_a_file_are_refused_for_a_stored_game(
    tmp_path: Path, command: str
) -> None:
    # they were left aside without a word
    from getbit_events.validate import validate_game
    from importers import read_file
    from store import GameStore

    db = tmp_path / "games.db"
    with GameStore(db) as games:
        game_id = games.add(validate_game(read_file(FRIDAY)[0])).game_id
    for args, said in (
        ([game_id, "--db", str(db), "--format", "gbn"], "--format goes"),
        ([str(db), "--id", game_id, "--encoding", "latin-1"], "--encoding goes"),
        ([game_id, "--db", str(db), "--format", "jsonl", "--encoding", "utf-8"],
         "--format, --encoding go"),
        ([game_id, "--db", str(db), "--game", "5"], "--game goes"),  # it was left aside
    ):
        result = runner.invoke(app, [command, *args])
        text = "with a record file (a stored game is read from the store, as text, by its id)"
        assert (result.exit_code, result.stderr) == (2, f"getbit {command}: {said} {text}\n")
    assert runner.invoke(app, [command, game_id, "--db", str(db)]).exit_code == 0
