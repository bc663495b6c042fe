"""``importers.find_files``: the one way every command finds the record files of its paths."""

from __future__ import annotations

from pathlib import Path

import pytest

from getbit_events.errors import InputError
from importers import FORMATS, find_files, folder_suffixes


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    for name in ("b.gbn", "a.GBN", "sub/c.jsonl", "sub/d.csv", "notes.txt", "sub/deep/e.gbn"):
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text("", encoding="utf-8")
    (tmp_path / "folder.gbn").mkdir()  # a folder named like a record is no record
    return tmp_path


def test_a_folder_gives_its_record_files_at_any_depth_sorted(tree: Path) -> None:
    # .gbn and .jsonl: a .csv in a folder may be a spreadsheet (stats --csv), not a record
    found = [p.relative_to(tree).as_posix() for p in find_files([tree])]
    assert found == ["a.GBN", "b.gbn", "sub/c.jsonl", "sub/deep/e.gbn"]


def test_a_folder_gives_its_csv_files_only_for_format_csv(tree: Path) -> None:
    assert [p.name for p in find_files([tree], folder_suffixes("csv"))] == ["d.csv"]
    assert "d.csv" not in [p.name for p in find_files([tree], folder_suffixes("auto"))]


def test_a_format_narrows_a_folder_to_its_endings(tree: Path) -> None:
    found = [p.name for p in find_files([tree], FORMATS["gbn"])]
    assert found == ["a.GBN", "b.gbn", "e.gbn"]


def test_a_file_is_given_as_named_whatever_its_ending(tree: Path) -> None:
    named = [tree / "notes.txt", tree / "sub", tree / "b.gbn"]
    found = [p.relative_to(tree).as_posix() for p in find_files(named)]
    assert found == ["notes.txt", "sub/c.jsonl", "sub/deep/e.gbn", "b.gbn"]


def test_a_missing_path_is_an_input_error_when_reached(tree: Path) -> None:
    files = find_files([tree / "b.gbn", tree / "gone.gbn", tree / "a.GBN"])
    assert next(files) == tree / "b.gbn"  # what comes before is given first
    with pytest.raises(InputError, match=r"gone\.gbn: no such file or folder"):
        next(files)


def test_missing_ok_gives_a_missing_path_for_the_caller_to_say(tree: Path) -> None:
    named = [tree / "gone.gbn", tree / "b.gbn"]
    assert list(find_files(named, missing_ok=True)) == named
