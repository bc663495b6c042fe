"""``getbit replay FILE.bmn --step`` (``replay.bite_step``): Get Bit!'s keys over a
game of "Come on! Bite me!", driven directly and in a real terminal (tmux)."""

from __future__ import annotations

import io

import pytest
from conftest import Tmux, getbit_command
from regen_golden import load_bite
from rich.console import Console

from replay.bite_step import BiteSession

#: what these test is plain Python in both builds (none of setup.py's COMPILED is their
#: subject): the compiled build's pass of .ci/run leaves them to the plain pass
pytestmark = pytest.mark.layers

WORKED = "fixtures/biteme/worked.bmn"


def _screen(session: BiteSession, height: int | None = None) -> str:
    console = Console(file=io.StringIO(), width=140, color_system=None)
    console.print(session.render(height))
    return console.file.getvalue()  # type: ignore[attr-defined]


def test_keys_step_by_event_and_by_turn() -> None:
    session = BiteSession(load_bite(WORKED))
    c = session.cursor
    for key in ("right", "l", " "):
        assert session.handle(key)
    assert c.position == 3
    assert c.round == 1
    session.handle("down")  # to the end of turn 1
    assert c.position == c.bounds[1][1] == 4
    session.handle("j")
    assert c.position == c.bounds[2][1]
    session.handle("up")
    assert c.position == 4
    session.handle("end")
    assert c.at_end
    session.handle("home")
    assert c.position == 0
    assert session.handle("q") is False


def test_g_jumps_to_a_typed_turn() -> None:
    session = BiteSession(load_bite(WORKED))
    for key in ("g", "7", "enter"):
        session.handle(key)
    assert session.cursor.position == session.cursor.bounds[7][1]
    for key in ("g", "9", "enter"):
        session.handle(key)
    assert session.message == "there is no turn 9: turns run from 1 to 8"
    assert "↓/j ↑/k turn · g N ⏎ go to turn N" in _screen(session)


def test_v_switches_views_at_the_same_event() -> None:
    session = BiteSession(load_bite(WORKED))
    for key in ("g", "5", "enter"):
        session.handle(key)
    at = session.cursor.position
    labels = []
    for _ in range(6):
        session.handle("v")
        assert session.cursor.position == at
        labels.append(session.cursor.label.split(" (")[0])
    assert labels == ["the table", "as Ann saw it", "as Bob saw it", "as Cid saw it",
                      "as Dee saw it", "everything"]
    session.handle("V")
    assert session.cursor.player == "Dee"
    screen = _screen(session)
    assert "turn 5, event 15/22 — as Dee saw it" in screen
    assert "▶ Ann draws ? (27 left in the deck)" in screen  # Dee did not see it (B17)
    assert "hands     Ann ? │ Bob ? │ Cid ? │ Dee Panda +1 Meerkat" in screen


def test_the_last_step_shows_the_result() -> None:
    session = BiteSession(load_bite(WORKED))
    session.handle("end")
    assert "Result: unfinished after turn 8 (25 cards left)" in _screen(session, height=30)


def test_step_mode_in_a_real_terminal(tmux: Tmux) -> None:
    tmux.start([*getbit_command(), "replay", WORKED, "--step"])
    screen = tmux.wait_for("turn 0, event 0/22")
    assert "v view · q quit" in screen
    tmux.keys("Down")
    screen = tmux.wait_for("turn 1, event 4/22")
    assert "▶ Bob draws Lion (31 left in the deck)" in screen
    tmux.keys("v", "v", "v")
    screen = tmux.wait_for("as Bob saw it")
    assert tmux.quits(), "q did not quit"
