"""The style sheet and script of the HTML replay page (see ``replay.html``).

The script reads the embedded JSON and builds every node with ``createElement``
and ``textContent``; it never assigns ``innerHTML``.
"""

from __future__ import annotations

__all__ = ["NAV", "SCRIPT", "STYLE"]

STYLE = """
body { font-family: system-ui, sans-serif; margin: 1rem 2rem; color: #1b2733;
  background: #f7fafc; }
h1 { font-size: 1.3rem; margin: 0; } h2 { font-size: 1rem; margin: 1rem 0 .3rem; }
#seen { color: #567; margin: .2rem 0 .6rem; }
nav { display: flex; gap: .4rem; align-items: center; flex-wrap: wrap; }
nav button { font-size: 1rem; padding: .2rem .6rem; }
#slider { flex: 1; min-width: 12rem; }
#step { font-variant-numeric: tabular-nums; min-width: 14rem; }
#account { font-size: 1.15rem; font-weight: 600; min-height: 3rem; }
svg#line { background: #d8effa; border-radius: 8px; display: block; }
/* a drawing wider than the screen is scaled down to it (its viewBox), never scrolled */
svg#line, svg#chart { max-width: 100%; height: auto; }
@media (max-width: 40em) { body { margin: .5rem; } #step { min-width: 0; } }
#tables { display: flex; flex-wrap: wrap; gap: .4rem 1.2rem; margin: .6rem 0; }
.seat { background: #fff; border: 1px solid #cdd; border-radius: 6px; padding: .3rem .6rem; }
.seat b { display: block; }
.hidden { color: #789; font-style: italic; }
#violations li { color: #b00020; }
#log li.current { font-weight: 600; }
#log li { color: #345; }
svg#chart { background: #fff; border: 1px solid #cdd; border-radius: 6px; cursor: pointer; }
#legend span { margin-right: 1rem; white-space: nowrap; }
#legend i { display: inline-block; width: 1.2rem; height: .35rem; margin-right: .3rem;
  vertical-align: middle; }
#result { font-weight: 600; }
"""

#: The controls of a replay page of either game: the slider, the buttons and the keys
#: step by event, and by turn or round to the ``end`` of each of ``data.rounds``
#: (the page script defines ``render`` and ``pos``, and runs this before it draws).
NAV = r"""
function go(i) { pos = Math.max(0, Math.min(steps.length - 1, i)); render(); }
const ends = data.rounds.map(r => r.end);
function nextRound() { const e = ends.find(x => x > pos); go(e === undefined ? pos : e); }
function prevRound() {
  const e = ends.filter(x => x < pos); go(e.length ? e[e.length - 1] : 0);
}

const slider = document.getElementById("slider");
slider.max = String(steps.length - 1);
slider.addEventListener("input", () => go(Number(slider.value)));
document.getElementById("first").addEventListener("click", () => go(0));
document.getElementById("prev").addEventListener("click", () => go(pos - 1));
document.getElementById("next").addEventListener("click", () => go(pos + 1));
document.getElementById("last").addEventListener("click", () => go(steps.length - 1));
document.getElementById("prev-round").addEventListener("click", prevRound);
document.getElementById("next-round").addEventListener("click", nextRound);
document.addEventListener("keydown", ev => {
  const keys = {ArrowRight: () => go(pos + 1), ArrowLeft: () => go(pos - 1),
    ArrowDown: nextRound, PageDown: nextRound, ArrowUp: prevRound, PageUp: prevRound,
    Home: () => go(0), End: () => go(steps.length - 1)};
  const act = keys[ev.key];
  if (act && !ev.altKey && !ev.ctrlKey && !ev.metaKey) { ev.preventDefault(); act(); }
});
"""

# the page scripts' two DOM helpers (shared with ``replay.bite_html``): an element
# holding text, never markup, and emptying a node
DOM = r"""function html(tag, text, cls) {
  const node = document.createElement(tag);
  if (text !== undefined) node.textContent = String(text);
  if (cls) node.className = cls;
  return node;
}
function clear(node) { while (node.firstChild) node.removeChild(node.firstChild); }
"""

SCRIPT = r"""
"use strict";
const data = JSON.parse(document.getElementById("replay-data").textContent);
const steps = data.steps;
// each step lists only the swimmers whose view changed: carry the others forward
steps.forEach((step, i) => {
  const full = i > 0 ? steps[i - 1].swimmers.slice() : [];
  for (const [k, s] of Object.entries(step.swimmers)) full[Number(k)] = s;
  step.swimmers = full;
  step.line = step.line.map(k => data.names[k]);
});
const SVG = "http://www.w3.org/2000/svg";
const COLOURS = ["#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#17becf",
  "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22"];
let pos = data.start;

function svg(tag, attrs, text) {
  const node = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs || {})) node.setAttribute(k, String(v));
  if (text !== undefined) node.textContent = String(text);
  return node;
}
""" + DOM + r"""function colour(k) { return COLOURS[k % COLOURS.length]; }

const SLOT = 110, TOP = 26, PER_ROW = 5;
function drawSwimmer(g, x, sw, name, k) {
  // limbs: right arm, left arm, right leg, left leg (drawn as the swimmer faces us)
  const ends = [[-18, 36, 22], [18, 36, 22], [-12, 68, 42], [12, 68, 42]];
  const body = sw.out ? "#a0a8b0" : colour(k);
  g.appendChild(svg("circle", {cx: x, cy: TOP + 8, r: 9, fill: body}));
  g.appendChild(svg("line", {x1: x, y1: TOP + 17, x2: x, y2: TOP + 42, stroke: body,
    "stroke-width": 4, "stroke-linecap": "round"}));
  ends.forEach(([dx, dy, from], j) => {
    const kept = sw.limbs[j];
    const attrs = {x1: x, y1: TOP + from, x2: x + dx, y2: TOP + dy,
      stroke: kept ? body : "#d50000", "stroke-width": kept ? 4 : 3,
      "stroke-linecap": "round", class: kept ? "limb kept" : "limb lost"};
    if (!kept) attrs["stroke-dasharray"] = "4 3";
    const limb = svg("line", attrs);
    limb.appendChild(svg("title", {}, data.limbs[j] + (kept ? "" : " (lost)")));
    g.appendChild(limb);
    if (!kept) {  // a lost limb ends in a red cross, seen at a glance on any colour
      const ex = x + dx, ey = TOP + dy;
      const cross = svg("path", {d: `M${ex - 4} ${ey - 4} L${ex + 4} ${ey + 4} ` +
        `M${ex - 4} ${ey + 4} L${ex + 4} ${ey - 4}`, stroke: "#d50000", "stroke-width": 2.5,
        "stroke-linecap": "round", class: "stump"});
      cross.appendChild(svg("title", {}, data.limbs[j] + " (lost)"));
      g.appendChild(cross);
    }
  });
  // a long name is cut to fit its place; the whole name is the label's tooltip
  const label = svg("text", {x: x, y: TOP + 96, "text-anchor": "middle",
    "font-size": 13, "font-weight": 600, class: "name"}, name);
  g.appendChild(label);
  if (label.getComputedTextLength() > SLOT - 8) {
    let cut = name;
    while (cut.length > 1 && label.getComputedTextLength() > SLOT - 8) {
      cut = cut.slice(0, -1);
      label.textContent = cut + "…";
    }
    label.appendChild(svg("title", {}, name));
  }
  // cards on the table, oldest first, five to a row; null is a face-down card (R16)
  const cards = sw.table, w = 16, gap = 3;
  cards.forEach((c, j) => {
    const inRow = Math.min(PER_ROW, cards.length - Math.floor(j / PER_ROW) * PER_ROW);
    const cx = x - (inRow * (w + gap) - gap) / 2 + (j % PER_ROW) * (w + gap);
    const cy = TOP + 104 + Math.floor(j / PER_ROW) * 25;
    g.appendChild(svg("rect", {x: cx, y: cy, width: w, height: 22, rx: 3,
      fill: c === null ? "#5b6b7a" : "#fff", stroke: "#456", class: "card"}));
    g.appendChild(svg("text", {x: cx + w / 2, y: cy + 16, "text-anchor": "middle",
      "font-size": 12, fill: c === null ? "#fff" : "#123"}, c === null ? "?" : c));
  });
}

function drawLine(step) {
  const root = document.getElementById("line");
  clear(root);
  const n = Math.max(step.line.length, 1);
  const piles = step.line.map(name => step.swimmers[data.names.indexOf(name)].table.length);
  const most = Math.max(1, ...piles);
  const width = 60 + n * SLOT + 150;
  const height = TOP + 140 + (Math.ceil(most / PER_ROW) - 1) * 25;
  root.setAttribute("width", width); root.setAttribute("height", height);
  root.setAttribute("viewBox", `0 0 ${width} ${height}`);
  root.appendChild(svg("text", {x: 8, y: 16, "font-size": 12, fill: "#456"}, "front"));
  step.line.forEach((name, k) => {
    const idx = data.names.indexOf(name);
    drawSwimmer(root, 60 + k * SLOT + SLOT / 2 - 20, step.swimmers[idx], name, idx);
  });
  const sx = 60 + n * SLOT + 30;
  root.appendChild(svg("text", {x: sx - 40, y: 16, "font-size": 12, fill: "#456"}, "back"));
  // the shark, behind the line
  const g = svg("g", {class: "shark"});
  g.appendChild(svg("path", {d:
    `M${sx} ${TOP + 60} Q${sx + 45} ${TOP + 20} ${sx + 95} ${TOP + 60}` +
    ` L${sx + 110} ${TOP + 48} L${sx + 106} ${TOP + 66} L${sx + 110} ${TOP + 84}` +
    ` L${sx + 95} ${TOP + 72} Q${sx + 45} ${TOP + 98} ${sx} ${TOP + 60} Z`, fill: "#607d8b"}));
  g.appendChild(svg("path", {
    d: `M${sx + 40} ${TOP + 40} L${sx + 55} ${TOP + 12} L${sx + 62} ${TOP + 44} Z`,
    fill: "#546e7a"}));
  g.appendChild(svg("circle", {cx: sx + 16, cy: TOP + 56, r: 3, fill: "#fff"}));
  const label = data.shark === null ? "the shark" : data.shark;
  g.appendChild(svg("text", {x: sx + 50, y: TOP + 114, "text-anchor": "middle", "font-size": 13,
    "font-weight": 600}, label));
  if (step.shark) {
    g.appendChild(svg("text", {x: sx + 50, y: TOP + 130, "text-anchor": "middle",
      "font-size": 12}, "hunger " + "●".repeat(step.shark.hunger) +
      "○".repeat(Math.max(0, data.hunger - step.shark.hunger))));
  }
  if (step.sharkCard) {
    g.appendChild(svg("text", {x: sx + 50, y: TOP - 8, "text-anchor": "middle",
      "font-size": 12, fill: "#b00020"}, step.sharkCard));
  }
  root.appendChild(g);
}

function plural(n, word) { return `${n} ${word}${n === 1 ? "" : "s"}`; }
function cardsText(list) { return list.length ? list.join(" ") : "—"; }

function drawTables(step) {
  const root = document.getElementById("tables");
  clear(root);
  data.names.forEach((name, k) => {
    const sw = step.swimmers[k];
    const seat = html("div", undefined, "seat");
    seat.appendChild(html("b", name + (sw.out ? " (devoured)" : "")));
    const hand = sw.hand === null
      ? html("span", `hand: ${plural(sw.n, "card")}, hidden`, "hidden")
      : html("span", "hand: " + cardsText(sw.hand));
    seat.appendChild(hand);
    seat.appendChild(html("div", "table: " + cardsText(sw.table.map(c => c === null ? "?" : c))));
    if (sw.discards.length) seat.appendChild(html("div", "discarded: " + cardsText(sw.discards)));
    if (sw.chosen) {
      seat.appendChild(html("div", sw.choice === null ? "chose a card (face down)"
        : `chose ${sw.choice} (face down)`, "hidden"));
    }
    root.appendChild(seat);
  });
  if (step.shark) {
    const seat = html("div", undefined, "seat");
    seat.appendChild(html("b", data.shark + " (Shark)"));
    seat.appendChild(step.shark.hand === null
      ? html("span", `hand: ${plural(step.shark.n, "card")}, hidden`, "hidden")
      : html("span", "hand: " + cardsText(step.shark.hand)));
    seat.appendChild(html("div", "played: " + cardsText(step.shark.table)));
    root.appendChild(seat);
  }
}

const chart = {x0: 40, y0: 18, dx: 30, dy: 24};
function drawChart() {
  const root = document.getElementById("chart");
  clear(root);
  const rounds = data.rounds, n = data.names.length;
  chart.dx = Math.max(6, Math.min(40, 900 / Math.max(rounds.length - 1, 1)));
  const width = chart.x0 + (rounds.length - 1) * chart.dx + 30;
  const height = chart.y0 + n * chart.dy + 20;
  root.setAttribute("width", width); root.setAttribute("height", height);
  root.setAttribute("viewBox", `0 0 ${width} ${height}`);
  const X = r => chart.x0 + r * chart.dx, Y = p => chart.y0 + p * chart.dy;
  for (let p = 0; p < n; p++) {
    root.appendChild(svg("text", {x: 4, y: Y(p) + 4, "font-size": 11, fill: "#678"},
      p === 0 ? "front" : String(p + 1)));
    root.appendChild(svg("line", {x1: chart.x0, x2: width - 20, y1: Y(p), y2: Y(p),
      stroke: "#eef"}));
  }
  rounds.forEach((r, k) => {
    if (rounds.length < 40 || r.round % 5 === 0) {
      root.appendChild(svg("text", {x: X(k), y: height - 4, "font-size": 10,
        "text-anchor": "middle", fill: "#678"}, r.round));
    }
  });
  data.names.forEach((name, s) => {
    let pts = [], lastK = -1;
    rounds.forEach((r, k) => {
      if (r.places[s] !== null) { pts.push(`${X(k)},${Y(r.places[s])}`); lastK = k; }
    });
    root.appendChild(svg("polyline", {points: pts.join(" "), fill: "none",
      stroke: colour(s), "stroke-width": 2}));
    rounds.forEach((r, k) => {
      const prev = k > 0 ? rounds[k - 1].places[s] : null;
      if (r.devoured.includes(name) && prev !== null) {
        const x = X(k), y = Y(prev);
        const cross = svg("path", {d: `M${x - 5} ${y - 5} L${x + 5} ${y + 5} M${x - 5} ${y + 5}` +
          ` L${x + 5} ${y - 5}`, stroke: colour(s), "stroke-width": 3, class: "devoured"});
        cross.appendChild(svg("title", {}, `${name} devoured in round ${r.round}`));
        root.appendChild(cross);
      } else if (r.bitten.includes(name) && r.places[s] !== null) {
        const dot = svg("circle", {cx: X(k), cy: Y(r.places[s]), r: 4.5, fill: "#fff",
          stroke: colour(s), "stroke-width": 2.5, class: "bite"});
        dot.appendChild(svg("title", {}, `${name} bitten in round ${r.round}`));
        root.appendChild(dot);
      }
    });
  });
  root.appendChild(svg("line", {id: "now", x1: 0, x2: 0, y1: 8, y2: height - 14,
    stroke: "#b00020", "stroke-width": 1.5, "stroke-dasharray": "4 3"}));
  root.addEventListener("click", ev => {
    const box = root.getBoundingClientRect();  // the chart may be drawn scaled down
    const k = Math.round(((ev.clientX - box.left) * width / box.width - chart.x0) / chart.dx);
    const r = rounds[Math.max(0, Math.min(rounds.length - 1, k))];
    go(r.end);
  });
  const legend = document.getElementById("legend");
  clear(legend);
  data.names.forEach((name, s) => {
    const item = html("span");
    const swatch = html("i"); swatch.style.background = colour(s);
    item.appendChild(swatch); item.appendChild(document.createTextNode(name));
    legend.appendChild(item);
  });
  legend.appendChild(html("span", "○ bitten · ✕ devoured"));
}

function roundIndex(rnd) { return data.rounds.findIndex(r => r.round === rnd); }

function render() {
  const step = steps[pos];
  document.getElementById("step").textContent =
    `Step ${pos} of ${steps.length - 1} · round ${step.round}`;
  document.getElementById("account").textContent = step.account;
  document.getElementById("slider").value = String(pos);
  drawLine(step);
  drawTables(step);
  const log = document.getElementById("log");
  clear(log);
  for (let i = 0; i <= pos; i++) {
    if (steps[i].round !== step.round) continue;
    log.appendChild(html("li", steps[i].account, i === pos ? "current" : ""));
  }
  const k = roundIndex(step.round);
  const problems = document.getElementById("violations");
  clear(problems);
  const found = k >= 0 ? data.rounds[k].violations.slice() : [];
  if (pos === steps.length - 1) found.push(...data.lateViolations);
  for (const v of found) problems.appendChild(html("li", "✗ " + v));
  const now = document.getElementById("now");
  if (now && k >= 0) {
    const x = chart.x0 + k * chart.dx;
    now.setAttribute("x1", x); now.setAttribute("x2", x);
  }
  document.getElementById("result").textContent =
    pos === steps.length - 1 ? "Result: " + data.result : "";
}

document.getElementById("title").textContent = "Get Bit! replay: " + data.title;
let seen = "Seen: " + data.seen + " · " + data.variant + (data.memory ? ", memory" : "");
if (data.violationCount) seen += ` · ${data.violationCount} violation(s) in this record`;
if (data.from !== data.title) seen += " · " + data.from;
document.getElementById("seen").textContent = seen;
""" + NAV + r"""drawChart();
render();
"""
