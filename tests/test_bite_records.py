"""Records of "Come on! Bite me!" kept as recorded (issue 16, docs/biteme.md "Kept
as recorded"): what a record says that the fold cannot apply is kept as a fact
(``bm-turn-stated``, ``bm-step-stated``, ``bm-result-stated``), so that its BMN
and its log, written back from the events, get the verdict the record got, and a
stored game's export imports as the same game."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from biteme import rules
from biteme.events import BiteEvent, ResultStated, StepStated, TurnStated
from biteme.fold import fold
from biteme.simulate import simulate_bite
from biteme.validate import BiteReport, validate_bite
from biteme.views import HIDDEN, view_of
from cli import app
from getbit_events.events import SourcePos
from importers.bite_jsonl import iter_bite_file, read_bite_jsonl, write_bite_jsonl
from importers.bmn import read_bmn
from importers.bmn_write import game_bmn
from replay.bite import BiteCursor, bite_text
from store.bite import prepare_bite

ROOT = Path(__file__).resolve().parent.parent
MISTAKES = (ROOT / "fixtures" / "biteme-invalid" / "mistakes.bmn").read_text(encoding="utf-8")
#: the issue's record: a card and a player the game does not have, beside other mistakes
UNKNOWN = MISTAKES.replace("5. Bob passes", "5. Zed passes").replace(
    "2. Bob Lion attacks Ann Tiger", "2. Bob Lion attacks Ann Zebra"
)
UNKNOWN_FOUND = [
    (1, "wrong-pick"),
    (2, "unknown-card"),
    (3, "wrong-take"),
    (4, "turn-number"),
    (5, "unknown-player"),
]


def _found(report: BiteReport) -> list[tuple[int, str, str]]:
    """The violations (turn, code, message), in an order a log's positions keep."""
    return sorted((v.round or 0, v.code, v.message) for v in report.violations)


def _check(text: str) -> BiteReport:
    return validate_bite(read_bmn(text, "r.bmn")[0])


def _round_trips(report: BiteReport) -> None:
    """``report``'s events, written as BMN and as a log, read back to its verdict and id."""
    digest = prepare_bite(report).digest
    back = _check(game_bmn(report.events))
    log = read_bite_jsonl("".join(write_bite_jsonl([("g", report.events)])), "r.jsonl")[0]
    again = validate_bite(log)
    for other in (back, again):
        assert _found(other) == _found(report)
        assert prepare_bite(other).digest == digest


def _stated(report: BiteReport) -> list[BiteEvent]:
    return [e for e in report.events if isinstance(e, TurnStated | StepStated | ResultStated)]


# -- one example a kind -----------------------------------------------------------


def test_the_issues_record_keeps_its_unknown_card_and_player() -> None:
    report = _check(UNKNOWN)
    assert [(v.round, v.code) for v in report.violations] == UNKNOWN_FOUND
    assert _stated(report) == [
        TurnStated(2, "Bob", "attack", "Lion", "Ann", "Zebra", (), SourcePos("r.bmn", 9, 1)),
        TurnStated(5, "Zed", "pass", pos=SourcePos("r.bmn", 12, 1)),
    ]
    _round_trips(report)
    assert "2. Bob Lion attacks Ann Zebra ; Bob claims Ann Tiger" in game_bmn(report.events)
    assert "5. Zed passes" in game_bmn(report.events)


@pytest.mark.parametrize(
    ("old", "new", "code"),
    [
        ("Ann claims Bob Mosquito", "Ann claims Zed Mosquito", "unknown-player"),
        ("Bob draws Lion", "Bob draws Zebra", "unknown-card"),
        ("Ann draws Rabbit", "Zed draws Rabbit", "unknown-player"),
        ("Cid takes Bob Tiger", "Cid takes Bob Unicorn", "unknown-card"),
    ],
)
def test_a_step_naming_what_the_game_lacks_is_kept_in_its_place(
    old: str, new: str, code: str
) -> None:
    report = _check(MISTAKES.replace(old, new))
    assert code in {v.code for v in report.violations}
    (step,) = _stated(report)
    assert isinstance(step, StepStated)
    assert new in game_bmn(report.events)
    _round_trips(report)


def test_a_retreat_and_a_join_forces_naming_what_the_game_lacks_are_kept() -> None:
    text = MISTAKES.replace("3. Cid retreats Monkey", "3. Cid retreats Dragon").replace(
        "1. Ann Tiger attacks", "1. Ann Tiger, Zed Lion attack"
    )
    report = _check(text)
    kept = [e for e in _stated(report) if isinstance(e, TurnStated)]
    assert [(e.turn, e.action) for e in kept] == [(1, "attack"), (3, "retreat")]
    assert kept[0].joined == (("Zed", "Lion"),)
    _round_trips(report)


def test_a_wrong_winner_and_scores_are_kept_as_the_record_claims_them() -> None:
    game = simulate_bite(3, 5)
    text = game_bmn(game).replace('[Winner "', '[Winner "Cid, ').replace("Ann=", "Ann=9")
    report = _check(text)
    assert {"wrong-winner", "wrong-score"} <= {v.code for v in report.violations}
    (result,) = _stated(report)
    assert isinstance(result, ResultStated)
    assert result.winner is not None
    assert result.winner.startswith("Cid, ")
    _round_trips(report)


def test_a_valid_game_has_no_fact_kept_as_recorded() -> None:
    for seed in range(20):
        report = _check(game_bmn(simulate_bite(3 + seed % 4, seed)))
        assert report.valid
        assert _stated(report) == []


#: the fixtures' ids in the store, as they were before these events existed
FIXTURE_IDS = {
    ("biteme-invalid/mistakes.bmn", 1): "259cd3388929",
    ("biteme-stats/left-out.bmn", 1): "159359be3674",
    ("biteme-stats/left-out.bmn", 2): "ece4589d66e1",
    ("biteme-stats/shared.bmn", 1): "66cb84b16b98",
    ("biteme/sim-3.bmn", 1): "458ef482d0b1",
    ("biteme/sim-3.bmn", 2): "c2c20cad0e40",
    ("biteme/sim-6.bmn", 1): "b6eadefa9f3d",
    ("biteme/worked.bmn", 1): "fb00f69d9e73",
}


def test_the_fixtures_keep_their_ids_in_the_store() -> None:
    found = {}
    for name, _ in FIXTURE_IDS:
        for record in iter_bite_file(ROOT / "fixtures" / name):
            found[(name, record.index)] = prepare_bite(validate_bite(record)).digest[:12]
    assert found == FIXTURE_IDS


# -- the fold, the replay and a player's view ------------------------------------


def test_the_fold_leaves_a_fact_kept_as_recorded_aside() -> None:
    report = _check(UNKNOWN)
    without = [e for e in report.events if not isinstance(e, TurnStated | StepStated)]
    assert _stated(report)
    assert fold(report.events) == fold(without)


def test_the_replay_says_what_the_record_says_and_that_it_is_kept() -> None:
    report = _check(UNKNOWN)
    cursor = BiteCursor(report.events, report.violations)
    at = report.events.index(_stated(report)[0])
    assert cursor.account(at) == (
        "the record says Bob Lion attacks Ann Zebra: kept as recorded, the table leaves "
        "it aside"
    )
    shown = bite_text(cursor, 5)
    assert "  recorded  the record says Zed passes: kept as recorded" in shown


def test_a_players_view_hides_the_cards_of_a_kept_attack_it_is_not_in() -> None:
    report = _check(UNKNOWN)
    seen = [e for e in view_of(report.events, "Cid") if isinstance(e, TurnStated)]
    assert (seen[0].card, seen[0].defender_card) == (HIDDEN, HIDDEN)
    own = [e for e in view_of(report.events, "Ann") if isinstance(e, TurnStated)]
    assert (own[0].card, own[0].defender_card) == ("Lion", "Zebra")


# -- through the commands: import, export, validate --------------------------------


def _run(*args: str | Path) -> tuple[int, str]:
    result = CliRunner().invoke(app, [str(a) for a in args])
    assert result.exception is None or isinstance(result.exception, SystemExit), result.output
    return result.exit_code, result.stdout


def _violations(path: Path) -> list[tuple[int, str]]:
    code, out = _run("validate", "--json", path)
    assert code == 1, out
    data = json.loads(out)
    game = data[0] if isinstance(data, list) else data
    return sorted((v["round"] or 0, v["code"]) for v in game["violations"])


def test_import_export_validate_gives_the_records_verdict(tmp_path: Path) -> None:
    record, db = tmp_path / "u.bmn", tmp_path / "u.db"
    record.write_text(UNKNOWN, encoding="utf-8")
    assert _violations(record) == UNKNOWN_FOUND
    assert _run("import", "--db", db, record)[0] == 1
    (listed,) = _run("games", "--db", db, "--json")[1].splitlines()
    game_id = json.loads(listed)["id"]
    for fmt, name in (("bmn", "back.bmn"), ("jsonl", "back.jsonl")):
        back = tmp_path / name
        code, _ = _run("export", "--db", db, "--format", fmt, "-o", back, game_id)
        assert code == 0
        assert _violations(back) == UNKNOWN_FOUND
        code, out = _run("import", "--db", db, back)
        assert out.startswith("0 stored, 1 already stored"), out


# -- a property: any one mistake, any game ----------------------------------------

KINDS = ("name", "card", "drop", "swap", "actor", "after-end", "number", "step-name")


def _mutate(text: str, kind: str, rng: random.Random) -> str:
    """``text`` with one mistake of ``kind`` in one turn line (or the text itself,
    where the line chosen has nothing to change)."""
    lines = text.splitlines()
    turns = [i for i, line in enumerate(lines) if line[:1].isdigit()]
    i = rng.choice(turns)
    head, _, body = lines[i].partition(". ")
    parts = body.split(" ; ")
    words = body.split()
    cards = [k for k, w in enumerate(words) if rules.card_name(w.rstrip(",")) is not None]
    seats = ["Ann", "Bob", "Cid", "Dee", "Eve", "Fay"]
    if kind == "after-end":
        lines.append(f"{int(lines[turns[-1]].split('.')[0]) + 1}. {body}")
        return "\n".join(lines) + "\n"
    if kind == "name":
        k = rng.choice([k for k, w in enumerate(words) if w.rstrip(",") in seats])
        words[k] = "Zed" + words[k][len(words[k].rstrip(",")) :]
        body = " ".join(words)
    elif kind == "card" and cards:
        k = rng.choice(cards)
        words[k] = "Zebra" + words[k][len(words[k].rstrip(",")) :]
        body = " ".join(words)
    elif kind == "swap" and len(cards) > 1:
        a, b = rng.sample(cards, 2)
        ca, cb = words[a].rstrip(","), words[b].rstrip(",")
        words[a], words[b] = words[a].replace(ca, cb), words[b].replace(cb, ca)
        body = " ".join(words)
    elif kind in ("drop", "step-name") and len(parts) > 1:
        j = rng.randrange(1, len(parts))
        if kind == "drop":
            del parts[j]
        else:
            parts[j] = "Zed " + parts[j].split(" ", 1)[1]
        body = " ; ".join(parts)
    elif kind == "actor":
        who, _, rest = body.partition(" ")
        body = f"{rng.choice([s for s in seats[:3] if s != who])} {rest}"
    elif kind == "number":
        head = str(int(head) + rng.choice([1, 2, -1]))
    lines[i] = f"{head}. {body}"
    return "\n".join(lines) + "\n"


@settings(max_examples=60, deadline=None)
@given(
    players=st.integers(3, 6),
    seed=st.integers(0, 10_000),
    kind=st.sampled_from(KINDS),
    choice=st.integers(0, 2**32),
)
def test_one_mistake_gives_one_verdict_from_text_bmn_and_log(
    players: int, seed: int, kind: str, choice: int
) -> None:
    text = _mutate(game_bmn(simulate_bite(players, seed)), kind, random.Random(choice))
    report = _check(text)
    if report.readable:
        _round_trips(report)
