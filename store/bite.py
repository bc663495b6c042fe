"""What the store keeps of a game of "Come on! Bite me!" (docs/biteme.md), apart
from SQL: its games row, hash and events made as ``adding.prepare`` makes Get
Bit!'s (the same ``NewGame``, ``game`` saying which), what its events say its row
holds (``getbit check``), and its events read back.

Such a game has no read-model rows: ``game_swimmers`` and the totals are Get
Bit!'s (swimmers, limbs, the Shark); its statistics are counted from its events
(``reports.bite_stats``). Its hash is made as Get Bit!'s is (``stored.rows_digest``:
each event's type, version, turn and payload, then its violations), so ``getbit
check`` re-derives it from the same rows.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from biteme.events import BiteEnded, BiteEvent, BiteStarted
from biteme.fold import fold
from biteme.record import BiteRecord
from biteme.validate import BiteReport, validate_bite, winner_of
from getbit_events.record import RecordedGame
from getbit_events.validate import GameReport, validate_game
from importers.wire import bite_payload_json
from store import readmodel
from store.adding import NewGame, games_row, prepare, refuse_unreadable, violation_rows
from store.encoding import Shapes
from store.schema import compress
from store.stored import BITE_ME, kept_violations, rows_digest

__all__ = ["check", "expected_row", "is_bite_stream", "prepare_bite", "prepare_either"]

_SHAPES = Shapes()  # the payload texts this process has shaped


def is_bite_stream(types: Sequence[str]) -> bool:
    """Whether stored events of these types are a game of "Come on! Bite me!" (its
    wire tags begin ``bm-``, never one of Get Bit!'s)."""
    return bool(types) and str(types[0]).startswith("bm-")


def check(record: RecordedGame | BiteRecord) -> GameReport | BiteReport:
    """A record checked by the rules of its own game (the one seam of an import that
    tells the games apart, with ``prepare_either``)."""
    if isinstance(record, BiteRecord):
        return validate_bite(record)
    return validate_game(record)


def prepare_either(report: GameReport | BiteReport) -> NewGame:
    """What a checked game of either game becomes in the store."""
    if isinstance(report, BiteReport):
        return prepare_bite(report)
    return prepare(report)


def prepare_bite(report: BiteReport) -> NewGame:
    """What ``report`` becomes in the store (``adding.prepare`` for this game);
    InputError when its record has syntax errors (there is no game to keep)."""
    refuse_unreadable(report)
    status = readmodel.game_status(report.valid, report.finished)
    events = report.events
    payloads = [bite_payload_json(e) for e in events]
    setup = events[0] if events and isinstance(events[0], BiteStarted) else None
    tags = dict(setup.tags) if setup else {t.name: t.value for t in report.record.tags}
    seats = json.dumps(list(setup.seats) if setup else [], ensure_ascii=False)
    kept = kept_violations(report)
    rows = [(e.TYPE, e.VERSION, e.turn, p) for e, p in zip(events, payloads, strict=True)]
    text = report.record.text
    hashed = rows_digest(rows, tags.items(), ((v.code, v.round, v.message) for v in kept), text)
    turns = events[-1].turn if events else 0
    return NewGame(
        digest=hashed,
        row=games_row(report, tags, None, seats, status, turns, len(events)),  # no variants (B1)
        events=_SHAPES.encode((n, *row) for n, row in enumerate(rows, 1)),
        violations=violation_rows(report),
        rows=(),
        swimmers=seats,
        tags=tuple(tags.items()),
        status=status,
        source=compress(text) if text is not None else None,
        game=BITE_ME,
    )


def expected_row(events: Sequence[BiteEvent], violations: int) -> dict[str, Any]:
    """What a games row of these events holds (``getbit check``): ``status``,
    ``winner``, ``rounds`` (turns), ``variant``, ``tags`` and ``swimmers`` (the seats);
    ValueError when they do not make a game."""
    setup = events[0]
    if not isinstance(setup, BiteStarted):
        raise ValueError(f"its events start with {setup.TYPE}, not bm-game-started")
    state = fold(events)
    ended = next((e for e in reversed(events) if isinstance(e, BiteEnded)), None)
    return {
        "status": readmodel.game_status(violations == 0, state.finished),
        "winner": winner_of(ended.winners) if ended is not None else None,
        "rounds": events[-1].turn,
        "variant": None,
        "tags": dict(setup.tags),
        "swimmers": list(setup.seats),
    }
