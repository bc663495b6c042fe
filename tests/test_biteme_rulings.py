"""A worked example per ruling of "Come on! Bite me!" (B1-B17, docs/biteme.md):
small records, and the literal codes, turns, lines and scores they give.

In ``biteme_cases.record`` the tags take lines 1-4 and turn N is on line N + 5.
"""

from __future__ import annotations

from pathlib import Path

import attrs
import pytest
from biteme_cases import STRENGTHS, check, found, record, retreats_to_the_end

from biteme import rules
from biteme.events import BiteEnded, Looked
from biteme.fold import fold
from biteme.simulate import simulate_bite
from biteme.views import HIDDEN, looked_at, view_of
from importers.bmn import read_strengths
from importers.bmn_write import game_bmn

THREE = "Ann, Bob, Cid"
FOUR = "Ann, Bob, Cid, Dee"


# -- B1 the deck ------------------------------------------------------------------


@pytest.mark.parametrize(("players", "size"), [(3, 24), (4, 36), (5, 47), (6, 57), (10, 57)])
def test_b1_deck_size(players: int, size: int) -> None:
    assert sum(rules.deck(players).values()) == size


def test_b1_what_each_count_removes() -> None:
    three, four = rules.deck(3), rules.deck(4)
    assert (three["Tiger"], three["Flea"], three["Bacteria"], three["Monkey"]) == (2, 1, 0, 2)
    assert (four["Tiger"], four["Flea"], four["Bacteria"], four["Hunter"]) == (3, 2, 1, 1)
    assert rules.deck(6) == rules.deck(10)


@pytest.mark.parametrize("seats", ["Ann, Bob", "A, B, C, D, E, F, G, H, I, J, K"])
def test_b1_too_few_or_too_many_players(seats: str) -> None:
    deal = ", ".join(f"{n.strip()} Tiger" for n in seats.split(","))
    assert found(record(seats, deal)) == [("bad-setup", None, 2)]


def test_b1_no_bacteria_with_three_players() -> None:
    assert found(record(THREE, "Ann Bacteria, Bob Lion, Cid Tiger")) == [("deck-count", None, 3)]


def test_b1_a_third_tiger_drawn_with_three_players() -> None:
    text = record(
        THREE, "Ann Tiger, Bob Tiger, Cid Rabbit",
        "Ann Tiger attacks Cid Rabbit ; Ann claims Cid Rabbit ; Cid draws Tiger",
    )
    assert found(text) == [("deck-count", 1, 6)]
    assert check(text).violations[0].pos.column == 59


# -- B2 seats and deal --------------------------------------------------------------


def test_b2_each_player_is_dealt_one_card() -> None:
    assert found(record(THREE, "Ann Tiger, Bob Lion")) == [("bad-deal", None, 3)]
    assert found(record(THREE, "Ann Tiger, Bob Lion, Cid Fox, Ann Fox")) == [
        ("bad-deal", None, 3)
    ]


def test_b2_a_card_revealed_is_the_card_held() -> None:
    text = record(
        THREE, "Ann Tiger, Bob Lion, Cid Rabbit",
        "Ann Lion attacks Bob Lion ; Ann claims Bob Lion ; Bob draws Panda",
    )
    report = check(text)
    assert found(text) == [("wrong-card", 1, 6)]
    assert "Ann holds Tiger, not Lion (B2)" in report.violations[0].message


# -- B3 strengths -------------------------------------------------------------------


def test_b3_the_leaflet_s_strengths_cannot_be_restated_otherwise() -> None:
    text = record(THREE, "Ann Tiger, Bob Lion, Cid Rabbit", strengths="Mosquito=3")
    assert found(text) == [("bad-strength", None, 4)]


def test_b3_a_strength_nobody_stated_is_unchecked_never_guessed() -> None:
    deal = "Ann Tiger, Bob Panda, Cid Rabbit"
    right = "Ann Tiger attacks Bob Panda ; Ann claims Bob Panda ; Bob draws Lion"
    report = check(record(THREE, deal, right, strengths="Tiger=8"))
    assert report.valid
    assert [(w.code, w.round) for w in report.warnings] == [("unchecked", 1), ("unchecked", None)]
    assert "nobody stated the strength of Panda" in report.warnings[0].message
    assert report.final is not None
    assert report.final.scores is None
    # the other result is not ruled out without Panda's strength: given it, it is
    wrong = record(THREE, deal, right.replace("Ann claims Bob Panda ; Bob", "Bob claims Ann "
                                              "Tiger ; Ann"), strengths="Tiger=8")
    assert check(wrong).valid
    checked = check(wrong, read_strengths("Panda = 5\n"))
    assert [v.code for v in checked.violations] == ["wrong-trophy"]
    assert not checked.warnings


def test_b3_everything_else_is_still_checked() -> None:
    text = record(
        THREE, "Ann Tiger, Bob Panda, Cid Rabbit",
        "Ann Lion attacks Bob Panda ; Ann claims Bob Panda", strengths=None,
    )
    assert found(text) == [("wrong-card", 1, 5), ("wrong-draw", 1, 5)]


def test_b3_flea_and_mosquito_need_no_tag() -> None:
    text = record(
        THREE, "Ann Flea, Bob Mosquito, Cid Rabbit",
        "Ann Flea attacks Bob Mosquito ; Bob claims Ann Flea ; Ann draws Lion", strengths=None,
    )
    report = check(text)
    assert report.valid
    assert not report.warnings
    assert report.final is not None
    assert report.final.scores == {"Ann": 0, "Bob": -2, "Cid": 0}


# -- B4 order -----------------------------------------------------------------------

_JOINED = "Ann Tiger, Cid Lion attack Bob Rabbit ; Cid claims Bob Rabbit ; Bob draws Panda"


def test_b4_turns_go_clockwise() -> None:
    assert found(record(THREE, "Ann Tiger, Bob Lion, Cid Rabbit", "Bob passes")) == [
        ("wrong-player", 1, 6)
    ]


def test_b4_after_a_join_forces_the_initiator_s_left_plays() -> None:
    deal = "Ann Tiger, Bob Rabbit, Cid Lion, Dee Fox"
    assert found(record(FOUR, deal, _JOINED, "Bob passes")) == []
    assert found(record(FOUR, deal, _JOINED, "Cid passes")) == [("wrong-player", 2, 7)]


# -- B5 attack ----------------------------------------------------------------------


def test_b5_the_attacker_wins_a_tie() -> None:
    text = record(
        THREE, "Ann Tiger, Bob Tiger, Cid Rabbit",
        "Ann Tiger attacks Bob Tiger ; Ann claims Bob Tiger ; Bob draws Lion",
    )
    report = check(text)
    assert report.valid
    assert report.final is not None
    assert report.final.scores == {"Ann": 8, "Bob": 0, "Cid": 0}


def test_b5_the_stronger_defender_claims_the_attacker_s_card() -> None:
    deal = "Ann Rabbit, Bob Tiger, Cid Lion"
    good = "Ann Rabbit attacks Bob Tiger ; Bob claims Ann Rabbit ; Ann draws Lion"
    bad = "Ann Rabbit attacks Bob Tiger ; Ann claims Bob Tiger ; Bob draws Lion"
    assert found(record(THREE, deal, good)) == []
    report = check(record(THREE, deal, bad))
    assert [(v.code, v.round, v.pos.column, v.rule) for v in report.violations] == [
        ("wrong-trophy", 1, 35, "B5")
    ]


def test_b5_bacteria_cannot_attack() -> None:
    text = record(
        FOUR, "Ann Bacteria, Bob Tiger, Cid Lion, Dee Fox",
        "Ann Bacteria attacks Bob Tiger ; Ann claims Bob Tiger ; Bob draws Lion",
    )
    assert found(text) == [("bacteria-attacks", 1, 6)]


# -- B6 Hunter ----------------------------------------------------------------------


def test_b6_the_hunter_defends_with_ten_against_one() -> None:
    deal = "Ann Tiger, Bob Hunter, Cid Lion"
    # a Tiger of 9 ties a Hunter of 9, but not one of 10
    text = record(
        THREE, deal, "Ann Tiger attacks Bob Hunter ; Bob claims Ann Tiger ; Ann draws Lion",
        strengths="Tiger=9",
    )
    assert found(text) == []


def test_b6_against_a_join_forces_the_strongest_attacker_claims_the_hunter() -> None:
    deal = "Ann Tiger, Bob Hunter, Cid Lion, Dee Fox"
    won = "Ann Tiger, Cid Lion attack Bob Hunter ; Ann claims Bob Hunter ; Bob draws Panda"
    report = check(record(FOUR, deal, won))
    assert report.valid
    assert report.final is not None
    assert report.final.scores["Ann"] == 9
    lowest = won.replace("Ann claims", "Cid claims")
    assert found(record(FOUR, deal, lowest)) == [("wrong-trophy", 1, 6)]


def test_b6_the_hunter_beats_two_attackers_with_eleven() -> None:
    deal = "Ann Tiger, Bob Hunter, Cid Fox, Dee Lion"
    lost = (
        "Ann Tiger, Cid Fox attack Bob Hunter ; Bob claims Ann Tiger, Cid Fox ; "
        "Ann draws Panda ; Cid draws Lion"
    )  # 8 + 2 = 10 < 11
    assert found(record(FOUR, deal, lost)) == []


def test_b6_the_hunter_neither_retreats_nor_joins() -> None:
    deal = "Ann Hunter, Bob Tiger, Cid Lion, Dee Fox"
    assert found(record(FOUR, deal, "Ann retreats Hunter ; Ann draws Lion")) == [
        ("hunter-retreat", 1, 6)
    ]
    joins = "Ann Hunter, Cid Lion attack Bob Tiger ; Cid claims Bob Tiger ; Bob draws Panda"
    assert found(record(FOUR, deal, joins)) == [("may-not-join", 1, 6)]


# -- B7 Bacteria --------------------------------------------------------------------


def test_b7_bacteria_wins_every_battle_as_defender() -> None:
    deal = "Ann Tiger, Bob Bacteria, Cid Lion, Dee Fox"
    alone = "Ann Tiger attacks Bob Bacteria ; Bob claims Ann Tiger ; Ann draws Panda"
    joint = (
        "Ann Tiger, Cid Lion attack Bob Bacteria ; Bob claims Ann Tiger, Cid Lion ; "
        "Ann draws Panda ; Cid draws Rabbit"
    )
    assert found(record(FOUR, deal, alone)) == []
    assert found(record(FOUR, deal, joint)) == []


def test_b7_bacteria_may_retreat() -> None:
    deal = "Ann Tiger, Bob Bacteria, Cid Lion, Dee Fox"
    text = record(FOUR, deal, "Ann passes", "Bob retreats Bacteria ; Bob draws Lion")
    assert found(text) == []


# -- B8 Join Forces -----------------------------------------------------------------


def test_b8_the_weakest_attacker_claims() -> None:
    deal = "Ann Tiger, Bob Rabbit, Cid Lion, Dee Fox"
    assert found(record(FOUR, deal, _JOINED)) == []
    strongest = _JOINED.replace("Cid claims", "Ann claims")
    assert found(record(FOUR, deal, strongest)) == [("wrong-trophy", 1, 6)]


@pytest.mark.parametrize(("taker", "codes"), [("Ann", []), ("Cid", []), ("Dee", ["wrong-trophy"])])
def test_b8_on_a_tie_the_initiator_chooses(taker: str, codes: list[str]) -> None:
    deal = "Ann Lion, Bob Rabbit, Cid Lion, Dee Fox"
    turn = f"Ann Lion, Cid Lion attack Bob Rabbit ; {taker} claims Bob Rabbit ; Bob draws Panda"
    assert [c for c, _, _ in found(record(FOUR, deal, turn))] == codes


def test_b8_the_defender_claims_all_and_the_attackers_draw_clockwise() -> None:
    deal = "Ann Rabbit, Bob Tiger, Cid Fox, Dee Snake"
    claims = "Ann Rabbit, Dee Snake attack Bob Tiger ; Bob claims Ann Rabbit, Dee Snake"
    assert found(record(FOUR, deal, claims + " ; Ann draws Panda ; Dee draws Lion")) == []
    swapped = check(record(FOUR, deal, claims + " ; Dee draws Lion ; Ann draws Panda"))
    assert [(v.code, v.round, v.rule) for v in swapped.violations] == [("wrong-draw", 1, "B8")]


def test_b8_at_most_two_join() -> None:
    deal = "Ann Tiger, Bob Lion, Cid Panda, Dee Hyena, Eve Rabbit"
    turn = (
        "Ann Tiger, Bob Lion, Cid Panda, Dee Hyena attack Eve Rabbit ; Dee claims Eve Rabbit ; "
        "Eve draws Fox"
    )
    assert found(record("Ann, Bob, Cid, Dee, Eve", deal, turn)) == [("too-many-joined", 1, 6)]


def test_b8_mosquito_may_not_join() -> None:
    deal = "Ann Tiger, Bob Rabbit, Cid Mosquito, Dee Fox"
    turn = "Ann Tiger, Cid Mosquito attack Bob Rabbit ; Cid claims Bob Rabbit ; Bob draws Lion"
    assert found(record(FOUR, deal, turn)) == [("may-not-join", 1, 6)]


# -- B9 Retreat ---------------------------------------------------------------------


def test_b9_a_retreat_discards_and_draws() -> None:
    deal = "Ann Tiger, Bob Lion, Cid Fox"
    report = check(record(THREE, deal, "Ann retreats Tiger ; Ann draws Lion"))
    assert report.valid
    assert report.final is not None
    assert report.final.scores == {"Ann": -1, "Bob": 0, "Cid": 0}
    assert found(record(THREE, "Ann Tiger, Bob Lion, Cid Fox", "Ann retreats Tiger")) == [
        ("wrong-draw", 1, 6)
    ]


# -- B10 Meerkat --------------------------------------------------------------------


def test_b10_an_active_meerkat_adds_two_and_goes_with_its_card() -> None:
    text = record(
        THREE, "Ann Meerkat, Bob Lion, Cid Rabbit",
        "Ann retreats Meerkat ; Ann draws Panda",
        "Bob passes",
        "Cid passes",
        # Panda 5 + 2 ties Lion 7: the attacker wins (B5)
        "Ann Panda attacks Bob Lion ; Ann claims Bob Lion ; Bob draws Tiger",
        "Bob Tiger attacks Ann Panda ; Bob claims Ann Panda ; Ann draws Rabbit",
    )
    report = check(text)
    assert report.valid
    assert report.state is not None
    assert report.state.player("Bob").trophies == ("Panda", "Meerkat")
    assert report.final is not None
    assert report.final.scores == {"Ann": 7, "Bob": 6, "Cid": 0}


# -- B11 Fox ------------------------------------------------------------------------


def test_b11_a_fox_may_look() -> None:
    deal = "Ann Fox, Bob Lion, Cid Rabbit"
    assert found(record(THREE, deal, "Ann retreats Fox ; Ann looks ; Ann draws Lion")) == []
    assert found(record(THREE, deal, "Ann retreats Fox ; Ann draws Lion")) == []
    other = "Ann Tiger, Bob Lion, Cid Rabbit"
    assert found(record(THREE, other, "Ann retreats Tiger ; Ann looks ; Ann draws Lion")) == [
        ("wrong-look", 1, 6)
    ]


# -- B12 Monkey ---------------------------------------------------------------------


def test_b12_a_monkey_takes_a_card_and_its_owner_draws() -> None:
    deal = "Ann Monkey, Bob Tiger, Cid Rabbit"
    took = "Ann retreats Monkey ; Ann takes Bob Tiger ; Bob draws Lion"
    report = check(record(THREE, deal, took))
    assert report.valid
    assert report.state is not None
    assert report.state.player("Ann").card == "Tiger"
    assert report.state.player("Ann").discards == ("Monkey",)
    assert report.state.player("Bob").card == "Lion"
    wrong = record(THREE, deal, "Ann retreats Monkey ; Ann takes Bob Lion ; Bob draws Lion")
    assert found(wrong) == [("wrong-take", 1, 6)]
    drew = record(THREE, deal, "Ann retreats Monkey ; Ann draws Lion")
    assert found(drew) == [("wrong-take", 1, 6)]


# -- B13 Mosquito -------------------------------------------------------------------

_MOSQUITO = "Ann Tiger attacks Bob Mosquito ; Ann claims Bob Mosquito ; "


def test_b13_the_loser_picks_a_random_trophy_of_the_winner() -> None:
    deal = "Ann Tiger, Bob Mosquito, Cid Rabbit"
    report = check(record(THREE, deal, _MOSQUITO + "Bob picks Ann Mosquito ; Bob draws Lion"))
    assert report.valid
    assert report.state is not None
    assert report.state.player("Bob").trophies == ("Mosquito",)
    not_held = check(record(THREE, deal, _MOSQUITO + "Bob picks Ann Tiger ; Bob draws Lion"))
    assert [(v.code, v.round, v.pos.column) for v in not_held.violations] == [
        ("wrong-pick", 1, 63)
    ]
    assert found(record(THREE, deal, _MOSQUITO + "Bob draws Lion")) == [("wrong-pick", 1, 6)]


# -- B14 Pass -----------------------------------------------------------------------


def test_b14_a_pass_does_nothing() -> None:
    deal = "Ann Tiger, Bob Lion, Cid Rabbit"
    assert found(record(THREE, deal, "Ann passes")) == []
    assert found(record(THREE, deal, "Ann passes ; Ann draws Lion")) == [("wrong-draw", 1, 6)]


# -- B15 the end --------------------------------------------------------------------

_DEAL3 = "Ann Tiger, Bob Tiger, Cid Panda"


def test_b15_the_game_ends_at_the_last_draw() -> None:
    report = check(record(THREE, _DEAL3, *retreats_to_the_end()))
    assert report.valid
    assert report.finished
    assert report.events[-1].TYPE == "bm-game-ended"


def test_b15_nothing_is_recorded_after_the_end() -> None:
    turns = retreats_to_the_end()
    assert found(record(THREE, _DEAL3, *turns, "Ann passes")) == [("after-end", 22, 27)]
    late = [*turns[:-1], turns[-1] + " ; Cid looks"]
    assert found(record(THREE, _DEAL3, *late)) == [("after-end", 21, 26)]


def test_b15_an_unfinished_game_has_no_winner() -> None:
    text = record(THREE, _DEAL3, "Ann passes", tags='[Winner "Ann"]')
    assert found(text) == [("wrong-winner", None, 5)]


# -- B16 score ----------------------------------------------------------------------


def test_b16_discards_cost_one_and_tied_players_share_the_win() -> None:
    report = check(record(THREE, _DEAL3, *retreats_to_the_end()))
    assert report.final is not None
    assert report.final.scores == {"Ann": -6, "Bob": -7, "Cid": -6}  # two Meerkats kept
    assert report.winners == ("Ann", "Cid")
    assert report.winner == "Ann and Cid"
    assert report.ranking == ("Ann", "Cid", "Bob")


def test_b16_the_winner_and_scores_claimed_are_checked() -> None:
    turns = retreats_to_the_end()
    right = '[Winner "Ann, Cid"]\n[Scores "Ann=-6, Bob=-7, Cid=-6"]'
    assert found(record(THREE, _DEAL3, *turns, tags=right)) == []
    wrong = '[Winner "Ann"]\n[Scores "Ann=-6, Bob=-7, Cid=-5"]'
    assert [c for c, _, _ in found(record(THREE, _DEAL3, *turns, tags=wrong))] == [
        "wrong-winner",
        "wrong-score",
    ]


def test_b16_more_trophies_break_a_tie() -> None:
    ranking, winners = rules.standings({"Ann": 3, "Bob": 3, "Cid": 1}, {"Ann": 1, "Bob": 2,
                                                                         "Cid": 5},
                                       ("Ann", "Bob", "Cid"))
    assert (ranking, winners) == (("Bob", "Ann", "Cid"), ("Bob",))


# -- B17 what each player saw ------------------------------------------------------


def test_b17_a_fox_s_look_is_a_fact_that_changes_nothing_on_the_table() -> None:
    deal = "Ann Fox, Bob Lion, Cid Rabbit"
    looked = check(record(THREE, deal, "Ann retreats Fox ; Ann looks ; Ann draws Lion"))
    assert [e for e in looked.events if isinstance(e, Looked)] == [
        Looked(1, "Ann", looked.events[2].pos)
    ]
    without = [e for e in looked.events if not isinstance(e, Looked)]
    assert fold(looked.events) == fold(without)
    assert attrs.asdict(fold(without))["players"][0]["discards"] == ("Fox",)


def test_b17_each_player_s_view_hides_what_it_could_not_see() -> None:
    worked = (Path(__file__).resolve().parent.parent / "fixtures" / "biteme" / "worked.bmn")
    events = check(worked.read_text(encoding="utf-8")).events
    bob = view_of(events, "Bob")
    shown = game_bmn(bob).splitlines()
    assert '[Deal "Ann ?, Bob Mosquito, Cid ?, Dee ?"]' in shown
    assert shown[-8:] == [
        (
            "1. Ann Tiger attacks Bob Mosquito ; Ann claims Bob Mosquito ; "
            "Bob picks Ann Mosquito ; Bob draws Lion"
        ),  # his own battle, his own draw
        "2. Bob Lion attacks Ann Tiger ; Ann claims Bob Lion ; Bob draws Rabbit",
        "3. Cid retreats Monkey ; Cid takes Ann ? ; Ann draws ?",  # a Retreat: seen by all
        "4. Dee retreats Meerkat ; Dee draws ?",
        "5. Ann retreats Fox ; Ann looks ; Ann draws ?",
        "6. Bob passes",
        "7. Cid ?, Dee ? attack Ann ? ; Dee claims Ann ? ; Ann draws ?",
        "8. Dee ? attacks Cid ? ; Cid claims Dee ? ; Dee draws ?",
    ]
    outsider = game_bmn(view_of(events, "Zed"))  # no player: only the Retreats are seen
    assert '[Deal "Ann ?, Bob ?, Cid ?, Dee ?"]' in outsider
    assert "4. Dee retreats Meerkat ; Dee draws ?" in outsider
    assert "Tiger" not in outsider.split("\n\n", 1)[1]
    assert HIDDEN in outsider
    [look] = [e for e in events if isinstance(e, Looked)]
    assert looked_at(events, look) == {"Bob": "Rabbit", "Cid": "Tiger", "Dee": "Panda"}


def test_b17_a_take_is_seen_by_its_two_players_a_pick_by_the_battle_s() -> None:
    # docs/biteme.md, "What each view shows": the two choices the leaflet leaves open
    worked = (Path(__file__).resolve().parent.parent / "fixtures" / "biteme" / "worked.bmn")
    events = check(worked.read_text(encoding="utf-8")).events

    def turn(player: str, k: int) -> str:
        return game_bmn(view_of(events, player)).splitlines()[-9 + k]

    for player in ("Ann", "Cid"):  # the Monkey's take passes between Ann and Cid
        assert turn(player, 3).startswith("3. Cid retreats Monkey ; Cid takes Ann Tiger ; ")
    for player in ("Bob", "Dee", "table"):
        assert turn(player, 3).startswith("3. Cid retreats Monkey ; Cid takes Ann ? ; ")
    assert "Bob picks Ann Mosquito" in turn("Ann", 1)  # Ann and Bob fought the battle
    assert "Bob picks Ann ?" in turn("Cid", 1)
    ended = simulate_bite(3, 1)  # the end's scores and winners are seen by everyone
    assert isinstance(ended[-1], BiteEnded)
    assert ended[-1].winners
    assert view_of(ended, "table")[-1] == ended[-1]


def test_the_strengths_of_the_worked_examples_are_all_unstated_ones() -> None:
    stated = {item.split("=")[0] for item in STRENGTHS.split(", ")}
    assert stated == set(rules.UNSTATED)
