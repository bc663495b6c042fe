"""``--step``: an interactive replay in a real terminal, one key at a time.

``Session`` holds what the keys change (the cursor, the viewer, a round number
being typed) and knows nothing of terminals, so it can be driven by a test; ``run``
wires it to the keyboard and the screen (the keys from the terminal itself when the
record is piped in), and prints the game instead when there is no terminal.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from typing import Protocol

from rich.console import Console, RenderableType

from replay.cursor import Cursor
from replay.terminal import print_game, render_step
from replay.view import EVERYTHING, Viewer

__all__ = ["HELP", "KEYS", "Keys", "Session", "Steps", "drive", "keyboard", "read_keys", "run"]

HELP = "→/l ←/h event · ↓/j ↑/k round · g N ⏎ go to round N · Home/End first/last · v view · q quit"

#: escape sequences a terminal sends, by key name
KEYS: dict[str, str] = {
    "\x1b[A": "up",
    "\x1b[B": "down",
    "\x1b[C": "right",
    "\x1b[D": "left",
    "\x1bOA": "up",
    "\x1bOB": "down",
    "\x1bOC": "right",
    "\x1bOD": "left",
    "\x1b[H": "home",
    "\x1b[F": "end",
    "\x1bOH": "home",
    "\x1bOF": "end",
    "\x1b[1~": "home",
    "\x1b[4~": "end",
    "\x1b[5~": "pgup",
    "\x1b[6~": "pgdn",
    "\r": "enter",
    "\n": "enter",
    "\x7f": "backspace",
    "\x08": "backspace",
    "\x03": "quit",
    "\x1b": "escape",
}


class Steps(Protocol):
    """What the keys move: the cursor of either game (``replay.cursor.Cursor``,
    ``replay.bite.BiteCursor``), by event and by round (or turn)."""

    @property
    def bounds(self) -> Mapping[int, tuple[int, int]]: ...
    @property
    def last_round(self) -> int: ...
    def forward(self, n: int = 1) -> object: ...
    def back(self, n: int = 1) -> object: ...
    def first(self) -> object: ...
    def last(self) -> object: ...
    def next_round(self) -> object: ...
    def prev_round(self) -> object: ...
    def goto_round(self, rnd: int) -> object: ...


class Keys:
    """What the keys do, whatever the game: a game's session says what ``v``
    switches (``switch``) and what a step shows (``screen``)."""

    #: what a game steps by besides events: Get Bit!'s rounds, Come on! Bite me!'s turns
    UNIT = "round"

    def __init__(self) -> None:
        self.typing: str | None = None  # the round number typed after ``g``
        self.message = ""

    @property
    def steps(self) -> Steps:
        raise NotImplementedError

    def switch(self, step: int) -> None:
        """``v`` (``step`` 1) or ``V`` (-1): the next or previous way of seeing the game."""
        raise NotImplementedError

    def screen(self, help_line: str, fit: int | None) -> RenderableType:
        """The current step, with ``help_line`` under it, long rounds cut to ``fit`` events."""
        raise NotImplementedError

    @property
    def help(self) -> str:
        return HELP if self.UNIT == "round" else HELP.replace("round", self.UNIT)

    def handle(self, key: str) -> bool:
        """Act on one key (a character or a name from ``KEYS``); False means quit."""
        self.message = ""
        if self.typing is not None:
            return self._typing(key)
        c = self.steps
        if key in ("q", "Q", "quit"):
            return False
        if key in ("right", "l", " "):
            c.forward()
        elif key in ("left", "h"):
            c.back()
        elif key in ("down", "j", "pgdn", "]"):
            c.next_round()
        elif key in ("up", "k", "pgup", "["):
            c.prev_round()
        elif key in ("home", "0"):
            c.first()
        elif key in ("end", "$"):
            c.last()
        elif key in ("v", "V"):
            self.switch(1 if key == "v" else -1)
        elif key == "g":
            self.typing = ""
        else:
            self.message = f"unknown key {key!r}"
        return True

    def _typing(self, key: str) -> bool:
        assert self.typing is not None
        if key.isdigit() and len(key) == 1:
            self.typing += key
        elif key == "backspace":
            self.typing = self.typing[:-1]
        elif key == "enter":
            typed, self.typing = self.typing, None
            if typed:
                rnd, unit = int(typed), self.UNIT
                if rnd in self.steps.bounds and rnd > 0:
                    self.steps.goto_round(rnd)
                else:
                    self.message = (
                        f"there is no {unit} {rnd}: {unit}s run from 1 to {self.steps.last_round}"
                    )
        elif key in ("escape", "quit", "q"):
            self.typing = None
        return True

    def render(self, height: int | None = None) -> RenderableType:
        """The screen; with ``height`` (the terminal's lines) long rounds are cut to fit."""
        help_line = self.help
        if self.typing is not None:
            help_line = f"go to {self.UNIT}: {self.typing}▏ (⏎ to go, Esc to cancel)"
        elif self.message:
            help_line = f"{self.message}\n{self.help}"
        fit = None if height is None else max(3, height - 16)
        return self.screen(help_line, fit)


class Session(Keys):
    """One interactive replay of Get Bit!: what the keys change (the cursor, the
    viewer, a round number being typed)."""

    def __init__(self, cursor: Cursor, viewer: Viewer = EVERYTHING) -> None:
        super().__init__()
        self.cursor = cursor
        self.viewers = list(Viewer.seats(cursor.setup))
        if viewer not in self.viewers:
            self.viewers.insert(0, viewer)
        self.viewer = viewer

    @property
    def steps(self) -> Steps:
        return self.cursor

    def switch(self, step: int) -> None:
        k = self.viewers.index(self.viewer)
        self.viewer = self.viewers[(k + step) % len(self.viewers)]
        self.message = f"now seen {self.viewer.label}"

    def screen(self, help_line: str, fit: int | None) -> RenderableType:
        return render_step(self.cursor, self.viewer, help_line, fit)


def _split(data: str) -> Iterator[str]:
    """Key names from what the terminal sent: escape sequences first, then characters."""
    i = 0
    while i < len(data):
        for seq in sorted(KEYS, key=len, reverse=True):
            if data.startswith(seq, i):
                yield KEYS[seq]
                i += len(seq)
                break
        else:
            yield data[i]
            i += 1


def read_keys(fd: int) -> Iterator[str]:
    """Keys pressed on the terminal ``fd`` (which must be in cbreak mode)."""
    while True:
        data = os.read(fd, 64)
        if not data:
            return
        yield from _split(data.decode("utf-8", "replace"))


@contextmanager
def _cbreak(fd: int) -> Iterator[None]:
    import termios
    import tty

    saved = termios.tcgetattr(fd)
    try:
        tty.setcbreak(fd)
        yield
    finally:
        termios.tcsetattr(fd, termios.TCSADRAIN, saved)


def run(
    cursor: Cursor, console: Console, viewer: Viewer = EVERYTHING, rnd: int | None = None
) -> None:
    """Step through the game with the keyboard from round ``rnd``; when there is no
    terminal to step on, print what ``replay`` prints without ``--step`` (only round
    ``rnd``, when given)."""
    with keyboard(console) as keys:
        if keys is None:
            print_game(cursor, console, viewer, rnd)
            return
        if rnd is not None:
            cursor.goto_round(rnd)
        drive(Session(cursor, viewer), console, keys)


@contextmanager
def keyboard(console: Console) -> Iterator[int | None]:
    """The terminal to read keys from while ``console`` shows the steps: standard input
    when it is one, else the process's own terminal (``/dev/tty``: a record piped in,
    as ``less`` reads its keys); None when the screen or the keys are not a terminal."""
    if not console.is_terminal:
        yield None
        return
    if sys.stdin.isatty():
        yield sys.stdin.fileno()
        return
    try:
        fd = os.open("/dev/tty", os.O_RDONLY)
    except OSError:  # no controlling terminal (a job started without one)
        yield None
        return
    try:
        yield fd if os.isatty(fd) else None
    finally:
        os.close(fd)


def drive(session: Keys, console: Console, fd: int) -> None:
    """The keyboard (the terminal ``fd``) and the screen of a real terminal, wired to
    ``session``."""

    def draw() -> None:
        # measure the terminal each time (not COLUMNS, which may be stale): a resize
        # between keys is drawn right, and the screen never wraps
        size = os.get_terminal_size(sys.stdout.fileno())
        console.size = (size.columns, size.lines)
        screen.update(session.render(size.lines))

    with _cbreak(fd), console.screen(hide_cursor=True) as screen:
        draw()
        try:
            for key in read_keys(fd):
                if not session.handle(key):
                    break
                draw()
        except KeyboardInterrupt:
            pass
