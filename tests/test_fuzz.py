"""Fuzz: no record file, however damaged, crashes ``getbit validate`` or ``getbit import``
or costs a game the damage did not touch (issue 11).

Mutants of valid multi-game GBN, JSON Lines and CSV files (``tests/fuzz_corpus.py``
builds them and checks them): byte flips, truncations, duplicated and dropped
lines, huge numbers, odd digits and spaces, NUL, bad UTF-8, very long lines and
names, each inside the lines of one game (a third of them in its first or last
line).

**Undamaged.** Game k's *region* is its own lines (from its first to its last
line that is neither blank nor a comment) and every line between it and its
neighbours (blank separators, comments): a separator line belongs to both
neighbours. In GBN and CSV rounds a game is told from the one before it only by
its opening line (its first tag, or its header), so game k+1's opening line
belongs to game k's region too: damaged, no reader can tell it from a broken
last line of game k. In JSON Lines every line names its game, so game k+1's
first line does not belong to game k (issue 11, point 3). A changed byte
touches its line; a changed newline touches both lines it joins; an inserted
line (a duplicate) touches the line it copies; a dropped line touches itself; a
truncation touches every line from the cut on. A game is *undamaged* when the
mutation touched no line of its region.

**The requirement**, for ``validate`` and for ``import`` alike:

- the exit code is 0, 1 or 2; no exception escapes, no "Traceback" is printed
  (exit code 3 is an internal error, a bug);
- ``validate`` reports every undamaged game as valid, with the result it has
  when the unmutated file is validated (variant, rounds, winner, ranking, final
  standing);
- ``import`` stores every undamaged game, with the hash it gets when the
  unmutated file is imported alone into an empty store;
- nothing is stored half: every stored game has as many events rows as its
  ``games.events`` says, as many violations rows as ``games.violations`` says,
  and read-model rows (``game_swimmers``) when it has events;
- what the store writes it can read back: the games stored as valid or
  unfinished, exported as GBN or as JSON Lines and imported into a new store,
  come back with their hashes.

Here: a seeded corpus (every mutation kind of every format, ``CASES_PER_KIND``
each) and a hypothesis test drawing simulated game sets and mutations, a few
hundred cases in all. ``python bench/fuzz.py --cases 5000`` runs thousands.
"""

from __future__ import annotations

import itertools
import random
from pathlib import Path

import pytest
from fuzz_corpus import (
    FORMATS,
    KINDS,
    Bounds,
    Failure,
    Mutant,
    check,
    mutant,
    mutate,
    simulated_base,
)
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from getbit_events.limits import MAX_LINE
from getbit_events.simulate import SETUPS

#: seeded cases per format and mutation kind (3 formats x 11 kinds x 8 = 264)
CASES_PER_KIND = 8
#: each case's stored games are exported in one of these and imported again
#: (bench/fuzz.py does both for every case)
EXPORTS = ("gbn", "jsonl")
#: CI's very long lines are just past the line limit (bench/fuzz.py uses 2 MiB)
LONG_LINE = MAX_LINE + 4096


def _failed(case: str, failures: list[Failure]) -> str:
    return f"{case}:\n" + "\n".join(f"  {f.kind}: {f.detail}" for f in failures)


@pytest.mark.parametrize("seed", range(CASES_PER_KIND))
@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("fmt", FORMATS)
def test_a_damaged_game_spoils_only_itself(fmt: str, kind: str, seed: int, tmp_path: Path) -> None:
    case = mutant(fmt, seed, kind, long_line=LONG_LINE)
    failures = check(case, tmp_path, Bounds(roundtrip=(EXPORTS[seed % 2],)))
    assert not failures, _failed(case.describe(), failures)


@settings(
    max_examples=80,
    derandomize=True,
    deadline=None,
    phases=(Phase.explicit, Phase.reuse, Phase.generate),  # no shrinking: each case says itself
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(
    fmt=st.sampled_from(FORMATS),
    setups=st.lists(st.sampled_from(SETUPS), min_size=2, max_size=4),
    games_seed=st.integers(0, 10_000),
    kind=st.sampled_from(KINDS),
    where=st.floats(0, 1, exclude_max=True),
    mutation_seed=st.integers(0, 2**32),
    export=st.sampled_from(EXPORTS),
)
def test_drawn_games_drawn_damage(
    fmt: str,
    setups: list[tuple[str, int]],
    games_seed: int,
    kind: str,
    where: float,
    mutation_seed: int,
    export: str,
    tmp_path: Path,
) -> None:
    base = simulated_base(fmt, setups, games_seed)
    game = int(where * len(base.chunks))
    case = mutate(base, kind, game, random.Random(mutation_seed), long_line=LONG_LINE)
    failures = check(case, tmp_path, Bounds(roundtrip=(export,)))
    assert not failures, _failed(case.describe(), failures)


@pytest.mark.parametrize("fmt", FORMATS)
def test_the_harness_passes_a_whole_file_and_catches_a_lost_game(fmt: str, tmp_path: Path) -> None:
    """The requirement holds for an unmutated file, and fails when a game goes missing."""
    base = mutant(fmt, 0).base
    whole = Mutant(base, "none", 0, base.data, frozenset(), None, "unchanged")
    assert whole.undamaged() == list(range(len(base.chunks)))
    assert check(whole, tmp_path) == []
    # the last game dropped, but the harness told nothing was damaged: it must say so
    short = Mutant(base, "none", 0, b"".join(base.chunks[:-1]), frozenset(), None, "lied")
    kinds = {f.kind for f in check(short, tmp_path)}
    assert kinds == {"validate:lost", "import:lost"}


def test_a_mutation_damages_the_games_whose_region_it_touches() -> None:
    """Neighbours share the lines between them (in GBN, also the next game's opening line)."""
    case = mutant("gbn", 0, "drop-line")
    regions = case.base.regions()
    assert len(regions) == len(case.base.chunks) > 1
    for before, after in itertools.pairwise(regions):
        assert before[-1] >= after[0]
    (line,) = case.touched
    assert case.damaged() == {k for k, r in enumerate(regions) if line in r}
    truncated = mutant("jsonl", 0, "truncate")
    assert truncated.damaged() == set(range(truncated.game, len(truncated.base.chunks)))
