"""What the validator says about a name not in the game: the swimmer it most likely
misspells (``did you mean Bob?``), or two plays run together (``missing comma?``),
and no second error that only follows from the slip (issue 14)."""

from __future__ import annotations

from getbit_events.events import CardsRevealed
from getbit_events.validate import GameReport, validate_game
from importers.gbn import read_gbn

HEAD = '[Line "Ann, Bob, Cy, Dee"]\n\n'


def check(rounds: str) -> GameReport:
    [game] = read_gbn(HEAD + rounds, "h.gbn")
    return validate_game(game)


def said(report: GameReport) -> list[tuple[str, str]]:
    return [(v.code, v.message) for v in report.violations]


def test_a_misspelt_name_says_which_swimmer_it_may_mean() -> None:
    report = check("1. Ann 2, Bobb 3, Cy 1, Dee 4\n")
    # Bob's missing play follows from the slip: it is not reported besides
    assert said(report) == [
        ("unknown-swimmer", "Bobb is not a swimmer in this game: did you mean Bob?")
    ]
    # the record is kept as recorded: Bobb's play as written, Bob with no card
    revealed = next(e for e in report.events if isinstance(e, CardsRevealed))
    assert ("Bobb", 3) in revealed.cards
    assert "Bob" not in dict(revealed.cards)


def test_a_misspelt_name_of_a_swimmer_that_played_leaves_no_play_missing() -> None:
    report = check("1. Ann 2, Bob 3, Cy 1, Dee 4, Bobb 5\n")
    assert said(report) == [
        ("unknown-swimmer", "Bobb is not a swimmer in this game: did you mean Bob?")
    ]


def test_plays_run_together_say_missing_comma() -> None:
    report = check("1. Ann 2 Bob 3, Cy 1, Dee 4\n")
    assert said(report) == [
        (
            "unknown-swimmer",
            "Ann 2 Bob is not a swimmer in this game: missing comma? (Ann 2, Bob 3)",
        )
    ]


def test_three_plays_run_together_say_missing_comma() -> None:
    report = check("1. Ann 2 bob 3 Cy 1, Dee 4\n")
    assert said(report) == [
        (
            "unknown-swimmer",
            "Ann 2 bob 3 Cy is not a swimmer in this game: missing comma? (Ann 2, bob 3, Cy 1)",
        )
    ]


def test_a_name_like_no_swimmer_gets_no_hint_and_the_missing_play_stays() -> None:
    report = check("1. Ann 2, Xavier 3, Cy 1, Dee 4\n")
    assert said(report) == [
        ("missing-play", "Bob is still in the game but plays no card (R3)"),
        ("unknown-swimmer", "Xavier is not a swimmer in this game"),
    ]


def test_words_that_are_not_plays_run_together_get_no_comma_hint() -> None:
    report = check("1. Ann 2 Zed 3, Bob 4, Cy 1, Dee 5\n")
    assert [code for code, _ in said(report)] == ["missing-play", "unknown-swimmer"]
    assert "missing comma" not in report.violations[1].message


def test_a_misspelt_name_in_an_outcome_says_which_swimmer_it_may_mean() -> None:
    rounds = "1. Ann 2, Bob 3, Cy 1, Dee 4\n2. Ann 3, Bob 4, Cy 2, Dee 5 ; bit Bobb\n"
    messages = [m for code, m in said(check(rounds)) if code == "unknown-swimmer"]
    assert messages == ["Bobb is not a swimmer in this game: did you mean Bob?"]
