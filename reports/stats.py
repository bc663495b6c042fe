"""Statistics over the selected games: per player, by starting place, head to head,
streaks and ratings, all from read-model rows (``store.readmodel``).

A *player* is a name matched ignoring case (after ``--alias``): the swimmer in
standard, three-player and shark games, the ``Teams`` name in two-player games
(its two swimmers add up), and the Shark player. The automated swimmer is never
a player (R9). Definitions of every number are in ``docs/reports.md``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from itertools import combinations
from operator import itemgetter
from typing import Any

import attrs

from reports.columns import (
    DATE,
    GAME_ID,
    NAME,
    PLAYER_KEY,
    RANK,
    ROLE,
    SHARK_END,
    SHARK_START,
    SHARK_SUMS,
    START_PLACE,
    SWIMMER_END,
    SWIMMER_START,
    SWIMMER_SUMS,
    SWIMMERS,
    VARIANT,
    WON,
    Row,
    as_tuples,
)
from reports.rating import Rating, RatingPoint, rate_games
from reports.selection import Aliases, Filters, Selection, select
from store.readmodel import VALUES

__all__ = [
    "HeadToHead",
    "PlaceStats",
    "PlayerStats",
    "StatsReport",
    "build_report",
    "display_name",
    "place_stats",
    "report_from_tuples",
    "summarise",
]

def _ratio(part: float, whole: float) -> float | None:
    return part / whole if whole else None


@attrs.frozen
class PlayerStats:
    """Everything counted for one player over the selected games.

    ``totals`` holds the read-model counts added up (``SWIMMER_SUMS`` over the
    player's swimmer rows, ``SHARK_SUMS`` over its Shark rows).
    """

    key: str
    name: str
    games: int
    wins: int
    rank_distribution: dict[int, int]
    swimmer_games: int
    totals: dict[str, int]
    shark_games: int
    shark_wins: int
    dated_games: int
    longest_winning_streak: int
    longest_losing_streak: int
    rating: Rating | None

    @classmethod
    def empty(cls, key: str, name: str) -> PlayerStats:
        """A player with no games (every count 0)."""
        totals = dict.fromkeys((*SWIMMER_SUMS, *SHARK_SUMS), 0)
        return cls(key, name, 0, 0, {}, 0, totals, 0, 0, 0, 0, 0, None)

    @property
    def win_rate(self) -> float | None:
        return _ratio(self.wins, self.games)

    @property
    def average_rank(self) -> float | None:
        total = sum(rank * n for rank, n in self.rank_distribution.items())
        return _ratio(total, self.games)

    @property
    def plays_by_value(self) -> dict[int, int]:
        return {v: self.totals[f"plays_{v}"] for v in VALUES}

    @property
    def plays(self) -> int:
        return sum(self.totals[f"plays_{v}"] for v in VALUES)

    def per_game(self, name: str) -> float | None:
        """A swimmer count per game played as a swimmer (two-player: both swimmers)."""
        return _ratio(self.totals[name], self.swimmer_games)

    @property
    def tied_share(self) -> float | None:
        return _ratio(self.totals["tied_plays"], self.plays)

    @property
    def moved_share(self) -> float | None:
        return _ratio(self.totals["moved_plays"], self.plays)

    @property
    def front_share(self) -> float | None:
        return _ratio(self.totals["rounds_front"], self.totals["rounds_survived"])

    @property
    def back_share(self) -> float | None:
        return _ratio(self.totals["rounds_back"], self.totals["rounds_survived"])

    @property
    def shark_hits(self) -> int:
        return self.totals["shark_cards"] - self.totals["shark_misses"]

    @property
    def shark_hit_rate(self) -> float | None:
        return _ratio(self.shark_hits, self.totals["shark_cards"])

    @property
    def average_hunger_left(self) -> float | None:
        return _ratio(self.totals["hunger_left"], self.shark_games)


@attrs.frozen
class PlaceStats:
    """Win rate of the swimmers that started at ``place`` (1 = front) in lines of ``swimmers``.

    ``swimmers`` is None for all line lengths together.
    """

    swimmers: int | None
    place: int
    games: int
    wins: int

    @property
    def win_rate(self) -> float | None:
        return _ratio(self.wins, self.games)


@attrs.frozen
class HeadToHead:
    """Two players' shared games and how often each finished ahead of the other."""

    first: str
    second: str
    games: int
    first_ahead: int
    second_ahead: int


@attrs.frozen
class StatsReport:
    """The statistics of one selection of games, for people and for programs alike.

    ``latest_game`` is the id of the last game in date order (undated games last).
    """

    filters: Filters
    aliases: Aliases
    games_included: int
    games_excluded: dict[str, int]
    variants: dict[str, int]
    dated_games: int
    players: tuple[PlayerStats, ...]
    places: tuple[PlaceStats, ...]
    head_to_head: tuple[HeadToHead, ...]
    rating_history: dict[str, list[RatingPoint]]  # display name -> points (with ``history``)
    latest_game: str | None = None

    def player(self, name: str) -> PlayerStats | None:
        """The player called ``name`` (ignoring case, after aliases), if it played."""
        key = self.aliases.key(name.casefold())
        return next((p for p in self.players if p.key == key), None)


class _Player:
    __slots__ = (
        "dated",
        "games",
        "names",
        "ranks",
        "shark_games",
        "shark_rows",
        "shark_wins",
        "streak",
        "swimmer_games",
        "swimmer_rows",
        "wins",
    )

    def __init__(self) -> None:
        self.games = 0
        self.wins = 0
        self.ranks: Counter[int] = Counter()
        self.names: dict[str, int] = {}
        self.swimmer_games = 0
        self.swimmer_rows: list[Row] = []
        self.shark_rows: list[Row] = []
        self.shark_games = 0
        self.shark_wins = 0
        self.dated = 0
        # longest winning run, longest losing run, current run (+wins / -losses)
        self.streak = [0, 0, 0]

    def totals(self) -> dict[str, int]:
        """The read-model counts added up over the player's rows (column by column)."""
        swimmer = [sum(map(itemgetter(i), self.swimmer_rows))
                   for i in range(SWIMMER_START, SWIMMER_END)]
        shark = [sum(map(itemgetter(i), self.shark_rows)) for i in range(SHARK_START, SHARK_END)]
        return dict(zip((*SWIMMER_SUMS, *SHARK_SUMS), swimmer + shark, strict=True))

    def result(self, won: bool) -> None:
        s = self.streak
        run = s[2]
        run = run + 1 if won and run > 0 else 1 if won else run - 1 if run < 0 else -1
        s[2] = run
        if run > s[0]:
            s[0] = run
        if -run > s[1]:
            s[1] = -run


def _order(game: list[Row]) -> tuple[bool, str]:
    """Date order, undated games last; a stable sort keeps games of one date in
    the order they came (stored, or read from the files)."""
    date = game[0][DATE]
    return (date is None, date or "")


def _results(games: list[list[Row]], key_of: Any) -> list[list[tuple[str, int]]]:
    """Each game's players (after aliases) and their ranks, in key order."""
    out = []
    for game in games:
        ranks: dict[str, int] = {}
        for r in game:
            if r[ROLE] == "automaton":
                continue
            key = r[PLAYER_KEY] if key_of is None else key_of(r[PLAYER_KEY])
            if key not in ranks:
                ranks[key] = r[RANK]
        out.append(sorted(ranks.items()))
    return out


def build_report(
    rows: Iterable[Mapping[str, Any]],
    filters: Filters | None = None,
    aliases: Aliases | None = None,
    history: bool = False,
    unreadable: int = 0,
) -> StatsReport:
    """Statistics of read-model ``rows`` (dicts, any order) under ``filters`` and ``aliases``.

    ``history`` keeps every player's rating after each game (for plots);
    ``unreadable`` games (no events, so no rows) are counted as invalid.
    """
    return report_from_tuples(as_tuples(rows), filters, aliases, history, unreadable)


def report_from_tuples(
    rows: Iterable[Row],
    filters: Filters | None = None,
    aliases: Aliases | None = None,
    history: bool = False,
    unreadable: int = 0,
    left_out: Mapping[str, int] | None = None,
) -> StatsReport:
    """``build_report`` of rows already tuples of ``reports.columns.ROW`` (faster).

    ``left_out``: games with no rows among ``rows`` that the report still says it
    left out, by reason (a store's superseded and retracted games).
    """
    filters = filters or Filters()
    aliases = aliases or Aliases()
    selection = select(rows, filters, aliases)
    selection.excluded["invalid"] += unreadable
    for why, n in (left_out or {}).items():
        selection.excluded[why] += n
    return summarise(selection, filters, aliases, history)


def summarise(
    selection: Selection, filters: Filters, aliases: Aliases, history: bool = False
) -> StatsReport:
    """Statistics of selected games; games are taken in date order (undated last).

    Ratings are over every valid game of the selection's source, whatever the
    filters: the filters choose what is counted and who is shown.
    """
    games = sorted(selection.games, key=_order)
    everything = not selection.valid or len(selection.valid) == len(games)
    players: dict[str, _Player] = {}
    places: dict[tuple[int, int], list[int]] = {}
    pairs: dict[tuple[str, str], list[int]] = {}
    variants: Counter[str] = Counter()
    rated: list[list[tuple[str, int]]] = []
    game_ids: list[str] = []
    dates: list[str | None] = []
    key_of = aliases.key if aliases.pairs else None
    dated_games = 0
    for game in games:
        first = game[0]
        date = first[DATE]
        variants[first[VARIANT]] += 1
        dated_games += date is not None
        ranks: dict[str, int] = {}
        for r in game:
            role = r[ROLE]
            if role != "shark":
                where = (r[SWIMMERS], r[START_PLACE])
                tally = places.get(where)
                if tally is None:
                    tally = places[where] = [0, 0]
                tally[0] += 1
                tally[1] += r[WON]
            if role == "automaton":  # R9: never a player
                continue
            key = r[PLAYER_KEY]
            if key_of is not None:
                key = key_of(key)
            p = players.get(key)
            if p is None:
                p = players[key] = _Player()
            spelt = p.names
            spelt[r[NAME]] = spelt.get(r[NAME], 0) + 1
            new = key not in ranks
            if new:
                rank = ranks[key] = r[RANK]
                p.games += 1
                p.wins += r[WON]
                p.ranks[rank] += 1
                if date is not None:
                    p.dated += 1
                    p.result(bool(r[WON]))
            if role == "shark":
                p.shark_games += 1
                p.shark_wins += r[WON]
                p.shark_rows.append(r)
            else:
                if new:
                    p.swimmer_games += 1
                p.swimmer_rows.append(r)
        result = sorted(ranks.items())
        for (a, rank_a), (b, rank_b) in combinations(result, 2):
            tally = pairs.get((a, b))
            if tally is None:
                tally = pairs[(a, b)] = [0, 0, 0]
            tally[0] += 1
            tally[1 if rank_a < rank_b else 2] += 1  # ranks in a game never tie
        rated.append(result)
        if history:
            game_ids.append(first[GAME_ID])
            dates.append(date)
    if not everything:  # the filters left games out: rate them all the same
        every = sorted(selection.valid, key=_order)
        rated = _results(every, key_of)
        game_ids = [g[0][GAME_ID] for g in every] if history else []
        dates = [g[0][DATE] for g in every] if history else []
    ratings, points = rate_games(rated, game_ids, dates, history)

    wanted = {aliases.key(n.casefold()) for n in filters.players}
    out = []
    for key, p in players.items():
        if wanted and key not in wanted:
            continue
        name = display_name(key, p.names, aliases)
        out.append(
            PlayerStats(
                key,
                name,
                p.games,
                p.wins,
                dict(sorted(p.ranks.items())),
                p.swimmer_games,
                p.totals(),
                p.shark_games,
                p.shark_wins,
                p.dated,
                p.streak[0],
                p.streak[1],
                ratings.get(key),
            )
        )
    out.sort(key=lambda s: (-(s.win_rate or 0.0), -s.games, s.name.casefold()))
    names = {s.key: s.name for s in out}
    for key, p in players.items():
        names.setdefault(key, display_name(key, p.names, aliases))
    h2h = [
        HeadToHead(names[a], names[b], n, a_ahead, b_ahead)
        for (a, b), (n, a_ahead, b_ahead) in sorted(pairs.items())
        if not wanted or a in wanted or b in wanted
    ]
    return StatsReport(
        filters,
        aliases,
        selection.included,
        dict(selection.excluded),
        dict(sorted(variants.items())),
        dated_games,
        tuple(out),
        place_stats(places),
        tuple(h2h),
        {names[k]: v for k, v in points.items() if k in names and (not wanted or k in wanted)},
        games[-1][0][GAME_ID] if games else None,
    )


def display_name(key: str, spellings: Mapping[str, int], aliases: Aliases) -> str:
    """The name to show: the commonest spelling of the player's own name, else
    the alias target as typed, else the commonest spelling merged into it."""
    own = {n: c for n, c in spellings.items() if n.casefold() == key}
    if own:
        return max(own, key=own.__getitem__)  # the first seen among the commonest
    return aliases.display(key) or max(spellings, key=spellings.__getitem__)


def place_stats(places: Mapping[tuple[int, int], list[int]]) -> tuple[PlaceStats, ...]:
    out = [PlaceStats(n, place, g, w) for (n, place), (g, w) in sorted(places.items())]
    overall: dict[int, list[int]] = {}
    for (_, place), (g, w) in places.items():
        tally = overall.setdefault(place, [0, 0])
        tally[0] += g
        tally[1] += w
    out.extend(PlaceStats(None, p, g, w) for p, (g, w) in sorted(overall.items()))
    return tuple(out)
