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
float, more than ``SLOTS`` values) is kept whole (a raw kind). The commonest
payloads with many values (``cards-revealed``, ``cards-taken-back``) are shaped
straight from the event's fields (``_FAST``); ``tests/test_store_size.py``
holds that to the shape of their text, event by event.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from getbit_events.events import CardsRevealed, CardsTakenBack
from importers.payload_text import scalar

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


# -- shaped from the fields: the payloads that are seldom the same twice ----------------

_REVEALED: dict[int, _Shape] = {}  # plays -> the shape of a reveal of that many
_TAKEN: dict[int, _Shape] = {}  # cards -> the shape of a take-back of that many


def _revealed(event: CardsRevealed) -> _Shape | None:
    """``shape`` of a ``cards-revealed`` payload, from its plays (None: the text's way)."""
    cards = event.cards
    n = len(cards)
    if event.number is not None or 2 * n > SLOTS:
        return None
    slots: list[Any] = []
    for name, card in cards:
        if _ESCAPED.search(name) or not (card is None or type(card) is int):
            return None
        slots.append(name)
        slots.append(card)
    known = _REVEALED.get(n)
    if known is None:
        template = '{"cards":[' + ",".join(["[%s,%s]"] * n) + "]}"
        kind = (CardsRevealed.TYPE, CardsRevealed.VERSION, template,
                sum(1 << (2 * k) for k in range(n)), 0)
        known = _REVEALED[n] = _Shape(kind, [])
    return _Shape(known.kind, slots, known.texts)


def _taken(event: CardsTakenBack) -> _Shape | None:
    """``shape`` of a ``cards-taken-back`` payload, from its fields (None: the text's way)."""
    cards = event.cards
    n = len(cards)
    if n + 1 > SLOTS or _ESCAPED.search(event.who) or any(type(c) is not int for c in cards):
        return None
    known = _TAKEN.get(n)
    if known is None:
        template = '{"who":%s,"cards":[' + ",".join(["%s"] * n) + "]}"
        kind = (CardsTakenBack.TYPE, CardsTakenBack.VERSION, template, 1, 0)
        known = _TAKEN[n] = _Shape(kind, [])
    return _Shape(known.kind, [event.who, *cards], known.texts)


_FAST: dict[type[Any], Callable[[Any], _Shape | None]] = {
    CardsRevealed: _revealed,
    CardsTakenBack: _taken,
}


def fast_shape(event: Any) -> tuple[Kind, list[Any]] | None:
    """The shape ``_FAST`` gives an event (None: none), for the tests."""
    how = _FAST.get(type(event))
    made = how(event) if how is not None else None
    return None if made is None else (made.kind, made.slots)


# -- a game -------------------------------------------------------------------------


class _Game:
    """One game being encoded: its kinds (each its placeholder), its strings, its runs.

    Each event's element is written as JSON text at once, its kind's placeholder
    in it (``[%(n)s,...]``), every other ``%`` doubled: what dumping the run as a
    list and putting the placeholders in after would write, without the list."""

    def __init__(self) -> None:
        self.kinds: dict[Kind, str] = {}  # kind -> its placeholder
        self.strings: dict[str, int] = {}
        self.runs: list[tuple[int, Any, str]] = []
        self.run: list[str] = []
        self.start = 0
        self.last_seq = -2
        self.last_round: Any = None

    def add(self, seq: int, round_: Any, made: _Shape) -> None:
        self.put(seq, round_, self.element(made))

    def element(self, made: _Shape) -> str:
        """The element of an event of shape ``made``, its kind and strings added as needed."""
        kinds = self.kinds
        marker = kinds.get(made.kind)
        if marker is None:
            marker = kinds[made.kind] = f"%({len(kinds)})s"
        parts = [marker]
        texts = made.texts
        strings = self.strings
        for n, value in enumerate(made.slots):
            if n in texts:
                found = strings.get(value)
                if found is None:
                    found = strings[value] = len(strings)
                parts.append(str(found))
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


class Shapes:
    """Games' events encoded, the shapes of the payload texts seen kept (one a process)."""

    def __init__(self) -> None:
        self._shapes: dict[tuple[Any, Any, Any], _Shape] = {}

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

    def encode_events(self, events: Sequence[Any], payloads: Sequence[str]) -> Encoded:
        """A game's events encoded (seq 1 first), ``payloads`` their payload texts; some
        are shaped from their fields (``_FAST``), the rest from their texts."""
        game = _Game()
        # an event the same as one before in the game (the same payload: a swimmer
        # choosing the same card again, moving to the front again) is the same element
        elements: dict[tuple[str, str], str] = {}
        for index, event in enumerate(events):
            payload = payloads[index]
            key = (event.TYPE, payload)
            element = elements.get(key)
            if element is None:
                how = _FAST.get(type(event))
                made = how(event) if how is not None else None
                if made is None:
                    made = self._shape(event.TYPE, event.VERSION, payload)
                element = elements[key] = game.element(made)
            game.put(index + 1, event.round, element)
        return game.done()
