"""Shared hypothesis strategies: legal games of every variant, played by the rules.

Two independent sources of legal games:

- ``simulated_games``: ``simulate.simulate_game`` with a seed drawn by hypothesis;
- ``drawn_games``: every card (and every limb choice) drawn with ``data.draw``
  from ``rules.legal_cards`` / ``rules.legal_shark_cards``, so failures shrink to
  short, readable games.

``Model`` is a small reference implementation of the rulings (docs/rules.md) written for the
tests, independent of ``getbit_events.rules``: the property tests compare the
engine with it game by game.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from hypothesis import strategies as st

from getbit_events import rules
from getbit_events.events import (
    CardChosen,
    CardsRevealed,
    Event,
    GameStarted,
    SharkCardPlayed,
)
from getbit_events.reducer import apply
from getbit_events.simulate import make_setup, simulate_game
from getbit_events.state import initial_state
from importers.gbn import write_gbn
from importers.jsonl import write_jsonl

__all__ = [
    "LIMB_ORDER",
    "SETUPS",
    "Model",
    "damaged_logs",
    "damaged_records",
    "drawn_games",
    "log_lines",
    "model_games",
    "model_gbn",
    "setups",
    "simulated_games",
]

LIMB_ORDER = ("right-arm", "left-arm", "right-leg", "left-leg")
SHARK_CARDS = ("right-leg", "left-leg", "right-arm", "left-arm", "exhaustion", "any-limb")

#: (variant, swimmers): every set-up R2 allows
SETUPS = (
    ("standard", 4),
    ("standard", 5),
    ("standard", 6),
    ("three-player", 4),
    ("two-player", 4),
    ("shark", 4),
    ("shark", 5),
    ("shark", 6),
)


def setups() -> st.SearchStrategy[tuple[str, int, bool]]:
    """(variant, swimmers, memory)."""
    return st.tuples(st.sampled_from(SETUPS), st.booleans()).map(lambda t: (t[0][0], t[0][1], t[1]))


def _setup(draw: st.DrawFn, variant: str | None) -> tuple[str, int, bool]:
    """(variant, swimmers, memory): any set-up, or one of ``variant`` when given."""
    if variant is None:
        return draw(setups())
    swimmers = draw(st.sampled_from([n for v, n in SETUPS if v == variant]))
    return variant, swimmers, draw(st.booleans())


@st.composite
def simulated_games(draw: st.DrawFn, variant: str | None = None) -> list[Event]:
    """A whole game from the project's simulator, seed and bot drawn by hypothesis."""
    variant, swimmers, memory = _setup(draw, variant)
    seed = draw(st.integers(0, 2**32 - 1))
    bot = draw(st.sampled_from(("random", "sensible")))
    return simulate_game(variant, swimmers, seed, bot, memory)


@st.composite
def drawn_games(draw: st.DrawFn, variant: str | None = None) -> list[Event]:
    """A whole game whose every choice is drawn from the rules' legal cards."""
    variant, swimmers, memory = _setup(draw, variant)
    setup = make_setup(variant, swimmers, memory)
    events: list[Event] = [setup]
    state = initial_state(setup)
    while not state.finished:
        r = state.round + 1
        assert r < 400, "a legal game must end"
        cards: dict[str, int | None] = {}
        for name in state.line:
            legal = sorted(rules.legal_cards(state, name))
            cards[name] = draw(st.sampled_from(legal)) if legal else None
        shark_card = None
        if state.shark is not None and r >= 2:
            shark_card = draw(st.sampled_from(sorted(rules.legal_shark_cards(state))))
        round_events: list[Event] = [CardChosen(r, n) for n in state.line if cards[n] is not None]
        if shark_card is not None and state.shark is not None:
            round_events.append(CardChosen(r, state.shark.name))
        round_events.append(CardsRevealed(r, tuple((n, cards[n]) for n in state.line)))
        if shark_card is not None and state.shark is not None:
            round_events.append(SharkCardPlayed(r, state.shark.name, shark_card))
        for e in round_events:
            state = apply(state, e)
        back = state.line[-1]
        choice = {back: draw(st.sampled_from(state.swimmer(back).limbs))}
        outcome = rules.resolve_round(state, choice)
        for e in outcome.events:
            state = apply(state, e)
        events.extend(round_events)
        events.extend(outcome.events)
    return events


# -- an independent reference model of the rulings (docs/rules.md) ------------------------------


@dataclass
class Model:
    """The rules, re-read and re-written for the tests (R1-R15)."""

    variant: str
    line: list[str]
    automaton: str | None = None
    teams: tuple[tuple[str, tuple[str, ...]], ...] = ()
    shark: str | None = None
    round: int = 0
    hands: dict[str, set[int]] = field(default_factory=dict)
    table: dict[str, list[int]] = field(default_factory=dict)
    discards: dict[str, list[int]] = field(default_factory=dict)
    limbs: dict[str, list[str]] = field(default_factory=dict)
    devoured: list[str] = field(default_factory=list)
    shark_hand: set[str] = field(default_factory=set)
    shark_table: list[str] = field(default_factory=list)
    hunger: int | None = None
    winner: str | None = None
    ranking: tuple[str, ...] | None = None

    def __post_init__(self) -> None:
        size = len(self.line) + 1  # R1: 4 -> 1..5, 5 -> 1..6, 6 -> 1..7
        for n in self.line:
            self.hands[n] = set(range(1, size + 1))
            self.table[n] = []
            self.discards[n] = []
            self.limbs[n] = list(LIMB_ORDER)
        if self.variant == "shark":
            self.shark_hand = set(SHARK_CARDS)
            self.hunger = len(self.line)  # R2: one token per swimmer

    @property
    def over(self) -> bool:
        return self.winner is not None

    def limb_counts(self) -> dict[str, int]:
        return {n: len(v) for n, v in self.limbs.items()}

    def play(
        self,
        cards: dict[str, int | None],
        shark_card: str | None = None,
        choice: dict[str, str] | None = None,
    ) -> dict[str, object]:
        """Play one legal round; returns what happened (for writing outcomes)."""
        assert not self.over
        self.round += 1
        r = self.round
        choice = choice or {}
        happened: dict[str, object] = {"refresh": []}
        for n in self.line:
            v = cards[n]
            if v is not None:
                assert v in self.hands[n], (n, v, self.hands[n])
                self.hands[n].remove(v)
                self.table[n].append(v)
        if shark_card is not None:
            assert r >= 2
            assert shark_card in self.shark_hand
            self.shark_hand.remove(shark_card)
            self.shark_table.append(shark_card)
        # R4
        counts = Counter(v for v in cards.values() if v is not None)
        tied = [n for n in self.line if cards[n] is not None and counts[cards[n]] > 1]
        movers = sorted((v, n) for n, v in cards.items() if v is not None and counts[v] == 1)
        for _, n in movers:
            self.line.remove(n)
            self.line.insert(0, n)
        back = self.line[-1]
        devoured_now: list[str] = []

        def bite(who: str, limb: str) -> None:
            self.limbs[who].remove(limb)
            happened["bit"] = (who, limb)
            self.line.remove(who)
            if not self.limbs[who]:  # R6: devoured
                self.devoured.append(who)
                devoured_now.append(who)
            else:
                self.line.insert(0, who)
                self.hands[who] |= set(self.table[who])
                self.table[who] = []

        def pick(who: str) -> str:
            c = choice.get(who)
            return c if c in self.limbs[who] else self.limbs[who][0]

        if r >= 2 and self.variant != "shark":  # R5, R6
            bite(back, pick(back))
        elif r >= 2 and shark_card is not None:  # R11
            missed = False
            if shark_card in LIMB_ORDER:
                if shark_card in self.limbs[back]:
                    bite(back, shark_card)
                else:
                    missed = True
            elif shark_card == "any-limb":
                if tied:
                    bite(back, pick(back))
                else:
                    missed = True
            elif tied:  # exhaustion
                gone = []
                for n in tied:
                    v = cards[n]
                    assert v is not None
                    t = self.table[n]
                    del t[len(t) - 1 - t[::-1].index(v)]
                    self.discards[n].append(v)
                    gone.append((n, v))
                happened["discard"] = gone
            else:
                missed = True
            if missed:  # R12
                assert self.hunger is not None
                self.hunger -= 1
                happened["miss"] = True
                if self.hunger > 0:
                    self.shark_hand |= set(self.shark_table)
                    self.shark_table = []
        happened["out"] = list(devoured_now)
        # ends: R8, R10, R14
        if self.variant == "two-player":
            if devoured_now:
                loser = next(p for p, team in self.teams if devoured_now[0] in team)
                winner = next(p for p, _ in self.teams if p != loser)
                self.winner, self.ranking = winner, (winner, loser)
        elif self.variant == "shark":
            if self.hunger == 0:
                alive = sorted(self.line, key=lambda n: (-len(self.limbs[n]), self.line.index(n)))
                self.winner = alive[0]
                self.ranking = (*alive, *reversed(self.devoured), self.shark or "")
            elif len(self.line) == 1:
                self.winner = self.shark
                self.ranking = (self.shark or "", self.line[0], *reversed(self.devoured))
        elif len(self.line) == 2:
            front, last = self.line
            self.line.remove(last)
            self.limbs[last] = []
            self.devoured.append(last)
            happened["out"] = [*devoured_now, last]
            self.winner = front
            self.ranking = (front, last, *reversed(self.devoured[:-1]))
        if self.over:
            happened["line"] = list(self.line)
            return happened
        # R7, R13
        bitten = happened.get("bit", (None,))[0]
        for n in self.line:
            if len(self.hands[n]) < 2 and self.table[n]:
                self.hands[n] |= set(self.table[n])
                self.table[n] = []
                if n != bitten:
                    happened["refresh"].append(n)  # type: ignore[attr-defined]
        if self.shark is not None and len(self.shark_hand) < 2:
            self.shark_hand |= set(self.shark_table)
            self.shark_table = []
        happened["line"] = list(self.line)
        return happened


def model_for(setup: GameStarted) -> Model:
    return Model(setup.variant, list(setup.line), setup.automaton, setup.teams, setup.shark)


@st.composite
def model_games(
    draw: st.DrawFn, variant: str | None = None
) -> tuple[GameStarted, list[Any], Model]:
    """A legal game played on the reference model, every choice drawn by hypothesis.

    Returns the set-up, the rounds as ``(cards, shark_card, choice, happened)``
    and the model at the end of the game.
    """
    variant, swimmers, memory = _setup(draw, variant)
    setup = make_setup(variant, swimmers, memory)
    m = model_for(setup)
    rounds = []
    while not m.over:
        assert m.round < 400
        cards = {
            n: (draw(st.sampled_from(sorted(m.hands[n]))) if m.hands[n] else None) for n in m.line
        }
        shark_card = None
        if m.shark is not None and m.round + 1 >= 2:
            shark_card = draw(st.sampled_from(sorted(m.shark_hand)))
        back_choice = {n: draw(st.sampled_from(LIMB_ORDER)) for n in m.line}
        happened = m.play(cards, shark_card, back_choice)
        rounds.append((cards, shark_card, back_choice, happened))
    return setup, rounds, m


def model_gbn(setup: GameStarted, rounds: list, *, outcomes: bool) -> str:
    """A GBN record of a model game: cards, and the limb of every bite; with
    ``outcomes`` also out, miss, discard, refresh and line."""
    tags = [f'[Line "{", ".join(setup.line)}"]', f'[Variant "{setup.variant}"]']
    if setup.memory:
        tags.append('[Memory "on"]')
    if setup.automaton:
        tags.append(f'[Automaton "{setup.automaton}"]')
    if setup.teams:
        tags.append('[Teams "' + "; ".join(f"{p}: {', '.join(t)}" for p, t in setup.teams) + '"]')
    if setup.shark:
        tags.append(f'[Shark "{setup.shark}"]')
    lines = [*tags, ""]
    for r, (cards, shark_card, _choice, happened) in enumerate(rounds, 1):
        plays = [f"{n} {'-' if v is None else v}" for n, v in cards.items()]
        if shark_card is not None:
            plays.append(f"{setup.shark} {shark_card}")
        said = []
        if "bit" in happened:
            who, limb = happened["bit"]
            said.append(f"bit {who} {limb}")
        if outcomes:
            for who in happened["out"]:
                said.append(f"out {who}")
            if happened.get("miss"):
                said.append("miss")
            if "discard" in happened:
                said.append("discard " + ", ".join(f"{n} {v}" for n, v in happened["discard"]))
            if happened["refresh"]:
                said.append("refresh " + ", ".join(happened["refresh"]))
            said.append("line " + ", ".join(happened["line"]))
        lines.append(f"{r}. " + ", ".join(plays) + "".join(f" ; {s}" for s in said))
    return "\n".join(lines) + "\n"


# -- JSON Lines logs, damaged ------------------------------------------------------

_REVEALS = (GameStarted, CardChosen, CardsRevealed, SharkCardPlayed)


def log_lines(count: int, reveals_only: bool) -> list[str]:
    """The log lines of ``count`` small simulated games."""
    games = []
    for k in range(count):
        events = simulate_game("standard" if k % 2 else "shark", 4 + k % 2, k, "random")
        if reveals_only:
            events = [e for e in events if isinstance(e, _REVEALS)]
        games.append((f"g{k}", events))
    return list(write_jsonl(games))


def _damaged(
    draw: st.DrawFn,
    lines: list[str],
    damages: st.SearchStrategy[str],
    damage_line: Callable[[st.DrawFn, list[str], int, str], None],
) -> list[str]:
    """``lines`` damaged here and there: a line dropped, given twice, a blank line put
    in, two lines swapped, or a damage of the format's own (``damage_line``)."""
    for _ in range(draw(st.integers(0, 8))):
        if not lines:
            break
        at = draw(st.integers(0, len(lines) - 1))
        damage = draw(damages)
        if damage == "drop":
            del lines[at]
        elif damage == "twice":
            lines.insert(at, lines[at])
        elif damage == "blank":
            lines.insert(at, "\n")
        elif damage == "swap":
            if at + 1 < len(lines):
                lines[at], lines[at + 1] = lines[at + 1], lines[at]
        else:
            damage_line(draw, lines, at, damage)
    return lines


_DAMAGE = st.sampled_from([
    "drop", "twice", "garbage", "other game", "no game", "not an object", "blank", "swap",
])


def _damage_log_line(draw: st.DrawFn, lines: list[str], at: int, damage: str) -> None:
    if damage == "garbage":
        lines[at] = lines[at][: len(lines[at]) // 2] + "\n"  # cut: not JSON
    elif damage in ("other game", "no game"):
        try:
            data = json.loads(lines[at])
        except ValueError:  # damaged already
            return
        if not isinstance(data, dict) or "game" not in data:
            return
        if damage == "no game":
            del data["game"]
        else:
            data["game"] = "elsewhere"
        lines[at] = json.dumps(data) + "\n"
    elif damage == "not an object":
        lines[at] = "[1, 2]\n"


@st.composite
def damaged_logs(draw: st.DrawFn) -> bytes:
    """A log of a few games, its lines damaged here and there."""
    lines = log_lines(draw(st.integers(1, 5)), draw(st.booleans()))
    return "".join(_damaged(draw, lines, _DAMAGE, _damage_log_line)).encode()


# -- GBN records, damaged -----------------------------------------------------------

_GBN_DAMAGE = st.sampled_from([
    "drop", "twice", "garbage", "blank", "no blank", "renumber", "tag twice", "swap", "comment",
    "crlf", "indent", "bad byte",
])


def _damage_gbn_line(draw: st.DrawFn, lines: list[str], at: int, damage: str) -> None:
    if damage == "garbage":
        lines[at] = draw(st.sampled_from(["%%%\n", "[Line\n", "x. Ann 1\n", "1 Ann\n"]))
    elif damage == "no blank" and lines[at] == "\n":
        del lines[at]
    elif damage == "renumber" and lines[at][:1].isdigit():
        lines[at] = str(draw(st.integers(0, 40))) + lines[at].lstrip("0123456789")
    elif damage == "tag twice" and lines[at].startswith("["):
        lines.insert(at + draw(st.integers(0, 3)), lines[at])
    elif damage == "comment":
        lines.insert(at, "# a note\n")
    elif damage == "crlf" and lines[at].endswith("\n"):
        lines[at] = lines[at][:-1] + "\r\n"
    elif damage == "indent":
        lines[at] = "  " + lines[at]
    elif damage == "bad byte":
        lines[at] = "\udcff" + lines[at]  # a byte that is not UTF-8, once written


@st.composite
def damaged_records(draw: st.DrawFn) -> bytes:
    """A GBN file of a few games, its lines damaged here and there."""
    games = [
        simulate_game("standard" if k % 2 else "shark", 4 + k % 2, k, "random")
        for k in range(draw(st.integers(1, 5)))
    ]
    lines = write_gbn(games, outcomes=draw(st.booleans())).splitlines(keepends=True)
    damaged = _damaged(draw, lines, _GBN_DAMAGE, _damage_gbn_line)
    return "".join(damaged).encode("utf-8", "surrogateescape")
