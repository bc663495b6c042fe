"""``getbit export --format parquet``: stored games as Parquet tables in a folder
(``store.parquet``; docs/scale.md)."""

from __future__ import annotations

from pathlib import Path
from typing import NoReturn

import typer
from rich.markup import escape

from console.output import SafeConsole
from getbit_events.errors import GetbitError
from store import GameStore, default_path
from store.parquet import write_parquet

__all__ = ["export_parquet"]

EXIT_OK, EXIT_UNREADABLE = 0, 2

out = SafeConsole(highlight=False, soft_wrap=True)
err = SafeConsole(stderr=True, highlight=False, soft_wrap=True)


def export_parquet(
    games: list[str] | None,
    output: Path | None,
    db: Path | None,
    everything: bool,
    status: str | None,
    player: str | None,
) -> NoReturn:
    """The games asked for (ids, or ``everything``; then ``status``, ``player``)
    as Parquet tables in the folder ``output``; exit 2 when misused."""
    if output is None:
        err.print("getbit export: --format parquet writes a folder: give -o DIR")
        raise typer.Exit(EXIT_UNREADABLE)
    if everything == bool(games):
        err.print("getbit export: give game ids or --all, not both" if games
                  else "getbit export: give game ids, or --all for every game")
        raise typer.Exit(EXIT_UNREADABLE)
    try:
        with GameStore(db if db is not None else default_path(), create=False) as store:
            ids = None if everything else list(dict.fromkeys(store.game(g).id for g in games or ()))
            done = write_parquet(store, output, games=ids, status=status, player=player)
    except GetbitError as exc:
        err.print(f"getbit export: {escape(str(exc))}")
        raise typer.Exit(EXIT_UNREADABLE) from None
    out.print(f"wrote {escape(str(done.folder))}: {done.games} games, {done.events} events, "
              f"{done.swimmers} read-model rows")
    raise typer.Exit(EXIT_OK)
