"""Writing games of "Come on! Bite me!" as BMN (docs/biteme.md), from their events.

What ``write_bmn`` writes, ``importers.bmn`` reads back to the same events
(``tests/test_biteme_bmn.py`` holds it to that on simulated games).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from biteme.events import (
    Attacked,
    BiteEnded,
    BiteEvent,
    BiteStarted,
    Claimed,
    Drew,
    Looked,
    Passed,
    Picked,
    ResultStated,
    Retreated,
    StepStated,
    Took,
    TurnStated,
)
from biteme.rules import GAME_NAME
from getbit_events.errors import InputError
from importers.gbn_lex import tags_fault

__all__ = ["action_text", "game_bmn", "write_bmn"]


def _quoted(value: str) -> str:
    return value.replace("\\", "\\\\").replace('"', '\\"')


def game_bmn(events: Sequence[BiteEvent]) -> str:
    """One game as BMN: its tags, a blank line, then one turn a line."""
    setup = events[0]
    if not isinstance(setup, BiteStarted):
        raise ValueError("a game's events begin with bm-game-started")
    fault = tags_fault(setup.tags)  # a tag kept before such tags were refused
    if fault is not None:
        raise InputError(f"cannot be written as BMN, which would not read it: {fault}")
    lines = [f'[Game "{GAME_NAME}"]']
    lines += [f'[{name} "{_quoted(value)}"]' for name, value in setup.tags]
    lines.append(f'[Seats "{", ".join(setup.seats)}"]')
    deal = ", ".join(f"{n} {c}" for n, c in zip(setup.seats, setup.deal, strict=True))
    lines.append(f'[Deal "{deal}"]')
    if setup.strengths:
        lines.append(f'[Strengths "{", ".join(f"{c}={v}" for c, v in setup.strengths)}"]')
    ended = next((e for e in events if isinstance(e, BiteEnded)), None)
    stated = next((e for e in events if isinstance(e, ResultStated)), None)
    if stated is not None:  # B16: the result the record claims, kept as written
        if stated.winner is not None:
            lines.append(f'[Winner "{_quoted(stated.winner)}"]')
        if stated.scores is not None:
            lines.append(f'[Scores "{_quoted(stated.scores)}"]')
    elif ended is not None and ended.winners:
        lines.append(f'[Winner "{", ".join(ended.winners)}"]')
        lines.append(f'[Scores "{", ".join(f"{n}={s}" for n, s in ended.scores)}"]')
    lines.append("")
    turn: list[str] = []
    number = 0
    for event in events[1:]:
        if isinstance(event, Attacked | Retreated | Passed | TurnStated):
            if turn:
                lines.append(f"{number}. " + " ; ".join(turn))
            # a turn numbered out of sequence is written as the record numbered it
            number = event.turn if event.number is None else event.number
            turn = [action_text(event)]
        elif isinstance(event, Claimed) and turn and turn[-1].startswith(f"{event.who} claims "):
            turn[-1] += f", {event.owner} {event.card}"
        elif not isinstance(event, BiteEnded | ResultStated):
            turn.append(_step(event))
    if turn:
        lines.append(f"{number}. " + " ; ".join(turn))
    return "\n".join(lines) + "\n"


def write_bmn(games: Iterable[Sequence[BiteEvent]]) -> str:
    """Games as one BMN text, a blank line between them."""
    return "\n".join(game_bmn(g) for g in games)


def action_text(e: Attacked | Retreated | Passed | TurnStated) -> str:
    """A turn's action as BMN writes it (``Ann 5 attacks Bob 3``); a turn kept as
    recorded (``bm-turn-stated``) as the record wrote it."""
    if isinstance(e, TurnStated):  # kept as recorded: written as the record wrote it
        if e.action == "pass":
            return f"{e.who} passes"
        if e.action == "retreat":
            return f"{e.who} retreats {e.card}"
        e = Attacked(e.turn, e.who, e.card, e.defender, e.defender_card, e.joined)
    if isinstance(e, Passed):
        return f"{e.who} passes"
    if isinstance(e, Retreated):
        return f"{e.who} retreats {e.card}"
    attackers = ", ".join(f"{n} {c}" for n, c in ((e.who, e.card), *e.joined))
    verb = "attack" if e.joined else "attacks"
    return f"{attackers} {verb} {e.defender} {e.defender_card}"


def _step(e: BiteEvent) -> str:
    if isinstance(e, StepStated):  # kept as recorded: written as the record wrote it
        if e.kind == "looks":
            return f"{e.who} looks"
        if e.kind == "draws":
            return f"{e.who} draws {e.card}"
        return f"{e.who} {e.kind} {e.other} {e.card}"
    if isinstance(e, Claimed):
        return f"{e.who} claims {e.owner} {e.card}"
    if isinstance(e, Picked):
        return f"{e.who} picks {e.owner} {e.card}"
    if isinstance(e, Took):
        return f"{e.who} takes {e.owner} {e.card}"
    if isinstance(e, Looked):
        return f"{e.who} looks"
    if isinstance(e, Drew):
        return f"{e.who} draws {e.card}"
    raise ValueError(f"{type(e).__name__} is no step of a turn")
