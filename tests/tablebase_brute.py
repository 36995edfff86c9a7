"""An independent brute force for the tablebase tests: every position of a
board enumerated with itertools, every move slid forward over the board's
wall masks with numpy, and the optimal lengths found by relaxing
``d(p) = 1 + min d(successor)`` from every position until nothing changes.
It shares nothing with ``ricochet.tablebase`` (no index, no predecessors,
no path tables); :func:`slide_matches_engine` ties its physics to the engine.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass

import numpy as np

from ricochet.board import Board
from ricochet.geometry import DIRECTIONS
from ricochet.position import Move, Position, Robot

INF = 255


@dataclass(frozen=True)
class Brute:
    """All positions (``cells[p]``: the active robot's cell then the sorted
    helpers, as board indices) and their optimal lengths (INF: unreachable)."""

    board: Board
    cells: np.ndarray
    lengths: np.ndarray
    successors: np.ndarray


def _slide(board: Board, cells: np.ndarray, j: int, bit: int, dx: int, dy: int) -> np.ndarray:
    """Where robot column ``j`` of every position stops moving that way."""
    w = board.width
    walls = np.array(board.walls, dtype=np.int64)
    blocked = np.zeros(board.width * board.height, dtype=bool)
    for c in board.blocked:
        blocked[board.index(c)] = True
    cur = cells[:, j].copy()
    others = np.delete(cells, j, axis=1)
    while True:
        nxt = cur + dy * w + dx
        ok = (walls[cur] & bit) == 0
        nxt = np.where(ok, nxt, cur)
        ok &= ~blocked[nxt] & ~np.any(others == nxt[:, None], axis=1)
        if not ok.any():
            return cur
        cur = np.where(ok, nxt, cur)


def brute(board: Board, target: tuple[int, int], robots: int, cells: list[tuple[int, int]] | None = None,
          any_robot: bool = False) -> Brute:
    """Every position of ``robots`` robots (the first is active) on ``cells``
    (default: every unblocked cell) and its optimal length.  With
    ``any_robot`` (the vortex) the robots are interchangeable: positions are
    sorted cells, and any robot on the target solves."""
    free = [board.index(c) for c in (cells or [c for c in board.cells() if c not in board.blocked])]
    if any_robot:
        rows = list(itertools.combinations(sorted(free), robots))
    else:
        rows = [(a, *hs) for a in free for hs in itertools.combinations([c for c in free if c != a], robots - 1)]
    cells = np.array(rows, dtype=np.int64).reshape(len(rows), robots)
    n = board.width * board.height

    def key(c: np.ndarray) -> np.ndarray:
        k = c[:, 0].copy()
        for i in range(1, c.shape[1]):
            k = k * n + c[:, i]
        return k

    keys = key(cells)
    order = np.argsort(keys)
    succ = []
    for j in range(robots):
        for d in DIRECTIONS:
            moved = cells.copy()
            moved[:, j] = _slide(board, cells, j, int(d), d.dx, d.dy)
            if any_robot:
                moved = np.sort(moved, axis=1)
            else:
                moved[:, 1:] = np.sort(moved[:, 1:], axis=1)
            at = order[np.searchsorted(keys, key(moved), sorter=order)]
            succ.append(at)
    successors = np.stack(succ, axis=1)
    goal = np.any(cells == board.index(target), axis=1) if any_robot else cells[:, 0] == board.index(target)
    lengths = np.where(goal, 0, INF).astype(np.int64)
    while True:
        relaxed = np.minimum(lengths, lengths[successors].min(axis=1) + 1)
        relaxed[relaxed > INF] = INF
        if np.array_equal(relaxed, lengths):
            return Brute(board, cells, lengths, successors)
        lengths = relaxed


def slide_matches_engine(b: Brute, samples: int = 50, seed: int = 0, any_robot: bool = False) -> None:
    """Assert that the brute force's moves are the engine's (Position.play)."""
    rng = np.random.default_rng(seed)
    colors = ("red", "green", "blue", "yellow")
    for p in rng.choice(len(b.cells), size=min(samples, len(b.cells)), replace=False):
        pos = Position(b.board, tuple(Robot(colors[i], b.board.cell(int(c))) for i, c in enumerate(b.cells[p])))
        for j in range(b.cells.shape[1]):
            for k, d in enumerate(DIRECTIONS):
                try:
                    after = pos.play(Move(j, d))[0].cells[j]
                except ValueError:  # the robot cannot move: the brute force stays put
                    after = pos.cells[j]
                moved = [b.board.index(c) for c in pos.cells]
                moved[j] = b.board.index(after)
                got = b.cells[b.successors[p, j * 4 + k], :].tolist()
                want = sorted(moved) if any_robot else [moved[0], *sorted(moved[1:])]
                assert got == want, (pos.cells, j, d)
