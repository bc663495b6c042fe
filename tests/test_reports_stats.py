"""Statistics of the hand-worked games in fixtures/stats, every number worked by hand.

The games (all with 4 swimmers, hands 1-5):

- shark.gbn (2026-01-01): Annie, Bob, Cid, Dee and the Shark Jaws; Bob wins (R14);
  ranking Bob, Cid, Dee, Annie, Jaws.
- two-player.gbn (2026-01-02): Nora (Red, Blue) against Otto (Green, Yellow);
  Red is devoured in round 5, so Otto wins (R10).
- standard.gbn (2026-01-03): Ann, Bob, Cid, Dee; ranking Dee, Cid, Ann, Bob (R8).
- three-player.gbn (2026-01-04): the same cards, ANN, Bob, Cid and the automaton
  Dee, who wins (R9): no player wins; ranks Cid 2, ANN 3, Bob 4.
- left-out.gbn: one unfinished game and one that breaks R1/R3.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from openskill.models import PlackettLuce

from getbit_events.validate import validate_game
from importers.gbn import read_gbn_file
from reports.selection import Aliases, Filters
from reports.sources import rows_from_reports
from reports.stats import StatsReport, build_report

#: what these test is plain Python in both builds (none of setup.py's COMPILED is their
#: subject): the compiled build's pass of .ci/run leaves them to the plain pass
pytestmark = pytest.mark.layers

STATS = Path(__file__).resolve().parent.parent / "fixtures" / "stats"


def _rows() -> list[Any]:
    reports = [validate_game(g) for f in sorted(STATS.glob("*.gbn")) for g in read_gbn_file(f)]
    return list(rows_from_reports(reports, []))


ROWS = _rows()


def _report(filters: Filters | None = None, *aliases: str) -> StatsReport:
    return build_report(ROWS, filters, Aliases.make(aliases))


def _player(report: StatsReport, name: str) -> Any:
    p = report.player(name)
    assert p is not None, name
    return p


def test_coverage() -> None:
    report = _report()
    assert report.games_included == 4
    assert report.games_excluded == {
        "superseded": 0, "retracted": 0, "invalid": 1, "unfinished": 1, "filtered": 0
    }
    assert report.variants == {"shark": 1, "standard": 1, "three-player": 1, "two-player": 1}


def test_ann_with_her_alias() -> None:
    p = _player(_report(None, "Annie=Ann"), "ann")
    assert p.name == "Ann"
    # games: shark (as Annie, rank 4), standard (rank 3), three-player (as ANN, rank 3)
    assert (p.games, p.wins, p.rank_distribution) == (3, 0, {3: 2, 4: 1})
    assert p.average_rank == pytest.approx(10 / 3)
    t = p.totals
    # bites: 1 (shark, round 7) + 4 + 4; devoured in standard and three-player
    assert (t["bites_taken"], t["limbs_lost"], t["devoured"]) == (9, 9, 2)
    assert t["rounds_survived"] == 24  # 8 + 8 + 8
    # plays: shark 1 2 3 4 5 1 2 1, standard and three-player 3 4 2 1 3 2 1 1 1 each
    assert p.plays_by_value == {1: 3 + 4 + 4, 2: 2 + 2 + 2, 3: 1 + 2 + 2, 4: 1 + 1 + 1, 5: 1,
                                6: 0, 7: 0}
    assert p.plays == 26
    assert (t["tied_plays"], t["moved_plays"]) == (4, 22)  # ties with Bob, rounds 1 and 4
    assert p.tied_share == pytest.approx(4 / 26)
    # front: shark rounds 5 7; standard 4 7 8 (twice). back: shark 1 2 3 6 8; standard 3 5 6
    assert (t["rounds_front"], t["rounds_back"]) == (2 + 3 + 3, 5 + 3 + 3)
    assert p.front_share == pytest.approx(8 / 24)
    assert p.back_share == pytest.approx(11 / 24)
    assert t["take_backs"] == 2 + 3 + 3
    assert p.per_game("take_backs") == pytest.approx(8 / 3)
    assert t["discarded"] == 0
    # by date: lost 01-01, lost 01-03, lost 01-04
    assert (p.longest_winning_streak, p.longest_losing_streak, p.dated_games) == (0, 3, 3)


def test_without_the_alias_annie_is_someone_else() -> None:
    report = _report()
    ann = _player(report, "ANN")  # ANN and Ann are one player, ignoring case
    assert (ann.name, ann.games, ann.totals["bites_taken"]) == ("Ann", 2, 8)
    assert _player(report, "annie").games == 1


def test_bob_cid_dee() -> None:
    report = _report(None, "Annie=Ann")
    bob = _player(report, "Bob")
    # won the shark game, last (4) in standard and three-player
    assert (bob.games, bob.wins, bob.average_rank) == (3, 1, 3.0)
    assert (bob.totals["bites_taken"], bob.totals["devoured"], bob.totals["discarded"]) == (8, 2, 1)
    assert bob.totals["rounds_survived"] == 8 + 5 + 5
    # shark 2 3 4 5 1 2 3 4; standard 3 1 1 1 2 1 (twice)
    assert bob.plays_by_value == {1: 1 + 4 + 4, 2: 2 + 1 + 1, 3: 2 + 1 + 1, 4: 2, 5: 1, 6: 0,
                                  7: 0}
    assert bob.totals["tied_plays"] == 1 + 2 + 2  # shark round 5 (a 1 with Cid); rounds 1, 4
    assert (bob.longest_winning_streak, bob.longest_losing_streak) == (1, 2)
    cid = _player(report, "Cid")
    # second every time; devoured twice by R8's two-swimmer end without a single bite
    assert (cid.games, cid.wins, cid.average_rank) == (3, 0, 2.0)
    assert (cid.totals["bites_taken"], cid.totals["limbs_lost"], cid.totals["devoured"]) == (
        0, 8, 2
    )
    assert cid.totals["rounds_front"] == 0
    dee = _player(report, "Dee")
    # R9: the three-player game, where Dee is the automaton, is not Dee's
    assert (dee.games, dee.wins, dee.rank_distribution) == (2, 1, {1: 1, 3: 1})
    assert dee.totals["rounds_survived"] == 8 + 9
    assert dee.totals["rounds_front"] == 4 + 3  # shark rounds 1 2 3 6; standard 1 6 9


def test_two_player_counts_for_the_teams_players() -> None:
    report = _report()
    nora, otto = _player(report, "Nora"), _player(report, "Otto")
    assert (nora.games, nora.wins, nora.average_rank, nora.swimmer_games) == (1, 0, 2.0, 1)
    assert (otto.games, otto.wins, otto.average_rank) == (1, 1, 1.0)
    # Red: bitten in rounds 2-5, devoured; Blue untouched
    assert (nora.totals["bites_taken"], nora.totals["devoured"]) == (4, 1)
    assert nora.totals["rounds_survived"] == 4 + 5  # both swimmers add up
    assert otto.totals["rounds_survived"] == 5 + 5
    # Red 1 2 1 1 1, Blue 2 3 4 5 2; Green 3 4 5 2 3, Yellow 4 5 2 3 4
    assert nora.plays_by_value == {1: 4, 2: 3, 3: 1, 4: 1, 5: 1, 6: 0, 7: 0}
    assert otto.plays_by_value == {1: 0, 2: 2, 3: 3, 4: 3, 5: 2, 6: 0, 7: 0}
    assert (nora.totals["take_backs"], otto.totals["take_backs"]) == (3 + 1, 1 + 1)
    assert report.player("Red") is None  # a swimmer, not a player


def test_the_shark() -> None:
    jaws = _player(_report(), "Jaws")
    assert (jaws.games, jaws.shark_games, jaws.shark_wins, jaws.swimmer_games) == (1, 1, 0, 0)
    assert jaws.rank_distribution == {5: 1}
    # 7 cards (rounds 2-8): hits in rounds 3, 5 (Exhaustion with a tie) and 7; 4 misses
    assert (jaws.totals["shark_cards"], jaws.shark_hits, jaws.totals["shark_misses"]) == (7, 3, 4)
    assert jaws.shark_hit_rate == pytest.approx(3 / 7)
    assert (jaws.totals["hunger_left"], jaws.average_hunger_left) == (0, 0.0)
    assert jaws.totals["bites_taken"] == 0


def test_starting_places() -> None:
    places = {(s.swimmers, s.place): (s.games, s.wins) for s in _report().places}
    # winners started at: shark Bob 2; two-player Otto's Green 3 and Yellow 4; standard Dee 4;
    # three-player Dee 4 (the automaton counts here: this is about places, not players)
    assert places == {
        (4, 1): (4, 0), (4, 2): (4, 1), (4, 3): (4, 1), (4, 4): (4, 3),
        (None, 1): (4, 0), (None, 2): (4, 1), (None, 3): (4, 1), (None, 4): (4, 3),
    }


def test_head_to_head() -> None:
    h2h = {(h.first, h.second): (h.games, h.first_ahead, h.second_ahead)
           for h in _report(None, "Annie=Ann").head_to_head}
    # ranks: shark Bob 1 Cid 2 Dee 3 Ann 4 Jaws 5; standard Dee 1 Cid 2 Ann 3 Bob 4;
    # three-player Cid 2 Ann 3 Bob 4; two-player Otto 1 Nora 2
    assert h2h == {
        ("Ann", "Bob"): (3, 2, 1),
        ("Ann", "Cid"): (3, 0, 3),
        ("Ann", "Dee"): (2, 0, 2),
        ("Ann", "Jaws"): (1, 1, 0),
        ("Bob", "Cid"): (3, 1, 2),
        ("Bob", "Dee"): (2, 1, 1),
        ("Bob", "Jaws"): (1, 1, 0),
        ("Cid", "Dee"): (2, 1, 1),
        ("Cid", "Jaws"): (1, 1, 0),
        ("Dee", "Jaws"): (1, 1, 0),
        ("Nora", "Otto"): (1, 0, 1),
    }


def test_rating_is_openskill_in_date_order() -> None:
    report = _report(None, "Annie=Ann")
    model = PlackettLuce()
    r = {k: model.rating(name=k) for k in ("ann", "bob", "cid", "dee", "jaws", "nora", "otto")}
    for game in (  # date order; each player with its rank, automaton left out
        [("ann", 4), ("bob", 1), ("cid", 2), ("dee", 3), ("jaws", 5)],
        [("nora", 2), ("otto", 1)],
        [("ann", 3), ("bob", 4), ("cid", 2), ("dee", 1)],
        [("ann", 3), ("bob", 4), ("cid", 2)],
    ):
        keys = sorted(game)
        new = model.rate([[r[k]] for k, _ in keys], ranks=[float(rank) for _, rank in keys])
        for (k, _), [rating] in zip(keys, new, strict=True):
            r[k] = rating
    for key, expected in r.items():
        got = _player(report, key).rating
        assert got is not None
        assert (got.mu, got.sigma) == pytest.approx((expected.mu, expected.sigma))
    assert _player(report, "ann").rating.games == 3
    assert _player(report, "dee").rating.games == 2


@pytest.mark.parametrize(
    ("filters", "included", "filtered"),
    [
        (Filters(variant="shark"), 1, 3),
        (Filters(swimmers=4), 4, 0),
        (Filters(swimmers=5), 0, 4),
        (Filters.make(since="2026-01-02", until="2026.01.03"), 2, 2),
        (Filters.make(tags=["event=Home"]), 1, 3),
        (Filters.make(tags=["Event=Club night"]), 3, 1),
        (Filters(players=("nora",)), 1, 3),
        (Filters(players=("ann",)), 2, 2),  # no alias: Annie's shark game is not Ann's
    ],
)
def test_filters(filters: Filters, included: int, filtered: int) -> None:
    report = _report(filters)
    assert report.games_included == included
    assert report.games_excluded == {
        "superseded": 0, "retracted": 0, "invalid": 1, "unfinished": 1, "filtered": filtered
    }


def test_player_filter_keeps_only_that_player_and_its_pairs() -> None:
    report = _report(Filters(players=("annie",)), "Annie=Ann")
    assert [p.name for p in report.players] == ["Ann"]
    assert report.games_included == 3
    assert all("Ann" in (h.first, h.second) for h in report.head_to_head)


def test_bad_options_are_input_errors() -> None:
    from getbit_events.errors import InputError

    with pytest.raises(InputError, match="--since"):
        Filters.make(since="yesterday")
    with pytest.raises(InputError, match="--tag"):
        Filters.make(tags=["Event"])
    with pytest.raises(InputError, match="--alias"):
        Aliases.make(["=Ann"])


def test_alias_chains_and_loops_end() -> None:
    aliases = Aliases.make(["Annie=Ann", "ann=Anne", "anne=annie"])
    assert aliases.key("annie") in {"ann", "anne", "annie"}
    assert Aliases.make(["a=b", "b=c"]).key("a") == "c"


def test_nothing_selected() -> None:
    report = build_report([])
    assert (report.games_included, report.players, report.latest_game) == (0, (), None)


def test_a_store_that_hands_out_tuples_gives_the_same_report() -> None:
    from collections.abc import Sequence

    from reports.columns import as_tuples
    from reports.sources import row_tuples
    from reports.stats import report_from_tuples

    class Dicts:
        def swimmer_rows(self, **filters: Any) -> list[Any]:
            return ROWS

    class Tuples(Dicts):
        asked: Sequence[str] = ()

        def swimmer_tuples(self, columns: Sequence[str]) -> list[tuple[Any, ...]]:
            self.asked = columns
            return [tuple(r[c] for c in columns) for r in reversed(ROWS)]  # any order

    fast = Tuples()
    assert list(row_tuples(Dicts())) == list(as_tuples(ROWS))
    assert report_from_tuples(row_tuples(fast)) == build_report(ROWS)
    assert "player_key" in fast.asked
