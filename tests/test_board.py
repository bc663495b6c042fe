"""The validator's board folds a round as the reducer folds its events.

``getbit_events.board`` is the validator's private mutable state; the reducer
is the fold every stored game is replayed by. Here both walk the same rounds,
legal and against the rules, and must agree after every round.
"""

from __future__ import annotations

import random
from typing import Any

import attrs
from hypothesis import given, settings
from hypothesis import strategies as st
from strategies import drawn_games, simulated_games

from getbit_events import rules
from getbit_events.board import Board
from getbit_events.events import (
    CardChosen,
    CardsRevealed,
    Event,
    GameStarted,
    SharkCardPlayed,
    SwimmerBitten,
    SwimmerMoved,
)
from getbit_events.reducer import apply, fold, replay
from getbit_events.rules import round_events
from getbit_events.simulate import SETUPS, make_setup
from getbit_events.state import GameState, initial_state
from getbit_events.validate import Final

FAST = settings(max_examples=60, deadline=None)


def board_view(b: Board) -> tuple[Any, ...]:
    shark = b.shark
    return (
        b.round,
        tuple(b.line),
        {
            n: (s.limbs, frozenset(s.hand), tuple(s.table), tuple(s.discards))
            for n, s in b.seats.items()
        },
        tuple(b.devoured),
        (frozenset(shark.hand), tuple(shark.table), shark.hunger) if shark else None,
        (b.winner, b.ranking, b.end_reason),
    )


def state_view(s: GameState) -> tuple[Any, ...]:
    shark = s.shark
    return (
        s.round,
        s.line,
        {w.name: (w.limbs, w.hand, w.table, w.discards) for w in s.swimmers},
        s.devoured,
        (shark.hand, shark.table, shark.hunger) if shark else None,
        (s.winner, s.ranking, s.end_reason),
    )


def rounds_of(events: list[Event]) -> list[list[Event]]:
    rounds: list[list[Event]] = []
    for e in events[1:]:
        if not rounds or e.round != rounds[-1][0].round:
            rounds.append([])
        rounds[-1].append(e)
    return rounds


@FAST
@given(st.one_of(simulated_games(), drawn_games()))
def test_board_and_reducer_agree_after_every_round_of_a_legal_game(events: list[Event]) -> None:
    setup = events[0]
    assert isinstance(setup, GameStarted)
    board = Board(setup)
    state = initial_state(setup)
    for rnd in rounds_of(events):
        reveal = next(e for e in rnd if isinstance(e, CardsRevealed))
        card = next((e.card for e in rnd if isinstance(e, SharkCardPlayed)), None)
        board.reveal(reveal.round, reveal.cards, card)
        choice = {e.who: e.limb for e in rnd if isinstance(e, SwimmerBitten)}  # the bots' choice
        outcome = rules.settle(board, choice)
        # the steps the rules give are the recorded events after the plays
        after = rnd[rnd.index(reveal) + (2 if card else 1) :]
        assert rules.make_events(outcome.all_steps(), reveal.round, None) == after
        assert outcome.events(reveal.round, None) == after  # the card moves made directly
        board.settle_in(outcome)
        for e in rnd:
            state = apply(state, e)
        assert board_view(board) == state_view(state)
    assert state.finished
    assert board.finished


@FAST
@given(st.sampled_from(SETUPS), st.booleans(), st.integers(0, 2**32 - 1))
def test_board_and_reducer_agree_when_cards_break_the_rules(
    variant_swimmers: tuple[str, int], memory: bool, seed: int
) -> None:
    # any value 1-7 or no card for anyone, any Shark card: the validator plays
    # such cards (and reports them), so its board must still fold as the reducer does
    variant, swimmers = variant_swimmers
    rng = random.Random(seed)
    setup = make_setup(variant, swimmers, memory, rng=rng)
    board = Board(setup)
    state = initial_state(setup)
    for r in range(1, 60):
        if state.finished:
            break
        cards = tuple((n, rng.choice([None, 1, 2, 3, 4, 5, 6, 7])) for n in state.line)
        shark_card = None
        if setup.shark is not None and rng.random() < 0.8:
            shark_card = rng.choice(rules.SHARK_CARDS)
        for e in round_events(r, None, cards, setup.shark, shark_card):
            state = apply(state, e)
        board.reveal(r, cards, shark_card)
        choice = {state.line[-1]: rng.choice(rules.LIMBS)} if state.line else None
        outcome = rules.resolve_round(state, choice)
        settled = rules.settle(board, choice)
        assert rules.make_events(settled.all_steps(), r, None) == list(outcome.events)
        assert settled.events(r, None) == list(outcome.events)
        board.settle_in(settled)
        for e in outcome.events:
            state = apply(state, e)
        assert board_view(board) == state_view(state)


@FAST
@given(st.one_of(simulated_games(), drawn_games()))
def test_a_reports_events_fold_to_its_final_standing(events: list[Event]) -> None:
    from getbit_events.validate import validate_game
    from importers.gbn import read_gbn, write_gbn

    for outcomes in (True, False):
        [game] = read_gbn(write_gbn([events], outcomes=outcomes), "b.gbn")
        report = validate_game(game)
        if outcomes:  # every limb stated: the same game (the positions aside)
            assert report.valid
            assert [attrs.evolve(e, pos=None) for e in report.events] == events
        assert report.final == Final.of(fold(report.events))


def test_round_events_put_the_shark_after_the_swimmers() -> None:
    cards = (("Ann", 3), ("Bob", None))
    assert [type(e) for e in round_events(2, None, cards, "Jaws", "exhaustion")] == [
        CardChosen,
        CardChosen,
        CardsRevealed,
        SharkCardPlayed,
    ]
    assert [e.who for e in round_events(2, None, cards, "Jaws", "exhaustion")[:2]] == [
        "Ann",
        "Jaws",
    ]


# -- one fold ------------------------------------------------------------------------


@FAST
@given(st.one_of(simulated_games(), drawn_games()))
def test_a_board_made_of_any_replayed_state_snapshots_to_that_state(events: list[Event]) -> None:
    # the fold holds a Board and hands out its snapshots: every fact of a state
    # (face-down cards, the devoured, the phase, the plays as recorded) goes round trip
    for state in replay(events):
        assert Board.of(state).snapshot() == state


@FAST
@given(st.one_of(simulated_games(), drawn_games()))
def test_a_snapshot_shares_every_swimmer_the_event_did_not_change(events: list[Event]) -> None:
    before: GameState | None = None
    for event, state in zip(events, replay(events), strict=True):
        if before is not None and isinstance(event, CardChosen):  # touches no swimmer
            assert all(a is b for a, b in zip(state.swimmers, before.swimmers, strict=True))
        before = state


@FAST
@given(st.one_of(simulated_games(), drawn_games()))
def test_a_snapshot_shares_every_field_the_event_did_not_change(events: list[Event]) -> None:
    # a bite changes limbs, not the hand or the table; a move changes the line only
    before: GameState | None = None
    for event, state in zip(events, replay(events), strict=True):
        if before is not None:
            if isinstance(event, SwimmerBitten) and event.who in before.setup.line:
                was, now = before.swimmer(event.who), state.swimmer(event.who)
                assert (now.hand, now.table, now.discards) == (was.hand, was.table, was.discards)
                assert now.hand is was.hand
                assert now.table is was.table
                assert now.discards is was.discards
            if isinstance(event, SwimmerMoved | CardChosen):
                assert state.swimmers is before.swimmers
                assert state.setup is before.setup
                assert state.shark is before.shark
        before = state
    first = next(replay(events))  # every full hand is one value
    assert len({id(s.hand) for s in first.swimmers}) == 1


def test_the_fold_keeps_a_play_the_game_cannot_take_in_the_events_only() -> None:
    setup = make_setup("standard", 4, False, rng=random.Random(1))
    a, b = setup.line[:2]
    cards = ((a, 2), ("Nobody", 3), (a, 4), (b, None))
    state = fold([setup, *round_events(1, None, cards, None, None)])
    assert state.revealed == cards  # as recorded
    assert state.swimmer(a).table == (2,)  # the first play of a swimmer in the line
    assert state.swimmer(b).table == ()
    board = Board.of(state)
    assert board.revealed == ((a, 2), (b, None))  # what the rules see (R3)


def test_state_board_and_rules_import_no_module_that_imports_them() -> None:
    # the constants and set-ups are in setups.py, the steps in steps.py:
    # state <- board <- rules, no circle
    import ast
    from pathlib import Path

    import getbit_events

    root = Path(getbit_events.__file__).parent

    def imported(module: str) -> set[str]:
        tree = ast.parse((root / f"{module}.py").read_text(encoding="utf-8"))
        return {
            node.module.rsplit(".", 1)[-1]
            for node in ast.walk(tree)
            if isinstance(node, ast.ImportFrom) and node.module
            and node.module.startswith("getbit_events")
        }

    assert imported("setups") == set()
    assert imported("state") <= {"events", "setups"}
    assert imported("steps") <= {"events"}
    assert imported("board") <= {"events", "setups", "state", "steps"}
    assert "reducer" not in imported("rules")
