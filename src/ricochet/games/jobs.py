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


def solve_puzzle(puzzle: Puzzle, time_limit: float = TIME_LIMIT, max_moves: int = MAX_MOVES) -> Answer:
    """The solver's answer for one puzzle, by its rules (runs in the server's worker process)."""
    from ..solver import solve

    sol = solve(puzzle, time_limit=time_limit, max_moves=max_moves, check=True)  # replayed by the engine
    return Answer(str(sol.status), sol.length if sol.solved else None, tuple(sol.moves) if sol.solved else ())


def puzzle_key(puzzle: Puzzle) -> tuple[Any, ...]:
    """What the answer depends on: the puzzle's position (board, robots, rules and their state), target
    and active robot — not its ``id`` or ``optimal``."""
    return ("solve", puzzle.position, puzzle.target, puzzle.active)


def solve_job(puzzle: Puzzle, to_action: Callable[[Answer], Any] | None = None) -> Job:
    """The job of solving ``puzzle`` optimally by its rules (``to_action``: what the game makes of the answer)."""
    return Job(puzzle_key(puzzle), solve_puzzle, (puzzle,), to_action)
