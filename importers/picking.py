"""Which game of a record file a command means: ``--game N`` (the N-th, from 1) or
``--id ID`` (an ``Id`` tag, or the id a JSON Lines log gives its game), said the
same way by every command that takes them (docs/cli.md)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Protocol, TypeVar

from getbit_events.errors import InputError
from getbit_events.record import RecordedTag

__all__ = ["pick_game"]


class _Tagged(Protocol):
    """A recorded game of either game: it has tags."""

    @property
    def tags(self) -> tuple[RecordedTag, ...]: ...


G = TypeVar("G", bound=_Tagged)


def pick_game(path: Path, games: Sequence[G], number: int | None, game_id: str | None) -> G:
    """The game of ``games`` (read from ``path``) that ``--game``/``--id`` name (the
    first when neither does); an ``InputError`` saying what the file holds otherwise."""
    if number is not None and game_id is not None:
        raise InputError("give --game or --id, not both")
    if not games:
        raise InputError(f"{path}: holds no game")
    if game_id is not None:
        for game in games:
            ids = {getattr(game, "id", None)}  # a JSON Lines log names its games
            ids.update(t.value for t in game.tags if t.name.casefold() in ("id", "gameid"))
            if game_id in ids:
                return game
        raise InputError(f"{path}: no game has the id {game_id!r} (an Id tag)")
    n = number or 1
    if not 1 <= n <= len(games):
        held = f"{len(games)} game{'' if len(games) == 1 else 's'}"
        raise InputError(f"{path}: holds {held}; there is no game {n}")
    return games[n - 1]
