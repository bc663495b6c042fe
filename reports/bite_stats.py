"""Statistics per player across games of "Come on! Bite me!": games, wins (a
shared win counts for each, B16), average score, trophies, discards, and
battles won and lost as attacker and as defender (B5, B8).

Counted from each game's events (the record's, folded by ``biteme.fold``), so
files and the store give the same numbers. As for Get Bit!'s statistics, a
game that breaks the rules or never ended (B15) is left out, and the report
says how many were.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from html import escape
from typing import Any

import attrs

from biteme import rules
from biteme.events import Attacked, BiteEvent, BiteStarted, Claimed
from biteme.fold import fold
from importers.reading import iso_date
from reports.selection import Aliases, Filters

__all__ = [
    "BITE_CSV_FIELDS",
    "BiteGame",
    "BitePlayerStats",
    "BiteStatsReport",
    "bite_csv",
    "bite_html",
    "bite_report",
    "bite_report_json",
    "bite_summary",
    "bite_table",
]


@attrs.frozen
class BiteGame:
    """One game to count: its events and whether the validator found it valid."""

    events: Sequence[BiteEvent]
    valid: bool


@attrs.frozen
class BitePlayerStats:
    """One player's totals over the games counted."""

    name: str
    games: int = 0
    wins: int = 0
    scored_games: int = 0  # games whose scores are known (every strength stated, B3)
    points: int = 0
    trophies: int = 0
    discards: int = 0
    attacks_won: int = 0
    attacks_lost: int = 0
    defences_won: int = 0
    defences_lost: int = 0

    @property
    def average_score(self) -> float | None:
        """Points per game whose scores are known; None when none are."""
        return round(self.points / self.scored_games, 2) if self.scored_games else None


@attrs.frozen
class BiteStatsReport:
    """Every player's totals (most wins first, then by name), the games counted
    and those left out, by reason (``invalid``, ``unfinished``)."""

    players: tuple[BitePlayerStats, ...]
    games_included: int
    games_excluded: dict[str, int]
    filters: Filters = attrs.field(factory=Filters)
    aliases: Aliases = attrs.field(factory=Aliases)


def _battles(events: Iterable[BiteEvent]) -> Iterable[tuple[tuple[str, ...], str, bool]]:
    """Each battle's attackers, defender and whether the attackers won: the
    defender claims when it wins (B5, B8), an attacker when they do."""
    battle: Attacked | None = None
    for e in events:
        if isinstance(e, Attacked):
            battle = e
        elif isinstance(e, Claimed) and battle is not None and e.turn == battle.turn:
            attackers = (battle.who, *(n for n, _ in battle.joined))
            yield attackers, battle.defender, e.who != battle.defender
            battle = None


def _kept(setup: BiteEvent, filters: Filters, aliases: Aliases) -> bool:
    """Whether a game passes ``filters``: its players, its Date tag, its tags."""
    assert isinstance(setup, BiteStarted)
    tags = dict(setup.tags)
    date = next((v for k, v in setup.tags if k.casefold() == "date"), None)
    return filters.keeps_facts(iso_date(date), tags, setup.seats, aliases)


def bite_report(
    games: Iterable[BiteGame],
    unreadable: int = 0,
    filters: Filters | None = None,
    aliases: Aliases | None = None,
) -> BiteStatsReport:
    """The statistics of ``games``; ``unreadable`` games (a file's syntax errors)
    are counted with the invalid ones. ``filters`` keep the games of some players,
    dates (the Date tag) or tags, as Get Bit!'s do (``reports.selection``); with
    ``aliases`` a name counts as another (ignoring case), shown as the alias gives it."""
    filters = filters if filters is not None else Filters()
    aliases = aliases if aliases is not None else Aliases()
    totals: dict[str, dict[str, int]] = {}
    shown: dict[str, str] = {}  # a player's key -> the name it is shown by
    excluded = {"invalid": unreadable, "unfinished": 0, "filtered": 0}
    included = 0

    def key(name: str) -> str:
        k = aliases.key(name.casefold())
        shown.setdefault(k, aliases.display(k) or name)
        return k

    for game in games:
        if not game.valid or not game.events:
            excluded["invalid"] += 1
            continue
        state = fold(game.events)
        if not state.finished:
            excluded["unfinished"] += 1
            continue
        if filters != Filters() and not _kept(game.events[0], filters, aliases):
            excluded["filtered"] += 1
            continue
        included += 1

        strengths = dict(state.strengths)
        scores = rules.scores(
            [(p.name, p.trophies, p.discards) for p in state.players], strengths
        )
        for p in state.players:
            t = totals.setdefault(key(p.name), {})
            t["games"] = t.get("games", 0) + 1
            t["wins"] = t.get("wins", 0) + (p.name in state.winners)
            t["trophies"] = t.get("trophies", 0) + len(p.trophies)
            t["discards"] = t.get("discards", 0) + len(p.discards)
            if isinstance(scores, dict):
                t["scored_games"] = t.get("scored_games", 0) + 1
                t["points"] = t.get("points", 0) + scores[p.name]
        for attackers, defender, attackers_won in _battles(game.events):
            for name in attackers:
                count = "attacks_won" if attackers_won else "attacks_lost"
                totals[key(name)][count] = totals[key(name)].get(count, 0) + 1
            count = "defences_lost" if attackers_won else "defences_won"
            totals[key(defender)][count] = totals[key(defender)].get(count, 0) + 1
    players = sorted(
        (BitePlayerStats(shown[k], **t) for k, t in totals.items()),
        key=lambda p: (-p.wins, p.name.casefold(), p.name),
    )
    return BiteStatsReport(tuple(players), included, excluded, filters, aliases)


def bite_report_json(report: BiteStatsReport) -> dict[str, Any]:
    """The object ``getbit stats --json`` prints for this game (stable fields)."""
    f = report.filters
    return {
        "game": "bite-me",
        "games_included": report.games_included,
        "games_excluded": dict(report.games_excluded),
        "filters": {
            "players": list(f.players),
            "since": f.since,
            "until": f.until,
            "tags": dict(f.tags),
            "aliases": dict(report.aliases.pairs),
        },
        "players": [_player_json(p) for p in report.players],
    }


def _player_json(p: BitePlayerStats) -> dict[str, Any]:
    return {
        "name": p.name,
        "games": p.games,
        "wins": p.wins,
        "average_score": p.average_score,
        "trophies": p.trophies,
        "discards": p.discards,
        "attacks_won": p.attacks_won,
        "attacks_lost": p.attacks_lost,
        "defences_won": p.defences_won,
        "defences_lost": p.defences_lost,
    }


#: The CSV header of this game's statistics: one row per player, the fields of --json
BITE_CSV_FIELDS: tuple[str, ...] = tuple(_player_json(BitePlayerStats("")))


def bite_csv(report: BiteStatsReport) -> str:
    """The players as CSV text, one row each (an unknown average left empty),
    formula-safe as Get Bit!'s (``reports.render.csv_text``)."""
    from reports.render import csv_text

    return csv_text(BITE_CSV_FIELDS, (_player_json(p) for p in report.players))


def bite_html(report: BiteStatsReport) -> str:
    """One self-contained page, on the shell of Get Bit!'s report (``reports.html``):
    what it covers, wins per player, and the table of players; every name escaped."""
    from reports.html import bar_chart, html_table, page_head

    players = report.players
    most = max((p.wins for p in players), default=0) or 1
    head = (
        "Player", "Games", "Wins", "Avg score", "Trophies", "Discards",
        "Attacks won", "Attacks lost", "Defences won", "Defences lost",
    )
    rows = [
        (
            p.name, p.games, p.wins, "-" if p.average_score is None else f"{p.average_score:.2f}",
            p.trophies, p.discards, p.attacks_won, p.attacks_lost, p.defences_won,
            p.defences_lost,
        )
        for p in players
    ]
    return "\n".join(
        [
            *page_head("Come on! Bite me! statistics"),
            f'<p id="coverage">{escape(bite_summary(report))}.</p>',
            '<h2 id="wins">Wins</h2>',
            '<p class="note">A shared win counts for each player sharing it (B16).</p>',
            bar_chart(
                "Wins per player",
                [(p.name, p.wins / most, f"{p.wins} of {p.games}") for p in players],
            ),
            '<h2 id="players">Players</h2>',
            html_table(head, rows),
            "</body></html>",
        ]
    )


def bite_summary(report: BiteStatsReport) -> str:
    """``2 games covered; left out: 1 invalid, 1 unfinished``."""
    n = report.games_included
    left = ", ".join(f"{k} {why}" for why, k in report.games_excluded.items())
    return f"{n} game{'' if n == 1 else 's'} covered; left out: {left}"


def bite_table(report: BiteStatsReport) -> Any:
    """The table for people (a ``rich`` Table; names are never read as markup)."""
    from rich.table import Table
    from rich.text import Text

    table = Table(title="Come on! Bite me!", caption=bite_summary(report))
    for header in (
        "player", "games", "wins", "avg\nscore", "trophies", "discards",
        "attacking\nwon-lost", "defending\nwon-lost",
    ):
        table.add_column(header, justify="left" if header == "player" else "right")
    for p in report.players:
        avg = "—" if p.average_score is None else f"{p.average_score:.2f}"
        table.add_row(
            Text(p.name), str(p.games), str(p.wins), avg, str(p.trophies), str(p.discards),
            f"{p.attacks_won}-{p.attacks_lost}", f"{p.defences_won}-{p.defences_lost}",
        )
    return table
