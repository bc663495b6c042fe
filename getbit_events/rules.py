"""What the rules say: set-up (R1, R2), legal cards (R3, R9, R15) and, given the
revealed cards, the exact events that must follow (R4-R14).

Rulings are those of the rulings of docs/rules.md; each is cited where it is applied.
"""

from __future__ import annotations

from collections.abc import Mapping

import attrs

from getbit_events.board import Board
from getbit_events.events import (
    CardChosen,
    CardsRevealed,
    Event,
    SharkCardPlayed,
    SourcePos,
    SwimmerMoved,
)
from getbit_events.setups import LIMBS, SHARK_CARDS, VARIANTS, hand_size
from getbit_events.state import GameState
from getbit_events.steps import (
    EVENT_OF,
    Bitten,
    Devoured,
    Discarded,
    Ended,
    Fact,
    HungerLeft,
    Moved,
    SharkTookBack,
    StatedHunger,
    StatedLine,
    StatedMiss,
    Step,
    TookBack,
    fact_event,
    make_events,
)

__all__ = [
    "LIMBS",
    "SHARK_CARDS",
    "VARIANTS",
    "RoundOutcome",
    "Settlement",
    "SetupProblem",
    "Stated",
    "hand_size",
    "legal_cards",
    "legal_shark_cards",
    "make_events",
    "resolve_round",
    "round_events",
    "round_facts",
    "settle",
    "setup_problems",
]

@attrs.frozen
class SetupProblem:
    """A set-up that R2 does not allow; ``tag`` names the tag to point at."""

    tag: str
    message: str
    rule: str = "R2"


def setup_problems(
    variant: str,
    line: tuple[str, ...],
    automaton: str | None,
    teams: tuple[tuple[str, tuple[str, ...]], ...],
    shark: str | None,
) -> list[SetupProblem]:
    """Every way this set-up breaks R2 (empty when it is playable)."""
    problems: list[SetupProblem] = []
    n = len(line)
    if variant not in VARIANTS:
        return [SetupProblem("Variant", f"unknown variant {variant!r}")]
    if variant in ("standard", "shark") and not 4 <= n <= 6:
        problems.append(
            SetupProblem("Line", f"{variant} is played by 4 to 6 swimmers, not {n}")
        )
    if variant in ("three-player", "two-player") and n != 4:
        what = "3 players and 1 automated swimmer" if variant == "three-player" else (
            "2 players with 2 swimmers each"
        )
        problems.append(SetupProblem("Line", f"{variant} is {what}: 4 swimmers, not {n}"))
    if variant == "three-player":
        if automaton is None:
            problems.append(SetupProblem("Automaton", "three-player needs an Automaton tag"))
        elif automaton not in line:
            problems.append(
                SetupProblem("Automaton", f"the automaton {automaton!r} is not in the Line")
            )
    elif automaton is not None:
        problems.append(SetupProblem("Automaton", f"{variant} has no automated swimmer"))
    if variant == "two-player":
        problems.extend(_team_problems(line, teams))
    elif teams:
        problems.append(SetupProblem("Teams", f"{variant} has no teams"))
    if variant == "shark":
        if shark is None:
            problems.append(SetupProblem("Shark", "the shark variant needs a Shark tag"))
        elif shark.casefold() in {n.casefold() for n in line}:
            problems.append(
                SetupProblem("Shark", f"the Shark {shark!r} cannot also be a swimmer")
            )
    elif shark is not None:
        problems.append(SetupProblem("Shark", f"{variant} has no Shark player"))
    return problems


def _team_problems(
    line: tuple[str, ...], teams: tuple[tuple[str, tuple[str, ...]], ...]
) -> list[SetupProblem]:
    if len(teams) != 2:
        return [SetupProblem("Teams", f"two-player needs 2 players in Teams, not {len(teams)}")]
    problems = []
    players = [p.casefold() for p, _ in teams]
    if players[0] == players[1]:
        problems.append(SetupProblem("Teams", f"player {teams[0][0]!r} is named twice"))
    owned: list[str] = []
    for player, swimmers in teams:
        if len(swimmers) != 2:
            problems.append(
                SetupProblem("Teams", f"{player} must have 2 swimmers, not {len(swimmers)}")
            )
        owned.extend(swimmers)
    if sorted(owned) != sorted(line):
        problems.append(
            SetupProblem("Teams", "Teams must give each swimmer of the Line to exactly one player")
        )
    return problems


def legal_cards(state: GameState, name: str) -> frozenset[int]:
    """R3/R9/R15: the values ``name`` may play now (empty: it must play no card)."""
    return state.swimmer(name).hand


def legal_shark_cards(state: GameState) -> frozenset[str]:
    """R5/R11: the Shark cards the Shark may play in the round about to start."""
    if state.shark is None or state.round + 1 < 2:
        return frozenset()
    return state.shark.hand


@attrs.frozen
class RoundOutcome:
    """The events the rules require after a reveal, and what a reader needs of them."""

    events: tuple[Event, ...]
    tied: tuple[str, ...]
    back: str | None  # the swimmer at the back after movement
    defaulted_limb: str | None  # an any-limb bite whose limb the record did not choose


class Settlement:
    """What follows a reveal (R4-R14): the steps in event order, and a summary of them.

    A step is an event not yet made (``steps.Step``); ``make_events`` makes them.
    The card moves, every round's most common facts, are kept apart as names.
    The summary fields say the same facts again, ready for the validator's checks.
    (A plain class, not attrs: one is made per round checked, and this is cheaper.)
    """

    __slots__ = (
        "back",
        "bites",
        "defaulted_limb",
        "discards",
        "ended",
        "hunger",
        "line",
        "missed",
        "moved",
        "outs",
        "shark_took",
        "steps",
        "taken",
        "tied",
    )

    def __init__(
        self, moved: tuple[str, ...], tied: tuple[str, ...], back: str | None, hunger: int
    ) -> None:
        self.moved = moved  # R4: who moved to the front by its card, lowest card first
        self.steps: list[Step] = []  # what followed the moves
        self.tied = tied
        self.back = back  # the swimmer at the back after movement
        self.defaulted_limb: str | None = None  # an any-limb bite whose limb was not chosen
        self.line: tuple[str, ...] = ()  # the line after the round, front first
        self.hunger = hunger  # the Shark's tokens after the round (0 without a Shark)
        self.bites: list[tuple[str, str]] = []  # (who, limb), in order
        self.outs: dict[str, str] = {}  # who was devoured, and why
        self.taken: list[str] = []  # who took cards back (a bitten swimmer too)
        self.missed = False  # R12
        self.discards: tuple[tuple[str, int], ...] | None = None  # R11 Exhaustion
        self.shark_took = False  # R12, R13
        self.ended = False

    def __repr__(self) -> str:
        # named here: a compiled class (mypyc) has no __slots__ to read them from
        names = ("moved", "steps", "tied", "back", "defaulted_limb", "line", "hunger", "bites",
                 "outs", "taken", "missed", "discards", "shark_took", "ended")
        fields = ", ".join(f"{k}={getattr(self, k)!r}" for k in names)
        return f"Settlement({fields})"

    def all_steps(self) -> list[Step]:
        """Every step of the round in order, the card moves first."""
        return [tuple.__new__(Moved, (n, "card")) for n in self.moved] + self.steps

    def events(self, r: int, pos: SourcePos | None) -> list[Event]:
        """The round's events in order (``all_steps`` made events), written at ``pos``."""
        facts: list[Fact] = []
        self.facts(r, pos, facts)
        return [fact_event(f) for f in facts]

    def facts(self, r: int, pos: SourcePos | None, facts: list[Fact]) -> None:
        """The round's events in order as facts (``steps.Fact``: each its step), added to
        ``facts``."""
        for n in self.moved:
            facts.append((r, SwimmerMoved, tuple.__new__(Moved, (n, "card")), pos))
        for step in self.steps:
            facts.append((r, EVENT_OF[type(step)], step, pos))


class Stated:
    """What a record states happened in a round, where the rules say otherwise: the
    game goes on from it (the game as played), so one mistake at the table is reported
    once, at its round, and the rounds after it are checked against the game played.
    Only what a record states is here; what it leaves out the rules work out.
    """

    __slots__ = ("bite", "discards", "hunger", "line", "miss", "outs", "refresh")

    def __init__(self) -> None:
        self.bite: tuple[str, str | None] | None = None  # who was bitten, and the limb
        self.outs: tuple[str, ...] = ()  # who was devoured (besides whom the rules devour)
        self.miss = False  # R12: the Shark missed
        self.hunger: int | None = None  # the Shark's tokens after the round
        self.discards: tuple[tuple[str, int], ...] | None = None  # R11 Exhaustion
        self.refresh: frozenset[str] | None = None  # who took its cards back under R7
        self.line: tuple[str, ...] | None = None  # the line after the round


def round_events(
    r: int,
    pos: SourcePos | None,
    revealed: tuple[tuple[str, int | None], ...],
    shark: str | None,
    shark_card: str | None,
    number: int | None = None,
) -> list[Event]:
    """The events of a round's plays: who chose (line order, the Shark last), the reveal.

    ``number`` is the number the record gives the round, where it is not ``r``.
    """
    facts: list[Fact] = []
    round_facts(r, pos, revealed, shark, shark_card, number, facts)
    return [fact_event(f) for f in facts]


def round_facts(
    r: int,
    pos: SourcePos | None,
    revealed: tuple[tuple[str, int | None], ...],
    shark: str | None,
    shark_card: str | None,
    number: int | None,
    facts: list[Fact],
) -> None:
    """``round_events`` as facts (``steps.Fact``: a play by its chooser's name), added
    to ``facts``."""
    for n, v in revealed:
        if v is not None:
            facts.append((r, CardChosen, n, pos))
    if shark is not None and shark_card is not None:
        facts.append((r, CardChosen, shark, pos))
        facts.append((r, CardsRevealed, CardsRevealed(r, revealed, pos, number), pos))
        facts.append((r, SharkCardPlayed, SharkCardPlayed(r, shark, shark_card, pos), pos))
    else:
        facts.append((r, CardsRevealed, CardsRevealed(r, revealed, pos, number), pos))


def resolve_round(
    state: GameState,
    limb_choice: Mapping[str, str] | None = None,
    pos: SourcePos | None = None,
) -> RoundOutcome:
    """The events that must follow the cards revealed in ``state`` (R4-R14).

    ``state`` is the state right after the reveal (and the Shark's card).
    ``limb_choice`` maps a swimmer to the limb it chose, where the rules let it
    choose (the bite of R6, any-limb of R11); an unusable choice is ignored.
    """
    s = settle(Board.of(state), limb_choice)
    return RoundOutcome(
        tuple(s.events(state.round, pos)), s.tied, s.back, s.defaulted_limb
    )


def settle(
    board: Board, limb_choice: Mapping[str, str] | None = None, stated: Stated | None = None
) -> Settlement:
    """What the rules make of the cards revealed on ``board`` (R4-R14).

    ``board`` is read, not changed: the caller folds the outcome in when it is
    done with the state before it (``Board.settle_in``). ``limb_choice`` as for
    :func:`resolve_round`. ``stated``: what the record states happened where the
    rules say otherwise; the outcome follows it, and the rules work out the rest.
    """
    setup = board.setup
    r = board.round
    seats = board.seats
    cards = board.revealed
    # R4: equal values tie and stay; unique values move to the front, lowest first.
    first: dict[int, str] = {}
    ties: set[int] | None = None
    for name, v in cards:
        if v is not None:
            if v not in first:
                first[v] = name
            elif ties is None:
                ties = {v}
            else:
                ties.add(v)
    tied: tuple[str, ...] = ()
    if ties is not None:
        tied = tuple([n for n, v in cards if v in ties])
        for v in ties:
            del first[v]
    moved = tuple([first[v] for v in sorted(first)])
    line = list(reversed(moved))
    line.extend([n for n in board.line if n not in moved] if moved else board.line)
    back = line[-1] if line else None
    shark = board.shark
    s = Settlement(moved, tied, back, shark.hunger if shark is not None else 0)
    steps = s.steps

    said_bite = stated.bite if stated is not None else None
    bitten_as_stated = gone = False
    if said_bite is not None:  # a bite stated on one devoured before: kept, changing nothing
        bitten_as_stated = said_bite[0] in line
        gone = not bitten_as_stated and said_bite[0] in seats
        if gone:
            steps.append(Bitten(said_bite[0], _stated_limb(LIMBS, said_bite[1], None)))
    if setup.variant == "shark":
        card = board.shark_card
        if stated is not None and (bitten_as_stated or stated.miss or gone):
            _stated_shark(board, s, card, line, stated)
        elif r >= 2 and card is not None and back is not None:  # R5, R11
            _shark_card(board, s, card, line, limb_choice)
        if stated is not None:
            _stated_hunger(board, s, stated)
            if stated.discards is not None:
                _stated_discards(s, stated.discards)
    else:
        gone_cards: dict[str, int] = {}
        if stated is not None and stated.discards:
            # R11: no Exhaustion without a Shark, but the cards the record says were
            # discarded were: the game goes on without them (a bite gives them not back)
            s.discards = stated.discards
            steps.append(Discarded(stated.discards))
            gone_cards = dict(stated.discards)
        if said_bite is not None and bitten_as_stated:
            who, limb = said_bite
            limb = _stated_limb(seats[who].limbs, limb, None)
            _bite(board, s, who, limb, line, gone_cards.get(who))
        elif r >= 2 and back is not None and not gone:  # R5: no bite in round 1; R6 from 2
            limb = _limb(seats[back].limbs, back, limb_choice)
            _bite(board, s, back, limb, line, gone_cards.get(back))
    if stated is not None and setup.variant != "shark":
        # R11, R12: no Shark to miss or to hold hunger tokens; what the record says is kept
        if stated.miss:
            steps.append(StatedMiss())
        if stated.hunger is not None:
            steps.append(StatedHunger(stated.hunger))

    if stated is not None and stated.outs:
        two_left = setup.variant in ("standard", "three-player")
        outs = stated.outs
        for k, who in enumerate(outs):  # devoured, as the record says, without a ruling
            last = two_left and len(line) == 2 and who == line[-1]
            if last and not any(n in line and n not in s.outs for n in outs[k + 1 :]):
                continue  # R8 devours it below: the record may say so
            if who in line and who not in s.outs:
                line.remove(who)
                steps.append(Devoured(who, "recorded"))
                s.outs[who] = "recorded"
            elif who in board.devoured or who not in seats:
                # devoured before, or a name not in the game: kept, the fold leaves it aside
                steps.append(Devoured(who, "recorded"))
    # only a short line, a swimmer devoured or a hunger token lost can end the game
    ended = _end(board, line, s) if len(line) <= 2 or s.outs or s.missed else None
    if ended is not None:
        if stated is not None:  # R7: nothing is taken back in the round that ends the game,
            steps[:] = [step for step in steps if not isinstance(step, SharkTookBack)]
            s.shark_took = False
            for name in sorted(stated.refresh or (), key=setup.line.index):
                if name in board.line:  # ... but what the record says was, was
                    steps.append(TookBack(name, _returnable(board, name)))
                    s.taken.append(name)
                elif name in seats:  # one devoured before: kept, with nothing to take
                    steps.append(TookBack(name, ()))
        steps.extend(ended)
        s.line = tuple(_stated_line(steps, line, stated))
        s.ended = True
        return s

    discarded = dict(s.discards) if s.discards else None
    bitten = s.bites[0][0] if s.bites else None  # took its cards back with the bite (R6)
    refresh = stated.refresh if stated is not None else None
    for name in line:  # R7: fewer than two cards in hand: take the played ones back
        takes = len(seats[name].hand) < 2 if refresh is None else name in refresh
        if takes and name != bitten:
            back_cards = _returnable(board, name, discarded.get(name) if discarded else None)
            if back_cards or refresh is not None:  # as stated, even with nothing to take
                steps.append(tuple.__new__(TookBack, (name, back_cards)))
                s.taken.append(name)
    if refresh is not None:  # listed: the bitten (apart from its bite's, R6), the devoured
        for name in sorted(refresh, key=setup.line.index):
            if name in seats and (name == bitten or name not in line):
                steps.append(TookBack(name, ()))
    if shark is not None and not s.shark_took and len(shark.hand) < 2 and shark.table:
        steps.append(tuple.__new__(SharkTookBack, (tuple(shark.table),)))  # R13
        s.shark_took = True
    s.line = tuple(_stated_line(steps, line, stated))
    return s


def _stated_line(steps: list[Step], line: list[str], stated: Stated | None) -> list[str]:
    """The line after the round as the record states it, where it names the swimmers
    of the line in another order: they swim to the front into it (moves of why
    ``line``). Otherwise the line the rules' steps leave (one of other swimmers is
    kept as stated, ``LineStated``, and changes nothing)."""
    said = stated.line if stated is not None else None
    if not said or said == tuple(line):
        return line
    if sorted(said) != sorted(line):
        steps.append(StatedLine(said))
        return line
    steps.extend([Moved(n, "line") for n in reversed(said)])
    return list(said)


def _stated_shark(
    board: Board, s: Settlement, card: str | None, line: list[str], stated: Stated
) -> None:
    """The Shark's card as the record says it went: a bite on the swimmer it names, or
    a miss (R11, R12), whatever the rules make of the card; Exhaustion's discards,
    which the record does not contradict by stating a bite or a miss, as the rules
    say (the record may state them otherwise: ``_stated_discards``)."""
    if card == "exhaustion" and s.tied:
        tied = s.tied
        s.discards = tuple((n, v) for n, v in board.revealed if v is not None and n in tied)
        s.steps.append(Discarded(s.discards))
    if stated.bite is not None and stated.bite[0] in line:
        who, limb = stated.bite
        _bite(board, s, who, _stated_limb(board.seats[who].limbs, limb, card), line)
    if stated.miss:  # a record may state a bite and a miss both: both happened
        _missed(board, s)


def _stated_hunger(board: Board, s: Settlement, stated: Stated) -> None:
    """The Shark's hunger after a miss as the record states it (R12)."""
    left = stated.hunger
    if left is None or left == s.hunger:
        return
    if not s.missed:  # R12: only a miss changes the hunger; what the record says is kept
        s.steps.append(StatedHunger(left))
        return
    s.hunger = left
    steps = s.steps
    for k, step in enumerate(steps):
        if isinstance(step, HungerLeft):
            steps[k] = HungerLeft(left)
    shark = board.shark
    took = any(isinstance(step, SharkTookBack) for step in steps)
    if left > 0 and not took and shark is not None:
        steps.append(SharkTookBack(tuple(shark.table)))
        s.shark_took = True
    elif left <= 0 and took:
        steps[:] = [step for step in steps if not isinstance(step, SharkTookBack)]
        s.shark_took = False


def _stated_discards(s: Settlement, discards: tuple[tuple[str, int], ...]) -> None:
    """Exhaustion's discards as the record states them (R11), where the rules' were."""
    steps = s.steps
    at = next((k for k, step in enumerate(steps) if isinstance(step, Discarded)), len(steps))
    del steps[at : at + 1]
    s.discards = discards or None
    if discards:
        steps.insert(at, Discarded(discards))


def _stated_limb(limbs: tuple[str, ...], limb: str | None, card: str | None) -> str:
    """The limb a stated bite takes: the one named, even one lost (the fold then takes the
    first left, R6); else the Shark's limb card, if it has it (R11); else the first left."""
    if limb in LIMBS:
        return str(limb)
    return card if card is not None and card in limbs else limbs[0]


def _limb(limbs: tuple[str, ...], who: str, choice: Mapping[str, str] | None) -> str:
    """The limb ``who`` loses: its choice where it has that limb, else the first left."""
    chosen = choice.get(who) if choice else None
    return chosen if chosen is not None and chosen in limbs else limbs[0]


def _bite(
    board: Board, s: Settlement, who: str, limb: str, line: list[str], discarded: int | None = None
) -> None:
    """``who`` loses ``limb`` (R6, R11); ``discarded``: its card discarded this round."""
    s.steps.append(tuple.__new__(Bitten, (who, limb)))
    s.bites.append((who, limb))
    line.remove(who)
    if len(board.seats[who].limbs) == 1:  # R6: the last limb: devoured, off the line
        s.steps.append(tuple.__new__(Devoured, (who, "last-limb")))
        s.outs[who] = "last-limb"
        return
    # R6: to the front, with all its played cards back, this round's included
    line.insert(0, who)
    s.steps.append(tuple.__new__(Moved, (who, "bite")))
    back_cards = _returnable(board, who, discarded)
    if back_cards:
        s.steps.append(tuple.__new__(TookBack, (who, back_cards)))
        s.taken.append(who)


def _shark_card(
    board: Board, s: Settlement, card: str, line: list[str], choice: Mapping[str, str] | None
) -> None:
    """What the Shark's card does to the swimmer at the back (R11, R12)."""
    back = line[-1]
    limbs = board.seats[back].limbs
    missed = False
    if card in LIMBS:
        if card in limbs:
            _bite(board, s, back, card, line)
        else:
            missed = True
    elif card == "any-limb":
        if s.tied:
            if not choice or choice.get(back) is None:  # R11: the swimmer's choice, unstated
                s.defaulted_limb = limbs[0]
            _bite(board, s, back, _limb(limbs, back, choice), line)
        else:
            missed = True
    elif card == "exhaustion":
        if s.tied:
            tied = s.tied
            s.discards = tuple((n, v) for n, v in board.revealed if v is not None and n in tied)
            s.steps.append(tuple.__new__(Discarded, (s.discards,)))
        else:
            missed = True
    if missed:
        _missed(board, s)


def _missed(board: Board, s: Settlement) -> None:
    """R12: a hunger token lost, the Shark's cards back; the swimmer untouched."""
    s.missed = True
    s.hunger -= 1
    s.steps.append(tuple.__new__(HungerLeft, (s.hunger,)))
    shark = board.shark
    if s.hunger > 0 and shark is not None:
        s.steps.append(tuple.__new__(SharkTookBack, (tuple(shark.table),)))
        s.shark_took = True


def _returnable(board: Board, name: str, discarded: int | None = None) -> tuple[int, ...]:
    """The played cards ``name`` gets back: its own, never an Exhaustion discard (R7)."""
    s = board.seats[name]
    table = s.table
    if discarded is not None and discarded in table:
        table = table.copy()
        del table[len(table) - 1 - table[::-1].index(discarded)]
    if s.clean:  # every card on it came from the hand: all of them come back
        return tuple(table)
    hand, gone = s.hand, s.discards
    top = board.setup.hand_size
    seen: set[int] = set()
    cards = []
    for v in table:
        if 1 <= v <= top and v not in gone and v not in seen and v not in hand:
            seen.add(v)
            cards.append(v)
    return tuple(cards)


def _end(board: Board, line: list[str], s: Settlement) -> list[Step] | None:
    """The steps that end the game this round (R8, R10, R14), or None."""
    setup = board.setup
    outs = s.outs
    variant = setup.variant
    if variant == "two-player":
        if not outs:
            return None
        # R10: the owner of the devoured swimmer loses, the other player wins
        first = next(iter(outs))
        loser = next(p for p, team in setup.teams if first in team)
        winner = next(p for p, _ in setup.teams if p != loser)
        return [Ended(winner, (winner, loser), "R10")]
    if variant == "shark":
        shark = setup.shark or ""
        devoured = [*board.devoured, *outs]
        if s.hunger <= 0 and line:
            # R14: swimmers win; most limbs, ties to the one nearest the front
            seats = board.seats
            bitten = {who for who, _ in s.bites}

            def limbs(n: str) -> int:
                return len(seats[n].limbs) - (n in bitten)

            living = sorted(line, key=lambda n: (-limbs(n), line.index(n)))
            ranking = (*living, *reversed(devoured), shark)
            return [Ended(living[0], ranking, "R14-hunger")]
        if len(line) <= 1:
            ranking = (shark, *line, *reversed(devoured))
            return [Ended(shark, ranking, "R14-last-swimmer")]
        return None
    if len(line) > 2 or not line:
        return None
    if len(line) == 1:  # devoured as recorded down to one: it wins (R8)
        ranking = (line[0], *reversed([*board.devoured, *outs]))
        return [Ended(line[0], ranking, "R8")]
    # R8: two swimmers left: the front one wins, the back one is devoured
    front, last = line[0], line[-1]
    ranking = (front, last, *reversed([*board.devoured, *outs]))
    outs[last] = "two-left"
    line.remove(last)
    return [Devoured(last, "two-left"), Ended(front, ranking, "R8")]
