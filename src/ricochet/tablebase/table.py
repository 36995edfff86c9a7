"""A built or loaded table and its queries: the optimal length of any
position in O(1), the optimal next moves (one step of lookups, played by the
engine), a whole optimal solution, the hardest positions and the histogram.

>>> from ricochet.board import Board
>>> from ricochet.notation import format_solution
>>> tb = Tablebase.build(Board.build(5, 5, walls=[(2, 2, "S"), (1, 3, "E")]), (2, 2), robots=2)
>>> start = [(0, 0), (4, 4)]                 # the active robot first
>>> tb.lookup(start), tb.longest, tb.histogram()[tb.longest]
(7, 9, 47)
>>> format_solution(tb.solution(start), tb.position(start))
'RS GW RN RE GN RW RS'
>>> format_solution(tb.best_moves(start), tb.position(start))  # every optimal first move
'RS GN'
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..board import Board
from ..geometry import DIRECTIONS, Cell
from ..position import IllegalMove, Move, Position, Robot
from ..puzzle import Puzzle
from . import store
from .build import Progress, build_table
from .layout import Layout, TablebaseError
from .retro import UNSEEN

BASE_COLORS = ("red", "green", "blue", "yellow")
ANY = "any"
"""The ``active_color`` of a vortex table: any robot may reach the target."""
RULES = "plain"

Query = Position | Puzzle | Sequence[Cell]
"""A position to look up: a :class:`Position` (the robot of the table's
active colour is the active one), a :class:`Puzzle` (its active robot; its
target must be the table's) or cells, the active robot's first.  For a
vortex table (any robot) the robots' order and colours do not matter, and a
puzzle must be an any-robot one."""


@dataclass(frozen=True)
class Entry:
    """A position of the table and its optimal length."""

    length: int
    active: Cell
    helpers: tuple[Cell, ...]

    @property
    def cells(self) -> tuple[Cell, ...]:
        return (self.active, *self.helpers)


class Tablebase:
    """Every position of one board, target and active robot with its optimal
    number of moves under the plain rules (any robot moves, slides until
    blocked).  Build one with :meth:`build`, open a saved one with :meth:`load`.
    A *vortex table* (``any_robot``, ``active_color == "any"``) counts a
    position solved when any robot stands on the target."""

    def __init__(self, layout: Layout, active_color: str, data: np.ndarray | store.StoredTable,
                 info: dict[str, Any] | None = None) -> None:
        self.layout = layout
        self.active_color = active_color
        self._data = data
        self.info: dict[str, Any] = dict(info or {})
        self._hist: dict[int, int] | None = None
        if "histogram" in self.info:
            self._hist = {int(k): int(v) for k, v in self.info["histogram"].items()}

    # -- making ----------------------------------------------------------------------
    @classmethod
    def build(cls, board: Board, target: Cell, *, robots: int = 4, active_color: str = "red",
              any_robot: bool = False, gpu: bool = False, progress: Progress | None = None) -> Tablebase:
        """Solve every position of ``robots`` robots on ``board`` for ``target``
        (backward breadth-first search from the positions with the active robot
        on it; with ``any_robot``, any robot on it: the vortex table)."""
        if any_robot:
            active_color = ANY
        elif active_color not in BASE_COLORS:
            raise TablebaseError(f"active: the active robot is one of {', '.join(BASE_COLORS)}, "
                                 f"not {active_color!r}")
        layout = Layout.of(board, target, robots, any_robot=any_robot)
        start = time.perf_counter()
        table = build_table(layout, gpu=gpu, progress=progress)
        info = {"seconds": round(time.perf_counter() - start, 3), "device": "gpu" if gpu else "cpu"}
        return cls(layout, active_color, table, info)

    @classmethod
    def load(cls, path: str | os.PathLike[str]) -> Tablebase:
        """Open a table file (memory-mapped; chunks are decompressed on demand)."""
        from ..notation import NotationError, parse_board_code

        stored = store.StoredTable.open(path)
        h = stored.header
        try:
            board = parse_board_code(h["board"])
            target = (int(h["target"][0]), int(h["target"][1]))
            color = str(h["active"])
            layout = Layout.of(board, target, int(h["robots"]), any_robot=color == ANY)
        except (KeyError, TypeError, IndexError, ValueError, NotationError) as e:
            raise TablebaseError(f"{stored.path}: damaged tablebase header: {e}") from None
        if h.get("rules") != RULES:
            raise TablebaseError(f"{stored.path}: rules {h.get('rules')!r} are not supported (only {RULES!r})")
        if layout.size != stored.size:
            raise TablebaseError(f"{stored.path}: the header's board and robots give {layout.size} positions, "
                                 f"the file holds {stored.size}")
        return cls(layout, color, stored, h)

    def header(self) -> dict[str, Any]:
        """The file header of this table (without the fields the writer adds)."""
        from ..notation import board_code
        from ..tiles import identify

        b = self.layout.board
        tiles = identify(b) if b.width == b.height == 16 else None
        target = b.target_at(self.layout.target)
        return {
            "board": board_code(b), "tiles": ",".join(tiles) if tiles else None,
            "target": list(self.layout.target), "target_name": target.name if target else None,
            "active": self.active_color, "robots": self.layout.robots, "rules": RULES,
            "cells": self.layout.cells, "histogram": {str(k): v for k, v in self.histogram().items()},
            "unreachable": self.unreachable, "build": {k: self.info[k] for k in ("seconds", "device") if k in self.info},
        }

    def save(self, path: str | os.PathLike[str]) -> None:
        """Write the table file (zstd chunks, header with a checksum)."""
        store.save(path, self.header(), self.array())

    def array(self) -> np.ndarray:
        """The whole table as bytes in index order (decompressed if loaded)."""
        if isinstance(self._data, store.StoredTable):
            self._data = self._data.array()
        return self._data

    @property
    def any_robot(self) -> bool:
        """Is this a vortex table (any robot may reach the target)?"""
        return self.layout.any_robot

    # -- lookups --------------------------------------------------------------------------
    def _byte(self, index: int) -> int:
        return int(self._data[index])

    def cells_of(self, query: Query) -> tuple[Cell, tuple[Cell, ...]]:
        """The active robot's cell and the helpers' cells of a query."""
        if isinstance(query, Puzzle):
            if query.target != self.layout.target:
                raise TablebaseError(f"target: this table is for {self.layout.target}, the puzzle's is {query.target}")
            if query.active is None and not self.any_robot:
                raise TablebaseError("this table is for one active robot, not any robot (cosmic vortex)")
            if query.active is not None and self.any_robot:
                raise TablebaseError("this table is for any robot (the vortex); the puzzle names an active robot")
            if query.rules.must_ricochet or query.rules.no_straight_back:
                raise TablebaseError("this table is for the plain rules (no must-ricochet, no no-straight-back)")
            cells = query.position.cells
            if query.active is None:
                return cells[0], tuple(cells[1:])
            return cells[query.active], tuple(c for i, c in enumerate(cells) if i != query.active)
        if isinstance(query, Position):
            if self.any_robot:
                return query.cells[0], tuple(query.cells[1:])
            try:
                i = query.index_of(self.active_color)
            except (KeyError, ValueError):
                raise TablebaseError(f"this table's active robot is {self.active_color}; the position has none") \
                    from None
            return query.cells[i], tuple(c for j, c in enumerate(query.cells) if j != i)
        listed = [tuple(c) for c in query]
        if not listed or any(len(c) != 2 for c in listed):
            raise TablebaseError("robots: give cells [x, y], the active robot's first")
        return listed[0], tuple(listed[1:])  # type: ignore[return-value,arg-type]

    def index(self, query: Query) -> int:
        """The table index of a position."""
        active, helpers = self.cells_of(query)
        return self.layout.index(active, helpers)

    def lookup(self, query: Query) -> int | None:
        """The optimal number of moves from a position (None: the target
        cannot be reached), in O(1)."""
        value = self._byte(self.index(query))
        return None if value == UNSEEN else value

    def position(self, query: Query) -> Position:
        """The query as a :class:`Position`: the active robot first, then the
        helpers in the other base colours."""
        if isinstance(query, Puzzle):
            return query.position
        if isinstance(query, Position):
            return query
        active, helpers = self.cells_of(query)
        colors = [self.active_color] + [c for c in BASE_COLORS if c != self.active_color]
        if self.any_robot:
            colors = list(BASE_COLORS)
        return Position(self.layout.board, tuple(Robot(colors[i], c) for i, c in enumerate((active, *helpers))))

    def puzzle(self, query: Query) -> Puzzle:
        """The query as a :class:`Puzzle` for this table's target."""
        if isinstance(query, Puzzle):
            return query
        pos = self.position(query)
        return Puzzle(pos, self.layout.target, active=None if self.any_robot else pos.index_of(self.active_color))

    def best_moves(self, query: Query) -> list[Move]:
        """Every optimal next move: those whose resulting position is one move
        shorter (moves are played by the engine; robot numbers are the
        query's, the active robot first for cells).  Empty on the target or
        when it cannot be reached."""
        pz = self.puzzle(query)
        here = self.lookup(pz)
        if not here:
            return []
        out = []
        for r in range(len(pz.position.robots)):
            for d in DIRECTIONS:
                move = Move(r, d)
                try:
                    nxt, _path = pz.position.play(move)
                except IllegalMove:
                    continue
                if self.lookup(Puzzle(nxt, pz.target, pz.active)) == here - 1:
                    out.append(move)
        return out

    def solution(self, query: Query) -> list[Move] | None:
        """One optimal solution (None when the target cannot be reached)."""
        pz = self.puzzle(query)
        if self.lookup(pz) is None:
            return None
        moves: list[Move] = []
        while True:
            best = self.best_moves(pz)
            if not best:
                return moves
            moves.append(best[0])
            pz = Puzzle(pz.position.play(best[0])[0], pz.target, pz.active)

    # -- the whole table ---------------------------------------------------------------------
    def _pieces(self) -> Iterator[tuple[int, np.ndarray]]:
        """(first index, bytes) pieces covering the table in order."""
        if isinstance(self._data, store.StoredTable):
            step = self._data.header["chunk"]
            for i in range(self._data.chunks):
                yield i * step, self._data.chunk(i)
        else:
            step = 1 << 24
            for lo in range(0, len(self._data), step):
                yield lo, self._data[lo:lo + step]

    def histogram(self) -> dict[int, int]:
        """How many positions need each number of moves (unreachable ones left out)."""
        if self._hist is None:
            from .cpu import histogram
            counts = np.zeros(256, dtype=np.int64)
            for _lo, piece in self._pieces():
                counts += histogram(piece)
            self._hist = {k: int(c) for k, c in enumerate(counts[:UNSEEN]) if c}
        return dict(self._hist)

    @property
    def unreachable(self) -> int:
        """Positions from which the target cannot be reached."""
        return self.layout.size - sum(self.histogram().values())

    @property
    def longest(self) -> int:
        """The greatest optimal length over every position."""
        return max(self.histogram())

    def hardest(self, n: int = 10) -> list[Entry]:
        """The ``n`` positions with the longest optimal solutions (longest first,
        then in table order)."""
        if n <= 0:
            return []
        hist = self.histogram()
        floor, total = self.longest, 0
        for length in sorted(hist, reverse=True):
            floor, total = length, total + hist[length]
            if total >= n:
                break
        found: dict[int, list[int]] = {}
        for lo, piece in self._pieces():
            for i in np.flatnonzero((piece >= floor) & (piece != UNSEEN)):
                found.setdefault(int(piece[i]), []).append(lo + int(i))
        out: list[Entry] = []
        for length in sorted(found, reverse=True):
            for index in found[length][:n - len(out)]:
                active, helpers = self.layout.position(index)
                out.append(Entry(length, active, helpers))
        return out

    def entries(self, length: int, limit: int | None = None) -> list[Entry]:
        """Positions of exactly ``length`` moves, in table order (at most ``limit``)."""
        out: list[Entry] = []
        for lo, piece in self._pieces():
            for i in np.flatnonzero(piece == length):
                if limit is not None and len(out) >= limit:
                    return out
                active, helpers = self.layout.position(lo + int(i))
                out.append(Entry(length, active, helpers))
        return out

    def close(self) -> None:
        if isinstance(self._data, store.StoredTable):
            self._data.close()
