"""Event streams written as GBN (docs/gbn.md), and a round's outcomes in GBN's words.

``outcome_text`` is shared with the reader: a round line of ``write_gbn``'s
shape is checked by comparing its outcomes with the rules' own, in these words.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from getbit_events.errors import InputError
from getbit_events.events import (
    CardsRevealed,
    Event,
    GameStarted,
    OutcomeStated,
    PlayStated,
    SharkCardPlayed,
)
from getbit_events.reducer import apply
from getbit_events.state import GameState
from getbit_events.steps import (
    Bitten,
    Devoured,
    Discarded,
    HungerLeft,
    Moved,
    StatedHunger,
    StatedLine,
    StatedMiss,
    TookBack,
    step_of,
)
from importers.gbn_lex import tags_fault

__all__ = ["game_gbn", "outcome_text", "write_gbn"]


def outcome_text(
    steps: Iterable[tuple[Any, ...] | OutcomeStated | None],
    line: Sequence[str],
    hunger: int | None = None,
) -> str:
    """The outcomes after a round's moves, as GBN states them in full (docs/gbn.md).

    ``steps`` are the round's facts after the card moves, each a ``steps.Step``
    (an event not yet made), an outcome kept as written (``OutcomeStated``, as
    itself), or None for a fact that is neither (a play, a reveal: ``write_gbn``
    hands over a round's every event); ``line`` is the
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
    # issue 13: the steps (tuples) are told from the rest by isinstance(step, tuple),
    # which the compiled build checks inline, and by their own classes before
    # OutcomeStated, a class it looks up and asks each time (the validator's steps
    # are all steps: no OutcomeStated among them)
    kept = [step for step in steps if step is not None and not isinstance(step, tuple)]
    instead = {o.kind for o in kept if o.why == "unread"} if kept else set()
    said: list[str] = []
    refresh: list[str] = []
    before: tuple[Any, ...] | OutcomeStated | None = None  # the step before
    for step in steps:
        if isinstance(step, Bitten):
            if "bit" not in instead:  # else the bite as written stands in its place
                said.append(f"bit {step.who} {step.limb}")
        elif isinstance(step, TookBack):
            # any take-back but a bite's own (R6), which follows the bitten one's swim
            # and takes cards (the rules make none with nothing to take); an empty one
            # there is the bitten swimmer listed in the record's refresh, kept
            swam = isinstance(before, Moved) and before.who == step.who and before.why == "bite"
            if not swam or not step.cards:
                refresh.append(step.who)
        elif isinstance(step, Devoured):
            said.append(f"out {step.who}")
        elif isinstance(step, HungerLeft):
            said.append("miss")
            said.append(f"hunger {step.left}")
        elif isinstance(step, Discarded):
            if "discard" not in instead:
                said.append(_discard_text(step.cards))
        elif isinstance(step, StatedMiss):  # a miss in a game without a Shark, kept
            said.append("miss")
        elif isinstance(step, StatedHunger):
            said.append(f"hunger {step.left}")
        elif isinstance(step, StatedLine):  # the line as the record states it, kept
            line = step.line
        elif isinstance(step, OutcomeStated) and step.why == "unread":
            said.append(_stated_text(step))
        before = step
    if refresh and "refresh" not in instead:
        said.append("refresh " + ", ".join(refresh))
    if line:  # a line devoured to nobody (as a wrong record may say) has no names to state
        said.append("line " + ", ".join(line))
    for o in kept:
        if o.why != "twice":
            continue
        wrote = any(text.startswith(f"{o.kind} ") or text == o.kind for text in said)
        if o.kind == "hunger" and hunger is not None and not wrote:
            said.append(f"hunger {hunger}")
        said.append(_stated_text(o))
    return " ; ".join(said)


def _stated_text(stated: OutcomeStated) -> str:
    """An outcome kept as written (``OutcomeStated``), in GBN's words."""
    kind, names, limb, number, cards = (
        stated.kind, stated.names, stated.limb, stated.number, stated.cards
    )
    if kind == "discard":
        return _discard_text(cards)
    if kind == "hunger":
        return f"hunger {number}"
    if kind == "bit" and limb is not None:
        return f"bit {names[0]} {limb}"
    return " ".join([kind, ", ".join(names)]) if names else kind


def _discard_text(cards: Iterable[tuple[str, object]]) -> str:
    """R11 Exhaustion's discards in GBN's words: ``discard Ann 3, Ted 3``."""
    return "discard " + ", ".join([f"{n} {v}" for n, v in cards])


def _quote(value: str) -> str:
    return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'


def write_gbn(games: Iterable[Iterable[Event]], outcomes: bool = True) -> str:
    """Canonical GBN for complete event streams, one game after another.

    With ``outcomes`` every outcome is stated (limbs, take-backs, the line),
    so the record checks itself; without, only the cards are written.
    """
    return "\n".join(game_gbn(events, outcomes) for events in games)


def game_gbn(stream: Iterable[Event], outcomes: bool = True) -> str:
    """One game as canonical GBN (``write_gbn`` joins them with a blank line), so a long
    run of games can be written one at a time."""
    events = list(stream)
    setup = events[0]
    if not isinstance(setup, GameStarted):
        raise ValueError("a game's events start with game-started")
    fault = tags_fault(setup.tags)  # a tag kept before such tags were refused
    if fault is not None:
        raise InputError(f"cannot be written as GBN, which would not read it: {fault}")
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
        facts = [e if isinstance(e, OutcomeStated) else step_of(e) for e in events]
        hunger = state.shark.hunger if state.shark is not None else None
        said = outcome_text(facts, state.line, hunger)
        if said:
            text += " ; " + said
    return text
