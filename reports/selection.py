"""Which games a report covers: filters, aliases, and why each game left out was left out."""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence

import attrs

from getbit_events.errors import InputError
from importers.reading import date_option
from reports.columns import DATE, GAME_ID, PLAYER_KEY, ROLE, STATUS, SWIMMERS, TAGS, VARIANT, Row

__all__ = [
    "EXCLUSION_REASONS",
    "HISTORY_REASONS",
    "Aliases",
    "Filters",
    "Selection",
    "parse_pairs",
    "select",
]

#: Why a game is left out, in the order they are checked: a game counts under the first.
#: ``superseded`` and ``retracted`` come from a store's history (a game replaced by
#: a corrected record, or taken back): those games have no rows to select from.
EXCLUSION_REASONS: tuple[str, ...] = (
    "superseded", "retracted", "invalid", "unfinished", "filtered",
)
#: The reasons a report says only when some game was left out for them.
HISTORY_REASONS: tuple[str, ...] = ("superseded", "retracted")


def parse_pairs(items: Sequence[str], what: str) -> tuple[tuple[str, str], ...]:
    """``KEY=VALUE`` options as pairs; InputError (not a traceback) for a bad one."""
    pairs = []
    for item in items:
        key, sep, value = item.partition("=")
        if not sep or not key.strip() or not value.strip():
            raise InputError(f"{what} must be KEY=VALUE, not {item!r}")
        pairs.append((key.strip(), value.strip()))
    return tuple(pairs)


@attrs.frozen
class Aliases:
    """Spellings merged into one player: ``A=B`` counts A's games as B's (ignoring case)."""

    pairs: tuple[tuple[str, str], ...] = ()
    _table: dict[str, str] = attrs.field(init=False, eq=False, repr=False, hash=False)

    def __attrs_post_init__(self) -> None:
        table = {a.casefold(): b.casefold() for a, b in self.pairs}
        object.__setattr__(self, "_table", table)

    @classmethod
    def make(cls, items: Sequence[str]) -> Aliases:
        """Aliases from ``--alias A=B`` strings; InputError on a bad one."""
        return cls(parse_pairs(items, "--alias"))

    def key(self, key: str) -> str:
        """The player key a (casefolded) name counts under, aliases followed to the end."""
        table = self._table
        seen = {key}
        while key in table:
            key = table[key]
            if key in seen:  # A=B, B=A: stop at the loop
                break
            seen.add(key)
        return key

    def display(self, key: str) -> str | None:
        """The spelling an alias target was given in, if ``key`` is one."""
        for _, target in self.pairs:
            if target.casefold() == key:
                return target
        return None


@attrs.frozen
class Filters:
    """What a user asked to see; empty fields select everything.

    ``players`` keeps the games any of them played (names ignoring case, after
    aliases); ``since``/``until`` the games whose Date tag lies in that range,
    both ends included (undated games are then left out); ``tags`` the games
    whose tag KEY (ignoring case) has exactly VALUE.
    """

    players: tuple[str, ...] = ()
    variant: str | None = None
    swimmers: int | None = None
    since: str | None = None
    until: str | None = None
    tags: tuple[tuple[str, str], ...] = ()

    @classmethod
    def make(
        cls,
        players: Sequence[str] = (),
        variant: str | None = None,
        swimmers: int | None = None,
        since: str | None = None,
        until: str | None = None,
        tags: Sequence[str] = (),
    ) -> Filters:
        """Filters from command-line strings; InputError on a bad date or tag."""
        return cls(
            tuple(players),
            variant,
            swimmers,
            date_option(since, "--since"),
            date_option(until, "--until"),
            parse_pairs(tags, "--tag"),
        )

    def keeps(self, game: Sequence[Row], aliases: Aliases) -> bool:
        """Whether the game (all its rows) passes every filter."""
        first = game[0]
        if self.variant is not None and first[VARIANT] != self.variant.casefold():
            return False
        if self.swimmers is not None and first[SWIMMERS] != self.swimmers:
            return False
        tags: dict[str, str] = json.loads(first[TAGS] or "{}") if self.tags else {}
        players = (r[PLAYER_KEY] for r in game if r[ROLE] != "automaton")
        return self.keeps_facts(first[DATE], tags, players, aliases)

    def keeps_facts(
        self, date: str | None, tags: Mapping[str, str], players: Iterable[str], aliases: Aliases
    ) -> bool:
        """Whether a game of either game passes the filters every game has: its Date
        (``YYYY-MM-DD`` or None), its tags and its players' names."""
        if (self.since is not None or self.until is not None) and date is None:
            return False
        if self.since is not None and date is not None and date < self.since:
            return False
        if self.until is not None and date is not None and date > self.until:
            return False
        if self.tags:
            folded = {k.casefold(): v for k, v in tags.items()}
            if any(folded.get(k.casefold()) != v for k, v in self.tags):
                return False
        if self.players:
            wanted = {aliases.key(p.casefold()) for p in self.players}
            if not wanted & {aliases.key(p.casefold()) for p in players}:
                return False
        return True


@attrs.frozen
class Selection:
    """The games a report covers (each a list of rows) and the count left out by reason."""

    games: list[list[Row]]
    excluded: dict[str, int]
    #: Every valid finished game, filtered out or not (ratings are over them all).
    valid: list[list[Row]] = attrs.field(factory=list)

    @property
    def included(self) -> int:
        return len(self.games)


def select(rows: Iterable[Row], filters: Filters, aliases: Aliases) -> Selection:
    """Group row tuples (``reports.columns.ROW``) by game (games in the order their
    first rows come), keep the valid finished games that pass ``filters``."""
    by_game: dict[str, list[Row]] = {}
    for row in rows:
        game = by_game.get(row[GAME_ID])
        if game is None:
            by_game[row[GAME_ID]] = [row]
        else:
            game.append(row)
    excluded = dict.fromkeys(EXCLUSION_REASONS, 0)
    games: list[list[Row]] = []
    valid: list[list[Row]] = []
    everything = filters == Filters()
    for game in by_game.values():
        status = game[0][STATUS]
        if status != "valid":
            excluded["invalid" if status == "invalid" else "unfinished"] += 1
            continue
        valid.append(game)
        if everything or filters.keeps(game, aliases):
            games.append(game)
        else:
            excluded["filtered"] += 1
    return Selection(games, excluded, valid)
