"""The validator: walks a recorded game, compares every recorded fact with what
the rules expect, and collects every violation.

Cards are the primary facts: a card played against the rules is reported and
still played (it moves its swimmer), so one slip does not hide the next.
Outcomes (bites, lines, take-backs ...) are claims: each one stated is checked
against the rules, and the game goes on from what the rules say happened.
Outcomes a record leaves out are derived, so a record with only cards becomes a
complete event stream.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

import attrs

from getbit_events import rules
from getbit_events.events import (
    CardChosen,
    CardsDiscarded,
    CardsRevealed,
    CardsTakenBack,
    Event,
    GameEnded,
    GameStarted,
    HungerLost,
    SharkCardPlayed,
    SharkCardsTakenBack,
    SourcePos,
    SwimmerBitten,
    SwimmerDevoured,
)
from getbit_events.record import (
    RecordedGame,
    RecordedOutcome,
    RecordedPlay,
    RecordedRound,
    RecordedTag,
    Violation,
)
from getbit_events.reducer import Fold
from getbit_events.state import GameState, initial_state

__all__ = ["CODES", "GameReport", "validate_game", "validate_games"]

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
}

WARNING_CODES: dict[str, str] = {
    "any-limb-default": "an any-limb bite states no limb; the first limb left was taken",
}

_NAME_FORBIDDEN = frozenset(',;:#[]"\n\r')


@attrs.frozen
class GameReport:
    """What validating one recorded game found, and the complete event stream."""

    record: RecordedGame
    events: tuple[Event, ...]
    violations: tuple[Violation, ...]
    warnings: tuple[Violation, ...]
    state: GameState | None

    @property
    def source(self) -> str:
        return self.record.source

    @property
    def game(self) -> int:
        return self.record.index

    @property
    def valid(self) -> bool:
        return not self.violations

    @property
    def readable(self) -> bool:
        """False when a syntax error spoilt the game (no events could be made)."""
        return not self.record.syntax_errors

    @property
    def finished(self) -> bool:
        return self.state is not None and self.state.finished

    @property
    def winner(self) -> str | None:
        return self.state.winner if self.state is not None else None

    @property
    def ranking(self) -> tuple[str, ...] | None:
        return self.state.ranking if self.state is not None else None

    def to_json(self) -> dict[str, Any]:
        """The stable JSON shape of ``getbit validate --json``."""
        final: dict[str, Any] | None = None
        if self.state is not None:
            final = {
                "line": list(self.state.line),
                "limbs": self.state.limbs(),
                "hunger": self.state.shark.hunger if self.state.shark is not None else None,
            }
        setup = self.events[0] if self.events else None
        return {
            "source": self.source,
            "game": self.game,
            "line": self.record.pos.line,
            "variant": setup.variant if isinstance(setup, GameStarted) else None,
            "valid": self.valid,
            "finished": self.finished,
            "rounds": len(self.record.rounds),
            "violations": [v.to_json() for v in self.violations],
            "warnings": [str(w) for w in self.warnings],
            "winner": self.winner,
            "ranking": list(self.ranking) if self.ranking is not None else None,
            "final": final,
        }


def validate_games(games: Iterable[RecordedGame]) -> Iterator[GameReport]:
    """Validate each game in turn; a bad game never affects the next."""
    for game in games:
        yield validate_game(game)


def validate_game(game: RecordedGame) -> GameReport:
    """Check one recorded game against the rules and build its event stream."""
    if game.syntax_errors:
        errors = tuple(sorted(game.syntax_errors, key=_order))
        return GameReport(game, (), errors, (), None)
    return _Checker(game).run()


def _order(v: Violation) -> tuple[int, int]:
    return (v.pos.line, v.pos.column)


def _limb_word(limb: str) -> str:
    return limb.replace("-", " ")


class _Checker:
    """One game's walk: the state so far, the events so far, what was found."""

    def __init__(self, game: RecordedGame) -> None:
        self.game = game
        self.violations: list[Violation] = []
        self.warnings: list[Violation] = []
        self.events: list[Event] = []
        self.canon: dict[str, str] = {}
        self.winner_tag: RecordedTag | None = None
        self.round = 0
        self.played_in: dict[tuple[str, object], int] = {}
        self.lost_in: dict[tuple[str, str], int] = {}
        self.devoured_in: dict[str, int] = {}

    # -- reporting -------------------------------------------------------------

    def flag(
        self,
        code: str,
        message: str,
        pos: SourcePos,
        rule: str | None = None,
        *,
        in_round: bool = True,
    ) -> None:
        text = f"{message} ({rule})" if rule else message
        self.violations.append(
            Violation(code, text, pos, self.round if in_round else None, rule)
        )

    # -- the walk --------------------------------------------------------------

    def run(self) -> GameReport:
        setup = self.setup()
        state: GameState | None = None
        if setup is not None:
            self.events.append(setup)
            state = initial_state(setup)
            fold = Fold(state)
            for rnd in self.game.rounds:
                self.round = rnd.index
                if state.finished:  # R17: nothing is played after the end
                    self.flag(
                        "round-after-end",
                        f"round {rnd.number} is recorded after the game ended in round "
                        f"{state.round}",
                        rnd.pos,
                        "R17",
                    )
                    continue
                state = self.play_round(fold, state, rnd)
            self.check_winner(state)
        return GameReport(
            self.game,
            tuple(self.events),
            tuple(sorted(self.violations, key=_order)),
            tuple(self.warnings),
            state,
        )

    # -- set-up (R1, R2) -------------------------------------------------------

    def setup(self) -> GameStarted | None:
        known = {"line", "variant", "memory", "automaton", "teams", "shark", "winner"}
        seen: dict[str, RecordedTag] = {}
        extra: list[tuple[str, str]] = []
        for tag in self.game.tags:
            key = tag.name.casefold()
            if key not in known:
                extra.append((tag.name, tag.value))
            elif key in seen:
                self.flag(
                    "duplicate-tag",
                    f"the {tag.name} tag is given twice (first on line {seen[key].pos.line})",
                    tag.pos,
                    in_round=False,
                )
            else:
                seen[key] = tag
        self.winner_tag = seen.get("winner")
        ok = not self.violations
        line_tag = seen.get("line")
        if line_tag is None:
            self.flag("missing-line", "the game has no Line tag", self.game.pos, in_round=False)
            return None
        line = self.names(line_tag.value, line_tag)
        if line is None:
            return None
        self.canon = {n.casefold(): n for n in line}
        variant = "standard"
        if "variant" in seen:
            variant = seen["variant"].value.strip().casefold()
        memory = False
        if "memory" in seen:
            value = seen["memory"].value.strip().casefold()
            if value not in ("on", "off"):
                self.flag(
                    "bad-tag-value",
                    f"Memory is 'on' or 'off', not {seen['memory'].value!r}",
                    seen["memory"].pos,
                    in_round=False,
                )
                ok = False
            memory = value == "on"
        automaton = None
        if "automaton" in seen:
            raw = seen["automaton"].value.strip()
            automaton = self.canon.get(raw.casefold(), raw)
        teams: tuple[tuple[str, tuple[str, ...]], ...] = ()
        if "teams" in seen:
            parsed = self.teams(seen["teams"])
            if parsed is None:
                ok = False
            else:
                teams = parsed
        shark = None
        if "shark" in seen:
            shark = seen["shark"].value.strip()
            if not self.valid_name(shark, seen["shark"]):
                ok = False
        for problem in rules.setup_problems(variant, line, automaton, teams, shark):
            where = seen.get(problem.tag.casefold(), line_tag)
            self.flag("bad-setup", problem.message, where.pos, problem.rule, in_round=False)
            ok = False
        if not ok:
            return None
        return GameStarted(
            0,
            variant,
            memory,
            line,
            rules.hand_size(len(line)),  # R1
            automaton,
            teams,
            shark,
            len(line) if variant == "shark" else 0,  # R2: one hunger token per swimmer
            tuple(extra),
            line_tag.pos,
        )

    def valid_name(self, name: str, tag: RecordedTag) -> bool:
        if not name or any(c in _NAME_FORBIDDEN for c in name):
            self.flag(
                "bad-name",
                f"{name!r} is not a name: names are not empty and hold none of , ; : # [ ] \"",
                tag.pos,
                in_round=False,
            )
            return False
        return True

    def names(self, text: str, tag: RecordedTag) -> tuple[str, ...] | None:
        names = tuple(n.strip() for n in text.split(","))
        if not all(self.valid_name(n, tag) for n in names):
            return None
        folded: dict[str, str] = {}
        for n in names:
            if n.casefold() in folded:
                self.flag(
                    "duplicate-name",
                    f"{n!r} is named twice in {tag.name} (names ignore case)",
                    tag.pos,
                    "R2",
                    in_round=False,
                )
                return None
            folded[n.casefold()] = n
        return names

    def teams(self, tag: RecordedTag) -> tuple[tuple[str, tuple[str, ...]], ...] | None:
        teams = []
        for part in tag.value.split(";"):
            player, colon, swimmers = part.partition(":")
            if not colon:
                self.flag(
                    "bad-tag-value",
                    f"Teams reads 'Player: Swimmer, Swimmer; Player: Swimmer, Swimmer', "
                    f"not {part.strip()!r}",
                    tag.pos,
                    in_round=False,
                )
                return None
            player = player.strip()
            if not self.valid_name(player, tag):
                return None
            owned = []
            for n in swimmers.split(","):
                n = n.strip()
                canon = self.canon.get(n.casefold())
                if canon is None:
                    self.flag(
                        "bad-setup",
                        f"Teams gives {player} the swimmer {n!r}, who is not in the Line",
                        tag.pos,
                        "R2",
                        in_round=False,
                    )
                    return None
                owned.append(canon)
            teams.append((player, tuple(owned)))
        return tuple(teams)

    # -- a round ---------------------------------------------------------------

    def play_round(self, fold: Fold, state: GameState, rnd: RecordedRound) -> GameState:
        setup = state.setup
        r = state.round + 1
        pos = rnd.pos
        if rnd.number != r:
            self.flag(
                "round-number",
                f"this is round {r}, but it is numbered {rnd.number}",
                pos,
            )
        cards, shark_card = self.read_plays(state, rnd, r)
        shark = setup.shark if shark_card is not None else None
        played: list[Event] = [CardChosen(r, n, pos) for n in state.line if cards[n] is not None]
        if shark is not None:
            played.append(CardChosen(r, shark, pos))
        played.append(CardsRevealed(r, tuple((n, cards[n]) for n in state.line), pos))
        if shark is not None and shark_card is not None:
            played.append(SharkCardPlayed(r, shark, shark_card, pos))
        fold.extend(played)
        self.events.extend(played)
        revealed = fold.snapshot()

        limb_choice: dict[str, str] = {}
        for o in rnd.outcomes:
            if o.kind == "bit":  # the first bite stated is the one checked
                name = self.canon.get(o.names[0].casefold())
                if o.limb and name is not None:
                    limb_choice[name] = o.limb
                break
        outcome = rules.resolve_round(revealed, limb_choice, pos)
        fold.extend(outcome.events)
        self.events.extend(outcome.events)
        after = fold.snapshot()
        if rnd.outcomes:
            self.check_outcomes(revealed, after, rnd, outcome)
        if outcome.defaulted_limb is not None and outcome.back is not None:
            self.warnings.append(
                Violation(
                    "any-limb-default",
                    f"the any-limb bite on {outcome.back} states no limb; "
                    f"taking the {_limb_word(outcome.defaulted_limb)}",
                    pos,
                    self.round,
                    "R11",
                )
            )
        for event in outcome.events:
            if isinstance(event, SwimmerBitten):
                self.lost_in[(event.who, event.limb)] = r
            elif isinstance(event, SwimmerDevoured):
                self.devoured_in[event.who] = r
        return after

    def read_plays(
        self, state: GameState, rnd: RecordedRound, r: int
    ) -> tuple[dict[str, int | None], str | None]:
        setup = state.setup
        shark_key = setup.shark.casefold() if setup.shark else None
        cards: dict[str, int | None] = {}
        shark_card: str | None = None
        shark_seen = False
        for play in rnd.plays:
            key = play.name.casefold()
            if key == shark_key:
                if shark_seen:
                    self.flag("duplicate-play", f"the Shark {play.name} plays twice", play.pos)
                    continue
                shark_seen = True
                shark_card = self.shark_play(state, play, r)
                continue
            name = self.canon.get(key)
            if name is None:
                self.flag(
                    "unknown-swimmer", f"{play.name} is not a swimmer in this game", play.pos
                )
                continue
            if name not in state.line:
                self.flag(
                    "not-in-game",
                    f"{name} plays, but was devoured in round {self.devoured_in.get(name, '?')}",
                    play.pos,
                    "R3",
                )
                continue
            if name in cards:
                self.flag("duplicate-play", f"{name} plays twice in one round", play.pos, "R3")
                continue
            cards[name] = self.swimmer_play(state, name, play, r)
        for name in state.line:
            if name not in cards:
                cards[name] = None
                self.flag(
                    "missing-play",
                    f"{name} is still in the game but plays no card",
                    rnd.pos,
                    "R3",
                )
        if (
            setup.shark is not None
            and r >= 2
            and not shark_seen
            and state.shark is not None
            and state.shark.hand
        ):
            self.flag(
                "missing-play",
                f"the Shark {setup.shark} plays no card; from round 2 it plays one every round",
                rnd.pos,
                "R11",
            )
        return cards, shark_card

    def swimmer_play(self, state: GameState, name: str, play: RecordedPlay, r: int) -> int | None:
        s = state.swimmer(name)
        if play.card == "-":
            if s.hand:
                held = ", ".join(str(v) for v in sorted(s.hand))
                self.flag(
                    "no-card-claimed",
                    f"{name} records no card but holds {held}",
                    play.pos,
                    "R15",
                )
            return None
        if not play.card.isdigit():
            self.flag(
                "wrong-card-kind",
                f"{name} is a swimmer and plays a numbered card, not {play.card!r}",
                play.pos,
                "R3",
            )
            return None
        value = int(play.card)
        if value not in s.hand:
            message, rule = self.why_not_in_hand(state, name, value)
            # R9: the automaton's repeat is a card turned since its last reshuffle
            repeat = name == state.setup.automaton and value in s.table
            self.flag("automaton-repeat" if repeat else "card-not-in-hand", message, play.pos, rule)
        self.played_in[(name, value)] = r
        return value

    def why_not_in_hand(self, state: GameState, name: str, value: int) -> tuple[str, str]:
        """Why ``value`` is not in ``name``'s hand, and the ruling that says so."""
        s = state.swimmer(name)
        top = state.setup.hand_size
        automaton = name == state.setup.automaton
        plays = "turns" if automaton else "plays"
        if not 1 <= value <= 7:
            return f"{name} {plays} {value}, but cards run from 1 to 7", "R3"
        if value > top:
            swimmers = len(state.setup.line)
            return (f"{name} {plays} {value}, but {swimmers} swimmers hold 1 to {top} (R1)", "R3")
        if value in s.discards:
            return (f"{name} {plays} {value}, but discarded it to Exhaustion (R11)", "R3")
        since = self.played_in.get((name, value))
        if automaton:
            return (
                f"{name} turns {value}, but its {value} was turned in round {since} "
                f"and it has not reshuffled since"
            ), "R9"
        return f"{name} plays {value}, but that {value} is on the table since round {since}", "R3"

    def shark_play(self, state: GameState, play: RecordedPlay, r: int) -> str | None:
        shark = state.shark
        assert shark is not None
        card = play.card.casefold()
        if r < 2:
            self.flag(
                "shark-round-1",
                f"the Shark {shark.name} plays {play.card} in round 1, where it plays no card",
                play.pos,
                "R5",
            )
            return None
        if card not in rules.SHARK_CARDS:
            self.flag(
                "wrong-card-kind",
                f"the Shark plays one of {', '.join(rules.SHARK_CARDS)}, not {play.card!r}",
                play.pos,
                "R11",
            )
            return None
        if card not in shark.hand:
            since = self.played_in.get((shark.name, card), "?")
            self.flag(
                "card-not-in-hand",
                f"the Shark plays {card}, but it is on the table since round {since}",
                play.pos,
                "R13",
            )
        self.played_in[(shark.name, card)] = r
        return card

    # -- outcomes --------------------------------------------------------------

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

    def name_of(self, raw: str, pos: SourcePos) -> str | None:
        name = self.canon.get(raw.casefold())
        if name is None:
            self.flag("unknown-swimmer", f"{raw} is not a swimmer in this game", pos)
        return name

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
        if not bites:
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
            else:
                reason, rule = self.no_bite_reason(state, outcome)
                self.flag("wrong-bite", f"{name} is recorded bitten, but {reason}", o.pos, rule)
            return
        bite = bites[0]
        if name != bite.who and outs.get(name) == "two-left":
            reason = (
                f"{name} was devoured by the two-swimmer end, not bitten: "
                "record it as 'out' or leave it out"
            )
            self.flag("wrong-bite", reason, o.pos, "R8")
            return
        if name != bite.who:
            if name in self.devoured_in:
                self.flag(
                    "wrong-bite",
                    f"{name} was devoured in round {self.devoured_in[name]} and cannot be "
                    "bitten again",
                    o.pos,
                    "R6",
                )
                return
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
                    f"the Shark played {card}, so {name} loses the {_limb_word(card)}, "
                    f"not the {_limb_word(o.limb)}"
                )
                self.flag("wrong-limb", msg, o.pos, "R11")
            else:
                lost = self.lost_in.get((name, o.limb))
                self.flag(
                    "wrong-limb",
                    f"{name} has no {_limb_word(o.limb)} left (lost in round {lost})",
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
        return f"{outcome.back} still had the {_limb_word(card)}, so the Shark hit"

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
