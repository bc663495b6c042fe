"""Games a reader leaves unread: an import's worker checks only its share of a file
(``importers.workers``), so the games of the other workers' shares need finding, not
reading. A reader told to skip a game still finds where it begins and ends, exactly
as it would reading it (so every worker agrees on what the k-th game is), and gives
a ``Skipped`` in its place."""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import TypeVar

import attrs

from getbit_events.events import SourcePos

__all__ = ["Positions", "Skip", "Skipped", "mark"]

_T = TypeVar("_T")

#: Which games of a file to leave unread: ``skip(k)`` is True for its k-th game
#: (from 1). None: read every game.
Skip = Callable[[int], bool] | None


@attrs.frozen
class Skipped:
    """A game found and left unread, in its place among the file's games."""

    source: str
    index: int
    pos: SourcePos


class Positions:
    """Where a worker is among the items it goes through (``in_order``'s positions,
    counted as each is given), and which games of each file lie outside its
    ``share`` (True for the positions it works on; None: one process does all)."""

    def __init__(self, share: Callable[[int], bool] | None) -> None:
        self.share = share
        self.at = 0  # the position of the next item
        self.first = 0  # the position of the first game of the file being read

    def skip(self) -> Skip:
        """A ``skip`` for the next file's reader: its games outside the share, the
        first of them at the position ``games_begin`` marks."""
        share = self.share
        if share is None:
            return None
        return lambda k: not share(self.first + k - 1)

    def games_begin(self) -> None:
        """The file's games come next (after what was said on opening it)."""
        self.first = self.at

    def given(self, item: _T) -> _T:
        """``item``, the next one given; a game skipped in the share is a bug."""
        if isinstance(item, Skipped) and self.share is not None and self.share(self.at):
            raise RuntimeError(f"game {item.index} of {item.source} skipped in its share")
        self.at += 1
        return item


def mark(item: object) -> Hashable:
    """What every worker must agree an item is (``workers.in_order`` checks they do):
    a game, read or ``Skipped`` alike (or a command's tuple of one and what goes with
    it), by its file and number; anything else (a file that cannot be read, a note)
    by its type and text."""
    game = item[0] if isinstance(item, tuple) and item else item
    pos, index = getattr(game, "pos", None), getattr(game, "index", None)
    if isinstance(pos, SourcePos) and isinstance(index, int):
        return ("game", getattr(game, "source", pos.file), index)
    return (type(item).__name__, str(item))
