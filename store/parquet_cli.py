"""``getbit export --format parquet``: stored games as Parquet tables in a folder
(``store.parquet``; docs/scale.md). Loaded only by that command (pyarrow)."""

from __future__ import annotations

from pathlib import Path
from typing import NoReturn

import typer
from rich.markup import escape

from console import OUT
from store import GameStore
from store.parquet import write_parquet

__all__ = ["export_parquet"]


def export_parquet(store: GameStore, refs: list[str] | None, output: Path, code: int) -> NoReturn:
    """The games ``refs`` names (ids or their starts; None: every stored game) as
    Parquet tables in the folder ``output``, then exit with ``code``. A GetbitError
    (a game named that is not stored, a folder that is not new) is the caller's."""
    ids = None if refs is None else list(dict.fromkeys(store.game(g).id for g in refs))
    done = write_parquet(store, output, games=ids)
    OUT.print(
        f"wrote {escape(str(done.folder))}: {done.games} games, {done.events} events, "
        f"{done.swimmers} read-model rows"
    )
    raise typer.Exit(code)
