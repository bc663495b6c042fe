"""What a GBN reader reads before it knows which game a line is in: a record file's
lines (decoded one at a time, each fault located) and a tag line's name and value.

``importers.gbn`` puts the lines together into games and reads their rounds; the
CSV reader (``csv_rounds``) reads its files' lines here too.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import IO

from getbit_events.errors import InputError
from getbit_events.events import SourcePos
from getbit_events.limits import MAX_LINE, MAX_TEXT
from getbit_events.record import RecordedTag
from importers.reading import open_bytes, raw_lines

__all__ = [
    "Line",
    "after_space",
    "file_lines",
    "holds_tag",
    "is_number",
    "once_name",
    "open_record",
    "read_tag",
    "short",
    "tag_fault",
    "tags_fault",
    "text_lines",
]

_TAG = re.compile(r'\[\s*([A-Za-z][A-Za-z0-9_-]*)\s+"((?:[^"\\]|\\.)*)"\s*\]\s*(?:#.*)?$')
_ESCAPE = re.compile(r'\\(["\\])')  # in a tag's value: \" is a quote, \\ a backslash
_TAG_NAME = re.compile(r"[A-Za-z][A-Za-z0-9_-]*")
# a tag somewhere on a line (a tag line run into something before it)
_TAG_INSIDE = re.compile(r'\[\s*[A-Za-z][A-Za-z0-9_-]*\s+"')
# tags whose value is a list of names: each name is held to MAX_TEXT, not the whole value
_NAME_TAGS = frozenset(("line", "teams"))
_NAME_SEPARATORS = re.compile(r"[,;:]")
# the tags a game gives at most once (docs/gbn.md)
_ONCE = frozenset(("line", "variant", "memory", "automaton", "teams", "shark", "winner"))


def is_number(text: str) -> bool:
    """ASCII digits of sensible length: int() reads them as written (not '²', '①', '፩')."""
    return text.isascii() and text.isdigit() and len(text) < 10


def short(value: str) -> str:
    """``value`` quoted for a message, cut short when it is long (a line may be a megabyte)."""
    return repr(value) if len(value) <= 60 else repr(value[:57]) + "..."


def after_space(text: str, at: int) -> int:
    """Where the first character at or after ``at`` that is not a space is."""
    return len(text) - len(text[at:].lstrip())


# -- a record file's lines --------------------------------------------------------------

#: one line of a record file: its number, its text without the line end, and what
#: makes it unreadable (the column and what is wrong: a NUL, a byte that is not
#: UTF-8, a line past MAX_LINE bytes) or None
Line = tuple[int, str, tuple[int, str] | None]

_NUL = "a NUL byte; this is not text"
_TOO_LONG = f"the line is longer than {MAX_LINE} bytes (the limit of every record format)"
# a line of more characters than this may be more than MAX_LINE bytes of UTF-8
_MAYBE_LONG = MAX_LINE // 4


def text_lines(text: str) -> Iterator[Line]:
    """Each line of ``text`` (a byte-order mark at its start dropped)."""
    if text.startswith("\ufeff"):
        text = text[1:]
    nul = "\0" in text  # one look at the whole text spares one at every line
    for number, raw in enumerate(text.split("\n"), 1):
        line = raw[:-1] if raw.endswith("\r") else raw
        if len(line) > _MAYBE_LONG and len(line.encode("utf-8", "surrogatepass")) > MAX_LINE:
            yield number, line, (1, _TOO_LONG)
        elif nul and "\0" in line:
            yield number, line, (line.index("\0") + 1, _NUL)
        else:
            yield number, line, None


def file_lines(stream: IO[bytes], first: int = 1) -> Iterator[Line]:
    """Each line of a binary ``stream``, decoded here one line at a time.

    A line past MAX_LINE bytes is reported by its first bytes (``raw_lines``
    never holds more). A line that is not UTF-8 text, or holds a NUL, is
    reported at the column of the first bad byte, with its text decoded as far
    as it can be (the reader still sees where games begin). ``first``: the number of
    the stream's first line (a piece of a file, ``importers.pieces``).
    """
    for number, raw, too_long in raw_lines(stream, first):
        if too_long:
            yield number, raw[:200].decode("utf-8", "replace"), (1, _TOO_LONG)
            continue
        if raw.endswith(b"\n"):
            raw = raw[:-2] if raw.endswith(b"\r\n") else raw[:-1]
        elif raw.endswith(b"\r"):
            raw = raw[:-1]
        try:
            line = raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            column = len(raw[: exc.start].decode("utf-8")) + 1
            bad = f"not UTF-8 text (byte 0x{raw[exc.start]:02x})"
            yield number, raw.decode("utf-8", "replace"), (column, bad)
            continue
        if "\0" in line:
            yield number, line, (line.index("\0") + 1, _NUL)
        else:
            yield number, line, None


def open_record(path: str | Path, source: str | None = None) -> tuple[IO[bytes], str]:
    """A record file opened to be read line by line, and the name its errors give it
    (InputError when it cannot be opened)."""
    name = source if source is not None else str(path)
    try:
        return open_bytes(path), name
    except OSError as exc:
        raise InputError(f"{name}: cannot read: {exc.strerror or exc}") from None


# -- a tag line ---------------------------------------------------------------------------


def tag_fault(name: str, value: str) -> str | None:
    """Why a game cannot keep the tag ``name`` = ``value``, or None. A tag is kept to
    be written back as ``[Name "value"]`` (GBN and BMN): its name is a letter, then
    letters, digits, ``_`` and ``-``; its value is on one line, at most MAX_TEXT
    characters."""
    if not _TAG_NAME.fullmatch(name) or len(name) > MAX_TEXT:
        return (
            f"{short(name)} is not a tag's name: a letter, then letters, digits, _ and - "
            f"(at most {MAX_TEXT})"
        )
    if "\n" in value:  # a lone CR is read back as written: it is no line's end
        return f"the value of the tag {name} holds a line break: a tag is one line"
    if len(value) > MAX_TEXT:
        return f"the value of the tag {name} is {len(value)} characters long; at most {MAX_TEXT}"
    return None


def tags_fault(tags: Iterable[tuple[str, str]]) -> str | None:
    """The first ``tag_fault`` of ``tags`` (a set-up's), or None."""
    return next(filter(None, (tag_fault(name, value) for name, value in tags)), None)


def read_tag(body: str, pos: SourcePos) -> RecordedTag | tuple[int, str]:
    """The tag ``[Name "value"]`` on ``body`` (a line from its ``[``, at ``pos``), or
    where it goes wrong: the column on the line, and what is wrong there."""
    m = _TAG.match(body)
    if m is None:
        at, expected = _tag_fault(body)
        return pos.column + at, expected
    name, value = m.group(1, 2)
    if "\\" in value:  # the two escapes; any other backslash is kept as written
        value = _ESCAPE.sub(r"\1", value)
    longest = _longest_text(name, value)
    if longest > MAX_TEXT:  # what one format reads, every other reads and the store keeps
        what = "a name" if name.casefold() in _NAME_TAGS else "the value"
        return (
            pos.column,
            f"{what} of {longest} characters in the tag {short(name)}; at most {MAX_TEXT}",
        )
    return RecordedTag(name, value, pos)


def once_name(body: str) -> str | None:
    """The name of the tag on ``body``, folded, when it is one a game gives once."""
    m = _TAG_NAME.match(body, after_space(body, 1))
    if m is None or m.group().casefold() not in _ONCE:
        return None
    return m.group().casefold()


def holds_tag(body: str) -> bool:
    """Whether a tag is somewhere on ``body`` (a tag line run into something before it)."""
    return "[" in body and _TAG_INSIDE.search(body) is not None


def _longest_text(name: str, value: str) -> int:
    """The length of the longest text a tag holds: its name, its value, or for a tag of
    names (Line, Teams) the longest name."""
    if name.casefold() in _NAME_TAGS:
        longest = max(len(piece.strip()) for piece in _NAME_SEPARATORS.split(value))
    else:
        longest = len(value)
    return max(len(name), longest)


def _tag_fault(body: str) -> tuple[int, str]:
    """Where a tag line that is not ``[Name "value"]`` goes wrong (its offset in ``body``,
    which starts with ``[``), and what was expected there."""
    at = after_space(body, 1)
    name = _TAG_NAME.match(body, at)
    if name is None:
        return at, "expected a tag name (a letter, then letters, digits, _ or -) after '['"
    at = name.end()
    if body[at : at + 1] == '"':
        return at, "expected a space between the tag name and its value"
    value = after_space(body, at)
    if body[value : value + 1] != '"':
        return value, 'expected the tag\'s value in double quotes: [Name "value"]'
    at = value + 1
    while at < len(body) and body[at] != '"':
        at += 2 if body[at] == "\\" else 1
    if at >= len(body):
        return len(body.rstrip()), 'the value has no closing quote (a quote inside it is \\")'
    at = after_space(body, at + 1)
    if body[at : at + 1] != "]":
        return at, "expected ']' after the tag's value"
    at = after_space(body, at + 1)
    return at, f"expected the end of the line after the tag, not {short(body[at:])}"

