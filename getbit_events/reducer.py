"""The fold: ``apply(state, event)`` and ``replay(events)``. It trusts its input.

Whether an event was legal is for the rules and the validator to say; the
reducer only records what the event says happened, so a trusted stream from the
store replays fast and a checked record is folded by the very same code.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from typing import Any

import attrs

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
    SwimmerBitten,
    SwimmerDevoured,
    SwimmerMoved,
)
from getbit_events.state import GameState, SharkState, SwimmerState, initial_state

__all__ = ["apply", "fold", "replay"]

_evolve = attrs.evolve


def _swimmers_with(
    state: GameState, name: str, change: Callable[[SwimmerState], SwimmerState]
) -> tuple[SwimmerState, ...]:
    i = state.setup.line.index(name)
    swimmers = list(state.swimmers)
    swimmers[i] = change(swimmers[i])
    return tuple(swimmers)


def _chosen(state: GameState, e: CardChosen) -> GameState:
    if state.round != e.round:
        return _evolve(
            state, round=e.round, phase="choose", chosen=(e.who,), revealed=(), shark_card=None
        )
    return _evolve(state, phase="choose", chosen=(*state.chosen, e.who))


def _revealed(state: GameState, e: CardsRevealed) -> GameState:
    swimmers = list(state.swimmers)
    index = state.setup.line.index
    for name, value in e.cards:
        if value is None:
            continue
        i = index(name)
        s = swimmers[i]
        swimmers[i] = _evolve(s, hand=s.hand - {value}, table=(*s.table, value))
    return _evolve(
        state,
        swimmers=tuple(swimmers),
        round=e.round,
        phase="reveal",
        chosen=(),
        revealed=e.cards,
        shark_card=None,
    )


def _shark_played(state: GameState, e: SharkCardPlayed) -> GameState:
    shark = state.shark or SharkState(e.shark, frozenset())
    shark = _evolve(shark, hand=shark.hand - {e.card}, table=(*shark.table, e.card))
    return _evolve(state, shark=shark, shark_card=e.card, phase="reveal")


def _moved(state: GameState, e: SwimmerMoved) -> GameState:
    who = e.who
    line = (who, *(n for n in state.line if n != who))
    return _evolve(state, line=line, phase="move" if e.why == "card" else state.phase)


def _bitten(state: GameState, e: SwimmerBitten) -> GameState:
    limb = e.limb

    def lose(s: SwimmerState) -> SwimmerState:
        return _evolve(s, limbs=tuple(x for x in s.limbs if x != limb))

    swimmers = _swimmers_with(state, e.who, lose)
    if state.setup.memory:  # R16: the played cards are turned face down at the bite
        swimmers = tuple(_evolve(s, face_down=len(s.table)) for s in swimmers)
    return _evolve(state, swimmers=swimmers, phase="bite")


def _devoured(state: GameState, e: SwimmerDevoured) -> GameState:
    swimmers = _swimmers_with(state, e.who, lambda s: _evolve(s, limbs=(), devoured=True))
    return _evolve(
        state,
        swimmers=swimmers,
        line=tuple(n for n in state.line if n != e.who),
        devoured=(*state.devoured, e.who),
        phase="bite",
    )


def _taken_back(state: GameState, e: CardsTakenBack) -> GameState:
    cards = frozenset(e.cards)

    def take(s: SwimmerState) -> SwimmerState:
        return _evolve(s, hand=s.hand | cards, table=(), face_down=0)

    phase = "refresh" if state.phase in ("move", "bite", "refresh", "reveal") else state.phase
    return _evolve(state, swimmers=_swimmers_with(state, e.who, take), phase=phase)


def _shark_taken_back(state: GameState, e: SharkCardsTakenBack) -> GameState:
    if state.shark is None:
        return state
    shark = _evolve(state.shark, hand=state.shark.hand | frozenset(e.cards), table=())
    return _evolve(state, shark=shark)


def _hunger(state: GameState, e: HungerLost) -> GameState:
    if state.shark is None:
        return state
    return _evolve(state, shark=_evolve(state.shark, hunger=e.left), phase="bite")


def _discarded(state: GameState, e: CardsDiscarded) -> GameState:
    swimmers = list(state.swimmers)
    index = state.setup.line.index
    for name, value in e.cards:
        i = index(name)
        s = swimmers[i]
        table = list(s.table)
        if value in table:
            del table[len(table) - 1 - table[::-1].index(value)]
        swimmers[i] = _evolve(
            s,
            table=tuple(table),
            discards=(*s.discards, value),
            face_down=min(s.face_down, len(table)),
        )
    return _evolve(state, swimmers=tuple(swimmers), phase="bite")


def _ended(state: GameState, e: GameEnded) -> GameState:
    return _evolve(
        state, phase="ended", winner=e.winner, ranking=e.ranking, end_reason=e.why
    )


_HANDLERS: dict[type[Any], Callable[[GameState, Any], GameState]] = {
    CardChosen: _chosen,
    CardsRevealed: _revealed,
    SharkCardPlayed: _shark_played,
    SwimmerMoved: _moved,
    SwimmerBitten: _bitten,
    SwimmerDevoured: _devoured,
    CardsTakenBack: _taken_back,
    SharkCardsTakenBack: _shark_taken_back,
    HungerLost: _hunger,
    CardsDiscarded: _discarded,
    GameEnded: _ended,
}


def apply(state: GameState | None, event: Event) -> GameState:
    """The state after ``event``; a ``GameStarted`` starts from scratch."""
    if isinstance(event, GameStarted):
        return initial_state(event)
    if state is None:
        raise ValueError(f"a game must start with game-started, not {event.TYPE}")
    return _HANDLERS[type(event)](state, event)


def replay(events: Iterable[Event]) -> Iterator[GameState]:
    """Yield the state after every event, in order."""
    state: GameState | None = None
    for event in events:
        state = apply(state, event)
        yield state


def fold(events: Iterable[Event], state: GameState | None = None) -> GameState:
    """The state after all ``events`` (optionally continuing from ``state``)."""
    for event in events:
        state = apply(state, event)
    if state is None:
        raise ValueError("no events to fold")
    return state
