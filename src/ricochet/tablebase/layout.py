"""Where each position lives in a table: free-cell numbers, the neighbour
array the kernels walk, and the perfect index (see :mod:`.retro`).

The neighbour array comes from the solver's robot-free path tables of the
same :class:`~ricochet.board.Board` (the first cell of each path), so the
tablebase has no physics of its own.

>>> from ricochet.board import Board
>>> lay = Layout.of(Board.build(4, 4), (3, 0), robots=3)
>>> lay.cells, lay.block, lay.size
(16, 105, 1680)
>>> lay.index((1, 1), [(2, 2), (0, 0)]) == lay.index((1, 1), [(0, 0), (2, 2)])
True
>>> lay.position(lay.index((1, 1), [(2, 2), (0, 0)]))
((1, 1), ((0, 0), (2, 2)))

The vortex table (``any_robot``): every robot may reach the target, so all
robots are interchangeable and a position is a set of cells, C(N, r) of them.
Its index takes the cells in any order; :meth:`Layout.position` gives them
sorted (the lowest first, in the "active" place).

>>> vor = Layout.of(Board.build(4, 4), (3, 0), robots=3, any_robot=True)
>>> vor.size, vor.index((2, 2), [(0, 0), (1, 1)]) == vor.index((0, 0), [(1, 1), (2, 2)])
(560, True)
>>> vor.position(vor.index((2, 2), [(0, 0), (1, 1)]))
((0, 0), ((1, 1), (2, 2)))
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property
from math import comb

import numpy as np

from ..board import Board
from ..errors import RicochetError
from ..geometry import Cell
from ..rules import PLAIN
from ..solver.tables import path_tables
from . import retro

MAX_ROBOTS = 4


class TablebaseError(RicochetError):
    """A board, target or position the tablebase cannot take; the message says why."""

    default_code = "tablebase"


def check_board(board: Board) -> None:
    """Refuse what the plain-rules tablebase does not model: the physics it
    inverts is straight slides between walls, blocked cells and robots."""
    if board.diagonals:
        raise TablebaseError("the tablebase takes boards without coloured diagonals (tiles A-C, not D): "
                             "robots of different colours would not be interchangeable")
    if board.openings:
        raise TablebaseError("the tablebase takes boards without wall openings")
    if board.towers:
        raise TablebaseError("the tablebase takes boards without towers")


def _connected(board: Board, step: np.ndarray, start: int) -> np.ndarray:
    """The board indices connected to ``start`` through open sides, sorted."""
    seen = np.zeros(board.width * board.height, dtype=bool)
    seen[start] = True
    todo = [start]
    while todo:
        c = todo.pop()
        for n in step[c]:
            if n >= 0 and not seen[n]:
                seen[n] = True
                todo.append(int(n))
    return np.flatnonzero(seen)


def _refuse_rows(bad: np.ndarray, rows: np.ndarray, why: str) -> None:
    """Raise for the first of ``rows`` that ``bad`` (a flag per row) marks, saying ``why``."""
    if bad.any():
        row = int(np.argmax(bad))
        raise TablebaseError(f"cells: row {row} ({rows[row].tolist()}) {why}")


@dataclass(frozen=True, eq=False)
class Layout:
    """The index space of the tables of one board, target and robot count."""

    board: Board
    target: Cell
    robots: int
    free: tuple[Cell, ...]
    """The cells robots can reach, row-major: free-cell number -> cell.  Cells
    walled off from the target (the centre block of a file that walls it only
    on the outside) are left out: no robot can enter or leave them."""
    nbr: np.ndarray
    """``nbr[c, d]``: the free cell next to ``c`` in direction d (N E S W), -1 for a wall."""
    binom: np.ndarray
    any_robot: bool = False
    """The vortex table: any robot may reach the target, all robots interchangeable."""

    @classmethod
    def of(cls, board: Board, target: Cell, robots: int = 4, *, any_robot: bool = False) -> Layout:
        """The layout of ``board`` with ``robots`` robots (1 to 4) and ``target``
        (``any_robot``: any robot may reach it, the vortex table)."""
        check_board(board)
        if not isinstance(robots, int) or not 1 <= robots <= MAX_ROBOTS:
            raise TablebaseError(f"robots: the tablebase takes 1 to {MAX_ROBOTS} robots, got {robots!r}")
        if not (isinstance(target, tuple) and len(target) == 2 and board.in_bounds(target)) \
                or target in board.blocked:
            raise TablebaseError(f"target {target!r} is not a free cell of the {board.width}×{board.height} board")
        paths = path_tables(board, PLAIN, None, "red")
        step = np.where(paths.length > 0, paths.cells[np.minimum(paths.start, len(paths.cells) - 1)], -1)
        step = step.reshape(-1, 4)
        free = _connected(board, step, board.index(target))
        if len(free) < robots:
            raise TablebaseError(f"robots: {robots} robots do not fit on the {len(free)} free cells")
        number = np.full(board.width * board.height, -1, dtype=np.int64)
        number[free] = np.arange(len(free))
        nbr = np.where(step[free] >= 0, number[np.maximum(step[free], 0)], -1).astype(np.int64)
        free_cells = tuple(board.cell(int(i)) for i in free)
        return cls(board, target, robots, free_cells, nbr, retro.binomials(len(free)), bool(any_robot))

    @property
    def cells(self) -> int:
        """N: the number of free cells."""
        return len(self.free)

    @property
    def helpers(self) -> int:
        return self.robots - 1

    @property
    def block(self) -> int:
        """B = C(N - 1, helpers): the positions per active-robot cell (the
        vortex table has no active robot: C(N, r), the whole table)."""
        if self.any_robot:
            return comb(self.cells, self.robots)
        return comb(self.cells - 1, self.helpers)

    @property
    def size(self) -> int:
        """The number of positions: N * B (C(N, r) for the vortex table)."""
        if self.any_robot:
            return comb(self.cells, self.robots)
        return self.cells * self.block

    @property
    def target_number(self) -> int:
        return self.number(self.target)

    def number(self, cell: Cell) -> int:
        """The free-cell number of ``cell``."""
        try:
            return self._numbers[cell]
        except KeyError:
            raise TablebaseError(f"cell {cell!r} is off the board, blocked or walled off from the target") from None

    @cached_property
    def _numbers(self) -> dict[Cell, int]:
        """Cell -> free-cell number."""
        return {c: i for i, c in enumerate(self.free)}

    def index(self, active: Cell, helpers: Sequence[Cell]) -> int:
        """The table index of the active robot on ``active`` and helpers on ``helpers`` (any order)."""
        if len(helpers) != self.helpers:
            raise TablebaseError(f"robots: this table has {self.robots} robots, got {1 + len(helpers)}")
        a = self.number(active)
        hs = sorted(self.number(tuple(h)) for h in helpers)  # type: ignore[arg-type]
        if len(set(hs) | {a}) != self.robots:
            raise TablebaseError("robots: two robots on one cell")
        if self.any_robot:
            c0, c1, c2, c3 = (sorted([a, *hs]) + [retro.UNUSED] * 3)[:4]
            return int(retro.vrank(self.robots, c0, c1, c2, c3, self.binom))
        h0, h1, h2 = (hs + [retro.UNUSED] * 3)[:3]
        return a * self.block + int(retro.rank(self.helpers, a, h0, h1, h2, self.binom))

    def indices(self, cells: np.ndarray) -> np.ndarray:
        """The table indices of many positions at once (int64): ``cells`` has a row per
        position of the robots' board cell numbers (:meth:`Board.index`), the active robot's
        first, then the helpers in any order (the vortex table: every robot, in any order).
        :meth:`index` for each row, in numpy (a million rows in about 0.4 s).

        >>> lay = Layout.of(Board.build(4, 4), (3, 0), robots=3)
        >>> rows = np.array([[5, 10, 0], [5, 0, 10]])  # (1, 1) active; (2, 2) and (0, 0)
        >>> lay.indices(rows).tolist() == [lay.index((1, 1), [(2, 2), (0, 0)])] * 2
        True"""
        rows = np.asarray(cells)
        if rows.ndim != 2 or rows.shape[1] != self.robots or not np.issubdtype(rows.dtype, np.integer):
            raise TablebaseError(f"cells: rows of {self.robots} integer board cell numbers expected, "
                                 f"got an array of shape {rows.shape} and type {rows.dtype}")
        numbers = self._number_array
        rows = rows.astype(np.int64, copy=False)
        outside = (rows < 0) | (rows >= len(numbers))
        nums = np.where(outside, -1, numbers[np.where(outside, 0, rows)])
        _refuse_rows((nums < 0).any(axis=1), rows, "has a cell off the board, blocked or walled off from the target")
        unused = np.int64(retro.UNUSED)
        if self.any_robot:
            ordered = np.sort(nums, axis=1)
            _refuse_rows((np.diff(ordered, axis=1) == 0).any(axis=1), rows, "has two robots on one cell")
            c = [ordered[:, k] if k < self.robots else unused for k in range(4)]
            return np.asarray(retro.vrank(self.robots, c[0], c[1], c[2], c[3], self.binom), dtype=np.int64)
        a = nums[:, 0]
        ordered = np.sort(nums[:, 1:], axis=1)
        _refuse_rows((np.diff(ordered, axis=1) == 0).any(axis=1) | (ordered == a[:, None]).any(axis=1), rows,
                     "has two robots on one cell")
        h = [ordered[:, k] if k < self.helpers else unused for k in range(3)]
        return a * self.block + np.asarray(retro.rank(self.helpers, a, h[0], h[1], h[2], self.binom), dtype=np.int64)

    @cached_property
    def _number_array(self) -> np.ndarray:
        """Board cell number -> free-cell number (-1: not a free cell)."""
        numbers = np.full(self.board.width * self.board.height, -1, dtype=np.int64)
        numbers[[self.board.index(c) for c in self.free]] = np.arange(len(self.free))
        return numbers

    def position(self, index: int) -> tuple[Cell, tuple[Cell, ...]]:
        """The active cell and sorted helper cells of a table index."""
        if not 0 <= index < self.size:
            raise TablebaseError(f"index {index} is outside the table (0..{self.size - 1})")
        if self.any_robot:
            cells = retro.vunrank(int(index), self.robots, self.cells, self.binom)[:self.robots]
            return self.free[int(cells[0])], tuple(self.free[int(c)] for c in cells[1:])
        a, r = divmod(int(index), self.block)
        hs = retro.unrank(r, self.helpers, a, self.cells, self.binom)[:self.helpers]
        return self.free[a], tuple(self.free[int(h)] for h in hs)
