"""The one set of limits (``getbit_events/limits.py``, docs/errors.md "Limits"), the
same for every record format: a record at a limit is read, one past it is refused
game by game in bounded memory, and the games beside it are read whole."""

from __future__ import annotations

import json
import re
import tracemalloc
from collections.abc import Callable, Sequence
from pathlib import Path

import pytest

from getbit_events.events import CardsRevealed, Event, GameStarted
from getbit_events.limits import MAX_LINE, MAX_ROUNDS, MAX_TEXT, MAX_VIOLATIONS
from getbit_events.validate import GameReport, validate_game
from importers import iter_file
from importers.gbn import read_gbn, write_gbn
from importers.jsonl import read_jsonl, write_jsonl
from importers.wire import event_to_wire

DOCS = Path(__file__).resolve().parent.parent / "docs"

Round = Sequence[tuple[str, int]]
# The R8 game of tests/test_cli_validate.py: A is devoured in round 6, C wins in round 9.
NAMES = ("A", "B", "C", "X")
ROUNDS: list[Round] = [
    [("A", 1), ("B", 1), ("C", 1), ("X", 1)],
    [("A", 2), ("B", 2), ("C", 2), ("X", 2)],
    [("A", 3), ("B", 4), ("C", 5), ("X", 3)],
    [("A", 1), ("B", 5), ("C", 3), ("X", 4)],
    [("A", 1), ("B", 3), ("C", 4), ("X", 2)],
    [("A", 1), ("B", 4), ("C", 2), ("X", 5)],
    [("X", 1), ("B", 2), ("C", 5)],
    [("X", 1), ("B", 5), ("C", 3)],
    [("X", 1), ("B", 2), ("C", 3)],
]
# rounds after the end of the game: each is a round-after-end violation (R17)
EXTRA: Round = [("X", 1), ("B", 2), ("C", 3)]


def _gbn(names: Sequence[str], rounds: Sequence[Round]) -> str:
    lines = [f'[Line "{", ".join(names)}"]', ""]
    lines += [f"{k}. " + ", ".join(f"{n} {c}" for n, c in r) for k, r in enumerate(rounds, 1)]
    return "\n".join(lines) + "\n\n"


def _csv(names: Sequence[str], rounds: Sequence[Round]) -> str:
    lines = ["round," + ",".join(names)]
    for k, r in enumerate(rounds, 1):
        cards = dict(r)
        lines.append(f"{k}," + ",".join(str(cards.get(n, "")) for n in names))
    return "\n".join(lines) + "\n"


_GAMES = 0


def _jsonl(names: Sequence[str], rounds: Sequence[Round]) -> str:
    """A log of choices and reveals, written line by line (not by write_jsonl, which
    refuses to write what the reader refuses)."""
    global _GAMES
    _GAMES += 1
    game = f"g{_GAMES}"
    setup = GameStarted(0, "standard", False, tuple(names), len(names) + 1)
    events: list[Event] = [setup]
    events += (CardsRevealed(k, tuple(r)) for k, r in enumerate(rounds, 1))
    return "".join(
        json.dumps(event_to_wire(e, game, seq), ensure_ascii=False) + "\n"
        for seq, e in enumerate(events, 1)
    )


FORMATS: dict[str, tuple[str, Callable[[Sequence[str], Sequence[Round]], str]]] = {
    "gbn": (".gbn", _gbn),
    "csv": (".csv", _csv),
    "jsonl": (".jsonl", _jsonl),
}


def _file(tmp_path: Path, fmt: str, *games: str | bytes) -> list[GameReport]:
    """The reports of a file of ``games`` in format ``fmt``."""
    suffix, _ = FORMATS[fmt]
    path = tmp_path / f"games{suffix}"
    path.write_bytes(b"".join(g.encode() if isinstance(g, str) else g for g in games))
    return [validate_game(g) for g in iter_file(path)]


def _named(long: str) -> list[Round]:
    return [[(long if n == "A" else n, c) for n, c in r] for r in ROUNDS]


@pytest.mark.parametrize("fmt", FORMATS)
def test_a_name_of_max_text_is_read_and_one_longer_is_refused(fmt: str, tmp_path: Path) -> None:
    _, write = FORMATS[fmt]
    at, past = "N" * MAX_TEXT, "N" * (MAX_TEXT + 1)
    good = write(NAMES, ROUNDS)
    reports = _file(
        tmp_path,
        fmt,
        good,
        write((at, *NAMES[1:]), _named(at)),
        write((past, *NAMES[1:]), _named(past)),
        good,
    )
    assert [r.readable for r in reports] == [True, True, False, True]
    assert [r.valid for r in reports] == [True, True, False, True]
    said = str(reports[2].violations[0])
    assert f"{MAX_TEXT + 1} characters" in said
    assert f"at most {MAX_TEXT}" in said


@pytest.mark.parametrize("fmt", FORMATS)
def test_a_line_past_max_line_is_refused_in_bounded_memory(fmt: str, tmp_path: Path) -> None:
    """A 16 MiB line (a name, or a round) is refused as soon as it passes the limit,
    without being held: the reader's memory stays a few times the limit."""
    _, write = FORMATS[fmt]
    huge = "N" * (16 * MAX_LINE)
    broken = write((huge, *NAMES[1:]), ROUNDS)
    good = write(NAMES, ROUNDS)
    path = tmp_path / f"big{FORMATS[fmt][0]}"
    path.write_text(good + broken + good, encoding="utf-8")
    del huge, broken
    tracemalloc.start()
    try:
        reports = [validate_game(g) for g in iter_file(path)]
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 6 * MAX_LINE
    assert reports[0].valid
    assert reports[-1].valid
    refused = [r for r in reports if not r.readable]
    assert refused
    assert all(r.valid for r in reports if r.readable)
    assert f"the line is longer than {MAX_LINE} bytes" in str(refused[0].violations[0])


@pytest.mark.parametrize("fmt", FORMATS)
def test_a_game_of_max_rounds_is_read_and_one_more_is_refused(fmt: str, tmp_path: Path) -> None:
    _, write = FORMATS[fmt]
    at = [*ROUNDS, *[EXTRA] * (MAX_ROUNDS - len(ROUNDS))]
    reports = _file(tmp_path, fmt, write(NAMES, at), write(NAMES, [*at, EXTRA]))
    assert [r.readable for r in reports] == [True, False]
    assert f"{MAX_ROUNDS} rounds" in str(reports[1].violations[0])


@pytest.mark.parametrize("fmt", FORMATS)
def test_violations_past_max_violations_are_counted_not_kept(fmt: str, tmp_path: Path) -> None:
    """250 rounds after the end are 250 round-after-end violations: 100 are kept, then
    one says how many more were found; the next game is unharmed."""
    _, write = FORMATS[fmt]
    many = write(NAMES, [*ROUNDS, *[EXTRA] * 250])
    reports = _file(tmp_path, fmt, many, write(NAMES, ROUNDS))
    first, second = reports
    assert len(first.violations) == MAX_VIOLATIONS + 1
    assert {v.code for v in first.violations[:MAX_VIOLATIONS]} == {"round-after-end"}
    last = first.violations[-1]
    assert last.code == "too-many-violations"
    assert last.message.startswith("150 more violations were found")
    assert second.valid


def test_the_limits_table_gives_the_limits() -> None:
    text = (DOCS / "errors.md").read_text(encoding="utf-8")
    table = text.split("## Limits", 1)[1].split("\n## ", 1)[0]
    rows = re.findall(r"^\| ([^|]+) \| ([^|]+) \|", table, re.MULTILINE)
    values = {name.strip(): value.strip() for name, value in rows}
    assert values["a name, a tag's value, a game's id"] == f"{MAX_TEXT:,} characters"
    assert values["a line of any record file"] == f"{MAX_LINE >> 20} MiB ({MAX_LINE:,} bytes)"
    assert values["rounds in one game"] == f"{MAX_ROUNDS:,}"
    assert values["violations reported per game"] == f"{MAX_VIOLATIONS:,}"


def test_a_game_at_every_limit_is_written_and_read_back_in_every_format() -> None:
    """What the store writes (GBN or JSON Lines, from a game's events) it reads back."""
    at = "N" * MAX_TEXT
    [game] = read_gbn(_gbn((at, *NAMES[1:]), _named(at)))
    report = validate_game(game)
    assert report.valid
    events = report.events
    [as_gbn] = read_gbn(write_gbn([events]))
    [as_jsonl] = read_jsonl("".join(write_jsonl([("g" * MAX_TEXT, events)])))
    for again in (as_gbn, as_jsonl):
        checked = validate_game(again)
        assert checked.valid
        assert checked.final == report.final
        assert len(checked.events) == len(events)
