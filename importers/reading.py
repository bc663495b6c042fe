"""What every record reader shares: a file's lines read in bounded memory, and the
syntax errors of one game, capped, with those of lines held until it is known
which game they are in (``docs/gbn.md``, how a damaged file is read), and each
game's own text, read beside the reader (``with_text``).
"""

from __future__ import annotations

import atexit
import codecs
import contextlib
import os
import re
import shutil
import stat
import sys
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path
from types import TracebackType
from typing import IO, TypeVar, cast

import attrs

from biteme.record import BiteRecord
from getbit_events.errors import InputError
from getbit_events.events import SourcePos
from getbit_events.findings import left_out
from getbit_events.limits import MAX_LINE, MAX_VIOLATIONS
from getbit_events.record import RecordedGame, Violation
from importers.skipping import Skipped

__all__ = [
    "DETECT_BYTES",
    "STDIN",
    "Encoding",
    "GameErrors",
    "Held",
    "choose_encoding",
    "codec",
    "date_warnings",
    "iso_date",
    "open_bytes",
    "present",
    "raw_lines",
    "read_in",
    "recoded",
    "spool",
    "spooled",
    "texts_of",
    "with_text",
]

_BOM = b"\xef\xbb\xbf"

#: how much of a file's start detection reads (the file is then read line by line)
DETECT_BYTES = 1 << 16
_ASCII = bytes(range(0x20, 0x7F)) + b"\t\r\n"
# a well-formed UTF-8 sequence of two to four bytes: a file that holds one is UTF-8
_UTF8_SEQUENCE = re.compile(
    rb"[\xc2-\xdf][\x80-\xbf]|[\xe0-\xef][\x80-\xbf]{2}|[\xf0-\xf4][\x80-\xbf]{3}"
)
# a byte past ASCII next to a letter or another such byte: a letter of a name (Caf\xe9,
# a Cyrillic word), not a stray byte
_IN_A_WORD = re.compile(rb"[A-Za-z][\x80-\xff]|[\x80-\xff][A-Za-z]|[\x80-\xff]{2}")


@attrs.frozen
class Encoding:
    """The text encoding a file is read in: a Python codec name, and whether it was
    detected (said to the user) rather than given or UTF-8."""

    name: str
    detected: bool = False

    @property
    def utf8(self) -> bool:
        return self.name == "utf-8"


def read_in(
    path: str | Path,
    given: str | None,
    say: Callable[[str], None] | None = None,
    source: str | None = None,
) -> Encoding:
    """The encoding a reader reads ``path`` in: ``given`` ("utf-8": no detection), or
    ``choose_encoding``'s; when detected, ``say`` is told which, in one line naming
    the file (``source``, else the path). Every record reader of a file asks here."""
    chosen = Encoding("utf-8") if given == "utf-8" else choose_encoding(path, given)
    if chosen.detected and say is not None:
        say(
            f"{source or path}: not UTF-8 text; read as {chosen.name} "
            "(detected; --encoding chooses another)"
        )
    return chosen


#: the name of standard input, as a path given to a command
STDIN = "-"
#: a pipe's name (``-``, a FIFO, ``/dev/stdin``, a shell's ``<(...)``) -> its copy
_SPOOLED: dict[str, str] = {}


def spool(path: Path) -> None:
    """Copy ``path`` to a temporary file, once, when it is a pipe rather than a file:
    a pipe can be read only once, and a record is opened more than once (its start
    for its encoding and its game, then its games; by each worker with ``--jobs``).
    Called where the paths given are found (``importers.find_files``), so before
    any worker starts; the copy goes when the process ends."""
    key = str(path)
    if key in _SPOOLED:
        return
    if key != STDIN:
        try:
            mode = os.stat(path).st_mode
        except OSError:
            return  # not there: its reader says so
        if stat.S_ISREG(mode) or stat.S_ISDIR(mode):
            return
    _sweep()
    fd, copy = tempfile.mkstemp(prefix=f"getbit-{os.getpid()}-", suffix=path.suffix)
    atexit.register(_remove, copy)  # not run when the process is killed: see _sweep
    with os.fdopen(fd, "wb") as out:
        try:
            if key == STDIN:
                if sys.stdin is None:  # closed (<&-): nothing to read
                    raise InputError("-: standard input is closed: there is nothing to read")
                shutil.copyfileobj(sys.stdin.buffer, out)
            else:
                with open(path, "rb") as given:
                    shutil.copyfileobj(given, out)
        except OSError:
            return  # its reader says why it cannot be read
    _SPOOLED[key] = copy


def spooled(path: str | Path) -> bool:
    """Whether ``path`` is a pipe ``spool`` copied: read as a file from then on."""
    return str(path) in _SPOOLED


def present(path: Path) -> bool:
    """Whether ``path`` is there to be read: a file, a folder, or a pipe copied."""
    return spooled(path) or path.exists()


def _remove(copy: str) -> None:
    with contextlib.suppress(OSError):
        os.unlink(copy)


def _sweep() -> None:
    """Remove the copies ``spool`` made in a getbit process that was killed before it
    could (``getbit-PID-...``, PID no longer running)."""
    for left in Path(tempfile.gettempdir()).glob("getbit-*-*"):
        pid = left.name.split("-")[1]
        if pid.isdigit() and not _running(int(pid)):
            _remove(str(left))


def _running(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # another user's: running
        return True
    return True


def open_bytes(path: str | Path) -> IO[bytes]:
    """``path`` opened for reading bytes: the copy of it ``spool`` made, if any."""
    return open(_SPOOLED.get(str(path), path), "rb")


def choose_encoding(path: str | Path, given: str | None) -> Encoding:
    """The encoding to read ``path`` in: ``given`` (InputError when Python knows no
    such codec, or it is not a superset of ASCII), else UTF-8 unless the file's start
    is not UTF-8 and reads as words in another encoding (``charset-normalizer``).

    Only the first DETECT_BYTES bytes are read. A file whose start is UTF-8, has a
    byte-order mark, holds any well-formed UTF-8 sequence or a NUL, or whose bytes
    past ASCII stand apart from letters is UTF-8 (a bad byte is then a syntax error
    of its game, as always).
    """
    if given is not None:
        return Encoding(codec(given))
    try:
        with open_bytes(path) as f:
            start = f.read(DETECT_BYTES)
    except OSError:
        return Encoding("utf-8")  # the reader says why it cannot be opened
    if start.startswith(_BOM) or _is_utf8(start, len(start) == DETECT_BYTES):
        return Encoding("utf-8")
    if b"\0" in start or _UTF8_SEQUENCE.search(start) or not _IN_A_WORD.search(start):
        return Encoding("utf-8")
    from charset_normalizer import from_bytes

    found = [codecs.lookup(m.encoding).name for m in from_bytes(start)]
    found = [name for name in found if _ascii_superset(name)]
    if not found:
        return Encoding("utf-8")
    name = _likeliest(start, found)
    if name != "cp1252" and _same_text(start, name, "cp1252"):
        name = "cp1252"  # the two read this start alike: say the usual one (Windows, Western)
    return Encoding(name, detected=name != "utf-8")


#: besides letters, what a name or an Event holds past ASCII in a Windows code page
_TYPOGRAPHY = frozenset("’‘“”–—…«»°·€")


def _likeliest(start: bytes, found: list[str]) -> str:
    """Of the encodings ``charset-normalizer`` finds plausible (best first), the one
    a record was most likely saved in: a Windows code page (cp1252 first: what
    Notepad and Excel write in the West) that reads every byte past ASCII as a
    letter; else the best. On a few names detection alone often picks a rare one."""
    windows = sorted(
        (n for n in found if n.startswith("cp125")), key=lambda n: n != "cp1252"
    )
    for name in (*windows, found[0]):
        if _wordlike(start, name):
            return name
    return "utf-8"  # read as nothing but letters in none: damage, said where it is


def _wordlike(data: bytes, name: str) -> bool:
    """Whether ``data`` in encoding ``name`` holds only letters (and typography) past ASCII."""
    try:
        text = data.decode(name)
    except UnicodeError:
        return False
    return all(c.isalpha() or c in _TYPOGRAPHY for c in text if ord(c) > 0x7F)


def _same_text(data: bytes, one: str, other: str) -> bool:
    try:
        return data.decode(one) == data.decode(other)
    except UnicodeError:
        return False


def _is_utf8(data: bytes, cut: bool) -> bool:
    """Whether ``data`` is UTF-8 (``cut``: it may end in the middle of a character)."""
    try:
        data.decode("utf-8")
    except UnicodeDecodeError as exc:
        return cut and exc.start >= len(data) - 3 and exc.reason == "unexpected end of data"
    return True


def codec(name: str) -> str:
    """The codec ``--encoding name`` reads in (InputError: none, or not a superset of ASCII)."""
    try:
        found = codecs.lookup(name).name
    except (LookupError, ValueError):  # ValueError: a NUL in the name
        raise InputError(f"--encoding: no encoding called {name!r} (try cp1252, latin-1)") from None
    if not _ascii_superset(found):
        raise InputError(
            f"--encoding {name}: records are read line by line in an encoding that keeps "
            "ASCII as it is (UTF-8, cp1252, latin-1...); save the file as UTF-8"
        )
    return "utf-8" if found == "utf-8-sig" else found


#: codecs that keep ASCII but are no file's encoding (names of hosts, escapes)
_NOT_FILES = frozenset({"idna", "punycode", "raw-unicode-escape", "unicode-escape", "undefined"})


def _ascii_superset(name: str) -> bool:
    try:
        if codecs.lookup(name).name in _NOT_FILES:
            return False
        return _ASCII.decode(name) == _ASCII.decode("ascii")
    except (LookupError, ValueError):  # UnicodeError is a ValueError
        return False


class _Recoded:
    """A binary file whose lines, read in ``encoding``, come out as UTF-8. A line that
    is not text in that encoding, or is cut at a limit, comes as it is (the reader
    then reports its bytes, as it does in a UTF-8 file)."""

    def __init__(self, inner: IO[bytes], encoding: str) -> None:
        self._inner = inner
        self._encoding = encoding
        self._passing = False  # in the rest of a line cut at a limit

    def readline(self, limit: int = -1) -> bytes:
        raw = self._inner.readline(limit)
        if self._passing:
            self._passing = bool(raw) and not raw.endswith(b"\n")
            return raw
        if 0 < limit <= len(raw) and not raw.endswith(b"\n"):
            self._passing = True
            return raw
        try:
            return raw.decode(self._encoding).encode("utf-8")
        except UnicodeError:
            return raw

    def close(self) -> None:
        self._inner.close()

    def __enter__(self) -> _Recoded:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()


def recoded(stream: IO[bytes], encoding: Encoding) -> IO[bytes]:
    """``stream`` with its lines read in ``encoding`` and given as UTF-8 (as is: UTF-8)."""
    if encoding.utf8:
        return stream
    return cast(IO[bytes], _Recoded(stream, encoding.name))


def raw_lines(stream: IO[bytes], first: int = 1) -> Iterator[tuple[int, bytes, bool]]:
    """Each line of a binary ``stream``: its number (``first`` for the first: a stream
    may begin inside a file), its bytes (line end kept) and whether it is past
    MAX_LINE bytes. A byte-order mark at the start of line 1 is dropped.

    A line is never held past MAX_LINE + 1 bytes: a longer one comes as its first
    MAX_LINE + 1 bytes, and the rest is skipped in small pieces.
    """
    number = first - 1
    while True:
        raw = stream.readline(MAX_LINE + 1)
        if not raw:
            return
        number += 1
        if number == 1 and raw.startswith(_BOM):
            raw = raw[3:]
        if len(raw) > MAX_LINE and not raw.endswith(b"\n"):
            while True:  # skip the rest of the line without holding it
                chunk = stream.readline(1 << 16)
                if not chunk or chunk.endswith(b"\n"):
                    break
            yield number, raw, True
        else:
            yield number, raw, False


class GameErrors:
    """The syntax errors a reader finds in one game: the first MAX_VIOLATIONS kept,
    the rest counted (then one more says how many, as the validator's own do)."""

    def __init__(self) -> None:
        self.kept: list[Violation] = []
        self.left_out = 0

    def add(self, violation: Violation) -> None:
        if len(self.kept) < MAX_VIOLATIONS:
            self.kept.append(violation)
        else:
            self.left_out += 1

    def take(self, other: GameErrors) -> None:
        """Add ``other``'s errors (and its count of those left out) to these."""
        for violation in other.kept:
            self.add(violation)
        self.left_out += other.left_out

    def empty(self) -> bool:
        return not self.kept and not self.left_out

    def final(self) -> tuple[Violation, ...]:
        """The errors kept, and the count of those left out, as the game carries them."""
        if not self.left_out:
            return tuple(self.kept)
        return (*self.kept, left_out(self.left_out, self.kept[-1].pos))


class Held:
    """The errors of lines after a game's rounds whose game is not known yet: the
    next round line or tag says whether they go on with that game or begin the next."""

    def __init__(self) -> None:
        self.errors = GameErrors()
        self.start: SourcePos | None = None  # where the first held line is
        self.junk = False  # no held line holds a letter or a digit

    def add(self, violation: Violation, junk: bool) -> None:
        self.junk = junk and (self.junk or self.errors.empty())
        if self.start is None:
            self.start = violation.pos
        self.errors.add(violation)

    def any(self) -> bool:
        return not self.errors.empty()

    def release(self) -> GameErrors:
        """The held errors, handed to the game they belong to; nothing is held after."""
        errors = self.errors
        self.errors = GameErrors()
        self.start = None
        self.junk = False
        return errors


_DATE = re.compile(r"(\d{4})[-./](\d{1,2})[-./](\d{1,2})")


def iso_date(text: str | None) -> str | None:
    """A Date tag as ``YYYY-MM-DD`` (``2026.11.20`` and ``2026/11/20`` too), else None."""
    if text is None:
        return None
    m = _DATE.fullmatch(text.strip())
    if m is None:
        return None
    year, month, day = (int(g) for g in m.groups())
    if not (1 <= month <= 12 and 1 <= day <= 31):
        return None
    return f"{year:04d}-{month:02d}-{day:02d}"


def date_option(text: str | None, option: str) -> str | None:
    """The date an option like ``--since`` gives, as ``YYYY-MM-DD`` (None: not given);
    an InputError naming the option when it is not a date."""
    if text is None:
        return None
    value = iso_date(text)
    if value is None:
        raise InputError(f"{option} is a date like 2026-11-20, not {text!r}")
    return value


def date_warnings(game: RecordedGame | BiteRecord) -> list[str]:
    """A warning for each Date tag of ``game`` the reports cannot read: such a game
    is kept, but drops out of streaks, the order of ratings and --since/--until."""
    return [
        f"{tag.pos.file}:{tag.pos.line}:{tag.pos.column}: Date {tag.value!r} is not a date "
        "the reports can read (write YYYY-MM-DD, like 2026-11-26); the game is left out "
        "of streaks and of --since/--until"
        for tag in game.tags
        if tag.name.casefold() == "date" and iso_date(tag.value) is None
    ]


#: A game whose text is longer is given none (its lines are skipped, not held): half a
#: line's worth, more than a game of MAX_ROUNDS rounds needs.
MAX_GAME_TEXT = MAX_LINE // 2


_G = TypeVar("_G", RecordedGame, BiteRecord, RecordedGame | Skipped)


def with_text(
    games: Iterator[_G], path: Path, offset: int = 0, first: int = 1
) -> Iterator[_G]:
    """``games`` with each one's text: its lines of the file, byte for byte, from its
    first line (the file's first, for the first game) to the line before the next
    game's. The file is read a second time, in step, so memory holds one game's text.
    ``offset`` and ``first``: the games are read from that byte of the file on, the
    line there numbered ``first``.
    """
    try:
        f = open_bytes(path)  # closed below, when the games are done
    except OSError:  # the reader has opened it: gone since; the games go without text
        yield from games
        return
    with f:
        f.seek(offset)
        yield from texts_of(games, f, first)


def texts_of(games: Iterator[_G], f: IO[bytes], first: int = 1) -> Iterator[_G]:
    """``with_text`` of the lines of ``f``, its first line numbered ``first``."""
    at = first  # the number of the next line f gives

    def text_to(before: int | None, start: int, keep: bool) -> bytes | None:
        """The lines from ``start`` up to ``before`` (the end of the file: None);
        None without ``keep``."""
        nonlocal at
        kept: list[bytes] = []
        size = 0
        while before is None or at < before:
            raw = f.readline(1 << 16)  # a longer line comes in pieces
            if not raw:
                break
            if at >= start and keep:
                size += len(raw)
                if size <= MAX_GAME_TEXT:
                    kept.append(raw)
                else:  # too long to keep: none of it is held
                    kept.clear()
            if raw.endswith(b"\n"):
                at += 1
        return b"".join(kept) if size <= MAX_GAME_TEXT and keep else None

    def texted(game: _G, before: int | None, start: int) -> _G:
        """``game`` with its text, the lines from ``start`` up to ``before`` (a game
        left unread keeps none)."""
        if isinstance(game, Skipped):
            text_to(before, start, False)
            return game
        return attrs.evolve(game, text=text_to(before, start, True))

    pending: tuple[_G, int] | None = None
    for game in games:
        if pending is not None:
            yield texted(pending[0], game.pos.line, pending[1])
        pending = (game, game.pos.line if pending is not None else first)
    if pending is not None:
        yield texted(pending[0], None, pending[1])
