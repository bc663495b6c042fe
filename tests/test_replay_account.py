"""The plain-words account of each event, as a reader of the replay sees it."""

from __future__ import annotations

from regen_golden import load

from getbit_events.state import GameState
from replay.account import names, result_words, ties


def test_the_account_says_what_happened_in_plain_words() -> None:
    cursor = load("fixtures/games/friday-club.gbn")
    accounts = [cursor.account(i) for i in range(len(cursor))]
    assert accounts[0].startswith("A standard game of 4 swimmers; line John, Anne, Beth, Ted")
    assert accounts[1] == "Round 1: John chooses a card face down."
    assert accounts[5] == (
        "Round 1: cards revealed: John 4, Anne 1, Beth 4, Ted 5. "
        "John and Beth tie on 4 and stay (R4)."
    )
    assert accounts[6] == "Anne (1) swims to the front."
    assert accounts[7] == "Ted (5) swims to the front."
    assert "The shark bites Ted, at the back: the right arm is lost (3 limbs left)." in accounts
    assert "Ted swims to the front after the bite (R6)." in accounts
    assert "Ted takes back the played cards 5 and 1." in accounts


def test_shark_and_end_accounts() -> None:
    cursor = load("fixtures/games/sim-shark-memory.gbn")
    accounts = [cursor.account(i) for i in range(len(cursor))]
    assert "The Shark Jaws plays right-arm." in accounts
    assert "The Shark's right-arm misses: it loses a hunger token (3 left, R12)." in accounts
    assert (
        "Exhaustion: the tied swimmers discard Bob 5 and Ann 5 for the rest of the game (R11)."
        in accounts
    )
    assert accounts[-1].startswith("Game over: Dee wins; the Shark lost its last hunger token")


def test_ties_and_lists_in_words() -> None:
    assert ties([("A", 3), ("B", 3), ("C", None), ("D", 1), ("E", 1), ("F", 5)]) == [
        (1, ["D", "E"]),
        (3, ["A", "B"]),
    ]
    assert names([]) == ""
    assert names(["A"]) == "A"
    assert names(["A", "B", "C"]) == "A, B and C"


def test_results_in_words() -> None:
    friday = load("fixtures/games/friday-club.gbn")
    assert result_words(friday.state_at(len(friday) - 1)) == "unfinished after round 3"
    two = load("fixtures/games/sim-two-player-4.gbn")
    final: GameState = two.state_at(len(two) - 1)
    assert result_words(final) == (
        f"{final.winner} wins: a swimmer of the other player was devoured (R10)"
    )
    shark = load("fixtures/games/sim-shark-5.gbn", 2)
    end = shark.state_at(len(shark) - 1)
    if end.winner == "Jaws":
        assert result_words(end) == "the Shark Jaws wins: only one swimmer was left (R14)"
    else:
        assert result_words(end).endswith("the Shark lost its last hunger token (R14)")
