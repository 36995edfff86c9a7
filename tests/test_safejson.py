"""safejson.loads: json's values and errors, read by orjson where it reads them alike."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ricochet import safejson

JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.integers(-2**65, 2**65) | st.floats(allow_nan=False, allow_infinity=False) | st.text(),
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=5), inner, max_size=5),
    max_leaves=30)


def same(a: Any, b: Any) -> bool:
    """Equal and of the same types all the way down (1 == 1.0 == True in Python)."""
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return list(a) == list(b) and all(same(a[k], b[k]) for k in a)
    if isinstance(a, list):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b, strict=True))
    return bool(a == b)


@settings(max_examples=300, deadline=None)
@given(JSON_VALUES, st.booleans())
def test_the_values_are_json_s(value: Any, ascii_only: bool) -> None:
    text = json.dumps(value, ensure_ascii=ascii_only)
    assert same(safejson.loads(text), json.loads(text))
    assert same(safejson.loads(text.encode()), json.loads(text))


@pytest.mark.parametrize("text", [
    "123456789012345678901234567890",    # past 64 bits: orjson would read a float
    "18446744073709551616",              # 2**64
    "-9223372036854775809",              # -2**63 - 1: nineteen digits
    "[1, -9999999999999999999]",
    '{"moves": 1e400}',                  # json reads an infinity, orjson refuses: json's answer
    '"\\ud800"',                         # a lone surrogate: json reads it
    '{"a": 1, "a": 2}',                  # the last wins, as in json
])
def test_what_orjson_reads_otherwise_is_read_as_json_reads_it(text: str) -> None:
    assert same(safejson.loads(text), json.loads(text))


@pytest.mark.parametrize("text, message", [
    ('{"x": 1} garbage', "Extra data"),
    ("[1, 2", "Expecting ',' delimiter"),
    ('{"moves": NaN}', "NaN is not JSON"),
    ("[" * 40 + "]" * 40, "nested too deeply"),
])
def test_errors_are_json_s_in_its_words(text: str, message: str) -> None:
    with pytest.raises(json.JSONDecodeError, match=message):
        safejson.loads(text)
