"""BMN, the notation of "Come on! Bite me!": reading, writing, the round trip, the
strengths file, and bad input refused with file:line:col, never a traceback."""

from __future__ import annotations

from pathlib import Path

import attrs
import pytest
from biteme_cases import check, record
from hypothesis import given, settings
from hypothesis import strategies as st

from biteme.events import BiteEvent
from biteme.simulate import simulate_bite
from biteme.validate import validate_bite
from getbit_events.errors import InputError
from importers.bmn import (
    is_bmn,
    iter_bmn_file,
    read_bmn,
    read_strengths,
    read_strengths_file,
)
from importers.bmn_write import game_bmn, write_bmn

SHORT = record(
    "Ann, Bob, Cid",
    "Ann Tiger, Bob Rabbit, Cid Lion",
    "Ann Tiger attacks Bob Rabbit ; Ann claims Bob Rabbit ; Bob draws Fox  # a comment",
    "Bob retreats Fox ; Bob looks ; Bob draws Panda",
    "Cid passes",
)


def _bare(events: list[BiteEvent] | tuple[BiteEvent, ...]) -> list[BiteEvent]:
    return [attrs.evolve(e, pos=None) for e in events]


def test_a_record_is_read_turn_by_turn() -> None:
    [game] = read_bmn(SHORT, "g.bmn")
    assert [t.name for t in game.tags] == ["Game", "Seats", "Deal", "Strengths"]
    first, second, third = game.turns
    assert (first.who, first.action, first.card, first.defender, first.defender_card) == (
        "Ann", "attack", "Tiger", "Bob", "Rabbit"
    )
    assert [(s.kind, s.who, s.other, s.card) for s in first.steps] == [
        ("claims", "Ann", "Bob", "Rabbit"),
        ("draws", "Bob", "", "Fox"),
    ]
    assert [s.kind for s in second.steps] == ["looks", "draws"]
    assert (third.who, third.action, third.pos.line, third.pos.column) == ("Cid", "pass", 8, 1)


def test_a_join_forces_names_each_attacker_with_its_card() -> None:
    text = record(
        "Ann, Bob, Cid, Dee", "Ann Tiger, Bob Rabbit, Cid Lion, Dee Fox",
        "Ann Tiger, Cid Lion attack Bob Rabbit ; Cid claims Bob Rabbit ; Bob draws Panda",
    )
    [game] = read_bmn(text)
    assert game.turns[0].joined == (("Cid", "Lion"),)
    assert validate_bite(game).valid


@pytest.mark.parametrize(
    ("line", "column", "says"),
    [
        ("1. Ann jumps", 4, "expected 'NAME CARD attacks NAME CARD'"),
        ("1. Ann Tiger attacks Bob", 14, "the defender and its card"),
        ("1. Ann passes ; Ann sings", 17, "'NAME claims NAME CARD'"),
        ("1. Ann Tiger attacks Bob Rabbit ; Ann claims Bob", 46, "NAME CARD in a claim"),
        ("Ann passes", 1, "expected a tag or a turn"),
        ('[Seats "Ann', 1, "expected a tag"),
    ],
)
def test_bad_syntax_is_refused_at_its_line_and_column(line: str, column: int, says: str) -> None:
    text = '[Game "Come on! Bite me!"]\n' + line + "\n"
    [game] = read_bmn(text, "bad.bmn")
    report = validate_bite(game)
    assert not report.valid
    [v] = report.violations
    assert (v.code, v.pos.line, v.pos.column) == ("syntax", 2, column)
    assert says in v.message
    assert str(v).startswith(f"bad.bmn:2:{column}: ")


def test_a_bad_game_leaves_the_next_one_alone() -> None:
    text = '[Game "Come on! Bite me!"]\n1. nonsense here\n\n' + SHORT
    bad, good = read_bmn(text)
    assert bad.syntax_errors
    assert not good.syntax_errors
    assert validate_bite(good).valid
    assert good.pos.line == 4


def test_a_file_is_read_line_by_line_and_known_by_its_ending_or_game_tag(tmp_path: Path) -> None:
    named = tmp_path / "a.bmn"
    named.write_text(SHORT, encoding="utf-8")
    tagged = tmp_path / "b.txt"
    tagged.write_text(SHORT, encoding="utf-8")
    other = tmp_path / "c.gbn"
    other.write_text('[Line "Ann, Bob, Cid, Dee"]\n', encoding="utf-8")
    assert is_bmn(named)
    assert is_bmn(tagged)
    assert not is_bmn(other)
    assert not is_bmn(tmp_path / "missing.txt")
    [game] = list(iter_bmn_file(named))
    assert game.source == str(named)
    assert len(game.turns) == 3
    (tmp_path / "bytes.bmn").write_bytes(SHORT.encode() + b"4. Ann \xff passes\n")
    [broken] = list(iter_bmn_file(tmp_path / "bytes.bmn"))
    assert [(v.pos.line, v.pos.column) for v in broken.syntax_errors] == [(9, 8)]
    with pytest.raises(InputError, match="cannot read"):
        iter_bmn_file(tmp_path / "missing.bmn")


def test_the_writer_writes_what_a_person_would() -> None:
    [game] = read_bmn(SHORT)
    text = game_bmn(list(validate_bite(game).events))
    assert text.splitlines()[-3:] == [
        "1. Ann Tiger attacks Bob Rabbit ; Ann claims Bob Rabbit ; Bob draws Fox",
        "2. Bob retreats Fox ; Bob looks ; Bob draws Panda",
        "3. Cid passes",
    ]


@settings(max_examples=40, deadline=None)
@given(players=st.integers(3, 10), seed=st.integers(0, 10**6))
def test_write_then_read_is_the_identity_on_simulated_games(players: int, seed: int) -> None:
    events = simulate_bite(players, seed)
    [game] = read_bmn(write_bmn([events]), "sim.bmn")
    report = validate_bite(game)
    assert report.valid, [str(v) for v in report.violations]
    assert not report.warnings
    assert _bare(report.events) == events
    assert game_bmn(list(report.events)) == game_bmn(events)


def test_several_games_in_one_text() -> None:
    games = [simulate_bite(3, 1), simulate_bite(5, 2)]
    read = read_bmn(write_bmn(games))
    assert [_bare(validate_bite(g).events) for g in read] == games


# -- the strengths file (--strengths FILE) --------------------------------------------


def test_strengths_are_read_from_a_small_file(tmp_path: Path) -> None:
    path = tmp_path / "s.toml"
    path.write_text("# our table's strengths\nTiger = 8\nlion=7, Panda=5  # two\n", "utf-8")
    assert read_strengths_file(path) == {"Tiger": 8, "Lion": 7, "Panda": 5}
    assert read_strengths("Flea = -2 Mosquito=0") == {"Flea": -2, "Mosquito": 0}


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("Tiger = big", "s.txt:1:1: 'Tiger=big': write each as CARD = NUMBER"),
        ("\nUnicorn = 3", "s.txt:2:1: 'Unicorn' is no card with a strength (B3)"),
        ("Tiger=8 Flea=1", "s.txt:1:9: Flea = 1, but the leaflet gives -2 (B3)"),
        ("Bacteria = 99", "'Bacteria' is no card with a strength"),
    ],
)
def test_a_bad_strengths_file_is_refused(text: str, says: str) -> None:
    with pytest.raises(InputError) as caught:
        read_strengths(text, "s.txt")
    assert says in str(caught.value)


def test_a_strengths_file_that_cannot_be_read(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="cannot read the strengths"):
        read_strengths_file(tmp_path / "none.txt")


def test_a_record_of_endless_mistakes_is_cut_at_the_limit() -> None:
    turns = ["Zed passes"] * 130
    report = validate_bite(read_bmn(record("Ann, Bob, Cid", "Ann Tiger, Bob Lion, Cid Fox",
                                           *turns))[0])
    assert len(report.violations) == 101
    assert report.violations[-1].code == "too-many-violations"
    assert report.violations[-1].message.startswith("30 more violations were found")


def test_a_name_or_tag_past_the_shared_limit_is_a_syntax_error() -> None:
    """The limit every format shares (docs/errors.md, Limits): a name of a tag of names
    is held to it name by name, any other tag's value whole."""
    long, most = "A" * 1001, "A" * 1000
    five = ", ".join([most] * 5)  # five names of the most: a value longer than it, kept
    report = check(record(f"{five[:-1]}, Bob, Cid", "Ann Tiger, Bob Lion, Cid Fox",
                          tags=f'[Event "{most}"]'))
    assert not [v for v in report.violations if v.code == "syntax"]
    report = check(record(f"{long}, Bob, Cid", f"{long} Tiger, Bob Lion, Cid Fox",
                          tags=f'[Event "{long}"]'))
    said = [(v.pos.line, v.pos.column, v.message) for v in report.violations if v.code == "syntax"]
    assert said == [
        (2, 9, "a name of 1001 characters in the tag Seats; at most 1000"),
        (3, 8, "a name of 1001 characters in the tag Deal; at most 1000"),
        (5, 9, "the value of 1001 characters in the tag Event; at most 1000"),
    ]


_WORDS = [
    "attacks", "claims", "draws", "picks", "takes", "looks", "passes", "retreats", ";", ",",
    "Tiger", "Hunter", "Bacteria", "Mosquito", "Meerkat", "Monkey", "Fox", "Ann", "Zed", "?",
    "#", "[", '"', "=", "-3", "99999999", "\x00", "é",
]


@settings(max_examples=150, deadline=None)
@given(
    seed=st.integers(0, 10**6),
    edits=st.lists(
        st.tuples(st.integers(0, 10**6), st.integers(0, 3), st.sampled_from(_WORDS)),
        min_size=1, max_size=6,
    ),
)
def test_a_mangled_record_is_reported_never_raised(
    seed: int, edits: list[tuple[int, int, str]]
) -> None:
    """Lines dropped, doubled, words replaced or dropped: every game is read and
    checked, and what is wrong is said at a place in the file."""
    lines = game_bmn(simulate_bite(3 + seed % 4, seed)).splitlines()
    for at, op, word in edits:
        k = at % len(lines)
        words = lines[k].split(" ")
        if op == 0:
            del lines[k]
        elif op == 1:
            lines.insert(k, lines[(at // 7) % len(lines)])
        elif op == 2:
            words[at % len(words)] = word
            lines[k] = " ".join(words)
        else:
            del words[at % len(words)]
            lines[k] = " ".join(words)
        if not lines:
            lines = ["# nothing left"]
    text = "\n".join(lines) + "\n"
    for game in read_bmn(text, "m.bmn"):
        report = validate_bite(game)
        report.to_json()
        for v in report.violations:
            assert 1 <= v.pos.line <= len(lines) + 1
            assert str(v).startswith(f"m.bmn:{v.pos.line}:{v.pos.column}: ")
