"""The build (setup.py): which modules `pip install .` compiles, and that CI tests that build."""

from __future__ import annotations

import ast
import importlib
import os
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def compiled_list() -> list[str]:
    """setup.py's COMPILED, read without running setup.py (which would build)."""
    tree = ast.parse((ROOT / "setup.py").read_text(encoding="utf-8"))
    for node in tree.body:
        if isinstance(node, ast.Assign) and getattr(node.targets[0], "id", None) == "COMPILED":
            value = ast.literal_eval(node.value)
            assert isinstance(value, list)
            return [str(v) for v in value]
    raise AssertionError("setup.py has no COMPILED list")


def test_every_compiled_module_exists_once() -> None:
    modules = compiled_list()
    assert len(set(modules)) == len(modules)
    for path in modules:
        assert (ROOT / path).is_file(), path


@pytest.mark.skipif(
    os.environ.get("GETBIT_EXPECT_COMPILED") != "1",
    reason="set GETBIT_EXPECT_COMPILED=1 where the compiled build is installed (CI does)",
)
def test_the_tests_run_against_the_compiled_build() -> None:
    # CI sets GETBIT_EXPECT_COMPILED in the venv of `pip install .`: every module of
    # COMPILED must come from its extension there, or the suite tested pure Python again
    for path in compiled_list():
        module = importlib.import_module(path.removesuffix(".py").replace("/", "."))
        assert module.__file__ is not None
        assert not module.__file__.endswith(".py"), f"{module.__name__} is not compiled"


def test_a_reports_events_and_state_are_made_once_in_either_build() -> None:
    # mypyc makes a functools.cached_property a plain property: in the compiled build
    # GameReport.events was made again at every read, and of_events' events were lost
    from biteme.simulate import simulate_bite
    from biteme.validate import validate_bite
    from getbit_events.events import SourcePos
    from getbit_events.record import RecordedGame
    from getbit_events.simulate import simulate_game
    from getbit_events.validate import GameReport, validate_game
    from importers.bmn import read_bmn
    from importers.bmn_write import write_bmn
    from importers.gbn import read_gbn, write_gbn

    events = simulate_game("standard", 4, seed=3, bot="random")
    given = GameReport.of_events(RecordedGame("x.gbn", 1, SourcePos("x.gbn", 1)), events)
    assert given.events == tuple(events)
    (report,) = (validate_game(g) for g in read_gbn(write_gbn([events]), "x.gbn"))
    assert [e.TYPE for e in report.events] == [e.TYPE for e in events]
    assert report.events is report.events
    assert report.state is report.state
    assert report.final == given.final
    (bite,) = (validate_bite(g) for g in read_bmn(write_bmn([simulate_bite(3, seed=1)]), "x"))
    assert bite.state is not None
    assert bite.state is bite.state
