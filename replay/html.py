"""One self-contained HTML page for a replay: no network, no external script or
font. The game is embedded as JSON (as one viewer saw it, so nothing hidden from
that viewer is in the page) and drawn by a small script that builds every node
with ``textContent``: a name is always text, never markup.
"""

from __future__ import annotations

import html
import json
from typing import Any

from getbit_events.events import SwimmerBitten, SwimmerDevoured
from getbit_events.rules import LIMBS
from replay._page import SCRIPT, STYLE
from replay.account import limb_word, result_words
from replay.cursor import Cursor
from replay.view import EVERYTHING, View, Viewer

__all__ = ["game_title", "page", "page_data", "script_json", "write_html"]

_JSON_ESCAPES = {
    "<": "\\u003c",
    ">": "\\u003e",
    "&": "\\u0026",
    "\u2028": "\\u2028",
    "\u2029": "\\u2029",
}


def script_json(data: Any) -> str:
    """``data`` as JSON that is safe inside a ``<script>`` element: no ``</script>``,
    no ``<!--``, no line separators that old parsers take for line ends."""
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    for char, escaped in _JSON_ESCAPES.items():
        text = text.replace(char, escaped)
    return text


def _step(cursor: Cursor, i: int, viewer: Viewer, before: list[Any]) -> dict[str, Any]:
    """One step; ``swimmers`` holds only those whose view changed since ``before``
    (the page fills in the rest), so a long game's page stays small."""
    v: View = cursor.view(viewer, i)
    index = {name: k for k, name in enumerate(cursor.setup.line)}
    swimmers = [
        {
            "limbs": [limb in s.limbs for limb in LIMBS],
            "out": s.devoured,
            "hand": list(s.hand) if s.hand is not None else None,
            "n": s.hand_size,
            "table": list(s.table),
            "discards": list(s.discards),
            "chosen": s.chosen,
            "choice": s.choice,
        }
        for s in v.swimmers
    ]
    shark = None
    if v.shark is not None:
        sh = v.shark
        shark = {
            "hunger": sh.hunger,
            "table": list(sh.table),
            "hand": list(sh.hand) if sh.hand is not None else None,
            "n": sh.hand_size,
            "chosen": sh.chosen,
            "choice": sh.choice,
        }
    changed = {str(k): s for k, s in enumerate(swimmers) if not before or before[k] != s}
    before[:] = swimmers
    return {
        "round": v.round,
        "type": cursor.events[i].TYPE,
        "account": cursor.account(i, viewer),
        "line": [index[name] for name in v.line],
        "swimmers": changed,
        "shark": shark,
        "sharkCard": v.shark_card,
    }


def _chart(cursor: Cursor) -> list[dict[str, Any]]:
    """Per round: each swimmer's place at its end (None once devoured), bites, devourings."""
    rounds = []
    for rnd in sorted(cursor.bounds):
        indices = cursor.round_events(rnd)
        state = cursor.state_at(indices[-1])
        place = {name: k for k, name in enumerate(state.line)}
        events = [cursor.events[i] for i in indices]
        rounds.append(
            {
                "round": rnd,
                "end": indices[-1],
                "places": [place.get(name) for name in cursor.setup.line],
                "bitten": [e.who for e in events if isinstance(e, SwimmerBitten)],
                "devoured": [e.who for e in events if isinstance(e, SwimmerDevoured)],
                "violations": [str(v) for v in cursor.violations_in(rnd)],
            }
        )
    return rounds


def game_title(tags: tuple[tuple[str, str], ...]) -> str | None:
    """A game's name from its Event and Date tags ("Friday club, 2026-11-20"), if any."""
    wanted = {"event": "", "date": ""}
    for name, value in tags:
        key = name.casefold()
        if key in wanted and not wanted[key]:
            wanted[key] = value.strip()
    return ", ".join(v for v in (wanted["event"], wanted["date"]) if v) or None


def page_data(cursor: Cursor, viewer: Viewer = EVERYTHING, start: int = 0) -> dict[str, Any]:
    """Everything the page shows, as plain JSON-able values."""
    setup = cursor.setup
    held: list[Any] = []
    result = result_words(cursor.state_at(len(cursor) - 1))
    return {
        "title": game_title(setup.tags) or cursor.title or "Replay",
        "from": cursor.title or "Replay",
        "seen": viewer.label,
        "variant": setup.variant,
        "memory": setup.memory,
        "names": list(setup.line),
        "shark": setup.shark,
        "hunger": setup.hunger,
        "limbs": [limb_word(x) for x in LIMBS],
        "start": max(0, min(start, len(cursor) - 1)),
        "result": result,
        "violationCount": len(cursor.violations),
        "lateViolations": [str(v) for v in cursor.violations_after_end()],
        "steps": [_step(cursor, i, viewer, held) for i in range(len(cursor))],
        "rounds": _chart(cursor),
    }


def write_html(cursor: Cursor, viewer: Viewer = EVERYTHING, start: int = 0) -> str:
    """The page, as one string of HTML."""
    data = page_data(cursor, viewer, start)
    return page(f"Get Bit! replay: {data['title']}", STYLE, _MAIN, data, SCRIPT)


def page(title: str, style: str, main: str, data: Any, script: str, unit: str = "round") -> str:
    """A self-contained replay page of either game: its title (escaped here), style,
    ``<main>`` (markup of the game's own, no data in it), the data embedded as JSON
    and the script that draws it; the controls step by event and by ``unit``."""
    return _PAGE.format(
        title=html.escape(title),
        style=style,
        main=main,
        data=script_json(data),
        script=script,
        unit=unit,
    )


_MAIN = """<main>
<p id="account" aria-live="polite"></p>
<section><svg id="line" role="img" aria-label="the line, front to back"></svg></section>
<section id="tables"></section>
<section id="problems"><ul id="violations"></ul></section>
<section><h2>This round</h2><ol id="log"></ol></section>
<section><h2>Places round by round</h2><svg id="chart" role="img"
aria-label="each swimmer's place in the line after every round"></svg>
<p id="legend"></p></section>
<p id="result"></p>
</main>"""

_PAGE = """<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; \
style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{title}</title>
<style>{style}</style>
</head>
<body>
<header><h1 id="title"></h1><p id="seen"></p></header>
<nav id="controls">
<button id="first" title="first event (Home)">|◀</button>
<button id="prev-round" title="previous {unit} (↑)">◀◀</button>
<button id="prev" title="previous event (←)">◀</button>
<input id="slider" type="range" min="0" value="0" aria-label="event">
<button id="next" title="next event (→)">▶</button>
<button id="next-round" title="next {unit} (↓)">▶▶</button>
<button id="last" title="last event (End)">▶|</button>
<span id="step" aria-live="polite"></span>
</nav>
{main}
<script type="application/json" id="replay-data">{data}</script>
<script>{script}</script>
</body>
</html>
"""
