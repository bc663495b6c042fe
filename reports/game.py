"""One game's summary: ranking, what happened each round, cards played per swimmer."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import attrs
from rich.console import Group, RenderableType
from rich.markup import escape
from rich.table import Table
from rich.text import Text

from getbit_events.events import (
    CardsDiscarded,
    CardsRevealed,
    Event,
    GameEnded,
    GameStarted,
    HungerLost,
    SharkCardPlayed,
    SwimmerBitten,
    SwimmerDevoured,
    SwimmerMoved,
)

__all__ = ["GameSummary", "RoundSummary", "game_json", "game_renderable", "summarise_game"]


@attrs.frozen
class RoundSummary:
    """One round: the cards, the Shark's card, who lost what, and the line at its end."""

    number: int
    cards: tuple[tuple[str, int | None], ...]
    shark_card: str | None
    bites: tuple[tuple[str, str], ...]
    devoured: tuple[tuple[str, str], ...]  # (who, why): last-limb (R6) or two-left (R8)
    missed: bool
    discarded: tuple[tuple[str, int], ...]
    line: tuple[str, ...]


@attrs.frozen
class GameSummary:
    """What ``getbit report GAME`` shows; ``ranking`` is empty while the game is unfinished."""

    game_id: str
    variant: str
    memory: bool
    start_line: tuple[str, ...]
    owners: dict[str, str]
    automaton: str | None
    shark: str | None
    tags: dict[str, str]
    rounds: tuple[RoundSummary, ...]
    winner: str | None
    ranking: tuple[str, ...]
    end_reason: str | None

    def cards_of(self, swimmer: str) -> list[int | None]:
        """The card ``swimmer`` played in each round it was in (None: no card, R15)."""
        return [dict(r.cards)[swimmer] for r in self.rounds if swimmer in dict(r.cards)]

    def positions(self, swimmer: str) -> list[int | None]:
        """Its place in the line at the end of each round, 1 = front (None once devoured)."""
        return [r.line.index(swimmer) + 1 if swimmer in r.line else None for r in self.rounds]


def summarise_game(
    game_id: str, events: Sequence[Event], tags: Mapping[str, str] | None = None
) -> GameSummary:
    """The summary of one game's complete (or unfinished) event stream."""
    if not events or not isinstance(events[0], GameStarted):
        raise ValueError(f"game {game_id}: the events must start with game-started")
    setup = events[0]
    line = list(setup.line)
    rounds: list[RoundSummary] = []
    current: dict[str, Any] | None = None
    ended: GameEnded | None = None

    def close() -> None:
        if current is not None:
            rounds.append(RoundSummary(**current, line=tuple(line)))

    for e in events[1:]:
        if current is None or e.round != current["number"]:
            close()
            current = {
                "number": e.round,
                "cards": (),
                "shark_card": None,
                "bites": (),
                "devoured": (),
                "missed": False,
                "discarded": (),
            }
        if isinstance(e, CardsRevealed):
            current["cards"] = e.cards
        elif isinstance(e, SharkCardPlayed):
            current["shark_card"] = e.card
        elif isinstance(e, SwimmerMoved):
            line.remove(e.who)
            line.insert(0, e.who)
        elif isinstance(e, SwimmerBitten):
            current["bites"] += ((e.who, e.limb),)
        elif isinstance(e, SwimmerDevoured):
            current["devoured"] += ((e.who, e.why),)
            if e.who in line:
                line.remove(e.who)
        elif isinstance(e, HungerLost):
            current["missed"] = True
        elif isinstance(e, CardsDiscarded):
            current["discarded"] += e.cards
        elif isinstance(e, GameEnded):
            ended = e
    close()
    owners = {s: p for p, team in setup.teams for s in team}
    return GameSummary(
        game_id,
        setup.variant,
        setup.memory,
        setup.line,
        owners,
        setup.automaton,
        setup.shark,
        dict(tags if tags is not None else setup.tags),
        tuple(rounds),
        ended.winner if ended else None,
        ended.ranking if ended else (),
        ended.why if ended else None,
    )


def game_json(g: GameSummary) -> dict[str, Any]:
    """The object ``getbit report GAME --json`` prints."""
    return {
        "game_id": g.game_id,
        "variant": g.variant,
        "memory": g.memory,
        "tags": g.tags,
        "start_line": list(g.start_line),
        "teams": g.owners,
        "automaton": g.automaton,
        "shark": g.shark,
        "finished": g.winner is not None,
        "winner": g.winner,
        "ranking": list(g.ranking),
        "end_reason": g.end_reason,
        "rounds": [
            {
                "round": r.number,
                "cards": dict(r.cards),
                "shark_card": r.shark_card,
                "bites": [{"swimmer": who, "limb": limb} for who, limb in r.bites],
                "devoured": [{"swimmer": who, "why": why} for who, why in r.devoured],
                "shark_missed": r.missed,
                "discarded": [{"swimmer": who, "card": v} for who, v in r.discarded],
                "line": list(r.line),
            }
            for r in g.rounds
        ],
        "cards_played": {s: g.cards_of(s) for s in g.start_line},
    }


def _card(v: int | None) -> str:
    return "-" if v is None else str(v)


def game_renderable(g: GameSummary) -> RenderableType:
    """The rich screen of ``getbit report GAME``."""
    tagline = ", ".join(f"{k} {v}" for k, v in g.tags.items() if k.casefold() != "line")
    memory = " (memory)" if g.memory else ""
    head = (
        f"Game {g.game_id}: {g.variant}{memory}, "
        f"{len(g.start_line)} swimmers, {len(g.rounds)} rounds"
    )
    if g.winner is None:
        result = "unfinished: no ranking yet"
    elif g.winner == g.automaton:
        result = f"{g.winner}, the automated swimmer, wins ({g.end_reason}): no player wins (R9)"
    else:
        result = f"{g.winner} wins ({g.end_reason})"
    parts: list[RenderableType] = [Text(head), Text(result)]
    if tagline:
        parts.append(Text(tagline))
    if g.ranking:
        ranking = Table(title="Ranking", title_justify="left")
        ranking.add_column("Rank", justify="right")
        ranking.add_column("Player")
        if g.owners:
            ranking.add_column("Swimmers")
        for rank, name in enumerate(g.ranking, 1):
            swimmers = ", ".join(s for s, p in g.owners.items() if p == name)
            note = " (automaton)" if name == g.automaton else (
                " (Shark)" if name == g.shark else ""
            )
            cells = [str(rank), escape(name + note)]
            ranking.add_row(*cells, *([escape(swimmers)] if g.owners else []))
        parts.append(ranking)
    bites = Table(title="Bites by round", title_justify="left")
    bites.add_column("Round", justify="right")
    bites.add_column("What happened")
    bites.add_column("Line at the end (front first)")
    for r in g.rounds:
        gone = dict(r.devoured)
        what = [
            f"{who} loses {limb.replace('-', ' ')}" + (": devoured" if who in gone else "")
            for who, limb in r.bites
        ]
        bitten = {who for who, _ in r.bites}
        what += [
            f"{who} devoured (R8: two left)" if why == "two-left" else f"{who} devoured"
            for who, why in r.devoured
            if who not in bitten
        ]
        if r.missed:
            what.append(f"the Shark misses ({r.shark_card})")
        if r.discarded:
            what.append("Exhaustion: " + ", ".join(f"{w} {v}" for w, v in r.discarded))
        bites.add_row(str(r.number), escape("; ".join(what) or "-"), escape(", ".join(r.line)))
    parts.append(bites)
    cards = Table(title="Cards played", title_justify="left")
    cards.add_column("Round", justify="right")
    for name in g.start_line:
        cards.add_column(escape(name), justify="right")
    if g.shark is not None:
        cards.add_column(escape(g.shark) + " (Shark)")
    for r in g.rounds:
        played = dict(r.cards)
        row = [_card(played[s]) if s in played else "" for s in g.start_line]
        if g.shark is not None:
            row.append(r.shark_card or "")
        cards.add_row(str(r.number), *row)
    parts.append(cards)
    return Group(*parts)
