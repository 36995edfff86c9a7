"""The optimal solver: compiled IDA* for every rule variant.  See
:mod:`ricochet.solver.api` for the algorithm and :func:`solve` for options."""

from .api import Solution, SolverError, hint, solve, solve_many, warm_up

__all__ = ["Solution", "SolverError", "hint", "solve", "solve_many", "warm_up"]
