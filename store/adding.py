"""What a game becomes in the store, worked out before any SQL: its games row, its
hash, its events encoded (``encoding``: all but the codes of their kinds), its
read-model rows. ``GameStore.add`` writes it; an import's worker processes make it
(``prepare``), so the one writer only writes."""

from __future__ import annotations

import json
from typing import Any

import attrs

from biteme.validate import BiteReport
from getbit_events.errors import InputError
from getbit_events.events import GameStarted
from getbit_events.validate import GameReport
from store import readmodel
from store.encoding import Encoded, Shapes
from store.schema import compress
from store.stored import GET_BIT, kept_violations, lines_digest, status_of, utc_now

__all__ = ["ID_LENGTH", "NewGame", "games_row", "prepare", "refuse_unreadable", "violation_rows"]

_SHAPES = Shapes()  # the payload texts this process has shaped

#: A game's id is the start of its hash, this long (longer when another's starts the same).
ID_LENGTH = 12


@attrs.frozen
class NewGame:
    """A game ready to store, as plain values (it crosses from a worker process).

    ``row`` is its games row without the id (``schema.GAME_COLUMNS[1:]``);
    ``events`` its events encoded (``encoding.Encoded``), seq 1 first;
    ``rows`` its read-model rows with the id left ``None``; ``source`` its record
    text as ``sources`` keeps it, and its length.
    """

    digest: str
    row: tuple[Any, ...]
    events: Encoded
    violations: tuple[tuple[int, int, int | None, str, str | None, str], ...]
    rows: tuple[tuple[Any, ...], ...]
    swimmers: str
    tags: tuple[tuple[str, str], ...]
    status: str
    source: tuple[bytes, int] | None
    game: str = GET_BIT  # which game (``games.game``): GET_BIT or BITE_ME

    def read_model(self, game_id: str) -> list[tuple[Any, ...]]:
        """The read-model rows under the game's id."""
        if self.rows and self.rows[0][0] == game_id:
            return list(self.rows)
        return [(game_id, *row[1:]) for row in self.rows]


def prepare(report: GameReport) -> NewGame:
    """What ``report`` becomes in the store; InputError when its record has syntax
    errors (there is no game to keep)."""
    refuse_unreadable(report)
    status = status_of(report)
    facts = report.facts()  # the events, not made (store.encoding)
    setup: GameStarted | None = facts[0][2] if facts and facts[0][1] is GameStarted else None
    tags = dict(setup.tags) if setup else {t.name: t.value for t in report.record.tags}
    swimmers = json.dumps(list(setup.line) if setup else [], ensure_ascii=False)
    rounds = facts[-1][0] if facts else 0  # events come in round order
    variant = setup.variant if setup else None
    row = games_row(report, tags, variant, swimmers, status, rounds, len(facts))
    text = report.record.text
    events, lines = _SHAPES.encode_facts(facts)
    hashed = lines_digest(report, lines)
    return NewGame(
        digest=hashed,
        row=row,
        events=events,
        violations=violation_rows(report),
        # under the id the game will most likely get (GameStore.add puts the one it got)
        rows=tuple(readmodel.fact_rows(hashed[:ID_LENGTH], facts, status, tags))
        if setup else (),
        swimmers=swimmers,
        tags=tuple(tags.items()),
        status=status,
        source=compress(text) if text is not None else None,
    )


def games_row(
    report: GameReport | BiteReport,
    tags: dict[str, str],
    variant: str | None,
    swimmers: str,
    status: str,
    rounds: int,
    events: int,
) -> tuple[Any, ...]:
    """A checked game's games row without its id (``schema.GAME_COLUMNS[1:]``, in that
    order), for either game: ``rounds`` its last round (turn), ``events`` how many."""
    return (
        report.source,
        report.record.pos.line,
        report.record.index,
        json.dumps(tags, ensure_ascii=False),
        variant,
        swimmers,
        status,
        report.winner,
        rounds,
        events,
        len(report.violations),
        utc_now(),
    )


def refuse_unreadable(report: GameReport | BiteReport) -> None:
    """InputError when ``report``'s record has syntax errors: there is no game to keep."""
    if not report.readable:
        first = report.violations[0] if report.violations else None
        raise InputError(f"{first or report.source}: a game with syntax errors is not stored")


def violation_rows(
    report: GameReport | BiteReport,
) -> tuple[tuple[int, int, int | None, str, str | None, str], ...]:
    """The ``violations`` rows of the violations a stored game keeps (``kept_violations``)."""
    if not report.violations:
        return ()
    return tuple(
        (v.pos.line, v.pos.column, v.round, v.code, v.rule, v.message)
        for v in kept_violations(report)
    )
