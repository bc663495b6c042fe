"""The replay printout: golden files of fixture games (every variant), compared whole.

After a deliberate change to the printout, regenerate them with
``.venv/bin/python tests/regen_golden.py`` and read the diff.
"""

from __future__ import annotations

import io

import pytest
from regen_golden import CASES, ROOT, golden_path, load, printout
from rich.console import Console

from replay.interactive import Session
from replay.terminal import render_line, replay_text
from replay.view import EVERYTHING, TABLE

REGENERATE = "regenerate with: .venv/bin/python tests/regen_golden.py (then read the diff)"


@pytest.mark.parametrize("case", CASES, ids=lambda c: golden_path(c).stem)
def test_printout_matches_its_golden_file(case: tuple[str, int, str | None]) -> None:
    expected = golden_path(case).read_text(encoding="utf-8")
    assert printout(case) == expected, REGENERATE


def test_the_goldens_cover_every_variant_and_the_memory_variant() -> None:
    variants = set()
    for relative, number, _ in CASES:
        setup = load(relative, number).setup
        variants.add(setup.variant)
        variants.add("memory" if setup.memory else "")
    assert {"standard", "three-player", "two-player", "shark", "memory"} <= variants


def test_one_round_only() -> None:
    cursor = load("fixtures/games/friday-club.gbn")
    text = replay_text(cursor, TABLE, rnd=2)
    assert "Round 2" in text
    assert "Round 1" not in text
    assert "Round 3" not in text
    assert "  swim      Ted 1 → Anne 2 → John 3 → Beth 5" in text
    assert "  hands     Ted (5 cards) │ Beth (3 cards) │ John (3 cards) │ Anne (3 cards)" in text


def test_the_line_is_drawn_front_to_back_with_the_shark_behind() -> None:
    cursor = load("fixtures/games/sim-standard-4.gbn")
    line = render_line(cursor.view(EVERYTHING, len(cursor) - 1)).plain
    assert line == "front ▸ Dee ○○○● ◂ back   ≋ shark ≋   out: Ann, Cid, Bob"
    shark = load("fixtures/games/sim-shark-5.gbn")
    line = render_line(shark.view(EVERYTHING, 0)).plain
    assert line.endswith("Bob ●●●● ◂ back   ≋ Jaws hunger 5 ≋")


def test_names_with_markup_print_as_written() -> None:
    from getbit_events.simulate import make_setup

    setup = make_setup("standard", 4, names=("[bold]A", "B[/]", "C", "D"))
    from replay.cursor import Cursor

    text = replay_text(Cursor([setup]))
    assert "front ▸ [bold]A ●●●● │ B[/] ●●●●" in text


def test_a_step_shows_the_round_so_far() -> None:
    cursor = load("fixtures/golden/replay/inputs/invalid.gbn")
    cursor.goto_round(2)
    console = Console(file=io.StringIO(), width=140, color_system=None)
    console.print(Session(cursor).render())
    text = console.file.getvalue()  # type: ignore[attr-defined]
    assert "round 2, event" in text
    assert "John takes back the played cards 4 and 3." in text  # bitten, as recorded
    assert "John is recorded bitten, but Ted is at the back after movement" in text


def test_rounds_after_the_end_and_warnings_are_shown() -> None:
    from getbit_events.validate import validate_game
    from importers.gbn import read_gbn
    from replay.cursor import Cursor

    text = (ROOT / "fixtures/games/sim-shark-5.gbn").read_text(encoding="utf-8")
    first = text.split("\n\n[")[0]  # the first game only
    first = first.replace("bit Ann right-arm ;", "bit Ann ;", 1)  # an any-limb bite, limb unsaid
    first += "\n18. Dee 1, Ann 2, Cid 3, Eve 4, Bob 5, Jaws left-leg\n"
    (game,) = read_gbn(first, "late.gbn")
    report = validate_game(game)
    cursor = Cursor(report.events, report.violations, report.warnings, "late.gbn")
    out = replay_text(cursor)
    # the round is kept as recorded, and shown at its place with its verdict
    late = out.index("round 18")
    assert "round 18 is recorded after the game ended in round 17 (R17)" in out[late:]
    assert out.count("  ! ") == len(report.warnings) >= 1


def test_a_long_round_is_cut_to_fit_the_screen() -> None:
    cursor = load("fixtures/games/sim-standard-6.gbn")
    cursor.goto_round(3)
    console = Console(file=io.StringIO(), width=140, color_system=None)
    console.print(Session(cursor).render(height=20))
    text = console.file.getvalue()  # type: ignore[attr-defined]
    n = len(cursor.round_events(3))
    assert f"… {n - 3} earlier events of this round" in text
    assert text.count("Round 3: ") <= 3
