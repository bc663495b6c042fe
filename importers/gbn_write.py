"""Event streams written as GBN (docs/gbn.md), and a round's outcomes in GBN's words.

``outcome_text`` is shared with the reader: a round line of ``write_gbn``'s
shape is checked by comparing its outcomes with the rules' own, in these words.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

import attrs

from getbit_events.events import (
    CardsDiscarded,
    CardsRevealed,
    CardsTakenBack,
    Event,
    GameStarted,
    HungerLost,
    HungerStated,
    LineStated,
    MissStated,
    OutcomeStated,
    PlayStated,
    SharkCardPlayed,
    SwimmerBitten,
    SwimmerDevoured,
    SwimmerMoved,
)
from getbit_events.reducer import apply
from getbit_events.state import GameState

__all__ = ["outcome_text", "write_gbn"]


def outcome_text(
    steps: Iterable[tuple[Any, ...]], line: Sequence[str], hunger: int | None = None
) -> str:
    """The outcomes after a round's moves, as GBN states them in full (docs/gbn.md).

    ``steps`` are the round's facts after the card moves, each its event class
    and then the event's fields after ``round`` (``board.Step``); ``line`` is the
    line after the round. E.g. ``bit Ted left-arm ; refresh Anne ; line Ted, Anne``:
    bites, devoured swimmers, misses and Exhaustion discards in the order they
    happened, then who took cards back without a bite (R7), then the line.
    ``write_gbn`` writes a round's outcomes so, and the validator checks a round
    read in this form by comparing it with the text of the rules' own outcome.

    An outcome kept as written (``OutcomeStated``) is written back where it was
    read first: an ``unread`` one in place of the rules' outcome of its kind, a
    ``twice`` one after the rest, the first of its kind before it (``hunger``, the
    Shark's tokens after the round, where no miss or stated hunger wrote one).
    """
    steps = list(steps)
    kept = [step[1:] for step in steps if step[0] is OutcomeStated]
    instead = {o[0] for o in kept if o[1] == "unread"}
    said: list[str] = []
    refresh: list[str] = []
    before: tuple[Any, ...] = (None,)  # the step before
    for step in steps:
        kind = step[0]
        if kind is OutcomeStated and step[2] == "unread":
            said.append(_stated_text(*step[1:]))
        elif kind is SwimmerBitten and "bit" in instead:
            pass  # the bite as written stands in its place
        elif kind is CardsDiscarded and "discard" in instead:
            pass
        elif kind is SwimmerBitten:
            said.append(f"bit {step[1]} {step[2]}")
        elif kind is CardsTakenBack:
            # any take-back but a bite's own (R6), which follows the bitten one's swim
            # and takes cards (the rules make none with nothing to take); an empty one
            # there is the bitten swimmer listed in the record's refresh, kept
            if before[0] is not SwimmerMoved or before[1:] != (step[1], "bite") or not step[2]:
                refresh.append(step[1])
        elif kind is SwimmerDevoured:
            said.append(f"out {step[1]}")
        elif kind is HungerLost:
            said.append("miss")
            said.append(f"hunger {step[1]}")
        elif kind is CardsDiscarded:
            said.append("discard " + ", ".join([f"{n} {v}" for n, v in step[1]]))
        elif kind is MissStated:  # a miss in a game without a Shark, kept
            said.append("miss")
        elif kind is HungerStated:
            said.append(f"hunger {step[1]}")
        elif kind is LineStated:  # the line as the record states it, kept
            line = step[1]
        before = step
    if refresh and "refresh" not in instead:
        said.append("refresh " + ", ".join(refresh))
    if line:  # a line devoured to nobody (as a wrong record may say) has no names to state
        said.append("line " + ", ".join(line))
    for o in kept:
        if o[1] != "twice":
            continue
        wrote = any(text.startswith(f"{o[0]} ") or text == o[0] for text in said)
        if o[0] == "hunger" and hunger is not None and not wrote:
            said.append(f"hunger {hunger}")
        said.append(_stated_text(*o))
    return " ; ".join(said)


def _stated_text(
    kind: str,
    _why: str,
    names: tuple[str, ...],
    limb: str | None,
    number: int | None,
    cards: tuple[tuple[str, str], ...],
) -> str:
    """An outcome kept as written (``OutcomeStated``), in GBN's words."""
    if kind == "discard":
        return "discard " + ", ".join([f"{n} {v}" for n, v in cards])
    if kind == "hunger":
        return f"hunger {number}"
    if kind == "bit" and limb is not None:
        return f"bit {names[0]} {limb}"
    return " ".join([kind, ", ".join(names)]) if names else kind


def _quote(value: str) -> str:
    return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'


def write_gbn(games: Iterable[Iterable[Event]], outcomes: bool = True) -> str:
    """Canonical GBN for complete event streams, one game after another.

    With ``outcomes`` every outcome is stated (limbs, take-backs, the line),
    so the record checks itself; without, only the cards are written.
    """
    return "\n".join(_write_game(list(events), outcomes) for events in games)


def _write_game(events: list[Event], outcomes: bool) -> str:
    setup = events[0]
    if not isinstance(setup, GameStarted):
        raise ValueError("a game's events start with game-started")
    out = [f"[{k} {_quote(v)}]" for k, v in setup.tags]
    out.append(f"[Line {_quote(', '.join(setup.line))}]")
    if setup.variant != "standard":
        out.append(f"[Variant {_quote(setup.variant)}]")
    if setup.memory:
        out.append('[Memory "on"]')
    if setup.automaton:
        out.append(f"[Automaton {_quote(setup.automaton)}]")
    if setup.teams:
        teams = "; ".join(f"{p}: {', '.join(t)}" for p, t in setup.teams)
        out.append(f"[Teams {_quote(teams)}]")
    if setup.shark:
        out.append(f"[Shark {_quote(setup.shark)}]")
    winner_at = len(out)
    out.append("")
    state = apply(None, setup)
    rnd: list[Event] = []
    for event in events[1:]:
        if rnd and event.round != rnd[0].round:
            out.append(_write_round(rnd, state, outcomes))
            rnd = []
        state = apply(state, event)
        rnd.append(event)
    if rnd:
        out.append(_write_round(rnd, state, outcomes))
    claimed = any(k.casefold() == "winner" for k, _ in setup.tags)  # as recorded, kept
    if state.winner is not None and not claimed:
        out.insert(winner_at, f"[Winner {_quote(state.winner)}]")
    return "\n".join(out) + "\n"


def _write_round(events: list[Event], state: GameState, outcomes: bool) -> str:
    r = events[0].round
    plays: list[str] = []
    # a play of a card of the wrong kind (R3, R11) is written as recorded: a
    # swimmer's in its place in the line (revealed with no card), the Shark's last
    words = {e.who: e.card for e in events if isinstance(e, PlayStated)}
    for e in events:
        if isinstance(e, CardsRevealed):
            if e.number is not None:  # the round's number as the record wrote it
                r = e.number
            for n, v in e.cards:
                word = words.pop(n, None) if v is None else None
                plays.append(f"{n} {'-' if v is None else v}" if word is None else f"{n} {word}")
        elif isinstance(e, SharkCardPlayed):
            plays.append(f"{e.shark} {e.card}")
    plays.extend(f"{n} {word}" for n, word in words.items())
    text = f"{r}. " + ", ".join(plays)
    if outcomes:
        # each event as a step: its class, then its fields between round and pos
        steps = [(type(e), *attrs.astuple(e, recurse=False)[1:-1]) for e in events]
        hunger = state.shark.hunger if state.shark is not None else None
        said = outcome_text(steps, state.line, hunger)
        if said:
            text += " ; " + said
    return text
