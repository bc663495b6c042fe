"""Checking the outcomes a round states against the steps the rules require."""

from __future__ import annotations

from getbit_events import rules
from getbit_events.board import Board
from getbit_events.record import RecordedOutcome, RecordedRound
from getbit_events.rules import Settlement
from getbit_events.tags import SetupReader

__all__ = ["OutcomeChecks", "limb_word"]


def limb_word(limb: str) -> str:
    return limb.replace("-", " ")


def _kept(table: list[int], name: str, outcome: Settlement) -> bool:
    """Whether ``name`` keeps a card on the table after this round's Exhaustion (R11)."""
    discarded = [v for n, v in outcome.discards or () if n == name]
    return len(table) > len(discarded)


class OutcomeChecks(SetupReader):
    """The outcome part of a validator walk (and the Winner tag, R17), after the set-up part.

    ``board`` is the state right after the reveal; ``outcome`` is what the
    rules make of it, not yet folded in.
    """

    def check_outcomes(
        self,
        board: Board,
        rnd: RecordedRound,
        outcome: Settlement,
        kinds: frozenset[str] | None = None,
    ) -> None:
        """Compare every stated outcome (of ``kinds``, when given) with ``outcome``."""
        seen: set[str] = set()
        shark_variant = board.setup.variant == "shark"
        for o in rnd.outcomes:
            # one of each outcome a round, but an 'out' for each swimmer devoured
            kind = o.kind
            key = f"out {o.names[0].casefold()}" if kind == "out" else kind
            if kinds is not None and kind not in kinds:
                seen.add(key)
                continue
            if key in seen:
                self.flag("duplicate-outcome", f"'{kind}' is stated twice", self.at(o))
                continue
            seen.add(key)
            if kind == "line":
                self.check_line(o, outcome)
            elif kind == "bit":
                self.check_bite(board, o, outcome)
            elif kind == "refresh":
                self.check_refresh(board, o, outcome)
            elif kind in ("miss", "hunger", "discard") and not shark_variant:
                self.flag(
                    "shark-only",
                    f"'{kind}' belongs to the shark variant; this game is "
                    f"{board.setup.variant}",
                    self.at(o),
                )
            elif kind == "out":
                self.check_out(board, o, outcome)
            elif kind == "miss":
                if not outcome.missed:
                    self.flag(
                        "wrong-miss", self.no_miss_reason(board, outcome), self.at(o), "R11"
                    )
            elif kind == "hunger":
                if o.number != outcome.hunger:
                    self.flag(
                        "wrong-hunger",
                        f"the Shark holds {outcome.hunger} hunger tokens after this round, "
                        f"not {o.number}",
                        self.at(o),
                        "R12",
                    )
            elif kind == "discard":
                self.check_discard(o, outcome)
            elif kind == "shark-back":
                self.check_shark_back(board, o, outcome)

    def check_bite(self, board: Board, o: RecordedOutcome, outcome: Settlement) -> None:
        name = self.name_of(o.names[0], o)
        if name is None:
            return
        bite = outcome.bites[0] if outcome.bites else None
        if bite is not None and name == bite[0]:
            limb = bite[1]
            if o.limb is None or o.limb == limb:
                return
            card = board.shark_card
            if board.setup.variant == "shark" and card in rules.LIMBS:
                msg = (
                    f"the Shark played {card}, so {name} loses the {limb_word(card)}, "
                    f"not the {limb_word(o.limb)}"
                )
                self.flag("wrong-limb", msg, self.at(o), "R11")
            else:
                lost = self.lost_in(name, o.limb)
                self.flag(
                    "wrong-limb",
                    f"{name} has no {limb_word(o.limb)} left (lost in round {lost})",
                    self.at(o),
                    "R6",
                )
            return
        if outcome.outs.get(name) == "two-left":
            reason = (
                f"{name} was devoured by the two-swimmer end, not bitten: "
                "record it as 'out' or leave it out"
            )
            self.flag("wrong-bite", reason, self.at(o), "R8")
        elif name in self.devoured_in:
            self.flag(
                "wrong-bite",
                f"{name} was devoured in round {self.devoured_in[name]} and cannot be "
                "bitten again",
                self.at(o),
                "R6",
            )
        elif bite is None:
            reason, rule = self.no_bite_reason(board, outcome)
            self.flag("wrong-bite", f"{name} is recorded bitten, but {reason}", self.at(o), rule)
        else:
            rule = "R11" if board.setup.variant == "shark" else "R6"
            self.flag(
                "wrong-bite",
                f"{name} is recorded bitten, but {bite[0]} is at the back after movement",
                self.at(o),
                rule,
            )

    def lost_in(self, name: str, limb: str) -> int | None:
        """The round in which ``name`` lost ``limb`` (R6, R11), from the walk's log."""
        for r, _, _, _, _, outcome in self.log:
            if (name, limb) in outcome.bites:
                return int(r)
        return None

    def no_bite_reason(self, board: Board, outcome: Settlement) -> tuple[str, str]:
        if board.round == 1:
            return "nobody is bitten in round 1", "R5"
        card = board.shark_card
        if card is None:
            return "the Shark played no card", "R11"
        if card == "exhaustion" and outcome.tied:
            return "Exhaustion makes the tied swimmers discard and takes no limb", "R11"
        return f"the Shark's {card} missed", "R12"

    def no_miss_reason(self, board: Board, outcome: Settlement) -> str:
        card = board.shark_card
        if card is None:
            return "the Shark played no card this round, so it cannot miss"
        if card == "exhaustion":
            return "Exhaustion found a tie, so it is not a miss"
        if card == "any-limb":
            return "any-limb found a tie and hit the swimmer at the back"
        return f"{outcome.back} still had the {limb_word(card)}, so the Shark hit"

    def check_out(self, board: Board, o: RecordedOutcome, outcome: Settlement) -> None:
        name = self.name_of(o.names[0], o)
        if name is None or outcome.outs.get(name, "recorded") != "recorded":
            return  # devoured by a ruling (R6, R8, R10, R14), not just as recorded
        if name in self.devoured_in:
            msg = f"{name} is recorded devoured, but was already devoured in round " + str(
                self.devoured_in[name]
            )
        else:
            limbs = len(board.seats[name].limbs)
            msg = f"{name} is recorded devoured, but is still in the game with {limbs} limbs"
        self.flag("wrong-out", msg, self.at(o), "R6")

    def check_discard(self, o: RecordedOutcome, outcome: Settlement) -> None:
        expected = sorted(outcome.discards) if outcome.discards else []
        stated = []
        for raw, value in o.cards:
            name = self.name_of(raw, o)
            if name is None:
                return
            stated.append((name, int(value) if value.isdigit() else -1))
        if sorted(stated) != expected:
            want = ", ".join(f"{n} {v}" for n, v in expected) or "nothing"
            got = ", ".join(f"{n} {v}" for n, v in sorted(stated))
            self.flag(
                "wrong-discard",
                f"this round discards {want}, not {got}",
                self.at(o),
                "R11",
            )

    def check_refresh(self, board: Board, o: RecordedOutcome, outcome: Settlement) -> None:
        # a bitten swimmer that swam on took its cards back (R6): it may be listed or not
        # (and so may one devoured after it, as recorded); one on its last limb did not
        outs = outcome.outs
        bitten = {who for who, _ in outcome.bites if outs.get(who) != "last-limb"}
        shark = board.setup.shark
        folded_shark = shark.casefold() if shark is not None else None
        stated: set[str] = set()
        for raw in o.names:
            if folded_shark is not None and raw.casefold() == folded_shark:
                # GBN: refresh lists swimmers; the Shark's take-back (R12, R13) is not stated
                self.flag(
                    "wrong-refresh",
                    f"the Shark {shark} is not a swimmer: refresh lists the swimmers that "
                    "take their played cards back (R7)",
                    self.at(o),
                    "R7",
                )
                continue
            name = self.name_of(raw, o)
            if name is not None:
                stated.add(name)
        if outcome.ended:
            if stated:
                self.flag(
                    "wrong-refresh",
                    "nothing is taken back in the round that ends the game",
                    self.at(o),
                    "R7",
                )
            return
        expected = set(outcome.taken) - bitten
        if stated == expected:
            return
        order = board.setup.line.index
        for name in sorted(expected - stated, key=order):
            held = len(board.seats[name].hand)
            self.flag(
                "wrong-refresh",
                f"{name} holds {held} card{'s' if held != 1 else ''} and takes its played "
                "cards back, but is not listed",
                self.at(o),
                "R7",
            )
        for name in sorted(stated - expected - bitten, key=order):
            s = board.seats[name]
            if name in board.line and len(s.hand) < 2 and not _kept(s.table, name, outcome):
                # R7 (R11, R15): fewer than two cards, but nothing to take back: none
                # played, or only the card Exhaustion discards; it may be listed or not
                continue
            if name not in board.line:
                msg = f"{name} is out of the game and takes nothing back"
            else:
                msg = f"{name} holds {len(s.hand)} cards and takes nothing back"
            self.flag("wrong-refresh", msg, self.at(o), "R7")

    def check_shark_back(self, board: Board, o: RecordedOutcome, outcome: Settlement) -> None:
        """A log's word on the Shark's take-back (R12, R13): ``names`` holds the Shark
        when the log says it took its played cards back, nothing when it says not."""
        took = bool(o.names)
        if took == outcome.shark_took:
            return
        shark = board.setup.shark
        rule = "R12" if outcome.missed else "R13"
        if took:
            message = f"the Shark {shark} takes no cards back this round"
        else:
            message = f"the Shark {shark} takes its played cards back this round"
        self.flag("wrong-refresh", message, self.at(o), rule)

    def check_line(self, o: RecordedOutcome, outcome: Settlement) -> None:
        expected = outcome.line
        if o.names == expected:  # written as the Line tag spells the names
            return
        canon = self.canon
        stated = tuple([canon.get(n.casefold(), n) for n in o.names])
        if stated == expected:
            return
        two_left = [n for n, why in outcome.outs.items() if why == "two-left"]
        # R8: the line may name the winner alone or both swimmers
        if two_left and stated == (*expected, *two_left):
            return
        self.flag(
            "wrong-line",
            f"the line after this round is {', '.join(expected)}, not {', '.join(stated)}",
            self.at(o),
            "R4",
        )

    # -- the end (R17) ---------------------------------------------------------

    def check_winner(self, board: Board) -> bool:
        """Check the Winner tag (R17); True when it is flagged."""
        tag = self.winner_tag
        if tag is None:
            return False
        claimed = tag.value.strip()
        if not board.finished:
            self.flag(
                "wrong-winner",
                f"the record names {claimed} the winner, but stops before the game is over",
                tag.pos,
                "R17",
                in_round=False,
            )
            return True
        if board.winner is not None and claimed.casefold() != board.winner.casefold():
            self.flag(
                "wrong-winner",
                f"the record names {claimed} the winner, but the rules make it {board.winner}",
                tag.pos,
                "R17",
                in_round=False,
            )
            return True
        return False
