"""GBN (docs/gbn.md): one record per construct of the format, each with its exact reading."""

from __future__ import annotations

from pathlib import Path

import pytest

from getbit_events.steps import (
    Bitten,
    Devoured,
    Discarded,
    Ended,
    HungerLeft,
    Moved,
    SharkTookBack,
    TookBack,
)
from getbit_events.validate import GameReport, validate_game
from importers.gbn import outcome_text, read_gbn, read_gbn_file


def games(text: str) -> list[GameReport]:
    return [validate_game(g) for g in read_gbn(text, "g.gbn")]


def one(text: str) -> GameReport:
    reports = games(text)
    assert len(reports) == 1
    return reports[0]


def found(report: GameReport) -> list[tuple[str, int | None, int, int]]:
    """(code, round, line, column) of every violation."""
    return [(v.code, v.round, v.pos.line, v.pos.column) for v in report.violations]


EXAMPLE = """\
[Line "John, Anne, Beth, Ted"]
1. John 4, Anne 1, Beth 4, Ted 5
2. John 3, Anne 2, Beth 5, Ted 1 ; bit Ted ; line Ted, Beth, John, Anne
"""
EXAMPLE_LINE = ("Ted", "Beth", "John", "Anne")


# -- file ------------------------------------------------------------------------


def test_comments_anywhere_but_inside_a_tag_value() -> None:
    # the trailing "; bit Ted" of round 1 is inside a comment: were it read, it
    # would be a wrong bite (R5)
    report = one(
        """\
# a comment line
[Event "Table #2"]   # a comment after a tag
   # an indented comment

[Line "John, Anne, Beth, Ted"]
1. John 4, Anne 1, Beth 4, Ted 5 # ; bit Ted
2. John 3, Anne 2, Beth 5, Ted 1 ; bit Ted # ; line Anne
"""
    )
    assert report.violations == ()
    assert report.state.line == EXAMPLE_LINE
    assert dict(report.events[0].tags) == {"Event": "Table #2"}
    assert report.record.pos.line == 2  # the game starts at its first tag


def test_byte_order_mark_is_ignored(tmp_path: Path) -> None:
    report = one("\ufeff" + EXAMPLE)
    assert report.violations == ()
    assert report.state.line == EXAMPLE_LINE
    path = tmp_path / "bom.gbn"
    path.write_bytes(b"\xef\xbb\xbf" + EXAMPLE.encode())
    [game] = read_gbn_file(path)
    assert validate_game(game).state.line == EXAMPLE_LINE
    assert game.tags[0].name == "Line"


def test_crlf_line_ends_read_the_same() -> None:
    lf = read_gbn(EXAMPLE, "g.gbn")
    crlf = read_gbn(EXAMPLE.replace("\n", "\r\n"), "g.gbn")
    assert crlf == lf
    bad = '[Line "A, B, C, D"]\r\n1. A 1, B x, C 3, D 4\r\n'
    [report] = games(bad)
    assert found(report) == [("syntax", 1, 2, 11)]


def test_blank_lines_do_not_split_games() -> None:
    report = one('\n\n[Event "x"]\n\n[Line "A, B, C, D"]\n\n1. A 1, B 2, C 3, D 4\n\n')
    assert report.violations == ()
    assert report.state.line == ("D", "C", "B", "A")


def test_names_and_keywords_ignore_case_and_print_as_in_line() -> None:
    report = one(
        """\
[line "John, Anne, Beth, Ted"]
[VARIANT "Standard"]
[memory "OFF"]
1. JOHN 4, anne 1, BeTh 4, ted 5 ; LINE ted, ANNE, john, BETH
2. john 3, ANNE 2, beth 5, TED 1 ; BIT ted RIGHT-ARM ; Line TED, beth, john, anne
"""
    )
    assert report.violations == ()
    assert report.state.line == EXAMPLE_LINE
    assert report.state.swimmer("Ted").limbs == ("left-arm", "right-leg", "left-leg")
    assert report.events[0].variant == "standard"


def test_shark_cards_and_shark_keywords_ignore_case() -> None:
    report = one(
        """\
[Line "A, B, C, D"]
[Variant "SHARK"]
[Shark "Jaws"]
1. a 1, b 2, c 3, d 4
2. A 2, B 3, C 4, D 5, JAWS Any-Limb ; MISS ; HUNGER 3 ; Line d, c, b, a
"""
    )
    assert report.violations == ()
    assert report.state.shark.hunger == 3
    assert report.state.line == ("D", "C", "B", "A")


def test_names_may_hold_spaces_and_unicode() -> None:
    report = one(
        """\
[Line "Mary Ann, Zoë, O'Brien, Jean-Luc"]
1. Mary Ann 1, Zoë 2, O'Brien 3, Jean-Luc 4 ; line Jean-Luc, O'Brien, Zoë, Mary Ann
2. Mary Ann 2, Zoë 3, O'Brien 4, Jean-Luc 5 ; bit Mary Ann left-leg
"""
    )
    assert report.violations == ()
    assert report.state.line == ("Mary Ann", "Jean-Luc", "O'Brien", "Zoë")
    assert report.state.swimmer("Mary Ann").limbs == ("right-arm", "left-arm", "right-leg")


@pytest.mark.parametrize(
    "line", ['"A, B:C, D, E"', '"A, , C, D"', '"A, B#C, D, E"', '"A, B; C, D"']
)
def test_names_cannot_hold_separators(line: str) -> None:
    report = one(f"[Line {line}]\n")
    assert [(v.code, v.round, v.pos.line) for v in report.violations] == [("bad-name", None, 1)]


# -- tags --------------------------------------------------------------------------


def test_escaped_quote_and_backslash_in_a_tag_value() -> None:
    report = one('[Event "The \\"Big\\" one \\\\ 2"]\n' + EXAMPLE)
    assert report.violations == ()
    assert dict(report.events[0].tags) == {"Event": 'The "Big" one \\ 2'}


def test_a_backslash_before_any_other_character_is_kept() -> None:
    # GBN: inside the quotes \" is a quote and \\ a backslash; nothing else is an escape
    text = '[Event "a \\n b"]\n[Line "A, O\'Brien \\ x, C, D"]\n1. A 1, O\'Brien \\ x 2, C 3, D 4\n'
    report = one(text)
    assert report.violations == ()
    assert dict(report.events[0].tags) == {"Event": "a \\n b"}
    assert report.events[0].line == ("A", "O'Brien \\ x", "C", "D")


@pytest.mark.parametrize(
    ("tag", "column", "expected"),
    [
        ('[Event "x" ] junk', 14, "expected the end of the line after the tag, not 'junk'"),
        ('[Event "a" "b"]', 12, "expected ']' after the tag's value"),
        ('[Event "a"]]', 12, "expected the end of the line after the tag, not ']'"),
        ("[Event x]", 8, "expected the tag's value in double quotes"),
        ("[Event]", 7, "expected the tag's value in double quotes"),
        ('[Event "oops]', 14, "the value has no closing quote"),
        ('[Event "a\\"]', 13, "the value has no closing quote"),
        ('[Line"A, B"]', 6, "expected a space between the tag name and its value"),
        ('[ 9x "a"]', 3, "expected a tag name"),
        ('  [Event "a" "b"]', 14, "expected ']' after the tag's value"),
    ],
)
def test_a_broken_tag_is_named_where_it_goes_wrong(tag: str, column: int, expected: str) -> None:
    report = one(f'{tag}\n[Line "A, B, C, D"]\n')
    [error] = report.violations
    assert (error.code, error.round, error.pos.line) == ("syntax", None, 1)
    assert error.pos.column == column
    assert error.message.startswith(expected)


def test_unknown_tags_are_kept_in_order() -> None:
    report = one(
        '[Event "Club"]\n[Site "Town hall"]\n[Date "2026-11-20"]\n[Table "2"]\n'
        '[Notes "Ted; late"]\n' + EXAMPLE
    )
    assert report.violations == ()
    assert report.events[0].tags == (
        ("Event", "Club"),
        ("Site", "Town hall"),
        ("Date", "2026-11-20"),
        ("Table", "2"),
        ("Notes", "Ted; late"),
    )


@pytest.mark.parametrize(
    "extra",
    ['[Line "A, B, C, D"]', '[line "A, B, C, D"]', '[Variant "standard"]', '[Winner "Ted"]'],
)
def test_a_known_tag_twice_is_an_error(extra: str) -> None:
    text = '[Line "A, B, C, D"]\n[Variant "standard"]\n[Winner "Ted"]\n' + extra + "\n"
    report = one(text)
    assert ("duplicate-tag", None, 4, 1) in found(report)
    assert {v.code for v in report.violations} <= {"duplicate-tag", "wrong-winner"}


def test_an_unknown_tag_twice_is_kept_twice() -> None:
    report = one('[Note "a"]\n[Note "b"]\n' + EXAMPLE)
    assert report.violations == ()
    assert report.events[0].tags == (("Note", "a"), ("Note", "b"))


# -- games -------------------------------------------------------------------------

THREE_GAMES = """\
# three games, no blank lines: a tag after a round starts the next game
[Line "A, B, C, D"]
1. A 1, B 2, C 3, D 4
[Line "A, B, C, D"]
1. A 1, B two, C 3, D 4
2. A 2, B 3, C 4, D 5
[Event "third"]
[Line "John, Anne, Beth, Ted"]
1. John 4, Anne 1, Beth 4, Ted 5
"""


def test_many_games_and_a_syntax_error_spoils_only_its_own() -> None:
    first, second, third = games(THREE_GAMES)
    assert [r.game for r in (first, second, third)] == [1, 2, 3]
    assert [r.record.pos.line for r in (first, second, third)] == [2, 4, 7]
    assert first.valid
    assert first.state.line == ("D", "C", "B", "A")
    # "1. A 1, B two": the card of B is column 11 of line 5, in round 1
    assert found(second) == [("syntax", 1, 5, 11)]
    assert not second.readable
    assert second.state is None
    assert "two" in second.violations[0].message
    assert third.valid
    assert third.state.line == ("Ted", "Anne", "John", "Beth")
    assert dict(third.events[0].tags) == {"Event": "third"}


@pytest.mark.parametrize(
    ("bad", "where"),
    [
        # a play without a card: "Anne" starts at column 12
        ("1. John 4, Anne, Beth 4, Ted 5", (1, 12)),
        # a card that is no card: "x4" at column 17
        ("1. John 4, Anne x4, Beth 4, Ted 5", (1, 17)),
        # an unknown outcome: "bite" at column 36
        ("1. John 4, Anne 1, Beth 4, Ted 5 ; bite Ted", (1, 36)),
        # outcomes with their words missing
        ("1. John 4, Anne 1, Beth 4, Ted 5 ; bit", (1, 36)),
        ("1. John 4, Anne 1, Beth 4, Ted 5 ; hunger x", (1, 36)),
        ("1. John 4, Anne 1, Beth 4, Ted 5 ; line", (1, 36)),
        ("1. John 4, Anne 1, Beth 4, Ted 5 ; discard Ted", (1, 36)),
        ("1. John 4, Anne 1, Beth 4, Ted 5 ; miss Ted", (1, 36)),
        # an empty outcome between two semicolons: column 35, after the first ";"
        ("1. John 4, Anne 1, Beth 4, Ted 5 ;; line Ted", (1, 35)),
        # indented: the play column counts the indent
        ("    1. John 4, Anne 1, Beth 4, Ted five", (1, 36)),
    ],
)
def test_syntax_errors_in_a_round_line_name_line_column_and_round(
    bad: str, where: tuple[int, int]
) -> None:
    text = (
        '[Line "John, Anne, Beth, Ted"]\n' + bad + '\n[Line "A, B, C, D"]\n1. A 1, B 2, C 3, D 4\n'
    )
    report, after = games(text)
    rnd, column = where
    assert found(report) == [("syntax", rnd, 2, column)]
    assert after.valid
    assert after.state.line == ("D", "C", "B", "A")


def test_a_syntax_error_in_round_two_has_round_two() -> None:
    text = '[Line "A, B, C, D"]\n1. A 1, B 2, C 3, D 4\n\n2. A 2, B 3, C 4, D five\n'
    assert found(one(text)) == [("syntax", 2, 4, 21)]


def test_every_syntax_error_of_a_game_is_reported_in_line_order() -> None:
    text = (
        '[Line "A, B, C, D"]\n'
        "1. A 1, B 2, C 3, D\n"  # D has no card: column 19
        "[Bad tag]\n"  # a tag line after a round: a new game
        "2. A x\n"
    )
    first, second = games(text)
    assert found(first) == [("syntax", 1, 2, 19)]
    # "[Bad tag]": the value is not quoted, at column 6
    assert found(second) == [("syntax", None, 3, 6), ("syntax", 1, 4, 6)]


def test_syntax_errors_in_tags_and_stray_lines() -> None:
    text = (
        '[Line "John, Anne]\n'  # unclosed quote
        "hello\n"
        "  oops\n"
        '[Line "A, B, C, D"]\n'
    )
    [report] = games(text)  # the tag after no round continues the same game
    assert [(v.code, v.pos.line, v.pos.column) for v in report.violations] == [
        ("syntax", 1, 19),  # where the closing quote is missing: after the end of the line
        ("syntax", 2, 1),
        ("syntax", 3, 3),
    ]
    assert report.violations[0].round is None


# -- rounds and plays --------------------------------------------------------------


def test_plays_in_any_order() -> None:
    report = one('[Line "John, Anne, Beth, Ted"]\n1. Ted 5, Beth 4, John 4, Anne 1\n')
    assert report.valid
    assert report.state.line == ("Ted", "Anne", "John", "Beth")


def test_a_play_without_any_card_is_read_as_dash() -> None:
    [game] = read_gbn('[Line "A, B, C, D"]\n1. A -, B 1, C 2, D 3\n', "g.gbn")
    plays = game.rounds[0].plays
    assert [(p.name, p.card, p.column) for p in plays] == [
        ("A", "-", 4),
        ("B", "1", 9),
        ("C", "2", 14),
        ("D", "3", 19),
    ]


def test_round_numbers_from_one_without_gaps() -> None:
    report = one(
        '[Line "A, B, C, D"]\n1. A 1, B 1, C 1, D 1\n2. A 2, B 2, C 2, D 2\n4. A 3, B 3, C 3, D 3\n'
    )
    # the third round line is numbered 4: reported with its position, round 3
    assert next((v.code, v.round, v.pos.line) for v in report.violations) == (
        "round-number",
        3,
        4,
    )
    assert {v.code for v in report.violations} == {"round-number"}
    # and it is still played as the third round: D, then C bitten
    assert report.state.limbs() == {"A": 4, "B": 4, "C": 3, "D": 3}


@pytest.mark.parametrize(
    ("numbers", "wrong"),
    [((0,), 1), ((2,), 1), ((1, 1), 2), ((1, 3), 2), ((1, 2, 2), 3)],
)
def test_round_number_errors_carry_the_position_of_the_round(
    numbers: tuple[int, ...], wrong: int
) -> None:
    rounds = [
        "1. A 1, B 1, C 1, D 1",
        "2. A 2, B 2, C 2, D 2",
        "3. A 3, B 3, C 3, D 3",
    ]
    lines = [f"{n}." + rounds[k].split(".", 1)[1] for k, n in enumerate(numbers)]
    report = one('[Line "A, B, C, D"]\n' + "\n".join(lines) + "\n")
    assert [(v.code, v.round, v.pos.line) for v in report.violations] == [
        ("round-number", wrong, wrong + 1)
    ]


@pytest.mark.parametrize(
    ("number", "found_in_first"),
    [
        # ten digits: a round line numbered wrong (R17), checked like any other
        ("1000000000. ", [("round-number", 1, 2, 1)]),
        # too long to be a number at all
        ("1" * 5000 + ". ", [("syntax", 1, 2, 1)]),
    ],
)
def test_a_round_line_with_a_bad_number_spoils_only_its_game(
    number: str, found_in_first: list[tuple[str, int, int, int]]
) -> None:
    first, second = games(
        f'[Line "A, B, C, D"]\n{number}A 2, B 3, C 4, D 5\n[Line "W, X, Y, Z"]\n'
        "1. W 1, X 1, Y 2, Z 3\n"
    )
    assert found(first) == found_in_first
    assert second.valid
    assert second.record.pos.line == 3


def test_the_round_number_may_be_spaced_and_the_plays_too() -> None:
    report = one('[Line "A, B, C, D"]\n1 .A 1 ,B   2,C 3 ,  D 4   ;line D,C,B,A\n')
    assert report.violations == ()
    assert report.state.line == ("D", "C", "B", "A")


def test_a_name_not_in_the_game() -> None:
    report = one('[Line "A, B, C, D"]\n1. A 1, B 2, C 3, Z 4\n')
    assert [(v.code, v.round, v.pos.line, v.pos.column) for v in report.violations] == [
        ("missing-play", 1, 2, 1),
        ("unknown-swimmer", 1, 2, 19),
    ]


def test_a_shark_outcome_in_another_variant() -> None:
    report = one('[Line "A, B, C, D"]\n1. A 1, B 2, C 3, D 4 ; hunger 3\n')
    assert found(report) == [("shark-only", 1, 2, 25)]


def test_a_swimmer_plays_a_shark_card_or_the_shark_a_number() -> None:
    report = one(
        '[Line "A, B, C, D"]\n[Variant "shark"]\n[Shark "Jaws"]\n'
        "1. A 1, B 2, C 3, D 4\n"
        "2. A any-limb, B 3, C 4, D 5, Jaws 3\n"
    )
    assert [(v.code, v.round, v.pos.line) for v in report.violations] == [
        ("wrong-card-kind", 2, 5),
        ("wrong-card-kind", 2, 5),
    ]


# -- outcomes ----------------------------------------------------------------------


def test_every_outcome_form_is_read() -> None:
    text = (
        '[Line "A, B, C, Mary Ann"]\n[Variant "shark"]\n[Shark "Jaws"]\n'
        "1. A 1, B 2, C 3, Mary Ann 4\n"
        "2. A 5, B 5, C 1, Mary Ann 2, Jaws exhaustion ; discard A 5, B 5 ; hunger 4 ;"
        " line Mary Ann, C, B, A\n"
        "3. A 3, B 3, C 2, Mary Ann 1, Jaws any-limb ; bit A left-leg ; refresh C\n"
        "4. A 2, B 1, C 4, Mary Ann 3, Jaws left-arm ; bit Mary Ann ; out Mary Ann ; miss\n"
    )
    [game] = read_gbn(text, "g.gbn")
    assert game.syntax_errors == ()
    r2, r3, r4 = game.rounds[1:]
    assert [(o.kind, o.names, o.limb, o.number, o.cards) for o in r2.outcomes] == [
        ("discard", (), None, None, (("A", "5"), ("B", "5"))),
        ("hunger", (), None, 4, ()),
        ("line", ("Mary Ann", "C", "B", "A"), None, None, ()),
    ]
    assert [(o.kind, o.names, o.limb) for o in r3.outcomes] == [
        ("bit", ("A",), "left-leg"),
        ("refresh", ("C",), None),
    ]
    assert [(o.kind, o.names, o.limb) for o in r4.outcomes] == [
        ("bit", ("Mary Ann",), None),
        ("out", ("Mary Ann",), None),
        ("miss", (), None),
    ]
    # the columns of the outcomes of round 3
    assert [o.column for o in r3.outcomes] == [47, 64]
    assert [(p.name, p.card) for p in r3.plays][-1] == ("Jaws", "any-limb")


def test_each_outcome_is_stated_once() -> None:
    report = one(EXAMPLE.replace("; line Ted", "; line Ted, Beth, John, Anne ; line Ted"))
    assert [(v.code, v.round, v.pos.line) for v in report.violations] == [
        ("duplicate-outcome", 2, 3)
    ]


@pytest.mark.parametrize(
    ("bad", "column"),
    [
        ("1. A 1,, B 2, C 3, D 4", 8),  # an empty play after "A 1,"
        ("1. A 1, B 2, C 3, D 4,", 23),  # an empty play after the last comma
        ("1. A 1, B 2, C 3, D 4 ;", 24),  # an empty outcome after the last ";"
    ],
)
def test_an_empty_play_or_outcome_is_a_syntax_error(bad: str, column: int) -> None:
    # docs/gbn.md: "N. PLAY, PLAY, ... [; OUTCOME ...]": every item between separators
    # is a PLAY or an OUTCOME; the reader treats ",," and a trailing ";" so, and a
    # trailing "," is the same empty item.
    report = one('[Line "A, B, C, D"]\n' + bad + "\n")
    assert found(report) == [("syntax", 1, 2, column)]


# -- the full statement of a round's outcomes (write_gbn, and the validator's first check) --


def test_a_bite_states_the_limb_and_the_bitten_swimmer_takes_back_unlisted() -> None:
    steps = [
        Bitten("Ted", "left-arm"),
        Moved("Ted", "bite"),
        TookBack("Ted", (5, 1)),  # with the bite (R6): not a refresh
        TookBack("Anne", (1, 2, 3)),  # R7
    ]
    assert outcome_text(steps, ("Ted", "Beth", "John", "Anne")) == (
        "bit Ted left-arm ; refresh Anne ; line Ted, Beth, John, Anne"
    )


def test_a_round_without_a_bite_states_only_the_line() -> None:
    assert outcome_text([], ("Ted", "Anne", "John", "Beth")) == "line Ted, Anne, John, Beth"


def test_the_last_limb_and_the_two_swimmer_end_are_outs_in_order() -> None:
    steps = [
        Bitten("Beth", "left-leg"),
        Devoured("Beth", "last-limb"),
        Devoured("John", "two-left"),
        Ended("Ted", ("Ted", "John", "Beth"), "R8"),
    ]
    assert outcome_text(steps, ("Ted",)) == "bit Beth left-leg ; out Beth ; out John ; line Ted"


def test_a_miss_states_the_hunger_left_and_not_the_sharks_take_back() -> None:
    steps = [HungerLeft(3), SharkTookBack(("left-arm", "exhaustion"))]
    assert outcome_text(steps, ("A", "B")) == "miss ; hunger 3 ; line A, B"


def test_exhaustion_states_each_discard() -> None:
    steps = [Discarded((("A", 5), ("B", 5)))]
    assert outcome_text(steps, ("C", "A", "B")) == "discard A 5, B 5 ; line C, A, B"
