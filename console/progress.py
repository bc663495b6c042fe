"""Progress on long work, on stderr: a bar with a total and the time left, shown
only on a terminal (never in a pipe, a log or under ``--json``)."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from types import TracebackType

from rich.console import Console
from rich.progress import (
    BarColumn,
    DownloadColumn,
    MofNCompleteColumn,
    Progress,
    TaskID,
    TextColumn,
    TimeRemainingColumn,
)

__all__ = ["Bar", "file_sizes"]


def file_sizes(paths: Iterable[Path]) -> dict[Path, int]:
    """Each file's size in bytes (0 when it cannot be read: its reader says why)."""
    sizes = {}
    for path in paths:
        try:
            sizes[path] = path.stat().st_size
        except OSError:
            sizes[path] = 0
    return sizes


class Bar:
    """One bar: ``what`` done of ``total`` (bytes with ``in_bytes``, else items),
    with the time left; nothing at all when ``shown`` is false."""

    def __init__(
        self, console: Console, what: str, total: int | None, shown: bool, in_bytes: bool = False
    ) -> None:
        count = DownloadColumn() if in_bytes else MofNCompleteColumn()
        self._progress = Progress(
            TextColumn(what),
            BarColumn(),
            count,
            TimeRemainingColumn(),
            console=console,
            transient=True,
            disable=not shown or not console.is_terminal,
        )
        self._task: TaskID = self._progress.add_task(what, total=total)
        self._base = 0  # bytes of the files done before the one being read

    def advance(self, amount: int = 1) -> None:
        self._progress.advance(self._task, amount)

    def next_file(self, size: int) -> None:
        """The file before is done (its whole size counts); one of ``size`` begins."""
        self._progress.update(self._task, completed=self._base)
        self._base += size

    def __enter__(self) -> Bar:
        self._progress.start()
        return self

    def __exit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self._progress.stop()
