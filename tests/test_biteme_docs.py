"""docs/biteme.md covers every code and every ruling of "Come on! Bite me!", and
its worked game is the fixture the tests check."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from biteme.validate import CODES, WARNING_CODES

#: what these test is plain Python in both builds (none of setup.py's COMPILED is their
#: subject): the compiled build's pass of .ci/run leaves them to the plain pass
pytestmark = pytest.mark.layers

ROOT = Path(__file__).resolve().parent.parent
TEXT = (ROOT / "docs" / "biteme.md").read_text(encoding="utf-8")


def test_every_code_is_documented() -> None:
    documented = set(re.findall(r"^\| `([a-z0-9-]+)` \|", TEXT, re.MULTILINE))
    assert documented == set(CODES) | set(WARNING_CODES)


def test_every_ruling_is_restated() -> None:
    restated = [int(n) for n in re.findall(r"^\*\*B(\d+) ", TEXT, re.MULTILINE)]
    assert restated == list(range(1, 18))


def test_the_worked_game_is_the_fixture() -> None:
    shown = TEXT.split("<!-- worked -->\n```\n")[1].split("```\n<!-- /worked -->")[0]
    assert shown == (ROOT / "fixtures" / "biteme" / "worked.bmn").read_text(encoding="utf-8")
