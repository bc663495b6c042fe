"""A GBN file's lines and tag lines, read before anything knows which game they are in."""

from __future__ import annotations

import io

import pytest

from getbit_events.events import SourcePos
from getbit_events.limits import MAX_LINE, MAX_TEXT
from getbit_events.record import RecordedTag
from importers.gbn_lex import file_lines, holds_tag, once_name, read_tag, text_lines

AT = SourcePos("t.gbn", 3, 5)  # the tag's "[" is the line's fifth character


def test_a_tag_is_its_name_and_its_value_unescaped() -> None:
    assert read_tag(r'[Event "The \"Big\" one \\ 2"]  # a comment', AT) == RecordedTag(
        "Event", 'The "Big" one \\ 2', AT
    )


@pytest.mark.parametrize(
    ("body", "column", "says"),
    [
        ('[Event "a" "b"]', 5 + 11, "expected ']' after the tag's value"),
        ('[Line"A, B"]', 5 + 5, "expected a space between the tag name and its value"),
        ('[Event "a', 5 + 9, "the value has no closing quote"),
    ],
)
def test_a_broken_tag_says_the_column_on_its_line(body: str, column: int, says: str) -> None:
    fault = read_tag(body, AT)
    assert isinstance(fault, tuple)
    assert fault[0] == column
    assert fault[1].startswith(says)


def test_a_name_too_long_in_a_tag_of_names_is_refused_at_the_tag() -> None:
    long = "A" * (MAX_TEXT + 1)
    assert read_tag(f'[Line "B, {long}"]', AT) == (
        5,
        f"a name of {MAX_TEXT + 1} characters in the tag 'Line'; at most {MAX_TEXT}",
    )
    # each name is held to the limit, not the whole value; another tag's whole value
    assert isinstance(read_tag(f'[Line "B, {long[:-1]}"]', AT), RecordedTag)
    assert isinstance(read_tag(f'[Event "B, {long[:-1]}"]', AT), tuple)


def test_the_tags_a_game_gives_once_are_named_folded() -> None:
    assert once_name('[ WINNER "Ann"]') == "winner"
    assert once_name('[Event "Club"]') is None  # a game may give it twice
    assert once_name("[9 x]") is None


def test_a_tag_run_into_a_line_is_found() -> None:
    assert holds_tag('3. Ann 1, Bob 2[Line "A, B"]')
    assert not holds_tag("3. Ann 1, Bob [2]")


def test_lines_of_text_and_of_a_file_are_the_same_lines() -> None:
    text = '\ufeff[Line "A, B"]\r\n\n1. A 1, B\x002\n' + "x" * (MAX_LINE + 1) + "\n"
    from_text = list(text_lines(text))
    from_file = list(file_lines(io.BytesIO(text.encode("utf-8")[3:])))  # the mark is text's
    assert [(n, f) for n, _, f in from_text[:3]] == [
        (1, None), (2, None), (3, (10, "a NUL byte; this is not text"))
    ]
    assert from_text[1][1] == ""
    assert from_text[3][2] is not None
    assert from_text[3][2][1].startswith("the line is longer than")
    assert [f for _, _, f in from_file[:4]] == [f for _, _, f in from_text[:4]]
