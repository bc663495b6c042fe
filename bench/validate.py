"""Validator and replay speed, as ratios to yardsticks timed in the same process.

    python bench/validate.py [--games N] [--repeat R]

(a) getbit-events reading and validating GBN text, in card plays per second,
    against (d) python-chess reading and checking its own PGN games
    (``chess.pgn.read_game``), in moves per second. The records state every
    outcome (``write_gbn``'s default), so the validator checks those too; more
    lines show the same run when each game's events are also made (as
    ``getbit import`` does), on records with only the cards, on a JSON Lines
    log of the same games' choices and reveals (as ``bench/scale.py --log``), and
    on a log of every event of them (as a program that plays the game writes one);
(b) ``replay`` of the validated event streams (the trusted fold, a frozen
    state per event), against (c) a bare loop folding the same events, as plain
    dicts, into a mutable dict state; both in events per second.

(e) "Come on! Bite me!" (docs/biteme.md): reading and validating BMN text of games
    the bots played, in turns per second, against the same (d).

(f) A worker's share (``import --jobs 2``): reading the GBN text with every other game
    found and left unread (``importers.skipping``), against reading every game of it;
    the less over 50% the share costs, the less the two workers read twice.

(g) The whole ``getbit validate --jobs 1`` command (the ``getbit`` beside this Python,
    run in a process of its own, its report written to a file) on the log of choices
    and reveals above, against reading and validating it here: what the command adds
    (starting, saying a line a game, the summary), as the CPU time of the one over
    the other.

Goals: (a) >= 5x (d); (b) >= 20% of (c). The machines are noisy: only the
ratios mean anything, and each timing is the best of ``--repeat`` runs.

It measures getbit-events as installed in the Python that runs it, and says
which build that is: ``pip install .`` compiles the hot modules with mypyc
(setup.py), an editable install (``pip install -e .``) runs the source as it is.
"""

from __future__ import annotations

import argparse
import importlib.util
import io
import resource
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
# The package as installed, compiled or not (``pip install .`` compiles the hot modules
# with mypyc; an editable install is the source tree); the source tree if not installed.
if importlib.util.find_spec("getbit_events") is None:
    sys.path.insert(0, str(ROOT))

import attrs  # noqa: E402

from biteme.simulate import simulate_bite  # noqa: E402
from biteme.validate import validate_bite  # noqa: E402
from getbit_events.events import (  # noqa: E402
    CardsRevealed,
    Event,
    GameStarted,
    SharkCardPlayed,
)
from getbit_events.record import RecordedGame  # noqa: E402
from getbit_events.reducer import replay  # noqa: E402
from getbit_events.simulate import SETUPS, simulate_game  # noqa: E402
from getbit_events.validate import validate_game  # noqa: E402
from importers.bmn import iter_bmn  # noqa: E402
from importers.bmn_write import write_bmn  # noqa: E402
from importers.gbn import iter_gbn, iter_gbn_stream, read_gbn, write_gbn  # noqa: E402
from importers.jsonl import iter_jsonl, write_jsonl  # noqa: E402

PGN_DIR = ROOT.parent / "shared" / "pgn"


def best(fn: Callable[[], Any], repeat: int) -> tuple[float, Any]:
    """The fastest of ``repeat`` runs, and the last result."""
    times = []
    result = None
    for _ in range(repeat):
        t0 = time.perf_counter()
        result = fn()
        times.append(time.perf_counter() - t0)
    return min(times), result


def make_games(n: int) -> list[list[Event]]:
    games = []
    for k in range(n):
        variant, swimmers = SETUPS[k % len(SETUPS)]
        bot = "sensible" if k % 2 else "random"
        games.append(simulate_game(variant, swimmers, seed=1000 + k, bot=bot, memory=k % 3 == 0))
    return games


def chess_yardstick(repeat: int) -> tuple[float, int]:
    """python-chess reading and checking every game of ../shared/pgn: (seconds, moves)."""
    import chess.pgn

    texts = [p.read_text(encoding="utf-8") for p in sorted(PGN_DIR.glob("*.pgn"))]
    if not texts:  # no yardstick, no ratio: say so, not a division by zero at the end
        raise SystemExit(f"bench/validate.py: no PGN games in {PGN_DIR} to measure the "
                         "yardstick (d) by; run it from the project beside ../shared")

    def run() -> int:
        moves = 0
        for text in texts * 10:  # ten passes, so the yardstick is long enough to time
            stream = io.StringIO(text)
            while (game := chess.pgn.read_game(stream)) is not None:
                if game.errors:
                    raise RuntimeError(game.errors[0])
                moves += sum(1 for _ in game.mainline_moves())
        return moves

    # python-chess checks each move's legality while it reads (read_game); the
    # mainline walk above only counts them.
    seconds, moves = best(run, repeat)
    return seconds, moves


def whole_command(log: bytes, repeat: int) -> float | None:
    """(g): the CPU seconds of ``getbit validate --jobs 1`` on ``log`` (the best of
    ``repeat``), its report written to a file; None where no ``getbit`` is installed
    beside this Python."""
    getbit = Path(sys.executable).with_name("getbit")
    if not getbit.exists():
        print(f"(g) skipped: no {getbit}")
        return None
    best_cpu = float("inf")
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder, "bench.jsonl")
        path.write_bytes(log)
        for _ in range(repeat):
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            with open(Path(folder, "report.txt"), "wb") as report:
                # run in the folder: not the project's source, but what is installed
                subprocess.run([str(getbit), "validate", "--jobs", "1", str(path)],
                               stdout=report, stderr=subprocess.DEVNULL, cwd=folder, check=False)
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            best_cpu = min(best_cpu, after.ru_utime + after.ru_stime
                           - before.ru_utime - before.ru_stime)
    return best_cpu


def bite_me(n: int, repeat: int) -> tuple[float, int]:
    """(e): ``n`` games of "Come on! Bite me!" (3 to 10 players) as BMN, read and
    validated as ``getbit validate`` does: (seconds, turns)."""
    games = [simulate_bite(3 + k % 8, seed=2000 + k) for k in range(n)]
    text = write_bmn(games)
    turns = sum(len(game.turns) for game in iter_bmn(text, "bench.bmn"))

    def run() -> int:
        valid = sum(validate_bite(game).valid for game in iter_bmn(text, "bench.bmn"))
        if valid != n:
            raise RuntimeError("a simulated game of Bite me! did not validate")
        return valid

    seconds, _ = best(run, repeat)
    return seconds, turns


def dict_fold(events: list[dict[str, Any]]) -> dict[str, Any]:
    """The yardstick (c): the same facts folded into one mutable dict."""
    state: dict[str, Any] = {}
    for e in events:
        t = e["type"]
        if t == "game-started":
            hand = set(range(1, e["hand_size"] + 1))
            state = {
                "line": list(e["line"]),
                "limbs": dict.fromkeys(e["line"], 4),
                "hand": {n: set(hand) for n in e["line"]},
                "table": {n: [] for n in e["line"]},
                "discards": {n: [] for n in e["line"]},
                "hunger": e["hunger"],
                "shark_hand": set(range(6)),
                "round": 0,
                "out": [],
            }
        elif t == "card-chosen":
            state["round"] = e["round"]
        elif t == "cards-revealed":
            state["round"] = e["round"]
            for name, value in e["cards"]:
                if value is not None:
                    state["hand"][name].discard(value)
                    state["table"][name].append(value)
        elif t == "swimmer-moved":
            state["line"].remove(e["who"])
            state["line"].insert(0, e["who"])
        elif t == "swimmer-bitten":
            state["limbs"][e["who"]] -= 1
        elif t == "swimmer-devoured":
            state["limbs"][e["who"]] = 0
            state["line"].remove(e["who"])
            state["out"].append(e["who"])
        elif t == "cards-taken-back":
            state["hand"][e["who"]].update(e["cards"])
            state["table"][e["who"]].clear()
        elif t == "hunger-lost":
            state["hunger"] = e["left"]
        elif t == "cards-discarded":
            for name, value in e["cards"]:
                state["table"][name].remove(value)
                state["discards"][name].append(value)
        elif t == "game-ended":
            state["winner"] = e["winner"]
    return state


def as_dict(e: Event) -> dict[str, Any]:
    d = attrs.asdict(e, recurse=False)
    d["type"] = e.TYPE
    return d


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()

    import getbit_events.validate as measured

    compiled = not measured.__file__ or not measured.__file__.endswith(".py")
    build = "compiled by mypyc" if compiled else "pure Python"
    print(f"getbit_events, {build}: {Path(measured.__file__ or '?').parent}")
    if not compiled:
        print("  (the build `pip install .` makes is compiled: `pip install '.[bench]'`, not -e,")
        print("   then run this again to measure it)")
    games = make_games(args.games)
    text = write_gbn(games)
    plays = sum(
        sum(v is not None for _, v in e.cards)
        for g in games
        for e in g
        if isinstance(e, CardsRevealed)
    )
    rounds = sum(1 for g in games for e in g if isinstance(e, CardsRevealed))
    print(f"{len(games)} games, {rounds} rounds, {plays} card plays, {len(text):,} bytes of GBN")

    def validate_text() -> int:
        # as `getbit validate` does: each game is read, checked and let go
        valid = 0
        for game in iter_gbn(text, "bench.gbn"):
            valid += validate_game(game).valid
        if valid != len(games):
            raise RuntimeError("a simulated game did not validate")
        return valid

    t_a, _ = best(validate_text, args.repeat)

    def validate_and_make_events() -> int:
        # as `getbit import` does: the events of each game are made and kept
        return sum(len(validate_game(game).events) for game in iter_gbn(text, "bench.gbn"))

    t_a_events, _ = best(validate_and_make_events, args.repeat)
    cards_only = write_gbn(games, outcomes=False)

    def validate_cards_only() -> int:
        # records with only the cards: every outcome derived, none to check
        return sum(1 for game in iter_gbn(cards_only, "bench.gbn") if validate_game(game).readable)

    t_a_cards, _ = best(validate_cards_only, args.repeat)
    # the same games as a JSON Lines log of their choices and reveals (bench/scale.py --log)
    reveals = (GameStarted, CardsRevealed, SharkCardPlayed)
    log = "".join(write_jsonl(
        (f"g{k}", [e for e in game if isinstance(e, reveals)]) for k, game in enumerate(games)
    )).encode()

    def validate_log() -> int:
        return sum(
            validate_game(game).valid
            for game in iter_jsonl(io.BytesIO(log), "bench.jsonl")
            if isinstance(game, RecordedGame)  # every game: none is skipped here
        )

    t_a_log, _ = best(validate_log, args.repeat)
    # and as a log of every event, as a program that plays the game (or getbit export)
    # writes it
    full = "".join(write_jsonl((f"g{k}", game) for k, game in enumerate(games))).encode()

    def validate_full_log() -> int:
        return sum(
            validate_game(game).valid
            for game in iter_jsonl(io.BytesIO(full), "bench.jsonl")
            if isinstance(game, RecordedGame)  # every game: none is skipped here
        )

    t_a_full, _ = best(validate_full_log, args.repeat)
    t_g = whole_command(log, args.repeat)
    data = text.encode()

    def read_all() -> int:
        return sum(1 for _ in iter_gbn_stream(io.BytesIO(data), "bench.gbn"))

    def read_share() -> int:  # as one of two workers: games 2, 4, 6, ... left unread
        return sum(1 for _ in iter_gbn_stream(io.BytesIO(data), "bench.gbn", lambda k: k % 2 == 0))

    # (f)'s two take turns, so a busy spell on the machine hits both alike
    t_all = t_share = float("inf")
    for _ in range(args.repeat * 2):
        t_all = min(t_all, best(read_all, 1)[0])
        t_share = min(t_share, best(read_share, 1)[0])
    streams = [list(validate_game(g).events) for g in read_gbn(text, "bench.gbn")]
    n_events = sum(len(s) for s in streams)

    def fold_all() -> int:
        n = 0
        for s in streams:
            for _ in replay(s):
                n += 1
        return n

    dicts = [[as_dict(e) for e in s] for s in streams]

    def dict_all() -> None:
        for s in dicts:
            dict_fold(s)

    # (b) and (c) take turns, so a busy spell on the machine hits both alike
    t_b = t_c = float("inf")
    for _ in range(args.repeat * 2):
        t_b = min(t_b, best(fold_all, 1)[0])
        t_c = min(t_c, best(dict_all, 1)[0])
    t_d, moves = chess_yardstick(args.repeat)
    t_e, turns = bite_me(max(1, args.games // 4), args.repeat)

    a = plays / t_a
    d = moves / t_d
    b = n_events / t_b
    c = n_events / t_c
    print(f"(a) validate GBN:      {a:12,.0f} card plays/s  ({t_a:.3f} s)")
    print(
        f"    ... making events:  {plays / t_a_events:12,.0f} card plays/s  ({t_a_events:.3f} s)"
        f"  = {plays / t_a_events / d:.2f}x (d)"
    )
    print(
        f"    ... cards only:     {plays / t_a_cards:12,.0f} card plays/s  ({t_a_cards:.3f} s)"
        f"  = {plays / t_a_cards / d:.2f}x (d)"
    )
    print(
        f"    ... a JSON Lines log: {plays / t_a_log:10,.0f} card plays/s  ({t_a_log:.3f} s)"
        f"  = {plays / t_a_log / d:.2f}x (d)   (its choices and reveals)"
    )
    print(
        f"    ... a log of every event: {plays / t_a_full:6,.0f} card plays/s  ({t_a_full:.3f} s)"
        f"  = {plays / t_a_full / d:.2f}x (d)"
    )
    print(f"(d) python-chess PGN:  {d:12,.0f} moves/s       ({moves} moves, {t_d:.3f} s)")
    print(
        f"(e) validate BMN:      {turns / t_e:12,.0f} turns/s       ({turns} turns, {t_e:.3f} s)"
        f"  = {turns / t_e / d:.2f}x (d)   (Come on! Bite me!)"
    )
    print(f"(b) replay (fold):     {b:12,.0f} events/s      ({n_events} events, {t_b:.3f} s)")
    print(f"(c) bare dict fold:    {c:12,.0f} events/s      ({t_c:.3f} s)")
    print(
        f"(f) a worker's share:  {len(games) / t_share:12,.0f} games/s of the file "
        f"({t_share:.3f} s)  = {t_share / t_all:.1%} of reading every game ({t_all:.3f} s)"
    )
    if t_g is not None:
        print(
            f"(g) getbit validate:   {plays / t_g:12,.0f} card plays/s  ({t_g:.3f} s of CPU)"
            f"  = {t_g / t_a_log:.2f}x the log's reading and checking here"
        )
    print(f"ratio (a)/(d) = {a / d:.2f}x   (goal >= 5x)")
    print(f"ratio (b)/(c) = {b / c:.1%}  (goal >= 20%)")


if __name__ == "__main__":
    main()
