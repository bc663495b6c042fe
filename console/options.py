"""The options every ``getbit`` command shares, made one way so that a name means one
thing everywhere (the table in docs/cli.md): ``--db``, ``--json``, ``-o/--output``,
``--game N``, ``--id ID``, ``--encoding``, ``--format``, the filters of stored games
(``--player``, ``--variant``, ``--since``, ``--until``, ``--status``, ``--limit``),
``--jobs N``; and the choices they take."""

from __future__ import annotations

from typing import Any, Literal

import typer

__all__ = [
    "BOT_CHOICES",
    "DB_HELP",
    "ENCODING_HELP",
    "ONE_RECORD_FORMAT_HELP",
    "VARIANT_CHOICES",
    "Bot",
    "RecordFormat",
    "Status",
    "Variant",
    "db_option",
    "encoding_option",
    "format_option",
    "game_option",
    "id_option",
    "jobs_option",
    "json_option",
    "limit_option",
    "output_option",
    "player_option",
    "rules_option",
    "since_option",
    "status_option",
    "until_option",
    "variant_option",
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



#: what a record file holds: ``auto`` goes by its ending (folders give .gbn and .jsonl)
RecordFormat = Literal["auto", "gbn", "jsonl", "csv"]
#: a stored game's status (``getbit games --status``, ``export --status``)
Status = Literal["valid", "invalid", "unfinished"]

ENCODING_HELP = "the files' text encoding (default: UTF-8, else detected and said)"
#: ``--format`` of the commands that read one game of a record (replay, report)
ONE_RECORD_FORMAT_HELP = (
    "the file's format: by its ending (auto), or this one (a record piped in, -)"
)


def format_option(help: str) -> Any:
    """``--format``: the record format read or written (a choice)."""
    return typer.Option("--format", case_sensitive=False, help=help)


def encoding_option(help: str = ENCODING_HELP) -> Any:
    """``--encoding NAME``: the text encoding record files are read in."""
    return typer.Option("--encoding", metavar="NAME", help=help)


def player_option(help: str = "only games this swimmer or player played") -> Any:
    """``--player NAME``: only the games of a player."""
    return typer.Option("--player", metavar="NAME", help=help)


def variant_option(help: str = "only games of this variant") -> Any:
    """``--variant``: only the games of a variant (R1)."""
    return typer.Option("--variant", case_sensitive=False, help=help)


def since_option(help: str = "only games dated on or after (Date tag, YYYY-MM-DD)") -> Any:
    """``--since DATE``: only games dated on or after."""
    return typer.Option("--since", metavar="DATE", help=help)


def until_option(help: str = "only games dated on or before") -> Any:
    """``--until DATE``: only games dated on or before."""
    return typer.Option("--until", metavar="DATE", help=help)


def status_option(help: str = "only games of this status") -> Any:
    """``--status``: only valid, invalid or unfinished games."""
    return typer.Option("--status", case_sensitive=False, help=help)


#: which game (``--rules``): Get Bit!, or "Come on! Bite me!" (docs/biteme.md)
Rules = Literal["get-bit", "bite-me"]


def rules_option(help: str = "only games of this game: get-bit or bite-me") -> Any:
    """``--rules``: which game, ``get-bit`` or ``bite-me`` (``simulate``, ``stats``, the
    filters of stored games)."""
    return typer.Option("--rules", case_sensitive=False, help=help)


def limit_option(help: str = "at most N games (the first listed)") -> Any:
    """``--limit N``: at most N games."""
    return typer.Option("--limit", metavar="N", min=0, help=help)


def jobs_option(
    help: str = "worker processes reading and checking the games "
    "(default, and at most: the number of cores; 1 for under 64 KiB of records)",
) -> Any:
    """``--jobs N``: how many worker processes read and check records (``import``,
    ``validate``); what they say comes out in input order, the same whatever N."""
    return typer.Option("--jobs", metavar="N", min=1, help=help)
