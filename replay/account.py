"""Plain words for each event of a game, as a given viewer may read them."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from getbit_events.events import (
    CardChosen,
    CardsDiscarded,
    CardsRevealed,
    CardsTakenBack,
    Event,
    GameEnded,
    GameStarted,
    HungerLost,
    HungerStated,
    LineStated,
    MissStated,
    OutcomeStated,
    PlayStated,
    SharkCardPlayed,
    SharkCardsTakenBack,
    SwimmerBitten,
    SwimmerDevoured,
    SwimmerMoved,
)
from getbit_events.outcomes import limb_word
from getbit_events.state import GameState
from replay.view import EVERYTHING, Viewer

__all__ = ["describe", "limb_word", "names", "result_words", "setup_words", "ties"]

_ENDS = {
    "R8": "only two swimmers were left (R8)",
    "R10": "a swimmer of the other player was devoured (R10)",
    "R14-hunger": "the Shark lost its last hunger token (R14)",
    "R14-last-swimmer": "only one swimmer was left (R14)",
}


def names(items: Iterable[object]) -> str:
    """``a``, ``a and b``, ``a, b and c``."""
    words = [str(x) for x in items]
    if len(words) <= 1:
        return "".join(words)
    return f"{', '.join(words[:-1])} and {words[-1]}"


def ties(cards: Iterable[tuple[str, int | None]]) -> list[tuple[int, list[str]]]:
    """R4: each value played by two or more swimmers, with who played it, lowest first."""
    played = [(n, v) for n, v in cards if v is not None]
    counts = Counter(v for _, v in played)
    return [
        (value, [n for n, v in played if v == value])
        for value in sorted(counts)
        if counts[value] > 1
    ]


def result_words(state: GameState) -> str:
    """How the game ended, or that the record stops before the end."""
    if not state.finished:
        return f"unfinished after round {state.round}"
    shark = state.setup.shark
    who = f"the Shark {state.winner}" if state.winner == shark else f"{state.winner}"
    why = _ENDS.get(state.end_reason or "", state.end_reason or "")
    return f"{who} wins: {why}"


def setup_words(setup: GameStarted) -> str:
    """One sentence for the set-up."""
    n = len(setup.line)
    what = {
        "standard": f"A standard game of {n} swimmers",
        "three-player": "A three-player game (three players and an automated swimmer)",
        "two-player": "A two-player game (two players with two swimmers each)",
        "shark": f"A game against the Shark: {n} swimmers",
    }.get(setup.variant, f"A {setup.variant} game of {n} swimmers")
    parts = [f"{what}, memory variant" if setup.memory else what]
    parts.append(f"line {', '.join(setup.line)} (front first)")
    parts.append(f"hands hold 1 to {setup.hand_size}")
    if setup.automaton:
        parts.append(f"{setup.automaton} is the automated swimmer")
    for player, swimmers in setup.teams:
        parts.append(f"{player} plays {names(swimmers)}")
    if setup.shark:
        parts.append(f"{setup.shark} plays the Shark with {setup.hunger} hunger tokens")
    return "; ".join(parts) + "."


def _takeback(e: CardsTakenBack, before: GameState, viewer: Viewer) -> str:
    s = before.swimmer(e.who)
    hidden = min(s.face_down, len(e.cards)) if viewer.hides_face_down else 0
    if e.who in viewer.sees or viewer.kind == "everything":
        hidden = 0  # they come back into a hand this viewer sees
    n = len(e.cards)
    if n == 0:  # a take-back the record lists, with nothing to take (R7)
        return f"{e.who} takes back its played cards, as the record says: none are left."
    if hidden == 0:
        return f"{e.who} takes back the played card{'s' if n != 1 else ''} {names(e.cards)}."
    shown = [str(v) for v in e.cards[hidden:]]
    what = f"{hidden} face-down card{'s' if hidden != 1 else ''}"
    if shown:
        what += f" and {names(shown)}"
    return f"{e.who} takes back {what} (R16: the values were face down)."


def _outcome_stated(e: OutcomeStated) -> str:
    """An outcome a record states that the rules leave aside, in its own words."""
    said = " ".join([e.kind, ", ".join(e.names)]) if e.names else e.kind
    if e.kind == "discard":
        said = "discard " + ", ".join([f"{n} {v}" for n, v in e.cards])
    elif e.kind == "hunger":
        said = f"hunger {e.number}"
    if e.why == "twice":
        why = f"a second '{e.kind}' in this round"
    else:
        why = "a name not in the game" if e.kind != "discard" else "what the game cannot take"
    return f"The record also says '{said}': {why}. Kept as recorded, it changes nothing."


def describe(
    event: Event,
    before: GameState | None,
    after: GameState,
    viewer: Viewer = EVERYTHING,
) -> str:
    """One plain sentence (or two) for ``event``, from the state before and after it."""
    if isinstance(event, GameStarted):
        return setup_words(event)
    assert before is not None
    shark = after.setup.shark
    if isinstance(event, CardChosen):
        if event.who == after.setup.automaton:  # R9: its card comes from its stack
            return (
                f"Round {event.round}: {event.who}, the automated swimmer, takes the top card "
                "of its stack face down."
            )
        who = f"The Shark {event.who}" if event.who == shark else event.who
        return f"Round {event.round}: {who} chooses a card face down."
    if isinstance(event, CardsRevealed):
        shown = ", ".join(f"{n} {'-' if v is None else v}" for n, v in event.cards)
        text = f"Round {event.round}: cards revealed: {shown}."
        for tied_value, tied in ties(event.cards):
            text += f" {names(tied)} tie on {tied_value} and stay (R4)."
        empty = [n for n, v in event.cards if v is None]
        if empty:
            text += f" {names(empty)} {'has' if len(empty) == 1 else 'have'} no card (R15)."
        return text
    if isinstance(event, SharkCardPlayed):
        return f"The Shark {event.shark} plays {event.card}."
    if isinstance(event, SwimmerMoved):
        if event.why == "bite":
            return f"{event.who} swims to the front after the bite (R6)."
        if event.why == "line":
            return f"{event.who} takes its place in the line the record states."
        card = dict(before.revealed).get(event.who)
        return f"{event.who} ({card}) swims to the front."
    if isinstance(event, SwimmerBitten) and event.who in before.devoured:
        return (
            f"The record says {event.who} is bitten ({limb_word(event.limb)}), but "
            f"{event.who} is out of the game: kept as recorded, it changes nothing."
        )
    if isinstance(event, SwimmerDevoured) and event.who in before.devoured:
        return (
            f"The record says {event.who} is devoured, but {event.who} is out of the game "
            "already: kept as recorded, it changes nothing."
        )
    if isinstance(event, HungerStated) and before.shark is None:
        return (
            f"The record says the Shark holds {event.left} hunger tokens, but this game "
            "has no Shark (R12: the shark variant's). Kept as recorded, it changes nothing."
        )
    if isinstance(event, MissStated):
        return (
            "The record says the Shark missed, but this game has no Shark (R11: the "
            "shark variant's). Kept as recorded, it changes nothing."
        )
    if isinstance(event, PlayStated):
        sharks = before.shark is not None and event.who == before.shark.name
        kind = "the Shark plays a Shark card" if sharks else "a swimmer plays a number"
        return (
            f"The record says {event.who} plays {event.card}, but {kind} (R3, R11). "
            "Kept as recorded, it changes nothing."
        )
    if isinstance(event, HungerStated):
        held = before.shark.hunger if before.shark is not None else 0
        return (
            f"The record says the Shark holds {event.left} hunger tokens; it holds {held} "
            "(R12: only a miss costs one). Kept as recorded, it changes nothing."
        )
    if isinstance(event, LineStated):
        return (
            f"The record states the line {', '.join(event.line)}; it is "
            f"{', '.join(before.line)}. Kept as recorded, it changes nothing."
        )
    if isinstance(event, SwimmerBitten):
        left = len(after.swimmer(event.who).limbs)
        by = f"The Shark's {before.shark_card} bites" if shark else "The shark bites"
        back = before.line[-1] if before.line else None
        where = "at the back" if event.who == back else "as the record says"
        return (
            f"{by} {event.who}, {where}: the {limb_word(event.limb)} is lost "
            f"({left} limb{'s' if left != 1 else ''} left)."
        )
    if isinstance(event, SwimmerDevoured):
        if event.why == "two-left":
            return f"Only two swimmers are left: {event.who}, at the back, is devoured (R8)."
        if event.why == "recorded":
            return f"{event.who} is devoured, as the record says."
        return f"{event.who} has lost its last limb and is devoured (R6)."
    if isinstance(event, CardsTakenBack):
        text = _takeback(event, before, viewer)
        if event.who == after.setup.automaton:
            text += " It shuffles them into its stack (R9)."
        return text
    if isinstance(event, SharkCardsTakenBack):
        return f"The Shark takes back its played cards {names(event.cards)}."
    if isinstance(event, HungerLost):
        return (
            f"The Shark's {before.shark_card} misses: it loses a hunger token "
            f"({event.left} left, R12)."
        )
    if isinstance(event, CardsDiscarded):
        cards = names(f"{n} {v}" for n, v in event.cards)
        if before.shark is None:  # a discard a record states without a Shark, followed
            return (
                f"The record says {cards} {'is' if len(event.cards) == 1 else 'are'} "
                "discarded for the rest of the game, but only the Shark's Exhaustion "
                "discards (R11): followed as recorded."
            )
        return f"Exhaustion: the tied swimmers discard {cards} for the rest of the game (R11)."
    if isinstance(event, OutcomeStated):
        return _outcome_stated(event)
    if isinstance(event, GameEnded):
        why = _ENDS.get(event.why, event.why)
        ranking = ", ".join(f"{i}. {n}" for i, n in enumerate(event.ranking, 1))
        who = f"The Shark {event.winner}" if event.winner == shark else event.winner
        return f"Game over: {who} wins; {why}. Ranking: {ranking}."
    return f"{event.TYPE}"  # pragma: no cover - every event type is handled above
