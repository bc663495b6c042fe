"""What validating one recorded game found, as both games' reports say it: the
properties of ``validate.GameReport`` and ``biteme.validate.BiteReport`` that
read the same, the part of ``getbit validate --json`` they share, and values
made once when first asked for."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol, TypeVar

from getbit_events.events import SourcePos
from getbit_events.record import Violation

__all__ = ["Verdict"]

_T = TypeVar("_T")


class _Recorded(Protocol):
    """A recorded game of either game, before the rules."""

    @property
    def source(self) -> str: ...
    @property
    def index(self) -> int: ...
    @property
    def pos(self) -> SourcePos: ...
    @property
    def syntax_errors(self) -> tuple[Violation, ...]: ...


class _Standing(Protocol):
    """How a game stands after its last recorded round or turn."""

    @property
    def finished(self) -> bool: ...
    @property
    def ranking(self) -> tuple[str, ...] | None: ...


class Verdict:
    """The shared half of a report; a report (a frozen attrs class, its instances
    with a ``__dict__``) has these fields, and its own ``winner``.

    Not compiled: the reports are (setup.py), and a class mypyc compiles may take
    an interpreted base."""

    record: _Recorded
    violations: tuple[Violation, ...]
    warnings: tuple[Violation, ...]
    final: _Standing | None

    @property
    def winner(self) -> str | None:
        raise NotImplementedError

    def kept(self, name: str, make: Callable[[], _T]) -> _T:
        """``make()``, made once and kept in the report's ``__dict__`` under ``name``,
        as ``functools.cached_property`` keeps it in plain Python (a class mypyc
        compiles makes it a plain property, made again at every read)."""
        values: dict[str, Any] = self.__dict__
        if name in values:
            return values[name]  # type: ignore[no-any-return]
        value = values[name] = make()
        return value

    @property
    def source(self) -> str:
        return self.record.source

    @property
    def game(self) -> int:
        return self.record.index

    @property
    def valid(self) -> bool:
        return not self.violations

    @property
    def readable(self) -> bool:
        """False when a syntax error spoilt the game (no events could be made)."""
        return not self.record.syntax_errors

    @property
    def finished(self) -> bool:
        return self.final is not None and self.final.finished

    @property
    def ranking(self) -> tuple[str, ...] | None:
        return self.final.ranking if self.final is not None else None

    def verdict_json(self, rounds: int) -> dict[str, Any]:
        """The middle of ``getbit validate --json``, the same for both games."""
        return {
            "valid": self.valid,
            "finished": self.finished,
            "rounds": rounds,
            "violations": [v.to_json() for v in self.violations],
            "warnings": [str(w) for w in self.warnings],
            "winner": self.winner,
        }
