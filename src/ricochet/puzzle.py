"""Puzzles (a position, a target, the active robot) and solution checking.

A puzzle's rules are its position's: ``Puzzle(position.with_rules(GAME), …)``
or ``puzzle.with_rules(GAME)``, and every function that takes the puzzle
(:func:`check_solution`, :func:`ricochet.solver.solve`) plays by them.

>>> from ricochet import Board, Direction, Robot
>>> pz = Puzzle(Position(Board.build(4, 4), (Robot("red", (0, 0)), Robot("green", (3, 3)))), (3, 0), active=0)
>>> check_solution(pz, [Move(0, Direction.E)]).ok
True
>>> check_solution(pz.with_rules(GAME), [Move(0, Direction.E)]).failure.reason
'no_ricochet'
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from .board import Board, Color
from .geometry import Cell
from .position import IllegalMove, Move, Path, Position, PositionError
from .rules import GAME, PLAIN, Rules

__all__ = ["GAME", "PLAIN", "Failure", "Puzzle", "Verdict", "check_solution", "unpack"]

NEUTRAL_COLORS = (Color.SILVER, Color.TRANSPARENT)


@dataclass(frozen=True, init=False, repr=False)
class Puzzle:
    """A position, the target cell and the active robot (``None``: any robot,
    as for the cosmic vortex).  The position's goal is set to the target.

    ``rules`` are the position's (one truth: ``puzzle.rules is
    puzzle.position.rules``); passing ``rules=`` puts them into the position.
    ``optimal`` is a known optimal length, ``id`` a name.

    >>> from ricochet import GAME
    >>> pz = Puzzle.from_code("1A3B4A2A.r00gf0b0fyff.r85", optimal=7)
    >>> pz
    Puzzle.from_code('1A3B4A2A.r00gf0b0fyff.r85', optimal=7)
    >>> eval(repr(pz)) == pz
    True
    >>> pz.with_rules(GAME)
    Puzzle.from_code('1A3B4A2A.r00gf0b0fyff.r85.!mns', optimal=7)
    """

    position: Position
    target: Cell
    active: int | None
    optimal: int | None
    id: str | None

    def __init__(self, position: Position, target: Cell, active: int | None = 0, rules: Rules | None = None,
                 optimal: int | None = None, id: str | None = None) -> None:
        if rules is not None and isinstance(position, Position):
            position = position.with_rules(rules)
        for name, value in (("position", position), ("target", target), ("active", active),
                            ("optimal", optimal), ("id", id)):
            object.__setattr__(self, name, value)
        self.__post_init__()

    @property
    def rules(self) -> Rules:
        """The rules the puzzle is played by: its position's."""
        return self.position.rules

    def with_rules(self, rules: Rules) -> Puzzle:
        """The same puzzle played by other rules."""
        return self if rules == self.rules else replace(self, position=self.position.with_rules(rules))

    # -- showing itself ----------------------------------------------------------------
    def __repr__(self) -> str:
        extra = "".join(f", {k}={v!r}" for k, v in (("optimal", self.optimal), ("id", self.id)) if v is not None)
        return f"Puzzle.from_code({self.code()!r}{extra})"

    def __str__(self) -> str:
        from .terminal import render_terminal
        return render_terminal(self, color=False)

    def _repr_svg_(self) -> str:
        from .svg import svg
        return svg(self, size=400, coordinates=True)

    # -- notation ----------------------------------------------------------------------
    def code(self) -> str:
        """The puzzle's code (:mod:`ricochet.notation.code`); ``optimal`` and ``id`` are not part of it."""
        from .notation.code import puzzle_code
        return puzzle_code(self)

    @classmethod
    def from_code(cls, code: str, *, optimal: int | None = None, id: str | None = None) -> Puzzle:
        """The puzzle of a code with a target section (:class:`~ricochet.notation.NotationError` otherwise)."""
        from .notation.code import parse_code
        from .notation.errors import NotationError
        value = parse_code(code)
        if not isinstance(value, Puzzle):
            raise NotationError("a position code without a target section: use Position.from_code, or add "
                                "the target (e.g. .r85: the red robot to 8,5)")
        return value if optimal is None and id is None else replace(value, optimal=optimal, id=id)

    def __post_init__(self) -> None:
        if not isinstance(self.position, Position):
            raise PositionError(f"position must be a Position, got {type(self.position).__name__}")
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
    """Is ``moves`` a solution of ``puzzle`` by its rules?  A solution must be
    legal move by move, end with the robot that counts on the target and, with
    *must ricochet*, that robot must have turned by 90° at least once (a
    diagonal bounce counts; the position tracks it).  With ``max_cost`` (a bid)
    it must also cost no more than that.  ``rules`` overrides the puzzle's own
    (kept for compatibility: prefer ``puzzle.with_rules(rules)``).

    Failure reasons: ``robot``, ``blocked``, ``reversal``, ``cycle``, ``stop``
    (illegal moves), ``not_reached``, ``no_ricochet``, ``too_long``."""
    if rules is not None:
        puzzle = puzzle.with_rules(rules)
    pos = puzzle.position
    paths: list[Path] = []
    cost = 0
    for i, move in enumerate(moves):
        try:
            pos, path = pos.play(move)
        except IllegalMove as e:
            return Verdict(False, cost, tuple(paths), pos, Failure(i, e.reason, f"move {i + 1}: {e}"))
        paths.append(path)
        cost += path.cost
    winner = puzzle.solved_by(pos)
    if winner is None:
        who = "any robot" if puzzle.active is None else f"the {pos.robots[puzzle.active].color} robot"
        return Verdict(False, cost, tuple(paths), pos,
                       Failure(None, "not_reached", f"{who} is not on the target {puzzle.target[0]},{puzzle.target[1]}"))
    if pos.rules.must_ricochet and winner not in pos.turned:
        return Verdict(False, cost, tuple(paths), pos,
                       Failure(None, "no_ricochet", f"the {pos.robots[winner].color} robot reached the target "
                                                    "without a ricochet (it must turn 90° at least once)"))
    if max_cost is not None and cost > max_cost:
        return Verdict(False, cost, tuple(paths), pos,
                       Failure(None, "too_long", f"the solution takes {cost} moves, more than {max_cost}"))
    return Verdict(True, cost, tuple(paths), pos)
