"""Files as people save them (issue 14): another encoding (Notepad's, Excel's
cp1252), a byte-order mark, a file with no known ending, an empty file or folder,
a folder holding a spreadsheet export, and a Date the reports cannot read."""

from __future__ import annotations

import json
import tempfile
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from cli import app
from getbit_events.errors import InputError
from importers import iter_file, read_file
from importers.reading import DETECT_BYTES, choose_encoding, codec

ROOT = Path(__file__).resolve().parent.parent
FRIDAY = (ROOT / "fixtures" / "games" / "friday-club.gbn").read_text(encoding="utf-8")
# the Friday club's game, with names and an Event only a Western encoding holds
CAFE = FRIDAY.replace("Friday club", "Café Zoë").replace("Anne", "Anaïs")
NOTE = "not UTF-8 text; read as cp1252 (detected; --encoding chooses another)"


def _run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(app, list(args))
    assert "Traceback" not in result.output + result.stderr
    return result.exit_code, result.stdout, result.stderr


@pytest.fixture
def cp1252(tmp_path: Path) -> Path:
    path = tmp_path / "club.gbn"
    path.write_bytes(CAFE.encode("cp1252"))
    return path


# -- another encoding ------------------------------------------------------------------


def test_a_cp1252_record_is_read_and_the_encoding_said(cp1252: Path) -> None:
    code, out, err = _run("validate", str(cp1252))
    assert code == 0
    assert err.splitlines() == [f"warning: {cp1252}: {NOTE}"]  # one line per file
    assert "ok (unfinished after 3 rounds)" in out
    assert "not UTF-8" not in out


def test_the_names_are_read_as_written(cp1252: Path) -> None:
    (game,) = read_file(cp1252, encoding=None)
    assert {t.name: t.value for t in game.tags}["Event"] == "Café Zoë"
    assert "Anaïs" in {t.name: t.value for t in game.tags}["Line"]
    assert game.text == cp1252.read_bytes()  # kept as the file's bytes: as recorded


@pytest.mark.parametrize(
    ("encoding", "event", "name"),
    [
        ("cp1252", "Grüße aus Köln", "Jürgen"),
        ("cp1252", "Soirée d’été", "O’Brien"),
        ("cp1250", "Łódź klub", "Żaneta"),
        ("cp1251", "Клуб Пятница", "Анна"),
    ],
)
def test_the_usual_windows_code_pages_are_told_apart(
    tmp_path: Path, encoding: str, event: str, name: str
) -> None:
    path = tmp_path / "club.gbn"
    path.write_bytes(
        FRIDAY.replace("Friday club", event).replace("Anne", name).encode(encoding)
    )
    said: list[str] = []
    (game,) = read_file(path, encoding=None, say=said.append)
    assert said == [f"{path}: {NOTE.replace('cp1252', encoding)}"]
    tags = {t.name: t.value for t in game.tags}
    assert (tags["Event"], tags["Line"].split(", ")[1]) == (event, name)


def test_the_library_reads_utf8_unless_asked_to_detect(cp1252: Path) -> None:
    (game,) = read_file(cp1252)
    assert "not UTF-8 text (byte 0xe9)" in str(game.syntax_errors[0])


def test_validate_json_names_the_encoding_as_a_warning(cp1252: Path) -> None:
    code, out, _ = _run("validate", "--json", str(cp1252))
    assert code == 0
    assert json.loads(out)["warnings"] == [f"{cp1252}: {NOTE}"]


def test_validate_json_of_a_utf8_record_is_as_before(tmp_path: Path) -> None:
    path = tmp_path / "club.gbn"
    path.write_text(CAFE, encoding="utf-8")
    code, out, err = _run("validate", "--json", str(path))
    assert (code, err) == (0, "")
    assert json.loads(out)["warnings"] == []


def test_an_encoding_given_is_used_and_not_said(cp1252: Path) -> None:
    code, out, err = _run("validate", "--encoding", "latin-1", str(cp1252))
    assert (code, err) == (0, "")
    assert "ok" in out


@pytest.mark.parametrize(
    ("name", "said"),
    [
        ("nope", "getbit validate: --encoding: no encoding called 'nope'"),
        ("utf-16", "getbit validate: --encoding utf-16: records are read line by line"),
    ],
)
def test_an_encoding_that_cannot_be_used_is_said_once(cp1252: Path, name: str, said: str) -> None:
    code, out, err = _run("validate", "--encoding", name, str(cp1252), str(cp1252))
    assert code == 2
    assert out == ""
    assert len(err.splitlines()) == 1
    assert err.startswith(said)


def test_a_utf8_byte_order_mark_is_accepted(tmp_path: Path) -> None:
    path = tmp_path / "bom.gbn"
    path.write_bytes(b"\xef\xbb\xbf" + CAFE.encode("utf-8"))
    code, _, err = _run("validate", str(path))
    assert (code, err) == (0, "")


@pytest.mark.parametrize(
    "data",
    [
        b'[Line "A, B, C, D"]\n1. A 1, B \xff2\n',  # a stray byte, next to no letter
        '[Line "Zoë, B, C, D"]\n'.encode() + b"1. Zo\xeb 1, B 2\n",  # UTF-8 elsewhere
        b"[Line \"A, B\0, C\"]\n1. A\xe9 1\n",  # a NUL: not text
    ],
)
def test_damage_in_a_utf8_file_stays_an_error_of_its_game(tmp_path: Path, data: bytes) -> None:
    path = tmp_path / "bad.gbn"
    path.write_bytes(data)
    assert choose_encoding(path, None).utf8
    code, out, err = _run("validate", str(path))
    assert code == 1
    assert "not UTF-8" not in err  # no encoding was detected
    assert "[syntax]" in out


def test_detection_reads_a_bounded_start(tmp_path: Path) -> None:
    # UTF-8 over the first DETECT_BYTES: read as UTF-8, the bad byte after is an error
    games = FRIDAY * (DETECT_BYTES // len(FRIDAY) + 2)
    path = tmp_path / "long.gbn"
    path.write_bytes(games.encode() + CAFE.encode("cp1252"))
    assert choose_encoding(path, None).utf8
    last = list(iter_file(path, encoding=None))[-1]
    assert "not UTF-8 text (byte 0xe9)" in str(last.syntax_errors[0])


@pytest.mark.parametrize("command", ["import", "stats", "replay", "report"])
def test_every_command_that_reads_files_detects(
    cp1252: Path, tmp_path: Path, command: str
) -> None:
    extra = ["--db", str(tmp_path / "s.db")] if command == "import" else []
    code, out, err = _run(command, str(cp1252), *extra)
    assert code == 0, err
    assert f"warning: {cp1252}: {NOTE}" in err.splitlines()
    if command in ("replay", "report"):
        assert "Anaïs" in out


def test_import_keeps_the_names_and_the_bytes(cp1252: Path, tmp_path: Path) -> None:
    db = str(tmp_path / "s.db")
    _run("import", str(cp1252), "--db", db)
    _, out, _ = _run("games", "--db", db, "--json")
    game = json.loads(out)
    assert game["tags"]["Event"] == "Café Zoë"
    assert "Anaïs" in game["swimmers"]
    result = CliRunner().invoke(app, ["show", game["id"], "--db", db, "--source"])
    assert result.stdout_bytes == cp1252.read_bytes()


@pytest.mark.parametrize("command", ["import", "stats", "replay", "report"])
def test_every_command_that_reads_files_takes_encoding(
    cp1252: Path, tmp_path: Path, command: str
) -> None:
    extra = ["--db", str(tmp_path / "s.db")] if command == "import" else []
    code, _, err = _run(command, "--encoding", "cp1252", str(cp1252), *extra)
    assert code == 0, err
    assert "not UTF-8" not in err


# -- a file's format, and what a folder gives ---------------------------------------------


def test_validate_takes_format_for_a_file_with_another_ending(tmp_path: Path) -> None:
    path = tmp_path / "club.txt"
    path.write_text(FRIDAY, encoding="utf-8")
    code, _, err = _run("validate", str(path))
    assert code == 2
    assert "unknown file type '.txt'" in err
    assert "--format gbn|jsonl|csv" in err
    code, out, err = _run("validate", "--format", "gbn", str(path))
    assert (code, err) == (0, "")
    assert "club.txt game 1 (line 2): ok" in out


def test_validate_refuses_a_format_it_does_not_know(tmp_path: Path) -> None:
    code, _, err = _run("validate", "--format", "pgn", str(tmp_path))
    assert code == 2
    assert err.strip() == (
        "getbit validate: Invalid value for '--format': 'pgn' is not one of 'auto', 'gbn', "
        "'jsonl', 'csv'. (see 'getbit validate -h')"
    )


def test_a_folder_gives_gbn_and_jsonl_and_csv_only_with_format_csv(tmp_path: Path) -> None:
    (tmp_path / "club.gbn").write_text(FRIDAY, encoding="utf-8")
    code, _, _ = _run("stats", str(tmp_path / "club.gbn"), "--csv", str(tmp_path / "stats.csv"))
    assert code == 0
    code, out, err = _run("validate", str(tmp_path))
    assert (code, err) == (0, "")  # the stats export is not read as a score sheet
    assert out.splitlines()[-1] == "1 game: 1 valid (1 unfinished), 0 with violations"
    code, out, err = _run("validate", "--format", "csv", str(tmp_path))
    assert "stats.csv" in out + err
    assert "club.gbn" not in out


def test_an_empty_folder_is_a_warning_and_exit_2(tmp_path: Path) -> None:
    (tmp_path / "notes.txt").write_text("not a record\n", encoding="utf-8")
    code, out, err = _run("validate", str(tmp_path))
    assert code == 2
    ends = ".gbn, .jsonl, .ndjson, .bmn"
    assert err.strip() == f"warning: no games in {tmp_path} (no record files: {ends})"
    assert out.splitlines()[-1] == "0 games: 0 valid (0 unfinished), 0 with violations"


def test_a_folder_of_empty_records_is_said_without_the_hint_of_no_record_files(
    tmp_path: Path,
) -> None:
    # validate said "(no record files: ...)" of a folder whose record files held no game
    (tmp_path / "empty.gbn").write_bytes(b"")
    for command in (["validate"], ["import", "--db", str(tmp_path / "s.db")]):
        code, _, err = _run(*command, str(tmp_path))
        assert (code, err.strip()) == (2, f"warning: no games in {tmp_path}"), command


def test_an_empty_file_among_others_is_said_and_the_others_read(tmp_path: Path) -> None:
    (tmp_path / "empty.gbn").write_bytes(b"")
    (tmp_path / "club.gbn").write_text(FRIDAY, encoding="utf-8")
    code, out, err = _run("validate", str(tmp_path / "empty.gbn"), str(tmp_path / "club.gbn"))
    assert code == 2
    assert err.strip() == f"warning: no games in {tmp_path / 'empty.gbn'}"
    assert "club.gbn game 1 (line 2): ok" in out


# -- a Date the reports cannot read --------------------------------------------------------

DATE_WARNING = (
    ":3:1: Date '26/11/2026' is not a date the reports can read (write YYYY-MM-DD, "
    "like 2026-11-26); the game is left out of streaks and of --since/--until"
)


@pytest.fixture
def bad_date(tmp_path: Path) -> Path:
    path = tmp_path / "dated.gbn"
    path.write_text(FRIDAY.replace("2026-11-20", "26/11/2026"), encoding="utf-8")
    return path


def test_validate_warns_of_a_date_the_reports_cannot_read(bad_date: Path) -> None:
    code, out, _ = _run("validate", str(bad_date))
    assert code == 0  # a warning, not a violation
    assert f"  warning: {bad_date}{DATE_WARNING}" in out.splitlines()
    code, out, _ = _run("validate", "--json", str(bad_date))
    assert json.loads(out)["warnings"] == [f"{bad_date}{DATE_WARNING}"]
    assert json.loads(out)["valid"] is True


def test_import_warns_of_a_date_the_reports_cannot_read(bad_date: Path, tmp_path: Path) -> None:
    code, out, err = _run("import", str(bad_date), "--db", str(tmp_path / "s.db"))
    assert code == 0
    assert f"warning: {bad_date}{DATE_WARNING}" in err.splitlines()
    assert out.startswith("1 stored")


@pytest.mark.parametrize("date", ["2026-11-20", "2026.11.20", "2026/11/20"])
def test_a_readable_date_gives_no_warning(tmp_path: Path, date: str) -> None:
    path = tmp_path / "dated.gbn"
    path.write_text(FRIDAY.replace("2026-11-20", date), encoding="utf-8")
    code, out, err = _run("validate", "--json", str(path))
    assert (code, err) == (0, "")
    assert json.loads(out)["warnings"] == []


@pytest.mark.parametrize("command", ["import", "stats", "replay", "report"])
def test_a_misspelt_encoding_is_said_once_by_every_command(
    cp1252: Path, tmp_path: Path, command: str
) -> None:
    extra = ["--db", str(tmp_path / "s.db")] if command == "import" else []
    code, _, err = _run(command, "--encoding", "cp-1252x", str(cp1252), *extra)
    assert code == 2
    assert err.splitlines() == [
        f"getbit {command}: --encoding: no encoding called 'cp-1252x' (try cp1252, latin-1)"
    ]
    assert not (tmp_path / "s.db").exists()


def test_an_excel_sheet_in_cp1252_and_a_log_in_latin_1(tmp_path: Path) -> None:
    sheet = tmp_path / "sheet.csv"
    sheet.write_bytes(
        "# Event: Soirée\r\nround,José,Anaïs,Beth,Ted\r\n1,4,1,4,5\r\n".encode("cp1252")
    )
    code, out, err = _run("validate", str(sheet))
    assert code == 0, out
    assert err.splitlines() == [f"warning: {sheet}: {NOTE}"]
    log = tmp_path / "log.jsonl"
    text = (ROOT / "fixtures" / "games" / "friday-club.gbn").read_text(encoding="utf-8")
    (tmp_path / "f.gbn").write_text(text.replace("Anne", "Anaïs"), encoding="utf-8")
    _run("import", str(tmp_path / "f.gbn"), "--db", str(tmp_path / "s.db"))
    _, ids, _ = _run("games", "--db", str(tmp_path / "s.db"), "--json")
    game_id = json.loads(ids)["id"]
    _, exported, _ = _run("export", game_id, "--db", str(tmp_path / "s.db"), "--format", "jsonl")
    log.write_bytes(exported.encode("latin-1"))
    code, out, err = _run("validate", "--encoding", "latin-1", str(log))
    assert (code, err) == (0, "")
    code, out, err = _run("validate", "--json", str(log))
    assert code == 0
    assert "Anaïs" in json.dumps(json.loads(out.splitlines()[0]), ensure_ascii=False)
    assert "latin" in err or "cp1252" in err  # detected, and said


@pytest.mark.parametrize("name", ["idna", "punycode", "undefined", "unicode_escape", "rot13"])
def test_a_codec_that_is_no_file_encoding_is_refused(cp1252: Path, name: str) -> None:
    code, out, err = _run("validate", "--encoding", name, str(cp1252))
    assert (code, out) == (2, "")
    assert err.startswith(f"getbit validate: --encoding {name}: records are read line by line")


@given(st.text(max_size=30))
def test_any_encoding_name_is_a_codec_or_an_input_error(name: str) -> None:
    try:
        found = codec(name)
    except InputError:
        return
    assert bytes(range(0x20, 0x7F)).decode(found) == bytes(range(0x20, 0x7F)).decode("ascii")


@settings(max_examples=150, deadline=None)
@given(
    st.lists(
        st.one_of(
            st.binary(max_size=40),
            st.sampled_from([b"\n", b"Caf\xe9 ", b"\xd0\xf0", b"\xe2\x80", b"[Line \"", b"1. "]),
        ),
        max_size=30,
    ),
    st.sampled_from(["x.gbn", "x.jsonl", "x.csv"]),
)
def test_detection_and_reading_never_crash_on_any_bytes(parts: list[bytes], name: str) -> None:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / name
        path.write_bytes(b"".join(parts))
        chosen = choose_encoding(path, None)
        games = list(iter_file(path, encoding=None))
        if chosen.utf8:  # read as UTF-8: as the library reads it by default
            assert [g.syntax_errors for g in games] == [
                g.syntax_errors for g in iter_file(path)
            ]


def test_stats_says_encoding_goes_with_files(tmp_path: Path) -> None:
    code, _, err = _run("stats", "--encoding", "cp1252", "--db", str(tmp_path / "none.db"))
    assert code == 2
    assert err.strip() == "getbit stats: --encoding goes with FILES (a store keeps text, not bytes)"


# -- a record of Come on! Bite me! (BMN, or a log of its events) -----------------------

WORKED = (ROOT / "fixtures" / "biteme" / "worked.bmn").read_text(encoding="utf-8")
# the worked game of docs/biteme.md with names only a Western encoding holds
BITE_CAFE = WORKED.replace("Friday club", "Café Zoë").replace("Ann", "Anaïs")


@pytest.fixture
def latin1_bmn(tmp_path: Path) -> Path:
    path = tmp_path / "club.bmn"
    path.write_bytes(BITE_CAFE.encode("latin-1"))
    return path


def _finished_latin1(tmp_path: Path, suffix: str) -> Path:
    """A finished simulated game with Ann written Anaïs, in Latin-1 (BMN or a log)."""
    from biteme.simulate import simulate_bite
    from importers.bite_jsonl import write_bite_jsonl
    from importers.bmn_write import game_bmn

    events = simulate_bite(4, 3)
    text = game_bmn(events) if suffix == ".bmn" else "".join(write_bite_jsonl([("g", events)]))
    path = tmp_path / f"finished{suffix}"
    path.write_bytes(text.replace("Ann", "Anaïs").encode("latin-1"))
    return path


def test_a_latin1_bmn_record_is_read_in_the_encoding_given(latin1_bmn: Path) -> None:
    from importers.bite_jsonl import iter_bite_file

    (record,) = iter_bite_file(latin1_bmn, "latin-1")
    tags = {t.name: t.value for t in record.tags}
    assert (tags["Event"], tags["Seats"]) == ("Café Zoë", "Anaïs, Bob, Cid, Dee")
    assert record.turns[0].who == "Anaïs"
    (as_utf8,) = iter_bite_file(latin1_bmn)  # the library reads UTF-8 unless told
    assert as_utf8.syntax_errors[0].message == "not UTF-8 text (byte 0xe9)"
    code, out, err = _run("validate", "--encoding", "latin-1", str(latin1_bmn))
    assert (code, err) == (0, "")
    assert "ok (unfinished after 8 turns)" in out


def test_a_latin1_bmn_record_is_detected_and_said_by_every_command(latin1_bmn: Path) -> None:
    for command in ("validate", "replay"):
        code, out, err = _run(command, str(latin1_bmn))
        assert code == 0, err
        assert err.splitlines() == [f"warning: {latin1_bmn}: {NOTE}"]
        assert "not UTF-8" not in out
    code, out, err = _run("replay", "--encoding", "latin-1", str(latin1_bmn), "--as", "Anaïs")
    assert (code, err) == (0, "")
    assert "as Anaïs saw it" in out


@pytest.mark.parametrize("suffix", [".bmn", ".jsonl"])
def test_bite_me_stats_read_files_in_the_encoding_given(tmp_path: Path, suffix: str) -> None:
    path = _finished_latin1(tmp_path, suffix)
    code, out, err = _run("stats", "--json", "--encoding", "latin-1", str(path))
    assert (code, err) == (0, "")
    report = json.loads(out)
    assert report["games_included"] == 1
    assert sorted(p["name"] for p in report["players"]) == ["Anaïs", "Bob", "Cid", "Dee"]
    code, _, err = _run("validate", "--encoding", "latin-1", str(path))
    assert (code, err) == (0, "")
    code, _, err = _run("stats", "--encoding", "cp-1252x", str(path))
    assert code == 2
    assert err.splitlines() == [
        "getbit stats: --encoding: no encoding called 'cp-1252x' (try cp1252, latin-1)"
    ]
