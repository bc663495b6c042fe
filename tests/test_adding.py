"""``store.adding.prepare``: what a game becomes in the store, made in a worker."""

from __future__ import annotations

from typing import Any

import pytest

from getbit_events.simulate import simulate_game
from getbit_events.validate import GameReport, validate_game
from importers.gbn import read_gbn, write_gbn
from store import adding
from store.stored import game_hash


class _Counting:
    """A report that counts how often its events and its facts are asked for (the
    compiled build makes them again each time: neither is kept there)."""

    def __init__(self, report: GameReport) -> None:
        self._report = report
        self.asked = {"events": 0, "facts": 0}

    @property
    def events(self) -> Any:
        self.asked["events"] += 1
        return self._report.events

    def facts(self) -> Any:
        self.asked["facts"] += 1
        return self._report.facts()

    def __getattr__(self, name: str) -> Any:
        return getattr(self._report, name)


@pytest.mark.patched
def test_prepare_asks_for_a_games_facts_once_and_makes_no_events() -> None:
    (record,) = read_gbn(write_gbn([simulate_game("shark", 4, seed=5, bot="sensible")]), "g.gbn")
    report = validate_game(record)
    counting = _Counting(report)
    new = adding.prepare(counting)  # type: ignore[arg-type]
    assert counting.asked == {"events": 0, "facts": 1}
    assert new.digest == game_hash(report)
    assert new.events == adding.prepare(report).events
