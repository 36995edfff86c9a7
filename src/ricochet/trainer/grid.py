"""Training puzzles of the library's own engine (a board, robots, a target; solved by
the solver, named by a position code): the shared part of the trainer specs of the
games played on it (Ricochet Robots, Ricochet Pyramids).  A game says how it draws a
candidate, which boards are its own, and what drawing needs beyond the puzzle."""

from __future__ import annotations

import abc
import random
from typing import Any

from ..notation import NotationError, parse_code, puzzle_code, puzzle_to_json, solution_from_json, solution_to_json
from ..position import PositionError
from ..puzzle import Puzzle, check_solution
from ..rules import Rules
from .spec import Attempt, TrainerError, TrainerPuzzle, TrainerSpec, puzzle_id

__all__ = ["GridSpec"]


class GridSpec(TrainerSpec):
    """The trainer spec of a game of the library's engine (see the module docstring)."""

    rules: Rules
    """The rules its training puzzles are played under."""
    robot_count: int
    """The robots of its training puzzles (``robots-N`` themes go up to it)."""
    features: tuple[str, ...] = ()
    """The themes of :mod:`.themes` beyond those every game of the engine has (``solo``,
    ``helpers``, ``robots-N``, ``ricochets-N``) that its puzzles can show: ``diagonal``,
    ``vortex``, ``wall-pass``.  A theme picker offers only these."""

    @abc.abstractmethod
    def candidate(self, style: str, rng: random.Random) -> Puzzle | None:
        """One random puzzle of ``style`` (not solved yet), or ``None``: draw again."""

    @abc.abstractmethod
    def style_of(self, puzzle: Puzzle) -> str:
        """The style of a puzzle read from a shared code; :class:`TrainerError` when it is
        not a puzzle of this game (the message says what one is)."""

    @abc.abstractmethod
    def display(self, puzzle: Puzzle) -> dict[str, Any]:
        """What drawing the puzzle needs beyond it (a chip, the towers' colours)."""

    # -- making puzzles --------------------------------------------------------------------------
    def draw(self, style: str, rng: random.Random, length: int, time_left: float | None) -> TrainerPuzzle | None:
        from ..solver import solve

        cand = self.candidate(style, rng)
        if cand is None:
            return None
        if cand.active is not None and cand.position.robots[cand.active].cell == cand.target:
            return None  # already there: no puzzle (Ricochet Pyramids redraws such a goal too)
        sol = solve(cand, self.rules, max_moves=length, time_limit=time_left, check=True)
        if not sol.solved or sol.length is None or sol.length < self.lengths[0]:
            return None
        return self.finish(style, cand, sol.length, sol.moves)

    def finish(self, style: str, puzzle: Puzzle, optimal: int, moves: Any) -> TrainerPuzzle:
        """A puzzle with its solution, ready to store and serve."""
        code = puzzle_code(puzzle)
        data = puzzle_to_json(Puzzle(puzzle.position, puzzle.target, puzzle.active, rules=self.rules,
                                     optimal=optimal, id=puzzle_id(self.game, code)))
        return TrainerPuzzle(self.game, style, code, optimal, tuple(tuple(m) for m in solution_to_json(moves)), data,
                             self.display(puzzle))

    def from_code(self, code: str, time_limit: float | None) -> TrainerPuzzle:
        try:
            parsed = parse_code(code)
        except NotationError as e:
            raise TrainerError(f"code: {e}") from None
        if not isinstance(parsed, Puzzle):
            raise TrainerError("code: a position without a target; a puzzle code ends with the active robot and "
                               "the target, like .r85")
        pz = Puzzle(parsed.position, parsed.target, parsed.active)
        style = self.style_of(pz)
        from ..solver import solve

        sol = solve(pz, self.rules, max_moves=self.lengths[1] + 10, time_limit=time_limit, check=True)
        if not sol.solved or sol.length is None or sol.length == 0:
            raise TrainerError(f"code: this puzzle has no solution the trainer can use ({sol.reason or sol.status})")
        return self.finish(style, pz, sol.length, sol.moves)

    def validate_code(self, code: str) -> None:
        try:
            parsed = parse_code(code)
        except (NotationError, PositionError) as e:
            raise TrainerError(f"code: {e}") from None
        if not isinstance(parsed, Puzzle):
            raise TrainerError("code: a position without a target")

    # -- playing them ------------------------------------------------------------------------------
    @staticmethod
    def engine(tp: TrainerPuzzle) -> Puzzle:
        """The engine's puzzle of a training puzzle (its code)."""
        parsed = parse_code(tp.code)
        assert isinstance(parsed, Puzzle)
        return parsed

    def check_attempt(self, tp: TrainerPuzzle, moves: list[Any]) -> Attempt:
        pz = self.engine(tp)
        try:
            parsed = solution_from_json(moves, pz.position)
        except NotationError as e:
            raise TrainerError(str(e).replace("solution", "moves")) from None
        verdict = check_solution(pz.with_rules(self.rules), parsed)
        if not verdict.ok:
            assert verdict.failure is not None
            return Attempt("failed", verdict.cost, verdict.failure.message)
        return Attempt("optimal" if verdict.cost <= tp.optimal else "found", verdict.cost)

    def solution_paths(self, tp: TrainerPuzzle) -> list[Any]:
        """The optimal solution's paths (``Path.to_dict()`` each)."""
        pz = self.engine(tp)
        verdict = check_solution(pz.with_rules(self.rules),
                                 solution_from_json([list(m) for m in tp.solution], pz.position))
        return [p.to_dict() for p in verdict.paths]

    def hint_details(self, tp: TrainerPuzzle) -> dict[str, Any]:
        """``robots``: the colours of the robots that move, in the position's order."""
        colors = [r.color for r in self.engine(tp).position.robots]
        return {"robots": sorted({colors[m[0]] for m in tp.solution}, key=colors.index)}
