"""The replay golden files: which games, seen by whom, and how to remake them.

Regenerate them all (after a deliberate change to the printout) with::

    .venv/bin/python tests/regen_golden.py

then read the diff before committing it. ``tests/test_replay_terminal.py``
compares each file whole with a fresh printout.
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:  # run as a script from anywhere
    sys.path.insert(0, str(ROOT))

from biteme.validate import validate_bite  # noqa: E402
from getbit_events.validate import validate_game  # noqa: E402
from importers import read_file  # noqa: E402
from importers.bmn import iter_bmn_file  # noqa: E402
from replay.bite import TABLE, BiteCursor, bite_text  # noqa: E402
from replay.cursor import Cursor  # noqa: E402
from replay.terminal import replay_text  # noqa: E402
from replay.view import EVERYTHING, Viewer  # noqa: E402

GOLDEN = ROOT / "fixtures" / "golden" / "replay"

#: (record file relative to the repository, game number from 1, seen as whom)
CASES: tuple[tuple[str, int, str | None], ...] = (
    ("fixtures/games/friday-club.gbn", 1, None),
    ("fixtures/games/sim-standard-5.gbn", 1, None),
    ("fixtures/games/sim-three-player-4.gbn", 1, "table"),
    ("fixtures/games/sim-two-player-4.gbn", 1, "North"),
    ("fixtures/games/sim-shark-5.gbn", 1, "Jaws"),
    ("fixtures/games/sim-shark-memory.gbn", 1, "Dee"),
    ("fixtures/golden/replay/inputs/invalid.gbn", 1, None),
)

#: the same for "Come on! Bite me!" (BMN records; "table": what every player saw)
BITE_CASES: tuple[tuple[str, int, str | None], ...] = (
    ("fixtures/biteme/worked.bmn", 1, None),
    ("fixtures/biteme/worked.bmn", 1, "Bob"),
    ("fixtures/biteme/sim-3.bmn", 2, None),
    ("fixtures/biteme/sim-6.bmn", 1, "table"),
    ("fixtures/biteme-invalid/mistakes.bmn", 1, None),
)


def load(relative: str, number: int = 1) -> Cursor:
    """A cursor over game ``number`` of a record file, with what the validator found."""
    game = read_file(ROOT / relative, source=relative)[number - 1]
    report = validate_game(game)
    return Cursor(report.events, report.violations, report.warnings, f"{relative} game {number}")


def golden_path(case: tuple[str, int, str | None]) -> Path:
    relative, number, seat = case
    return GOLDEN / f"{Path(relative).stem}-g{number}-{(seat or 'everything').lower()}.txt"


def printout(case: tuple[str, int, str | None]) -> str:
    relative, number, seat = case
    cursor = load(relative, number)
    viewer = EVERYTHING if seat is None else Viewer.named(cursor.setup, seat)
    return replay_text(cursor, viewer)


def load_bite(relative: str, number: int = 1, seat: str | None = None) -> BiteCursor:
    """A cursor over game ``number`` of a BMN file as ``seat`` saw it ("table": every
    player), with what the validator found."""
    record = list(iter_bmn_file(ROOT / relative, source=relative))[number - 1]
    report = validate_bite(record)
    player = TABLE if seat == "table" else seat
    title = f"{relative} game {number}"
    return BiteCursor(report.events, report.violations, report.warnings, title, player)


def bite_printout(case: tuple[str, int, str | None]) -> str:
    return bite_text(load_bite(*case))


def main() -> None:
    GOLDEN.mkdir(parents=True, exist_ok=True)
    for case in CASES:
        path = golden_path(case)
        path.write_text(printout(case), encoding="utf-8")
        print(f"wrote {path.relative_to(ROOT)}")
    for case in BITE_CASES:
        path = golden_path(case)
        path.write_text(bite_printout(case), encoding="utf-8")
        print(f"wrote {path.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
