"""Robots on a board, and the physics of a move.

A :class:`Position` is a board, the robots on it, the current goal cell (a goal
tower does not block), the :class:`~ricochet.rules.Rules` it is played by and
all their state: which robot moved last and how (*no moving straight back*)
and, under *must ricochet*, each robot's last heading and whether it has turned.
Applying a :class:`Move` returns the new position and the :class:`Path` the
robot took, so a front end can animate it.

>>> from ricochet.board import Board
>>> p = Position(Board.build(4, 4), (Robot("red", (0, 0)),))
>>> q, path = p.play(Move(0, Direction.E))
>>> q.robots[0].cell, path.cells
((3, 0), ((0, 0), (1, 0), (2, 0), (3, 0)))
>>> Move(0, Direction.E) in p.legal_moves, Move(0, Direction.N) in p.legal_moves
(True, False)
"""

from __future__ import annotations

import enum
import warnings
from collections import deque
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from .board import ROBOT_COLORS, Board, Color
from .errors import RicochetError
from .geometry import DIRECTIONS, Cell, Direction
from .rules import PLAIN, Rules

if TYPE_CHECKING:
    from .puzzle import Puzzle

MAX_ROBOTS = len(ROBOT_COLORS)
LETTERS: dict[str, str] = {c.value: c.letter for c in Color}
COLOR_OF_LETTER: dict[str, Color] = {c.letter: c for c in Color}


class PositionError(RicochetError):
    """Robots that cannot stand where they were put; the message says why."""

    default_code = "position"


ILLEGAL_REASONS = ("robot", "blocked", "reversal", "cycle", "stop")


class IllegalMove(RicochetError):
    """A move that cannot be made: ``IllegalMove(message, reason)``.  ``reason``
    (also ``code``) is a stable keyword: ``robot`` (no such robot), ``blocked``
    (it would not move), ``reversal`` (no moving straight back), ``cycle`` (it
    would circle forever), ``stop`` (the transparent robot cannot stop there)."""

    default_code = "illegal_move"

    def __init__(self, message: str, reason: str = "illegal_move") -> None:
        if message in ILLEGAL_REASONS and reason not in ILLEGAL_REASONS:
            # The order before errors had one base class: (reason, message).
            warnings.warn("IllegalMove(reason, message) is deprecated: write IllegalMove(message, reason)",
                          DeprecationWarning, stacklevel=2)
            message, reason = reason, message
        super().__init__(message, reason)

    @property
    def reason(self) -> str:
        return self.code


class StepEvent(enum.StrEnum):
    """What happened as a robot entered a cell (a :class:`str` enum, so
    ``event == "wrap"`` and ``"deflect" in event`` work): ``wrap`` (came through
    a wall opening), ``wall`` (the transparent robot passed a wall, +1),
    ``deflect`` (bounced off a diagonal), ``pass`` (crossed a diagonal of its own
    colour, free), ``diagonal`` (the transparent robot crossed a diagonal, +1),
    and the pairs that can happen on one step (``wrap+deflect`` …).

    >>> StepEvent.WRAP_DEFLECT.parts
    (StepEvent.WRAP, StepEvent.DEFLECT)
    """

    WRAP = "wrap"
    WALL = "wall"
    DEFLECT = "deflect"
    PASS = "pass"
    DIAGONAL = "diagonal"
    WRAP_DEFLECT = "wrap+deflect"
    WRAP_PASS = "wrap+pass"
    WRAP_DIAGONAL = "wrap+diagonal"
    WALL_DEFLECT = "wall+deflect"
    WALL_DIAGONAL = "wall+diagonal"

    def __repr__(self) -> str:
        return f"StepEvent.{self.name}"

    @property
    def parts(self) -> tuple[StepEvent, ...]:
        """The single events this one is made of."""
        return tuple(StepEvent(p) for p in self.value.split("+"))


@dataclass(frozen=True, init=False)
class Robot:
    """A robot: its colour (a :class:`~ricochet.board.Color`, or its name) and its cell."""

    color: Color
    cell: Cell

    def __init__(self, color: Color | str, cell: Cell) -> None:
        # A colour name becomes the Color; anything else is reported by Position, which knows the robot's index.
        object.__setattr__(self, "color", Color(color) if type(color) is not Color and color in ROBOT_COLORS
                           else color)
        object.__setattr__(self, "cell", cell)

    @property
    def letter(self) -> str:
        return LETTERS[self.color]


@dataclass(frozen=True, repr=False)
class Move:
    """Robot ``robot`` (an index into the position's robots) moves ``direction``.

    The transparent robot's moves also name where it stops (``stop``), since it
    may stop at or pass through each interior wall.  In text a move names its
    robot by colour, so reading and writing one needs the position
    (:meth:`Position.parse_move`, :meth:`Position.move_text`).

    >>> Move(0, Direction.N), Move(5, Direction.W, stop=(2, 3))
    (Move(0, Direction.N), Move(5, Direction.W, stop=(2, 3)))
    >>> eval(repr(Move(5, Direction.W, stop=(2, 3)))) == Move(5, Direction.W, (2, 3))
    True
    """

    robot: int
    direction: Direction
    stop: Cell | None = None

    def __repr__(self) -> str:
        stop = "" if self.stop is None else f", stop={self.stop!r}"
        return f"Move({self.robot!r}, {self.direction!r}{stop})"


@dataclass(frozen=True, repr=False)
class Step:
    """One cell entered on a path and the heading on leaving it.

    ``event`` says what happened on the way in (a :class:`StepEvent`), or
    ``None`` for a plain step."""

    cell: Cell
    heading: Direction
    event: StepEvent | None = None

    def __post_init__(self) -> None:
        if self.event is not None and type(self.event) is not StepEvent:
            object.__setattr__(self, "event", StepEvent(self.event))

    def __repr__(self) -> str:
        event = "" if self.event is None else f", {self.event!r}"
        return f"Step({self.cell!r}, {self.heading!r}{event})"


@dataclass(frozen=True, repr=False)
class Path:
    """The trip of one move: where it started, every step, and what it cost.

    >>> path = Path(0, (0, 0), Direction.E, (Step((1, 0), Direction.E), Step((2, 0), Direction.E)))
    >>> path
    Path(0, (0, 0), Direction.E, (Step((1, 0), Direction.E), Step((2, 0), Direction.E)))
    >>> eval(repr(path)) == path, path.end
    (True, (2, 0))
    """

    robot: int
    start: Cell
    direction: Direction
    steps: tuple[Step, ...]
    cost: int = 1

    def __repr__(self) -> str:
        cost = "" if self.cost == 1 else f", cost={self.cost!r}"
        return f"Path({self.robot!r}, {self.start!r}, {self.direction!r}, {self.steps!r}{cost})"

    @property
    def end(self) -> Cell:
        return self.steps[-1].cell if self.steps else self.start

    @property
    def heading(self) -> Direction:
        """The heading when the robot stopped (after any deflection)."""
        return self.steps[-1].heading if self.steps else self.direction

    @property
    def cells(self) -> tuple[Cell, ...]:
        """Start cell followed by every cell entered, in order."""
        return (self.start,) + tuple(s.cell for s in self.steps)

    @property
    def deflected(self) -> bool:
        """True when a diagonal turned the robot during this move (a ricochet)."""
        return any(s.event is not None and "deflect" in s.event for s in self.steps)

    def to_dict(self) -> dict[str, object]:
        """The wire form (:func:`ricochet.notation.wire.path_to_wire`)."""
        from .notation.wire import path_to_wire
        return path_to_wire(self)


class LegalMoves:
    r"""The legal moves of a position, generated lazily (as python-chess's
    ``board.legal_moves``): iterate for :class:`Move`\ s, test with ``in``,
    count with :func:`len`.  Transparent moves name their stop.

    >>> from ricochet.board import Board
    >>> p = Position(Board.build(3, 3), (Robot("red", (0, 0)),))
    >>> list(p.legal_moves)
    [Move(0, Direction.E), Move(0, Direction.S)]
    >>> len(p.legal_moves), Move(0, Direction.W) in p.legal_moves
    (2, False)
    """

    __slots__ = ("_position",)

    def __init__(self, position: Position) -> None:
        self._position = position

    def __iter__(self) -> Iterator[Move]:
        for move, _ in self.with_paths():
            yield move

    def with_paths(self) -> Iterator[tuple[Move, Path]]:
        """Each legal move with the path it takes."""
        pos = self._position
        for i, r in enumerate(pos.robots):
            for d in DIRECTIONS:
                try:
                    paths = pos.paths(i, d)
                except IllegalMove:
                    continue
                for p in paths:
                    yield Move(i, d, p.end if r.color == Color.TRANSPARENT else None), p

    def __contains__(self, move: object) -> bool:
        return isinstance(move, Move) and self._position.is_legal(move)

    def __len__(self) -> int:
        return sum(1 for _ in self.with_paths())

    def count(self) -> int:
        return len(self)

    def __bool__(self) -> bool:
        return any(True for _ in self.with_paths())

    def __call__(self, rules: Rules | None = None) -> list[tuple[Move, Path]]:
        """The form before the generator: ``position.legal_moves(rules)`` lists
        every legal move with its path (``rules``: an override of the position's)."""
        pos = self._position if rules is None else self._position.with_rules(rules)
        return list(LegalMoves(pos).with_paths())

    def __repr__(self) -> str:
        pos = self._position
        return f"<LegalMoves ({', '.join(pos.move_text(m) for m in self)})>"


@dataclass(frozen=True, repr=False)
class Position:
    """An immutable position: board, robots, goal cell, the rules it is played
    by and their state.

    - ``last_move``: the robot that moved last and its heading (*no moving
      straight back*);
    - ``headings`` and ``turned``: under *must ricochet*, each robot's heading
      after its last move (``None``: it has not moved) and the robots that have
      turned 90° (or bounced off a diagonal) so far.  Empty unless the rules
      have must-ricochet on.

    ``repr`` is the expression that rebuilds it from its position code, ``str``
    the terminal diagram, and a notebook draws it:

    >>> from ricochet.rules import GAME
    >>> p = Position.from_code("1A3B4A2A.r00gf0b0fyff")
    >>> p
    Position.from_code('1A3B4A2A.r00gf0b0fyff')
    >>> eval(repr(p)) == p
    True
    >>> q, _ = p.with_rules(GAME).play(p.parse_move("RS"))
    >>> q
    Position.from_code('1A3B4A2A.r05gf0b0fyff.!mns.~rS.^rS0')
    >>> eval(repr(q)) == q
    True
    """

    board: Board
    robots: tuple[Robot, ...]
    goal: Cell | None = None
    last_move: tuple[int, Direction] | None = None
    rules: Rules = PLAIN
    headings: tuple[Direction | None, ...] = ()
    turned: frozenset[int] = frozenset()

    def __post_init__(self) -> None:
        object.__setattr__(self, "robots", tuple(self.robots))
        if not isinstance(self.rules, Rules):
            raise PositionError(f"rules must be a Rules value, got {type(self.rules).__name__}")
        if not 1 <= len(self.robots) <= MAX_ROBOTS:
            raise PositionError(f"robots: need 1 to {MAX_ROBOTS} robots, got {len(self.robots)}")
        seen_cells: dict[Cell, int] = {}
        seen_colors: set[str] = set()
        for i, r in enumerate(self.robots):
            if r.color not in ROBOT_COLORS:
                raise PositionError(f"robots[{i}]: colour {r.color!r} is not one of {', '.join(ROBOT_COLORS)}")
            if r.color in seen_colors:
                raise PositionError(f"robots[{i}]: two {r.color} robots")
            seen_colors.add(r.color)
            c = r.cell
            if not (isinstance(c, tuple) and len(c) == 2 and all(isinstance(v, int) for v in c)):
                raise PositionError(f"robots[{i}]: cell must be (x, y), got {c!r}")
            if not self.board.in_bounds(c):
                raise PositionError(f"robots[{i}] ({r.color}) at {c[0]},{c[1]} is off the "
                                    f"{self.board.width}×{self.board.height} board")
            if c in self.board.blocked:
                raise PositionError(f"robots[{i}] ({r.color}) at {c[0]},{c[1]} is on a blocked cell")
            if c in seen_cells:
                raise PositionError(f"robots[{i}] ({r.color}) and robots[{seen_cells[c]}] are both on {c[0]},{c[1]}")
            seen_cells[c] = i
        if self.goal is not None and not self.board.in_bounds(self.goal):
            raise PositionError(f"goal {self.goal} is off the board")
        if self.last_move is not None and not 0 <= self.last_move[0] < len(self.robots):
            raise PositionError(f"last_move: no robot {self.last_move[0]!r}")
        headings = tuple(self.headings)
        if headings and len(headings) != len(self.robots):
            raise PositionError(f"headings: one per robot ({len(self.robots)}), got {len(headings)}")
        if not any(h is not None for h in headings):
            headings = ()
        object.__setattr__(self, "headings", headings)
        object.__setattr__(self, "turned", frozenset(self.turned))
        if any(not (isinstance(i, int) and 0 <= i < len(self.robots)) for i in self.turned):
            raise PositionError(f"turned: robot indices 0..{len(self.robots) - 1}, got {sorted(self.turned)}")
        if any(not headings or headings[i] is None for i in self.turned):
            raise PositionError("turned: a robot that has turned has moved: give its heading too")
        if (headings or self.turned) and not self.rules.must_ricochet:
            raise PositionError("headings and turned are the state of must-ricochet, which these rules leave off")

    # -- showing itself ----------------------------------------------------------------
    def __repr__(self) -> str:
        return f"Position.from_code({self.code()!r})"

    def __str__(self) -> str:
        from .terminal import render_terminal
        return render_terminal(self, color=False)

    def _repr_svg_(self) -> str:
        from .svg import svg
        return svg(self, size=400, coordinates=True)

    # -- notation ----------------------------------------------------------------------
    def code(self) -> str:
        """The position code (:mod:`ricochet.notation.code`): board, robots,
        goal, rules and their state."""
        from .notation.code import position_code
        return position_code(self)

    @classmethod
    def from_code(cls, code: str) -> Position:
        """The position of a code (a puzzle's code gives its position)."""
        from .notation.code import parse_code
        value = parse_code(code)
        return value if isinstance(value, Position) else value.position

    def move_text(self, move: Move, arrows: bool = False) -> str:
        """A move in notation, e.g. ``RN`` or ``TN@3,4`` (robot letters are this position's)."""
        from .notation.moves import format_move
        return format_move(move, self, arrows)

    def parse_move(self, text: str) -> Move:
        """The move written ``text`` (``RN``, ``g←``, ``TN@3,4``) for these robots."""
        from .notation.moves import parse_move
        return parse_move(text, self)

    def solution_text(self, moves: Iterable[Move], arrows: bool = False) -> str:
        """Moves in notation separated by spaces, e.g. ``RN GE BS``."""
        from .notation.moves import format_solution
        return format_solution(list(moves), self, arrows)

    def parse_solution(self, text: str) -> list[Move]:
        """The moves written ``text`` (``"RN GE BS"``, ``"rn,ge"``, ``"R↑ G→"``)."""
        from .notation.moves import parse_solution
        return parse_solution(text, self)

    # -- rules ---------------------------------------------------------------------
    def with_rules(self, rules: Rules) -> Position:
        """The same position played by other rules (the must-ricochet state is
        dropped when they switch it off)."""
        if rules == self.rules:
            return self
        if rules.must_ricochet:
            return replace(self, rules=rules)
        return replace(self, rules=rules, headings=(), turned=frozenset())

    def fresh(self) -> Position:
        """The same robots with no rule state: nobody has moved yet (a new round)."""
        if self.last_move is None and not self.headings and not self.turned:
            return self
        return replace(self, last_move=None, headings=(), turned=frozenset())

    def puzzle(self, target: Cell, active: int | None = 0) -> Puzzle:
        """A :class:`~ricochet.puzzle.Puzzle` of this position: robot ``active``
        (``None``: any robot) must reach ``target``."""
        from .puzzle import Puzzle
        return Puzzle(self, target, active)

    # -- queries --------------------------------------------------------------
    def robot_at(self, cell: Cell) -> int | None:
        """Index of the robot on that cell, if any."""
        for i, r in enumerate(self.robots):
            if r.cell == cell:
                return i
        return None

    def index_of(self, color: str) -> int:
        """Index of the robot of that colour."""
        for i, r in enumerate(self.robots):
            if r.color == color:
                return i
        raise KeyError(f"no {color} robot in this position")

    @property
    def cells(self) -> tuple[Cell, ...]:
        return tuple(r.cell for r in self.robots)

    def with_robots(self, cells: Sequence[Cell]) -> Position:
        """Same robots (colours) on other cells; the rule state is cleared."""
        return replace(self, robots=tuple(Robot(r.color, c) for r, c in zip(self.robots, cells, strict=True)),
                       last_move=None, headings=(), turned=frozenset())

    @property
    def legal_moves(self) -> LegalMoves:
        """The legal moves, generated lazily: ``for move in p.legal_moves``,
        ``move in p.legal_moves`` (the form ``p.legal_moves(rules)`` still lists
        ``(move, path)`` pairs)."""
        return LegalMoves(self)

    def is_legal(self, move: Move) -> bool:
        """Whether :meth:`play` accepts ``move``."""
        try:
            self.play(move)
        except IllegalMove:
            return False
        return True

    # -- physics ----------------------------------------------------------------
    def blocks(self, cell: Cell, mover: int, rules: Rules | None = None) -> bool:
        """True when a robot ``mover`` cannot enter ``cell`` (another robot,
        a blocked cell, or a tower that is not the passable goal tower)."""
        return cell in self._obstacles(mover, self.rules if rules is None else rules)

    def _obstacles(self, mover: int, rules: Rules) -> set[Cell]:
        """Every cell robot ``mover`` cannot enter (see :meth:`blocks`), built
        once per move rather than tested cell by cell."""
        out = set(self.board.blocked)
        out.update(c for c in self.board.towers if not (rules.goal_tower_passthrough and c == self.goal))
        out.update(r.cell for i, r in enumerate(self.robots) if i != mover)
        return out

    def paths(self, robot: int, direction: Direction, rules: Rules | None = None) -> list[Path]:
        """Every way robot ``robot`` can move ``direction``: one path for an
        ordinary robot, one per reachable stop (cheapest route) for the
        transparent robot.  Raises :class:`IllegalMove` when there is none.
        ``rules`` overrides the position's own (kept for compatibility)."""
        rules = self.rules if rules is None else rules
        if not (isinstance(robot, int) and 0 <= robot < len(self.robots)):
            raise IllegalMove(f"there is no robot {robot!r} (this position has {len(self.robots)})", "robot")
        if (rules.no_straight_back and self.last_move is not None
                and self.last_move == (robot, direction.opposite)):
            color = self.robots[robot].color
            raise IllegalMove(f"the {color} robot may not move straight back ({direction.name}) "
                              "until another robot has moved", "reversal")
        if self.robots[robot].color == "transparent":
            return self._transparent_paths(robot, direction, rules)
        return [self._slide(robot, direction, rules)]

    def _enter(self, robot: int, cell: Cell, heading: Direction, rules: Rules) -> tuple[StepEvent | None, Direction]:
        """What an ordinary robot does on entering ``cell``: event and new heading."""
        dg = self.board.diagonal_at(cell) if rules.diagonals else None
        if dg is None:
            return None, heading
        if dg.color == self.robots[robot].color:
            return StepEvent.PASS, heading
        return StepEvent.DEFLECT, dg.deflect(heading)

    def _next(self, cell: Cell, heading: Direction, rules: Rules) -> tuple[Cell | None, bool]:
        """The cell a robot at ``cell`` heading ``heading`` would enter (ignoring
        obstacles), and whether that goes through an opening.  None: a wall."""
        if rules.openings and self.board.is_opening(cell, heading):
            return self.board.wrap(cell, heading), True
        if self.board.walls[self.board.index(cell)] & heading:  # an opening switched off is a wall
            return None, False
        return heading.step(cell), False

    def _slide(self, robot: int, direction: Direction, rules: Rules) -> Path:
        start = self.robots[robot].cell
        color = self.robots[robot].color
        obstacles = self._obstacles(robot, rules)
        cell, heading = start, direction
        steps: list[Step] = []
        seen = {(cell, heading)}
        while True:
            nxt, wrapped = self._next(cell, heading, rules)
            if nxt is None or nxt in obstacles:
                break
            event, heading = self._enter(robot, nxt, heading, rules)
            cell = nxt
            steps.append(Step(cell, heading, _join(StepEvent.WRAP if wrapped else None, event)))
            if (cell, heading) in seen:
                raise IllegalMove(f"the {color} robot would circle forever moving {direction.name}", "cycle")
            seen.add((cell, heading))
        if cell == start:
            raise IllegalMove(f"the {color} robot cannot move {direction.name}: it would not leave its cell",
                              "blocked")
        return Path(robot, start, direction, tuple(steps), 1)

    def _transparent_paths(self, robot: int, direction: Direction, rules: Rules) -> list[Path]:
        """Cheapest stops of the transparent robot, by a bucketed Dijkstra over
        (cell, heading): sliding and bouncing are free, passing a wall or a
        diagonal costs one.  It may stop at a passable wall (free) or where an
        obstacle forces it.  States leave the buckets in cost order, first in
        first out, so ties are broken the same way by the compiled solver."""
        start = self.robots[robot].cell
        obstacles = self._obstacles(robot, rules)
        State = tuple[Cell, Direction]
        best: dict[State, int] = {(start, direction): 0}
        parent: dict[State, tuple[State, Step] | None] = {(start, direction): None}
        buckets: list[deque[State]] = [deque([(start, direction)])]
        stops: dict[Cell, tuple[int, State]] = {}
        halts = False  # met a wall or obstacle anywhere (else every route circles forever)

        def relax(state: State, cost: int, prev: State, step: Step) -> None:
            if cost < best.get(state, 1 << 30):
                best[state] = cost
                parent[state] = (prev, step)
                while len(buckets) <= cost:
                    buckets.append(deque())
                buckets[cost].append(state)

        cost = 0
        while cost < len(buckets):
            if not buckets[cost]:
                cost += 1
                continue
            state = buckets[cost].popleft()
            if best[state] != cost:
                continue
            cell, heading = state
            nxt, wrapped = self._next(cell, heading, rules)
            passed_wall = False
            if nxt is None and self.board.wall_passable(cell, heading):
                nxt, passed_wall = heading.step(cell), True
            blocked = nxt is None or nxt in obstacles
            halts = halts or blocked or passed_wall
            if (blocked or passed_wall) and cell != start and cell not in stops:
                stops[cell] = (cost, state)
            if nxt is None or blocked:
                continue
            extra = 1 if passed_wall else 0
            base = StepEvent.WALL if passed_wall else (StepEvent.WRAP if wrapped else None)
            dg = self.board.diagonal_at(nxt) if rules.diagonals else None
            if dg is None:
                relax((nxt, heading), cost + extra, state, Step(nxt, heading, base))
            else:
                bounce = dg.deflect(heading)
                relax((nxt, bounce), cost + extra, state, Step(nxt, bounce, _join(base, StepEvent.DEFLECT)))
                relax((nxt, heading), cost + extra + 1, state, Step(nxt, heading, _join(base, StepEvent.DIAGONAL)))
        if not stops:
            if not halts:
                raise IllegalMove(f"the transparent robot would circle forever moving {direction.name}", "cycle")
            raise IllegalMove(f"the transparent robot cannot move {direction.name}", "blocked")
        out = []
        for cell, (cost, state) in sorted(stops.items(), key=lambda kv: (kv[1][0], kv[0])):
            steps: list[Step] = []
            link = parent[state]
            while link is not None:
                prev, step = link
                steps.append(step)
                link = parent[prev]
            out.append(Path(robot, start, direction, tuple(reversed(steps)), 1 + cost))
        return out

    def play(self, move: Move, rules: Rules | None = None) -> tuple[Position, Path]:
        """Apply a move: the new position (with the rule state updated) and the
        path taken, or :class:`IllegalMove`.  ``rules`` overrides the
        position's own (kept for compatibility; the new position carries them)."""
        if rules is not None and rules != self.rules:
            return self.with_rules(rules).play(move)
        options = self.paths(move.robot, move.direction)
        if move.stop is None:
            if len(options) > 1:
                raise IllegalMove(f"the transparent robot moving {move.direction.name} may stop at "
                                  f"{', '.join(f'{c[0]},{c[1]}' for c in (p.end for p in options))}: say where",
                                  "stop")
            path = options[0]
        else:
            found = [p for p in options if p.end == move.stop]
            if not found:
                raise IllegalMove(f"the {self.robots[move.robot].color} robot moving {move.direction.name} "
                                  f"cannot stop at {move.stop[0]},{move.stop[1]}", "stop")
            path = found[0]
        robots = list(self.robots)
        robots[move.robot] = Robot(robots[move.robot].color, path.end)
        return self._successor(tuple(robots), move, path), path

    def _successor(self, robots: tuple[Robot, ...], move: Move, path: Path) -> Position:
        """The position after a legal move, without validating it again (a move
        keeps robots on free, distinct cells): ``play`` is the referee's and
        the solver checker's hot path."""
        headings, turned = self.headings, self.turned
        if self.rules.must_ricochet:
            # Ruling 2: a robot has ricocheted once it turned 90° from its last heading or bounced off a diagonal.
            prev = headings[move.robot] if headings else None
            if path.deflected or (prev is not None and prev.perpendicular(move.direction)):
                turned = turned | {move.robot}
            now: list[Direction | None] = list(headings) if headings else [None] * len(robots)
            now[move.robot] = path.heading
            headings = tuple(now)
        new = object.__new__(Position)
        for name, value in (("board", self.board), ("robots", robots), ("goal", self.goal),
                            ("last_move", (move.robot, path.heading)), ("rules", self.rules),
                            ("headings", headings), ("turned", turned)):
            object.__setattr__(new, name, value)
        return new

    def replay(self, moves: Iterable[Move], rules: Rules | None = None) -> tuple[Position, list[Path]]:
        """Apply moves in order; raises :class:`IllegalMove` at the first bad one."""
        pos = self if rules is None else self.with_rules(rules)
        paths = []
        for m in moves:
            pos, path = pos.play(m)
            paths.append(path)
        return pos, paths


def _join(a: StepEvent | None, b: StepEvent | None) -> StepEvent | None:
    """Combine step events, e.g. a wrap followed by a deflection: ``wrap+deflect``."""
    if a is None or b is None:
        return a if b is None else b
    return StepEvent(f"{a}+{b}")
