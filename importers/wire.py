"""Events on the wire: one cattrs converter, a tagged union on ``type``, and upcasters
for old schema versions (the JSON Schema of a line, generated from the event classes,
is ``wire_schema``'s).

One event is one JSON object (``docs/events.md``)::

    {"type": "swimmer-bitten", "v": 1, "game": "g1", "seq": 9, "round": 2,
     "who": "Ted", "limb": "right-arm"}

``type`` and ``v`` name the class and its schema version, ``game`` and ``seq``
place the event in its game's log (``seq`` counts from 1), ``round`` is the
round (0 for the set-up), then the class's own fields, then ``pos`` (where the
fact was first written) when known. Values are checked strictly: a number is
not a string, ``true`` is not ``1``.
"""

from __future__ import annotations

import json
import types
import typing
from collections.abc import Callable, Mapping
from typing import Any

import attrs
import cattrs
from cattrs.gen import make_dict_structure_fn, make_dict_unstructure_fn, override
from cattrs.v import format_exception

from biteme.events import EVENT_TYPES as BITE_TYPES
from biteme.events import BiteEvent
from getbit_events.errors import InputError
from getbit_events.events import (
    EVENT_TYPES,
    CardsRevealed,
    Event,
    SharkCardPlayed,
    SourcePos,
)
from getbit_events.limits import MAX_TEXT
from importers.payload_text import fields_text

__all__ = [
    "BITE_TYPES",
    "ENVELOPE",
    "MAX_TEXT",
    "UPCASTERS",
    "bite_event_from_payload",
    "bite_event_from_wire",
    "bite_event_to_wire",
    "bite_payload_json",
    "converter",
    "event_from_payload",
    "event_from_wire",
    "event_to_wire",
    "payload",
    "payload_json",
    "plain_event",
    "plain_reveal",
    "trusted_bite_event",
    "trusted_event",
]

#: the keys every wire object carries besides the event's own fields
ENVELOPE: tuple[str, ...] = ("type", "v", "game", "seq")
_NoneType = type(None)


def _strict_str(value: object, _: type) -> str:
    if not isinstance(value, str):
        raise ValueError(f"expected text, not {_kind(value)}")
    if len(value) > MAX_TEXT:
        raise ValueError(f"text of {len(value)} characters; at most {MAX_TEXT}")
    return value


def _strict_int(value: object, _: type) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise ValueError(f"expected a whole number, not {_kind(value)}")
    return value


def _strict_bool(value: object, _: type) -> bool:
    if not isinstance(value, bool):
        raise ValueError(f"expected true or false, not {_kind(value)}")
    return value


def _kind(value: object) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return "text"
    if isinstance(value, int | float):
        return f"the number {value}"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "an object"
    return type(value).__name__  # pragma: no cover - JSON has no other kinds


def _make_converter() -> cattrs.Converter:
    conv = cattrs.Converter(forbid_extra_keys=True, detailed_validation=True)
    conv.register_structure_hook(str, _strict_str)
    conv.register_structure_hook(int, _strict_int)
    conv.register_structure_hook(bool, _strict_bool)
    for cls in EVENT_TYPES.values():
        attrs.resolve_types(cls)
        # ``round`` and ``pos`` travel in the envelope; the payload is the rest.
        unstructure: Callable[[Any], dict[str, Any]]
        if cls is CardsRevealed:  # only a misnumbered round says its number
            unstructure = make_dict_unstructure_fn(
                cls,
                conv,
                pos=override(omit_if_default=True),
                number=override(omit_if_default=True),
            )
        else:
            unstructure = make_dict_unstructure_fn(cls, conv, pos=override(omit_if_default=True))
        conv.register_unstructure_hook(cls, unstructure)
        conv.register_structure_hook(cls, make_dict_structure_fn(cls, conv))
    for bite in BITE_TYPES.values():  # "Come on! Bite me!": ``turn`` where Get Bit! has ``round``
        attrs.resolve_types(bite)
        unstructure = make_dict_unstructure_fn(
            bite,
            conv,
            pos=override(omit_if_default=True),
            # only a misnumbered turn says its number (Attacked, Retreated, Passed)
            number=override(omit_if_default=True),
        )
        conv.register_unstructure_hook(bite, unstructure)
        conv.register_structure_hook(bite, make_dict_structure_fn(bite, conv))
    attrs.resolve_types(SourcePos)
    from_dict = make_dict_structure_fn(SourcePos, conv)

    def source_pos(value: Any, tp: type) -> SourcePos:
        return value if isinstance(value, SourcePos) else from_dict(value, tp)

    conv.register_structure_hook(SourcePos, source_pos)
    return conv


#: The one converter for events: strict structuring, extra keys refused.
converter = _make_converter()


# -- upcasters -----------------------------------------------------------------


def _cards_revealed_0(data: dict[str, Any]) -> dict[str, Any]:
    """cards-revealed v0 wrote the cards as an object in line order: {"Ann": 3}."""
    cards = data.get("cards")
    if isinstance(cards, dict):
        data["cards"] = [[name, value] for name, value in cards.items()]
    return data


#: (type, version) -> a function turning that version's fields into the next version's
UPCASTERS: dict[tuple[str, int], Callable[[dict[str, Any]], dict[str, Any]]] = {
    ("cards-revealed", 0): _cards_revealed_0,
}


def _upcast(tag: str, version: int, data: dict[str, Any]) -> dict[str, Any]:
    target = EVENT_TYPES[tag].VERSION
    if version > target:
        raise InputError(
            f"{tag} version {version} is newer than this program reads (up to {target})"
        )
    while version < target:
        step = UPCASTERS.get((tag, version))
        if step is None:
            raise InputError(f"{tag} version {version} is not known (this program reads {target})")
        data = step(data)
        version += 1
    return data


# -- events <-> wire objects ---------------------------------------------------


_PAYLOAD: dict[type[Any], Callable[[Any], dict[str, Any]]] = {
    cls: make_dict_unstructure_fn(
        cls,
        converter,
        round=override(omit=True),
        pos=override(omit=True),
        # only a misnumbered round says its number (CardsRevealed)
        number=override(omit_if_default=True),
    )
    for cls in EVENT_TYPES.values()
}


def payload(event: Event) -> dict[str, Any]:
    """The event's own fields (``round`` and ``pos`` left out), as JSON-ready values."""
    return _PAYLOAD[type(event)](event)


# -- the store's fast path: its own payloads, written and read back ------------
# The store writes every event's payload and reads it back from validated events
# it wrote itself. Like the reducer it trusts them: the commonest classes are
# written straight from their fields, and every class is read back straight into
# its constructor. tests/test_serialize.py holds both to the converter, class by
# class and on random games (docs/architecture.md, "Speed tricks").

_json = json.JSONEncoder(ensure_ascii=False, separators=(",", ":")).encode


def payload_json(event: Event) -> str:
    """The event's payload as compact JSON text (what the store keeps, and hashes)."""
    text = fields_text(event)  # the commonest classes, straight from their fields
    return text if text is not None else _json(payload(event))


def _builder(tp: Any) -> Callable[[Any], Any] | None:
    """How to turn a JSON value into a field of type ``tp``; None when it is already one."""
    origin, args = typing.get_origin(tp), typing.get_args(tp)
    if origin is tuple:
        if len(args) == 2 and args[1] is Ellipsis:
            inner = _builder(args[0])
            if inner is None:
                return tuple
            return lambda v: tuple(map(inner, v))
        inners = [_builder(a) for a in args]
        if all(i is None for i in inners):
            return tuple
        return lambda v: tuple(x if f is None else f(x) for f, x in zip(inners, v, strict=True))
    if origin in (typing.Union, types.UnionType):
        inners = [_builder(a) for a in args if a is not _NoneType]
        if all(i is None for i in inners):
            return None
        first = inners[0]
        assert first is not None
        return lambda v: None if v is None else first(v)
    return None


def _trusted_maker(cls: type[Any]) -> Callable[[int, dict[str, Any]], Any]:
    """``make(round, data)``: the class called with the payload's fields, unchecked."""
    # (name, how to build it or None, whether the payload always has it)
    fields = [
        (f.name, _builder(f.type), f.default is attrs.NOTHING)
        for f in attrs.fields(cls)
        if f.name not in ("round", "turn", "pos")  # ``turn``: "Come on! Bite me!"'s round
    ]

    def make(round_: int, data: dict[str, Any]) -> Any:
        given: dict[str, Any] = {}
        for name, build, always in fields:
            if always or name in data:  # a field with a default may be left out
                value = data[name]
                given[name] = value if build is None else build(value)
        return cls(round_, **given)

    return make


_TRUSTED = {cls.TYPE: (cls.VERSION, _trusted_maker(cls)) for cls in EVENT_TYPES.values()}


_NOT = object()  # what a plain check gives for a value the converter must judge


def _plain(tp: Any) -> Callable[[Any], Any] | None:
    """How the converter's strict hooks take a JSON value as a field of type ``tp`` (a
    text of at most MAX_TEXT characters, a whole number, true or false, none, a list of
    such), giving ``_NOT`` where they would not; None for a type only the converter
    reads."""
    if tp is str:
        return lambda v: v if type(v) is str and len(v) <= MAX_TEXT else _NOT
    if tp is int:
        return lambda v: v if type(v) is int else _NOT
    if tp is bool:
        return lambda v: v if type(v) is bool else _NOT
    origin, args = typing.get_origin(tp), typing.get_args(tp)
    if origin in (typing.Union, types.UnionType) and len(args) == 2 and _NoneType in args:
        inner = _plain(args[0] if args[1] is _NoneType else args[1])
        if inner is None:
            return None
        return lambda v: None if v is None else inner(v)
    if origin is tuple and len(args) == 2 and args[1] is Ellipsis:
        each = _plain(args[0])
        if each is None:
            return None

        def items(v: Any) -> Any:
            if type(v) is not list:
                return _NOT
            made = [each(x) for x in v]
            return _NOT if any(x is _NOT for x in made) else tuple(made)

        return items
    return None


def _plain_maker(cls: type[Any]) -> Callable[[dict[str, Any]], Any] | None:
    """``make(data)``: the event of a payload's fields (``round`` and ``pos`` among them)
    that the converter would make, checked as its strict hooks check them, or None for
    anything else (a field missing or unknown, a value they refuse): the converter's way
    then, which says what is wrong. None for a class with a field of a type only the
    converter reads."""
    checks = []
    for f in attrs.fields(cls):
        if f.name == "pos":
            continue
        check = _plain(f.type)
        if check is None:
            return None
        checks.append((f.name, check, f.default is attrs.NOTHING))
    names = frozenset(f.name for f in attrs.fields(cls))

    def make(data: dict[str, Any]) -> Any:
        if not names.issuperset(data):
            return None
        given: dict[str, Any] = {}
        for name, check, required in checks:
            if name in data:
                value = check(data[name])
                if value is _NOT:
                    return None
                given[name] = value
            elif required:
                return None
        pos = data.get("pos")
        if pos is not None and type(pos) is not SourcePos:
            return None
        return cls(**given) if pos is None else cls(**given, pos=pos)

    return make


#: The classes an event's fields are checked for plainly (``_plain_maker``), the commonest
#: of a log that writes every event: the converter's checks took a third of reading one
_PLAIN: dict[type[Any], Callable[[dict[str, Any]], Any]] = {
    cls: make for cls in EVENT_TYPES.values()
    if cls is not CardsRevealed and (make := _plain_maker(cls)) is not None
}


def plain_event(cls: type[Any], data: dict[str, Any]) -> Any:
    """The event ``_PLAIN`` makes of ``data`` for ``cls`` (None: the converter's way), for
    the tests."""
    make = _PLAIN.get(cls)
    return None if make is None else make(data)


def trusted_event(tag: str, version: int, round_: int, data: dict[str, Any]) -> Event:
    """The event of a payload this program wrote (the store's), built without checks.

    An old version still goes through its upcasters and the checked path.
    """
    known = _TRUSTED.get(tag)
    if known is None or known[0] != version:
        return event_from_payload(tag, version, round_, data)
    event: Event = known[1](round_, data)
    return event


def event_to_wire(event: Event, game: str, seq: int) -> dict[str, Any]:
    """The wire object of ``event``: envelope first, then ``round``, the fields, ``pos``."""
    data: dict[str, Any] = converter.unstructure(event)
    return {"type": event.TYPE, "v": event.VERSION, "game": game, "seq": seq, **data}


def _format(exc: BaseException, tp: type | None) -> str:
    if isinstance(exc, ValueError) and exc.args and str(exc).startswith(("expected", "text of")):
        return str(exc)  # our own strict hooks say it best
    if isinstance(exc, KeyError):
        return "missing"
    if isinstance(exc, cattrs.ForbiddenExtraKeysError):
        return f"unknown field(s) {', '.join(sorted(exc.extra_fields))}"
    return format_exception(exc, tp)


def _describe(exc: Exception) -> str:
    if isinstance(exc, cattrs.BaseValidationError):
        messages = cattrs.transform_error(exc, format_exception=_format)
        return "; ".join(_where(m) for m in messages)
    return str(exc)


def _where(message: str) -> str:
    text, _, path = message.rpartition(" @ $")
    path = path.lstrip(".")
    return f"{path}: {text}" if path else text


def event_from_payload(
    tag: Any, version: Any, round_: Any, fields: Mapping[str, Any], pos: SourcePos | None = None
) -> Event:
    """The event a stored or wire payload stands for, upcast to the current version.

    ``tag``, ``version`` and ``round_`` are taken as they come (``Any``): declared ``str``
    and ``int``, the compiled build took ``true`` for the round 1 at the call (a bool is an
    int to mypyc), where the converter refuses it.

    Raises InputError naming the type and the field when the payload does not fit.
    """
    cls = EVENT_TYPES.get(tag) if isinstance(tag, str) else None
    if cls is None:
        if isinstance(tag, str) and tag in BITE_TYPES:
            raise InputError(f"{tag} is an event of Come on! Bite me!, in a log of Get Bit!")
        known = ", ".join(EVENT_TYPES)
        raise InputError(f"unknown event type {tag!r}; known types: {known}")
    if not isinstance(version, int) or isinstance(version, bool) or version < 0:
        raise InputError(f"{tag}: 'v' is the schema version, a whole number, not {version!r}")
    data = dict(fields)
    if version != cls.VERSION:
        data = _upcast(tag, version, data)
    data["round"] = round_
    if pos is not None:
        data["pos"] = pos
    if cls is CardsRevealed:  # most of a log: the plain shape checked here
        reveal = plain_reveal(data)
        if reveal is not None:
            return reveal
    else:
        plain = _PLAIN.get(cls)
        made = plain(data) if plain is not None else None
        if made is not None:
            return made  # type: ignore[no-any-return]
    try:
        event: Event = converter.structure(data, cls)
    except (cattrs.BaseValidationError, ValueError, TypeError, KeyError) as exc:
        raise InputError(f"{tag}: {_describe(exc)}") from None
    return event


def event_from_wire(data: Mapping[str, Any], pos: SourcePos | None = None) -> Event:
    """The event of a wire object (envelope keys ``game`` and ``seq`` are not checked here).

    ``pos``, when given, replaces any ``pos`` the object carries: where the
    event was read is where its errors are reported.
    """
    plain = _plain_wire(data, pos)
    if plain is not None:
        return plain
    if "type" not in data:
        raise InputError("the event has no 'type'")
    if "round" not in data:
        raise InputError(f"{data['type']}: the event has no 'round'")
    fields = {k: v for k, v in data.items() if k not in _NOT_FIELDS}
    if pos is None and "pos" in data:
        fields["pos"] = data["pos"]
    return event_from_payload(data["type"], data.get("v", -1), data["round"], fields, pos)


_NOT_FIELDS = frozenset((*ENVELOPE, "round", "pos"))
_REVEAL_FIELDS = frozenset(("round", "cards", "pos", "number"))


def plain_reveal(data: dict[str, Any]) -> CardsRevealed | None:
    """The ``cards-revealed`` of ``data`` (its fields, ``round`` and ``pos`` among them)
    when it has the plain shape, checked as the converter checks it: a list of
    [name, card or null] pairs, a name of at most MAX_TEXT characters, whole numbers,
    no other field. None for any other: the converter's way, which says what is
    wrong. Most of a log of choices and reveals is reveals, and this takes a fifth
    of the converter's time (``tests/test_serialize.py`` holds the two the same)."""
    pos = data.get("pos")
    if not (pos is None or type(pos) is SourcePos) or not _REVEAL_FIELDS.issuperset(data):
        return None
    return _reveal(data.get("round"), data.get("cards"), data.get("number"), pos)


def _reveal(round_: Any, cards: Any, number: Any, pos: SourcePos | None) -> CardsRevealed | None:
    """``plain_reveal`` of these fields."""
    if (
        type(cards) is not list
        or type(round_) is not int
        or not (number is None or type(number) is int)
    ):
        return None
    pairs = []
    for pair in cards:
        if type(pair) is not list or len(pair) != 2:
            return None
        name, card = pair
        if type(name) is not str or len(name) > MAX_TEXT or not (card is None or type(card) is int):
            return None
        pairs.append((name, card))
    return CardsRevealed(round_, tuple(pairs), pos, number)


def _plain_wire(data: Mapping[str, Any], pos: SourcePos | None) -> Event | None:
    """The event of a wire object of a log's commonest lines (``cards-revealed`` and
    ``shark-card-played``: 25 of a game's 26 in a log of choices and reveals) when
    it holds the envelope, the round and the fields and nothing else (``write_jsonl``'s
    shape), checked as the converter checks them; None for any other: the way
    through ``event_from_payload``, which says what is wrong. The object is read as it
    is, not copied twice first (``tests/test_serialize.py`` holds the two the same)."""
    tag = data.get("type")  # any other line: on at once
    if tag == CardsRevealed.TYPE:
        if len(data) != 6 or not _plain_envelope(data, CardsRevealed.VERSION):
            return None
        return _reveal(data["round"], data.get("cards"), None, pos)
    if tag == SharkCardPlayed.TYPE:
        if len(data) != 7 or not _plain_envelope(data, SharkCardPlayed.VERSION):
            return None
        round_, shark, card = data["round"], data.get("shark"), data.get("card")
        if (
            type(round_) is not int
            or type(shark) is not str
            or type(card) is not str
            or len(shark) > MAX_TEXT
            or len(card) > MAX_TEXT
        ):
            return None
        return SharkCardPlayed(round_, shark, card, pos)
    return None


def _plain_envelope(data: Mapping[str, Any], version: int) -> bool:
    """Whether ``data`` holds ``game``, ``seq`` and ``round``, and ``v`` is ``version``."""
    v = data.get("v")
    return type(v) is int and v == version and "game" in data and "seq" in data and "round" in data


# -- "Come on! Bite me!" (docs/biteme.md): the same envelope, ``turn`` for ``round`` --


def bite_event_to_wire(event: BiteEvent, game: str, seq: int) -> dict[str, Any]:
    """The wire object of a "Come on! Bite me!" event: envelope first, then ``turn``,
    the fields, ``pos``."""
    data: dict[str, Any] = converter.unstructure(event)
    return {"type": event.TYPE, "v": event.VERSION, "game": game, "seq": seq, **data}


def bite_event_from_wire(data: Mapping[str, Any], pos: SourcePos | None = None) -> BiteEvent:
    """The "Come on! Bite me!" event of a wire object, strictly checked as Get Bit!'s
    are (``game`` and ``seq`` are not checked here; ``pos`` replaces any it carries)."""
    tag = data.get("type")
    cls = BITE_TYPES.get(tag) if isinstance(tag, str) else None
    if cls is None:
        if isinstance(tag, str) and tag in EVENT_TYPES:
            raise InputError(f"{tag} is an event of Get Bit!, in a log of Come on! Bite me!")
        raise InputError(f"unknown event type {tag!r}; known types: {', '.join(BITE_TYPES)}")
    version = data.get("v", -1)
    if version != cls.VERSION:  # no older version of these events exists
        raise InputError(f"{tag}: version {version!r} is not known (this program reads "
                         f"{cls.VERSION})")
    if "turn" not in data:
        raise InputError(f"{tag}: the event has no 'turn'")
    fields = {k: v for k, v in data.items() if k not in _NOT_FIELDS}
    if pos is not None:
        fields["pos"] = pos
    elif "pos" in data:
        fields["pos"] = data["pos"]
    try:
        event: BiteEvent = converter.structure(fields, cls)
    except (cattrs.BaseValidationError, ValueError, TypeError, KeyError) as exc:
        raise InputError(f"{tag}: {_describe(exc)}") from None
    return event


def bite_payload_json(event: BiteEvent) -> str:
    """A "Come on! Bite me!" event's payload as compact JSON text (its fields, ``turn``
    and ``pos`` left out): what the store keeps and hashes, as ``payload_json``."""
    data: dict[str, Any] = converter.unstructure(event)
    del data["turn"]
    data.pop("pos", None)
    return _json(data)


def bite_event_from_payload(
    tag: Any, version: Any, turn: Any, fields: Mapping[str, Any]
) -> BiteEvent:
    """The "Come on! Bite me!" event a stored payload stands for, strictly checked
    (InputError naming the type and the field when it does not fit)."""
    return bite_event_from_wire({**fields, "type": tag, "v": version, "turn": turn})


_TRUSTED_BITE = {cls.TYPE: (cls.VERSION, _trusted_maker(cls)) for cls in BITE_TYPES.values()}


def trusted_bite_event(tag: str, version: int, turn: int, data: dict[str, Any]) -> BiteEvent:
    """The "Come on! Bite me!" event of a payload the store wrote, built without
    checks as ``trusted_event`` builds Get Bit!'s (any other: the checked path)."""
    known = _TRUSTED_BITE.get(tag)
    if known is None or known[0] != version:
        return bite_event_from_payload(tag, version, turn, data)
    event: BiteEvent = known[1](turn, data)
    return event
