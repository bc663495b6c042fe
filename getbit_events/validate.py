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

One walk, one state: ``findings.Walk`` holds the record, the board, what was
found and what was played where; the parts are plain functions over it:
``tags.read_setup`` (the set-up), ``plays.read_plays`` (a round's cards),
``outcomes.check_outcomes`` (what a round states) and the round loop here.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import attrs

from getbit_events import rules
from getbit_events.board import Board
from getbit_events.events import Event, GameStarted, OutcomeStated, PlayStated
from getbit_events.findings import CODES, WARNING_CODES, Logged, Walk, capped
from getbit_events.outcomes import check_outcomes, check_winner, limb_word
from getbit_events.plays import read_plays
from getbit_events.record import RecordedGame, RecordedOutcome, RecordedRound, Violation
from getbit_events.reducer import fold
from getbit_events.state import GameState
from getbit_events.steps import Fact, fact_event
from getbit_events.tags import read_setup
from getbit_events.verdict import Verdict

__all__ = [
    "CODES",
    "WARNING_CODES",
    "Final",
    "GameReport",
    "validate_game",
]

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
class GameReport(Verdict):
    """What validating one recorded game found; its events and state made when
    first asked for, and kept (``Verdict.kept``)."""

    record: RecordedGame
    violations: tuple[Violation, ...]
    warnings: tuple[Violation, ...]
    final: Final | None = None  # None when no set-up could be read
    _setup: GameStarted | None = None
    _log: Sequence[Logged] = ()
    _words: Mapping[int, Sequence[tuple[str, str]]] = attrs.field(factory=dict)
    _unread: Mapping[int, Sequence[tuple[str, RecordedOutcome]]] = attrs.field(factory=dict)

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

    @property
    def events(self) -> tuple[Event, ...]:
        """The complete event stream: the set-up, each round's plays as recorded, then
        its outcome."""
        return self.kept("events", self._made_events)

    def _made_events(self) -> tuple[Event, ...]:
        return tuple([fact_event(f) for f in self.facts()])

    def facts(self) -> list[Fact]:
        """The complete event stream as facts (``steps.Fact``), in order: each event's
        class and what it is made of (a play by its chooser's name, an outcome by its
        step of the rules), for a reader that needs no event objects (the store)."""
        if self._setup is None:
            return []
        setup = self._setup
        facts: list[Fact] = [(setup.round, GameStarted, setup, None)]
        for r, rnd, revealed, shark, shark_card, outcome in self._log:
            pos = rnd.pos
            number = rnd.number if rnd.number != r else None  # as the record numbers it
            rules.round_facts(r, pos, revealed, shark, shark_card, number, facts)
            words = self._words.get(r)
            if words:  # plays of a card of the wrong kind, as written (R3, R11)
                for who, card in words:
                    facts.append((r, PlayStated, PlayStated(r, who, card, pos), pos))
            outcome.facts(r, pos, facts)
            unread = self._unread.get(r)
            if unread:  # outcomes as written that the rules' outcome leaves aside, kept
                for why, o in unread:
                    stated = OutcomeStated(r, o.kind, why, o.names, o.limb, o.number, o.cards, pos)
                    facts.append((r, OutcomeStated, stated, pos))
        return facts

    @property
    def state(self) -> GameState | None:
        """The state after the last recorded round (the reducer's fold of ``events``)."""
        return self.kept("state", self._folded)

    def _folded(self) -> GameState | None:
        return fold(self.events) if self.events else None

    @property
    def winner(self) -> str | None:
        return self.final.winner if self.final is not None else None

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
            **self.verdict_json(len(self.record.rounds)),
            "ranking": list(self.ranking) if self.ranking is not None else None,
            "final": final,
        }


def validate_game(game: RecordedGame) -> GameReport:
    """Check one recorded game against the rules (its events are made when asked for)."""
    if game.syntax_errors:
        return GameReport(game, capped(game.syntax_errors), ())
    walk = Walk(game)
    setup = read_setup(walk)
    if setup is None:
        return GameReport(game, walk.found(), tuple(walk.warnings))
    walk.board = board = Board(setup)
    r = 0
    for rnd in game.rounds:
        walk.round = rnd.index
        r += 1
        if board.finished:  # R17: nothing is played after the end
            walk.flag(
                "round-after-end",
                f"round {rnd.number} is recorded after the game ended in round "
                f"{board.round}",
                rnd.pos,
                "R17",
            )
            _keep_after_end(walk, rnd, r)
            continue
        _play_round(walk, rnd)
    if check_winner(walk) and walk.winner_tag is not None:
        # the Winner the record claims is a fact of the record: kept with the tags
        setup = attrs.evolve(setup, tags=(*setup.tags, ("Winner", walk.winner_tag.value)))
    return GameReport(
        game,
        walk.found(),
        tuple(walk.warnings),
        Final.of(board),
        setup,
        walk.log,
        walk.words,
        walk.unread,
    )


# -- a round -------------------------------------------------------------------


def _play_round(walk: Walk, rnd: RecordedRound) -> None:
    """Check one round's plays and outcomes, and fold what the record states in."""
    board = walk.board
    r = board.round + 1
    if rnd.number != r:
        walk.flag(
            "round-number",
            f"this is round {r}, but it is numbered {rnd.number}",
            rnd.pos,
        )
    revealed, recorded, shark_card = read_plays(walk, rnd, r)
    board.revealed_all(r, revealed, shark_card)
    outcome = _settle_stated(walk, rnd)
    if outcome.defaulted_limb is not None and outcome.back is not None:
        walk.warnings.append(
            Violation(
                "any-limb-default",
                f"the any-limb bite on {outcome.back} states no limb; "
                f"taking the {limb_word(outcome.defaulted_limb)}",
                rnd.pos,
                walk.round,
                "R11",
            )
        )
    for who in outcome.outs:
        walk.devoured_in[who] = r
    board.settle_in(outcome)
    shark = board.setup.shark if shark_card is not None else None
    walk.log.append((r, rnd, recorded, shark, shark_card, outcome))


def _keep_after_end(walk: Walk, rnd: RecordedRound, r: int) -> None:
    """A round recorded after the end (R17, flagged): its plays kept as written,
    nothing checked or settled (the fold leaves them aside). A card of the wrong kind
    is kept as in a round before the end (``PlayStated``): the Shark's number, and a
    swimmer's Shark card (the swimmer revealed with no card in its place)."""
    lookup = walk.lookup
    board = walk.board
    shark = board.shark
    cards: list[tuple[str, int | None]] = []
    shark_card: str | None = None
    words: list[tuple[str, str]] = []
    sharks_words: list[tuple[str, str]] = []  # after the swimmers', as the writers put them
    for raw, card in rnd.cards:
        sharks = shark is not None and raw.casefold() == shark.key
        if sharks and card in rules.SHARK_CARDS:
            shark_card = card
            continue
        name = lookup.get(raw) or lookup.get(raw.casefold()) or raw
        if sharks and card != "-":  # R11: the Shark plays no number
            sharks_words.append((name, card))
        elif card == "-":
            cards.append((name, None))
        elif card.isdigit():
            cards.append((name, int(card)))
        else:  # R3: a swimmer plays a number
            cards.append((name, None))
            words.append((name, card))
    if words or sharks_words:
        walk.words[r] = words + sharks_words
    hunger = shark.hunger if shark is not None else 0
    nothing = rules.Settlement((), (), None, hunger)
    who = board.setup.shark if shark_card is not None else None
    walk.log.append((r, rnd, tuple(cards), who, shark_card, nothing))


def _settle_stated(walk: Walk, rnd: RecordedRound) -> rules.Settlement:
    """What the rules make of the round's cards, each outcome the record states
    checked against it (the limb a stated bite chooses is the one taken, R6, R11)."""
    board = walk.board
    text = rnd.text
    choice: dict[str, str] | None = None
    if text is not None:
        bite = text.bite()
        if bite is not None:
            name = walk.canon.get(bite[0].casefold())
            if name is not None:
                choice = {name: bite[1]}
        outcome = rules.settle(board, choice)
        if text.states(outcome.steps, outcome.line):
            return outcome  # the record states just what the rules say: nothing to check
    stated = _bite_stated(walk, rnd.outcomes)
    if text is None or stated != choice:
        outcome = rules.settle(board, stated)
    unread = _unread(walk, rnd)
    if unread:
        walk.unread[rnd.index] = unread
    return _check_stages(walk, rnd, outcome, stated)


def _unread(walk: Walk, rnd: RecordedRound) -> list[tuple[str, RecordedOutcome]]:
    """The outcomes ``rnd`` states that the game leaves to the rules, each with why
    (``OutcomeStated``): ``twice``, a second of its kind (as ``check_outcomes`` counts
    them); ``unread``, the first ``bit``, ``refresh`` or ``discard`` naming a name not
    in the game, or a card not a number (``_stated`` leaves it to the rules)."""
    canon = walk.canon
    seen: set[str] = set()
    unread: list[tuple[str, RecordedOutcome]] = []
    for o in rnd.outcomes:
        kind = o.kind
        key = f"out {o.names[0].casefold()}" if kind == "out" else kind
        if key in seen:
            # an 'out' of one devoured before, or of a name not in the game, is kept
            # each time it is stated (rules.settle): only one of the line needs this
            if kind != "out" or canon.get(o.names[0].casefold()) in walk.board.line:
                unread.append(("twice", o))
            continue
        seen.add(key)
        if kind == "bit":
            unknown = o.names[0].casefold() not in canon
        elif kind == "refresh":
            unknown = any(n.casefold() not in canon for n in o.names)
        elif kind == "discard":
            unknown = any(n.casefold() not in canon or not v.isdigit() for n, v in o.cards)
        else:
            continue
        if unknown:
            unread.append(("unread", o))
    return unread


def _bite_stated(walk: Walk, outcomes: Sequence[RecordedOutcome]) -> dict[str, str] | None:
    """The limb the first bite stated chooses (R6, R11), as ``rules.settle`` takes it."""
    for o in outcomes:
        if o.kind == "bit":  # the first bite stated is the one checked
            name = walk.canon.get(o.names[0].casefold())
            if o.limb and name is not None:
                return {name: o.limb}
            break
    return None


def _check_stages(
    walk: Walk,
    rnd: RecordedRound,
    outcome: rules.Settlement,
    stated: dict[str, str] | None,
) -> rules.Settlement:
    """Check the round's stated outcomes stage by stage (``_STAGES``); the round's outcome
    as the game goes on from it.

    The game as played: it goes on from what the record states happened, each
    wrong outcome reported once, the rules working out the rest. What the card
    did (a bite, a miss, discards) is checked against the rules; what follows
    from it against the game as stated so far: who was devoured against the bite,
    the hunger left against the miss, then take-backs and the line against all of
    it (a hunger stated at 0 ends the game, R14: nothing is taken back after).
    """
    board = walk.board
    outcomes = rnd.outcomes
    said: rules.Stated | None = None
    for stage, kinds in enumerate(_STAGES):
        found = len(walk.violations) + walk.left_out
        checked = outcome
        if stage == 1 and any(o.kind == "out" for o in outcomes):
            # who was devoured, against the bite and the other swimmers devoured as
            # stated: one the rules do not devour is devoured "recorded" (R8 may
            # follow from it: the two-swimmer end)
            said = said or _stated(walk, rnd)
            if any(who not in outcome.outs for who in said.outs):
                checked = rules.settle(board, stated, _so_far(said, stage))
        check_outcomes(walk, rnd, checked, kinds)
        if len(walk.violations) + walk.left_out != found:
            said = said or _stated(walk, rnd)
            outcome = rules.settle(board, stated, _so_far(said, stage))
    return outcome


def _stated(walk: Walk, rnd: RecordedRound) -> rules.Stated:
    """The outcomes ``rnd`` states, in the game's own names (the first of each kind;
    one naming no swimmer of the game is left to the rules)."""
    said = rules.Stated()
    canon = walk.canon
    for o in rnd.outcomes:
        kind = o.kind
        if kind == "bit" and said.bite is None:
            name = canon.get(o.names[0].casefold())
            if name is not None:
                said.bite = (name, o.limb)
        elif kind == "out":  # a name not in the game is kept as written
            said.outs = (*said.outs, canon.get(o.names[0].casefold(), o.names[0]))
        elif kind == "miss":
            said.miss = True
        elif kind == "hunger" and said.hunger is None:
            said.hunger = o.number
        elif kind == "discard" and said.discards is None:
            cards = [(canon.get(n.casefold()), v) for n, v in o.cards]
            if all(n is not None and v.isdigit() for n, v in cards):
                said.discards = tuple([(str(n), int(v)) for n, v in cards])
        elif kind == "line" and said.line is None:
            # a name not in the game is kept as written: a line of other swimmers
            # than the line holds, kept as a fact (line-stated) that changes nothing
            said.line = tuple([canon.get(n.casefold(), n) for n in o.names])
        elif kind == "refresh" and said.refresh is None:
            names = [canon.get(n.casefold()) for n in o.names]
            if all(n is not None for n in names):
                said.refresh = frozenset([str(n) for n in names])
    return said
