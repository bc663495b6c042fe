"""Properties of legal games of every variant (hypothesis), and injected errors.

Games come from ``tests/strategies.py``: the project's simulator with drawn
seeds, games whose every card is drawn from the rules' legal cards, and games
played on the tests' own reference model of the rulings (docs/rules.md).
"""

from __future__ import annotations

import re
from collections import defaultdict
from typing import Any

import attrs
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from strategies import SETUPS, drawn_games, model_games, model_gbn, simulated_games

from getbit_events.events import (
    CardsRevealed,
    CardsTakenBack,
    Event,
    GameStarted,
    HungerLost,
    SharkCardPlayed,
    SwimmerBitten,
    SwimmerDevoured,
    SwimmerMoved,
)
from getbit_events.reducer import Fold, LineFold, apply, replay
from getbit_events.simulate import simulate_game
from getbit_events.state import GameState, SwimmerState
from getbit_events.validate import CODES, Final, GameReport, validate_game
from importers.gbn import read_gbn, write_gbn

FAST = settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
VARIANTS = ("standard", "three-player", "two-player", "shark")
any_game = st.one_of(simulated_games(), drawn_games())


def validate_text(text: str) -> GameReport:
    [game] = read_gbn(text, "p.gbn")
    return validate_game(game)


def no_pos(events: Any) -> list[Event]:
    return [attrs.evolve(e, pos=None) for e in events]


def describe(report: GameReport) -> str:
    return "\n".join(str(v) for v in report.violations)


# -- legal games validate clean ----------------------------------------------------


@FAST
@given(st.sampled_from(VARIANTS).flatmap(lambda v: st.one_of(simulated_games(v), drawn_games(v))))
def test_legal_games_validate_clean_and_round_trip(events: list[Event]) -> None:
    text = write_gbn([events], outcomes=True)
    report = validate_text(text)
    assert report.valid, describe(report) + "\n" + text
    assert report.warnings == ()  # every any-limb bite states its limb
    assert report.finished
    assert no_pos(report.events) == no_pos(events)
    final = list(replay(events))[-1]
    assert report.state.line == final.line
    assert report.state.limbs() == final.limbs()
    assert report.winner == final.winner
    assert report.ranking == final.ranking


def _default_limbs_only(events: list[Event]) -> bool:
    """True when every bite took the first limb left (what a cards-only record derives)."""
    state: GameState | None = None
    for e in events:
        if (
            isinstance(e, SwimmerBitten)
            and state is not None
            and e.limb != state.swimmer(e.who).limbs[0]
        ):
            return False
        state = apply(state, e)
    return True


def _mask_limbs(events: list[Event]) -> list[Event]:
    return [
        attrs.evolve(e, limb="?") if isinstance(e, SwimmerBitten) else e for e in no_pos(events)
    ]


@FAST
@given(any_game)
def test_cards_only_records_validate_clean(events: list[Event]) -> None:
    setup = events[0]
    assert isinstance(setup, GameStarted)
    text = write_gbn([events], outcomes=False)
    assert not [x for x in text.splitlines() if re.match(r"\d+\.", x) and ";" in x]
    report = validate_text(text)
    if setup.variant == "shark" and not _default_limbs_only(events):
        # an any-limb bite that chose another limb changes what later limb cards
        # find: the cards-only record is another game; it must still read.
        assert report.readable
        return
    assert report.valid, describe(report) + "\n" + text
    if _default_limbs_only(events):
        assert no_pos(report.events) == no_pos(events)
    else:  # only the identity of the limbs may differ (R6: the first limb left)
        assert _mask_limbs(list(report.events)) == _mask_limbs(events)
    final = list(replay(events))[-1]
    assert report.state.line == final.line
    assert report.state.limbs() == final.limbs()
    assert (report.winner, report.ranking) == (final.winner, final.ranking)


@settings(FAST, max_examples=150)
@given(model_games())
def test_engine_agrees_with_the_reference_model(game: Any) -> None:
    setup, rounds, model = game
    for outcomes in (False, True):
        text = model_gbn(setup, rounds, outcomes=outcomes)
        report = validate_text(text)
        assert report.valid, describe(report) + "\n" + text
        s = report.state
        assert list(s.line) == model.line, text
        assert s.limbs() == model.limb_counts(), text
        assert report.winner == model.winner, text
        assert report.ranking == model.ranking, text
        assert (s.shark.hunger if s.shark else None) == model.hunger, text
        for name in setup.line:
            sw = s.swimmer(name)
            assert set(sw.hand) == model.hands[name], (name, text)
            assert sorted(sw.discards) == sorted(model.discards[name]), (name, text)


@FAST
@given(any_game)
def test_memory_changes_nothing_checked(events: list[Event]) -> None:
    # R16: the same cards with Memory on and off give the same events
    setup = events[0]
    assert isinstance(setup, GameStarted)
    flipped = [attrs.evolve(setup, memory=not setup.memory), *events[1:]]
    a = validate_text(write_gbn([events], outcomes=False))
    b = validate_text(write_gbn([flipped], outcomes=False))
    assert no_pos(a.events[1:]) == no_pos(b.events[1:])
    assert [(v.code, v.round) for v in a.violations] == [(v.code, v.round) for v in b.violations]
    assert (a.winner, a.ranking) == (b.winner, b.ranking)


# -- the fold --------------------------------------------------------------------


@FAST
@given(any_game)
def test_invariants_hold_after_every_event(events: list[Event]) -> None:
    setup = events[0]
    assert isinstance(setup, GameStarted)
    names = set(setup.line)
    before: GameState | None = None
    for state in replay(events):
        # the line is a permutation of the swimmers still in
        assert len(state.line) == len(set(state.line))
        assert set(state.line) == names - set(state.devoured)
        assert set(state.devoured) == {s.name for s in state.swimmers if s.devoured}
        # every card 1..hand size is in exactly one of hand, table, discards
        for s in state.swimmers:
            for v in range(1, setup.hand_size + 1):
                places = (v in s.hand) + s.table.count(v) + s.discards.count(v)
                assert places == 1, (s, v)
            assert all(1 <= v <= setup.hand_size for v in s.hand)
            assert 0 <= s.face_down <= len(s.table)  # R16: only played cards turn over
            if not setup.memory:
                assert s.face_down == 0
        if state.shark is not None:
            assert len(state.shark.hand) + len(state.shark.table) == 6
            assert set(state.shark.hand).isdisjoint(state.shark.table)
        if before is not None:
            # limbs never grow, hunger never grows
            for a, b in zip(before.swimmers, state.swimmers, strict=True):
                assert set(b.limbs) <= set(a.limbs)
            if state.shark is not None and before.shark is not None:
                assert state.shark.hunger <= before.shark.hunger
            assert state.round >= before.round
        before = state
    assert before is not None
    assert before.finished


@FAST
@given(any_game)
def test_nothing_is_taken_back_in_the_round_that_ends_the_game(events: list[Event]) -> None:
    # R7 (and R13 for the Shark): R8, R10 and R14 end the game at once
    last = events[-1].round
    assert events[-1].TYPE == "game-ended"
    assert not [
        e
        for e in events
        if e.round == last and e.TYPE in ("cards-taken-back", "shark-cards-taken-back")
    ]


@FAST
@given(any_game)
def test_replaying_twice_gives_equal_states(events: list[Event]) -> None:
    first = list(replay(events))
    second = list(replay(events))
    assert first == second
    assert len(first) == len(events)


@FAST
@given(any_game)
def test_replayed_states_are_the_values_their_classes_make(events: list[Event]) -> None:
    # the fold makes its values without __init__ (reducer._make); each must be just
    # what the class's own constructor makes from the same fields, and stay frozen
    for state in replay(events):
        values = [state, *state.swimmers] + ([state.shark] if state.shark else [])
        for value in values:
            made = attrs.evolve(value)  # through the class's __init__
            assert type(value) is type(made)
            assert vars(value) == vars(made)
            assert value == made
        assert {type(s) for s in state.swimmers} == {SwimmerState}
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        state.round = 0  # type: ignore[misc]


@FAST
@given(st.lists(any_game, min_size=1, max_size=3))
def test_write_then_read_is_the_identity_on_events(streams: list[list[Event]]) -> None:
    text = write_gbn(streams)
    reports = [validate_game(g) for g in read_gbn(text, "many.gbn")]
    assert len(reports) == len(streams)
    for report, events in zip(reports, streams, strict=True):
        assert report.valid, describe(report)
        assert no_pos(report.events) == no_pos(events)
    # and writing the read events gives the same text again
    assert write_gbn([r.events for r in reports]) == text


@FAST
@given(st.lists(any_game, min_size=1, max_size=2), st.data())
def test_plain_text_is_read_as_the_careful_reader_reads_it(
    streams: list[list[Event]], data: st.DataObject
) -> None:
    # write_gbn's plain shape is read fast (pairs now, places and outcomes when asked);
    # the careful path, which reads any layout, must find just the same in it, and the
    # validator must say the same of it, slips included
    lines = write_gbn(streams).split("\n")
    for k, line in enumerate(lines):
        if re.match(r"\d+\. ", line) and data.draw(st.booleans(), label=f"slip {k}"):
            lines[k] = re.sub(r"(?<= )[1-7](?=,| ;|$)", "7", line, count=1)
    text = "\n".join(lines)
    fast = read_gbn(text, "p.gbn", fast=True)
    careful = read_gbn(text, "p.gbn", fast=False)
    # both ways taken, by name: the fast way kept a plain line whole, the careful not
    if any(g.rounds for g in fast):
        assert any(r.text is not None for g in fast for r in g.rounds)
    assert all(r.text is None for g in careful for r in g.rounds)
    for quick, slow in zip(fast, careful, strict=True):
        assert quick.syntax_errors == slow.syntax_errors
        for a, b in zip(quick.rounds, slow.rounds, strict=True):
            assert (a.cards, a.plays, a.outcomes) == (b.cards, b.plays, b.outcomes)
        one, other = validate_game(quick), validate_game(slow)
        assert one.to_json() == other.to_json()
        assert one.warnings == other.warnings
        assert one.events == other.events


# -- injected errors ------------------------------------------------------------------


@attrs.frozen
class Round:
    """What a test needs to know of one round of a legal game."""

    number: int
    before: GameState  # before the round's cards
    revealed: GameState  # right after the reveal (and the Shark's card)
    after: GameState
    events: tuple[Event, ...]


def rounds_of(events: list[Event]) -> list[Round]:
    grouped: dict[int, list[Event]] = defaultdict(list)
    for e in events[1:]:
        grouped[e.round].append(e)
    state = apply(None, events[0])
    out = []
    for r in sorted(grouped):
        before = state
        revealed = None
        for e in grouped[r]:
            state = apply(state, e)
            if isinstance(e, (CardsRevealed, SharkCardPlayed)):
                revealed = state
        assert revealed is not None
        out.append(Round(r, before, revealed, state, tuple(grouped[r])))
    return out


def split_record(text: str) -> tuple[list[str], dict[int, int]]:
    """The lines of a one-game record and, per round number, the index of its line."""
    lines = text.rstrip("\n").split("\n")
    where = {}
    for i, line in enumerate(lines):
        m = re.match(r"(\d+)\. ", line)
        if m:
            where[int(m.group(1))] = i
    return lines, where


def set_play(line: str, name: str, card: str) -> str:
    new, n = re.subn(
        rf"(?<=[. ]){re.escape(name)} [^,;]+?(?=,|$| ;)", f"{name} {card}", line, count=1
    )
    assert n == 1, (line, name)
    return new


def played_names(line: str) -> list[str]:
    """The names of a round line's plays."""
    plays = line.split(" ; ")[0].split(". ", 1)[1]
    return [play.rsplit(" ", 1)[0] for play in plays.split(", ")]


def add_outcome(line: str, outcome: str) -> str:
    """Put ``outcome`` first among the outcomes, so it is the first error on the line."""
    head, sep, tail = line.partition(" ; ")
    return f"{head} ; {outcome}" + (f" ; {tail}" if sep else "")


def outcome_of(line: str, kind: str) -> str | None:
    for part in line.split(" ; ")[1:]:
        if part.split(" ", 1)[0] == kind:
            return part
    return None


def replace_outcome(line: str, old: str, new: str) -> str:
    parts = line.split(" ; ")
    i = parts.index(old)
    parts[i] = new
    return " ; ".join(parts)


KINDS = (
    "card-not-in-hand",
    "wrong-bite",
    "wrong-line",
    "false-refresh",
    "missing-refresh",
    "shark-round-1",
    "automaton-repeat",
    "round-after-end",
    "wrong-winner",
    "winner-unfinished",
    "wrong-hunger",
    "wrong-discard",
    "bit-on-a-miss",
    "no-card-claimed",
    "round-number",
    "wrong-card-kind",
    "shark-only",
    "discard-without-shark",
    "wrong-kind-after-end",
    "unknown-swimmer",
    "duplicate-outcome",
)
EXPECTED_CODE = {
    "discard-without-shark": "shark-only",
    "wrong-kind-after-end": "round-after-end",
    "false-refresh": "wrong-refresh",
    "missing-refresh": "wrong-refresh",
    "winner-unfinished": "wrong-winner",
    "bit-on-a-miss": "wrong-bite",
}
KIND_VARIANTS = {
    "shark-round-1": ("shark",),
    "automaton-repeat": ("three-player",),
    "wrong-hunger": ("shark",),
    "wrong-discard": ("shark",),
    "bit-on-a-miss": ("shark",),
    "shark-only": ("standard", "three-player", "two-player"),
    "discard-without-shark": ("standard", "three-player", "two-player"),
}


def inject(kind: str, events: list[Event], data: st.DataObject) -> tuple[str, int | None]:
    """A record of ``events`` with one error of ``kind``; returns it and the error's round."""
    setup = events[0]
    assert isinstance(setup, GameStarted)
    text = write_gbn([events], outcomes=True)
    lines, where = split_record(text)
    rounds = rounds_of(events)
    n = len(rounds)

    def pick(candidates: list[Any]) -> Any:
        assume(candidates)
        return data.draw(st.sampled_from(candidates))

    def cards(rnd: Round) -> dict[str, int | None]:
        return dict(next(e for e in rnd.events if isinstance(e, CardsRevealed)).cards)

    if kind == "round-after-end":
        lines.append(f"{n + 1}. {rounds[-1].after.line[0]} 1")
        return "\n".join(lines) + "\n", n + 1
    if kind == "wrong-kind-after-end":  # R17, and a card of the wrong kind (R3, R11)
        plays = [f"{name} {data.draw(st.sampled_from(('right-arm', 'exhaustion', '2')))}"
                 for name in rounds[-1].after.line]
        if setup.shark is not None:
            plays.append(f"{setup.shark} {data.draw(st.sampled_from(('3', 'left-leg')))}")
        plays = data.draw(st.permutations(plays))
        lines.append(f"{n + 1}. " + ", ".join(plays))
        return "\n".join(lines) + "\n", n + 1
    if kind in ("wrong-winner", "winner-unfinished"):
        winner_line = next(i for i, line in enumerate(lines) if line.startswith("[Winner "))
        if kind == "wrong-winner":
            others = sorted(
                {*setup.line, *(p for p, _ in setup.teams), *([setup.shark] if setup.shark else [])}
                - {rounds[-1].after.winner}
            )
            lines[winner_line] = f'[Winner "{pick(others)}"]'
        else:
            keep = pick(list(range(1, n)))
            lines = lines[: where[keep] + 1]
        return "\n".join(lines) + "\n", None
    if kind == "shark-round-1":
        head, sep, tail = lines[where[1]].partition(" ; ")
        card = data.draw(st.sampled_from(("right-arm", "left-leg", "any-limb", "exhaustion")))
        lines[where[1]] = f"{head}, {setup.shark} {card}{sep}{tail}"
        return "\n".join(lines) + "\n", 1
    if kind == "round-number":
        k = pick(list(range(1, n + 1)))
        lines[where[k]] = re.sub(r"^\d+\.", f"{k + 5}.", lines[where[k]])
        return "\n".join(lines) + "\n", k

    # a changed card changes the game, and so perhaps its winner: drop the Winner
    # tag, which would be reported first (it comes before the rounds)
    winner_line = next(i for i, line in enumerate(lines) if line.startswith("[Winner "))
    del lines[winner_line]
    where = {k: i - 1 if i > winner_line else i for k, i in where.items()}

    candidates: list[tuple[int, Any]] = []
    for rnd in rounds:
        k = rnd.number
        line = lines[where[k]]
        played = cards(rnd)
        bites = [e for e in rnd.events if isinstance(e, SwimmerBitten)]
        missed = any(isinstance(e, HungerLost) for e in rnd.events)
        took = {e.who for e in rnd.events if isinstance(e, CardsTakenBack)}
        bitten = {e.who for e in bites}
        if kind == "card-not-in-hand":
            for name in rnd.before.line:
                if name == setup.automaton:
                    continue
                s = rnd.before.swimmer(name)
                bad = [*s.table, *s.discards] or [setup.hand_size + 1 if setup.hand_size < 7 else 8]
                candidates.extend((k, (name, str(v))) for v in bad)
        elif kind == "automaton-repeat":
            if setup.automaton in rnd.before.line:
                s = rnd.before.swimmer(setup.automaton)
                candidates.extend((k, (setup.automaton, str(v))) for v in s.table)
        elif kind == "wrong-card-kind":  # a swimmer's Shark card; the Shark's number (R11)
            candidates.extend(
                (k, (name, data.draw(st.sampled_from(("right-arm", "exhaustion")))))
                for name in rnd.before.line
                if name != setup.automaton
            )
            if setup.shark is not None and k >= 2 and setup.shark in played_names(line):
                candidates.append((k, (setup.shark, str(data.draw(st.integers(1, 7))))))
        elif kind == "shark-only":  # a miss or a hunger in a game without a Shark
            candidates.append((k, data.draw(st.sampled_from(("miss", "hunger 4", "hunger 0")))))
        elif kind == "discard-without-shark":  # R11: only the Shark's Exhaustion discards
            candidates.extend(
                (k, f"discard {name} {v}") for name, v in played.items() if v is not None
            )
        elif kind == "unknown-swimmer":  # a bite or a refresh of a name not in the game
            assume("Nobody" not in setup.line and setup.shark != "Nobody")
            candidates.extend((k, f"{word} Nobody") for word in ("bit", "refresh"))
            if setup.variant == "shark":
                candidates.append((k, "discard Nobody 3"))
        elif kind == "duplicate-outcome":  # any outcome stated a second time, last
            candidates.extend((k, part) for part in line.split(" ; ")[1:])
        elif kind == "no-card-claimed":
            candidates.extend(
                (k, (name, "-")) for name in rnd.before.line if rnd.before.swimmer(name).hand
            )
        elif kind == "wrong-bite" and bites:
            stated = outcome_of(line, "bit")
            assert stated is not None
            others = [x for x in rnd.before.line if x != bites[0].who]
            candidates.extend((k, (stated, f"bit {x}")) for x in others)
        elif kind == "bit-on-a-miss" and missed:
            candidates.extend((k, x) for x in rnd.revealed.line)
        elif kind == "wrong-line":
            stated = outcome_of(line, "line")
            assert stated is not None
            if len(rnd.after.line) >= 2:
                candidates.append((k, (stated, "line " + ", ".join(reversed(rnd.after.line)))))
        elif kind == "false-refresh":
            for name in rnd.revealed.line:
                s = rnd.revealed.swimmer(name)
                if name not in took and name not in bitten and len(s.hand) >= 2:
                    candidates.append((k, name))
        elif kind == "missing-refresh":
            stated = outcome_of(line, "refresh")
            if stated is not None:
                names = stated[len("refresh ") :].split(", ")
                if len(names) >= 2:
                    for x in names:
                        rest = ", ".join(y for y in names if y != x)
                        candidates.append((k, (stated, f"refresh {rest}")))
                elif bitten:
                    candidates.append((k, (stated, f"refresh {next(iter(bitten))}")))
        elif kind == "wrong-hunger":
            hunger = rnd.after.shark.hunger if rnd.after.shark else 0
            stated = outcome_of(line, "hunger")
            wrong = f"hunger {hunger + 1}"
            candidates.append((k, (stated, wrong)))
        elif kind == "wrong-discard":
            stated = outcome_of(line, "discard")
            if stated is not None:
                shorter = stated.rsplit(",", 1)[0] if "," in stated else None
                candidates.append((k, (stated, shorter)))
            else:
                for name, v in played.items():
                    if v is not None:
                        candidates.append((k, (None, f"discard {name} {v}")))
    k, what = pick(candidates)
    i = where[k]
    line = lines[i]
    if kind in ("card-not-in-hand", "automaton-repeat", "no-card-claimed", "wrong-card-kind"):
        name, card = what
        lines[i] = set_play(line, name, card)
    elif kind in ("wrong-bite", "wrong-line", "missing-refresh"):
        old, new = what
        lines[i] = replace_outcome(line, old, new)
    elif kind == "bit-on-a-miss":
        lines[i] = add_outcome(line, f"bit {what}")
    elif kind in ("shark-only", "discard-without-shark", "unknown-swimmer"):
        lines[i] = add_outcome(line, what)
    elif kind == "duplicate-outcome":
        lines[i] = f"{line} ; {what}"
    elif kind == "false-refresh":
        stated = outcome_of(line, "refresh")
        lines[i] = (
            replace_outcome(line, stated, f"{stated}, {what}")
            if stated
            else add_outcome(line, f"refresh {what}")
        )
    elif kind == "wrong-hunger":
        old, new = what
        lines[i] = replace_outcome(line, old, new) if old else add_outcome(line, new)
    elif kind == "wrong-discard":
        old, new = what
        if old is None:
            lines[i] = add_outcome(line, new)
        elif new is None:  # one card discarded: state it as another value
            name, v = old[len("discard ") :].rsplit(" ", 1)
            lines[i] = replace_outcome(line, old, f"discard {name} {int(v) % setup.hand_size + 1}")
        else:
            lines[i] = replace_outcome(line, old, new)
    return "\n".join(lines) + "\n", k


@pytest.mark.parametrize("kind", KINDS)
@settings(FAST, max_examples=20)
@given(data=st.data())
def test_an_injected_error_is_reported_at_its_round(kind: str, data: st.DataObject) -> None:
    variants = KIND_VARIANTS.get(kind, VARIANTS)
    variant = data.draw(st.sampled_from(variants))
    games = st.one_of(simulated_games(variant), drawn_games(variant))
    events = data.draw(games)
    text, rnd = inject(kind, events, data)
    report = validate_text(text)
    assert report.violations, f"{kind} not reported:\n{text}"
    first = report.violations[0]
    code = EXPECTED_CODE.get(kind, kind)
    assert (first.code, first.round) == (code, rnd), f"{kind}: {first}\n{text}"


def test_every_variant_is_drawn() -> None:
    assert {v for v, _ in SETUPS} == set(VARIANTS)


# -- mangled records ------------------------------------------------------------------

_PIECES = [
    *'0123456789 ,;.#[]"-\\\r\n\tabcABC',
    "bit ",
    "out ",
    "miss",
    "hunger ",
    "discard ",
    "refresh ",
    "line ",
    "Jaws ",
    "any-limb",
    "exhaustion",
    "right-arm",
    "Ann",
    '[Winner "Ann"]\n',
    '[Line "Ann, Bob"]\n',
    "\n1. ",
]
_edits = st.lists(
    st.tuples(st.floats(0, 1), st.integers(0, 3), st.sampled_from(_PIECES)), max_size=8
)


@settings(FAST, max_examples=150)
@given(simulated_games(), _edits, st.booleans())
def test_mangled_records_never_crash_the_reader_or_the_validator(
    events: list[Event], edits: list[tuple[float, int, str]], outcomes: bool
) -> None:
    text = write_gbn([events], outcomes=outcomes)
    for where, op, piece in edits:
        i = int(where * len(text))
        if op == 0:
            text = text[:i] + piece + text[i:]
        elif op == 1:
            text = text[:i] + text[i + 1 :]
        elif op == 2:
            text = text[:i] + piece + text[i + 1 :]
        else:
            text = text[:i] + text[i : i + 40] + text[i:]
    n_lines = text.count("\n") + 1
    for game in read_gbn(text, "m.gbn"):
        report = validate_game(game)
        json_form = report.to_json()
        assert json_form["valid"] == (not report.violations)
        if report.state is not None:  # the walk's board agrees with the fold of its events
            assert report.final == Final.of(report.state)
        for v in report.violations:
            assert v.code in CODES, v
            assert 1 <= v.pos.line <= n_lines
            assert v.pos.column >= 1
            assert v.round is None or 1 <= v.round <= len(game.rounds) + 1


_tag_names = st.from_regex(r"[A-Za-z][A-Za-z0-9_-]{0,8}", fullmatch=True).filter(
    lambda n: (
        n.casefold() not in {"line", "variant", "memory", "automaton", "teams", "shark", "winner"}
    )
)
_tag_values = st.text(st.characters(blacklist_categories=("Cs", "Cc", "Zl", "Zp")), max_size=30)


@settings(FAST, max_examples=60)
@given(st.lists(st.tuples(_tag_names, _tag_values), max_size=4), st.integers(0, 2**16))
def test_any_tag_value_survives_write_and_read(tags: list[tuple[str, str]], seed: int) -> None:
    # quotes, backslashes, '#' and any printable text are escaped and read back
    events = simulate_game("standard", 4, seed, "random", tags=tuple(tags))
    report = validate_text(write_gbn([events]))
    assert report.valid, describe(report)
    assert report.events[0].tags == tuple(tags)


@settings(FAST, max_examples=60)
@given(any_game, st.data())
def test_true_outcomes_in_any_order_case_and_spacing_stay_valid(
    events: list[Event], data: st.DataObject
) -> None:
    # GBN is forgiving in layout: outcomes in any order, any of them left out
    # (except a chosen limb, which is a fact of the game), names and keywords in
    # any case, spaces around separators
    text = write_gbn([events], outcomes=True)
    out = []
    for line in text.splitlines():
        if not re.match(r"\d+\. ", line):
            out.append(line)
            continue
        plays, *outcomes = line.split(" ; ")
        outcomes = [
            o for o in outcomes if o.startswith("bit ") or data.draw(st.booleans(), label=o)
        ]
        order = data.draw(st.permutations(outcomes))
        case = data.draw(st.sampled_from([str.lower, str.upper, str.title, str]))
        gap = data.draw(st.sampled_from([" ; ", ";", "  ;\t"]))
        out.append(plays.replace(", ", data.draw(st.sampled_from([", ", ",", " , "]))))
        if order:
            out[-1] += gap + gap.join(case(o) for o in order)
    changed = "\n".join(out) + "\n"
    report = validate_text(changed)
    assert report.valid, describe(report) + "\n" + changed
    assert no_pos(report.events) == no_pos(events)


def _odd_events(names: list[str]) -> st.SearchStrategy[Event]:
    """Moves and devourings a record may hold against the rules: names not in the
    game, a swimmer devoured twice or moved after it, any reason."""
    who = st.sampled_from([*names, "Nobody"])
    why = st.sampled_from(["card", "bite", "stated", "last-limb", "exhaustion"])
    return st.one_of(
        st.builds(SwimmerMoved, st.integers(1, 30), who, why),
        st.builds(SwimmerDevoured, st.integers(1, 30), who, why),
        st.builds(SwimmerBitten, st.integers(1, 30), who, st.just("right-arm")),
    )


@FAST
@given(any_game, st.data())
def test_the_line_fold_gives_the_folds_line_after_every_event(
    events: list[Event], data: st.DataObject
) -> None:
    """``LineFold`` applies only the moves and devourings: the line it gives after
    each event, of legal games and of games with odd facts slipped in, is the
    whole fold's."""
    setup = events[0]
    assert isinstance(setup, GameStarted)
    odd = data.draw(st.lists(st.tuples(st.integers(1, len(events)),
                                       _odd_events(list(setup.line))), max_size=8))
    stream = list(events)
    for at, event in sorted(odd, key=lambda x: -x[0]):
        stream.insert(at, event)
    whole, lines = Fold(setup), LineFold(setup)
    for event in stream[1:]:
        whole.apply(event)
        lines.apply(event)
        assert lines.line == whole.line, event
