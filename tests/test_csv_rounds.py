"""CSV rounds: a score sheet reads as the same game as its GBN, with errors at line:col."""

from __future__ import annotations

from pathlib import Path

import attrs
import pytest

from getbit_events.validate import validate_game
from importers import read_file
from importers.csv_rounds import read_csv
from importers.gbn import read_gbn

GBN = """[Event "Friday club"]
[Line "John, Anne, Beth, Ted"]

1. John 4, Anne 1, Beth 4, Ted 5
2. John 3, Anne 2, Beth 5, Ted 1
3. John 5, Anne 3, Beth 3, Ted 2
"""

CSV = """# Friday club, table 2 (a comment: no 'Name: value')
# Event: Friday club
round,John,Anne,Beth,Ted
1,4,1,4,5
2,3,2,5,1
3,5,3,3,2
"""


def _events(report: object) -> list[object]:
    return [attrs.evolve(e, pos=None) for e in report.events]  # type: ignore[attr-defined]


def test_a_sheet_is_the_same_game_as_its_gbn() -> None:
    (sheet,) = read_csv(CSV, "club.csv")
    (record,) = read_gbn(GBN, "club.gbn")
    a, b = validate_game(sheet), validate_game(record)
    assert a.valid
    assert _events(a) == _events(b)


def test_the_shark_column_and_empty_cells() -> None:
    text = (
        "# Variant: shark\n# Shark: Jaws\n"
        "round;Ann;Bob;Jaws;Cid;Dee\n"
        "1;1;2;;3;4\n"
        "2;2;3;left-leg;4;5\n"
    )
    (game,) = read_csv(text, "shark.csv")
    report = validate_game(game)
    assert report.valid, [str(v) for v in report.violations]
    assert report.events[0].line == ("Ann", "Bob", "Cid", "Dee")  # type: ignore[union-attr]
    assert report.events[0].shark == "Jaws"  # type: ignore[union-attr]


def test_a_missing_cell_is_reported_at_the_end_of_its_row() -> None:
    text = CSV.replace("2,3,2,5,1\n", "2,3,2,5\n")
    (game,) = read_csv(text, "club.csv")
    (error,) = validate_game(game).violations
    assert str(error) == (
        "club.csv:5:8: round 2: 4 cells where the header has 5: no cell for Ted "
        "(leave a cell empty, not out) [syntax]"
    )


def test_a_bad_card_is_reported_at_its_cell() -> None:
    (game,) = read_csv(CSV.replace("3,5,3,3,2", "3,5,3,x3,2"), "club.csv")
    (error,) = validate_game(game).violations
    assert str(error).startswith("club.csv:6:7: round 3: expected a card for Beth: 1 to 7")


def test_an_empty_cell_for_a_swimmer_still_in_the_game_is_a_missing_play() -> None:
    (game,) = read_csv(CSV.replace("3,5,3,3,2", "3,5,,3,2"), "club.csv")
    (error,) = validate_game(game).violations
    assert error.code == "missing-play"
    assert "Anne is still in the game but plays no card" in error.message


def test_a_sheet_without_a_header_says_what_it_expected() -> None:
    (game,) = read_csv("# Event: x\n1,4,1,4,5\n", "club.csv")
    (error,) = validate_game(game).violations
    assert str(error).startswith(
        "club.csv:2:1: expected the header row 'round,NAME,NAME,...', not '1,4,1,4,5'"
    )


def test_a_broken_game_leaves_the_next_one_readable() -> None:
    text = CSV.replace("2,3,2,5,1\n", "2,3,2\n") + "\n# Event: second\n" + CSV.split("\n", 2)[2]
    first, second = (validate_game(g) for g in read_csv(text, "two.csv"))
    assert not first.readable
    assert second.valid
    assert second.events[0].tags == (("Event", "second"),)  # type: ignore[union-attr]


@pytest.mark.parametrize("name", ["O'Brien", "<script>alert(1)</script>", "=cmd()", "../etc"])
def test_hostile_names_are_kept_as_written(name: str) -> None:
    text = CSV.replace("John", name)
    (game,) = read_csv(text, "x.csv")
    report = validate_game(game)
    assert report.valid
    assert report.events[0].line[0] == name  # type: ignore[union-attr]


def test_quoted_cells_crlf_and_a_bom(tmp_path: Path) -> None:
    path = tmp_path / "sheet.csv"
    text = CSV.replace("round,John", 'round,"John"').replace("\n", "\r\n")
    path.write_bytes(b"\xef\xbb\xbf" + text.encode())
    (game,) = read_file(path)
    assert validate_game(game).valid


def test_a_wrong_encoding_spoils_only_its_game(tmp_path: Path) -> None:
    # a byte that is not UTF-8 used to refuse the whole file; now it is an error of
    # its game at line:col, and the game after it is read
    path = tmp_path / "sheet.csv"
    bad = CSV.encode().replace(b"Anne", b"Ann\xe9")
    path.write_bytes(bad + b"\n" + CSV.encode())
    first, second = read_file(path)
    assert [str(v) for v in first.syntax_errors] == [
        f"{path}:3:15: not UTF-8 text (byte 0xe9) [syntax]"
    ]
    assert validate_game(second).valid
