"""Shared test fixtures: a real headless browser for the HTML pages; a real terminal
(a tmux pane) for ``replay --step``; the command line built once for the tests' many
in-process runs."""

from __future__ import annotations

import functools
import os
import shlex
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import attrs
import pytest
import typer.testing

# typer's CliRunner turns the app into its click command on every invoke (some 30-50 ms
# of reading signatures); the tests invoke it thousands of times, the command is the same
typer.testing._get_command = functools.cache(typer.testing._get_command)  # type: ignore[attr-defined]

ROOT = Path(__file__).resolve().parent.parent  # the repository: the tmux pane starts there


@pytest.fixture(autouse=True)
def _own_standard_input() -> Iterator[None]:
    """Each test's commands read the standard input it gives them: a process copies what
    is piped in (``-``) once and reads the copy from then on (``importers.reading.spool``:
    a command is a process of its own), so what an earlier test in this process piped
    in is forgotten after it."""
    from importers import reading

    yield
    reading._SPOOLED.clear()
CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


@attrs.define
class OpenedPage:
    """A page opened from a file, with every request, dialog and script error it made."""

    page: Any
    requests: list[str] = attrs.Factory(list)
    dialogs: list[str] = attrs.Factory(list)
    errors: list[str] = attrs.Factory(list)


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    """Debian's chromium driven by playwright; the test skips, saying why, without them."""
    if not CHROMIUM.exists():
        pytest.skip(f"{CHROMIUM} is missing: the browser tests need Debian's chromium")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        pytest.skip("python playwright is not installed: the browser tests need it")
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        yield b
        b.close()


def open_page(browser: Any, path: Path) -> OpenedPage:
    """Open ``path`` in a 1200x900 page, recording what it asks of the network and shows."""
    opened = OpenedPage(browser.new_page(viewport={"width": 1200, "height": 900}))
    opened.page.on("request", lambda r: opened.requests.append(r.url))
    opened.page.on("dialog", lambda d: (opened.dialogs.append(d.message), d.dismiss()))
    opened.page.on("pageerror", lambda e: opened.errors.append(str(e)))
    opened.page.goto(path.as_uri())
    return opened


def getbit_command() -> list[str]:
    """How to run ``getbit`` as a user would: the script beside this Python, or the module."""
    script = Path(sys.executable).parent / "getbit"
    if script.exists():
        return [str(script)]
    return [sys.executable, "-c", "from cli import main; main()"]


class Tmux:
    """A private tmux server (its own socket) running one command in a 120x45 pane."""

    def __init__(self, socket: str) -> None:
        self.base = ["tmux", "-L", socket, "-f", "/dev/null"]

    def start(self, command: list[str]) -> None:
        line = " ".join(shlex.quote(a) for a in command)
        subprocess.run(
            [
                *self.base,
                "new-session",
                "-d",
                "-s",
                "replay",
                "-x",
                "120",
                "-y",
                "45",
                f"cd {shlex.quote(str(ROOT))} && {line}",
            ],
            check=True,
        )

    def keys(self, *keys: str) -> None:
        for key in keys:
            subprocess.run([*self.base, "send-keys", "-t", "replay", key], check=True)
            time.sleep(0.05)

    def screen(self) -> str:
        done = subprocess.run(
            [*self.base, "capture-pane", "-p", "-t", "replay"], capture_output=True, text=True
        )
        return done.stdout

    def wait_for(self, text: str, timeout: float = 15) -> str:
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            screen = self.screen()
            if text in screen:
                return screen
            time.sleep(0.1)
        raise AssertionError(f"{text!r} never appeared; the screen is:\n{self.screen()}")

    def alive(self) -> bool:
        done = subprocess.run([*self.base, "has-session", "-t", "replay"], capture_output=True)
        return done.returncode == 0

    def quits(self) -> bool:
        """Whether ``q`` ends the command within 10 seconds."""
        self.keys("q")
        end = time.monotonic() + 10
        while self.alive() and time.monotonic() < end:
            time.sleep(0.1)
        return not self.alive()

    def stop(self) -> None:
        subprocess.run([*self.base, "kill-server"], capture_output=True)


@pytest.fixture
def tmux() -> Iterator[Tmux]:
    if shutil.which("tmux") is None:
        pytest.skip("tmux is not installed: the real-terminal test of --step needs it")
    t = Tmux(f"getbit-step-test-{os.getpid()}")
    yield t
    t.stop()
