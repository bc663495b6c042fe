"""``getbit validate`` at work: the games of the paths given read, checked (here, or in
worker processes, ``importers.workers``) and said in input order, with the exit code;
each game as a line (its violations under it) or as a JSON object. The command itself,
its options and its summary line, is the app's (``cli``)."""

from __future__ import annotations

import functools
import io
import os
import sys
import traceback
from collections.abc import Callable, Iterator
from contextlib import redirect_stdout
from pathlib import Path

import attrs

from biteme.record import BiteRecord
from biteme.validate import BiteReport, validate_bite
from console import (
    ERR,
    EXIT_BUG,
    EXIT_INVALID,
    EXIT_OK,
    EXIT_UNREADABLE,
    OUT,
    bug_line,
    flat,
    say_error,
    say_line,
    say_warning,
    winners_words,
    write_json,
)
from getbit_events.errors import GetbitError, InputError
from getbit_events.record import RecordedGame
from getbit_events.validate import GameReport, validate_game
from importers import find_files, no_games
from importers.reading import date_warnings, present
from importers.skipping import Positions, Skip, Skipped, mark

__all__ = ["check_paths", "say_bug"]


#: A game of either game's records: Get Bit!'s, or a BMN record of "Come on! Bite me!"
_Record = RecordedGame | BiteRecord


def _games(
    path: Path, fmt: str, encoding: str | None, notes: list[str], skip: Skip = None
) -> Iterator[_Record | Skipped]:
    """The games of one file as it is read (memory bounded by one game); the encoding
    it was read in, when detected, is kept in ``notes`` (the caller says it). A file
    of "Come on! Bite me!" (``.bmn``, or a Game tag naming it; a log of its events) is
    read as one. ``skip``: ``importers.iter_file``'s."""
    from importers import iter_file
    from importers.bite_jsonl import bite_kind, iter_bite_file

    kind = bite_kind(path, fmt)
    if kind is not None:
        return iter_bite_file(path, encoding, notes.append, log=kind == "log")
    return iter_file(path, fmt, encoding=encoding, say=notes.append, skip=skip)


def _render(report: GameReport | BiteReport) -> None:
    head = f"{flat(report.source)} game {report.game} (line {report.record.pos.line})"
    if report.valid:
        if report.finished:
            # a shared win (B16) is said "Vic and Wes win"
            winners = report.winners if isinstance(report, BiteReport) else (report.winner,)
            result = winners_words([w for w in winners or () if w])
        else:
            n = len(report.record.rounds)
            unit = "turn" if isinstance(report, BiteReport) else "round"
            result = f"unfinished after {n} {unit}{'s' if n != 1 else ''}"
        say_line(f"{head}: ", ("ok", "green"), f" ({result})")
    else:
        n = len(report.violations)
        say_line(f"{head}: ", (f"{n} violation{'s' if n != 1 else ''}", "red"))
        for v in report.violations:
            say_line(f"  {flat(str(v))}")
    for w in report.warnings:
        _warn(flat(str(w)))


def _warn(text: str) -> None:
    """A warning of a game, under its line (``text`` on one line already)."""
    say_line("  ", ("warning", "yellow"), f": {text}")


def check_paths(
    paths: list[Path],
    fmt: str,
    encoding: str | None,
    as_json: bool,
    counts: dict[str, int],
    jobs: int | None,
    strengths: dict[str, int] | None = None,
) -> int:
    """Check and show every game of ``paths``, with a bar on a terminal; the exit code.
    A path given that holds no games is a warning, and exit 2 (nothing was checked).

    With ``jobs`` > 1 (by default, the cores, for an input big enough to share) the
    games are checked in worker processes
    (``importers.workers``), each game's output made there as it would be here; this
    process says it and feeds the bar in input order, so the output is the same
    whatever ``jobs``."""
    from console.progress import Bar, file_sizes  # rich.progress: not for `getbit -h`
    from importers import record_suffixes

    code = EXIT_OK
    suffixes = record_suffixes(fmt)
    files = [(p, f) for p in paths for f in find_files([p], suffixes, missing_ok=True)]
    sizes = file_sizes(f for _, f in files)
    said = dict.fromkeys(paths, 0)  # games, or problems already said, per path given
    items = _items(files, fmt, encoding)
    from importers.workers import too_many_jobs, workers_for  # multiprocessing: not for `getbit -h`

    if (slower := too_many_jobs(jobs)) is not None:
        say_warning(slower)
    jobs = workers_for(jobs, sum(sizes.values()))
    if jobs > 1:
        from importers.workers import in_order

        results: Iterator[_Item | _Checked] = in_order(
            items,
            functools.partial(_check_apart, as_json=as_json, strengths=strengths),
            jobs,
            mark=mark,
        )
    else:
        results = items(None)
    given = paths[0] if paths else Path()
    with Bar(ERR, "checking", sum(sizes.values()), not as_json, in_bytes=True) as bar:
        try:
            for got in results:
                if isinstance(got, int):  # the next file begins
                    given, path = files[got]
                    bar.next_file(sizes[path])
                elif isinstance(got, str):  # the encoding it is read in (detected)
                    say_warning(got)
                elif isinstance(got, InputError):
                    say_error(str(got))
                    code = max(code, EXIT_UNREADABLE)
                    said[given] += 1
                elif isinstance(got, _Bug):
                    if got.trace:
                        sys.stderr.write(got.trace)
                    say_error(f"{got.where}: {got.line}")
                    code = EXIT_BUG
                    said[given] += 1
                elif isinstance(got, _Checked):
                    code = max(code, got.said(counts))
                    said[given] += 1
                    bar.advance(got.size)
                elif isinstance(got, tuple):  # (a Skipped is another worker's: never here)
                    game, notes = got
                    code = max(code, _check(game, as_json, counts, list(notes), strengths))
                    said[given] += 1
                    bar.advance(len(game.text or b""))
        except GetbitError as exc:  # the workers stopped (InputChanged, WorkerLost)
            say_error(str(exc))  # what was checked before stands, said above
            code = max(code, EXIT_UNREADABLE)
            said = dict.fromkeys(said, 1)  # nothing more to say of the paths
    for given in (p for p, n in said.items() if not n):  # an empty file or folder
        no_files = given.is_dir() and not any(p == given for p, _ in files)
        say_warning(no_games(given, suffixes, no_files))
        code = max(code, EXIT_UNREADABLE)
    return code


@attrs.frozen
class _Bug:
    """A reader's bug, said as one line (the rest of its file is lost, not others)."""

    where: str
    line: str
    trace: str  # with GETBIT_DEBUG=1


#: What ``validate`` reads, in order: a file's place in the files (it begins), the
#: encoding it is read in (detected), a game with those notes, a file that cannot
#: be read, a reader's bug.
_Item = int | str | tuple[_Record, tuple[str, ...]] | InputError | _Bug | Skipped


def _items(
    files: list[tuple[Path, Path]], fmt: str, encoding: str | None
) -> Callable[[Callable[[int], bool] | None], Iterator[_Item]]:
    """The items of ``files``, the same every time they are asked for (every worker
    reads them all and checks its share: the games outside it are left unread where
    the reader can, ``importers.skipping``)."""

    def items(share: Callable[[int], bool] | None) -> Iterator[_Item]:
        positions = Positions(share)
        for k, (_, path) in enumerate(files):
            yield positions.given(k)
            try:
                if not present(path):  # said, and the other paths are still read
                    raise InputError(f"{path}: no such file or folder")
                # the games read before a file turns out unreadable still count
                notes: list[str] = []
                games = _games(path, fmt, encoding, notes, positions.skip())
                for note in notes:  # said on opening it: before its games
                    yield positions.given(note)
                positions.games_begin()
                for game in games:
                    yield positions.given(
                        game if isinstance(game, Skipped) else (game, tuple(notes))
                    )
            except InputError as exc:
                yield positions.given(exc)
            except Exception as exc:  # a reader's bug: the rest of this file is lost
                debug = os.environ.get("GETBIT_DEBUG") == "1"
                yield positions.given(
                    _Bug(str(path), bug_line(exc), traceback.format_exc() if debug else "")
                )

    return items


@attrs.frozen
class _Checked:
    """A game checked in a worker: what ``_check`` said of it, and its counts."""

    code: int
    counts: dict[str, int]
    out: str
    err: str
    size: int

    def said(self, counts: dict[str, int]) -> int:
        """Say it here (stderr first, as it was made) and count it; its exit code."""
        for key, n in self.counts.items():
            counts[key] += n
        for stream, text in ((ERR.file, self.err), (OUT.file, self.out)):
            if text:
                stream.write(text)
                stream.flush()
        return self.code


def _check_apart(
    item: _Item, as_json: bool, strengths: dict[str, int] | None = None
) -> _Item | _Checked:
    """In a worker: a game checked with what ``_check`` says of it kept; any other
    item as it is (this process says it)."""
    if not isinstance(item, tuple):
        return item
    game, notes = item
    mine = {"games": 0, "valid": 0, "invalid": 0, "unfinished": 0, "unchecked": 0}
    # What it says on stdout (OUT's lines, rich's or written at once by ``say_line``, and
    # JSON) is kept in order, in the encoding of the stdout it is for (write_json
    # escapes by it): OUT writes to whatever sys.stdout is when it prints.
    encoding = getattr(sys.stdout, "encoding", None) or "utf-8"
    kept = io.TextIOWrapper(io.BytesIO(), encoding, "backslashreplace", newline="")
    with ERR.capture() as warned, redirect_stdout(kept):
        code = _check(game, as_json, mine, list(notes), strengths)
    kept.flush()
    said = kept.buffer.getvalue().decode(encoding, "backslashreplace")
    return _Checked(code, mine, said, warned.get(), len(game.text or b""))


def _check(
    game: _Record,
    as_json: bool,
    counts: dict[str, int],
    notes: list[str],
    strengths: dict[str, int] | None = None,
) -> int:
    """Validate and show one game; its exit code. A crash while checking it is
    reported as that game's (file:line) and the other games go on. ``notes`` (the
    encoding detected) and a Date the reports cannot read are warnings of the game.
    A record of "Come on! Bite me!" is checked by its own rules, with ``strengths``
    filling in what it leaves out (B3)."""
    counts["games"] += 1
    report: GameReport | BiteReport
    try:
        if isinstance(game, BiteRecord):
            report = validate_bite(game, strengths)
        else:
            report = validate_game(game)
        shown = report.to_json() if as_json else None
    except Exception as exc:
        say_bug(f"{game.source}:{game.pos.line}: game {game.index}: not checked", exc)
        counts["unchecked"] += 1
        return EXIT_BUG
    counts["valid" if report.valid else "invalid"] += 1
    counts["unfinished"] += report.valid and not report.finished
    extra = [*notes, *(date_warnings(game) if isinstance(game, RecordedGame) else [])]
    if shown is not None:
        if extra:  # never there for a UTF-8 record with a readable Date: its JSON is as before
            shown["warnings"] = [*shown["warnings"], *extra]
        write_json(shown)
    else:
        _render(report)
        for warning in extra[len(notes) :]:
            _warn(flat(warning))
    return EXIT_OK if report.valid else EXIT_INVALID


def say_bug(where: str, exc: Exception, command: str | None = None) -> None:
    """An internal error on one line after ``where`` (with GETBIT_DEBUG=1, its traceback)."""
    if os.environ.get("GETBIT_DEBUG") == "1":
        traceback.print_exc()
    say_error(f"{where}: {bug_line(exc)}" if where else bug_line(exc), command)


