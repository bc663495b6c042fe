"""``getbit replay FILE.bmn --step``: the interactive replay of "Come on! Bite me!".

The keys, the key reading and the terminal loop are Get Bit!'s (``replay.interactive``:
``Session``, ``drive``); what a step shows, and what ``v`` switches between (the
record, the table, each player, B17), are this game's.
"""

from __future__ import annotations

from rich.console import Console, Group, RenderableType
from rich.panel import Panel
from rich.text import Text

from replay.bite import TABLE, BiteCursor, render_bite, result_words, table_rows
from replay.interactive import Keys, Steps, drive, keyboard

__all__ = ["BiteSession", "render_bite_step", "run_bite"]


def render_bite_step(
    cursor: BiteCursor, help_line: str = "", max_events: int | None = None
) -> Panel:
    """The current step: the turn's accounts so far (the last ``max_events``), the
    table, what went wrong."""
    turn = cursor.round
    body: list[RenderableType] = []
    shown = [i for i in cursor.turns[turn] if i <= cursor.position]
    if max_events is not None and len(shown) > max_events:
        earlier = len(shown) - max_events + 1
        body.append(Text(f"  … {earlier} earlier events of this turn", style="dim"))
        shown = shown[earlier:]
    for i in shown:
        mark = "▶ " if i == cursor.position else "  "
        body.append(Text(mark + cursor.account(i), style="bold" if mark == "▶ " else "dim"))
    body.append(Text(""))
    body.extend(table_rows(cursor.states[cursor.position]))
    body.extend(
        Text(f"  ✗ {v}", style="red") for v in cursor.violations_in(turn)
    )
    if cursor.at_end:
        body.append(Text(f"Result: {result_words(cursor)}.", style="bold"))
    if help_line:
        body.append(Text(""))
        body.append(Text(help_line, style="dim"))
    title = Text(
        f"{cursor.title or 'Replay'} — turn {turn}, event {cursor.position}/"
        f"{len(cursor.events) - 1} — {cursor.label}"
    )
    return Panel(Group(*body), title=title, title_align="left")


class BiteSession(Keys):
    """Get Bit!'s keys over a game of this one: ``v`` switches between the record,
    the table and each player's view (B17), at the same event."""

    UNIT = "turn"

    def __init__(self, cursor: BiteCursor) -> None:
        super().__init__()
        self.cursor = cursor
        self.cursors = [cursor] + [
            cursor.seen_by(who)
            for who in (None, TABLE, *cursor.setup.seats)
            if who != cursor.player
        ]

    @property
    def steps(self) -> Steps:
        return self.cursor

    def switch(self, step: int) -> None:
        k = self.cursors.index(self.cursor)
        nxt = self.cursors[(k + step) % len(self.cursors)]
        nxt.goto(self.cursor.position)
        self.cursor = nxt
        self.message = f"now seen {nxt.label}"

    def screen(self, help_line: str, fit: int | None) -> RenderableType:
        return render_bite_step(self.cursor, help_line, fit)


def run_bite(cursor: BiteCursor, console: Console, turn: int | None = None) -> None:
    """Step through the game with the keyboard from turn ``turn``; when there is no
    terminal to step on (``interactive.keyboard``), print what ``replay`` prints
    without ``--step`` (only turn ``turn``, when given)."""
    with keyboard(console) as keys:
        if keys is None:
            for part in render_bite(cursor, turn):
                console.print(part)
            return
        if turn is not None:
            cursor.goto_round(turn)
        drive(BiteSession(cursor), console, keys)
