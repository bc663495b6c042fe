"""A JSON Lines log's lines as JSON objects, each checked before it is parsed.

A line longer than ``MAX_LINE`` bytes, or JSON nested deeper than ``MAX_DEPTH``,
is refused before any parser sees it; a line that is no event still says what it
seems to be about (its ``clue``), so the reader can tell which game it spoils.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator
from typing import IO, Any

import orjson

from getbit_events.events import SourcePos
from getbit_events.limits import MAX_LINE
from getbit_events.record import Violation
from importers.reading import raw_lines

__all__ = ["MAX_DEPTH", "NO_CLUE", "Clue", "clue", "json_object", "objects"]

#: the deepest nesting of JSON arrays and objects read: an event needs 3
MAX_DEPTH = 16

#: What a line that is no event still seems to say: its ``game`` and its ``seq``.
Clue = tuple[str | None, int | None]
NO_CLUE: Clue = (None, None)
_GAME_CLUE = re.compile(rb'"game"\s*:\s*"([^"\\\x00-\x1f]{1,1000})"')
_SEQ_CLUE = re.compile(rb'"seq"\s*:\s*([0-9]{1,9})(?![0-9])')


def clue(raw: bytes) -> Clue:
    """The ``game`` and ``seq`` a broken line seems to hold, where they can be read."""
    found = _GAME_CLUE.search(raw)
    game: str | None = None
    if found is not None:
        try:
            game = found.group(1).decode("utf-8")
        except UnicodeDecodeError:
            game = None
    seq = _SEQ_CLUE.search(raw)
    return game, int(seq.group(1)) if seq is not None else None


def objects(
    stream: IO[bytes], source: str, first: int = 1
) -> Iterator[tuple[int, dict[str, Any] | None, Violation | None, Clue]]:
    """Each non-blank line as a JSON object, or the reason it is not one and what it
    still seems to say (``clue``); ``first``, the number of the stream's first line."""
    for number, raw, too_long in raw_lines(stream, first):
        if too_long:  # only its first MAX_LINE + 1 bytes were read
            yield (
                number,
                None,
                _syntax(
                    source,
                    number,
                    1,
                    f"the line is longer than {MAX_LINE} bytes (the limit of every record "
                    "format); an event is a few hundred",
                ),
                clue(raw[:4096]),
            )
            continue
        if not raw.strip():
            continue
        data, reason, column = _parse(raw)
        if reason is not None:
            if not raw.endswith(b"\n") and reason.startswith("not JSON"):
                reason = "the file ends in the middle of an event (is it cut off?); " + reason
            yield number, None, _syntax(source, number, column, reason), clue(raw)
        else:
            yield number, data, None, NO_CLUE


def json_object(raw: bytes) -> dict[str, Any] | None:
    """The JSON object of a line of at most MAX_LINE bytes, as ``objects`` reads it, or
    None where ``objects`` would say the line is no object."""
    return _parse(raw)[0] if len(raw) <= MAX_LINE else None


def _syntax(source: str, line: int, column: int, message: str) -> Violation:
    return Violation("syntax", message, SourcePos(source, line, column))


# A run of this many digits may be a whole number past 64 bits, which orjson reads as a
# float (the standard library as the whole number it is): such a line goes the
# standard way. Each byte that is no digit made a space, to find the run in C.
_LONG_RUN = b"0" * 19
_DIGITS_ONLY = bytes(0x30 if 0x30 <= b <= 0x39 else 0x20 for b in range(256))


def _parse(raw: bytes) -> tuple[dict[str, Any] | None, str | None, int]:
    """The JSON object of the line ``raw``, or why it is none and at which column.

    orjson reads a line about three times as fast as the standard library
    (``docs/architecture.md``, "Speed tricks"), and reads an object the same wherever
    it reads one at all: it refuses what the standard library refuses, and more (a
    lone surrogate, a number too large for a float). A line it refuses, one nested
    past MAX_DEPTH, one with a long run of digits (``_LONG_RUN``), or one that is no
    object goes the standard library's way, which reads it or says what is wrong
    (``tests/test_jsonl_lines.py`` holds the two the same)."""
    if (
        raw.count(b"[") + raw.count(b"{") <= MAX_DEPTH
        and raw.translate(_DIGITS_ONLY).find(_LONG_RUN) < 0
    ):
        try:
            fast = orjson.loads(raw)
        except orjson.JSONDecodeError:
            pass
        else:
            if type(fast) is dict:
                found: dict[str, Any] = fast
                return found, None, 1
    return _parse_standard(raw)


def _parse_standard(raw: bytes) -> tuple[dict[str, Any] | None, str | None, int]:
    """``_parse`` by the standard library's JSON alone."""
    nul = raw.find(b"\0")
    if nul >= 0:
        return None, "a NUL byte; this is not a text file", nul + 1
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        return None, f"not UTF-8 text (byte 0x{raw[exc.start]:02x})", exc.start + 1
    if raw.count(b"[") + raw.count(b"{") > MAX_DEPTH:
        depth, column = _depth(text)
        if depth > MAX_DEPTH:
            return (
                None,
                f"JSON nested {MAX_DEPTH + 1} or more deep; an event is nested at most 3 deep",
                column,
            )
    try:
        data = _decoded(text.rstrip("\r\n"))
    except json.JSONDecodeError as exc:
        return None, f"not JSON: {exc.msg}", exc.colno
    except ValueError as exc:
        return None, f"not JSON: {exc}", 1
    if not isinstance(data, dict):
        kind = "a list" if isinstance(data, list) else f"the value {text.strip()[:20]}"
        return None, f"expected a JSON object {{...}} per line, not {kind}", 1
    return data, None, 1


def _no_constant(name: str) -> None:
    raise ValueError(f"{name} is not a JSON number")


_DECODER = json.JSONDecoder(parse_constant=_no_constant)
# the decoder's scanner (C, from ``json.scanner``), set on it as it is made
_SCAN: Callable[[str, int], tuple[Any, int]] = vars(_DECODER)["scan_once"]
_SPACE = " \t\n\r"  # what ``JSONDecoder.decode`` passes over, before and after


def _decoded(text: str) -> Any:
    """``_DECODER.decode(text)``, its scanner called at once: ``decode`` and ``raw_decode``
    are Python around it, about a fifth of the time a line of a log takes to parse, and
    every worker of an import parses every line (``docs/architecture.md``, "Speed
    tricks"). The same value, or the same error, as ``decode``."""
    end = len(text)
    start = end - len(text.lstrip(_SPACE))
    try:
        value, at = _SCAN(text, start)
    except StopIteration as err:
        raise json.JSONDecodeError("Expecting value", text, err.value) from None
    if at != end:
        at = end - len(text[at:].lstrip(_SPACE))
        if at != end:
            raise json.JSONDecodeError("Extra data", text, at)
    return value


def _depth(text: str) -> tuple[int, int]:
    """The deepest nesting of ``text`` outside strings, and the column where it passed the limit."""
    depth = 0
    in_string = escaped = False
    for column, char in enumerate(text, 1):
        if in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char in "[{":
            depth += 1
            if depth > MAX_DEPTH:
                return depth, column
        elif char in "]}":
            depth -= 1
    return depth, 1
