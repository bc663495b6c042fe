"""Readers (and writers) of the record formats: GBN, JSON Lines events, CSV rounds."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from getbit_events.errors import InputError
from getbit_events.record import RecordedGame

__all__ = ["FORMATS", "SUFFIXES", "detect", "iter_file", "read_file"]

#: format name -> the file endings ``--format auto`` takes for it
FORMATS: dict[str, tuple[str, ...]] = {
    "gbn": (".gbn",),
    "jsonl": (".jsonl", ".ndjson"),
    "csv": (".csv",),
}
SUFFIXES: tuple[str, ...] = tuple(s for suffixes in FORMATS.values() for s in suffixes)


def detect(path: Path) -> str:
    """The format of ``path`` by its ending (InputError when none fits)."""
    suffix = path.suffix.lower()
    for name, suffixes in FORMATS.items():
        if suffix in suffixes:
            return name
    raise InputError(f"{path}: unknown file type {suffix!r}; use one of {', '.join(SUFFIXES)}")


def iter_file(
    path: str | Path, fmt: str = "auto", source: str | None = None
) -> Iterator[RecordedGame]:
    """Every game recorded in ``path``, one at a time as it is read.

    Every format is streamed: the file is read line by line and memory holds one
    game (and one line of at most ``MAX_LINE`` bytes), however large the file. A
    file that cannot be opened is an InputError at once; anything wrong inside it
    (a bad byte, a line past the limits) is a syntax error of the game it is in.
    """
    path = Path(path)
    fmt = detect(path) if fmt == "auto" else fmt
    if fmt == "gbn":
        from importers.gbn import iter_gbn_file

        return iter_gbn_file(path, source)
    if fmt == "jsonl":
        from importers.jsonl import iter_jsonl_file

        return iter_jsonl_file(path, source)
    if fmt == "csv":
        from importers.csv_rounds import iter_csv_file

        return iter_csv_file(path, source)
    raise InputError(f"{path}: unknown format {fmt!r}; use one of {', '.join(FORMATS)}")


def read_file(path: str | Path, fmt: str = "auto", source: str | None = None) -> list[RecordedGame]:
    """Every game recorded in ``path``, whatever its format."""
    return list(iter_file(path, fmt, source))
