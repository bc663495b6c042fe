"""A store this process cannot write (a read-only mount, another user's folder) is read
where it lies by the commands that only read it, as it is, and a command that would
write to it says why it cannot, with nothing written (``store.opening``)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from cli import app
from getbit_events.errors import StoreError
from getbit_events.simulate import simulate_games
from getbit_events.validate import validate_game
from importers.gbn import read_gbn, write_gbn
from store import GameStore, opening

OLD = Path(__file__).resolve().parent.parent / "fixtures" / "stores"


def _run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(app, list(args))
    assert "Traceback" not in result.output + result.stderr
    assert result.exception is None or isinstance(result.exception, SystemExit)
    return result.exit_code, result.stdout, result.stderr


@pytest.fixture
def records(tmp_path: Path) -> Path:
    path = tmp_path / "games.gbn"
    path.write_text(write_gbn(simulate_games(12, "standard", 4, 5, "random")), "utf-8")
    return path


@pytest.fixture
def store_path(tmp_path: Path, records: Path) -> Path:
    """A store of 12 games, two of them retracted since its standings were last read, so
    they are stale: worked out again the next time they are read."""
    path = tmp_path / "games.db"
    with GameStore(path) as store:
        ids = [store.add(validate_game(g)).game_id for g in read_gbn(records.read_text())]
        store.totals()  # the standings as they are now, kept
        store.retract(ids[3], "entered twice")
        store.retract(ids[7], None)
    return path


@pytest.fixture
def cannot_write(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every file and folder looks unwritable to getbit, as on a read-only mount."""
    monkeypatch.setattr(opening, "_writable", lambda path: False)


def _stale(path: Path) -> bool:
    with GameStore(path, readonly=True) as store:
        return store.db.execute(
            "SELECT value FROM meta WHERE key = 'standings'"
        ).fetchone() == ("stale",)


READS = [
    ["stats"],
    ["stats", "--json"],
    ["games", "--all"],
    ["export", "--all", "--format", "jsonl"],
    ["check", "--json"],
]


@pytest.mark.parametrize("command", READS, ids=" ".join)
def test_a_command_that_reads_says_what_it_says_where_the_store_can_be_written(
    tmp_path: Path, store_path: Path, command: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    copy = tmp_path / "copy.db"
    shutil.copy(store_path, copy)
    assert _stale(store_path)
    before = store_path.read_bytes()
    with monkeypatch.context() as patch:
        patch.setattr(opening, "_writable", lambda path: False)
        code, out, err = _run(*command, "--db", str(store_path))
    assert code == 0
    assert store_path.read_bytes() == before  # nothing written: the standings still stale
    written = _run(*command, "--db", str(copy))
    assert (str(code), out, err) == tuple(str(w).replace("copy.db", "games.db") for w in written)
    # where it can be written, the standings read are worked out again and kept
    assert _stale(copy) == (command[0] != "stats")


def test_show_and_replay_and_report_read_a_store_that_cannot_be_written(
    store_path: Path, cannot_write: None
) -> None:
    with GameStore(store_path, create=False) as store:
        assert store.readonly
        game_id = next(iter(store.games())).id
    for command in (["show", game_id], ["replay", game_id], ["report", game_id]):
        code, out, err = _run(*command, "--db", str(store_path))
        assert (code, err) == (0, ""), command
        assert out


def test_stale_standings_are_worked_out_as_a_write_would_keep_them(
    tmp_path: Path, store_path: Path
) -> None:
    copy = tmp_path / "copy.db"
    shutil.copy(store_path, copy)
    with GameStore(store_path, readonly=True) as store:
        in_memory = store.totals()
        one = store.totals("ann")
    with GameStore(copy) as store:
        assert store.totals() == in_memory
        assert store.totals("ann") == one
    assert in_memory.standings
    assert one.standings
    assert _stale(store_path)


@pytest.mark.parametrize(
    "command",
    [["retract", "{id}", "--reason", "x"], ["rebuild"], ["import", "{records}"]],
    ids=lambda c: c[0],
)
def test_a_command_that_writes_says_why_it_cannot_and_writes_nothing(
    store_path: Path, records: Path, cannot_write: None, command: list[str]
) -> None:
    with GameStore(store_path, create=False) as store:
        game_id = next(iter(store.games())).id
    before = store_path.read_bytes()
    args = [a.format(id=game_id, records=records) for a in command]
    code, _, err = _run(*args, "--db", str(store_path))
    assert code == 2
    assert f"{store_path}: cannot write to the store here: the file or its folder cannot " in err
    assert "the commands that only read it (check, stats," in " ".join(err.split())
    assert store_path.read_bytes() == before


def test_a_store_to_bring_up_to_date_first_is_refused_not_read(
    tmp_path: Path, cannot_write: None
) -> None:
    """A store of an earlier getbit is migrated on opening, which writes: where it
    cannot be written it is refused, never read half-understood."""
    db = tmp_path / "main.db"
    shutil.copy(OLD / "main.db", db)
    before = db.read_bytes()
    with pytest.raises(StoreError, match="must first bring the store up to date"):
        GameStore(db, create=False)
    code, _, err = _run("stats", "--db", str(db))
    assert code == 2
    assert "it cannot be written here: open it once where it can be written" in " ".join(
        err.split()
    )
    code, out, _ = _run("check", "--json", "--db", str(db))  # check reads it as it is
    assert json.loads(out)["ok"] in (True, False)
    assert db.read_bytes() == before
