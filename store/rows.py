"""Stored rows read back as values: a games row as a ``StoredGame``, event rows
as events, and what is wrong with the rows of a damaged game (a StoreError
naming it) or of a store SQLite cannot read (``reading``)."""

from __future__ import annotations

import functools
import itertools
import json
import operator
import sqlite3
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any, Concatenate, ParamSpec, Protocol, TypeVar

from getbit_events.errors import InputError, StoreError
from getbit_events.events import Event
from importers.wire import trusted_event
from store import eventlog
from store.schema import GAME, GAME_COLUMNS, RECORD
from store.stored import (
    GAME_NAMES,
    GENESIS,
    GET_BIT,
    Damage,
    StoredGame,
    chain_row,
    chain_value,
    rows_digest,
)

__all__ = [
    "CHANGED_ROW",
    "damage_of",
    "loads",
    "read_events",
    "read_streams",
    "reading",
    "reading_each",
    "row_chain",
    "seq_gaps",
    "stored_event",
    "stored_game",
    "why",
]

# The C scanner behind json.loads, called straight: the store reads back only the
# compact JSON it wrote, so the checks around it (whitespace, trailing text) are
# not needed, and a stream decodes in half the time.
loads: Callable[[str, int], tuple[Any, int]] = json.JSONDecoder().scan_once  # type: ignore[attr-defined]

_FIRST = operator.itemgetter(0)
_E = TypeVar("_E")
_SHARED = 100_000  # events read_streams keeps to share, at most


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
    if type(held) is not int:
        return f"its games row's count of events, {str(held)[:20]!r}, is not a number"
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


def stored_event(
    game_id: str,
    row: tuple[Any, ...],
    make: Callable[[Any, Any, Any, dict[str, Any]], _E] = trusted_event,  # type: ignore[assignment]
) -> _E:
    """The event of a stored row (seq, type, version, round, payload), made by
    ``make`` (``wire.trusted_bite_event`` for "Come on! Bite me!"); a StoreError
    naming the game and the seq when it cannot be read."""
    seq, tag, version, round_, payload = row
    try:
        data = json.loads(payload)
        if not isinstance(data, dict):
            raise ValueError("the payload is not a JSON object")
        return make(tag, version, round_, data)
    except Exception as exc:
        raise StoreError(
            f"game {game_id} is damaged: event {seq} ({str(tag)[:40]}) cannot be read: {why(exc)}; "
            "run getbit check"
        ) from None


def why(exc: BaseException) -> str:
    """What went wrong, on one line and cut short, for a message naming a damaged game."""
    return " ".join(str(exc).split())[:200] or type(exc).__name__


#: what a games row that no longer matches its chain value is (``stored_game``, a rebuild)
CHANGED_ROW = "its games row was changed since it was stored (it does not match its chain value)"


def row_chain(row: dict[str, Any]) -> str:
    """The chain value a games row (its columns by name) holds when it is as stored:
    over its ``prev``, its ``GAME_COLUMNS``, its game and its record (``chain_row``)."""
    covered = chain_row([row[name] for name in GAME_COLUMNS], row.get(GAME) or GET_BIT,
                        row.get(RECORD))
    return chain_value(row.get("prev") or GENESIS, covered)


def stored_game(row: dict[str, Any]) -> StoredGame:
    """The value of a games row (all its columns); StoreError naming the game when the
    row is damaged: it cannot be read, or it was changed since it was stored (it does
    not match its chain value), so that no command shows such a row as the game's."""
    fields = {name: row[name] for name in GAME_COLUMNS}
    fields[GAME] = row.get(GAME) or GET_BIT
    try:
        tags = json.loads(row["tags"] or "{}")
        swimmers = json.loads(row["swimmers"] or "[]")
        if not isinstance(tags, dict) or not isinstance(swimmers, list):
            raise TypeError("tags are not a JSON object, or swimmers not a JSON list")
    except (ValueError, TypeError) as exc:
        raise StoreError(
            f"game {row.get('id')} is damaged: its games row cannot be read ({exc}); "
            "run getbit check"
        ) from None
    chain = row.get("chain")
    if chain is not None and chain != row_chain(row):
        raise StoreError(f"game {row.get('id')} is damaged: {CHANGED_ROW}; run getbit check")
    return StoredGame(**{**fields, "tags": tuple(tags.items()), "swimmers": tuple(swimmers)})


def read_events(
    conn: sqlite3.Connection,
    kinds: eventlog.Kinds | None,
    game_id: str,
    make: Callable[[Any, Any, Any, dict[str, Any]], _E] = trusted_event,  # type: ignore[assignment]
    game: str = GET_BIT,
) -> list[_E]:
    """``GameStore.events``: a game's stream, a StoreError naming it when damaged; an
    InputError when it is not a game of ``game`` (whose events ``make`` makes)."""
    held = conn.execute(
        f"SELECT events, hash, {GAME} FROM games WHERE id = ?", (game_id,)
    ).fetchone()
    if held is not None and held[2] != game:
        raise InputError(
            f"game {game_id} is a game of {GAME_NAMES.get(held[2], held[2])}, not of "
            f"{GAME_NAMES[game]}"
        )
    decoded = eventlog.game_rows(conn, kinds, game_id)
    rows = decoded.rows
    problem = decoded.unread[0] if decoded.unread else None
    problem = problem or seq_gaps(rows, held[0] if held is not None else None)
    if problem is None and rows and held is not None:
        violations = conn.execute(
            "SELECT code, round, message FROM violations WHERE game_id = ? ORDER BY rowid",
            (game_id,),
        )
        try:
            hashed: str | None = rows_digest((row[1:] for row in rows), (), violations)
        except TypeError:  # a value of a kind getbit never writes there: changed
            hashed = None
        if hashed != held[1]:
            problem = "its events or violations are not those it was stored with"
    if problem is not None:
        raise StoreError(f"game {game_id} is damaged: {problem}; run getbit check")
    return [stored_event(game_id, row, make) for row in rows]


def read_streams(
    conn: sqlite3.Connection,
    kinds: eventlog.Kinds | None,
    on_damaged: Callable[[Damage], None] | None = None,
) -> Iterator[tuple[str, list[Event]]]:
    """``GameStore.streams``: every game's stream in the order stored, events shared
    (Get Bit!'s games: a store from before ``m007_game`` holds no other)."""
    if kinds is None:  # a store from before: its table of events
        yield from _careful_streams(conn, _stored_rows(conn), on_damaged)
        return
    # Events are frozen values, and many recur from game to game (the same
    # choice in the same round): each is made once and shared.
    seen: dict[tuple[Any, ...], Event] = {}
    for game_id, held, strings, runs in eventlog.stream_runs(conn):
        if strings is None and not runs and not held:
            continue  # a set-up that broke the rules: nothing to replay
        if held:
            stream = eventlog.quick_events(conn, kinds, strings, runs, held, seen, trusted_event)
            if stream is not None:
                yield game_id, stream
                continue
        decoded = eventlog.decode_runs(conn, kinds, strings, runs)
        yield from _careful_streams(conn, iter([(game_id, held, decoded)]), on_damaged)


def _careful_streams(
    conn: sqlite3.Connection,
    games: Iterator[tuple[str, int | None, eventlog.Decoded | None]],
    on_damaged: Callable[[Damage], None] | None,
) -> Iterator[tuple[str, list[Event]]]:
    """The streams of ``games`` (id, events held, rows), each row checked; a damaged
    game is a StoreError, or handed to ``on_damaged`` and left out."""
    seen: dict[tuple[Any, Any, Any, Any], Event] = {}
    make = trusted_event
    for game_id, held, decoded in games:
        if decoded is None or (not decoded.rows and not decoded.unread):
            if not held:  # a set-up that broke the rules: nothing to replay
                continue
            rows: list[eventlog.Row] = []
        else:
            rows = decoded.rows
        n = len(rows)
        stream = []
        try:
            if decoded is not None and decoded.unread:
                raise StoreError(decoded.unread[0])
            if n != held or (n and (rows[0][0] != 1 or rows[-1][0] != n)):
                raise StoreError(seq_gaps(rows, held) or "its events do not run 1..n")
            for seq, t, v, r, p in rows:
                event = seen.get((t, v, r, p))
                if event is None:
                    if len(seen) >= _SHARED:
                        seen.clear()
                    try:
                        event = make(t, v, r, loads(p, 0)[0])
                    except Exception:
                        event = stored_event(game_id, (seq, t, v, r, p))  # says why
                    seen[(t, v, r, p)] = event
                stream.append(event)
        except StoreError as exc:
            if on_damaged is None:
                raise
            on_damaged(Damage(game_id, damage_of(exc)))
            continue
        yield game_id, stream


def _stored_rows(
    conn: sqlite3.Connection,
) -> Iterator[tuple[str, int | None, eventlog.Decoded | None]]:
    """Every game's id, event count and rows, in the order stored (a store from before)."""
    cursor = conn.execute(
        "SELECT g.id, e.seq, e.type, e.version, e.round, e.payload, g.events FROM games g "
        "LEFT JOIN events e ON e.game_id = g.id ORDER BY g.rowid, e.seq"
    )
    for game_id, group in itertools.groupby(cursor, key=_FIRST):
        rows = list(group)
        decoded = None
        if rows[0][1] is not None:
            decoded = eventlog.Decoded()
            decoded.rows = [row[1:6] for row in rows]
        yield game_id, rows[0][6], decoded


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
