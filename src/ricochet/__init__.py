"""ricochet: Alex Randolph's Ricochet Robots and its family of robot puzzle games.

The layers, lowest first: :mod:`ricochet.geometry` (cells, directions),
:mod:`ricochet.board` (the immutable board), :mod:`ricochet.rules` (rule
switches), :mod:`ricochet.position` (robots, the rules they are played by and
the physics of a move), :mod:`ricochet.puzzle` (targets and solution
checking).  The solver (:mod:`ricochet.solver`) and the environments
(:mod:`ricochet.envs`) are imported on their own.

>>> from ricochet import Puzzle
>>> Puzzle.from_code("1A3B4A2A.r52ge9bdey0e.r41.!mns").rules.name
'game'
"""

from .board import Board, BoardError, Color, Diagonal, Target
from .errors import RicochetError
from .geometry import Cell, Direction, parse_cell
from .position import IllegalMove, LegalMoves, Move, Path, Position, PositionError, Robot, Step, StepEvent
from .puzzle import Failure, Puzzle, Verdict, check_solution
from .rules import GAME, PLAIN, Rules

__version__ = "0.1.0"

__all__ = [
    "GAME",
    "PLAIN",
    "Board",
    "BoardError",
    "Cell",
    "Color",
    "Diagonal",
    "Direction",
    "Failure",
    "IllegalMove",
    "LegalMoves",
    "Move",
    "Path",
    "Position",
    "PositionError",
    "Puzzle",
    "RicochetError",
    "Robot",
    "Rules",
    "Step",
    "StepEvent",
    "Target",
    "Verdict",
    "check_solution",
    "parse_cell",
]
