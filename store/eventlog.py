"""Events stored compactly, and read back as the rows they stand for.

A game's events are kept as runs (``event_runs``: one row for the events of a
round, in order), each a JSON array of positional events: ``[kind, slot1,
slot2, ...]``. A kind (``event_kinds``, shared by the whole store) is a type, a
version and the payload's text with every value taken out (its template, ``%s``
a slot); a slot that is text holds the index of the text in the game's strings
(``event_games.strings``, each text once a game). The view ``events`` puts them
together again, one row an event with today's columns (``game_id``, ``seq``,
``type``, ``version``, ``round``, ``payload``), for anyone reading the file with
SQL. A payload whose template does not give back its text byte for byte, or has
more than ``SLOTS`` values, is kept whole (a raw kind).

The payload text an event is read back as is the one it was stored with, byte
for byte: the game's hash (``stored.rows_digest``) is made from it.
"""

from __future__ import annotations

import itertools
import json
import operator
import sqlite3
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any

from importers.payload_text import scalar
from store.encoding import SLOTS, Encoded, Kind, Shapes

__all__ = [
    "SLOTS",
    "Decoded",
    "Kinds",
    "Log",
    "chosen_rows",
    "compact_tables",
    "encode",
    "game_rows",
    "run_rows",
    "view_sql",
]

_quote = json.encoder.encode_basestring  # a JSON string, as the store's compact JSON writes it
_CACHE = 50_000  # events kept to share while reading, at most

#: A stored event as a row: seq, type, version, round, payload (None: cannot be read).
Row = tuple[int, Any, Any, Any, Any]


def view_sql() -> str:
    """The view ``events``: one row an event of each stored game, the columns of the table
    it replaced. A game's events are found as the store finds them, by its number and
    its id both (``read_events``): events left under the number of a game whose row was
    removed (``getbit check`` names them) are not a stored game's, and the same game
    imported again is not seen twice (``m012_stored_events``)."""
    slots = ", ".join(
        f"CASE WHEN k.strings >> {n - 1} & 1 THEN json_quote(g.strings ->> (e.value ->> {n})) "
        f"ELSE e.value -> {n} END"
        for n in range(1, SLOTS + 1)
    )
    return (
        "CREATE VIEW events AS SELECT g.game_id AS game_id, r.seq + e.key AS seq, "
        "k.type AS type, k.version AS version, r.round AS round, "
        f"CASE WHEN k.raw THEN e.value ->> 1 ELSE format(k.template, {slots}) END AS payload "
        "FROM games s JOIN event_games g ON g.game = s.rowid AND g.game_id = s.id "
        "JOIN event_runs r ON r.game = g.game, json_each(r.events) e "
        "JOIN event_kinds k ON k.kind = e.value ->> 0"
    )


def compact_tables(conn: sqlite3.Connection) -> bool:
    """Whether the store keeps its events compactly (a store from before keeps a table)."""
    found = conn.execute(
        "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'event_runs'"
    ).fetchone()
    return found is not None


# -- the kinds --------------------------------------------------------------------


class Kinds:
    """The store's kinds, as one connection knows them (made again after another
    writer added some, or a rolled-back write took back ones this one added)."""

    def __init__(self) -> None:
        self.rows: dict[int, Kind] = {}
        self.codes: dict[Kind, int] = {}
        self.fresh = False
        self.generation = 0  # moves on whenever the codes known may have changed
        self.texts: dict[int, tuple[int, ...]] = {}  # code -> where its texts are in an event
        self.top = 0  # the highest code stored, of a kind known or not

    def load(self, conn: sqlite3.Connection) -> None:
        # a kind whose values are not of the kinds getbit writes is not known: the events
        # of it cannot be read ("its kind ... is not known"), and say so, never more; a new
        # kind still takes a code none holds (``top``)
        found = conn.execute(
            "SELECT kind, type, version, template, strings, raw FROM event_kinds"
        ).fetchall()
        self.top = max((row[0] for row in found if type(row[0]) is int), default=0)
        self.rows = {
            row[0]: (row[1], row[2], row[3], row[4] or 0, row[5] or 0)
            for row in found
            if type(row[0]) is int and isinstance(row[1], str) and type(row[2]) is int
            and isinstance(row[3], str) and type(row[4] or 0) is int and type(row[5] or 0) is int
        }
        self.codes = {kind: code for code, kind in self.rows.items()}
        self.texts = {code: _positions(kind) for code, kind in self.rows.items()}
        self.fresh = True
        self.generation += 1

    def stale(self) -> None:
        """Forget them: read them again before the next use."""
        self.fresh = False
        self.generation += 1

    def code(self, conn: sqlite3.Connection, kind: Kind) -> int:
        """The code of ``kind``, added to the store when new (inside a write)."""
        if not self.fresh:
            self.load(conn)
        code = self.codes.get(kind)
        if code is None:
            code = self.top = self.top + 1
            conn.execute(
                "INSERT INTO event_kinds (kind, type, version, template, strings, raw) "
                "VALUES (?, ?, ?, ?, ?, ?)",
                (code, *kind),
            )
            self.rows[code] = kind
            self.codes[kind] = code
            self.texts[code] = _positions(kind)
        return code

    def get(self, conn: sqlite3.Connection, code: Any) -> Kind | None:
        if not self.fresh or code not in self.rows:
            self.load(conn)
        return self.rows.get(code) if isinstance(code, int) else None


def _positions(kind: Kind) -> tuple[int, ...]:
    """Where an event of ``kind`` holds texts (indexes into the game's strings)."""
    if kind[4]:
        return ()
    return tuple(n + 1 for n in range(SLOTS) if kind[3] >> n & 1)


# -- encoding -------------------------------------------------------------------------


class Log:
    """How one connection writes events compactly: the kinds it knows, and the
    shapes of the payload texts it has encoded itself (``GameStore.add`` of a
    report, a migration)."""

    def __init__(self) -> None:
        self.kinds = Kinds()
        self.shapes = Shapes()

    def encode(
        self, conn: sqlite3.Connection, rows: Iterable[tuple[int, Any, Any, Any, Any]]
    ) -> tuple[str, list[tuple[int, Any, str]]]:
        """A game's event rows (seq, type, version, round, payload) as its strings
        and its runs (seq, round, events), kinds added as needed (inside a write)."""
        return self.place(conn, self.shapes.encode(rows))

    def place(
        self, conn: sqlite3.Connection, encoded: Encoded
    ) -> tuple[str, list[tuple[int, Any, str]]]:
        """A game as ``encoding.Shapes`` encodes it, with the store's codes of its kinds put in:
        its strings and its runs (seq, round, events), kinds added as needed
        (inside a write)."""
        kinds, strings, runs = encoded
        code = self.kinds.code
        codes = {str(n): code(conn, kind) for n, kind in enumerate(kinds)}
        return strings, [(seq, round_, text % codes) for seq, round_, text in runs]


def encode(
    conn: sqlite3.Connection, log: Log, game: int, game_id: str,
    rows: Iterable[tuple[int, Any, Any, Any, Any]],
) -> None:
    """Write a game's event rows compactly under the number ``game`` (inside a write)."""
    strings, runs = log.encode(conn, rows)
    conn.execute(
        "INSERT INTO event_games (game, game_id, strings) VALUES (?, ?, ?)",
        (game, game_id, strings),
    )
    conn.executemany(
        "INSERT INTO event_runs (game, seq, round, events) VALUES (?, ?, ?, ?)",
        [(game, *run) for run in runs],
    )


# -- decoding -------------------------------------------------------------------------


class Decoded:
    """A game's rows as stored, and what in them cannot be read."""

    def __init__(self) -> None:
        self.rows: list[Row] = []
        self.unread: list[str] = []


def run_rows(
    conn: sqlite3.Connection,
    kinds: Kinds,
    strings: Sequence[Any],
    runs: Iterable[tuple[Any, Any, Any]],
    out: Decoded,
) -> None:
    """Add the rows of a game's ``runs`` (seq, round, events) to ``out``."""
    quoted: list[str | None] = [_quote(s) if isinstance(s, str) else None for s in strings]
    for start, round_, text in runs:
        try:
            elements = json.loads(text)
            if not isinstance(elements, list) or type(start) is not int:
                raise ValueError("not a list of events")
            if type(round_) is not int:
                raise ValueError(f"their round {str(round_)[:20]!r} is not a whole number")
        except (ValueError, TypeError) as exc:
            out.unread.append(f"the events from seq {start} cannot be read ({exc})")
            continue
        for offset, element in enumerate(elements):
            seq = start + offset
            row = _row(conn, kinds, quoted, element)
            if isinstance(row, str):
                out.unread.append(f"event {seq} cannot be read: {row}")
                out.rows.append((seq, None, None, round_, None))
            else:
                out.rows.append((seq, row[0], row[1], round_, row[2]))


def _row(
    conn: sqlite3.Connection, kinds: Kinds, quoted: Sequence[str | None], element: Any
) -> tuple[Any, Any, str] | str:
    """(type, version, payload) of an element, or why it cannot be read."""
    if not isinstance(element, list) or not element:
        return "not an event"
    kind = kinds.get(conn, element[0])
    if kind is None:
        return f"its kind {str(element[0])[:20]} is not known"
    tag, version, template, bits, raw = kind
    slots = element[1:]
    if raw:
        if len(slots) != 1 or not isinstance(slots[0], str):
            return "its payload is missing"
        return tag, version, slots[0]
    texts = []
    for n, value in enumerate(slots):
        if bits >> n & 1:
            text = quoted[value] if isinstance(value, int) and 0 <= value < len(quoted) else None
            if text is None:
                return f"its text {str(value)[:20]} is not among the game's"
            texts.append(text)
        else:
            texts.append(scalar(value))
    try:
        return tag, version, template % tuple(texts)
    except (TypeError, ValueError):
        return "its values do not fit its kind"


def game_rows(conn: sqlite3.Connection, kinds: Kinds | None, game_id: str) -> Decoded:
    """A game's stored event rows, in seq order, from either layout (``kinds`` None:
    a store from before, with a table ``events``)."""
    out = Decoded()
    if kinds is None:
        out.rows = conn.execute(
            "SELECT seq, type, version, round, payload FROM events WHERE game_id = ? "
            "ORDER BY seq",
            (game_id,),
        ).fetchall()
        return out
    found = conn.execute(  # by the game's number and id (migrations.m011_by_number)
        "SELECT eg.game, eg.strings FROM games g JOIN event_games eg ON eg.game = g.rowid "
        "AND eg.game_id = g.id WHERE g.id = ?",
        (game_id,),
    ).fetchone()
    if found is None:
        return out
    strings = _strings(found[1], out)
    runs = conn.execute(
        "SELECT seq, round, events FROM event_runs WHERE game = ? ORDER BY seq", (found[0],)
    )
    run_rows(conn, kinds, strings, runs, out)
    return out


def _strings(text: Any, out: Decoded) -> list[Any]:
    try:
        strings = json.loads(text)
        if isinstance(strings, list):
            return strings
    except (ValueError, TypeError):
        pass
    out.unread.append("its texts cannot be read")
    return []


def chosen_rows(
    conn: sqlite3.Connection, kinds: Kinds | None, where: str
) -> Iterator[tuple[str, Decoded]]:
    """The event rows of every game that ``where`` keeps (an SQL condition on its games
    row ``g``), in the order stored, read from either layout (``kinds`` None: a store
    from before, with a table ``events``) as ``game_rows`` reads them, without sorting
    the store's events (a game's runs are in order under their key)."""
    if kinds is None:
        cursor = conn.execute(
            "SELECT g.id, e.seq, e.type, e.version, e.round, e.payload FROM games g "
            f"JOIN events e ON e.game_id = g.id WHERE {where} ORDER BY g.rowid, e.seq"
        )
        for game_id, rows in itertools.groupby(cursor, key=operator.itemgetter(0)):
            out = Decoded()
            out.rows = [row[1:] for row in rows]
            yield game_id, out
        return
    for game_id, _, strings, runs in stream_runs(conn, where=where):
        decoded = decode_runs(conn, kinds, strings, runs)
        if decoded is not None:  # None: no events stored (a set-up that broke the rules)
            yield game_id, decoded


def stream_runs(
    conn: sqlite3.Connection, game: str = "get-bit", where: str | None = None
) -> Iterator[tuple[str, Any, Any, list[tuple[Any, Any, Any]]]]:
    """Every game of ``game`` (``games.game``), or that ``where`` keeps (an SQL
    condition on its games row ``g``, in place of the game), in the order stored: its
    id, how many events its row holds, its strings' text (None: no events stored) and
    its runs (seq, round, events). Read in the order of the games' rowids and the runs'
    key: nothing is sorted."""
    cursor = conn.execute(
        "SELECT g.id, g.events, eg.strings, r.seq, r.round, r.events FROM games g "
        "LEFT JOIN event_games eg ON eg.game = g.rowid AND eg.game_id = g.id "
        f"LEFT JOIN event_runs r ON r.game = eg.game WHERE {where or 'g.game = ?'} "
        "ORDER BY g.rowid, r.seq",
        () if where else (game,),
    )
    current: str | None = None
    held: Any = None  # as the games row holds it: a number, unless damaged
    strings_text: Any = None
    runs: list[tuple[Any, Any, Any]] = []
    for game_id, count, strings, seq, round_, events in cursor:
        if game_id != current:
            if current is not None:
                yield current, held, strings_text, runs
            current, held, strings_text, runs = game_id, count, strings, []
        if seq is not None:
            runs.append((seq, round_, events))
    if current is not None:
        yield current, held, strings_text, runs


def decode_runs(
    conn: sqlite3.Connection, kinds: Kinds, strings: Any, runs: list[tuple[Any, Any, Any]]
) -> Decoded | None:
    """A game's rows from its strings' text and runs (None: it has no events stored)."""
    if strings is None and not runs:
        return None
    out = Decoded()
    run_rows(conn, kinds, _strings(strings, out), runs, out)
    return out


def quick_events(
    conn: sqlite3.Connection,
    kinds: Kinds,
    strings_text: Any,
    runs: list[tuple[Any, Any, Any]],
    held: Any,
    seen: dict[tuple[Any, ...], Any],
    make: Callable[[Any, Any, Any, Any], Any],
) -> list[Any] | None:
    """A game's events, made by ``make(type, version, round, fields)`` and shared
    through ``seen`` (an event is looked up by its round, kind and values, never
    written out as text and read again); None when anything is not as stored
    (the careful path, ``decode_runs``, then says what)."""
    try:
        strings = json.loads(strings_text)
        events: list[Any] = []
        for start, round_, text in runs:
            if start != len(events) + 1 or type(round_) is not int:
                return None
            for element in json.loads(text):
                code = element[0]
                where = kinds.texts.get(code)
                if where is None:
                    kinds.get(conn, code)
                    where = kinds.texts[code]
                for n in where:
                    element[n] = strings[element[n]]
                key = (round_, *element)
                event = seen.get(key)
                if event is None:
                    if len(seen) >= _CACHE:
                        seen.clear()
                    tag, version, template, _, raw = kinds.rows[code]
                    payload = element[1] if raw else template % tuple(map(scalar, element[1:]))
                    event = seen[key] = make(tag, version, round_, json.loads(payload))
                events.append(event)
    except Exception:  # damaged: the careful path says how
        return None
    return events if len(events) == held else None
