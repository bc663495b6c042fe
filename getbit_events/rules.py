"""What the rules say: set-up (R1, R2), legal cards (R3, R9, R15) and, given the
revealed cards, the exact events that must follow (R4-R14).

Rulings are those of ``RULINGS.md``; each is cited where it is applied.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

import attrs

from getbit_events.events import (
    CardsDiscarded,
    CardsTakenBack,
    Event,
    GameEnded,
    HungerLost,
    SharkCardsTakenBack,
    SourcePos,
    SwimmerBitten,
    SwimmerDevoured,
    SwimmerMoved,
)

if TYPE_CHECKING:
    from getbit_events.state import GameState

__all__ = [
    "LIMBS",
    "SHARK_CARDS",
    "VARIANTS",
    "RoundOutcome",
    "SetupProblem",
    "hand_size",
    "legal_cards",
    "legal_shark_cards",
    "resolve_round",
    "setup_problems",
]

# R6: four limbs; also the order in which an unstated bite takes them (GBN.md).
LIMBS: tuple[str, ...] = ("right-arm", "left-arm", "right-leg", "left-leg")
SHARK_CARDS: tuple[str, ...] = (
    "right-leg",
    "left-leg",
    "right-arm",
    "left-arm",
    "exhaustion",
    "any-limb",
)
VARIANTS: tuple[str, ...] = ("standard", "three-player", "two-player", "shark")


def hand_size(swimmers: int) -> int:
    """R1: 4 swimmers hold 1-5, 5 hold 1-6, 6 hold 1-7."""
    return swimmers + 1


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
    setup = state.setup
    r = state.round
    events: list[Event] = []
    line = list(state.line)
    cards = state.revealed
    # R4: equal values tie and stay; unique values move to the front, lowest first.
    by_value: dict[int, list[str]] = {}
    for name, v in cards:
        if v is not None:
            by_value.setdefault(v, []).append(name)
    tied = tuple(n for n, v in cards if v is not None and len(by_value[v]) > 1)
    for v in sorted(by_value):
        who = by_value[v]
        if len(who) == 1:
            name = who[0]
            line.remove(name)
            line.insert(0, name)
            events.append(SwimmerMoved(r, name, "card", pos))
    back = line[-1] if line else None
    limbs = {s.name: s.limbs for s in state.swimmers}
    took_back: set[str] = set()
    devoured: list[str] = list(state.devoured)
    hunger = state.shark.hunger if state.shark is not None else 0
    shark_took_back = False
    defaulted: str | None = None

    def bite(who: str, limb: str) -> None:
        events.append(SwimmerBitten(r, who, limb, pos))
        left = tuple(x for x in limbs[who] if x != limb)
        limbs[who] = left
        if not left:  # R6: the last limb: devoured, out of the game and off the line
            events.append(SwimmerDevoured(r, who, "last-limb", pos))
            line.remove(who)
            devoured.append(who)
            return
        # R6: to the front, with all its played cards back, this round's included
        line.remove(who)
        line.insert(0, who)
        events.append(SwimmerMoved(r, who, "bite", pos))
        back_cards = _returnable(state, who)
        if back_cards:
            events.append(CardsTakenBack(r, who, back_cards, pos))
        took_back.add(who)

    choices = limb_choice or {}

    def chosen_limb(who: str) -> str:
        choice = choices.get(who)
        if choice is not None and choice in limbs[who]:
            return choice
        return limbs[who][0]

    if setup.variant == "shark":
        card = state.shark_card
        if r >= 2 and card is not None and back is not None:  # R5, R11
            missed = False
            if card in LIMBS:
                if card in limbs[back]:
                    bite(back, card)
                else:
                    missed = True
            elif card == "any-limb":
                if tied:
                    if choices.get(back) is None:  # R11: the swimmer's choice, unstated
                        defaulted = limbs[back][0]
                    bite(back, chosen_limb(back))
                else:
                    missed = True
            elif card == "exhaustion":
                if tied:
                    events.append(
                        CardsDiscarded(
                            r, tuple((n, v) for n, v in cards if v is not None and n in tied), pos
                        )
                    )
                else:
                    missed = True
            if missed:  # R12: a hunger token lost, the Shark cards back; the swimmer untouched
                hunger -= 1
                events.append(HungerLost(r, hunger, pos))
                if hunger > 0 and state.shark is not None:
                    events.append(SharkCardsTakenBack(r, state.shark.table, pos))
                    shark_took_back = True
    elif r >= 2 and back is not None:  # R5: no bite in round 1; R6 from round 2
        bite(back, chosen_limb(back))

    ended = _end(state, line, limbs, devoured, hunger, r, pos)
    if ended is not None:
        events.extend(ended)  # R7: nothing is taken back in the round that ends the game
        return RoundOutcome(tuple(events), tied, back, defaulted)

    discarded = {n: v for n, v in cards if n in tied} if _exhausted(events) else {}
    for name in line:  # R7: fewer than two cards in hand: take the played ones back
        if name in took_back:
            continue
        s = state.swimmer(name)
        if len(s.hand) < 2:
            back_cards = _returnable(state, name, discarded.get(name))
            if back_cards:
                events.append(CardsTakenBack(r, name, back_cards, pos))
    shark = state.shark
    if shark is not None and not shark_took_back and len(shark.hand) < 2 and shark.table:
        events.append(SharkCardsTakenBack(r, shark.table, pos))  # R13
    return RoundOutcome(tuple(events), tied, back, defaulted)


def _exhausted(events: list[Event]) -> bool:
    return any(isinstance(e, CardsDiscarded) for e in events)


def _returnable(state: GameState, name: str, discarded: int | None = None) -> tuple[int, ...]:
    """The played cards ``name`` gets back: its own, never an Exhaustion discard (R7)."""
    s = state.swimmer(name)
    top = state.setup.hand_size
    table = list(s.table)
    if discarded is not None and discarded in table:
        del table[len(table) - 1 - table[::-1].index(discarded)]
    seen: set[int] = set()
    cards = []
    for v in table:
        if 1 <= v <= top and v not in s.discards and v not in seen and v not in s.hand:
            seen.add(v)
            cards.append(v)
    return tuple(cards)


def _end(
    state: GameState,
    line: list[str],
    limbs: dict[str, tuple[str, ...]],
    devoured: list[str],
    hunger: int,
    r: int,
    pos: SourcePos | None,
) -> list[Event] | None:
    """The events that end the game this round (R8, R10, R14), or None."""
    setup = state.setup
    if setup.variant == "two-player":
        new = devoured[len(state.devoured) :]
        if not new:
            return None
        # R10: the owner of the devoured swimmer loses, the other player wins
        loser = next(p for p, team in setup.teams if new[0] in team)
        winner = next(p for p, _ in setup.teams if p != loser)
        return [GameEnded(r, winner, (winner, loser), "R10", pos)]
    if setup.variant == "shark":
        shark = setup.shark or ""
        if hunger <= 0:
            # R14: swimmers win; most limbs, ties to the one nearest the front
            living = sorted(line, key=lambda n: (-len(limbs[n]), line.index(n)))
            ranking = (*living, *reversed(devoured), shark)
            return [GameEnded(r, living[0], ranking, "R14-hunger", pos)]
        if len(line) <= 1:
            ranking = (shark, *line, *reversed(devoured))
            return [GameEnded(r, shark, ranking, "R14-last-swimmer", pos)]
        return None
    if len(line) > 2:
        return None
    # R8: two swimmers left: the front one wins, the back one is devoured
    front, last = line[0], line[-1]
    ranking = (front, last, *reversed(devoured))
    return [
        SwimmerDevoured(r, last, "two-left", pos),
        GameEnded(r, front, ranking, "R8", pos),
    ]
