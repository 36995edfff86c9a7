"""What an agent sees of a position: planes for convolutional networks and a
compact vector, as NumPy arrays (no Gymnasium needed here).

Planes (``uint8``, shape ``(PLANES, height, width)``), one per row of
:data:`PLANE_NAMES`: the closed sides of each cell (N, E, S, W; an opening the
rules honour is open), cells no robot may enter (blocked, towers other than
the goal tower), the two diagonal orientations holding the diagonal's colour
(1 red, 2 green, 3 blue, 4 yellow; 0 when the rules ignore diagonals), one
plane per robot colour, the target cell and the cell of the robot that must
reach it (empty when any robot may).

The vector (``int16``, length :data:`VECTOR_SIZE`): x, y of each robot colour
(red, green, blue, yellow, silver, transparent; -1, -1 when absent), the
target's x, y, the active robot's index (-1: any robot), the last move's robot
and heading index (-1, -1: none), a turned flag per robot colour
(must-ricochet) and the moves spent so far.

>>> from ricochet import Puzzle
>>> pz = Puzzle.from_code("1A3B4A2A.r52ge9bdey0e.r41")
>>> planes(pz, pz.position).shape, vector(pz, pz.position, 0)[:4].tolist()
((15, 16, 16), [5, 2, 14, 9])
"""

from __future__ import annotations

import numpy as np

from ..board import DIAGONAL_COLORS, ROBOT_COLORS, Board
from ..geometry import DIRECTIONS
from ..position import Position
from ..puzzle import Puzzle

__all__ = ["PLANES", "PLANE_NAMES", "VECTOR_SIZE", "planes", "static_planes", "vector"]

PLANE_NAMES: tuple[str, ...] = (
    "wall N", "wall E", "wall S", "wall W", "blocked", "diagonal /", "diagonal \\",
    *(f"robot {c}" for c in ROBOT_COLORS), "target", "active robot",
)
PLANES = len(PLANE_NAMES)
_ROBOT0 = 7
_TARGET = _ROBOT0 + len(ROBOT_COLORS)
VECTOR_SIZE = 2 * len(ROBOT_COLORS) + 2 + 1 + 2 + len(ROBOT_COLORS) + 1


def static_planes(puzzle: Puzzle) -> np.ndarray:
    """The planes that do not change while the robots move (walls, blocks, diagonals)."""
    pos = puzzle.position
    board: Board = pos.board
    rules = pos.rules
    out = np.zeros((PLANES, board.height, board.width), dtype=np.uint8)
    walls = np.array(board.walls, dtype=np.uint8).reshape(board.height, board.width)
    for k, d in enumerate(DIRECTIONS):
        out[k] = (walls & int(d)) != 0
    if rules.openings:
        for (x, y), side in board.openings:
            out[side.index, y, x] = 0
    for x, y in board.blocked:
        out[4, y, x] = 1
    for x, y in board.towers:
        if not (rules.goal_tower_passthrough and (x, y) == puzzle.target):
            out[4, y, x] = 1
    if rules.diagonals:
        for dg in board.diagonals:
            out[5 if dg.orientation == "/" else 6, dg.cell[1], dg.cell[0]] = DIAGONAL_COLORS.index(dg.color) + 1
    tx, ty = puzzle.target
    out[_TARGET, ty, tx] = 1
    return out


def planes(puzzle: Puzzle, position: Position, static: np.ndarray | None = None) -> np.ndarray:
    """Every plane of ``position`` (robots moved from ``puzzle``'s start);
    ``static``: :func:`static_planes` of the puzzle, computed once per episode."""
    out = (static_planes(puzzle) if static is None else static).copy()
    for i, r in enumerate(position.robots):
        out[_ROBOT0 + ROBOT_COLORS.index(r.color), r.cell[1], r.cell[0]] = 1
        if i == puzzle.active:
            out[_TARGET + 1, r.cell[1], r.cell[0]] = 1
    return out


def vector(puzzle: Puzzle, position: Position, spent: int) -> np.ndarray:
    """The compact vector of ``position`` after ``spent`` moves."""
    out = np.full(VECTOR_SIZE, -1, dtype=np.int16)
    turned = 2 * len(ROBOT_COLORS) + 5
    out[turned:turned + len(ROBOT_COLORS)] = 0
    for i, r in enumerate(position.robots):
        slot = ROBOT_COLORS.index(r.color)
        out[2 * slot:2 * slot + 2] = r.cell
        out[turned + slot] = int(i in position.turned)
    base = 2 * len(ROBOT_COLORS)
    out[base:base + 2] = puzzle.target
    out[base + 2] = -1 if puzzle.active is None else puzzle.active
    if position.last_move is not None:
        out[base + 3] = position.last_move[0]
        out[base + 4] = position.last_move[1].index
    out[-1] = min(spent, np.iinfo(np.int16).max)
    return out
