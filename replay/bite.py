"""Replay of a game of "Come on! Bite me!": a cursor over its events (as the table
saw them, or as one player did, B17) and its printout, turn by turn.

Get Bit!'s cursor and printout are built on that game's line of swimmers; this
game has a table of hands, trophies and discard zones instead. What the two
share is the page shell and escaping (``replay.html``), the plain-text console
of the golden files (``replay.terminal.plain_text``) and the command
(``replay.cli``), which picks the game by its record.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from rich.console import Group, RenderableType
from rich.text import Text

from biteme import rules
from biteme.events import (
    Attacked,
    BiteEnded,
    BiteEvent,
    BiteStarted,
    Claimed,
    Drew,
    Looked,
    Passed,
    Picked,
    ResultStated,
    Retreated,
    StepStated,
    Took,
    TurnStated,
)
from biteme.fold import replay as fold_states
from biteme.state import BiteState
from biteme.views import HIDDEN, looked_at, view_of
from console import winners_words
from getbit_events.errors import InputError
from getbit_events.record import Violation
from importers.bmn_write import action_text
from replay.stepping import Stepping
from replay.terminal import plain_text

__all__ = [
    "TABLE",
    "BiteCursor",
    "bite_text",
    "describe",
    "render_bite",
    "result_words",
    "scores_of",
    "table_rows",
]

#: ``--as table``: what every player saw (a name can never be empty, so "" is no seat)
TABLE = ""
_LABEL = 10


class BiteCursor(Stepping[int]):
    """The replay of one game: its events as ``player`` saw them (None: the record,
    an observer's, every card; ``TABLE``: what everyone saw), the state after each,
    and what the validator found, each shown at its turn."""

    def __init__(
        self,
        events: Sequence[BiteEvent],
        violations: Sequence[Violation] = (),
        warnings: Sequence[Violation] = (),
        title: str = "",
        player: str | None = None,
    ) -> None:
        if not events or not isinstance(events[0], BiteStarted):
            raise InputError("a replay needs a game that starts with its set-up")
        seats = events[0].seats
        if player is not None and player != TABLE:
            named = {n.casefold(): n for n in seats}
            if player.casefold() not in named:
                raise InputError(
                    f"--as {player}: no such player; the players are {', '.join(seats)}"
                )
            player = named[player.casefold()]
        self.record: tuple[BiteEvent, ...] = tuple(events)
        self.player = player
        self.events: tuple[BiteEvent, ...] = (
            tuple(view_of(events, player)) if player is not None else self.record
        )
        setup = self.events[0]
        assert isinstance(setup, BiteStarted)
        self.setup = setup
        self.states: tuple[BiteState, ...] = tuple(fold_states(self.events))
        self.violations = tuple(violations)
        self.warnings = tuple(warnings)
        self.title = title
        self.turns: dict[int, list[int]] = {}  # turn -> its event indices, as recorded
        for i, e in enumerate(self.events):
            self.turns.setdefault(e.turn, []).append(i)
        self._ends = sorted({indices[-1] for indices in self.turns.values()})
        self.position = 0  # the index of the event last applied (0: the set-up)

    def seen_by(self, player: str | None) -> BiteCursor:
        """The same game as ``player`` saw it (None: the record; ``TABLE``), at the same step."""
        other = BiteCursor(self.record, self.violations, self.warnings, self.title, player)
        other.goto(self.position)
        return other

    @property
    def label(self) -> str:
        """Whose view this is, in words."""
        if self.player is None:
            return "everything (the record, every card)"
        if self.player == TABLE:
            return "the table (what every player saw; ? a card hidden)"
        return f"as {self.player} saw it (? a card {self.player} could not see, B17)"

    @property
    def last_turn(self) -> int:
        return max(self.turns)

    def turn_events(self, turn: int) -> list[int]:
        """The indices of turn ``turn``'s events; InputError when the game has none."""
        if turn not in self.turns or turn < 1:
            raise InputError(
                f"there is no turn {turn}: this game runs from turn 1 to {self.last_turn}"
            )
        return self.turns[turn]

    # -- stepping (the keys of ``--step``, replay.interactive.Keys) -----------------

    @property
    def bounds(self) -> dict[int, tuple[int, int]]:
        """Each turn's first and last event index (0: the set-up)."""
        return {t: (indices[0], indices[-1]) for t, indices in self.turns.items()}

    @property
    def last_round(self) -> int:
        """The last turn (``last_round``, as Get Bit!'s cursor says it)."""
        return self.last_turn

    @property
    def round(self) -> int:
        """The turn of the current event (``round``, as Get Bit!'s cursor says it)."""
        return self.events[self.position].turn

    def here(self) -> int:
        return self.position

    def goto_round(self, rnd: int) -> int:
        """Jump to the end of turn ``rnd``; InputError when there is none."""
        return self.goto(self.turn_events(rnd)[-1])

    def looked(self, look: Looked) -> dict[str, str]:
        """B11: what a Fox's look showed, when this view may see it (its player's, or all)."""
        if self.player is not None and self.player != look.who:
            return {}
        return looked_at(self.record, look)

    def account(self, index: int) -> str:
        """Plain words for event ``index``."""
        before = self.states[index - 1] if index > 0 else None
        event = self.events[index]
        words = describe(event, before, self.states[index])
        if isinstance(event, Looked):
            seen = self.looked(event)
            if seen:
                words += ": " + ", ".join(f"{n} {c}" for n, c in seen.items())
        return words


def _card(card: str | None) -> str:
    return "—" if card is None else card


def _possessive(name: str) -> str:
    return f"{name}'s"


def describe(event: BiteEvent, before: BiteState | None, after: BiteState) -> str:
    """What one event did, in words (``?`` for a card the viewer could not see)."""
    if isinstance(event, BiteStarted):
        deal = ", ".join(f"{n} {c}" for n, c in zip(event.seats, event.deal, strict=False))
        return (
            f"{len(event.seats)} players clockwise: {', '.join(event.seats)} "
            f"({event.seats[0]} first); dealt {deal}; {after.left} cards left in the deck (B1, B2)"
        )
    if isinstance(event, Attacked):
        if not event.joined:
            return f"{event.who} ({event.card}) attacks {event.defender} ({event.defender_card})"
        attackers = [(event.who, event.card), *event.joined]
        return (
            " and ".join(f"{n} ({c})" for n, c in attackers)
            + f" join forces against {event.defender} ({event.defender_card}) (B8)"
        )
    if isinstance(event, Retreated):
        if event.card == rules.MEERKAT:
            return f"{event.who} retreats with a Meerkat: it becomes active, +2 (B10)"
        return f"{event.who} retreats with {event.card}: discarded, -1 (B9)"
    if isinstance(event, Passed):
        return f"{event.who} passes (B14)"
    if isinstance(event, Claimed):
        kept = before.player(event.owner).meerkats if before is not None else 0
        with_them = f" with {kept} Meerkat{'s' if kept != 1 else ''} (B10)" if kept else ""
        return f"{event.who} claims {_possessive(event.owner)} {event.card} as a trophy{with_them}"
    if isinstance(event, Picked):
        return (
            f"{event.who} picks {_possessive(event.owner)} trophy {event.card} "
            "at random (Mosquito, B13)"
        )
    if isinstance(event, Drew):
        return f"{event.who} draws {event.card} ({after.left} left in the deck)"
    if isinstance(event, Looked):
        return f"{event.who} looks at every other player's card (Fox, B11)"
    if isinstance(event, Took):
        return f"{event.who} takes {_possessive(event.owner)} {event.card} (Monkey, B12)"
    if isinstance(event, BiteEnded):
        return "the last card of the deck is drawn: the game ends (B15)"
    if isinstance(event, TurnStated | StepStated | ResultStated):
        return f"the record says {_stated(event)}: kept as recorded, the table leaves it aside"
    return event.TYPE  # pragma: no cover (every class is above)


def _stated(e: TurnStated | StepStated | ResultStated) -> str:
    """What a fact kept as recorded says, as the record wrote it."""
    if isinstance(e, ResultStated):
        said = [f"{k} {v}" for k, v in (("Winner", e.winner), ("Scores", e.scores)) if v]
        return "; ".join(said) or "no result"
    if isinstance(e, StepStated):
        return " ".join(w for w in (e.who, e.kind, e.other, e.card) if w)
    return action_text(e)


def scores_of(state: BiteState) -> dict[str, int | None]:
    """B16: each player's score as it stands (None where a trophy is hidden, ``?``, or
    its strength was never stated, B3)."""
    strengths = dict(state.strengths)
    out: dict[str, int | None] = {}
    for p in state.players:
        values = [rules.score_of(c, strengths) if c != HIDDEN else None for c in p.trophies]
        known = all(v is not None for v in values)
        out[p.name] = sum(v for v in values if v is not None) - len(p.discards) if known else None
    return out


def _row(label: str, body: str | Text, style: str = "") -> Text:
    row = Text(f"  {label:<{_LABEL}}", style="cyan")
    row.append_text(body if isinstance(body, Text) else Text(body, style=style))
    return row


def _per_player(state: BiteState, what: Iterable[str]) -> Text:
    text = Text()
    for k, (p, shown) in enumerate(zip(state.players, what, strict=True)):
        if k:
            text.append(" │ ", style="dim")
        text.append(p.name, style="bold")
        text.append(f" {shown}")
    return text


def table_rows(state: BiteState) -> list[Text]:
    """The hands (with active Meerkats), trophies, discards and scores so far."""
    hands = [_card(p.card) + (f" +{p.meerkats} Meerkat" if p.meerkats else "")
             for p in state.players]
    trophies = [", ".join(p.trophies) or "—" for p in state.players]
    discards = [", ".join(p.discards) or "—" for p in state.players]
    scores = [("?" if s is None else str(s)) for s in scores_of(state).values()]
    return [
        _row("hands", _per_player(state, hands)),
        _row("trophies", _per_player(state, trophies)),
        _row("discards", _per_player(state, discards)),
        _row("scores", _per_player(state, scores)),
    ]


_LABELS: dict[type, str] = {
    Attacked: "battle",
    Retreated: "retreat",
    Passed: "pass",
    Claimed: "trophy",
    Picked: "pick",
    Drew: "draw",
    Looked: "look",
    Took: "take",
    BiteEnded: "end",
    TurnStated: "recorded",
    StepStated: "recorded",
    ResultStated: "recorded",
}


def _problems(found: Iterable[Violation], mark: str = "✗") -> list[Text]:
    return [Text(f"  {mark} {v}", style="red" if mark == "✗" else "yellow") for v in found]


def render_turn(cursor: BiteCursor, turn: int) -> RenderableType:
    """Turn ``turn``: who did what, the cards shown, trophies, draws, the table after."""
    indices = cursor.turn_events(turn)
    first = cursor.events[indices[0]]
    who = getattr(first, "who", "")
    rows = [Text(f"Turn {turn}: {who}", style="bold underline")]
    for i in indices:
        e = cursor.events[i]
        style = "bold" if isinstance(e, Attacked | BiteEnded) else ""
        rows.append(_row(_LABELS.get(type(e), e.TYPE), cursor.account(i), style))
    rows.extend(table_rows(cursor.states[indices[-1]]))
    rows.extend(_problems(cursor.violations_in(turn)))
    rows.extend(_problems((w for w in cursor.warnings if w.round == turn), "!"))
    return Group(*rows)


def result_words(cursor: BiteCursor) -> str:
    """How the game ended (B15, B16), or how it stands when it did not."""
    state = cursor.states[-1]
    scores = ", ".join(
        f"{n} {'?' if s is None else s}" for n, s in scores_of(state).items()
    )
    if not state.finished:
        left = f"({state.left} cards left)"
        return f"unfinished after turn {cursor.last_turn} {left}; scores so far {scores}"
    if not state.winners:
        return f"ended in turn {state.turn}; scores {scores}; the winner is not known (B3)"
    return f"ended in turn {state.turn}; scores {scores}; {winners_words(state.winners)}"


def render_bite(cursor: BiteCursor, turn: int | None = None) -> list[RenderableType]:
    """The whole game (or only turn ``turn``), turn by turn."""
    rows: list[RenderableType] = [Text(cursor.title or "Replay", style="bold")]
    rows.append(Text(f"seen: {cursor.label}", style="dim"))
    rows.append(Text(cursor.account(0)))
    if cursor.setup.strengths:
        rows.append(Text("strengths: " + ", ".join(f"{c} {s}" for c, s in cursor.setup.strengths)))
    if cursor.setup.tags:
        rows.append(Text("tags: " + "; ".join(f"{k} {v}" for k, v in cursor.setup.tags)))
    rows.extend(table_rows(cursor.states[0]))
    rows.extend(_problems(cursor.violations_in(0)))
    turns = [turn] if turn is not None else [t for t in cursor.turns if t > 0]
    for t in turns:
        rows.append(Text(""))
        rows.append(render_turn(cursor, t))
    late = [v for v in cursor.violations if (v.round or 0) not in cursor.turns]
    if late:
        rows.append(Text(""))
        rows.extend(_problems(late))
    rows.append(Text(""))
    rows.append(Text(f"Result: {result_words(cursor)}.", style="bold"))
    n = len(cursor.violations)
    if n:
        rows.append(Text(f"{n} violation{'s' if n != 1 else ''} in this record.", style="red"))
    return rows


def bite_text(cursor: BiteCursor, turn: int | None = None, width: int = 100) -> str:
    """The printout as plain text (no colour): what the golden files hold."""
    return plain_text(render_bite(cursor, turn), width)
