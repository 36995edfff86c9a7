"""DriftingDroids' board notation read into ours (github.com/smack42/DriftingDroids).

DriftingDroids writes a board as a 2×2 picture of its tiles, top row first:
``"4B 3B / 1A 2B"`` is 4B north-west, 3B north-east, 1A south-west and 2B
south-east.  Our order (``assemble``, ``--tiles``, position codes) is NW, NE,
SE, SW, so that board is ``4B,3B,2B,1A``.  Its tile names are ours: every
tile in every quadrant was compared cell by cell, walls and targets, with
the boards its own code builds (``docs/tablebase.md``, "DriftingDroids'
boards").

Its *game ID* (``7650+42+E2302B12+C9``) is a whole puzzle: four hex digits
for the tiles NW, NE, SE, SW (tile number = piece − 1 + 4 × face, faces
A–D), the robot count and the active robot's number (``F``: any robot, the
vortex), each robot's cell as two hex digits (x + 16 y; robots red, green,
blue, yellow, silver), then the target cell.

>>> parse_layout("4B 3B / 1A 2B")
('4B', '3B', '2B', '1A')
>>> format_layout(("4B", "3B", "2B", "1A"))
'4B 3B / 1A 2B'
>>> pz = parse_game_id("7650+42+E2302B12+C9")
>>> pz.position.cells, pz.target, pz.active
(((2, 14), (0, 3), (11, 2), (2, 1)), (9, 12), 2)
"""

from __future__ import annotations

import re

from ..position import Position, Robot
from ..puzzle import Puzzle
from ..tiles import FACES, PIECES, TileError, assemble, parse_arrangement
from .layout import TablebaseError

__all__ = ["format_layout", "parse_game_id", "parse_layout"]

COLOURS = ("red", "green", "blue", "yellow", "silver")
"""DriftingDroids' robot numbers 0..4."""
_ROWS = re.compile(r"\s*(?:/|\n)\s*")
_GAME_ID = re.compile(r"^([0-9A-F]{4})\+([1-5])([0-4F])\+((?:[0-9A-F]{2}){1,5})\+([0-9A-F]{2})$")


def parse_layout(text: str) -> tuple[str, str, str, str]:
    """A DriftingDroids layout ``"NW NE / SW SE"`` (rows split by ``/`` or a
    new line) as our tile order (NW, NE, SE, SW)."""
    if not isinstance(text, str):
        raise TablebaseError(f"--dd-layout: expected text like '4B 3B / 1A 2B', got {text!r}")
    rows = [r for r in _ROWS.split(text.strip()) if r]
    if len(rows) != 2:
        raise TablebaseError(f"--dd-layout: {text!r}: write two rows of two tiles, top row first, "
                             "like '4B 3B / 1A 2B'")
    cells = [r.split() for r in rows]
    if any(len(r) != 2 for r in cells):
        raise TablebaseError(f"--dd-layout: {text!r}: each row has two tiles, like '4B 3B / 1A 2B'")
    (nw, ne), (sw, se) = cells
    try:
        return parse_arrangement(f"{nw},{ne},{se},{sw}")
    except TileError as e:
        raise TablebaseError(f"--dd-layout: {e}") from None


def format_layout(tiles: tuple[str, ...] | list[str]) -> str:
    """Our (NW, NE, SE, SW) tiles as DriftingDroids writes them, ``"NW NE / SW SE"``."""
    nw, ne, se, sw = parse_arrangement(",".join(tiles))
    return f"{nw} {ne} / {sw} {se}"


def _tile(number: int) -> str:
    if number >= len(PIECES) * len(FACES):  # pragma: no cover - one hex digit is at most 15
        raise TablebaseError(f"tile number {number} is out of range")
    return PIECES[number % 4] + FACES[number // 4]


def parse_game_id(text: str) -> Puzzle:
    """The puzzle of a DriftingDroids game ID (``7650+42+E2302B12+C9``)."""
    m = _GAME_ID.match(text.strip().upper()) if isinstance(text, str) else None
    if m is None:
        raise TablebaseError(f"--dd-game-id: {text!r} is not a DriftingDroids game ID "
                             "(like 7650+42+E2302B12+C9: tiles, robots and active robot, robot cells, target)")
    tiles, count, goal, robots, target = m.groups()
    n = int(count)
    if len(robots) != 2 * n:
        raise TablebaseError(f"--dd-game-id: {text!r} says {n} robots but gives {len(robots) // 2} cells")
    board = assemble(*(_tile(int(c, 16)) for c in tiles))
    cells = [int(robots[i:i + 2], 16) for i in range(0, len(robots), 2)]
    active = None if goal == "F" else int(goal)
    if active is not None and active >= n:
        raise TablebaseError(f"--dd-game-id: {text!r}: active robot {active} of {n} robots")
    try:
        pos = Position(board, tuple(Robot(COLOURS[i], (c % 16, c // 16)) for i, c in enumerate(cells)))
        t = int(target, 16)
        return Puzzle(pos, (t % 16, t // 16), active)
    except ValueError as e:
        raise TablebaseError(f"--dd-game-id: {text!r}: {e}") from None
