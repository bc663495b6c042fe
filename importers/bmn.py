"""BMN, the notation of "Come on! Bite me!" games (docs/biteme.md): the reader,
the ``--strengths FILE`` reader, and how a file is known to hold this game.

A file is read line by line (``gbn.file_lines``: bad bytes and long lines are
syntax errors of the game they are in); a syntax error is reported at its file,
line and column and spoils its game only. The rules are the validator's
(``biteme.validate``): this reader only says what each line states.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import IO

from biteme import rules
from biteme.record import BiteRecord, BiteStep, BiteTurn, RecordedTag
from getbit_events.errors import InputError
from getbit_events.events import SourcePos
from getbit_events.limits import MAX_ROUNDS, MAX_TEXT, MAX_VIOLATIONS
from getbit_events.record import Violation
from importers.gbn_lex import Line, file_lines, open_record, text_lines
from importers.reading import DETECT_BYTES, open_bytes

__all__ = [
    "SUFFIX",
    "is_bmn",
    "iter_bmn",
    "iter_bmn_file",
    "iter_bmn_stream",
    "read_bmn",
    "read_strengths",
    "read_strengths_file",
]

#: the file ending of BMN records
SUFFIX = ".bmn"

_TAG = re.compile(r'\[\s*([A-Za-z][A-Za-z0-9_-]*)\s+"((?:[^"\\]|\\.)*)"\s*\]\s*(?:#.*)?$')
_GAME_TAG = re.compile(rb'^\s*\[\s*Game\s+"([^"]*)"', re.IGNORECASE | re.MULTILINE)
_TURN = re.compile(r"(\d{1,6})\.\s*")
# tags whose value lists names (with cards or points): each name is held to MAX_TEXT
_NAME_TAGS = frozenset(("seats", "deal", "winner", "scores"))
_NAME_PARTS = re.compile(r"[\s,=]+")
_WORD = re.compile(r"\S+")
_ACTION_HELP = "'NAME CARD attacks NAME CARD', 'NAME retreats CARD' or 'NAME passes'"
_STEP_HELP = (
    "'NAME claims NAME CARD', 'NAME draws CARD', 'NAME picks NAME CARD', "
    "'NAME takes NAME CARD' or 'NAME looks'"
)


class _Syntax(Exception):
    """A syntax error at ``column`` of the line being read."""

    def __init__(self, column: int, message: str) -> None:
        super().__init__(message)
        self.column = column
        self.message = message


def _words(text: str, offset: int) -> list[tuple[str, int]]:
    """The words of ``text`` with their columns (``offset`` is the column of text[0])."""
    return [(m.group(), offset + m.start()) for m in _WORD.finditer(text)]


def _pieces(text: str, sep: str, offset: int) -> Iterator[tuple[str, int]]:
    """``text`` cut at ``sep``, each piece with the column it starts at."""
    at = 0
    for piece in text.split(sep):
        yield piece, offset + at
        at += len(piece) + 1


def _pairs(text: str, offset: int, what: str) -> list[tuple[str, str, int]]:
    """``NAME CARD, NAME CARD ...``: each pair with its column."""
    found = []
    for piece, col in _pieces(text, ",", offset):
        words = _words(piece, col)
        if len(words) != 2:
            at = words[0][1] if words else col
            raise _Syntax(at, f"expected NAME CARD in {what}, like 'Ann Tiger'")
        found.append((words[0][0], words[1][0], words[0][1]))
    return found


def _action(text: str, offset: int) -> tuple[str, str, str, str, str, tuple[tuple[str, str], ...]]:
    """A turn's action: (who, action, card, defender, defender's card, joined)."""
    words = _words(text, offset)
    verbs = [k for k, (w, _) in enumerate(words) if w.casefold() in ("attacks", "attack")]
    if verbs:
        cut = verbs[0]
        verb_col = words[cut][1]
        left = text[: verb_col - offset]
        right = text[verb_col - offset + len(words[cut][0]) :]
        attackers = _pairs(left, offset, "an attack")
        defender = _words(right, verb_col + len(words[cut][0]))
        if len(defender) != 2:
            raise _Syntax(verb_col, "expected the defender and its card after 'attacks'")
        who, card, _ = attackers[0]
        joined = tuple((n, c) for n, c, _ in attackers[1:])
        return who, "attack", card, defender[0][0], defender[1][0], joined
    if len(words) == 2 and words[1][0].casefold() in ("passes", "pass"):
        return words[0][0], "pass", "", "", "", ()
    if len(words) == 3 and words[1][0].casefold() in ("retreats", "retreat"):
        return words[0][0], "retreat", words[2][0], "", "", ()
    at = words[0][1] if words else offset
    raise _Syntax(at, f"expected {_ACTION_HELP}")


def _steps(text: str, offset: int, source: str, line: int) -> list[BiteStep]:
    """One step of a turn (a claim may name several cards: one step each)."""
    words = _words(text, offset)
    if len(words) < 2:
        raise _Syntax(words[0][1] if words else offset, f"expected {_STEP_HELP}")
    who, verb = words[0][0], words[1][0].casefold()
    pos = SourcePos(source, line, words[0][1])
    rest = text[words[1][1] - offset + len(words[1][0]) :]
    rest_at = words[1][1] + len(words[1][0])
    if verb in ("claims", "claim"):
        # the first card claimed is reported at the step, any other at its own place
        return [
            BiteStep("claims", who, owner, card, SourcePos(source, line, col) if k else pos)
            for k, (owner, card, col) in enumerate(_pairs(rest, rest_at, "a claim"))
        ]
    if verb in ("picks", "takes", "pick", "take") and len(words) == 4:
        kind = "picks" if verb.startswith("pick") else "takes"
        return [BiteStep(kind, who, words[2][0], words[3][0], pos)]
    if verb in ("draws", "draw") and len(words) == 3:
        return [BiteStep("draws", who, "", words[2][0], pos)]
    if verb in ("looks", "look") and len(words) == 2:
        return [BiteStep("looks", who, "", "", pos)]
    raise _Syntax(words[0][1], f"expected {_STEP_HELP}")


def _uncomment(body: str) -> str:
    """``body`` without its ``#`` comment (a ``#`` in a tag's quotes is kept)."""
    at = body.find("#")
    return body if at < 0 else body[:at]


class _Reader:
    """Lines in, games out: tags, then one turn a line."""

    def __init__(self, source: str) -> None:
        self.source = source
        self.index = 0
        self._reset(None)

    def _reset(self, start: SourcePos | None) -> None:
        self.start = start
        self.tags: list[RecordedTag] = []
        self.turns: list[BiteTurn] = []
        self.errors: list[Violation] = []
        self.in_turns = False

    def _game(self) -> BiteRecord:
        self.index += 1
        errors = self.errors
        if len(errors) > MAX_VIOLATIONS:
            errors = errors[:MAX_VIOLATIONS]
        assert self.start is not None
        return BiteRecord(
            self.source, self.index, self.start, tuple(self.tags), tuple(self.turns),
            tuple(errors),
        )

    def _error(self, line: int, column: int, message: str) -> None:
        self.errors.append(Violation("syntax", message, SourcePos(self.source, line, column)))

    def games(self, lines: Iterable[Line]) -> Iterator[BiteRecord]:
        for number, text, bad in lines:
            stripped = text.strip()
            if not stripped or stripped.startswith("#"):
                continue
            is_tag = stripped.startswith("[")
            if self.start is None or (is_tag and self.in_turns):
                if self.start is not None:
                    yield self._game()
                self._reset(SourcePos(self.source, number, 1))
            if bad is not None:
                self._error(number, bad[0], bad[1])
                self.in_turns = self.in_turns or not is_tag
                continue
            indent = len(text) - len(text.lstrip())
            if is_tag:
                self._tag(stripped, number, indent + 1)
            else:
                self.in_turns = True  # a tag after this line begins the next game
                self._turn(_uncomment(text), number)
        if self.start is not None:
            yield self._game()

    def _tag(self, body: str, line: int, column: int) -> None:
        m = _TAG.match(body)
        if m is None:
            self._error(line, column, 'expected a tag: [Name "value"]')
            return
        value = re.sub(r"\\(.)", r"\1", m.group(2))
        # the limit every format shares (getbit_events.limits): a name, or another tag's value
        names = m.group(1).casefold() in _NAME_TAGS
        longest = max(map(len, _NAME_PARTS.split(value))) if names else len(value)
        longest = max(longest, len(m.group(1)))
        if longest > MAX_TEXT:
            what = "a name" if names else "the value"
            self._error(
                line, column + m.start(2),
                f"{what} of {longest} characters in the tag {m.group(1)}; at most {MAX_TEXT}",
            )
            return
        self.tags.append(RecordedTag(m.group(1), value, SourcePos(self.source, line, column)))

    def _turn(self, text: str, line: int) -> None:
        start = len(text) - len(text.lstrip())
        m = _TURN.match(text, start)
        if m is None:
            self._error(line, start + 1, "expected a tag or a turn: 'N. ...'")
            return
        if len(self.turns) >= MAX_ROUNDS:
            self._error(line, 1, f"more than {MAX_ROUNDS} turns in one game")
            return
        parts = list(_pieces(text[m.end() :], ";", m.end() + 1))
        try:
            who, action, card, defender, defender_card, joined = _action(*parts[0])
            steps = [
                s for piece, col in parts[1:] for s in _steps(piece, col, self.source, line)
            ]
        except _Syntax as exc:
            self._error(line, exc.column, exc.message)
            return
        self.turns.append(
            BiteTurn(
                int(m.group(1)), SourcePos(self.source, line, start + 1), who, action, card,
                defender, defender_card, joined, tuple(steps),
            )
        )


def iter_bmn(text: str, source: str = "<text>") -> Iterator[BiteRecord]:
    """The games of BMN ``text``, one at a time."""
    return _Reader(source).games(text_lines(text))


def read_bmn(text: str, source: str = "<text>") -> list[BiteRecord]:
    """Every game of BMN ``text``."""
    return list(iter_bmn(text, source))


def iter_bmn_file(path: str | Path, source: str | None = None) -> Iterator[BiteRecord]:
    """The games of a BMN file, read line by line (InputError when it cannot be opened)."""
    stream, name = open_record(path, source)
    return iter_bmn_stream(stream, name)


def iter_bmn_stream(stream: IO[bytes], source: str) -> Iterator[BiteRecord]:
    """The games of a binary stream of BMN (UTF-8: ``reading.recoded`` gives any
    other encoding as UTF-8), read line by line; the stream is closed after."""
    with stream:
        yield from _Reader(source).games(file_lines(stream))


def is_bmn(path: str | Path) -> bool:
    """Whether ``path`` holds games of "Come on! Bite me!": its ending is ``.bmn``, or
    a Game tag near its start names the game (False when it cannot be read)."""
    path = Path(path)
    if path.suffix.lower() == SUFFIX:
        return True
    try:
        with open_bytes(path) as f:
            start = f.read(DETECT_BYTES)
    except OSError:
        return False
    m = _GAME_TAG.search(start)
    return m is not None and m.group(1).decode("utf-8", "replace").strip().casefold() == (
        rules.GAME_NAME.casefold()
    )


def read_strengths(text: str, source: str = "<strengths>") -> dict[str, int]:
    """Strengths from a small text file (B3): ``CARD = NUMBER`` (or ``CARD=NUMBER``),
    any number a line, separated by spaces or commas, ``#`` comments; a TOML file of
    ``Tiger = 8`` lines is one. InputError, with file:line:col, for anything else."""
    found: dict[str, int] = {}
    for number, raw, _ in text_lines(text):
        body = _uncomment(raw)
        squeezed = re.sub(r"\s*=\s*", "=", body)
        shift = _columns(body, squeezed)
        for m in re.finditer(r"[^\s,]+", squeezed):
            where = f"{source}:{number}:{shift[m.start()] + 1}"
            name, eq, value = m.group().partition("=")
            card = rules.card_name(name.strip("\"'"))
            if not eq or not re.fullmatch(r"[+-]?\d{1,6}", value):
                raise InputError(f"{where}: {m.group()!r}: write each as CARD = NUMBER")
            if card is None or card == rules.BACTERIA:
                raise InputError(f"{where}: {name!r} is no card with a strength (B3)")
            if card in rules.FIXED and int(value) != rules.FIXED[card]:
                raise InputError(
                    f"{where}: {card} = {value}, but the leaflet gives {rules.FIXED[card]} (B3)"
                )
            found[card] = int(value)
    return found


def _columns(body: str, squeezed: str) -> list[int]:
    """For each character of ``squeezed`` (``body`` with spaces around ``=`` taken
    out), its index in ``body``."""
    out: list[int] = []
    k = 0
    for ch in squeezed:
        while body[k] != ch:
            k += 1
        out.append(k)
        k += 1
    out.append(k)
    return out


def read_strengths_file(path: str | Path) -> dict[str, int]:
    """``read_strengths`` of a file (InputError when it cannot be read)."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        why = exc.strerror if isinstance(exc, OSError) else "not UTF-8 text"
        raise InputError(f"{path}: cannot read the strengths: {why}") from None
    return read_strengths(text, str(path))
