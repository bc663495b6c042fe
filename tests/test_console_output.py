"""``console.output``'s words shared by the commands."""

from __future__ import annotations

from pathlib import Path

import pytest

from console import winners_words


def test_who_won_agrees_with_its_verb() -> None:
    assert winners_words(["Vic"]) == "Vic wins"
    assert winners_words(["Vic", "Wes"]) == "Vic and Wes win"  # a shared win (B16)
    assert winners_words(("Uma", "Vic", "Wes")) == "Uma, Vic and Wes win"


def test_a_line_and_column_stay_numbers_never_emoji(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """rich reads ``:100:`` as an emoji code: a violation on line 100 was printed
    ``club.gbn💯3``. Every command's console prints text as written."""
    from typer.testing import CliRunner

    from cli import app
    from console import ERR, OUT

    OUT.print("club.gbn:100:3: x :smile:")
    ERR.print("club.gbn:100:3")
    said = capsys.readouterr()
    assert (said.out, said.err) == ("club.gbn:100:3: x :smile:\n", "club.gbn:100:3\n")
    record = tmp_path / "club.gbn"
    record.write_text('[Line "Ann, Bob, Cid, Dee"]\n' + "\n" * 98 + "1. Ann 1, Bob 1, x\n",
                      encoding="utf-8")
    result = CliRunner().invoke(app, ["validate", str(record)])
    assert f"{record}:100:" in result.stdout


_ODD_TEXTS = [
    "club.gbn game 1 (line 1): ok (Ann wins)",
    "[bold]Ann[/bold] \\[x] \\ :smile: :100: 50% {x}",
    "Ann\x1b[31m red\x07 \x08 \r \x7f \x85 \u2028 \u202e evil",  # escapes, not sent
    "赤 Ünïcödé 🦈 wide",
    "trailing spaces   ",
    "=cmd() <script>alert(1)</script> ../x",
    "",
]


@pytest.mark.parametrize("text", _ODD_TEXTS)
def test_a_line_written_at_once_is_what_rich_writes(
    text: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``say_line`` writes a line straight to the file where rich would style nothing, and
    it is the same text, byte for byte, as rich prints for its markup."""
    import io

    from rich.markup import escape

    import console.output as output

    printed: list[str] = []

    class Watched(output.SafeConsole):
        def print(self, *objects: object, **kwargs: object) -> None:
            printed.append("rich")
            super().print(*objects, **kwargs)  # type: ignore[arg-type]

    straight, by_rich = io.StringIO(), io.StringIO()
    monkeypatch.setattr(output, "OUT", Watched(file=straight, highlight=False, soft_wrap=True,
                                               color_system=None))
    output.say_line("at ", (text, "green"), " :100:")
    assert printed == []  # written at once, not through rich
    output.SafeConsole(file=by_rich, highlight=False, soft_wrap=True, color_system=None).print(
        f"at [green]{escape(text)}[/green] :100:")
    assert straight.getvalue() == by_rich.getvalue()


def test_a_line_goes_through_rich_where_it_styles_it(monkeypatch: pytest.MonkeyPatch) -> None:
    import io

    import console.output as output

    shown_ = io.StringIO()
    monkeypatch.setattr(output, "OUT", output.SafeConsole(
        file=shown_, highlight=False, soft_wrap=True, force_terminal=True,
        color_system="standard"))
    output.say_line("x.gbn: ", ("ok", "green"), " [b]")
    assert shown_.getvalue() == "x.gbn: \x1b[32mok\x1b[0m [b]\n"


@pytest.mark.parametrize("text", ["Ann\\", "q\\[", "\\[x]", "a\\b"])
def test_a_backslash_written_at_once_is_shown_as_given(
    text: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Where rich's markup would double a trailing backslash or take one before a ``[``
    for an escape, the line written at once shows the text as it is."""
    import io

    import console.output as output

    straight = io.StringIO()
    monkeypatch.setattr(output, "OUT", output.SafeConsole(
        file=straight, highlight=False, soft_wrap=True, color_system=None))
    output.say_line(f"{text}: ", ("ok", "green"), f" ({text})")
    assert straight.getvalue() == f"{text}: ok ({text})\n"
