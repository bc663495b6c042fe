"""Games of "Come on! Bite me!" in the store (issue 16): the ``game`` column and the
migration that adds it, the compact events of the ``bm-`` events, and what is
stored for such a game (``store.bite``)."""

from __future__ import annotations

import json
import shutil
import sqlite3
from pathlib import Path

from biteme.simulate import simulate_bites
from importers.wire import bite_payload_json, trusted_bite_event
from store import GameStore, check_store, eventlog

OLD = Path(__file__).resolve().parent.parent / "fixtures" / "stores"


def _chain(db: Path) -> list[tuple[str, str, str]]:
    conn = sqlite3.connect(db)
    try:
        return conn.execute("SELECT id, prev, chain FROM games ORDER BY rowid").fetchall()
    finally:
        conn.close()


def test_an_old_store_migrates_with_every_game_get_bit_and_its_chain_standing(
    tmp_path: Path,
) -> None:
    db = tmp_path / "old.db"
    shutil.copy(OLD / "main.db", db)
    before = _chain(db)
    assert before
    with GameStore(db) as store:  # migrated on opening
        games = list(store.games(everything=True))
        kinds = {g.game for g in games}
    assert kinds == {"get-bit"}
    assert len(games) == len(before)
    assert _chain(db) == before  # no row rewritten, no chain value changed
    checked = check_store(db)
    assert checked.ok, checked.damage
    assert checked.games == len(before)


def test_check_finds_a_game_said_to_be_of_the_other_game(tmp_path: Path) -> None:
    db = tmp_path / "old.db"
    shutil.copy(OLD / "main.db", db)
    with GameStore(db) as store:
        first = next(iter(store.games())).id
        store.db.execute("DROP TRIGGER games_no_update")
        store.db.execute("UPDATE games SET game = 'bite-me' WHERE id = ?", [first])
    damage = [d for d in check_store(db).damage if d.game == first]
    assert any("chain value" in d.problem for d in damage)


def _bite_rows(seed: int) -> list[tuple[list[object], list[tuple[object, ...]]]]:
    games = []
    for events in simulate_bites(3, 4, seed):
        rows = [
            (seq, e.TYPE, e.VERSION, e.turn, bite_payload_json(e))
            for seq, e in enumerate(events, 1)
        ]
        games.append((list(events), rows))
    return games


def test_bite_me_events_are_one_row_an_event_in_the_events_view(tmp_path: Path) -> None:
    db = tmp_path / "g.db"
    games = _bite_rows(5)
    with GameStore(db) as store:
        conn = store.db.conn
        conn.execute("BEGIN")
        log = eventlog.Log()
        for number, (_, rows) in enumerate(games, 1):
            eventlog.encode(conn, log, 1000 + number, f"bite{number}", rows)
        conn.execute("COMMIT")
        for number, (events, rows) in enumerate(games, 1):
            found = conn.execute(
                "SELECT seq, type, version, round, payload FROM events WHERE game_id = ? "
                "ORDER BY seq",
                (f"bite{number}",),
            ).fetchall()
            assert found == rows
            assert {r[1] for r in found} >= {"bm-game-started", "bm-attack", "bm-game-ended"}
            back = [trusted_bite_event(t, v, r, json.loads(p)) for _, t, v, r, p in found]
            assert back == events
