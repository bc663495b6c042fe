"""The JSON Schema (2020-12) of a line of a JSON Lines log (``importers.wire``'s wire
objects), generated from the event classes of both games, as ``docs/events.schema.json``
holds it (``tests/test_serialize.py`` holds the two the same).

Regenerate it with ``python -m importers.wire_schema > docs/events.schema.json``."""

from __future__ import annotations

import json
import sys
import types
import typing
from typing import Any

import attrs

from biteme.events import EVENT_TYPES as BITE_TYPES
from getbit_events.events import EVENT_TYPES, SourcePos
from getbit_events.limits import MAX_TEXT

__all__ = ["json_schema", "schema_text"]

_NoneType = type(None)


def _schema_of(tp: Any) -> dict[str, Any]:
    origin = typing.get_origin(tp)
    args = typing.get_args(tp)
    if tp is str:
        return {"type": "string", "maxLength": MAX_TEXT}
    if tp is bool:
        return {"type": "boolean"}
    if tp is int:
        return {"type": "integer"}
    if tp is _NoneType:
        return {"type": "null"}
    if origin in (typing.Union, types.UnionType):
        return {"anyOf": [_schema_of(a) for a in args]}
    if origin is tuple:
        if len(args) == 2 and args[1] is Ellipsis:
            return {"type": "array", "items": _schema_of(args[0])}
        return {
            "type": "array",
            "prefixItems": [_schema_of(a) for a in args],
            "items": False,
            "minItems": len(args),
        }
    if attrs.has(tp):
        return {"$ref": f"#/$defs/{tp.__name__}"}
    raise TypeError(f"no JSON Schema for {tp!r}")  # pragma: no cover - a new field kind


def _object_schema(cls: type[Any], envelope: dict[str, Any]) -> dict[str, Any]:
    attrs.resolve_types(cls)
    properties = dict(envelope)
    required = list(envelope)
    for field in attrs.fields(cls):
        properties[field.name] = _schema_of(field.type)
        if field.default is attrs.NOTHING:
            required.append(field.name)
        elif field.default is not None:
            properties[field.name] = {**properties[field.name], "default": field.default}
    schema: dict[str, Any] = {"type": "object", "properties": properties}
    if cls.__doc__:
        schema = {"description": cls.__doc__.strip().splitlines()[0], **schema}
    schema.update(required=required, additionalProperties=False)
    return schema


def json_schema() -> dict[str, Any]:
    """The JSON Schema (2020-12) of one wire line, generated from the event classes."""
    defs: dict[str, Any] = {"SourcePos": _object_schema(SourcePos, {})}
    classes: dict[str, type[Any]] = {**EVENT_TYPES, **BITE_TYPES}  # both games (docs/biteme.md)
    for tag, cls in classes.items():
        envelope = {
            "type": {"const": tag},
            "v": {"const": cls.VERSION},
            "game": {"type": "string", "minLength": 1, "maxLength": MAX_TEXT},
            "seq": {"type": "integer", "minimum": 1},
        }
        defs[cls.__name__] = _object_schema(cls, envelope)
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": "https://getbit-events.example/events.schema.json",
        "title": "A getbit-events JSON Lines event (one line)",
        "description": (
            "Generated from getbit_events.events (Get Bit!) and biteme.events "
            "(Come on! Bite me!, its types beginning bm-, with 'turn' where Get Bit! "
            "has 'round') by `python -m importers.wire_schema`; see docs/events.md and "
            "docs/biteme.md. Older versions ('v') are read through upcasters."
        ),
        "oneOf": [{"$ref": f"#/$defs/{cls.__name__}"} for cls in classes.values()],
        "discriminator": {"propertyName": "type"},
        "$defs": defs,
    }


def schema_text() -> str:
    """``docs/events.schema.json`` as it must read."""
    return json.dumps(json_schema(), indent=2, ensure_ascii=False) + "\n"


# Regenerate the committed schema: python -m importers.wire_schema > docs/events.schema.json
if __name__ == "__main__":
    sys.stdout.write(schema_text())
