"""The statistics read model: one flat row per game per swimmer (and one for the Shark).

This module is the contract between the store and the reports. It is pure: no
SQL, no files. The store creates a table ``game_swimmers`` whose columns are
``COLUMNS`` (in order, with those SQLite types, primary key ``KEY``) and fills it
with ``rows(game_id, events, status, tags)`` in the same transaction as the
game's events, so the table can always be rebuilt from the events. When
``VERSION`` changes the store rebuilds the table.

Reading it back
---------------
Reports read every row of the table and do their own grouping and filtering.
``GameStore.swimmer_rows()`` (dicts) is enough. A store that also offers
``swimmer_tuples(columns: Sequence[str]) -> Iterable[tuple]`` (just ``SELECT
<columns> FROM game_swimmers``: any order, no join, plain tuples) is used
instead by ``reports.sources.row_tuples``; at 100,000 games that halves the
time ``getbit stats`` spends reading.

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
- ``plays_1`` .. ``plays_7``: cards of each value played; ``blank_plays``:
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
import re
from collections.abc import Mapping, Sequence
from typing import Any

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

__all__ = [
    "COLUMNS",
    "KEY",
    "ROLES",
    "STATUSES",
    "TABLE",
    "VERSION",
    "game_status",
    "iso_date",
    "rows",
]

#: Bump when a column is added or a count changes meaning: the store rebuilds the table.
VERSION = 1
TABLE = "game_swimmers"
KEY: tuple[str, str] = ("game_id", "swimmer")
ROLES: tuple[str, ...] = ("swimmer", "automaton", "shark")
STATUSES: tuple[str, ...] = ("valid", "invalid", "unfinished")
VALUES: tuple[int, ...] = (1, 2, 3, 4, 5, 6, 7)

_COUNTS: tuple[str, ...] = (
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
    "shark_cards",
    "shark_bites",
    "shark_exhaustions",
    "shark_misses",
)

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
_DATE = re.compile(r"(\d{4})[-./](\d{1,2})[-./](\d{1,2})")


def iso_date(text: str | None) -> str | None:
    """A Date tag as ``YYYY-MM-DD`` (``2026.11.20`` and ``2026/11/20`` too), else None."""
    if text is None:
        return None
    m = _DATE.fullmatch(text.strip())
    if m is None:
        return None
    year, month, day = (int(g) for g in m.groups())
    if not (1 <= month <= 12 and 1 <= day <= 31):
        return None
    return f"{year:04d}-{month:02d}-{day:02d}"


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
    """The read-model rows of one game: starting-line order, then the Shark.

    ``events`` is the game's complete stream, ``GameStarted`` first; ``status``
    one of ``STATUSES``; ``tags`` every tag of the record (the Date tag is read
    from it, ignoring case). Raises ValueError on a stream without a set-up.
    """
    if status not in STATUSES:
        raise ValueError(f"status must be one of {', '.join(STATUSES)}, not {status!r}")
    if not events or not isinstance(events[0], GameStarted):
        raise ValueError(f"game {game_id}: the events must start with game-started")
    setup = events[0]
    owner = {s: s for s in setup.line}
    for player, team in setup.teams:
        for s in team:
            owner[s] = player
    width = len(_COUNTS)
    acc: dict[str, list[int]] = {s: [0] * width for s in setup.line}
    shark = [0] * width
    shark_variant = setup.variant == "shark"
    hunger = setup.hunger
    line = list(setup.line)
    ended: GameEnded | None = None
    current = 0
    rounds = 0

    def close_round() -> None:
        for s in line:  # the line at the end of the round
            acc[s][_SURVIVED] += 1
        if line:
            acc[line[0]][_FRONT] += 1
        if len(line) >= 2:
            acc[line[-1]][_BACK] += 1

    for e in events[1:]:
        if e.round != current:
            if current:
                close_round()
            current = e.round
            rounds = max(rounds, current)
        if isinstance(e, CardChosen):  # the commonest event counts nothing
            continue
        if isinstance(e, CardsRevealed):
            cards = e.cards
            shown = [v for _, v in cards if v is not None]
            for s, v in cards:
                a = acc[s]
                if v is None:
                    a[_BLANK] += 1
                    continue
                a[_PLAYS + v] += 1
                if shown.count(v) > 1:  # R4: equal values tie
                    a[_TIED] += 1
        elif isinstance(e, SwimmerMoved):
            who = e.who
            if e.why == "card":
                acc[who][_MOVED] += 1
            line.remove(who)
            line.insert(0, who)
        elif isinstance(e, SwimmerBitten):
            a = acc[e.who]
            a[_BITES] += 1
            a[_LIMBS_LOST] += 1
            if shark_variant:
                shark[_SHARK_BITES] += 1
        elif isinstance(e, SwimmerDevoured):
            who = e.who
            acc[who][_DEVOURED] = 1
            acc[who][_LIMBS_LOST] = _LIMBS  # R6, R8: devoured has no limbs
            if who in line:
                line.remove(who)
        elif isinstance(e, CardsTakenBack):
            acc[e.who][_TAKE_BACKS] += 1
        elif isinstance(e, CardsDiscarded):
            shark[_SHARK_EXHAUSTIONS] += 1
            for s, _ in e.cards:
                acc[s][_DISCARDED] += 1
        elif isinstance(e, SharkCardPlayed):
            shark[_SHARK_CARDS] += 1
        elif isinstance(e, HungerLost):
            shark[_SHARK_MISSES] += 1
            hunger = e.left
        elif isinstance(e, GameEnded):
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

    out: list[dict[str, Any]] = []
    for place, s in enumerate(setup.line, 1):
        player = owner[s]
        role = "automaton" if s == setup.automaton else "swimmer"
        own: tuple[Any, ...] = (game_id, s, player, player.casefold(), role)
        end = (place, *result(player), *acc[s], None)
        out.append(dict(zip(COLUMNS, (*own, *common, *end), strict=True)))
    if setup.shark is not None:
        name = setup.shark
        own = (game_id, name, name, name.casefold(), "shark")
        end = (None, *result(name), *shark, hunger)
        out.append(dict(zip(COLUMNS, (*own, *common, *end), strict=True)))
    return out
