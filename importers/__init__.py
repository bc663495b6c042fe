"""Readers (and writers) of the record formats: GBN, JSON Lines events, CSV rounds,
the JSON Lines wire format of events (``wire``), and where a path's record files are."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import IO, TYPE_CHECKING, overload

from biteme.record import BiteRecord
from getbit_events.errors import InputError
from getbit_events.record import RecordedGame
from importers.reading import STDIN, Encoding, present, read_in, recoded, spool, with_text
from importers.skipping import Skip, Skipped

if TYPE_CHECKING:
    from importers.pieces import Piece, Rest

__all__ = [
    "FOLDER_SUFFIXES",
    "FORMATS",
    "SUFFIXES",
    "Encoding",
    "detect",
    "find_files",
    "folder_suffixes",
    "iter_file",
    "iter_records",
    "no_games",
    "read_file",
    "record_pieces",
    "record_suffixes",
]

#: format name -> the file endings ``--format auto`` takes for it
FORMATS: dict[str, tuple[str, ...]] = {
    "gbn": (".gbn",),
    "jsonl": (".jsonl", ".ndjson"),
    "csv": (".csv",),
}
SUFFIXES: tuple[str, ...] = tuple(s for suffixes in FORMATS.values() for s in suffixes)
#: what a folder gives when no format is named: GBN and JSON Lines records. A .csv in
#: a folder is as likely a spreadsheet export (``getbit stats --csv``) as a score
#: sheet, so it is read only when ``--format csv`` says so (a .csv named is read).
FOLDER_SUFFIXES: tuple[str, ...] = FORMATS["gbn"] + FORMATS["jsonl"]


def folder_suffixes(fmt: str) -> tuple[str, ...]:
    """The endings of the files a folder gives for ``--format fmt`` (auto: GBN, JSON Lines)."""
    return FOLDER_SUFFIXES if fmt == "auto" else FORMATS[fmt]


def find_files(
    paths: Iterable[Path], suffixes: tuple[str, ...] = FOLDER_SUFFIXES, missing_ok: bool = False
) -> Iterator[Path]:
    """The record files ``paths`` name, in order: a folder gives its files (at any
    depth, sorted) whose ending is one of ``suffixes``; any other path is given as is.

    A path that does not exist is an InputError when it is reached; with
    ``missing_ok`` it is given too, for the caller to say so and go on to the next.
    A pipe given (``-`` for standard input, ``/dev/stdin``, a FIFO, a shell's
    ``<(...)``) is copied as it is found, to be read as a file (``reading.spool``).
    """
    for path in paths:
        if path.is_dir():
            yield from sorted(
                p for p in path.rglob("*") if p.suffix.lower() in suffixes and p.is_file()
            )
        else:
            spool(path)
            if not (missing_ok or present(path)):
                raise InputError(f"{path}: no such file or folder")
            yield path


def no_games(path: Path, suffixes: tuple[str, ...], no_files: bool) -> str:
    """What every command says of a path given that holds no games (a warning, and exit
    2); ``no_files``: a folder that holds no file of ``suffixes``, which it names."""
    hint = f" (no record files: {', '.join(suffixes)})" if no_files else ""
    return f"no games in {path}{hint}"


def record_suffixes(fmt: str) -> tuple[str, ...]:
    """``folder_suffixes`` with the records of "Come on! Bite me!" (``.bmn``) for
    ``--format auto``: what a folder gives a command that reads either game."""
    from importers.bmn import SUFFIX

    return (*FOLDER_SUFFIXES, SUFFIX) if fmt == "auto" else FORMATS[fmt]


@overload
def iter_records(
    path: str | Path,
    fmt: str = ...,
    encoding: str | None = ...,
    say: Callable[[str], None] | None = ...,
    skip: None = ...,
) -> Iterator[RecordedGame | BiteRecord]: ...
@overload
def iter_records(
    path: str | Path,
    fmt: str = ...,
    encoding: str | None = ...,
    say: Callable[[str], None] | None = ...,
    skip: Skip = ...,
) -> Iterator[RecordedGame | BiteRecord | Skipped]: ...
def iter_records(
    path: str | Path,
    fmt: str = "auto",
    encoding: str | None = "utf-8",
    say: Callable[[str], None] | None = None,
    skip: Skip = None,
) -> Iterator[RecordedGame | BiteRecord | Skipped]:
    """Every game of ``path``, of either game, with its text: a file of "Come on!
    Bite me!" (``.bmn``, a Game tag naming it, a log of its events) read as one
    (``bite_jsonl.iter_bite_file``), any other by ``iter_file``. ``skip``: the games
    to leave unread, where the reader can (``iter_file``)."""
    from importers.bite_jsonl import bite_kind, iter_bite_file

    path = Path(path)
    kind = bite_kind(path, fmt)
    if kind is not None:
        return with_text(iter_bite_file(path, log=kind == "log"), path)
    return iter_file(path, fmt, encoding=encoding, say=say, skip=skip)


def record_pieces(
    path: str | Path, fmt: str, encoding: str | None, say: Callable[[str], None]
) -> Iterator[Piece | Rest] | None:
    """The pieces of a GBN file or a JSON Lines log of Get Bit! in UTF-8, for worker
    processes to read apart (``importers.pieces``); None for any other file
    (``iter_records`` reads it)."""
    from importers.bite_jsonl import bite_kind
    from importers.pieces import FORMATS, pieces

    path = Path(path)
    if bite_kind(path, fmt) is not None:
        return None
    chosen = detect(path) if fmt == "auto" else fmt
    if chosen not in FORMATS:
        return None
    heard: list[str] = []
    if not read_in(path, encoding, heard.append).utf8:
        return None  # recoded as it is read: ``iter_records`` says so
    for note in heard:
        say(note)
    return pieces(path, str(path), chosen)


def detect(path: Path) -> str:
    """The format of ``path`` by its ending (InputError when none fits)."""
    suffix = path.suffix.lower()
    for name, suffixes in FORMATS.items():
        if suffix in suffixes:
            return name
    if suffix == ".bmn":
        raise InputError(
            f"{path}: a record of Come on! Bite me! (BMN): validate, import, replay and "
            "stats read it; this command does not yet"
        )
    if str(path) == STDIN:
        raise InputError("-: standard input has no file ending to tell its format by "
                         "(validate, import, replay and report take --format gbn|jsonl|csv)")
    what = f"unknown file type {suffix!r}" if suffix else "no file ending to tell its format by"
    raise InputError(
        f"{path}: {what}; name it .gbn, .jsonl or .csv (validate, import, replay and "
        "report also take --format gbn|jsonl|csv)"
    )


@overload
def iter_file(
    path: str | Path,
    fmt: str = ...,
    source: str | None = ...,
    encoding: str | None = ...,
    say: Callable[[str], None] | None = ...,
    skip: None = ...,
) -> Iterator[RecordedGame]: ...
@overload
def iter_file(
    path: str | Path,
    fmt: str = ...,
    source: str | None = ...,
    encoding: str | None = ...,
    say: Callable[[str], None] | None = ...,
    skip: Skip = ...,
) -> Iterator[RecordedGame | Skipped]: ...
def iter_file(
    path: str | Path,
    fmt: str = "auto",
    source: str | None = None,
    encoding: str | None = "utf-8",
    say: Callable[[str], None] | None = None,
    skip: Skip = None,
) -> Iterator[RecordedGame | Skipped]:
    """Every game recorded in ``path``, one at a time as it is read.

    Every format is streamed: the file is read line by line and memory holds one
    game (and one line of at most ``MAX_LINE`` bytes), however large the file. A
    file that cannot be opened is an InputError at once; anything wrong inside it
    (a bad byte, a line past the limits) is a syntax error of the game it is in.

    ``encoding`` None: detected when the file is not UTF-8 (``reading.read_in``),
    and ``say`` is told which was used, in one line naming the file. A game's text
    is kept as the file's bytes, whatever its encoding.

    ``skip(k)`` True: the file's k-th game is found but left unread, a ``Skipped``
    in its place (``importers.skipping``; GBN and JSON Lines: a CSV file is read
    whole).
    """
    path = Path(path)
    fmt = detect(path) if fmt == "auto" else fmt
    if fmt not in FORMATS:
        raise InputError(f"{path}: unknown format {fmt!r}; use one of {', '.join(FORMATS)}")
    chosen = read_in(path, encoding, say, source)
    if fmt == "gbn":
        from importers.gbn import iter_gbn_file, iter_gbn_stream
        from importers.gbn_lex import open_record

        if chosen.utf8:
            return with_text(iter_gbn_file(path, source, skip), path)
        stream, name = open_record(path, source)
        return with_text(iter_gbn_stream(recoded(stream, chosen), name, skip), path)
    if fmt == "jsonl":
        from importers.jsonl import iter_jsonl, iter_jsonl_file

        if chosen.utf8:
            return with_text(iter_jsonl_file(path, source, skip), path)
        from importers.gbn_lex import open_record

        stream, name = open_record(path, source)
        games = iter_jsonl(recoded(stream, chosen), name, skip)
        return with_text(_closing(games, stream), path)
    from importers.csv_rounds import iter_csv_stream
    from importers.gbn_lex import open_record

    stream, name = open_record(path, source)
    return with_text(iter_csv_stream(recoded(stream, chosen), name), path)


def _closing(
    games: Iterator[RecordedGame | Skipped], stream: IO[bytes]
) -> Iterator[RecordedGame | Skipped]:
    """``games``, with ``stream`` closed when they are done."""
    with stream:
        yield from games


def read_file(
    path: str | Path,
    fmt: str = "auto",
    source: str | None = None,
    encoding: str | None = "utf-8",
    say: Callable[[str], None] | None = None,
) -> list[RecordedGame]:
    """Every game recorded in ``path``, whatever its format (``iter_file``)."""
    return list(iter_file(path, fmt, source, encoding, say))
