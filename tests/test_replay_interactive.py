"""``getbit replay --step``: the keys, driven directly and in a real terminal (tmux)."""

from __future__ import annotations

import shlex
import subprocess

import pytest
from conftest import Tmux, getbit_command
from regen_golden import ROOT, load

from replay.interactive import Session, _split
from replay.view import EVERYTHING, TABLE

#: what these test is plain Python in both builds (none of setup.py's COMPILED is their
#: subject): the compiled build's pass of .ci/run leaves them to the plain pass
pytestmark = pytest.mark.layers

FRIDAY = "fixtures/games/friday-club.gbn"


def test_keys_step_by_event_and_by_round() -> None:
    session = Session(load(FRIDAY))
    c = session.cursor
    for key in ("right", "right", "l", " "):
        assert session.handle(key)
    assert c.position == 4
    session.handle("left")
    assert c.position == 3
    session.handle("down")
    assert c.position == c.bounds[1][1]
    session.handle("j")
    assert c.position == c.bounds[2][1]
    session.handle("up")
    assert c.position == c.bounds[1][1]
    session.handle("end")
    assert c.at_end
    session.handle("home")
    assert c.at_start


def test_g_jumps_to_a_typed_round() -> None:
    session = Session(load(FRIDAY))
    for key in ("g", "3", "enter"):
        session.handle(key)
    assert session.cursor.position == session.cursor.bounds[3][1]
    for key in ("g", "9", "enter"):
        session.handle(key)
    assert session.message == "there is no round 9: rounds run from 1 to 3"
    for key in ("g", "1", "backspace", "2", "escape"):
        session.handle(key)
    assert session.typing is None
    assert session.cursor.round == 3  # Esc cancelled the jump


def test_v_cycles_through_the_seats_and_q_quits() -> None:
    session = Session(load(FRIDAY))
    assert session.viewer == EVERYTHING
    session.handle("v")
    assert session.viewer == TABLE
    seen = [session.viewer.label]
    for _ in range(4):
        session.handle("v")
        seen.append(session.viewer.label)
    assert seen[1:] == ["as swimmer John", "as swimmer Anne", "as swimmer Beth", "as swimmer Ted"]
    session.handle("v")
    assert session.viewer == EVERYTHING
    assert session.handle("q") is False


def test_escape_sequences_become_key_names() -> None:
    assert list(_split("\x1b[C\x1b[Dq\x1bOB\r\x1b[5~")) == [
        "right",
        "left",
        "q",
        "down",
        "enter",
        "pgup",
    ]


def test_step_prints_the_whole_game_when_output_is_not_a_terminal() -> None:
    done = subprocess.run(
        [*getbit_command(), "replay", FRIDAY, "--step"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        stdin=subprocess.DEVNULL,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    assert "Round 3" in done.stdout
    assert "Result: unfinished after round 3." in done.stdout


def test_step_without_a_terminal_prints_what_replay_prints_of_its_round() -> None:
    done = subprocess.run(
        [*getbit_command(), "replay", "-", "--format", "gbn", "--step", "--round", "2"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        stdin=(ROOT / FRIDAY).open(),
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    assert "Round 2" in done.stdout
    assert "Round 1" not in done.stdout
    assert "Round 3" not in done.stdout


def test_step_mode_in_a_real_terminal(tmux: Tmux) -> None:
    tmux.start([*getbit_command(), "replay", FRIDAY, "--step"])
    screen = tmux.wait_for("event 0/")
    assert "A standard game of 4 swimmers" in screen
    assert "v view · q quit" in screen
    tmux.keys("Right", "Right", "Right")
    screen = tmux.wait_for("round 1, event 3/")
    assert "▶ Round 1: Beth chooses a card face down." in screen
    tmux.keys("Down")
    screen = tmux.wait_for("round 1, event 7/")
    assert "▶ Ted (5) swims to the front." in screen
    tmux.keys("g", "3", "Enter")
    screen = tmux.wait_for("round 3, event ")
    assert "Result: unfinished after round 3." in screen
    tmux.keys("Left")
    tmux.wait_for("round 3, event ")
    tmux.keys("v", "v")
    screen = tmux.wait_for("as swimmer John")
    assert "hands     Anne (2 cards) │ John 1 2 │ Ted (4 cards) │ Beth (2 cards)" in screen
    assert tmux.quits(), "q did not quit"


def test_step_reads_its_keys_from_the_terminal_when_the_record_is_piped_in(tmux: Tmux) -> None:
    # standard input is the record; the keys come from the terminal itself (/dev/tty)
    command = " ".join(shlex.quote(a) for a in getbit_command())
    tmux.start(["sh", "-c", f"cat {FRIDAY} | {command} replay - --format gbn --step --round 2"])
    screen = tmux.wait_for("round 2, event ")
    assert "v view · q quit" in screen
    tmux.keys("Down")
    tmux.wait_for("round 3, event ")
    assert tmux.quits(), "q did not quit"
