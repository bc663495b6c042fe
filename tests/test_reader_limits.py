"""The GBN and CSV readers under bad input: limits, bad bytes, damaged games.

Whatever a file holds, every game the damage is not in is read as written: a bad
byte, an overlong line or a broken game spoils only its own game, the readers
find where the next game begins, and memory holds one game, not the file.
"""

from __future__ import annotations

import gc
import tracemalloc
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from getbit_events.limits import MAX_LINE, MAX_ROUNDS, MAX_TEXT, MAX_VIOLATIONS
from getbit_events.record import RecordedGame
from getbit_events.simulate import SETUPS, simulate_games
from getbit_events.validate import validate_game
from importers import iter_file, read_file
from importers.csv_rounds import read_csv
from importers.gbn import read_gbn, write_gbn

GAME = '[Line "John, Anne, Beth, Ted"]\n\n1. John 4, Anne 1, Beth 4, Ted 5\n'
SHEET = "round,John,Anne,Beth,Ted\n1,4,1,4,5\n2,3,2,5,1\n"


def errors(game: RecordedGame) -> list[str]:
    return [str(v) for v in game.syntax_errors]


def signature(game: RecordedGame) -> tuple[object, ...]:
    """What a game says, wherever it stands in its file: tags, plays, syntax errors."""
    return (
        tuple((t.name, t.value) for t in game.tags),
        tuple(tuple((p.name, p.card) for p in r.plays) for r in game.rounds),
        len(game.syntax_errors),
    )


def write(tmp_path: Path, name: str, data: bytes) -> Path:
    path = tmp_path / name
    path.write_bytes(data)
    return path


# -- numbers: only ASCII digits of sensible length -----------------------------------


def test_a_card_no_hand_holds_is_read_for_the_rules_to_judge() -> None:
    # the GBN repro: "Ted 99" is a play of 99 (the rules say no one holds it)
    (game,) = read_gbn('[Line "John, Anne, Beth, Ted"]\n\n1. John 4, Anne 1, Beth 4, Ted 99\n')
    assert game.syntax_errors == ()
    assert game.rounds[0].plays[-1].card == "99"


@pytest.mark.parametrize("digit", ["²", "①", "፩", "٣"])
def test_csv_unicode_digits_are_no_number(tmp_path: Path, digit: str) -> None:
    # the CSV repro: "²" passed str.isdigit and int() crashed on it (or read
    # "٣" as 3); now it is a syntax error at its cell, and the game after it is read
    data = f"round,John,Anne,Beth,Ted\n{digit},4,1,4,5\n# Event: next\n{SHEET}"
    first, second = read_file(write(tmp_path, "s.csv", data.encode()))
    assert errors(first) == [
        (
            f"{tmp_path}/s.csv:2:1: round 1: expected the round number (ASCII digits), not "
            f"'{digit}' [syntax]"
        )
    ]
    assert validate_game(second).valid
    (card,) = read_csv(f"round,John,Anne,Beth,Ted\n1,4,{digit},4,5\n", "s.csv")
    assert [(v.pos.line, v.pos.column) for v in card.syntax_errors] == [(2, 5)]


def test_csv_numbers_past_nine_digits_are_errors_not_crashes() -> None:
    # a number of 4,301 digits made int() raise; a card of 20 digits is no card
    huge = "9" * 4301
    (rows,) = read_csv(f"round,John,Anne,Beth,Ted\n{huge},4,1,4,5\n2,{'9' * 20},1,4,5\n", "s.csv")
    assert [(v.pos.line, v.pos.column) for v in rows.syntax_errors] == [(2, 1), (3, 3)]
    assert all(len(v.message) < 200 for v in rows.syntax_errors)  # the value is cut short


def test_gbn_round_numbers_are_ascii_digits() -> None:
    # "٣." (an Arabic-Indic three) was read as round 3
    (game,) = read_gbn('[Line "A, B, C, D"]\n٣. A 1, B 2, C 3, D 4\n', "g.gbn")
    assert [(v.pos.line, v.pos.column) for v in game.syntax_errors] == [(2, 1)]
    (game,) = read_gbn('[Line "A, B, C, D"]\n1. A 1, B 2, C 3, D 99999999999999999999\n')
    assert [(v.round, v.pos.column) for v in game.syntax_errors] == [(1, 21)]


# -- a bad byte spoils only its own game -----------------------------------------------


@pytest.mark.parametrize(
    ("bad", "column", "message"),
    [
        (b"Ann\xe9", 15, "not UTF-8 text (byte 0xe9)"),
        (b"Ann\x00", 15, "a NUL byte; this is not text"),
    ],
)
def test_a_bad_byte_in_gbn_is_an_error_of_its_game(
    tmp_path: Path, bad: bytes, column: int, message: str
) -> None:
    text = (GAME * 3).encode()
    lines = text.split(b"\n")
    lines[5] = lines[5].replace(b"Anne", bad)  # the second game's round line
    path = write(tmp_path, "g.gbn", b"\n".join(lines))
    first, second, third = read_file(path)
    assert errors(second) == [f"{path}:6:{column}: round 1: {message} [syntax]"]
    assert validate_game(first).valid
    assert validate_game(third).valid


def test_a_bad_byte_in_a_csv_tag_or_header_spoils_only_its_game(tmp_path: Path) -> None:
    data = f"# Event: one\n{SHEET}# Event: tw\xe9\n{SHEET}\n{SHEET}".encode("latin-1")
    path = write(tmp_path, "s.csv", data)
    first, second, third = read_file(path)
    assert errors(second) == [f"{path}:5:12: not UTF-8 text (byte 0xe9) [syntax]"]
    assert validate_game(first).valid
    assert validate_game(third).valid
    nul = write(tmp_path, "n.csv", (SHEET + "\n" + SHEET.replace("round", "ro\0und")).encode())
    first, second = read_file(nul)
    assert validate_game(first).valid
    assert errors(second) == [f"{nul}:5:3: a NUL byte; this is not text [syntax]"]


def test_a_byte_order_mark_is_still_dropped(tmp_path: Path) -> None:
    (game,) = read_file(write(tmp_path, "s.csv", b"\xef\xbb\xbf" + SHEET.encode()))
    assert validate_game(game).valid
    (game,) = read_file(write(tmp_path, "g.gbn", b"\xef\xbb\xbf" + GAME.encode()))
    assert validate_game(game).valid


# -- limits: one line, one text, one game ---------------------------------------------


@pytest.mark.parametrize("fmt", ["gbn", "csv"])
def test_a_line_past_the_limit_is_refused_and_the_next_game_read(tmp_path: Path, fmt: str) -> None:
    if fmt == "gbn":
        long = '[Line "A, B, C, D"]\n1. ' + "A 1, " * (MAX_LINE // 5) + "\n"
        data = GAME + "\n" + long + "\n" + GAME
    else:
        long = "round,A,B,C,D\n" + "1" + ",1" * MAX_LINE + "\n"
        data = SHEET + "\n" + long + "\n" + SHEET
    path = write(tmp_path, f"g.{fmt}", data.encode())
    first, second, third = read_file(path)
    assert errors(second) == [
        (
            f"{path}:6:1: round 1: the line is longer than {MAX_LINE} bytes "
            "(the limit of every record format) [syntax]"
        )
    ]
    assert validate_game(first).valid
    assert validate_game(third).valid
    # the same text read from memory says the same
    assert [errors(g) for g in (read_gbn if fmt == "gbn" else read_csv)(data, str(path))] == [
        errors(g) for g in (first, second, third)
    ]


def test_a_line_of_exactly_the_limit_is_read(tmp_path: Path) -> None:
    comment = "# " + "x" * (MAX_LINE - 2)
    path = write(tmp_path, "g.gbn", (comment + "\n" + GAME).encode())
    (game,) = read_file(path)
    assert validate_game(game).valid


@pytest.mark.parametrize(
    ("text", "column"),
    [
        # a name in Line, a play, an outcome, a tag's value: 1,001 characters
        (f'[Line "{"J" * (MAX_TEXT + 1)}, Anne, Beth, Ted"]\n', 1),
        (f'[Line "John, Anne, Beth, Ted"]\n1. {"J" * (MAX_TEXT + 1)} 4\n', 4),
        (f'[Line "A, B, C, D"]\n1. A 1, B 2, C 3, D 4 ; line {"D" * (MAX_TEXT + 1)}\n', 25),
        (f'[Event "{"e" * (MAX_TEXT + 1)}"]\n[Line "A, B, C, D"]\n', 1),
    ],
)
def test_gbn_text_past_the_limit_is_a_syntax_error(text: str, column: int) -> None:
    # a 10,000-character name was read here and refused by JSON Lines after export
    (game,) = read_gbn(text, "g.gbn")
    [error] = game.syntax_errors
    assert error.pos.column == column
    assert f"of {MAX_TEXT + 1} characters" in error.message
    assert f"at most {MAX_TEXT}" in error.message


def test_gbn_text_of_exactly_the_limit_is_read() -> None:
    name = "J" * MAX_TEXT
    text = (
        f'[Event "{"e" * MAX_TEXT}"]\n[Line "{name}, Anne, Beth, Ted"]\n'
        f"1. {name} 4, Anne 1, Beth 4, Ted 5\n"
    )
    (game,) = read_gbn(text, "g.gbn")
    assert validate_game(game).valid


def test_csv_text_past_the_limit_is_a_syntax_error() -> None:
    long = "J" * (MAX_TEXT + 1)
    header, tag = read_csv(
        f"round,{long},Anne,Beth,Ted\n1,4,1,4,5\n# Event: {long}\n{SHEET}", "s.csv"
    )
    assert [(v.pos.line, v.pos.column) for v in header.syntax_errors] == [(1, 7)]
    assert [(v.pos.line, v.pos.column) for v in tag.syntax_errors] == [(3, 1)]
    (ok,) = read_csv(SHEET.replace("John", "J" * MAX_TEXT), "s.csv")
    assert validate_game(ok).valid


def test_a_game_past_the_rounds_limit_gets_one_error_and_keeps_no_more_rounds() -> None:
    rounds = "".join(f"{n}. A 1, B 2, C 3, D 4\n" for n in range(1, MAX_ROUNDS + 51))
    long, after = read_gbn('[Line "A, B, C, D"]\n' + rounds + "\n" + GAME, "g.gbn")
    assert len(long.rounds) == MAX_ROUNDS
    assert [(v.pos.line, v.message) for v in long.syntax_errors] == [
        (
            MAX_ROUNDS + 2,
            (
                f"more than {MAX_ROUNDS} rounds: a game ends long before; "
                "its further rounds are not read"
            ),
        )
    ]
    assert validate_game(after).valid
    rows = "".join(f"{n},1,2,3,4\n" for n in range(1, MAX_ROUNDS + 51))
    long, after = read_csv("round,A,B,C,D\n" + rows + "# Event: next\n" + SHEET, "s.csv")
    assert len(long.rounds) == MAX_ROUNDS
    assert [v.pos.line for v in long.syntax_errors] == [MAX_ROUNDS + 2]
    assert validate_game(after).valid


@pytest.mark.parametrize("fmt", ["gbn", "csv"])
def test_syntax_errors_of_a_game_are_capped(fmt: str) -> None:
    n = MAX_VIOLATIONS + 50
    if fmt == "gbn":
        text = '[Line "A, B, C, D"]\n' + "".join(f"{k}. A x\n" for k in range(1, n + 1))
        (game,) = read_gbn(text, "g.gbn")
    else:
        text = "round,A,B,C,D\n" + "".join(f"{k},x,1,2,3\n" for k in range(1, n + 1))
        (game,) = read_csv(text, "s.csv")
    assert len(game.syntax_errors) == MAX_VIOLATIONS + 1
    # the last says how many were left out, as the validator's own cap does
    last = game.syntax_errors[-1]
    assert last.code == "too-many-violations"
    assert last.message == (
        f"50 more violations were found in this game and left out: at most {MAX_VIOLATIONS} "
        "are reported"
    )
    assert last.pos == game.syntax_errors[-2].pos  # at the last one reported
    assert validate_game(game).violations == game.syntax_errors


# -- where the next game begins ---------------------------------------------------------

TWO = '[Line "A, B, C, D"]\n\n1. A 1, B 2, C 3, D 4\n2. A 2, B 3, C 4, D 5\n'


def test_a_game_without_tags_does_not_merge_into_the_one_before() -> None:
    # after a blank line, a round line numbered 1 starts a game (it was read as
    # round 3 of the game before, which then broke)
    first, second = read_gbn(TWO + "\n1. A 1, B 2, C 3, D 4\n", "g.gbn")
    assert validate_game(first).valid
    assert len(first.rounds) == 2
    assert second.pos.line == 6
    assert second.tags == ()


def test_a_damaged_first_tag_starts_its_own_game() -> None:
    # "{Line" is no tag: it was an error of the game before
    first, second = read_gbn(TWO + '\n{Line "A, B, C, D"]\n\n1. A 1, B 2, C 3, D 4\n', "g.gbn")
    assert validate_game(first).valid
    assert [(v.pos.line, v.pos.column) for v in second.syntax_errors] == [(6, 1)]
    assert second.pos.line == 6
    assert len(second.rounds) == 1


def test_a_tag_run_into_the_line_before_it_starts_its_own_game() -> None:
    # a blank line's line end turned into "*": the next game's first tag follows
    # the last round line directly
    text = TWO + '*[Line "A, B, C, D"]\n[Winner "A"]\n\n1. A 1, B 2, C 3, D 4\n'
    first, second = read_gbn(text, "g.gbn")
    assert validate_game(first).valid
    assert [v.pos.line for v in second.syntax_errors] == [5]


def test_a_stray_line_between_rounds_stays_in_its_game() -> None:
    # after a blank line, a stray line followed by the game's next round: one game, broken
    (game,) = read_gbn(TWO + "\nnote\n3. A 3, B 4, C 5, D 6\n", "g.gbn")
    assert len(game.rounds) == 3
    assert [v.pos.line for v in game.syntax_errors] == [6]
    # with no blank line before it, too
    (game,) = read_gbn(TWO + "note\n3. A 3, B 4, C 5, D 6\n", "g.gbn")
    assert [v.pos.line for v in game.syntax_errors] == [5]


def test_stray_lines_after_the_last_game_are_a_game_of_their_own() -> None:
    first, junk = read_gbn(TWO + "\nsomething\nelse\n", "g.gbn")
    assert validate_game(first).valid
    assert junk.pos.line == 6
    assert [v.pos.line for v in junk.syntax_errors] == [6, 7]


@pytest.mark.parametrize("junk", ["\0", "\ufffd", "²", "*"])
def test_a_damaged_blank_line_between_games_spoils_neither(junk: str) -> None:
    # the blank line between two games holds a stray byte: neither game takes it
    first, stray, second = read_gbn(TWO + junk + "\n" + TWO, "g.gbn")
    assert validate_game(first).valid
    assert validate_game(second).valid
    assert [v.pos.line for v in stray.syntax_errors] == [5]
    first, stray, second = read_csv(SHEET + junk + "\n" + SHEET, "s.csv")
    assert validate_game(first).valid
    assert validate_game(second).valid
    assert [v.pos.line for v in stray.syntax_errors] == [4]


def test_a_game_whose_rounds_are_lost_does_not_take_the_next_games_tags() -> None:
    # after a blank line, a tag the game already has (Line) begins the next game
    first, second = read_gbn('[Line "A, B, C, D"]\n\n' + TWO, "g.gbn")
    assert first.rounds == ()
    assert validate_game(second).valid
    # written together, the same tag twice is still one game's mistake
    (game,) = read_gbn('[Line "A, B, C, D"]\n' + TWO, "g.gbn")
    assert [v.code for v in validate_game(game).violations] == ["duplicate-tag"]


def test_a_csv_tag_with_a_bad_byte_starts_its_own_game() -> None:
    first, second = read_csv(SHEET + "# Wi\0nner: Bob\n" + SHEET, "s.csv")
    assert validate_game(first).valid
    assert [(v.pos.line, v.pos.column) for v in second.syntax_errors] == [(4, 5)]


def test_a_damaged_csv_header_starts_its_own_game() -> None:
    # "r0und": a row of names, not cards; it was read as a broken row of the game before
    first, second = read_csv(SHEET + SHEET.replace("round", "r0und"), "s.csv")
    assert validate_game(first).valid
    assert len(first.rounds) == 2
    assert [v.pos.line for v in second.syntax_errors] == [4]
    # after a blank line: the same, and the rows after it stay with it
    first, second = read_csv(SHEET + "\n" + SHEET.replace("round", "ro,und"), "s.csv")
    assert validate_game(first).valid
    assert [v.pos.line for v in second.syntax_errors] == [5]


def test_a_csv_game_without_header_or_tags_after_a_blank_line() -> None:
    first, second = read_csv(SHEET + "\n1,4,1,4,5\n", "s.csv")
    assert validate_game(first).valid
    assert second.pos.line == 5
    # a damaged round number stays in its game
    (game,) = read_csv(SHEET + "x,4,1,4,5\n", "s.csv")
    assert [v.pos.line for v in game.syntax_errors] == [4]


# -- one damaged line never changes another game -------------------------------------

DAMAGES = ["flip", "drop", "duplicate", "nul", "bad-utf8", "odd-digit", "cut", "space"]


def damage(line: bytes, how: str, at: int, bit: int) -> bytes:
    """``line`` (with its line end) damaged one way."""
    at %= len(line)
    if how == "flip":
        return line[:at] + bytes([line[at] ^ (1 << bit)]) + line[at + 1 :]
    if how == "drop":
        return b""
    if how == "duplicate":
        return line + line
    if how == "nul":
        return line[:at] + b"\0" + line[at:]
    if how == "bad-utf8":
        return line[:at] + b"\xff" + line[at:]
    if how == "odd-digit":
        digits = [k for k, c in enumerate(line) if 48 <= c <= 57]
        if not digits:
            return line[:at] + "²".encode() + line[at:]
        k = digits[at % len(digits)]
        return line[:k] + ["²", "①", "٣", "፩"][bit % 4].encode() + line[k + 1 :]
    if how == "cut":
        return line[:at] + b"\n"
    assert how == "space"
    return line[:at] + [" ", "\t", "\u00a0", "\u2028"][bit % 4].encode() + line[at:]


def csv_sheets(text: str) -> str:
    """The standard games of GBN ``text`` as CSV sheets, tags first, a blank line between."""
    sheets = []
    for game in read_gbn(text, "g.gbn"):
        tags = [t for t in game.tags if t.name != "Line"]
        (line,) = (t.value.split(", ") for t in game.tags if t.name == "Line")
        rows = []
        for rnd in game.rounds:
            cards = {p.name: p.card for p in rnd.plays}
            rows.append(",".join([str(rnd.number), *(cards.get(n, "") for n in line)]))
        sheets.append(
            "".join(f"# {t.name}: {t.value}\n" for t in tags)
            + "round,"
            + ",".join(line)
            + "\n"
            + "".join(r + "\n" for r in rows)
        )
    return "\n".join(sheets)


def damaged_file(chunks: list[str], victim: int, line: int, how: str, at: int, bit: int) -> bytes:
    victim %= len(chunks)
    lines = chunks[victim].encode().splitlines(keepends=True)
    line %= len(lines)
    lines[line] = damage(lines[line], how, at, bit)
    return b"\n".join(
        b"".join(lines) if k == victim else chunk.encode() for k, chunk in enumerate(chunks)
    )


def assert_others_read_unchanged(
    chunks: list[str], data: bytes, victim: int, fmt: str, tmp_path: Path
) -> None:
    path = tmp_path / f"damaged.{fmt}"
    path.write_bytes(data)
    read = [signature(g) for g in iter_file(path)]
    whole = (read_gbn if fmt == "gbn" else read_csv)("\n".join(chunks), "x")
    others = [signature(g) for k, g in enumerate(whole) if k != victim % len(chunks)]
    # every other game is read as it was, in order
    found = iter(read)
    assert all(any(s == t for t in found) for s in others), (others, read)


GAME_TEXTS = st.tuples(st.sampled_from(SETUPS), st.integers(0, 10_000), st.integers(2, 4)).map(
    lambda a: [
        write_gbn([g]) for g in simulate_games(a[2], a[0][0], a[0][1], seed=a[1], bot="sensible")
    ]
)
DAMAGE = st.tuples(
    st.integers(0, 9),
    st.integers(0, 99),
    st.sampled_from(DAMAGES),
    st.integers(0, 999),
    st.integers(0, 7),
)


@settings(
    max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(chunks=GAME_TEXTS, hit=DAMAGE)
def test_one_damaged_gbn_line_changes_no_other_game(
    tmp_path: Path, chunks: list[str], hit: tuple[int, int, str, int, int]
) -> None:
    data = damaged_file(chunks, *hit)
    assert_others_read_unchanged(chunks, data, hit[0], "gbn", tmp_path)


@settings(
    max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(seed=st.integers(0, 10_000), n=st.integers(2, 4), hit=DAMAGE)
def test_one_damaged_csv_line_changes_no_other_game(
    tmp_path: Path, seed: int, n: int, hit: tuple[int, int, str, int, int]
) -> None:
    chunks = [csv_sheets(write_gbn([g])) for g in simulate_games(n, seed=seed, bot="sensible")]
    data = damaged_file(chunks, *hit)
    assert_others_read_unchanged(chunks, data, hit[0], "csv", tmp_path)


# -- memory holds one game, not the file -----------------------------------------------


def peak_reading(path: Path) -> tuple[int, int]:
    """(games read, peak bytes allocated) reading ``path`` game by game."""
    gc.collect()
    tracemalloc.start()
    try:
        n = sum(1 for _ in iter_file(path))
        return n, tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


@pytest.mark.parametrize("fmt", ["gbn", "csv"])
def test_memory_holds_one_game_not_the_file(tmp_path: Path, fmt: str) -> None:
    # The whole file was read (and decoded) at once: 10 MB of records took more than
    # 20 MB. Read line by line, the peak is a few games plus what the interpreter keeps
    # for reuse (free lists of small tuples, about 0.7 MB here), whatever the file's size.
    # (CSV is read more slowly, and traced allocations slower still: half a megabyte of it.)
    size = 10_000_000 if fmt == "gbn" else 500_000
    games = write_gbn(simulate_games(20, "standard", 6, seed=7))
    block = (games if fmt == "gbn" else csv_sheets(games)).encode() + b"\n"
    path = tmp_path / f"big.{fmt}"
    with path.open("wb") as out:
        for _ in range(size // len(block)):
            out.write(block)
    n, peak = peak_reading(path)
    assert n == 20 * (size // len(block))
    assert peak < 1 << 20, peak


def test_memory_for_a_5_mb_line_is_one_capped_line(tmp_path: Path) -> None:
    path = tmp_path / "long.gbn"
    path.write_bytes(GAME.encode() + b'\n[Event "' + b"x" * (5 << 20) + b'"]\n' + GAME.encode())
    n, peak = peak_reading(path)
    assert n == 2
    assert peak < 3 * MAX_LINE, peak  # the line is held to MAX_LINE + 1 bytes, then skipped
