"""Robots on a board, and the physics of a move.

A :class:`Position` is a board, the robots on it, the current goal cell (a goal
tower does not block) and the rule state (which robot moved last and how, for
*no moving straight back*).  Applying a :class:`Move` returns the new position
and the :class:`Path` the robot took, so a front end can animate it.

>>> from ricochet.board import Board
>>> p = Position(Board.build(4, 4), (Robot("red", (0, 0)),))
>>> q, path = p.play(Move(0, Direction.E))
>>> q.robots[0].cell, path.cells
((3, 0), ((0, 0), (1, 0), (2, 0), (3, 0)))
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace

from .board import ROBOT_COLORS, Board
from .geometry import DIRECTIONS, Cell, Direction
from .rules import PLAIN, Rules

MAX_ROBOTS = len(ROBOT_COLORS)
LETTERS = {"red": "R", "green": "G", "blue": "B", "yellow": "Y", "silver": "S", "transparent": "T"}
COLOR_OF_LETTER = {v: k for k, v in LETTERS.items()}


class PositionError(ValueError):
    """Robots that cannot stand where they were put; the message says why."""


class IllegalMove(ValueError):
    """A move that cannot be made.  ``reason`` is a stable keyword:
    ``robot`` (no such robot), ``blocked`` (it would not move), ``reversal``
    (no moving straight back), ``cycle`` (it would circle forever), ``stop``
    (the transparent robot cannot stop there)."""

    def __init__(self, reason: str, message: str) -> None:
        super().__init__(message)
        self.reason = reason


@dataclass(frozen=True)
class Robot:
    """A robot: its colour (one of ``ROBOT_COLORS``) and its cell."""

    color: str
    cell: Cell

    @property
    def letter(self) -> str:
        return LETTERS[self.color]


@dataclass(frozen=True)
class Move:
    """Robot ``robot`` (an index into the position's robots) moves ``direction``.

    The transparent robot's moves also name where it stops (``stop``), since it
    may stop at or pass through each interior wall."""

    robot: int
    direction: Direction
    stop: Cell | None = None


@dataclass(frozen=True)
class Step:
    """One cell entered on a path and the heading on leaving it.

    ``event`` says what happened on the way in: ``None`` (a plain step),
    ``"wrap"`` (came through a wall opening), ``"wall"`` (the transparent robot
    passed a wall, +1), ``"deflect"`` (bounced off a diagonal: heading changed),
    ``"pass"`` (crossed a diagonal of its own colour, free) or ``"diagonal"``
    (the transparent robot crossed a diagonal, +1)."""

    cell: Cell
    heading: Direction
    event: str | None = None


@dataclass(frozen=True)
class Path:
    """The trip of one move: where it started, every step, and what it cost."""

    robot: int
    start: Cell
    direction: Direction
    steps: tuple[Step, ...]
    cost: int = 1

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
        return any("deflect" in (s.event or "") for s in self.steps)

    def to_dict(self) -> dict[str, object]:
        """A JSON-ready form for front ends."""
        return {
            "robot": self.robot, "start": list(self.start), "direction": self.direction.name,
            "steps": [{"cell": list(s.cell), "heading": s.heading.name, **({"event": s.event} if s.event else {})}
                      for s in self.steps],
            "cost": self.cost,
        }


@dataclass(frozen=True)
class Position:
    """An immutable position: board, robots, goal cell and no-straight-back state."""

    board: Board
    robots: tuple[Robot, ...]
    goal: Cell | None = None
    last_move: tuple[int, Direction] | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "robots", tuple(self.robots))
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
        """Same robots (colours) on other cells; the no-straight-back state is cleared."""
        return replace(self, robots=tuple(Robot(r.color, c) for r, c in zip(self.robots, cells, strict=True)),
                       last_move=None)

    # -- physics ----------------------------------------------------------------
    def blocks(self, cell: Cell, mover: int, rules: Rules = PLAIN) -> bool:
        """True when a robot ``mover`` cannot enter ``cell`` (another robot,
        a blocked cell, or a tower that is not the passable goal tower)."""
        return cell in self._obstacles(mover, rules)

    def _obstacles(self, mover: int, rules: Rules) -> set[Cell]:
        """Every cell robot ``mover`` cannot enter (see :meth:`blocks`), built
        once per move rather than tested cell by cell."""
        out = set(self.board.blocked)
        out.update(c for c in self.board.towers if not (rules.goal_tower_passthrough and c == self.goal))
        out.update(r.cell for i, r in enumerate(self.robots) if i != mover)
        return out

    def paths(self, robot: int, direction: Direction, rules: Rules = PLAIN) -> list[Path]:
        """Every way robot ``robot`` can move ``direction``: one path for an
        ordinary robot, one per reachable stop (cheapest route) for the
        transparent robot.  Raises :class:`IllegalMove` when there is none."""
        if not (isinstance(robot, int) and 0 <= robot < len(self.robots)):
            raise IllegalMove("robot", f"there is no robot {robot!r} (this position has {len(self.robots)})")
        if (rules.no_straight_back and self.last_move is not None
                and self.last_move == (robot, direction.opposite)):
            color = self.robots[robot].color
            raise IllegalMove("reversal", f"the {color} robot may not move straight back ({direction.name}) "
                                          "until another robot has moved")
        if self.robots[robot].color == "transparent":
            return self._transparent_paths(robot, direction, rules)
        return [self._slide(robot, direction, rules)]

    def _enter(self, robot: int, cell: Cell, heading: Direction, rules: Rules) -> tuple[str | None, Direction]:
        """What an ordinary robot does on entering ``cell``: event and new heading."""
        dg = self.board.diagonal_at(cell) if rules.diagonals else None
        if dg is None:
            return None, heading
        if dg.color == self.robots[robot].color:
            return "pass", heading
        return "deflect", dg.deflect(heading)

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
            steps.append(Step(cell, heading, _join("wrap" if wrapped else None, event)))
            if (cell, heading) in seen:
                raise IllegalMove("cycle", f"the {color} robot would circle forever moving {direction.name}")
            seen.add((cell, heading))
        if cell == start:
            raise IllegalMove("blocked", f"the {color} robot cannot move {direction.name}: "
                                         "it would not leave its cell")
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
            base = "wall" if passed_wall else ("wrap" if wrapped else None)
            dg = self.board.diagonal_at(nxt) if rules.diagonals else None
            if dg is None:
                relax((nxt, heading), cost + extra, state, Step(nxt, heading, base))
            else:
                bounce = dg.deflect(heading)
                relax((nxt, bounce), cost + extra, state, Step(nxt, bounce, _join(base, "deflect")))
                relax((nxt, heading), cost + extra + 1, state, Step(nxt, heading, _join(base, "diagonal")))
        if not stops:
            if not halts:
                raise IllegalMove("cycle", f"the transparent robot would circle forever moving {direction.name}")
            raise IllegalMove("blocked", f"the transparent robot cannot move {direction.name}")
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

    def play(self, move: Move, rules: Rules = PLAIN) -> tuple[Position, Path]:
        """Apply a move: the new position and the path taken, or :class:`IllegalMove`."""
        options = self.paths(move.robot, move.direction, rules)
        if move.stop is None:
            if len(options) > 1:
                raise IllegalMove("stop", f"the transparent robot moving {move.direction.name} may stop at "
                                          f"{', '.join(f'{c[0]},{c[1]}' for c in (p.end for p in options))}: "
                                          "say where")
            path = options[0]
        else:
            found = [p for p in options if p.end == move.stop]
            if not found:
                raise IllegalMove("stop", f"the {self.robots[move.robot].color} robot moving {move.direction.name} "
                                          f"cannot stop at {move.stop[0]},{move.stop[1]}")
            path = found[0]
        robots = list(self.robots)
        robots[move.robot] = Robot(robots[move.robot].color, path.end)
        return self._successor(tuple(robots), (move.robot, path.heading)), path

    def _successor(self, robots: tuple[Robot, ...], last_move: tuple[int, Direction]) -> Position:
        """The position after a legal move, without validating it again (a move
        keeps robots on free, distinct cells): ``play`` is the referee's and
        the solver checker's hot path."""
        new = object.__new__(Position)
        for name, value in (("board", self.board), ("robots", robots), ("goal", self.goal),
                            ("last_move", last_move)):
            object.__setattr__(new, name, value)
        return new

    def legal_moves(self, rules: Rules = PLAIN) -> list[tuple[Move, Path]]:
        """Every legal move with its path (transparent moves name their stop)."""
        out = []
        for i, r in enumerate(self.robots):
            for d in DIRECTIONS:
                try:
                    paths = self.paths(i, d, rules)
                except IllegalMove:
                    continue
                for p in paths:
                    out.append((Move(i, d, p.end if r.color == "transparent" else None), p))
        return out

    def replay(self, moves: Iterable[Move], rules: Rules = PLAIN) -> tuple[Position, list[Path]]:
        """Apply moves in order; raises :class:`IllegalMove` at the first bad one."""
        pos, paths = self, []
        for m in moves:
            pos, path = pos.play(m, rules)
            paths.append(path)
        return pos, paths


def _join(a: str | None, b: str | None) -> str | None:
    """Combine step events, e.g. a wrap followed by a deflection: ``wrap+deflect``."""
    if a is None or b is None:
        return a if b is None else b
    return f"{a}+{b}"
