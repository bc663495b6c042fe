"""A reader told to skip games (an import's worker, reading only its share) finds the
same games as one reading them all, gives the games it is asked for whole and the
same, and reads no event of a game it skips unless the log's damage makes it."""

from __future__ import annotations

import io
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from strategies import damaged_logs, damaged_records, log_lines

from getbit_events.events import (
    Event,
    SourcePos,
)
from getbit_events.record import RecordedGame
from getbit_events.simulate import simulate_game
from importers import iter_file
from importers import jsonl as jsonl_reader
from importers.gbn import iter_gbn_stream, write_gbn
from importers.jsonl import iter_jsonl
from importers.skipping import Skipped


@settings(max_examples=200, deadline=None)
@given(damaged_logs(), st.sets(st.integers(1, 8)))
def test_a_reader_skipping_games_finds_the_same_games_and_reads_the_rest_the_same(
    data: bytes, skipped: set[int]
) -> None:
    whole = list(iter_jsonl(io.BytesIO(data), "log.jsonl"))
    some = list(iter_jsonl(io.BytesIO(data), "log.jsonl", skip=skipped.__contains__))
    # a skipped game is read after all where the damage makes it needed
    _finds_the_same(whole, some, skipped, always_skips=False)


def _finds_the_same(
    whole: list[RecordedGame | Skipped], some: list[RecordedGame | Skipped], skipped: set[int],
    *, always_skips: bool,
) -> None:
    """``some``, read skipping the games ``skipped`` names, finds the games of
    ``whole``: a skipped one in its place, where it begins, and the rest the same."""
    assert len(some) == len(whole)
    for k, (game, read) in enumerate(zip(whole, some, strict=True), 1):
        assert game.index == k
        if isinstance(read, Skipped):
            assert k in skipped
            assert (read.source, read.index, read.pos) == (game.source, game.index, game.pos)
        else:
            assert k not in skipped or not always_skips
            assert read == game


@pytest.mark.patched
def test_a_clean_log_s_skipped_games_are_not_read_into_events(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    data = "".join(log_lines(4, reveals_only=True)).encode()
    read: list[str] = []
    real = jsonl_reader.event_from_wire

    def counted(fields: Mapping[str, Any], pos: SourcePos | None = None) -> Event:
        read.append(fields["game"])
        return real(fields, pos)

    monkeypatch.setattr(jsonl_reader, "event_from_wire", counted)
    games = list(iter_jsonl(io.BytesIO(data), "log.jsonl", skip=lambda k: k != 3))
    assert [type(g).__name__ for g in games] == ["Skipped", "Skipped", "RecordedGame", "Skipped"]
    assert set(read) == {"g2"}  # the third game's lines only


def test_a_file_s_skipped_games_have_no_text_and_the_rest_theirs(tmp_path: Path) -> None:
    path = tmp_path / "log.jsonl"
    lines = log_lines(3, reveals_only=False)
    path.write_text("".join(lines), encoding="utf-8")
    whole = list(iter_file(path))
    some = list(iter_file(path, skip=lambda k: k == 2))
    assert isinstance(some[1], Skipped)
    assert [some[0], some[2]] == [whole[0], whole[2]]
    assert [some[0].text, some[2].text] == [whole[0].text, whole[2].text]
    assert whole[2].text.decode().startswith('{"type":"game-started"')


def test_a_skipped_game_is_read_where_a_broken_line_after_it_depends_on_it() -> None:
    # the first game is spoilt (a line missing), so a broken line after its last one,
    # naming the second game, is the first game's: only its errors say so, so the
    # skipped game is read
    lines = log_lines(2, reveals_only=True)
    first = sum(1 for line in lines if '"game":"g0"' in line)
    del lines[2]
    lines.insert(first - 1, '{"type":"cards-revealed","game":"g1","seq":2,\n')
    data = "".join(lines).encode()
    whole = list(iter_jsonl(io.BytesIO(data), "log.jsonl"))
    some = list(iter_jsonl(io.BytesIO(data), "log.jsonl", skip=lambda k: k == 1))
    assert len(some) == len(whole) == 2
    assert some[0] == whole[0]  # read after all: where it ends depended on it
    assert some[1] == whole[1]


@settings(max_examples=200, deadline=None)
@given(damaged_records(), st.sets(st.integers(1, 10)))
def test_a_gbn_reader_skipping_games_finds_the_same_games_and_reads_the_rest_the_same(
    data: bytes, skipped: set[int]
) -> None:
    whole = list(iter_gbn_stream(io.BytesIO(data), "club.gbn"))
    some = list(iter_gbn_stream(io.BytesIO(data), "club.gbn", skip=skipped.__contains__))
    _finds_the_same(whole, some, skipped, always_skips=True)
    _read_the_same_way(whole, some)


def _read_the_same_way(
    whole: list[RecordedGame | Skipped], some: list[RecordedGame | Skipped]
) -> None:
    """Each round of a game read beside games left unread took the path it takes when
    every game is read: a line of ``write_gbn``'s shape kept whole (its ``text``), any
    other read with care, the first round line after a game left unread too."""
    for game, read in zip(whole, some, strict=True):
        if isinstance(read, RecordedGame) and isinstance(game, RecordedGame):
            assert [r.text is None for r in read.rounds] == [r.text is None for r in game.rounds]


def test_a_skipped_gbn_game_still_says_where_it_ends_by_its_round_numbers() -> None:
    # the second game's tags are lost to a damaged line: its round 1, after the first
    # game's last round, begins another game, which only the round numbers tell
    games = [simulate_game("standard", 4, k, "random") for k in range(2)]
    first, second = (write_gbn([g]) for g in games)
    rounds = second[second.index("\n1. ") + 1:]
    data = (first + "%%%\n" + rounds).encode()
    whole = list(iter_gbn_stream(io.BytesIO(data), "club.gbn"))
    some = list(iter_gbn_stream(io.BytesIO(data), "club.gbn", skip={1}.__contains__))
    assert len(whole) == len(some) == 3  # the damaged line is a game of its own
    assert isinstance(some[0], Skipped)
    assert some[1:] == whole[1:]
    assert whole[2].rounds
    _read_the_same_way(whole, some)
    assert all(r.text is not None for r in some[2].rounds)  # write_gbn's shape, after all


def test_a_game_after_one_left_unread_is_read_as_it_is_alone() -> None:
    # games without tags, each begun by its round 1 after a blank line: the line that
    # begins a game read is seen while the game before, left unread, is still open
    games = [simulate_game("standard", 4, k, "random") for k in range(4)]
    texts = [write_gbn([g]) for g in games]
    data = "\n".join(t[t.index("\n1. ") + 1:] for t in texts).encode()
    whole = list(iter_gbn_stream(io.BytesIO(data), "club.gbn"))
    some = list(iter_gbn_stream(io.BytesIO(data), "club.gbn", skip=lambda k: k % 2 == 1))
    assert len(whole) == len(some) == 4
    _finds_the_same(whole, some, {1, 3}, always_skips=True)
    _read_the_same_way(whole, some)
    assert all(r.text is not None for g in some[1::2] for r in g.rounds)
