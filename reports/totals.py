"""Statistics from a store's totals read model: every player, or one player's games.

A store keeps, as games arrive, each player's counts, the spellings of its name,
every pair's results, the games per status and variant, and the standings
(ratings and streaks in date order): ``store.readmodel.Tally`` and
``Standings``. A report over all valid games, or over one player's, is then a
matter of reading those few hundred rows, not every row of every game.
:func:`store_report` takes that way when the options allow it and reads the
rows otherwise; both give the same report (``tests/test_reports_totals.py``).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from typing import Any, Protocol

from reports.columns import SHARK_SUMS, SWIMMER_SUMS
from reports.rating import Rating
from reports.selection import EXCLUSION_REASONS, Aliases, Filters
from reports.sources import RowSource, TupleRowSource, row_tuples
from reports.stats import (
    HeadToHead,
    PlayerStats,
    StatsReport,
    display_name,
    place_stats,
    report_from_tuples,
)
from store.readmodel import SUMS, Totals

__all__ = ["LeftOutSource", "TotalsSource", "quick", "report_from_totals", "store_report"]

_TOTALS = (*SWIMMER_SUMS, *SHARK_SUMS)
_AT = {name: 9 + i for i, name in enumerate(SUMS)}  # where each sum sits in a players row


class LeftOutSource(Protocol):
    """A store that says which of its games have no rows to read: superseded,
    retracted, broken (``GameStore.left_out``)."""

    def left_out(self) -> Mapping[str, int]: ...


class TotalsSource(Protocol):
    """A store with a totals read model (``GameStore.totals``)."""

    def totals(self, player_key: str | None = None) -> Totals: ...


def quick(filters: Filters, aliases: Aliases, history: bool) -> bool:
    """Whether the totals answer: no aliases, no rating history, and no filter
    but at most one player."""
    plain = Filters(players=filters.players)
    return not aliases.pairs and not history and filters == plain and len(filters.players) <= 1


def store_report(
    store: RowSource | TupleRowSource | TotalsSource,
    filters: Filters | None = None,
    aliases: Aliases | None = None,
    history: bool = False,
) -> StatsReport:
    """The statistics of a store's games: from its totals when :func:`quick`, else
    from its rows (``reports.stats.report_from_tuples``)."""
    filters = filters or Filters()
    aliases = aliases or Aliases()
    if hasattr(store, "totals") and quick(filters, aliases, history):
        key = filters.players[0].casefold() if filters.players else None
        return report_from_totals(store.totals(key), filters, aliases)
    left_out = dict(store.left_out()) if hasattr(store, "left_out") else {}
    broken = left_out.pop("broken", 0)  # a set-up that broke the rules: no rows, invalid
    return report_from_tuples(
        row_tuples(store), filters, aliases, history, broken, left_out  # type: ignore[arg-type]
    )


class _Sums:
    def __init__(self) -> None:
        self.counts = [0] * 6  # games, wins, dated, swimmer games, Shark games, Shark wins
        self.ranks: Counter[int] = Counter()
        self.totals = dict.fromkeys(_TOTALS, 0)


def report_from_totals(totals: Totals, filters: Filters, aliases: Aliases) -> StatsReport:
    """The report of all valid games (no player in ``filters``) or of the games
    of the one player in ``filters``, from a store's totals."""
    wanted = filters.players[0].casefold() if filters.players else None
    players: dict[str, _Sums] = {}
    variants: Counter[str] = Counter()
    for row in totals.players:
        key, variant, rank, games = row[0], row[1], row[2], row[3]
        if wanted is not None and key != wanted:
            continue
        p = players.get(key)
        if p is None:
            p = players[key] = _Sums()
        for i in range(6):
            p.counts[i] += row[3 + i]
        p.ranks[rank] += games
        for name in _TOTALS:
            p.totals[name] += row[_AT[name]]
        if wanted is not None:
            variants[variant] += games
    spellings: dict[str, dict[str, int]] = {}
    for key, name, count, _ in sorted(totals.names, key=lambda n: n[3]):  # first seen first
        spellings.setdefault(key, {})[name] = count
    names = {key: display_name(key, spelt, aliases) for key, spelt in spellings.items()}
    standings = {row[0]: row[1:] for row in totals.standings}

    excluded = dict.fromkeys(EXCLUSION_REASONS, 0)
    for why, n in totals.left_out:  # a broken set-up has no rows: invalid all the same
        excluded["invalid" if why == "broken" else why] += n
    valid = dated = 0
    for status, variant, games, dated_games in totals.games:
        if status == "valid":
            valid += games
            dated += dated_games
            if wanted is None:
                variants[variant] += games
        else:
            excluded["invalid" if status == "invalid" else "unfinished"] += games
    if wanted is None:
        included, latest = valid, totals.latest
    else:
        mine = players.get(wanted)
        included = mine.counts[0] if mine else 0
        dated = mine.counts[2] if mine else 0
        latest = standings[wanted][7] if mine and wanted in standings else None
    excluded["filtered"] = valid - included

    out = [_player(key, names[key], p, standings.get(key)) for key, p in players.items()]
    out.sort(key=lambda s: (-(s.win_rate or 0.0), -s.games, s.name.casefold()))
    h2h = [
        HeadToHead(names[a], names[b], n, a_ahead, b_ahead)
        for a, b, n, a_ahead, b_ahead in sorted(totals.pairs)
        if wanted is None or wanted in (a, b)
    ]
    places = {(n, place): [games, wins] for n, place, games, wins in totals.places}
    return StatsReport(
        filters,
        aliases,
        included,
        excluded,
        dict(sorted(variants.items())),
        dated,
        tuple(out),
        place_stats(places),
        tuple(h2h),
        {},
        latest,
    )


def _player(key: str, name: str, p: _Sums, standing: Iterable[Any] | None) -> PlayerStats:
    games, wins, dated, swimmer_games, shark_games, shark_wins = p.counts
    rating = longest_win = longest_loss = None
    if standing is not None:
        mu, sigma, rated, longest_win, longest_loss, *_ = standing
        rating = Rating(mu, sigma, rated) if mu is not None else None
    return PlayerStats(
        key,
        name,
        games,
        wins,
        dict(sorted(p.ranks.items())),
        swimmer_games,
        p.totals,
        shark_games,
        shark_wins,
        dated,
        longest_win or 0,
        longest_loss or 0,
        rating,
    )
