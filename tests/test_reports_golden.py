"""Golden files for what people read: the stats table, a profile and game reports.

Regenerate them (after a deliberate change to a screen) with::

    .venv/bin/python tests/test_reports_golden.py

then read the diff before committing it. Each test compares a file whole.
"""

from __future__ import annotations

import io
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from rich.console import Console, RenderableType

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:  # run as a script from anywhere
    sys.path.insert(0, str(ROOT))

from getbit_events.validate import GameReport, validate_game  # noqa: E402
from importers.gbn import read_gbn_file  # noqa: E402
from reports.game import game_renderable, summarise_game  # noqa: E402
from reports.render import profile_renderable, table_renderable  # noqa: E402
from reports.selection import Aliases, Filters  # noqa: E402
from reports.sources import game_id_of, rows_from_reports  # noqa: E402
from reports.stats import build_report  # noqa: E402

#: what these test is plain Python in both builds (none of setup.py's COMPILED is their
#: subject): the compiled build's pass of .ci/run leaves them to the plain pass
pytestmark = pytest.mark.layers

GOLDEN = ROOT / "fixtures" / "golden" / "reports"
STATS = "fixtures/stats"


def _text(renderable: RenderableType) -> str:
    console = Console(width=100, record=True, color_system=None, file=io.StringIO())
    console.print(renderable)
    return console.export_text()


def _reports() -> list[GameReport]:
    files = sorted((ROOT / STATS).glob("*.gbn"))
    return [validate_game(g) for f in files for g in read_gbn_file(f, f"{STATS}/{f.name}")]


def _table() -> str:
    report = build_report(rows_from_reports(_reports(), []), None, Aliases.make(["Annie=Ann"]))
    return _text(table_renderable(report))


def _profile() -> str:
    filters = Filters(players=("ann",))
    report = build_report(rows_from_reports(_reports(), []), filters, Aliases.make(["Annie=Ann"]))
    player = report.player("ann")
    assert player is not None
    return _text(profile_renderable(report, player))


def _game(name: str) -> Callable[[], str]:
    def make() -> str:
        report = next(r for r in _reports() if r.source.endswith(name))
        return _text(game_renderable(summarise_game(game_id_of(report), report.events)))

    return make


CASES: dict[str, Callable[[], str]] = {
    "stats-table.txt": _table,
    "profile-ann.txt": _profile,
    "report-shark.txt": _game("shark.gbn"),
    "report-two-player.txt": _game("two-player.gbn"),
    "report-three-player.txt": _game("three-player.gbn"),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_golden(name: str) -> None:
    expected = (GOLDEN / name).read_text(encoding="utf-8")
    assert CASES[name]() == expected


def main() -> None:
    GOLDEN.mkdir(parents=True, exist_ok=True)
    for name, make in CASES.items():
        (GOLDEN / name).write_text(make(), encoding="utf-8")
        print(f"wrote {GOLDEN / name}")


if __name__ == "__main__":
    main()
