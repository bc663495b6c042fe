"""Event classes of "Come on! Bite me!": one small frozen attrs class per fact.

Every event has a stable wire tag (``TYPE``, each beginning ``bm-``, so none is
ever taken for one of Get Bit!'s), a schema version (``VERSION``), the turn it
belongs to (0 for the set-up) and, where it came from a file, its position.
A turn's action (``Attacked``, ``Retreated``, ``Passed``) also keeps ``number``,
the number the record gives the turn, where it is not the turn's place
(``turn``); ``None`` otherwise (as Get Bit!'s ``CardsRevealed.number``).
A card is named as the rules name it (``Tiger``, ``Flea`` ...), owners and
players as the Seats tag names them.
"""

from __future__ import annotations

from typing import ClassVar

import attrs

from getbit_events.events import SourcePos

__all__ = [
    "EVENT_TYPES",
    "Attacked",
    "BiteEnded",
    "BiteEvent",
    "BiteStarted",
    "Claimed",
    "Drew",
    "Looked",
    "Passed",
    "Picked",
    "ResultStated",
    "Retreated",
    "SourcePos",
    "StepStated",
    "Took",
    "TurnStated",
]


@attrs.frozen
class BiteStarted:
    """The set-up: seats clockwise from the first player, the deal (one card each,
    in seat order), the strengths the record states and its other tags."""

    TYPE: ClassVar[str] = "bm-game-started"
    VERSION: ClassVar[int] = 1
    turn: int
    seats: tuple[str, ...]
    deal: tuple[str, ...]
    strengths: tuple[tuple[str, int], ...] = ()
    tags: tuple[tuple[str, str], ...] = ()
    pos: SourcePos | None = None


@attrs.frozen
class Attacked:
    """An Attack (``joined`` empty) or a Join Forces: the cards revealed, each
    attacker's and the defender's (B5, B8)."""

    TYPE: ClassVar[str] = "bm-attack"
    VERSION: ClassVar[int] = 1
    turn: int
    who: str
    card: str
    defender: str
    defender_card: str
    joined: tuple[tuple[str, str], ...] = ()
    pos: SourcePos | None = None
    number: int | None = None  # the number written, where it is not ``turn``


@attrs.frozen
class Retreated:
    """A Retreat: the card shown and laid down (a Meerkat becomes active instead, B10)."""

    TYPE: ClassVar[str] = "bm-retreat"
    VERSION: ClassVar[int] = 1
    turn: int
    who: str
    card: str
    pos: SourcePos | None = None
    number: int | None = None  # the number written, where it is not ``turn``


@attrs.frozen
class Passed:
    """A Pass (B14)."""

    TYPE: ClassVar[str] = "bm-pass"
    VERSION: ClassVar[int] = 1
    turn: int
    who: str
    pos: SourcePos | None = None
    number: int | None = None  # the number written, where it is not ``turn``


@attrs.frozen
class Claimed:
    """``who`` claims ``owner``'s card as a trophy (the owner's active Meerkats go
    with it, B10)."""

    TYPE: ClassVar[str] = "bm-claim"
    VERSION: ClassVar[int] = 1
    turn: int
    who: str
    owner: str
    card: str
    pos: SourcePos | None = None


@attrs.frozen
class Picked:
    """The loser of a Mosquito takes one of the winner's trophies at random (B13)."""

    TYPE: ClassVar[str] = "bm-pick"
    VERSION: ClassVar[int] = 1
    turn: int
    who: str
    owner: str
    card: str
    pos: SourcePos | None = None


@attrs.frozen
class Drew:
    """``who`` draws ``card`` from the deck."""

    TYPE: ClassVar[str] = "bm-draw"
    VERSION: ClassVar[int] = 1
    turn: int
    who: str
    card: str
    pos: SourcePos | None = None


@attrs.frozen
class Looked:
    """A Fox's player looks at every other player's card (B11)."""

    TYPE: ClassVar[str] = "bm-look"
    VERSION: ClassVar[int] = 1
    turn: int
    who: str
    pos: SourcePos | None = None


@attrs.frozen
class Took:
    """A Monkey's player takes ``owner``'s card into its hand (B12)."""

    TYPE: ClassVar[str] = "bm-take"
    VERSION: ClassVar[int] = 1
    turn: int
    who: str
    owner: str
    card: str
    pos: SourcePos | None = None


@attrs.frozen
class BiteEnded:
    """The last card of the deck was drawn (B15): the scores and the winners (B16),
    or none when a strength they need was never stated (B3)."""

    TYPE: ClassVar[str] = "bm-game-ended"
    VERSION: ClassVar[int] = 1
    turn: int
    scores: tuple[tuple[str, int], ...] = ()
    winners: tuple[str, ...] = ()
    ranking: tuple[str, ...] = ()
    pos: SourcePos | None = None


@attrs.frozen
class TurnStated:
    """A turn's action as recorded where it names a player or card the game does not
    have: kept, and left aside by the fold (``action`` and the names as in a
    ``BiteTurn``; ``number`` as for ``Passed``)."""

    TYPE: ClassVar[str] = "bm-turn-stated"
    VERSION: ClassVar[int] = 1
    turn: int
    who: str
    action: str
    card: str = ""
    defender: str = ""
    defender_card: str = ""
    joined: tuple[tuple[str, str], ...] = ()
    pos: SourcePos | None = None
    number: int | None = None


@attrs.frozen
class StepStated:
    """A step as recorded where it names a player or card the game does not have:
    kept, and left aside by the fold (``kind`` and the names as in a ``BiteStep``)."""

    TYPE: ClassVar[str] = "bm-step-stated"
    VERSION: ClassVar[int] = 1
    turn: int
    kind: str
    who: str
    other: str = ""
    card: str = ""
    pos: SourcePos | None = None


@attrs.frozen
class ResultStated:
    """The result a record claims (its Winner and Scores tags, as written; None where
    not given) where the rules give another: kept, and left aside by the fold (B16)."""

    TYPE: ClassVar[str] = "bm-result-stated"
    VERSION: ClassVar[int] = 1
    turn: int
    winner: str | None = None
    scores: str | None = None
    pos: SourcePos | None = None


BiteEvent = (
    BiteStarted | Attacked | Retreated | Passed | Claimed | Picked | Drew | Looked | Took
    | BiteEnded | TurnStated | StepStated | ResultStated
)

#: wire tag -> class
EVENT_TYPES: dict[str, type[BiteEvent]] = {
    cls.TYPE: cls
    for cls in (
        BiteStarted, Attacked, Retreated, Passed, Claimed, Picked, Drew, Looked, Took, BiteEnded,
        TurnStated, StepStated, ResultStated,
    )
}
