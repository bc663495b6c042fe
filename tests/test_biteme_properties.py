"""Properties of "Come on! Bite me!" on games played by the seeded bots (hypothesis):
legal games validate clean, every card is in exactly one place at every step, a
replay is a value, and one injected error is reported at its turn."""

from __future__ import annotations

from collections import Counter

import attrs
from hypothesis import given, settings
from hypothesis import strategies as st

from biteme import rules
from biteme.events import Attacked, BiteEnded, BiteEvent, Claimed, Drew, Passed
from biteme.fold import fold, replay
from biteme.simulate import simulate_bite
from biteme.state import BiteState
from biteme.validate import BiteReport, validate_bite
from importers.bmn import read_bmn
from importers.bmn_write import game_bmn

GAMES = st.builds(simulate_bite, st.integers(3, 10), st.integers(0, 10**6))
FAST = settings(max_examples=40, deadline=None)


def _check(events: list[BiteEvent]) -> BiteReport:
    """The events written as BMN, without the Winner and Scores they claim (an
    error injected changes the result: that is not the error looked for), checked."""
    lines = game_bmn(events).splitlines(keepends=True)
    text = "".join(x for x in lines if not x.startswith(("[Winner", "[Scores")))
    [game] = read_bmn(text, "p.bmn")
    return validate_bite(game)


def _cards(state: BiteState) -> Counter[str]:
    """Every card of the game where it is: held, trophies, discards, active Meerkats,
    and the deck."""
    where: Counter[str] = Counter()
    for p in state.players:
        where.update([p.card] if p.card is not None else [])
        where.update(p.trophies)
        where.update(p.discards)
        where["Meerkat"] += p.meerkats
    where.update(dict(state.deck))
    return where


@FAST
@given(GAMES)
def test_simulated_games_are_legal_and_finished(events: list[BiteEvent]) -> None:
    report = _check(events)
    assert report.valid, [str(v) for v in report.violations]
    assert report.finished
    assert report.winners
    assert report.state == fold(events)


@FAST
@given(GAMES)
def test_every_card_is_in_exactly_one_place_at_every_step(events: list[BiteEvent]) -> None:
    composition = Counter(rules.deck(len(fold(events[:1]).players)))
    for state in replay(events):
        assert _cards(state) == composition
        assert state.left == sum(dict(state.deck).values())


@FAST
@given(GAMES)
def test_replaying_twice_gives_the_same_states(events: list[BiteEvent]) -> None:
    first, second = list(replay(events)), list(replay(events))
    assert first == second
    assert first[-1] == fold(events)
    assert first[-1].finished


# -- one injected error each --------------------------------------------------------


def _turns(events: list[BiteEvent], kind: type) -> list[int]:
    return sorted({e.turn for e in events if isinstance(e, kind)})


@FAST
@given(GAMES, st.data())
def test_a_turn_taken_by_the_wrong_player_is_reported_there(
    events: list[BiteEvent], data: st.DataObject
) -> None:
    passes = [k for k, e in enumerate(events) if isinstance(e, Passed)]
    if not passes:
        return
    at = data.draw(st.sampled_from(passes))
    seats = fold(events[:1]).players
    other = next(p.name for p in seats if p.name != events[at].who)  # type: ignore[union-attr]
    events[at] = attrs.evolve(events[at], who=other)
    first = _check(events).violations[0]
    assert (first.code, first.round) == ("wrong-player", events[at].turn)


@FAST
@given(GAMES, st.data())
def test_a_trophy_claimed_by_a_bystander_is_reported_there(
    events: list[BiteEvent], data: st.DataObject
) -> None:
    at = data.draw(st.sampled_from([k for k, e in enumerate(events) if isinstance(e, Claimed)]))
    claim = events[at]
    assert isinstance(claim, Claimed)
    battle = next(e for e in reversed(events[:at]) if isinstance(e, Attacked))
    fighters = {battle.who, battle.defender, *(n for n, _ in battle.joined)}
    names = [p.name for p in fold(events[:1]).players if p.name not in fighters]
    if not names:
        return
    events[at] = attrs.evolve(claim, who=names[0])
    first = _check(events).violations[0]
    assert (first.code, first.round) == ("wrong-trophy", claim.turn)


@FAST
@given(GAMES, st.data())
def test_a_draw_left_out_is_reported_there(events: list[BiteEvent], data: st.DataObject) -> None:
    draws = [k for k, e in enumerate(events) if isinstance(e, Drew)][:-1]  # not the last
    at = data.draw(st.sampled_from(draws))
    turn = events[at].turn
    del events[at]
    first = _check(events).violations[0]
    assert first.round == turn
    assert first.code in ("wrong-draw", "wrong-pick", "wrong-take")


@FAST
@given(GAMES, st.data())
def test_a_card_revealed_that_is_not_held_is_reported_there(
    events: list[BiteEvent], data: st.DataObject
) -> None:
    at = data.draw(st.sampled_from([k for k, e in enumerate(events) if isinstance(e, Attacked)]))
    attack = events[at]
    assert isinstance(attack, Attacked)
    other = "Rabbit" if attack.card != "Rabbit" else "Lion"
    events[at] = attrs.evolve(attack, card=other)
    report = _check(events)
    assert report.violations[0].round == attack.turn
    assert "wrong-card" in {v.code for v in report.violations if v.round == attack.turn}


@FAST
@given(GAMES)
def test_a_turn_after_the_end_is_reported(events: list[BiteEvent]) -> None:
    end = events[-1]
    assert isinstance(end, BiteEnded)
    seats = [p.name for p in fold(events[:1]).players]
    turn = end.turn + 1
    events.append(Passed(turn, seats[(turn - 1) % len(seats)]))
    report = _check(events)
    assert [(v.code, v.round) for v in report.violations] == [("after-end", turn)]
