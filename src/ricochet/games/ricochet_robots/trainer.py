"""Ricochet Robots in the trainer: the real boards (style ``classic``: tiles A/B;
``diagonals``: tiles C/D, with coloured diagonals), four robots, one of the 17 printed
targets, the game's rules (must ricochet, no moving straight back) without the silver
robot.  A puzzle is named by its position code (:mod:`ricochet.notation.code`)."""

from __future__ import annotations

import random
from typing import Any

from ...puzzle import Puzzle
from ...rules import Rules
from ...trainer.grid import GridSpec
from ...trainer.spec import TrainerError

__all__ = ["SPEC", "RicochetRobotsTrainer"]


class RicochetRobotsTrainer(GridSpec):
    """The trainer spec of Ricochet Robots (see the module docstring)."""

    game = "ricochet-robots"
    share_name = "Ricochet"
    styles = ("classic", "diagonals")
    lengths = (2, 21)
    longest_on_request = 13  # 14 to 21 moves: made ahead of time (ricochet.trainer.long), never for a request
    base_length = 7
    points_per_move = 110.0
    streak_start = 3
    streak_every = 2
    week = ((4, "classic"), (5, "classic"), (6, "classic"), (7, "classic"), (8, "classic"), (9, "diagonals"),
            (10, "diagonals"))
    robot_count = 4
    rules = Rules(must_ricochet=True, no_straight_back=True)
    features = ("diagonal", "vortex")  # the diagonals style's boards; the cosmic vortex's chip

    def candidate(self, style: str, rng: random.Random) -> Puzzle | None:
        from ...generate import random_puzzle

        pz = random_puzzle(rng, self.rules, faces="AB" if style == "classic" else "CD")
        return Puzzle(pz.position, pz.target, pz.active)

    def style_of(self, puzzle: Puzzle) -> str:
        board = puzzle.position.board
        colors = [r.color for r in puzzle.position.robots]
        if (board.width, board.height) != (16, 16) or board.towers or not board.targets or \
                colors != ["red", "green", "blue", "yellow"]:
            raise TrainerError("code: Ricochet Robots training puzzles are on a real 16×16 board with the red, "
                               "green, blue and yellow robots")
        return "diagonals" if board.diagonals else "classic"

    def display(self, puzzle: Puzzle) -> dict[str, Any]:
        """The chip of the target and the active robot's colour."""
        pos = puzzle.position
        active = None if puzzle.active is None else pos.robots[puzzle.active].color
        chip = next(({"color": t.color, "symbol": t.symbol} for t in pos.board.targets if t.cell == puzzle.target),
                    {"color": active or "any", "symbol": "vortex" if active is None else "circle"})
        return {"chip": chip, "active_color": active}


SPEC = RicochetRobotsTrainer()
