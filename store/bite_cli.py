"""What the store's commands say of stored games of "Come on! Bite me!"
(docs/biteme.md): ``show`` (its verdict and its record as BMN) and ``export``
(BMN, or a JSON Lines log of its events). ``store.cli`` hands such games here.

A game's record is written back from its events (``bmn_write.game_bmn``), so
``show`` and ``export`` give the same text; the warnings of its verdict (a
strength nobody stated, B3) are the validator's on that text, as ``validate``
gives them on the export.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from rich.markup import escape

from biteme.events import BiteEvent
from biteme.validate import validate_bite
from console import OUT, flat, write_json
from getbit_events.errors import GetbitError, InputError, StoreError
from importers.bite_jsonl import write_bite_jsonl
from importers.bmn import read_bmn
from importers.bmn_write import game_bmn
from store.store import GameStore
from store.stored import BITE_ME, StoredGame, StoredViolation

__all__ = ["export_texts", "show_bite", "show_head", "warnings_of"]


def warnings_of(events: Sequence[BiteEvent]) -> list[str]:
    """The warnings ``validate`` gives the game's record as written back (B3)."""
    if not events:
        return []
    return [str(w) for w in validate_bite(read_bmn(game_bmn(events), "stored")[0]).warnings]


def show_bite(
    store: GameStore, stored: StoredGame, as_json: bool, history: list[str]
) -> StoreError | None:
    """``getbit show ID`` of a game of "Come on! Bite me!": what the store keeps
    of it, its verdict (violations, warnings) and its record as BMN; the
    StoreError of events that cannot be read (the row is shown all the same)."""
    violations = store.violations(stored.id)
    problem = None
    events: list[BiteEvent] = []
    try:
        events = store.bite_events(stored.id)
    except StoreError as exc:
        problem = exc
    record = game_bmn(events) if events else None
    warnings = warnings_of(events)
    if as_json:
        data = stored.to_json()
        data["violation_list"] = [v.to_json() for v in violations]
        data["warnings"] = warnings
        data["history"] = [e.to_json() for e in store.history(stored.id)]
        data["record"] = record
        write_json(data)
        return problem
    _render(stored, violations, warnings)
    for line in history:
        OUT.print(f"  {escape(line)}")
    if record is not None:
        OUT.print("")
        OUT.print(escape(record.rstrip("\n")))
    return problem


def show_head(game: StoredGame, what: str = "") -> None:
    """The lines ``show`` begins a stored game of either game with: its id, status
    (and ``what``), where it came from, when, and its tags."""
    OUT.print(f"[bold]game {escape(game.id)}[/bold] ({escape(game.status)}){what}")
    if game.source:
        OUT.print(
            f"  from {escape(flat(game.source))}:{game.source_line} (game {game.source_game})"
        )
    OUT.print(f"  imported {escape(game.imported_at)}")
    for name, value in game.tags:
        OUT.print(f"  {escape(flat(name))}: {escape(flat(value))}")


def _render(game: StoredGame, violations: list[StoredViolation], warnings: list[str]) -> None:
    show_head(game, ": Come on! Bite me!")
    if game.swimmers:
        OUT.print(f"  seats: {escape(', '.join(game.swimmers))}")
    turns = f"{game.rounds} turn{'s' * (game.rounds != 1)}"
    if game.winner:
        verb = "win" if " and " in game.winner else "wins"
        OUT.print(f"  result: {escape(game.winner)} {verb} after {turns}")
    elif game.status != "invalid":
        OUT.print(f"  result: unfinished after {turns}")
    for v in violations:
        where = f"turn {v.round}: " if v.round is not None else ""
        text = escape(f"{where}{v.message} [{v.code}]")
        OUT.print(f"  [red]line {v.line}:{v.column}[/red]: {text}")
    for w in warnings:
        OUT.print(f"  [yellow]warning[/yellow]: {escape(w)}")


def export_texts(
    store: GameStore,
    games: list[tuple[str, str]],
    fmt: str | None,
    problems: list[GetbitError],
) -> Iterator[str]:
    """What ``export`` writes of ``games`` (each an id and its game), a game at a time
    (one game's events are held at once, whatever the number of games): Get Bit!'s as
    GBN or JSON Lines, those of Come on! Bite me! as BMN or JSON Lines. An InputError,
    before anything is written, for games of both, or a format the game has not; a game
    whose events cannot be read is left out, why added to ``problems``."""
    bite = sum(game == BITE_ME for _, game in games)
    if bite and bite < len(games):
        raise InputError(
            "these are games of Get Bit! and of Come on! Bite me!: export one game at a "
            "time (their ids, or --rules get-bit / --rules bite-me)"
        )
    if bite and fmt not in (None, "bmn", "jsonl"):
        raise InputError(
            f"--format {fmt} is Get Bit!'s: games of Come on! Bite me! are exported as BMN "
            "(--format bmn) or JSON Lines (--format jsonl)"
        )
    if not bite and fmt == "bmn":
        raise InputError("--format bmn is for games of Come on! Bite me! (--rules bite-me)")
    return _texts(store, games, fmt or ("bmn" if bite else "gbn"), problems)


def _texts(
    store: GameStore, games: list[tuple[str, str]], fmt: str, problems: list[GetbitError]
) -> Iterator[str]:
    from importers.gbn import write_gbn
    from importers.jsonl import write_jsonl

    first = True
    for game_id, game in games:
        try:
            if game == BITE_ME:
                moves = store.bite_events(game_id)
            else:
                events = store.events(game_id)
        except GetbitError as exc:
            problems.append(exc)
            continue
        try:  # a game the format cannot hold (a tag stored before it was refused, say)
            if fmt == "jsonl":  # each line ends in a newline
                if game == BITE_ME:
                    lines = list(write_bite_jsonl([(game_id, moves)]))
                else:
                    lines = list(write_jsonl([(game_id, events)]))
                yield "".join(lines)
                continue
            text = game_bmn(moves) if game == BITE_ME else write_gbn([events])
        except InputError as exc:  # said, left out; the other games are written
            problems.append(exc if fmt == "jsonl" else InputError(f"game {game_id} {exc}"))
            continue
        yield text if first else "\n" + text  # a blank line between games
        first = False
