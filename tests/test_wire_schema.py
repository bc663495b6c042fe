"""``importers.wire_schema``: the JSON Schema of a log's line, committed as generated,
covering every event class and field of both games, fitting every line a simulated
game writes and no line broken."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import attrs

from biteme.events import EVENT_TYPES as BITE_TYPES
from biteme.events import Drew, Retreated
from biteme.simulate import simulate_bite
from getbit_events.events import EVENT_TYPES, SwimmerBitten
from getbit_events.simulate import simulate_game
from importers.bite_jsonl import write_bite_jsonl
from importers.wire import bite_event_to_wire, event_to_wire
from importers.wire_schema import json_schema, schema_text

DOCS = Path(__file__).resolve().parent.parent / "docs"


def test_the_committed_schema_is_generated_from_the_classes() -> None:
    committed = (DOCS / "events.schema.json").read_text(encoding="utf-8")
    assert committed == schema_text(), (
        "regenerate: python -m importers.wire_schema > docs/events.schema.json"
    )


def test_the_schema_covers_every_event_class_and_field() -> None:
    schema = json_schema()
    refs = {item["$ref"].rsplit("/", 1)[1] for item in schema["oneOf"]}
    both = {**EVENT_TYPES, **BITE_TYPES}  # Get Bit!'s and Come on! Bite me!'s
    assert len(both) == len(EVENT_TYPES) + len(BITE_TYPES)
    assert refs == {cls.__name__ for cls in both.values()}
    assert len(refs) == len(both)
    for tag, cls in both.items():
        spec = schema["$defs"][cls.__name__]
        assert spec["properties"]["type"] == {"const": tag}
        assert spec["properties"]["v"] == {"const": cls.VERSION}
        names = {f.name for f in attrs.fields(cls)}
        assert names | {"type", "v", "game", "seq"} == set(spec["properties"])


def _check(value: Any, schema: dict[str, Any], defs: dict[str, Any]) -> bool:
    """A small JSON Schema checker for the keywords our schema uses."""
    if "$ref" in schema:
        return _check(value, defs[schema["$ref"].rsplit("/", 1)[1]], defs)
    if "const" in schema and value != schema["const"]:
        return False
    if "anyOf" in schema and not any(_check(value, s, defs) for s in schema["anyOf"]):
        return False
    if "oneOf" in schema and sum(_check(value, s, defs) for s in schema["oneOf"]) != 1:
        return False
    kind = schema.get("type")
    if kind is not None:
        python = {
            "string": str,
            "integer": int,
            "boolean": bool,
            "null": type(None),
            "array": list,
            "object": dict,
        }[kind]
        if not isinstance(value, python) or (kind == "integer" and isinstance(value, bool)):
            return False
    if kind == "object":
        props = schema["properties"]
        if any(k not in value for k in schema.get("required", ())):
            return False
        if schema.get("additionalProperties") is False and set(value) - set(props):
            return False
        return all(_check(v, props[k], defs) for k, v in value.items() if k in props)
    if kind == "array":
        prefix = schema.get("prefixItems", [])
        if len(value) < schema.get("minItems", 0):
            return False
        if schema.get("items") is False and len(value) > len(prefix):
            return False
        rest = schema.get("items") if isinstance(schema.get("items"), dict) else None
        for i, item in enumerate(value):
            sub = prefix[i] if i < len(prefix) else rest
            if sub is not None and not _check(item, sub, defs):
                return False
    return True


def test_simulated_lines_fit_the_schema_and_broken_ones_do_not() -> None:
    schema = json_schema()
    defs = schema["$defs"]
    for variant, n in (("standard", 5), ("shark", 4), ("two-player", 4), ("three-player", 4)):
        for seq, event in enumerate(simulate_game(variant, n, seed=4), 1):
            wire = json.loads(json.dumps(event_to_wire(event, "g", seq)))
            assert _check(wire, schema, defs), wire
    line = event_to_wire(SwimmerBitten(2, "Ted", "left-arm"), "g", 3)
    assert not _check({**line, "limb": 4}, schema, defs)
    assert not _check({**line, "extra": 1}, schema, defs)
    assert not _check({k: v for k, v in line.items() if k != "who"}, schema, defs)


def test_simulated_bite_me_lines_fit_the_schema_and_broken_ones_do_not() -> None:
    schema = json_schema()
    defs = schema["$defs"]
    seen: set[str] = set()
    for players, seed in ((3, 1), (4, 2), (6, 3), (10, 4)):
        log = write_bite_jsonl([("g", simulate_bite(players, seed))])
        for line in log:
            wire = json.loads(line)
            assert _check(wire, schema, defs), wire
            seen.add(wire["type"])
    assert {"bm-game-started", "bm-attack", "bm-claim", "bm-draw", "bm-game-ended"} <= seen
    misnumbered = bite_event_to_wire(Retreated(4, "Dee", "Meerkat", number=5), "g", 7)
    assert _check(misnumbered, schema, defs)
    assert not _check({**misnumbered, "number": "5"}, schema, defs)
    line = bite_event_to_wire(Drew(3, "Ann", "Tiger"), "g", 3)
    assert not _check({**line, "round": 3}, schema, defs)  # turn, not round
    assert not _check({k: v for k, v in line.items() if k != "turn"}, schema, defs)
    assert not _check({**line, "card": 8}, schema, defs)
