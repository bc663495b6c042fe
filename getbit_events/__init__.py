"""getbit-events: record, check, replay and study games of the card game Get Bit!

The core: events, state, rules, the reducer (fold), the validator and the
simulator. ``importers``, ``store``, ``replay`` and ``reports`` build on it; it
imports none of them (the ``getbit`` command in ``cli`` puts them together).
"""

from getbit_events.errors import GetbitError, InputError, StoreError
from getbit_events.reducer import apply, fold, replay
from getbit_events.state import GameState
from getbit_events.validate import GameReport, validate_game

__all__ = [
    "GameReport",
    "GameState",
    "GetbitError",
    "InputError",
    "StoreError",
    "apply",
    "fold",
    "replay",
    "validate_game",
]
