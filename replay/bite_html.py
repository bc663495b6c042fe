"""One self-contained HTML page for a replay of "Come on! Bite me!": the page shell,
escaping and controls of ``replay.html`` and ``replay._page.NAV``, with this
game's table (each player's card, active Meerkats, trophies, discards, score).

The events are embedded as the cursor's viewer saw them (B17): a card hidden
from that player is ``?`` in the page too, never in its data.
"""

from __future__ import annotations

from typing import Any

from replay._page import DOM, NAV, STYLE
from replay.bite import BiteCursor, result_words, scores_of
from replay.html import game_title, page

__all__ = ["bite_page_data", "write_bite_html"]


def _step(cursor: BiteCursor, i: int) -> dict[str, Any]:
    state = cursor.states[i]
    scores = scores_of(state)
    return {
        "round": cursor.events[i].turn,
        "type": cursor.events[i].TYPE,
        "account": cursor.account(i),
        "left": state.left,
        "players": [
            {
                "card": p.card,
                "meerkats": p.meerkats,
                "trophies": list(p.trophies),
                "discards": list(p.discards),
                "score": scores[p.name],
            }
            for p in state.players
        ],
    }


def bite_page_data(cursor: BiteCursor, start: int = 0) -> dict[str, Any]:
    """Everything the page shows, as plain JSON-able values."""
    turns = sorted(cursor.turns)
    return {
        "title": game_title(cursor.setup.tags) or cursor.title or "Replay",
        "from": cursor.title or "Replay",
        "seen": cursor.label,
        "names": list(cursor.setup.seats),
        "start": max(0, min(start, len(cursor.events) - 1)),
        "result": result_words(cursor),
        "violationCount": len(cursor.violations),
        "steps": [_step(cursor, i) for i in range(len(cursor.events))],
        "rounds": [
            {
                "round": t,
                "end": cursor.turns[t][-1],
                "violations": [str(v) for v in cursor.violations_in(t)],
            }
            for t in turns
        ],
    }


def write_bite_html(cursor: BiteCursor, start: int = 0) -> str:
    """The page, as one string of HTML."""
    data = bite_page_data(cursor, start)
    title = f"Come on! Bite me! replay: {data['title']}"
    return page(title, STYLE + _STYLE, _MAIN, data, _SCRIPT, unit="turn")


_STYLE = """
table.bite { border-collapse: collapse; background: #fff; margin: .6rem 0; }
table.bite th, table.bite td { border: 1px solid #cdd; padding: .25rem .6rem; text-align: left; }
"""

_MAIN = """<main>
<p id="account" aria-live="polite"></p>
<p id="deck"></p>
<section><table class="bite"><thead><tr><th>player</th><th>card</th><th>trophies</th>
<th>discards</th><th>score</th></tr></thead><tbody id="players"></tbody></table></section>
<section id="problems"><ul id="violations"></ul></section>
<section><h2>This turn</h2><ol id="log"></ol></section>
<p id="result"></p>
</main>"""

_SCRIPT = r"""
"use strict";
const data = JSON.parse(document.getElementById("replay-data").textContent);
const steps = data.steps;
let pos = data.start;
""" + DOM + r"""function shown(card) { return card === null ? "—" : card; }

function render() {
  const step = steps[pos];
  document.getElementById("step").textContent =
    `Step ${pos} of ${steps.length - 1} · turn ${step.round}`;
  document.getElementById("account").textContent = step.account;
  document.getElementById("deck").textContent = `${step.left} cards left in the deck`;
  document.getElementById("slider").value = String(pos);
  const body = document.getElementById("players");
  clear(body);
  step.players.forEach((p, k) => {
    const row = document.createElement("tr");
    row.appendChild(html("th", data.names[k]));
    const card = shown(p.card) + (p.meerkats ? ` +${p.meerkats} Meerkat` : "");
    row.appendChild(html("td", card, p.card === "?" ? "hidden" : ""));
    row.appendChild(html("td", p.trophies.join(", ") || "—"));
    row.appendChild(html("td", p.discards.join(", ") || "—"));
    row.appendChild(html("td", p.score === null ? "?" : p.score));
    body.appendChild(row);
  });
  const log = document.getElementById("log");
  clear(log);
  for (let i = 0; i <= pos; i++) {
    if (steps[i].round !== step.round) continue;
    log.appendChild(html("li", steps[i].account, i === pos ? "current" : ""));
  }
  const problems = document.getElementById("violations");
  clear(problems);
  const turn = data.rounds.find(r => r.round === step.round);
  for (const v of (turn ? turn.violations : [])) problems.appendChild(html("li", "✗ " + v));
  document.getElementById("result").textContent =
    pos === steps.length - 1 ? "Result: " + data.result : "";
}

document.getElementById("title").textContent = "Come on! Bite me! replay: " + data.title;
let seen = "Seen: " + data.seen;
if (data.violationCount) seen += ` · ${data.violationCount} violation(s) in this record`;
if (data.from !== data.title) seen += " · " + data.from;
document.getElementById("seen").textContent = seen;
""" + NAV + r"""render();
"""
