"""Cells and directions on a rectangular grid (x to the east, y to the south).

A cell is a plain ``(x, y)`` tuple.  Text forms accepted by :func:`parse_cell`:
``"3,4"`` (x,y) and, on boards at most 26 wide, a chess-like name ``"d5"``
where the letter is the column (a = x 0) and the number the row counted from
the top (1 = y 0).

>>> parse_cell("3,4")
(3, 4)
>>> parse_cell("d5")
(3, 4)
>>> Direction.parse("←")
Direction.W
"""

from __future__ import annotations

import enum
import re

Cell = tuple[int, int]

MIN_SIZE = 3
MAX_SIZE = 32


class Direction(enum.IntEnum):
    """A compass direction; its value is its bit in a cell's wall mask."""

    N = 1
    E = 2
    S = 4
    W = 8

    def __repr__(self) -> str:
        # An expression that evaluates back to the member (as python-chess's values do).
        return f"Direction.{self.name}"

    @property
    def dx(self) -> int:
        return _DELTA[self][0]

    @property
    def dy(self) -> int:
        return _DELTA[self][1]

    @property
    def opposite(self) -> Direction:
        return _OPPOSITE[self]

    @property
    def index(self) -> int:
        """0..3 in the order N, E, S, W (clockwise)."""
        return _ORDER.index(self)

    @property
    def arrow(self) -> str:
        return _ARROWS[self]

    def step(self, cell: Cell) -> Cell:
        """The neighbouring cell in this direction (may be off the board)."""
        return (cell[0] + self.dx, cell[1] + self.dy)

    def perpendicular(self, other: Direction) -> bool:
        """True when ``other`` is a 90° turn from this direction."""
        return (self.index - other.index) % 2 == 1

    @classmethod
    def parse(cls, text: str) -> Direction:
        """Parse ``N E S W`` (any case), ``north``…, or an arrow ``↑ → ↓ ←``."""
        key = text.strip().upper()
        if key in _BY_TEXT:
            return _BY_TEXT[key]
        raise ValueError(f"unknown direction {text!r}: use N, E, S, W or an arrow ↑ → ↓ ←")


_ORDER = (Direction.N, Direction.E, Direction.S, Direction.W)
DIRECTIONS: tuple[Direction, ...] = _ORDER
_DELTA = {Direction.N: (0, -1), Direction.E: (1, 0), Direction.S: (0, 1), Direction.W: (-1, 0)}
_OPPOSITE = {Direction.N: Direction.S, Direction.S: Direction.N, Direction.E: Direction.W, Direction.W: Direction.E}
_ARROWS = {Direction.N: "↑", Direction.E: "→", Direction.S: "↓", Direction.W: "←"}
_BY_TEXT: dict[str, Direction] = {}
for _d in _ORDER:
    _BY_TEXT[_d.name] = _d
    _BY_TEXT[_ARROWS[_d]] = _d
_BY_TEXT.update({"NORTH": Direction.N, "EAST": Direction.E, "SOUTH": Direction.S, "WEST": Direction.W,
                 "UP": Direction.N, "RIGHT": Direction.E, "DOWN": Direction.S, "LEFT": Direction.W})

_XY = re.compile(r"^\s*\(?\s*(\d+)\s*[, ]\s*(\d+)\s*\)?\s*$")
_NAME = re.compile(r"^\s*([a-zA-Z])(\d+)\s*$")


def parse_cell(text: str) -> Cell:
    """Parse ``"x,y"`` or a chess-like name ``"d5"`` into an ``(x, y)`` cell."""
    m = _XY.match(text)
    if m:
        return (int(m.group(1)), int(m.group(2)))
    m = _NAME.match(text)
    if m and int(m.group(2)) >= 1:
        return (ord(m.group(1).lower()) - ord("a"), int(m.group(2)) - 1)
    raise ValueError(f"bad cell {text!r}: write x,y (e.g. 3,4) or a name like d5")


def format_cell(cell: Cell) -> str:
    """The ``"x,y"`` form of a cell."""
    return f"{cell[0]},{cell[1]}"


def cell_name(cell: Cell) -> str:
    """The chess-like name of a cell (boards up to 26 columns)."""
    if not 0 <= cell[0] < 26:
        raise ValueError(f"column {cell[0]} has no letter name; use x,y")
    return f"{chr(ord('a') + cell[0])}{cell[1] + 1}"
