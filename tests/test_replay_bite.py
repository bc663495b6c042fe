"""The replay of "Come on! Bite me!" (``replay.bite``, ``replay.bite_html`` and
``getbit replay FILE.bmn``): golden printouts compared whole, each player's view
hiding what it could not see (B17), the page, and bad input refused in one line.

After a deliberate change to the printout, regenerate the golden files with
``.venv/bin/python tests/regen_golden.py`` and read the diff.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from regen_golden import BITE_CASES, ROOT, bite_printout, golden_path, load_bite
from typer.testing import CliRunner

from cli import app
from replay.bite import BiteCursor, bite_text
from replay.bite_html import write_bite_html

WORKED = str(ROOT / "fixtures/biteme/worked.bmn")
MISTAKES = str(ROOT / "fixtures/biteme-invalid/mistakes.bmn")
REGENERATE = "regenerate with: .venv/bin/python tests/regen_golden.py (then read the diff)"
runner = CliRunner()


def _run(*args: str) -> tuple[int, str, str]:
    result = runner.invoke(app, ["replay", *args])
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result.exit_code, result.stdout, result.stderr


def _page_data(page: str) -> dict[str, object]:
    found = re.search(r'<script type="application/json" id="replay-data">(.*?)</script>', page)
    assert found is not None
    data: dict[str, object] = json.loads(found.group(1))
    return data


@pytest.mark.parametrize("case", BITE_CASES, ids=lambda c: golden_path(c).stem)
def test_printout_matches_its_golden_file(case: tuple[str, int, str | None]) -> None:
    expected = golden_path(case).read_text(encoding="utf-8")
    assert bite_printout(case) == expected, REGENERATE


def test_the_worked_game_turn_by_turn() -> None:
    text = bite_text(load_bite("fixtures/biteme/worked.bmn"))
    assert "  battle    Cid (Tiger) and Dee (Panda) join forces against Ann (Snake) (B8)" in text
    assert "  trophy    Cid claims Dee's Panda as a trophy with 1 Meerkat (B10)" in text
    assert "  trophies  Ann Lion │ Bob Mosquito │ Cid Panda, Meerkat │ Dee Snake" in text
    look = "Ann looks at every other player's card (Fox, B11): Bob Rabbit, Cid Tiger, Dee Panda"
    assert f"  look      {look}" in text
    # docs/biteme.md: the scores so far are Ann 6, Bob 0, Cid 5, Dee 3
    assert text.endswith(
        "Result: unfinished after turn 8 (25 cards left); scores so far "
        "Ann 6, Bob 0, Cid 5, Dee 3.\n"
    )


def test_a_player_sees_only_what_it_could_see() -> None:
    bob = bite_text(load_bite("fixtures/biteme/worked.bmn", seat="Bob"), turn=5)
    assert "  look      Ann looks at every other player's card (Fox, B11)\n" in bob
    assert "  draw      Ann draws ? (27 left in the deck)" in bob
    assert "  hands     Ann ? │ Bob Rabbit │ Cid ? │ Dee ? +1 Meerkat" in bob
    ann = bite_text(load_bite("fixtures/biteme/worked.bmn", seat="ann"), turn=5)
    assert "(Fox, B11): Bob Rabbit, Cid Tiger, Dee Panda" in ann  # her own look
    assert "  draw      Ann draws Snake" in ann
    table = bite_text(load_bite("fixtures/biteme/worked.bmn", seat="table"), turn=7)
    assert "  battle    Cid (?) and Dee (?) join forces against Ann (?) (B8)" in table
    assert "  trophy    Dee claims Ann's ? as a trophy" in table
    assert "  scores    Ann ? │ Bob ? │ Cid -1 │ Dee ?" in table  # trophies unseen


def test_scores_unknown_without_a_strength() -> None:
    from biteme.validate import validate_bite
    from importers.bmn import read_bmn

    text = Path(WORKED).read_text(encoding="utf-8")
    text = re.sub(r"\[Strengths .*\]\n", "", text)
    (record,) = read_bmn(text, "plain.bmn")
    report = validate_bite(record)
    out = bite_text(BiteCursor(report.events, report.violations, report.warnings, "plain"))
    assert "  scores    Ann ? │ Bob 0 │ Cid -1 │ Dee 0" in out  # Lion's strength unstated (B3)
    assert "  ! " in out  # the validator's unchecked warnings, at their turns


def _renamed(names: dict[str, str], seed: int) -> BiteCursor:
    """A simulated game of three with its players renamed, as events from a JSON
    Lines log or the store may name them (BMN refuses some of these names)."""
    import attrs

    from biteme.simulate import simulate_bite

    def new(name: str) -> str:
        return names.get(name, name)

    events = []
    for e in simulate_bite(3, seed):
        changes: dict[str, object] = {
            f: new(getattr(e, f)) for f in ("who", "owner", "defender") if hasattr(e, f)
        }
        if hasattr(e, "seats"):
            changes["seats"] = tuple(map(new, e.seats))
        if hasattr(e, "joined"):
            changes["joined"] = tuple((new(n), c) for n, c in e.joined)
        for f in ("winners", "ranking"):
            if hasattr(e, f):
                changes[f] = tuple(map(new, getattr(e, f)))
        if hasattr(e, "scores"):
            changes["scores"] = tuple((new(n), v) for n, v in e.scores)
        events.append(attrs.evolve(e, **changes))
    return BiteCursor(events)


def test_a_shared_win_is_said_with_win_one_winner_with_wins() -> None:
    # B16: fixtures/biteme-stats/shared.bmn ends Vic 30, Wes 30 with 8 trophies each
    shared = load_bite("fixtures/biteme-stats/shared.bmn")
    said = "ended in turn 25; scores Uma 0, Vic 30, Wes 30; Vic and Wes win"
    assert bite_text(shared).endswith(f"Result: {said}.\n")
    assert _page_data(write_bite_html(shared))["result"] == said
    alone = bite_text(load_bite("fixtures/biteme/sim-3.bmn", 2))
    assert re.search(r"; [A-Z][a-z]+ wins\.\n$", alone), alone[-80:]


def test_names_with_markup_print_as_written() -> None:
    text = bite_text(_renamed({"Ann": "[bold]A", "Bob": "B[/]"}, 3))
    assert "  hands     [bold]A " in text
    assert "B[/]" in text


def test_the_page_holds_only_what_the_viewer_saw() -> None:
    everything = write_bite_html(load_bite("fixtures/biteme/worked.bmn"))
    bob = write_bite_html(load_bite("fixtures/biteme/worked.bmn", seat="Bob"))
    assert "Dee draws Leopard" in everything
    assert "Leopard" not in bob  # Dee's draw of turn 8 (B17)
    data = _page_data(bob)
    assert data["seen"] == "as Bob saw it (? a card Bob could not see, B17)"
    assert [r["end"] for r in data["rounds"]] == [0, 4, 7, 10, 12, 15, 16, 19, 22]  # type: ignore[index]
    assert "<title>Come on! Bite me! replay: Friday club, 2026-11-27</title>" in everything
    assert 'title="next turn (↓)"' in everything


def test_a_hostile_name_is_text_in_the_page() -> None:
    page = write_bite_html(_renamed({"Ann": "</script><b>x</b>"}, 1))
    assert "<b>x</b>" not in page
    assert "</script><b>" not in page
    data = _page_data(page)
    assert data["names"] == ["</script><b>x</b>", "Bob", "Cid"]


def test_the_command_prints_the_game_and_exits_as_validate_does(tmp_path: Path) -> None:
    code, out, _ = _run(WORKED, "--round", "2")
    assert code == 0
    assert "Turn 2: Bob" in out
    assert "Turn 3" not in out
    code, out, _ = _run(MISTAKES)
    assert code == 1
    assert "[wrong-take]" in out
    assert "5 violations in this record." in out
    page = tmp_path / "game.html"
    code, _, err = _run(WORKED, "--as", "Cid", "--html", str(page))
    assert code == 0
    assert f"wrote {page} (23 steps, as Cid saw it" in err
    assert "Come on! Bite me! replay" in page.read_text(encoding="utf-8")


def test_step_prints_the_whole_game_when_output_is_not_a_terminal() -> None:
    code, out, _ = _run(WORKED, "--step")
    assert code == 0
    assert "Turn 8: Dee" in out
    assert "Result: unfinished after turn 8" in out


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (("--as", "Zed"), "--as Zed: no such player; the players are Ann, Bob, Cid, Dee"),
        (("--round", "9"), "getbit replay: there is no turn 9: this game runs from turn 1 to 8"),
        (("--round", "0"), "getbit replay: there is no turn 0: this game runs from turn 1 to 8"),
        (("--game", "2"), "holds 1 game; there is no game 2"),
    ],
)
def test_bad_options_are_one_line_and_exit_2(args: tuple[str, ...], said: str) -> None:
    code, out, err = _run(WORKED, *args)
    assert code == 2
    assert said in err
    assert "Traceback" not in err + out


# -- in a real browser (Debian's chromium through playwright; skipped without) --


def test_the_page_steps_through_the_game_in_a_browser(browser: Any, tmp_path: Path) -> None:
    from conftest import open_page

    cursor = load_bite("fixtures/biteme/worked.bmn", seat="Bob")
    path = tmp_path / "worked.html"
    path.write_text(write_bite_html(cursor), encoding="utf-8")
    opened = open_page(browser, path)
    page = opened.page
    assert opened.errors == []
    assert page.inner_text("#title") == "Come on! Bite me! replay: Friday club, 2026-11-27"
    assert page.inner_text("#step") == f"Step 0 of {len(cursor.events) - 1} · turn 0"
    page.keyboard.press("ArrowDown")  # to the end of turn 1
    assert page.inner_text("#step") == f"Step 4 of {len(cursor.events) - 1} · turn 1"
    assert page.inner_text("#account") == cursor.account(4)
    assert page.locator("#log li").count() == 4
    rows = page.locator("#players tr").all_inner_texts()
    assert rows[1].split("\t") == ["Bob", "Lion", "Mosquito", "—", "0"]
    assert rows[2].split("\t")[1] == "?"  # Cid's Monkey: Bob never saw it (B17)
    page.keyboard.press("End")
    assert page.inner_text("#result") == (
        "Result: unfinished after turn 8 (25 cards left); scores so far Ann 6, Bob 0, Cid ?, Dee ?"
    )
    assert opened.requests == [path.as_uri()]
    assert opened.dialogs == []
    page.close()


def test_a_hostile_name_runs_nothing_in_a_browser(browser: Any, tmp_path: Path) -> None:
    from conftest import open_page

    path = tmp_path / "evil.html"
    path.write_text(write_bite_html(_renamed({"Ann": "<img src=x onerror=alert(1)>"}, 1)),
                    encoding="utf-8")
    opened = open_page(browser, path)
    assert opened.errors == []
    names = opened.page.locator("#players th").all_inner_texts()
    assert names == ["<img src=x onerror=alert(1)>", "Bob", "Cid"]
    opened.page.keyboard.press("End")
    assert opened.dialogs == []
    assert opened.requests == [path.as_uri()]
    opened.page.close()
