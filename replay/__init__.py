"""Replay: step through one game's events, see them as one seat saw them, print
them, drive them with the keyboard, or write them as one HTML page.

Built on the core's reducer alone (``getbit_events``); see ``docs/replay.md``.
"""

from __future__ import annotations

from replay.account import describe
from replay.cursor import Cursor, Step
from replay.html import write_html
from replay.terminal import print_game, replay_text
from replay.view import EVERYTHING, TABLE, View, Viewer, view

__all__ = [
    "EVERYTHING",
    "TABLE",
    "Cursor",
    "Step",
    "View",
    "Viewer",
    "describe",
    "print_game",
    "replay_text",
    "view",
    "write_html",
]
