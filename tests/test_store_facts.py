"""A game is made ready to store from its facts (``GameReport.facts``), without making
its events: its hash, its compact events and its read-model rows must be what its
events give, byte for byte, on any record, legal or mangled (issue 15)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st
from strategies import drawn_games, simulated_games

from getbit_events.events import (
    CardChosen,
    Event,
    GameStarted,
    HungerLost,
    SharkCardPlayed,
    SharkCardsTakenBack,
    SwimmerBitten,
    SwimmerDevoured,
    SwimmerMoved,
)
from getbit_events.steps import (
    EVENT_OF,
    Bitten,
    Devoured,
    HungerLeft,
    Moved,
    SharkTookBack,
    fact_event,
)
from getbit_events.validate import GameReport, validate_game
from importers import iter_file
from importers.gbn import read_gbn, write_gbn
from importers.wire import payload_json
from store import adding, encoding, readmodel, stored

# not marked ``layers``: store/adding.py, encoding.py and readmodel.py are compiled
# (setup.py's COMPILED), so the compiled build's pass of .ci/run runs these too

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "games"

_PIECES = ["bit ", "out ", "miss", "hunger ", "line ", "refresh ", "discard ", "Ann", "7",
           "-", ",", "\n", "any-limb", "right-arm", "exhaustion", "Jaws "]
_edits = st.lists(
    st.tuples(st.floats(0, 1), st.booleans(), st.sampled_from(_PIECES)), max_size=5
)


def _from_events(report: GameReport) -> tuple[str, encoding.Encoded, tuple[Any, ...]]:
    """The hash, compact events and read-model rows of ``report`` made from its events,
    each payload shaped from its text: the store's way before facts."""
    events = report.events
    payloads = [payload_json(e) for e in events]
    hashed = stored.digest(report, payloads, events)
    rows = [(n, e.TYPE, e.VERSION, e.round, p)
            for n, (e, p) in enumerate(zip(events, payloads, strict=True), 1)]
    model = ()
    if events:
        status = stored.status_of(report)
        model = tuple(readmodel.row_tuples(hashed[:12], events, status, dict(events[0].tags)))
    return hashed, encoding.Shapes().encode(rows), model


def _same(report: GameReport) -> None:
    if not report.readable:
        return
    new = adding.prepare(report)  # the module's Shapes: what earlier games left written
    assert (new.digest, new.events, new.rows) == _from_events(report)


def _facts_are_events(report: GameReport) -> None:
    events = report.events
    facts = report.facts()
    assert len(facts) == len(events)
    for (r, kind, value, _pos), event in zip(facts, events, strict=True):
        assert (r, kind) == (event.round, type(event))
        if kind is CardChosen:
            assert value == event.who
        elif type(value) in EVENT_OF:  # a step: the event's fields by the same names
            assert all(getattr(value, f) == getattr(event, f) for f in value._fields)
        else:
            assert value == event


def _mangled(events: list[Event], edits: list[tuple[float, bool, str]], outcomes: bool) -> str:
    text = write_gbn([events], outcomes=outcomes)
    for where, insert, piece in edits:
        i = int(where * len(text))
        text = text[:i] + piece + text[i + (not insert):]
    return text


@settings(max_examples=120, deadline=None)
@given(st.one_of(simulated_games(), drawn_games()), _edits, st.booleans())
def test_a_game_is_stored_from_its_facts_as_from_its_events(
    events: list[Event], edits: list[tuple[float, bool, str]], outcomes: bool
) -> None:
    for game in read_gbn(_mangled(events, edits, outcomes), "f.gbn"):
        report = validate_game(game)
        _facts_are_events(report)
        _same(report)


def test_every_fixture_is_stored_from_its_facts_as_from_its_events() -> None:
    files = sorted(FIXTURES.rglob("*.gbn")) + sorted(FIXTURES.rglob("*.jsonl"))
    assert files
    checked = 0
    for path in files:
        for game in iter_file(path, "jsonl" if path.suffix == ".jsonl" else "gbn"):
            report = validate_game(game)
            _facts_are_events(report)
            _same(report)
            checked += report.readable
    assert checked > 20


def test_a_fact_is_written_once_only_when_its_values_are_texts() -> None:
    """Facts equal as values are one payload only when they are of one kind and hold
    texts (or, the Shark's, whole numbers): ``1 == True``, so a name that is a number
    must not take the text of a name that is a flag, nor a hunger of 1 that of a hunger
    of true; a move and a devouring of the same fields are two kinds."""
    setup = GameStarted(0, "standard", False, ("Ann", "Bob"), 5)
    made = [
        (0, GameStarted, setup, None),
        (1, CardChosen, "Ann", None),
        (1, SwimmerMoved, Moved(1, "card"), None),  # type: ignore[arg-type]
        (2, SwimmerMoved, Moved(True, "card"), None),  # type: ignore[arg-type]
        (2, SwimmerBitten, Bitten("Ann", "left-arm"), None),
        (3, CardChosen, "Ann", None),
        (3, SwimmerBitten, Bitten("Ann", "left-arm"), None),
        (3, SwimmerMoved, Moved("Bob", "bite"), None),
        (4, SwimmerDevoured, Devoured("Bob", "bite"), None),
        (5, SharkCardPlayed, SharkCardPlayed(5, "Shark", "fin"), None),
        (5, HungerLost, HungerLeft(1), None),
        (6, HungerLost, HungerLeft(True), None),  # type: ignore[arg-type]
        (6, SharkCardsTakenBack, SharkTookBack(("fin",)), None),
        (7, SharkCardPlayed, SharkCardPlayed(7, "Shark", "fin"), None),
        (7, SharkCardsTakenBack, SharkTookBack(("fin",)), None),
    ]
    events = [fact_event(f) for f in made]
    expected = [f"{e.TYPE}\t{e.VERSION}\t{e.round}\t{payload_json(e)}\n" for e in events]
    rows = [(n, e.TYPE, e.VERSION, e.round, payload_json(e)) for n, e in enumerate(events, 1)]
    shapes = encoding.Shapes()
    for _ in range(2):  # the second time, from what the first left written
        encoded, texts = shapes.encode_facts(made)
        assert len(texts) == 3 * len(expected)  # each event's line in three texts
        lines = ["".join(texts[k : k + 3]) for k in range(0, len(texts), 3)]
        assert '"who":1,' in lines[2]
        assert '"who":true,' in lines[3]
        assert lines[10].endswith('{"left":1}\n')
        assert lines[11].endswith('{"left":true}\n')
        assert lines == expected
        assert encoding.Shapes().encode(rows) == encoded
