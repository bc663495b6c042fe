"""A logged game's rounds as a GBN record states them (``importers.jsonl`` reads the log):
each round's plays, and the outcomes its consequences say, checked by the validator
exactly as a record's. Each round is told event by event (``Told``); a log states
every round's consequences or none (docs/events.md), and in one that states them the
outcomes it says by leaving them out are completed.
"""

from __future__ import annotations

from getbit_events.events import (
    CardsDiscarded,
    CardsRevealed,
    CardsTakenBack,
    Event,
    GameStarted,
    HungerLost,
    HungerStated,
    LineStated,
    MissStated,
    OutcomeStated,
    PlayStated,
    SharkCardPlayed,
    SharkCardsTakenBack,
    SourcePos,
    SwimmerBitten,
    SwimmerDevoured,
    SwimmerMoved,
)
from getbit_events.record import RecordedOutcome, RecordedPlay, RecordedRound
from importers.jsonl_write import short

__all__ = ["Told", "outcome_fault"]


_new = tuple.__new__  # a NamedTuple made without its generated ``__new__`` (interpreted Python)
_SPLITS = frozenset(",;\n")  # a GBN outcome's names and words hold none of these
#: what each outcome a record states holds (an ``outcome-stated`` is one of them)
_OUTCOME_SHAPES = {
    "bit": "one name and a limb or none",
    "out": "one name",
    "refresh": "names",
    "line": "names",
    "discard": "cards",
    "hunger": "a number",
    "miss": "nothing",
}


def outcome_fault(e: OutcomeStated) -> str | None:
    """Why an ``outcome-stated`` is not an outcome a GBN record could state, or None."""
    if e.why not in ("unread", "twice"):
        return f"why is {short(e.why)}, not \"unread\" or \"twice\""
    shape = _OUTCOME_SHAPES.get(e.kind)
    if shape is None:
        return f"kind is {short(e.kind)}, not one of {', '.join(_OUTCOME_SHAPES)}"
    holds = {
        "bit": len(e.names) == 1 and not e.cards and e.number is None,
        "out": len(e.names) == 1 and e.limb is None and not e.cards and e.number is None,
        "refresh": bool(e.names) and e.limb is None and not e.cards and e.number is None,
        "discard": bool(e.cards) and not e.names and e.limb is None and e.number is None,
        "hunger": e.number is not None and not e.names and e.limb is None and not e.cards,
        "miss": not e.names and e.limb is None and not e.cards and e.number is None,
    }.get(e.kind, bool(e.names) and e.limb is None and not e.cards and e.number is None)
    if not holds:
        return f"a {e.kind} holds {shape}"
    names = [*e.names, *(n for n, _ in e.cards)]
    words = [v for _, v in e.cards] + ([e.limb] if e.limb is not None else [])
    for word in [*names, *words]:  # as read from a GBN line: a name may hold a space
        splits = any(c in _SPLITS for c in word) or (word in words and " " in word)
        if not word.strip() or splits:
            return f"{short(word)} cannot be written as GBN writes an outcome"
    return None


class Told:
    """What one logged round tells, as a GBN record's round line states it: its plays,
    and the outcomes its consequences say. ``line`` is the line before the round; the
    round's moves move it on (the next round starts from it)."""

    def __init__(
        self,
        setup: GameStarted,
        events: list[Event],
        pos: SourcePos,
        line: list[str],
        hunger: int,
    ) -> None:
        reveal = events[0]
        assert isinstance(reveal, CardsRevealed)
        self.setup = setup
        self.reveal = reveal
        self.rpos = rpos = reveal.pos or pos
        self.line = line
        self.hunger = hunger
        self.hunger_pos = rpos
        at, column = rpos.line, rpos.column
        self.plays = [  # each a RecordedPlay, made fast (as ``gbn._plain_plays`` makes them)
            _new(RecordedPlay, (name, "-" if value is None else str(value), at, column))
            for name, value in reveal.cards
        ]
        self.outcomes: list[RecordedOutcome] = []
        self.said_line: tuple[str, ...] | None = None  # a line-stated
        self.said_hunger: int | None = None  # a hunger-stated
        self.refresh: list[str] = []
        self.shark_back: tuple[str, ...] = ()
        self.instead: set[str] = set()  # kinds an unread outcome-stated stands in for
        self.twice: list[RecordedOutcome] = []  # outcome-stated a second time, last
        swam: str | None = None  # who swam to the front after a bite, just before
        for e in events[1:]:
            swam = self._take(e, e.pos or rpos, swam)

    def _take(self, e: Event, epos: SourcePos, after_bite: str | None) -> str | None:
        """One consequence of the round, as the outcome that states it; who swam to the
        front after a bite, if ``e`` is that swim."""
        outcomes = self.outcomes
        if isinstance(e, SharkCardPlayed):
            self.plays.append(_new(RecordedPlay, (e.shark, e.card, epos.line, epos.column)))
        elif isinstance(e, PlayStated):  # a card of the wrong kind, as recorded
            self._play_stated(RecordedPlay(e.who, e.card, epos.line, epos.column))
        elif isinstance(e, SwimmerMoved):
            line = self.line
            if e.who in line:
                line.remove(e.who)
            line.insert(0, e.who)
            return e.who if e.why == "bite" else None
        elif isinstance(e, SwimmerBitten):
            outcomes.append(RecordedOutcome("bit", epos.line, epos.column, (e.who,), e.limb))
        elif isinstance(e, SwimmerDevoured):
            if e.who in self.line:
                self.line.remove(e.who)
            outcomes.append(RecordedOutcome("out", epos.line, epos.column, (e.who,)))
        elif isinstance(e, HungerLost):
            self.hunger, self.hunger_pos = e.left, epos
            outcomes.append(RecordedOutcome("miss", epos.line, epos.column))
        elif isinstance(e, CardsDiscarded):
            cards = tuple((n, str(v)) for n, v in e.cards)
            outcomes.append(RecordedOutcome("discard", epos.line, epos.column, cards=cards))
        elif isinstance(e, CardsTakenBack):
            # any take-back but the bite's own (R6), which takes cards: an empty
            # one after the bite is the bitten swimmer listed in a refresh, kept
            if e.who != after_bite or not e.cards:
                self.refresh.append(e.who)
        elif isinstance(e, HungerStated):  # this round's word only: no miss (R12)
            self.said_hunger, self.hunger_pos = e.left, epos
            if self.setup.variant != "shark":  # no Shark, no tokens: the word, kept
                outcomes.append(RecordedOutcome("hunger", epos.line, epos.column, number=e.left))
        elif isinstance(e, MissStated):  # a miss without a Shark, kept
            outcomes.append(RecordedOutcome("miss", epos.line, epos.column))
        elif isinstance(e, LineStated):
            self.said_line = e.line
        elif isinstance(e, OutcomeStated):
            self._outcome_stated(e, epos)
        elif isinstance(e, SharkCardsTakenBack) and self.setup.shark is not None:
            self.shark_back = (self.setup.shark,)
        return None

    def _outcome_stated(self, e: OutcomeStated, epos: SourcePos) -> None:
        """An outcome kept as written: an ``unread`` one stands in place of the rules'
        outcome of its kind (which came before it), a ``twice`` one comes last."""
        said = RecordedOutcome(
            e.kind, epos.line, epos.column, e.names, e.limb, e.number, e.cards
        )
        if e.why == "twice":
            self.twice.append(said)
            return
        self.outcomes[:] = [o for o in self.outcomes if o.kind != e.kind]
        self.outcomes.append(said)
        self.instead.add(e.kind)

    def _play_stated(self, word: RecordedPlay) -> None:
        """A play of a card of the wrong kind in its place: a swimmer revealed with no
        card played it; the Shark's (or one the reveal does not hold) comes last."""
        plays = self.plays
        at = next(
            (k for k, p in enumerate(plays) if p.name == word.name and p.card == "-"), None
        )
        if at is None:
            plays.append(word)
        else:
            plays[at] = word

    def complete(self) -> None:
        """The outcomes a log that states consequences says by leaving them out: the
        Shark's hunger, no discards, no take-back; who took cards back, the line."""
        setup, rpos, outcomes = self.setup, self.rpos, self.outcomes
        if setup.variant == "shark":
            kinds = {o.kind for o in outcomes}
            hunger = self.hunger if self.said_hunger is None else self.said_hunger
            at = self.hunger_pos
            outcomes.append(RecordedOutcome("hunger", at.line, at.column, number=hunger))
            if "discard" not in kinds:
                outcomes.append(RecordedOutcome("discard", rpos.line, rpos.column))
            # whether the Shark took its cards back (R12, R13): no GBN outcome says it
            outcomes.append(RecordedOutcome("shark-back", rpos.line, rpos.column, self.shark_back))
        if "refresh" not in self.instead:
            outcomes.append(RecordedOutcome("refresh", rpos.line, rpos.column, tuple(self.refresh)))
        line = tuple(self.line) if self.said_line is None else self.said_line
        outcomes.append(RecordedOutcome("line", rpos.line, rpos.column, line))

    def round(self, index: int) -> RecordedRound:
        reveal = self.reveal
        number = reveal.round if reveal.number is None else reveal.number
        outcomes = (*self.outcomes, *self.twice)
        return RecordedRound(index, number, self.rpos, tuple(self.plays), outcomes)
