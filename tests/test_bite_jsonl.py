"""JSON Lines logs of "Come on! Bite me!" (``importers.bite_jsonl`` and the ``bm-``
events of ``importers.wire``): written and read back to the same events and the
same verdict as BMN, strict on what a line holds, a bad line spoiling only its
game, and the commands reading them as they read BMN."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from biteme.events import Attacked, BiteEvent, Passed, Retreated
from biteme.simulate import simulate_bite
from biteme.validate import validate_bite
from getbit_events.errors import InputError
from importers.bite_jsonl import is_bite, read_bite_jsonl, write_bite_jsonl
from importers.bmn import iter_bmn_file
from importers.bmn_write import game_bmn
from importers.wire import bite_event_from_wire, bite_event_to_wire

ROOT = Path(__file__).resolve().parent.parent
WORKED = ROOT / "fixtures" / "biteme" / "worked.bmn"
MISTAKES = ROOT / "fixtures" / "biteme-invalid" / "mistakes.bmn"


def _bare(events: Any) -> list[BiteEvent]:
    return [attrs.evolve(e, pos=None) for e in events]


def _log(events: list[BiteEvent], game: str = "g1") -> str:
    return "".join(write_bite_jsonl([(game, events)]))


@settings(max_examples=20, deadline=None)
@given(players=st.integers(3, 10), seed=st.integers(0, 10_000))
def test_a_simulated_game_reads_back_as_it_was_written(players: int, seed: int) -> None:
    events = simulate_bite(players, seed)
    (record,) = read_bite_jsonl(_log(events), "sim.jsonl")
    report = validate_bite(record)
    assert report.valid, report.violations
    assert _bare(report.events) == _bare(events)


@pytest.mark.parametrize("path", [WORKED, MISTAKES], ids=lambda p: p.name)
def test_a_log_gets_the_verdict_its_bmn_record_gets(path: Path) -> None:
    (record,) = iter_bmn_file(path)
    bmn = validate_bite(record)
    (logged,) = read_bite_jsonl(_log(list(bmn.events)), "game.jsonl")
    again = validate_bite(logged)
    # the events are the record's, mistakes included (a turn numbered out of
    # sequence too: its action keeps the number written); the verdict is derived again
    assert _bare(again.events) == _bare(bmn.events)
    assert [(v.code, v.round, v.message) for v in again.violations] == [
        (v.code, v.round, v.message) for v in bmn.violations
    ]
    assert again.to_json()["final"] == bmn.to_json()["final"]


def test_a_misnumbered_turn_keeps_its_number_in_a_log_and_nowhere_else() -> None:
    (record,) = iter_bmn_file(MISTAKES)  # turn 4 is numbered 5
    events = validate_bite(record).events
    numbered = {e.turn: e.number for e in events if isinstance(e, Attacked | Retreated | Passed)}
    assert numbered == {1: None, 2: None, 3: None, 4: 5, 5: None}
    lines = [json.loads(line) for line in _log(list(events)).splitlines()]
    assert [(w["turn"], w["number"]) for w in lines if "number" in w] == [(4, 5)]
    (logged,) = read_bite_jsonl(_log(list(events)), "m.jsonl")
    (turn_number,) = (v for v in validate_bite(logged).violations if v.code == "turn-number")
    assert (turn_number.round, turn_number.message) == (4, "this is turn 4, but it is numbered 5")
    assert "\n5. Dee retreats Meerkat ; Dee draws Panda\n" in game_bmn(events)


def test_a_log_written_before_number_still_reads() -> None:
    # logs written before ``number`` existed have none: each turn is numbered by ``turn``
    wire = bite_event_to_wire(Retreated(4, "Dee", "Meerkat"), "g", 7)
    assert "number" not in wire
    assert bite_event_from_wire(wire) == Retreated(4, "Dee", "Meerkat")
    assert bite_event_from_wire(wire | {"number": 5}) == Retreated(4, "Dee", "Meerkat", None, 5)
    with pytest.raises(InputError, match="number: expected a whole number, not text"):
        bite_event_from_wire(wire | {"number": "5"})


def test_a_violation_is_reported_at_its_line() -> None:
    (record,) = iter_bmn_file(MISTAKES)
    text = _log(list(validate_bite(record).events))
    (logged,) = read_bite_jsonl(text, "m.jsonl")
    first = validate_bite(logged).violations[0]
    lines = text.splitlines()
    assert first.code == "wrong-pick"
    assert json.loads(lines[first.pos.line - 1])["type"] == "bm-draw"  # Bob draws, not picks
    assert str(first).startswith(f"m.jsonl:{first.pos.line}:1: turn 1: ")


def _attack() -> Attacked:
    return next(e for e in simulate_bite(3, 1) if isinstance(e, Attacked))


def test_a_wire_line_reads_as_documented() -> None:
    wire = bite_event_to_wire(Attacked(7, "Ann", "Tiger", "Bob", "Lion", (("Cid", "Fox"),)), "g", 9)
    assert json.dumps(wire, separators=(",", ":")) == (
        '{"type":"bm-attack","v":1,"game":"g","seq":9,"turn":7,"who":"Ann","card":"Tiger",'
        '"defender":"Bob","defender_card":"Lion","joined":[["Cid","Fox"]]}'
    )
    assert bite_event_from_wire(wire) == Attacked(
        7, "Ann", "Tiger", "Bob", "Lion", (("Cid", "Fox"),)
    )


@pytest.mark.parametrize(
    ("change", "said"),
    [
        ({"turn": "1"}, "bm-attack: turn: expected a whole number, not text"),
        ({"type": "swimmer-bitten"}, "swimmer-bitten is an event of Get Bit!"),
        ({"type": "bm-bite"}, "unknown event type 'bm-bite'"),
        ({"v": 2}, "bm-attack: version 2 is not known"),
        ({"colour": "red"}, "unknown field(s) colour"),
    ],
)
def test_a_line_is_read_strictly(change: dict[str, Any], said: str) -> None:
    wire = bite_event_to_wire(_attack(), "g", 2) | change
    with pytest.raises(InputError, match=said.replace("(", r"\(").replace(")", r"\)")):
        bite_event_from_wire(wire)


def test_a_bad_line_spoils_only_its_game() -> None:
    first, second = simulate_bite(3, 1), simulate_bite(4, 2)
    lines = _log(first, "a").splitlines(keepends=True)
    lines[3] = '{"type": "bm-claim", "v": 1, "game": "a", "seq": 4, \n'  # cut off
    text = "".join(lines) + _log(second, "b")
    a, b = read_bite_jsonl(text, "two.jsonl")
    assert [v.code for v in a.syntax_errors] == ["syntax"]
    assert a.syntax_errors[0].pos.line == 4
    assert validate_bite(b).valid


@pytest.mark.parametrize(
    ("edit", "said"),
    [
        (lambda w: w[1:], "a game begins with bm-game-started, not bm-attack"),
        (lambda w: [w[0], w[2], w[1], *w[3:]], "'seq' is 3, but this is event 2 of its game"),
        (
            lambda w: [w[0] | {"seats": ["Ann,Bob", "Cid", "Dee"]}, *w[1:]],
            "'Ann,Bob' cannot be a player's name",
        ),
        (
            lambda w: [w[0] | {"tags": [["Event", "two\nlines"]]}, *w[1:]],
            "bm-game-started: the value of the tag Event holds a line break",
        ),
        (
            lambda w: [w[0] | {"tags": [["Our event", "x"]]}, *w[1:]],
            "bm-game-started: 'Our event' is not a tag's name",
        ),
    ],
)
def test_a_log_that_cannot_be_a_game_says_why(edit: Any, said: str) -> None:
    wires = [bite_event_to_wire(e, "g", k) for k, e in enumerate(simulate_bite(3, 5), 1)]
    text = "".join(json.dumps(w) + "\n" for w in edit(wires))
    (record,) = read_bite_jsonl(text, "bad.jsonl")
    assert any(said in v.message for v in record.syntax_errors), record.syntax_errors


def getbit(*args: str | Path) -> subprocess.CompletedProcess[str]:
    script = Path(sys.executable).with_name("getbit")
    return subprocess.run(
        [str(script), *map(str, args)], capture_output=True, text=True, check=False, cwd=ROOT
    )


def test_simulate_writes_a_log_the_commands_read(tmp_path: Path) -> None:
    log = tmp_path / "sim.jsonl"
    done = getbit("simulate", "--rules", "bite-me", "--players", "4", "--games", "2",
                  "--seed", "7", "--format", "jsonl", "-o", log)
    assert done.returncode == 0, done.stderr
    assert is_bite(log)
    assert not is_bite(ROOT / "fixtures" / "stores" / "main.export.jsonl")  # Get Bit!'s
    bmn = tmp_path / "sim.bmn"
    getbit("simulate", "--rules", "bite-me", "--players", "4", "--games", "2", "--seed", "7",
           "-o", bmn)
    from_log = getbit("validate", "--json", log)
    from_bmn = getbit("validate", "--json", bmn)
    assert from_log.returncode == from_bmn.returncode == 0
    drop = ("source", "line")
    assert [{k: v for k, v in json.loads(x).items() if k not in drop}
            for x in from_log.stdout.splitlines()] == [
        {k: v for k, v in json.loads(x).items() if k not in drop}
        for x in from_bmn.stdout.splitlines()
    ]
    assert "Turn 1: Ann" in getbit("replay", log, "--game", "2", "--round", "1").stdout
    stats = json.loads(getbit("stats", "--json", log).stdout)
    assert stats["games_included"] == 2
    assert stats == json.loads(getbit("stats", "--json", bmn).stdout)


def test_import_stores_a_record_and_a_log_of_this_game(tmp_path: Path) -> None:
    db = tmp_path / "g.db"
    done = getbit("import", "--db", db, WORKED)
    assert done.returncode == 0, done.stderr
    assert done.stdout == "1 stored, 0 already stored, 0 stored as invalid, 0 unreadable\n"
    log = tmp_path / "sim.jsonl"
    log.write_text(_log(simulate_bite(3, 2)), encoding="utf-8")
    done = getbit("import", "--db", db, log)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("1 stored, 0 already stored")
    listed = getbit("games", "--db", db, "--rules", "bite-me", "--json").stdout
    assert [json.loads(line)["game"] for line in listed.splitlines()] == ["bite-me"] * 2


def test_a_game_stored_with_a_tag_its_reader_refuses_is_not_written() -> None:
    """Export leaves it out, saying why (store.bite_cli), rather than write a log
    that its own reader refuses."""
    game = simulate_bite(3, 1)
    bad = [attrs.evolve(game[0], tags=(("Event", "two\nlines"),)), *game[1:]]
    with pytest.raises(InputError, match="game g cannot be written as JSON Lines, which would "
                       "refuse it: the value of the tag Event holds a line break"):
        list(write_bite_jsonl([("g", bad)]))
    assert list(write_bite_jsonl([("g", game)]))  # the game as played is
