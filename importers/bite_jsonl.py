"""JSON Lines event logs of "Come on! Bite me!" (docs/biteme.md): written from a
game's events, and read back as recorded games (``BiteRecord``) that the
validator checks exactly like a BMN record, each fact at its line.

A log of this game is Get Bit!'s log (docs/events.md) with its own events: the
same envelope (``type``, ``v``, ``game``, ``seq``), ``turn`` where Get Bit! has
``round``, wire tags beginning ``bm-``. A game's events come together, its
``bm-game-started`` first, ``seq`` counting 1, 2, 3 ...; a ``bm-game-started``
or another ``game`` begins the next game. Lines are read as Get Bit!'s are
(``jsonl_lines.objects``: bounded, never handed to the parser unguarded), and a
line that is no event spoils only the game it is in.

``is_bite`` and ``iter_bite_file`` tell a file of this game (BMN or a log) from
one of Get Bit!, and read it.
"""

from __future__ import annotations

import io
import json
import re
from collections.abc import Callable, Iterable, Iterator, Sequence
from pathlib import Path
from typing import IO

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
from biteme.record import BiteRecord, BiteStep, BiteTurn
from biteme.rules import GAME_NAME
from getbit_events.errors import InputError
from getbit_events.events import SourcePos
from getbit_events.limits import MAX_ROUNDS, MAX_TEXT, MAX_VIOLATIONS
from getbit_events.record import RecordedTag, Violation
from importers.bmn import is_bmn, iter_bmn_stream
from importers.gbn_lex import open_record, tags_fault
from importers.jsonl_lines import objects
from importers.reading import DETECT_BYTES, open_bytes, read_in, recoded
from importers.wire import bite_event_from_wire, bite_event_to_wire

__all__ = [
    "bite_kind",
    "is_bite",
    "is_bite_jsonl",
    "iter_bite_file",
    "iter_bite_jsonl",
    "read_bite_jsonl",
    "write_bite_jsonl",
]

_BITE_TYPE = re.compile(rb'"type"\s*:\s*"bm-')
_JSONL = (".jsonl", ".ndjson")
#: what a name may not hold: the validator reads the set-up as BMN's tags do (B2)
_NAME_FORBIDDEN = frozenset(',;:#[]"=() \t\n\r')


def write_bite_jsonl(games: Iterable[tuple[str, Sequence[BiteEvent]]]) -> Iterator[str]:
    """The log lines (each ending in a newline) of ``(game id, events)`` pairs; a game
    with an id or a tag the reader would refuse raises InputError before any of its
    lines."""
    for game_id, events in games:
        if not 0 < len(game_id) <= MAX_TEXT:
            raise InputError(f"game id of {len(game_id)} characters: 1 to {MAX_TEXT}")
        setup = events[0] if events else None
        fault = tags_fault(setup.tags) if isinstance(setup, BiteStarted) else None
        if fault is not None:  # a tag kept before such tags were refused
            raise InputError(
                f"game {game_id} cannot be written as JSON Lines, which would refuse it: {fault}"
            )
        for seq, event in enumerate(events, 1):
            yield json.dumps(
                bite_event_to_wire(event, game_id, seq), ensure_ascii=False, separators=(",", ":")
            ) + "\n"


class _Log:
    """One game of a log as it is read: its events, or what spoils it."""

    def __init__(self, source: str, index: int, game_id: str | None, pos: SourcePos) -> None:
        self.source, self.index, self.id, self.pos = source, index, game_id, pos
        self.events: list[BiteEvent] = []
        self.errors: list[Violation] = []
        self.turns = 0
        self.seq = 0  # the last seq read, a broken line's too where it can be read

    def broken(self, error: Violation, seq: int | None) -> None:
        """A line that is no event: it spoils the game, and takes its place in it."""
        self.errors.append(error)
        self.seq = seq if seq is not None else self.seq + 1

    def error(self, message: str, pos: SourcePos) -> None:
        if len(self.errors) < MAX_VIOLATIONS:
            self.errors.append(Violation("syntax", message, pos))

    def add(self, event: BiteEvent, seq: object, pos: SourcePos) -> None:
        if seq != self.seq + 1:
            self.error(f"'seq' is {seq!r}, but this is event {self.seq + 1} of its game", pos)
        self.seq = seq if isinstance(seq, int) else self.seq + 1
        if not self.events and not isinstance(event, BiteStarted):
            self.error(f"a game begins with bm-game-started, not {event.TYPE}", pos)
        if isinstance(event, Attacked | Retreated | Passed | TurnStated):
            self.turns += 1
            if self.turns > MAX_ROUNDS:
                self.error(f"more than {MAX_ROUNDS} turns in one game", pos)
        if isinstance(event, BiteStarted):
            bad = [n for n in event.seats if not n or _NAME_FORBIDDEN.intersection(n)]
            if bad:
                self.error(
                    f"{bad[0]!r} cannot be a player's name (names are one word, without "
                    ', ; : # [ ] " = ( ))',
                    pos,
                )
            fault = tags_fault(event.tags)
            if fault is not None:
                self.error(f"bm-game-started: {fault}", pos)
        self.events.append(event)

    def finish(self) -> BiteRecord:
        if self.errors:
            return BiteRecord(self.source, self.index, self.pos, syntax_errors=tuple(self.errors))
        return _record(self.source, self.index, self.pos, self.events)


def _record(source: str, index: int, pos: SourcePos, events: Sequence[BiteEvent]) -> BiteRecord:
    """The recorded game a log's events state: its tags and turns, each at its line."""
    setup = events[0]
    assert isinstance(setup, BiteStarted)
    at = setup.pos or pos

    def tag(name: str, value: str) -> RecordedTag:
        return RecordedTag(name, value, at)

    tags = [tag("Game", GAME_NAME), *(tag(k, v) for k, v in setup.tags)]
    tags.append(tag("Seats", ", ".join(setup.seats)))
    deal = zip(setup.seats, setup.deal, strict=False)
    tags.append(tag("Deal", ", ".join(f"{n} {c}" for n, c in deal)))
    if setup.strengths:
        tags.append(tag("Strengths", ", ".join(f"{c}={v}" for c, v in setup.strengths)))
    turns: list[BiteTurn] = []
    steps: list[BiteStep] = []
    for e in events[1:]:
        where = e.pos or pos
        if isinstance(e, Attacked | Retreated | Passed | TurnStated):
            if turns:
                turns[-1] = _with_steps(turns[-1], steps)
            steps = []
            turns.append(_turn(e, where))
        elif isinstance(e, Claimed | Picked | Took):
            kind = {Claimed: "claims", Picked: "picks", Took: "takes"}[type(e)]
            steps.append(BiteStep(kind, e.who, e.owner, e.card, where))
        elif isinstance(e, Drew):
            steps.append(BiteStep("draws", e.who, "", e.card, where))
        elif isinstance(e, Looked):
            steps.append(BiteStep("looks", e.who, "", "", where))
        elif isinstance(e, StepStated):  # kept as recorded: the validator flags it again
            steps.append(BiteStep(e.kind, e.who, e.other, e.card, where))
        elif isinstance(e, ResultStated):  # the result the record claims, as written (B16)
            tags = [t for t in tags if t.name not in ("Winner", "Scores")]
            if e.winner is not None:
                tags.append(RecordedTag("Winner", e.winner, where))
            if e.scores is not None:
                tags.append(RecordedTag("Scores", e.scores, where))
        elif isinstance(e, BiteEnded) and e.winners:  # what the log claims, checked (B16)
            tags.append(RecordedTag("Winner", ", ".join(e.winners), where))
            tags.append(
                RecordedTag("Scores", ", ".join(f"{n}={s}" for n, s in e.scores), where)
            )
    if turns:
        turns[-1] = _with_steps(turns[-1], steps)
    return BiteRecord(source, index, pos, tuple(tags), tuple(turns))


def _turn(e: Attacked | Retreated | Passed | TurnStated, pos: SourcePos) -> BiteTurn:
    """The turn line an action states: numbered as written (``number``), else by ``turn``."""
    number = e.turn if e.number is None else e.number
    if isinstance(e, TurnStated):  # kept as recorded: the validator flags it again
        return BiteTurn(
            number, pos, e.who, e.action, e.card, e.defender, e.defender_card, e.joined
        )
    if isinstance(e, Attacked):
        return BiteTurn(
            number, pos, e.who, "attack", e.card, e.defender, e.defender_card, e.joined
        )
    if isinstance(e, Retreated):
        return BiteTurn(number, pos, e.who, "retreat", e.card)
    return BiteTurn(number, pos, e.who, "pass")


def _with_steps(turn: BiteTurn, steps: list[BiteStep]) -> BiteTurn:
    return BiteTurn(
        turn.number, turn.pos, turn.who, turn.action, turn.card, turn.defender,
        turn.defender_card, turn.joined, tuple(steps),
    )


def iter_bite_jsonl(stream: IO[bytes], source: str) -> Iterator[BiteRecord]:
    """The games of a binary stream of JSON Lines of this game, one at a time."""
    game: _Log | None = None
    index = 0
    for number, data, error, clue in objects(stream, source):
        pos = SourcePos(source, number, 1)
        game_id = data.get("game") if data is not None else clue[0]
        starts = data is not None and data.get("type") == "bm-game-started"
        if game is None or starts or (isinstance(game_id, str) and game_id != game.id):
            if game is not None:
                yield game.finish()
            index += 1
            game = _Log(source, index, game_id if isinstance(game_id, str) else None, pos)
        if data is None:
            assert error is not None
            game.broken(error, clue[1])
            continue
        if not isinstance(game_id, str) or not 0 < len(game_id) <= MAX_TEXT:
            game.error(f"'game' is the game's id, a text of 1 to {MAX_TEXT} characters", pos)
            continue
        try:
            event = bite_event_from_wire(data, pos)
        except InputError as exc:
            game.error(str(exc), pos)
            continue
        game.add(event, data.get("seq"), pos)
    if game is not None:
        yield game.finish()


def read_bite_jsonl(text: str, source: str = "<text>") -> list[BiteRecord]:
    """Every game of a log of this game given as text."""
    return list(iter_bite_jsonl(io.BytesIO(text.encode("utf-8")), source))


def is_bite_jsonl(path: str | Path, named: bool = True) -> bool:
    """Whether ``path`` is a JSON Lines log of this game: a ``bm-`` event near its start.
    ``named``: only a file whose ending says it is a log (``.jsonl``, ``.ndjson``);
    False, any (a log given with ``--format jsonl``: a pipe, say)."""
    path = Path(path)
    if named and path.suffix.lower() not in _JSONL:
        return False
    try:
        with open_bytes(path) as f:
            return _BITE_TYPE.search(f.read(DETECT_BYTES)) is not None
    except OSError:
        return False


def bite_kind(path: str | Path, fmt: str = "auto") -> str | None:
    """What ``path`` holds of "Come on! Bite me!" read as ``--format fmt`` (``auto``: as
    its ending and start say): ``"bmn"``, ``"log"`` (a JSON Lines log of its events),
    or None (a record of Get Bit!)."""
    if fmt in ("auto", "gbn") and is_bmn(path):
        return "bmn"
    if fmt in ("auto", "jsonl") and is_bite_jsonl(path, named=fmt == "auto"):
        return "log"
    return None


def is_bite(path: str | Path, fmt: str = "auto") -> bool:
    """Whether ``path`` holds games of "Come on! Bite me!" (BMN, or a log of its events)."""
    return bite_kind(path, fmt) is not None


def iter_bite_file(
    path: str | Path,
    encoding: str | None = "utf-8",
    say: Callable[[str], None] | None = None,
    log: bool | None = None,
) -> Iterator[BiteRecord]:
    """The games of a file of this game (BMN or a log), read as they are asked for.

    ``encoding`` as for Get Bit!'s records (``importers.iter_file``): the file is read
    in it; None: UTF-8, else detected and ``say`` told which (``reading.read_in``).
    ``log``: whether it is a log (None: as its ending and start say, ``is_bite_jsonl``).
    """
    chosen = read_in(path, encoding, say)
    stream, name = open_record(path, None)
    if not (is_bite_jsonl(path) if log is None else log):
        return iter_bmn_stream(recoded(stream, chosen), name)

    def games() -> Iterator[BiteRecord]:
        with stream:
            yield from iter_bite_jsonl(recoded(stream, chosen), name)

    return games()
