"""Output shared by the ``getbit`` commands: text a record cannot use to drive the
terminal, and JSON that stays valid on any terminal."""

from __future__ import annotations

import errno
import json
import os
import re
import sys
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from rich.console import Console, ConsoleOptions, RenderableType
from rich.markup import escape
from rich.segment import Segment
from rich.text import Text

__all__ = [
    "ERR",
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
    "write_json",
    "write_output",
]

# Control characters (all but tab and newline: C0, DEL, C1 with NEL U+0085), the line
# and paragraph separators U+2028 and U+2029 (a terminal may break the line there) and
# the bidirectional marks and overrides, which would reorder what follows them on
# screen: a name from a record may hold any of them
_CONTROL = re.compile(
    "[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]"
)


def _escape(match: re.Match[str]) -> str:
    return match.group().encode("unicode_escape").decode("ascii")


def shown(text: str) -> str:
    """``text`` with every control character written as its escape (``\\x1b``)."""
    return _CONTROL.sub(_escape, text) if _CONTROL.search(text) else text


def flat(text: str) -> str:
    """``text`` on one line and in one column: ``shown``, with a newline and a tab also
    written as their escapes (``\\n``, ``\\t``). For a record's text (a file name, a
    tag, a reason) put into a line of ours, which must stay that one line."""
    return shown(text).replace("\n", "\\n").replace("\t", "\\t")


class SafeConsole(Console):
    """A rich ``Console`` that shows control characters as escapes, wherever they are in
    what it prints (a string, a table cell, a ``Text``): an ESC in a swimmer's name is
    printed as ``\\x1b``, not sent to the terminal, and nothing is silently dropped.
    Nor is text made emoji: ``club.gbn:100:3`` stays that, not ``club.gbn💯3``."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("emoji", False)
        super().__init__(*args, **kwargs)

    def on_broken_pipe(self) -> None:
        # rich exits 1 at once; ``getbit`` says what a closed output is itself (EXIT_CLOSED)
        self.quiet = True
        raise BrokenPipeError(errno.EPIPE, "the output was closed")

    def render_str(self, text: str, **kwargs: Any) -> Text:
        # before rich makes a Text, which would drop some of them (BEL, backspace, CR)
        return super().render_str(shown(text), **kwargs)

    def render(
        self, renderable: RenderableType, options: ConsoleOptions | None = None
    ) -> Iterable[Segment]:
        for segment in super().render(renderable, options):
            if segment.control is None and _CONTROL.search(segment.text):
                yield Segment(shown(segment.text), segment.style)
            else:
                yield segment


def say_line(*parts: str | tuple[str, str]) -> None:
    """A line of ours on stdout, of ``parts``: each a text, or a text and its rich style
    (``("ok", "green")``). Printed by ``OUT`` with the styles; or, where ``OUT`` would
    style nothing (no colours: a file, a pipe, ``NO_COLOR``), its texts written at
    once, control characters as escapes, as ``OUT`` writes them; but a backslash is
    shown as given, where rich's escaped markup doubles one at a text's end or takes
    one before ``[`` for an escape. ``getbit validate`` says a line a game, and rich's
    way cost a third of the command's CPU (``docs/architecture.md``, "Speed tricks").
    A tab or a newline in it (which rich lays out) goes rich's way."""
    plain = "".join(part if isinstance(part, str) else part[0] for part in parts)
    if OUT.color_system is not None or "\t" in plain or "\n" in plain:
        OUT.print("".join(
            escape(part) if isinstance(part, str) else f"[{part[1]}]{escape(part[0])}[/{part[1]}]"
            for part in parts
        ))
    elif not OUT.quiet:  # quiet: the output was closed (``SafeConsole.on_broken_pipe``)
        OUT.file.write(shown(plain) + "\n")


def utf8(stream: object) -> bool:
    """True when ``stream`` takes every character (its encoding is UTF-8)."""
    return "utf" in str(getattr(stream, "encoding", "") or "").lower()


def write_json(data: Any, indent: int | None = None) -> None:
    """``data`` as JSON on stdout, one document a line unless indented; where stdout
    is not UTF-8 every other character is written as a JSON escape, so the text
    stays valid JSON whatever the terminal. NEL, U+2028 and U+2029 are always
    written as escapes: the values are as given, and a line is one document."""
    text = json.dumps(data, ensure_ascii=not utf8(sys.stdout), indent=indent)
    if _BREAKS.search(text):  # only a string can hold them: the same value, escaped
        text = _BREAKS.sub(_json_escape, text)
    sys.stdout.write(text + "\n")


# Characters that some readers of JSON Lines take for a line's end (Python's
# str.splitlines, older JavaScript): written as JSON escapes, never raw
_BREAKS = re.compile("[\x85\u2028\u2029]")


def write_output(path: Path, text: str, what: str) -> None:
    """``text`` written to ``path``, and on stderr that it was (``wrote PATH (what)``);
    to standard output for ``-`` (as every command takes it), with nothing said. An
    InputError naming the file when it cannot be written."""
    from getbit_events.errors import InputError

    if str(path) == "-":
        sys.stdout.write(text)
        return
    try:
        path.write_text(text, encoding="utf-8")
    except OSError as exc:
        raise InputError(f"{path}: cannot write: {exc.strerror or exc}") from None
    ERR.print(f"wrote {path} ({what})", markup=False)


def _json_escape(match: re.Match[str]) -> str:
    return f"\\u{ord(match.group()):04x}"


def refuse_overwrite(output: Path | None, reads: Iterable[Path | None]) -> None:
    """Refuse (exit 2) to write ``output`` when it is a file the command reads: a record
    given it (``-``: the file redirected to standard input, if one is), or the store,
    under whatever name (a link, ``./``, another case on a case-blind disk), or the
    ``-wal``, ``-shm`` or ``-journal`` SQLite keeps beside the store, there yet or not.
    Writing there would destroy what it reads, often the only copy."""
    from getbit_events.errors import InputError

    if output is None or str(output) == "-":
        return
    for read in reads:
        if read is None:
            continue
        said = str(read)
        if said == "-":  # standard input: the file redirected to it, if one is
            said, read = "standard input (-)", Path("/dev/stdin")
        # beside the store, or beside the file a link to it names
        beside = [(s.with_name(s.name + end), end) for end in _STORE_FILES
                  for s in (read, read.resolve())]
        what = next((f"where SQLite keeps the {end[1:]} file of {read}"
                     for name, end in beside if _same_file(output, name, True)), None)
        if _same_file(output, read):
            what = said
        if what is not None:
            raise InputError(f"{output}: that is {what}, which this command reads; "
                             "write to another file (nothing was written)")


def _same_file(a: Path, b: Path, by_name: bool = False) -> bool:
    """Whether ``a`` and ``b`` are one file; where either is not there, whether they
    name the same place (``by_name``) or not at all."""
    try:
        return os.path.samefile(a, b)
    except OSError:  # one of them is not there
        return by_name and a.resolve() == b.resolve()


#: the files SQLite keeps beside a store while it works on it
_STORE_FILES = ("-wal", "-shm", "-journal")


def bug_line(exc: BaseException) -> str:
    """The one line an internal error (exit code 3) is told by: the exception's type and
    message, never a traceback; the message on one line and cut short when long."""
    said = " ".join(str(exc).split()) or "(no message)"
    if len(said) > 500:
        said = said[:497] + "..."
    return f"internal error (a bug, please report it): {type(exc).__name__}: {said}"


def tolerant_streams() -> None:
    """Make stdout and stderr write a character their encoding lacks (an ASCII pipe, say)
    as its backslash escape (``Zo\\xeb``), never crash on it: the one way every command
    shows such a character."""
    for stream in (sys.stdout, sys.stderr):
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None and not utf8(stream):
            reconfigure(errors="backslashreplace")


#: what every command prints for people (rich picks up sys.stdout and sys.stderr as
#: they are when it prints, so these follow a redirection or a test's capture)
OUT = SafeConsole(highlight=False, soft_wrap=True)
ERR = SafeConsole(stderr=True, highlight=False, soft_wrap=True)


def plural(n: int, word: str, many: str | None = None) -> str:
    """``1 game``, ``2 games``: a count with its noun."""
    return f"{n} {word if n == 1 else (many or word + 's')}"


def winners_words(names: Sequence[str]) -> str:
    """Who won, with the verb that agrees: ``Vic wins``, ``Vic and Wes win``,
    ``Uma, Vic and Wes win`` (a shared win, B16)."""
    if len(names) < 2:
        return f"{''.join(names)} wins"
    return f"{', '.join(names[:-1])} and {names[-1]} win"


def error_line(message: str, command: str | None = None) -> str:
    """``getbit COMMAND: message``, the one shape of every command's error line;
    ``command`` defaults to the command running now (``getbit`` outside one)."""
    name = command if command is not None else _running_command()
    return f"{name}: {message}" if name.startswith("getbit") else f"getbit {name}: {message}"


def say_error(message: str, command: str | None = None) -> None:
    """Print ``message`` as an error line (:func:`error_line`) on stderr, escaped: a
    record's text in it is shown, never read as markup or sent to the terminal."""
    tolerant_streams()
    # one line: a newline in what it names (a file name, say) is shown as its escape
    ERR.print(error_line(message.replace("\n", "\\n"), command), markup=False)


def say_warning(message: str) -> None:
    """Print ``message`` as a warning line on stderr (``warning: ...``), escaped."""
    tolerant_streams()
    ERR.print(Text.assemble(("warning", "yellow"), ": ", message.replace("\n", "\\n")))


def _running_command() -> str:
    """``getbit`` and the name of the command being run (``getbit replay``)."""
    from typer._click.globals import get_current_context  # typer >= 0.29 carries its click
    ctx = get_current_context(silent=True)
    return ctx.command_path if ctx is not None and ctx.command_path else "getbit"
