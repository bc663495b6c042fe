"""The HTML report: one self-contained file, charts drawn here as inline SVG.

Nothing is fetched when the page opens (no scripts, fonts, images or styles
from elsewhere), and every name is escaped, so a player called
``<script>`` is shown, not run.
"""

from __future__ import annotations

from collections.abc import Sequence
from html import escape

from reports.game import GameSummary
from reports.render import coverage_line
from reports.stats import PlayerStats, StatsReport
from store.readmodel import VALUES

__all__ = ["bar_chart", "html_report", "html_table", "page_head"]

_COLOURS = (
    "#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd",
    "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf",
)
#: a player's colour is the same in every chart of the page: given by name, in the
#: order of the report's players, then of any other names a chart shows
Palette = dict[str, str]
_MAX_POINTS = 400  # per rating line; longer histories are thinned, the last point kept

_STYLE = """
body { font-family: system-ui, sans-serif; margin: 2em; color: #222; max-width: 70em; }
h1 { font-size: 1.6em; } h2 { font-size: 1.25em; margin-top: 2em; }
table { border-collapse: collapse; margin: 0.5em 0; }
th, td { border: 1px solid #ccc; padding: 0.2em 0.6em; text-align: right; }
th:first-child, td:first-child { text-align: left; }
svg { max-width: 100%; height: auto; }
svg text { font-family: system-ui, sans-serif; font-size: 12px; fill: #222; }
.wide { overflow-x: auto; max-width: 100%; }
@media (max-width: 40em) { body { margin: 0.6em; } }
.note { color: #555; }
"""


def _e(text: object) -> str:
    return escape(str(text), quote=True)


def _pct(x: float | None) -> str:
    return "-" if x is None else f"{100 * x:.0f}%"


def _num(x: float | None, digits: int = 2) -> str:
    return "-" if x is None else f"{x:.{digits}f}"


def _svg(width: float, height: float, title: str) -> str:
    """An SVG's opening tag: scaled down to the page's width on a narrow screen."""
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" role="img" width="{width}" '
        f'height="{height}" viewBox="0 0 {width} {height}" aria-label="{_e(title)}">'
        f"<title>{_e(title)}</title>"
    )


def _colour(palette: Palette, name: str) -> str:
    """The colour of ``name`` (ignoring case) on this page, given it the first time."""
    key = name.casefold()
    if key not in palette:
        palette[key] = _COLOURS[len(palette) % len(_COLOURS)]
    return palette[key]


def bar_chart(title: str, items: Sequence[tuple[str, float | None, str]]) -> str:
    """Horizontal bars, one per (label, share 0..1, text)."""
    row, label_w, bar_w = 24, 160, 400
    height = row * len(items) + 30
    out = [_svg(label_w + bar_w + 80, height, title)]
    for i, (label, share, text) in enumerate(items):
        y = 10 + i * row
        w = 0.0 if share is None else max(0.0, min(1.0, share)) * bar_w
        out.append(
            f'<text x="{label_w - 6}" y="{y + 15}" text-anchor="end">{_e(label)}</text>'
            f'<rect x="{label_w}" y="{y + 2}" width="{w:.1f}" height="{row - 6}" '
            f'fill="{_COLOURS[0]}"/>'
            f'<text x="{label_w + w + 4:.1f}" y="{y + 15}">{_e(text)}</text>'
        )
    out.append("</svg>")
    return "".join(out)


def _heatmap(
    title: str, rows: Sequence[str], columns: Sequence[str], shares: Sequence[Sequence[float]]
) -> str:
    """A grid of shares (0..1): darker is more."""
    cell, label_w = 44, 160
    width = label_w + cell * len(columns) + 10
    height = 30 + cell * len(rows)
    out = [_svg(width, height, title)]
    for j, col in enumerate(columns):
        x = label_w + j * cell + cell / 2
        out.append(f'<text x="{x}" y="18" text-anchor="middle">{_e(col)}</text>')
    for i, name in enumerate(rows):
        y = 26 + i * cell
        out.append(
            f'<text x="{label_w - 6}" y="{y + cell / 2 + 4}" text-anchor="end">{_e(name)}</text>'
        )
        for j, share in enumerate(shares[i]):
            x = label_w + j * cell
            light = 97 - 62 * max(0.0, min(1.0, share * 2.5))
            ink = "#fff" if light < 55 else "#222"
            out.append(
                f'<rect x="{x}" y="{y}" width="{cell - 2}" height="{cell - 2}" '
                f'fill="hsl(210, 70%, {light:.0f}%)"/>'
                f'<text x="{x + cell / 2 - 1}" y="{y + cell / 2 + 4}" text-anchor="middle" '
                f'style="fill: {ink}">{100 * share:.0f}%</text>'
            )
    out.append("</svg>")
    return "".join(out)


def _line_chart(
    title: str,
    series: Sequence[tuple[str, Sequence[tuple[float, float]]]],
    x_label: str,
    y_label: str,
    palette: Palette,
    invert: bool = False,
    y_whole: bool = False,
) -> str:
    """Lines of (x, y) points, one per labelled series (each in its name's colour
    in ``palette``), with a legend."""
    left, top, width, height = 60, 20, 560, 260
    points = [p for _, pts in series for p in pts]
    if not points:
        return f'<p class="note">{_e(title)}: nothing to draw.</p>'
    xs = [x for x, _ in points]
    ys = [y for _, y in points]
    x0, x1 = min(xs), max(xs)
    y0, y1 = min(ys), max(ys)
    if x1 == x0:
        x1 = x0 + 1
    if y1 == y0:
        y1 = y0 + 1

    def px(x: float) -> float:
        return left + (x - x0) / (x1 - x0) * width

    def py(y: float) -> float:
        frac = (y - y0) / (y1 - y0)
        return top + (frac if invert else 1 - frac) * height

    legend_h = 18 * len(series)
    out = [
        _svg(left + width + 180, top + height + 50 + max(0, legend_h - height), title),
        (f'<line x1="{left}" y1="{top + height}" x2="{left + width}" y2="{top + height}" '
        'stroke="#888"/>'),
        f'<line x1="{left}" y1="{top}" x2="{left}" y2="{top + height}" stroke="#888"/>',
        (f'<text x="{left + width / 2}" y="{top + height + 40}" text-anchor="middle">'
        f"{_e(x_label)}</text>"),
        (f'<text x="14" y="{top + height / 2}" text-anchor="middle" '
        f'transform="rotate(-90 14 {top + height / 2})">{_e(y_label)}</text>'),
    ]
    ticks = [y0 + k for k in range(int(y1 - y0) + 1)] if y_whole else [
        y0 + (y1 - y0) * k / 4 for k in range(5)
    ]
    for t in ticks:
        label = f"{t:.0f}" if y_whole else f"{t:.1f}"
        out.append(f'<text x="{left - 6}" y="{py(t) + 4:.1f}" text-anchor="end">{label}</text>')
    for t in (x0, x1):
        out.append(
            f'<text x="{px(t):.1f}" y="{top + height + 16}" text-anchor="middle">{t:.0f}</text>'
        )
    for i, (label, pts) in enumerate(series):
        colour = _colour(palette, label)
        path = " ".join(f"{px(x):.1f},{py(y):.1f}" for x, y in pts)
        out.append(
            f'<polyline points="{path}" fill="none" stroke="{colour}" stroke-width="2" '
            f'data-name="{_e(label)}"/>'
        )
        ly = top + 10 + 18 * i
        out.append(
            f'<rect x="{left + width + 12}" y="{ly - 9}" width="12" height="12" '
            f'fill="{colour}" data-name="{_e(label)}"/>'
            f'<text x="{left + width + 30}" y="{ly + 1}">{_e(label)}</text>'
        )
    out.append("</svg>")
    return "".join(out)


def _thin(points: Sequence[tuple[float, float]]) -> list[tuple[float, float]]:
    if len(points) <= _MAX_POINTS:
        return list(points)
    step = len(points) / _MAX_POINTS
    kept = [points[int(k * step)] for k in range(_MAX_POINTS)]
    return [*kept, points[-1]]


def html_table(head: Sequence[str], rows: Sequence[Sequence[object]]) -> str:
    cells = "".join(f"<th>{_e(h)}</th>" for h in head)
    body = "".join(
        "<tr>" + "".join(f"<td>{_e(c)}</td>" for c in row) + "</tr>" for row in rows
    )
    return (
        f'<div class="wide"><table><thead><tr>{cells}</tr></thead>'
        f"<tbody>{body}</tbody></table></div>"
    )


def _positions(game: GameSummary, palette: Palette) -> str:
    series = []
    for s in game.start_line:
        pts = [(0.0, float(game.start_line.index(s) + 1))]
        for r, place in zip(game.rounds, game.positions(s), strict=True):
            if place is None:
                break
            pts.append((float(r.number), float(place)))
        series.append((s, pts))
    title = f"Place in the line by round, game {game.game_id} (1 = front)"
    chart = _line_chart(
        title, series, "round (0 = start)", "place", palette, invert=True, y_whole=True
    )
    result = f"{game.winner} wins" if game.winner else "unfinished"
    return (
        f"<h2 id=\"positions\">Position by round: game {_e(game.game_id)}</h2>"
        f'<p class="note">{_e(game.variant)}, {len(game.rounds)} rounds, {_e(result)}. '
        "A line stops where its swimmer was devoured.</p>" + chart
    )


def html_report(report: StatsReport, game: GameSummary | None = None) -> str:
    """The whole HTML page for ``report``; ``game`` adds its position-by-round chart."""
    players = [p for p in report.players if p.games]
    palette: Palette = {}
    for p in players:  # one colour per player, the same in every chart
        _colour(palette, p.name)
    parts = [*page_head("Get Bit! statistics"), *_summary(report, players)]
    if game is not None:
        parts.append(_positions(game, palette))
    parts += [*_ratings(report, palette), *_tables(report, players), *_shark(players)]
    parts += [*_head_to_head(report), "</body></html>"]
    return "\n".join(parts)


def page_head(title: str) -> list[str]:
    """A report page's head, its one inline style, and its heading ``title``: the
    shell of both games' report pages (``</body></html>`` closes it)."""
    return [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        # no scripts at all, and nothing from anywhere else: only the inline style
        ("<meta http-equiv=\"Content-Security-Policy\" "
        "content=\"default-src 'none'; style-src 'unsafe-inline'\">"),
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>{_e(title)}</title>",
        f"<style>{_STYLE}</style></head><body>",
        f"<h1>{_e(title)}</h1>",
    ]


def _summary(report: StatsReport, players: Sequence[PlayerStats]) -> list[str]:
    """What the report covers, the win rates and the card values played."""
    swimmers = [p for p in players if p.plays]
    return [
        f'<p id="coverage">{_e(coverage_line(report))}.</p>',
        '<h2 id="win-rates">Win rates</h2>',
        bar_chart(
            "Win rate per player",
            [(p.name, p.win_rate, f"{_pct(p.win_rate)} of {p.games}") for p in players],
        ),
        '<h2 id="card-values">Card values played</h2>',
        '<p class="note">Share of each player\'s plays that were each value.</p>',
        _heatmap(
            "Card-value use per player",
            [p.name for p in swimmers],
            [str(v) for v in VALUES],
            [[p.plays_by_value[v] / p.plays for v in VALUES] for p in swimmers],
        ),
    ]


def _ratings(report: StatsReport, palette: Palette) -> list[str]:
    """The rating chart: each player's rating after each game, in date order."""
    series = [
        (name, _thin([(float(pt.game), pt.ordinal) for pt in pts]))
        for name, pts in report.rating_history.items()
    ]
    return [
        '<h2 id="ratings">Rating over time</h2>',
        ('<p class="note">openskill Plackett-Luce, shown as mu - 3 sigma, after each game '
        "in date order.</p>"),
        _line_chart("Rating over time", series, "games rated", "rating", palette),
    ]


def _tables(report: StatsReport, players: Sequence[PlayerStats]) -> list[str]:
    """The table of players and that of win rates by starting place."""
    return [
        '<h2 id="players">Players</h2>',
        html_table(
            ("Player", "Games", "Wins", "Win", "Avg rank", "Bites/g", "Devoured",
             "Rounds/g", "Tied", "Moved", "Front", "Back", "Take-backs/g", "Rating"),
            [
                (
                    p.name, p.games, p.wins, _pct(p.win_rate), _num(p.average_rank),
                    _num(p.per_game("bites_taken")), p.totals["devoured"],
                    _num(p.per_game("rounds_survived"), 1), _pct(p.tied_share),
                    _pct(p.moved_share), _pct(p.front_share), _pct(p.back_share),
                    _num(p.per_game("take_backs")),
                    _num(p.rating.ordinal if p.rating else None, 1),
                )
                for p in players
            ],
        ),
        '<h2 id="places">Win rate by starting place</h2>',
        html_table(
            ("Place", "Swimmers in line", "Games", "Wins", "Win"),
            [
                (s.place, s.swimmers or "all", s.games, s.wins, _pct(s.win_rate))
                for s in report.places
            ],
        ),
    ]


def _shark(players: Sequence[PlayerStats]) -> list[str]:
    """The Shark's table, when anyone played it."""
    sharks = [p for p in players if p.shark_games]
    if not sharks:
        return []
    return [
        '<h2 id="shark">The Shark</h2>',
        html_table(
            ("Player", "Games", "Wins", "Cards", "Hit rate", "Misses", "Hunger left/g"),
            [
                (p.name, p.shark_games, p.shark_wins, p.totals["shark_cards"],
                 _pct(p.shark_hit_rate), p.totals["shark_misses"],
                 _num(p.average_hunger_left))
                for p in sharks
            ],
        ),
    ]


def _head_to_head(report: StatsReport) -> list[str]:
    """Who finished ahead of whom in the games they shared."""
    return [
        '<h2 id="head-to-head">Head to head</h2>',
        html_table(
            ("Player", "Opponent", "Shared games", "Player ahead", "Opponent ahead"),
            [
                (h.first, h.second, h.games, h.first_ahead, h.second_ahead)
                for h in report.head_to_head
            ],
        ),
    ]
