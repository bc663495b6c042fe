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
