"""``console.output``'s words shared by the commands."""

from __future__ import annotations

from console import winners_words


def test_who_won_agrees_with_its_verb() -> None:
    assert winners_words(["Vic"]) == "Vic wins"
    assert winners_words(["Vic", "Wes"]) == "Vic and Wes win"  # a shared win (B16)
    assert winners_words(("Uma", "Vic", "Wes")) == "Uma, Vic and Wes win"
