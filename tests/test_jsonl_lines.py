"""A log's line parsed by the decoder's scanner called at once (``jsonl_lines._decoded``)
gives what ``json.JSONDecoder.decode`` gives: the same value, or the same error at the
same place, whatever the text."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from importers.jsonl_lines import _DECODER, _decoded

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
