"""What the rules of "Come on! Bite me!" say (B1-B17, ../shared/RULINGS-BITE-ME.md):
the deck, the strengths, who may do what with which card, the battle, the steps
a turn must take, the end and the scores.

Nothing here decides what a record states; it says what the rules expect, and
``validate`` compares the two. A strength the leaflet does not give is taken
only from what a record states (or a file gives): a battle or a score that needs
one nobody stated has no answer here (the names it needs come back instead),
never a guess (B3).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence

import attrs

__all__ = [
    "BACTERIA",
    "CARDS",
    "COMMON",
    "FIXED",
    "FOX",
    "GAME_NAME",
    "HUNTER",
    "MAX_PLAYERS",
    "MEERKAT",
    "MIN_PLAYERS",
    "MONKEY",
    "MOSQUITO",
    "SPECIAL",
    "UNSTATED",
    "Battle",
    "Expect",
    "card_name",
    "deck",
    "expected_steps",
    "may_attack",
    "may_join",
    "may_retreat",
    "resolve",
    "score_of",
    "scores",
    "standings",
    "strength",
]

#: The name the Game tag gives this game (B1-B17).
GAME_NAME = "Come on! Bite me!"
#: B1: the ten common animals, 5 cards each
COMMON = (
    "Tiger", "Panda", "Lion", "Leopard", "Hyena", "Fox", "Snake", "Meerkat", "Rabbit", "Mosquito",
)
#: B1: the four special cards and how many of each
SPECIAL: dict[str, int] = {"Flea": 3, "Monkey": 2, "Hunter": 1, "Bacteria": 1}
CARDS: tuple[str, ...] = (*COMMON, *SPECIAL)
_CANON = {c.casefold(): c for c in CARDS}
MIN_PLAYERS, MAX_PLAYERS = 3, 10  # B1
#: B3: the strengths the leaflet gives (Hunter attacking; defending it is 9 + attackers, B6)
FIXED: dict[str, int] = {"Mosquito": 0, "Flea": -2, "Hunter": 9}
#: B3: the strengths the leaflet leaves out: a record states them, or a file gives them
UNSTATED: tuple[str, ...] = tuple(c for c in (*COMMON, "Monkey") if c not in FIXED)
#: B1: what is removed for 3, 4 and 5 players: (of each common type, Fleas, Bacteria)
_REMOVED = {3: (3, 2, 1), 4: (2, 1, 0), 5: (1, 0, 0)}

HUNTER, BACTERIA, MEERKAT, MOSQUITO = "Hunter", "Bacteria", "Meerkat", "Mosquito"
FOX, MONKEY = "Fox", "Monkey"


def card_name(raw: str) -> str | None:
    """The card ``raw`` names, ignoring case; None when it names none."""
    return _CANON.get(raw.casefold())


def deck(players: int) -> dict[str, int]:
    """B1: the deck for ``players`` players, card -> how many (ValueError outside 3-10)."""
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise ValueError(
            f"{players} players: the game is for {MIN_PLAYERS} to {MAX_PLAYERS} players (B1)"
        )
    common, fleas, bacteria = _REMOVED.get(players, (0, 0, 0))
    cards = dict.fromkeys(COMMON, 5 - common)
    cards.update(SPECIAL)
    cards["Flea"] -= fleas
    cards[BACTERIA] -= bacteria
    return cards


def may_attack(card: str) -> bool:
    """B5, B7: a player holding Bacteria cannot attack (nor initiate a Join Forces)."""
    return card != BACTERIA


def may_join(card: str) -> bool:
    """B6, B7, B8, B13: Hunter, Bacteria and Mosquito neither initiate nor join."""
    return card not in (HUNTER, BACTERIA, MOSQUITO)


def may_retreat(card: str) -> bool:
    """B6, B9: the Hunter cannot Retreat."""
    return card != HUNTER


def strength(
    card: str, strengths: Mapping[str, int], meerkats: int = 0, attackers: int = 0
) -> float | None:
    """A card's strength in a battle, with its active Meerkats (B10, +2 each);
    ``attackers`` > 0 when it defends. None when nobody stated it (B3)."""
    if card == BACTERIA:  # B7: beats every card
        return math.inf
    if card == HUNTER:  # B6: 9 attacking, 9 + the attackers defending
        base = 9 + attackers
    elif card in FIXED:
        base = FIXED[card]
    elif card in strengths:
        base = strengths[card]
    else:
        return None
    return float(base + 2 * meerkats)


def score_of(card: str, strengths: Mapping[str, int]) -> int | None:
    """B16: what a trophy scores (Hunter 9, Flea -2, Mosquito 0); None when unstated."""
    if card in FIXED:
        return FIXED[card]
    return strengths.get(card)


@attrs.frozen
class Battle:
    """Who wins a battle (B5-B8): ``attackers_win``, and the attackers who may claim
    the defender's card (one, or those tied for it: the initiator chooses, B8)."""

    attackers_win: bool
    takers: tuple[str, ...]


def resolve(
    attackers: Sequence[tuple[str, str, int]],
    defender: tuple[str, str, int],
    strengths: Mapping[str, int],
) -> Battle | frozenset[str]:
    """The battle of ``attackers`` (name, card, active Meerkats; the initiator
    first) against ``defender``; the strengths it needs and nobody stated, if any."""
    _, card, meerkats = defender
    if card == BACTERIA:  # B7
        return Battle(False, ())
    d = strength(card, strengths, meerkats, len(attackers))
    powers = [strength(c, strengths, m) for _, c, m in attackers]
    missing = frozenset(c for (_, c, _), p in zip(attackers, powers, strict=True) if p is None)
    if d is None:
        missing |= {card}
    if missing:
        return missing
    known = [p for p in powers if p is not None]
    assert d is not None
    if sum(known) < d:  # B5, B8: the attackers win ties
        return Battle(False, ())
    if len(attackers) == 1:
        return Battle(True, (attackers[0][0],))
    # B8: the lowest strength claims it (the highest against the Hunter, B6)
    pick = max(known) if card == HUNTER else min(known)
    return Battle(True, tuple(a[0] for a, p in zip(attackers, known, strict=True) if p == pick))


@attrs.frozen
class Expect:
    """One step the rules expect of a turn: its kind (``claims``, ``picks``,
    ``draws``, ``takes``, ``looks``), who may take it, from whom (None: nobody),
    which card (None: the record's to say), the ruling, and whether it may be left out."""

    kind: str
    who: tuple[str, ...]
    other: tuple[str, ...] | None
    card: str | None
    rule: str
    optional: bool = False


def expected_steps(
    action: str,
    who: str,
    card: str | None,
    defender: str | None,
    defender_card: str | None,
    joined: Sequence[tuple[str, str]],
    seats: Sequence[str],
    holding: Callable[[str], tuple[str | None, int]],
    strengths: Mapping[str, int],
    target: str | None,
    assume: Battle | None = None,
) -> list[Expect] | frozenset[str]:
    """What a turn must do after its action (B5-B14), in order; the strengths it needs
    and nobody stated instead, when a battle cannot be settled without them (B3).

    ``holding(name)`` is a player's card and active Meerkats; ``target`` the player a
    Monkey's Retreat takes from, as the record states it (B12); ``assume`` a battle's
    result, for one whose strengths are not all known (the validator then tries
    each). The end (B15) is the caller's: it cuts the steps at the draw that
    empties the deck.
    """
    if action == "pass":  # B14
        return []
    if action == "retreat":
        return _retreat(who, card, seats, target)
    assert card is not None
    assert defender is not None
    assert defender_card is not None
    attackers = [(who, card), *joined]
    rule = "B8" if joined else "B5"
    battle = assume or resolve(
        [(n, c, holding(n)[1]) for n, c in attackers],
        (defender, defender_card, holding(defender)[1]),
        strengths,
    )
    if isinstance(battle, frozenset):
        return battle
    if defender_card == BACTERIA:
        rule = "B7"
    elif defender_card == HUNTER:
        rule = "B6"
    if battle.attackers_win:
        steps = [Expect("claims", battle.takers, (defender,), defender_card, rule)]
        if defender_card == MOSQUITO:  # B13
            steps.append(Expect("picks", (defender,), battle.takers, None, "B13"))
        steps.append(Expect("draws", (defender,), None, None, rule))
        return steps
    order = _clockwise([n for n, _ in attackers], seats)
    cards = dict(attackers)
    steps = [Expect("claims", (defender,), (n,), cards[n], rule) for n in order]
    steps += [
        Expect("picks", (n,), (defender,), None, "B13") for n in order if cards[n] == MOSQUITO
    ]
    steps += [Expect("draws", (n,), None, None, rule) for n in order]
    return steps


def _retreat(who: str, card: str | None, seats: Sequence[str], target: str | None) -> list[Expect]:
    """B9-B12: what follows a Retreat."""
    if card == MEERKAT:
        return [Expect("draws", (who,), None, None, "B10")]
    if card == FOX:
        return [
            Expect("looks", (who,), None, None, "B11", optional=True),
            Expect("draws", (who,), None, None, "B11"),
        ]
    if card == MONKEY:
        others = tuple(s for s in seats if s != who)
        drawer = target if target in others else None
        took = Expect("takes", (who,), others, None, "B12")
        return [took, Expect("draws", (drawer,) if drawer else others, None, None, "B12")]
    return [Expect("draws", (who,), None, None, "B9")]


def _clockwise(names: Sequence[str], seats: Sequence[str]) -> list[str]:
    """``names`` clockwise from the first of them (B8: the initiator first)."""
    start = seats.index(names[0]) if names[0] in seats else 0
    place = {s: (k - start) % len(seats) for k, s in enumerate(seats)}
    return sorted(names, key=lambda n: place.get(n, len(seats)))


def scores(
    players: Sequence[tuple[str, Sequence[str], Sequence[str]]], strengths: Mapping[str, int]
) -> dict[str, int] | frozenset[str]:
    """B16: each player's score from (name, trophies, discards); the strengths it
    needs and nobody stated instead (B3)."""
    missing: set[str] = set()
    total: dict[str, int] = {}
    for name, trophies, discards in players:
        points = -len(discards)
        for card in trophies:
            value = score_of(card, strengths)
            if value is None:
                missing.add(card)
            else:
                points += value
        total[name] = points
    return frozenset(missing) if missing else total


def standings(
    score: Mapping[str, int], trophies: Mapping[str, int], seats: Sequence[str]
) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """B16: the ranking (best first; seat order among equals) and the winners: the
    highest score, then the most trophies; still tied, they share the win."""
    ranking = sorted(seats, key=lambda n: (-score[n], -trophies[n]))
    best = (score[ranking[0]], trophies[ranking[0]])
    winners = tuple(n for n in ranking if (score[n], trophies[n]) == best)
    return tuple(ranking), winners
