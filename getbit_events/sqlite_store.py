"""The game store: recorded games kept in one SQLite file, the only module that speaks SQL.

Tables (``docs/store.md`` has the columns):

- ``games``: one row per stored game: its id, the hash of its content, where it
  was read, tags, variant, swimmers, status (``valid``, ``invalid``,
  ``unfinished``), winner, when it was imported;
- ``events``: the truth: every event of every game (``game_id``, ``seq``,
  ``type``, ``version``, ``round``, JSON ``payload``), append-only;
- ``violations``: what the validator found in invalid games, append-only;
- ``game_swimmers``: the read model of :mod:`getbit_events.readmodel` (one row
  per game per swimmer), rebuilt from ``events`` at will, with views over it.

Schema changes are sqlite-utils migrations, applied when a store is opened.
Every game is written in its own ``BEGIN IMMEDIATE`` transaction, so a crash
leaves no half game and two writers wait for each other (``timeout``) instead
of failing. A game's id comes from the hash of its canonical event stream (not
of its file), so importing it again, from any file, stores nothing.
"""

from __future__ import annotations

import datetime
import hashlib
import itertools
import json
import os
import sqlite3
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import attrs
import sqlite_utils

from getbit_events import readmodel
from getbit_events.errors import InputError, StoreError
from getbit_events.events import Event, GameStarted
from getbit_events.serialize import payload_json, trusted_event
from getbit_events.validate import GameReport

__all__ = [
    "DEFAULT_DB",
    "AddResult",
    "GameStore",
    "RebuildResult",
    "StoredGame",
    "StoredViolation",
    "default_path",
    "game_hash",
]

DEFAULT_DB = "getbit.db"
_HEADER = b"SQLite format 3\x00"
_ID_LENGTH = 12
_APPEND_ONLY = ("games", "events", "violations")


def default_path() -> Path:
    """``$GETBIT_DB`` when set, else ``getbit.db`` in the current folder."""
    return Path(os.environ.get("GETBIT_DB") or DEFAULT_DB)


@attrs.frozen
class StoredViolation:
    """One violation kept with an invalid game."""

    line: int
    column: int
    round: int | None
    code: str
    rule: str | None
    message: str

    def to_json(self) -> dict[str, Any]:
        return attrs.asdict(self)


@attrs.frozen
class StoredGame:
    """One row of ``games``: what the store knows about a game without replaying it."""

    id: str
    hash: str
    source: str | None
    source_line: int | None
    source_game: int | None
    tags: tuple[tuple[str, str], ...]
    variant: str | None
    swimmers: tuple[str, ...]
    status: str
    winner: str | None
    rounds: int
    events: int
    violations: int
    imported_at: str

    def to_json(self) -> dict[str, Any]:
        data = attrs.asdict(self)
        data["tags"] = dict(self.tags)
        data["swimmers"] = list(self.swimmers)
        return data


@attrs.frozen
class AddResult:
    """What :meth:`GameStore.add` did: ``stored`` is False when the game was already there."""

    game_id: str
    stored: bool
    status: str


@attrs.frozen
class RebuildResult:
    games: int
    events: int
    rows: int


def status_of(report: GameReport) -> str:
    """``invalid`` with violations, ``unfinished`` before the end, else ``valid``."""
    if not report.valid:
        return "invalid"
    return "valid" if report.finished else "unfinished"


def game_hash(report: GameReport) -> str:
    """SHA-256 of the game's canonical content: events (no positions) and violations.

    The file it came from, its line ends and its layout do not count.
    """
    return _digest(report, [payload_json(e) for e in report.events])


def _digest(report: GameReport, payloads: Sequence[str]) -> str:
    lines = [
        f"{e.TYPE}\t{e.VERSION}\t{e.round}\t{p}\n"
        for e, p in zip(report.events, payloads, strict=True)
    ]
    if not report.events:  # no set-up: the tags are all there is
        lines.extend(f"tag\t{tag.name}\t{tag.value}\n" for tag in report.record.tags)
    lines.extend(f"violation\t{v.code}\t{v.round}\t{v.message}\n" for v in report.violations)
    return hashlib.sha256("".join(lines).encode()).hexdigest()


# -- schema --------------------------------------------------------------------

MIGRATIONS = sqlite_utils.Migrations("getbit-events")


@MIGRATIONS()
def m001_core_tables(db: sqlite_utils.Database) -> None:
    """games, events and violations; events and violations can only grow."""
    db.table("games").create(
        {
            "id": str,
            "hash": str,
            "source": str,
            "source_line": int,
            "source_game": int,
            "tags": str,
            "variant": str,
            "swimmers": str,
            "status": str,
            "winner": str,
            "rounds": int,
            "events": int,
            "violations": int,
            "imported_at": str,
        },
        pk="id",
        not_null={"hash", "status", "imported_at"},
    )
    db.table("games").create_index(["hash"], unique=True)
    db.table("games").create_index(["status"])
    db.table("events").create(
        {
            "game_id": str,
            "seq": int,
            "type": str,
            "version": int,
            "round": int,
            "payload": str,
        },
        pk=("game_id", "seq"),
        foreign_keys=[("game_id", "games", "id")],
        not_null={"type", "version", "round", "payload"},
    )
    db.table("violations").create(
        {
            "game_id": str,
            "line": int,
            "column": int,
            "round": int,
            "code": str,
            "rule": str,
            "message": str,
        },
        foreign_keys=[("game_id", "games", "id")],
    )
    db.table("violations").create_index(["game_id"])
    for table in _APPEND_ONLY:
        for action in ("UPDATE", "DELETE"):
            db.execute(
                f"CREATE TRIGGER {table}_no_{action.lower()} BEFORE {action} ON {table} "
                f"BEGIN SELECT RAISE(ABORT, '{table} are append-only: "
                f"{action} is refused'); END"
            )


@MIGRATIONS()
def m002_read_model(db: sqlite_utils.Database) -> None:
    """The read model table, its views and the record of which version built it."""
    db.table("meta").create({"key": str, "value": str}, pk="key")
    _create_read_model(db)


def _create_read_model(db: sqlite_utils.Database) -> None:
    """(Re)create ``game_swimmers`` from ``readmodel.COLUMNS`` and the views over it."""
    for view in ("player_results", "counted_game_swimmers"):
        db.execute(f"DROP VIEW IF EXISTS {view}")
    db.execute(f"DROP TABLE IF EXISTS {readmodel.TABLE}")
    db.table(readmodel.TABLE).create(
        {name: _PY_TYPES[sql] for name, sql in readmodel.COLUMNS.items()}, pk=readmodel.KEY
    )
    db.table(readmodel.TABLE).create_index(["player_key"])
    # The rows statistics count: invalid games are left out (and said so by reports).
    db.create_view(
        "counted_game_swimmers",
        f"SELECT * FROM {readmodel.TABLE} WHERE status != 'invalid'",
    )
    db.create_view(
        "player_results",
        f"""SELECT player_key, MIN(name) AS name, COUNT(DISTINCT game_id) AS games,
        COUNT(DISTINCT CASE WHEN won = 1 THEN game_id END) AS wins,
        COUNT(DISTINCT CASE WHEN status = 'valid' THEN game_id END) AS finished
        FROM {readmodel.TABLE} WHERE status != 'invalid' AND role != 'automaton'
        GROUP BY player_key""",
    )
    db.execute(
        "INSERT OR REPLACE INTO meta (key, value) VALUES ('read_model', ?)",
        [_read_model_signature()],
    )


_PY_TYPES: dict[str, type] = {"TEXT": str, "INTEGER": int, "REAL": float, "BLOB": bytes}


def _read_model_signature() -> str:
    return json.dumps([readmodel.VERSION, list(readmodel.COLUMNS.items())])


# -- the store -----------------------------------------------------------------


class GameStore:
    """A SQLite file of recorded games.

    ``GameStore(path)`` opens (or creates; with ``create=False`` a missing file is
    a StoreError) the store and brings its schema up to date; a file that is not
    a getbit store is refused with StoreError and left as it is. ``timeout`` is
    how long a writer waits for another. Use it as a context manager, or call
    :meth:`close`.

    Writing: :meth:`add` (one game, one transaction), :meth:`rebuild`.
    Reading: :meth:`games`, :meth:`game`, :meth:`events`, :meth:`violations`,
    :meth:`swimmer_rows`, :meth:`count`.
    """

    def __init__(
        self, path: str | Path | None = None, *, create: bool = True, timeout: float = 30.0
    ) -> None:
        self.path = Path(path) if path is not None else default_path()
        if not create and not self.path.exists():
            raise StoreError(f"no store at {self.path}: import games first, or give --db")
        _check_file(self.path)
        try:
            conn = sqlite3.connect(str(self.path), timeout=timeout, isolation_level=None)
        except sqlite3.Error as exc:
            raise StoreError(f"{self.path}: cannot open the store: {exc}") from None
        self._conn = conn
        self.db = sqlite_utils.Database(conn, execute_plugins=False)
        self._prepare()
        try:
            self._open()
        except sqlite3.DatabaseError as exc:
            conn.close()
            raise StoreError(f"{self.path}: not a usable getbit store: {exc}") from None
        except BaseException:
            conn.close()
            raise

    def _open(self) -> None:
        conn = self._conn
        conn.execute("PRAGMA schema_version").fetchone()  # reads the header: fails if not SQLite
        tables = set(self.db.table_names())
        ours = {"games", "events", "_sqlite_migrations"}
        if tables and not tables & ours:
            shown = ", ".join(sorted(tables)[:5])
            raise StoreError(
                f"{self.path} is an SQLite database but not a getbit store (it holds {shown}); "
                "refusing to change it"
            )
        known = {m.name for m in MIGRATIONS._migrations}
        unknown = [m.name for m in MIGRATIONS.applied(self.db) if m.name not in known]
        if unknown:
            raise StoreError(
                f"{self.path} was written by a newer getbit (schema {unknown[-1]}); "
                "upgrade getbit to use it"
            )
        if conn.execute("PRAGMA journal_mode").fetchone()[0] != "wal":
            conn.execute("PRAGMA journal_mode=wal")
        conn.execute("PRAGMA synchronous=NORMAL")
        conn.execute("PRAGMA foreign_keys=ON")
        if MIGRATIONS.pending(self.db):
            with self._write():
                MIGRATIONS.apply(self.db)
        if self._meta("read_model") != _read_model_signature():
            self.rebuild()

    def _prepare(self) -> None:
        cols = list(readmodel.COLUMNS)
        self._insert_game = (
            "INSERT INTO games (id, hash, source, source_line, source_game, tags, variant, "
            "swimmers, status, winner, rounds, events, violations, imported_at) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
        )
        self._insert_event = (
            "INSERT INTO events (game_id, seq, type, version, round, payload) "
            "VALUES (?, ?, ?, ?, ?, ?)"
        )
        self._insert_violation = (
            'INSERT INTO violations (game_id, line, "column", round, code, rule, message) '
            "VALUES (?, ?, ?, ?, ?, ?, ?)"
        )
        self._insert_row = (
            f"INSERT INTO {readmodel.TABLE} ({', '.join(_quote(c) for c in cols)}) "
            f"VALUES ({', '.join('?' for _ in cols)})"
        )

    def _meta(self, key: str) -> str | None:
        if "meta" not in self.db.table_names():
            return None
        row = self._conn.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
        return row[0] if row else None

    # -- life cycle ------------------------------------------------------------

    def close(self) -> None:
        self._conn.close()

    def __enter__(self) -> GameStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @contextmanager
    def _write(self) -> Iterator[sqlite3.Connection]:
        """One write transaction, taken at once (BEGIN IMMEDIATE), committed or rolled back."""
        conn = self._conn
        conn.execute("BEGIN IMMEDIATE")
        try:
            yield conn
        except BaseException:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            raise
        conn.execute("COMMIT")

    # -- writing ---------------------------------------------------------------

    def add(self, report: GameReport) -> AddResult:
        """Store one validated game with its events, violations and read-model rows.

        The game is written whole or not at all. A game already stored (the
        same canonical content, from any file) is not stored again:
        ``AddResult.stored`` is False. A report whose record has syntax errors
        cannot be stored (InputError): there is no game to keep.
        """
        if not report.readable:
            first = report.violations[0] if report.violations else None
            raise InputError(f"{first or report.source}: a game with syntax errors is not stored")
        status = status_of(report)
        events = report.events
        payloads = [payload_json(e) for e in events]
        digest = _digest(report, payloads)
        setup = events[0] if events and isinstance(events[0], GameStarted) else None
        if setup is not None:
            tags = dict(setup.tags)
        else:
            tags = {t.name: t.value for t in report.record.tags}
        rounds = max((e.round for e in events), default=0)
        imported_at = datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds")
        game = (
            digest,
            report.source,
            report.record.pos.line,
            report.record.index,
            json.dumps(tags, ensure_ascii=False),
            setup.variant if setup is not None else None,
            json.dumps(list(setup.line) if setup else [], ensure_ascii=False),
            status,
            report.winner,
            rounds,
            len(events),
            len(report.violations),
            imported_at,
        )
        try:
            with self._write() as conn:
                game_id = digest[:_ID_LENGTH]
                try:  # the unique id and hash find a game already stored
                    conn.execute(self._insert_game, (game_id, *game))
                except sqlite3.IntegrityError:
                    known = conn.execute("SELECT id FROM games WHERE hash = ?", (digest,))
                    found = known.fetchone()
                    if found is not None:
                        return AddResult(found[0], False, status)
                    game_id = self._free_id(digest)  # another game's hash starts the same
                    conn.execute(self._insert_game, (game_id, *game))
                conn.executemany(
                    self._insert_event,
                    [
                        (game_id, seq, e.TYPE, e.VERSION, e.round, p)
                        for seq, (e, p) in enumerate(zip(events, payloads, strict=True), 1)
                    ],
                )
                if report.violations:
                    conn.executemany(
                        self._insert_violation,
                        [
                            (game_id, v.pos.line, v.pos.column, v.round, v.code, v.rule, v.message)
                            for v in report.violations
                        ],
                    )
                if setup is not None:
                    conn.executemany(
                        self._insert_row,
                        [tuple(r.values()) for r in readmodel.rows(game_id, events, status, tags)],
                    )
        except sqlite3.DatabaseError as exc:
            raise StoreError(f"{self.path}: could not store the game: {exc}") from None
        return AddResult(game_id, True, status)

    def _free_id(self, digest: str) -> str:
        length = _ID_LENGTH
        while True:
            game_id = digest[:length]
            taken = self._conn.execute("SELECT 1 FROM games WHERE id = ?", (game_id,))
            if taken.fetchone() is None:
                return game_id
            length += 4  # another game's hash starts the same: take more of ours

    def rebuild(self) -> RebuildResult:
        """Recreate the read model from the events, in one transaction."""
        conn = self._conn
        games = events = rows = 0
        try:
            with self._write():
                _create_read_model(self.db)
                info = {
                    gid: (status, json.loads(tags))
                    for gid, status, tags in conn.execute("SELECT id, status, tags FROM games")
                }
                batch: list[tuple[Any, ...]] = []
                for game_id, stream in self.streams():
                    status, tags = info[game_id]
                    batch.extend(
                        tuple(r.values()) for r in readmodel.rows(game_id, stream, status, tags)
                    )
                    games += 1
                    events += len(stream)
                    if len(batch) >= 5000:
                        rows += len(batch)
                        conn.executemany(self._insert_row, batch)
                        batch = []
                rows += len(batch)
                conn.executemany(self._insert_row, batch)
        except sqlite3.DatabaseError as exc:
            raise StoreError(f"{self.path}: could not rebuild: {exc}") from None
        return RebuildResult(games, events, rows)

    # -- reading ---------------------------------------------------------------

    def count(self, status: str | None = None) -> int:
        """How many games are stored (with ``status`` when given)."""
        if status is None:
            return int(self._conn.execute("SELECT COUNT(*) FROM games").fetchone()[0])
        sql = "SELECT COUNT(*) FROM games WHERE status = ?"
        return int(self._conn.execute(sql, (status,)).fetchone()[0])

    def games(
        self, *, player: str | None = None, status: str | None = None
    ) -> Iterator[StoredGame]:
        """Stored games in import order; ``player`` matches a swimmer or player, ignoring case."""
        where, params = [], []
        if status is not None:
            where.append("status = ?")
            params.append(status)
        if player is not None:
            where.append(
                f"id IN (SELECT game_id FROM {readmodel.TABLE} WHERE player_key = ? OR swimmer = ?)"
            )
            params.extend([player.casefold(), player])
        sql = "SELECT * FROM games"
        if where:
            sql += " WHERE " + " AND ".join(where)
        for row in self.db.query(sql + " ORDER BY rowid", params):
            yield _stored_game(row)

    def game(self, ref: str) -> StoredGame:
        """The game whose id is ``ref`` or starts with it (InputError when none or several)."""
        ref = ref.strip()
        if not ref:
            raise InputError("a game id is needed (see 'getbit games')")
        like = ref.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"
        found = list(
            self.db.query(
                "SELECT * FROM games WHERE id = ? OR id LIKE ? ESCAPE '\\' ORDER BY id LIMIT 6",
                [ref, like],
            )
        )
        exact = [r for r in found if r["id"] == ref]
        if exact:
            return _stored_game(exact[0])
        if not found:
            raise InputError(f"no game {ref!r} in {self.path} (see 'getbit games')")
        if len(found) > 1:
            ids = ", ".join(r["id"] for r in found[:5])
            raise InputError(f"{ref!r} could be any of {ids} ...; give more of the id")
        return _stored_game(found[0])

    def events(self, game_id: str) -> list[Event]:
        """The game's complete event stream, set-up first (empty for an invalid set-up)."""
        cursor = self._conn.execute(
            "SELECT type, version, round, payload FROM events WHERE game_id = ? ORDER BY seq",
            (game_id,),
        )
        return [trusted_event(t, v, r, _loads(p, 0)[0]) for t, v, r, p in cursor]

    def streams(self) -> Iterator[tuple[str, list[Event]]]:
        """Every stored game's id and event stream, a game at a time (one query, ordered by id).

        Games whose set-up broke the rules have no events and are not among them.
        """
        cursor = self._conn.execute(
            "SELECT game_id, type, version, round, payload FROM events ORDER BY game_id, seq"
        )
        make, loads = trusted_event, _loads
        for game_id, group in itertools.groupby(cursor, key=_first):
            yield game_id, [make(t, v, r, loads(p, 0)[0]) for _, t, v, r, p in group]

    def violations(self, game_id: str) -> list[StoredViolation]:
        """The violations kept with the game, in record order."""
        rows = self._conn.execute(
            'SELECT line, "column", round, code, rule, message FROM violations '
            'WHERE game_id = ? ORDER BY line, "column", rowid',
            (game_id,),
        )
        return [StoredViolation(*r) for r in rows]

    def swimmer_rows(self, **filters: Any) -> Iterator[dict[str, Any]]:
        """Read-model rows (``readmodel.COLUMNS``) whose columns equal ``filters``.

        ``swimmer_rows(player_key="anne", status="valid")``; a name not in the
        columns is a ValueError. Rows come in import order, then starting place.
        """
        unknown = set(filters) - set(readmodel.COLUMNS)
        if unknown:
            raise ValueError(f"not read-model columns: {', '.join(sorted(unknown))}")
        where = " AND ".join(f"r.{_quote(k)} = ?" for k in filters) or "1"
        sql = (
            f"SELECT r.* FROM {readmodel.TABLE} r JOIN games g ON g.id = r.game_id "
            f"WHERE {where} ORDER BY g.rowid, r.role = 'shark', r.start_place"
        )
        yield from self.db.query(sql, list(filters.values()))

    def table_rows(self, table: str) -> list[dict[str, Any]]:
        """Every row of one of the store's tables, for tests and checks (sorted)."""
        if table not in {"games", "events", "violations", readmodel.TABLE}:
            raise ValueError(f"not a store table: {table}")
        return sorted(self.db.query(f"SELECT * FROM {table}"), key=repr)


# The C scanner behind json.loads, called straight: the store reads back only the
# compact JSON it wrote, so the checks around it (whitespace, trailing text) are
# not needed, and a stream decodes in half the time.
_loads: Callable[[str, int], tuple[Any, int]] = json.JSONDecoder().scan_once  # type: ignore[attr-defined]


def _quote(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


def _first(row: tuple[Any, ...]) -> Any:
    return row[0]


def _stored_game(row: dict[str, Any]) -> StoredGame:
    tags = tuple(json.loads(row["tags"] or "{}").items())
    swimmers = tuple(json.loads(row["swimmers"] or "[]"))
    return StoredGame(**{**row, "tags": tags, "swimmers": swimmers})


def _check_file(path: Path) -> None:
    """Refuse, before SQLite touches it, a path that is not a store or a new file."""
    if path.is_dir():
        raise StoreError(f"{path} is a folder, not a getbit store")
    if not path.exists():
        if not path.parent.exists():
            raise StoreError(f"{path}: the folder {path.parent} does not exist")
        return
    try:
        with path.open("rb") as f:
            head = f.read(len(_HEADER))
    except OSError as exc:
        raise StoreError(f"{path}: cannot read: {exc.strerror or exc}") from None
    if head and head != _HEADER:
        raise StoreError(
            f"{path} is not an SQLite database (it does not start like one); "
            "refusing to touch it: give another --db"
        )
