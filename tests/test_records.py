"""Records are kept as recorded: what a game's events say is what its record says,
mistakes included, and the game goes on from what the record says happened.

So exporting a stored game (GBN or JSON Lines) and validating the export gives
the same verdict as the record, and importing the export stores nothing new.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import attrs
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from strategies import drawn_games, simulated_games
from test_properties import KIND_VARIANTS, KINDS, VARIANTS, inject
from test_rulings import R6_RECORD

from getbit_events.events import (
    CardsDiscarded,
    CardsRevealed,
    CardsTakenBack,
    Event,
    GameEnded,
    GameStarted,
    HungerStated,
    LineStated,
    MissStated,
    PlayStated,
    SharkCardPlayed,
    SwimmerBitten,
    SwimmerDevoured,
)
from getbit_events.reducer import fold, replay
from getbit_events.simulate import simulate_game
from getbit_events.validate import GameReport, validate_game
from importers import iter_file
from importers.gbn import read_gbn, read_gbn_file, write_gbn
from importers.jsonl import read_jsonl, write_jsonl
from store import GameStore
from store.stored import game_hash

SLOW = settings(
    max_examples=int(os.environ.get("GETBIT_RECORDS_EXAMPLES", "25")),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


def check(text: str) -> GameReport:
    [game] = read_gbn(text, "r.gbn")
    return validate_game(game)


def verdict(report: GameReport) -> tuple[Any, ...]:
    """What validating a record says: valid, finished, winner, ranking, and each
    violation's code and round (in round order: a log and GBN put a round's
    outcomes on different lines)."""
    codes = sorted((v.round or 0, v.code) for v in report.violations)
    return (report.valid, report.finished, report.winner, report.ranking, codes)


def exported(report: GameReport) -> Iterator[tuple[str, GameReport]]:
    """The record's events written as GBN and as JSON Lines, and each validated."""
    events = report.events
    [gbn] = read_gbn(write_gbn([events]), "back.gbn")
    yield "gbn", validate_game(gbn)
    [log] = read_jsonl("".join(write_jsonl([("g", events)])), "back.jsonl")
    yield "jsonl", validate_game(log)


def assert_kept_as_recorded(text: str, store: GameStore) -> None:
    report = check(text)
    assert report.readable, text
    first = store.add(report)
    for fmt, back in exported(report):
        assert verdict(back) == verdict(report), f"{fmt}:\n{text}"
        again = store.add(back)
        assert (again.game_id, again.stored) == (first.game_id, False), f"{fmt}:\n{text}"


_STORE: list[GameStore] = []


def store() -> GameStore:
    """One store for the whole module: a game's id is its content, so games of
    different examples never meet, and one imported twice is 'already stored'."""
    if not _STORE:
        folder = tempfile.mkdtemp(prefix="getbit-records-")
        _STORE.append(GameStore(Path(folder) / "r.db"))
    return _STORE[0]


# -- the property --------------------------------------------------------------------


any_game = st.one_of(simulated_games(), drawn_games())


@SLOW
@given(any_game, st.data())
def test_valid_and_unfinished_games_come_back_as_they_were(
    events: list[Event], data: st.DataObject
) -> None:
    text = write_gbn([events], outcomes=data.draw(st.booleans()))
    lines = text.rstrip("\n").split("\n")
    first = lines.index("") + 1  # the first round line, after the tags
    keep = data.draw(st.integers(first, len(lines)))  # a record cut short is unfinished
    cut = [line for line in lines[:keep] if keep == len(lines) or not line.startswith("[Win")]
    assert_kept_as_recorded("\n".join(cut) + "\n", store())


@pytest.mark.parametrize("kind", KINDS)  # every kind of injected error
@SLOW
@given(data=st.data())
def test_an_invalid_record_comes_back_with_the_same_verdict(
    kind: str, data: st.DataObject
) -> None:
    variant = data.draw(st.sampled_from(KIND_VARIANTS.get(kind, VARIANTS)))
    events = data.draw(st.one_of(simulated_games(variant), drawn_games(variant)))
    text, _ = inject(kind, events, data)
    assert_kept_as_recorded(text, store())


def test_every_invalid_fixture_comes_back_with_the_same_verdict() -> None:
    fixtures = sorted(Path(__file__).parent.parent.joinpath("fixtures", "invalid").glob("*.gbn"))
    checked = 0
    for path in fixtures:
        for game in read_gbn(path.read_text(encoding="utf-8"), path.name):
            report = validate_game(game)
            if not report.readable or not report.events:
                continue  # a syntax error or a broken set-up: no events to export
            checked += 1
            for fmt, back in exported(report):
                assert verdict(back) == verdict(report), f"{path.name} as {fmt}"
    assert checked >= 15


# -- what the events keep -------------------------------------------------------------


HEAD = '[Line "John, Anne, Beth, Ted"]\n\n1. John 4, Anne 1, Beth 4, Ted 5\n'


def reveal(report: GameReport, r: int) -> CardsRevealed:
    return next(e for e in report.events if isinstance(e, CardsRevealed) and e.round == r)


def test_plays_the_game_cannot_take_are_kept_after_the_swimmers_plays() -> None:
    text = HEAD + "2. John 3, Zed 2, Anne 2, Beth 5, Anne 4\n"  # Ted plays nothing
    report = check(text)
    assert [v.code for v in report.violations] == [
        "missing-play", "unknown-swimmer", "duplicate-play"
    ]
    # Ted's missing play is not 'no card' (that would be 'Ted -'); Zed and Anne's
    # second play are kept, as written, and change nothing
    assert reveal(report, 2).cards == (  # the line after round 1: Ted, Anne, John, Beth
        ("Anne", 2), ("John", 3), ("Beth", 5), ("Zed", 2), ("Anne", 4)
    )
    state = report.state
    assert state is not None
    assert state.swimmer("Anne").table == (1, 2)


def test_a_misnumbered_round_keeps_its_number() -> None:
    report = check(HEAD + "15. John 3, Anne 2, Beth 5, Ted 1\n")
    assert [(v.code, v.round) for v in report.violations] == [("round-number", 2)]
    assert (reveal(report, 2).round, reveal(report, 2).number) == (2, 15)
    assert reveal(report, 1).number is None  # a round numbered right says nothing more
    assert "\n15. Ted 1, Anne 2" in write_gbn([report.events])


def test_a_round_after_the_end_and_a_wrong_winner_are_kept() -> None:
    text = (
        '[Line "A, B, C, X"]\n[Winner "A"]\n\n'
        + Path(__file__).parent.parent.joinpath("fixtures", "invalid", "two-left-bit.gbn")
        .read_text(encoding="utf-8").split("\n\n", 1)[1].rsplit("\n9.", 1)[0]
        + "\n9. X 1, B 2, C 3\n10. C 1\n"
    )
    report = check(text)
    assert [v.code for v in report.violations] == ["wrong-winner", "round-after-end"]
    setup = report.events[0]
    assert isinstance(setup, GameStarted)
    assert ("Winner", "A") in setup.tags  # the record's claim, kept with its tags
    assert reveal(report, 10).cards == (("C", 1),)
    state = report.state
    assert state is not None
    assert (state.finished, state.winner) == (True, "C")  # the late round changes nothing
    assert '[Winner "A"]' in write_gbn([report.events])


def test_the_sharks_card_in_round_1_is_kept() -> None:
    text = (
        '[Line "A, B, C, D"]\n[Variant "shark"]\n[Shark "Jaws"]\n\n'
        "1. A 1, B 2, C 3, D 4, Jaws right-arm\n"
    )
    report = check(text)
    assert [v.code for v in report.violations] == ["shark-round-1"]
    assert any(isinstance(e, SharkCardPlayed) and e.round == 1 for e in report.events)


# -- the game as played ---------------------------------------------------------------


def test_a_wrong_bite_is_followed_and_reported_once() -> None:
    # R6: Ted is at the back in round 2 and the rules bite him; the table bit Anne
    # and went on from there: round 3 is recorded as played after that bite
    # (round 3: Anne and Beth tie on 3; Ted and John move; Beth is at the back)
    text = HEAD + (
        "2. John 3, Anne 2, Beth 5, Ted 1 ; bit Anne ; line Anne, Beth, John, Ted\n"
        "3. John 5, Anne 3, Beth 3, Ted 2 ; bit Beth ; line Beth, John, Ted, Anne\n"
    )
    report = check(text)
    assert [(v.code, v.round) for v in report.violations] == [("wrong-bite", 2)]
    bites = [(e.round, e.who) for e in report.events if isinstance(e, SwimmerBitten)]
    assert bites == [(2, "Anne"), (3, "Beth")]
    state = report.state
    assert state is not None
    assert state.limbs() == {"John": 4, "Anne": 3, "Beth": 3, "Ted": 4}
    assert state.line == ("Beth", "John", "Ted", "Anne")


def test_a_wrong_line_is_the_line_the_next_round_starts_from() -> None:
    text = HEAD + (
        "2. John 3, Anne 2, Beth 5, Ted 1 ; line John, Anne, Beth, Ted\n"
        "3. John 5, Anne 3, Beth 3, Ted 2\n"
    )
    report = check(text)
    assert [(v.code, v.round) for v in report.violations] == [("wrong-line", 2)]
    # round 2 as recorded: Ted bitten (not stated, so the rules'), then the line stated;
    # round 3 moves from it: Anne and Beth tie and stay, Ted (2) and John (5) move,
    # and Beth, at the back of John, Ted, Anne, Beth, is bitten
    state = report.state
    assert state is not None
    assert state.line == ("Beth", "John", "Ted", "Anne")


def test_a_wrong_refresh_is_followed() -> None:
    text = HEAD + "2. John 3, Anne 2, Beth 5, Ted 1 ; refresh John\n"
    report = check(text)
    assert [(v.code, v.round) for v in report.violations] == [("wrong-refresh", 2)]
    taken = [e.who for e in report.events if isinstance(e, CardsTakenBack) and e.round == 2]
    assert taken == ["Ted", "John"]  # Ted with his bite (R6); John as the record says


# -- what only the record says, kept --------------------------------------------------


SHARK_HEAD = '[Line "A, B, C, D"]\n[Variant "shark"]\n[Shark "Jaws"]\n\n1. A 1, B 2, C 3, D 4'


def kept(text: str, tmp_path: Path) -> GameReport:
    """The record checked, and held to its exports (same verdict, same id)."""
    with GameStore(tmp_path / "kept.db") as db:
        assert_kept_as_recorded(text, db)
    return check(text)


def test_a_bite_of_a_limb_already_lost_keeps_the_limb_the_record_states(
    tmp_path: Path,
) -> None:
    # round 3: all four move, Ted (1) first, so Ted ends at the back; his right arm went
    # in round 2, so the rules take his left arm (R6), and the record says right arm
    text = HEAD + (
        "2. John 3, Anne 2, Beth 5, Ted 1 ; bit Ted right-arm\n"
        "3. Ted 1, Beth 3, John 5, Anne 4 ; bit Ted right-arm\n"
    )
    report = kept(text, tmp_path)
    assert [(v.code, v.round) for v in report.violations] == [("wrong-limb", 3)]
    bites = [(e.round, e.who, e.limb) for e in report.events if isinstance(e, SwimmerBitten)]
    assert bites == [(2, "Ted", "right-arm"), (3, "Ted", "right-arm")]  # as recorded
    assert report.state.limbs()["Ted"] == 2  # a bite still takes a limb: the first left
    assert "; bit Ted right-arm ;" in write_gbn([report.events]).split("\n3. ")[1]


def test_a_refresh_naming_only_the_bitten_swimmer_is_kept(tmp_path: Path) -> None:
    # round 4: John is bitten; Anne and Beth hold one card each and take theirs back
    # (R7); the record lists John alone, and GBN has no other way to say 'nobody else'
    text = HEAD + (
        "2. John 3, Anne 2, Beth 5, Ted 1\n3. Ted 1, Beth 3, John 5, Anne 4\n"
        "4. Ted 5, John 1, Anne 3, Beth 2 ; refresh John\n"
    )
    report = kept(text, tmp_path)
    assert [(v.code, v.round) for v in report.violations] == [("wrong-refresh", 4)] * 2
    taken = [(e.who, e.cards) for e in report.events if isinstance(e, CardsTakenBack)]
    assert taken[-2:] == [("John", (4, 3, 5, 1)), ("John", ())]  # its bite's, then listed
    assert "; refresh John ;" in write_gbn([report.events])
    state = report.state
    assert state is not None
    assert state.swimmer("Anne").hand == {5}  # the game as played: Anne took nothing back


@pytest.mark.parametrize(
    ("text", "who", "card"),
    [
        (HEAD + "2. John 3, Anne right-arm, Beth 5, Ted 1\n", "Anne", "right-arm"),
        (HEAD + "2. John 3, Anne 2, Beth 5, Ted Exhaustion\n", "Ted", "Exhaustion"),
        (SHARK_HEAD + "\n2. A 2, B 3, C 4, D 5, Jaws 3\n", "Jaws", "3"),
    ],
)
def test_a_card_of_the_wrong_kind_is_kept(
    text: str, who: str, card: str, tmp_path: Path
) -> None:
    # R3, R11: a swimmer plays a numbered card, the Shark a Shark card; the play is
    # flagged and kept as written, and it moves nobody (the swimmer plays no number)
    report = kept(text, tmp_path)
    assert ("wrong-card-kind", 2) in [(v.code, v.round) for v in report.violations]
    words = [(e.round, e.who, e.card) for e in report.events if isinstance(e, PlayStated)]
    assert words == [(2, who, card.casefold())]  # as the reader reads a Shark card
    assert f"{who} {card.casefold()}" in write_gbn([report.events]).split("\n2. ")[1]
    if who != "Jaws":  # a swimmer's play of no number: no card, as with '-' (R15)
        assert (who, None) in reveal(report, 2).cards


def test_a_refresh_listing_a_bitten_swimmer_with_nothing_to_take_is_kept(
    tmp_path: Path,
) -> None:
    # round 4: Ted played no card and his table is empty (his bite of round 2 gave all
    # back); he is bitten again and took nothing with it (R6). John, Anne and Beth
    # hold one card each and take theirs back (R7); the record lists Ted alone
    text = HEAD + (
        "2. John 3, Anne 2, Beth 5, Ted 1\n3. John 5, Anne 4, Beth 3, Ted -\n"
        "4. Ted -, John 2, Anne 3, Beth 1 ; refresh Ted\n"
    )
    report = kept(text, tmp_path)
    assert [(v.code, v.round) for v in report.violations if v.round == 4] == [
        ("no-card-claimed", 4)
    ] + [("wrong-refresh", 4)] * 3
    taken = [(e.round, e.who, e.cards) for e in report.events if isinstance(e, CardsTakenBack)]
    assert taken[-1] == (4, "Ted", ())  # listed, with nothing to take: not his bite's
    assert "; bit Ted right-leg ; refresh Ted ;" in write_gbn([report.events])


def test_a_hunger_stated_without_a_miss_is_kept(tmp_path: Path) -> None:
    report = kept(SHARK_HEAD + " ; hunger 5\n", tmp_path)
    assert [(v.code, v.round) for v in report.violations] == [("wrong-hunger", 1)]
    assert report.events[-1] == HungerStated(1, 5, report.events[-1].pos)
    state = report.state
    assert state is not None
    assert state.shark is not None
    assert state.shark.hunger == 4  # R12: only a miss costs a token; the word is kept


@pytest.mark.parametrize(
    ("said", "codes"),
    [(" ; miss ; hunger 3", 2), (" ; hunger 0", 1), (" ; miss", 1), (" ; bit Ted ; miss", 1)],
)
def test_a_miss_and_a_hunger_in_a_game_without_a_shark_are_kept(
    said: str, codes: int, tmp_path: Path
) -> None:
    # R11, R12: only the shark variant's Shark misses and holds hunger tokens; a
    # standard game's record stating either is flagged, and the words are kept
    report = kept(HEAD + "2. John 3, Anne 2, Beth 5, Ted 1" + said + "\n", tmp_path)
    assert [(v.code, v.round) for v in report.violations] == [("shark-only", 2)] * codes
    kinds = [type(e) for e in report.events if e.round == 2]
    assert (MissStated in kinds) == ("miss" in said)
    assert (HungerStated in kinds) == ("hunger" in said)
    round_2 = write_gbn([report.events]).split("\n2. ")[1]
    assert all(word in round_2 for word in said.split(" ; ")[1:])
    state = report.state
    assert state is not None
    assert state.limbs()["Ted"] == 3  # the rules' bite: the words change nothing


def test_a_discard_in_a_game_without_a_shark_is_followed(tmp_path: Path) -> None:
    # R11: only the Shark's Exhaustion discards; a standard game's record stating a
    # discard is flagged, and the game goes on without the card, as played: round 2
    # bites Ted (at the back), who takes back his 5 and not his 1, discarded
    text = HEAD + "2. John 3, Anne 2, Beth 5, Ted 1 ; discard Ted 1\n"
    report = kept(text, tmp_path)
    assert [(v.code, v.round) for v in report.violations] == [("shark-only", 2)]
    kept_cards = [e.cards for e in report.events if isinstance(e, CardsDiscarded)]
    assert kept_cards == [(("Ted", 1),)]
    taken = [(e.who, e.cards) for e in report.events if isinstance(e, CardsTakenBack)]
    assert taken == [("Ted", (5,))]
    assert "; discard Ted 1 ;" in write_gbn([report.events])
    state = report.state
    assert state is not None
    assert state.swimmer("Ted").discards == (1,)


@pytest.mark.parametrize(
    ("late", "words"),
    [
        ("10. C right-arm, B 2", [("C", "right-arm")]),
        ("10. B exhaustion, C -, A left-leg", [("B", "exhaustion"), ("A", "left-leg")]),
    ],
)
def test_a_card_of_the_wrong_kind_after_the_end_is_kept(
    late: str, words: list[tuple[str, str]], tmp_path: Path
) -> None:
    # R17: a round after the end changes nothing; its plays are kept as written, a
    # card of the wrong kind as before the end (R3: a swimmer plays a number)
    text = (
        '[Line "A, B, C, X"]\n\n'
        + Path(__file__).parent.parent.joinpath("fixtures", "invalid", "two-left-bit.gbn")
        .read_text(encoding="utf-8").split("\n\n", 1)[1].rsplit("\n9.", 1)[0]
        + "\n9. X 1, B 2, C 3\n" + late + "\n"
    )
    report = kept(text, tmp_path)
    assert [(v.code, v.round) for v in report.violations] == [("round-after-end", 10)]
    assert [(e.who, e.card) for e in report.events if isinstance(e, PlayStated)] == words
    assert (words[0][0], None) in reveal(report, 10).cards
    assert late in write_gbn([report.events])


def test_the_sharks_number_after_the_end_is_kept(tmp_path: Path) -> None:
    text = (
        SHARK_HEAD + "\n2. A 2, B 3, C 4, D 5, Jaws exhaustion ; miss ; hunger 0\n"
        "3. Jaws 4, A 1, B 1\n"
    )
    report = kept(text, tmp_path)
    assert [(v.code, v.round) for v in report.violations] == [
        ("wrong-hunger", 2), ("round-after-end", 3)
    ]
    assert [(e.who, e.card) for e in report.events if isinstance(e, PlayStated)] == [
        ("Jaws", "4")
    ]
    assert reveal(report, 3).cards == (("A", 1), ("B", 1))  # the Shark's is no swimmer's
    assert "\n3. A 1, B 1, Jaws 4" in write_gbn([report.events])


def test_a_line_naming_a_devoured_swimmer_is_kept(tmp_path: Path) -> None:
    report = kept(R6_RECORD.replace("line B, E, D, C", "line B, E, D, C, A"), tmp_path)
    assert [(v.code, v.round) for v in report.violations] == [("wrong-line", 5)]
    assert [e.line for e in report.events if isinstance(e, LineStated)] == [
        ("B", "E", "D", "C", "A")
    ]
    state = report.state
    assert state is not None
    assert state.line == ("B", "E", "D", "C")


def test_a_line_naming_a_name_not_in_the_game_is_kept(tmp_path: Path) -> None:
    # a slip of the pen in a stated line ('Annn'): flagged, kept as written, and the
    # game goes on from the rules' line (R4)
    text = HEAD + "2. John 3, Anne 2, Beth 5, Ted 1 ; line Ted, Annn, John, Beth\n"
    report = kept(text, tmp_path)
    assert [(v.code, v.round) for v in report.violations] == [("wrong-line", 2)]
    assert [e.line for e in report.events if isinstance(e, LineStated)] == [
        ("Ted", "Annn", "John", "Beth")
    ]
    rules_line = check(HEAD + "2. John 3, Anne 2, Beth 5, Ted 1\n").state
    assert report.state is not None
    assert rules_line is not None
    assert report.state.line == rules_line.line


def test_a_bite_and_an_out_of_a_devoured_swimmer_are_kept(tmp_path: Path) -> None:
    report = kept(R6_RECORD + "6. B 1, C 1, D 1, E 1 ; bit A ; out A\n", tmp_path)
    assert [(v.code, v.round) for v in report.violations] == [
        ("wrong-bite", 6), ("wrong-out", 6)
    ]
    last = [(e.TYPE, e.who) for e in report.events if e.round == 6 and hasattr(e, "who")]
    assert last[-2:] == [("swimmer-bitten", "A"), ("swimmer-devoured", "A")]
    state = report.state
    assert state is not None
    assert state.devoured == ("A",)  # devoured once: the words change nothing


def test_an_out_of_a_name_not_in_the_game_is_kept(tmp_path: Path) -> None:
    # a slip of the pen ('Tedd'): flagged, kept as written, and nobody is devoured
    report = kept(HEAD + "2. John 3, Anne 2, Beth 5, Ted 1 ; out Tedd\n", tmp_path)
    assert [(v.code, v.round) for v in report.violations] == [("unknown-swimmer", 2)]
    outs = [(e.who, e.why) for e in report.events if isinstance(e, SwimmerDevoured)]
    assert outs == [("Tedd", "recorded")]
    state = report.state
    assert state is not None
    assert state.devoured == ()
    assert state.limbs()["Ted"] == 3  # the rules' bite (R6): the word changes nothing


def test_a_log_stating_what_a_wrong_hunger_ended_is_checked_once(tmp_path: Path) -> None:
    # round 2: Exhaustion finds no tie and misses (R12): 3 tokens left, the Shark takes
    # its card back. The record says 0 left, so the game ended there (R14), as played;
    # the log of it states no take-back, which is right for the game as played
    text = SHARK_HEAD + "\n2. A 2, B 3, C 4, D 5, Jaws exhaustion ; miss ; hunger 0\n"
    report = kept(text, tmp_path)
    assert [(v.code, v.round) for v in report.violations] == [("wrong-hunger", 2)]
    assert (report.finished, report.winner) == (True, "D")
    [log] = read_jsonl("".join(write_jsonl([("g", report.events)])), "back.jsonl")
    assert [(v.code, v.round) for v in validate_game(log).violations] == [("wrong-hunger", 2)]


# -- the reducer trusts --------------------------------------------------------------


def test_the_fold_takes_any_recorded_fact_without_raising() -> None:
    setup = GameStarted(0, "standard", False, ("A", "B", "C", "D"), 5)
    events: list[Event] = [
        setup,
        CardsRevealed(1, (("A", 1), ("Zed", 3), ("A", 2), ("B", 99), ("C", None))),
        SwimmerBitten(1, "Zed", "right-arm"),
        SwimmerDevoured(1, "Nobody"),
        CardsTakenBack(1, "Zed", (3,)),
        GameEnded(1, "A", ("A",), "R8"),
        CardsRevealed(2, (("A", 3),)),
    ]
    states = list(replay(events))
    final = fold(events)
    assert states[-1] == final
    assert final.finished
    assert final.winner == "A"
    assert final.swimmer("A").table == (1,)  # A's second play changes nothing
    assert final.swimmer("B").table == (99,)  # a card no hand holds is still played


def test_a_stored_invalid_game_exports_as_recorded(tmp_path: Path) -> None:
    text = HEAD + "2. John 3, Anne 2, Beth 5, Ted 1 ; bit Anne\n7. John 5, Ted 2, Zed 1\n"
    report = check(text)
    with GameStore(tmp_path / "s.db") as db:
        added = db.add(report)
        events = db.events(added.game_id)
        [(_, streamed)] = list(db.streams())  # the store's trusted path reads it alike
    assert [attrs.evolve(e, pos=None) for e in report.events] == events == streamed
    assert [e.number for e in events if isinstance(e, CardsRevealed)] == [None, None, 7]
    [back] = read_gbn(write_gbn([events]), "back.gbn")
    assert verdict(validate_game(back)) == verdict(report)


def test_a_valid_games_id_is_what_stores_before_this_gave_it() -> None:
    # a valid game's events did not change: a store written before records were kept
    # as recorded finds it already stored (ids from the commit before, f21aaf0)
    root = Path(__file__).parent.parent / "fixtures" / "games"
    ids = [
        game_hash(validate_game(g))[:12]
        for name in ("friday-club.gbn", "sim-shark-5.gbn")
        for g in read_gbn_file(root / name)
    ]
    assert ids == ["8748a9ff4d30", "f9844aa6e2df", "2a1f9c0f9d01", "c9ac7f5ea6b5"]


# -- the record's text, as read ---------------------------------------------------------


@pytest.mark.parametrize("fmt", ["gbn", "jsonl"])
def test_each_game_read_from_a_file_keeps_its_text_byte_for_byte(
    fmt: str, tmp_path: Path
) -> None:
    games = [simulate_game("standard", 4, seed) for seed in (1, 2, 3)]
    if fmt == "gbn":
        parts = [
            (f"# game {k}\r\n" + write_gbn([g]).replace("\n", "\r\n")).encode()
            for k, g in enumerate(games)
        ]
        parts[0] = "\ufeff".encode() + parts[0]  # a byte-order mark is part of the text
    else:
        parts = [
            "".join(write_jsonl([(f"g{k}", g)])).encode() for k, g in enumerate(games)
        ]
    path = tmp_path / f"club.{fmt}"
    path.write_bytes(b"".join(parts))
    read = list(iter_file(path))
    assert [g.index for g in read] == [1, 2, 3]
    texts = [g.text for g in read]
    assert b"".join(t or b"" for t in texts) == path.read_bytes()
    if fmt == "jsonl":  # a game's lines are its own
        assert texts == parts
    else:  # a comment before a game's tags is kept with the game before it
        assert texts[0] is not None
        assert texts[0].startswith(parts[0][:40])
        assert all(t is not None and t.startswith(b"[Line") for t in texts[1:])
