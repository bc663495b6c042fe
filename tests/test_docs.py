"""The user docs cover every error code and every ruling."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from getbit_events.validate import CODES, WARNING_CODES

#: what these test is plain Python in both builds (none of setup.py's COMPILED is their
#: subject): the compiled build's pass of .ci/run leaves them to the plain pass
pytestmark = pytest.mark.layers

DOCS = Path(__file__).resolve().parent.parent / "docs"


def test_every_code_is_documented() -> None:
    text = (DOCS / "errors.md").read_text(encoding="utf-8")
    documented = set(re.findall(r"^\| `([a-z0-9-]+)` \|", text, re.MULTILINE))
    assert documented == set(CODES) | set(WARNING_CODES)


def test_every_ruling_is_restated() -> None:
    text = (DOCS / "rules.md").read_text(encoding="utf-8")
    restated = {int(n) for n in re.findall(r"^\*\*R(\d+) ", text, re.MULTILINE)}
    assert restated == set(range(1, 18))
