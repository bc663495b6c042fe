"""Stored rows read back as values: a games row as a ``StoredGame``, event rows
as events, and what is wrong with the rows of a damaged game (a StoreError
naming it) or of a store SQLite cannot read (``reading``)."""

from __future__ import annotations

import functools
import json
import sqlite3
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any, Concatenate, ParamSpec, Protocol, TypeVar

from getbit_events.errors import StoreError
from getbit_events.events import Event
from getbit_events.serialize import trusted_event
from getbit_events.sqlite_store.schema import GAME_COLUMNS
from getbit_events.stored import StoredGame

__all__ = [
    "damage_of",
    "loads",
    "reading",
    "reading_each",
    "seq_gaps",
    "stored_event",
    "stored_game",
]

# The C scanner behind json.loads, called straight: the store reads back only the
# compact JSON it wrote, so the checks around it (whitespace, trailing text) are
# not needed, and a stream decodes in half the time.
loads: Callable[[str, int], tuple[Any, int]] = json.JSONDecoder().scan_once  # type: ignore[attr-defined]


def damage_of(exc: StoreError) -> str:
    """What a StoreError about a damaged game says is wrong with it."""
    text = str(exc)
    if " is damaged: " in text:
        text = text.split(" is damaged: ", 1)[1]
    return text.removesuffix("; run getbit check")


def seq_gaps(rows: Sequence[tuple[Any, ...]], held: int | None) -> str | None:
    """What is wrong with the seq numbers of a game's event rows (``seq`` first,
    in order), given how many events its games row holds; None when they run 1..n."""
    if held is None:
        return "its events are stored without its game" if rows else None
    n = len(rows)
    if n != held or (n and (rows[0][0] != 1 or rows[-1][0] != n)):
        seqs = [row[0] for row in rows]
        missing = sorted(set(range(1, held + 1)) - set(seqs))[:5]
        extra = [s for s in seqs if not 1 <= s <= held][:5]
        said = [f"{n} events stored, {held} expected"]
        if missing:
            said.append(f"seq {', '.join(map(str, missing))} missing")
        if extra:
            said.append(f"seq {', '.join(map(str, extra))} extra")
        return "; ".join(said)
    return None


def stored_event(game_id: str, row: tuple[Any, ...]) -> Event:
    """The event of a stored row (seq, type, version, round, payload); a StoreError
    naming the game and the seq when it cannot be read."""
    seq, tag, version, round_, payload = row
    try:
        data = json.loads(payload)
        if not isinstance(data, dict):
            raise ValueError("the payload is not a JSON object")
        return trusted_event(tag, version, round_, data)
    except Exception as exc:
        why = " ".join(str(exc).split())[:200] or type(exc).__name__
        raise StoreError(
            f"game {game_id} is damaged: event {seq} ({str(tag)[:40]}) cannot be read: {why}; "
            "run getbit check"
        ) from None


def stored_game(row: dict[str, Any]) -> StoredGame:
    """The value of a games row; StoreError naming the game when the row is damaged."""
    fields = {name: row[name] for name in GAME_COLUMNS}
    try:
        tags = json.loads(row["tags"] or "{}")
        swimmers = json.loads(row["swimmers"] or "[]")
        if not isinstance(tags, dict) or not isinstance(swimmers, list):
            raise TypeError("tags are not a JSON object, or swimmers not a JSON list")
        return StoredGame(**{**fields, "tags": tuple(tags.items()), "swimmers": tuple(swimmers)})
    except (ValueError, TypeError) as exc:
        raise StoreError(
            f"game {row.get('id')} is damaged: its games row cannot be read ({exc}); "
            "run getbit check"
        ) from None


class _Store(Protocol):
    path: Path


_S = TypeVar("_S", bound=_Store)
_P = ParamSpec("_P")
_R = TypeVar("_R")
_Y = TypeVar("_Y")


def _unreadable(path: Path, exc: sqlite3.DatabaseError) -> StoreError:
    return StoreError(f"{path}: the store cannot be read ({exc}): it is damaged; run getbit check")


def reading(method: Callable[Concatenate[_S, _P], _R]) -> Callable[Concatenate[_S, _P], _R]:
    """A store method whose SQLite error (a table dropped, a damaged page) is a
    StoreError naming the store, not a crash."""

    @functools.wraps(method)
    def wrapper(self: _S, /, *args: _P.args, **kwargs: _P.kwargs) -> _R:
        try:
            return method(self, *args, **kwargs)
        except sqlite3.DatabaseError as exc:
            raise _unreadable(self.path, exc) from None

    return wrapper


def reading_each(
    method: Callable[Concatenate[_S, _P], Iterator[_Y]],
) -> Callable[Concatenate[_S, _P], Iterator[_Y]]:
    """:func:`reading` for a method that yields as it reads."""

    @functools.wraps(method)
    def wrapper(self: _S, /, *args: _P.args, **kwargs: _P.kwargs) -> Iterator[_Y]:
        try:
            yield from method(self, *args, **kwargs)
        except sqlite3.DatabaseError as exc:
            raise _unreadable(self.path, exc) from None

    return wrapper
