"""JSON Lines event logs (``docs/events.md``) read as recorded games, streaming; a
log's lines are parsed in ``jsonl_lines`` and logs written in ``jsonl_write``.

A log holds games one after another; a game's events come together, its
``game-started`` first, ``seq`` counting 1, 2, 3 ... A log may hold only the
choices and reveals (the rules complete it, as they complete a GBN record with
only cards) or every consequence too; then each recorded consequence is turned
into a GBN outcome and checked by the validator exactly like one.

The reader never holds more than one game and one line in memory, and it never
hands untrusted text to a recursive parser unguarded: lines longer than
``MAX_LINE`` bytes and JSON nested deeper than ``MAX_DEPTH`` are refused before
parsing. A broken line spoils only the game it is in: one after a game's
``game-ended`` begins the next game, which the lines after it (the same ``game``)
belong to. The limits are the ones every format shares (``getbit_events.limits``),
and ``write_jsonl`` writes no game the reader would refuse.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any

from getbit_events.errors import InputError
from getbit_events.events import (
    CardChosen,
    CardsRevealed,
    Event,
    GameEnded,
    GameStarted,
    OutcomeStated,
    SharkCardPlayed,
    SourcePos,
)
from getbit_events.findings import left_out
from getbit_events.limits import MAX_LINE, MAX_ROUNDS, MAX_TEXT, MAX_VIOLATIONS
from getbit_events.record import (
    RecordedGame,
    RecordedRound,
    RecordedTag,
    Violation,
)
from importers.gbn_lex import tags_fault
from importers.jsonl_lines import MAX_DEPTH, NO_CLUE, Clue, json_object, objects
from importers.jsonl_rounds import Told, outcome_fault
from importers.jsonl_write import name_fault, setup_names, short, write_jsonl
from importers.reading import open_bytes
from importers.skipping import Skip, Skipped
from importers.wire import event_from_wire

__all__ = [
    "MAX_DEPTH",
    "MAX_LINE",
    "begins_game",
    "iter_jsonl",
    "iter_jsonl_file",
    "read_jsonl",
    "write_jsonl",
]


#: what a log of "Come on! Bite me!" read as Get Bit!'s is told (docs/biteme.md)
_BITE_HINT = (
    " (this is a log of Come on! Bite me!: validate, import, replay and stats read it; "
    "this command does not yet)"
)


def read_jsonl(text: str, source: str = "<text>") -> list[RecordedGame]:
    """Every game of a log given as text."""
    import io

    games = iter_jsonl(io.BytesIO(text.encode("utf-8")), source)
    return [g for g in games if isinstance(g, RecordedGame)]  # no Skipped: none skipped


def iter_jsonl_file(
    path: str | Path, source: str | None = None, skip: Skip = None
) -> Iterator[RecordedGame | Skipped]:
    """The games of a log file one at a time, reading it as they are asked for
    (``skip``: ``iter_jsonl``'s)."""
    path = Path(path)
    name = source if source is not None else str(path)
    try:
        stream = open_bytes(path)
    except OSError as exc:
        raise InputError(f"{name}: cannot read: {exc.strerror or exc}") from None
    with stream:
        yield from iter_jsonl(stream, name, skip)


def iter_jsonl(
    stream: IO[bytes], source: str, skip: Skip = None, first: int = 1, cut: bool = False
) -> Iterator[RecordedGame | Skipped]:
    """The games of a binary stream of JSON Lines, one at a time, in order; a game
    ``skip`` names is found but not read (a ``Skipped`` in its place): its lines are
    parsed as JSON, but not read into events, unless where it ends depends on them
    (a damaged log).

    ``first``: the number of the stream's first line (a piece of a log,
    ``pieces``). ``cut``: the stream's last line begins a game whatever came
    before it (``begins_game``), the next piece's first: it ends the game before it,
    as in the whole log, and is read no further (``_Log.cut``): its game is that
    piece's."""
    log = _Log(source, skip)
    lines = objects(stream, source, first)
    last = next(lines, None)  # a line is read once the next is found: the last may be ``cut``
    for line in lines:
        assert last is not None
        number, data, error, clue = last
        yield from log.line(number, data, error, clue)
        last = line
    if last is not None:
        number, data, error, clue = last
        if cut:  # the next piece's first line: the game before ends there, unread
            yield from log.cut(data)
        else:
            yield from log.line(number, data, error, clue)
    if not cut:
        yield from log.end()


def begins_game(raw: bytes) -> bool:
    """Whether the line ``raw`` begins a game of a log whatever the lines before it: a
    ``game-started`` whole and well formed, with a game's id (``_Log.event`` ends the
    game before it, if any, and begins one there). A log can be cut before such a line
    and its pieces read apart (``pieces``)."""
    data = json_object(raw)
    return data is not None and data.get("type") == "game-started" and _good_id(data.get("game"))


class _Log:
    """Which game each line of a log is in, as the lines come: the game being read,
    and the broken lines after it whose game is not known yet (``held``). Each step
    gives the games it finished (most give none)."""

    def __init__(self, source: str, skip: Skip = None) -> None:
        self.source = source
        self.skip = skip
        self.game: _Game | None = None
        self.index = 0
        self.held: _Game | None = None  # broken lines after `game`, their game not known

    def _begin(self, game_id: str | None, pos: SourcePos) -> _Game:
        self.index += 1
        lazy = self.skip is not None and self.skip(self.index)
        self.game = _Game(self.source, self.index, game_id, pos, lazy=lazy)
        return self.game

    def line(
        self, number: int, data: dict[str, Any] | None, error: Violation | None, clue: Clue
    ) -> list[RecordedGame | Skipped]:
        """A line of the log (as ``jsonl_lines.objects`` gives it): an event, or broken."""
        pos = SourcePos(self.source, number, 1)
        if data is None:
            assert error is not None
            return self.broken(error, clue, pos)
        return self.event(data, pos)

    def cut(self, data: dict[str, Any] | None) -> list[RecordedGame | Skipped]:
        """A line that begins a game whatever came before it (``begins_game``): the game
        before ends there, with any broken lines held placed. ``event`` begins and reads
        the line's game after; a piece's last line is read no further."""
        assert data is not None
        assert data.get("type") == "game-started"
        done: list[RecordedGame | Skipped] = []
        if self.held is not None:
            self._place_held(data.get("game"), done)
        if self.game is not None:
            done.append(self.game.finish())
        return done

    def broken(self, error: Violation, clue: Clue, pos: SourcePos) -> list[RecordedGame | Skipped]:
        """A line that is no event: which game it is in, the lines about it say."""
        done: list[RecordedGame | Skipped] = []
        game, held = self.game, self.held
        if game is not None:
            game.catch_up()  # which game this line is in depends on what the game's say
        if held is not None:
            held.error(error)
            return done
        if game is not None and game.ended is None and not game.errors:
            self.held = held = _Game(self.source, 0, None, pos, clue)  # the next good line tells
            held.error(error)
            return done
        if game is not None and game.ended is not None:
            # after a game ended: the next game's first line, broken (the game before is
            # complete, and kept whole)
            done.append(game.finish())
            game = None
        if game is None:  # a broken line before any game, or after one: a game of its own
            game = self._begin(clue[0], pos)
        game.error(error)
        return done

    def event(self, data: dict[str, Any], pos: SourcePos) -> list[RecordedGame | Skipped]:
        """An event's line: read into its game, or the first of the next."""
        tag, game_id = data.get("type"), data.get("game")
        if tag == "game-started" and _good_id(game_id):  # a game begins whatever came before
            ended = self.cut(data)
            self._begin(game_id, pos).read(data, pos)
            return ended
        done: list[RecordedGame | Skipped] = []
        if self.held is not None:
            self._place_held(game_id, done)
        game = self.game
        if game is not None and tag != "game-started" and (
            game_id != game.id or not _good_id(game_id)
        ):
            game.catch_up()  # not plainly this game's: where it ends depends on what it says
        error: Violation | None = None
        if not _good_id(game_id):
            error = Violation(
                "syntax",
                f"'game' is the game's id, a text of 1 to {MAX_TEXT} characters, "
                f"not {short(game_id)}",
                pos,
            )
            if game is not None and (tag == "game-started" or game.ended is not None):
                done.append(game.finish())  # a new game begins here, broken: not the last one's
                self.game = game = None
        elif game is not None and game.id is None:
            game.id = game_id  # begun by a broken line: the events after it are its own
        elif game is None or (game_id != game.id and (game.ended is not None or game.errors)):
            if game is not None:  # the game before is over (or spoilt): this is another
                done.append(game.finish())
            game = self._begin(game_id, pos)
            error = Violation(
                "syntax",
                f"game {short(game_id)} starts with {short(tag)}; a game's first event "
                "is game-started"
                + (_BITE_HINT if isinstance(tag, str) and tag.startswith("bm-") else ""),
                pos,
            )
        elif game_id != game.id:
            error = Violation(
                "syntax",
                f"an event for game {short(game_id)} inside game {short(game.id)}: "
                "a log holds each game's events together, game-started first",
                pos,
            )
        if error is not None:
            if game is None:
                game = self._begin(None, pos)
            game.error(error)
        else:
            assert game is not None
            game.read(data, pos)
        return done

    def _place_held(self, game_id: object, done: list[RecordedGame | Skipped]) -> None:
        """The held broken lines, now that a good line says which game they are in."""
        held, game = self.held, self.game
        assert held is not None
        assert game is not None
        self.held = None
        if game_id == game.id or not held.not_of(game):
            game.merge(held)  # inside the game, or maybe its last lines: it is spoilt
        else:  # the next game's first lines, broken: the game before is whole
            done.append(game.finish())
            self.index += 1
            held.index = self.index
            self.game = held

    def end(self) -> list[RecordedGame | Skipped]:
        """The log is over: the last game, and broken lines at its end."""
        done: list[RecordedGame | Skipped] = []
        held, game = self.held, self.game
        if held is not None:  # broken lines at the end: a cut-off game, which one they say
            assert game is not None
            if held.not_of(game):
                done.append(game.finish())
                self.index += 1
                held.index = self.index
                game = held
            else:
                game.merge(held)
        if game is not None:
            done.append(game.finish())
        return done


def _good_id(game_id: object) -> bool:
    """Whether ``game_id`` is a game's id: a text of 1 to MAX_TEXT characters."""
    return isinstance(game_id, str) and 0 < len(game_id) <= MAX_TEXT


class _Game:
    """One game of the log as it is read: its set-up, rounds so far and errors.

    A ``lazy`` game (one to skip) keeps its lines as parsed and reads them only when
    something asks what they say (``catch_up``): where a game ends in a damaged log.
    """

    def __init__(
        self,
        source: str,
        index: int,
        game_id: str | None,
        pos: SourcePos,
        clue: Clue = NO_CLUE,
        *,
        lazy: bool = False,
    ) -> None:
        self.source = source
        self.waiting: list[tuple[dict[str, Any], SourcePos]] | None = [] if lazy else None
        self.clue = clue  # for a game begun by a broken line: what that line seems to say
        self.index = index
        self.id = game_id
        self.pos = pos
        self.setup: GameStarted | None = None
        self.next_seq = 1
        self.round = 0
        self.rounds: list[list[Event]] = []  # each round's events, its reveal first
        self.ended: GameEnded | None = None
        self.errors: list[Violation] = []
        self.skipped = 0

    @property
    def started(self) -> bool:
        return self.setup is not None

    def catch_up(self) -> None:
        """Read the lines a lazy game has kept unread."""
        waiting = self.waiting
        if waiting is not None:
            self.waiting = None
            for data, pos in waiting:
                self.read(data, pos)

    def error(self, violation: Violation) -> None:
        self.catch_up()
        if len(self.errors) < MAX_VIOLATIONS:
            self.errors.append(violation)
        else:
            self.skipped += 1

    def not_of(self, game: _Game) -> bool:
        """True when this game's first line, broken, seems to begin a game after ``game``
        (it names another game, or it is the first event of one)."""
        clue_id, clue_seq = self.clue
        if clue_id is not None:
            return clue_id != game.id
        return clue_seq == 1

    def merge(self, held: _Game) -> None:
        """Take the errors of broken lines found to be this game's."""
        self.catch_up()
        for violation in held.errors:
            self.error(violation)
        self.skipped += held.skipped

    def read(self, data: dict[str, Any], pos: SourcePos) -> None:
        if self.waiting is not None:
            self.waiting.append((data, pos))
            return
        if self.errors:
            return  # the game is spoilt; one clear error beats a cascade
        seq = data.get("seq")
        if type(seq) is not int or seq != self.next_seq:
            self.error(
                Violation(
                    "syntax",
                    f"seq {short(seq)} where seq {self.next_seq} comes next: the game's "
                    "events are out of sequence or one is missing",
                    pos,
                )
            )
            return
        self.next_seq += 1
        try:
            event = event_from_wire(data, pos)
        except InputError as exc:
            self.error(Violation("syntax", str(exc), pos))
            return
        self.add(event, pos)

    def add(self, event: Event, pos: SourcePos) -> None:
        if isinstance(event, GameStarted):
            if self.setup is not None:
                self.error(Violation("syntax", "a second game-started in one game", pos))
                return
            self.setup = event
            self.pos = pos
            self.check_names(event, pos)
            return
        if self.setup is None:  # pragma: no cover - iter_jsonl starts every game with one
            return
        if event.round < self.round or event.round < 1:
            self.error(
                Violation(
                    "syntax",
                    f"{event.TYPE} for round {event.round} after round {self.round}: rounds "
                    "are logged in order, from 1",
                    pos,
                    event.round,
                )
            )
            return
        if isinstance(event, CardChosen):
            self.round = event.round
            return
        if isinstance(event, CardsRevealed):
            if event.round > MAX_ROUNDS:
                self.error(
                    Violation(
                        "syntax",
                        f"round {event.round} is revealed, but a game records at most "
                        f"{MAX_ROUNDS} rounds",
                        pos,
                    )
                )
                return
            if self.rounds and self.rounds[-1][0].round == event.round:
                self.error(
                    Violation("syntax", f"round {event.round} is revealed twice", pos, event.round)
                )
                return
            self.round = event.round
            self.rounds.append([event])
            return
        if not self.rounds or self.rounds[-1][0].round != event.round:
            self.error(
                Violation(
                    "syntax",
                    f"{event.TYPE} in round {event.round} before that round's cards-revealed",
                    pos,
                    event.round,
                )
            )
            return
        if isinstance(event, GameEnded):
            self.ended = event
        elif isinstance(event, OutcomeStated):
            fault = outcome_fault(event)
            if fault is not None:
                self.error(Violation("syntax", f"outcome-stated: {fault}", pos, event.round))
                return
        self.rounds[-1].append(event)

    def check_names(self, setup: GameStarted, pos: SourcePos) -> None:
        """The set-up's names and tags: each as GBN can write it back, or an error."""
        for name in setup_names(setup):
            fault = name_fault(name)
            if fault is not None:
                self.error(Violation("bad-name", fault, pos))
                return
        fault = tags_fault(setup.tags)
        if fault is not None:
            self.error(Violation("syntax", f"game-started: {fault}", pos))

    def finish(self) -> RecordedGame | Skipped:
        if self.waiting is not None:  # never asked: found, and left unread
            return Skipped(self.source, self.index, self.pos)
        if self.skipped:
            self.errors.append(left_out(self.skipped, self.errors[-1].pos))
        if self.setup is None and not self.errors:  # pragma: no cover - defensive
            self.errors.append(Violation("syntax", "a game with no game-started", self.pos))
        if self.errors:
            return RecordedGame(self.source, self.index, self.pos, (), (), tuple(self.errors))
        assert self.setup is not None
        return RecordedGame(
            self.source, self.index, self.pos, self.tags(self.setup), self.recorded_rounds()
        )

    def tags(self, setup: GameStarted) -> tuple[RecordedTag, ...]:
        pos = self.pos
        tags = [RecordedTag(k, v, pos) for k, v in setup.tags]
        tags.append(RecordedTag("Line", ", ".join(setup.line), pos))
        tags.append(RecordedTag("Variant", setup.variant, pos))
        tags.append(RecordedTag("Memory", "on" if setup.memory else "off", pos))
        if setup.automaton is not None:
            tags.append(RecordedTag("Automaton", setup.automaton, pos))
        if setup.teams:
            teams = "; ".join(f"{p}: {', '.join(t)}" for p, t in setup.teams)
            tags.append(RecordedTag("Teams", teams, pos))
        if setup.shark is not None:
            tags.append(RecordedTag("Shark", setup.shark, pos))
        claimed = any(k.casefold() == "winner" for k, _ in setup.tags)
        if self.ended is not None and not claimed:  # a Winner kept as recorded is checked
            winner_pos = self.ended.pos or pos
            tags.append(RecordedTag("Winner", self.ended.winner, winner_pos))
        return tuple(tags)

    def recorded_rounds(self) -> tuple[RecordedRound, ...]:
        assert self.setup is not None
        setup = self.setup
        # A log states every round's consequences or none (docs/events.md).
        stated = any(
            not isinstance(e, SharkCardPlayed) for events in self.rounds for e in events[1:]
        )
        line = list(setup.line)
        hunger = setup.hunger
        out: list[RecordedRound] = []
        for index, events in enumerate(self.rounds, 1):
            told = Told(setup, events, self.pos, line, hunger)
            if stated:
                told.complete()
            hunger = told.hunger
            out.append(told.round(index))
        return tuple(out)
