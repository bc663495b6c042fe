"""The store's read model and a fold over the events give the very same report.

A few hundred simulated games of every variant (some unfinished, one broken)
go through GBN, the validator and the store; the report built from the store's
``game_swimmers`` rows must equal the one built by replaying each game's events
through the reducer (``fold_counts``, in the tests), number for number, rating for rating.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from fold_counts import GameEvents, fold_report

from getbit_events.events import Event, GameStarted
from getbit_events.simulate import simulate_game
from getbit_events.validate import GameReport, validate_game
from importers.gbn import read_gbn, write_gbn
from reports.selection import Aliases, Filters
from reports.stats import build_report
from store import GameStore
from store.readmodel import game_status

#: what these test is plain Python in both builds (none of setup.py's COMPILED is their
#: subject): the compiled build's pass of .ci/run leaves them to the plain pass
pytestmark = pytest.mark.layers

VARIANTS = [
    ("standard", 4), ("standard", 5), ("standard", 6), ("three-player", 4),
    ("two-player", 4), ("shark", 4), ("shark", 5), ("shark", 6),
]


def _games(n: int) -> list[list[Event]]:
    games = []
    for k in range(n):
        variant, swimmers = VARIANTS[k % len(VARIANTS)]
        tags = (("Date", f"2026-{1 + k % 12:02d}-{1 + k % 28:02d}"),) if k % 7 else ()
        events = simulate_game(variant, swimmers, k, "sensible" if k % 3 else "random",
                               k % 5 == 0, tags)
        if k % 40 == 39:  # an unfinished record: the first half of its rounds
            events = [e for e in events if e.round <= events[-1].round // 2]
        games.append(events)
    return games


@pytest.fixture(scope="module")
def stored(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[GameEvents]]:
    text = write_gbn(_games(320))
    text += '\n[Line "Ann, Bob, Cid, Dee"]\n\n1. Ann 1, Bob 2, Cid 3, Dee 9\n'  # breaks R1
    reports: list[GameReport] = [validate_game(g) for g in read_gbn(text, "sim.gbn")]
    path = tmp_path_factory.mktemp("store") / "games.db"
    folded: list[GameEvents] = []
    with GameStore(path) as store:
        for report in reports:
            game_id = store.add(report).game_id
            setup = report.events[0]
            assert isinstance(setup, GameStarted)
            status = game_status(report.valid, report.finished)
            folded.append((game_id, report.events, status, dict(setup.tags)))
    return path, folded


def test_the_games_cover_every_case(stored: tuple[Path, list[GameEvents]]) -> None:
    _, games = stored
    statuses = [status for _, _, status, _ in games]
    assert (statuses.count("unfinished"), statuses.count("invalid")) == (8, 1)
    assert len(games) == 321


@pytest.mark.parametrize(
    ("filters", "aliases"),
    [
        (Filters(), Aliases()),
        (Filters.make(variant="shark", since="2026-03-01"), Aliases()),
        (Filters(players=("ann",)), Aliases.make(["Bob=Ann"])),
        (Filters(swimmers=4), Aliases.make(["North=South"])),
    ],
    ids=["everything", "shark-since-march", "ann-with-bob-merged", "four-swimmers"],
)
def test_store_read_model_equals_fold(
    stored: tuple[Path, list[GameEvents]], filters: Filters, aliases: Aliases
) -> None:
    path, games = stored
    with GameStore(path) as store:
        from_store = build_report(store.swimmer_rows(), filters, aliases, history=True)
    from_fold = fold_report(games, filters, aliases, history=True)
    assert from_store.games_included > 0
    assert from_store.dated_games > 0
    assert from_store.players
    assert from_store == from_fold
