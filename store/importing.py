"""The import use case: every game of some files or folders checked and stored in
batches (``import_paths``), and a corrected record stored as the revision of a
stored game (``import_revision``). The commands ``getbit import`` and ``getbit
import --replaces`` are shells over these (``store.cli``); a program calls them the
same way.

Nothing is deleted or rewritten: a revision stores the corrected record and
appends that it supersedes the old game (``revisions``).
"""

from __future__ import annotations

import gc
import shlex
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager, nullcontext
from pathlib import Path
from typing import Any

import attrs

from biteme.record import BiteRecord
from biteme.validate import BiteReport
from console import EXIT_BUG, EXIT_INVALID, EXIT_OK, EXIT_UNREADABLE
from getbit_events.errors import InputError
from getbit_events.record import RecordedGame
from getbit_events.validate import GameReport
from importers import find_files, record_suffixes
from store.bite import check
from store.jobs import Checked, GameFailure, Note, Work, checked_games, files_items
from store.store import BatchLost, GameStore
from store.stored import AddResult, HistoryEntry, default_path

__all__ = [
    "BATCH_GAMES",
    "BATCH_SECONDS",
    "GameFailure",
    "ImportSummary",
    "Revision",
    "import_paths",
    "import_revision",
    "revision_hint",
]


@attrs.define
class ImportSummary:
    """What an import did, game by game counted."""

    stored: int = 0
    already: int = 0
    invalid: int = 0
    refused: int = 0
    unreadable: int = 0  # games with syntax errors, and whole files that cannot be read
    unreadable_files: int = 0
    failed: int = 0  # games the store could not take (left out, the others stored)
    empty: int = 0  # files and folders given that hold no games (each said)
    errors: int = 0  # internal errors (bugs): games, or the rest of a file, left out
    # new games that look like a revision of a stored one: where, and of which
    revisions: list[dict[str, Any]] = attrs.Factory(list)

    @property
    def exit_code(self) -> int:
        """As ``getbit validate``: 3 an internal error, 2 a file cannot be read or
        a file or folder given holds no games, 1 a game is wrong or was not stored,
        else 0."""
        if self.errors:
            return EXIT_BUG
        if self.unreadable_files or self.empty:
            return EXIT_UNREADABLE
        wrong = self.invalid or self.refused or self.unreadable or self.failed
        return EXIT_INVALID if wrong else EXIT_OK

    def to_json(self) -> dict[str, Any]:
        return attrs.asdict(self)

    def count(
        self,
        report: GameReport | BiteReport | Checked | InputError | GameFailure,
        result: AddResult | None,
        db: Path | None = None,
    ) -> None:
        """Count one game (or one file that could not be read) of the import into the
        store at ``db`` (named in a revision's hint)."""
        if isinstance(report, GameFailure):
            if report.bug:
                self.errors += 1
            else:
                self.failed += 1
        elif isinstance(report, InputError):
            self.unreadable += 1
            self.unreadable_files += 1
        elif not report.readable:
            self.unreadable += 1
        elif result is None:
            self.refused += 1
        elif not result.stored:
            self.already += 1
        else:
            if result.status == "invalid":
                self.invalid += 1
            else:
                self.stored += 1
            if result.revision_of:
                self.revisions.append(revision_hint(report, result, db))


def revision_hint(
    report: GameReport | BiteReport | Checked, result: AddResult, db: Path | None = None
) -> dict[str, Any]:
    """Where a new game is that looks like a revision of stored ones, and how to
    say it replaces one (the hint is never acted on): a command to run as it is, its
    file quoted for the shell, with ``--db`` when the store at ``db`` is not the one
    getbit opens by default."""
    target = result.revision_of[-1]  # the latest stored
    store = "" if db is None or db == default_path() else f" --db {shlex.quote(str(db))}"
    file = shlex.quote(report.source)
    return {
        "source": report.source,
        "line": report.record.pos.line,
        "game": report.game,
        "id": result.game_id,
        "revision_of": list(result.revision_of),
        "command": f"getbit import {file}{store} --replaces {target}",
    }


#: A batch of an import is committed after this many games, or this many seconds.
BATCH_GAMES = 200
BATCH_SECONDS = 0.5
#: The cyclic collector's thresholds while one process imports (``_collector_aside``):
#: the youngest objects collected after 5,000 new ones rather than 700, the oldest
#: seldom (Python's are 700, 10, 10).
ONE_PROCESS_GC = (5_000, 20, 100)


#: A game (or what stands in its place) as an import stores it, and what adding it did.
_Stored = tuple[
    GameReport | BiteReport | Checked | InputError | GameFailure | Note, AddResult | None
]


@contextmanager
def _collector_aside() -> Iterator[None]:
    """For an import in this one process: what the process holds already (its
    modules, the command line's) moved out of the cyclic collector's sight
    (``gc.freeze``), and the collector run less often (``ONE_PROCESS_GC``), both as
    they were after. A batch keeps its games' whole reports until it is stored, and
    with the default thresholds the collector went through them, and through every
    module, again and again: a fifth of the import's CPU (docs/architecture.md,
    "Speed tricks"). Left as it is where something froze objects before (unfreezing
    would release theirs too)."""
    if gc.get_freeze_count():
        yield
        return
    thresholds = gc.get_threshold()
    gc.freeze()
    gc.set_threshold(*ONE_PROCESS_GC)
    try:
        yield
    finally:
        gc.set_threshold(*thresholds)
        gc.unfreeze()


def import_paths(
    store: GameStore,
    paths: list[Path],
    fmt: str = "auto",
    valid_only: bool = False,
    on_report: Any = None,
    encoding: str | None = "utf-8",
    say: Callable[[str], None] | None = None,
    jobs: int = 1,
) -> ImportSummary:
    """Import every game of ``paths`` (folders walked); unreadable files are reported.

    A path that does not exist is said (an InputError reported, as for a file that
    cannot be read) and the other paths are still imported.
    Games are written in batches (``GameStore.batch``, at most ``BATCH_GAMES``
    games or ``BATCH_SECONDS`` each); every game is still whole or absent. A
    game the store cannot take, for any reason (an error, or a bug in checking
    or storing it), is left out alone (its savepoint is rolled back) and the
    others are stored; a bug in reading a file leaves out the rest of that
    file. Only a store that fails as a whole (its batch lost, a StoreError
    from committing it) stops the import: that batch is not stored, the ones
    before it are.

    ``jobs`` > 1 reads and checks the games in that many worker processes
    (``store.jobs``); this process writes them, in the order of the input, so
    the store comes out the same whatever ``jobs``.

    ``on_report(item, result_or_None)`` is called for each game once its batch
    is stored: ``item`` is its GameReport (with ``jobs`` > 1, a ``Checked``: the
    same fields a report is read by), an InputError for a file that cannot be
    read at all, or a GameFailure for a game left out. ``encoding`` and ``say``
    are ``importers.iter_file``'s (None: detected when a file is not UTF-8); ``say``
    is told once, by this process, in its place among the reports.
    """
    # the folders walked before anything is stored
    found = [(path, list(_walk([path], fmt))) for path in paths]

    def store_one(work: Work) -> _Stored:
        item, new = work
        if new is None or isinstance(item, InputError | GameFailure | Note):
            return item, None
        try:
            return item, store.add(new)
        except BatchLost:
            raise
        except Exception as exc:  # this game only: the next one goes on
            return GameFailure.of(item if isinstance(item, Checked) else item.record, exc), None

    checked = checked_games(files_items(found, fmt, encoding), valid_only, jobs)
    try:
        # with workers, the collector costs little here (they freeze as they start: in_order)
        with _collector_aside() if jobs <= 1 else nullcontext():
            return _in_batches(store, map(store_one, checked), on_report, say)
    finally:
        checked.close()  # the workers stop with it


def _in_batches(
    store: GameStore,
    games: Iterator[_Stored],
    on_report: Any,
    say: Callable[[str], None] | None,
) -> ImportSummary:
    """Store ``games`` a batch at a time (``import_paths``), each reported once its
    batch is stored."""
    summary = ImportSummary()
    pending: list[_Stored] = []
    while True:
        started = time.monotonic()
        with store.batch():  # the batch is stored (or not at all) before it is reported
            for item in games:
                pending.append(item)
                if len(pending) >= BATCH_GAMES or time.monotonic() - started > BATCH_SECONDS:
                    break
        for report, result in pending:
            if isinstance(report, Note):  # the encoding of the file that follows
                summary.empty += report.empty  # or: a file of no games
                if say is not None:
                    say(report.text)
                continue
            summary.count(report, result, store.path)
            if on_report is not None:
                on_report(report, result)
        if not pending:
            return summary
        pending.clear()


def _walk(paths: list[Path], fmt: str) -> Iterator[Path]:
    """The files of ``paths`` in format ``fmt`` (``auto``: a folder's GBN, JSON Lines
    and BMN)."""
    return find_files(paths, record_suffixes(fmt), missing_ok=True)


@attrs.frozen
class Revision:
    """What ``import FILE --replaces ID`` did: the corrected record's game, stored
    (or found already stored), and the fact appended (None: it was already there)."""

    report: GameReport | BiteReport
    added: AddResult
    target: str
    entry: HistoryEntry | None

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.added.game_id,
            "stored": self.added.stored,
            "status": self.added.status,
            "supersedes": self.target,
            "already": self.entry is None,
            "at": self.entry.at if self.entry else None,
            "reason": self.entry.reason if self.entry else None,
        }


def import_revision(
    store: GameStore,
    paths: list[Path],
    target: str,
    reason: str | None = None,
    fmt: str = "auto",
    valid_only: bool = False,
    encoding: str | None = "utf-8",
    say: Callable[[str], None] | None = None,
) -> Revision:
    """Store the one game of ``paths`` (the corrected record) and append that it
    supersedes game ``target``, in one write transaction: both or neither.

    InputError, and nothing written, when ``paths`` hold no game or several, the
    record has syntax errors (or, with ``valid_only``, breaks the rules), or the
    store refuses the revision (``GameStore.supersede``). ``encoding`` and ``say``
    are ``importers.iter_file``'s.
    """
    from importers import iter_records
    from importers.reading import present, spool

    records: list[RecordedGame | BiteRecord] = []
    for path in paths:
        if path.is_dir():
            raise InputError(f"{path}: --replaces takes one file, the corrected record")
        spool(path)  # a record piped in (-, /dev/stdin, <(...)) is read from its copy
        if not present(path):
            raise InputError(f"{path}: no such file")
        records.extend(iter_records(path, fmt, encoding=encoding, say=say))
        if len(records) > 1:
            break
    if len(records) != 1:
        many = "several games" if records else "no game"
        raise InputError(
            f"{', '.join(map(str, paths))}: holds {many}; --replaces takes a file of exactly "
            "one game (the corrected record); nothing is stored"
        )
    report = check(records[0])
    if not report.readable:
        first = report.violations[0] if report.violations else report.source
        raise InputError(f"{first}: the corrected record has syntax errors: nothing is stored")
    if valid_only and not report.valid:
        raise InputError(
            f"{report.source}: the corrected record breaks the rules ({report.violations[0]}) "
            "and --valid-only refuses it: nothing is stored"
        )
    with store.batch():
        added = store.add(report)
        entry = store.supersede(added.game_id, target, reason)
    return Revision(report, added, store.game(target).id, entry)
