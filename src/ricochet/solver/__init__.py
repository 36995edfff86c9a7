"""The optimal solver: compiled A* (and IDA*) for every rule variant.  See
:mod:`ricochet.solver.api` for the algorithm and :func:`solve` for options,
:mod:`ricochet.solver.batch` for many puzzles on every core."""

from .api import (
    Solution,
    SolverError,
    effort_estimate,
    hint,
    solve,
    warm_up,
    warm_up_threads,
)
from .batch import solve_as_answered, solve_many

__all__ = ["Solution", "SolverError", "effort_estimate", "hint", "solve", "solve_as_answered", "solve_many", "warm_up",
           "warm_up_threads"]
