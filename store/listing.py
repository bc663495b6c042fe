"""Which stored games ``getbit games`` lists and ``getbit export`` writes: the
filters both take and ``--all``, applied to the games rows (no replay, no SQL of
its own), and the event streams of the games chosen."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from itertools import islice

import attrs

from getbit_events.errors import GetbitError, InputError
from getbit_events.rules import VARIANTS
from importers.reading import date_option, iso_date
from store.store import GameStore
from store.stored import GAMES, Damage, StoredGame

__all__ = [
    "HEADER",
    "STATUSES",
    "GameFilter",
    "Listing",
    "cells",
    "chosen_games",
    "default_game",
    "exported_games",
    "list_games",
    "listed_games",
    "tab_line",
    "tag",
]

STATUSES: tuple[str, ...] = ("valid", "invalid", "unfinished")


def tag(game: StoredGame, name: str) -> str | None:
    """The value of the game's tag ``name`` (ignoring case), or None."""
    for key, value in game.tags:
        if key.casefold() == name.casefold():
            return value
    return None


@attrs.frozen
class GameFilter:
    """What to list; empty fields select everything. ``since``/``until`` compare the
    Date tag (both ends included; games with no Date the reports can read are left
    out then); ``limit`` keeps the first N games that pass, in import order."""

    player: str | None = None
    status: str | None = None
    variant: str | None = None
    since: str | None = None
    until: str | None = None
    limit: int | None = None
    game: str | None = None  # ``--rules``: get-bit or bite-me

    @classmethod
    def make(
        cls,
        player: str | None = None,
        status: str | None = None,
        variant: str | None = None,
        since: str | None = None,
        until: str | None = None,
        limit: int | None = None,
        game: str | None = None,
    ) -> GameFilter:
        """Filters from command-line strings (InputError on a bad value, saying why)."""
        if status is not None and status not in STATUSES:
            raise InputError(f"--status is valid, invalid or unfinished, not {status}")
        if variant is not None and variant.casefold() not in VARIANTS:
            raise InputError(f"--variant is one of {', '.join(VARIANTS)}, not {variant}")
        if game is not None and game.casefold() not in GAMES:
            raise InputError(f"--rules is get-bit or bite-me, not {game}")
        if limit is not None and limit < 0:
            raise InputError(f"--limit is a number of games, 0 or more, not {limit}")
        return cls(
            player,
            status,
            variant.casefold() if variant is not None else None,
            date_option(since, "--since"),
            date_option(until, "--until"),
            limit,
            game.casefold() if game is not None else None,
        )

    def keeps(self, game: StoredGame) -> bool:
        """Whether ``game`` passes the filters other than ``player``, ``status`` and
        ``limit`` (the store's query applies the first two)."""
        if self.variant is not None and game.variant != self.variant:
            return False
        if self.since is None and self.until is None:
            return True
        date = iso_date(tag(game, "Date"))
        if date is None:
            return False
        return (self.since is None or date >= self.since) and (
            self.until is None or date <= self.until
        )


#: the columns of ``getbit games``: header, and the text of a game's cell
_COLUMNS: tuple[tuple[str, Callable[[StoredGame], str]], ...] = (
    ("id", lambda g: g.id),
    ("status", lambda g: g.status),
    ("date", lambda g: tag(g, "Date") or ""),  # as recorded
    ("event", lambda g: tag(g, "Event") or ""),
    ("variant", lambda g: g.variant or ""),
    ("swimmers", lambda g: ", ".join(g.swimmers)),
    ("winner", lambda g: g.winner or ""),
    ("rounds", lambda g: str(g.rounds)),
    ("source", lambda g: f"{g.source}:{g.source_line}" if g.source else ""),
    ("game", lambda g: g.game),  # last: the columns before keep their places
)
HEADER: tuple[str, ...] = tuple(name for name, _ in _COLUMNS)


@attrs.frozen
class Listing:
    """The games a filter selects, and why each one the history leaves out is
    (``superseded``, ``retracted``), for those listed and those not."""

    games: list[StoredGame]
    dropped: dict[str, str]
    hidden: dict[str, int]  # why -> how many games passing the filters it leaves out


def cells(game: StoredGame, dropped: Mapping[str, str]) -> list[str]:
    """A game's cells under HEADER, its status marked when the history drops it (``dropped``:
    ``GameStore.dropped``)."""
    row = [get(game) for _, get in _COLUMNS]
    if game.id in dropped:
        row[1] += f" ({dropped[game.id]})"
    return row


def tab_line(cells: Sequence[str], shown: Callable[[str], str]) -> str:
    """One tab-separated line: a tab or line end in a cell is a space, and ``shown``
    writes any other control character as the terminal would (its escape)."""
    return "\t".join(shown(c.translate(_BLANKS)) for c in cells) + "\n"


_BLANKS = str.maketrans("\t\r\n", "   ")


def list_games(
    store: GameStore,
    chosen: GameFilter,
    everything: bool = False,
    on_damaged: Callable[[Damage], None] | None = None,
) -> Listing:
    """The stored games ``chosen`` selects, in import order (``everything``: the
    superseded and retracted too); damaged rows go to ``on_damaged``. Only the games
    listed are held (``--limit``), though all are counted."""
    dropped = store.dropped()
    hidden: dict[str, int] = {}
    kept = list(listed_games(store, chosen, dropped, hidden, everything, on_damaged))
    return Listing(kept, dropped, hidden)


def listed_games(
    store: GameStore,
    chosen: GameFilter,
    dropped: Mapping[str, str],
    hidden: dict[str, int],
    everything: bool = False,
    on_damaged: Callable[[Damage], None] | None = None,
) -> Iterator[StoredGame]:
    """The games :func:`list_games` lists, one at a time, so that listing a large store
    holds none of them; ``dropped`` is ``store.dropped()``. The games passing the
    filters that the history leaves out are counted in ``hidden`` as they go by, every
    one of them: the games are read to the end, past ``--limit``."""
    given = 0
    for game in _passing(store, chosen, on_damaged):
        why = dropped.get(game.id)
        if why is not None:
            hidden[why] = hidden.get(why, 0) + 1
            if not everything:
                continue
        if chosen.limit is None or given < chosen.limit:
            given += 1
            yield game


def chosen_games(
    store: GameStore,
    chosen: GameFilter,
    everything: bool = False,
    on_damaged: Callable[[Damage], None] | None = None,
) -> Iterator[StoredGame]:
    """The games :func:`list_games` lists, one at a time (nothing held: an export of
    a large store)."""
    dropped = store.dropped()
    games = (g for g in _passing(store, chosen, on_damaged)
             if everything or g.id not in dropped)
    return islice(games, chosen.limit) if chosen.limit is not None else games


def _passing(
    store: GameStore, chosen: GameFilter, on_damaged: Callable[[Damage], None] | None
) -> Iterator[StoredGame]:
    found = store.games(
        player=chosen.player, status=chosen.status, on_damaged=on_damaged, everything=True,
        game=chosen.game,
    )
    return (g for g in found if chosen.keeps(g))


def default_game(store: GameStore) -> str:
    """The game a command over the store means when ``--rules`` does not say:
    Get Bit!, unless the store holds games of "Come on! Bite me!" only."""
    for game in GAMES:
        if store.count(game=game):
            return game
    return GAMES[0]


def exported_games(
    store: GameStore, games: Iterable[str | StoredGame], named: bool
) -> tuple[list[tuple[str, str]], list[GetbitError], int]:
    """The id and game (``GET_BIT``, ``BITE_ME``) of each of ``games`` (ids or their
    starts, or stored games) that has events to export, why each other could not be
    exported (the others are), and how many were left out. A game whose set-up broke
    the rules has no events: an error when ``named`` by id, left out (and counted)
    when chosen as ``games`` lists. Their events are read a game at a time as they are
    written (``bite_cli.export_texts``)."""
    found: list[tuple[str, str]] = []
    problems: list[GetbitError] = []
    left_out = 0
    for ref in games:
        try:
            stored = store.game(ref) if isinstance(ref, str) else ref
            if not stored.events:
                if not named:
                    left_out += 1
                    continue
                raise InputError(
                    f"game {stored.id} has no events (its set-up breaks the rules): "
                    "there is nothing to export"
                )
        except GetbitError as exc:
            problems.append(exc)
            continue
        found.append((stored.id, stored.game))
    return found, problems, left_out
