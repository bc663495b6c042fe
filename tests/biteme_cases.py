"""Helpers for the tests of "Come on! Bite me!": a record from a few lines, checked."""

from __future__ import annotations

from biteme.validate import BiteReport, validate_bite
from importers.bmn import read_bmn

#: the strengths the worked examples state (the leaflet gives none of these, B3)
STRENGTHS = (
    "Tiger=8, Lion=7, Leopard=6, Panda=5, Hyena=4, Snake=3, Fox=2, Monkey=2, Rabbit=1, Meerkat=1"
)
#: 24 cards of the 3-player deck (B1) in an order a game of Retreats can draw them
DECK3: list[str] = [
    "Tiger", "Tiger", "Panda", "Panda", "Lion", "Lion", "Leopard", "Leopard",
    "Hyena", "Hyena", "Fox", "Fox", "Snake", "Snake", "Meerkat", "Meerkat",
    "Rabbit", "Rabbit", "Mosquito", "Mosquito", "Flea", "Monkey", "Monkey", "Hunter",
]


def record(seats: str, deal: str, *turns: str, strengths: str | None = STRENGTHS,
           tags: str = "") -> str:
    """A BMN record: the tags on lines 1-4 (or 5 with ``tags``), a blank line, turn 1 after."""
    head = ['[Game "Come on! Bite me!"]', f'[Seats "{seats}"]', f'[Deal "{deal}"]']
    if strengths is not None:
        head.append(f'[Strengths "{strengths}"]')
    if tags:
        head.append(tags)
    lines = [f"{k}. {t}" for k, t in enumerate(turns, 1)]
    return "\n".join([*head, "", *lines]) + "\n"


def check(text: str, strengths: dict[str, int] | None = None) -> BiteReport:
    [game] = read_bmn(text, "t.bmn")
    return validate_bite(game, strengths)


def found(text: str) -> list[tuple[str, int | None, int]]:
    """(code, turn, line) of each violation."""
    return [(v.code, v.round, v.pos.line) for v in check(text).violations]


def retreats_to_the_end() -> list[str]:
    """21 turns of 3 players each retreating its card and drawing the next of DECK3:
    the last draw (turn 21, Cid draws the Hunter) empties the deck (B15)."""
    held = {"Ann": DECK3[0], "Bob": DECK3[1], "Cid": DECK3[2]}
    seats = ["Ann", "Bob", "Cid"]
    turns = []
    for k in range(1, 22):
        who = seats[(k - 1) % 3]
        card = DECK3[2 + k]
        turns.append(f"{who} retreats {held[who]} ; {who} draws {card}")
        held[who] = card
    return turns
