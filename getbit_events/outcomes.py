"""Checking the outcomes a round states against the events the rules require."""

from __future__ import annotations

from getbit_events import rules
from getbit_events.events import (
    CardsDiscarded,
    CardsTakenBack,
    GameEnded,
    HungerLost,
    SharkCardsTakenBack,
    SwimmerBitten,
    SwimmerDevoured,
)
from getbit_events.findings import Findings
from getbit_events.record import RecordedOutcome, RecordedRound
from getbit_events.state import GameState

__all__ = ["OutcomeChecks", "limb_word"]


def limb_word(limb: str) -> str:
    return limb.replace("-", " ")


class OutcomeChecks(Findings):
    """The outcome part of a validator walk (and the Winner tag, R17)."""

    def check_outcomes(
        self,
        state: GameState,
        after: GameState,
        rnd: RecordedRound,
        outcome: rules.RoundOutcome,
    ) -> None:
        """Compare every stated outcome with what the rules say happened."""
        bites = [e for e in outcome.events if isinstance(e, SwimmerBitten)]
        outs = {e.who: e.why for e in outcome.events if isinstance(e, SwimmerDevoured)}
        missed = [e for e in outcome.events if isinstance(e, HungerLost)]
        discards = [e for e in outcome.events if isinstance(e, CardsDiscarded)]
        taken = [e.who for e in outcome.events if isinstance(e, CardsTakenBack)]
        shark_took = any(isinstance(e, SharkCardsTakenBack) for e in outcome.events)
        ended = any(isinstance(e, GameEnded) for e in outcome.events)
        # a bitten swimmer that swam on took its cards back (R6); a devoured one did not
        bitten = {b.who for b in bites} - set(outs)
        seen: set[str] = set()
        shark_variant = state.setup.variant == "shark"
        for o in rnd.outcomes:
            # one of each outcome a round, but an 'out' for each swimmer devoured
            key = f"out {o.names[0].casefold()}" if o.kind == "out" else o.kind
            if key in seen:
                self.flag("duplicate-outcome", f"'{o.kind}' is stated twice", o.pos)
                continue
            seen.add(key)
            if o.kind in ("miss", "hunger", "discard") and not shark_variant:
                self.flag(
                    "shark-only",
                    f"'{o.kind}' belongs to the shark variant; this game is "
                    f"{state.setup.variant}",
                    o.pos,
                )
            elif o.kind == "bit":
                self.check_bite(state, o, bites, outs, outcome)
            elif o.kind == "out":
                self.check_out(state, o, outs)
            elif o.kind == "miss":
                if not missed:
                    self.flag("wrong-miss", self.no_miss_reason(state, outcome), o.pos, "R11")
            elif o.kind == "hunger":
                hunger = after.shark.hunger if after.shark is not None else 0
                if o.number != hunger:
                    self.flag(
                        "wrong-hunger",
                        f"the Shark holds {hunger} hunger tokens after this round, "
                        f"not {o.number}",
                        o.pos,
                        "R12",
                    )
            elif o.kind == "discard":
                self.check_discard(o, discards)
            elif o.kind == "refresh":
                self.check_refresh(state, o, taken, bitten, shark_took, ended)
            elif o.kind == "line":
                self.check_line(o, after, outs)

    def check_bite(
        self,
        state: GameState,
        o: RecordedOutcome,
        bites: list[SwimmerBitten],
        outs: dict[str, str],
        outcome: rules.RoundOutcome,
    ) -> None:
        name = self.name_of(o.names[0], o.pos)
        if name is None:
            return
        bite = bites[0] if bites else None
        if bite is None or name != bite.who:
            if outs.get(name) == "two-left":
                reason = (
                    f"{name} was devoured by the two-swimmer end, not bitten: "
                    "record it as 'out' or leave it out"
                )
                self.flag("wrong-bite", reason, o.pos, "R8")
            elif name in self.devoured_in:
                self.flag(
                    "wrong-bite",
                    f"{name} was devoured in round {self.devoured_in[name]} and cannot be "
                    "bitten again",
                    o.pos,
                    "R6",
                )
            elif bite is None:
                reason, rule = self.no_bite_reason(state, outcome)
                self.flag("wrong-bite", f"{name} is recorded bitten, but {reason}", o.pos, rule)
            else:
                rule = "R11" if state.setup.variant == "shark" else "R6"
                self.flag(
                    "wrong-bite",
                    f"{name} is recorded bitten, but {bite.who} is at the back after movement",
                    o.pos,
                    rule,
                )
            return
        if o.limb is not None and o.limb != bite.limb:
            card = state.shark_card
            if state.setup.variant == "shark" and card in rules.LIMBS:
                msg = (
                    f"the Shark played {card}, so {name} loses the {limb_word(card)}, "
                    f"not the {limb_word(o.limb)}"
                )
                self.flag("wrong-limb", msg, o.pos, "R11")
            else:
                lost = self.lost_in.get((name, o.limb))
                self.flag(
                    "wrong-limb",
                    f"{name} has no {limb_word(o.limb)} left (lost in round {lost})",
                    o.pos,
                    "R6",
                )

    def no_bite_reason(self, state: GameState, outcome: rules.RoundOutcome) -> tuple[str, str]:
        if state.round == 1:
            return "nobody is bitten in round 1", "R5"
        card = state.shark_card
        if card is None:
            return "the Shark played no card", "R11"
        if card == "exhaustion" and outcome.tied:
            return "Exhaustion makes the tied swimmers discard and takes no limb", "R11"
        return f"the Shark's {card} missed", "R12"

    def no_miss_reason(self, state: GameState, outcome: rules.RoundOutcome) -> str:
        card = state.shark_card
        if card is None:
            return "the Shark played no card this round, so it cannot miss"
        if card == "exhaustion":
            return "Exhaustion found a tie, so it is not a miss"
        if card == "any-limb":
            return "any-limb found a tie and hit the swimmer at the back"
        return f"{outcome.back} still had the {limb_word(card)}, so the Shark hit"

    def check_out(self, state: GameState, o: RecordedOutcome, outs: dict[str, str]) -> None:
        name = self.name_of(o.names[0], o.pos)
        if name is None or name in outs:
            return
        if name in self.devoured_in:
            msg = f"{name} is recorded devoured, but was already devoured in round " + str(
                self.devoured_in[name]
            )
        else:
            limbs = len(state.swimmer(name).limbs)
            msg = f"{name} is recorded devoured, but is still in the game with {limbs} limbs"
        self.flag("wrong-out", msg, o.pos, "R6")

    def check_discard(self, o: RecordedOutcome, discards: list[CardsDiscarded]) -> None:
        expected = sorted(discards[0].cards) if discards else []
        stated = []
        for raw, value in o.cards:
            name = self.name_of(raw, o.pos)
            if name is None:
                return
            stated.append((name, int(value) if value.isdigit() else -1))
        if sorted(stated) != expected:
            want = ", ".join(f"{n} {v}" for n, v in expected) or "nothing"
            got = ", ".join(f"{n} {v}" for n, v in sorted(stated))
            self.flag(
                "wrong-discard",
                f"this round discards {want}, not {got}",
                o.pos,
                "R11",
            )

    def check_refresh(
        self,
        state: GameState,
        o: RecordedOutcome,
        taken: list[str],
        bitten: set[str],
        shark_took: bool,
        ended: bool,
    ) -> None:
        shark = state.setup.shark
        stated: set[str] = set()
        for raw in o.names:
            if shark is not None and raw.casefold() == shark.casefold():
                if not shark_took:  # the Shark's take-back (R12, R13) may be listed too
                    self.flag(
                        "wrong-refresh",
                        f"the Shark {shark} takes no cards back this round",
                        o.pos,
                        "R13",
                    )
                continue
            name = self.name_of(raw, o.pos)
            if name is not None:
                stated.add(name)
        if ended:
            if stated:
                self.flag(
                    "wrong-refresh",
                    "nothing is taken back in the round that ends the game",
                    o.pos,
                    "R7",
                )
            return
        expected = set(taken) - bitten
        for name in sorted(expected - stated, key=state.setup.line.index):
            held = len(state.swimmer(name).hand)
            self.flag(
                "wrong-refresh",
                f"{name} holds {held} card{'s' if held != 1 else ''} and takes its played "
                "cards back, but is not listed",
                o.pos,
                "R7",
            )
        for name in sorted(stated - expected - bitten, key=state.setup.line.index):
            s = state.swimmer(name)
            if name in state.line and len(s.hand) < 2 and not s.table:
                continue  # R15: fewer than two cards but nothing to take back
            if name not in state.line:
                msg = f"{name} is out of the game and takes nothing back"
            else:
                msg = f"{name} holds {len(s.hand)} cards and takes nothing back"
            self.flag("wrong-refresh", msg, o.pos, "R7")

    def check_line(self, o: RecordedOutcome, after: GameState, outs: dict[str, str]) -> None:
        stated = tuple(self.canon.get(n.casefold(), n) for n in o.names)
        expected = after.line
        allowed = [expected]
        two_left = [n for n, why in outs.items() if why == "two-left"]
        if two_left:  # R8: the line may name the winner alone or both swimmers
            allowed.append((*expected, *two_left))
        if stated not in allowed:
            self.flag(
                "wrong-line",
                f"the line after this round is {', '.join(expected)}, "
                f"not {', '.join(stated)}",
                o.pos,
                "R4",
            )

    # -- the end (R17) ---------------------------------------------------------

    def check_winner(self, state: GameState) -> None:
        tag = self.winner_tag
        if tag is None:
            return
        claimed = tag.value.strip()
        if not state.finished:
            self.flag(
                "wrong-winner",
                f"the record names {claimed} the winner, but stops before the game is over",
                tag.pos,
                "R17",
                in_round=False,
            )
        elif state.winner is not None and claimed.casefold() != state.winner.casefold():
            self.flag(
                "wrong-winner",
                f"the record names {claimed} the winner, but the rules make it {state.winner}",
                tag.pos,
                "R17",
                in_round=False,
            )
