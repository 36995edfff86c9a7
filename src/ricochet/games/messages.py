"""Checks of the fields of a game's protocol messages.

The server checks the shell's messages (``hello``, ``chat`` …) and hands a
game's own messages (``bid``, ``move`` …) to :meth:`Game.parse_action` as
parsed JSON.  These helpers check one field each and raise
:class:`~ricochet.games.interface.GameError` with code ``bad_message`` and a
message that names the field.

>>> whole(7, "moves")
7
>>> try:
...     cell([1], "stop")
... except GameError as e:
...     print(e.code, e)
bad_message stop must be a cell [x, y], got a list
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..geometry import Cell
from .interface import GameError
from .options import kind_of

__all__ = ["cell", "field", "text_choice", "whole"]


def _bad(message: str) -> GameError:
    return GameError(message, "bad_message")


def field(msg: Mapping[str, Any], name: str, what: str) -> Any:
    """The field ``name`` of ``msg``; missing: an error saying what it should be."""
    if name not in msg:
        raise _bad(f"{msg.get('type')} needs \"{name}\": {what}")
    return msg[name]


def whole(value: object, name: str, lo: int | None = None, hi: int | None = None) -> int:
    """A whole number (``lo`` to ``hi`` when given)."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise _bad(f"{name} must be a whole number, got {kind_of(value)}")
    if (lo is not None and value < lo) or (hi is not None and value > hi):
        rng = f"from {lo} to {hi}" if hi is not None else f"at least {lo}"
        raise _bad(f"{name} must be {rng}, got {value}")
    return value


def cell(value: object, name: str, size: int = 32) -> Cell:
    """A cell ``[x, y]`` with both coordinates from 0 to ``size - 1``."""
    if not (isinstance(value, list) and len(value) == 2):
        raise _bad(f"{name} must be a cell [x, y], got {kind_of(value)}")
    return (whole(value[0], f"{name} x", 0, size - 1), whole(value[1], f"{name} y", 0, size - 1))


def text_choice(value: object, name: str, choices: tuple[str, ...]) -> str:
    """One of ``choices``."""
    if value not in choices:
        raise _bad(f"{name} must be one of {', '.join(choices)}, got {value!r}")
    return value  # type: ignore[return-value]
