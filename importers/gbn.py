"""GBN, the Get Bit! Notation (``GBN.md``): reading records and writing them back.

The reader is forgiving in layout and strict in meaning: it checks only the
format, keeps names as written, and leaves the rules to the validator. A syntax
error spoils only the game it is in; every other game of the file is read.

A round line written just as ``write_gbn`` writes it (most lines of a long
record) is recognised by one pattern and kept whole: its cards as pairs, the
rest read only when asked, and its outcomes compared with the rules' own in
the same notation (``outcome_text``). Every other line takes the careful path,
which says what is wrong and where.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path
from typing import Any

import attrs

from getbit_events.errors import InputError
from getbit_events.events import (
    CardsDiscarded,
    CardsRevealed,
    CardsTakenBack,
    Event,
    GameStarted,
    HungerLost,
    SharkCardPlayed,
    SourcePos,
    SwimmerBitten,
    SwimmerDevoured,
)
from getbit_events.record import (
    RecordedGame,
    RecordedOutcome,
    RecordedPlay,
    RecordedRound,
    RecordedTag,
    Violation,
)
from getbit_events.reducer import apply
from getbit_events.rules import LIMBS, SHARK_CARDS
from getbit_events.state import GameState

__all__ = [
    "decode",
    "iter_gbn",
    "outcome_text",
    "read_gbn",
    "read_gbn_file",
    "read_text",
    "write_gbn",
]

_TAG = re.compile(r'\[\s*([A-Za-z][A-Za-z0-9_-]*)\s+"((?:[^"\\]|\\.)*)"\s*\]\s*(?:#.*)?$')
_ESCAPE = re.compile(r'\\(["\\])')  # in a tag's value: \" is a quote, \\ a backslash
_TAG_NAME = re.compile(r"[A-Za-z][A-Za-z0-9_-]*")
# A round line: its number (any number of digits: a wrong one is a rule error, R17), then
# a dot
_ROUND = re.compile(r"(\d+)\s*\.")
_LONGEST_NUMBER = 4000  # digits; Python reads no longer decimal numbers by default
_SHARK = frozenset(SHARK_CARDS)
_LIMBS = frozenset(LIMBS)
_OUTCOMES = "bit, out, miss, hunger, discard, refresh or line"
# Outcomes written as write_gbn writes them (lower case, single spaces, names without
# spaces): a round's text of this shape holds no syntax error, so it is kept whole and
# read only if the validator asks (it compares the text with the rules' own first).
# (Possessive repeats, ``++`` and ``*+``: what each repeats cannot run into what
# follows it, so they match just what plain ones would, without trying to back off.)
_NAME = r"[^\s,;]++"
_NUMBER = r"[0-9]{1,9}+"
_ONE_OUTCOME = (
    rf"(?:line {_NAME}(?:, {_NAME})*+|bit {_NAME} (?:{'|'.join(LIMBS)})|"
    rf"refresh {_NAME}(?:, {_NAME})*+|out {_NAME}|miss|hunger {_NUMBER}|"
    rf"discard {_NAME} {_NUMBER}(?:, {_NAME} {_NUMBER})*+)"
)
# Plays of that shape: " NAME CARD, NAME CARD", each card a number, "-" or a Shark card
_CARD = rf"(?:{_NUMBER}|-|{'|'.join(SHARK_CARDS)})"
# A whole round line of that shape: the number, the plays, and the outcomes if any
_PLAIN_ROUND = re.compile(
    rf"({_NUMBER})\.( {_NAME} {_CARD}(?:, {_NAME} {_CARD})*+ ?)"
    rf"(?:;( {_ONE_OUTCOME}(?: ; {_ONE_OUTCOME})*+))?"
)


def _is_number(text: str) -> bool:
    """A plain decimal number of sensible length (so int() never fails on it)."""
    return text.isascii() and text.isdigit() and len(text) < 10


def decode(data: bytes, source: str) -> str:
    """UTF-8 text with any byte-order mark dropped; a clear error naming the line otherwise."""
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        column = exc.start - (data.rfind(b"\n", 0, exc.start) + 1) + 1
        raise InputError(
            f"{source}:{line}:{column}: not UTF-8 text (byte 0x{data[exc.start]:02x})"
        ) from None
    nul = text.find("\0")
    if nul >= 0:
        line = text.count("\n", 0, nul) + 1
        column = nul - (text.rfind("\n", 0, nul) + 1) + 1
        raise InputError(f"{source}:{line}:{column}: a NUL byte; this is not a text file")
    return text


def read_text(path: str | Path, source: str | None = None) -> tuple[str, str]:
    """A record file's text and the name errors give it (InputError if it is not text)."""
    path = Path(path)
    name = source if source is not None else str(path)
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise InputError(f"{name}: cannot read: {exc.strerror or exc}") from None
    return decode(data, name), name


def read_gbn_file(path: str | Path, source: str | None = None) -> list[RecordedGame]:
    """Read every game of a GBN file (raises InputError when it is not readable text)."""
    return read_gbn(*read_text(path, source))


def read_gbn(text: str, source: str = "<text>") -> list[RecordedGame]:
    """Every game in ``text``, in order; games with syntax errors carry them."""
    return list(iter_gbn(text, source))


def iter_gbn(text: str, source: str = "<text>") -> Iterator[RecordedGame]:
    """The games of ``text`` one at a time, each as soon as it is read."""
    return _Reader(source).games(text)


def _after_space(text: str, at: int) -> int:
    """Where the first character at or after ``at`` that is not a space is."""
    return len(text) - len(text[at:].lstrip())


def _items(text: str, sep: str, offset: int) -> Iterator[tuple[str, int]]:
    """Each ``sep``-separated item of ``text``, stripped, with the column it starts at
    (``offset`` is how many characters of the line come before ``text``)."""
    for item in text.split(sep):
        yield item.strip(), offset + _after_space(item, 0) + 1
        offset += len(item) + 1


_new = tuple.__new__


def _plain_plays(text: str, line: int, offset: int) -> tuple[RecordedPlay, ...]:
    """The plays of a text of the plain shape (``_PLAIN_ROUND``), each with its column;
    ``offset`` is how many characters of the line come before ``text``."""
    plays = []
    column = offset + 2  # each play follows one space
    for item in text.split(","):
        name, card = item.split()
        plays.append(_new(RecordedPlay, (name, card, line, column)))  # a RecordedPlay, made fast
        column += len(item) + 1
    return tuple(plays)


def _tag_fault(body: str) -> tuple[int, str]:
    """Where a tag line that is not ``[Name "value"]`` goes wrong (its offset in ``body``,
    which starts with ``[``), and what was expected there."""
    at = _after_space(body, 1)
    name = _TAG_NAME.match(body, at)
    if name is None:
        return at, "expected a tag name (a letter, then letters, digits, _ or -) after '['"
    at = name.end()
    if body[at : at + 1] == '"':
        return at, "expected a space between the tag name and its value"
    value = _after_space(body, at)
    if body[value : value + 1] != '"':
        return value, 'expected the tag\'s value in double quotes: [Name "value"]'
    at = value + 1
    while at < len(body) and body[at] != '"':
        at += 2 if body[at] == "\\" else 1
    if at >= len(body):
        return len(body.rstrip()), 'the value has no closing quote (a quote inside it is \\")'
    at = _after_space(body, at + 1)
    if body[at : at + 1] != "]":
        return at, "expected ']' after the tag's value"
    at = _after_space(body, at + 1)
    return at, f"expected the end of the line after the tag, not {body[at:]!r}"


class _PlainRound:
    """A round line written as write_gbn writes it (``_PLAIN_ROUND``),
    kept to read its position, plays and outcomes when asked: it holds no syntax error."""

    __slots__ = (
        "indent",
        "index",
        "line",
        "offset",
        "outcome_text",
        "play_text",
        "reader",
        "written",
    )

    def __init__(
        self,
        reader: _Reader,
        line: int,
        indent: int,
        play_text: str,
        offset: int,
        outcome_text: str | None,
        index: int,
    ) -> None:
        self.reader = reader
        self.line = line
        self.indent = indent
        self.play_text = play_text
        self.offset = offset  # how many characters of the line come before play_text
        self.outcome_text = outcome_text
        self.written = outcome_text[1:] if outcome_text else None  # after the "; "
        self.index = index

    def pos(self) -> SourcePos:
        return SourcePos(self.reader.source, self.line, self.indent + 1)

    def plays(self) -> tuple[RecordedPlay, ...]:
        return _plain_plays(self.play_text, self.line, self.offset)

    def outcomes(self) -> tuple[RecordedOutcome, ...]:
        if not self.outcome_text:
            return ()
        column = self.offset + len(self.play_text) + 2
        stated = self.reader._outcomes(self.outcome_text, self.line, column, self.index)
        assert stated is not None, f"plain outcomes read with an error: {self.outcome_text!r}"
        return stated

    def bite(self) -> tuple[str, str] | None:
        """``bit NAME LIMB`` (at most one in this shape), found without reading the rest."""
        written = self.written
        if written is None:
            return None
        if written.startswith("bit "):
            start = 4
        else:
            start = written.find(" ; bit ") + 7
            if start < 7:
                return None
        end = written.find(" ;", start)
        name, _, limb = written[start : end if end >= 0 else None].rpartition(" ")
        return name, limb

    def states(self, steps: Sequence[tuple[Any, ...]], line: Sequence[str]) -> bool:
        return self.written is not None and self.written == outcome_text(steps, line)


class _Reader:
    def __init__(self, source: str) -> None:
        self.source = source
        self.index = 0
        self._reset(None)

    def _reset(self, start: SourcePos | None) -> None:
        self.start = start
        self.tags: list[RecordedTag] = []
        self.rounds: list[RecordedRound] = []
        self.errors: list[Violation] = []

    def _game(self) -> RecordedGame:
        assert self.start is not None
        self.index += 1
        return RecordedGame(
            self.source,
            self.index,
            self.start,
            tuple(self.tags),
            tuple(self.rounds),
            tuple(self.errors),
        )

    def games(self, text: str) -> Iterator[RecordedGame]:
        if text.startswith("\ufeff"):
            text = text[1:]
        for number, raw in enumerate(text.split("\n"), 1):
            line = raw[:-1] if raw.endswith("\r") else raw
            body = line.lstrip()
            if not body or body.startswith("#"):
                continue
            indent = len(line) - len(body)
            if body.startswith("["):
                if self.rounds:  # a tag after a round line starts the next game
                    yield self._game()
                    self._reset(None)
                pos = SourcePos(self.source, number, indent + 1)
                if self.start is None:
                    self.start = pos
                self._tag(body, pos)
                continue
            if "#" in body:
                body = body.split("#", 1)[0]
            body = body.rstrip()
            if self.start is None:
                self.start = SourcePos(self.source, number, indent + 1)
            self._round(body, number, indent)
        if self.start is not None:
            yield self._game()

    def _error(self, message: str, line: int, column: int, rnd: int | None) -> None:
        self.errors.append(
            Violation("syntax", message, SourcePos(self.source, line, column), rnd)
        )

    def _tag(self, body: str, pos: SourcePos) -> None:
        m = _TAG.match(body)
        if m is None:
            at, expected = _tag_fault(body)
            self._error(expected, pos.line, pos.column + at, None)
            return
        value = m.group(2)
        if "\\" in value:  # the two escapes; any other backslash is kept as written
            value = _ESCAPE.sub(r"\1", value)
        self.tags.append(RecordedTag(m.group(1), value, pos))

    def _round(self, body: str, number: int, indent: int) -> None:
        index = len(self.rounds) + 1
        plain = _PLAIN_ROUND.fullmatch(body)
        if plain is not None:  # as write_gbn writes it: the pairs now, the rest when asked
            play_text, outcome_text = plain.group(2, 3)
            offset = indent + plain.start(2)
            words = iter(play_text.replace(",", " ").split())  # NAME CARD NAME CARD ...
            self.rounds.append(
                RecordedRound(
                    index,
                    int(plain.group(1)),
                    None,
                    cards=tuple(zip(words, words, strict=False)),  # pairs: the pattern matched
                    text=_PlainRound(self, number, indent, play_text, offset, outcome_text, index),
                )
            )
            return
        m = _ROUND.match(body)
        if m is None:
            self._error(
                'expected a tag [Name "value"] or a round "N. NAME CARD, ..."',
                number,
                indent + 1,
                None,
            )
            return
        pos = SourcePos(self.source, number, indent + 1)
        if len(m.group(1)) > _LONGEST_NUMBER:  # still a round line, among the game's rounds
            self._error(f"a round number of {len(m.group(1))} digits", number, indent + 1, index)
            self.rounds.append(RecordedRound(index, 0, pos))
            return
        offset = indent + m.end()
        rest = body[m.end() :]
        play_text, _, outcome_text = rest.partition(";")
        stating = bool(outcome_text) or rest.endswith(";")
        # anything odd: the careful path says what is wrong and where
        ok = True
        careful: list[RecordedPlay] = []
        for text, column in _items(play_text, ",", offset):
            play = self._play(text, number, column, index)
            ok = ok and play is not None
            if play is not None:
                careful.append(play)
        stated: tuple[RecordedOutcome, ...] | None = ()
        if stating:
            stated = self._outcomes(outcome_text, number, offset + len(play_text) + 2, index)
        if ok and stated is not None:
            self.rounds.append(RecordedRound(index, int(m.group(1)), pos, tuple(careful), stated))
        else:  # keep the count of round lines right for later errors
            self.rounds.append(RecordedRound(index, int(m.group(1)), pos, ()))

    def _outcomes(
        self, text: str, line: int, column: int, rnd: int
    ) -> tuple[RecordedOutcome, ...] | None:
        """The ``;``-separated outcomes of ``text`` (None after flagging any that is wrong);
        ``column`` is where ``text`` starts on the line."""
        outcomes: list[RecordedOutcome] = []
        ok = True
        for item in text.split(";"):
            at = column + _after_space(item, 0)
            outcome = self._outcome(item.strip(), line, at, rnd)
            column += len(item) + 1
            if outcome is None:
                ok = False
            else:
                outcomes.append(outcome)
        return tuple(outcomes) if ok else None

    def _play(self, text: str, line: int, column: int, rnd: int) -> RecordedPlay | None:
        parts = text.rsplit(None, 1)
        name, card = (parts[0].strip(), parts[1]) if len(parts) == 2 else ("", text)
        if not name or not card:
            what = "a play" if text else "a play after the round number"
            self._error(
                f"expected {what}: NAME CARD, e.g. 'Anne 3', 'Anne -' or 'Jaws any-limb',"
                f" not {text!r}",
                line,
                column,
                rnd,
            )
            return None
        folded = card.casefold()
        if not (_is_number(card) or card == "-" or folded in _SHARK):
            self._error(
                f"expected a card after {name}: 1 to 7, '-' or a Shark card "
                f"({', '.join(SHARK_CARDS)}), not {card!r}",
                line,
                column + len(text) - len(card),
                rnd,
            )
            return None
        return RecordedPlay(name, folded if folded in _SHARK else card, line, column)

    def _outcome(self, text: str, line: int, column: int, rnd: int) -> RecordedOutcome | None:
        keyword, _, rest = text.partition(" ")
        keyword = keyword.casefold()
        rest = rest.strip()
        if keyword == "line" and rest:
            names = tuple(map(str.strip, rest.split(",")))
            if all(names):
                return _new(RecordedOutcome, ("line", line, column, names, None, None, ()))
        elif keyword == "bit" and rest:
            name, _, limb = rest.rpartition(" ")
            if name.strip() and limb.casefold() in _LIMBS:
                limb = limb.casefold()
                return _new(RecordedOutcome, ("bit", line, column, (name.strip(),), limb, None, ()))
            return RecordedOutcome("bit", line, column, (rest,))
        elif keyword == "refresh" and rest:
            names = tuple(map(str.strip, rest.split(",")))
            if all(names):
                return _new(RecordedOutcome, ("refresh", line, column, names, None, None, ()))
        elif keyword == "out" and rest:
            return RecordedOutcome("out", line, column, (rest,))
        elif keyword == "miss" and not rest:
            return RecordedOutcome("miss", line, column)
        elif keyword == "hunger" and _is_number(rest):
            return RecordedOutcome("hunger", line, column, number=int(rest))
        elif keyword == "discard" and rest:
            cards = []
            for item in rest.split(","):
                name, _, value = item.strip().rpartition(" ")
                if not name.strip() or not _is_number(value):
                    break
                cards.append((name.strip(), value))
            else:
                return RecordedOutcome("discard", line, column, cards=tuple(cards))
        if keyword in ("bit", "out", "miss", "hunger", "discard", "refresh", "line"):
            forms = {
                "bit": "bit NAME [LIMB]",
                "out": "out NAME",
                "miss": "miss",
                "hunger": "hunger K",
                "discard": "discard NAME VALUE, ...",
                "refresh": "refresh NAME, ...",
                "line": "line NAME, NAME, ...",
            }
            message = f"expected '{forms[keyword]}', not {text!r}"
        else:
            message = f"expected an outcome ({_OUTCOMES}), not {text!r}"
        self._error(message, line, column, rnd)
        return None


# -- writing -------------------------------------------------------------------


def outcome_text(steps: Iterable[tuple[Any, ...]], line: Sequence[str]) -> str:
    """The outcomes after a round's moves, as GBN states them in full (GBN.md).

    ``steps`` are the round's facts after the card moves, each its event class
    and then the event's fields after ``round`` (``board.Step``); ``line`` is the
    line after the round. E.g. ``bit Ted left-arm ; refresh Anne ; line Ted, Anne``:
    bites, devoured swimmers, misses and Exhaustion discards in the order they
    happened, then who took cards back without a bite (R7), then the line.
    ``write_gbn`` writes a round's outcomes so, and the validator checks a round
    read in this form by comparing it with the text of the rules' own outcome.
    """
    said: list[str] = []
    bitten: list[str] = []
    refresh: list[str] = []
    for step in steps:
        kind = step[0]
        if kind is SwimmerBitten:
            bitten.append(step[1])
            said.append(f"bit {step[1]} {step[2]}")
        elif kind is CardsTakenBack:
            if step[1] not in bitten:
                refresh.append(step[1])
        elif kind is SwimmerDevoured:
            said.append(f"out {step[1]}")
        elif kind is HungerLost:
            said.append("miss")
            said.append(f"hunger {step[1]}")
        elif kind is CardsDiscarded:
            said.append("discard " + ", ".join([f"{n} {v}" for n, v in step[1]]))
    if refresh:
        said.append("refresh " + ", ".join(refresh))
    said.append("line " + ", ".join(line))
    return " ; ".join(said)


def _quote(value: str) -> str:
    return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'


def write_gbn(games: Iterable[Iterable[Event]], outcomes: bool = True) -> str:
    """Canonical GBN for complete event streams, one game after another.

    With ``outcomes`` every outcome is stated (limbs, take-backs, the line),
    so the record checks itself; without, only the cards are written.
    """
    return "\n".join(_write_game(list(events), outcomes) for events in games)


def _write_game(events: list[Event], outcomes: bool) -> str:
    setup = events[0]
    if not isinstance(setup, GameStarted):
        raise ValueError("a game's events start with game-started")
    out = [f"[{k} {_quote(v)}]" for k, v in setup.tags]
    out.append(f"[Line {_quote(', '.join(setup.line))}]")
    if setup.variant != "standard":
        out.append(f"[Variant {_quote(setup.variant)}]")
    if setup.memory:
        out.append('[Memory "on"]')
    if setup.automaton:
        out.append(f"[Automaton {_quote(setup.automaton)}]")
    if setup.teams:
        teams = "; ".join(f"{p}: {', '.join(t)}" for p, t in setup.teams)
        out.append(f"[Teams {_quote(teams)}]")
    if setup.shark:
        out.append(f"[Shark {_quote(setup.shark)}]")
    winner_at = len(out)
    out.append("")
    state = apply(None, setup)
    rnd: list[Event] = []
    for event in events[1:]:
        if rnd and event.round != rnd[0].round:
            out.append(_write_round(rnd, state, outcomes))
            rnd = []
        state = apply(state, event)
        rnd.append(event)
    if rnd:
        out.append(_write_round(rnd, state, outcomes))
    if state.winner is not None:
        out.insert(winner_at, f"[Winner {_quote(state.winner)}]")
    return "\n".join(out) + "\n"


def _write_round(events: list[Event], state: GameState, outcomes: bool) -> str:
    r = events[0].round
    plays: list[str] = []
    for e in events:
        if isinstance(e, CardsRevealed):
            plays.extend(f"{n} {'-' if v is None else v}" for n, v in e.cards)
        elif isinstance(e, SharkCardPlayed):
            plays.append(f"{e.shark} {e.card}")
    text = f"{r}. " + ", ".join(plays)
    if outcomes:
        # each event as a step: its class, then its fields between round and pos
        steps = [(type(e), *attrs.astuple(e, recurse=False)[1:-1]) for e in events]
        text += " ; " + outcome_text(steps, state.line)
    return text
