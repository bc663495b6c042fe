"""Reading a game's set-up from its tags: the game, the seats, the deal, the
strengths (B1-B3), and the result it claims (Winner, Scores; B16)."""

from __future__ import annotations

import re
from collections.abc import Mapping

import attrs

from biteme import rules
from biteme.events import BiteStarted
from biteme.findings import Walk
from biteme.record import RecordedTag
from getbit_events.events import SourcePos

__all__ = ["Claimed", "read_setup"]

_KNOWN = frozenset(("game", "seats", "deal", "strengths", "winner", "scores"))
_NAME_FORBIDDEN = frozenset(',;:#[]"=() \t\n\r')
_PAIR = re.compile(r"^\s*([^=\s]+)\s*=\s*([+-]?\d{1,6})\s*$")
_ITEMS = re.compile(r"[,\s]+")


@attrs.frozen
class Claimed:
    """The result a record claims: its Winner and Scores tags, if given."""

    winner: RecordedTag | None
    scores: RecordedTag | None
    deal: SourcePos | None = None  # where the Deal tag is (B1: a deal past the deck)


def read_setup(
    walk: Walk, strengths: Mapping[str, int] | None = None
) -> tuple[BiteStarted, Claimed] | None:
    """The set-up the tags give, or None after flagging why there is none.
    ``strengths`` (from a file) fill in what the Strengths tag leaves out (B3)."""
    seen: dict[str, RecordedTag] = {}
    extra: list[tuple[str, str]] = []
    for tag in walk.record.tags:
        key = tag.name.casefold()
        if key not in _KNOWN:
            extra.append((tag.name, tag.value))
        elif key in seen:
            walk.flag("duplicate-tag", f"the {tag.name} tag is given twice", tag.pos)
        else:
            seen[key] = tag
    ok = not walk.violations
    game = seen.get("game")
    if game is not None and game.value.strip().casefold() != rules.GAME_NAME.casefold():
        walk.flag(
            "bad-game", f"the Game tag says {game.value!r}, not {rules.GAME_NAME!r}", game.pos
        )
        ok = False
    seats_tag = seen.get("seats")
    if seats_tag is None:
        walk.flag("missing-seats", "the game has no Seats tag", walk.record.pos)
        return None
    seats = _seats(walk, seats_tag)
    if seats is None:
        return None
    walk.canon = {n.casefold(): n for n in seats}
    stated = _strengths(walk, seen.get("strengths"))
    if stated is None:
        ok = False
        stated = {}
    given = {**(strengths or {}), **stated}
    deal_tag = seen.get("deal")
    if deal_tag is None:
        walk.flag("missing-deal", "the game has no Deal tag", walk.record.pos, "B2")
        return None
    deal = _deal(walk, deal_tag, seats)
    if deal is None or not ok:
        return None
    setup = BiteStarted(
        0,
        seats,
        deal,
        tuple(sorted(given.items(), key=lambda kv: rules.CARDS.index(kv[0]))),
        tuple(extra),
        seats_tag.pos,
    )
    return setup, Claimed(seen.get("winner"), seen.get("scores"), deal_tag.pos)


def _seats(walk: Walk, tag: RecordedTag) -> tuple[str, ...] | None:
    """B1, B2: the players, clockwise from the first; None after flagging."""
    names = tuple(n.strip() for n in tag.value.split(","))
    bad = [n for n in names if not n or any(ch in _NAME_FORBIDDEN for ch in n)]
    if bad:
        walk.flag(
            "bad-name",
            f"{bad[0]!r} cannot be a player's name (names are one word, without "
            ", ; : # [ ] \" = ( ))",
            tag.pos,
        )
        return None
    folded = [n.casefold() for n in names]
    twice = sorted({n for n, f in zip(names, folded, strict=True) if folded.count(f) > 1})
    if twice:
        walk.flag("duplicate-name", f"{twice[0]} sits at the table twice", tag.pos)
        return None
    if not rules.MIN_PLAYERS <= len(names) <= rules.MAX_PLAYERS:
        walk.flag(
            "bad-setup",
            f"{len(names)} players: the game is for {rules.MIN_PLAYERS} to "
            f"{rules.MAX_PLAYERS}",
            tag.pos,
            "B1",
        )
        return None
    return names


def _strengths(walk: Walk, tag: RecordedTag | None) -> dict[str, int] | None:
    """B3: the strengths the record states; None after flagging a bad one."""
    if tag is None:
        return {}
    stated: dict[str, int] = {}
    ok = True
    for item in (i for i in _ITEMS.split(tag.value.replace(" =", "=").replace("= ", "=")) if i):
        m = _PAIR.match(item)
        if m is None:
            walk.flag(
                "bad-tag-value",
                f"{item!r} in Strengths: write each as CARD=NUMBER, like Tiger=8",
                tag.pos,
            )
            ok = False
            continue
        card = rules.card_name(m.group(1))
        value = int(m.group(2))
        if card is None or card == rules.BACTERIA:
            what = "Bacteria beats every card (B7)" if card else "no card of the game"
            walk.flag("bad-strength", f"{m.group(1)} in Strengths: {what}", tag.pos, "B3")
            ok = False
        elif card in rules.FIXED and value != rules.FIXED[card]:
            walk.flag(
                "bad-strength",
                f"Strengths gives {card}={value}, but the leaflet gives {card} "
                f"{rules.FIXED[card]}",
                tag.pos,
                "B3",
            )
            ok = False
        else:
            stated[card] = value
    return stated if ok else None


def _deal(walk: Walk, tag: RecordedTag, seats: tuple[str, ...]) -> tuple[str, ...] | None:
    """B2: each player's first card, in seat order; None after flagging."""
    dealt: dict[str, str] = {}
    ok = True
    for item in (i.strip() for i in tag.value.split(",")):
        parts = item.split()
        if len(parts) != 2:
            walk.flag(
                "bad-deal", f"{item!r} in Deal: write each as NAME CARD, like Ann Tiger",
                tag.pos, "B2",
            )
            ok = False
            continue
        name, card = walk.canon.get(parts[0].casefold()), rules.card_name(parts[1])
        if name is None:
            walk.flag("unknown-player", f"{parts[0]} in Deal is not in Seats", tag.pos)
            ok = False
        elif card is None:
            walk.flag("unknown-card", f"{parts[1]} in Deal is no card of the game", tag.pos)
            ok = False
        elif name in dealt:
            walk.flag("bad-deal", f"{name} is dealt two cards", tag.pos, "B2")
            ok = False
        else:
            dealt[name] = card
    missing = [n for n in seats if n not in dealt]
    if ok and missing:
        walk.flag("bad-deal", f"{missing[0]} is dealt no card", tag.pos, "B2")
        ok = False
    return tuple(dealt[n] for n in seats) if ok else None
