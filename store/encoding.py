"""A game's events in the store's compact form (``eventlog``), worked out without the
database: its strings and its runs, each event a kind and its values.

A kind's code is the store's (``event_kinds``), known only to the writer; here a
run's text names each event's kind by a placeholder (``%(n)s``, the n-th kind
the game uses), so an import's worker processes do all of this and the one
writer only puts the codes in (``eventlog.Log.place``, one ``%`` a run).

A kind is a type, a version and the payload's text with every value taken out
(its template); a value that is text is kept once a game, in its strings. The
template is the payload text with each value's token made ``%s``, so the text
comes back byte for byte; a payload a template cannot give back (an escape, a
float, more than ``SLOTS`` values) is kept whole (a raw kind).

An import encodes a game from its facts (``Shapes.encode_facts``, ``steps.Fact``),
not its events: the commonest events, of a name and a word, are worked out once a
process (``_Written``); reveals and take-backs are written from their fields in one
pass (``Shapes._cards``); only the rest are made and shaped from their text.
``tests/test_encoding.py`` and ``tests/test_store_facts.py`` hold all of it to the
events' texts shaped one by one, byte for byte.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Sequence
from typing import Any

from getbit_events.events import (
    CardChosen,
    CardsRevealed,
    CardsTakenBack,
    HungerLost,
    SharkCardPlayed,
    SharkCardsTakenBack,
    SwimmerBitten,
    SwimmerDevoured,
    SwimmerMoved,
)
from getbit_events.steps import Fact, HungerLeft, SharkTookBack, fact_event
from importers.payload_text import scalar
from importers.wire import payload_json

__all__ = ["SLOTS", "Encoded", "Kind", "Shapes", "dump", "shape"]

#: The most values a kind's template takes (more: the payload is kept whole).
SLOTS = 16
_CACHE = 4_096  # payload texts whose shapes are kept, at most (a set-up is seldom seen twice:
# 50,000 kept about 90 MB in each worker)
_ENCODER = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"))


def dump(value: Any) -> str:
    """Compact JSON, non-ASCII kept (as ``importers.wire`` writes payloads)."""
    return _ENCODER.encode(value)


#: A kind: type, version, template, which slots hold texts (a bit each), raw (1: the
#: payload kept whole).
Kind = tuple[Any, Any, str, int, int]
#: A game encoded: the kinds it uses (the n-th is ``%(n)s`` in its runs), its
#: strings (JSON text) and its runs (first seq, round, events' JSON text with the
#: kinds as placeholders and every other ``%`` doubled).
Encoded = tuple[tuple[Kind, ...], str, tuple[tuple[int, Any, str], ...]]

#: Fields whose text is one of a few words the rules name (why a swimmer moved, a
#: limb): kept in the kind, not in each event.
_WORDS = frozenset(("why", "limb"))
# A JSON token of a compact payload: a string without escapes (a key when a colon
# follows), a whole number, a literal, or what is kept whole: a string with an
# escape or a control character, anything else a number may be (a float).
_TOKEN = re.compile(
    r'"([^"\\\x00-\x1f]*)"(:?)|(-?(?:0|[1-9][0-9]*))(?![0-9.eE])|(true|false|null)'
    r'|("(?:[^"\\]|\\.)*"|[-+.eE0-9]+)'
)
_LITERALS = {"true": True, "false": False, "null": None}
# a text the template cannot hold as a slot as it is (JSON would escape it)
_ESCAPED = re.compile(r'["\\\x00-\x1f]')


def shape(tag: Any, version: Any, payload: Any) -> tuple[Kind, list[Any]]:
    """The kind of a payload text and its values (texts as texts)."""
    if not isinstance(payload, str):
        return (tag, version, "%s", 0, 1), [payload]
    slots: list[Any] = []
    parts: list[str] = []
    bits = last = 0
    key: str | None = None
    for match in _TOKEN.finditer(payload):
        text, colon, number, literal, other = match.groups()
        if colon:
            key = text
            continue
        if other is not None:
            return (tag, version, "%s", 0, 1), [payload]
        if text is not None and key in _WORDS and len(text) <= 20:
            key = None
            continue  # the word stays in the template
        parts.append(payload[last:match.start()].replace("%", "%%"))
        parts.append("%s")
        last = match.end()
        if text is not None:
            bits |= 1 << len(slots)
            slots.append(text)
        else:
            slots.append(int(number) if number is not None else _LITERALS[literal])
        key = None
    if len(slots) > SLOTS:
        return (tag, version, "%s", 0, 1), [payload]
    parts.append(payload[last:].replace("%", "%%"))
    return (tag, version, "".join(parts), bits, 0), slots


class _Shape:
    """What one payload becomes: its kind, its values, and where the texts among them are."""

    __slots__ = ("kind", "slots", "texts")

    def __init__(self, kind: Kind, slots: list[Any], texts: tuple[int, ...] | None = None) -> None:
        self.kind = kind
        self.slots = slots
        self.texts = tuple(n for n in range(SLOTS) if kind[3] >> n & 1) if texts is None else texts


# -- the kinds of the payloads written from their fields --------------------------------

_REVEALED: dict[int, Kind] = {}  # plays -> the kind of a reveal of that many
_TAKEN: dict[int, Kind] = {}  # cards -> the kind of a take-back of that many


def _revealed_kind(n: int) -> Kind:
    """``shape``'s kind of a ``cards-revealed`` payload of ``n`` plays, each a name and a
    card (or null), no number."""
    kind = _REVEALED.get(n)
    if kind is None:
        template = '{"cards":[' + ",".join(["[%s,%s]"] * n) + "]}"
        kind = _REVEALED[n] = (CardsRevealed.TYPE, CardsRevealed.VERSION, template,
                               sum(1 << (2 * k) for k in range(n)), 0)
    return kind


def _taken_kind(n: int) -> Kind:
    """``shape``'s kind of a ``cards-taken-back`` payload of ``n`` cards."""
    kind = _TAKEN.get(n)
    if kind is None:
        template = '{"who":%s,"cards":[' + ",".join(["%s"] * n) + "]}"
        kind = _TAKEN[n] = (CardsTakenBack.TYPE, CardsTakenBack.VERSION, template, 1, 0)
    return kind


# -- a game -------------------------------------------------------------------------


class _Game:
    """One game being encoded: its kinds (each its placeholder), its strings, its runs.

    Each event's element is written as JSON text at once, its kind's placeholder
    in it (``[%(n)s,...]``), every other ``%`` doubled: what dumping the run as a
    list and putting the placeholders in after would write, without the list."""

    def __init__(self) -> None:
        self.kinds: dict[Kind, str] = {}  # kind -> its placeholder
        self.strings: dict[str, str] = {}  # text -> its number, as text
        self.runs: list[tuple[int, Any, str]] = []
        self.run: list[str] = []
        self.start = 0
        self.last_seq = -2
        self.last_round: Any = None

    def add(self, seq: int, round_: Any, made: _Shape) -> None:
        self.put(seq, round_, self.element(made))

    def marker(self, kind: Kind) -> str:
        """The placeholder of ``kind`` in this game's runs, added as needed."""
        kinds = self.kinds
        marker = kinds.get(kind)
        if marker is None:
            marker = kinds[kind] = f"%({len(kinds)})s"
        return marker

    def string(self, text: str) -> str:
        """The number of ``text`` in this game's strings, as text, added as needed."""
        strings = self.strings
        found = strings.get(text)
        if found is None:
            found = strings[text] = str(len(strings))
        return found

    def element(self, made: _Shape) -> str:
        """The element of an event of shape ``made``, its kind and strings added as needed."""
        parts = [self.marker(made.kind)]
        texts = made.texts
        for n, value in enumerate(made.slots):
            if n in texts:
                parts.append(self.string(value))
            else:
                text = scalar(value)
                parts.append(text.replace("%", "%%") if "%" in text else text)
        return "[" + ",".join(parts) + "]"

    def put(self, seq: int, round_: Any, element: str) -> None:
        """An event's element, in its run."""
        run = self.run
        if run and (round_ != self.last_round or seq != self.last_seq + 1):
            self.runs.append((self.start, self.last_round, "[" + ",".join(run) + "]"))
            run.clear()
        if not run:
            self.start = seq
        run.append(element)
        self.last_seq = seq
        self.last_round = round_

    def done(self) -> Encoded:
        if self.run:
            self.runs.append((self.start, self.last_round, "[" + ",".join(self.run) + "]"))
        return tuple(self.kinds), dump(list(self.strings)), tuple(self.runs)


class _Written:
    """An event as the store writes it, whatever its round: its hash line
    (``stored.digest``) around the round, and its shape."""

    __slots__ = ("head", "made", "tail")

    def __init__(self, event: Any, payload: str, made: _Shape) -> None:
        self.head = f"{event.TYPE}\t{event.VERSION}\t"
        self.tail = f"\t{payload}\n"
        self.made = made


#: The classes of the facts written once a process: the commonest events (some 80% of
#: a game's), whose facts are texts (a chooser's name; a step of the rules of a name
#: and a word, ``steps.Moved``, ``Bitten``, ``Devoured``), so that facts equal as
#: values are one payload text.
_BY_VALUE = frozenset((CardChosen, SwimmerMoved, SwimmerBitten, SwimmerDevoured))
_WRITTEN = 20_000  # facts kept written, at most (each about 0.5 KB); names likewise
_HEADS: dict[Any, str] = {
    cls: f"{cls.TYPE}\t{cls.VERSION}\t" for cls in (CardsRevealed, CardsTakenBack)
}
_PLAYS = 8  # a name's plays kept written, at most: a swimmer's cards are a few numbers
# (1 to 5, and none), and with _WRITTEN names kept it bounds them to some 11 MB


def _texts_only(value: Any) -> bool:
    """Whether ``value`` (a fact's) is a text, or a tuple of texts and Nones: only a
    value of those is equal to it, so it is the same payload text (a number is not:
    ``1 == True == 1.0``, written ``1``, ``true``, ``1.0``)."""
    if type(value) is str:
        return True
    return isinstance(value, tuple) and all(v is None or type(v) is str for v in value)


def _kept_as(kind: Any, value: Any) -> Any:
    """What a fact of the Shark (a card played, its cards taken back, a hunger lost: ten
    of a game's events with a Shark) is kept written by, whatever its round: its values,
    where they are all texts and whole numbers (only such values are equal to them,
    as ``_texts_only`` says); None for any other fact (written each time).

    The values are read as they are (``Any``): compiled, a field declared an int would be
    made a machine integer, a flag taken for 1 (``True == 1``), and one declared a text
    checked as one (a TypeError for any other)."""
    fields: Any = value
    if kind is SharkCardPlayed:  # recorded: the fact is the event
        if type(value) is SharkCardPlayed:
            shark, card = fields.shark, fields.card
            if type(shark) is str and type(card) is str:
                return (kind, shark, card)
    elif kind is SharkCardsTakenBack:
        if type(value) is SharkTookBack:
            cards = fields[0]
            if type(cards) is tuple and all(type(card) is str for card in cards):
                return (kind, cards)
    elif kind is HungerLost and type(value) is HungerLeft:
        left = fields[0]
        if type(left) is int:
            return (kind, left)
    return None


class _Name:
    """A name as reveals and take-backs write it: its JSON text, and each of its plays'
    (``[name,card]``) by card (a whole number, or None), as written so far."""

    __slots__ = ("plays", "quoted")

    def __init__(self, quoted: str) -> None:
        self.quoted = quoted
        self.plays: dict[int | None, str] = {}

    def play(self, card: int | None, number: str) -> str:
        """The JSON text of this name's play of ``card`` (``number``, its text)."""
        plays = self.plays
        text = plays.get(card)
        if text is None:
            text = "[" + self.quoted + "," + number + "]"
            if len(plays) < _PLAYS:
                plays[card] = text
        return text


class Shapes:
    """Games' events encoded, the shapes of the payload texts seen kept (one a process)."""

    def __init__(self) -> None:
        self._shapes: dict[tuple[Any, Any, Any], _Shape] = {}
        self._written: dict[tuple[Any, Any], _Written] = {}
        self._names: dict[Any, _Name] = {}  # name -> its texts (no escapes in it)

    def _shape(self, tag: Any, version: Any, payload: Any) -> _Shape:
        key = (tag, version, payload)
        made = self._shapes.get(key)
        if made is None:
            if len(self._shapes) >= _CACHE:
                self._shapes.clear()
            kind, slots = shape(tag, version, payload)
            made = self._shapes[key] = _Shape(kind, slots)
        return made

    def encode(self, rows: Iterable[tuple[int, Any, Any, Any, Any]]) -> Encoded:
        """A game's event rows (seq, type, version, round, payload) encoded."""
        game = _Game()
        for seq, tag, version, round_, payload in rows:
            game.add(seq, round_, self._shape(tag, version, payload))
        return game.done()

    def encode_facts(self, facts: Sequence[Fact]) -> tuple[Encoded, list[str]]:
        """A game's events encoded from their facts (``steps.Fact``, seq 1 first), and the
        texts its hash is made of, in order (``stored.lines_digest`` joins them): what
        ``encode`` and ``stored.digest`` make of its events and their payload texts
        (each event's line is three of them: its type and version, its round, its
        payload), without making the commonest (``_BY_VALUE``, and the Shark's,
        ``_kept_as``: each worked out once a process, ``_Written``), reveals and
        take-backs written from their fields (``_cards``)."""
        game = _Game()
        lines: list[str] = []
        written = self._written
        elements: dict[_Written, str] = {}  # an event the same as one before in the game
        last: Any = None
        round_text = ""
        for seq, fact in enumerate(facts, 1):
            r, kind, value, _pos = fact
            if r != last or type(r) is not type(last):
                last, round_text = r, str(r)
            if kind in _BY_VALUE:  # (a value that is not all texts is never equal to a key)
                key: Any = (kind, value)
                known = written.get(key)
                if known is None:
                    known = self._write(fact_event(fact))
                    if _texts_only(value):
                        self._keep(key, known)
            elif kind is CardsRevealed or kind is CardsTakenBack:
                made = self._cards(game, kind, value)
                if made is not None:
                    game.put(seq, r, made[0])
                    lines.append(_HEADS[kind])
                    lines.append(round_text)
                    lines.append(made[1])
                    continue
                known = self._write(fact_event(fact))
            else:
                key = _kept_as(kind, value)
                known = None if key is None else written.get(key)
                if known is None:
                    known = self._write(fact_event(fact))
                    if key is not None:
                        self._keep(key, known)
            element = elements.get(known)
            if element is None:
                element = elements[known] = game.element(known.made)
            game.put(seq, r, element)
            lines.append(known.head)
            lines.append(round_text)
            lines.append(known.tail)
        return game.done(), lines

    def _keep(self, key: Any, known: _Written) -> None:
        """Keep ``known`` written for the facts of ``key``."""
        written = self._written
        if len(written) >= _WRITTEN:
            written.clear()
        written[key] = known

    def _write(self, event: Any) -> _Written:
        """How ``event`` is written: its payload text, shaped from the text."""
        payload = payload_json(event)
        return _Written(event, payload, self._shape(event.TYPE, event.VERSION, payload))

    def _cards(self, game: _Game, kind: Any, fields: Any) -> tuple[str, str] | None:
        """The element and the hash line's tail (``\\tpayload\\n``) of a reveal or a
        take-back of ``fields``, written in one pass over its cards: what ``shape``
        makes of its payload text, with each name's JSON text and plays kept once a
        process (``_Name``). None where its text is shaped otherwise (a name with an
        escape, a card that is no whole number, a reveal's number, more than ``SLOTS``
        values): the text's way."""
        cards = fields.cards
        n = len(cards)
        if kind is CardsRevealed:
            if fields.number is not None or 2 * n > SLOTS:
                return None
            plays: list[str] = []  # each play's JSON text
            values: list[str] = []  # each play's name and card, as the element holds them
            for name, card in cards:
                known = self._name(name)
                if known is None:
                    return None
                if card is None:
                    number = "null"
                elif type(card) is int:
                    whole: int = card
                    number = str(whole)
                else:
                    return None
                values.append(name)
                values.append(number)
                plays.append(known.play(card, number))
            # shaped: only now are the game's kinds and strings added to
            for k in range(0, 2 * n, 2):
                values[k] = game.string(values[k])
            return ("[" + game.marker(_revealed_kind(n)) + "," + ",".join(values) + "]"
                    if n else "[" + game.marker(_revealed_kind(n)) + "]",
                    '\t{"cards":[' + ",".join(plays) + "]}\n")
        who = self._name(fields.who)
        if who is None or n + 1 > SLOTS:
            return None
        numbers = []
        for card in cards:
            if type(card) is not int:
                return None
            whole = card
            numbers.append(str(whole))
        listed = ",".join(numbers)
        element = "[" + game.marker(_taken_kind(n)) + "," + game.string(fields.who)
        return (element + ("," + listed if n else "") + "]",
                '\t{"who":' + who.quoted + ',"cards":[' + listed + "]}\n")

    def _name(self, name: Any) -> _Name | None:
        """``name`` as reveals and take-backs write it, kept once a process; None for one
        that is no text or holds what JSON escapes (its payload text is then shaped the
        text's way)."""
        names = self._names
        known = names.get(name)
        if known is None:
            if type(name) is not str or _ESCAPED.search(name):
                return None
            if len(names) >= _WRITTEN:
                names.clear()
            known = names[name] = _Name('"' + name + '"')
        return known
