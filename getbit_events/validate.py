"""The validator: walks a recorded game, compares every recorded fact with what
the rules expect, and collects every violation.

Records are kept as recorded. Cards are facts: a card played against the rules
is reported and still played (it moves its swimmer); a play the game cannot take
(a name not in the game, a swimmer devoured, a second play) is reported and kept
in the events, changing nothing. Outcomes (bites, lines, take-backs ...) are facts
too: each one stated is checked against the rules, reported once where it is
wrong, and the game goes on from what the record says happened (the game as
played, ``rules.Stated``), so the rounds after a mistake are checked against the
game the table played. Outcomes a record leaves out are worked out from the
rules, so a record with only cards becomes a complete event stream.

The walk keeps its state on a private mutable ``Board`` and logs each round's
facts (the cards, and what ``rules.settle`` made of them); the event stream and the
frozen ``GameState`` are made from that log when first asked for, so checking
a record costs no event object per fact (bench/validate.py measures it). A round
whose text states just what the rules say, in the record's own notation
(``RoundText.states``), is checked by that one question; any other is read and
checked outcome by outcome.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from functools import cached_property
from typing import Any

import attrs

from getbit_events import rules
from getbit_events.board import Board
from getbit_events.events import (
    Event,
    GameStarted,
)
from getbit_events.findings import CODES, WARNING_CODES, capped
from getbit_events.outcomes import OutcomeChecks, limb_word
from getbit_events.record import (
    RecordedGame,
    RecordedPlay,
    RecordedRound,
    Violation,
)
from getbit_events.reducer import fold
from getbit_events.state import GameState

__all__ = [
    "CODES",
    "WARNING_CODES",
    "Final",
    "GameReport",
    "validate_game",
    "validate_games",
]

_Cards = tuple[tuple[str, int | None], ...]
#: A card as written -> its value, for every value a hand can hold (R1: 1 to 7).
_VALUES = {str(v): v for v in range(1, 8)}
#: One round of a walk: (round, its record, revealed cards, Shark, Shark card, outcome).
_Logged = tuple[int, RecordedRound, _Cards, str | None, str | None, rules.Settlement]
#: The outcomes a round states, in the order they are checked: what the round's cards
#: did, against the rules; then who was devoured (R6, R8), against the bite as stated;
#: the hunger left (R12, R14), against the miss as stated; and what follows from all
#: of it (take-backs, the line), against the round as stated.
_STAGES = (
    frozenset(("bit", "miss", "discard")),
    frozenset(("out",)),
    frozenset(("hunger",)),
    frozenset(("refresh", "line", "shark-back")),
)


def _so_far(said: rules.Stated, stage: int) -> rules.Stated:
    """What ``said`` states of the round up to ``stage`` of ``_STAGES``: the game goes on
    from that, and the rules work out the rest."""
    if stage == len(_STAGES) - 1:
        return said
    follows = rules.Stated()
    follows.bite, follows.miss, follows.discards = said.bite, said.miss, said.discards
    if stage >= 1:
        follows.outs = said.outs
    if stage >= 2:
        follows.hunger = said.hunger
    return follows


@attrs.frozen
class Final:
    """How a game stands after its last recorded round."""

    finished: bool
    winner: str | None
    ranking: tuple[str, ...] | None
    line: tuple[str, ...]  # front first, devoured swimmers left out
    limbs: dict[str, int]  # every swimmer in starting-line order, 0 when devoured
    hunger: int | None  # the Shark's tokens, None without a Shark

    @classmethod
    def of(cls, standing: GameState | Board) -> Final:
        """From a frozen state (the reducer's) or the validator's board."""
        shark = standing.shark
        return cls(
            standing.finished,
            standing.winner,
            standing.ranking,
            tuple(standing.line),
            standing.limbs(),
            shark.hunger if shark is not None else None,
        )


@attrs.frozen(slots=False, eq=False)
class GameReport:
    """What validating one recorded game found; its events and state on demand."""

    record: RecordedGame
    violations: tuple[Violation, ...]
    warnings: tuple[Violation, ...]
    final: Final | None = None  # None when no set-up could be read
    _setup: GameStarted | None = None
    _log: Sequence[_Logged] = ()

    @classmethod
    def of_events(
        cls,
        record: RecordedGame,
        events: Sequence[Event],
        violations: tuple[Violation, ...] = (),
        warnings: tuple[Violation, ...] = (),
    ) -> GameReport:
        """A report for a game whose complete event stream is already at hand."""
        state = fold(events) if events else None
        setup = events[0] if events and isinstance(events[0], GameStarted) else None
        final = Final.of(state) if state is not None else None
        report = cls(record, violations, warnings, final, setup)
        report.__dict__["events"] = tuple(events)
        report.__dict__["state"] = state
        return report

    @cached_property
    def events(self) -> tuple[Event, ...]:
        """The complete event stream: the set-up, each round's plays as recorded, then
        its outcome."""
        if self._setup is None:
            return ()
        events: list[Event] = [self._setup]
        for r, rnd, revealed, shark, shark_card, outcome in self._log:
            pos = rnd.pos
            number = rnd.number if rnd.number != r else None  # as the record numbers it
            events.extend(rules.round_events(r, pos, revealed, shark, shark_card, number))
            events.extend(rules.make_events(outcome.all_steps(), r, pos))
        return tuple(events)

    @cached_property
    def state(self) -> GameState | None:
        """The state after the last recorded round (the reducer's fold of ``events``)."""
        return fold(self.events) if self.events else None

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
        return self.final is not None and self.final.finished

    @property
    def winner(self) -> str | None:
        return self.final.winner if self.final is not None else None

    @property
    def ranking(self) -> tuple[str, ...] | None:
        return self.final.ranking if self.final is not None else None

    def to_json(self) -> dict[str, Any]:
        """The stable JSON shape of ``getbit validate --json``."""
        final: dict[str, Any] | None = None
        if self.final is not None:
            final = {
                "line": list(self.final.line),
                "limbs": dict(self.final.limbs),
                "hunger": self.final.hunger,
            }
        return {
            "source": self.source,
            "game": self.game,
            "line": self.record.pos.line,
            "variant": self._setup.variant if self._setup is not None else None,
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
    """Check one recorded game against the rules (its events are made when asked for)."""
    if game.syntax_errors:
        return GameReport(game, capped(game.syntax_errors), ())
    return _Checker(game).run()


class _Checker(OutcomeChecks):
    """One game's walk: the set-up (``SetupReader``), then each round's plays and
    outcomes (``OutcomeChecks``). One line of bases, no mixins side by side, so
    mypyc can compile the walk (see bench/validate.py)."""

    # -- the walk --------------------------------------------------------------

    def run(self) -> GameReport:
        setup = self.setup()
        if setup is None:
            return GameReport(self.game, self.found(), tuple(self.warnings))
        board = Board(setup)
        r = 0
        for rnd in self.game.rounds:
            self.round = rnd.index
            r += 1
            if board.finished:  # R17: nothing is played after the end
                self.flag(
                    "round-after-end",
                    f"round {rnd.number} is recorded after the game ended in round "
                    f"{board.round}",
                    rnd.pos,
                    "R17",
                )
                self.keep_after_end(board, rnd, r)
                continue
            self.play_round(board, rnd)
        if self.check_winner(board) and self.winner_tag is not None:
            # the Winner the record claims is a fact of the record: kept with the tags
            setup = attrs.evolve(setup, tags=(*setup.tags, ("Winner", self.winner_tag.value)))
        return GameReport(
            self.game,
            self.found(),
            tuple(self.warnings),
            Final.of(board),
            setup,
            self.log,
        )

    # -- a round ---------------------------------------------------------------

    def play_round(self, board: Board, rnd: RecordedRound) -> None:
        r = board.round + 1
        if rnd.number != r:
            self.flag(
                "round-number",
                f"this is round {r}, but it is numbered {rnd.number}",
                rnd.pos,
            )
        revealed, recorded, shark_card = self.read_plays(board, rnd, r)
        board.revealed_all(r, revealed, shark_card)
        outcome = self.settle_stated(board, rnd)
        if outcome.defaulted_limb is not None and outcome.back is not None:
            self.warnings.append(
                Violation(
                    "any-limb-default",
                    f"the any-limb bite on {outcome.back} states no limb; "
                    f"taking the {limb_word(outcome.defaulted_limb)}",
                    rnd.pos,
                    self.round,
                    "R11",
                )
            )
        for who in outcome.outs:
            self.devoured_in[who] = r
        board.settle_in(outcome)
        shark = board.setup.shark if shark_card is not None else None
        self.log.append((r, rnd, recorded, shark, shark_card, outcome))

    def keep_after_end(self, board: Board, rnd: RecordedRound, r: int) -> None:
        """A round recorded after the end (R17, flagged): its plays kept as written,
        nothing checked or settled (the fold leaves them aside)."""
        lookup = self.lookup
        shark = board.shark
        cards: list[tuple[str, int | None]] = []
        shark_card: str | None = None
        for raw, card in rnd.cards:
            if shark is not None and raw.casefold() == shark.key and card in rules.SHARK_CARDS:
                shark_card = card
                continue
            name = lookup.get(raw) or lookup.get(raw.casefold()) or raw
            if card == "-":
                cards.append((name, None))
            elif card.isdigit():
                cards.append((name, int(card)))
        hunger = shark.hunger if shark is not None else 0
        nothing = rules.Settlement((), (), None, hunger)
        who = board.setup.shark if shark_card is not None else None
        self.log.append((r, rnd, tuple(cards), who, shark_card, nothing))

    def settle_stated(self, board: Board, rnd: RecordedRound) -> rules.Settlement:
        """What the rules make of the round's cards, each outcome the record states
        checked against it (the limb a stated bite chooses is the one taken, R6, R11)."""
        text = rnd.text
        choice: dict[str, str] | None = None
        if text is not None:
            bite = text.bite()
            if bite is not None:
                name = self.canon.get(bite[0].casefold())
                if name is not None:
                    choice = {name: bite[1]}
            outcome = rules.settle(board, choice)
            if text.states(outcome.steps, outcome.line):
                return outcome  # the record states just what the rules say: nothing to check
        outcomes = rnd.outcomes
        stated: dict[str, str] | None = None
        for o in outcomes:
            if o.kind == "bit":  # the first bite stated is the one checked
                name = self.canon.get(o.names[0].casefold())
                if o.limb and name is not None:
                    stated = {name: o.limb}
                break
        if text is None or stated != choice:
            outcome = rules.settle(board, stated)
        # The game as played: it goes on from what the record states happened, each
        # wrong outcome reported once, the rules working out the rest. What the card
        # did (a bite, a miss, discards) is checked against the rules; what follows
        # from it against the game as stated so far: who was devoured against the bite,
        # the hunger left against the miss, then take-backs and the line against all of
        # it (a hunger stated at 0 ends the game, R14: nothing is taken back after).
        said: rules.Stated | None = None
        for stage, kinds in enumerate(_STAGES):
            found = len(self.violations) + self.left_out
            checked = outcome
            if stage == 1 and any(o.kind == "out" for o in outcomes):
                # who was devoured, against the bite and the other swimmers devoured as
                # stated: one the rules do not devour is devoured "recorded" (R8 may
                # follow from it: the two-swimmer end)
                said = said or self.stated(rnd)
                if any(who not in outcome.outs for who in said.outs):
                    checked = rules.settle(board, stated, _so_far(said, stage))
            self.check_outcomes(board, rnd, checked, kinds)
            if len(self.violations) + self.left_out != found:
                said = said or self.stated(rnd)
                outcome = rules.settle(board, stated, _so_far(said, stage))
        return outcome

    def stated(self, rnd: RecordedRound) -> rules.Stated:
        """The outcomes ``rnd`` states, in the game's own names (the first of each kind;
        one naming no swimmer of the game is left to the rules)."""
        said = rules.Stated()
        canon = self.canon
        for o in rnd.outcomes:
            kind = o.kind
            if kind == "bit" and said.bite is None:
                name = canon.get(o.names[0].casefold())
                if name is not None:
                    said.bite = (name, o.limb)
            elif kind == "out":
                name = canon.get(o.names[0].casefold())
                if name is not None:
                    said.outs = (*said.outs, name)
            elif kind == "miss":
                said.miss = True
            elif kind == "hunger" and said.hunger is None:
                said.hunger = o.number
            elif kind == "discard" and said.discards is None:
                cards = [(canon.get(n.casefold()), v) for n, v in o.cards]
                if all(n is not None and v.isdigit() for n, v in cards):
                    said.discards = tuple([(str(n), int(v)) for n, v in cards])
            elif kind in ("refresh", "line"):
                names = [canon.get(n.casefold()) for n in o.names]
                if all(n is not None for n in names):
                    kept = tuple([str(n) for n in names])
                    if kind == "line" and said.line is None:
                        said.line = kept
                    elif kind == "refresh" and said.refresh is None:
                        said.refresh = frozenset(kept)
        return said

    def read_plays(
        self, board: Board, rnd: RecordedRound, r: int
    ) -> tuple[_Cards, _Cards, str | None]:
        """Check the round's plays and put each card on the table (``Board.place``): the
        cards revealed, in line order (a missing play as no card); the plays as the
        record states them (the swimmers' in line order, a missing one left out, then
        any the game cannot take, as written); and the Shark's card."""
        lookup = self.lookup
        seats = board.seats
        line = board.line
        cards: dict[str, int | None] = {}
        extra: list[tuple[str, int | None]] = []  # plays the game cannot take, as written
        shark_card: str | None = None
        shark_seen = False
        values = _VALUES
        for k, (raw, card) in enumerate(rnd.cards):
            name = lookup.get(raw) or lookup.get(raw.casefold())
            value = values.get(card)
            # the usual play: a swimmer in the game plays a card from its hand
            if (
                value is not None
                and name is not None
                and value in seats[name].hand
                and name not in cards
                and name in line
            ):
                board.place(name, value)
                cards[name] = value
                continue
            shark = board.shark
            if name is None and shark is not None and raw.casefold() == shark.key:
                if shark_seen:
                    play = rnd.plays[k]
                    self.flag("duplicate-play", f"the Shark {play.name} plays twice", self.at(play))
                    continue
                shark_seen = True
                shark_card = self.shark_play(board, rnd, k, r)
                continue
            # where it is written, to say what is wrong with it
            self.odd_play(board, rnd.plays[k], name, cards, extra)
        missing: list[str] = []
        if len(cards) != len(line):
            for name in line:
                if name not in cards:
                    cards[name] = None
                    missing.append(name)
                    self.flag(
                        "missing-play",
                        f"{name} is still in the game but plays no card",
                        rnd.pos,
                        "R3",
                    )
        shark = board.shark
        if shark is not None and r >= 2 and not shark_seen and shark.hand:
            self.flag(
                "missing-play",
                f"the Shark {shark.name} plays no card; from round 2 it plays one every round",
                rnd.pos,
                "R11",
            )
        if [*cards] == line:  # played in line order, as records mostly are
            revealed = tuple(cards.items())
        else:
            revealed = tuple(zip(line, map(cards.__getitem__, line), strict=True))
        if not missing and not extra:
            return revealed, revealed, shark_card
        recorded = tuple([(n, v) for n, v in revealed if n not in missing])
        return revealed, (*recorded, *extra), shark_card

    def odd_play(
        self,
        board: Board,
        play: RecordedPlay,
        name: str | None,
        cards: dict[str, int | None],
        extra: list[tuple[str, int | None]],
    ) -> None:
        """Any play but a swimmer's card from its hand: say what is wrong, keep the card
        (a play the game cannot take goes to ``extra``, as written)."""
        pos = self.at(play)
        taken = name is not None and name in board.line and name not in cards
        if not taken and (play.card == "-" or play.card.isdigit()):
            value = None if play.card == "-" else int(play.card)
            extra.append((play.name if name is None else name, value))
        if name is None:
            self.flag("unknown-swimmer", f"{play.name} is not a swimmer in this game", pos)
        elif name not in board.line:
            self.flag(
                "not-in-game",
                f"{name} plays, but was devoured in round {self.devoured_in.get(name, '?')}",
                pos,
                "R3",
            )
        elif name in cards:
            self.flag("duplicate-play", f"{name} plays twice in one round", pos, "R3")
        else:
            value = self.swimmer_play(board, name, play)
            cards[name] = value
            if value is not None:
                board.place(name, value)  # played, even against the rules

    def swimmer_play(self, board: Board, name: str, play: RecordedPlay) -> int | None:
        s = board.seats[name]
        pos = self.at(play)
        if play.card == "-":
            if s.hand:
                held = ", ".join(str(v) for v in sorted(s.hand))
                self.flag(
                    "no-card-claimed",
                    f"{name} records no card but holds {held}",
                    pos,
                    "R15",
                )
            return None
        if not play.card.isdigit():
            self.flag(
                "wrong-card-kind",
                f"{name} is a swimmer and plays a numbered card, not {play.card!r}",
                pos,
                "R3",
            )
            return None
        value = int(play.card)
        if value not in s.hand:
            message, rule = self.why_not_in_hand(board, name, value)
            # R9: the automaton's repeat is a card turned since its last reshuffle
            repeat = name == board.setup.automaton and value in s.table
            self.flag("automaton-repeat" if repeat else "card-not-in-hand", message, pos, rule)
        return value

    def why_not_in_hand(self, board: Board, name: str, value: int) -> tuple[str, str]:
        """Why ``value`` is not in ``name``'s hand, and the ruling that says so."""
        s = board.seats[name]
        top = board.setup.hand_size
        automaton = name == board.setup.automaton
        plays = "turns" if automaton else "plays"
        if not 1 <= value <= 7:
            return f"{name} {plays} {value}, but cards run from 1 to 7", "R3"
        if value > top:
            swimmers = len(board.setup.line)
            return (f"{name} {plays} {value}, but {swimmers} swimmers hold 1 to {top} (R1)", "R3")
        if value in s.discards:
            return (f"{name} {plays} {value}, but discarded it to Exhaustion (R11)", "R3")
        since = self.played_in(name, value)
        if automaton:
            return (
                f"{name} turns {value}, but its {value} was turned in round {since} "
                f"and it has not reshuffled since"
            ), "R9"
        return f"{name} plays {value}, but that {value} is on the table since round {since}", "R3"

    def shark_play(self, board: Board, rnd: RecordedRound, k: int, r: int) -> str | None:
        """The Shark's card, the ``k``-th play of ``rnd``: one from its hand from round 2
        (R5, R11, R13); where the play is written is looked up only to flag it."""
        shark = board.shark
        assert shark is not None
        written = rnd.cards[k][1]
        card = written.casefold()
        if r >= 2 and card in shark.hand:  # the usual play
            return card
        pos = self.at(rnd.plays[k])
        if r < 2:
            self.flag(
                "shark-round-1",
                f"the Shark {shark.name} plays {written} in round 1, where it plays no card",
                pos,
                "R5",
            )
            # played, even against the rules: it lies on the table (R5 takes no limb)
            return card if card in shark.hand else None
        if card not in rules.SHARK_CARDS:
            self.flag(
                "wrong-card-kind",
                f"the Shark plays one of {', '.join(rules.SHARK_CARDS)}, not {written!r}",
                pos,
                "R11",
            )
            return None
        since = self.played_in(shark.name, card)
        self.flag(
            "card-not-in-hand",
            f"the Shark plays {card}, but it is on the table since round "
            f"{'?' if since is None else since}",
            pos,
            "R13",
        )
        return card

    def played_in(self, name: str, card: int | str) -> int | None:
        """The last round before this one in which ``name`` played ``card``."""
        logged: list[_Logged] = self.log
        for r, _, revealed, shark, shark_card, _ in reversed(logged):
            if (name, card) in revealed or (shark == name and shark_card == card):
                return r
        return None
