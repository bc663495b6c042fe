"""``store.encoding``: a game's events made compact without the database (in an
import's workers), the store's codes of their kinds put in by the one writer."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from strategies import simulated_games

from getbit_events.events import CardsRevealed, CardsTakenBack, Event
from getbit_events.simulate import SETUPS, simulate_game
from getbit_events.validate import validate_game
from importers.gbn import read_gbn, write_gbn
from importers.wire import payload_json
from store import GameStore, adding, encoding, eventlog


def _lines(texts: list[str]) -> list[str]:
    """The hash lines of ``encode_facts``'s texts: each event's line is three of them."""
    assert len(texts) % 3 == 0
    return ["".join(texts[k : k + 3]) for k in range(0, len(texts), 3)]


def _same_both_ways(events: list[Event]) -> None:
    """Events encoded from their facts (reveals and take-backs from their fields) are
    their payload texts shaped one by one, and their hash lines are the texts'."""
    encoded, texts = encoding.Shapes().encode_facts([(e.round, type(e), e, None) for e in events])
    rows = [(n, e.TYPE, e.VERSION, e.round, payload_json(e)) for n, e in enumerate(events, 1)]
    assert encoding.Shapes().encode(rows) == encoded
    assert _lines(texts) == [f"{t}\t{v}\t{r}\t{p}\n" for _, t, v, r, p in rows]


@pytest.mark.parametrize("k", range(len(SETUPS)))
def test_a_payload_shaped_from_its_fields_is_shaped_as_its_text(k: int) -> None:
    for seed in range(6):
        for bot in ("random", "sensible"):
            _same_both_ways(simulate_game(*SETUPS[k], seed=seed, bot=bot))


@given(events=simulated_games())
@settings(max_examples=60, deadline=None)
def test_every_event_of_random_games_is_shaped_as_its_text(events: list[Event]) -> None:
    _same_both_ways(events)


@pytest.mark.parametrize(
    "event",
    [
        CardsRevealed(1, (("Ann", 3), ("Bob", None))),
        CardsRevealed(1, ()),
        CardsRevealed(1, tuple((f"S{k}", k) for k in range(8))),  # 16 values: a template
        CardsRevealed(1, tuple((f"S{k}", k) for k in range(9))),  # 18: kept whole
        CardsRevealed(1, (('Jo"e', 3),)),  # an escape: kept whole
        CardsRevealed(1, (("Ann", 3), ('Jo"e', 3))),  # Ann is no string of the game then
        CardsRevealed(1, (("Ann", 3), ("Bob", 2.0))),  # type: ignore[arg-type]
        CardsRevealed(1, (("Zoë 100%", 3), ("日本", 0))),
        CardsRevealed(1, (("Ann", 3),), number=4),
        CardsRevealed(1, (("Ann", True),)),  # type: ignore[arg-type]  # not a card
        CardsTakenBack(2, "Ann", (1, 2, 3)),
        CardsTakenBack(2, "Ann", ()),
        CardsTakenBack(2, "A\\nn", (1,)),
        CardsTakenBack(2, "Ann", tuple(range(16))),  # 17 values: kept whole
        CardsTakenBack(2, "Ann%s", (-1, 0)),
    ],
)
def test_an_odd_payload_is_shaped_as_its_text_or_left_to_the_text(event: Event) -> None:
    _same_both_ways([event, event, CardsTakenBack(3, "Cy", (1,)), event])


def _reports(n: int, seed: int = 3) -> list[adding.NewGame]:
    games = [simulate_game("standard", 5, seed=seed + k, bot="random") for k in range(n)]
    return [adding.prepare(validate_game(g)) for g in read_gbn(write_gbn(games), "w.gbn")]


def test_what_a_worker_prepares_holds_no_kind_codes_and_the_writer_shapes_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Games prepared once go into two stores whose kinds have other codes (one
    holds other kinds already), and read back the same; the writer never shapes a
    payload (``encoding.shape``): the worker did."""
    news = _reports(3)
    other = _reports(2, seed=90)
    read: list[list[tuple[str, list[Event]]]] = []
    for name, first in (("a.db", []), ("b.db", other)):
        with GameStore(tmp_path / name) as store:
            for new in first:
                store.add(new)
            with monkeypatch.context() as m:
                m.setattr(encoding, "shape", lambda *a: pytest.fail("the writer shaped"))
                ids = [store.add(new).game_id for new in news]
            read.append([(i, store.events(i)) for i in ids])
            codes = [k for (k,) in store.db.execute("SELECT kind FROM event_kinds")]
            assert codes == sorted(codes)
    assert read[0] == read[1]
    a = GameStore(tmp_path / "a.db")
    b = GameStore(tmp_path / "b.db")
    kinds_a = dict(a.db.execute("SELECT template, kind FROM event_kinds").fetchall())
    kinds_b = dict(b.db.execute("SELECT template, kind FROM event_kinds").fetchall())
    assert kinds_a != {t: kinds_b[t] for t in kinds_a}  # the codes differ, the events not
    a.close()
    b.close()


@pytest.mark.parametrize(
    "payload",
    [
        '{"x":1.5,"y":"\\u0000"}',  # kept whole, a NUL escaped in it
        "\x00" + '0\x00"%s 1.5',  # kept whole, what a marker is, and a %
        '{"a":"\x00"}',
        "100% 1e3",
    ],
)
def test_a_payload_that_looks_like_a_marker_comes_back_byte_for_byte(
    tmp_path: Path, payload: str
) -> None:
    with GameStore(tmp_path / "g.db") as store:
        conn = store.db.conn
        rows = [(1, "card-chosen", 1, 0, '{"who":"Ann"}'), (2, "x", 1, 0, payload),
                (3, "x", 1, 0, payload), (4, "card-chosen", 1, 0, '{"who":"B%"}')]
        strings, runs = eventlog.Log().encode(conn, rows)
        decoded = eventlog.Decoded()
        eventlog.run_rows(conn, eventlog.Kinds(), json.loads(strings), runs, decoded)
        assert decoded.unread == []
        assert decoded.rows == list(rows)


def _runs_as_json(encoded: encoding.Encoded) -> list[str]:
    """Each run's text with the kinds' placeholders made their numbers."""
    codes = {str(n): n for n in range(len(encoded[0]))}
    return [text % codes for _, _, text in encoded[2]]


@given(events=simulated_games())
@settings(max_examples=40, deadline=None)
def test_a_run_is_the_compact_json_of_its_events(events: list[Event]) -> None:
    """A game's events encoded from their fields and texts: each run's text (its kinds
    numbered) is its elements' compact JSON, byte for byte, as ``dump`` writes it,
    and the game's rows encode the same."""
    payloads = [payload_json(e) for e in events]
    encoded, texts = encoding.Shapes().encode_facts([(e.round, type(e), e, None) for e in events])
    for text in _runs_as_json(encoded):
        assert text == encoding.dump(json.loads(text))
    rows = [(n, e.TYPE, e.VERSION, e.round, p)
            for n, (e, p) in enumerate(zip(events, payloads, strict=True), 1)]
    assert encoding.Shapes().encode(rows) == encoded
    assert _lines(texts) == [f"{t}\t{v}\t{r}\t{p}\n" for _, t, v, r, p in rows]


@pytest.mark.parametrize(
    "value", [0, -3, 10**30, True, False, None, "Zoë 100%", 'a"b\\c', "\x00", "%(0)s"]
)
def test_a_value_of_an_element_is_written_as_json_writes_it(value: object) -> None:
    rows = [(1, "x", 1, 0, value), (2, "card-chosen", 1, 0, '{"who":"A%"}'),
            (3, "y", 1, 0, '{"n":' + encoding.dump(value) + "}")]
    (text,) = _runs_as_json(encoding.Shapes().encode(rows))
    assert text == encoding.dump(json.loads(text))
    if not isinstance(value, str):  # a payload that is no text is kept whole, as it is
        assert json.loads(text)[0][1] == value
