"""ricochet: Alex Randolph's Ricochet Robots and its family of robot puzzle games.

The layers, lowest first: :mod:`ricochet.geometry` (cells, directions),
:mod:`ricochet.board` (the immutable board), :mod:`ricochet.rules` (rule
switches), :mod:`ricochet.position` (robots and the physics of a move),
:mod:`ricochet.puzzle` (targets and solution checking).
"""

from .board import Board, BoardError, Diagonal, Target
from .geometry import Cell, Direction, parse_cell
from .position import IllegalMove, Move, Path, Position, PositionError, Robot, Step
from .puzzle import Failure, Puzzle, Verdict, check_solution
from .rules import GAME, PLAIN, Rules

__version__ = "0.1.0"

__all__ = [
    "GAME",
    "PLAIN",
    "Board",
    "BoardError",
    "Cell",
    "Diagonal",
    "Direction",
    "Failure",
    "IllegalMove",
    "Move",
    "Path",
    "Position",
    "PositionError",
    "Puzzle",
    "Robot",
    "Rules",
    "Step",
    "Target",
    "Verdict",
    "check_solution",
    "parse_cell",
]
