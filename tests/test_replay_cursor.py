"""The replay cursor: stepping, jumping, rounds, and the plain account of each event."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from regen_golden import load
from strategies import simulated_games

from getbit_events.errors import InputError
from getbit_events.events import Event, GameStarted
from getbit_events.reducer import fold
from replay.cursor import Cursor

FIXTURES = (
    ("fixtures/games/friday-club.gbn", 1),
    ("fixtures/games/sim-standard-6.gbn", 2),
    ("fixtures/games/sim-three-player-4.gbn", 3),
    ("fixtures/games/sim-two-player-4.gbn", 2),
    ("fixtures/games/sim-shark-5.gbn", 1),
    ("fixtures/games/sim-shark-memory.gbn", 2),
)


def _check_stepping(events: list[Event], seed: int = 0) -> None:
    cursor = Cursor(events)
    forward = [cursor.state]
    while not cursor.at_end:
        forward.append(cursor.forward().state)
    assert len(forward) == len(events)
    backward = [cursor.state]
    while not cursor.at_start:
        backward.append(cursor.back().state)
    assert backward[::-1] == forward  # forward then back gives equal states
    rng = random.Random(seed)
    fresh = Cursor(events)  # jumps on a cursor that has folded nothing yet
    for i in rng.sample(range(len(events)), min(25, len(events))):
        assert fresh.goto(i).state == fold(events[: i + 1])


@pytest.mark.parametrize(("path", "number"), FIXTURES)
def test_stepping_forward_then_back_gives_the_same_states(path: str, number: int) -> None:
    _check_stepping(list(load(path, number).events))


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(simulated_games())
def test_stepping_and_jumping_agree_with_the_fold(events: list[Event]) -> None:
    _check_stepping(events)


def test_rounds_step_to_the_end_of_each_round() -> None:
    cursor = load("fixtures/games/friday-club.gbn")
    first, last = cursor.bounds[1]
    assert cursor.events[first].round == cursor.events[last].round == 1
    assert cursor.next_round().index == last  # from the set-up to the end of round 1
    assert cursor.next_round().index == cursor.bounds[2][1]
    cursor.back(2)  # inside round 2
    assert cursor.round == 2
    assert cursor.next_round().index == cursor.bounds[2][1]
    assert cursor.prev_round().index == cursor.bounds[1][1]
    assert cursor.prev_round().index == 0
    assert cursor.prev_round().index == 0  # clamped at the set-up
    assert cursor.goto_round(3).index == len(cursor) - 1
    assert cursor.next_round().index == len(cursor) - 1  # clamped at the end
    assert cursor.goto(10_000).index == len(cursor) - 1
    assert cursor.goto(-5).index == 0


def test_a_round_the_game_lacks_is_a_clear_error() -> None:
    cursor = load("fixtures/games/friday-club.gbn")
    with pytest.raises(InputError, match="there is no round 9: this game runs from round 1 to 3"):
        cursor.goto_round(9)


def test_a_replay_needs_a_set_up() -> None:
    with pytest.raises(InputError, match="starts with its set-up"):
        Cursor([])


def test_violations_belong_to_their_round() -> None:
    cursor = load("fixtures/golden/replay/inputs/invalid.gbn")
    assert [v.code for v in cursor.violations_in(0)] == ["wrong-winner"]
    # John bitten where the rules bite Ted: once, at round 2; the game goes on from it
    assert [v.code for v in cursor.violations_in(2)] == ["wrong-bite"]
    assert [v.code for v in cursor.violations_in(3)] == ["card-not-in-hand"]
    assert [v.code for v in cursor.violations_in(4)] == ["wrong-line"]
    assert cursor.violations_after_end() == ()


def test_cursor_holds_the_game_it_was_given() -> None:
    cursor = load("fixtures/games/sim-standard-4.gbn", 1)
    assert isinstance(cursor.event, GameStarted)
    cursor.last()
    assert cursor.state.finished
    assert cursor.state.winner == "Dee"
