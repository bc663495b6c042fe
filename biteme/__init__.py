"""The core of "Come on! Bite me!", the second game of the rule texts: its events,
state, rules (B1-B17), the one fold, the validator and the simulator.

It knows only the game: no command line, no SQL, no record notation. From
``getbit_events`` it takes only what is not Get Bit!'s: the error classes, the
limits, ``SourcePos``, ``RecordedTag`` and ``Violation`` (so a report of either game
has one JSON shape).
"""

from __future__ import annotations

__all__: list[str] = []
