"""``getbit stats`` on games of "Come on! Bite me!" (``reports.bite_stats``): the
hand-made fixtures of ``fixtures/biteme-stats`` with their numbers counted by hand,
the games left out said, ``--json``'s stable fields, the table, bad input.

``shared.bmn``, battle by battle (attackers / defender: who won):
 1 Uma+Wes / Vic: att   3 Wes / Vic: def    4 Uma+Wes / Vic: att  5 Vic / Uma: att
 7 Uma / Wes: def       8 Vic+Wes / Uma: att 9 Wes+Uma / Vic: att 10 Uma / Vic: att
11 Vic / Uma: att      13 Uma / Vic: def   17 Vic / Wes: att     20 Vic / Wes: att
21 Wes / Uma: att      22 Uma / Wes: def   23 Vic / Wes: att     25 Uma+Wes / Vic: def
so Uma attacks 4-4 (won-lost) and defends 0-4, Vic 6-0 and 3-4, Wes 5-2 and 2-3.
Trophies: Uma Monkey (1); Vic Fox Panda Hyena Rabbit Lion Mosquito Tiger Meerkat Lion,
less the Hyena Wes picks in turn 20 (8); Wes Monkey Panda Meerkat Hyena Leopard
Hyena Tiger Fox (8). Discards: Uma Mosquito Snake, Vic Leopard, Wes Rabbit Snake.
Scores (B16): Uma 2-2 = 0, Vic 31-1 = 30, Wes 32-2 = 30: Vic and Wes share the win.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from biteme.validate import validate_bite
from cli import app
from importers.bmn import iter_bmn_file
from reports.bite_stats import BiteGame, bite_report, bite_report_json

ROOT = Path(__file__).resolve().parent.parent
STATS = ROOT / "fixtures" / "biteme-stats"
SHARED = STATS / "shared.bmn"
runner = CliRunner()

UMA = {
    "name": "Uma", "games": 1, "wins": 0, "average_score": 0.0, "trophies": 1,
    "discards": 2, "attacks_won": 4, "attacks_lost": 4, "defences_won": 0, "defences_lost": 4,
}
VIC = {
    "name": "Vic", "games": 1, "wins": 1, "average_score": 30.0, "trophies": 8,
    "discards": 1, "attacks_won": 6, "attacks_lost": 0, "defences_won": 3, "defences_lost": 4,
}
WES = {
    "name": "Wes", "games": 1, "wins": 1, "average_score": 30.0, "trophies": 8,
    "discards": 2, "attacks_won": 5, "attacks_lost": 2, "defences_won": 2, "defences_lost": 3,
}


def _stats(*args: str) -> tuple[int, str, str]:
    result = runner.invoke(app, ["stats", *args])
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result.exit_code, result.stdout, result.stderr


def _games(path: Path) -> list[BiteGame]:
    out = []
    for record in iter_bmn_file(path):
        report = validate_bite(record)
        out.append(BiteGame(report.events, report.valid))
    return out


def test_a_finished_game_counted_by_hand() -> None:
    report = bite_report(_games(SHARED))
    assert bite_report_json(report) == {
        "game": "bite-me",
        "games_included": 1,
        "games_excluded": {"invalid": 0, "unfinished": 0, "filtered": 0},
        "filters": {"players": [], "since": None, "until": None, "tags": {}, "aliases": {}},
        "players": [VIC, WES, UMA],  # most wins first, then by name; a shared win counts twice
    }


def test_invalid_and_unfinished_games_are_left_out_and_said() -> None:
    code, out, err = _stats("--json", str(STATS))
    assert code == 0, err
    data: dict[str, Any] = json.loads(out)
    assert data["games_included"] == 1
    assert data["games_excluded"] == {"invalid": 1, "unfinished": 1, "filtered": 0}
    assert data["players"] == [VIC, WES, UMA]


def test_totals_add_up_over_games_and_the_average_is_per_game() -> None:
    report = bite_report(_games(SHARED) * 2 + _games(STATS / "left-out.bmn"), unreadable=1)
    vic = bite_report_json(report)["players"][0]
    assert vic["games"] == 2
    assert vic["wins"] == 2
    assert vic["average_score"] == 30.0
    assert (vic["attacks_won"], vic["defences_lost"], vic["trophies"]) == (12, 8, 16)
    assert report.games_excluded == {"invalid": 2, "unfinished": 1, "filtered": 0}


def test_an_unstated_strength_leaves_the_average_unknown() -> None:
    from importers.bmn import read_bmn

    text = SHARED.read_text(encoding="utf-8")
    text = text.replace("Lion=7, ", "").replace('[Scores "Uma=0, Vic=30, Wes=30"]\n', "")
    text = text.replace('[Winner "Vic, Wes"]\n', "")
    (record,) = read_bmn(text, "nolion.bmn")
    checked = validate_bite(record)
    assert checked.valid
    players = bite_report_json(bite_report([BiteGame(checked.events, True)]))["players"]
    by_name = {p["name"]: p for p in players}
    # two Lions among Vic's trophies: the game's scores are unknown (B3), as validate says
    assert [p["average_score"] for p in players] == [None, None, None]
    assert by_name["Uma"]["trophies"] == 1
    assert by_name["Vic"]["wins"] == 0  # the winners are not known without the Lion


def test_the_table_for_people() -> None:
    code, out, _ = _stats(str(STATS))
    assert code == 0
    assert "Come on! Bite me!" in out
    assert "1 game covered; left out: 1 invalid, 1 unfinished, 0 filtered" in out
    rows = [line for line in out.splitlines() if line.startswith("│ ")]
    assert [r.split("│")[1].strip() for r in rows] == ["Vic", "Wes", "Uma"]
    assert [c.strip() for c in rows[0].split("│")[2:-1]] == [
        "1", "1", "30.00", "8", "1", "6-0", "3-4"
    ]


def test_a_name_with_markup_is_shown_as_written(tmp_path: Path) -> None:
    path = tmp_path / "odd.bmn"
    path.write_text(SHARED.read_text(encoding="utf-8").replace("Uma", "</b>"), encoding="utf-8")
    code, out, _ = _stats(str(path))
    assert code == 0
    assert "│ </b> " in out


def test_rules_picks_the_game_of_mixed_files() -> None:
    friday = str(ROOT / "fixtures" / "games" / "friday-club.gbn")
    code, _, err = _stats(str(SHARED), friday)
    assert code == 2
    assert "is a record of Come on! Bite me!" in err
    assert "--rules get-bit or --rules bite-me" in err
    code, out, _ = _stats("--rules", "bite-me", "--json", str(SHARED), friday)
    assert code == 0
    assert json.loads(out)["games_included"] == 1


ONLY = "Get Bit! only, not for Come on! Bite me!"


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (("--variant", "shark", str(SHARED)), f"--variant: {ONLY}"),
        (("--swimmers", "4", str(SHARED)), f"--swimmers: {ONLY}"),
        (("--id", "g1", "--html", "x.html", str(SHARED)), f"--id: {ONLY}"),
        (("--variant", "shark", "--swimmers", "4", str(SHARED)), "--variant, --swimmers: Get"),
        (("--csv", "-", "--json", str(SHARED)), "give one of --json, --csv and --html"),
        (("--since", "last week", str(SHARED)), "--since is a date like 2026-11-20"),
        (("--tag", "Event", str(SHARED)), "--tag must be KEY=VALUE, not 'Event'"),
        (("--alias", "Uma", str(SHARED)), "--alias must be KEY=VALUE, not 'Uma'"),
        (("--rules", "bite-me", "--encoding", "latin-1"), "--encoding goes with FILES"),
    ],
)
def test_what_does_not_fit_this_game_is_said_in_one_line(
    args: tuple[str, ...], said: str
) -> None:
    code, out, err = _stats(*args)
    assert code == 2
    assert err.splitlines() == [err.splitlines()[0]]
    assert said in err
    assert "Traceback" not in out + err
    assert out == ""


# -- filters, --csv and --html --------------------------------------------------------


@pytest.fixture
def two_dated(tmp_path: Path) -> Path:
    """shared.bmn (Stats club, 2026-11-28) and the same game a week later, away, with
    Xan in Uma's seat: two finished games."""
    folder = tmp_path / "games"
    folder.mkdir()
    text = SHARED.read_text(encoding="utf-8")
    (folder / "a.bmn").write_text(text, encoding="utf-8")
    later = text.replace("2026-11-28", "2026-12-05").replace("Stats club", "Away")
    (folder / "b.bmn").write_text(later.replace("Uma", "Xan"), encoding="utf-8")
    return folder


def _counted(*args: str) -> dict[str, Any]:
    code, out, err = _stats("--json", *args)
    assert (code, err) == (0, "")
    data: dict[str, Any] = json.loads(out)
    return data


XAN = UMA | {"name": "Xan"}


@pytest.mark.parametrize(
    ("args", "included", "filtered", "players"),
    [
        ((), 2, 0, [VIC | {"games": 2, "wins": 2, "trophies": 16, "discards": 2,
                           "attacks_won": 12, "defences_won": 6, "defences_lost": 8}]),
        (("--player", "xan"), 1, 1, [VIC, WES, XAN]),
        (("--player", "Uma", "--player", "Xan"), 2, 0, None),
        (("--since", "2026-12-01"), 1, 1, [VIC, WES, XAN]),
        (("--until", "2026-11-30"), 1, 1, [VIC, WES, UMA]),
        (("--since", "2026.11.28", "--until", "2026/11/28"), 1, 1, [VIC, WES, UMA]),
        (("--tag", "event=Stats club"), 1, 1, [VIC, WES, UMA]),
        (("--tag", "Event=stats club"), 0, 2, []),  # the value exactly, as Get Bit!'s
        (("--since", "2027-01-01"), 0, 2, []),
    ],
)
def test_filters_keep_the_games_asked_for(
    two_dated: Path, args: tuple[str, ...], included: int, filtered: int,
    players: list[dict[str, Any]] | None,
) -> None:
    data = _counted(*args, str(two_dated))
    assert data["games_included"] == included
    assert data["games_excluded"] == {"invalid": 0, "unfinished": 0, "filtered": filtered}
    if players is not None:
        assert data["players"][: len(players)] == players


def test_an_alias_counts_two_names_as_one_player(two_dated: Path) -> None:
    data = _counted("--alias", "xan=UMA", str(two_dated))
    assert data["filters"]["aliases"] == {"xan": "UMA"}
    uma = next(p for p in data["players"] if p["name"] == "UMA")  # as the alias names it
    assert uma == UMA | {"name": "UMA", "games": 2, "trophies": 2, "discards": 4,
                         "attacks_won": 8, "attacks_lost": 8, "defences_lost": 8}
    assert [p["name"] for p in data["players"]] == ["Vic", "Wes", "UMA"]
    assert _counted("--alias", "Xan=Uma", "--player", "Uma", str(two_dated))[
        "games_included"
    ] == 2


def test_csv_is_one_row_per_player_with_the_json_fields(tmp_path: Path) -> None:
    target = tmp_path / "bite.csv"
    code, out, err = _stats("--csv", str(target), str(STATS))
    assert (code, out) == (0, "")
    assert err.strip() == f"wrote {target} (3 players)"
    assert target.read_text(encoding="utf-8") == (
        "name,games,wins,average_score,trophies,discards,attacks_won,attacks_lost,"
        "defences_won,defences_lost\n"
        "Vic,1,1,30.0,8,1,6,0,3,4\n"
        "Wes,1,1,30.0,8,2,5,2,2,3\n"
        "Uma,1,0,0.0,1,2,4,4,0,4\n"
    )


def test_csv_guards_a_name_a_spreadsheet_would_run(tmp_path: Path) -> None:
    # a name is one word without , ; : # [ ] " = ( ) (BMN): '+cmd|x!A1' and '-2+3' can
    # still start a formula; a log of the game may hold any name, '=cmd()' too
    from biteme.simulate import simulate_bite
    from importers.bite_jsonl import write_bite_jsonl

    events = simulate_bite(3, 5)
    log = "".join(write_bite_jsonl([("g", events)]))
    bmn = SHARED.read_text(encoding="utf-8").replace("Uma", "+cmd|x!A1").replace("Wes", "-2+3")
    (tmp_path / "odd.bmn").write_text(bmn, encoding="utf-8")
    (tmp_path / "odd.jsonl").write_text(log.replace('"Ann"', '"@SUM"'), encoding="utf-8")
    code, out, err = _stats("--csv", "-", str(tmp_path))
    assert code == 0, err
    names = [line.split(",")[0] for line in out.splitlines()[1:]]
    assert sorted(names) == sorted(["'+cmd|x!A1", "'-2+3", "Vic", "'@SUM", "Bob", "Cid"])


def test_html_is_one_page_with_every_name_escaped(tmp_path: Path) -> None:
    # a name is one word without , ; : # [ ] " = ( ) (BMN): markup it can still be
    bmn = SHARED.read_text(encoding="utf-8").replace("Uma", "<script>alert`1`</script>")
    path = tmp_path / "odd.bmn"
    path.write_text(bmn.replace("Wes", "W&s"), encoding="utf-8")
    page_path = tmp_path / "bite.html"
    code, out, err = _stats("--html", str(page_path), str(path))
    assert (code, out) == (0, "")
    assert err.strip() == f"wrote {page_path} (1 game)"
    page = page_path.read_text(encoding="utf-8")
    assert "<script>" not in page
    assert "&lt;script&gt;alert`1`&lt;/script&gt;" in page
    assert "<td>W&amp;s</td>" in page
    assert "W&s" not in page
    assert "<title>Come on! Bite me! statistics</title>" in page
    assert "default-src 'none'" in page  # the shell of Get Bit!'s page: nothing runs
    covered = "1 game covered; left out: 0 invalid, 0 unfinished, 0 filtered"
    assert f'<p id="coverage">{covered}.</p>' in page
    assert "<td>Vic</td><td>1</td><td>1</td><td>30.00</td><td>8</td><td>1</td>" in page


def test_a_missing_file_is_said_and_the_others_counted() -> None:
    code, out, err = _stats("--json", "--rules", "bite-me", str(SHARED), str(STATS / "nosuch.bmn"))
    assert code == 2  # said as for Get Bit!
    assert err.endswith(f"getbit stats: {STATS / 'nosuch.bmn'}: no such file or folder\n")
    assert json.loads(out)["games_included"] == 1


def test_a_record_of_get_bit_named_with_rules_bite_me_is_said_not_counted() -> None:
    friday = ROOT / "fixtures" / "games" / "friday-club.gbn"
    code, out, err = _stats("--json", "--rules", "bite-me", str(SHARED), str(friday))
    assert code == 0
    assert err == f"warning: {friday}: no game of Come on! Bite me! in it (--rules bite-me)\n"
    assert json.loads(out)["games_included"] == 1


def test_a_file_or_folder_of_no_games_is_a_warning_and_exit_2(tmp_path: Path) -> None:
    """As Get Bit!'s stats and validate say it (it was an empty table and exit 0)."""
    empty, folder = tmp_path / "empty.bmn", tmp_path / "nothing"
    empty.write_text("", encoding="utf-8")
    folder.mkdir()
    code, out, err = _stats("--json", "--rules", "bite-me", str(empty), str(folder), str(SHARED))
    assert code == 2
    assert err.splitlines() == [
        f"warning: no games in {empty}",
        f"warning: no games in {folder} (no record files: .gbn, .jsonl, .ndjson, .bmn)",
    ]
    assert json.loads(out)["games_included"] == 1
