"""Compile a board (and the rules that change its physics) into the flat
arrays the kernels search.  Everything is derived from the same
:class:`~ricochet.board.Board` the engine uses; nothing here restates a rule
beyond the encoding (a wall bit, an opening bit, an obstacle, a mirror)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property, lru_cache

import numpy as np
from numba import njit

from ..board import ROBOT_COLORS, Board
from ..geometry import Cell
from ..rules import Rules
from . import kernel
from .records import BoardArrays, PathTables

COLOR_INDEX: dict[str, int] = {c.value: i for i, c in enumerate(ROBOT_COLORS)}
DIAGONAL_CODE = {"/": 1, "\\": 2}


@dataclass(frozen=True, eq=False)
class BoardTables:
    """A board as arrays: wall/opening/passable bit masks per cell, obstacle
    cells (blocked, towers other than the goal), diagonal code and colour."""

    width: int
    height: int
    wall: np.ndarray
    openm: np.ndarray
    obst: np.ndarray
    diag: np.ndarray
    dcol: np.ndarray
    has_diagonals: bool
    has_openings: bool
    """Whether an opening is in play (``openm`` not all zero)."""
    board: Board

    @property
    def cells(self) -> int:
        return self.width * self.height

    @property
    def straight(self) -> bool:
        """Whether every move is a straight line (no diagonal, no opening in play):
        the fast builders (:func:`straight_robot_paths`, :func:`straight_distance`) apply."""
        return not self.has_diagonals and not self.has_openings

    @cached_property
    def line_coords(self) -> np.ndarray:
        """Each cell's column and row, ``(2, cells)``, where the kernels find a
        move's stop in the robots' row and column bit masks
        (:func:`kernel._gen_lines`): where every move is straight.  Else
        ``(2, 0)``: the kernels walk along the rays.  (A transparent robot also
        rules the masks out; the kernels check that themselves.)  A mask is one
        64-bit word shifted by up to a side plus one: sides of at most 32 cells
        (``geometry.MAX_SIZE``), checked here should that limit grow."""
        if not self.straight or self.width > 32 or self.height > 32:
            return np.zeros((2, 0), dtype=np.int64)
        return _cell_coords(self.width, self.height)

    @cached_property
    def passable(self) -> np.ndarray:
        """Per cell, the sides the transparent robot may pass (built on first use:
        only a transparent robot needs it)."""
        return _passable(self.board)


def physics_key(board: Board, rules: Rules, goal: Cell | None) -> tuple[object, ...]:
    """What the tables depend on: the goal matters only when it is a tower."""
    tower_goal = goal if (goal in board.towers and rules.goal_tower_passthrough) else None
    return (board, rules.diagonals, rules.openings, rules.goal_tower_passthrough, tower_goal)


def _walls(board: Board) -> np.ndarray:
    """The board's wall masks as a new uint8 array."""
    return np.frombuffer(board.wall_bytes, dtype=np.uint8).copy()


@njit(cache=True)
def passable_sides(W, H, wall, opened, blocked):  # type: ignore[no-untyped-def]
    """Per cell, the sides the transparent robot may pass (``Board.wall_passable``):
    a wall that is not an opening, between two cells that are both on the board
    and not blocked."""
    out = np.zeros(W * H, dtype=np.uint8)
    for y in range(H):
        for x in range(W):
            c = y * W + x
            if blocked[c]:
                continue
            for d in range(4):
                nx = x + kernel.DX[d]
                ny = y + kernel.DY[d]
                if nx < 0 or ny < 0 or nx >= W or ny >= H or blocked[ny * W + nx]:
                    continue
                bit = 1 << d
                if (wall[c] & bit) != 0 and (opened[c] & bit) == 0:
                    out[c] |= bit
    return out


@lru_cache(maxsize=64)
def _cell_coords(W: int, H: int) -> np.ndarray:
    """Each cell's column and row, ``(2, W · H)``: shared by every board of this
    size (the kernels only read it)."""
    c = np.arange(W * H, dtype=np.int64)
    return np.stack([c % W, c // W])


def _passable(board: Board) -> np.ndarray:
    """Per cell, the sides the transparent robot may pass (Board.wall_passable)."""
    n = board.width * board.height
    opened = np.zeros(n, dtype=np.uint8)
    for cell, side in board.openings:
        opened[board.index(cell)] |= int(side)
    blocked = np.zeros(n, dtype=np.uint8)
    for cell in board.blocked:
        blocked[board.index(cell)] = 1
    return passable_sides(board.width, board.height, _walls(board), opened, blocked)  # type: ignore[no-any-return]


def straight_paths(W: int, H: int, wall: np.ndarray, obst: np.ndarray) -> tuple[np.ndarray, ...]:
    """:func:`kernel.build_paths` for a board where every move is a straight
    line (no diagonal, no opening in play): arrays that hold the same rays
    (see :func:`straight_tables`), for one robot."""
    t = straight_tables(W, H, wall, obst, 1)
    return t.start[0], t.length[0], t.cyclic[0], t.cells, t.heads, t.defl


def straight_tables(W: int, H: int, wall: np.ndarray, obst: np.ndarray, rows: int) -> PathTables:
    """A straight board's path tables for ``rows`` robots (a row each of
    ``start``/``length``/``cyclic``, as :func:`robot_tables` stacks them).
    Only the lengths are the board's own (:func:`straight_lengths`): a
    straight ray's cells are the next ones along its row or column, so every
    board of this size shares one list of them (:func:`straight_rays`), and
    a new board costs the lengths alone."""
    start, cells, heads, cyclic, defl = straight_rays(W, H, rows)
    return PathTables(start, straight_lengths(W, H, wall, obst, rows), cyclic, cells, heads, defl)


@lru_cache(maxsize=64)
def straight_rays(W: int, H: int, rows: int) -> tuple[np.ndarray, ...]:
    """``start``, ``cells``, ``heads``, ``cyclic`` and ``defl`` of every straight
    board of ``W`` × ``H`` (``start`` and ``cyclic`` with ``rows`` rows): the
    cells in four orders, one per direction (N: each column bottom to top; E:
    each row left to right; S: each column top to bottom; W: each row right
    to left), so that the ray from a cell is the cells after it in its
    direction's order, as many as its length (:func:`straight_lengths`).
    Shared by every such board built while this size's entry is cached (the
    kernels only read them); one spare entry at the end, where the last ray
    of length 0 starts."""
    n = W * H
    grid = np.arange(n, dtype=np.int32).reshape(H, W)
    orders = (grid[::-1, :].T.ravel(), grid.ravel(), grid.T.ravel(), grid[:, ::-1].ravel())
    cells = np.zeros(4 * n + 1, dtype=np.int32)
    heads = np.zeros(4 * n + 1, dtype=np.int8)
    start = np.empty(4 * n, dtype=np.int32)
    for d, order in enumerate(orders):
        cells[d * n:(d + 1) * n] = order
        heads[d * n:(d + 1) * n] = d
        start[order * 4 + d] = d * n + np.arange(1, n + 1, dtype=np.int32)
    return (np.tile(start, (rows, 1)), cells, heads,
            _blank((rows, 4 * n), np.uint8, 0), _blank(4 * n + 1, np.uint8, 0))


@njit(cache=True)
def straight_lengths(W, H, wall, obst, rows):  # type: ignore[no-untyped-def]
    """:func:`lengths_of_straight_rays`, called from Python."""
    return lengths_of_straight_rays(W, H, wall, obst, rows)


# (Inlined where they are called: a compiled function that Python calls must not also be linked
# into another cached one, plain.plain_astar here; see plain.py.)
@njit(cache=True, inline="always")
def lengths_of_straight_rays(W, H, wall, obst, rows):  # type: ignore[no-untyped-def]
    """Where every move is straight: each robot-free ray's length (a ray is a
    cell and a direction, ``cell · 4 + d``), ``(rows, cells · 4)`` with the
    same row repeated.  A ray's length is 0 at a wall or before an obstacle,
    else 1 + its neighbour's: each direction is swept so that the neighbour
    is done first."""
    N = W * H
    step = np.array([-W, 1, W, -1], dtype=np.int64)
    run = np.zeros((rows, N * 4), dtype=np.int32)
    r0 = run[0]
    for k in range(N):
        for d in range(4):
            c = k if d == 0 or d == 3 else N - 1 - k
            if (wall[c] & (1 << d)) != 0:
                continue
            nxt = c + step[d]
            if obst[nxt]:
                continue
            r0[c * 4 + d] = 1 + r0[nxt * 4 + d]
    for r in range(1, rows):
        run[r] = r0
    return run


@njit(cache=True)
def straight_distance(W, H, wall, obst, target):  # type: ignore[no-untyped-def]
    """:func:`distance_by_straight_runs`, called from Python."""
    return distance_by_straight_runs(W, H, wall, obst, target)


@njit(cache=True, inline="always")
def distance_by_straight_runs(W, H, wall, obst, target):  # type: ignore[no-untyped-def]
    """:func:`kernel.relaxed_distance` (the same numbers) where every move is a
    straight line (:func:`straight_paths`): breadth-first outward from the
    target.  A relaxed move may stop anywhere on its path, so the cells of
    one wall-to-wall run of a row (or column) reach each other in one move:
    the first cell of a run taken from the queue, the nearest, gives every
    cell of the run one more, and the run is never walked again: each cell
    is walked twice at most (4.2 µs a call on a 16×16 board, against 7.2 µs
    walking back from every cell in four directions).  An obstacle ends a
    run, but a robot standing on one leaves it: it takes its distance from
    the run beside it (no path enters it, so it gives none)."""
    N = W * H
    dist = np.full(N, kernel.INF, dtype=np.int32)
    queue = np.empty(N, dtype=np.int32)
    walked = np.zeros(N, dtype=np.uint8)  # per cell: its row's run walked (1), its column's (2)
    dist[target] = 0
    queue[0] = target
    head, tail = 0, 1
    while head < tail:
        x = queue[head]
        head += 1
        if obst[x]:
            continue  # no path enters it
        k = dist[x] + 1
        for axis in range(2):  # the cell's row (walked W, then E), its column (N, then S)
            bit = 1 << axis
            if walked[x] & bit:
                continue
            for side in range(2):
                d = 3 - 2 * side if axis == 0 else 2 * side  # W E, N S
                step = (-1 if d == 3 else 1) if axis == 0 else (-W if d == 0 else W)
                c = x
                while (wall[c] & (1 << d)) == 0:
                    c += step
                    if dist[c] == kernel.INF:
                        dist[c] = k
                        queue[tail] = c
                        tail += 1
                    if obst[c]:
                        break
                    walked[c] |= bit
    return dist


@lru_cache(maxsize=64)
def _blank(shape: int | tuple[int, ...], dtype: type, fill: int) -> np.ndarray:
    """An array that holds nothing on a board: a layer it does not use (no
    opening in play, no diagonal), a straight board's ``cyclic`` and
    ``defl``.  One per shape, shared (the kernels only read it)."""
    return np.full(shape, fill, dtype=dtype)


@lru_cache(maxsize=256)
def _board_tables(board: Board, diagonals: bool, openings: bool, passthrough: bool,
                  tower_goal: Cell | None) -> BoardTables:
    w, n = board.width, board.width * board.height
    wall = _walls(board)
    obst = np.zeros(n, dtype=np.uint8)
    obstacles = [x + w * y for x, y in board.blocked] + [x + w * y for x, y in board.towers if (x, y) != tower_goal]
    if obstacles:
        obst[obstacles] = 1
    openm = _blank(n, np.uint8, 0)
    has_openings = bool(openings and board.openings)
    if has_openings:
        openm = np.zeros(n, dtype=np.uint8)
        for (x, y), side in board.openings:
            openm[x + w * y] |= int(side)
    diag, dcol = _blank(n, np.int8, 0), _blank(n, np.int8, -1)
    has_diagonals = bool(diagonals and board.diagonals)
    if has_diagonals:
        diag, dcol = np.zeros(n, dtype=np.int8), np.full(n, -1, dtype=np.int8)
        for dg in board.diagonals:
            x, y = dg.cell
            diag[x + w * y] = DIAGONAL_CODE[dg.orientation]
            dcol[x + w * y] = COLOR_INDEX[dg.color]
    return BoardTables(board.width, board.height, wall, openm, obst, diag, dcol, has_diagonals, has_openings, board)


def board_tables(board: Board, rules: Rules, goal: Cell | None) -> BoardTables:
    """The (cached) arrays of a board under these rules and goal."""
    return _board_tables(*physics_key(board, rules, goal))


def board_tables_of(key: tuple[object, ...]) -> BoardTables:
    """:func:`board_tables` given the board's :func:`physics_key`."""
    return _board_tables(*key)  # type: ignore[arg-type]


@lru_cache(maxsize=1024)
def _path_tables(key: tuple[object, ...], color_class: int) -> PathTables:
    t = board_tables_of(key)
    if t.straight:
        arrays = straight_paths(t.width, t.height, t.wall, t.obst)
    else:
        arrays = kernel.build_paths(t.width, t.height, t.wall, t.openm, t.obst, t.diag, t.dcol, color_class)
    return PathTables(*arrays)


def path_tables(board: Board, rules: Rules, goal: Cell | None, color: str) -> PathTables:
    """The (cached) robot-free paths of a robot of ``color``.  Colours that no
    diagonal on the board matches share one table."""
    return _path_tables(physics_key(board, rules, goal), _color_class(board_tables(board, rules, goal), color))


def _color_class(t: BoardTables, color: str) -> int:
    index = COLOR_INDEX[color]
    if not t.has_diagonals or not np.any(t.dcol == index):
        index = 4  # behaves like silver: no diagonal lets it through
    return index


@lru_cache(maxsize=1024)
def _robot_tables(key: tuple[object, ...], classes: tuple[int, ...]) -> PathTables:
    bt = board_tables_of(key)
    if bt.straight:  # (no diagonal: every robot is of class 4)
        return straight_tables(bt.width, bt.height, bt.wall, bt.obst, len(classes))
    unique = sorted(set(classes))
    if len(unique) == 1:
        # One physics for every robot (no diagonal tells them apart): rows repeated, cells shared.
        t = _path_tables(key, classes[0])
        return PathTables(*repeat_rows(t.start, t.length, t.cyclic, len(classes)), t.cells, t.heads, t.defl)
    tables = {c: _path_tables(key, c) for c in unique}
    offsets, total = {}, 0
    for c in unique:
        offsets[c] = total
        total += len(tables[c].cells)
    return PathTables(np.stack([tables[c].start + offsets[c] for c in classes]).astype(np.int32),
                      np.stack([tables[c].length for c in classes]).astype(np.int32),
                      np.stack([tables[c].cyclic for c in classes]),
                      np.concatenate([tables[c].cells for c in unique]),
                      np.concatenate([tables[c].heads for c in unique]),
                      np.concatenate([tables[c].defl for c in unique]))


@njit(cache=True)
def repeat_rows(start, length, cyclic, rows):  # type: ignore[no-untyped-def]
    """One path table's per-ray arrays repeated ``rows`` times (a row per robot)."""
    n = start.shape[0]
    s = np.empty((rows, n), dtype=start.dtype)
    ln = np.empty((rows, n), dtype=length.dtype)
    c = np.empty((rows, n), dtype=cyclic.dtype)
    for r in range(rows):
        s[r] = start
        ln[r] = length
        c[r] = cyclic
    return s, ln, c


def robot_tables(board: Board, rules: Rules, goal: Cell | None, colors: tuple[str, ...]) -> PathTables:
    """The (cached) path tables of robots of these colours, stacked as the
    kernels read them: ``start``/``length``/``cyclic`` have a row per robot,
    in order, and ``start`` indexes the concatenated ``cells``/``heads``/``defl``."""
    key = physics_key(board, rules, goal)
    return robot_tables_for(key, _board_tables(*key), colors)  # type: ignore[arg-type]


def robot_tables_for(key: tuple[object, ...], t: BoardTables, colors: tuple[str, ...]) -> PathTables:
    """:func:`robot_tables` given the board's :func:`physics_key` and tables."""
    if not t.has_diagonals:
        return _robot_tables(key, (4,) * len(colors))
    return _robot_tables(key, tuple(_color_class(t, c) for c in colors))


@lru_cache(maxsize=4096)
def _distance(key: tuple[object, ...], color_class: int, target: int) -> np.ndarray:
    t = board_tables_of(key)
    if t.straight:
        return straight_distance(t.width, t.height, t.wall, t.obst, target)  # type: ignore[no-any-return]
    p = _path_tables(key, color_class)
    return kernel.relaxed_distance(t.cells, p.start, p.length, p.cells, target)


def cell_bits(cells: int) -> int:
    """Bits of one robot's cell in a state key (on a board of ``cells`` cells)."""
    return max(1, (cells - 1).bit_length())


def transparent_index(colors: Sequence[str]) -> int:
    """The transparent robot's index among ``colors``, -1 without one."""
    return colors.index("transparent") if "transparent" in colors else -1


@dataclass(frozen=True, eq=False)
class SearchTables:
    """What every search on one board (its physics under the rules) with robots
    of these colours shares, built once and kept (:func:`search_tables`): a
    puzzle on a board seen before sets up its search with one cache lookup."""

    board: BoardTables
    paths: PathTables
    """:func:`robot_tables`: a row per robot."""
    robots: int
    transparent: int
    """The transparent robot's index, -1 without one."""
    passable: np.ndarray
    """The board's passable sides where a transparent robot reads them, else a blank."""
    bits: int
    """:func:`cell_bits`."""
    max_moves_per_node: int
    reversible: bool
    """Whether every move can be undone by the move back (no diagonal,
    transparent robot, one-way opening or tower), must-ricochet aside."""
    arrays: BoardArrays
    """The board as the kernels read it (with ``passable`` and the board's
    ``line_coords`` as ``xy``)."""
    fields: tuple[tuple[object, ...], tuple[object, ...]]
    """``arrays`` and ``paths`` as plain tuples, as Python passes them to the
    kernels (see :mod:`.records`)."""


@lru_cache(maxsize=1024)
def search_tables(key: tuple[object, ...], colors: tuple[str, ...]) -> SearchTables:
    """The :class:`SearchTables` of a board's :func:`physics_key` and the robots' colours."""
    bt = board_tables_of(key)
    n = bt.cells
    tr = transparent_index(colors)
    # Diagonals, the transparent robot's choices, one-way openings and towers (a robot
    # leaving a tower cannot return onto it) break reversibility.
    reversible = not bt.has_diagonals and tr < 0 and not bt.has_openings and not bt.board.towers
    # Only the transparent robot's moves read the passable sides.
    passable = bt.passable if tr >= 0 else _blank(1, np.uint8, 0)
    arrays = BoardArrays(bt.width, bt.height, n, bt.wall, bt.openm, bt.obst, bt.diag, passable, bt.line_coords)
    paths = robot_tables_for(key, bt, colors)
    return SearchTables(bt, paths, len(colors), tr, passable, cell_bits(n), len(colors) * 4 + (4 * n if tr >= 0 else 0),
                        reversible, arrays, (tuple(arrays), tuple(paths)))


def clear_caches() -> None:
    """Forget every board's tables (the next puzzle on any board builds them
    anew): for measuring a board not seen before, or to free their memory."""
    for cache in (_board_tables, _path_tables, _robot_tables, _distance, search_tables):
        cache.cache_clear()


def lower_bound(board: Board, rules: Rules, goal: Cell | None, color: str, target: Cell) -> np.ndarray:
    """Per cell, a lower bound on the moves a robot of ``color`` needs to reach
    ``target`` (the transparent robot: 0 on the target, else 1)."""
    n = board.width * board.height
    ti = board.index(target)
    if color == "transparent":
        h = np.ones(n, dtype=np.int32)
        h[ti] = 0
        return h
    key = physics_key(board, rules, goal)
    return lower_bound_for(key, _board_tables(*key), color, ti)  # type: ignore[arg-type]


def lower_bound_for(key: tuple[object, ...], t: BoardTables, color: str, target: int) -> np.ndarray:
    """:func:`lower_bound` given the board's :func:`physics_key` and tables and the
    target's cell index."""
    if color == "transparent":
        h = np.ones(t.cells, dtype=np.int32)
        h[target] = 0
        return h
    return _distance(key, 4 if not t.has_diagonals else _color_class(t, color), target)
