"""What one seat at the table could see of a game state: the whole record, the
public table, one swimmer, one two-player player, or the Shark.

A player sees its own hand and nobody else's, never a card chosen but not yet
revealed by someone else, and in the memory variant (R16) none of the cards
turned face down at the bite, its own included: the memory variant is about
remembering them. The table (public) view sees what lies face up.
"""

from __future__ import annotations

from collections.abc import Mapping

import attrs

from getbit_events.errors import InputError
from getbit_events.events import GameStarted
from getbit_events.state import GameState

__all__ = ["EVERYTHING", "TABLE", "SharkView", "SwimmerView", "View", "Viewer", "view"]


@attrs.frozen
class Viewer:
    """Who is looking: ``kind`` is everything, table, swimmer, player or shark.

    ``sees`` holds the swimmers whose hands (and own chosen cards) this viewer
    sees; ``shark_hand`` whether it sees the Shark's hand.
    """

    kind: str
    name: str | None = None
    sees: frozenset[str] = frozenset()
    shark_hand: bool = False

    @property
    def label(self) -> str:
        if self.kind == "everything":
            return "everything (the record)"
        if self.kind == "table":
            return "the table (public)"
        return f"as {self.kind} {self.name}"

    @property
    def hides_face_down(self) -> bool:
        """R16: every seat but the record itself sees face-down cards as backs."""
        return self.kind != "everything"

    def sees_hand(self, name: str) -> bool:
        return self.kind == "everything" or name in self.sees

    @classmethod
    def named(cls, setup: GameStarted, name: str) -> Viewer:
        """The viewer called ``name`` (a swimmer, a two-player player, the Shark, or
        ``table``/``everything``), matched ignoring case; InputError otherwise."""
        key = name.strip().casefold()
        for swimmer in setup.line:
            if swimmer.casefold() == key:
                return cls("swimmer", swimmer, frozenset({swimmer}))
        for player, swimmers in setup.teams:
            if player.casefold() == key:
                return cls("player", player, frozenset(swimmers))
        if setup.shark is not None and setup.shark.casefold() == key:
            return cls("shark", setup.shark, frozenset(), shark_hand=True)
        if key == "table":
            return TABLE
        if key in ("everything", "all"):
            return EVERYTHING
        seats = [*setup.line, *(p for p, _ in setup.teams)]
        if setup.shark is not None:
            seats.append(setup.shark)
        raise InputError(
            f"nobody called {name!r} plays in this game; choose one of "
            f"{', '.join(seats)}, or 'table'"
        )

    @classmethod
    def seats(cls, setup: GameStarted) -> tuple[Viewer, ...]:
        """Every viewer of this game: the record, the table, each player, the Shark."""
        names = [*(p for p, _ in setup.teams), *setup.line]
        if setup.shark is not None:
            names.append(setup.shark)
        return (EVERYTHING, TABLE, *(cls.named(setup, n) for n in names))


EVERYTHING = Viewer("everything")
TABLE = Viewer("table")


@attrs.frozen
class SwimmerView:
    """One swimmer as seen: ``hand`` None when hidden; a ``table`` card None when face down."""

    name: str
    limbs: tuple[str, ...]
    devoured: bool
    hand: tuple[int, ...] | None
    hand_size: int
    table: tuple[int | None, ...]
    discards: tuple[int, ...]
    chosen: bool
    choice: int | None = None  # the chosen, unrevealed card: only for a viewer that sees it


@attrs.frozen
class SharkView:
    name: str
    hand: tuple[str, ...] | None
    hand_size: int
    table: tuple[str, ...]
    hunger: int
    chosen: bool
    choice: str | None = None


@attrs.frozen
class View:
    """A game state as one viewer saw it; ``swimmers`` in starting order, ``line`` front first."""

    viewer: Viewer
    round: int
    phase: str
    line: tuple[str, ...]
    swimmers: tuple[SwimmerView, ...]
    shark: SharkView | None
    revealed: tuple[tuple[str, int | None], ...]
    shark_card: str | None
    winner: str | None
    ranking: tuple[str, ...] | None

    def swimmer(self, name: str) -> SwimmerView:
        return next(s for s in self.swimmers if s.name == name)


def view(
    state: GameState,
    viewer: Viewer = TABLE,
    choices: Mapping[str, int | str | None] | None = None,
) -> View:
    """``state`` as ``viewer`` saw it. ``choices`` holds the cards chosen this round
    but not yet revealed (the cursor looks them up); only their owners see them."""
    choices = choices or {}
    chosen = set(state.chosen)
    swimmers = []
    for s in state.swimmers:
        own = viewer.sees_hand(s.name)
        hidden = s.face_down if viewer.hides_face_down else 0  # R16
        table = tuple(None if i < hidden else v for i, v in enumerate(s.table))
        choice = choices.get(s.name) if own and s.name in chosen else None
        swimmers.append(
            SwimmerView(
                s.name,
                s.limbs,
                s.devoured,
                tuple(sorted(s.hand)) if own else None,
                len(s.hand),
                table,
                s.discards,
                s.name in chosen,
                choice if isinstance(choice, int) else None,
            )
        )
    shark = None
    if state.shark is not None:
        sh = state.shark
        sees = viewer.kind == "everything" or viewer.shark_hand
        shark_chosen = sh.name in chosen
        pick = choices.get(sh.name) if sees and shark_chosen else None
        shark = SharkView(
            sh.name,
            tuple(sorted(sh.hand)) if sees else None,
            len(sh.hand),
            sh.table,
            sh.hunger,
            shark_chosen,
            pick if isinstance(pick, str) else None,
        )
    return View(
        viewer,
        state.round,
        state.phase,
        state.line,
        tuple(swimmers),
        shark,
        state.revealed,
        state.shark_card,
        state.winner,
        state.ranking,
    )
