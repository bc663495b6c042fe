"""Rich renderings of a replay: the whole game round by round, and one step of it.

Everything is built from ``rich.text.Text`` pieces (never markup), so a name
holding brackets is printed as written.
"""

from __future__ import annotations

import io
from collections.abc import Iterable

from rich.console import Console, Group, RenderableType
from rich.panel import Panel
from rich.text import Text

from getbit_events.events import (
    CardChosen,
    CardsDiscarded,
    CardsRevealed,
    CardsTakenBack,
    GameEnded,
    HungerLost,
    HungerStated,
    LineStated,
    MissStated,
    OutcomeStated,
    PlayStated,
    SharkCardPlayed,
    SharkCardsTakenBack,
    SwimmerBitten,
    SwimmerDevoured,
    SwimmerMoved,
)
from getbit_events.record import Violation
from getbit_events.rules import LIMBS
from replay.account import limb_word, names, result_words, ties
from replay.cursor import Cursor
from replay.view import EVERYTHING, View, Viewer

__all__ = [
    "LEGEND",
    "plain_text",
    "print_game",
    "render_game",
    "render_line",
    "render_round",
    "render_step",
    "replay_text",
]

KEPT, LOST = "●", "○"
FACE_DOWN = "▒"
LEGEND = (
    f"limbs {KEPT} kept {LOST} lost ({', '.join(limb_word(x) for x in LIMBS)}); "
    f"{FACE_DOWN} a card face down (R16)"
)
_LABEL = 10  # width of the row labels


def _limbs(limbs: tuple[str, ...], devoured: bool) -> Text:
    if devoured:
        return Text("devoured", style="red")
    glyphs = Text()
    for limb in LIMBS:
        glyphs.append(KEPT if limb in limbs else LOST, style="green" if limb in limbs else "red")
    return glyphs


def render_line(v: View) -> Text:
    """The line front to back, each swimmer's limbs, and the shark behind it."""
    text = Text("front ▸ ", style="dim")
    for k, name in enumerate(v.line):
        if k:
            text.append(" │ ", style="dim")
        s = v.swimmer(name)
        text.append(name, style="bold")
        text.append(" ")
        text.append_text(_limbs(s.limbs, s.devoured))
    text.append(" ◂ back", style="dim")
    if v.shark is not None:
        text.append("   ≋ ", style="blue")
        text.append(v.shark.name, style="bold blue")
        text.append(f" hunger {v.shark.hunger}", style="blue")
        text.append(" ≋", style="blue")
    else:
        text.append("   ≋ shark ≋", style="blue")
    out = [s.name for s in v.swimmers if s.devoured]
    if out:
        text.append("   out: ", style="dim")
        text.append(", ".join(out), style="red")
    return text


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def _row(label: str, body: Text | str, style: str = "") -> Text:
    row = Text(f"  {label:<{_LABEL}}", style="cyan")
    row.append_text(body if isinstance(body, Text) else Text(body, style=style))
    return row


def _cards(values: Iterable[int | None]) -> str:
    shown = [FACE_DOWN if v is None else str(v) for v in values]
    return " ".join(shown) if shown else "—"


def _table_rows(v: View) -> list[Text]:
    table = Text()
    hands = Text()
    for k, name in enumerate(v.line):
        s = v.swimmer(name)
        sep = " │ " if k else ""
        table.append(sep, style="dim")
        table.append(f"{name} ", style="bold")
        table.append(_cards(s.table))
        if s.discards:
            table.append(f" (discarded {' '.join(map(str, s.discards))})", style="dim")
        hands.append(sep, style="dim")
        hands.append(f"{name} ", style="bold")
        if s.hand is None:
            hands.append(f"({_plural(s.hand_size, 'card')})", style="dim")
        else:
            hands.append(_cards(s.hand))
    rows = [_row("table", table), _row("hands", hands)]
    if v.shark is not None:
        sh = v.shark
        body = Text(f"{sh.name}: played {', '.join(sh.table) or '—'}; hand ")
        if sh.hand is None:
            body.append(f"({_plural(sh.hand_size, 'card')})", style="dim")
        else:
            body.append(", ".join(sh.hand) or "—")
        rows.append(_row("shark", body))
    return rows


def _violation_rows(found: Iterable[Violation], mark: str = "✗") -> list[Text]:
    return [Text(f"  {mark} {v}", style="red" if mark == "✗" else "yellow") for v in found]


def render_round(cursor: Cursor, rnd: int, viewer: Viewer = EVERYTHING) -> RenderableType:
    """Round ``rnd``: cards, ties, who swam in what order, the bite, the Shark, the line after."""
    rows: list[Text] = [Text(f"Round {rnd}", style="bold underline")]
    swims: list[str] = []
    indices = cursor.round_events(rnd)
    for i in indices:
        e = cursor.events[i]
        before = cursor.state_at(i - 1)
        if isinstance(e, CardChosen):
            continue
        if isinstance(e, CardsRevealed):
            shown = ", ".join(f"{n} {'-' if v is None else v}" for n, v in e.cards)
            rows.append(_row("cards", shown))
            tied = ties(e.cards)
            words = "; ".join(f"{names(who)} on {value}" for value, who in tied)
            rows.append(_row("ties", f"{words}: they stay (R4)" if tied else "none"))
            continue
        if isinstance(e, SharkCardPlayed):
            rows.append(_row("shark", f"{e.shark} plays {e.card}"))
            continue
        if isinstance(e, SwimmerMoved) and e.why == "card":
            swims.append(f"{e.who} {dict(before.revealed).get(e.who)}")
            continue
        if swims:
            rows.append(_swim_row(swims))
            swims = []
        label = {
            SwimmerBitten: "bite",
            SwimmerMoved: "bite",
            SwimmerDevoured: "devoured",
            CardsTakenBack: "take back",
            SharkCardsTakenBack: "take back",
            HungerLost: "miss",
            CardsDiscarded: "discard",
            HungerStated: "recorded",
            LineStated: "recorded",
            MissStated: "recorded",
            OutcomeStated: "recorded",
            PlayStated: "recorded",
            GameEnded: "end",
        }.get(type(e), e.TYPE)
        if isinstance(e, SwimmerMoved) and e.why == "line":
            label = "recorded"  # the line the record states, where the rules say another
        style = "bold red" if label in ("bite", "devoured") else ""
        rows.append(_row(label, cursor.account(i, viewer), style))
    if swims:
        rows.append(_swim_row(swims))
    if indices:
        v = cursor.view(viewer, indices[-1])
        rows.append(_row("line", render_line(v)))
        rows.extend(_table_rows(v))
    rows.extend(_violation_rows(cursor.violations_in(rnd)))
    rows.extend(_violation_rows((w for w in cursor.warnings if w.round == rnd), "!"))
    return Group(*rows)


def _swim_row(swims: list[str]) -> Text:
    return _row("swim", " → ".join(swims) + "  (lowest first; the last ends at the front)")


def render_header(cursor: Cursor, viewer: Viewer = EVERYTHING) -> RenderableType:
    """The title, the set-up in words, tags, the legend and the starting line."""
    rows = [Text(cursor.title or "Replay", style="bold")]
    rows.append(Text(f"seen: {viewer.label}", style="dim"))
    rows.append(Text(cursor.account(0)))
    if cursor.setup.tags:
        rows.append(Text("tags: " + "; ".join(f"{k} {v}" for k, v in cursor.setup.tags)))
    rows.append(Text(LEGEND, style="dim"))
    rows.append(_row("line", render_line(cursor.view(viewer, 0))))
    rows.extend(_violation_rows(cursor.violations_in(0)))
    return Group(*rows)


def render_result(cursor: Cursor) -> RenderableType:
    """How the game ended (or that it did not), and how many violations it holds."""
    rows = []
    late = cursor.violations_after_end()
    if late:
        rows.append(Text("Recorded after the end", style="bold underline"))
        rows.extend(_violation_rows(late))
    final = cursor.state_at(len(cursor) - 1)
    rows.append(Text(f"Result: {result_words(final)}.", style="bold"))
    n = len(cursor.violations)
    if n:
        rows.append(Text(f"{n} violation{'s' if n != 1 else ''} in this record.", style="red"))
    return Group(*rows)


def render_game(
    cursor: Cursor, viewer: Viewer = EVERYTHING, rnd: int | None = None
) -> list[RenderableType]:
    """The whole game (or only round ``rnd``), round by round."""
    parts = [render_header(cursor, viewer)]
    rounds = [rnd] if rnd is not None else [r for r in cursor.bounds if r > 0]
    if rnd is not None and rnd not in cursor.bounds:
        cursor.goto_round(rnd)  # raises a clear InputError
    for r in rounds:
        parts.append(Text(""))
        parts.append(render_round(cursor, r, viewer))
    parts.append(Text(""))
    parts.append(render_result(cursor))
    return parts


def print_game(
    cursor: Cursor, console: Console, viewer: Viewer = EVERYTHING, rnd: int | None = None
) -> None:
    for part in render_game(cursor, viewer, rnd):
        console.print(part)


def replay_text(
    cursor: Cursor, viewer: Viewer = EVERYTHING, rnd: int | None = None, width: int = 100
) -> str:
    """The printout as plain text (no colour): what the golden files hold."""
    return plain_text(render_game(cursor, viewer, rnd), width)


def plain_text(parts: Iterable[RenderableType], width: int = 100) -> str:
    """Renderables as plain text (no colour, no markup read): a golden file's text,
    for either game's printout."""
    buffer = io.StringIO()
    console = Console(
        file=buffer,
        width=width,
        color_system=None,
        force_terminal=False,
        highlight=False,
        emoji=False,
        markup=False,
        soft_wrap=True,
    )
    for part in parts:
        console.print(part)
    return buffer.getvalue()


def render_step(
    cursor: Cursor,
    viewer: Viewer = EVERYTHING,
    help_line: str = "",
    max_events: int | None = None,
) -> Panel:
    """The current step: the round's accounts so far (the last ``max_events`` of
    them), the line, the table, what went wrong."""
    rnd = cursor.round
    body: list[RenderableType] = []
    shown = [i for i in cursor.round_events(rnd) if i <= cursor.position]
    if max_events is not None and len(shown) > max_events:
        earlier = len(shown) - max_events + 1
        body.append(Text(f"  … {earlier} earlier events of this round", style="dim"))
        shown = shown[earlier:]
    for i in shown:
        mark = "▶ " if i == cursor.position else "  "
        style = "bold" if i == cursor.position else "dim"
        body.append(Text(mark + cursor.account(i, viewer), style=style))
    v = cursor.view(viewer)
    body.append(Text(""))
    body.append(_row("line", render_line(v)))
    body.extend(_table_rows(v))
    chosen = [s for s in v.swimmers if s.chosen]
    if chosen:
        words = [f"{s.name} {s.choice}" if s.choice is not None else f"{s.name} ?" for s in chosen]
        if v.shark is not None and v.shark.chosen:
            words.append(f"{v.shark.name} {v.shark.choice or '?'}")
        body.append(_row("chosen", ", ".join(words) + "  (face down)"))
    body.extend(_violation_rows(cursor.violations_in(rnd)))
    if cursor.at_end:
        body.append(render_result(cursor))
    if help_line:
        body.append(Text(""))
        body.append(Text(help_line, style="dim"))
    title = Text(
        f"{cursor.title or 'Replay'} — round {rnd}, event {cursor.position}/{len(cursor) - 1} "
        f"— {viewer.label}"
    )
    return Panel(Group(*body), title=title, title_align="left")
