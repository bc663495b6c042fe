"""``getbit games`` and ``getbit export`` (issue 14): the filters both take, and `--all`,
the Date and Event columns, and a listing that neither wraps nor cuts a name,
piped or on a narrow terminal."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from cli import app
from getbit_events.simulate import simulate_game
from getbit_events.validate import validate_game
from importers import read_file
from importers.gbn import write_gbn
from store import GameStore

#: what these test is plain Python in both builds (none of setup.py's COMPILED is their
#: subject): the compiled build's pass of .ci/run leaves them to the plain pass
pytestmark = pytest.mark.layers

ROOT = Path(__file__).resolve().parent.parent
FRIDAY = (ROOT / "fixtures" / "games" / "friday-club.gbn").read_text(encoding="utf-8")
LONG = "Annabelle-Marguerite"
INVALID = """[Event "Tuesday"]
[Line "Ann, Bob, Cid, Dee"]
1. Ann 1, Bob 2, Cid 3, Dee 4
2. Ann 2, Bob 3, Cid 4, Dee 5 ; bit Dee
"""


def _run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(app, list(args))
    assert "Traceback" not in result.output + result.stderr
    return result.exit_code, result.stdout, result.stderr


def _game(variant: str, seed: int, event: str, date: str) -> str:
    text = write_gbn([simulate_game(variant, 4 if variant == "standard" else 5, seed=seed)])
    return f'[Event "{event}"]\n[Date "{date}"]\n{text}'


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Five games: two standard and one shark (all valid, dated), Friday's unfinished
    game, an invalid one without a date, and one whose Date the reports cannot read."""
    folder = tmp_path_factory.mktemp("games")
    (folder / "a.gbn").write_text(
        _game("standard", 1, "Autumn cup", "2026-11-01").replace("Ann", LONG), encoding="utf-8"
    )
    (folder / "b.gbn").write_text(_game("shark", 2, "Shark night", "2026-11-15"), "utf-8")
    (folder / "c.gbn").write_text(FRIDAY, encoding="utf-8")
    (folder / "d.gbn").write_text(INVALID, encoding="utf-8")
    (folder / "e.gbn").write_text(_game("standard", 3, "Late", "26/11/2026"), "utf-8")
    path = folder / "s.db"
    code, _, err = _run("import", str(folder), "--db", str(path))
    assert code == 1, err  # the invalid game
    return path


def _listed(db: Path, *args: str) -> list[dict[str, object]]:
    code, out, err = _run("games", "--db", str(db), "--json", *args)
    assert code == 0, err
    return [json.loads(line) for line in out.splitlines()]


def _events(games: list[dict[str, object]]) -> list[object]:
    return [g["tags"].get("Event") for g in games]  # type: ignore[attr-defined]


def test_without_filters_every_game_in_import_order(db: Path) -> None:
    assert _events(_listed(db)) == ["Autumn cup", "Shark night", "Friday club", "Tuesday", "Late"]


@pytest.mark.parametrize(
    ("args", "events"),
    [
        (["--variant", "shark"], ["Shark night"]),
        (["--variant", "Standard"], ["Autumn cup", "Friday club", "Tuesday", "Late"]),
        (["--since", "2026-11-15"], ["Shark night", "Friday club"]),
        (["--until", "2026-11-15"], ["Autumn cup", "Shark night"]),
        (["--since", "2026-11-02", "--until", "2026.11.19"], ["Shark night"]),
        (["--status", "unfinished"], ["Friday club"]),
        (["--status", "invalid"], ["Tuesday"]),
        (["--limit", "2"], ["Autumn cup", "Shark night"]),
        (["--limit", "0"], []),
        (["--variant", "standard", "--limit", "1", "--status", "valid"], ["Autumn cup"]),
        (["--player", LONG.lower()], ["Autumn cup"]),
        (["--player", "John"], ["Friday club"]),
    ],
)
def test_filters(db: Path, args: list[str], events: list[str]) -> None:
    assert _events(_listed(db, *args)) == events


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (
            ["--variant", "chess"],
            (
                "getbit games: Invalid value for '--variant': 'chess' is not one of "
                "'standard', 'three-player', 'two-player', 'shark'. (see 'getbit games -h')"
            ),
        ),
        (["--since", "26/11/2026"], "getbit games: --since is a date like 2026-11-20, not"),
        (
            ["--limit", "-1"],
            (
                "getbit games: Invalid value for '--limit': Input should be greater than or "
                "equal to 0 (see 'getbit games -h')"
            ),
        ),
        (
            ["--status", "great"],
            (
                "getbit games: Invalid value for '--status': 'great' is not one of 'valid', "
                "'invalid', 'unfinished'. (see 'getbit games -h')"
            ),
        ),
    ],
)
def test_a_bad_filter_is_said(db: Path, args: list[str], said: str) -> None:
    code, out, err = _run("games", "--db", str(db), *args)
    assert code == 2
    assert out == ""
    assert err.startswith(said)


def test_piped_it_is_tab_separated_with_every_name_whole(db: Path) -> None:
    code, out, err = _run("games", "--db", str(db))
    assert code == 0
    lines = [line.split("\t") for line in out.splitlines()]
    assert lines[0] == [
        "id", "status", "date", "event", "variant", "swimmers", "winner", "rounds", "source",
        "game",
    ]
    assert all(len(line) == 10 for line in lines)
    assert {line[9] for line in lines[1:]} == {"get-bit"}
    rows = {line[3]: line for line in lines[1:]}
    assert rows["Friday club"][1:4] == ["unfinished", "2026-11-20", "Friday club"]
    assert LONG in rows["Autumn cup"][5]
    assert rows["Late"][2] == "26/11/2026"  # as recorded
    assert rows["Tuesday"][2] == ""
    assert err.strip() == "5 games"  # the count apart, so the lines are all data


def _getbit(*args: str, columns: int) -> subprocess.CompletedProcess[str]:
    """``getbit`` as on a terminal of ``columns`` columns (rich's TTY_COMPATIBLE)."""
    env = {**os.environ, "TTY_COMPATIBLE": "1", "COLUMNS": str(columns), "NO_COLOR": "1"}
    script = Path(sys.executable).with_name("getbit")
    return subprocess.run(
        [str(script), *args], capture_output=True, text=True, env=env, check=False
    )


def test_a_wide_terminal_gets_a_table_a_game_a_line(db: Path) -> None:
    result = _getbit("games", "--db", str(db), columns=250)
    assert result.returncode == 0
    rows = [line for line in result.stdout.splitlines() if "2026" in line or "Tuesday" in line]
    assert len(rows) == 5  # no row wrapped onto a second line
    assert any("unfinished" in row and "Friday club" in row for row in rows)
    assert any(LONG in row for row in rows)
    assert "…" not in result.stdout


def test_a_narrow_terminal_gets_whole_words_not_a_squeezed_table(db: Path) -> None:
    result = _getbit("games", "--db", str(db), columns=60)
    assert result.returncode == 0
    assert "…" not in result.stdout
    assert "unfinished" in result.stdout
    assert LONG in result.stdout
    assert "\t" in result.stdout  # the lines, as in a pipe


# -- export --all -------------------------------------------------------------------


def test_export_all_writes_every_listed_game(db: Path, tmp_path: Path) -> None:
    out = tmp_path / "all.gbn"
    code, _, err = _run("export", "--db", str(db), "--all", "-o", str(out))
    assert (code, err) == (0, "")
    games = read_file(out)
    assert len(games) == 5  # the invalid game too: its events are the record as recorded
    assert not any(g.syntax_errors for g in games)


def test_export_all_takes_the_filters_of_games(db: Path, tmp_path: Path) -> None:
    out = tmp_path / "shark.jsonl"
    code, _, err = _run(
        "export", "--db", str(db), "--all", "--variant", "shark", "--format", "jsonl",
        "-o", str(out),
    )
    assert (code, err) == (0, "")
    (game,) = read_file(out)
    assert {t.name: t.value for t in game.tags}["Event"] == "Shark night"
    code, text, _ = _run("export", "--db", str(db), "--all", "--since", "2026-11-20")
    assert code == 0
    assert [g.tags[0].value for g in read_file_text(text, tmp_path)] == ["Friday club"]


def read_file_text(text: str, folder: Path) -> list[object]:
    path = folder / "out.gbn"
    path.write_text(text, encoding="utf-8")
    return list(read_file(path))


@pytest.mark.parametrize("args", [["--all", "some-id"], ["--variant", "shark", "some-id"]])
def test_export_takes_ids_or_the_choice_of_games_not_both(db: Path, args: list[str]) -> None:
    code, out, err = _run("export", "--db", str(db), *args)
    assert code == 2
    assert out == ""
    assert err.strip() == (
        "getbit export: give game ids, or choose games as 'getbit games' does, not both"
    )


@pytest.mark.parametrize("fmt", ["gbn", "jsonl", "parquet"])
def test_export_chooses_as_games_does_and_all_means_the_same(
    db: Path, tmp_path: Path, fmt: str
) -> None:
    """One meaning of --all: ``export`` with the options of ``games`` writes the games it
    lists; --all adds the superseded and retracted ones in every format."""
    import shutil

    mine = tmp_path / "mine.db"
    shutil.copy(db, mine)
    gone = str(_listed(mine)[0]["id"])
    assert _run("retract", gone, "--db", str(mine), "--reason", "test")[0] == 0

    def exported(*args: str) -> set[str]:
        out = tmp_path / f"out-{len(list(tmp_path.iterdir()))}"
        code, _, err = _run("export", "--db", str(mine), "--format", fmt, "-o", str(out), *args)
        assert code == 0, err
        if fmt == "parquet":
            import pyarrow.parquet as pq

            return set(pq.read_table(out / "games").column("id").to_pylist())
        with GameStore(mine) as store:
            return {store.add(validate_game(g)).game_id for g in read_file(out, fmt)}

    for args in ([], ["--all"], ["--variant", "standard"], ["--all", "--variant", "standard"]):
        listed = {str(g["id"]) for g in _listed(mine, *args)}
        assert exported(*args) == listed, args
        assert (gone in listed) == ("--all" in args)


def test_a_tab_separated_cell_never_breaks_its_line_or_the_terminal() -> None:
    from console import shown
    from store.listing import tab_line

    line = tab_line(["Ann\tBob", "Cid\r\nDee\x1b[31m"], shown)
    assert line == "Ann Bob\tCid  Dee\\x1b[31m\n"


def test_a_player_is_found_by_a_swimmer_of_theirs_whatever_its_case(tmp_path: Path) -> None:
    """A two-player game's swimmers belong to its Teams: ``--player`` finds the game by a
    swimmer's name too, ignoring case as for players, beyond ASCII (``casefold``)."""
    game = write_gbn([simulate_game("two-player", 4, seed=5)])
    assert "Bob" in game
    path = tmp_path / "teams.gbn"
    path.write_text(game.replace("Bob", "Straße"), encoding="utf-8")
    db = tmp_path / "s.db"
    code, _, err = _run("import", str(path), "--db", str(db))
    assert code == 0, err
    for name in ("Straße", "STRASSE", "strasse", "north", "NORTH"):
        assert len(_listed(db, "--player", name)) == 1, name
    assert _listed(db, "--player", "Stras") == []
    export = tmp_path / "out"
    code, out, err = _run("export", "--player", "STRASSE", "--format", "parquet", "-o",
                          str(export), "--db", str(db))
    assert code == 0, err
    assert "1 games" in out
