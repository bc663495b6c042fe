"""The statistics read model: one flat row per game per swimmer (and one for the Shark).

This module is the contract between the store and the reports. It is pure: no
SQL, no files. The store creates a table ``game_swimmers`` whose columns are
``COLUMNS`` (in order, with those SQLite types; one row per ``game_id`` and
``swimmer``) and fills it with ``row_tuples(game_id, events, status, tags)`` in the
same transaction as the game's events, so the table can always be rebuilt from
the events. When ``VERSION`` changes the store rebuilds the table.

Reading it back
---------------
Reports read every row of the table and do their own grouping and filtering.
``GameStore.swimmer_rows()`` (dicts) is enough. A store that also offers
``swimmer_tuples(columns: Sequence[str]) -> Iterable[tuple]`` (just ``SELECT
<columns> FROM game_swimmers``, in the order stored, plain tuples) is used
instead by ``reports.sources.row_tuples``.

Totals
------
The end of this module is a second read model built from those rows: what a
report adds up (``Tally``: per player, spelling, pair, status) and what it
works out in date order (``Standings``: ratings and streaks), kept by the store
as games arrive (tables ``TOTALS``) so that a report over every game, or one
player's, reads a few hundred rows (``reports.totals``).

What a row is
-------------
One row per swimmer of the starting line, plus one row for the Shark player in
the shark variant. ``name`` is the *player* the row counts for, as spelt in the
record, and ``player_key`` is ``name.casefold()``, the key statistics group by:

- ``standard``, ``three-player``, ``shark``: the player is the swimmer, so
  ``name == swimmer``;
- ``two-player``: the player is the ``Teams`` name that owns the swimmer, so each
  player has two rows per game (``swimmer`` tells them apart) and both rows
  carry the player's ``rank`` and ``won``. Count a player's games with
  ``COUNT(DISTINCT game_id)``; swimmer counts (bites, plays ...) add up over
  both swimmers;
- the Shark player's row has ``role = 'shark'`` and ``swimmer`` = its name.

``role`` is ``swimmer``, ``automaton`` (R9: the automated swimmer of
three-player, left out of player statistics) or ``shark``.

Columns (counts are whole numbers, 0 where they do not apply)
------------------------------------------------------------
- ``game_id``, ``status`` (``valid``: finished by the rules; ``unfinished``: by
  the rules so far, not over; ``invalid``: breaks a rule), ``variant``,
  ``memory`` (0/1), ``swimmers`` (figures in the starting line), ``players``
  (distinct players: the automaton left out, the Shark counted), ``date``
  (the ``Date`` tag as ``YYYY-MM-DD``, or NULL when missing or not a full
  date), ``tags`` (every tag of the game as a JSON object), ``rounds``
  (rounds recorded), ``end_reason`` (the ruling that ended it, NULL while
  unfinished), ``winner`` (as spelt; NULL while unfinished);
- ``start_place``: 1 for the front of the starting line (NULL for the Shark);
- ``rank``: the place in the game's final ranking, 1 best (two-player: the
  owning player's place, 1 or 2); ``won``: 0/1. Both NULL while unfinished;
- ``bites_taken``: limbs lost to a bite (R6) or a Shark card (R11);
  ``limbs_lost``: limbs gone at the end (4 when devoured, whatever the last
  bite; R8's two-swimmer end takes the limbs left); ``devoured``: 0/1;
- ``rounds_survived``: rounds that ended with the swimmer still on the line;
- ``plays_1`` .. ``plays_7``: cards of each value played (a card no hand holds, 0 or
  99 say, which the validator reports and still plays, counts in none of them, and
  a fact naming someone not in the line counts for nobody); ``blank_plays``:
  rounds with no card to play (R15); ``tied_plays``: plays whose value another
  swimmer also played that round (R4); ``moved_plays``: plays that moved the
  swimmer to the front by its card (R4);
- ``rounds_front`` / ``rounds_back``: rounds that ended with the swimmer first
  / last on the line (last only counts when two or more are on it);
- ``take_backs``: times the swimmer took its played cards back (R6, R7, the
  automaton's reshuffle of R9); ``discarded``: cards it lost to Exhaustion (R11);
- Shark row only: ``shark_cards`` (Shark cards played), ``shark_bites`` (limbs
  taken), ``shark_exhaustions`` (Exhaustion with a tie: a hit, not a miss),
  ``shark_misses`` (R12), ``hunger_left`` (tokens at the end; NULL on other
  rows).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import attrs
from openskill.models import PlackettLuce

from getbit_events.events import (
    CardChosen,
    CardsDiscarded,
    CardsRevealed,
    CardsTakenBack,
    Event,
    GameEnded,
    GameStarted,
    HungerLost,
    SharkCardPlayed,
    SwimmerBitten,
    SwimmerDevoured,
    SwimmerMoved,
)
from getbit_events.reducer import LineFold
from getbit_events.steps import Fact
from importers.reading import iso_date

__all__ = [
    "COLUMNS",
    "PLAYER_COUNTS",
    "ROLES",
    "SHARK_COUNTS",
    "STANDING",
    "STATUSES",
    "SUMS",
    "SWIMMER_COUNTS",
    "TABLE",
    "TOTALS",
    "VERSION",
    "Result",
    "Standings",
    "Tally",
    "Totals",
    "fact_rows",
    "game_status",
    "iso_date",
    "order_key",
    "row_tuples",
    "rows",
]

#: Bump when a column is added, a count changes meaning or the rows are kept otherwise
#: (3: in their game's range of rowids, ``schema.row_ids``): the store rebuilds the table.
VERSION = 3
TABLE = "game_swimmers"
ROLES: tuple[str, ...] = ("swimmer", "automaton", "shark")
STATUSES: tuple[str, ...] = ("valid", "invalid", "unfinished")
VALUES: tuple[int, ...] = (1, 2, 3, 4, 5, 6, 7)

#: The counts of a swimmer's row, which a player's statistics add up.
SWIMMER_COUNTS: tuple[str, ...] = (
    "bites_taken",
    "limbs_lost",
    "devoured",
    "rounds_survived",
    *(f"plays_{v}" for v in VALUES),
    "blank_plays",
    "tied_plays",
    "moved_plays",
    "rounds_front",
    "rounds_back",
    "take_backs",
    "discarded",
)
#: The counts of the Shark player's row.
SHARK_COUNTS: tuple[str, ...] = (
    "shark_cards",
    "shark_bites",
    "shark_exhaustions",
    "shark_misses",
)
_COUNTS: tuple[str, ...] = (*SWIMMER_COUNTS, *SHARK_COUNTS)

#: column -> SQLite type, in table order.
COLUMNS: dict[str, str] = {
    "game_id": "TEXT",
    "swimmer": "TEXT",
    "name": "TEXT",
    "player_key": "TEXT",
    "role": "TEXT",
    "status": "TEXT",
    "variant": "TEXT",
    "memory": "INTEGER",
    "swimmers": "INTEGER",
    "players": "INTEGER",
    "date": "TEXT",
    "tags": "TEXT",
    "rounds": "INTEGER",
    "end_reason": "TEXT",
    "winner": "TEXT",
    "start_place": "INTEGER",
    "rank": "INTEGER",
    "won": "INTEGER",
    **dict.fromkeys(_COUNTS, "INTEGER"),
    "hunger_left": "INTEGER",
}

_LIMBS = 4
# Where each count sits in a swimmer's list of counts (``_COUNTS`` order).
(_BITES, _LIMBS_LOST, _DEVOURED, _SURVIVED) = range(4)
_PLAYS = _COUNTS.index("plays_1") - 1  # plays of value v at _PLAYS + v
(_BLANK, _TIED, _MOVED, _FRONT, _BACK, _TAKE_BACKS, _DISCARDED, _SHARK_CARDS, _SHARK_BITES,
 _SHARK_EXHAUSTIONS, _SHARK_MISSES) = (_COUNTS.index(c) for c in _COUNTS[_PLAYS + 8:])
def game_status(valid: bool, finished: bool) -> str:
    """The ``status`` column for a validated game (``GameReport.valid``, ``.finished``)."""
    if not valid:
        return "invalid"
    return "valid" if finished else "unfinished"


def _tag(tags: Mapping[str, str], name: str) -> str | None:
    for key, value in tags.items():
        if key.casefold() == name.casefold():
            return value
    return None


def rows(
    game_id: str, events: Sequence[Event], status: str, tags: Mapping[str, str]
) -> list[dict[str, Any]]:
    """The read-model rows of one game, as ``{column: value}``: see :func:`row_tuples`."""
    found = row_tuples(game_id, events, status, tags)
    return [dict(zip(COLUMNS, row, strict=True)) for row in found]


def row_tuples(
    game_id: str, events: Sequence[Event], status: str, tags: Mapping[str, str]
) -> list[tuple[Any, ...]]:
    """The read-model rows of one game, values in ``COLUMNS`` order: starting-line
    order, then the Shark.

    ``events`` is the game's complete stream, ``GameStarted`` first; ``status``
    one of ``STATUSES``; ``tags`` every tag of the record (the Date tag is read
    from it, ignoring case). Raises ValueError on a stream without a set-up.
    """
    return fact_rows(game_id, [(e.round, type(e), e, None) for e in events], status, tags)


def fact_rows(
    game_id: str, facts: Sequence[Fact], status: str, tags: Mapping[str, str]
) -> list[tuple[Any, ...]]:
    """``row_tuples`` of a game's stream as facts (``steps.Fact``: each event's class and
    what it is made of, whose fields read by name as the event's)."""
    if status not in STATUSES:
        raise ValueError(f"status must be one of {', '.join(STATUSES)}, not {status!r}")
    if not facts or facts[0][1] is not GameStarted:
        raise ValueError(f"game {game_id}: the events must start with game-started")
    setup: GameStarted = facts[0][2]
    owner = {s: s for s in setup.line}
    for player, team in setup.teams:
        for s in team:
            owner[s] = player
    width = len(_COUNTS)
    acc: dict[str, list[int]] = {s: [0] * width for s in setup.line}
    shark = [0] * width
    shark_variant = setup.variant == "shark"
    hunger = setup.hunger
    held = LineFold(setup)  # the line at the end of each round is the fold's
    ended: Any = None  # the GameEnded, or the step it is made of
    current = 0
    rounds = 0

    def close_round() -> None:
        line = held.line
        for s in line:  # the line at the end of the round
            acc[s][_SURVIVED] += 1
        if line:
            acc[line[0]][_FRONT] += 1
        if len(line) >= 2:
            acc[line[-1]][_BACK] += 1

    # A record may name what is not in its line, or play a card no hand holds (the
    # validator reports it and still makes the events): such a fact counts for nobody.
    nobody = [0] * width
    for r, kind, e, _pos in facts[1:]:
        if r != current:
            if current:
                close_round()
            current = r
            rounds = max(rounds, current)
        if kind is CardChosen:  # the commonest event counts nothing, moves nobody
            continue
        held.take(kind, e)
        if kind is SwimmerMoved:  # the next commonest
            who = e.who
            if who not in acc:
                continue
            if e.why == "card":
                acc[who][_MOVED] += 1
        elif kind is CardsRevealed:
            cards = e.cards
            shown = [v for _, v in cards if v is not None]
            for s, v in cards:
                a = acc.get(s, nobody)
                if v is None:
                    a[_BLANK] += 1
                    continue
                if v in VALUES:  # R1: a card of 0, 20 or 10**30 is played but has no column
                    a[_PLAYS + v] += 1
                if shown.count(v) > 1:  # R4: equal values tie
                    a[_TIED] += 1
        elif kind is CardsTakenBack:
            acc.get(e.who, nobody)[_TAKE_BACKS] += 1
        elif kind is SwimmerBitten:
            a = acc.get(e.who, nobody)
            a[_BITES] += 1
            a[_LIMBS_LOST] += 1
            if shark_variant:
                shark[_SHARK_BITES] += 1
        elif kind is SwimmerDevoured:
            who = e.who
            a = acc.get(who, nobody)
            a[_DEVOURED] = 1
            a[_LIMBS_LOST] = _LIMBS  # R6, R8: devoured has no limbs
        elif kind is CardsDiscarded:
            shark[_SHARK_EXHAUSTIONS] += 1
            for s, _ in e.cards:
                acc.get(s, nobody)[_DISCARDED] += 1
        elif kind is SharkCardPlayed:
            shark[_SHARK_CARDS] += 1
        elif kind is HungerLost:
            shark[_SHARK_MISSES] += 1
            hunger = e.left
        elif kind is GameEnded:
            ended = e
    if current:
        close_round()

    players = {owner[s] for s in setup.line if s != setup.automaton}
    if setup.shark is not None:
        players.add(setup.shark)
    common = (
        status,
        setup.variant,
        int(setup.memory),
        len(setup.line),
        len(players),
        iso_date(_tag(tags, "Date")),
        json.dumps(dict(tags), ensure_ascii=False),
        rounds,
        ended.why if ended else None,
        ended.winner if ended else None,
    )
    ranking = ended.ranking if ended else ()

    def result(name: str) -> tuple[int | None, int | None]:
        if ended is None:
            return None, None
        rank = ranking.index(name) + 1 if name in ranking else None
        return rank, int(ended.winner == name)

    out: list[tuple[Any, ...]] = []
    for place, s in enumerate(setup.line, 1):
        player = owner[s]
        role = "automaton" if s == setup.automaton else "swimmer"
        own: tuple[Any, ...] = (game_id, s, player, player.casefold(), role)
        out.append((*own, *common, place, *result(player), *acc[s], None))
    if setup.shark is not None:
        name = setup.shark
        own = (game_id, name, name, name.casefold(), "shark")
        out.append((*own, *common, None, *result(name), *shark, hunger))
    return out


# -- player totals and standings -------------------------------------------------
# What a report sums over the rows, kept per player by the store as games arrive
# (``docs/store.md``), so a report reads a few hundred totals instead of every row.

#: The counts a player's rows add up (swimmer rows and Shark rows alike: each
#: row has 0 in the other kind's counts, and ``hunger_left`` is 0 off the Shark).
SUMS: tuple[str, ...] = (*_COUNTS, "hunger_left")
_FIRST_SUM = list(COLUMNS).index(_COUNTS[0])


#: A valid game for :class:`Standings`: its order key, game id, whether it has a Date, and
#: its players' results (player key, rank, won).
Result = tuple[str, str, bool, list[tuple[str, int, int]]]
#: Columns of the totals tables (SQLite types) and their primary keys.
PLAYER_COUNTS = ("games", "wins", "dated", "swimmer_games", "shark_games", "shark_wins")
STANDING = ("mu", "sigma", "rated", "win_streak", "loss_streak", "run", "last_order", "last_game")
TOTALS: dict[str, tuple[dict[str, str], tuple[str, ...]]] = {
    "player_totals": (
        {"player_key": "TEXT", "variant": "TEXT", "rank": "INTEGER"}
        | dict.fromkeys((*PLAYER_COUNTS, *SUMS), "INTEGER"),
        ("player_key", "variant", "rank"),
    ),
    "player_names": (
        {"player_key": "TEXT", "name": "TEXT", "rows": "INTEGER", "first": "TEXT"},
        ("player_key", "name"),
    ),
    "pair_totals": (
        {"first": "TEXT", "second": "TEXT"}
        | dict.fromkeys(("games", "first_ahead", "second_ahead"), "INTEGER"),
        ("first", "second"),
    ),
    "game_totals": (
        {"status": "TEXT", "variant": "TEXT", "games": "INTEGER", "dated": "INTEGER"},
        ("status", "variant"),
    ),
    "standings": (
        {"player_key": "TEXT", "mu": "REAL", "sigma": "REAL"}
        | dict.fromkeys(STANDING[2:6], "INTEGER")
        | {"last_order": "TEXT", "last_game": "TEXT"},
        ("player_key",),
    ),
}


def order_key(date: str | None, seq: int) -> str:
    """Where a game comes in date order: dated games by date, then undated ones,
    games of the same date (or undated) in the order ``seq`` they were stored."""
    return f"0{date}|{seq:012d}" if date is not None else f"1|{seq:012d}"


class Tally:
    """Totals of valid games, added up a game at a time: per player (and variant
    and rank), per spelling of a name, per pair of players, per status and variant.

    ``add`` takes one game's read-model rows as tuples in ``COLUMNS`` order. The
    counting is the report's (``reports.stats``): the automaton is no player; a
    player's first row in a game gives its rank and result; two-player swimmer
    rows add up.
    """

    def __init__(self) -> None:
        # (player_key, variant, rank) -> [games, wins, dated, swimmer_games,
        # shark_games, shark_wins, *SUMS]
        self.players: dict[tuple[str, str, int], list[int]] = {}
        self.names: dict[tuple[str, str], list[Any]] = {}  # -> [rows, first order key]
        self.pairs: dict[tuple[str, str], list[int]] = {}  # -> [games, first ahead, second ahead]
        self.games: dict[tuple[str, str], list[int]] = {}  # (status, variant) -> [games, dated]
        self.results: list[Result] = []
        # each player's key as first read: the results of a large store's games share
        # it, rather than hold a copy each (``getbit check``, ``rebuild``)
        self._keys: dict[str, str] = {}

    def add(self, game: Sequence[tuple[Any, ...]], seq: int) -> None:
        """Count one game, the ``seq``-th stored; a valid game's result, for
        :class:`Standings`, goes to ``results``: (order key, its game id, whether it
        has a Date, the (player key, rank, won) of its players in key order), no
        more, as a tally of every game holds them all."""
        first = game[0]
        status, variant, date = first[5], first[6], first[10]
        order = order_key(date, seq)
        tally = self.games.setdefault((status, variant), [0, 0])
        tally[0] += 1
        tally[1] += date is not None
        if status != "valid":
            return
        seen: dict[str, tuple[int, int]] = {}
        for row in game:
            role = row[4]
            if role == "automaton":  # R9: never a player
                continue
            key, name = self._keys.setdefault(row[3], row[3]), row[2]  # one text a player
            spelt = self.names.get((key, name))
            if spelt is None:
                self.names[(key, name)] = [1, order]
            else:
                spelt[0] += 1
                spelt[1] = min(spelt[1], order)
            new = key not in seen
            if new:
                seen[key] = (row[16], row[17])
            sums = self.players.get((key, variant, seen[key][0]))
            if sums is None:
                sums = self.players[(key, variant, seen[key][0])] = [0] * (6 + len(SUMS))
            if new:
                sums[0] += 1
                sums[1] += row[17]
                sums[2] += date is not None
            if role == "shark":
                sums[4] += 1
                sums[5] += row[17]
            elif new:
                sums[3] += 1
            for i, value in enumerate(row[_FIRST_SUM:], 6):
                if value:
                    sums[i] += value
        result = sorted((key, rank, won) for key, (rank, won) in seen.items())
        for i, (a, rank_a, _) in enumerate(result):
            for b, rank_b, _ in result[i + 1 :]:
                pair = self.pairs.get((a, b))
                if pair is None:
                    pair = self.pairs[(a, b)] = [0, 0, 0]
                pair[0] += 1
                pair[1 if rank_a < rank_b else 2] += 1  # ranks in a game never tie
        self.results.append((order, first[0], date is not None, result))


@attrs.frozen
class Totals:
    """The totals read model as a store hands it out: rows of its tables.

    ``players``: (player_key, variant, rank, games, wins, dated, swimmer_games,
    shark_games, shark_wins, *SUMS); ``names``: (player_key, name, rows, first
    order key); ``pairs``: (first, second, games, first_ahead, second_ahead);
    ``games``: (status, variant, games, dated), every status; ``places``:
    (swimmers, start_place, games, wins); ``standings``: (player_key, *the
    lists of :class:`Standings`); ``latest``: the id of the last valid game in
    date order; ``left_out``: (why, games) of the stored games none of the
    above counts: ``superseded`` and ``retracted`` (the store's history) and
    ``broken`` (a set-up that broke the rules: no rows).
    """

    players: list[tuple[Any, ...]]
    names: list[tuple[Any, ...]]
    pairs: list[tuple[Any, ...]]
    games: list[tuple[Any, ...]]
    places: list[tuple[Any, ...]]
    standings: list[tuple[Any, ...]]
    latest: str | None
    left_out: tuple[tuple[str, int], ...] = ()


class Standings:
    """Ratings and streaks, game by game in date order (``order_key``).

    Ratings are openskill's Plackett-Luce, every player a team of one ranked by
    its finishing place (a game with one player changes no rating); streaks
    count dated games only. ``players`` maps a player key to [mu, sigma, games
    rated, longest winning run, longest losing run, current run (+wins /
    -losses), order key of its last game, that game's id].
    """

    def __init__(self, players: Mapping[str, Sequence[Any]] | None = None) -> None:
        self.model = PlackettLuce()
        self.players: dict[str, list[Any]] = {k: list(v) for k, v in (players or {}).items()}
        # each player's rating as openskill gave it back last (its mu and sigma are the
        # player's in ``players``), handed to it again for the next game
        self.ratings: dict[str, Any] = {}

    def add_all(self, results: Iterable[Result]) -> None:
        """Fold in ``results`` (``Tally.results``, sorted by their order key), each as
        :meth:`add` does."""
        for order, game_id, dated, result in results:
            self.add(result, dated, order, game_id)

    def add(self, result: Sequence[tuple[str, int, int]], dated: bool, order: str,
            game_id: str) -> None:
        """Fold one valid game's result (from :meth:`Tally.add`) in."""
        players = self.players
        for key, _, won in result:
            p = players.get(key)
            if p is None:
                p = players[key] = [None, None, 0, 0, 0, 0, order, game_id]
            p[6], p[7] = order, game_id
            if dated:
                run = p[5]
                run = (run + 1 if run > 0 else 1) if won else (run - 1 if run < 0 else -1)
                p[5] = run
                p[3] = max(p[3], run)
                p[4] = max(p[4], -run)
        if len(result) < 2:
            return
        model = self.model
        ratings = self.ratings
        teams = []
        for key, _, _ in result:
            rating = ratings.get(key)
            if rating is None:  # the player's first game here: from its stored mu and sigma
                p = players[key]
                rating = (model.rating(name=key) if p[0] is None
                          else model.rating(mu=p[0], sigma=p[1], name=key))
            teams.append([rating])
        rated = model.rate(teams, ranks=[float(rank) for _, rank, _ in result])
        for (key, _, _), [new] in zip(result, rated, strict=True):
            p = players[key]
            p[0], p[1] = new.mu, new.sigma
            p[2] += 1
            ratings[key] = new
