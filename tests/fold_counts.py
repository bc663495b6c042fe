"""The same statistics by a fold over the events, with no read model in between.

``store.readmodel`` scans a game's events once, as they are stored;
this module replays them through the core's reducer and reads every count off
the game states (lines, limbs, discards, hunger, ranking) or the step that
changed them. The two are written independently, so a test that finds both
giving the same report over hundreds of simulated games shows the stored read
model says what the events say.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from getbit_events.events import CardsRevealed, CardsTakenBack, Event, GameStarted
from getbit_events.reducer import replay
from getbit_events.state import GameState
from reports.selection import Aliases, Filters
from reports.stats import StatsReport, build_report
from store.readmodel import COLUMNS, iso_date

__all__ = ["GameEvents", "fold_report", "fold_rows"]

#: One stored game as a fold sees it: id, events, status, tags.
GameEvents = tuple[str, Sequence[Event], str, Mapping[str, str]]


_Step = tuple[Event, GameState, GameState]


def _round_ends(events: Sequence[Event]) -> tuple[list[GameState], list[_Step]]:
    """The state at the end of every round, and every (event, before, after) step."""
    ends: list[GameState] = []
    steps: list[_Step] = []
    before: GameState | None = None
    for event, after in zip(events, replay(events), strict=True):
        if before is not None:
            if after.round != before.round and before.round > 0:
                ends.append(before)
            steps.append((event, before, after))
        before = after
    if before is not None and before.round > 0:
        ends.append(before)
    return ends, steps


def fold_rows(
    game_id: str, events: Sequence[Event], status: str, tags: Mapping[str, str]
) -> list[dict[str, Any]]:
    """Rows shaped like ``readmodel.rows``, computed by replaying the game."""
    setup = events[0]
    if not isinstance(setup, GameStarted):
        raise ValueError(f"game {game_id}: the events must start with game-started")
    ends, steps = _round_ends(events)
    final = steps[-1][2] if steps else None
    count: dict[str, Counter[str]] = {s: Counter() for s in setup.line}
    shark: Counter[str] = Counter()
    for end in ends:
        for s in end.line:
            count[s]["rounds_survived"] += 1
        if end.line:
            count[end.line[0]]["rounds_front"] += 1
        if len(end.line) > 1:
            count[end.line[-1]]["rounds_back"] += 1
    for event, before, after in steps:
        if isinstance(event, CardsRevealed):
            values = Counter(v for _, v in after.revealed if v is not None)
            for s, v in after.revealed:
                if v is None:
                    count[s]["blank_plays"] += 1
                    continue
                count[s][f"plays_{v}"] += 1
                count[s]["tied_plays"] += values[v] > 1  # R4: equal values stay
                count[s]["moved_plays"] += values[v] == 1  # R4: a unique value moves
        elif isinstance(event, CardsTakenBack):
            count[event.who]["take_backs"] += 1
        for b, a in zip(before.swimmers, after.swimmers, strict=True):
            # a bite takes one limb; being devoured (R6's last limb, R8) is not a bite
            if len(a.limbs) == len(b.limbs) - 1 and not a.devoured:
                count[a.name]["bites_taken"] += 1
                shark["shark_bites"] += setup.variant == "shark"
        pairs = zip(after.swimmers, before.swimmers, strict=True)
        if any(len(a.discards) > len(b.discards) for a, b in pairs):
            shark["shark_exhaustions"] += 1
        if after.shark is not None and before.shark is not None:
            shark["shark_cards"] += len(after.shark.table) == len(before.shark.table) + 1
            shark["shark_misses"] += after.shark.hunger < before.shark.hunger
    return _rows(game_id, setup, status, tags, final, count, shark, ends)


def _rows(
    game_id: str,
    setup: GameStarted,
    status: str,
    tags: Mapping[str, str],
    final: GameState | None,
    count: dict[str, Counter[str]],
    shark: Counter[str],
    ends: list[GameState],
) -> list[dict[str, Any]]:
    owner = {s: p for p, team in setup.teams for s in team}
    date = next((v for k, v in tags.items() if k.casefold() == "date"), None)
    ended = final is not None and final.finished
    ranking = final.ranking if final is not None and final.ranking else ()
    players = {owner.get(s, s) for s in setup.line if s != setup.automaton}
    players |= {setup.shark} if setup.shark else set()
    base = {
        "game_id": game_id,
        "status": status,
        "variant": setup.variant,
        "memory": int(setup.memory),
        "swimmers": len(setup.line),
        "players": len(players),
        "date": iso_date(date),
        "tags": json.dumps(dict(tags), ensure_ascii=False),
        "rounds": ends[-1].round if ends else 0,
        "end_reason": final.end_reason if ended and final else None,
        "winner": final.winner if ended and final else None,
        "hunger_left": None,
    }

    def result(name: str) -> dict[str, Any]:
        if not ended or final is None:
            return {"rank": None, "won": None}
        return {
            "rank": ranking.index(name) + 1 if name in ranking else None,
            "won": int(final.winner == name),
        }

    out = []
    for place, s in enumerate(setup.line, 1):
        state = final.swimmer(s) if final is not None else None
        row = dict.fromkeys(COLUMNS, 0) | base
        row |= count[s]
        player = owner.get(s, s)
        row |= {
            "swimmer": s,
            "name": player,
            "player_key": player.casefold(),
            "role": "automaton" if s == setup.automaton else "swimmer",
            "start_place": place,
            "devoured": int(state is not None and state.devoured),
            "limbs_lost": 4 - len(state.limbs) if state is not None else 0,
            "discarded": len(state.discards) if state is not None else 0,
            **result(player),
        }
        out.append({c: row[c] for c in COLUMNS})
    if setup.shark is not None:
        row = dict.fromkeys(COLUMNS, 0) | base
        row |= shark
        row |= {
            "swimmer": setup.shark,
            "name": setup.shark,
            "player_key": setup.shark.casefold(),
            "role": "shark",
            "start_place": None,
            "hunger_left": final.shark.hunger if final and final.shark else setup.hunger,
            **result(setup.shark),
        }
        out.append({c: row[c] for c in COLUMNS})
    return out


def fold_report(
    games: Iterable[GameEvents],
    filters: Filters | None = None,
    aliases: Aliases | None = None,
    history: bool = False,
) -> StatsReport:
    """The statistics report of ``games`` computed by replaying their events."""
    rows = (row for game in games for row in fold_rows(*game))
    return build_report(rows, filters, aliases, history)
