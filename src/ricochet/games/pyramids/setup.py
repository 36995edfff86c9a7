"""Ricochet Pyramids' pieces and how a game draws them from its seed: pure values and
functions shared by the game (:mod:`.game`) and the deal of a puzzle (:mod:`.deal`).

* the towers (a medium pyramid on a large one, every pair of the colours in play),
  their layouts (random, or the seed's ``easy`` and ``hard`` examples) and the rule
  that none may be completely surrounded;
* the robots set on empty squares, and each round's goal drawn from the three pools;
* the solver's verdict on a goal (accepted, too easy, unsolvable).

Every draw comes from ``random.Random(f"pyramids:{seed}:{what}")``: a game's seed
gives the same towers, robots and goals on every run and platform.

>>> towers = initial_towers(7, "easy", COLORS[:3])
>>> sorted(t.cell for t in towers) == sorted(LAYOUTS["easy"])
True
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ...board import Board
from ...geometry import Cell
from ...position import Position, Robot
from ...rules import Rules
from ..interface import ConfigError

__all__ = [
    "COLORS",
    "LAYOUTS",
    "MAX_DRAWS_WITH_MINIMUM",
    "OTHER_COLORS",
    "RULES",
    "SIZE",
    "Goal",
    "Tower",
    "board_of",
    "cell_name",
    "check_towers",
    "deal_towers",
    "draw_goal",
    "goal_verdict",
    "initial_towers",
    "place_robots",
    "random_cells",
    "seeded",
    "surrounded",
]

SIZE = 8
COLORS = ("red", "green", "yellow", "blue")
"""The stash colours: the first three by default (seed 003's example), all four in the 4-colour variant."""
OTHER_COLORS = {"red": "purple", "green": "orange", "yellow": "cyan", "blue": "white"}
"""How robots look in the "different coloured robots" variant (seed 003: "if 6 stashes are available")."""
RULES = Rules()
"""Plain play: the goal tower does not block (:attr:`Rules.goal_tower_passthrough`)."""
MAX_DRAWS_WITH_MINIMUM = 30


def _grid(text: str) -> tuple[Cell, ...]:
    return tuple((x, y) for y, row in enumerate(text.split()) for x, ch in enumerate(row) if ch == "T")


LAYOUTS: dict[str, tuple[Cell, ...]] = {
    # seed 003, "For example:" (easy setup, left; hard setup, right); rows top to bottom.
    "easy": _grid("TT.....T .......T ........ ..T..... ........ ........ T....... T.....TT"),
    "hard": _grid("........ .T..T... ......T. ..T..T.. ......T. ...T.... .T...T.. ........"),
}
"""The seed's two example layouts (towers' cells; their colours are dealt at random)."""


# -- values --------------------------------------------------------------------------------
@dataclass(frozen=True, order=True)
class Tower:
    """A tower: a medium pyramid of colour ``top`` on a large one of colour ``bottom``."""

    cell: Cell
    top: str
    bottom: str

    @property
    def name(self) -> str:
        return f"{self.top} on {self.bottom}"

    def to_dict(self) -> dict[str, Any]:
        return {"cell": list(self.cell), "top": self.top, "bottom": self.bottom}

    @staticmethod
    def from_dict(d: Mapping[str, Any]) -> Tower:
        return Tower((int(d["cell"][0]), int(d["cell"][1])), d["top"], d["bottom"])


@dataclass(frozen=True, order=True)
class Goal:
    """A goal tree: the small pyramid ``robot`` on the medium ``top`` on the large ``bottom``."""

    robot: str
    top: str
    bottom: str

    @property
    def name(self) -> str:
        return f"{self.robot} on {self.top} on {self.bottom}"

    def to_dict(self) -> dict[str, str]:
        return {"robot": self.robot, "top": self.top, "bottom": self.bottom}


def surrounded(cells: Sequence[Cell], size: int = SIZE) -> list[Cell]:
    """The towers completely surrounded by other towers (and the board's edge),
    so no robot can ever reach them (seed 003: not allowed).

    >>> surrounded([(0, 0), (1, 0), (0, 1)])
    [(0, 0)]
    """
    towers = set(cells)
    out = []
    for (x, y) in sorted(towers):
        around = [(x + dx, y + dy) for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1))
                  if 0 <= x + dx < size and 0 <= y + dy < size]
        if all(c in towers for c in around):
            out.append((x, y))
    return out


def cell_name(c: Cell) -> str:
    """A square as players read it: ``a8`` is the top left."""
    return f"{'abcdefgh'[c[0]]}{SIZE - c[1]}"


def check_towers(towers: Sequence[Tower], colors: Sequence[str]) -> None:
    """Refuse a layout that is not 3×3 (or 4×4) towers on distinct squares, none surrounded."""
    pairs = sorted((t.top, t.bottom) for t in towers)
    want = sorted((a, b) for a in colors for b in colors)
    if pairs != want:
        raise ConfigError(f"towers: need one tower of each pair of {', '.join(colors)} "
                          f"({len(want)} towers), got {len(towers)}")
    cells = [t.cell for t in towers]
    for c in cells:
        if not (0 <= c[0] < SIZE and 0 <= c[1] < SIZE):
            raise ConfigError(f"towers: cell {list(c)} is off the 8×8 board")
    if len(set(cells)) != len(cells):
        raise ConfigError("towers: two towers on one square")
    bad = surrounded(cells)
    if bad:
        raise ConfigError(f"towers: the tower on {cell_name(bad[0])} is completely surrounded by towers; "
                          "move one of them so robots can reach it")


def deal_towers(cells: Sequence[Cell], colors: Sequence[str], rng: random.Random) -> tuple[Tower, ...]:
    """Towers of every colour pair, dealt at random onto ``cells``."""
    pairs = [(a, b) for a in colors for b in colors]
    rng.shuffle(pairs)
    return tuple(sorted(Tower(c, top, bottom) for c, (top, bottom) in zip(cells, pairs, strict=True)))


def random_cells(n: int, rng: random.Random) -> tuple[Cell, ...]:
    """``n`` tower squares at random, none completely surrounded."""
    every = [(x, y) for y in range(SIZE) for x in range(SIZE)]
    while True:
        cells = tuple(rng.sample(every, n))
        if not surrounded(cells):
            return cells


def board_of(towers: Sequence[Tower]) -> Board:
    """The 8×8 board with these towers."""
    return Board.build(SIZE, SIZE, towers=[t.cell for t in towers])


# -- what a game draws from its seed --------------------------------------------------------------------
def seeded(seed: int, what: str) -> random.Random:
    """The random draws of ``what`` in the game of ``seed`` (a string seed is hashed by
    :mod:`random`: stable across runs and platforms)."""
    return random.Random(f"pyramids:{seed}:{what}")


def initial_towers(seed: int, layout: str, palette: Sequence[str]) -> tuple[Tower, ...]:
    """The towers a game starts from: ``layout`` ``random`` or one of :data:`LAYOUTS`,
    the colours dealt from ``seed``."""
    rng = seeded(seed, "layout")
    cells = random_cells(len(palette) ** 2, rng) if layout == "random" else LAYOUTS[layout]
    return deal_towers(cells, palette, rng)


def place_robots(seed: int, towers: Sequence[Tower], palette: Sequence[str]) -> tuple[Robot, ...]:
    """One robot of each colour of ``palette`` on empty squares, drawn from ``seed``."""
    taken = {t.cell for t in towers}
    free = [(x, y) for y in range(SIZE) for x in range(SIZE) if (x, y) not in taken]
    cells = seeded(seed, "robots").sample(free, len(palette))
    return tuple(Robot(c, cell) for c, cell in zip(palette, cells, strict=True))


def draw_goal(seed: int, draws: int, palette: Sequence[str], towers: Sequence[Tower],
              position: Position) -> tuple[Goal, Tower, int, int]:
    """The goal drawn after ``draws`` draws of the game of ``seed``: the goal (a large, a
    medium and a small pyramid from the three pools), its tower, the index of its robot
    in ``position``, and how many draws were put back because that robot already sat on
    that tower (seed 003: "Re-randomize if the indicated robot is already on the
    indicated tower")."""
    skipped = 0
    while True:
        rng = seeded(seed, f"goal:{draws + skipped}")
        bottom, top, small = (rng.choice(palette) for _ in range(3))
        tower = next(t for t in towers if (t.top, t.bottom) == (top, bottom))
        active = position.index_of(small)
        if position.robots[active].cell != tower.cell:
            return Goal(small, top, bottom), tower, active, skipped
        skipped += 1


def goal_verdict(status: str, optimal: int | None, min_moves: int, draw: int) -> str:
    """The solver's verdict on the ``draw``-th goal of a round: ``unsolvable``,
    ``too_easy`` (fewer moves than ``min_moves``; waived from the
    :data:`MAX_DRAWS_WITH_MINIMUM`-th draw on) or ``accepted`` (also when the search
    gave up: the goal stands, its optimum unknown).

    >>> goal_verdict("solved", 2, 3, 1), goal_verdict("solved", 2, 3, 30), goal_verdict("unsolvable", None, 3, 1)
    ('too_easy', 'accepted', 'unsolvable')
    """
    minimum = min_moves if draw < MAX_DRAWS_WITH_MINIMUM else 1
    if status == "unsolvable":
        return "unsolvable"
    if optimal is not None and optimal < minimum:
        return "too_easy"
    return "accepted"
