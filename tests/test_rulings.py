"""One small GBN record per ruling (RULINGS.md R1-R17), each with the exact answer.

Every expected value below was worked out by hand from the rule texts and the
rulings; the comment beside each record shows the working. Lines are front
first. Hands are written as sets; "refresh" means the R7 take-back.
"""

from __future__ import annotations

import textwrap

import pytest

from getbit_events.reducer import replay
from getbit_events.validate import GameReport, validate_game
from importers.gbn import read_gbn

ALL_SHARK = frozenset({"right-leg", "left-leg", "right-arm", "left-arm", "exhaustion", "any-limb"})


def check(text: str) -> GameReport:
    games = read_gbn(textwrap.dedent(text).lstrip("\n"), "t.gbn")
    assert len(games) == 1
    return validate_game(games[0])


def found(report: GameReport) -> list[tuple[str, int | None, int]]:
    """(code, round, line) of every violation, in report order."""
    return [(v.code, v.round, v.pos.line) for v in report.violations]


def assert_clean(report: GameReport) -> None:
    assert report.violations == (), [str(v) for v in report.violations]


def state_after_round(report: GameReport, r: int):
    """The state at the end of round ``r`` (replaying the validated events)."""
    last = None
    for state, event in zip(replay(report.events), report.events, strict=True):
        if event.round <= r:
            last = state
    return last


def replace_line(text: str, number: int, new: str) -> str:
    """``text`` (dedented) with its line ``number`` (1-based) replaced by ``new``."""
    lines = textwrap.dedent(text).lstrip("\n").split("\n")
    lines[number - 1] = new
    return "\n".join(lines)


# -- R4 and the worked examples ------------------------------------------------


def test_worked_example_of_the_rule_texts() -> None:
    # John, Anne, Beth, Ted. John 4 and Beth 4 tie and stay; Anne (1) moves to
    # the front, then Ted (5): Ted, Anne, John, Beth. No bite in round 1 (R5).
    report = check(
        """
        [Line "John, Anne, Beth, Ted"]
        1. John 4, Anne 1, Beth 4, Ted 5
        """
    )
    assert_clean(report)
    assert report.state.line == ("Ted", "Anne", "John", "Beth")
    assert report.state.limbs() == {"John": 4, "Anne": 4, "Beth": 4, "Ted": 4}
    assert not report.finished
    assert report.winner is None
    assert report.ranking is None


def test_worked_example_of_the_classic_rulebook() -> None:
    # Seed 001 gives Ted a 3, not a 5: the same moves (Anne 1, then Ted 3).
    report = check(
        """
        [Line "John, Anne, Beth, Ted"]
        1. John 4, Anne 1, Beth 4, Ted 3 ; line Ted, Anne, John, Beth
        """
    )
    assert_clean(report)
    assert report.state.line == ("Ted", "Anne", "John", "Beth")


GBN_FIRST_EXAMPLE = """\
# Friday club, table 2
[Event "Friday club"]
[Date "2026-11-20"]
[Line "John, Anne, Beth, Ted"]

1. John 4, Anne 1, Beth 4, Ted 5
2. John 3, Anne 2, Beth 5, Ted 1 ; bit Ted ; line Ted, Beth, John, Anne
3. John 5, Anne 3, Beth 3, Ted 2
"""


def test_gbn_first_example_in_full() -> None:
    # R1: Ted, Anne, John, Beth (the worked example).
    # R2: all differ: Ted 1, Anne 2, John 3, Beth 5 move in that order ->
    #     Beth, John, Anne, Ted; Ted bitten (right arm, the first), to the front
    #     with 5 and 1 back: Ted, Beth, John, Anne.
    # R3: Anne and Beth tie on 3; Ted 2 (already front), John 5 ->
    #     John, Ted, Beth, Anne; Anne bitten (right arm): Anne, John, Ted, Beth.
    report = check(GBN_FIRST_EXAMPLE)
    assert_clean(report)
    assert report.state.line == ("Anne", "John", "Ted", "Beth")
    assert report.state.limbs() == {"John": 4, "Anne": 3, "Beth": 4, "Ted": 3}
    assert report.state.swimmer("Ted").limbs == ("left-arm", "right-leg", "left-leg")
    assert report.state.swimmer("Anne").limbs == ("left-arm", "right-leg", "left-leg")
    # hands: Ted took 5 and 1 back in round 2 and played 2; Anne took 1, 2, 3 back;
    # John played 4, 3, 5 and Beth 4, 5, 3: two cards each, no refresh.
    assert report.state.swimmer("Ted").hand == {1, 3, 4, 5}
    assert report.state.swimmer("Anne").hand == {1, 2, 3, 4, 5}
    assert report.state.swimmer("John").hand == {1, 2}
    assert report.state.swimmer("Beth").hand == {1, 2}
    assert not report.finished
    assert dict(report.events[0].tags) == {"Event": "Friday club", "Date": "2026-11-20"}


def test_r4_everyone_ties_nobody_moves() -> None:
    report = check(
        """
        [Line "A, B, C, D"]
        1. A 3, B 3, C 3, D 3
        """
    )
    assert_clean(report)
    assert report.state.line == ("A", "B", "C", "D")


def test_r4_all_unique_highest_ends_at_the_front() -> None:
    # A 1, B 2, C 3, D 4 move in that order: D, C, B, A.
    report = check(
        """
        [Line "A, B, C, D"]
        1. A 1, B 2, C 3, D 4
        """
    )
    assert_clean(report)
    assert report.state.line == ("D", "C", "B", "A")


def test_r4_stayers_keep_their_order() -> None:
    # A, C, E tie on 5 and keep their order; B (1) then D (2) move: D, B, A, C, E.
    report = check(
        """
        [Line "A, B, C, D, E"]
        1. A 5, B 1, C 5, D 2, E 5
        """
    )
    assert_clean(report)
    assert report.state.line == ("D", "B", "A", "C", "E")


def test_r4_two_tie_groups_only_the_unique_moves() -> None:
    # A, B tie on 2; C, D tie on 3; E (5) alone moves: E, A, B, C, D.
    report = check(
        """
        [Line "A, B, C, D, E"]
        1. A 2, B 2, C 3, D 3, E 5 ; line E, A, B, C, D
        """
    )
    assert_clean(report)
    assert report.state.line == ("E", "A", "B", "C", "D")


def test_r4_wrong_line_is_reported() -> None:
    report = check(
        """
        [Line "John, Anne, Beth, Ted"]
        1. John 4, Anne 1, Beth 4, Ted 5 ; line Anne, Ted, John, Beth
        """
    )
    assert found(report) == [("wrong-line", 1, 2)]
    # the game as played: it goes on from the line the record states
    assert report.state.line == ("Anne", "Ted", "John", "Beth")


# -- R1 hands ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("line", "top"),
    [("A, B, C, D", 5), ("A, B, C, D, E", 6), ("A, B, C, D, E, F", 7)],
)
def test_r1_hand_by_number_of_swimmers(line: str, top: int) -> None:
    report = check(f'[Line "{line}"]\n')
    assert_clean(report)
    for s in report.state.swimmers:
        assert s.hand == frozenset(range(1, top + 1))


def test_r1_a_six_with_four_swimmers_is_not_in_hand_but_still_moves() -> None:
    # A's 6 is not in a 4-swimmer hand (1-5): reported at A's play (column 4),
    # and still played: B 1, C 2, D 3, A 6 move in that order: A, D, C, B.
    report = check(
        """
        [Line "A, B, C, D"]
        1. A 6, B 1, C 2, D 3
        """
    )
    assert found(report) == [("card-not-in-hand", 1, 2)]
    assert report.violations[0].pos.column == 4
    assert report.violations[0].rule == "R3"
    assert report.state.line == ("A", "D", "C", "B")


def test_r1_five_swimmers_hold_six_not_seven() -> None:
    report = check(
        """
        [Line "A, B, C, D, E"]
        1. A 7, B 6, C 1, D 2, E 3
        """
    )
    assert found(report) == [("card-not-in-hand", 1, 2)]
    assert report.violations[0].pos.column == 4


def test_r1_six_swimmers_hold_seven() -> None:
    report = check(
        """
        [Line "A, B, C, D, E, F"]
        1. A 7, B 6, C 1, D 2, E 3, F 4
        """
    )
    assert_clean(report)
    assert report.state.line == ("A", "B", "F", "E", "D", "C")


def test_r1_the_automaton_of_three_player_holds_one_to_five() -> None:
    # Three-player is set up as a 4-player game (R1, R2): the automaton's stack
    # is 1-5. Its 6 was never in the stack: not a repeat (R9) but a card not in
    # its hand (R1, R3).
    report = check(
        """
        [Line "A, B, C, Bot"]
        [Variant "three-player"]
        [Automaton "Bot"]
        1. A 1, B 2, C 3, Bot 6
        """
    )
    assert found(report) == [("card-not-in-hand", 1, 4)]


# -- R2 set-up -------------------------------------------------------------------

_SETUP_ERRORS = [
    # (record, line of the tag the error is reported at)
    pytest.param('[Event "x"]\n[Line "A, B, C"]\n1. A 1, B 2, C 3\n', 2, id="standard-3"),
    pytest.param('[Line "A, B, C, D, E, F, G"]\n', 1, id="standard-7"),
    pytest.param('[Line "A, B, C"]\n[Variant "shark"]\n[Shark "J"]\n', 1, id="shark-3"),
    pytest.param('[Line "A,B,C,D,E,F,G"]\n[Variant "shark"]\n[Shark "J"]\n', 1, id="shark-7"),
    pytest.param(
        '[Line "A, B, C, D, E"]\n[Variant "three-player"]\n[Automaton "E"]\n',
        1,
        id="three-player-5",
    ),
    pytest.param(
        '[Line "A, B, C, D"]\n[Variant "three-player"]\n', 1, id="three-player-no-automaton"
    ),
    pytest.param(
        '[Line "A, B, C, D"]\n[Variant "three-player"]\n[Automaton "Z"]\n',
        3,
        id="automaton-not-in-line",
    ),
    pytest.param('[Line "A, B, C, D"]\n[Automaton "D"]\n', 2, id="automaton-in-standard"),
    pytest.param('[Line "A, B, C, D"]\n[Variant "two-player"]\n', 1, id="two-player-no-teams"),
    pytest.param(
        '[Line "A, B, C, D"]\n[Variant "two-player"]\n[Teams "P: A, B, C; Q: D"]\n',
        3,
        id="two-player-3-and-1",
    ),
    pytest.param(
        '[Line "A, B, C, D"]\n[Variant "two-player"]\n[Teams "P: A, B; Q: C, Z"]\n',
        3,
        id="two-player-unknown-swimmer",
    ),
    pytest.param(
        '[Line "A, B, C, D"]\n[Variant "two-player"]\n[Teams "P: A, B; Q: C, D; R: E, F"]\n',
        3,
        id="two-player-3-teams",
    ),
    pytest.param('[Line "A, B, C, D, E, F"]\n[Variant "two-player"]\n', 1, id="two-player-6"),
    pytest.param('[Line "A, B, C, D"]\n[Teams "P: A, B; Q: C, D"]\n', 2, id="teams-in-standard"),
    pytest.param('[Line "A, B, C, D"]\n[Variant "shark"]\n', 1, id="shark-no-shark-tag"),
    pytest.param(
        '[Line "A, B, C, D"]\n[Variant "shark"]\n[Shark "a"]\n', 3, id="shark-is-a-swimmer"
    ),
    pytest.param('[Line "A, B, C, D"]\n[Shark "Jaws"]\n', 2, id="shark-tag-in-standard"),
    pytest.param('[Line "A, B, C, D"]\n[Variant "solo"]\n', 2, id="unknown-variant"),
]


def test_r2_a_teams_tag_naming_a_stranger_is_one_error_saying_so() -> None:
    report = check('[Line "A, B, C, D"]\n[Variant "two-player"]\n[Teams "P: A, B; Q: C, Z"]\n')
    [error] = report.violations
    assert (error.code, error.round, error.pos.line) == ("bad-setup", None, 3)
    assert error.message == "Teams gives Q the swimmer 'Z', who is not in the Line (R2)"


@pytest.mark.parametrize(("text", "line"), _SETUP_ERRORS)
def test_r2_setup_errors_are_reported_before_round_1_at_the_tag(text: str, line: int) -> None:
    report = check(text + "1. A 1, B 1, C 1, D 1\n")
    assert report.violations, "a set-up R2 does not allow must be reported"
    assert {(v.code, v.round, v.pos.line) for v in report.violations} == {("bad-setup", None, line)}
    assert all(v.rule == "R2" for v in report.violations)
    assert not report.finished


def test_r2_missing_line_tag() -> None:
    report = check('[Event "x"]\n1. A 1, B 2, C 3, D 4\n')
    assert found(report) == [("missing-line", None, 1)]


def test_r2_names_must_differ_ignoring_case() -> None:
    report = check('[Line "Ann, Bob, ann, Cid"]\n')
    assert found(report) == [("duplicate-name", None, 1)]


@pytest.mark.parametrize(
    "tags",
    [
        '[Line "A, B, C, D"]',
        '[Line "A, B, C, D, E, F"]',
        '[Line "A, B, C, D"]\n[Variant "three-player"]\n[Automaton "D"]',
        '[Line "A, B, C, D"]\n[Variant "two-player"]\n[Teams "P: A, C; Q: B, D"]',
        '[Line "A, B, C, D, E, F"]\n[Variant "shark"]\n[Shark "Jaws"]',
        '[Line "A, B, C, D"]\n[Variant "Shark"]\n[Shark "Jaws"]\n[Memory "on"]',
    ],
)
def test_r2_legal_setups_are_clean(tags: str) -> None:
    assert_clean(check(tags + "\n"))


def test_r2_shark_holds_one_hunger_token_per_swimmer() -> None:
    report = check('[Line "A, B, C, D, E"]\n[Variant "shark"]\n[Shark "Jaws"]\n')
    assert report.state.shark.hunger == 5
    assert report.state.shark.hand == ALL_SHARK


# -- R3 what is in the hand ----------------------------------------------------------


def test_r3_a_card_on_the_table_cannot_be_played_again() -> None:
    # A played 1 in round 1 and was not bitten (D was): the 1 is on the table.
    report = check(
        """
        [Line "A, B, C, D"]
        1. A 1, B 2, C 3, D 4
        2. A 1, B 3, C 4, D 5
        """
    )
    assert found(report) == [("card-not-in-hand", 2, 3)]
    assert report.violations[0].pos.column == 4
    assert "round 1" in report.violations[0].message


def test_r3_a_card_taken_back_can_be_played_again() -> None:
    # R1: D, C, B, A. R2: B, C, D tie on 1, A (2) moves: A, D, C, B; B bitten
    # (right arm), to the front with 2 and 1: B, A, D, C.
    # R3: B plays its 2 again (legal), D and C tie with it; A (3) moves:
    # A, B, D, C; C bitten (right arm): C, A, B, D.
    report = check(
        """
        [Line "A, B, C, D"]
        1. A 1, B 2, C 3, D 4
        2. A 2, B 1, C 1, D 1 ; bit B ; line B, A, D, C
        3. B 2, A 3, D 2, C 2 ; bit C ; line C, A, B, D
        """
    )
    assert_clean(report)
    assert report.state.line == ("C", "A", "B", "D")
    assert report.state.limbs() == {"A": 4, "B": 3, "C": 3, "D": 4}
    assert report.state.swimmer("A").hand == {4, 5}
    assert report.state.swimmer("C").hand == {1, 2, 3, 4, 5}


@pytest.mark.parametrize("card", ["0", "8", "9"])
def test_r3_values_outside_one_to_seven(card: str) -> None:
    report = check(f'[Line "A, B, C, D, E, F"]\n1. A {card}, B 1, C 2, D 3, E 4, F 5\n')
    assert found(report) == [("card-not-in-hand", 1, 2)]


def test_r3_every_swimmer_plays_exactly_one_card() -> None:
    report = check(
        """
        [Line "A, B, C, D"]
        1. A 1, B 2, C 3
        2. A 2, B 3, C 4, D 1, D 2
        """
    )
    assert found(report) == [("missing-play", 1, 2), ("duplicate-play", 2, 3)]


# -- R5 no bite in round 1 -----------------------------------------------------------


@pytest.mark.parametrize(
    "tags",
    [
        '[Line "A, B, C, D"]',
        '[Line "A, B, C, D"]\n[Variant "three-player"]\n[Automaton "D"]',
        '[Line "A, B, C, D"]\n[Variant "two-player"]\n[Teams "P: A, B; Q: C, D"]',
        '[Line "A, B, C, D"]\n[Variant "shark"]\n[Shark "Jaws"]',
    ],
)
def test_r5_nobody_is_bitten_in_round_1(tags: str) -> None:
    # A 1, B 2, C 3, D 4: D, C, B, A and A at the back keeps its four limbs.
    report = check(tags + "\n1. A 1, B 2, C 3, D 4 ; line D, C, B, A\n")
    assert_clean(report)
    assert report.state.line == ("D", "C", "B", "A")
    assert set(report.state.limbs().values()) == {4}


def test_r5_a_bite_recorded_in_round_1_is_wrong() -> None:
    report = check(
        """
        [Line "A, B, C, D"]
        1. A 1, B 2, C 3, D 4 ; bit A
        """
    )
    assert found(report) == [("wrong-bite", 1, 2)]
    assert report.violations[0].rule == "R5"
    assert report.state.limbs()["A"] == 3  # as recorded: A was bitten


def test_r5_a_shark_card_in_round_1_is_an_error() -> None:
    report = check(
        """
        [Line "A, B, C, D"]
        [Variant "shark"]
        [Shark "Jaws"]
        1. A 1, B 2, C 3, D 4, Jaws right-arm
        """
    )
    assert found(report) == [("shark-round-1", 1, 4)]
    # the card was played, against the rules: it lies on the Shark's table
    assert report.state.shark.hand == ALL_SHARK - {"right-arm"}
    assert report.state.shark.table == ("right-arm",)


def test_r5_the_shark_must_play_from_round_2() -> None:
    report = check(
        """
        [Line "A, B, C, D"]
        [Variant "shark"]
        [Shark "Jaws"]
        1. A 1, B 1, C 1, D 1
        2. A 2, B 2, C 2, D 2
        """
    )
    assert found(report) == [("missing-play", 2, 5)]


# -- R6 the bite -----------------------------------------------------------------------

# Five swimmers (hands 1-6), A starts at the back.
# R1: all tie on 1: B, C, D, E, A.
# R2: all tie on 2: A bitten (right arm), front, takes 1, 2 back: A, B, C, D, E.
# R3: A 1 is the lowest unique, the others move after it: E, D, C, B, A; A
#     bitten (left arm): A, E, D, C, B.  B {4,5,6} C {3,5,6} D {3,4,6} E {3,4,5}.
# R4: order A1 E3 B4 C5 D6: D, C, B, E, A; A bitten (right leg): A, D, C, B, E.
#     B {5,6} C {3,6} D {3,4} E {4,5}.
# R5: order A1 C3 D4 E5 B6: B, E, D, C, A; the fourth bite (left leg) devours A:
#     off the line, B, E, D, C; four left, the game goes on. B, C, D, E hold
#     one card each and take their played cards back (R7).
R6_RECORD = """\
[Line "B, C, D, E, A"]

1. B 1, C 1, D 1, E 1, A 1
2. B 2, C 2, D 2, E 2, A 2 ; bit A right-arm ; line A, B, C, D, E
3. A 1, B 3, C 4, D 5, E 6 ; bit A left-arm ; line A, E, D, C, B
4. A 1, B 4, C 5, D 6, E 3 ; bit A right-leg ; line A, D, C, B, E
5. A 1, B 6, C 3, D 4, E 5 ; bit A left-leg ; out A ; refresh B, C, D, E ; line B, E, D, C
"""


def test_r6_the_fourth_bite_devours() -> None:
    report = check(R6_RECORD)
    assert_clean(report)
    assert report.state.line == ("B", "E", "D", "C")
    assert report.state.limbs() == {"A": 0, "B": 4, "C": 4, "D": 4, "E": 4}
    assert report.state.devoured == ("A",)
    assert not report.finished
    for name in "BCDE":
        assert report.state.swimmer(name).hand == frozenset(range(1, 7))


def test_r6_the_same_game_with_cards_only() -> None:
    # An unstated limb is the first one left: right arm, left arm, right leg,
    # left leg: the very limbs stated above.
    text = "\n".join(line.split(" ;")[0] for line in R6_RECORD.splitlines())
    report = check(text)
    assert_clean(report)
    assert report.state.line == ("B", "E", "D", "C")
    assert report.state.limbs() == {"A": 0, "B": 4, "C": 4, "D": 4, "E": 4}
    bites = [(e.round, e.who, e.limb) for e in report.events if e.TYPE == "swimmer-bitten"]
    assert bites == [
        (2, "A", "right-arm"),
        (3, "A", "left-arm"),
        (4, "A", "right-leg"),
        (5, "A", "left-leg"),
    ]


def test_r6_the_bitten_takes_back_every_played_card_this_rounds_included() -> None:
    report = check(R6_RECORD)
    after2 = state_after_round(report, 2)
    a = after2.swimmer("A")
    assert a.hand == frozenset(range(1, 7))  # 1 (round 1) and 2 (round 2) are back
    assert a.table == ()
    assert after2.swimmer("B").hand == {3, 4, 5, 6}
    assert after2.swimmer("B").table == (1, 2)


def test_r6_a_fifth_bite_is_a_record_error() -> None:
    # Round 6: B, E, D, C all tie on 1, C at the back is bitten by the rules, not A.
    report = check(R6_RECORD + "6. B 1, C 1, D 1, E 1 ; bit A\n")
    assert found(report) == [("wrong-bite", 6, 8)]
    # the game as played: the record gives the bite to A, who is out, so C keeps its
    # limbs; the stated bite is kept in the events and changes nothing
    assert report.state.limbs()["C"] == 4
    assert [(e.who, e.round) for e in report.events if e.TYPE == "swimmer-bitten"][-1] == (
        "A", 6
    )


def test_r6_the_devoured_plays_no_more() -> None:
    report = check(R6_RECORD + "6. B 1, C 1, D 1, E 1, A 2\n")
    assert found(report) == [("not-in-game", 6, 8)]


def test_r6_the_devoured_is_off_the_line() -> None:
    text = R6_RECORD.replace("line B, E, D, C", "line B, E, D, C, A")
    report = check(text)
    assert found(report) == [("wrong-line", 5, 7)]


def test_r6_the_bite_lands_on_the_swimmer_at_the_back() -> None:
    # Round 2 of the GBN example: Ted is at the back after movement, not Anne.
    text = GBN_FIRST_EXAMPLE.replace("bit Ted ; line Ted, Beth, John, Anne", "bit Anne")
    report = check(text)
    assert found(report) == [("wrong-bite", 2, 7)]
    # the game as played: Anne was bitten; round 3 (no outcomes stated) goes on from
    # there: Anne and Beth tie on 3, Ted and John move, Beth is at the back
    assert report.state.limbs() == {"John": 4, "Anne": 3, "Beth": 3, "Ted": 4}
    assert report.state.line == ("Beth", "John", "Ted", "Anne")


def test_r6_a_bitten_swimmer_may_lose_the_limb_it_chooses() -> None:
    text = GBN_FIRST_EXAMPLE.replace("bit Ted ;", "bit Ted left-leg ;")
    report = check(text)
    assert_clean(report)
    assert report.state.swimmer("Ted").limbs == ("right-arm", "left-arm", "right-leg")


def test_r6_a_limb_already_lost_cannot_be_bitten() -> None:
    # A lost its right arm in round 2; round 3 states it again.
    text = R6_RECORD.replace("bit A left-arm", "bit A right-arm")
    report = check(text)
    assert found(report) == [("wrong-limb", 3, 5)]
    # the game goes on as the rules say: the first limb left, the left arm
    assert report.state.limbs()["A"] == 0


def test_r6_a_bite_stated_twice_is_one_duplicate_and_the_first_stands() -> None:
    # The first "bit Ted left-leg" is the statement checked (and true: Ted is
    # at the back and may lose the limb he chooses); the second is a duplicate.
    # Nothing else is wrong: Ted did have his left leg.
    text = GBN_FIRST_EXAMPLE.replace("bit Ted ;", "bit Ted left-leg ; bit Ted right-arm ;")
    report = check(text)
    assert found(report) == [("duplicate-outcome", 2, 7)]
    assert report.state.swimmer("Ted").limbs == ("right-arm", "left-arm", "right-leg")


def test_r6_the_devoured_takes_nothing_back() -> None:
    # R6: on its last limb A is devoured, "otherwise" it would take its cards
    # back. GBN lets a record leave a bitten swimmer out of refresh, but A took
    # nothing back: listing it is a false take-back (R6, R7).
    report = check(R6_RECORD.replace("refresh B, C, D, E", "refresh A, B, C, D, E"))
    assert found(report) == [("wrong-refresh", 5, 7)]


def test_r6_the_same_out_stated_twice_is_a_duplicate() -> None:
    # "out" may be stated for two swimmers in one round (a bite-devouring and
    # the R8 end), but the same swimmer twice is one outcome stated twice.
    report = check(R6_RECORD.replace("out A ;", "out A ; out A ;"))
    assert found(report) == [("duplicate-outcome", 5, 7)]


def test_r6_out_for_a_swimmer_still_in_is_wrong() -> None:
    text = R6_RECORD.replace("bit A right-leg ;", "bit A right-leg ; out A ;")
    report = check(text)
    # the game as played: A is out (so the line stated with A in it is wrong too), and
    # round 5, written as if A were still in, is checked against that game
    assert found(report)[:2] == [("wrong-out", 4, 6), ("wrong-line", 4, 6)]
    assert ("not-in-game", 5, 7) in found(report)


# -- R7 take back ----------------------------------------------------------------------

# Four swimmers, every round all tie: the back one is bitten and goes to the front.
# R1 all 1: A, B, C, D.  R2 all 2: D bitten: D, A, B, C.  R3 all 3: C bitten:
# C, D, A, B.  R4 all 4: B bitten: B, C, D, A; A has played 1, 2, 3, 4 and holds
# only its 5: it takes them back (R7).  R5: B, C, D tie on 5, A (1, taken back)
# moves: A, B, C, D; D bitten (its second limb): D, A, B, C.
R7_RECORD = """\
[Line "A, B, C, D"]

1. A 1, B 1, C 1, D 1
2. A 2, B 2, C 2, D 2 ; bit D ; line D, A, B, C
3. A 3, B 3, C 3, D 3 ; bit C ; line C, D, A, B
4. A 4, B 4, C 4, D 4 ; bit B ; refresh A ; line B, C, D, A
5. A 1, B 5, C 5, D 5 ; bit D left-arm ; line D, A, B, C
"""


def test_r7_fewer_than_two_cards_takes_back() -> None:
    report = check(R7_RECORD)
    assert_clean(report)
    assert report.state.line == ("D", "A", "B", "C")
    assert report.state.limbs() == {"A": 4, "B": 3, "C": 3, "D": 2}
    assert report.state.swimmer("A").hand == {2, 3, 4, 5}
    assert report.state.swimmer("B").hand == {1, 2, 3, 4}
    assert report.state.swimmer("C").hand == {1, 2, 3}
    assert report.state.swimmer("D").hand == {1, 2, 3, 4, 5}


def test_r7_refresh_may_list_the_bitten_swimmer_too() -> None:
    assert_clean(check(R7_RECORD.replace("refresh A ;", "refresh A, B ;")))


def test_r7_a_false_take_back_is_reported() -> None:
    report = check(R7_RECORD.replace("refresh A ;", "refresh A, C ;"))
    assert found(report) == [("wrong-refresh", 4, 6)]


def test_r7_a_missing_take_back_is_reported() -> None:
    report = check(R7_RECORD.replace("refresh A ;", "refresh B ;"))
    # the game as played: A took nothing back, so its 1 is still on the table in round 5
    assert found(report) == [("wrong-refresh", 4, 6), ("card-not-in-hand", 5, 7)]


def test_r7_without_the_take_back_the_card_would_not_be_in_hand() -> None:
    # had A not taken its cards back, its 1 would be on the table: the rules say
    # it did, so round 5's A 1 is legal (checked above); a 1 played twice after
    # the take-back is not.
    report = check(R7_RECORD + "6. D 2, A 1, B 1, C 1\n")
    assert found(report) == [("card-not-in-hand", 6, 8)]


# Two-player game that ends with a swimmer holding one card.
# Teams P: A, B; Q: C, X.  R1 all 1: A, B, C, X.  R2 all 2: X bitten (right arm):
# X, A, B, C.  R3: A and X tie on 3; B (4), C (5) move: C, B, X, A; A bitten
# (right arm): A, C, B, X.  R4: order A1 C3 X4 B5: B, X, C, A; A bitten (left
# arm): A, B, X, C; B and C hold one card and take back.  R5: order A1 X2 B3 C4:
# C, B, X, A; A bitten (right leg): A, C, B, X.  R6: order A1 C2 B4 X5: X, B, C,
# A; A loses its last limb and is devoured: P loses, Q wins (R10). X holds only
# its 1 but takes nothing back: the round ended the game (R7).
TWO_PLAYER_RECORD = """\
[Line "A, B, C, X"]
[Variant "two-player"]
[Teams "P: A, B; Q: C, X"]

1. A 1, B 1, C 1, X 1
2. A 2, B 2, C 2, X 2 ; bit X
3. A 3, B 4, C 5, X 3 ; bit A
4. A 1, B 5, C 3, X 4 ; bit A ; refresh B, C
5. A 1, B 3, C 4, X 2 ; bit A
6. A 1, B 4, C 2, X 5 ; bit A ; out A ; line X, B, C
"""


def test_r10_two_player_ends_at_the_first_devouring() -> None:
    report = check(TWO_PLAYER_RECORD)
    assert_clean(report)
    assert report.finished
    assert report.winner == "Q"
    assert report.ranking == ("Q", "P")
    assert report.state.line == ("X", "B", "C")
    assert report.state.limbs() == {"A": 0, "B": 4, "C": 4, "X": 3}


def test_r7_nothing_is_taken_back_in_the_round_that_ends_the_game() -> None:
    report = check(TWO_PLAYER_RECORD)
    x = report.state.swimmer("X")
    assert x.hand == {1}
    assert x.table == (3, 4, 2, 5)


def test_r7_a_take_back_stated_in_the_ending_round_is_wrong() -> None:
    report = check(TWO_PLAYER_RECORD.replace("out A ;", "out A ; refresh X ;"))
    assert found(report) == [("wrong-refresh", 6, 10)]


def test_r10_winner_tag_names_the_player() -> None:
    assert_clean(check('[Winner "Q"]\n' + TWO_PLAYER_RECORD))
    report = check('[Winner "C"]\n' + TWO_PLAYER_RECORD)  # C is Q's swimmer, not a player
    assert found(report) == [("wrong-winner", None, 1)]


def test_r10_no_round_after_the_end() -> None:
    report = check(TWO_PLAYER_RECORD + "7. X 1, B 1, C 1\n")
    assert found(report) == [("round-after-end", 7, 11)]


# -- R8 the two-swimmer end ------------------------------------------------------------

# The same cards as the two-player game, now standard: after R6 A is devoured,
# X, B, C remain and X (one card) takes back (R7).
# R7: order X1 B2 C5: C, B, X; X bitten (left arm): X, C, B.  B {1,5} C {1,3}.
# R8: order X1 C3 B5: B, C, X; X bitten (right leg): X, B, C; B and C take back.
# R9: order X1 B2 C3: C, B, X; X loses its last limb: two left, C (front) wins,
#     B is devoured and ranks second; then X, then A (R8).
R8_RECORD = """\
[Line "A, B, C, X"]

1. A 1, B 1, C 1, X 1
2. A 2, B 2, C 2, X 2 ; bit X
3. A 3, B 4, C 5, X 3 ; bit A
4. A 1, B 5, C 3, X 4 ; bit A ; refresh B, C
5. A 1, B 3, C 4, X 2 ; bit A
6. A 1, B 4, C 2, X 5 ; bit A ; out A ; refresh X ; line X, B, C
7. X 1, B 2, C 5 ; bit X left-arm ; line X, C, B
8. X 1, B 5, C 3 ; bit X right-leg ; refresh B, C ; line X, B, C
9. X 1, B 2, C 3 ; bit X left-leg ; out X ; out B ; line C
"""
R8_LAST = 11  # the line of round 9


def assert_r8_end(report: GameReport) -> None:
    assert report.finished
    assert report.winner == "C"
    assert report.ranking == ("C", "B", "X", "A")
    assert report.state.line == ("C",)
    assert report.state.limbs() == {"A": 0, "B": 0, "C": 4, "X": 0}


def test_r8_front_wins_back_is_devoured_and_ranks_second() -> None:
    report = check(R8_RECORD)
    assert_clean(report)
    assert_r8_end(report)


@pytest.mark.parametrize(
    "last",
    [
        "9. X 1, B 2, C 3",
        "9. X 1, B 2, C 3 ; bit X ; out X",
        "9. X 1, B 2, C 3 ; out X ; line C",
        "9. X 1, B 2, C 3 ; out X ; out B ; line C, B",
        "9. X 1, B 2, C 3 ; bit X ; line C, B",
        "9. x 1, b 2, c 3 ; BIT x LEFT-LEG ; OUT b ; LINE c",
    ],
)
def test_r8_out_is_optional_and_line_may_name_one_or_both(last: str) -> None:
    report = check(replace_line(R8_RECORD, R8_LAST, last))
    assert_clean(report)
    assert_r8_end(report)


@pytest.mark.parametrize(
    ("last", "code"),
    [
        ("9. X 1, B 2, C 3 ; bit X ; bit B", "duplicate-outcome"),
        ("9. X 1, B 2, C 3 ; bit B", "wrong-bite"),
        ("9. X 1, B 2, C 3 ; line B, C", "wrong-line"),
        ("9. X 1, B 2, C 3 ; line C, B, X", "wrong-line"),
        ("9. X 1, B 2, C 3 ; out C", "wrong-out"),
        ("9. X 1, B 2, C 3 ; refresh B", "wrong-refresh"),
    ],
)
def test_r8_wrong_statements_about_the_last_round(last: str, code: str) -> None:
    report = check(replace_line(R8_RECORD, R8_LAST, last))
    assert found(report) == [(code, 9, R8_LAST)]
    # the game as played goes on from what the record states
    if last.endswith("3 ; bit B"):  # B, not X, was bitten: three are left, it goes on
        assert not report.finished
    elif last.endswith("; out C"):  # C was devoured: B is left with X gone, and wins
        assert (report.finished, report.winner) == (True, "B")
    else:
        assert_r8_end(report)


def test_r8_bit_for_the_two_left_devouring_is_wrong_even_with_the_bite_stated() -> None:
    # X is bitten (its last limb); B is devoured by the end, not bitten.
    report = check(replace_line(R8_RECORD, R8_LAST, "9. X 1, B 2, C 3 ; bit B left-leg"))
    assert found(report) == [("wrong-bite", 9, R8_LAST)]
    assert report.violations[0].rule == "R8"


def test_r8_no_round_is_played_after() -> None:
    report = check(R8_RECORD + "10. C 1, B 2\n")
    assert found(report) == [("round-after-end", 10, 12)]
    assert_r8_end(report)


def test_r8_the_end_does_not_wait_for_the_last_limbs() -> None:
    # B still had four limbs when it was devoured by the end
    report = check(R8_RECORD)
    before = state_after_round(report, 8)
    assert before.limbs()["B"] == 4
    ended = [e for e in report.events if e.TYPE == "game-ended"]
    assert len(ended) == 1
    assert ended[0].round == 9


# -- R9 the automated swimmer ----------------------------------------------------------


def test_r9_the_automaton_may_win() -> None:
    # the R8 game with C as the automated swimmer: C turns 1 ... and wins.
    report = check('[Variant "three-player"]\n[Automaton "C"]\n' + R8_RECORD)
    assert_clean(report)
    assert report.winner == "C"
    assert report.ranking == ("C", "B", "X", "A")


def test_r9_a_card_turned_since_the_last_reshuffle_is_an_error() -> None:
    # Beth turned 4 in round 1 and has not reshuffled (Ted was bitten).
    text = GBN_FIRST_EXAMPLE.replace("[Line", '[Variant "three-player"]\n[Automaton "Beth"]\n[Line')
    text = text.replace("2. John 3, Anne 2, Beth 5", "2. John 3, Anne 2, Beth 4")
    report = check(text)
    assert found(report) == [("automaton-repeat", 2, 9)]
    assert report.violations[0].rule == "R9"


def test_r9_the_automaton_reshuffles_when_bitten() -> None:
    # Ted (automaton) is bitten in round 2 and reshuffles: its 5 may come again.
    # R3: John and Ted tie on 5, Anne and Beth on 3: nobody moves; Anne bitten.
    text = GBN_FIRST_EXAMPLE.replace("[Line", '[Variant "three-player"]\n[Automaton "Ted"]\n[Line')
    text = text.replace("3. John 5, Anne 3, Beth 3, Ted 2", "3. John 5, Anne 3, Beth 3, Ted 5")
    report = check(text)
    assert_clean(report)
    assert report.state.line == ("Anne", "Ted", "Beth", "John")


def test_r9_the_automaton_reshuffles_when_it_holds_one_card() -> None:
    # R7_RECORD with A as the automaton: A reshuffles in round 4 and turns 1 in round 5.
    report = check('[Variant "three-player"]\n[Automaton "A"]\n' + R7_RECORD)
    assert_clean(report)
    assert report.state.line == ("D", "A", "B", "C")


# -- R11 - R14 the Shark --------------------------------------------------------------

# Four swimmers, hands 1-5, four hunger tokens.
# R1: D, C, B, A.  A {2,3,4,5} B {1,3,4,5} C {1,2,4,5} D {1,2,3,5}.
# R2 exhaustion: A and B tie on 5; C 1, D 2 move: D, C, B, A. A and B discard
#    their 5 for good; nobody loses a limb, A stays at the back, no miss.
# R3 any-limb: A and B tie on 3; D 1, C 2 move: C, D, B, A; A loses the limb it
#    chooses (left leg), to the front with 1 and 3 (not its 5): A, C, D, B.
# R4 left-leg: A, B, C tie on 4; D 3 moves: D, A, C, B; B loses its left leg,
#    to the front with 2, 3, 4: B, D, A, C; C and D hold one card: take back.
SHARK_RECORD = """\
[Line "A, B, C, D"]
[Variant "shark"]
[Shark "Jaws"]

1. A 1, B 2, C 3, D 4
2. A 5, B 5, C 1, D 2, Jaws exhaustion ; discard A 5, B 5 ; hunger 4 ; line D, C, B, A
3. A 3, B 3, C 2, D 1, Jaws any-limb ; bit A left-leg ; line A, C, D, B
4. A 4, B 4, C 4, D 3, Jaws left-leg ; bit B left-leg ; refresh C, D ; line B, D, A, C
"""


def test_r11_exhaustion_any_limb_and_a_limb_card() -> None:
    report = check(SHARK_RECORD)
    assert_clean(report)
    s = report.state
    assert s.line == ("B", "D", "A", "C")
    assert s.limbs() == {"A": 3, "B": 3, "C": 4, "D": 4}
    assert s.swimmer("A").limbs == ("right-arm", "left-arm", "right-leg")
    assert s.swimmer("B").limbs == ("right-arm", "left-arm", "right-leg")
    assert s.shark.hunger == 4
    assert s.shark.hand == {"right-leg", "right-arm", "left-arm"}
    assert s.swimmer("A").hand == {1, 2, 3}
    assert s.swimmer("B").hand == {1, 2, 3, 4}
    assert s.swimmer("A").discards == (5,)
    assert s.swimmer("B").discards == (5,)
    assert s.swimmer("C").hand == frozenset(range(1, 6))
    assert not report.finished


def test_r11_exhaustion_takes_no_limb_and_leaves_the_back_swimmer_in_place() -> None:
    after2 = state_after_round(check(SHARK_RECORD), 2)
    assert after2.line == ("D", "C", "B", "A")
    assert set(after2.limbs().values()) == {4}
    assert after2.shark.hunger == 4
    assert after2.swimmer("A").table == (1,)
    assert after2.swimmer("A").hand == {2, 3, 4}


def test_r11_a_discarded_card_never_comes_back() -> None:
    # B took its cards back when bitten in round 4, but its 5 is gone for good.
    report = check(SHARK_RECORD + "5. B 5, D 1, A 1, C 1, Jaws right-arm\n")
    assert found(report) == [("card-not-in-hand", 5, 9)]


@pytest.mark.parametrize(
    ("old", "new", "code"),
    [
        ("discard A 5, B 5 ;", "miss ;", "wrong-miss"),
        ("discard A 5, B 5 ;", "bit A ;", "wrong-bite"),
        ("discard A 5, B 5 ;", "discard A 5 ;", "wrong-discard"),
        ("discard A 5, B 5 ;", "discard A 5, B 5, C 1 ;", "wrong-discard"),
        ("hunger 4 ;", "hunger 3 ;", "wrong-hunger"),
    ],
)
def test_r11_exhaustion_misstatements(old: str, new: str, code: str) -> None:
    report = check(SHARK_RECORD.replace(old, new))
    # the game as played: a stated miss costs a token (the stated 4 is then wrong too);
    # a stated bite moves A to the front (so the stated line is wrong too)
    also = {"miss ;": [("wrong-hunger", 2, 6)], "bit A ;": [("wrong-line", 2, 6)]}
    assert found(report) == [(code, 2, 6), *also.get(new, [])]


def test_r11_a_limb_card_takes_that_limb_only() -> None:
    report = check(SHARK_RECORD.replace("bit B left-leg", "bit B right-arm"))
    assert found(report) == [("wrong-limb", 4, 8)]
    # the game as played: B lost the limb the record says
    assert report.state.swimmer("B").limbs == ("left-arm", "right-leg", "left-leg")


def test_r11_any_limb_without_a_stated_limb_is_a_warning_not_a_violation() -> None:
    report = check(SHARK_RECORD.replace("bit A left-leg", "bit A"))
    assert_clean(report)
    assert [(w.code, w.round, w.pos.line) for w in report.warnings] == [("any-limb-default", 3, 7)]
    # the first limb left is taken: the right arm
    assert report.state.swimmer("A").limbs == ("left-arm", "right-leg", "left-leg")


def test_r11_any_limb_with_a_limb_already_lost_is_a_violation_not_a_warning() -> None:
    # HUNGER_RECORD's first three rounds, then D (no right arm) at the back:
    # A, B tie on 5 and C, D on 3, nobody moves; any-limb bites D, who "chose"
    # the right arm it no longer has: a wrong limb (R6, R11). The record did
    # state a limb, so the "states no limb" warning does not apply.
    text = "\n".join(HUNGER_RECORD.splitlines()[:7])
    text += "\n4. A 5, B 5, C 3, D 3, Jaws any-limb ; bit D right-arm\n"
    report = check(text)
    assert found(report) == [("wrong-limb", 4, 8)]
    assert report.warnings == ()
    assert report.state.limbs()["D"] == 2


def test_r11_any_limb_with_no_outcome_at_all_also_warns() -> None:
    text = "\n".join(line.split(" ;")[0] for line in SHARK_RECORD.splitlines())
    report = check(text)
    assert_clean(report)
    assert [w.code for w in report.warnings] == ["any-limb-default"]


def test_r11_any_limb_without_a_tie_misses() -> None:
    # R2: A 2, B 3, C 4, D 5 all differ: D, C, B, A; any-limb misses (R12):
    # hunger 3, the Shark takes its any-limb back, A untouched at the back.
    report = check(
        """
        [Line "A, B, C, D"]
        [Variant "shark"]
        [Shark "Jaws"]
        1. A 1, B 2, C 3, D 4
        2. A 2, B 3, C 4, D 5, Jaws any-limb ; miss ; hunger 3 ; line D, C, B, A
        """
    )
    assert_clean(report)
    assert report.state.shark.hunger == 3
    assert report.state.shark.hand == ALL_SHARK
    assert report.state.shark.table == ()
    assert report.state.limbs()["A"] == 4
    assert report.state.swimmer("A").table == (1, 2)


def test_r11_exhaustion_without_a_tie_is_a_miss() -> None:
    report = check(
        """
        [Line "A, B, C, D"]
        [Variant "shark"]
        [Shark "Jaws"]
        1. A 1, B 2, C 3, D 4
        2. A 2, B 3, C 4, D 5, Jaws exhaustion ; discard A 2
        """
    )
    assert found(report) == [("wrong-discard", 2, 5)]
    assert report.state.shark.hunger == 3
    assert report.state.swimmer("A").discards == (2,)  # as recorded


# Misses and the swimmers' win.
# R1 all tie on 1: A, B, C, D.  R2 right-arm, all tie on 2: D loses its right
# arm, to the front: D, A, B, C.  R3 exhaustion, all differ (D1 A3 B4 C5):
# C, B, A, D: a miss: hunger 3, the Shark takes both cards back; D untouched.
# R4 exhaustion, all differ (D2 C3 A4 B5): B, A, C, D; miss: hunger 2; A, B, C
# hold one card and take back.  R5 exhaustion (A1 B2 C3 D4): D, C, B, A; hunger 1.
# R6 exhaustion (A2 B3 C4 D5): D, C, B, A; hunger 0: the game ends at once.
# Most limbs: A, B, C have 4, D 3; of those C is nearest the front: C wins,
# though D is at the front. Ranking C, B, A, D, then the Shark. D holds only
# its 3 and takes nothing back (R7).
HUNGER_RECORD = """\
[Line "A, B, C, D"]
[Variant "shark"]
[Shark "Jaws"]

1. A 1, B 1, C 1, D 1
2. A 2, B 2, C 2, D 2, Jaws right-arm ; bit D right-arm ; line D, A, B, C
3. A 3, B 4, C 5, D 1, Jaws exhaustion ; miss ; hunger 3 ; line C, B, A, D
4. A 4, B 5, C 3, D 2, Jaws exhaustion ; miss ; hunger 2 ; refresh A, B, C ; line B, A, C, D
5. A 1, B 2, C 3, D 4, Jaws exhaustion ; miss ; hunger 1 ; line D, C, B, A
6. A 2, B 3, C 4, D 5, Jaws exhaustion ; miss ; hunger 0 ; line D, C, B, A
"""


def test_r14_hunger_zero_most_limbs_wins_ties_to_the_front() -> None:
    report = check(HUNGER_RECORD)
    assert_clean(report)
    assert report.finished
    assert report.winner == "C"
    assert report.ranking == ("C", "B", "A", "D", "Jaws")
    assert report.state.line == ("D", "C", "B", "A")
    assert report.state.limbs() == {"A": 4, "B": 4, "C": 4, "D": 3}
    assert report.state.shark.hunger == 0
    assert report.state.swimmer("D").hand == {3}  # R7: nothing back in the last round


def test_r14_winner_tag() -> None:
    assert_clean(check('[Winner "c"]\n' + HUNGER_RECORD))
    report = check('[Winner "D"]\n' + HUNGER_RECORD)
    assert found(report) == [("wrong-winner", None, 1)]


def test_r12_a_miss_costs_a_token_and_returns_the_shark_cards() -> None:
    after3 = state_after_round(check(HUNGER_RECORD), 3)
    assert after3.shark.hunger == 3
    assert after3.shark.hand == ALL_SHARK
    assert after3.shark.table == ()
    d = after3.swimmer("D")  # at the back: loses nothing, takes nothing back
    assert d.limbs == ("left-arm", "right-leg", "left-leg")
    assert d.table == (1,)
    assert after3.line[-1] == "D"


@pytest.mark.parametrize(
    ("old", "new", "code"),
    [
        ("miss ; hunger 3 ;", "hunger 3 ;", None),  # miss may be left out
        ("miss ; hunger 3 ;", "miss ;", None),
        ("miss ; hunger 3 ;", "miss ; hunger 4 ;", "wrong-hunger"),
        ("miss ; hunger 3 ;", "bit D ; hunger 3 ;", "wrong-bite"),
        ("miss ; hunger 3 ;", "miss ; hunger 3 ; refresh D ;", "wrong-refresh"),
    ],
)
def test_r12_miss_statements(old: str, new: str, code: str | None) -> None:
    report = check(HUNGER_RECORD.replace(old, new))
    # the game as played goes on from what round 3 states: round 4, written for the
    # rules' game, then states a hunger (and a bite: a card) that game does not have
    assert found(report)[:1] == ([] if code is None else [(code, 3, 7)])
    if code in ("wrong-hunger", "wrong-bite"):
        assert ("wrong-hunger", 4, 8) in found(report)
    elif code is not None:
        assert found(report) == [(code, 3, 7)]
    assert report.winner == "C"


def test_r12_a_miss_recorded_where_the_shark_hit_is_wrong() -> None:
    report = check(HUNGER_RECORD.replace("bit D right-arm ;", "miss ;"))
    # the game as played: a miss, so D moved nowhere and kept its cards out (round 3's
    # line and cards, written for the rules' game, are checked against this one)
    assert found(report)[:2] == [("wrong-miss", 2, 6), ("wrong-line", 2, 6)]


def test_r11_a_limb_card_against_a_swimmer_without_that_limb_misses() -> None:
    # Round 4 instead: A, B tie on 5 and C, D on 3: nobody moves, D (no right
    # arm) stays at the back: right-arm misses: hunger 2. A, B, C take back.
    text = replace_line(
        HUNGER_RECORD,
        8,
        "4. A 5, B 5, C 3, D 3, Jaws right-arm ; miss ; hunger 2 ; refresh A, B, C"
        " ; line C, B, A, D",
    )
    report = check("\n".join(text.splitlines()[:8]) + "\n")
    assert_clean(report)
    assert report.state.shark.hunger == 2
    assert report.state.line == ("C", "B", "A", "D")
    assert report.state.limbs()["D"] == 3
    assert report.state.swimmer("D").table == (1, 3)


def test_r11_a_limb_card_against_a_swimmer_without_that_limb_is_no_bite() -> None:
    text = replace_line(HUNGER_RECORD, 8, "4. A 5, B 5, C 3, D 3, Jaws right-arm ; bit D left-arm")
    report = check("\n".join(text.splitlines()[:8]) + "\n")
    assert found(report) == [("wrong-bite", 4, 8)]


# R13: every round all tie, the back swimmer is bitten and goes to the front.
# R2 right-arm D, R3 left-arm C, R4 right-leg B (A holds one card: takes back),
# R5 left-leg A, R6 any-limb D (tie; D chooses its left leg). The Shark now holds
# only exhaustion: it takes its five played cards back (R13) and plays right-arm
# again in R7 against C.  Lines: D,A,B,C / C,D,A,B / B,C,D,A / A,B,C,D / D,A,B,C
# / C,D,A,B.
R13_RECORD = """\
[Line "A, B, C, D"]
[Variant "shark"]
[Shark "Jaws"]

1. A 1, B 1, C 1, D 1
2. A 2, B 2, C 2, D 2, Jaws right-arm
3. A 3, B 3, C 3, D 3, Jaws left-arm
4. A 4, B 4, C 4, D 4, Jaws right-leg ; refresh A
5. A 5, B 5, C 5, D 5, Jaws left-leg
6. A 1, B 1, C 1, D 1, Jaws any-limb ; bit D left-leg
7. A 2, B 2, C 2, D 2, Jaws right-arm ; bit C right-arm ; line C, D, A, B
"""


def test_r13_the_shark_takes_back_below_two_cards() -> None:
    report = check(R13_RECORD)
    assert_clean(report)
    s = report.state
    assert s.line == ("C", "D", "A", "B")
    assert s.limbs() == {"A": 3, "B": 3, "C": 2, "D": 2}
    assert s.swimmer("D").limbs == ("left-arm", "right-leg")
    assert s.swimmer("C").limbs == ("right-leg", "left-leg")
    assert s.shark.hand == ALL_SHARK - {"right-arm"}
    assert s.shark.table == ("right-arm",)
    assert s.shark.hunger == 4
    after6 = state_after_round(report, 6)
    assert after6.shark.hand == ALL_SHARK
    assert after6.shark.table == ()


def test_r13_a_shark_card_on_its_table_cannot_be_played() -> None:
    # Cards are facts: the right-arm is played again and takes C's right arm.
    # The Shark then never drops below two cards (it still holds left-arm and
    # exhaustion after round 6), so in round 7 its right-arm is still on the
    # table, and C, without a right arm, is missed: the rules bite nobody. The
    # record bites C, and the game goes on from that bite (the game as played), so
    # the line it states after it is the line of that game.
    report = check(R13_RECORD.replace("D 3, Jaws left-arm", "D 3, Jaws right-arm"))
    assert found(report) == [
        ("card-not-in-hand", 3, 7),
        ("card-not-in-hand", 7, 11),
        ("wrong-bite", 7, 11),
    ]
    assert report.violations[0].pos.column == 24


# R14, one swimmer left. Every round all tie on 1, 2, 3, 4, 5, 1, 2 ...: the
# back swimmer is bitten and goes to the front; the Shark plays right-arm,
# left-arm, right-leg, left-leg, any-limb, then takes them back (R13), three
# times. Backs: D C B A, D C B A, D C B A, then D (4th bite: out), C (out) -
# two swimmers remain and the game goes on (no R8 in this variant) - then B
# (out): A alone, the Shark wins. A lost left leg, right leg, left arm.
LAST_SWIMMER_RECORD = """\
[Line "A, B, C, D"]
[Variant "shark"]
[Shark "Jaws"]
[Winner "Jaws"]

1. A 1, B 1, C 1, D 1
2. A 2, B 2, C 2, D 2, Jaws right-arm
3. A 3, B 3, C 3, D 3, Jaws left-arm
4. A 4, B 4, C 4, D 4, Jaws right-leg
5. A 5, B 5, C 5, D 5, Jaws left-leg
6. A 1, B 1, C 1, D 1, Jaws any-limb ; bit D left-arm
7. A 2, B 2, C 2, D 2, Jaws right-arm ; bit C right-arm
8. A 3, B 3, C 3, D 3, Jaws left-arm ; bit B left-arm
9. A 4, B 4, C 4, D 4, Jaws right-leg ; bit A right-leg
10. A 5, B 5, C 5, D 5, Jaws left-leg ; bit D left-leg
11. A 1, B 1, C 1, D 1, Jaws any-limb ; bit C
12. A 2, B 2, C 2, D 2, Jaws right-arm ; bit B right-arm
13. A 3, B 3, C 3, D 3, Jaws left-arm ; bit A left-arm
14. A 4, B 4, C 4, D 4, Jaws right-leg ; bit D right-leg ; out D ; line A, B, C
15. A 5, B 5, C 5, Jaws left-leg ; bit C left-leg ; out C ; line A, B
16. A 1, B 1, Jaws any-limb ; bit B left-leg ; out B ; line A
"""


def test_r14_one_swimmer_left_the_shark_wins() -> None:
    report = check(LAST_SWIMMER_RECORD)
    assert_clean(report)
    assert report.finished
    assert report.winner == "Jaws"
    assert report.ranking == ("Jaws", "A", "B", "C", "D")
    assert report.state.line == ("A",)
    assert report.state.limbs() == {"A": 1, "B": 0, "C": 0, "D": 0}
    assert report.state.swimmer("A").limbs == ("right-arm",)
    assert report.state.shark.hunger == 4


def test_r11_a_left_leg_card_against_a_swimmer_with_only_a_right_leg_misses() -> None:
    # Round 14 of LAST_SWIMMER_RECORD with left-leg instead: D (right leg only)
    # is at the back after an all-tie round: a miss, hunger 3; D keeps its leg
    # and its place; the game goes on.
    text = LAST_SWIMMER_RECORD.replace('[Winner "Jaws"]\n', "")
    lines = text.splitlines()[:17]
    lines.append("14. A 4, B 4, C 4, D 4, Jaws left-leg ; miss ; hunger 3 ; line A, B, C, D")
    report = check("\n".join(lines) + "\n")
    assert_clean(report)
    assert report.state.shark.hunger == 3
    assert report.state.swimmer("D").limbs == ("right-leg",)
    assert not report.finished


def test_r14_two_swimmers_left_is_no_end_in_the_shark_variant() -> None:
    text = "\n".join(LAST_SWIMMER_RECORD.replace('[Winner "Jaws"]\n', "").splitlines()[:19])
    report = check(text + "\n")
    assert_clean(report)
    assert report.state.line == ("A", "B")
    assert not report.finished
    assert report.winner is None


def test_r14_a_swimmer_winner_tag_when_the_shark_won_is_wrong() -> None:
    report = check(LAST_SWIMMER_RECORD.replace('[Winner "Jaws"]', '[Winner "A"]'))
    assert found(report) == [("wrong-winner", None, 4)]


# -- R15 no cards left -----------------------------------------------------------------

# A and B tie in every Exhaustion and lose a card each time; misses (any-limb
# with no tie) bring the Shark's exhaustion back.
# R1 D, C, A, B.  R2 exhaustion: A, B discard 2.  R3 any-limb, no tie: miss, 3.
# R4 exhaustion: A, B discard 5; everyone holds one card: A and B take back 1 and
#    3 (never 2 or 5), C and D everything.  R5 miss, 2.  R6 exhaustion: discard 4;
#    A and B take back.  R7 miss, 1.  R8 exhaustion: discard 3; A and B own only
#    their 1 now and play it every round; C, D take back.
# R9-R12 the Shark bites A, B, A, B (A and B tie on 1 and stay behind C and D);
#    after four hits it holds one card and takes all back (R13).
# R13 exhaustion: A and B discard their 1: they own no card.
# R14 A and B play nothing, so they neither move nor tie: C 3, D 2 are the only
#    cards and differ: any-limb misses; hunger 0. C and D have four limbs, C is
#    nearer the front: C wins; then D, then B (2 limbs, nearer) and A (2 limbs).
NO_CARDS_RECORD = """\
[Line "A, B, C, D"]
[Variant "shark"]
[Shark "Jaws"]

1. A 1, B 1, C 2, D 3
2. A 2, B 2, C 3, D 4, Jaws exhaustion ; discard A 2, B 2
3. A 3, B 4, C 5, D 1, Jaws any-limb ; miss ; hunger 3
4. A 5, B 5, C 1, D 2, Jaws exhaustion ; discard A 5, B 5 ; refresh A, B, C, D
5. A 1, B 3, C 2, D 4, Jaws any-limb ; miss ; hunger 2
6. A 4, B 4, C 1, D 2, Jaws exhaustion ; discard A 4, B 4 ; refresh A, B
7. A 1, B 3, C 4, D 5, Jaws any-limb ; miss ; hunger 1 ; refresh A, B
8. A 3, B 3, C 5, D 1, Jaws exhaustion ; discard A 3, B 3 ; refresh C, D
9. A 1, B 1, C 2, D 3, Jaws right-arm ; bit A right-arm ; refresh B
10. A 1, B 1, C 3, D 2, Jaws left-arm ; bit B left-arm ; refresh A
11. A 1, B 1, C 4, D 5, Jaws right-leg ; bit A right-leg ; refresh B
12. A 1, B 1, C 5, D 4, Jaws left-leg ; bit B left-leg ; refresh A, C, D
13. A 1, B 1, C 2, D 3, Jaws exhaustion ; discard A 1, B 1 ; line D, C, B, A
14. A -, B -, C 3, D 2, Jaws any-limb ; miss ; hunger 0 ; line C, D, B, A
"""


def test_r15_a_swimmer_without_cards_plays_none_and_neither_moves_nor_ties() -> None:
    report = check(NO_CARDS_RECORD)
    assert_clean(report)
    assert report.finished
    assert report.winner == "C"
    assert report.ranking == ("C", "D", "B", "A", "Jaws")
    assert report.state.line == ("C", "D", "B", "A")
    assert report.state.limbs() == {"A": 2, "B": 2, "C": 4, "D": 4}
    assert report.state.shark.hunger == 0
    assert report.state.swimmer("A").hand == frozenset()
    assert sorted(report.state.swimmer("A").discards) == [1, 2, 3, 4, 5]


def test_r15_discarded_cards_are_not_taken_back() -> None:
    after4 = state_after_round(check(NO_CARDS_RECORD), 4)
    assert after4.swimmer("A").hand == {1, 3, 4}
    assert after4.swimmer("B").hand == {1, 3, 4}
    assert after4.swimmer("C").hand == frozenset(range(1, 6))


def test_r7_a_swimmer_whose_only_played_card_is_discarded_may_be_listed_or_not() -> None:
    # Round 13: A and B play their last cards, which Exhaustion discards (R11). They
    # hold no card, so R7 reaches them, but they have nothing to take back
    listed = NO_CARDS_RECORD.replace("discard A 1, B 1 ;", "discard A 1, B 1 ; refresh A, B ;")
    assert listed != NO_CARDS_RECORD
    assert_clean(check(listed))
    # C holds cards: listing it is still wrong
    with_c = NO_CARDS_RECORD.replace("discard A 1, B 1 ;", "discard A 1, B 1 ; refresh A, C ;")
    assert found(check(with_c)) == [("wrong-refresh", 13, 17)]


def test_gbn_refresh_lists_swimmers_never_the_shark() -> None:
    # Round 12: the Shark, down to one card, takes its cards back (R13), but GBN's
    # refresh lists the swimmers that take theirs back under R7 only
    took = NO_CARDS_RECORD.replace("refresh A, C, D\n", "refresh A, C, D, Jaws\n")
    assert took != NO_CARDS_RECORD
    report = check(took)
    assert found(report) == [("wrong-refresh", 12, 16)]
    assert "the Shark Jaws is not a swimmer" in report.violations[0].message
    # Round 11: the Shark takes nothing back: the same error, once
    kept = NO_CARDS_RECORD.replace("right-leg ; refresh B", "right-leg ; refresh B, jaws")
    assert found(check(kept)) == [("wrong-refresh", 11, 15)]


def test_r15_a_discarded_last_card_cannot_be_played() -> None:
    # the card is still played (a fact): A 1 moves A, so the stated line is wrong too
    report = check(NO_CARDS_RECORD.replace("14. A -,", "14. A 1,"))
    assert found(report) == [("card-not-in-hand", 14, 18), ("wrong-line", 14, 18)]


def test_r12_a_missed_swimmer_still_takes_back_under_r7() -> None:
    # Round 7 of NO_CARDS_RECORD: any-limb misses A at the back. R12 spares A the
    # bite's take-back, but R7 is its own step: A holds only its 3 and takes its
    # 1 back (seed 000: "Refreshing Your Hand" follows the Get Bit! phase).
    after7 = state_after_round(check(NO_CARDS_RECORD), 7)
    assert after7.line[-1] == "A"
    assert after7.swimmer("A").hand == {1, 3}
    assert after7.swimmer("A").table == ()
    assert after7.shark.hunger == 1


def test_r15_no_card_while_holding_cards_is_an_error() -> None:
    # C then plays nothing: only D moves (D, C, B, A), so the stated line is wrong too
    report = check(NO_CARDS_RECORD.replace("C 3, D 2, Jaws any-limb", "C -, D 2, Jaws any-limb"))
    assert found(report) == [("no-card-claimed", 14, 18), ("wrong-line", 14, 18)]
    assert report.state.line == ("C", "D", "B", "A")  # the line as the record states it


def test_r15_no_card_in_round_1_is_an_error_and_the_swimmer_stays() -> None:
    # A records no card: it neither moves nor ties. B 1, C 2, D 3 move: D, C, B, A.
    report = check(
        """
        [Line "A, B, C, D"]
        1. A -, B 1, C 2, D 3
        """
    )
    assert found(report) == [("no-card-claimed", 1, 2)]
    assert report.violations[0].pos.column == 4
    assert report.state.line == ("D", "C", "B", "A")


# -- R16 memory ------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [GBN_FIRST_EXAMPLE, R8_RECORD, NO_CARDS_RECORD, HUNGER_RECORD, R7_RECORD + "6. D 2, A 1\n"],
)
def test_r16_memory_checks_the_same_rules(text: str) -> None:
    plain = check(text)
    memory = check('[Memory "on"]\n' + text)
    assert [(v.code, v.round, v.pos.line + 1) for v in plain.violations] == found(memory)
    assert memory.state.setup.memory is True
    assert memory.state.line == plain.state.line
    assert memory.state.limbs() == plain.state.limbs()
    assert memory.winner == plain.winner
    assert memory.ranking == plain.ranking
    for a, b in zip(memory.state.swimmers, plain.state.swimmers, strict=True):
        assert (a.hand, a.table, a.discards) == (b.hand, b.table, b.discards)


def test_r16_memory_tag_values() -> None:
    report = check('[Line "A, B, C, D"]\n[Memory "maybe"]\n')
    assert found(report) == [("bad-tag-value", None, 2)]


# -- R17 the recorded winner and the end ---------------------------------------------


def test_r17_an_unfinished_record_is_not_wrong() -> None:
    report = check(GBN_FIRST_EXAMPLE)
    assert report.valid
    assert not report.finished


def test_r17_a_winner_on_an_unfinished_record_is_wrong() -> None:
    report = check('[Winner "Anne"]\n' + GBN_FIRST_EXAMPLE)
    assert found(report) == [("wrong-winner", None, 1)]
    assert report.violations[0].rule == "R17"


def test_r17_a_wrong_winner() -> None:
    report = check('[Winner "B"]\n' + R8_RECORD)
    assert found(report) == [("wrong-winner", None, 1)]
    assert report.winner == "C"


def test_r17_the_right_winner_any_case() -> None:
    assert_clean(check('[Winner "c"]\n' + R8_RECORD))


def test_r17_rounds_after_the_end_are_each_reported() -> None:
    report = check(R8_RECORD + "10. C 1, B 2\n11. C 2\n")
    assert found(report) == [("round-after-end", 10, 12), ("round-after-end", 11, 13)]


def test_a_report_prints_in_either_build() -> None:
    # a report's repr shows each round's settlement by its fields' names; the
    # compiled build's Settlement has no __slots__ to read them from, and once
    # failed there (printing a report an import left out)
    from getbit_events.rules import Settlement

    shown = repr(Settlement(("Ann",), (), "Bob", 0))
    assert shown.startswith("Settlement(moved=('Ann',), steps=[], tied=(), back='Bob'")
    assert "ended=False" in shown
    report = validate_game(read_gbn('[Line "A, B, C, D"]\n\n1. A 1, B 2, C 3, D 4\n')[0])
    assert "Settlement(" in repr(report)
