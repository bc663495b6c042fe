"""Player views: what one seat at the table could see, and nothing more."""

from __future__ import annotations

import attrs
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from regen_golden import load
from strategies import simulated_games

from getbit_events.errors import InputError
from getbit_events.events import CardsTakenBack, Event
from getbit_events.state import GameState
from replay.cursor import Cursor
from replay.view import EVERYTHING, TABLE, Viewer, view


def _scrambled(state: GameState, keep: frozenset[str]) -> GameState:
    """``state`` with every secret of the swimmers outside ``keep`` changed: the
    values in their hands (not how many: that is public), and the values of every
    face-down card (R16)."""
    swimmers = []
    for s in state.swimmers:
        table = tuple(99 if i < s.face_down else v for i, v in enumerate(s.table))
        if s.name in keep:
            # own cards stay, but face-down ones are hidden even from their owner
            swimmers.append(attrs.evolve(s, table=table))
        else:
            fake = frozenset(range(100, 100 + len(s.hand)))
            swimmers.append(attrs.evolve(s, hand=fake, table=table))
    return attrs.evolve(state, swimmers=tuple(swimmers))


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(simulated_games(), st.data())
def test_a_player_view_reveals_no_other_hand_and_no_face_down_card(
    events: list[Event], data: st.DataObject
) -> None:
    cursor = Cursor(events)
    seat = data.draw(st.sampled_from(cursor.setup.line), label="seat")
    viewer = Viewer.named(cursor.setup, seat)
    for i in range(len(cursor)):
        state = cursor.state_at(i)
        choices = dict.fromkeys(state.chosen, 7)
        seen = view(state, viewer, choices)
        for s, real in zip(seen.swimmers, state.swimmers, strict=True):
            if s.name != seat:
                assert s.hand is None, f"step {i}: {seat} sees {s.name}'s hand"
                assert s.choice is None, f"step {i}: {seat} sees {s.name}'s chosen card"
            hidden = s.table[: real.face_down]
            assert all(v is None for v in hidden), f"step {i}: a face-down card shows"
        if state.shark is not None:
            assert seen.shark is not None
            assert seen.shark.hand is None
        # the strongest form: change every secret the seat cannot know; it sees the same
        others = {n: 1 for n in state.chosen if n != seat}
        assert view(_scrambled(state, viewer.sees), viewer, {**choices, **others}) == seen
        e = cursor.events[i]
        if (
            isinstance(e, CardsTakenBack)
            and e.who != seat
            and cursor.state_at(i - 1).swimmer(e.who).face_down
        ):
            assert "face-down" in cursor.account(i, viewer)


def test_memory_take_backs_name_no_hidden_values() -> None:
    cursor = load("fixtures/games/sim-shark-memory.gbn")
    dee = Viewer.named(cursor.setup, "dee")  # names ignore case
    i = next(
        i for i, e in enumerate(cursor.events) if isinstance(e, CardsTakenBack) and e.who == "Bob"
    )
    assert cursor.account(i, dee) == (
        "Bob takes back 2 face-down cards (R16: the values were face down)."
    )
    assert cursor.account(i, EVERYTHING) == "Bob takes back the played cards 1 and 5."


def test_the_table_view_shows_only_what_is_public() -> None:
    cursor = load("fixtures/games/friday-club.gbn")
    v = cursor.view(TABLE, cursor.bounds[2][1])
    assert all(s.hand is None for s in v.swimmers)
    assert v.swimmer("Beth").table == (4, 5)  # played cards lie face up
    assert v.swimmer("Beth").hand_size == 3
    full = cursor.view(EVERYTHING, cursor.bounds[2][1])
    assert full.swimmer("Beth").hand == (1, 2, 3)


def test_a_swimmer_sees_its_own_chosen_card_and_no_other() -> None:
    cursor = load("fixtures/games/friday-club.gbn")
    cursor.goto(3)  # John, Anne and Beth have chosen in round 1
    v = cursor.view(Viewer.named(cursor.setup, "Anne"))
    assert [s.chosen for s in v.swimmers] == [True, True, True, False]
    assert [s.choice for s in v.swimmers] == [None, 1, None, None]
    assert [s.choice for s in cursor.view(EVERYTHING).swimmers] == [4, 1, 4, None]
    assert [s.choice for s in cursor.view(TABLE).swimmers] == [None, None, None, None]


def test_a_two_player_player_sees_both_its_swimmers_and_the_shark_its_hand() -> None:
    cursor = load("fixtures/games/sim-two-player-4.gbn")
    v = cursor.view(Viewer.named(cursor.setup, "north"), 10)
    assert {s.name for s in v.swimmers if s.hand is not None} == {"Ann", "Bob"}
    shark = load("fixtures/games/sim-shark-5.gbn")
    jaws = shark.view(Viewer.named(shark.setup, "Jaws"), 30)
    assert jaws.shark is not None
    assert jaws.shark.hand is not None
    assert all(s.hand is None for s in jaws.swimmers)


def test_memory_cards_are_face_down_for_every_seat_but_the_record() -> None:
    cursor = load("fixtures/games/sim-shark-memory.gbn")
    end2 = cursor.bounds[2][1]
    assert cursor.view(Viewer.named(cursor.setup, "Dee"), end2).swimmer("Dee").table == (None, None)
    assert cursor.view(TABLE, end2).swimmer("Ann").table == (None, None)
    assert cursor.view(EVERYTHING, end2).swimmer("Ann").table == (5, 1)


def test_an_unknown_seat_is_a_clear_error() -> None:
    cursor = load("fixtures/games/sim-shark-5.gbn")
    with pytest.raises(InputError, match=r"nobody called 'Zed' plays in this game; choose one of"):
        Viewer.named(cursor.setup, "Zed")
    assert Viewer.named(cursor.setup, "TABLE") == TABLE
    labels = [v.label for v in Viewer.seats(cursor.setup)]
    assert labels[:2] == ["everything (the record)", "the table (public)"]
    assert labels[-1] == "as shark Jaws"
