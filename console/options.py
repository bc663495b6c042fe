"""The options every ``getbit`` command shares, made one way so that a name means one
thing everywhere (the table in docs/cli.md): ``--db``, ``--json``, ``-o/--output``,
``--game N``, ``--id ID``, ``--variant``; and the choices they take."""

from __future__ import annotations

from typing import Any, Literal

import typer

__all__ = [
    "BOT_CHOICES",
    "DB_HELP",
    "VARIANT_CHOICES",
    "Bot",
    "Variant",
    "db_option",
    "game_option",
    "id_option",
    "json_option",
    "output_option",
]

#: the variants of R1 (getbit_events.rules.VARIANTS, held equal by a test)
Variant = Literal["standard", "three-player", "two-player", "shark"]
VARIANT_CHOICES: tuple[str, ...] = ("standard", "three-player", "two-player", "shark")
#: the simulator's bots (getbit_events.simulate.BOTS, held equal by a test)
Bot = Literal["random", "sensible"]
BOT_CHOICES: tuple[str, ...] = ("random", "sensible")

DB_HELP = "the store file (default: $GETBIT_DB, else ./getbit.db)"


def db_option(help: str = DB_HELP) -> Any:
    """``--db FILE``: the game store (``$GETBIT_DB``, else ``./getbit.db``)."""
    return typer.Option("--db", envvar="GETBIT_DB", metavar="FILE", help=help)


def json_option(help: str) -> Any:
    """``--json``: the result as JSON on stdout, for programs."""
    return typer.Option("--json", help=help)


def output_option(help: str = "write here, not to the screen") -> Any:
    """``-o/--output FILE``: where the command writes what it makes."""
    return typer.Option("-o", "--output", metavar="FILE", help=help)


def game_option() -> Any:
    """``--game N``: the N-th game of a file, from 1."""
    return typer.Option("--game", metavar="N", min=1, help="the N-th game of the file, from 1")


def id_option(help: str) -> Any:
    """``--id ID``: a game by its id (a stored game's id or its start; an Id tag)."""
    return typer.Option("--id", metavar="ID", help=help)

