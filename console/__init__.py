"""What every ``getbit`` command shares for output: consoles that show a record's
control characters as escapes, JSON that stays valid on any terminal, the one line
an internal error is told by, and the exit codes."""

from console.exits import (
    EXIT_BUG,
    EXIT_CLOSED,
    EXIT_INTERRUPTED,
    EXIT_INVALID,
    EXIT_OK,
    EXIT_UNREADABLE,
)
from console.output import (
    ERR,
    OUT,
    SafeConsole,
    bug_line,
    error_line,
    flat,
    plural,
    refuse_overwrite,
    say_error,
    say_line,
    say_warning,
    shown,
    tolerant_streams,
    utf8,
    winners_words,
    write_json,
    write_output,
)

__all__ = [
    "ERR",
    "EXIT_BUG",
    "EXIT_CLOSED",
    "EXIT_INTERRUPTED",
    "EXIT_INVALID",
    "EXIT_OK",
    "EXIT_UNREADABLE",
    "OUT",
    "SafeConsole",
    "bug_line",
    "error_line",
    "flat",
    "plural",
    "refuse_overwrite",
    "say_error",
    "say_line",
    "say_warning",
    "shown",
    "tolerant_streams",
    "utf8",
    "winners_words",
    "write_json",
    "write_output",
]
