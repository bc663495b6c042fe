"""The plain-words account of each event, as a reader of the replay sees it."""

from __future__ import annotations

from regen_golden import load

from getbit_events.state import GameState
from getbit_events.validate import validate_game
from importers.gbn import read_gbn
from replay.account import names, result_words, ties
from replay.cursor import Cursor


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


def _accounts(text: str) -> list[str]:
    [game] = read_gbn(text, "kept.gbn")
    report = validate_game(game)
    cursor = Cursor(report.events, report.violations)
    return [cursor.account(i) for i in range(len(cursor))]


def test_what_a_record_states_that_the_game_cannot_take_is_told_as_recorded() -> None:
    # round 5 devours A (R6); the record then names A in the line, and in round 6
    # bites it, devours it and lists it among the take-backs
    accounts = _accounts(
        '[Line "B, C, D, E, A"]\n\n1. B 1, C 1, D 1, E 1, A 1\n'
        "2. B 2, C 2, D 2, E 2, A 2\n3. A 1, B 3, C 4, D 5, E 6\n4. A 1, B 4, C 5, D 6, E 3\n"
        "5. A 1, B 6, C 3, D 4, E 5 ; line B, E, D, C, A\n"
        "6. B 1, C 1, D 1, E 1 ; bit A ; out A ; refresh A\n"
    )
    assert (
        "The record states the line B, E, D, C, A; it is B, E, D, C. "
        "Kept as recorded, it changes nothing."
    ) in accounts
    assert (
        "The record says A is bitten (right arm), but A is out of the game: "
        "kept as recorded, it changes nothing."
    ) in accounts
    assert (
        "The record says A is devoured, but A is out of the game already: "
        "kept as recorded, it changes nothing."
    ) in accounts
    assert "A takes back its played cards, as the record says: none are left." in accounts
    shark = _accounts(
        '[Line "A, B, C, D"]\n[Variant "shark"]\n[Shark "Jaws"]\n\n'
        "1. A 1, B 2, C 3, D 4 ; hunger 5\n"
    )
    assert (
        "The record says the Shark holds 5 hunger tokens; it holds 4 (R12: only a miss "
        "costs one). Kept as recorded, it changes nothing."
    ) in shark


def test_a_card_of_the_wrong_kind_and_a_sharkless_miss_are_told_as_recorded() -> None:
    accounts = _accounts(
        '[Line "John, Anne, Beth, Ted"]\n\n1. John 4, Anne 1, Beth 4, Ted 5\n'
        "2. John 3, Anne right-arm, Beth 5, Ted 1 ; miss ; hunger 2\n"
    )
    assert (
        "The record says Anne plays right-arm, but a swimmer plays a number (R3, R11). "
        "Kept as recorded, it changes nothing."
    ) in accounts
    assert (
        "The record says the Shark missed, but this game has no Shark (R11: the shark "
        "variant's). Kept as recorded, it changes nothing."
    ) in accounts
    assert (
        "The record says the Shark holds 2 hunger tokens, but this game has no Shark "
        "(R12: the shark variant's). Kept as recorded, it changes nothing."
    ) in accounts
    shark = _accounts(
        '[Line "A, B, C, D"]\n[Variant "shark"]\n[Shark "Jaws"]\n\n'
        "1. A 1, B 2, C 3, D 4\n2. A 2, B 3, C 4, D 5, Jaws 3\n"
    )
    assert (
        "The record says Jaws plays 3, but the Shark plays a Shark card (R3, R11). "
        "Kept as recorded, it changes nothing."
    ) in shark


def test_a_discard_without_a_shark_and_outcomes_left_aside_are_told_as_recorded() -> None:
    # R11: only the Shark's Exhaustion discards; a standard game's stated discard is
    # followed, and told as the record's word, not as an Exhaustion
    accounts = _accounts(
        '[Line "John, Anne, Beth, Ted"]\n\n1. John 4, Anne 1, Beth 4, Ted 5\n'
        "2. John 3, Anne 2, Beth 5, Ted 1 ; discard Ted 1 ; bit Tedd ; line Ted, Beth, John, "
        "Anne ; line Ted, Beth, John, Anne\n"
    )
    assert (
        "The record says Ted 1 is discarded for the rest of the game, but only the Shark's "
        "Exhaustion discards (R11): followed as recorded."
    ) in accounts
    assert not any(a.startswith("Exhaustion") for a in accounts)
    assert (
        "The record also says 'bit Tedd': a name not in the game. Kept as recorded, it "
        "changes nothing."
    ) in accounts
    assert (
        "The record also says 'line Ted, Beth, John, Anne': a second 'line' in this round. "
        "Kept as recorded, it changes nothing."
    ) in accounts
