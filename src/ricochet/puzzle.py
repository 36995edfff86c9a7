"""Puzzles (a position, a target, the active robot) and solution checking.

>>> from ricochet.board import Board
>>> from ricochet.position import Robot
>>> pz = Puzzle(Position(Board.build(4, 4), (Robot("red", (0, 0)), Robot("green", (3, 3)))), (3, 0), active=0)
>>> check_solution(pz, [Move(0, Direction.E)]).ok
True
>>> check_solution(pz, [Move(0, Direction.E)], GAME).failure.reason
'no_ricochet'
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from .board import Board
from .geometry import Cell, Direction
from .position import IllegalMove, Move, Path, Position, PositionError
from .rules import GAME, PLAIN, Rules

__all__ = ["GAME", "PLAIN", "Failure", "Puzzle", "Verdict", "check_solution", "unpack"]

NEUTRAL_COLORS = ("silver", "transparent")


@dataclass(frozen=True)
class Puzzle:
    """A position, the target cell and the active robot (``None``: any robot,
    as for the cosmic vortex).  The position's goal is set to the target.

    ``rules`` are the puzzle's own rules (from a file's ``rules`` key);
    ``optimal`` is a known optimal length, ``id`` a name."""

    position: Position
    target: Cell
    active: int | None = 0
    rules: Rules = PLAIN
    optimal: int | None = None
    id: str | None = None

    def __post_init__(self) -> None:
        b = self.position.board
        if not (isinstance(self.target, tuple) and len(self.target) == 2 and b.in_bounds(self.target)):
            raise PositionError(f"target {self.target!r} is off the {b.width}×{b.height} board")
        if self.target in b.blocked:
            raise PositionError(f"target {self.target[0]},{self.target[1]} is on a blocked cell")
        if self.active is not None:
            if not (isinstance(self.active, int) and 0 <= self.active < len(self.position.robots)):
                raise PositionError(f"active: no robot {self.active!r} (there are {len(self.position.robots)})")
            color = self.position.robots[self.active].color
            if color in NEUTRAL_COLORS:
                raise PositionError(f"active: the {color} robot can be the active robot only for the cosmic "
                                    "vortex (any robot)")
        if self.position.goal != self.target:
            object.__setattr__(self, "position", replace(self.position, goal=self.target))

    @property
    def any_robot(self) -> bool:
        return self.active is None

    def solved_by(self, position: Position) -> int | None:
        """The robot that stands on the target and counts, or None."""
        idx = position.robot_at(self.target)
        if idx is None:
            return None
        if self.active is None or idx == self.active:
            return idx
        return None


def unpack(obj: Board | Position | Puzzle, caller: str) -> tuple[Board, Position | None, Cell | None]:
    """The board, position (if any) and goal (if any) of something drawable;
    ``caller`` names the function in the error for anything else."""
    if isinstance(obj, Puzzle):
        return obj.position.board, obj.position, obj.target
    if isinstance(obj, Position):
        return obj.board, obj, obj.goal
    if isinstance(obj, Board):
        return obj, None, None
    raise TypeError(f"{caller}() takes a Board, Position or Puzzle, not {type(obj).__name__}")


@dataclass(frozen=True)
class Failure:
    """Why a solution fails: the move index (``None`` for the end state), a
    stable ``reason`` keyword and a sentence for people."""

    move: int | None
    reason: str
    message: str


@dataclass(frozen=True)
class Verdict:
    """The result of :func:`check_solution`."""

    ok: bool
    cost: int
    """Moves counted so far (the transparent robot's passes count extra)."""
    paths: tuple[Path, ...]
    position: Position
    """The position after the last legal move."""
    failure: Failure | None = None

    def __bool__(self) -> bool:
        return self.ok


def check_solution(puzzle: Puzzle, moves: Sequence[Move], rules: Rules | None = None,
                   *, max_cost: int | None = None) -> Verdict:
    """Is ``moves`` a solution of ``puzzle`` under ``rules`` (default: the
    puzzle's own)?  A solution must be legal move by move, end with the robot
    that counts on the target and, with *must ricochet*, that robot must have
    turned by 90° at least once (a diagonal bounce counts).  With ``max_cost``
    (a bid) it must also cost no more than that.

    Failure reasons: ``robot``, ``blocked``, ``reversal``, ``cycle``, ``stop``
    (illegal moves), ``not_reached``, ``no_ricochet``, ``too_long``."""
    rules = puzzle.rules if rules is None else rules
    pos = puzzle.position
    paths: list[Path] = []
    cost = 0
    heading: dict[int, Direction] = {}
    turned: set[int] = set()
    for i, move in enumerate(moves):
        try:
            pos, path = pos.play(move, rules)
        except IllegalMove as e:
            return Verdict(False, cost, tuple(paths), pos, Failure(i, e.reason, f"move {i + 1}: {e}"))
        prev = heading.get(move.robot)
        if path.deflected or (prev is not None and prev.perpendicular(move.direction)):
            turned.add(move.robot)
        heading[move.robot] = path.heading
        paths.append(path)
        cost += path.cost
    winner = puzzle.solved_by(pos)
    if winner is None:
        who = "any robot" if puzzle.active is None else f"the {pos.robots[puzzle.active].color} robot"
        return Verdict(False, cost, tuple(paths), pos,
                       Failure(None, "not_reached", f"{who} is not on the target {puzzle.target[0]},{puzzle.target[1]}"))
    if rules.must_ricochet and winner not in turned:
        return Verdict(False, cost, tuple(paths), pos,
                       Failure(None, "no_ricochet", f"the {pos.robots[winner].color} robot reached the target "
                                                    "without a ricochet (it must turn 90° at least once)"))
    if max_cost is not None and cost > max_cost:
        return Verdict(False, cost, tuple(paths), pos,
                       Failure(None, "too_long", f"the solution takes {cost} moves, more than {max_cost}"))
    return Verdict(True, cost, tuple(paths), pos)
