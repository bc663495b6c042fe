"""What a walk of a "Come on! Bite me!" record finds: the codes it may report, and
the walk's one state (the record, the table, what was found so far).

Violations are Get Bit!'s ``Violation`` (one JSON shape for both games), with the
turn number where Get Bit! gives a round.
"""

from __future__ import annotations

import attrs

from biteme.fold import Table
from biteme.record import BiteRecord
from getbit_events.events import SourcePos
from getbit_events.limits import MAX_VIOLATIONS
from getbit_events.record import Violation

__all__ = ["CODES", "LEFT_OUT", "WARNING_CODES", "TurnViolation", "Walk"]

#: The code of the one violation that says how many more a game holds than are
#: reported (the same as Get Bit!'s).
LEFT_OUT = "too-many-violations"

#: Every code the validator and the BMN reader report, with what it means.
CODES: dict[str, str] = {
    "syntax": "the line does not follow the record format",
    "duplicate-tag": "a known tag is given twice",
    "bad-game": "the Game tag names another game",
    "missing-seats": "the game has no Seats tag",
    "missing-deal": "the game has no Deal tag (B2)",
    "bad-name": "a player name is empty or holds a character names cannot hold",
    "duplicate-name": "two players have the same name (ignoring case)",
    "bad-tag-value": "a known tag has a value it cannot take",
    "bad-setup": "the number of players is not 3 to 10 (B1)",
    "bad-deal": "the deal does not give each player exactly one card (B2)",
    "bad-strength": (
        "a strength that contradicts the leaflet, or of a card that is not in the game (B3)"
    ),
    "unknown-card": "a card the game does not have",
    "deck-count": "more cards of a kind than the deck for this many players holds (B1)",
    "turn-number": "a turn is numbered out of sequence",
    "unknown-player": "a name that is not at the table",
    "wrong-player": "a turn taken by a player whose turn it is not (B4)",
    "wrong-card": "a card revealed that is not the one the player holds (B2)",
    "bad-target": "a player attacks itself, or is named twice in one battle (B5, B8)",
    "bacteria-attacks": "a player holding Bacteria attacks (B5, B7)",
    "may-not-join": (
        "Hunter, Bacteria or Mosquito initiates or joins a Join Forces (B6, B7, B8, B13)"
    ),
    "too-many-joined": "more than 2 players join a Join Forces (B8)",
    "hunter-retreat": "the Hunter retreats (B6, B9)",
    "wrong-trophy": "the trophies claimed differ from the battle's result (B5-B8)",
    "wrong-pick": (
        "a Mosquito's random trophy missing, not the winner's, or where none is due (B13)"
    ),
    "wrong-draw": "who draws, or in which order, differs from the rules (B5, B8-B12)",
    "wrong-take": "a Monkey's take missing, of the wrong card, or where none is due (B12)",
    "wrong-look": "a Fox's look where no Fox retreated (B11)",
    "after-end": "a step or turn recorded after the last card of the deck was drawn (B15)",
    "wrong-winner": "the Winner tag is not the rules' winners, or the game is unfinished (B16)",
    "wrong-score": "a score in the Scores tag differs from the rules (B16)",
    LEFT_OUT: f"the game holds more violations than are reported (at most {MAX_VIOLATIONS}): "
    "this one says how many more were found and left out",
}

WARNING_CODES: dict[str, str] = {
    "unchecked": "a battle or a score needs a strength nobody stated: not checked (B3)",
}


@attrs.frozen
class TurnViolation(Violation):
    """A violation of a Bite me! record: said with its turn (``round`` on the wire)."""

    def __str__(self) -> str:
        where = f"turn {self.round}: " if self.round is not None else ""
        return f"{self.pos}: {where}{self.message} [{self.code}]"


class Walk:
    """One game's walk: the record, the table, the names, and what was found so far."""

    table: Table  # set once the set-up is read

    def __init__(self, record: BiteRecord) -> None:
        self.record = record
        self.violations: list[Violation] = []
        self.warnings: list[Violation] = []
        self.canon: dict[str, str] = {}  # a player's name ignoring case -> as in Seats
        self.turn: int | None = None
        self.left_out = 0

    def flag(self, code: str, message: str, pos: SourcePos, rule: str | None = None) -> None:
        """Record a violation at ``pos`` in the current turn (None: the set-up)."""
        if len(self.violations) >= MAX_VIOLATIONS:
            self.left_out += 1
            return
        text = f"{message} ({rule})" if rule else message
        self.violations.append(TurnViolation(code, text, pos, self.turn, rule))

    def warn(self, message: str, pos: SourcePos, rule: str = "B3") -> None:
        """Record an ``unchecked`` warning: what could not be checked and why."""
        self.warnings.append(
            TurnViolation("unchecked", f"{message} ({rule})", pos, self.turn, rule)
        )

    def at(self, line: int, column: int = 1) -> SourcePos:
        return SourcePos(self.record.source, line, column)
