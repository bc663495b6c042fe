"""Steps: each kind an event not yet made, with the event's fields by name."""

from __future__ import annotations

import sys
from types import FrameType
from typing import Any

import attrs
import pytest
from hypothesis import given, settings
from strategies import simulated_games

from getbit_events import rules
from getbit_events.board import Board
from getbit_events.events import (
    CardChosen,
    CardsRevealed,
    Event,
    GameStarted,
    SharkCardPlayed,
    SourcePos,
)
from getbit_events.simulate import SETUPS, simulate_game
from getbit_events.steps import (
    EVENT_OF,
    Bitten,
    Devoured,
    Discarded,
    Ended,
    HungerLeft,
    Moved,
    SharkTookBack,
    StatedHunger,
    StatedLine,
    StatedMiss,
    Step,
    TookBack,
    make_events,
    step_of,
)
from getbit_events.validate import validate_game
from importers.gbn import iter_gbn, write_gbn
from importers.gbn_write import outcome_text

FAST = settings(max_examples=60, deadline=None)

ONE_OF_EACH: list[Step] = [
    Moved("Ted", "bite"),
    Bitten("Ted", "left-arm"),
    Devoured("Beth", "last-limb"),
    TookBack("Anne", (1, 2)),
    SharkTookBack(("left-arm", "exhaustion")),
    HungerLeft(3),
    Discarded((("A", 5), ("B", 5))),
    StatedHunger(2),
    StatedLine(("B", "A")),
    StatedMiss(),
    Ended("Ted", ("Ted", "Beth"), "R8"),
]


def test_one_of_each_kind_is_listed() -> None:
    assert {type(step) for step in ONE_OF_EACH} == set(EVENT_OF)


@pytest.mark.parametrize("kind", list(EVENT_OF), ids=lambda k: k.__name__)
def test_a_steps_fields_are_its_events_between_round_and_pos_by_name(kind: type[Step]) -> None:
    names = [f.name for f in attrs.fields(EVENT_OF[kind])]
    assert names[0] == "round"
    assert names[-1] == "pos"
    assert list(kind._fields) == names[1:-1]


def test_a_step_becomes_its_event_and_back() -> None:
    pos = SourcePos("game.gbn", 14, 9)
    events = make_events(ONE_OF_EACH, 5, pos)
    assert [type(e) for e in events] == [EVENT_OF[type(s)] for s in ONE_OF_EACH]
    assert all(e.round == 5 and e.pos == pos for e in events)
    assert events[1] == rules.make_events([Bitten("Ted", "left-arm")], 5, pos)[0]
    assert [step_of(e) for e in events] == ONE_OF_EACH
    assert [type(step_of(e)) for e in events] == [type(s) for s in ONE_OF_EACH]


def test_an_event_no_step_makes_has_none() -> None:
    plays: list[Event] = [
        CardChosen(1, "Ted"),
        CardsRevealed(1, (("Ted", 3),)),
        SharkCardPlayed(1, "Sam", "left-arm"),
    ]
    assert [step_of(e) for e in plays] == [None, None, None]


@FAST
@given(simulated_games())
def test_the_rules_give_typed_steps(events: list[Event]) -> None:
    # every step settle gives, round after round, is one of the kinds (read by name)
    setup = events[0]
    assert isinstance(setup, GameStarted)
    board = Board(setup)
    kinds: set[type] = set()
    for e in events[1:]:
        if isinstance(e, CardsRevealed):
            shark = next((s.card for s in events if isinstance(s, SharkCardPlayed)
                          and s.round == e.round), None)
            board.reveal(e.round, e.cards, shark)
            settled = rules.settle(board)
            kinds.update(type(step) for step in settled.all_steps())
            board.settle_in(settled)
    assert kinds <= set(EVENT_OF)
    assert Moved in kinds


def test_a_fact_between_a_bites_swim_and_a_take_back_makes_it_a_refresh() -> None:
    # write_gbn hands over a round's every event: one that is no step (None) stands between
    bite = [Bitten("Ted", "left-arm"), Moved("Ted", "bite")]
    line = ("Ted", "Anne")
    assert outcome_text([*bite, TookBack("Ted", (5,))], line) == "bit Ted left-arm ; line Ted, Anne"
    assert outcome_text([*bite, None, TookBack("Ted", (5,))], line) == (
        "bit Ted left-arm ; refresh Ted ; line Ted, Anne"
    )


def test_kinds_are_told_apart_by_class_not_by_equal_fields() -> None:
    # a devouring whose why reads "bite" is no bite's swim: the take-back after it is a refresh
    steps: list[Step] = [Devoured("Ted", "bite"), TookBack("Ted", (5,))]
    assert tuple(Devoured("Ted", "bite")) == tuple(Moved("Ted", "bite"))  # the same fields
    assert outcome_text(steps, ("Anne",)) == "out Ted ; refresh Ted ; line Anne"



def test_a_rounds_steps_are_made_without_the_namedtuples_interpreted_new() -> None:
    # issue 13: calling a step's class runs its generated __new__, interpreted Python
    # even in the compiled build; the steps of every round are made by tuple.__new__
    bots = ("random", "sensible")
    games = [
        simulate_game(*SETUPS[k % len(SETUPS)], seed=1000 + k, bot=bots[k % 2]) for k in range(20)
    ]
    text = write_gbn(games)
    made: list[str] = []

    def watch(frame: FrameType, event: str, arg: Any) -> None:
        module = frame.f_globals.get("__name__", "")
        if event == "call" and module.startswith("namedtuple_"):
            made.append(module.removeprefix("namedtuple_"))

    sys.setprofile(watch)
    try:
        reports = [validate_game(game) for game in iter_gbn(text, "t.gbn")]
    finally:
        sys.setprofile(None)
    assert all(report.valid for report in reports)
    # only each game's end (R8, R10, R14: rules._end) is left to the classes
    assert set(made) <= {"Ended", "Devoured"}
    assert 0 < len(made) <= 2 * len(games)
