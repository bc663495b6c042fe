"""A report from the store's totals read model equals the one from every row.

``getbit stats`` over a store reads the totals the store keeps as games arrive
(``reports.totals``) when it can; the numbers must be the very ones
``reports.stats`` counts from the rows, whether the standings were moved on
game by game (games arriving in date order) or worked out again (a game
arriving before others of a later date).
"""

from __future__ import annotations

from pathlib import Path

import attrs
import pytest
from test_reports_fold import _games

from getbit_events.events import Event
from getbit_events.validate import validate_game
from importers.gbn import read_gbn, write_gbn
from reports.selection import Aliases, Filters
from reports.sources import row_tuples
from reports.stats import report_from_tuples
from reports.totals import quick, store_report
from store import GameStore, check_store, totals

#: what these test is plain Python in both builds (none of setup.py's COMPILED is their
#: subject): the compiled build's pass of .ci/run leaves them to the plain pass
pytestmark = pytest.mark.layers


def _store(path: Path, games: list[list[Event]]) -> Path:
    with GameStore(path) as store:
        for report in (validate_game(g) for g in read_gbn(write_gbn(games), "sim.gbn")):
            store.add(report)
    return path


def _standings(path: Path) -> str | None:
    with GameStore(path) as store:
        row = store.db.execute("SELECT value FROM meta WHERE key = 'standings'").fetchone()
    return row[0] if row else None


@pytest.fixture(scope="module")
def shuffled(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Dates out of order, unfinished and broken games: the standings go stale."""
    games = _games(160)
    path = _store(tmp_path_factory.mktemp("totals") / "games.db", games)
    assert _standings(path) == "stale"
    return path


@pytest.fixture(scope="module")
def in_order(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The same games imported in date order: the standings move on at each game."""
    games = _games(160)
    dated = sorted(
        (g for g in games if dict(g[0].tags).get("Date")),  # type: ignore[union-attr]
        key=lambda g: dict(g[0].tags)["Date"],  # type: ignore[union-attr]
    )
    undated = [g for g in games if not dict(g[0].tags).get("Date")]  # type: ignore[union-attr]
    path = _store(tmp_path_factory.mktemp("totals") / "games.db", dated + undated)
    assert _standings(path) not in (None, "stale")
    return path


FILTERS = [Filters(), Filters(players=("Ann",)), Filters(players=("BOB",)),
           Filters(players=("nobody",))]


@pytest.mark.parametrize("filters", FILTERS, ids=["everyone", "ann", "bob-in-capitals", "nobody"])
@pytest.mark.parametrize("which", ["shuffled", "in_order"])
def test_totals_give_the_report_the_rows_give(
    filters: Filters, which: str, request: pytest.FixtureRequest
) -> None:
    path = request.getfixturevalue(which)
    with GameStore(path) as store:
        from_rows = report_from_tuples(row_tuples(store), filters)
        from_totals = store_report(store, filters)
        assert _standings(path) != "stale"  # read once, worked out again and kept
    assert from_totals.games_included == from_rows.games_included
    assert from_totals == from_rows
    if filters == Filters():
        assert from_rows.games_included > 100
        assert all(p.rating is not None for p in from_rows.players)


def test_a_rebuild_gives_the_same_totals(tmp_path: Path) -> None:
    path = _store(tmp_path / "games.db", _games(60))
    with GameStore(path) as store:
        before = attrs.asdict(store.totals(), recurse=False)
        store.rebuild()
        after = attrs.asdict(store.totals(), recurse=False)
    for name, value in before.items():
        assert (sorted(after[name]) if isinstance(value, list) else after[name]) == (
            sorted(value) if isinstance(value, list) else value
        ), name


def test_standings_folded_from_results_held_a_few_at_a_time_are_the_same(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # the valid games' results go to a temporary table a few thousand at a time
    # (totals.OrderedResults) and come back in date order: 7 at a time, the standings
    # worked out again, checked and rebuilt are those the rows give
    monkeypatch.setattr(totals, "HELD", 7)
    path = _store(tmp_path / "games.db", _games(160))
    assert _standings(path) == "stale"
    with GameStore(path) as store:
        from_rows = report_from_tuples(row_tuples(store), Filters())
        assert store_report(store) == from_rows  # worked out again, 7 results at a time
        assert _standings(path) != "stale"
    assert check_store(path).ok
    with GameStore(path) as store:
        store.rebuild()
        assert store_report(store) == from_rows
    assert check_store(path).ok
    assert sum(p.rating is not None for p in from_rows.players) > 3


@pytest.mark.parametrize(
    ("filters", "aliases", "history", "expected"),
    [
        (Filters(), Aliases(), False, True),
        (Filters(players=("Ann",)), Aliases(), False, True),
        (Filters(players=("Ann", "Bob")), Aliases(), False, False),
        (Filters(variant="shark"), Aliases(), False, False),
        (Filters(), Aliases.make(["Bob=Ann"]), False, False),
        (Filters(), Aliases(), True, False),
    ],
)
def test_what_the_totals_can_answer(
    filters: Filters, aliases: Aliases, history: bool, expected: bool
) -> None:
    assert quick(filters, aliases, history) is expected


def test_other_options_read_the_rows(shuffled: Path) -> None:
    filters = Filters(variant="shark", since="2026-03-01")
    with GameStore(shuffled) as store:
        assert store_report(store, filters) == report_from_tuples(row_tuples(store), filters)


def test_ratings_are_over_every_valid_game_whatever_the_filters(shuffled: Path) -> None:
    with GameStore(shuffled) as store:
        everyone = store_report(store)
        sharks = store_report(store, Filters(variant="shark"))
    assert sharks.games_included < everyone.games_included
    for p in sharks.players:
        q = everyone.player(p.name)
        assert q is not None
        assert p.rating == q.rating
