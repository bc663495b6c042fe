"""The wire form of events: round trips, strict reading, upcasting, and the docs of it
(the schema: ``test_wire_schema``)."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import attrs
import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from strategies import simulated_games

from getbit_events.errors import InputError
from getbit_events.events import (
    EVENT_TYPES,
    CardChosen,
    CardsRevealed,
    CardsTakenBack,
    Event,
    GameEnded,
    SharkCardPlayed,
    SourcePos,
    SwimmerBitten,
    SwimmerDevoured,
    SwimmerMoved,
)
from getbit_events.simulate import simulate_game
from importers import wire
from importers.wire import (
    event_from_payload,
    event_from_wire,
    event_to_wire,
    payload,
    payload_json,
    trusted_event,
)

DOCS = Path(__file__).resolve().parent.parent / "docs"


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(simulated_games())
def test_wire_round_trip_is_the_identity(game: list[Any]) -> None:
    for seq, event in enumerate(game, 1):
        line = json.dumps(event_to_wire(event, "g", seq))
        assert event_from_wire(json.loads(line)) == event
        assert event_from_payload(event.TYPE, event.VERSION, event.round, payload(event)) == event


def test_a_wire_line_reads_as_documented() -> None:
    event = SwimmerBitten(2, "Ted", "right-arm")
    assert json.dumps(event_to_wire(event, "friday-1", 18), separators=(",", ":")) == (
        '{"type":"swimmer-bitten","v":1,"game":"friday-1","seq":18,"round":2,'
        '"who":"Ted","limb":"right-arm"}'
    )


def test_pos_travels_when_known() -> None:
    event = SwimmerBitten(2, "Ted", "left-leg", SourcePos("a.gbn", 7, 3))
    wire = event_to_wire(event, "g", 1)
    assert wire["pos"] == {"file": "a.gbn", "line": 7, "column": 3}
    assert event_from_wire(wire) == event
    here = SourcePos("log.jsonl", 12, 1)
    assert event_from_wire(wire, here).pos == here


def test_an_old_version_line_still_loads() -> None:
    old = {
        "type": "cards-revealed",
        "v": 0,
        "game": "g",
        "seq": 6,
        "round": 1,
        "cards": {"John": 4, "Anne": None},
    }
    assert event_from_wire(old) == CardsRevealed(1, (("John", 4), ("Anne", None)))


def test_a_newer_version_is_refused() -> None:
    with pytest.raises(InputError, match="cards-revealed version 2 is newer than this program"):
        event_from_wire({"type": "cards-revealed", "v": 2, "round": 1, "cards": []})


def test_an_unknown_type_is_named() -> None:
    with pytest.raises(InputError, match="unknown event type 'swimmer-eaten'; known types: game"):
        event_from_wire({"type": "swimmer-eaten", "v": 1, "round": 1})


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"who": 3, "limb": "left-arm"}, "who: expected text, not the number 3"),
        ({"who": "Ted"}, "limb: missing"),
        ({"who": "Ted", "limb": "left-arm", "teeth": 3}, "unknown field(s) teeth"),
        ({"who": "T" * 5000, "limb": "left-arm"}, "who: text of 5000 characters; at most 1000"),
        ({"who": True, "limb": "left-arm"}, "who: expected text, not true"),
    ],
)
def test_fields_are_read_strictly(fields: dict[str, Any], message: str) -> None:
    with pytest.raises(InputError) as info:
        event_from_wire({"type": "swimmer-bitten", "v": 1, "round": 2, **fields})
    assert message in str(info.value)
    assert str(info.value).startswith("swimmer-bitten: ")


def test_a_flag_is_not_a_number() -> None:
    setup = {"type": "game-started", "v": 1, "round": 0, "variant": "standard", "memory": 1}
    setup.update(line=["A", "B", "C", "D"], hand_size=5)
    with pytest.raises(InputError, match="memory: expected true or false, not the number 1"):
        event_from_wire(setup)


def test_the_docs_name_every_type_and_field() -> None:
    text = (DOCS / "events.md").read_text(encoding="utf-8")
    documented = set(re.findall(r"^\| `([a-z-]+)` \|", text, re.MULTILINE))
    assert set(EVENT_TYPES) <= documented
    for cls in EVENT_TYPES.values():
        row = next(line for line in text.splitlines() if line.startswith(f"| `{cls.TYPE}` |"))
        for field in attrs.fields(cls):
            if field.name not in ("round", "pos"):
                assert f"`{field.name}`" in row, (cls.TYPE, field.name)


def test_the_docs_example_is_a_valid_log() -> None:
    from getbit_events.validate import validate_game
    from importers.jsonl import read_jsonl

    text = (DOCS / "events.md").read_text(encoding="utf-8")
    example = text.split("## An example game", 1)[1].split("```json\n", 1)[1].split("```", 1)[0]
    (game,) = read_jsonl(example, "events.md")
    report = validate_game(game)
    assert report.valid, [str(v) for v in report.violations]
    lines = [json.loads(line) for line in example.splitlines()]
    kept = [e for e in lines if e["type"] in ("game-started", "card-chosen", "cards-revealed")]
    reveals_only = "".join(json.dumps({**e, "seq": i}) + "\n" for i, e in enumerate(kept, 1))
    (short,) = read_jsonl(reveals_only, "short.jsonl")
    again = validate_game(short)
    strip = [attrs.evolve(e, pos=None) for e in report.events]
    assert [attrs.evolve(e, pos=None) for e in again.events] == strip


def test_payload_json_is_compact_json_of_the_payload() -> None:
    event = CardsRevealed(3, (('Zoë "x" \\ <script>', 4), ("=cmd()", None)))
    text = payload_json(event)
    assert text == _converters_text(event)
    assert text == '{"cards":[["Zoë \\"x\\" \\\\ <script>",4],["=cmd()",null]]}'


_HOSTILE = st.text(st.characters(blacklist_categories=("Cs",)), min_size=1, max_size=12)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(simulated_games(), _HOSTILE)
def test_every_payload_is_the_converters_compact_json(game: list[Any], name: str) -> None:
    # the store writes the commonest events straight from their fields; the text
    # must be exactly the converter's, or a game's hash would change
    renamed = [
        attrs.evolve(e, who=name) if "who" in attrs.fields_dict(type(e)) else e for e in game
    ]
    for event in [*game, *renamed]:
        expected = _converters_text(event)
        assert payload_json(event) == expected


def test_each_event_class_has_its_payload_written_as_the_converter_writes_it() -> None:
    for event in _class_examples():
        expected = _converters_text(event)
        assert payload_json(event) == expected, type(event).__name__


class _Name(str):
    """A text that is a subclass of str (the JSON encoder writes it as a text)."""


@pytest.mark.parametrize(
    "event",
    [
        CardsRevealed(1, (("Ann", True), ("Bob", 10**30), ("Cid", -1))),  # type: ignore[arg-type]
        CardsRevealed(1, [["Ann", 3]], number=0),  # type: ignore[arg-type]
        CardsRevealed(1, ((_Name("Ann"), None),), number=-2),
        CardsTakenBack(2, _Name('A"n\\n'), (1, False, 2.5)),  # type: ignore[arg-type]
        SharkCardPlayed(3, "Jaws", 4),  # type: ignore[arg-type]
        SwimmerMoved(4, "\u2028\x00\x7f", None),  # type: ignore[arg-type]
    ],
)
def test_odd_field_values_are_written_as_the_converter_writes_them(event: Any) -> None:
    # fields_text writes texts, whole numbers and None itself and leaves the rest to
    # the JSON encoder: whatever a field holds, the text is the converter's
    assert payload_json(event) == json.dumps(
        wire.payload(event), ensure_ascii=False, separators=(",", ":")
    )


def _converters_text(event: Any) -> str:
    """The payload as the converter makes it, in compact JSON (what the store must keep)."""
    return json.dumps(payload(event), ensure_ascii=False, separators=(",", ":"))


def _example(kind: Any, name: str) -> Any:
    text = kind.__name__ if isinstance(kind, type) else str(kind)  # resolved or not
    if text in ("int", "int | None"):  # CardsRevealed.number: a misnumbered round's
        return 3
    if text == "bool":
        return True
    if text.startswith(("str", "'str")):
        return name
    if "tuple[tuple[str, int | None]" in text or "tuple[tuple[str, int]" in text:
        return ((name, 4), ("Bob", None if "None" in text else 2))
    if "tuple[tuple[str, str]" in text:
        return ((name, "x"),)
    if "tuple[tuple[str, tuple[str" in text:
        return (("P", (name, "B")),)
    if text.startswith("tuple[int"):
        return (1, 2)
    if text.startswith("tuple[str"):
        return (name, "right-arm")
    raise AssertionError(f"no example for {text}")


# -- the store's fast path against the converter ----------------------------------


def _class_examples() -> list[Any]:
    """One event of every class, its text fields awkward for JSON."""
    name = 'Zoë "x" \\ <script>\n\u2028'
    return [
        cls(**{f.name: _example(f.type, name) for f in attrs.fields(cls) if f.name != "pos"})
        for cls in EVENT_TYPES.values()
    ]


def _store_path_differences(events: list[Any]) -> list[str]:
    """Where the store's path (payload_json, trusted_event) and the converter's
    (payload, event_from_payload) part, both called by name, for each event."""
    found = []
    for event in events:
        text = payload_json(event)
        if text != _converters_text(event):
            found.append(f"{event.TYPE}: payload_json writes {text}")
        strict = event_from_payload(event.TYPE, event.VERSION, event.round, json.loads(text))
        trusted = trusted_event(event.TYPE, event.VERSION, event.round, json.loads(text))
        # attrs equality is exact here: a list is not a tuple, an int not a str
        if (type(trusted), trusted) != (type(strict), strict) or strict != attrs.evolve(
            event, pos=None
        ):
            found.append(f"{event.TYPE}: trusted {trusted!r}, strict {strict!r}")
    return found


def test_every_class_reads_back_the_same_by_the_store_and_the_converter() -> None:
    assert _store_path_differences(_class_examples()) == []


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(simulated_games(), _HOSTILE)
def test_random_games_read_back_the_same_by_the_store_and_the_converter(
    game: list[Any], name: str
) -> None:
    renamed = [
        attrs.evolve(e, who=name) if "who" in attrs.fields_dict(type(e)) else e for e in game
    ]
    assert _store_path_differences([*game, *renamed]) == []


def test_a_broken_store_path_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    # the check above must see a fast path that builds a field wrongly (here the
    # cards of a reveal left as JSON lists), however the module was built
    version, make = wire._TRUSTED["cards-revealed"]

    def lists(round_: int, data: dict[str, Any]) -> Any:
        return attrs.evolve(make(round_, data), cards=data["cards"])

    monkeypatch.setitem(wire._TRUSTED, "cards-revealed", (version, lists))
    assert [d.split(":")[0] for d in _store_path_differences(_class_examples())] == [
        "cards-revealed"
    ]


_ODD = st.one_of(
    st.booleans(), st.none(), st.booleans(), st.integers(-3, 10**20), st.floats(allow_nan=False),
    st.text(max_size=3), st.just("x" * 1001), st.just([]), st.just({}), st.just(("Ann", 2)),
)


@st.composite
def _reveal_fields(draw: st.DrawFn) -> dict[str, Any]:
    """The fields of a ``cards-revealed`` as a log may give them: a plain one, and
    then a change or two that may make it odd or wrong."""
    names = draw(st.lists(st.sampled_from(["Ann", "Bob", "Zoë", ""]), max_size=6))
    cards: list[Any] = [[name, draw(st.one_of(st.none(), st.integers(0, 6)))] for name in names]
    data: dict[str, Any] = {"round": draw(st.integers(0, 60)), "cards": cards}
    if draw(st.booleans()):
        data["number"] = draw(st.one_of(st.none(), st.integers(0, 60)))
    if draw(st.booleans()):
        data["pos"] = draw(st.sampled_from([None, SourcePos("log.jsonl", 3, 1)]))
    for _ in range(draw(st.integers(0, 2))):
        change = draw(st.sampled_from(
            ["name", "card", "name", "card", "name", "card", "pair", "pair length", "round",
             "cards", "number", "pos", "extra", "missing"]
        ))
        if change in ("name", "card", "pair", "pair length") and cards:
            at = draw(st.integers(0, len(cards) - 1))
            if change == "pair":
                cards[at] = draw(_ODD)
            elif change == "pair length" and isinstance(cards[at], list):  # (not made odd)
                cards[at] = [*cards[at], 1] if draw(st.booleans()) else cards[at][:1]
            elif isinstance(cards[at], list) and len(cards[at]) == 2:
                cards[at][change == "card"] = draw(_ODD)
        elif change in ("round", "cards", "number"):
            data[change] = draw(_ODD)
        elif change == "pos":
            data["pos"] = {"line": 3}
        elif change == "extra":
            data[draw(st.sampled_from(["who", "card", "v"]))] = 1
        elif change == "missing":
            data.pop(draw(st.sampled_from(["round", "cards"])), None)
    return data


@settings(max_examples=400, deadline=None)
@given(_reveal_fields())
@example({"round": 1, "cards": [["Ann", True]]})  # a flag is not a number
@example({"round": 1, "cards": [["x" * 1001, 2]]})  # a name past MAX_TEXT
@example({"round": 1, "cards": [], "who": "Ann"})  # a field a reveal has not
@example({"round": 1, "cards": [("Ann", 2)]})  # a pair that is no JSON list
def test_a_plain_reveal_is_read_as_the_converter_reads_it(data: dict[str, Any]) -> None:
    fast = wire.plain_reveal(dict(data))
    try:
        slow: Any = wire.converter.structure(dict(data), CardsRevealed)
    except Exception:  # the converter refuses it: so must the fast path
        slow = None
    if fast is not None:
        assert fast == slow
        assert type(fast.cards) is tuple
        assert all(type(pair) is tuple for pair in fast.cards)


def test_the_reveals_of_a_log_take_the_plain_way() -> None:
    game = simulate_game("shark", 5, 3, "sensible")
    lines = [event_to_wire(e, "g1", n) for n, e in enumerate(game, 1)]
    reveals = [json.loads(json.dumps(line)) for line in lines if line["type"] == "cards-revealed"]
    assert reveals
    for line in reveals:
        fields = {k: v for k, v in line.items() if k not in ("type", "v", "game", "seq")}
        assert wire.plain_reveal(fields) == event_from_wire(line)


@pytest.mark.parametrize(("tag", "version", "round_"), [
    ("card-chosen", 1, True), ("card-chosen", 1, "1"), ("card-chosen", 1, 1.0),
    ("card-chosen", True, 1), ("card-chosen", "1", 1), (5, 1, 1), (None, 1, 1),
])
def test_an_envelope_of_the_wrong_kind_is_refused_by_either_build(
    tag: Any, version: Any, round_: Any
) -> None:
    # the compiled build took ``true`` for the round 1 at the call (a bool is an int to
    # mypyc), where the converter and plain Python refuse it: both must say the same
    with pytest.raises(InputError):
        event_from_payload(tag, version, round_, {"who": "Ann"})


def _events_of_every_plain_class() -> list[Event]:
    games = [simulate_game(v, n, seed, "sensible")
             for v, n, seed in (("shark", 5, 3), ("standard", 6, 4), ("two-player", 2, 5))]
    return [e for game in games for e in game if type(e) in wire._PLAIN]


def _fields(event: Event) -> dict[str, Any]:
    line = json.loads(json.dumps(event_to_wire(event, "g1", 1)))
    return {k: v for k, v in line.items() if k not in ("type", "v", "game", "seq")}


@st.composite
def _plain_fields(draw: st.DrawFn) -> tuple[type[Any], dict[str, Any]]:
    """An event's fields as a log may give them: as written, or one field made odd,
    removed, or one added."""
    event = draw(st.sampled_from(_EVERY_PLAIN))
    data = _fields(event)
    change = draw(st.sampled_from(["none", "value", "item", "missing", "extra", "pos"]))
    if change == "value":
        data[draw(st.sampled_from(sorted(data)))] = draw(_ODD)
    elif change == "item":
        lists = [k for k, v in data.items() if isinstance(v, list) and v]
        if lists:
            key = draw(st.sampled_from(lists))
            data[key][draw(st.integers(0, len(data[key]) - 1))] = draw(_ODD)
    elif change == "missing":
        data.pop(draw(st.sampled_from(sorted(data))))
    elif change == "extra":
        data[draw(st.sampled_from(["who", "card", "cards", "v", "zz"]))] = draw(_ODD)
    elif change == "pos":
        data["pos"] = draw(st.sampled_from([{"line": 3}, None, SourcePos("f", 2, 1)]))
    return type(event), data


_EVERY_PLAIN = _events_of_every_plain_class()


def test_every_class_read_plainly_is_among_the_games() -> None:
    assert {type(e) for e in _EVERY_PLAIN} >= {
        CardChosen, SharkCardPlayed, SwimmerMoved, SwimmerBitten, SwimmerDevoured,
        CardsTakenBack, GameEnded,
    }


@settings(max_examples=600, deadline=None)
@given(_plain_fields())
def test_a_plain_event_is_read_as_the_converter_reads_it(
    given_: tuple[type[Any], dict[str, Any]]
) -> None:
    cls, data = given_
    fast = wire.plain_event(cls, dict(data))
    try:
        slow: Any = wire.converter.structure(dict(data), cls)
    except Exception:  # the converter refuses it: so must the plain way
        slow = None
    if fast is not None:
        assert fast == slow
        assert all(type(getattr(fast, f.name)) is type(getattr(slow, f.name))
                   for f in attrs.fields(cls))


def test_the_events_of_a_log_take_the_plain_way() -> None:
    for event in _EVERY_PLAIN:
        assert wire.plain_event(type(event), _fields(event)) == event


@st.composite
def _wire_objects(draw: st.DrawFn) -> dict[str, Any]:
    """A wire object of a reveal or a Shark's card as a log may give it: as written, then
    its fields (``_reveal_fields``, ``_plain_fields``) or its envelope changed."""
    if draw(st.booleans()):
        tag, fields = "cards-revealed", draw(_reveal_fields())
    else:
        shark = draw(st.sampled_from([e for e in _EVERY_PLAIN if type(e) is SharkCardPlayed]))
        tag, fields = "shark-card-played", _fields(shark)
        if draw(st.booleans()):
            fields = draw(_plain_fields().filter(lambda g: g[0] is SharkCardPlayed))[1]
    data: dict[str, Any] = {"type": tag, "v": 1, "game": "g1", "seq": 4, **fields}
    change = draw(st.sampled_from(["none", "none", "v", "type", "game", "seq"]))
    if change == "v":
        data["v"] = draw(st.sampled_from([True, 1.0, "1", 0, 2, None]))
    elif change == "type":
        data["type"] = draw(st.sampled_from(["card-chosen", "cards-revealed", "shark-card-played"]))
    elif change in ("game", "seq"):
        del data[change]
    return data


_SHARK_LINE = {"type": "shark-card-played", "v": 1, "game": "g1", "seq": 4, "round": 2,
               "shark": "Jaws", "card": "left-arm"}


@settings(max_examples=600, deadline=None)
@given(_wire_objects(), st.sampled_from([None, SourcePos("log.jsonl", 7, 1)]))
@example({**_SHARK_LINE, "card": "x" * 1001}, None)  # a text past MAX_TEXT
@example({**_SHARK_LINE, "shark": "x" * 1001}, None)
@example({**_SHARK_LINE, "round": True}, None)  # a flag is not a number
@example({**_SHARK_LINE, "v": True}, None)
@example({**_SHARK_LINE, "card": 3}, None)
def test_a_plain_wire_object_is_read_as_the_converter_reads_it(
    data: dict[str, Any], pos: SourcePos | None
) -> None:
    fast = wire._plain_wire(dict(data), pos)
    if fast is None:
        return
    assert data["v"] == type(fast).VERSION
    assert type(data["v"]) is int
    assert "game" in data
    assert "seq" in data
    assert "pos" not in data
    fields = {k: v for k, v in data.items() if k not in ("type", "v", "game", "seq")}
    slow = wire.converter.structure({**fields, "pos": pos}, EVENT_TYPES[data["type"]])
    assert fast == slow
    assert all(type(getattr(fast, f.name)) is type(getattr(slow, f.name))
               for f in attrs.fields(type(fast)))


def test_the_reveals_and_shark_cards_of_a_log_take_the_plain_wire_way() -> None:
    game = simulate_game("shark", 5, 3, "sensible")
    lines = [json.loads(json.dumps(event_to_wire(e, "g1", n))) for n, e in enumerate(game, 1)]
    kinds = {"cards-revealed", "shark-card-played"}
    plain = [line for line in lines if line["type"] in kinds]
    assert {line["type"] for line in plain} == kinds
    for line in plain:
        pos = SourcePos("log.jsonl", line["seq"], 1)
        made = wire._plain_wire(line, pos)
        assert made is not None
        assert made == attrs.evolve(game[line["seq"] - 1], pos=pos)
    assert all(wire._plain_wire(line, None) is None for line in lines if line["type"] not in kinds)
