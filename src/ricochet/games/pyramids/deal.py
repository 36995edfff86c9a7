"""A Ricochet Pyramids puzzle dealt exactly as a game deals its first round: a pure
function of a seed (no game is played; the same pieces of :mod:`.setup` the game draws
with, and the solver's check the game asks of the server).

Towers of every colour pair on the layout, one robot per colour on empty squares, a
goal drawn from the three pools and checked by the solver, redrawn while it is
unsolvable or solvable in fewer than ``min_moves`` moves (from the 30th draw on any
solvable goal stands, as in the game).

>>> import random
>>> d = deal(random.Random(3), min_moves=4)
>>> d.puzzle.optimal >= 4 and len(d.towers) == 9 and d.puzzle.target in d.puzzle.position.board.towers
True
"""

from __future__ import annotations

import random
from dataclasses import dataclass, replace

from ...position import Position
from ...puzzle import Puzzle
from ..interface import OptionsError
from ..jobs import solve_puzzle
from .setup import COLORS, LAYOUTS, RULES, Goal, Tower, board_of, draw_goal, goal_verdict, initial_towers, place_robots

__all__ = ["DEAL_MIN_MOVES", "Deal", "deal", "deal_seeded"]

DEAL_MIN_MOVES = 3
"""The fewest moves of a puzzle dealt for study (the command line): seed 003's suggestion "that
non-newbies require at least 3 moves".  A room's game keeps every solvable goal unless its
players agree on a minimum (the ``min_moves`` option, default 1)."""


@dataclass(frozen=True)
class Deal:
    """A random Ricochet Pyramids puzzle and what the puzzle formats do not keep:
    the towers' colours and the goal tree drawn (robot, tower top and bottom)."""

    puzzle: Puzzle
    """Plain rules (the goal tower does not block); ``optimal`` from the solver's check
    (``None`` if it gave up); ``id`` ``pyramids-<layout>-<colors>c-<min_moves>m-<seed>``."""
    towers: tuple[Tower, ...]
    goal: Goal
    draws: int
    """Goals drawn, the accepted one included (the others were unsolvable or too easy)."""


def deal(rng: random.Random, *, colors: int = 3, layout: str = "random", min_moves: int = DEAL_MIN_MOVES) -> Deal:
    """A puzzle dealt by the game of a seed drawn from ``rng`` (:func:`deal_seeded`)."""
    return deal_seeded(rng.getrandbits(32), colors=colors, layout=layout, min_moves=min_moves)


def deal_seeded(seed: int, *, colors: int = 3, layout: str = "random", min_moves: int = DEAL_MIN_MOVES) -> Deal:
    """The first round the game of ``seed`` deals with these options: the same towers,
    robots and goal as a room whose game has that seed.  Bad options raise
    :class:`~ricochet.games.OptionsError` naming the option."""
    if isinstance(colors, bool) or colors not in (3, 4):
        raise OptionsError(f"colors must be 3 or 4, got {colors!r}")
    if layout != "random" and (layout not in LAYOUTS or colors != 3):
        raise OptionsError(f"layout must be random (or easy or hard, with 3 colours), got {layout!r}")
    if isinstance(min_moves, bool) or not isinstance(min_moves, int) or not 1 <= min_moves <= 8:
        raise OptionsError(f"min_moves must be a whole number from 1 to 8, got {min_moves!r}")
    palette = COLORS[:colors]
    towers = initial_towers(seed, layout, palette)
    board = board_of(towers)
    start = Position(board, place_robots(seed, towers, palette), rules=RULES)
    draws = 0
    for draw in range(1, 1_000_000):
        goal, tower, active, skipped = draw_goal(seed, draws, palette, towers, start)
        draws += 1 + skipped
        puzzle = Puzzle(replace(start, goal=tower.cell), tower.cell, active)
        answer = solve_puzzle(puzzle)
        if goal_verdict(answer.status, answer.optimal, min_moves, draw) == "accepted":
            return Deal(replace(puzzle.with_rules(RULES), optimal=answer.optimal,
                                id=f"pyramids-{layout}-{colors}c-{min_moves}m-{seed}"), towers, goal, draw)
    raise AssertionError("a goal is accepted by the 30th draw at the latest")  # pragma: no cover
