"""``getbit export --format parquet``: stored games as Parquet tables in a folder
(``store.parquet``; docs/scale.md). Loaded only by that command (pyarrow)."""

from __future__ import annotations

from pathlib import Path
from typing import NoReturn

import typer
from rich.markup import escape

from console import OUT
from getbit_events.errors import InputError
from store import GameStore
from store.parquet import write_parquet
from store.stored import GET_BIT

__all__ = ["export_parquet"]


def export_parquet(store: GameStore, refs: list[str] | None, output: Path, code: int) -> NoReturn:
    """The games ``refs`` names (ids or their starts; None: every stored game of Get
    Bit!) as Parquet tables in the folder ``output``, then exit with ``code``. A GetbitError
    (a game named that is not stored, a folder that is not new) is the caller's."""
    chosen = None if refs is None else [store.game(g) for g in refs]
    other = next((g for g in chosen or () if g.game != GET_BIT), None)
    if other is not None:  # the tables' columns are Get Bit!'s (swimmers, limbs, ...)
        raise InputError(
            f"game {other.id} is a game of Come on! Bite me!: the Parquet tables hold "
            "Get Bit!'s games only (export it with --format bmn or jsonl)"
        )
    ids = None if chosen is None else list(dict.fromkeys(g.id for g in chosen))
    done = write_parquet(store, output, games=ids)
    OUT.print(
        f"wrote {escape(str(done.folder))}: {done.games} games, {done.events} events, "
        f"{done.swimmers} read-model rows"
    )
    raise typer.Exit(code)
