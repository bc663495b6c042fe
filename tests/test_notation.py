"""notation.outcome_text: a round's outcomes as GBN states them in full (GBN.md)."""

from __future__ import annotations

from getbit_events.events import (
    CardsDiscarded,
    CardsTakenBack,
    GameEnded,
    HungerLost,
    SharkCardsTakenBack,
    SwimmerBitten,
    SwimmerDevoured,
    SwimmerMoved,
)
from getbit_events.notation import outcome_text


def test_a_bite_states_the_limb_and_the_bitten_swimmer_takes_back_unlisted() -> None:
    steps = [
        (SwimmerBitten, "Ted", "left-arm"),
        (SwimmerMoved, "Ted", "bite"),
        (CardsTakenBack, "Ted", (5, 1)),  # with the bite (R6): not a refresh
        (CardsTakenBack, "Anne", (1, 2, 3)),  # R7
    ]
    assert outcome_text(steps, ("Ted", "Beth", "John", "Anne")) == (
        "bit Ted left-arm ; refresh Anne ; line Ted, Beth, John, Anne"
    )


def test_a_round_without_a_bite_states_only_the_line() -> None:
    assert outcome_text([], ("Ted", "Anne", "John", "Beth")) == "line Ted, Anne, John, Beth"


def test_the_last_limb_and_the_two_swimmer_end_are_outs_in_order() -> None:
    steps = [
        (SwimmerBitten, "Beth", "left-leg"),
        (SwimmerDevoured, "Beth", "last-limb"),
        (SwimmerDevoured, "John", "two-left"),
        (GameEnded, "Ted", ("Ted", "John", "Beth"), "R8"),
    ]
    assert outcome_text(steps, ("Ted",)) == "bit Beth left-leg ; out Beth ; out John ; line Ted"


def test_a_miss_states_the_hunger_left_and_not_the_sharks_take_back() -> None:
    steps = [(HungerLost, 3), (SharkCardsTakenBack, ("left-arm", "exhaustion"))]
    assert outcome_text(steps, ("A", "B")) == "miss ; hunger 3 ; line A, B"


def test_exhaustion_states_each_discard() -> None:
    steps = [(CardsDiscarded, (("A", 5), ("B", 5)))]
    assert outcome_text(steps, ("C", "A", "B")) == "discard A 5, B 5 ; line C, A, B"
