"""Compile a board (and the rules that change its physics) into the flat
arrays the kernels search.  Everything is derived from the same
:class:`~ricochet.board.Board` the engine uses; nothing here restates a rule
beyond the encoding (a wall bit, an opening bit, an obstacle, a mirror)."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from ..board import ROBOT_COLORS, Board
from ..geometry import DIRECTIONS, Cell
from ..rules import Rules
from . import kernel

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
    passable: np.ndarray
    has_diagonals: bool

    @property
    def cells(self) -> int:
        return self.width * self.height


@dataclass(frozen=True, eq=False)
class PathTables:
    """Robot-free paths of one robot colour from every cell and direction."""

    start: np.ndarray
    length: np.ndarray
    cyclic: np.ndarray
    cells: np.ndarray
    heads: np.ndarray
    defl: np.ndarray


def physics_key(board: Board, rules: Rules, goal: Cell | None) -> tuple[object, ...]:
    """What the tables depend on: the goal matters only when it is a tower."""
    tower_goal = goal if (goal in board.towers and rules.goal_tower_passthrough) else None
    return (board, rules.diagonals, rules.openings, rules.goal_tower_passthrough, tower_goal)


def _passable(board: Board) -> np.ndarray:
    """Per cell, the sides the transparent robot may pass (Board.wall_passable), vectorised."""
    w, h = board.width, board.height
    walls = np.array(board.walls, dtype=np.uint8).reshape(h, w)
    opened = np.zeros((h, w), dtype=np.uint8)
    for (x, y), side in board.openings:
        opened[y, x] |= int(side)
    blocked = np.zeros((h + 2, w + 2), dtype=bool)  # padded: off the board counts as blocked
    blocked[0, :] = blocked[-1, :] = blocked[:, 0] = blocked[:, -1] = True
    for x, y in board.blocked:
        blocked[y + 1, x + 1] = True
    out = np.zeros((h, w), dtype=np.uint8)
    for d in DIRECTIONS:
        dx, dy = d.step((0, 0))
        neighbour_blocked = blocked[1 + dy:h + 1 + dy, 1 + dx:w + 1 + dx]
        ok = ((walls & int(d)) != 0) & ((opened & int(d)) == 0) & ~neighbour_blocked & ~blocked[1:-1, 1:-1]
        out[ok] |= int(d)
    return out.reshape(-1)


@lru_cache(maxsize=256)
def _board_tables(board: Board, diagonals: bool, openings: bool, passthrough: bool,
                  tower_goal: Cell | None) -> BoardTables:
    n = board.width * board.height
    wall = np.array(board.walls, dtype=np.uint8)
    openm = np.zeros(n, dtype=np.uint8)
    if openings:
        for cell, side in board.openings:
            openm[board.index(cell)] |= int(side)
    obst = np.zeros(n, dtype=np.uint8)
    for cell in board.blocked:
        obst[board.index(cell)] = 1
    for cell in board.towers:
        if cell != tower_goal:
            obst[board.index(cell)] = 1
    diag = np.zeros(n, dtype=np.int8)
    dcol = np.full(n, -1, dtype=np.int8)
    if diagonals:
        for dg in board.diagonals:
            diag[board.index(dg.cell)] = DIAGONAL_CODE[dg.orientation]
            dcol[board.index(dg.cell)] = COLOR_INDEX[dg.color]
    passable = _passable(board)
    return BoardTables(board.width, board.height, wall, openm, obst, diag, dcol, passable,
                       bool(diagonals and board.diagonals))


def board_tables(board: Board, rules: Rules, goal: Cell | None) -> BoardTables:
    """The (cached) arrays of a board under these rules and goal."""
    return _board_tables(*physics_key(board, rules, goal))


@lru_cache(maxsize=1024)
def _path_tables(key: tuple[object, ...], color_class: int) -> PathTables:
    t = _board_tables(*key)  # type: ignore[arg-type]
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
    tables = [_path_tables(key, c) for c in classes]
    offsets = np.cumsum([0] + [len(t.cells) for t in tables[:-1]])
    return PathTables(np.stack([t.start + off for t, off in zip(tables, offsets)]).astype(np.int32),
                       np.stack([t.length for t in tables]).astype(np.int32),
                       np.stack([t.cyclic for t in tables]),
                       np.concatenate([t.cells for t in tables]),
                       np.concatenate([t.heads for t in tables]),
                       np.concatenate([t.defl for t in tables]))


def robot_tables(board: Board, rules: Rules, goal: Cell | None, colors: tuple[str, ...]) -> PathTables:
    """The (cached) path tables of robots of these colours, stacked as the
    kernels read them: ``start``/``length``/``cyclic`` have a row per robot,
    in order, and ``start`` indexes the concatenated ``cells``/``heads``/``defl``."""
    t = board_tables(board, rules, goal)
    return _robot_tables(physics_key(board, rules, goal), tuple(_color_class(t, c) for c in colors))


@lru_cache(maxsize=4096)
def _distance(key: tuple[object, ...], color_class: int, target: int) -> np.ndarray:
    p = _path_tables(key, color_class)
    t = _board_tables(*key)  # type: ignore[arg-type]
    return kernel.relaxed_distance(t.cells, p.start, p.length, p.cells, target)


def lower_bound(board: Board, rules: Rules, goal: Cell | None, color: str, target: Cell) -> np.ndarray:
    """Per cell, a lower bound on the moves a robot of ``color`` needs to reach
    ``target`` (the transparent robot: 0 on the target, else 1)."""
    n = board.width * board.height
    ti = board.index(target)
    if color == "transparent":
        h = np.ones(n, dtype=np.int32)
        h[ti] = 0
        return h
    t = board_tables(board, rules, goal)
    return _distance(physics_key(board, rules, goal), _color_class(t, color), ti)
