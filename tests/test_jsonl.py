"""Reading JSON Lines logs: complete and reveal-only logs, recorded consequences
checked like GBN outcomes, and every kind of bad input reported at its line."""

from __future__ import annotations

import io
import json
from typing import Any

import attrs
import pytest

from getbit_events.events import CardChosen, CardsRevealed, Event, GameStarted, SharkCardPlayed
from getbit_events.simulate import simulate_game
from getbit_events.validate import GameReport, validate_game
from importers import read_file
from importers.jsonl import MAX_LINE, iter_jsonl, read_jsonl, write_jsonl

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
    first = report.violations[0]
    assert first.code == "wrong-bite"
    assert first.pos.line == i + 1
    assert f"{other} is recorded bitten, but {victim} is at the back" in first.message


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
    assert len(report.violations) == 21
    assert report.violations[-1].message == "and 9980 more errors in this game"


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
