"""A log's line parsed by the decoder's scanner called at once (``jsonl_lines._decoded``)
gives what ``json.JSONDecoder.decode`` gives: the same value, or the same error at the
same place, whatever the text; and a line read by orjson where it can
(``jsonl_lines._parse``) gives what the standard library's way gives."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from importers.jsonl_lines import _DECODER, _decoded, _parse, _parse_standard

_JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4),
    max_leaves=12,
)
_SPACE = st.text(alphabet=" \t\n\r", max_size=3)


def _outcome(decode: Any, text: str) -> tuple[str, Any]:
    try:
        return "value", decode(text)
    except json.JSONDecodeError as exc:
        return "error", (exc.msg, exc.pos, exc.lineno, exc.colno)
    except ValueError as exc:  # a constant refused (NaN, Infinity)
        return "refused", str(exc)


@pytest.mark.parametrize("text", [
    '{"type":"card-chosen","v":1,"game":"g","seq":2,"round":1,"who":"Ann"}',
    '  {"a": [1, 2.5, null, true]}  ',
    "\t{}\r\n",
    "",
    "   ",
    '{"a":1} {"b":2}',
    '{"a":1}x',
    '{"a":',
    "[1, 2]",
    '"text"',
    "NaN",
    '{"a": Infinity}',
    '{"a":"\\u00e9\\ud83d\\ude00"}',
    "{'a': 1}",
])
def test_a_line_is_read_as_the_decoder_reads_it(text: str) -> None:
    assert _outcome(_decoded, text) == _outcome(_DECODER.decode, text)


@given(value=_JSON, before=_SPACE, after=_SPACE, junk=st.text(max_size=3))
def test_any_json_with_spaces_or_junk_about_it_reads_the_same(
    value: Any, before: str, after: str, junk: str
) -> None:
    text = json.dumps(value)
    for line in (text, before + text + after, before + text + junk, junk + text, text[:-1]):
        assert _outcome(_decoded, line) == _outcome(_DECODER.decode, line)


# -- a line read by orjson where it can (``jsonl_lines._parse``) --------------------------

_NUMBER = st.builds(
    lambda sign, whole, fraction, exponent: f"{sign}{whole}{fraction}{exponent}",
    st.sampled_from(["", "-"]),
    st.from_regex(r"0|[1-9][0-9]{0,25}", fullmatch=True),
    st.sampled_from(["", ".0", ".5"]) | st.from_regex(r"\.[0-9]{1,25}", fullmatch=True),
    st.sampled_from(["", "e400", "E-400", "e-320"]) | st.from_regex(r"[eE][+-]?[0-9]{1,3}",
                                                                    fullmatch=True),
)


def _same(raw: bytes) -> None:
    got, standard = _parse(raw), _parse_standard(raw)
    assert got == standard
    if got[0] is not None:  # equal values of other types (1 == 1.0) are not the same object
        assert json.dumps(got[0]) == json.dumps(standard[0])


@pytest.mark.parametrize("raw", [
    b'{"type":"cards-revealed","v":1,"game":"g0","seq":2,"round":1,"cards":[["Ann",1]]}\n',
    b'{"a":111111111111111111111111111111}',  # past 64 bits: orjson would make it a float
    b'{"a":18446744073709551616}',
    b'{"a":-9223372036854775809}',
    b'{"a":1e400}',  # infinity to the standard library; orjson refuses it
    b'{"a":"\\ud800"}',  # a lone surrogate: kept by the standard library, refused by orjson
    b'{"a":NaN}',
    b'{"a":"x\x00"}',
    b'{"a":1}\x00',
    b'{"a":"\xed\xa0\x80"}',  # a surrogate written as UTF-8: not UTF-8 text
    b'{"a":"\xff"}',
    b'\xef\xbb\xbf{}',
    b'{"a":1}\x0c',
    b"[1, 2]",
    b'"text"',
    b"",
    b"   \r\n",
    b'{"a":1,"a":2}',
    b'{"a":' + b"[" * 17 + b"]" * 17 + b"}",  # nested past MAX_DEPTH
    b'{"a":"' + b"[" * 20 + b'"}',  # brackets in a text: read the standard way, the same
    b'{"a":-0, "b":-0.0, "c":5e-324, "d":1.7976931348623157e308}',
])
def test_a_line_is_read_by_orjson_as_the_standard_library_reads_it(raw: bytes) -> None:
    _same(raw)


@given(value=_JSON, before=_SPACE, after=_SPACE, junk=st.binary(max_size=3))
def test_any_line_reads_the_same_whichever_reads_it(
    value: Any, before: str, after: str, junk: bytes
) -> None:
    for text in (json.dumps(value), json.dumps(value, ensure_ascii=False)):
        raw = text.encode("utf-8", "surrogatepass")
        for line in (raw, (before + text + after).encode("utf-8", "surrogatepass"),
                     raw + junk, junk + raw, raw[:-1], b'{"v":' + raw + b"}"):
            _same(line)


@given(number=_NUMBER)
def test_every_number_reads_the_same_whichever_reads_it(number: str) -> None:
    _same(f'{{"n":{number}}}'.encode())
    _same(f'{{"n":[{number},{number}]}}'.encode())


def test_a_number_past_64_bits_stays_whole() -> None:
    data = _parse(b'{"card":1000000000000000000000000000000}')[0]
    assert data == {"card": 10**30}
    assert type(data["card"]) is int
