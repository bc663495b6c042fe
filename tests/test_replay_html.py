"""The HTML replay page: self-contained, safe with any name, and working in a real
browser (Debian's chromium driven by playwright; skipped when either is missing)."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from conftest import open_page
from regen_golden import load

from getbit_events.simulate import simulate_game
from getbit_events.validate import validate_game
from importers.gbn import read_gbn, write_gbn
from replay.cursor import Cursor
from replay.html import page_data, script_json, write_html
from replay.view import Viewer

#: what these test is plain Python in both builds (none of setup.py's COMPILED is their
#: subject): the compiled build's pass of .ci/run leaves them to the plain pass
pytestmark = pytest.mark.layers

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


# -- issue 14: the title, a phone's width, lost limbs ------------------------------


def test_the_title_is_the_event_and_date_of_the_game(browser: Any, tmp_path: Path) -> None:
    path = tmp_path / "friday.html"
    path.write_text(write_html(load("fixtures/games/friday-club.gbn")), encoding="utf-8")
    page, _, _ = _open(browser, path)
    assert page.title() == "Get Bit! replay: Friday club, 2026-11-20"
    assert page.inner_text("#title") == "Get Bit! replay: Friday club, 2026-11-20"
    assert "fixtures/games/friday-club.gbn game 1" in page.inner_text("#seen")  # still said
    page.close()


def test_a_game_without_event_or_date_keeps_its_file_title() -> None:
    data = page_data(load("fixtures/games/sim-shark-5.gbn"))
    assert data["title"] == data["from"] == "fixtures/games/sim-shark-5.gbn game 1"


def test_nothing_scrolls_sideways_on_a_phone(browser: Any, tmp_path: Path) -> None:
    path = tmp_path / "shark.html"  # five swimmers and the Shark: a 760 px drawing
    path.write_text(write_html(load("fixtures/games/sim-shark-5.gbn")), encoding="utf-8")
    page, _, _ = _open(browser, path)
    assert float(page.locator("#line").get_attribute("width") or 0) >= 760
    page.set_viewport_size({"width": 390, "height": 844})
    page.keyboard.press("End")
    assert page.evaluate("document.scrollingElement.scrollWidth") <= 390
    box = page.locator("#line").bounding_box()
    assert box is not None
    assert box["width"] <= 390
    assert box["height"] > 60  # scaled, not squashed away
    page.close()


def test_lost_limbs_are_drawn_to_be_seen(browser: Any, tmp_path: Path) -> None:
    path = tmp_path / "shark.html"
    path.write_text(write_html(load("fixtures/games/sim-shark-5.gbn")), encoding="utf-8")
    page, _, _ = _open(browser, path)
    page.keyboard.press("End")
    lost = page.locator("#line line.limb.lost")
    assert lost.count() > 0
    for k in range(lost.count()):
        limb = lost.nth(k)
        assert float(limb.get_attribute("stroke-width") or 0) >= 3
        assert limb.get_attribute("opacity") in (None, "1")
    # each lost limb ends in a red cross
    assert page.locator("#line path.stump").count() == lost.count()
    page.close()
