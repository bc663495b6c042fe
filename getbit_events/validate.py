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
    CardsRevealed,
    Event,
    GameStarted,
    SharkCardPlayed,
    SwimmerBitten,
    SwimmerDevoured,
)
from getbit_events.findings import CODES, WARNING_CODES
from getbit_events.outcomes import OutcomeChecks, limb_word
from getbit_events.record import (
    RecordedGame,
    RecordedPlay,
    RecordedRound,
    Violation,
)
from getbit_events.reducer import Fold
from getbit_events.setup import SetupReader
from getbit_events.state import GameState, initial_state

__all__ = ["CODES", "WARNING_CODES", "GameReport", "validate_game", "validate_games"]


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


class _Checker(SetupReader, OutcomeChecks):
    """One game's walk: the set-up, then each round's plays and outcomes."""

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
                    f"taking the {limb_word(outcome.defaulted_limb)}",
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
