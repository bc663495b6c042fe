"""GBN, the Get Bit! Notation (docs/gbn.md): reading records (``gbn_write`` writes them).

A file's lines and its tag lines are read in ``gbn_lex``; here they become games:
where each game begins, and its round lines read.

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
from typing import IO, Any, cast

from getbit_events.events import SourcePos
from getbit_events.limits import MAX_LINE, MAX_ROUNDS, MAX_TEXT
from getbit_events.record import (
    RecordedGame,
    RecordedOutcome,
    RecordedPlay,
    RecordedRound,
    RecordedTag,
    Violation,
)
from getbit_events.rules import LIMBS, SHARK_CARDS
from importers.gbn_lex import (
    Line,
    after_space,
    file_lines,
    holds_tag,
    is_number,
    once_name,
    open_record,
    read_tag,
    short,
    text_lines,
)
from importers.gbn_write import game_gbn, outcome_text, write_gbn
from importers.reading import GameErrors, Held
from importers.skipping import Skip, Skipped

__all__ = [
    "cut_before",
    "game_gbn",
    "iter_gbn",
    "iter_gbn_file",
    "iter_gbn_stream",
    "outcome_text",
    "read_gbn",
    "read_gbn_file",
    "write_gbn",
]

_ALNUM = re.compile(r"[A-Za-z0-9]")  # a held line with none of these is junk
# A round line: its number (any number of digits: a wrong one is a rule error, R17), then
# a dot
_ROUND = re.compile(r"([0-9]+)\s*\.")  # ASCII digits only: int() reads others otherwise
_LONGEST_NUMBER = 4000  # digits; Python reads no longer decimal numbers by default
_SHARK = frozenset(SHARK_CARDS)
_LIMBS = frozenset(LIMBS)
_OUTCOMES = "bit, out, miss, hunger, discard, refresh or line"
# Outcomes written as write_gbn writes them (lower case, single spaces, names without
# spaces): a round's text of this shape holds no syntax error, so it is kept whole and
# read only if the validator asks (it compares the text with the rules' own first).
# (Possessive repeats, ``++`` and ``*+``: what each repeats cannot run into what
# follows it, so they match just what plain ones would, without trying to back off.)
_NAME = rf"[^\s,;]{{1,{MAX_TEXT}}}+"  # a longer name takes the careful path, which refuses it
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


def _long_name(name: str) -> str:
    return f"a name of {len(name)} characters ({short(name)}); at most {MAX_TEXT}"


def iter_gbn_file(
    path: str | Path, source: str | None = None, skip: Skip = None
) -> Iterator[RecordedGame | Skipped]:
    """The games of a GBN file one at a time, read line by line: memory holds one game
    (InputError at once when the file cannot be opened). A game ``skip`` names is
    found, not read: a ``Skipped`` in its place (``importers.skipping``)."""
    stream, name = open_record(path, source)
    return _file_games(stream, name, skip)


def iter_gbn_stream(
    stream: IO[bytes], source: str, skip: Skip = None, first: int = 1, cut: bool = False
) -> Iterator[RecordedGame | Skipped]:
    """The games of a binary stream of GBN, read line by line; the stream is closed
    after (``skip``: ``iter_gbn_file``'s). ``first``: the number of its first line (a
    piece of a file, ``importers.pieces``); ``cut``: its last line begins a game
    whatever came before it (``cut_before``), the next piece's first: it ends the game
    before it, as in the whole file, and its own game is left to that piece."""
    return _file_games(stream, source, skip, first, cut)


def _file_games(
    stream: IO[bytes], source: str, skip: Skip, first: int = 1, cut: bool = False
) -> Iterator[RecordedGame | Skipped]:
    with stream:
        yield from _Reader(source, skip=skip).games(file_lines(stream, first), cut)


#: the most lines looked back past, blank or comments, for the round line before a tag
_LOOK_BACK = 16


def cut_before(before: bytes, line: bytes) -> bool:
    """Whether a GBN record can be cut before ``line`` and the two parts read apart:
    ``line`` is a tag line (``[`` its first byte) and the last line of ``before`` that
    is not blank or a comment is a round line, whole and well formed. The tag begins a
    game then whatever came before (``_Reader.games``: a tag after round lines ends the
    game, and a round line leaves no line held), and the reader is as it is at the
    start of a file. ``before``: the lines before it (from some line's start)."""
    if line[:1] != b"[" or len(line) > MAX_LINE:
        return False
    lines = before.split(b"\n")
    if not lines or lines[-1]:
        return False  # ``line`` does not begin a line
    for raw in reversed(lines[-_LOOK_BACK - 1 : -1]):
        if len(raw) >= MAX_LINE:
            return False
        try:
            text = (raw[:-1] if raw.endswith(b"\r") else raw).decode("utf-8")
        except UnicodeDecodeError:
            return False
        body = text.lstrip()
        if not body:
            continue  # blank
        if "\0" in body:
            return False
        if body[0] == "#":
            continue  # a comment
        if body[0] == "[":
            return False
        return _ROUND.match(body.split("#", 1)[0].rstrip()) is not None
    return False


def read_gbn_file(path: str | Path, source: str | None = None) -> list[RecordedGame]:
    """Every game of a GBN file (InputError when it cannot be opened)."""
    return list(cast(Iterator[RecordedGame], iter_gbn_file(path, source)))  # none skipped


def read_gbn(text: str, source: str = "<text>", *, fast: bool = True) -> list[RecordedGame]:
    """Every game in ``text``, in order; games with syntax errors carry them.

    ``fast=False`` reads every round line the careful way, even one of
    ``write_gbn``'s shape (the tests hold both ways to the same games).
    """
    return list(iter_gbn(text, source, fast=fast))


def iter_gbn(text: str, source: str = "<text>", *, fast: bool = True) -> Iterator[RecordedGame]:
    """The games of ``text`` one at a time, each as soon as it is read (``fast``: read_gbn)."""
    # no game skipped: only RecordedGame
    return cast(Iterator[RecordedGame], _Reader(source, fast).games(text_lines(text)))


def _items(text: str, sep: str, offset: int) -> Iterator[tuple[str, int]]:
    """Each ``sep``-separated item of ``text``, stripped, with the column it starts at
    (``offset`` is how many characters of the line come before ``text``)."""
    for item in text.split(sep):
        yield item.strip(), offset + after_space(item, 0) + 1
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
    """The games of a record's lines, read one line at a time.

    Where a game begins (``docs/gbn.md``, how a damaged file is read): a tag line
    after round lines; after a blank line, a round line numbered 1; and a line
    that is neither tag nor round after a blank line (a damaged tag, a stray line)
    when the next round line does not go on with the game's rounds. Such a line
    is held (its error only) until that round line or tag says which game it is in.
    """

    def __init__(self, source: str, fast: bool = True, skip: Skip = None) -> None:
        self.source = source
        self.fast = fast  # a line of write_gbn's shape taken whole (_PLAIN_ROUND)
        self.skip = skip
        self.index = 0
        self.held = Held()  # lines after a game's rounds whose game is not known yet
        self._reset(None)

    def _reset(self, start: SourcePos | None) -> None:
        self.start = start
        self.tags: list[RecordedTag] = []
        self.rounds: list[RecordedRound] = []
        self.errors = GameErrors()
        self.round_lines = 0  # round lines read, those past MAX_ROUNDS too
        self.last = 0  # the number the last round line gives (0: none readable)
        # a game to skip: its lines are told apart (where it ends depends on them), its
        # rounds not read; its tags are, as a tag given twice begins another game
        self.lazy = self.skip is not None and self.skip(self.index + 1)

    def _game(self) -> RecordedGame | Skipped:
        assert self.start is not None
        self.index += 1
        if self.lazy:
            return Skipped(self.source, self.index, self.start)
        return RecordedGame(
            self.source,
            self.index,
            self.start,
            tuple(self.tags),
            tuple(self.rounds),
            self.errors.final(),
        )

    def _next_games(self, line: int, indent: int) -> list[RecordedGame | Skipped]:
        """The game read so far; a new one begins at ``line``. Held lines begin it too,
        or, when none holds a letter or a digit (a damaged blank line between two
        games), they are a game of their own, so that neither neighbour takes them."""
        games = [self._game()]
        held = self.held
        if held.any() and held.junk:
            self._reset(held.start)
            self.errors.take(held.release())
            games.append(self._game())
        self._reset(held.start or SourcePos(self.source, line, indent + 1))
        self.errors.take(held.release())
        return games

    def games(self, lines: Iterable[Line], cut: bool = False) -> Iterator[RecordedGame | Skipped]:
        """The games of ``lines``; ``cut``: the last one begins a game left to the next
        piece (``iter_gbn_stream``)."""
        blank = False  # a blank line since the last line read
        for number, line, fault in lines:
            body = line.lstrip()
            if not body:
                blank = True
                continue
            if body[0] == "#" and fault is None:
                continue
            indent = len(line) - len(body)
            lazy = self.lazy
            body, tag, plain, written = self._kind(body, fault)
            if self.round_lines:  # which game does this line belong to?
                if tag:
                    yield from self._next_games(number, indent)
                elif written < 0:
                    junk = _ALNUM.search(body) is None
                    if blank or self.held.any() or junk:
                        self.held.add(self._stray(number, indent, fault), junk)
                        blank = False
                        continue
                elif self.held.any():
                    if written > self.last:  # it goes on with the game: so do the held lines
                        self.errors.take(self.held.release())
                    else:
                        yield from self._next_games(number, indent)
                elif blank and written == 1:
                    yield from self._next_games(number, indent)
            elif tag and blank and self.tags and self._has_tag(body):
                yield from self._next_games(number, indent)  # a game without rounds before it
            blank = False
            if lazy and not self.lazy and written >= 0:  # a round line that begins a game read
                body, tag, plain, written = self._kind(body, fault)  # after one left unread
            if self.start is None:
                self.start = SourcePos(self.source, number, indent + 1)
            if tag:
                if fault is not None:
                    self._error(fault[1], number, fault[0], None)
                else:
                    self._tag(body, SourcePos(self.source, number, indent + 1))
            elif written >= 0:
                self._round(body, number, indent, written, plain, fault)
            else:
                self.errors.add(self._stray(number, indent, fault))
        if cut:
            return
        if self.start is not None:
            game = self._game()
            self._reset(None)
            yield game
        if self.held.any():  # lines after the last game's rounds, in no game: a game of their own
            self.start = self.held.start
            self.errors.take(self.held.release())
            yield self._game()

    def _kind(
        self, body: str, fault: tuple[int, str] | None
    ) -> tuple[str, bool, re.Match[str] | None, int]:
        """What a line is: its body without a comment, whether it is a tag, its match of
        ``_PLAIN_ROUND`` when it has write_gbn's shape, and the round number it gives
        (-1 for a line that is no round)."""
        if body[0] == "[":
            return body, True, None, -1
        if "#" in body:
            body = body.split("#", 1)[0]
        body = body.rstrip()
        # a game left unread (``lazy``) needs only its round numbers, not its plays
        plain = (
            _PLAIN_ROUND.fullmatch(body) if fault is None and self.fast and not self.lazy else None
        )
        if plain is not None:
            return body, False, plain, int(plain.group(1))
        m = _ROUND.match(body)
        if m is not None:
            digits = m.group(1)
            return body, False, None, int(digits) if len(digits) < 10 else 0
        # a tag run into something before it: it starts a game
        tag = bool(self.round_lines and holds_tag(body))
        return body, tag, None, -1

    def _has_tag(self, body: str) -> bool:
        """Whether the game has a known tag (one a game gives once) of the name on ``body``."""
        name = once_name(body)
        return name is not None and any(t.name.casefold() == name for t in self.tags)

    def _stray(self, number: int, indent: int, fault: tuple[int, str] | None) -> Violation:
        """The error of a line that is neither a tag nor a round."""
        if fault is not None:
            return Violation("syntax", fault[1], SourcePos(self.source, number, fault[0]), None)
        return Violation(
            "syntax",
            'expected a tag [Name "value"] or a round "N. NAME CARD, ..."',
            SourcePos(self.source, number, indent + 1),
            None,
        )

    def _error(self, message: str, line: int, column: int, rnd: int | None) -> None:
        self.errors.add(Violation("syntax", message, SourcePos(self.source, line, column), rnd))

    def _tag(self, body: str, pos: SourcePos) -> None:
        tag = read_tag(body, pos)
        if isinstance(tag, RecordedTag):
            self.tags.append(tag)
        else:
            self._error(tag[1], pos.line, tag[0], None)

    def _round(
        self,
        body: str,
        number: int,
        indent: int,
        written: int,
        plain: re.Match[str] | None,
        fault: tuple[int, str] | None,
    ) -> None:
        self.round_lines += 1
        if self.round_lines > MAX_ROUNDS:  # one error; the rest is skipped, not kept
            if self.round_lines == MAX_ROUNDS + 1:
                self._error(
                    f"more than {MAX_ROUNDS} rounds: a game ends long before; "
                    "its further rounds are not read",
                    number,
                    indent + 1,
                    None,
                )
            return
        if written > 0:
            self.last = written
        if self.lazy:
            return
        index = len(self.rounds) + 1
        if plain is not None:  # as write_gbn writes it: the pairs now, the rest when asked
            play_text, outcome_text = plain.group(2, 3)
            offset = indent + plain.start(2)
            words = iter(play_text.replace(",", " ").split())  # NAME CARD NAME CARD ...
            self.rounds.append(
                RecordedRound(
                    index,
                    written,
                    None,
                    cards=tuple(zip(words, words, strict=False)),  # pairs: the pattern matched
                    text=_PlainRound(self, number, indent, play_text, offset, outcome_text, index),
                )
            )
            return
        self._careful_round(body, number, indent, written, index, fault)

    def _careful_round(
        self,
        body: str,
        number: int,
        indent: int,
        written: int,
        index: int,
        fault: tuple[int, str] | None,
    ) -> None:
        """A round line of any layout, read piece by piece: each error where it is."""
        pos = SourcePos(self.source, number, indent + 1)
        if fault is not None:  # keep the count of round lines right for later errors
            self._error(fault[1], number, fault[0], index)
            self.rounds.append(RecordedRound(index, max(written, 0), pos, ()))
            return
        m = _ROUND.match(body)
        assert m is not None, "a round line is read as one"
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
            at = column + after_space(item, 0)
            outcome = self._outcome(item.strip(), line, at, rnd)
            column += len(item) + 1
            if outcome is not None:
                names = [*outcome.names, *(name for name, _ in outcome.cards)]
                longest = max(names, key=len, default="")
                if len(longest) > MAX_TEXT:
                    self._error(_long_name(longest), line, at, rnd)
                    outcome = None
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
                f" not {short(text)}",
                line,
                column,
                rnd,
            )
            return None
        folded = card.casefold()
        if not (is_number(card) or card == "-" or folded in _SHARK):
            self._error(
                f"expected a card after {name}: 1 to 7, '-' or a Shark card "
                f"({', '.join(SHARK_CARDS)}), not {short(card)}",
                line,
                column + len(text) - len(card),
                rnd,
            )
            return None
        if len(name) > MAX_TEXT:
            self._error(_long_name(name), line, column, rnd)
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
        elif keyword == "hunger" and is_number(rest):
            return RecordedOutcome("hunger", line, column, number=int(rest))
        elif keyword == "discard" and rest:
            cards = []
            for item in rest.split(","):
                name, _, value = item.strip().rpartition(" ")
                if not name.strip() or not is_number(value):
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
            message = f"expected '{forms[keyword]}', not {short(text)}"
        else:
            message = f"expected an outcome ({_OUTCOMES}), not {short(text)}"
        self._error(message, line, column, rnd)
        return None
