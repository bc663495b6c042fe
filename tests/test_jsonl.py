"""Reading JSON Lines logs: complete and reveal-only logs, recorded consequences
checked like GBN outcomes, and every kind of bad input reported at its line."""

from __future__ import annotations

import io
import json
from collections.abc import Callable
from typing import Any

import attrs
import pytest

from getbit_events.errors import InputError
from getbit_events.events import CardChosen, CardsRevealed, Event, GameStarted, SharkCardPlayed
from getbit_events.limits import MAX_LINE, MAX_ROUNDS, MAX_TEXT, MAX_VIOLATIONS
from getbit_events.simulate import simulate_game
from getbit_events.validate import GameReport, validate_game
from importers import read_file
from importers.jsonl import iter_jsonl, read_jsonl, write_jsonl

SETUPS = [
    ("standard", 4),
    ("standard", 6),
    ("three-player", 4),
    ("two-player", 4),
    ("shark", 5),
]
_REVEALS = (GameStarted, CardChosen, CardsRevealed, SharkCardPlayed)


def _strip(events: Any) -> list[Event]:
    return [attrs.evolve(e, pos=None) for e in events]


def _log(*games: list[Event]) -> str:
    return "".join(write_jsonl((f"g{k}", g) for k, g in enumerate(games, 1)))


def _reports(text: str, source: str = "log.jsonl") -> list[GameReport]:
    return [validate_game(g) for g in read_jsonl(text, source)]


def _lines(game: list[Event], game_id: str = "g1") -> list[dict[str, Any]]:
    return [json.loads(line) for line in write_jsonl([(game_id, game)])]


def _text(lines: list[dict[str, Any]]) -> str:
    return "".join(json.dumps(line) + "\n" for line in lines)


@pytest.mark.parametrize(("variant", "swimmers"), SETUPS)
@pytest.mark.parametrize("bot", ["random", "sensible"])
def test_a_complete_log_reads_back_as_its_events(variant: str, swimmers: int, bot: str) -> None:
    games = [simulate_game(variant, swimmers, seed, bot, memory=seed == 2) for seed in range(3)]
    reports = _reports(_log(*games))
    assert [r.valid for r in reports] == [True, True, True]
    assert [_strip(r.events) for r in reports] == games


@pytest.mark.parametrize(("variant", "swimmers"), SETUPS)
def test_a_log_of_choices_and_reveals_is_completed_by_the_rules(
    variant: str, swimmers: int
) -> None:
    # the sensible bot takes the default limb, which a reveal-only log cannot state
    games = [simulate_game(variant, swimmers, seed, "sensible") for seed in range(3)]
    short = [[e for e in g if isinstance(e, _REVEALS)] for g in games]
    reports = _reports(_log(*short))
    assert all(r.valid and r.finished for r in reports)
    assert [_strip(r.events) for r in reports] == games


def test_events_carry_the_line_they_were_read_from() -> None:
    game = simulate_game("standard", 4, 1, "sensible")
    (report,) = _reports(_log(game), "club.jsonl")
    setup, *rest = report.events
    assert str(setup.pos) == "club.jsonl:1:1"
    # the rules rebuild each round at the line of its reveal: 4 choices, then line 6
    assert {str(e.pos) for e in rest if e.round == 1} == {"club.jsonl:6:1"}


def _find(lines: list[dict[str, Any]], kind: str) -> int:
    return next(i for i, line in enumerate(lines) if line["type"] == kind)


def test_a_wrong_bite_is_a_violation_at_its_line() -> None:
    lines = _lines(simulate_game("standard", 4, 3, "sensible"))
    i = _find(lines, "swimmer-bitten")
    victim = lines[i]["who"]
    other = next(n for n in lines[0]["line"] if n != victim)
    lines[i]["who"] = other
    (report,) = _reports(_text(lines))
    # at the bite's own line (the game then goes on from the bite the log states, so
    # what the log says after it, written for the rules' game, may be wrong too)
    [bite] = [v for v in report.violations if v.code == "wrong-bite"]
    assert bite.pos.line == i + 1
    assert f"{other} is recorded bitten, but {victim} is at the back" in bite.message


def test_a_missing_take_back_is_a_violation() -> None:
    lines = _lines(simulate_game("standard", 5, 8, "sensible"))
    i = next(
        k
        for k, line in enumerate(lines)
        if line["type"] == "cards-taken-back" and lines[k - 1]["type"] != "swimmer-moved"
    )
    who = lines[i]["who"]
    del lines[i]
    for k, line in enumerate(lines, 1):
        line["seq"] = k
    (report,) = _reports(_text(lines))
    assert report.violations[0].code == "wrong-refresh"
    assert f"{who} holds" in report.violations[0].message


def _shark_log_with_take_back() -> tuple[list[dict[str, Any]], int]:
    for seed in range(50):
        lines = _lines(simulate_game("shark", 4, seed, "sensible"))
        kinds = [line["type"] for line in lines]
        if "shark-cards-taken-back" in kinds:
            return lines, kinds.index("shark-cards-taken-back")
    raise AssertionError("no simulated shark game has the Shark take its cards back")


def _renumbered(lines: list[dict[str, Any]]) -> str:
    for k, line in enumerate(lines, 1):
        line["seq"] = k
    return _text(lines)


def test_a_missing_shark_take_back_is_a_violation() -> None:
    lines, i = _shark_log_with_take_back()
    shark = lines[0]["shark"]
    del lines[i]
    (report,) = _reports(_renumbered(lines))
    first = report.violations[0]
    assert first.code == "wrong-refresh"
    assert first.message.startswith(f"the Shark {shark} takes its played cards back")
    assert first.rule in ("R12", "R13")


def test_a_false_shark_take_back_is_a_violation_in_its_round() -> None:
    lines, i = _shark_log_with_take_back()
    taken_back = lines.pop(i)
    # the Shark's first card play: it holds five cards after it, so takes nothing back
    j = _find(lines, "shark-card-played")
    taken_back = {**taken_back, "round": lines[j]["round"], "cards": [lines[j]["card"]]}
    lines.insert(j + 1, taken_back)
    (report,) = _reports(_renumbered(lines))
    shark = lines[0]["shark"]
    wrong = [v for v in report.violations if v.code == "wrong-refresh"]
    assert wrong
    assert wrong[0].message == f"the Shark {shark} takes no cards back this round (R13)"
    assert wrong[0].round == lines[j]["round"]  # simulated rounds are numbered from 1


def test_a_wrong_hunger_count_and_winner_are_violations() -> None:
    lines = _lines(simulate_game("shark", 4, 2, "sensible"))
    i = _find(lines, "hunger-lost")
    lines[i]["left"] += 1
    end = _find(lines, "game-ended")
    loser = lines[end]["ranking"][-1]
    lines[end]["winner"] = loser
    (report,) = _reports(_text(lines))
    codes = {(v.code, v.pos.line) for v in report.violations}
    assert ("wrong-hunger", i + 1) in codes
    assert ("wrong-winner", end + 1) in codes


def test_a_name_that_would_split_is_refused() -> None:
    lines = _lines(simulate_game("standard", 4, 1))
    lines[0]["line"][0] = "Ann, Bob"
    (report,) = _reports(_text(lines))
    assert not report.readable
    assert report.violations[0].code == "bad-name"
    assert "'Ann, Bob' is not a name" in report.violations[0].message


@pytest.mark.parametrize(
    ("tag", "said"),
    [
        (["Event", "Friday\nclub"], "the value of the tag Event holds a line break"),
        (["Bad Tag", "x"], "'Bad Tag' is not a tag's name: a letter, then letters"),
        (["", "x"], "'' is not a tag's name"),
        (["9th", "x"], "'9th' is not a tag's name"),
        (["Event", "x" * (MAX_TEXT + 1)], f"text of {MAX_TEXT + 1} characters; at most"),
    ],
)
def test_a_tag_gbn_could_not_write_back_is_a_syntax_error(tag: list[str], said: str) -> None:
    """A log's tags are kept to be exported as GBN ``[Name "value"]``: one that GBN
    cannot hold is refused where it is read, not stored to make an unreadable export."""
    lines = _lines(simulate_game("standard", 4, 1))
    lines[0]["tags"] = [["Site", "club"], tag]
    (report,) = _reports(_text(lines))
    assert not report.readable
    [violation] = report.violations
    assert (violation.code, violation.pos.line) == ("syntax", 1)
    assert violation.message.startswith("game-started: ")
    assert said in violation.message
    lines[0]["tags"] = [["Site", "club"], ["Notes_2-b", "tab\tand \u2028 kept, a lone\rCR"]]
    (kept,) = _reports(_text(lines))
    assert kept.valid
    with pytest.raises(InputError, match=r"holds a line break"):  # nor written as a log
        list(write_jsonl([("g", [attrs.evolve(game_started(kept), tags=(("A", "1\n2"),))])]))


def game_started(report: GameReport) -> GameStarted:
    setup = report.events[0]
    assert isinstance(setup, GameStarted)
    return setup


@pytest.mark.parametrize(
    "name", [" Ann", "Ann ", "\tAnn", "Ann\t", "\u00a0Ann", "Ann\u00a0", "Ann\u2028", "\u2029Ann"]
)
def test_a_name_with_a_space_around_it_is_refused_not_a_false_unknown_swimmer(
    name: str,
) -> None:
    """GBN drops the spaces around a name; a log's name keeps them, so ' Ann' would be
    a name no other format can write: refused as a bad name (it used to be read, and
    its plays reported as unknown-swimmer, where the Line tag had dropped its spaces)."""
    game = simulate_game("standard", 4, 1)
    lines = _lines(game)
    text = _text(lines).replace('"Ann"', json.dumps(name))
    (report,) = _reports(text)
    assert [v.code for v in report.violations] == ["bad-name"]
    assert f"{name!r} is not a name: a name does not begin or end with a space" in str(
        report.violations[0]
    )
    inside = _text(lines).replace('"Ann"', json.dumps("A\u00a0nn"))  # inside: a name as given
    (kept,) = _reports(inside)
    assert kept.valid
    assert "A\u00a0nn" in kept.events[0].line  # type: ignore[union-attr]


# -- bad input: a clear message with file:line:col, and the other games unharmed --


def _three_games() -> list[list[dict[str, Any]]]:
    return [_lines(simulate_game("standard", 4, seed), f"g{seed}") for seed in range(3)]


def _spoil_middle(change: Any) -> tuple[str, int]:
    """A log of three games whose second game has one line changed; (text, that line)."""
    games = _three_games()
    middle = [json.dumps(line) + "\n" for line in games[1]]
    k = 4
    middle[k] = change(games[1][k], middle[k])
    text = _text(games[0]) + "".join(middle) + _text(games[2])
    return text, len(games[0]) + k + 1


def _bytes_reports(data: bytes) -> list[GameReport]:
    return [validate_game(g) for g in iter_jsonl(io.BytesIO(data), "log.jsonl")]


BAD_LINES = {
    "malformed JSON": (lambda obj, raw: raw[:30] + "\n", "not JSON: Expecting ',' delimiter", 31),
    "not an object": (lambda obj, raw: "[1, 2, 3]\n", "expected a JSON object {...}", 1),
    "nested deep": (
        lambda obj, raw: "[" * 100_000 + "]" * 100_000 + "\n",
        "JSON nested 17 or more deep",
        17,
    ),
    "unknown type": (
        lambda obj, raw: json.dumps({**obj, "type": "swimmer-eaten"}) + "\n",
        "unknown event type 'swimmer-eaten'",
        1,
    ),
    "out of sequence": (
        lambda obj, raw: json.dumps({**obj, "seq": 9}) + "\n",
        "seq 9 where seq 5 comes next",
        1,
    ),
    "seq not a number": (
        lambda obj, raw: json.dumps({**obj, "seq": True}) + "\n",
        "seq true where seq 5 comes next",
        1,
    ),
    "enormous game id": (
        lambda obj, raw: json.dumps({**obj, "game": "g" * 2000}) + "\n",
        "'game' is the game's id, a text of 1 to 1000 characters, not \"ggggg",
        1,
    ),
    "another game": (
        lambda obj, raw: json.dumps({**obj, "game": "g7"}) + "\n",
        'an event for game "g7" inside game "g1"',
        1,
    ),
    "enormous field": (
        lambda obj, raw: json.dumps({**obj, "who": "x" * 5000}) + "\n",
        "who: text of 5000 characters; at most 1000",
        1,
    ),
    "enormous line": (
        lambda obj, raw: json.dumps({**obj, "who": "x" * (MAX_LINE + 10)}) + "\n",
        f"the line is longer than {MAX_LINE} bytes",
        1,
    ),
    "NUL byte": (lambda obj, raw: raw[:10] + "\0" + raw[10:], "a NUL byte", 11),
    "missing game id": (
        lambda obj, raw: json.dumps({k: v for k, v in obj.items() if k != "game"}) + "\n",
        "'game' is the game's id, a text of 1 to 1000 characters, not null",
        1,
    ),
}


@pytest.mark.parametrize("case", BAD_LINES, ids=list(BAD_LINES))
def test_a_bad_line_spoils_only_its_game(case: str) -> None:
    change, message, column = BAD_LINES[case]
    text, line = _spoil_middle(change)
    reports = _reports(text)
    assert [r.readable for r in reports] == [True, False, True]
    assert reports[0].valid
    assert reports[2].valid
    first = reports[1].violations[0]
    assert message in first.message
    assert str(first).startswith(f"log.jsonl:{line}:{column}: ")


def test_a_wrong_encoding_is_named_with_its_byte() -> None:
    games = _three_games()
    data = (_text(games[0]) + _text(games[1])).encode()
    data = data.replace(b'"who": "Ann"', b'"who": "\xe9Ann"', 1)
    reports = _bytes_reports(data)
    bad = next(r for r in reports if not r.readable)
    assert "not UTF-8 text (byte 0xe9)" in str(bad.violations[0])
    assert reports[-1].valid


def test_a_truncated_log_says_so() -> None:
    games = _three_games()
    text = _text(games[0]) + _text(games[1])[:-25]
    reports = _reports(text)
    assert reports[0].valid
    assert "the file ends in the middle of an event" in reports[1].violations[0].message


def test_a_game_must_start_with_game_started() -> None:
    games = _three_games()
    text = _text(games[0]) + _text(games[1][3:]) + _text(games[2])
    reports = _reports(text)
    assert [r.readable for r in reports] == [True, False, True]
    assert 'game "g1" starts with "card-chosen"' in reports[1].violations[0].message


def test_crlf_line_ends_and_a_byte_order_mark_are_fine() -> None:
    game = simulate_game("shark", 5, 1)
    data = b"\xef\xbb\xbf" + _log(game).replace("\n", "\r\n").encode()
    (report,) = _bytes_reports(data)
    assert report.valid
    assert _strip(report.events) == game


def test_a_broken_game_reports_a_bounded_number_of_errors() -> None:
    data = "not json\n" * 10_000
    (report,) = _reports(data)
    assert len(report.violations) == MAX_VIOLATIONS + 1
    last = report.violations[-1]
    assert (last.code, last.pos.line) == ("too-many-violations", MAX_VIOLATIONS)
    assert last.message == (
        "9900 more violations were found in this game and left out: at most 100 are reported"
    )


class _Counting(io.BytesIO):
    def __init__(self, data: bytes) -> None:
        super().__init__(data)
        self.high = 0

    def readline(self, size: int | None = -1) -> bytes:
        line = super().readline(size)
        self.high = max(self.high, self.tell())
        return line


def test_the_reader_streams_a_game_at_a_time() -> None:
    games = [simulate_game("standard", 4, seed) for seed in range(50)]
    data = _log(*games).encode()
    stream = _Counting(data)
    reader = iter_jsonl(stream, "big.jsonl")
    first = next(reader)
    assert first.index == 1
    first_game_bytes = len(_log(games[0]).encode())
    assert stream.high < first_game_bytes * 3 < len(data)


def test_read_file_dispatches_on_the_ending(tmp_path: Any) -> None:
    path = tmp_path / "games.ndjson"
    path.write_text(_log(simulate_game("standard", 4, 1)), encoding="utf-8")
    (game,) = read_file(path)
    assert validate_game(game).valid


def test_a_broken_game_started_does_not_spoil_the_game_before() -> None:
    games = _three_games()
    games[1][0]["game"] = 7
    reports = _reports("".join(_text(g) for g in games))
    assert [r.readable for r in reports] == [True, False, True]
    assert "'game' is the game's id, a text of 1 to 1000 characters, not 7" in str(
        reports[1].violations[0]
    )


# -- a broken line between games: the game before it is complete and kept whole --

FIRST_LINE: dict[str, tuple[Callable[[bytes], bytes], str]] = {
    "not JSON": (lambda raw: raw[:30] + b"\n", "not JSON"),
    "a NUL byte": (lambda raw: raw[:10] + b"\0" + raw[10:], "a NUL byte"),
    "bad UTF-8": (lambda raw: raw[:10] + b"\xff" + raw[10:], "not UTF-8 text (byte 0xff)"),
    "a cut line": (lambda raw: raw[:-20] + b"\n", "not JSON"),
}


@pytest.mark.parametrize("case", FIRST_LINE, ids=list(FIRST_LINE))
def test_a_broken_first_line_of_a_game_spoils_that_game_not_the_one_before(case: str) -> None:
    """The issue: a broken first line of game N was added to game N-1 (whose
    game-ended was read), throwing it away. N-1 is complete: it is kept whole, and
    the broken line begins game N, which its other lines follow."""
    change, message = FIRST_LINE[case]
    games = _three_games()
    second = [(json.dumps(line) + "\n").encode() for line in games[1]]
    second[0] = change(second[0])
    data = _text(games[0]).encode() + b"".join(second) + _text(games[2]).encode()
    reports = _bytes_reports(data)
    assert [r.readable for r in reports] == [True, False, True]
    assert reports[0].valid
    assert reports[0].finished
    assert reports[2].valid
    [broken] = reports[1].violations  # one error: the lines after it are its game's
    assert message in broken.message
    assert broken.pos.line == len(games[0]) + 1


NAMED_FIRST_LINE = {
    **{k: v for k, v in FIRST_LINE.items() if k != "not JSON"},
    "not JSON": (lambda raw: raw.replace(b'"v": 1', b'"v": 1x', 1), "not JSON"),
}


@pytest.mark.parametrize("case", NAMED_FIRST_LINE, ids=list(NAMED_FIRST_LINE))
def test_in_a_log_of_reveals_a_broken_first_line_naming_its_game_spoils_only_that_game(
    case: str,
) -> None:
    """A log of choices and reveals has no game-ended: a broken line between two
    games is the next game's when what can still be read of it (its ``game``, or
    ``seq`` 1) says so, and the game before is kept whole."""
    change, message = NAMED_FIRST_LINE[case]
    games = [
        [line for line in g if line["type"] in ("game-started", "card-chosen", "cards-revealed")]
        for g in _three_games()
    ]
    for game in games:
        for seq, line in enumerate(game, 1):
            line["seq"] = seq
    second = [(json.dumps(line) + "\n").encode() for line in games[1]]
    second[0] = change(second[0])
    data = _text(games[0]).encode() + b"".join(second) + _text(games[2]).encode()
    reports = _bytes_reports(data)
    assert [r.readable for r in reports] == [True, False, True]
    assert reports[0].valid
    assert reports[0].finished  # the rules end it; nothing of it was lost
    [broken] = reports[1].violations
    assert message in broken.message


def test_a_broken_line_after_a_game_before_the_next_game_started_is_a_game_of_its_own() -> None:
    games = _three_games()
    text = _text(games[0]) + "{oops\n" + _text(games[1]) + _text(games[2])
    reports = _reports(text)
    assert [r.readable for r in reports] == [True, False, True, True]
    assert [r.valid for r in reports] == [True, False, True, True]
    assert str(reports[1].violations[0]).startswith(f"log.jsonl:{len(games[0]) + 1}:2: not JSON")


def test_a_broken_line_after_an_unfinished_game_spoils_it() -> None:
    """Without its game-ended a game may be missing its last events: a broken line
    after it may be one of them, so the game is not kept as if whole; the next game,
    which lost its game-started, is a game of its own."""
    games = _three_games()
    unfinished = games[0][: len(games[0]) // 2]
    text = _text(unfinished) + "{oops\n" + _text(games[1][1:]) + _text(games[2])
    reports = _reports(text)
    assert [r.readable for r in reports] == [False, False, True]
    assert reports[1].violations[0].message.startswith('game "g1" starts with')


def test_a_game_of_more_than_max_rounds_is_refused() -> None:
    game = _lines(simulate_game("standard", 4, 1))
    reveal = next(k for k, line in enumerate(game) if line["type"] == "cards-revealed")
    game[reveal]["round"] = MAX_ROUNDS + 1
    for line in game[:reveal]:
        if line["type"] == "card-chosen":
            line["round"] = MAX_ROUNDS + 1
    (report,) = _reports(_text(game))
    assert not report.readable
    assert f"a game records at most {MAX_ROUNDS} rounds" in report.violations[0].message


# -- what write_jsonl writes, iter_jsonl reads --


def _with_setup(game: list[Event], **changes: Any) -> list[Event]:
    setup = game[0]
    assert isinstance(setup, GameStarted)
    return [attrs.evolve(setup, **changes), *game[1:]]


@pytest.mark.parametrize(
    ("changes", "why"),
    [
        ({"line": ("A" * 10_000, "Bob", "Cid", "Dee")}, "is 10000 characters long; at most 1000"),
        ({"line": (" Ann", "Bob", "Cid", "Dee")}, "a name does not begin or end with a space"),
        ({"tags": (("Event", "x" * (MAX_TEXT + 1)),)}, "characters long; at most 1000"),
        (
            {"tags": tuple((f"T{k}", "x" * MAX_TEXT) for k in range(MAX_LINE // MAX_TEXT + 1))},
            "its game-started line is 10",
        ),
    ],
)
def test_write_jsonl_never_writes_a_game_the_reader_refuses(
    changes: dict[str, Any], why: str
) -> None:
    """A GBN game with a 10,000-character name exported to JSON Lines that import
    refused: such a game is now refused when written, naming it, with nothing of it
    written; the games before it are written whole."""
    good = simulate_game("standard", 4, 1)
    bad = _with_setup(simulate_game("standard", 4, 2), **changes)
    written: list[str] = []
    with pytest.raises(InputError, match=why) as refused:
        written.extend(write_jsonl([("g1", good), ("g2", bad), ("g3", good)]))
    assert str(refused.value).startswith('game "g2" cannot be written as JSON Lines')
    (report,) = _reports("".join(written))
    assert report.valid
    assert _strip(report.events) == good


def test_a_game_at_the_limits_is_written_and_read_back() -> None:
    name = "N" * MAX_TEXT
    game = simulate_game("standard", 4, 1)
    text = _log(game).replace('"Ann"', json.dumps(name))
    (report,) = _reports(text)
    assert report.valid
    (again,) = _reports("".join(write_jsonl([("g" * MAX_TEXT, report.events)])))
    assert again.valid
    assert _strip(again.events) == _strip(report.events)
    with pytest.raises(InputError, match="its id is 1001 characters long"):
        list(write_jsonl([("g" * (MAX_TEXT + 1), report.events)]))


@pytest.mark.parametrize(
    ("fields", "fault"),
    [
        ({"kind": "bit", "why": "unread", "names": []}, "a bit holds one name"),
        ({"kind": "eat", "why": "twice", "names": ["Ann"]}, 'kind is "eat"'),
        ({"kind": "out", "why": "later", "names": ["Ann"]}, 'why is "later"'),
        ({"kind": "hunger", "why": "twice"}, "a hunger holds a number"),
        ({"kind": "refresh", "why": "unread", "names": ["Ann, Bob"]}, '"Ann, Bob" cannot'),
        ({"kind": "discard", "why": "unread", "cards": [["Ann", "4 5"]]}, '"4 5" cannot'),
    ],
)
def test_an_outcome_stated_that_no_record_could_state_is_refused(
    fields: dict[str, Any], fault: str
) -> None:
    # a hand-written log's outcome-stated must be an outcome GBN can state: never a
    # traceback in the validator, never an export GBN cannot read
    lines = _lines(simulate_game("standard", 4, 1))
    at = next(k for k, line in enumerate(lines) if line["type"] == "cards-revealed")
    stated = {"type": "outcome-stated", "v": 1, "game": "g1", "round": 1, **fields}
    lines.insert(at + 1, stated)
    for k, line in enumerate(lines, 1):
        line["seq"] = k
    (report,) = _reports(_text(lines))
    assert not report.readable
    assert report.violations[0].code == "syntax"
    assert fault in report.violations[0].message
