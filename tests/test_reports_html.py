"""The HTML report: one self-contained file, names escaped, charts that a real
browser draws (Debian's chromium driven by playwright; skipped when either is missing)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from conftest import open_page

from getbit_events.simulate import simulate_game
from getbit_events.validate import validate_game
from importers.gbn import read_gbn, write_gbn
from reports.game import summarise_game
from reports.html import html_report
from reports.sources import game_id_of, rows_from_reports
from reports.stats import build_report

#: what these test is plain Python in both builds (none of setup.py's COMPILED is their
#: subject): the compiled build's pass of .ci/run leaves them to the plain pass
pytestmark = pytest.mark.layers

EVIL = "<script>alert(1)</script>"
AMP = "Bob & <b>Co</b>"


def _page() -> str:
    """Twelve real games (through GBN and the validator) with two dangerous names."""
    games = [simulate_game("standard", 4, seed=k, bot="sensible") for k in range(10)]
    games += [simulate_game("shark", 5, seed=k) for k in range(2)]
    text = re.sub(r"\bAnn\b", EVIL, write_gbn(games))
    text = re.sub(r"\bBob\b", AMP, text)
    reports = [validate_game(g) for g in read_gbn(text, "evil.gbn")]
    assert all(r.valid for r in reports)
    report = build_report(rows_from_reports(reports, []), history=True)
    last = reports[-1]
    return html_report(report, summarise_game(game_id_of(last), last.events))


PAGE = _page()


def test_the_page_needs_nothing_from_the_network() -> None:
    assert "<script" not in PAGE
    assert not re.search(r"<(link|img|iframe|object|embed)\b", PAGE)
    assert not re.search(r"\b(src|href)\s*=", PAGE)
    assert "url(" not in PAGE
    assert set(re.findall(r"https?://[^\s\"'`]+", PAGE)) == {"http://www.w3.org/2000/svg"}
    assert "default-src 'none'" in PAGE


def test_names_are_escaped() -> None:
    assert EVIL not in PAGE
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in PAGE
    assert "Bob &amp; &lt;b&gt;Co&lt;/b&gt;" in PAGE


def test_every_chart_is_there() -> None:
    for section in ("win-rates", "card-values", "positions", "ratings", "players", "places",
                    "shark", "head-to-head"):
        assert f'id="{section}"' in PAGE
    assert PAGE.count("<svg") == 4


def test_a_browser_shows_it_and_runs_nothing(browser: Any, tmp_path: Path) -> None:
    path = tmp_path / "stats.html"
    path.write_text(PAGE, encoding="utf-8")
    opened = open_page(browser, path)
    page = opened.page
    assert opened.requests == [path.as_uri()]
    assert opened.dialogs == []
    assert opened.errors == []
    assert page.title() == "Get Bit! statistics"
    assert page.locator("svg").count() == 4
    assert page.locator("svg polyline").count() >= 4 + 2  # a line per swimmer, per player
    # the evil name is text on the page, in the charts and the tables
    assert EVIL in (page.locator("svg >> nth=0").text_content() or "")
    assert page.locator("td", has_text=EVIL).count() >= 1
    assert page.locator("td", has_text=AMP).count() >= 1
    # the charts have a size: they were drawn, not dropped
    box = page.locator("svg >> nth=0").bounding_box()
    assert box is not None
    assert box["width"] > 300
    assert box["height"] > 100
    assert "12 games covered" in page.inner_text("#coverage")


# -- issue 14: one colour per player, a phone's width -----------------------------


def test_a_player_has_one_colour_in_every_chart(browser: Any, tmp_path: Path) -> None:
    path = tmp_path / "stats.html"
    path.write_text(PAGE, encoding="utf-8")
    page = open_page(browser, path).page
    colours: dict[str, set[str]] = {}
    charts: dict[str, int] = {}
    for line in page.locator("svg polyline[data-name]").all():
        name = line.get_attribute("data-name") or ""
        colours.setdefault(name, set()).add(line.get_attribute("stroke") or "")
        charts[name] = charts.get(name, 0) + 1
    assert any(n == 2 for n in charts.values())  # names drawn in both line charts
    assert {name: len(c) for name, c in colours.items()} == dict.fromkeys(colours, 1)
    swatches = page.locator("svg rect[data-name]").all()
    for swatch in swatches:  # and each legend swatch is its line's colour
        assert {swatch.get_attribute("fill")} == colours[swatch.get_attribute("data-name") or ""]
    page.close()


def test_nothing_scrolls_sideways_on_a_phone(browser: Any, tmp_path: Path) -> None:
    path = tmp_path / "stats.html"
    path.write_text(PAGE, encoding="utf-8")
    page = open_page(browser, path).page
    page.set_viewport_size({"width": 390, "height": 844})
    assert page.evaluate("document.scrollingElement.scrollWidth") <= 390
    page.close()
