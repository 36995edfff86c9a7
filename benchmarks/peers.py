"""Adapters that feed our puzzles to other solvers, for ``ricochet bench --peer-c``.

Nothing of the other solvers is copied here: they are built by their own
build scripts from their public sources in a scratch directory (never in this
repository), and this module only talks to what they export.

The C solver (github.com/fogleman/Ricochet, ``ricochet.c``)
----------------------------------------------------------------
Built with its own ``build_ricochet`` script (``gcc -std=c99 -O3``), it is a
shared library whose ``search(Game *game, unsigned char *path, callback)``
returns the optimal number of moves.  Its input is a C struct that this
module fills from a :class:`~ricochet.puzzle.Puzzle`:

- ``grid[256]``: per cell (``x + 16 y``) the wall bits N=1, E=2, S=4, W=8 (the
  same bits as our ``Board.walls``) and 0x10 where a robot stands;
- ``moves[256]``: its own scratch (filled by ``search``);
- ``robots[4]``: the robots' cells, **the robot that must finish first**;
- ``token``: the target cell; ``last``: 0 (no previous move).

It knows 16×16 boards, four robots, one robot that must finish and plain rules
only; it has no blocked cells, so the sides that face a blocked cell (the
centre block) are given walls (a robot then stops where our engine stops it).
Puzzles it cannot express (any-robot "vortex" targets, other sizes or
robot counts, diagonals, towers, openings, rule variants) are reported as
such and left out of the comparison.

Build (in a scratch directory)::

    git clone https://github.com/fogleman/Ricochet /tmp/peer-c   # or any copy of its source
    cd /tmp/peer-c && sh build_ricochet                            # makes /tmp/peer-c/_ricochet
    .venv/bin/ricochet bench --peer-c /tmp/peer-c/_ricochet
"""

from __future__ import annotations

import ctypes
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from ricochet.puzzle import Puzzle

ROBOT_BIT = 0x10
SIDES = ((0, -1, 1), (1, 0, 2), (0, 1, 4), (-1, 0, 8))  # dx, dy, wall bit: N, E, S, W


class _Game(ctypes.Structure):
    _fields_ = [("grid", ctypes.c_uint * 256), ("moves", ctypes.c_uint * 256), ("robots", ctypes.c_uint * 4),
                ("token", ctypes.c_uint), ("last", ctypes.c_uint)]


def c_unsupported(puzzle: Puzzle) -> str | None:
    """Why the C solver cannot take ``puzzle`` (None: it can)."""
    pos = puzzle.position
    board = pos.board
    rules = puzzle.rules
    if (board.width, board.height) != (16, 16):
        return "not a 16x16 board"
    if len(pos.robots) != 4:
        return "not four robots"
    if puzzle.active is None:
        return "any robot may finish (vortex)"
    if board.diagonals or board.towers or board.openings:
        return "diagonals, towers or openings"
    if rules.no_straight_back or rules.must_ricochet or pos.last_move is not None:
        return "a rule variant"
    if any(r.color == "transparent" for r in pos.robots):
        return "a transparent robot"
    return None


def to_c_game(puzzle: Puzzle) -> _Game:
    """The C solver's ``Game`` struct for ``puzzle`` (see the module's doc)."""
    pos = puzzle.position
    board = pos.board
    game = _Game()
    blocked = board.blocked
    for y in range(16):
        for x in range(16):
            mask = board.walls[y * 16 + x]
            for dx, dy, bit in SIDES:
                if (x + dx, y + dy) in blocked or (x, y) in blocked:
                    mask |= bit
            game.grid[y * 16 + x] = mask
    assert puzzle.active is not None
    order = [puzzle.active] + [i for i in range(4) if i != puzzle.active]
    for k, i in enumerate(order):
        x, y = pos.robots[i].cell
        game.robots[k] = x + 16 * y
        game.grid[x + 16 * y] |= ROBOT_BIT
    tx, ty = puzzle.target
    game.token = tx + 16 * ty
    game.last = 0
    return game


@dataclass
class PeerRun:
    """One peer's results on a set: per puzzle the optimal length (None: left
    out) and seconds inside the peer's search call."""

    name: str
    lengths: list[int | None]
    seconds: list[float]
    skipped: dict[str, int]

    @property
    def total(self) -> float:
        return sum(self.seconds)

    @property
    def count(self) -> int:
        return sum(1 for n in self.lengths if n is not None)


class CSolver:
    """The C solver's shared library (``_ricochet`` from its ``build_ricochet``)."""

    name = "C (fogleman/Ricochet)"

    def __init__(self, path: str | Path) -> None:
        self.lib = ctypes.CDLL(str(Path(path).resolve()))
        self.lib.search.restype = ctypes.c_uint
        self.lib.search.argtypes = [ctypes.POINTER(_Game), ctypes.c_char_p, ctypes.c_void_p]

    def solve(self, puzzle: Puzzle) -> tuple[int, float]:
        """(optimal length, seconds inside ``search``); the struct is built before the clock starts."""
        game = to_c_game(puzzle)
        path = ctypes.create_string_buffer(256)
        t0 = time.perf_counter()
        n = self.lib.search(ctypes.byref(game), path, None)
        return int(n), time.perf_counter() - t0

    def run(self, puzzles: Sequence[Puzzle]) -> PeerRun:
        lengths: list[int | None] = []
        seconds: list[float] = []
        skipped: dict[str, int] = {}
        for p in puzzles:
            why = c_unsupported(p)
            if why is not None:
                skipped[why] = skipped.get(why, 0) + 1
                lengths.append(None)
                seconds.append(0.0)
                continue
            n, dt = self.solve(p)
            lengths.append(n)
            seconds.append(dt)
        return PeerRun(self.name, lengths, seconds, skipped)
