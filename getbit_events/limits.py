"""The limits every record format and the store share: one set, documented in
``docs/errors.md`` (Limits), so what one format writes another reads, and
anything the store writes it can read back.

A record past a limit is refused game by game, in bounded memory: the reader
reports it at its file and line and goes on with the next game.
"""

from __future__ import annotations

__all__ = ["MAX_LINE", "MAX_ROUNDS", "MAX_TEXT", "MAX_VIOLATIONS"]

#: the longest text a name, a tag's value or a game's id may hold, in characters
MAX_TEXT = 1000
#: the longest line of any record file, in bytes (a round line of six long names
#: is a few kilobytes; an event of JSON Lines a few hundred bytes)
MAX_LINE = 1 << 20
#: the most rounds one game may record (every round costs a limb, a token or a
#: card: a real game ends long before)
MAX_ROUNDS = 1000
#: the most violations (syntax errors included) reported and stored for one game;
#: past it one more says how many were left out
MAX_VIOLATIONS = 100
