"""The store both Parquet tests export, and the check that the SQL of
``reports/sql`` gives ``getbit stats --json``'s numbers (tests/test_parquet.py
runs it in DuckDB, tests/test_spark.py in Spark)."""

from __future__ import annotations

import json
import math
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

from typer.testing import CliRunner

from cli import app
from getbit_events.simulate import simulate_game
from importers.gbn import write_gbn
from store import GameStore

ROOT = Path(__file__).resolve().parent.parent
SQL = ROOT / "reports" / "sql"
VIEWS = ("games", "events", "swimmers")
#: Names a player may type, and a spreadsheet or a browser might run.
HOSTILE = ("<script>alert('x')</script>", "=cmd()", "O'Brien & Söhne", "Zoë 李")
HOSTILE_EVENT = 'Club "Night" <b>=1+1</b>'

#: What a file's SQL runs to: the column names and the rows.
Result = tuple[list[str], list[tuple[Any, ...]]]
Runner = Callable[[str], Result]

_VARIANTS = [("standard", 4), ("standard", 5), ("three-player", 4), ("two-player", 4),
             ("shark", 5), ("standard", 6)]


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(app, list(args))
    assert "Traceback" not in result.output + result.stderr, result.output + result.stderr
    return result.exit_code, result.stdout, result.stderr


def _simulated(n: int) -> str:
    """``n`` games of every variant; most dated (some on one date, so import order
    decides), a few unfinished."""
    games = []
    for k in range(n):
        variant, swimmers = _VARIANTS[k % len(_VARIANTS)]
        tags = (("Date", f"2026-{1 + k % 3:02d}-{1 + k % 4:02d}"),) if k % 5 else ()
        events = simulate_game(variant, swimmers, k, "sensible" if k % 3 else "random",
                               k % 4 == 0, tags)
        if k % 17 == 16:  # unfinished: the first half of its rounds
            events = [e for e in events if e.round <= events[-1].round // 2]
        games.append(events)
    return write_gbn(games)


def _hostile() -> str:
    """Two games of players whose names are markup, formulas, quotes and non-ASCII."""
    tag = HOSTILE_EVENT.replace('"', '\\"')
    games = []
    for seed in (901, 902):
        text = write_gbn([simulate_game("standard", 4, seed, "random")])
        for old, new in zip(("Ann", "Bob", "Cid", "Dee"), HOSTILE, strict=True):
            text = re.sub(rf"\b{old}\b", new, text)
        games.append(f'[Event "{tag}"]\n[Date "2026.02.02"]\n' + text)
    return "\n".join(games)


#: Names whose order casefolded (``getbit stats``) is not their order lower-cased
#: (ß is "ss" casefolded, the ligature ﬁ "fi"): tied players are ordered by the first.
UNICODE = ("Straße", "Strasze", "\ufb01n", "Fio")


def _unicode() -> str:
    """A game of four players, three of them tied (one game, no win)."""
    text = write_gbn([simulate_game("standard", 4, 903, "random")])
    for old, new in zip(("Ann", "Bob", "Cid", "Dee"), UNICODE, strict=True):
        text = re.sub(rf"\b{old}\b", new, text)
    return text


def _club(annotator: str, seed: int) -> str:
    game = write_gbn([simulate_game("standard", 4, seed, "random")])
    date = f"2026-03-0{seed % 9 + 1}"
    return f'[Event "Friday club"]\n[Date "{date}"]\n[Annotator "{annotator}"]\n' + game

def build_store(folder: Path, simulated: int = 60) -> Path:
    """A store of the bundled fixtures (valid, invalid, unfinished), simulated and
    hostile games, a superseded game and a retracted one."""
    db = folder / "games.db"
    files = folder / "records"
    files.mkdir()
    (files / "sim.gbn").write_text(_simulated(simulated), encoding="utf-8")
    (files / "hostile.gbn").write_text(_hostile(), encoding="utf-8")
    (files / "unicode.gbn").write_text(_unicode(), encoding="utf-8")
    (files / "club.gbn").write_text(_club("Bobb", 3), encoding="utf-8")
    (files / "gone.gbn").write_text(_club("Eve", 4), encoding="utf-8")
    for path in (ROOT / "fixtures" / "games", ROOT / "fixtures" / "invalid", files):
        code, _, _ = run("import", str(path), "--db", str(db))
        assert code in (0, 1, 2)
    (folder / "fixed.gbn").write_text(_club("Bob", 3), encoding="utf-8")
    with GameStore(db) as store:
        ids = {g.source.rsplit("/", 1)[-1]: g.id for g in store.games() if g.source}
    code, out, err = run("import", str(folder / "fixed.gbn"), "--db", str(db),
                         "--replaces", ids["club.gbn"])
    assert code == 0, out + err
    code, out, err = run("retract", ids["gone.gbn"], "--db", str(db), "--reason", "test")
    assert code == 0, out + err
    return db


def stats(db: Path) -> dict[str, Any]:
    code, out, err = run("stats", "--db", str(db), "--json")
    assert code == 0, err
    data: dict[str, Any] = json.loads(out)
    return data


def export(db: Path, folder: Path) -> Path:
    code, out, err = run("export", "--all", "--format", "parquet", "-o", str(folder),
                         "--db", str(db))
    assert code == 0, out + err
    return folder


def sql_files() -> dict[str, str]:
    return {p.stem: p.read_text(encoding="utf-8") for p in sorted(SQL.glob("*.sql"))}


def _dicts(result: Result) -> list[dict[str, Any]]:
    columns, rows = result
    return [dict(zip(columns, row, strict=True)) for row in rows]


def _same(got: Any, want: Any, where: str) -> None:
    if isinstance(want, float) or isinstance(got, float):
        assert got is not None, f"{where}: {got} != {want}"
        assert want is not None, f"{where}: {got} != {want}"
        assert math.isclose(got, want, rel_tol=1e-12, abs_tol=1e-12), f"{where}: {got} != {want}"
    else:
        assert got == want, f"{where}: {got!r} != {want!r}"


#: players.sql's columns named as in the JSON, where they differ.
_RENAMED = {"blank_plays": "no_card_rounds", "discarded": "cards_discarded"}


def check_sql(run_sql: Runner, want: dict[str, Any]) -> int:
    """Every file of reports/sql run by ``run_sql`` against ``want`` (``getbit
    stats --json`` of the same games); returns how many numbers were compared."""
    sql = sql_files()
    assert set(sql) == {"games", "variants", "players", "rank_distribution", "head_to_head",
                        "start_places"}
    compared = 0
    [games] = _dicts(run_sql(sql["games"]))
    _same(games.pop("games_included"), want["games_included"], "games_included")
    _same(games.pop("dated_games"), want["dated_games"], "dated_games")
    assert games == want["games_excluded"]
    compared += 2 + len(games)

    variants = {r["variant"]: r["games"] for r in _dicts(run_sql(sql["variants"]))}
    assert variants == want["variants"]

    players = _dicts(run_sql(sql["players"]))
    names = {p["player_key"]: p["name"] for p in players}
    assert [p["name"] for p in players] == [p["name"] for p in want["players"]]
    for got, p in zip(players, want["players"], strict=True):
        plays = {str(v): got.pop(f"plays_{v}") for v in range(1, 8)}
        assert plays == p["plays_by_value"], p["name"]
        got.pop("player_key")
        got.pop("rank_total")
        for column, value in got.items():
            _same(value, p[_RENAMED.get(column, column)], f"{p['name']}: {column}")
            compared += 1
        left = set(p) - {_RENAMED.get(c, c) for c in got} - {"plays_by_value"}
        assert left == {"rank_distribution", "rating"}, left  # the rest below; rating: no SQL

    ranks: dict[str, dict[str, int]] = {}
    for r in _dicts(run_sql(sql["rank_distribution"])):
        ranks.setdefault(names[r["player_key"]], {})[str(r["rank"])] = r["games"]
        compared += 1
    assert ranks == {p["name"]: p["rank_distribution"] for p in want["players"]}

    pairs = [{**r, "first": names[r["first"]], "second": names[r["second"]]}
             for r in _dicts(run_sql(sql["head_to_head"]))]
    assert pairs == want["head_to_head"]
    compared += 3 * len(pairs)

    places = _dicts(run_sql(sql["start_places"]))
    assert len(places) == len(want["start_places"])
    for got, place in zip(places, want["start_places"], strict=True):
        for column, value in got.items():
            _same(value, place[column], f"start place {place}: {column}")
            compared += 1
    return compared
