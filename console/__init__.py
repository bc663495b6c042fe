"""What every ``getbit`` command shares for output: consoles that show a record's
control characters as escapes, JSON that stays valid on any terminal, the one line
an internal error is told by, and the exit codes."""

from console.exits import EXIT_BUG, EXIT_INVALID, EXIT_OK, EXIT_UNREADABLE
from console.output import SafeConsole, bug_line, shown, utf8, write_json

__all__ = [
    "EXIT_BUG",
    "EXIT_INVALID",
    "EXIT_OK",
    "EXIT_UNREADABLE",
    "SafeConsole",
    "bug_line",
    "shown",
    "utf8",
    "write_json",
]
