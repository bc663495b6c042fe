"""Progress on long work (issue 14): a bar on stderr with a total and the time
left, for import, validate, stats FILES and rebuild; nothing in a pipe or under
--json."""

from __future__ import annotations

import io
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from rich.console import Console

from console.progress import Bar, file_sizes
from getbit_events.simulate import simulate_games
from importers.gbn import write_gbn

#: what these test is plain Python in both builds (none of setup.py's COMPILED is their
#: subject): the compiled build's pass of .ci/run leaves them to the plain pass
pytestmark = pytest.mark.layers


def _getbit(*args: str, terminal: bool) -> subprocess.CompletedProcess[str]:
    """``getbit``, its stderr a terminal (rich's TTY_COMPATIBLE) or a pipe."""
    env = {**os.environ, "TTY_COMPATIBLE": "1" if terminal else "0", "COLUMNS": "100"}
    script = Path(sys.executable).with_name("getbit")
    return subprocess.run(
        [str(script), *args], capture_output=True, text=True, env=env, check=False
    )


@pytest.fixture(scope="module")
def games(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("progress")
    for k in range(3):
        (folder / f"g{k}.gbn").write_text(
            write_gbn(simulate_games(20, "standard", 4, k, "random")), encoding="utf-8"
        )
    return folder


TOTAL_BYTES = "kB"  # DownloadColumn: done/total in kB; MofNCompleteColumn: done/total


@pytest.mark.parametrize(
    ("args", "word"),
    [
        (["validate", "{games}"], "checking"),
        (["stats", "{games}"], "reading"),
        (["import", "{games}", "--db", "{db}"], "importing"),
    ],
)
def test_a_bar_with_a_total_on_a_terminal(
    games: Path, tmp_path: Path, args: list[str], word: str
) -> None:
    args = [a.format(games=games, db=tmp_path / "s.db") for a in args]
    shown = _getbit(*args, terminal=True)
    assert shown.returncode == 0, shown.stderr
    assert word in shown.stderr
    assert TOTAL_BYTES in shown.stderr  # a total is known: the bytes of the files
    assert word not in shown.stdout
    piped = _getbit(*args, terminal=False)
    assert piped.returncode == 0
    assert word not in piped.stderr
    assert piped.stderr == ""


@pytest.mark.parametrize(
    "args",
    [["validate", "--json", "{games}"], ["stats", "--json", "{games}"],
     ["import", "--json", "{games}", "--db", "{db}"]],
)
def test_no_bar_under_json(games: Path, tmp_path: Path, args: list[str]) -> None:
    args = [a.format(games=games, db=tmp_path / "s.db") for a in args]
    result = _getbit(*args, terminal=True)
    assert result.returncode == 0, result.stderr
    assert result.stderr == ""


def test_rebuild_counts_the_stored_games(games: Path, tmp_path: Path) -> None:
    db = str(tmp_path / "s.db")
    assert _getbit("import", str(games), "--db", db, terminal=False).returncode == 0
    result = _getbit("rebuild", "--db", db, terminal=True)
    assert result.returncode == 0, result.stderr
    assert "rebuilding" in result.stderr
    assert "/60" in result.stderr  # done of the 60 games stored
    assert "rebuilding" not in _getbit("rebuild", "--db", db, terminal=False).stderr


def test_the_bar_shows_done_total_and_time_left() -> None:
    stream = io.StringIO()
    console = Console(file=stream, force_terminal=True, width=100)
    with Bar(console, "checking", 3000, True, in_bytes=True) as bar:
        bar.next_file(2000)
        bar.advance(500)
        bar.next_file(1000)  # the first file counts whole once it is done
        console.print(bar._progress)  # one frame, as the terminal sees it
    frame = stream.getvalue()
    assert "checking" in frame
    assert "2.0/3.0 kB" in frame
    assert ":" in frame.split("kB")[-1]  # the time left, h:mm:ss


def test_a_bar_not_shown_writes_nothing() -> None:
    stream = io.StringIO()
    console = Console(file=stream, force_terminal=True, width=100)
    with Bar(console, "checking", 10, False) as bar:
        bar.advance(5)
    assert stream.getvalue() == ""


def test_file_sizes_gives_zero_for_a_file_it_cannot_read(tmp_path: Path) -> None:
    (tmp_path / "a.gbn").write_bytes(b"12345")
    assert file_sizes([tmp_path / "a.gbn", tmp_path / "gone.gbn"]) == {
        tmp_path / "a.gbn": 5,
        tmp_path / "gone.gbn": 0,
    }


@pytest.mark.parametrize("jobs", ["1", "3"])
@pytest.mark.parametrize("command", ["validate", "import"])
def test_the_bar_is_fed_by_the_writer_whatever_the_jobs(
    games: Path, tmp_path: Path, command: str, jobs: str
) -> None:
    """With --jobs N the results reach the one process that says them, in input
    order: it moves the bar, which ends with every byte done."""
    db = ["--db", str(tmp_path / "s.db")] if command == "import" else []
    shown = _getbit(command, "--jobs", jobs, *db, str(games), terminal=True)
    assert shown.returncode == 0, shown.stderr
    frames = re.findall(r"([\d.]+)/([\d.]+) kB", shown.stderr)
    done, total = frames[-1]
    assert float(total) > 0
    assert done == total
