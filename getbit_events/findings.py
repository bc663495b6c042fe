"""What a validator walk finds: the codes it may report, and the walk's one state.

Shared by the validator's parts (``tags``, ``outcomes``, ``validate``) so each
reports violations the same way: code, message citing the ruling, position and
round.
"""

from __future__ import annotations

from collections.abc import Iterable
from difflib import get_close_matches

from getbit_events.board import Board
from getbit_events.events import SourcePos
from getbit_events.limits import MAX_VIOLATIONS
from getbit_events.record import (
    RecordedGame,
    RecordedOutcome,
    RecordedPlay,
    RecordedRound,
    RecordedTag,
    Violation,
)
from getbit_events.rules import Settlement

__all__ = [
    "CODES",
    "LEFT_OUT",
    "WARNING_CODES",
    "Cards",
    "Logged",
    "Walk",
    "capped",
    "left_out",
    "order",
]

#: How alike (difflib's ratio, ignoring case) a name not in the game must be to a
#: swimmer's to be taken for a slip of it: three letters in four (Bobb for Bob, Jhon
#: for John, not Zed for Ted).
_CLOSE = 0.75
#: A round's plays: each swimmer's card, or None for no card.
Cards = tuple[tuple[str, int | None], ...]
#: One round of a walk: (round, its record, revealed cards, Shark, Shark card, outcome).
Logged = tuple[int, RecordedRound, Cards, str | None, str | None, Settlement]

#: The code of the one violation that says how many more a game holds than are reported.
LEFT_OUT = "too-many-violations"

#: Every code the validator and the readers report, with what it means.
CODES: dict[str, str] = {
    "syntax": "the line does not follow the record format",
    "duplicate-tag": "a known tag is given twice",
    "missing-line": "the game has no Line tag",
    "bad-name": "a swimmer or player name is empty or holds a character names cannot hold",
    "duplicate-name": "two swimmers have the same name (ignoring case)",
    "bad-tag-value": "a known tag has a value it cannot take",
    "bad-setup": "the set-up is not one the rules allow (R2)",
    "round-number": "a round is numbered out of sequence",
    "unknown-swimmer": "a name that is not in the game",
    "not-in-game": "a swimmer plays or is named after it was devoured",
    "duplicate-play": "a swimmer (or the Shark) plays twice in one round",
    "missing-play": "a swimmer still in the game (or the Shark) plays no card (R3, R11)",
    "card-not-in-hand": "a card that is not in the swimmer's hand (R1, R3, R11)",
    "automaton-repeat": "the automaton turns a card already turned since it reshuffled (R9)",
    "no-card-claimed": "a swimmer records no card while it holds cards (R15)",
    "wrong-card-kind": "a swimmer plays a Shark card, or the Shark a number",
    "shark-round-1": "the Shark plays a card in round 1 (R5)",
    "wrong-bite": "a bite on the wrong swimmer, or where none happens (R5, R6, R8, R11, R12)",
    "wrong-limb": "a bite takes a limb the rules do not allow (R6, R11)",
    "wrong-out": "a swimmer recorded as devoured that was not (R6, R8)",
    "wrong-miss": "a miss recorded where the Shark card hit, or none recorded where it missed",
    "wrong-hunger": "the Shark's hunger tokens after the round differ from the rules (R12)",
    "wrong-discard": "Exhaustion discards differ from the rules (R11)",
    "wrong-refresh": "the swimmers that took their cards back differ from the rules (R7)",
    "wrong-line": "the line at the end of the round differs from the rules (R4, R6)",
    "duplicate-outcome": "an outcome is stated twice in one round",
    "shark-only": "an outcome of the shark variant in another variant",
    "round-after-end": "a round recorded after the game ended (R17)",
    "wrong-winner": "the Winner tag is not the rules' winner, or the game is unfinished (R17)",
    LEFT_OUT: f"the game holds more violations than are reported (at most {MAX_VIOLATIONS}): "
    "this one says how many more were found and left out",
}

WARNING_CODES: dict[str, str] = {
    "any-limb-default": "an any-limb bite states no limb; the first limb left was taken",
}


def order(v: Violation) -> tuple[int, int]:
    """Where a violation is written: the order a game's violations are reported in."""
    return (v.pos.line, v.pos.column)


def left_out(count: int, pos: SourcePos) -> Violation:
    """The one violation past ``MAX_VIOLATIONS``: how many more were found and left out."""
    more = "violation was" if count == 1 else "violations were"
    return Violation(
        LEFT_OUT,
        f"{count} more {more} found in this game and left out: at most {MAX_VIOLATIONS} "
        "are reported",
        pos,
    )


def capped(found: Iterable[Violation]) -> tuple[Violation, ...]:
    """``found`` in file order (one saying how many were left out comes last).

    A reader keeps at most ``MAX_VIOLATIONS`` of a game's errors and one more that
    says how many it left out: such a list is kept whole. A longer one is cut to
    ``MAX_VIOLATIONS`` and one saying how many more.
    """
    kept = sorted(found, key=_last_left_out)
    if len(kept) <= MAX_VIOLATIONS + 1:
        return tuple(kept)
    more = len(kept) - MAX_VIOLATIONS
    return (*kept[:MAX_VIOLATIONS], left_out(more, kept[MAX_VIOLATIONS - 1].pos))


def _last_left_out(v: Violation) -> tuple[bool, int, int]:
    return (v.code == LEFT_OUT, v.pos.line, v.pos.column)


class Walk:
    """One game's walk: the record, the board, what was found so far, and the facts
    messages refer to (what was played where, who was devoured when).

    The validator's parts are plain functions over it: ``tags.read_setup`` reads the
    set-up, ``validate`` walks the rounds on ``board`` and ``outcomes`` checks what
    each round states.
    """

    board: Board  # set once the set-up is read (``validate``)

    def __init__(self, game: RecordedGame) -> None:
        self.game = game
        self.violations: list[Violation] = []
        self.warnings: list[Violation] = []
        self.canon: dict[str, str] = {}  # a swimmer's name ignoring case -> as in the Line
        self.lookup: dict[str, str] = {}  # the same, and each name as in the Line
        self.winner_tag: RecordedTag | None = None
        self.round = 0
        self.log: list[Logged] = []  # the walk's rounds, for the events and for messages
        self.devoured_in: dict[str, int] = {}
        self.left_out = 0  # violations found past MAX_VIOLATIONS, counted and not kept
        # per round, the plays of a card of the wrong kind (R3, R11), as written: kept
        self.words: dict[int, list[tuple[str, str]]] = {}
        # per round, the outcomes as written that the rules' outcome leaves aside (why,
        # outcome): one naming a name not in the game, one stated twice; kept
        self.unread: dict[int, list[tuple[str, RecordedOutcome]]] = {}

    def flag(
        self,
        code: str,
        message: str,
        pos: SourcePos,
        rule: str | None = None,
        *,
        in_round: bool = True,
    ) -> None:
        """Record a violation; ``in_round=False`` for set-up and tag errors. Past
        ``MAX_VIOLATIONS`` a violation is only counted (a 73 MB round line once gave
        6.5 million): memory stays bounded and the report deterministic."""
        if len(self.violations) >= MAX_VIOLATIONS:
            self.left_out += 1
            return
        text = f"{message} ({rule})" if rule else message
        self.violations.append(
            Violation(code, text, pos, self.round if in_round else None, rule)
        )

    def found(self) -> tuple[Violation, ...]:
        """The violations kept, in file order, then the one that says how many more."""
        kept = sorted(self.violations, key=order)
        if self.left_out:
            kept.append(left_out(self.left_out, kept[-1].pos))
        return tuple(kept)

    def at(self, item: RecordedPlay | RecordedOutcome) -> SourcePos:
        """Where a play or an outcome is written."""
        return SourcePos(self.game.source, item.line, item.column)

    def name_of(self, raw: str, item: RecordedOutcome) -> str | None:
        """The swimmer ``raw`` names (ignoring case), or None after flagging it."""
        name = self.canon.get(raw.casefold())
        if name is None:
            hint = self.slip(raw)[1]
            message = f"{raw} is not a swimmer in this game{hint}"
            self.flag("unknown-swimmer", message, self.at(item))
        return name

    def slip(self, raw: str) -> tuple[str | None, str]:
        """The swimmer of the game whose name ``raw`` most likely misspells (difflib's
        closest), and the hint that names it; None and no hint when none is close."""
        close = get_close_matches(raw.casefold(), self.canon, n=1, cutoff=_CLOSE)
        if not close:
            return None, ""
        name = self.canon[close[0]]
        return name, f": did you mean {name}?"
