"""Hypothesis strategies for small random boards, positions and rule sets.

Import with ``from strategies import boards, positions, rule_sets, PROPERTY``
(``conftest.py`` puts ``tests/`` on ``sys.path``).

* :func:`boards` — 3..10 wide/high, random interior walls, optional blocked
  cells, coloured diagonals, wall openings and towers (each feature can be
  switched off).
* :func:`positions` — a board (drawn or given) with 1..6 robots of distinct
  colours on distinct unblocked cells (robots may sit on towers and on
  diagonals, as after a Pyramids goal or a rest on a diagonal) and an optional
  goal cell (often a tower, the Pyramids goal tower).
* :func:`rule_sets` — plain, game, and random switch combinations.
* ``PROPERTY`` — the shared ``settings`` (deterministic, ≤ 200 examples).
"""

from __future__ import annotations

import os

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

from ricochet.board import DIAGONAL_COLORS, ROBOT_COLORS, Board, Diagonal
from ricochet.geometry import DIRECTIONS, Direction
from ricochet.position import Move, Position, Robot
from ricochet.rules import Rules

PROPERTY = settings(max_examples=int(os.environ.get("RICOCHET_PROPERTY_EXAMPLES", "150")),
                    derandomize=os.environ.get("RICOCHET_PROPERTY_RANDOM") is None, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
"""Deterministic settings for property tests (derandomized, 150 examples); for a
longer bug hunt set ``RICOCHET_PROPERTY_EXAMPLES=2000`` and ``RICOCHET_PROPERTY_RANDOM=1``."""


@st.composite
def boards(draw: st.DrawFn, *, min_size: int = 3, max_size: int = 10, blocked: bool = True,
           diagonals: bool = True, openings: bool = True, towers: bool = True) -> Board:
    """A random small board; at least half of its cells stay unblocked."""
    w = draw(st.integers(min_size, max_size), label="width")
    h = draw(st.integers(min_size, max_size), label="height")
    cells = [(x, y) for y in range(h) for x in range(w)]
    walls = draw(st.lists(st.tuples(st.integers(0, w - 1), st.integers(0, h - 1), st.sampled_from(DIRECTIONS)),
                          max_size=w * h // 2), label="walls")
    blocked_cells: frozenset = frozenset()
    if blocked and draw(st.booleans(), label="has blocked"):
        blocked_cells = frozenset(draw(st.sets(st.sampled_from(cells), min_size=1, max_size=max(1, w * h // 8)),
                                       label="blocked"))
    free = [c for c in cells if c not in blocked_cells]
    tower_cells: frozenset = frozenset()
    if towers and draw(st.booleans(), label="has towers"):
        tower_cells = frozenset(draw(st.sets(st.sampled_from(free), max_size=max(1, len(free) // 6)), label="towers"))
    diags: list[Diagonal] = []
    if diagonals and draw(st.booleans(), label="has diagonals"):
        spots = [c for c in free if c not in tower_cells]
        if spots:
            chosen = draw(st.sets(st.sampled_from(spots), max_size=max(1, len(spots) // 5)), label="diagonal cells")
            for c in sorted(chosen):
                diags.append(Diagonal(c, draw(st.sampled_from(DIAGONAL_COLORS)), draw(st.sampled_from(("/", "\\")))))
    gaps: list[tuple[tuple[int, int], Direction]] = []
    if openings and draw(st.booleans(), label="has openings"):
        border = [(c, d) for c in free for d in DIRECTIONS if not (0 <= c[0] + d.dx < w and 0 <= c[1] + d.dy < h)]
        gaps = sorted(draw(st.sets(st.sampled_from(border), min_size=1, max_size=4), label="openings"))
    wall_blocked = draw(st.booleans(), label="wall_blocked") if blocked_cells else True
    return Board.build(w, h, walls, blocked=blocked_cells, diagonals=diags, openings=gaps, towers=tower_cells,
                       wall_blocked=wall_blocked)


@st.composite
def positions(draw: st.DrawFn, board: Board | None = None, *, min_robots: int = 1, max_robots: int = 6,
              colors: tuple[str, ...] = ROBOT_COLORS, goal: bool = True, **board_options: bool) -> Position:
    """Robots of distinct colours (drawn from ``colors``) on distinct unblocked
    cells of ``board`` (or of a drawn board), and maybe a goal cell."""
    if board is None:
        board = draw(boards(**board_options))
    free = [c for c in board.cells() if c not in board.blocked]
    n = draw(st.integers(min_robots, min(max_robots, len(colors), len(free))), label="robots")
    chosen_colors = draw(st.permutations(colors), label="colours")[:n]
    spots = draw(st.lists(st.sampled_from(free), min_size=n, max_size=n, unique=True), label="robot cells")
    goal_cell = None
    if goal and draw(st.booleans(), label="has goal"):
        pool = sorted(board.towers) if board.towers and draw(st.booleans()) else free
        goal_cell = draw(st.sampled_from(pool), label="goal")
    return Position(board, tuple(Robot(c, s) for c, s in zip(chosen_colors, spots)), goal_cell)


def rule_sets() -> st.SearchStrategy[Rules]:
    """Plain, game, or any mix of the switches that change physics or legality."""
    return st.one_of(
        st.just(Rules()),
        st.just(Rules.preset("game")),
        st.builds(Rules, must_ricochet=st.booleans(), no_straight_back=st.booleans(), diagonals=st.booleans(),
                  openings=st.booleans(), goal_tower_passthrough=st.booleans()),
    )


def moves_for(position: Position) -> st.SearchStrategy[Move]:
    """A move of one of the position's robots (transparent robots may name a stop)."""
    n = len(position.robots)
    cells = list(position.board.cells())
    return st.builds(Move, st.integers(0, n - 1), st.sampled_from(DIRECTIONS),
                     st.one_of(st.none(), st.sampled_from(cells)))
