"""Statistics over recorded games: per player, per starting place, head to head,
streaks and ratings, from the store's read model or straight from record files.

Everything is computed from ``store.readmodel`` rows (``stats``); the
same numbers come from a store's totals read model (``totals``: what
``getbit stats`` reads when it can). ``render`` and
``html`` turn a report into tables, JSON, CSV and a self-contained page;
``game`` summarises one game.
"""

from reports.game import GameSummary, summarise_game
from reports.selection import Aliases, Filters
from reports.sources import row_tuples, rows_from_reports
from reports.stats import PlayerStats, StatsReport, build_report, report_from_tuples
from reports.totals import store_report

__all__ = [
    "Aliases",
    "Filters",
    "GameSummary",
    "PlayerStats",
    "StatsReport",
    "build_report",
    "report_from_tuples",
    "row_tuples",
    "rows_from_reports",
    "store_report",
    "summarise_game",
]
