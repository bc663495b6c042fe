"""Shared test fixtures: a real headless browser for the HTML pages; the command line
built once for the tests' many in-process runs."""

from __future__ import annotations

import functools
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import attrs
import pytest
import typer.testing

# typer's CliRunner turns the app into its click command on every invoke (some 30-50 ms
# of reading signatures); the tests invoke it thousands of times, the command is the same
typer.testing._get_command = functools.cache(typer.testing._get_command)  # type: ignore[attr-defined]

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
