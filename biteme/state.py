"""The state of a game of "Come on! Bite me!" at one step: a frozen value."""

from __future__ import annotations

import attrs

__all__ = ["BiteState", "PlayerState"]


@attrs.frozen
class PlayerState:
    """One player: the card it holds (None between a loss and its draw), its active
    Meerkats (B10), its trophies and its discard zone, in the order they came."""

    name: str
    card: str | None
    meerkats: int = 0
    trophies: tuple[str, ...] = ()
    discards: tuple[str, ...] = ()


@attrs.frozen
class BiteState:
    """The table: the players clockwise from the first, the cards left in the deck
    (``left``, and by kind in ``deck``: negative where a record drew more of a kind
    than the deck holds), the turn, and the end (B15, B16)."""

    players: tuple[PlayerState, ...]
    strengths: tuple[tuple[str, int], ...]
    deck: tuple[tuple[str, int], ...]
    left: int
    turn: int = 0
    finished: bool = False
    winners: tuple[str, ...] = ()
    ranking: tuple[str, ...] = ()

    def player(self, name: str) -> PlayerState:
        """The player named ``name`` (KeyError when none is)."""
        for p in self.players:
            if p.name == name:
                return p
        raise KeyError(name)
