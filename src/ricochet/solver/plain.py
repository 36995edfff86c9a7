"""A puzzle of plain moves searched in one compiled call.

Most of what a trainer, a bot or a researcher's sweep asks for is short: a
1-3-move puzzle's A* expands a few states in about 3 µs, and its board's
tables (the robot-free rays' lengths, the relaxed distance) take some 6 µs to
build.  Through ``api._Search`` (the tables built and cached from Python, the
records of the general search) such a puzzle on a new board took 55 µs, 19 µs
on a board seen before.  Here, where every move is a straight slide (no
diagonal or wall opening in play, no tower, no transparent robot) and no rule
state follows the robots (no must-ricochet, no straight-back rule),
:func:`plain_astar` builds the tables and runs :func:`kernel.astar` in one
call, from the board's wall bytes: 21-23 µs either way, of which 6 µs are
Python (``benchmarks/README.md``, the twenty-sixth round).  The tables are
built anew on every call, not cached per board: a cached board's arrays are
out of the processor's caches by the time its next puzzle comes, after other
searches, and reading them cost more than building them again in memory just
freed (measured, same README section).

Nothing here is a second copy of the rules: the tables are those of
:mod:`.tables` (:func:`~.tables.lengths_of_straight_rays`,
:func:`~.tables.distance_by_straight_runs`) and the search is
:func:`kernel.astar`, given the records the general path (``api._Search``)
gives it, so the two return the same answer, move for move
(``tests/test_solver_plain.py``).  Those functions are inlined here, and
Python calls :func:`kernel.astar` only through :func:`kernel.run_astar`: see
its docstring for why.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np
from numba import njit

from .. import jitcache
from ..board import Board
from ..rules import Rules
from . import kernel
from .tables import _blank, _cell_coords, cell_bits, distance_by_straight_runs, lengths_of_straight_rays, straight_rays

jitcache.depends_on(__file__, kernel.__file__, __file__.replace("plain.py", "tables.py"))

MAX_SIDE = 32
"""The longest side :func:`plain_astar` takes: its moves come from the robots'
row and column bit masks (one 64-bit word a line, see ``BoardTables.line_coords``)."""


def plain_board(board: Board, rules: Rules) -> bool:
    """Whether every move on ``board`` under ``rules`` is a straight slide that
    only walls, blocked cells and robots stop, and that the move back undoes:
    no diagonal or opening in play, no tower, sides of at most :data:`MAX_SIDE`."""
    return (not (rules.diagonals and board.diagonals) and not (rules.openings and board.openings)
            and not board.towers and board.width <= MAX_SIDE and board.height <= MAX_SIDE)


def plain_rules(rules: Rules) -> bool:
    """Whether no rule state follows the robots (neither must-ricochet nor no-straight-back)."""
    return not rules.must_ricochet and not rules.no_straight_back


@lru_cache(maxsize=64)
def _size_tables(width: int, height: int, robots: int) -> tuple[np.ndarray, ...]:
    """What every plain board of this size shares with ``robots`` robots (the kernels
    only read these): the rays' ``start``, ``cells``, ``heads``, ``cyclic`` and ``defl``
    (:func:`~.tables.straight_rays`), each cell's column and row, and the blank layers
    (openings, diagonals, the transparent robot's passable sides)."""
    n = width * height
    start, cells, heads, cyclic, defl = straight_rays(width, height, robots)
    return (start, cells, heads, cyclic, defl, _cell_coords(width, height),
            _blank(n, np.uint8, 0), _blank(n, np.int8, 0), _blank(1, np.uint8, 0))


@lru_cache(maxsize=1024)
def board_args(board: Board, robots: int) -> tuple[int, int, np.ndarray, np.ndarray, tuple[np.ndarray, ...], int]:
    """:func:`plain_astar`'s first arguments for ``board`` with ``robots`` robots: its
    width and height, wall bytes, blocked cells and :func:`_size_tables` (the kernels only
    read them); then a cell's bits in a state key, for :func:`spec_fields`."""
    w, h = board.width, board.height
    blocked = np.array(sorted(x + w * y for x, y in board.blocked), dtype=np.int64)
    return (w, h, np.frombuffer(board.wall_bytes, dtype=np.uint8), blocked, _size_tables(w, h, robots),
            cell_bits(w * h))


def spec_fields(robots: int, t: int, target: int, bits: int) -> tuple[int, int, int, int, int, bool, bool, bool,
                                                                     bool, int]:
    """The :class:`~.records.Spec` of a plain puzzle's search, a plain tuple, as
    ``api._Search.spec_fields`` gives it for such a puzzle: every robot a helper of one kind
    (``sort_helpers``), no transparent robot (-1), no rule state, every move undone by the
    move back (``no_undo``).  Built here, in Python, so that its fields have the types of
    that path's (numba would give a tuple built in compiled code literal types, and compile
    :func:`kernel.astar` a second time for them)."""
    return robots, t, target, -1, bits, True, False, False, True, 4 * robots


@njit(cache=True)
def plain_astar(W, H, walls, blocked, shared, spec, start, limits):  # type: ignore[no-untyped-def]
    """The board's tables, then :func:`kernel.astar`, in one call.

    The first five arguments are :func:`board_args`'s; ``spec`` is :func:`spec_fields`,
    ``start`` and ``limits`` are A*'s (:class:`~.records.Start`, the robots' cells and no rule
    state, and :class:`~.records.Limits`, as plain tuples, ``max_cost`` at most 250).
    Returns the target robot's relaxed distance where it stands (:data:`kernel.INF`: no
    path reaches the target, and A* stops at once), then what :func:`kernel.astar` returns,
    its status as a plain integer."""
    cells, heads, cyclic, defl, xy, openm, diag, passable = shared[1:]
    pos0, target, t = start[0], spec[2], spec[1]
    N = W * H
    wall = walls.copy()
    obst = np.zeros(N, dtype=np.uint8)
    for c in blocked:
        obst[c] = 1
    hdist = distance_by_straight_runs(W, H, wall, obst, target)
    board = (W, H, N, wall, openm, obst, diag, passable, xy)
    paths = (shared[0], lengths_of_straight_rays(W, H, wall, obst, pos0.shape[0]), cyclic, cells, heads, defl)
    status, cost, expanded, _stored, moves = kernel.astar(spec, board, paths, hdist, start, limits)
    return hdist[pos0[t]], status.value, cost, expanded, moves
