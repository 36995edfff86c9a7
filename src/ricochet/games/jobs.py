"""Jobs the games ask of the shell: the solver's optimal solution of a puzzle.

:func:`solve_job` makes a :class:`~ricochet.games.interface.Job` whose key is
the puzzle itself, so the server's report of a round, every bot at that table
and the same puzzle in another room share one search.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..position import Move
from ..puzzle import Puzzle
from ..rules import Rules
from .interface import Job

__all__ = ["Answer", "solve_job", "solve_puzzle"]

TIME_LIMIT = 30.0
"""Seconds a round's search may take before it is reported as ``timeout``."""
MAX_MOVES = 40


@dataclass(frozen=True)
class Answer:
    """An optimal solution (``optimal`` moves, ``None`` when none was found:
    ``status`` says why: ``unsolvable``, ``limit``, ``timeout`` or ``error``)."""

    status: str
    optimal: int | None
    moves: tuple[Move, ...] = ()


def solve_puzzle(puzzle: Puzzle, rules: Rules, time_limit: float = TIME_LIMIT, max_moves: int = MAX_MOVES) -> Answer:
    """The solver's answer for one puzzle (runs in the server's worker process)."""
    from ..solver import solve

    sol = solve(puzzle, rules, time_limit=time_limit, max_moves=max_moves)
    return Answer(sol.status, sol.length if sol.solved else None, tuple(sol.moves) if sol.solved else ())


def puzzle_key(puzzle: Puzzle, rules: Rules) -> tuple[Any, ...]:
    return ("solve", puzzle.position.board, puzzle.position.robots, puzzle.target, puzzle.active, rules)


def solve_job(puzzle: Puzzle, rules: Rules, to_action: Callable[[Answer], Any] | None = None) -> Job:
    """The job of solving ``puzzle`` optimally (``to_action``: what the game makes of the answer)."""
    return Job(puzzle_key(puzzle, rules), solve_puzzle, (puzzle, rules), to_action)
