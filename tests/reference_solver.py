"""A deliberately simple reference search for the solver's tests.

Uniform-cost search (Dijkstra) over *full* states, using nothing but the
engine: :meth:`Position.play` for every robot and direction (and, for the
transparent robot, every stop :meth:`Position.paths` offers) gives the
legal moves, their costs and the positions they lead to.  It shares no code with
:mod:`ricochet.solver` and makes no attempt to be fast; a state cap keeps it
bounded, and the result says how much it proved when it hit the cap.

The state is what decides whether a sequence of moves can still be completed
into a solution, exactly as :func:`ricochet.puzzle.check_solution` reads a
sequence:

* the robots' cells;
* with *no moving straight back*, the last move ``(robot, heading)``;
* with *must ricochet*, for every robot that counts (the active robot, or
  every robot for the cosmic vortex) whether it has turned and the heading it
  had when it last stopped.  A robot has turned when one of its moves was
  deflected by a diagonal or set off perpendicular to its previous final
  heading (check_solution's definition).  Once a robot has turned its heading
  no longer matters, so it is forgotten (the only simplification here).

The goal is a robot that counts on the target (and, with must ricochet, one
that has turned).
"""

from __future__ import annotations

import heapq
import itertools
import math
from collections.abc import Iterator
from dataclasses import dataclass

from ricochet.geometry import DIRECTIONS, Direction
from ricochet.position import IllegalMove, Move, Path, Position
from ricochet.puzzle import Puzzle
from ricochet.rules import Rules

INFINITE = math.inf


@dataclass(frozen=True)
class Reference:
    """The reference verdict.

    ``cost``: the optimal cost when one was found within ``max_cost``, else
    None.  ``lower``: every solution costs at least this much (``cost`` when
    found; ``INFINITE`` when the whole reachable state space was searched
    without a solution, i.e. provably unsolvable).  ``complete``: the answer
    is exact for the ``max_cost`` asked (found, or none up to ``max_cost``)."""

    cost: int | None
    lower: float
    states: int
    max_cost: int
    moves: tuple[Move, ...] | None = None
    """One optimal solution (when ``cost`` is known)."""

    @property
    def complete(self) -> bool:
        return self.cost is not None or self.lower > self.max_cost

    @property
    def unsolvable(self) -> bool:
        return self.lower == INFINITE


# A state: (cells, last_move or None, ((robot, turned, heading or None), ...)).
Flags = tuple[tuple[int, bool, Direction | None], ...]
State = tuple[tuple[tuple[int, int], ...], tuple[int, Direction] | None, Flags]


class _Search:
    def __init__(self, puzzle: Puzzle, rules: Rules | None, any_robot: bool | None) -> None:
        self.puzzle = puzzle
        self.rules = puzzle.rules if rules is None else rules
        use_any = puzzle.active is None if any_robot is None else any_robot
        n = len(puzzle.position.robots)
        self.counting: tuple[int, ...] = tuple(range(n)) if use_any or puzzle.active is None else (puzzle.active,)

    def start(self) -> tuple[State, Position]:
        pos = self.puzzle.position
        flags: Flags = tuple((r, False, None) for r in self.counting)
        return self.key(pos, flags), pos

    def key(self, pos: Position, flags: Flags) -> State:
        last = pos.last_move if self.rules.no_straight_back else None
        return (pos.cells, last, flags if self.rules.must_ricochet else ())

    def successors(self, state: State, pos: Position) -> Iterator[tuple[int, Move, State, Position]]:
        flags: Flags = state[2] if self.rules.must_ricochet else tuple((r, False, None) for r in self.counting)
        for move, nxt, path in self.moves(pos):
            new_flags: list[tuple[int, bool, Direction | None]] = []
            for r, turned, heading in flags:
                if r == move.robot:
                    # check_solution: deflected, or perpendicular to the previous final heading.
                    if path.deflected or (heading is not None and heading.perpendicular(move.direction)):
                        turned = True
                    heading = None if turned else path.heading
                new_flags.append((r, turned, heading))
            yield path.cost, move, self.key(nxt, tuple(new_flags)), nxt

    def moves(self, pos: Position) -> Iterator[tuple[Move, Position, Path]]:
        """Every legal move, played by the engine (the transparent robot: one
        move per stop that :meth:`Position.paths` offers)."""
        for i, robot in enumerate(pos.robots):
            for d in DIRECTIONS:
                if robot.color == "transparent":
                    try:
                        stops = [p.end for p in pos.paths(i, d, self.rules)]
                    except IllegalMove:
                        continue
                    moves = [Move(i, d, stop) for stop in stops]
                else:
                    moves = [Move(i, d)]
                for move in moves:
                    try:
                        nxt, path = pos.play(move, self.rules)
                    except IllegalMove:
                        continue
                    yield move, nxt, path

    def is_goal(self, state: State, pos: Position) -> bool:
        winner = pos.robot_at(self.puzzle.target)
        if winner is None or winner not in self.counting:
            return False
        if not self.rules.must_ricochet:
            return True
        return any(r == winner and turned for r, turned, _ in state[2])


def reference_optimum(puzzle: Puzzle, rules: Rules | None = None, *, any_robot: bool | None = None,
                      max_cost: int = 8, max_states: int = 20_000) -> Reference:
    """The optimal cost of ``puzzle`` (weighted for the transparent robot) by
    uniform-cost search, or None when none costs at most ``max_cost``.

    Stops after ``max_states`` distinct states; ``lower`` then says what was
    proved (no solution cheaper than ``lower``)."""
    search = _Search(puzzle, rules, any_robot)
    key0, pos0 = search.start()
    best: dict[State, int] = {key0: 0}
    where: dict[State, Position] = {key0: pos0}
    parent: dict[State, tuple[State, Move] | None] = {key0: None}
    tie = itertools.count()
    heap: list[tuple[int, int, State]] = [(0, next(tie), key0)]
    while heap:
        cost, _, key = heapq.heappop(heap)
        if cost > best[key]:
            continue
        if cost > max_cost:
            return Reference(None, cost, len(best), max_cost)
        pos = where[key]
        if search.is_goal(key, pos):
            moves: list[Move] = []
            link = parent[key]
            while link is not None:
                key, move = link
                moves.append(move)
                link = parent[key]
            return Reference(cost, cost, len(best), max_cost, tuple(reversed(moves)))
        if len(best) > max_states:
            # Everything cheaper than ``cost`` has been expanded without a goal.
            return Reference(None, cost, len(best), max_cost)
        for step, move, nkey, npos in search.successors(key, pos):
            c = cost + step
            if c < best.get(nkey, c + 1):
                best[nkey] = c
                where[nkey] = npos
                parent[nkey] = (key, move)
                heapq.heappush(heap, (c, next(tie), nkey))
    return Reference(None, INFINITE, len(best), max_cost)


def all_optimal(puzzle: Puzzle, cost: int, rules: Rules | None = None, *, any_robot: bool | None = None,
                limit: int = 10_000) -> set[tuple[Move, ...]] | None:
    """Every move sequence of total cost exactly ``cost`` that solves the
    puzzle (``cost`` must be the optimum, so no proper prefix is a solution),
    by depth-first enumeration with a memo of dead (state, budget) pairs.
    None when there are more than ``limit``."""
    search = _Search(puzzle, rules, any_robot)
    key0, pos0 = search.start()
    dead: set[tuple[State, int]] = set()
    out: set[tuple[Move, ...]] = set()
    trail: list[Move] = []

    def walk(key: State, pos: Position, budget: int) -> bool:
        if budget == 0:
            if search.is_goal(key, pos):
                out.add(tuple(trail))
                return True
            return False
        if (key, budget) in dead:
            return False
        found = False
        for step, move, nkey, npos in search.successors(key, pos):
            if step > budget:
                continue
            trail.append(move)
            found = walk(nkey, npos, budget - step) or found
            trail.pop()
            if len(out) > limit:
                return True
        if not found:
            dead.add((key, budget))
        return found

    walk(key0, pos0, cost)
    return None if len(out) > limit else out
