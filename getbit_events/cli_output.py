"""Output shared by the ``getbit`` commands: JSON that stays valid on any terminal."""

from __future__ import annotations

import json
import sys
from typing import Any

__all__ = ["utf8", "write_json"]


def utf8(stream: object) -> bool:
    """True when ``stream`` takes every character (its encoding is UTF-8)."""
    return "utf" in str(getattr(stream, "encoding", "") or "").lower()


def write_json(data: Any, indent: int | None = None) -> None:
    """``data`` as JSON on stdout, one document a line unless indented; where stdout
    is not UTF-8 every other character is written as a JSON escape, so the text
    stays valid JSON whatever the terminal."""
    text = json.dumps(data, ensure_ascii=not utf8(sys.stdout), indent=indent)
    sys.stdout.write(text + "\n")
