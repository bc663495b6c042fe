"""The read model: one row per game per swimmer (and the Shark), worked by hand."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from fold_counts import fold_rows
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from strategies import drawn_games, simulated_games

from getbit_events.events import (
    CardsDiscarded,
    CardsRevealed,
    CardsTakenBack,
    Event,
    GameStarted,
    SwimmerBitten,
    SwimmerDevoured,
    SwimmerMoved,
)
from getbit_events.simulate import simulate_game, simulate_games
from getbit_events.validate import validate_game
from importers.gbn import read_gbn, read_gbn_file, write_gbn
from store import GameStore
from store.readmodel import COLUMNS, STATUSES, game_status, iso_date, rows

GETBIT = str(Path(sys.executable).with_name("getbit"))
STATS = Path(__file__).resolve().parent.parent / "fixtures" / "stats"


def _rows(name: str, game: int = 0) -> dict[str, dict[str, Any]]:
    report = validate_game(read_gbn_file(STATS / name)[game])
    status = game_status(report.valid, report.finished)
    tags = dict(report.events[0].tags)  # type: ignore[union-attr]
    return {r["swimmer"]: r for r in rows(name, report.events, status, tags)}


def _plays(row: dict[str, Any]) -> list[int]:
    return [row[f"plays_{v}"] for v in range(1, 8)]


def test_columns_are_the_row_keys_in_order() -> None:
    row = next(iter(_rows("standard.gbn").values()))
    assert list(row) == list(COLUMNS)
    assert {"game_id", "swimmer"} <= set(COLUMNS)
    assert set(COLUMNS.values()) <= {"TEXT", "INTEGER"}


def test_standard_game_by_hand() -> None:
    r = _rows("standard.gbn")
    assert list(r) == ["Ann", "Bob", "Cid", "Dee"]  # starting-line order
    # Lines at the end of rounds 1-9 (from the record's `line` outcomes):
    #   1 Dee Cid Ann Bob | 2 Bob Cid Ann Dee | 3 Bob Dee Cid Ann | 4 Ann Dee Cid Bob
    #   5 Bob Dee Cid Ann | 6 Dee Cid Ann     | 7 Ann Dee Cid     | 8 Ann Cid Dee | 9 Dee
    ann = r["Ann"]
    assert (ann["rank"], ann["won"], ann["start_place"]) == (3, 0, 1)  # ranking Dee Cid Ann Bob
    assert (ann["bites_taken"], ann["limbs_lost"], ann["devoured"]) == (4, 4, 1)  # R4 R7 R8 R9
    assert ann["rounds_survived"] == 8  # on the line at the end of rounds 1-8
    # Ann played 3 4 2 1 3 2 1 1 1: four 1s, two 2s, two 3s, one 4
    assert _plays(ann) == [4, 2, 2, 1, 0, 0, 0]
    assert (ann["tied_plays"], ann["moved_plays"]) == (2, 7)  # ties with Bob in rounds 1 and 4
    assert (ann["rounds_front"], ann["rounds_back"]) == (3, 3)  # front 4 7 8; back 3 5 6
    assert ann["take_backs"] == 3  # after the bites of rounds 4, 7 and 8
    cid = r["Cid"]
    # R8: Cid is devoured by the two-swimmer end, never bitten: all 4 limbs go, no bite
    assert (cid["bites_taken"], cid["limbs_lost"], cid["devoured"], cid["rank"]) == (0, 4, 1, 2)
    assert cid["rounds_survived"] == 8
    assert (cid["rounds_front"], cid["rounds_back"], cid["take_backs"]) == (0, 1, 2)
    dee = r["Dee"]
    assert (dee["rank"], dee["won"], dee["rounds_survived"]) == (1, 1, 9)
    assert (dee["rounds_front"], dee["rounds_back"]) == (3, 2)  # alone at the end: front
    assert {row["end_reason"] for row in r.values()} == {"R8"}
    assert {row["date"] for row in r.values()} == {"2026-01-03"}
    assert json.loads(ann["tags"]) == {"Event": "Club night", "Date": "2026-01-03"}
    assert {row["role"] for row in r.values()} == {"swimmer"}
    assert {row["players"] for row in r.values()} == {4}


def test_two_player_rows_count_for_the_teams_player() -> None:
    r = _rows("two-player.gbn")
    assert [(s, row["name"], row["player_key"]) for s, row in r.items()] == [
        ("Red", "Nora", "nora"),
        ("Blue", "Nora", "nora"),
        ("Green", "Otto", "otto"),
        ("Yellow", "Otto", "otto"),
    ]
    # R10: Red is devoured in round 5, so Nora ranks 2 and Otto 1, on both swimmers' rows
    assert [(row["rank"], row["won"]) for row in r.values()] == [(2, 0), (2, 0), (1, 1), (1, 1)]
    assert r["Red"]["bites_taken"] == 4
    assert r["Red"]["rounds_survived"] == 4
    assert _plays(r["Red"]) == [4, 1, 0, 0, 0, 0, 0]  # 1 2 1 1 1
    assert {row["players"] for row in r.values()} == {2}


def test_three_player_automaton_is_marked() -> None:
    r = _rows("three-player.gbn")
    assert [row["role"] for row in r.values()] == ["swimmer", "swimmer", "swimmer", "automaton"]
    assert r["ANN"]["name"] == "ANN"
    assert r["ANN"]["player_key"] == "ann"
    assert (r["Dee"]["won"], r["Dee"]["rank"]) == (1, 1)  # R9: the automaton can win
    assert {row["players"] for row in r.values()} == {3}


def test_shark_row_by_hand() -> None:
    r = _rows("shark.gbn")
    jaws = r["Jaws"]
    assert (jaws["role"], jaws["start_place"], jaws["rank"], jaws["won"]) == ("shark", None, 5, 0)
    # rounds 2-8: exhaustion (miss), right-leg (Dee), exhaustion (miss), exhaustion (Bob and
    # Cid tie on 1: a hit, not a miss), any-limb (no tie: miss), right-arm (Annie),
    # exhaustion (miss, the fourth: hunger 0, R14)
    assert (jaws["shark_cards"], jaws["shark_bites"], jaws["shark_exhaustions"]) == (7, 2, 1)
    assert (jaws["shark_misses"], jaws["hunger_left"]) == (4, 0)
    assert (r["Bob"]["discarded"], r["Cid"]["discarded"], r["Dee"]["discarded"]) == (1, 1, 0)
    assert r["Bob"]["won"] == 1  # R14: most limbs, nearest the front
    assert {row["hunger_left"] for s, row in r.items() if s != "Jaws"} == {None}
    assert r["Annie"]["bites_taken"] == 1
    assert r["Annie"]["take_backs"] == 2  # R7 in round 4, the bite in round 7


def test_unfinished_game_has_no_result() -> None:
    r = _rows("left-out.gbn", 0)
    assert {row["status"] for row in r.values()} == {"unfinished"}
    assert {(row["rank"], row["won"], row["winner"]) for row in r.values()} == {(None, None, None)}
    assert r["Ann"]["rounds_survived"] == 2


@pytest.mark.parametrize(
    ("text", "iso"),
    [
        ("2026-11-20", "2026-11-20"),
        ("2026.11.20", "2026-11-20"),
        (" 2026/1/2 ", "2026-01-02"),
        ("2026.??.??", None),
        ("2026-13-01", None),
        ("last Friday", None),
        (None, None),
    ],
)
def test_dates(text: str | None, iso: str | None) -> None:
    assert iso_date(text) == iso


def test_bad_input_is_a_value_error() -> None:
    events = simulate_game("standard", 4, 1)
    with pytest.raises(ValueError, match="status"):
        rows("g", events, "done", {})
    with pytest.raises(ValueError, match="game-started"):
        rows("g", events[1:], "valid", {})
    assert game_status(True, True) == "valid"
    assert game_status(True, False) == "unfinished"
    assert game_status(False, True) == "invalid"
    assert set(STATUSES) == {"valid", "unfinished", "invalid"}


def _games() -> list[tuple[str, list[Event]]]:
    variants = [
        ("standard", 4), ("standard", 5), ("standard", 6), ("three-player", 4),
        ("two-player", 4), ("shark", 4), ("shark", 5), ("shark", 6),
    ]
    games = []
    for k in range(240):
        variant, n = variants[k % len(variants)]
        events = simulate_game(variant, n, k, "sensible" if k % 2 else "random", k % 5 == 0)
        games.append((f"g{k}", events))
    return games


def test_rows_agree_with_a_fold_over_the_states() -> None:
    """readmodel scans events; tests/fold_counts.py replays states: both must say the same."""
    for game_id, events in _games():
        tags = {"Date": "2026-02-03"}
        assert rows(game_id, events, "valid", tags) == fold_rows(game_id, events, "valid", tags)
        half = events[-1].round // 2
        cut = [e for e in events if e.round <= half]  # an unfinished record: whole rounds
        assert rows(game_id, cut, "unfinished", {}) == fold_rows(game_id, cut, "unfinished", {})


@settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(st.one_of(simulated_games(), drawn_games()), st.integers(0, 40))
def test_rows_and_fold_agree_on_any_legal_game(events: list[Event], stop: int) -> None:
    """Games drawn card by card from the rules (they shrink to short ones), cut anywhere
    between rounds: the read model and the fold still agree, and the counts add up."""
    cut = [e for e in events if e.round <= stop]
    done = cut == events
    status = "valid" if done else "unfinished"
    got = rows("g", cut, status, {})
    assert got == fold_rows("g", cut, status, {})
    swimmers = [r for r in got if r["role"] != "shark"]
    rounds = got[0]["rounds"]
    # every round ends with one swimmer at the front; at the back unless one is left
    assert sum(r["rounds_front"] for r in swimmers) == rounds
    assert sum(r["rounds_back"] for r in swimmers) in (rounds, rounds - 1)
    for r in swimmers:
        plays = sum(r[f"plays_{v}"] for v in range(1, 8))
        assert r["tied_plays"] + r["moved_plays"] == plays
        assert plays + r["blank_plays"] >= r["rounds_survived"]
        assert r["bites_taken"] <= r["limbs_lost"] <= 4
    if done:
        assert [r["won"] for r in got].count(1) >= 1  # someone won: a swimmer, team or Shark


# -- records the validator reports but still turns into events ---------------------


@pytest.mark.parametrize("card", ["99", "20", "0"])
def test_a_card_no_hand_holds_is_counted_by_nobody(card: str) -> None:
    """A card of 20 or more (or 0) is a violation the validator reports
    and still plays: its row counts the round but no plays_N column (there is none)."""
    text = f'[Line "John, Anne, Beth, Ted"]\n\n1. John 4, Anne 1, Beth 4, Ted {card}\n'
    report = validate_game(read_gbn(text)[0])
    assert [v.code for v in report.violations] == ["card-not-in-hand"]
    got = {r["swimmer"]: r for r in rows("g", report.events, "invalid", {})}
    assert _plays(got["Ted"]) == [0] * 7
    assert got["Ted"]["rounds_survived"] == 1
    assert _plays(got["John"]) == [0, 0, 0, 1, 0, 0, 0]
    assert got["John"]["tied_plays"] == got["Beth"]["tied_plays"] == 1  # R4: 4 ties with 4


def test_events_naming_no_swimmer_of_the_line_count_for_nobody() -> None:
    """A stream whose facts name someone not in its line, or cards no hand holds (a
    damaged log), gives rows for the line, never a KeyError or an IndexError."""
    events = simulate_game("standard", 4, 3)
    setup = events[0]
    assert isinstance(setup, GameStarted)
    ghost = "Ghost"
    odd: list[Event] = [
        setup,
        CardsRevealed(1, (*((s, 1) for s in setup.line), (ghost, 2))),
        CardsRevealed(2, ((setup.line[0], 10**30), (setup.line[1], -1), (setup.line[2], 8))),
        SwimmerMoved(1, ghost, "card"),
        SwimmerBitten(1, ghost, "left-leg"),
        CardsTakenBack(1, ghost, (2,)),
        SwimmerDevoured(1, ghost, "bitten"),
        CardsDiscarded(1, ((ghost, 2),)),
    ]
    got = rows("g", odd, "invalid", {})
    assert [r["swimmer"] for r in got] == list(setup.line)
    assert [r["tied_plays"] for r in got] == [1, 1, 1, 1]
    assert [r["plays_1"] for r in got] == [1, 1, 1, 1]
    assert sum(r[f"plays_{v}"] for r in got for v in range(2, 8)) == 0
    assert sum(r["bites_taken"] + r["devoured"] + r["take_backs"] for r in got) == 0


def test_import_of_a_card_of_99_stores_the_game(tmp_path: Path) -> None:
    """The issue's reproduction: `getbit import` of a card of 99 crashed the read model
    (IndexError) and lost the whole batch, good games too; now the game is stored, as
    invalid, and the good games beside it are stored."""
    record = tmp_path / "g.gbn"
    bad = '[Line "John, Anne, Beth, Ted"]\n\n1. John 4, Anne 1, Beth 4, Ted 99\n\n'
    good = [write_gbn([game]) for game in simulate_games(4, "standard", 4, 5, "random")]
    record.write_text("\n".join([bad, *good[:2], bad, *good[2:]]), encoding="utf-8")
    db = tmp_path / "p.db"
    done = subprocess.run(
        [GETBIT, "import", "--db", str(db), str(record)], capture_output=True, text=True
    )
    assert "Traceback" not in done.stderr
    assert done.returncode == 1, done.stderr  # stored, and it breaks a rule
    with GameStore(db) as store:
        statuses = [r["status"] for r in store.swimmer_rows()]
    assert sorted(statuses) == ["invalid"] * 4 + ["valid"] * 16  # one card of 99 stored once
