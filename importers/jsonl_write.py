"""Event streams written as JSON Lines logs (``docs/events.md``), and what a name
must be for a log to be read back as it was written."""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Sequence

from getbit_events.errors import InputError
from getbit_events.events import Event, GameStarted
from getbit_events.limits import MAX_LINE, MAX_TEXT
from importers.gbn_lex import tags_fault
from importers.wire import event_to_wire

__all__ = ["name_fault", "setup_names", "short", "write_jsonl"]

_SEPARATORS = frozenset(",;:\n\r")  # these would split a name once it is a GBN tag


def write_jsonl(games: Iterable[tuple[str, Sequence[Event]]]) -> Iterator[str]:
    """The log lines (each ending in a newline) of ``(game id, events)`` pairs.

    A game the reader would refuse (an id or a name past ``MAX_TEXT`` characters, a
    name it cannot take, a line past ``MAX_LINE`` bytes) raises InputError naming it
    before any of its lines is written: the games before it are written whole.
    """
    for game_id, events in games:
        lines = [
            json.dumps(
                event_to_wire(event, game_id, seq), ensure_ascii=False, separators=(",", ":")
            )
            + "\n"
            for seq, event in enumerate(events, 1)
        ]
        fault = _unreadable(game_id, events, lines)
        if fault is not None:
            raise InputError(
                f"game {short(game_id)} cannot be written as JSON Lines, which would "
                f"refuse it: {fault}"
            )
        yield from lines


def _unreadable(game_id: str, events: Sequence[Event], lines: Sequence[str]) -> str | None:
    """Why the reader would refuse these lines of a game, or None.

    Every text of a game comes from its set-up (names, tags) or is one of the
    rules' own words, and only the set-up's line can grow long: it is the one checked.
    """
    if not 0 < len(game_id) <= MAX_TEXT:
        return f"its id is {len(game_id)} characters long; 1 to {MAX_TEXT}"
    if not events or not isinstance(events[0], GameStarted):
        return None
    setup = events[0]
    texts = [*setup_names(setup), *(t for tag in setup.tags for t in tag), setup.variant]
    for text in texts:
        if len(text) > MAX_TEXT:
            return f"{short(text)} is {len(text)} characters long; at most {MAX_TEXT}"
    for fault in (*map(name_fault, setup_names(setup)), tags_fault(setup.tags)):
        if fault is not None:
            return fault
    size = len(lines[0].encode("utf-8"))
    if size > MAX_LINE:
        return f"its game-started line is {size} bytes long; at most {MAX_LINE}"
    return None


def setup_names(setup: GameStarted) -> list[str]:
    """Every name a set-up gives: the line, the teams' players and swimmers, the Shark
    and the automaton."""
    names = [*setup.line, *(p for p, _ in setup.teams)]
    names += [s for _, team in setup.teams for s in team]
    names += [n for n in (setup.shark, setup.automaton) if n is not None]
    return names


def name_fault(name: str) -> str | None:
    """Why ``name`` cannot be a name, or None.

    A name is kept as given, so it must read the same in every format: GBN strips
    the spaces around a name and splits it at , ; : (and at a line's end), so a
    name that begins or ends with a space (a tab, a no-break space, U+2028 ...) or
    holds one of those is refused here too, rather than be compared as another name.
    """
    if not name.strip() or any(c in _SEPARATORS for c in name):
        return (
            f"{name!r} is not a name: names are not empty and hold none of "
            ', ; : # [ ] "'
        )
    if name != name.strip():
        return (
            f"{name!r} is not a name: a name does not begin or end with a space "
            "(a tab, a no-break space, a line separator ...), which GBN would drop"
        )
    return None


def short(value: object) -> str:
    """A value as JSON for a message, cut short when it is long."""
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= 40 else text[:37] + "..."
