"""The validator of "Come on! Bite me!": walks a recorded game on a ``Table``,
compares every recorded fact with what the rules expect, and reports every
violation with its line, column, turn, ruling and code.

Records are kept as recorded: a turn's action and steps become events whatever
the rules say, and the game goes on from what the record states, so the turns
after a mistake are checked against the game the table played. A battle or a
score that needs a strength nobody stated is an ``unchecked`` warning naming it
(B3); everything else is still checked.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import attrs

from biteme import rules
from biteme.events import (
    Attacked,
    BiteEvent,
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
from biteme.findings import CODES, LEFT_OUT, WARNING_CODES, TurnViolation, Walk
from biteme.fold import Table, fold
from biteme.record import BiteRecord, BiteStep, BiteTurn
from biteme.scoring import BiteFinal, final
from biteme.state import BiteState
from biteme.tags import Claimed as ClaimedResult
from biteme.tags import read_setup
from getbit_events.events import SourcePos
from getbit_events.limits import MAX_VIOLATIONS
from getbit_events.record import Violation
from getbit_events.verdict import Verdict

__all__ = ["CODES", "WARNING_CODES", "BiteFinal", "BiteReport", "validate_bite", "winner_of"]

def winner_of(winners: Sequence[str] | None) -> str | None:
    """The one text of a game's winner (``BiteReport.winner``, the store's ``winner``
    column): players sharing the win joined by `` and `` (B16); None for none."""
    return " and ".join(winners) if winners else None


#: the code of a step that is wrong, by its kind
_WRONG = {
    "claims": "wrong-trophy",
    "picks": "wrong-pick",
    "draws": "wrong-draw",
    "takes": "wrong-take",
    "looks": "wrong-look",
}
_RULE = {"claims": "B5", "picks": "B13", "draws": "B9", "takes": "B12", "looks": "B11"}


@attrs.frozen(slots=False, eq=False)
class BiteReport(Verdict):
    """What validating one recorded game found, in the shape of Get Bit!'s
    ``GameReport`` (``valid``, ``violations``, ``warnings``, ``winner``,
    ``ranking``, ``to_json``); its events as recorded, and its state on demand."""

    record: BiteRecord
    violations: tuple[Violation, ...]
    warnings: tuple[Violation, ...]
    final: BiteFinal | None = None  # None when no set-up could be read
    events: tuple[BiteEvent, ...] = ()

    @property
    def state(self) -> BiteState | None:
        """The state after the last recorded turn (the fold of ``events``), kept."""
        return self.kept("state", self._folded)

    def _folded(self) -> BiteState | None:
        return fold(self.events) if self.events else None

    @property
    def winners(self) -> tuple[str, ...] | None:
        return self.final.winners if self.final is not None else None

    @property
    def winner(self) -> str | None:
        """The winner; players sharing the win joined by `` and `` (B16)."""
        return winner_of(self.winners)

    def to_json(self) -> dict[str, Any]:
        """The stable JSON shape of ``getbit validate --json``, as for Get Bit!, with
        the turn number as ``round``; ``final`` holds the scores."""
        final: dict[str, Any] | None = None
        if self.final is not None:
            final = {
                "scores": self.final.scores,
                "trophies": self.final.trophies,
                "discards": self.final.discards,
            }
        return {
            "source": self.source,
            "game": self.game,
            "line": self.record.pos.line,
            "kind": "bite-me",
            "variant": None,
            **self.verdict_json(len(self.record.turns)),
            "winners": list(self.winners) if self.winners else None,
            "ranking": list(self.ranking) if self.ranking is not None else None,
            "final": final,
        }


def validate_bite(record: BiteRecord, strengths: Mapping[str, int] | None = None) -> BiteReport:
    """Check one recorded game against the rules (B1-B17). ``strengths`` (from a
    file, ``importers.bmn.read_strengths``) fill in what the record leaves unstated."""
    if record.syntax_errors:
        return BiteReport(record, _capped(list(record.syntax_errors), 0), ())
    walk = Walk(record)
    read = read_setup(walk, strengths)
    if read is None:
        return BiteReport(record, _found(walk), tuple(walk.warnings))
    setup, claimed = read
    walk.table = table = Table(setup)
    events: list[BiteEvent] = [setup]
    _count_deck(walk, claimed.deal or record.pos, setup.deal)
    ended_at: int | None = None
    for k, turn in enumerate(record.turns, 1):
        walk.turn = k
        if table.finished:
            walk.flag(
                "after-end",
                f"turn {turn.number} is recorded after the game ended in turn {ended_at}",
                turn.pos,
                "B15",
            )
            events.extend(_turn_events(walk, turn, k))
            continue
        events.extend(_play_turn(walk, turn, k))
        if table.finished:
            ended_at = k
            events.append(table.ending(k, turn.pos))
            table.fold(events[-1])
    walk.turn = None
    result = final(walk, claimed)
    events.extend(_stated_result(walk, claimed, events[-1].turn))
    return BiteReport(record, _found(walk), tuple(walk.warnings), result, tuple(events))


def _stated_result(walk: Walk, claimed: ClaimedResult, turn: int) -> list[BiteEvent]:
    """B16: the Winner and Scores tags as written, kept where the rules give another
    result (a game whose tags agree keeps no such event, so its events do not change)."""
    tags = [t for t in (claimed.winner, claimed.scores) if t is not None]
    if not any(v.pos == t.pos for v in walk.violations for t in tags):
        return []
    winner, scores = claimed.winner, claimed.scores
    return [
        ResultStated(
            turn, winner.value if winner else None, scores.value if scores else None,
            tags[0].pos,
        )
    ]


# -- a turn ---------------------------------------------------------------------


def _play_turn(walk: Walk, turn: BiteTurn, k: int) -> list[BiteEvent]:
    """Check one turn and fold what it states; its events."""
    table = walk.table
    if turn.number != k:
        walk.flag("turn-number", f"this is turn {k}, but it is numbered {turn.number}", turn.pos)
    order = table.order
    due = order[(k - 1) % len(order)]
    who = _player(walk, turn.who, turn.pos)
    if who is not None and who != due:  # B4
        walk.flag("wrong-player", f"it is {due}'s turn, not {who}'s", turn.pos, "B4")
    action = _action(walk, turn, k, who or due)
    if who is None:  # the fold cannot apply a turn of a player not at the table
        action = None
    if action is None:  # names or cards the game does not have: kept as recorded
        events: list[BiteEvent] = [_stated_turn(turn, k)]
    else:
        events = [action]
        table.fold(action)
    stated = _steps(walk, turn, k)
    target = next((e.owner for _, e in stated if isinstance(e, Took)), None)
    expected: list[list[rules.Expect]] = []
    if action is not None:
        expected = _expected(walk, action, target, turn.pos)
    kept: list[BiteStep] = []
    for n, (step, event) in enumerate(stated):
        if table.finished:  # B15: whatever the turn had left to do is not done
            walk.flag(
                "after-end",
                "the last card of the deck was drawn before this: the game is over",
                step.pos,
                "B15",
            )
            events.extend(e for _, e in stated[n:])
            break
        events.append(event)
        if isinstance(event, StepStated):  # flagged already; the fold leaves it aside
            continue
        _check_step(walk, step, event, kept)
        kept.append(step)
        table.fold(event)
    if expected:
        _compare(walk, turn, expected, kept)
    return events


def _stated_turn(turn: BiteTurn, k: int) -> TurnStated:
    """A turn's action as recorded, for one naming a player or card the game does not have."""
    return TurnStated(
        k, turn.who, turn.action, turn.card, turn.defender, turn.defender_card, turn.joined,
        turn.pos, _written(turn, k),
    )


def _player(walk: Walk, raw: str, pos: SourcePos) -> str | None:
    """The player ``raw`` names (ignoring case), or None after flagging it."""
    name = walk.canon.get(raw.casefold())
    if name is None:
        walk.flag("unknown-player", f"{raw} is not at the table", pos)
    return name


def _card(walk: Walk, raw: str, pos: SourcePos) -> str | None:
    """The card ``raw`` names (ignoring case), or None after flagging it."""
    card = rules.card_name(raw)
    if card is None:
        walk.flag("unknown-card", f"{raw} is no card of the game", pos)
    return card


def _holds(walk: Walk, who: str, card: str, pos: SourcePos) -> None:
    """B2: a card revealed must be the one its player holds."""
    held = walk.table.holding(who)[0]
    if held is not None and held != card:
        walk.flag("wrong-card", f"{who} holds {held}, not {card}", pos, "B2")


_WHY_NOT_JOIN = {rules.HUNTER: "B6", rules.BACTERIA: "B7", rules.MOSQUITO: "B13"}


def _action(walk: Walk, turn: BiteTurn, k: int, actor: str) -> BiteEvent | None:
    """The turn's action as an event, its legality checked (B4-B14); None when it
    names a player or card the game does not have."""
    pos = turn.pos
    number = _written(turn, k)
    if turn.action == "pass":  # B14
        return Passed(k, actor, pos, number)
    card = _card(walk, turn.card, pos)
    if turn.action == "retreat":
        if card is None:
            return None
        _holds(walk, actor, card, pos)
        if not rules.may_retreat(card):
            walk.flag("hunter-retreat", f"{actor} retreats the Hunter", pos, "B6, B9")
        return Retreated(k, actor, card, pos, number)
    defender = _player(walk, turn.defender, pos)
    defender_card = _card(walk, turn.defender_card, pos)
    joined = [(_player(walk, n, pos), _card(walk, c, pos)) for n, c in turn.joined]
    if card is None or defender is None or defender_card is None:
        return None
    kept = tuple((n, c) for n, c in joined if n is not None and c is not None)
    if len(kept) != len(joined):
        return None
    names = [actor, *(n for n, _ in kept), defender]
    if len(set(names)) != len(names):
        twice = next(n for n in names if names.count(n) > 1)
        rule = "B8" if kept else "B5"
        walk.flag("bad-target", f"{twice} is named twice in one battle", pos, rule)
    for name, held in ((actor, card), *kept, (defender, defender_card)):
        _holds(walk, name, held, pos)
    if not kept and not rules.may_attack(card):
        walk.flag("bacteria-attacks", f"{actor} attacks holding Bacteria", pos, "B5, B7")
    if len(kept) > 2:
        walk.flag(
            "too-many-joined", f"{len(kept)} players join {actor}: at most 2 may", pos, "B8"
        )
    if kept:
        for name, held in ((actor, card), *kept):
            if not rules.may_join(held):
                role = "initiates" if name == actor else "joins"
                walk.flag(
                    "may-not-join",
                    f"{name} {role} a Join Forces holding {held}",
                    pos,
                    f"{_WHY_NOT_JOIN[held]}, B8",
                )
    return Attacked(k, actor, card, defender, defender_card, kept, pos, number)


def _written(turn: BiteTurn, k: int) -> int | None:
    """The number the record gives turn ``k``, kept where it is not ``k`` (a
    ``turn-number`` violation that a log of the events reports again)."""
    return turn.number if turn.number != k else None


def _steps(walk: Walk, turn: BiteTurn, k: int) -> list[tuple[BiteStep, BiteEvent]]:
    """The turn's stated steps with their events; a step naming a player or card the
    game does not have is flagged and kept as recorded (``StepStated``)."""
    made: list[tuple[BiteStep, BiteEvent]] = []
    for step in turn.steps:
        who = _player(walk, step.who, step.pos)
        other = _player(walk, step.other, step.pos) if step.other else ""
        card = _card(walk, step.card, step.pos) if step.card else ""
        if who is None or other is None or card is None:
            made.append((step, StepStated(k, step.kind, step.who, step.other, step.card, step.pos)))
            continue
        named = attrs.evolve(step, who=who, other=other, card=card)
        made.append((named, _event(step, k, who, other, card)))
    return made


def _event(step: BiteStep, k: int, who: str, other: str, card: str) -> BiteEvent:
    """The event a step states."""
    if step.kind == "claims":
        return Claimed(k, who, other, card, step.pos)
    if step.kind == "picks":
        return Picked(k, who, other, card, step.pos)
    if step.kind == "takes":
        return Took(k, who, other, card, step.pos)
    if step.kind == "looks":
        return Looked(k, who, step.pos)
    return Drew(k, who, card, step.pos)


def _check_step(walk: Walk, step: BiteStep, event: BiteEvent, kept: Sequence[BiteStep]) -> None:
    """What a step states that the table can tell wrong before it is folded in:
    a random trophy the winner does not hold (B13), a Monkey taking a card the
    player does not hold (B12), a card the deck no longer holds (B1)."""
    table = walk.table
    if isinstance(event, Picked):
        owner = table.seats[event.owner]
        if event.card not in owner.trophies:
            walk.flag(
                "wrong-pick",
                f"{event.owner} holds no {event.card} among its trophies "
                f"({', '.join(owner.trophies) or 'none'})",
                step.pos,
                "B13",
            )
    elif isinstance(event, Took):
        held = table.holding(event.owner)[0]
        if event.owner == event.who:
            walk.flag("wrong-take", f"{event.who} takes its own card", step.pos, "B12")
        elif held is not None and held != event.card:
            walk.flag(
                "wrong-take", f"{event.owner} holds {held}, not {event.card}", step.pos, "B12"
            )
    elif isinstance(event, Drew) and table.deck.get(event.card, 0) <= 0:
        walk.flag(
            "deck-count",
            f"{event.who} draws a {event.card}, but the deck for {len(table.order)} players "
            f"holds no more of them ({rules.deck(len(table.order))[event.card]} in all)",
            step.pos,
            "B1",
        )


def _count_deck(walk: Walk, pos: SourcePos, deal: Sequence[str]) -> None:
    """B1: the deal holds no more of a kind than the deck does."""
    for card, left in walk.table.deck.items():
        if left < 0:
            walk.flag(
                "deck-count",
                f"{deal.count(card)} {card} dealt, but the deck for {len(deal)} players holds "
                f"{left + deal.count(card)}",
                pos,
                "B1",
            )


def _expected(
    walk: Walk, action: BiteEvent, target: str | None, pos: SourcePos
) -> list[list[rules.Expect]]:
    """What the rules may expect after ``action``, each cut at the draw that empties
    the deck (B15): one list, or, for a battle whose strengths are not all stated,
    one for each result it may have, with an ``unchecked`` warning naming them (B3)."""
    table = walk.table
    if isinstance(action, Attacked):
        what, card, defender, defender_card, joined = (
            "attack", action.card, action.defender, action.defender_card, action.joined
        )
    elif isinstance(action, Retreated):
        what, card, defender, defender_card, joined = ("retreat", action.card, None, None, ())
    else:
        return [[]]

    def steps(assume: rules.Battle | None = None) -> list[rules.Expect] | frozenset[str]:
        return rules.expected_steps(
            what, action.who, card, defender, defender_card, joined, table.order,
            table.holding, table.strengths, target, assume,
        )

    found = steps()
    if isinstance(found, frozenset):
        walk.warn(
            f"the battle's result is not checked: nobody stated the strength of "
            f"{', '.join(sorted(found, key=rules.CARDS.index))}",
            pos,
        )
        attackers = (action.who, *(n for n, _ in joined))
        tries = [steps(rules.Battle(True, attackers)), steps(rules.Battle(False, ()))]
        return [_cut(t, table.left) for t in tries if not isinstance(t, frozenset)]
    return [_cut(found, table.left)]


def _cut(found: list[rules.Expect], left: int) -> list[rules.Expect]:
    """B15: the steps up to the draw that takes the last of ``left`` cards."""
    draws = 0
    for n, expect in enumerate(found):
        if expect.kind == "draws":
            draws += 1
            if draws >= left:
                return found[: n + 1]
    return found


def _fits(expect: rules.Expect, step: BiteStep) -> bool:
    return (
        expect.kind == step.kind
        and step.who in expect.who
        and (step.other in expect.other if expect.other is not None else not step.other)
        and (expect.card is None or step.card == expect.card)
    )


#: where stated steps first differ from expected ones: (steps that matched, code,
#: message, position, ruling)
_Mismatch = tuple[int, str, str, SourcePos, str]


def _mismatch(
    turn: BiteTurn, expected: Sequence[rules.Expect], stated: Sequence[BiteStep]
) -> _Mismatch | None:
    """The first place the stated steps differ from the expected ones, if any."""
    at = 0
    for n, expect in enumerate(expected):
        step = stated[at] if at < len(stated) else None
        if step is not None and _fits(expect, step):
            at += 1
            continue
        if expect.optional:
            continue
        if step is not None and step.kind not in {e.kind for e in expected[n:]}:
            break  # a step of a kind the rules give none of here
        said = f"the record says {_said(step)}" if step else "the turn states no more"
        pos = step.pos if step is not None else turn.pos
        return at, _WRONG[expect.kind], f"{_expect(expect)} here, but {said}", pos, expect.rule
    if at < len(stated):
        step = stated[at]
        message = f"{_said(step)}, but the rules give no such step here"
        return at, _WRONG[step.kind], message, step.pos, _RULE[step.kind]
    return None


def _compare(
    walk: Walk,
    turn: BiteTurn,
    expected: Sequence[Sequence[rules.Expect]],
    stated: Sequence[BiteStep],
) -> None:
    """The steps a turn states against those the rules expect (any of ``expected``):
    where they first differ is reported (the game goes on from what the record
    states). Of several, the one the record follows furthest is reported."""
    found = [_mismatch(turn, e, stated) for e in expected]
    if any(m is None for m in found):
        return
    _, code, message, pos, rule = max((m for m in found if m is not None), key=lambda m: m[0])
    walk.flag(code, message, pos, rule)


def _expect(e: rules.Expect) -> str:
    """What an expected step says, in words."""
    who = " or ".join(e.who)
    if e.kind == "claims":
        other = e.other[0] if e.other else "?"
        return f"{who} must claim {other}'s {e.card}"
    if e.kind == "picks":
        return f"{who} must pick one of {' or '.join(e.other or ())}'s trophies at random"
    if e.kind == "takes":
        return f"{who} must take another player's card"
    if e.kind == "looks":
        return f"{who} may look"
    return f"{who} must draw"


def _said(step: BiteStep) -> str:
    """What a stated step says, in words."""
    if step.kind == "claims":
        return f"{step.who} claims {step.other}'s {step.card}"
    if step.kind == "picks":
        return f"{step.who} picks {step.other}'s {step.card}"
    if step.kind == "takes":
        return f"{step.who} takes {step.other}'s {step.card}"
    if step.kind == "looks":
        return f"{step.who} looks"
    return f"{step.who} draws {step.card}"


def _turn_events(walk: Walk, turn: BiteTurn, k: int) -> list[BiteEvent]:
    """The events of a turn recorded after the end (B15): kept, as recorded."""
    def name(raw: str) -> str:
        return walk.canon.get(raw.casefold(), raw)

    def card(raw: str) -> str:
        return rules.card_name(raw) or raw

    events: list[BiteEvent]
    who = name(turn.who)
    number = _written(turn, k)
    if turn.action == "pass":
        events = [Passed(k, who, turn.pos, number)]
    elif turn.action == "retreat":
        events = [Retreated(k, who, card(turn.card), turn.pos, number)]
    else:
        joined = tuple((name(n), card(c)) for n, c in turn.joined)
        events = [
            Attacked(k, who, card(turn.card), name(turn.defender), card(turn.defender_card),
                     joined, turn.pos, number)
        ]
    events += [
        _event(s, k, name(s.who), name(s.other) if s.other else "", card(s.card) if s.card else "")
        for s in turn.steps
    ]
    return events


def _found(walk: Walk) -> tuple[Violation, ...]:
    return _capped(walk.violations, walk.left_out)


def _capped(found: list[Violation], left_out: int) -> tuple[Violation, ...]:
    """In file order, at most ``MAX_VIOLATIONS``, then one saying how many more."""
    kept = sorted(found, key=lambda v: (v.pos.line, v.pos.column))
    more = left_out + max(0, len(kept) - MAX_VIOLATIONS)
    kept = kept[:MAX_VIOLATIONS]
    if more:
        kept.append(
            TurnViolation(
                LEFT_OUT,
                f"{more} more violations were found in this game and left out: at most "
                f"{MAX_VIOLATIONS} are reported",
                kept[-1].pos,
            )
        )
    return tuple(kept)
