"""Ricochet Pyramids in the trainer: the 8×8 board with nine towers (style ``random``, or
the seed's ``easy`` and ``hard`` layouts), three robots, a goal tower.  A puzzle is
named by its position code; the towers' colours are dealt from the board's code, so
the code alone gives the whole puzzle."""

from __future__ import annotations

import random
from typing import Any

from ...notation import board_code
from ...position import Position, Robot
from ...puzzle import Puzzle
from ...trainer.grid import GridSpec
from ...trainer.spec import TrainerError
from .setup import COLORS, LAYOUTS, RULES, SIZE, board_of, deal_towers, random_cells

__all__ = ["SPEC", "PyramidsTrainer"]


class PyramidsTrainer(GridSpec):
    """The trainer spec of Ricochet Pyramids (see the module docstring)."""

    game = "pyramids"
    share_name = "Pyramids"
    styles = ("random", "easy", "hard")
    lengths = (2, 12)
    base_length = 5
    points_per_move = 110.0
    streak_start = 2
    streak_every = 2
    week = ((3, "easy"), (4, "random"), (5, "random"), (6, "random"), (7, "random"), (8, "hard"), (9, "hard"))
    robot_count = 3
    rules = RULES

    def candidate(self, style: str, rng: random.Random) -> Puzzle | None:
        cells = random_cells(9, rng) if style == "random" else LAYOUTS[style]
        board = board_of(deal_towers(cells, COLORS[:3], rng))
        free = [(x, y) for y in range(SIZE) for x in range(SIZE) if (x, y) not in board.towers]
        robots = tuple(Robot(c, cell) for c, cell in zip(COLORS[:3], rng.sample(free, 3), strict=True))
        target = rng.choice(sorted(board.towers))
        return Puzzle(Position(board, robots), target, rng.randrange(3))

    def style_of(self, puzzle: Puzzle) -> str:
        board = puzzle.position.board
        colors = [r.color for r in puzzle.position.robots]
        if (board.width, board.height) != (8, 8) or len(board.towers) != 9 or puzzle.target not in board.towers or \
                colors != ["red", "green", "yellow"] or puzzle.active is None:
            raise TrainerError("code: Ricochet Pyramids training puzzles have 9 towers on the 8×8 board, the red, "
                               "green and yellow robots, and a goal tower for one of them")
        return "random"

    def display(self, puzzle: Puzzle) -> dict[str, Any]:
        """The towers' colours (dealt from the board's code), the goal and the active robot's colour."""
        pos = puzzle.position
        active = None if puzzle.active is None else pos.robots[puzzle.active].color
        towers = deal_towers(sorted(pos.board.towers), COLORS[:3],
                             random.Random(f"trainer:towers:{board_code(pos.board)}"))
        goal = next(t for t in towers if t.cell == puzzle.target)
        return {"towers": [t.to_dict() for t in towers], "active_color": active,
                "goal": {"robot": active, "top": goal.top, "bottom": goal.bottom}}


SPEC = PyramidsTrainer()
