"""JSON from untrusted sources, with a limit on nesting.

:func:`json.loads` recurses once per ``[`` or ``{``: a text of a few thousand
brackets raises :class:`RecursionError` (not a :class:`ValueError`), which
callers that expect bad input to be a :class:`json.JSONDecodeError` treat as a
bug.  :func:`loads` refuses such a text first, as a
:class:`json.JSONDecodeError` with a clear message and the position of the
first bracket too deep, so every reader of JSON (the server's socket and HTTP
bodies, the command line's files) reports it like any other malformed JSON.

>>> loads('{"a": [1, 2]}')
{'a': [1, 2]}
>>> try:
...     loads("[" * 2000)
... except json.JSONDecodeError as e:
...     print(e.msg, e.pos)
nested too deeply (more than 32 levels of [ ] and { }) 32

``NaN`` and ``Infinity``, which Python's :mod:`json` reads but JSON has not, are refused too:

>>> try:
...     loads('{"moves": NaN}')
... except json.JSONDecodeError as e:
...     print(e.msg, e.pos)
NaN is not JSON (a number must be finite) 10
"""

from __future__ import annotations

import json
import re
from typing import Any

import orjson

__all__ = ["MAX_DEPTH", "check_depth", "loads"]

MAX_DEPTH = 32
"""Levels of ``[ ]`` / ``{ }`` allowed; our formats use at most five."""

# A string literal (its brackets do not count; an unterminated one runs to the end) or a bracket.
_TOKENS = re.compile(r'"(?:[^"\\]|\\.)*"?|[\[\]{}]', re.DOTALL)


def check_depth(text: str, max_depth: int = MAX_DEPTH) -> None:
    """Raise :class:`json.JSONDecodeError` when ``text`` nests deeper than ``max_depth``."""
    if text.count("[") + text.count("{") <= max_depth:
        return  # the usual case: too few brackets to nest that deep, no scan
    depth = 0
    for m in _TOKENS.finditer(text):
        ch = m.group()
        if ch in "[{":
            depth += 1
            if depth > max_depth:
                raise json.JSONDecodeError(f"nested too deeply (more than {max_depth} levels of [ ] and {{ }})",
                                           text, m.start())
        elif ch in "]}":
            depth = max(0, depth - 1)


def loads(text: str | bytes, *, max_depth: int = MAX_DEPTH) -> Any:
    """:func:`json.loads` for untrusted text: too deep a nesting is a
    :class:`json.JSONDecodeError` like any other malformed JSON (bytes must be UTF-8:
    :class:`UnicodeDecodeError` otherwise).  The same values and errors as :mod:`json`;
    :mod:`orjson` reads what it reads alike (all but integers outside 64 bits), several times faster."""
    if isinstance(text, bytes | bytearray):
        text = bytes(text).decode("utf-8")
    check_depth(text, max_depth)
    if _LONG_DIGITS not in text.encode("utf-8", "surrogatepass").translate(_DIGITS_AS_NINES):
        try:
            return orjson.loads(text)  # 3-5 times json's speed (a puzzle line, a socket message)
        except orjson.JSONDecodeError:
            pass  # json's decoder below reads it or says why not, in its own words, as before
    try:
        return _DECODER.decode(text)
    except json.JSONDecodeError:
        raise
    except ValueError as e:
        if len(e.args) != 2 or e.args[0] is not _NOT_JSON:
            raise
        name = e.args[1]
        raise json.JSONDecodeError(f"{name} is not JSON (a number must be finite)", text,
                                   max(0, text.find(name))) from None


_NOT_JSON = object()
# Nineteen digits in a row: perhaps an integer outside 64 bits (below -2**63 takes 19, past 2**64
# 20), which orjson reads as a float where json keeps it exact (a count out of range is refused as
# too large, not as "not an integer").  Found at C speed, every digit made a 9 (a regular
# expression takes several times longer than the parse).
_DIGITS_AS_NINES = bytes.maketrans(b"012345678", b"999999999")
_LONG_DIGITS = b"9" * 19


def _no_constant(name: str) -> Any:
    raise ValueError(_NOT_JSON, name)  # ``NaN``, ``Infinity`` or ``-Infinity``, which json would read


_DECODER = json.JSONDecoder(parse_constant=_no_constant)
