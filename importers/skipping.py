"""Games a reader leaves unread: an import's worker checks only its share of a file
(``importers.workers``), so the games of the other workers' shares need finding, not
reading. A reader told to skip a game still finds where it begins and ends, exactly
as it would reading it (so every worker agrees on what the k-th game is), and gives
a ``Skipped`` in its place."""

from __future__ import annotations

from collections.abc import Callable

import attrs

from getbit_events.events import SourcePos

__all__ = ["Skip", "Skipped", "outside"]

#: Which games of a file to leave unread: ``skip(k)`` is True for its k-th game
#: (from 1). None: read every game.
Skip = Callable[[int], bool] | None


@attrs.frozen
class Skipped:
    """A game found and left unread, in its place among the file's games."""

    source: str
    index: int
    pos: SourcePos


def outside(share: Callable[[int], bool] | None, first: list[int]) -> Skip:
    """The games of a file outside a worker's ``share`` (True for the positions of the
    items it works on), the file's first game at position ``first[0]``: a ``skip``
    for its reader (None when there is no share: one process reads every game)."""
    if share is None:
        return None
    return lambda k: not share(first[0] + k - 1)
