"""A record file cut into pieces read apart (an import's workers, each reading only its
own) gives the games the whole file gives, damaged or not: the same games, each with
its text, numbered on from the pieces before; where no cut is found, the rest is read
the usual way. For JSON Lines logs and GBN alike."""

from __future__ import annotations

import json
import tempfile
from pathlib import Path

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from strategies import damaged_logs, damaged_records, log_lines

from getbit_events.record import RecordedGame
from getbit_events.simulate import simulate_game
from importers import iter_records
from importers import pieces as cutting
from importers.gbn import cut_before, write_gbn
from importers.jsonl import begins_game
from importers.pieces import Piece, Rest, read_piece, read_rest
from importers.skipping import Skipped


def _read_apart(path: Path, fmt: str = "jsonl") -> list[RecordedGame]:
    """Every game of the file at ``path`` read piece by piece, numbered on as the taker
    of an import's work numbers them (``store.jobs``)."""
    games: list[RecordedGame] = []
    for n, part in enumerate(cutting.pieces(path, str(path), fmt)):
        if isinstance(part, Piece):
            read = list(read_piece(part))
            assert part.first == (n == 0) == (part.line == 1)
        else:  # a log with no cut: one rest, from its start; else a rest after pieces
            read = [g for g in read_rest(part, None) if not isinstance(g, Skipped)]
            assert (part.offset == 0) == (n == 0)
        before = len(games)
        games.extend(attrs.evolve(g, index=before + k) for k, g in enumerate(read, 1))
    return games


@pytest.mark.parametrize("fmt", ["jsonl", "gbn"])
@settings(max_examples=200, deadline=None)
@given(
    st.data(),
    st.integers(1, 400),
    st.sampled_from([64, 700, 5_000, 8 << 20]),
    st.booleans(),
)
def test_a_file_read_in_pieces_gives_the_games_read_whole(
    fmt: str, data: st.DataObject, block: int, most: int, bom: bool
) -> None:
    """Whatever the damage, however small the blocks read and the largest piece."""
    text = data.draw(damaged_logs() if fmt == "jsonl" else damaged_records())
    with tempfile.TemporaryDirectory() as folder, pytest.MonkeyPatch.context() as patch:
        patch.setattr(cutting, "BLOCK", block)
        patch.setattr(cutting, "PIECE_MAX", most)
        path = Path(folder) / f"games.{fmt}"
        path.write_bytes(b"\xef\xbb\xbf" + text if bom else text)
        whole = list(iter_records(path, fmt))
        assert _read_apart(path, fmt) == whole


def test_a_log_is_cut_before_each_game_started_and_nowhere_else(tmp_path: Path) -> None:
    lines = log_lines(3, True)
    path = tmp_path / "log.jsonl"
    path.write_text("".join(lines), "utf-8")
    starts = [n for n, line in enumerate(lines, 1) if '"game-started"' in line]
    got = list(cutting.pieces(path, "log.jsonl", "jsonl"))
    assert [p.line for p in got if isinstance(p, Piece)] == starts == [1, *starts[1:]]
    assert [p.cut for p in got if isinstance(p, Piece)] == [True, True, False]
    assert [len(list(read_piece(p))) for p in got if isinstance(p, Piece)] == [1, 1, 1]
    assert str(got[1]) == f"log.jsonl:{starts[1]}: a piece of {got[1].size} bytes"  # type: ignore[union-attr]


@pytest.mark.parametrize(
    "line",
    [
        '{"type":"game-started","v":1,"game":"g9","seq":1,"round":0,"variant":"standard"\n',
        '{"type":"game-started","v":1,"seq":1,"round":0}\n',  # no game: a game of no id
        '{"type":"game-started","v":1,"game":"","seq":1,"round":0}\n',
        '{"type":"game-started","v":1,"game":7,"seq":1,"round":0}\n',
        '["game-started"]\n',
        '{"type":"card-chosen","v":1,"game":"g9","seq":2,"round":1,"who":"game-started"}\n',
    ],
)
def test_a_line_that_only_looks_like_a_game_started_is_no_cut(line: str) -> None:
    assert not begins_game(line.encode())


def test_a_game_started_spelt_with_escapes_begins_a_game_but_is_not_looked_for(
    tmp_path: Path,
) -> None:
    """No cut is found: the log is read the usual way, whole."""
    lines = [line.replace('"game-started"', '"game\\u002dstarted"') for line in log_lines(2, True)]
    assert begins_game(lines[0].encode())
    path = tmp_path / "log.jsonl"
    path.write_text("".join(lines), "utf-8")
    got = list(cutting.pieces(path, "log.jsonl", "jsonl"))
    assert got == [Rest(path, "log.jsonl", "jsonl", 0, 1)]
    assert len(_read_apart(path)) == 2


def test_past_the_largest_piece_with_no_cut_the_rest_is_read_the_usual_way(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    lines = log_lines(4, True)
    starts = [n for n, line in enumerate(lines) if '"game-started"' in line]
    for n in range(starts[2], len(lines)):  # games 3 and 4 spell their type with escapes
        lines[n] = lines[n].replace('"game-started"', '"game\\u002dstarted"')
    path = tmp_path / "log.jsonl"
    path.write_text("".join(lines), "utf-8")
    monkeypatch.setattr(cutting, "PIECE_MAX", 4 * max(map(len, lines)))
    got = list(cutting.pieces(path, "log.jsonl", "jsonl"))
    assert [type(p).__name__ for p in got] == ["Piece", "Rest"]
    rest = got[1]
    assert isinstance(rest, Rest)
    assert rest.line == starts[1] + 1  # from the piece that found no cut after it
    assert rest.offset == len("".join(lines[: starts[1]]).encode())
    assert [g.pos.line for g in _read_apart(path)] == [s + 1 for s in starts]
    assert _read_apart(path) == list(iter_records(path, "jsonl"))


def test_a_piece_with_a_game_of_its_own_inside_numbers_the_games_after_it_on(
    tmp_path: Path,
) -> None:
    """Lines naming another game after a game spoilt begin games of their own: the
    piece holds more than one, and every game after it is numbered on from them."""
    lines = log_lines(3, True)
    starts = [n for n, line in enumerate(lines) if '"game-started"' in line]
    data = json.loads(lines[starts[1] + 5])
    data["game"] = "elsewhere"
    lines[starts[1] + 5] = json.dumps(data) + "\n"
    del lines[starts[1] + 2]  # the game spoilt: out of sequence
    path = tmp_path / "log.jsonl"
    path.write_text("".join(lines), "utf-8")
    parts = [p for p in cutting.pieces(path, "log.jsonl", "jsonl") if isinstance(p, Piece)]
    counts = [len(list(read_piece(p))) for p in parts]
    assert counts[0] == counts[2] == 1 < counts[1]
    whole = list(iter_records(path, "jsonl"))
    assert len(whole) == sum(counts)
    assert _read_apart(path) == whole
    assert _read_apart(path)[-1].index == len(whole)


# -- GBN -------------------------------------------------------------------------------


def test_a_gbn_record_is_cut_before_each_game_s_tags_after_rounds(tmp_path: Path) -> None:
    games = [simulate_game("standard", 4, seed, "sensible") for seed in range(3)]
    text = write_gbn(games)
    path = tmp_path / "games.gbn"
    path.write_text(text, "utf-8")
    lines = text.splitlines()
    firsts = [n for n, line in enumerate(lines, 1) if line.startswith("[") and (
        n == 1 or not lines[n - 2].startswith("["))]
    got = list(cutting.pieces(path, "games.gbn", "gbn"))
    assert [p.line for p in got if isinstance(p, Piece)] == firsts
    assert [len(list(read_piece(p))) for p in got if isinstance(p, Piece)] == [1, 1, 1]
    assert _read_apart(path, "gbn") == list(iter_records(path, "gbn"))


@pytest.mark.parametrize(
    ("before", "cut"),
    [
        ("1. Ann 1, Bob 2\n\n", True),
        ("1. Ann 1, Bob 2\n", True),  # no blank line between: a tag after rounds
        ("1. Ann 1, Bob 2\n# a comment\n  \n", True),
        ("12 . Ann 1 # after\r\n\n", True),
        ('[Event "x"]\n', False),  # a tag before: the game's own tags
        ("\n", False),  # nothing before it
        ("Ann 1, Bob 2\n\n", False),  # a stray line before: held, it goes with the next game
        ("1. Ann 1, Bob 2\n" + "\n" * 20, False),  # too far back to look
        ("", False),
    ],
)
def test_a_gbn_cut_comes_only_after_a_round_line(before: str, cut: bool) -> None:
    assert cut_before(before.encode(), b'[Event "y"]\n') is cut
    assert not cut_before(before.encode(), b'  [Event "y"]\n')  # not looked for indented


def test_a_gbn_cut_is_not_made_inside_a_line() -> None:
    assert not cut_before(b"1. Ann 1, Bob 2\n\nx", b'[Event "y"]\n')
