"""Checks of the fields of a game's protocol messages.

The server checks the shell's messages (``hello``, ``chat`` …) and hands a
game's own messages (``bid``, ``move`` …) to :meth:`Game.parse_action` as
parsed JSON.  These helpers check one field each and raise
:class:`~ricochet.games.interface.GameError` with code ``bad_message`` and a
message that names the field.

>>> whole(7, "moves")
7
>>> for bad in (7.0, True, "7"):
...     try:
...         whole(bad, "moves", 1, 99)
...     except GameError as e:
...         print(e)
moves must be a whole number from 1 to 99 (a JSON integer), got 7.0
moves must be a whole number from 1 to 99 (a JSON integer), got true
moves must be a whole number from 1 to 99 (a JSON integer), got "7"
>>> try:
...     cell([1], "stop")
... except GameError as e:
...     print(e.code, e)
bad_message stop must be a cell [x, y], got a list
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from ..geometry import Cell
from .interface import GameError
from .options import kind_of

__all__ = ["cell", "field", "shown", "text_choice", "whole"]


def _bad(message: str) -> GameError:
    return GameError(message, "bad_message")


def field(msg: Mapping[str, Any], name: str, what: str) -> Any:
    """The field ``name`` of ``msg``; missing: an error saying what it should be."""
    if name not in msg:
        raise _bad(f"{msg.get('type')} needs \"{name}\": {what}")
    return msg[name]


def shown(value: object) -> str:
    """A value received, as a message quotes it: a scalar as its JSON text (``7.0``, ``true``,
    ``"7"``, at most 40 characters), a list or an object by its kind."""
    if value is None or isinstance(value, bool | int | float | str):
        text = json.dumps(value, ensure_ascii=False)
        return text if len(text) <= 40 else text[:39] + "…"
    return kind_of(value)


def whole(value: object, name: str, lo: int | None = None, hi: int | None = None) -> int:
    """A whole number (``lo`` to ``hi`` when given): a JSON integer, never ``1.0`` nor
    ``true`` (Python reads both as numbers; a count, a size or an index is neither).  Every
    count, size and index of every game's messages is checked here."""
    span = (f"from {lo} to {hi}" if lo is not None and hi is not None else f"at least {lo}" if lo is not None
            else f"at most {hi}" if hi is not None else "")
    if isinstance(value, bool) or not isinstance(value, int):
        what = f"a whole number {span} (a JSON integer)" if lo is not None and hi is not None else \
            f"a whole number ({span}, a JSON integer)" if span else "a whole number (a JSON integer)"
        raise _bad(f"{name} must be {what}, got {shown(value)}")
    if (lo is not None and value < lo) or (hi is not None and value > hi):
        raise _bad(f"{name} must be {span}, got {value}")
    return value


def cell(value: object, name: str, size: int = 32) -> Cell:
    """A cell ``[x, y]`` with both coordinates from 0 to ``size - 1``."""
    if not (isinstance(value, list) and len(value) == 2):
        raise _bad(f"{name} must be a cell [x, y], got {kind_of(value)}")
    return (whole(value[0], f"{name} x", 0, size - 1), whole(value[1], f"{name} y", 0, size - 1))


def text_choice(value: object, name: str, choices: tuple[str, ...]) -> str:
    """One of ``choices``."""
    if value not in choices:
        raise _bad(f"{name} must be one of {', '.join(choices)}, got {shown(value)}")
    return value  # type: ignore[return-value]
