"""The exit codes of every ``getbit`` command (docs/errors.md)."""

from __future__ import annotations

__all__ = [
    "EXIT_BUG",
    "EXIT_CLOSED",
    "EXIT_INTERRUPTED",
    "EXIT_INVALID",
    "EXIT_OK",
    "EXIT_UNREADABLE",
]

#: all good
EXIT_OK = 0
#: a game breaks the rules (``check``: the store is damaged)
EXIT_INVALID = 1
#: an input or the store cannot be read, or the command is misused
EXIT_UNREADABLE = 2
#: an internal error: a bug in getbit, never the input's fault
EXIT_BUG = 3
#: stopped by Ctrl-C (SIGINT), as shells count it (128 + 2)
EXIT_INTERRUPTED = 130
#: the output was closed before the command was done (``getbit games | head -1``), as
#: shells count a command that SIGPIPE ended (128 + 13), as they do for other tools
EXIT_CLOSED = 141
