"""The store's own payloads of the commonest event classes, written as JSON text straight
from their fields: ``wire.payload_json``'s fast path, compiled with mypyc (``setup.py``).

Each text is exactly the converter's payload dumped as compact JSON, non-ASCII kept
(``tests/test_serialize.py`` holds every class and random games to it): a field
that is a text, a whole number or None is written here (``scalar``, which the
store's compact runs use too), anything else by the JSON encoder.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from getbit_events.events import (
    CardChosen,
    CardsRevealed,
    CardsTakenBack,
    SharkCardPlayed,
    SwimmerBitten,
    SwimmerDevoured,
    SwimmerMoved,
)

__all__ = ["fields_text", "scalar"]

_quote = json.encoder.encode_basestring  # a JSON string, non-ASCII kept
_dump = json.JSONEncoder(ensure_ascii=False, separators=(",", ":")).encode


def scalar(value: Any) -> str:
    """A value as compact JSON, as the JSON encoder writes it (the store's runs too)."""
    kind = type(value)
    if kind is str:
        return _quote(value)
    if kind is int:
        return int.__repr__(value)
    if value is None:
        return "null"
    return _dump(value)


def _cards(cards: Any) -> str:
    """A tuple of cards (whole numbers, or (name, card) pairs) as a JSON array."""
    parts: list[str] = []
    for card in cards:
        if type(card) is tuple and len(card) == 2:
            parts.append("[" + scalar(card[0]) + "," + scalar(card[1]) + "]")
        else:
            parts.append(scalar(card))
    return "[" + ",".join(parts) + "]"


def _chosen(e: Any) -> str:
    return '{"who":' + scalar(e.who) + "}"


def _revealed(e: Any) -> str:
    if e.number is None:
        return '{"cards":' + _cards(e.cards) + "}"
    return '{"cards":' + _cards(e.cards) + ',"number":' + scalar(e.number) + "}"


def _shark(e: Any) -> str:
    return '{"shark":' + scalar(e.shark) + ',"card":' + scalar(e.card) + "}"


def _moved(e: Any) -> str:
    return '{"who":' + scalar(e.who) + ',"why":' + scalar(e.why) + "}"


def _bitten(e: Any) -> str:
    return '{"who":' + scalar(e.who) + ',"limb":' + scalar(e.limb) + "}"


def _taken(e: Any) -> str:
    return '{"who":' + scalar(e.who) + ',"cards":' + _cards(e.cards) + "}"


_TEXT: dict[type[Any], Callable[[Any], str]] = {
    CardChosen: _chosen,
    CardsRevealed: _revealed,
    SharkCardPlayed: _shark,
    SwimmerMoved: _moved,
    SwimmerBitten: _bitten,
    SwimmerDevoured: _moved,  # who and why, as a move
    CardsTakenBack: _taken,
}


def fields_text(event: Any) -> str | None:
    """The payload text of ``event`` from its fields (None: not one of these classes)."""
    how = _TEXT.get(type(event))
    return how(event) if how is not None else None
