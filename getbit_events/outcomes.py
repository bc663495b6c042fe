"""Checking the outcomes a round states against the steps the rules require."""

from __future__ import annotations

from getbit_events import rules
from getbit_events.board import Board
from getbit_events.findings import Walk
from getbit_events.record import RecordedOutcome, RecordedRound
from getbit_events.rules import Settlement

__all__ = ["check_outcomes", "check_winner", "limb_word"]


def limb_word(limb: str) -> str:
    return limb.replace("-", " ")


def _kept(table: list[int], name: str, outcome: Settlement) -> bool:
    """Whether ``name`` keeps a card on the table after this round's Exhaustion (R11)."""
    discarded = [v for n, v in outcome.discards or () if n == name]
    return len(table) > len(discarded)

def check_outcomes(
    walk: Walk,
    rnd: RecordedRound,
    outcome: Settlement,
    kinds: frozenset[str] | None = None,
) -> None:
    """Compare every stated outcome (of ``kinds``, when given) with ``outcome``: what the
    rules make of the round on ``walk.board`` (the state right after the reveal), not yet
    folded in."""
    seen: set[str] = set()
    variant = walk.board.setup.variant
    shark_variant = variant == "shark"
    for o in rnd.outcomes:
        # one of each outcome a round, but an 'out' for each swimmer devoured
        kind = o.kind
        key = f"out {o.names[0].casefold()}" if kind == "out" else kind
        if kinds is not None and kind not in kinds:
            seen.add(key)
            continue
        if key in seen:
            walk.flag("duplicate-outcome", f"'{kind}' is stated twice", walk.at(o))
            continue
        seen.add(key)
        if kind == "line":
            _check_line(walk, o, outcome)
        elif kind == "bit":
            _check_bite(walk, o, outcome)
        elif kind == "refresh":
            _check_refresh(walk, o, outcome)
        elif kind in ("miss", "hunger", "discard") and not shark_variant:
            walk.flag(
                "shark-only",
                f"'{kind}' belongs to the shark variant; this game is "
                f"{variant}",
                walk.at(o),
            )
        elif kind == "out":
            _check_out(walk, o, outcome)
        elif kind == "miss":
            if not outcome.missed:
                walk.flag(
                    "wrong-miss", _no_miss_reason(walk.board, outcome), walk.at(o), "R11"
                )
        elif kind == "hunger":
            if o.number != outcome.hunger:
                walk.flag(
                    "wrong-hunger",
                    f"the Shark holds {outcome.hunger} hunger tokens after this round, "
                    f"not {o.number}",
                    walk.at(o),
                    "R12",
                )
        elif kind == "discard":
            _check_discard(walk, o, outcome)
        elif kind == "shark-back":
            _check_shark_back(walk, o, outcome)


def _check_bite(walk: Walk, o: RecordedOutcome, outcome: Settlement) -> None:
    name = walk.name_of(o.names[0], o)
    if name is None:
        return
    board = walk.board
    bite = outcome.bites[0] if outcome.bites else None
    if bite is not None and name == bite[0]:
        limb = bite[1]
        if o.limb is None or o.limb == limb:
            return
        card = board.shark_card
        if board.setup.variant == "shark" and card in rules.LIMBS:
            msg = (
                f"the Shark played {card}, so {name} loses the {limb_word(card)}, "
                f"not the {limb_word(o.limb)}"
            )
            walk.flag("wrong-limb", msg, walk.at(o), "R11")
        else:
            lost = _lost_in(walk, name, o.limb)
            walk.flag(
                "wrong-limb",
                f"{name} has no {limb_word(o.limb)} left (lost in round {lost})",
                walk.at(o),
                "R6",
            )
        return
    if outcome.outs.get(name) == "two-left":
        reason = (
            f"{name} was devoured by the two-swimmer end, not bitten: "
            "record it as 'out' or leave it out"
        )
        walk.flag("wrong-bite", reason, walk.at(o), "R8")
    elif name in walk.devoured_in:
        walk.flag(
            "wrong-bite",
            f"{name} was devoured in round {walk.devoured_in[name]} and cannot be "
            "bitten again",
            walk.at(o),
            "R6",
        )
    elif bite is None:
        reason, rule = _no_bite_reason(walk.board, outcome)
        walk.flag("wrong-bite", f"{name} is recorded bitten, but {reason}", walk.at(o), rule)
    else:
        rule = "R11" if board.setup.variant == "shark" else "R6"
        walk.flag(
            "wrong-bite",
            f"{name} is recorded bitten, but {bite[0]} is at the back after movement",
            walk.at(o),
            rule,
        )


def _lost_in(walk: Walk, name: str, limb: str) -> int | None:
    """The round in which ``name`` lost ``limb`` (R6, R11), from the walk's log."""
    for r, _, _, _, _, outcome in walk.log:
        if (name, limb) in outcome.bites:
            return int(r)
    return None


def _no_bite_reason(board: Board, outcome: Settlement) -> tuple[str, str]:
    if board.round == 1:
        return "nobody is bitten in round 1", "R5"
    card = board.shark_card
    if card is None:
        return "the Shark played no card", "R11"
    if card == "exhaustion" and outcome.tied:
        return "Exhaustion makes the tied swimmers discard and takes no limb", "R11"
    return f"the Shark's {card} missed", "R12"


def _no_miss_reason(board: Board, outcome: Settlement) -> str:
    card = board.shark_card
    if card is None:
        return "the Shark played no card this round, so it cannot miss"
    if card == "exhaustion":
        return "Exhaustion found a tie, so it is not a miss"
    if card == "any-limb":
        return "any-limb found a tie and hit the swimmer at the back"
    return f"{outcome.back} still had the {limb_word(card)}, so the Shark hit"


def _check_out(walk: Walk, o: RecordedOutcome, outcome: Settlement) -> None:
    name = walk.name_of(o.names[0], o)
    if name is None or outcome.outs.get(name, "recorded") != "recorded":
        return  # devoured by a ruling (R6, R8, R10, R14), not just as recorded
    if name in walk.devoured_in:
        msg = f"{name} is recorded devoured, but was already devoured in round " + str(
            walk.devoured_in[name]
        )
    else:
        limbs = len(walk.board.seats[name].limbs)
        msg = f"{name} is recorded devoured, but is still in the game with {limbs} limbs"
    walk.flag("wrong-out", msg, walk.at(o), "R6")


def _check_discard(walk: Walk, o: RecordedOutcome, outcome: Settlement) -> None:
    expected = sorted(outcome.discards) if outcome.discards else []
    stated = []
    for raw, value in o.cards:
        name = walk.name_of(raw, o)
        if name is None:
            return
        stated.append((name, int(value) if value.isdigit() else -1))
    if sorted(stated) != expected:
        want = ", ".join(f"{n} {v}" for n, v in expected) or "nothing"
        got = ", ".join(f"{n} {v}" for n, v in sorted(stated))
        walk.flag(
            "wrong-discard",
            f"this round discards {want}, not {got}",
            walk.at(o),
            "R11",
        )


def _check_refresh(walk: Walk, o: RecordedOutcome, outcome: Settlement) -> None:
    # a bitten swimmer that swam on took its cards back (R6): it may be listed or not
    # (and so may one devoured after it, as recorded); one on its last limb did not
    board = walk.board
    outs = outcome.outs
    bitten = {who for who, _ in outcome.bites if outs.get(who) != "last-limb"}
    shark = board.setup.shark
    folded_shark = shark.casefold() if shark is not None else None
    stated: set[str] = set()
    for raw in o.names:
        if folded_shark is not None and raw.casefold() == folded_shark:
            # GBN: refresh lists swimmers; the Shark's take-back (R12, R13) is not stated
            walk.flag(
                "wrong-refresh",
                f"the Shark {shark} is not a swimmer: refresh lists the swimmers that "
                "take their played cards back (R7)",
                walk.at(o),
                "R7",
            )
            continue
        name = walk.name_of(raw, o)
        if name is not None:
            stated.add(name)
    if outcome.ended:
        if stated:
            walk.flag(
                "wrong-refresh",
                "nothing is taken back in the round that ends the game",
                walk.at(o),
                "R7",
            )
        return
    expected = set(outcome.taken) - bitten
    if stated == expected:
        return
    order = board.setup.line.index
    for name in sorted(expected - stated, key=order):
        held = len(board.seats[name].hand)
        walk.flag(
            "wrong-refresh",
            f"{name} holds {held} card{'s' if held != 1 else ''} and takes its played "
            "cards back, but is not listed",
            walk.at(o),
            "R7",
        )
    for name in sorted(stated - expected - bitten, key=order):
        s = board.seats[name]
        if name in board.line and len(s.hand) < 2 and not _kept(s.table, name, outcome):
            # R7 (R11, R15): fewer than two cards, but nothing to take back: none
            # played, or only the card Exhaustion discards; it may be listed or not
            continue
        if name not in board.line:
            msg = f"{name} is out of the game and takes nothing back"
        else:
            msg = f"{name} holds {len(s.hand)} cards and takes nothing back"
        walk.flag("wrong-refresh", msg, walk.at(o), "R7")


def _check_shark_back(walk: Walk, o: RecordedOutcome, outcome: Settlement) -> None:
    """A log's word on the Shark's take-back (R12, R13): ``names`` holds the Shark
    when the log says it took its played cards back, nothing when it says not."""
    took = bool(o.names)
    if took == outcome.shark_took:
        return
    shark = walk.board.setup.shark
    rule = "R12" if outcome.missed else "R13"
    if took:
        message = f"the Shark {shark} takes no cards back this round"
    else:
        message = f"the Shark {shark} takes its played cards back this round"
    walk.flag("wrong-refresh", message, walk.at(o), rule)


def _check_line(walk: Walk, o: RecordedOutcome, outcome: Settlement) -> None:
    expected = outcome.line
    if o.names == expected:  # written as the Line tag spells the names
        return
    canon = walk.canon
    stated = tuple([canon.get(n.casefold(), n) for n in o.names])
    if stated == expected:
        return
    two_left = [n for n, why in outcome.outs.items() if why == "two-left"]
    # R8: the line may name the winner alone or both swimmers
    if two_left and stated == (*expected, *two_left):
        return
    walk.flag(
        "wrong-line",
        f"the line after this round is {', '.join(expected)}, not {', '.join(stated)}",
        walk.at(o),
        "R4",
    )


# -- the end (R17) -------------------------------------------------------------


def check_winner(walk: Walk) -> bool:
    """Check the Winner tag (R17); True when it is flagged."""
    tag = walk.winner_tag
    if tag is None:
        return False
    board = walk.board
    claimed = tag.value.strip()
    if not board.finished:
        walk.flag(
            "wrong-winner",
            f"the record names {claimed} the winner, but stops before the game is over",
            tag.pos,
            "R17",
            in_round=False,
        )
        return True
    if board.winner is not None and claimed.casefold() != board.winner.casefold():
        walk.flag(
            "wrong-winner",
            f"the record names {claimed} the winner, but the rules make it {board.winner}",
            tag.pos,
            "R17",
            in_round=False,
        )
        return True
    return False
