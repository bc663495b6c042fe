"""A statistics report as JSON, CSV and rich tables: one result object, many readers."""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from rich.console import Group, RenderableType
from rich.markup import escape
from rich.table import Table
from rich.text import Text

from reports.selection import HISTORY_REASONS
from reports.stats import PlayerStats, StatsReport
from store.readmodel import VALUES

__all__ = [
    "CSV_FIELDS",
    "coverage_line",
    "csv_text",
    "player_json",
    "profile_renderable",
    "report_json",
    "safe_cell",
    "table_renderable",
    "write_csv",
]

_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def safe_cell(value: object) -> object:
    """A CSV cell a spreadsheet will not run as a formula: text starting with
    ``= + - @``, a tab or a carriage return gets a leading ``'``. Numbers we
    computed are left as numbers."""
    if isinstance(value, str) and value.startswith(_FORMULA_START):
        return "'" + value
    return value


def player_json(p: PlayerStats) -> dict[str, Any]:
    """One player's statistics under stable, self-explaining names (docs/reports.md)."""
    t = p.totals
    rating = p.rating
    return {
        "name": p.name,
        "games": p.games,
        "wins": p.wins,
        "win_rate": p.win_rate,
        "average_rank": p.average_rank,
        "rank_distribution": {str(k): v for k, v in p.rank_distribution.items()},
        "swimmer_games": p.swimmer_games,
        "bites_taken": t["bites_taken"],
        "bites_taken_per_game": p.per_game("bites_taken"),
        "limbs_lost": t["limbs_lost"],
        "limbs_lost_per_game": p.per_game("limbs_lost"),
        "devoured": t["devoured"],
        "devoured_per_game": p.per_game("devoured"),
        "rounds_survived": t["rounds_survived"],
        "rounds_survived_per_game": p.per_game("rounds_survived"),
        "plays": p.plays,
        "plays_by_value": {str(v): n for v, n in p.plays_by_value.items()},
        "no_card_rounds": t["blank_plays"],
        "tied_plays": t["tied_plays"],
        "tied_share": p.tied_share,
        "moved_plays": t["moved_plays"],
        "moved_share": p.moved_share,
        "rounds_front": t["rounds_front"],
        "front_share": p.front_share,
        "rounds_back": t["rounds_back"],
        "back_share": p.back_share,
        "take_backs": t["take_backs"],
        "take_backs_per_game": p.per_game("take_backs"),
        "cards_discarded": t["discarded"],
        "shark_games": p.shark_games,
        "shark_wins": p.shark_wins,
        "shark_cards": t["shark_cards"],
        "shark_hits": p.shark_hits,
        "shark_hit_rate": p.shark_hit_rate,
        "shark_bites": t["shark_bites"],
        "shark_exhaustions": t["shark_exhaustions"],
        "shark_misses": t["shark_misses"],
        "hunger_left": t["hunger_left"],
        "average_hunger_left": p.average_hunger_left,
        "dated_games": p.dated_games,
        "longest_winning_streak": p.longest_winning_streak,
        "longest_losing_streak": p.longest_losing_streak,
        "rating": None
        if rating is None
        else {
            "mu": rating.mu,
            "sigma": rating.sigma,
            "ordinal": rating.ordinal,
            "games": rating.games,
        },
    }


def report_json(report: StatsReport) -> dict[str, Any]:
    """The object ``getbit stats --json`` prints."""
    f = report.filters
    return {
        "games_included": report.games_included,
        "games_excluded": dict(report.games_excluded),
        "filters": {
            "players": list(f.players),
            "variant": f.variant,
            "swimmers": f.swimmers,
            "since": f.since,
            "until": f.until,
            "tags": dict(f.tags),
            "aliases": dict(report.aliases.pairs),
        },
        "variants": dict(report.variants),
        "dated_games": report.dated_games,
        "players": [player_json(p) for p in report.players],
        "start_places": [
            {
                "swimmers": s.swimmers,
                "place": s.place,
                "games": s.games,
                "wins": s.wins,
                "win_rate": s.win_rate,
            }
            for s in report.places
        ],
        "head_to_head": [
            {
                "first": h.first,
                "second": h.second,
                "games": h.games,
                "first_ahead": h.first_ahead,
                "second_ahead": h.second_ahead,
            }
            for h in report.head_to_head
        ],
    }


def _csv_row(p: PlayerStats) -> dict[str, object]:
    row = player_json(p)
    flat: dict[str, object] = {}
    for key, value in row.items():
        if key == "plays_by_value":
            flat.update({f"plays_{v}": n for v, n in value.items()})
        elif key == "rank_distribution":
            flat.update({f"rank_{r}": p.rank_distribution.get(r, 0) for r in range(1, 8)})
        elif key == "rating":
            flat["rating"] = value["ordinal"] if value else None
            flat["rating_mu"] = value["mu"] if value else None
            flat["rating_sigma"] = value["sigma"] if value else None
        else:
            flat[key] = value
    return flat


#: The CSV header: one row per player.
CSV_FIELDS: tuple[str, ...] = tuple(_csv_row(PlayerStats.empty("", "")))


def write_csv(report: StatsReport) -> str:
    """The players of ``report`` as CSV text, one row each, formula-safe (``safe_cell``)."""
    return csv_text(CSV_FIELDS, (_csv_row(p) for p in report.players))


def csv_text(fields: Sequence[str], rows: Iterable[Mapping[str, object]]) -> str:
    """``rows`` as CSV text under the header ``fields``, every cell formula-safe
    (``safe_cell``): the one CSV writer of both games' statistics."""
    buf = io.StringIO()
    writer = csv.DictWriter(buf, fieldnames=fields, lineterminator="\n")
    writer.writeheader()
    for row in rows:
        writer.writerow({k: safe_cell(v) for k, v in row.items()})
    return buf.getvalue()


def _pct(x: float | None) -> str:
    return "-" if x is None else f"{100 * x:.0f}%"


def _num(x: float | None, digits: int = 2) -> str:
    return "-" if x is None else f"{x:.{digits}f}"


def coverage_line(report: StatsReport) -> str:
    """``12 games covered; left out: 1 invalid, 2 unfinished, 0 filtered`` (and
    superseded or retracted games of a store's history, when there are any)."""
    left = ", ".join(
        f"{n} {why}"
        for why, n in report.games_excluded.items()
        if n or why not in HISTORY_REASONS
    )
    n = report.games_included
    return f"{n} game{'' if n == 1 else 's'} covered; left out: {left}"


def _players_table(title: str, counts: tuple[str, ...]) -> Table:
    """A table of one row per player: the name on the left, ``counts`` right-aligned."""
    table = Table(title=title, title_justify="left")
    table.add_column("Player", justify="left")
    for head in counts:
        table.add_column(head, justify="right")
    return table


def table_renderable(report: StatsReport) -> RenderableType:
    """The default ``getbit stats`` screen: results, play, starting places, the Shark."""
    if not report.games_included:
        return Text(f"{coverage_line(report)}: no games to count.")
    shown = [p for p in report.players if p.games]
    players = _players_table(
        "Results", ("Games", "Wins", "Win", "Avg rank", "Devoured", "Rating")
    )
    for p in shown:
        players.add_row(
            escape(p.name),
            str(p.games),
            str(p.wins),
            _pct(p.win_rate),
            _num(p.average_rank),
            str(p.totals["devoured"]),
            _num(p.rating.ordinal if p.rating else None, 1),
        )
    play = _players_table(
        "Play (per game as a swimmer; shares of plays and of rounds)",
        ("Bites", "Rounds", "Tied", "Moved", "Front", "Back", "Take-backs"),
    )
    for p in shown:
        if not p.swimmer_games:
            continue  # only ever the Shark: see its own table
        play.add_row(
            escape(p.name),
            _num(p.per_game("bites_taken")),
            _num(p.per_game("rounds_survived"), 1),
            _pct(p.tied_share),
            _pct(p.moved_share),
            _pct(p.front_share),
            _pct(p.back_share),
            _num(p.per_game("take_backs")),
        )
    parts: list[RenderableType] = [Text(coverage_line(report)), players, play]
    places = Table(title="Win rate by starting place", title_justify="left")
    for head in ("Place", "Started", "Won", "Win"):  # all line lengths together
        places.add_column(head, justify="right")
    for s in report.places:
        if s.swimmers is None:
            places.add_row(str(s.place), str(s.games), str(s.wins), _pct(s.win_rate))
    parts.append(places)
    sharks = [p for p in report.players if p.shark_games]
    if sharks:
        table = _players_table(
            "The Shark", ("Games", "Wins", "Cards", "Hit rate", "Misses", "Hunger left/g")
        )
        for p in sharks:
            table.add_row(
                escape(p.name),
                str(p.shark_games),
                str(p.shark_wins),
                str(p.totals["shark_cards"]),
                _pct(p.shark_hit_rate),
                str(p.totals["shark_misses"]),
                _num(p.average_hunger_left),
            )
        parts.append(table)
    return Group(*parts)


def _pairs(rows: Iterable[tuple[str, str]], title: str) -> Table:
    table = Table(title=title, title_justify="left", show_header=False)
    table.add_column("what")
    table.add_column("value", justify="right")
    for what, value in rows:
        table.add_row(what, value)
    return table


def profile_renderable(report: StatsReport, p: PlayerStats) -> RenderableType:
    """``getbit stats --player NAME``: every number about one player."""
    t = p.totals
    rating = p.rating
    results = _pairs(
        [
            ("games", str(p.games)),
            ("wins", f"{p.wins} ({_pct(p.win_rate)})"),
            ("average rank", _num(p.average_rank)),
            *((f"finished {rank}", str(n)) for rank, n in p.rank_distribution.items()),
            ("longest winning run", str(p.longest_winning_streak)),
            ("longest losing run", str(p.longest_losing_streak)),
            ("dated games", str(p.dated_games)),
            (
                "rating (mu - 3 sigma)",
                "-" if rating is None else f"{rating.ordinal:.1f} (mu {rating.mu:.1f}, "
                f"sigma {rating.sigma:.2f})",
            ),
        ],
        "Results",
    )
    swimming = _pairs(
        [
            ("games as a swimmer", str(p.swimmer_games)),
            ("bites taken", f"{t['bites_taken']} ({_num(p.per_game('bites_taken'))}/game)"),
            ("limbs lost", f"{t['limbs_lost']} ({_num(p.per_game('limbs_lost'))}/game)"),
            ("devoured", str(t["devoured"])),
            (
                "rounds survived",
                f"{t['rounds_survived']} ({_num(p.per_game('rounds_survived'), 1)}/game)",
            ),
            ("take-backs", f"{t['take_backs']} ({_num(p.per_game('take_backs'))}/game)"),
            ("cards discarded (Exhaustion)", str(t["discarded"])),
            ("rounds ending at the front", f"{t['rounds_front']} ({_pct(p.front_share)})"),
            ("rounds ending at the back", f"{t['rounds_back']} ({_pct(p.back_share)})"),
        ],
        "Swimming",
    )
    cards = Table(title="Cards played", title_justify="left")
    for v in VALUES:
        cards.add_column(str(v), justify="right")
    cards.add_column("none", justify="right")
    cards.add_column("tied", justify="right")
    cards.add_column("moved", justify="right")
    cards.add_row(
        *(str(n) for n in p.plays_by_value.values()),
        str(t["blank_plays"]),
        f"{t['tied_plays']} ({_pct(p.tied_share)})",
        f"{t['moved_plays']} ({_pct(p.moved_share)})",
    )
    parts: list[RenderableType] = [
        Text(f"{p.name}: {coverage_line(report)}"),
        results,
        swimming,
        cards,
    ]
    if p.shark_games:
        parts.append(
            _pairs(
                [
                    ("games as the Shark", str(p.shark_games)),
                    ("wins as the Shark", str(p.shark_wins)),
                    ("Shark cards played", str(t["shark_cards"])),
                    ("hits", f"{p.shark_hits} ({_pct(p.shark_hit_rate)})"),
                    ("misses", str(t["shark_misses"])),
                    ("hunger left per game", _num(p.average_hunger_left)),
                ],
                "As the Shark",
            )
        )
    h2h = Table(title="Head to head", title_justify="left")
    for head in ("Opponent", "Games", "Ahead", "Behind"):
        h2h.add_column(head, justify="left" if head == "Opponent" else "right")
    for h in report.head_to_head:
        if p.name == h.first:
            h2h.add_row(escape(h.second), str(h.games), str(h.first_ahead), str(h.second_ahead))
        elif p.name == h.second:
            h2h.add_row(escape(h.first), str(h.games), str(h.second_ahead), str(h.first_ahead))
    parts.append(h2h)
    return Group(*parts)
