"""The HTML replay page: self-contained, safe with any name, and working in a real
browser (Debian's chromium driven by playwright; skipped when either is missing)."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from conftest import open_page
from regen_golden import load

from getbit_events.simulate import simulate_game
from getbit_events.validate import validate_game
from importers.gbn import read_gbn, write_gbn
from replay.cursor import Cursor
from replay.html import page_data, script_json, write_html
from replay.view import Viewer

EVIL = "<script>alert(1)</script>"


def _evil_cursor() -> Cursor:
    """A real game, through GBN, whose swimmer Ann is called ``<script>alert(1)</script>``."""
    text = write_gbn([simulate_game("standard", 4, seed=3, bot="sensible")])
    text = re.sub(r"\bAnn\b", EVIL, text)
    (game,) = read_gbn(text, "evil.gbn")
    report = validate_game(game)
    assert report.valid, report.violations
    return Cursor(report.events, title=f"{EVIL} & friends")


def test_json_in_a_script_cannot_end_it() -> None:
    text = script_json({"name": "</script><!-- & \u2028\u2029"})
    assert "<" not in text
    assert ">" not in text
    assert "&" not in text
    assert "\u2028" not in text
    assert "\u2029" not in text
    assert json.loads(text) == {"name": "</script><!-- & \u2028\u2029"}


def test_the_page_needs_nothing_from_the_network() -> None:
    page = write_html(load("fixtures/games/sim-shark-5.gbn"))
    assert not re.search(r"<(link|img|iframe|object|embed)\b", page)
    assert not re.search(r"\b(src|href)\s*=", page)
    assert "@import" not in page
    assert "url(" not in page
    assert re.findall(r"https?://[^\s\"'`]+", page) == ["http://www.w3.org/2000/svg"]  # a name
    assert "default-src 'none'" in page


def test_names_never_reach_the_page_as_markup() -> None:
    page = write_html(_evil_cursor())
    assert EVIL not in page
    assert page.count("<script") == 2  # the data and the program, nothing else
    assert "Get Bit! replay: &lt;script&gt;alert(1)&lt;/script&gt; &amp; friends" in page
    assert "innerHTML" not in page


def test_a_player_page_holds_no_hidden_hand() -> None:
    cursor = load("fixtures/games/sim-shark-memory.gbn")
    data = page_data(cursor, Viewer.named(cursor.setup, "Dee"))
    dee = str(cursor.setup.line.index("Dee"))
    assert len(data["steps"][0]["swimmers"]) == 4  # later steps hold only what changed
    for step in data["steps"]:
        for k, s in step["swimmers"].items():
            assert (s["hand"] is not None) == (k == dee)
    assert any(None in s["table"] for step in data["steps"] for s in step["swimmers"].values())


# -- in a real browser ---------------------------------------------------------


def _open(browser: Any, path: Path) -> tuple[Any, list[str], list[str]]:
    opened = open_page(browser, path)
    assert opened.errors == []
    return opened.page, opened.requests, opened.dialogs


def test_arrow_keys_step_through_the_game(browser: Any, tmp_path: Path) -> None:
    cursor = load("fixtures/games/friday-club.gbn")
    path = tmp_path / "friday.html"
    path.write_text(write_html(cursor), encoding="utf-8")
    page, requests, _ = _open(browser, path)
    assert page.inner_text("#step") == f"Step 0 of {len(cursor) - 1} · round 0"
    for _ in range(3):
        page.keyboard.press("ArrowRight")
    assert page.inner_text("#step") == f"Step 3 of {len(cursor) - 1} · round 1"
    assert page.inner_text("#account") == "Round 1: Beth chooses a card face down."
    assert page.inner_text("#account") == cursor.account(3)
    assert page.locator("#log li").count() == 3
    page.keyboard.press("ArrowDown")  # to the end of round 1
    assert page.inner_text("#account") == "Ted (5) swims to the front."
    assert page.locator("#line text.name").all_text_contents() == ["Ted", "Anne", "John", "Beth"]
    page.keyboard.press("ArrowLeft")
    assert page.inner_text("#account") == "Anne (1) swims to the front."
    page.click("#last")
    assert page.inner_text("#result") == "Result: unfinished after round 3"
    assert page.locator("#chart circle.bite").count() == 2
    assert requests == [path.as_uri()]  # nothing but the page itself
    page.close()


def test_a_script_name_shows_as_text_and_runs_nothing(browser: Any, tmp_path: Path) -> None:
    path = tmp_path / "evil.html"
    path.write_text(write_html(_evil_cursor()), encoding="utf-8")
    page, _, dialogs = _open(browser, path)
    page.keyboard.press("End")
    assert EVIL in page.inner_text("#tables")
    page.keyboard.press("Home")
    labels = page.locator("#line text.name").all_text_contents()
    assert any(label.startswith("<script>") for label in labels)  # cut to fit: "<script>al…"
    assert EVIL in page.locator("#line text.name title").all_text_contents()  # whole in its tooltip
    assert EVIL in page.inner_text("#legend")
    assert EVIL in page.inner_text("#title")
    assert page.evaluate("document.scripts.length") == 2
    page.wait_for_timeout(200)
    assert dialogs == []
    page.close()


def test_screenshots_of_the_first_and_last_step(browser: Any, tmp_path: Path) -> None:
    path = tmp_path / "shark.html"
    path.write_text(write_html(load("fixtures/games/sim-shark-5.gbn")), encoding="utf-8")
    page, _, _ = _open(browser, path)
    first = tmp_path / "first.png"
    last = tmp_path / "last.png"
    page.screenshot(path=str(first), full_page=True)
    page.keyboard.press("End")
    page.screenshot(path=str(last), full_page=True)
    a, b = first.read_bytes(), last.read_bytes()
    assert a[:8] == b[:8] == b"\x89PNG\r\n\x1a\n"
    assert len(a) > 20_000
    assert len(b) > 20_000
    assert a != b
    assert page.inner_text("#result") == (
        "Result: Bob wins: the Shark lost its last hunger token (R14)"
    )
    page.close()


def test_violations_show_at_their_round(browser: Any, tmp_path: Path) -> None:
    path = tmp_path / "invalid.html"
    path.write_text(write_html(load("fixtures/golden/replay/inputs/invalid.gbn")), encoding="utf-8")
    page, _, _ = _open(browser, path)
    assert "the record names Anne the winner" in page.inner_text("#violations")  # the set-up
    page.keyboard.press("ArrowDown")
    assert page.inner_text("#violations") == ""  # round 1 is fine
    page.keyboard.press("ArrowDown")
    assert "round 2: John is recorded bitten" in page.inner_text("#violations")
    assert "4 violation(s) in this record" in page.inner_text("#seen")
    page.close()
