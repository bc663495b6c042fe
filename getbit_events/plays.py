"""Checking a round's plays: each card against the hand it comes from (R1, R3, R5,
R9, R11, R13, R15), and put on the table as played (``Board.place``).

A card played against the rules is reported and still played (it moves its
swimmer); a play the game cannot take (a name not in the game, a swimmer
devoured, a second play) is reported and kept as written, changing nothing.
"""

from __future__ import annotations

from getbit_events import rules
from getbit_events.findings import Cards, Walk
from getbit_events.record import RecordedPlay, RecordedRound

__all__ = ["read_plays"]

#: A card as written -> its value, for every value a hand can hold (R1: 1 to 7).
_VALUES = {str(v): v for v in range(1, 8)}


def read_plays(walk: Walk, rnd: RecordedRound, r: int) -> tuple[Cards, Cards, str | None]:
    """Check the round's plays and put each card on the table (``Board.place``): the
    cards revealed, in line order (a missing play as no card); the plays as the
    record states them (the swimmers' in line order, a missing one left out, then
    any the game cannot take, as written); and the Shark's card."""
    board = walk.board
    lookup = walk.lookup
    seats = board.seats
    line = board.line
    cards: dict[str, int | None] = {}
    extra: list[tuple[str, int | None]] = []  # plays the game cannot take, as written
    shark_card: str | None = None
    shark_seen = False
    values = _VALUES
    for k, (raw, card) in enumerate(rnd.cards):
        name = lookup.get(raw) or lookup.get(raw.casefold())
        value = values.get(card)
        # the usual play: a swimmer in the game plays a card from its hand
        if (
            value is not None
            and name is not None
            and value in seats[name].hand
            and name not in cards
            and name in line
        ):
            board.place(name, value)
            cards[name] = value
            continue
        shark = board.shark
        if name is None and shark is not None and raw.casefold() == shark.key:
            if shark_seen:
                play = rnd.plays[k]
                walk.flag("duplicate-play", f"the Shark {play.name} plays twice", walk.at(play))
                continue
            shark_seen = True
            shark_card = _shark_play(walk, rnd, k, r)
            continue
        # where it is written, to say what is wrong with it
        _odd_play(walk, rnd.plays[k], name, cards, extra)
    missing = _missing_plays(walk, rnd, cards) if len(cards) != len(line) else []
    shark = board.shark
    if shark is not None and r >= 2 and not shark_seen and shark.hand:
        walk.flag(
            "missing-play",
            f"the Shark {shark.name} plays no card; from round 2 it plays one every round",
            rnd.pos,
            "R11",
        )
    if [*cards] == line:  # played in line order, as records mostly are
        revealed = tuple(cards.items())
    else:
        revealed = tuple(zip(line, map(cards.__getitem__, line), strict=True))
    if not missing and not extra:
        return revealed, revealed, shark_card
    recorded = tuple([(n, v) for n, v in revealed if n not in missing])
    return revealed, (*recorded, *extra), shark_card


def _missing_plays(walk: Walk, rnd: RecordedRound, cards: dict[str, int | None]) -> list[str]:
    """The swimmers in the game that play no card (R3), each given no card and flagged,
    but for one a name not in the game stands for (its slip is flagged already)."""
    missing: list[str] = []
    meant = _meant_by_unknown(walk, rnd)
    for name in walk.board.line:
        if name not in cards:
            cards[name] = None
            missing.append(name)
            if name not in meant:
                walk.flag(
                    "missing-play",
                    f"{name} is still in the game but plays no card",
                    rnd.pos,
                    "R3",
                )
    return missing


def _meant_by_unknown(walk: Walk, rnd: RecordedRound) -> set[str]:
    """The swimmers the round's names not in the game stand for (``_meant``)."""
    lookup = walk.lookup
    shark = walk.board.shark
    meant: set[str] = set()
    for raw, card in rnd.cards:
        known = lookup.get(raw) or lookup.get(raw.casefold())
        if known is None and (shark is None or raw.casefold() != shark.key):
            meant.update(_meant(walk, raw, card)[0])
    return meant


def _meant(walk: Walk, raw: str, card: str) -> tuple[tuple[str, ...], str]:
    """The swimmers a play by a name not in the game most likely stands for, and the
    hint that says so: plays run together (``Ann 2 Bob 3``: a missing comma), or a
    slip of spelling (``Bobb``: difflib's closest name); none when neither fits."""
    names: list[str] = []
    plays: list[str] = []
    words: list[str] = []
    for word in raw.split():
        if words and (word == "-" or word.isdigit()):
            name = walk.canon.get(" ".join(words).casefold())
            if name is None:
                break
            names.append(name)
            plays.append(f"{' '.join(words)} {word}")
            words = []
        else:
            words.append(word)
    else:
        name = walk.canon.get(" ".join(words).casefold())
        if names and name is not None:
            together = ", ".join([*plays, f"{' '.join(words)} {card}"])
            return (*names, name), f": missing comma? ({together})"
    close, hint = walk.slip(raw)
    return ((close,) if close is not None else ()), hint


def _odd_play(
    walk: Walk,
    play: RecordedPlay,
    name: str | None,
    cards: dict[str, int | None],
    extra: list[tuple[str, int | None]],
) -> None:
    """Any play but a swimmer's card from its hand: say what is wrong, keep the card
    (a play the game cannot take goes to ``extra``, as written)."""
    board = walk.board
    pos = walk.at(play)
    taken = name is not None and name in board.line and name not in cards
    if not taken and (play.card == "-" or play.card.isdigit()):
        value = None if play.card == "-" else int(play.card)
        extra.append((play.name if name is None else name, value))
    elif not taken:  # a word, not a number (a Shark card ...): kept as written (R3)
        _keep_word(walk, play.name if name is None else name, play.card)
    if name is None:
        hint = _meant(walk, play.name, play.card)[1]
        walk.flag("unknown-swimmer", f"{play.name} is not a swimmer in this game{hint}", pos)
    elif name not in board.line:
        walk.flag(
            "not-in-game",
            f"{name} plays, but was devoured in round {walk.devoured_in.get(name, '?')}",
            pos,
            "R3",
        )
    elif name in cards:
        walk.flag("duplicate-play", f"{name} plays twice in one round", pos, "R3")
    else:
        value = _swimmer_play(walk, name, play)
        cards[name] = value
        if value is not None:
            board.place(name, value)  # played, even against the rules


def _swimmer_play(walk: Walk, name: str, play: RecordedPlay) -> int | None:
    """The card a swimmer in the game plays, flagged where it is not one from its hand."""
    board = walk.board
    s = board.seats[name]
    pos = walk.at(play)
    if play.card == "-":
        if s.hand:
            held = ", ".join(str(v) for v in sorted(s.hand))
            walk.flag(
                "no-card-claimed",
                f"{name} records no card but holds {held}",
                pos,
                "R15",
            )
        return None
    if not play.card.isdigit():
        walk.flag(
            "wrong-card-kind",
            f"{name} is a swimmer and plays a numbered card, not {play.card!r}",
            pos,
            "R3",
        )
        _keep_word(walk, name, play.card)  # no card revealed; the play kept as written
        return None
    value = int(play.card)
    if value not in s.hand:
        message, rule = _why_not_in_hand(walk, name, value)
        # R9: the automaton's repeat is a card turned since its last reshuffle
        repeat = name == board.setup.automaton and value in s.table
        walk.flag("automaton-repeat" if repeat else "card-not-in-hand", message, pos, rule)
    return value


def _why_not_in_hand(walk: Walk, name: str, value: int) -> tuple[str, str]:
    """Why ``value`` is not in ``name``'s hand, and the ruling that says so."""
    board = walk.board
    s = board.seats[name]
    top = board.setup.hand_size
    automaton = name == board.setup.automaton
    plays = "turns" if automaton else "plays"
    if not 1 <= value <= 7:
        return f"{name} {plays} {value}, but cards run from 1 to 7", "R3"
    if value > top:
        swimmers = len(board.setup.line)
        return (f"{name} {plays} {value}, but {swimmers} swimmers hold 1 to {top} (R1)", "R3")
    if value in s.discards:
        return (f"{name} {plays} {value}, but discarded it to Exhaustion (R11)", "R3")
    since = _played_in(walk, name, value)
    if automaton:
        return (
            f"{name} turns {value}, but its {value} was turned in round {since} "
            f"and it has not reshuffled since"
        ), "R9"
    return f"{name} plays {value}, but that {value} is on the table since round {since}", "R3"


def _shark_play(walk: Walk, rnd: RecordedRound, k: int, r: int) -> str | None:
    """The Shark's card, the ``k``-th play of ``rnd``: one from its hand from round 2
    (R5, R11, R13); where the play is written is looked up only to flag it."""
    shark = walk.board.shark
    assert shark is not None
    written = rnd.cards[k][1]
    card = written.casefold()
    if r >= 2 and card in shark.hand:  # the usual play
        return card
    pos = walk.at(rnd.plays[k])
    if r < 2:
        walk.flag(
            "shark-round-1",
            f"the Shark {shark.name} plays {written} in round 1, where it plays no card",
            pos,
            "R5",
        )
        # played, even against the rules: it lies on the table (R5 takes no limb)
        if card in shark.hand:
            return card
        _keep_word(walk, shark.name, written)  # not in its hand: kept as written
        return None
    if card not in rules.SHARK_CARDS:
        walk.flag(
            "wrong-card-kind",
            f"the Shark plays one of {', '.join(rules.SHARK_CARDS)}, not {written!r}",
            pos,
            "R11",
        )
        _keep_word(walk, shark.name, written)  # no Shark card played; kept as written
        return None
    since = _played_in(walk, shark.name, card)
    walk.flag(
        "card-not-in-hand",
        f"the Shark plays {card}, but it is on the table since round "
        f"{'?' if since is None else since}",
        pos,
        "R13",
    )
    return card


def _keep_word(walk: Walk, name: str, card: str) -> None:
    """Keep a play of a card of the wrong kind as written (``PlayStated``): a fact of
    the record, which the fold leaves aside."""
    walk.words.setdefault(walk.board.round + 1, []).append((name, card))


def _played_in(walk: Walk, name: str, card: int | str) -> int | None:
    """The last round before this one in which ``name`` played ``card``."""
    for r, _, revealed, shark, shark_card, _ in reversed(walk.log):
        if (name, card) in revealed or (shark == name and shark_card == card):
            return r
    return None
