"""The solver's Python API for one puzzle: :func:`solve`, :func:`hint`
(many puzzles on every core: :mod:`ricochet.solver.batch`).

Two searches, compiled with numba (``kernel``), over full states keyed with
interchangeable helper robots sorted and every rule state (no-straight-back,
must-ricochet) included:

- A* when one robot must finish: each state once, in order of f = g + h.
  h starts from the target robot's relaxed distance (it may stop on any cell
  of a robot-free path) and is raised lazily by up to 2 where the target
  robot cannot finish alone, or with one new blocker
  (``kernel.bound_rises``).  Capped at ``max_states``; IDA* continues past it.
  With ``threads`` > 1 the same A* runs on several threads
  (``parallel.parallel_astar``: one shared state map, lock-free) for the
  puzzles it takes (one finishing robot, plain moves, 4 robots on 16×16).
- A* for the cosmic vortex too, every robot at once (all robots sorted, the
  nearest robot's relaxed distance as the bound) where no diagonal or rule
  state tells the robots apart.
- IDA* (cost-bounded depth-first iterations) with a transposition table of
  proven "no solution within r" facts: for the other vortex puzzles, all
  optimal solutions, and past A*'s memory cap.  The transparent robot's
  weighted moves make both cost-bounded rather than depth-bounded.

A puzzle of plain moves (walls and blocked cells only, no rule state, one
robot to bring home: most of what bots, the trainer and sweeps ask for) takes
its A* in one compiled call that builds the board's tables as well
(:mod:`.plain`): the same kernel on the same tables, without the Python
around them that cost a 1-3-move puzzle most of its time.

With ``check=True`` a solution is replayed through the engine's
:func:`~ricochet.puzzle.check_solution` before it is returned (the server, the
trainer and ``ricochet solve --check`` ask for it); otherwise it comes back as
the search found it, and its paths are replayed only when someone reads
:attr:`Solution.paths`.

>>> from ricochet.board import Board
>>> from ricochet.position import Position, Robot
>>> from ricochet.puzzle import Puzzle
>>> pz = Puzzle(Position(Board.build(5, 5), (Robot("red", (0, 0)),)), (4, 4), active=0)
>>> solve(pz).length
2

The rules are the puzzle's own (``puzzle.with_rules(GAME)``), with the state
they keep in its position (the last move, who has turned already).
"""

from __future__ import annotations

import dataclasses
import enum
import functools
import inspect
import os
import threading
import time
import warnings
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..errors import RicochetError
from ..geometry import DIRECTIONS, Direction
from ..notation import solution_to_json
from ..position import MAX_ROBOTS, Move, Path, Position
from ..puzzle import Puzzle, check_solution
from ..rules import Rules
from . import kernel, parallel, plain
from .records import BlockerSets, Goal, Limits, SearchStatus, Spec, Start
from .tables import cell_bits, lower_bound, lower_bound_for, physics_key, robot_tables, search_tables, transparent_index

DEFAULT_MAX_MOVES = 40
MAX_TT_BITS = 26  # 2**26 entries * 16 bytes = 1 GiB at most
START_TT_BITS = 16
ASTAR_MAX_STATES = 20_000_000  # ≈ 1 GiB of A* bookkeeping; beyond it IDA* (fixed memory) continues
CHECK_AFTER = 50  # A*'s first expansions use hdist alone (kernel.astar): cheaper for short puzzles
MAX_LEVEL = 2  # A*'s bound: hdist + up to 2 (kernel.bound_rises); 0 = the relaxed distance alone
MAX_THREADS = 256  # solve(threads=…): a sanity bound, not a tuning
ASTAR_STATES_PER_SECOND = 2_000_000  # conservative, to keep A* inside a time limit

class SolverError(RicochetError, RuntimeError):
    """An internal inconsistency (a returned solution the engine refuses)."""

    default_code = "solver"


class Status(enum.StrEnum):
    """How a search ended (a :class:`str` enum: ``status == "solved"`` works)."""

    SOLVED = "solved"
    """An optimal solution was found."""
    UNSOLVABLE = "unsolvable"
    """No sequence of moves can ever do it."""
    LIMIT = "limit"
    """None within ``max_moves``."""
    TIMEOUT = "timeout"
    """None found within ``time_limit``."""

    def __repr__(self) -> str:
        return f"Status.{self.name}"


@dataclass(frozen=True, repr=False)
class Solution:
    """The answer of :func:`solve`: the puzzle (with its rules), a
    :class:`Status`, the moves and their optimal length.

    ``repr`` rebuilds it from the puzzle and the moves in notation (checked by
    the engine), ``str`` is the moves in notation, and a notebook shows the
    moves and animates their paths:

    >>> sol = Solution.of(Puzzle.from_code("1A3B4A2A.r52ge9bdey0e.y63"), "RW YE YN YE")
    >>> sol
    Solution.of(Puzzle.from_code('1A3B4A2A.r52ge9bdey0e.y63'), 'RW YE YN YE')
    >>> eval(repr(sol)) == sol, sol.length
    (True, 4)
    >>> print(sol)
    4 moves: RW YE YN YE
    """

    puzzle: Puzzle
    status: Status
    moves: tuple[Move, ...] = ()
    length: int | None = None
    """Optimal number of moves (weighted for the transparent robot)."""
    reason: str | None = field(default=None, compare=False)
    seconds: float = field(default=0.0, compare=False)
    nodes: int = field(default=0, compare=False)
    """States generated by the search."""
    alternatives: tuple[tuple[Move, ...], ...] = field(default=(), compare=False)
    """All optimal solutions found (with ``all_solutions``; capped)."""
    _paths: tuple[Path, ...] | None = field(default=(), compare=False)

    def __post_init__(self) -> None:
        if not isinstance(self.status, Status):
            object.__setattr__(self, "status", Status(self.status))

    @classmethod
    def of(cls, puzzle: Puzzle, moves: str | Sequence[Move]) -> Solution:
        r"""A solution given by its moves (text or :class:`Move`\ s), checked by
        the engine (:class:`SolverError` if they do not solve the puzzle).  Its
        length is their cost; that it is optimal is the caller's word."""
        seq = tuple(puzzle.position.parse_solution(moves) if isinstance(moves, str) else moves)
        verdict = check_solution(puzzle, seq)
        if not verdict.ok:
            assert verdict.failure is not None
            raise SolverError(f"not a solution: {verdict.failure.message}", "not_a_solution")
        return cls(puzzle, Status.SOLVED, seq, verdict.cost, _paths=verdict.paths)

    @property
    def rules(self) -> Rules:
        """The rules it was solved by: the puzzle's."""
        return self.puzzle.rules

    @property
    def solved(self) -> bool:
        return self.status == Status.SOLVED

    @property
    def paths(self) -> tuple[Path, ...]:
        """The path of every move.  :func:`~ricochet.solver.batch.solve_many`'s workers do not send
        them back (they are a large part of what would cross between
        processes); they are then replayed by the engine on first use."""
        if self._paths is None or (self.moves and not self._paths):
            verdict = check_solution(self.puzzle, self.moves)
            object.__setattr__(self, "_paths", verdict.paths)
        return self._paths  # type: ignore[return-value]

    def text(self, arrows: bool = False) -> str:
        """The moves in notation (``RN GE BS``)."""
        return self.puzzle.position.solution_text(self.moves, arrows)

    # -- showing itself ----------------------------------------------------------------
    def __repr__(self) -> str:
        if self.solved:
            return f"Solution.of({self.puzzle!r}, {self.text()!r})"
        return f"Solution({self.puzzle!r}, {self.status!r}, reason={self.reason!r})"

    def __str__(self) -> str:
        if not self.solved:
            return f"{self.status}: {self.reason}"
        return f"{self.length} move{'s' if self.length != 1 else ''}: {self.text()}"

    def _repr_html_(self) -> str:
        from html import escape

        from ..svg import animate
        head = f"<p style=\"font-family: monospace\">{escape(str(self))}</p>"
        return head + (animate(self.puzzle, self.paths, size=400) if self.solved else "")

    def to_json(self) -> dict[str, object]:
        """The CLI's output object: id, moves, solution, seconds (and reason)."""
        out: dict[str, object] = {"id": self.puzzle.id, "moves": self.length if self.solved else None}
        if self.solved:
            out["solution"] = solution_to_json(self.moves)
        else:
            out["reason"] = self.reason
        out["seconds"] = round(self.seconds, 6)
        return out


def _new_tt(bits: int) -> np.ndarray:
    """A table of 2**bits entries of 16 bytes (see kernel.tt_lookup)."""
    return np.zeros(2 << bits, dtype=np.uint64)


class _Table:
    """The process's transposition table, reused by every search: each search
    takes a new generation, so nothing is cleared between puzzles (only when
    the generation counter wraps).  A lock makes concurrent solves in threads
    take turns."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.bits = START_TT_BITS
        self.array = _new_tt(self.bits)
        self.gen = 0

    @property
    def mask(self) -> np.uint64:
        return np.uint64((1 << self.bits) - 1)

    def next_generation(self) -> int:
        self.gen += 1
        if self.gen > kernel.MAX_GEN:
            self.array.fill(0)
            self.gen = 1
        return self.gen

    def grow(self, filled: int, max_bits: int) -> int:
        """Enlarge the table when the current search filled half of it."""
        while filled > (1 << self.bits) // 2 and self.bits < max_bits:
            self.bits = min(self.bits + 2, max_bits)
            new = _new_tt(self.bits)
            filled = kernel.tt_rehash(self.array, new, self.mask, np.uint64(self.gen))
            self.array = new
        return filled


_TABLE = _Table()


_NOT_MOVED = (-1, 0, 0, -1)
"""The rule state of :class:`~.records.Start` before any move: no last move, and no robot
that has turned or has a heading (:data:`_NOT_STARTED`)."""

_NOT_STARTED = (0, -1)
"""A robot's must-ricochet state before its first move (:func:`_rule_start`)."""


def _rule_start(pos: Position, t: int) -> tuple[int, int]:
    """Robot t's must-ricochet state in the position (a puzzle set mid-game):
    whether it has turned (1) and its heading (-1: it has not moved)."""
    heading = pos.headings[t] if pos.headings else None
    return int(t in pos.turned), heading.index if heading is not None else -1


class _Search:
    """Compiled arrays of one puzzle and the transposition table they share."""

    # (Slots: a short puzzle's search reads and writes these some sixty times.)
    __slots__ = ("N", "R", "W", "arrays", "bits", "board_fields", "bt", "candidates", "filled", "gen", "h", "last_h",
                 "last_r", "max_moves_per_node", "max_tt_bits", "no_undo", "path_fields", "paths", "pos0", "puzzle",
                 "rules", "starts", "target", "tr")

    def __init__(self, puzzle: Puzzle, rules: Rules, candidates: Sequence[int], max_tt_bits: int) -> None:
        pos = puzzle.position
        board = pos.board
        goal = puzzle.target
        robots = pos.robots
        self.puzzle, self.rules, self.candidates = puzzle, rules, candidates
        colors = tuple([r.color for r in robots])
        key = physics_key(board, rules, goal)
        prep = search_tables(key, colors)
        bt = self.bt = prep.board
        self.N, self.W, self.R = bt.cells, bt.width, prep.robots
        self.tr, self.bits = prep.transparent, prep.bits
        self.arrays, self.paths = prep.arrays, prep.paths
        # The kernels are given records as plain tuples: numba's dispatcher types a named tuple
        # slowly (see records.py).
        self.board_fields, self.path_fields = prep.fields
        w = bt.width
        self.target = target = goal[0] + w * goal[1]
        self.pos0 = pos0 = np.array([x + w * y for x, y in [r.cell for r in robots]], dtype=np.int64)
        h: dict[int, np.ndarray] = {}  # per candidate, its bound table
        starts: dict[int, int] = {}  # per candidate, its bound where it stands
        self.h, self.starts = h, starts
        for t in candidates:
            h[t] = bound = lower_bound_for(key, bt, colors[t], target)
            starts[t] = int(bound[pos0[t]])
        self.max_moves_per_node = prep.max_moves_per_node
        last = pos.last_move if rules.no_straight_back else None
        self.last_r, self.last_h = (last[0], last[1].index) if last else (-1, 0)
        self.max_tt_bits = max_tt_bits
        self.gen = 0  # the transposition table's generation, taken by the first IDA* (A* needs none)
        self.filled = 0
        # Moving straight back after one's own move never helps when moves are reversible: the
        # pair then equals one move (or none).  With must-ricochet, going out and back can earn
        # the target robot its turn.
        self.no_undo = prep.reversible and not rules.must_ricochet

    def spec(self, t: int) -> Spec:
        """The kernels' :class:`~.records.Spec` of a search for target robot t (-1: any robot)."""
        return Spec(*self.spec_fields(t))

    def spec_fields(self, t: int) -> tuple[int, int, int, int, int, bool, bool, bool, bool, int]:
        """:meth:`spec` as a plain tuple, the kernels' argument (built once a search: a few tenths
        of a microsecond less than the record and ``tuple``)."""
        rules = self.rules
        return (self.R, t, self.target, self.tr, self.bits, self.sort_helpers(t), rules.no_straight_back,
                rules.must_ricochet, self.no_undo, self.max_moves_per_node)

    def goal(self, t: int) -> Goal:
        """What the raised bound of target robot t reads (:class:`~.records.Goal`)."""
        p = self.paths
        return Goal(self.R, t, self.target, self.h[t], p.start, p.length, p.cyclic, p.cells)

    def sort_helpers(self, t: int) -> bool:
        # Helpers are interchangeable when nothing tells them apart: no diagonal
        # (colour) in play and no transparent helper (different physics).
        # With t < 0 (any robot finishes) every robot is a "helper".
        return not self.bt.has_diagonals and (self.tr < 0 or self.tr == t)

    def any_robot_astar(self) -> bool:
        """Whether A* can search for every robot at once (the vortex): the
        robots must share one bound table (no diagonal tells their colours
        apart) and no rule state may follow one robot (must-ricochet; the
        transparent robot's weighted moves)."""
        tables = [self.h[t] for t in self.candidates]
        return (len(self.candidates) == self.R and self.tr < 0 and not self.rules.must_ricochet
                and all(np.array_equal(tables[0], h) for h in tables[1:]))

    def grow_tt(self) -> None:
        self.filled = _TABLE.grow(self.filled, self.max_tt_bits)

    def astar(self, t: int, max_cost: int, max_states: int, threads: int = 1
              ) -> tuple[SearchStatus, int, int, list[tuple[int, int, int]]]:
        """A* for target robot t (-1: any robot): (status, cost, expanded states, moves);
        on ``threads`` threads where :func:`parallel.supported` takes the search."""
        if threads > 1 and parallel.supported(self.R, self.bits, self.rules.no_straight_back,
                                              self.rules.must_ricochet, self.tr, t, max_cost, max_states):
            return self._parallel_astar(t, max_cost, max_states, threads)
        # (A* runs from a fresh start only: no robot has turned yet, none has a heading.)
        # (Start and Limits as plain tuples, in their fields' order.)
        status, cost, expanded, _stored, moves = kernel.run_astar(
            self.spec_fields(t), self.board_fields, self.path_fields, self.h[max(t, 0)],
            (self.pos0, self.last_r, self.last_h, *_NOT_STARTED),
            (max_cost, max_states, MAX_LEVEL if self.tr < 0 else 0, CHECK_AFTER, kernel.SETS_FULL_AFTER))
        return status, cost, expanded, list(zip(*moves.tolist()))

    def thread_sets(self, t: int) -> tuple[BlockerSets, np.ndarray]:
        """Every blocker set of target robot t at once, and their unions, for
        the threaded A*: a search worth threads is long (kernel.astar builds
        them in stages, which would need the workers to stop and wait)."""
        sets = kernel.blocker_sets(self.goal(t), MAX_LEVEL, MAX_LEVEL, kernel.MAX_SETS)
        return sets, kernel.set_unions(sets, self.N)

    def _parallel_astar(self, t: int, max_cost: int, max_states: int, threads: int
                        ) -> tuple[SearchStatus, int, int, list[tuple[int, int, int]]]:
        import numba

        sets, unions = self.thread_sets(t)
        numba.set_num_threads(min(threads, int(numba.config.NUMBA_NUM_THREADS)))  # type: ignore[attr-defined]
        status, cost, expanded, _stored, moves = parallel.parallel_astar(
            self.spec(t), self.arrays, self.paths, self.h[t], Start(self.pos0, -1, 0, *_NOT_STARTED),
            Limits(max_cost, max_states, MAX_LEVEL, CHECK_AFTER, kernel.SETS_FULL_AFTER), sets, unions,
            parallel.Plan(threads, parallel.BATCH, parallel.CHUNK, parallel.SERIAL_BELOW))
        global _omp_pid
        if _omp_pid is None and _threading_layer() == "omp":
            _omp_pid = os.getpid()
        return status, cost, expanded, list(zip(*moves.tolist()))

    def run(self, bound: int, t: int, budget: int, all_mode: bool, max_solutions: int
            ) -> tuple[SearchStatus, int, list[list[tuple[int, int, int]]]]:
        """One IDA* iteration for target robot t within ``bound``: (status, nodes, solutions)."""
        if not self.gen:
            self.gen = _TABLE.next_generation()
        rows = max(1, max_solutions)
        sol = np.zeros((3, rows, bound + 1), dtype=np.int32)  # robots (-1: after the last move), directions, ends
        sol[0] = -1
        turned, heading = _rule_start(self.puzzle.position, t)
        # (Start and Table as plain tuples, in their fields' order.)
        status, nodes, nsol, filled = kernel.ida(
            self.spec_fields(t), self.board_fields, self.path_fields, self.h[t],
            (self.pos0, self.last_r, self.last_h, turned, heading), bound, budget, all_mode,
            (_TABLE.array, _TABLE.mask, self.gen), sol)
        self.filled += filled
        found = []
        for i in range(min(nsol, rows)):
            seq = []
            for j in range(bound + 1):
                if sol[0, i, j] < 0:
                    break
                seq.append((int(sol[0, i, j]), int(sol[1, i, j]), int(sol[2, i, j])))
            found.append(seq)
        return status, nodes, found


_PLAIN_MOVES = tuple(Move(r, d) for r in range(MAX_ROBOTS) for d in DIRECTIONS)
"""The (immutable, shared) move of robot ``r`` in direction ``d`` with no stop, at ``4 * r + d``."""


def _to_moves(search: _Search, seq: list[tuple[int, int, int]]) -> tuple[Move, ...]:
    tr, w = search.tr, search.W
    return tuple([Move(r, DIRECTIONS[d], (e % w, e // w)) if r == tr else _PLAIN_MOVES[4 * r + d]
                  for r, d, e in seq])


_warmed_up = False


def _warm_up_puzzle() -> Puzzle:
    """A tiny puzzle that takes a kernel's code paths in no time (the warm-ups)."""
    from ..board import Board
    from ..position import Position, Robot
    return Puzzle(Position(Board.build(4, 4), (Robot("red", (0, 0)), Robot("blue", (3, 0)))), (2, 3), 0)


def _warm_up_odd_puzzle() -> Puzzle:
    """A tiny puzzle with a diagonal, a wall opening and a transparent robot (the warm-up)."""
    from ..board import Board, Diagonal
    from ..position import Position, Robot
    board = Board.build(4, 4, diagonals=[Diagonal((1, 1), "green", "/")], openings=[((0, 2), "W")])
    return Puzzle(Position(board, (Robot("red", (0, 0)), Robot("transparent", (3, 3)))), (2, 3), 0)


def warm_up() -> None:
    """Compile (or load from numba's cache) every kernel once per process.

    :func:`solve` calls it before it starts its clock, so ``time_limit`` measures search
    time: a cold compile takes 10 s or more on a busy machine and would
    otherwise eat a short limit whole.  Call it yourself before forking
    workers, or to pay the cost at start-up.  A tiny puzzle takes every code
    path: A*, IDA* (forced by a one-state A* cap, as for all solutions or the
    vortex where colours matter) and solve_many's effort estimate.
    """
    global _warmed_up
    if _warmed_up:
        return
    _warmed_up = True
    puzzle = _warm_up_puzzle()
    for max_states in (ASTAR_MAX_STATES, 1):
        _search(puzzle, Rules(), **{**_SOLVE_DEFAULTS, "max_states": max_states})
    effort_estimate(puzzle, Rules())
    kernel.tt_rehash(_new_tt(2), _new_tt(4), np.uint64(15), np.uint64(1))
    # The tables of boards whose moves are not all straight (a diagonal, a wall opening) and of a
    # transparent robot's passable walls have builders of their own.
    _search(_warm_up_odd_puzzle(), Rules(), **_SOLVE_DEFAULTS)


_threads_warmed_up = False


@functools.cache  # once per process
def _load_thread_helpers() -> None:
    """Load (from numba's cache) the threaded search's compiled helpers that
    start no threads: its blocker sets.  :func:`~ricochet.solver.batch.solve_many` calls it before
    forking workers that may search on threads where numba's threads do not
    survive a fork (GNU OpenMP): each such worker must then load the threaded
    kernel itself, but no longer these (its first threaded search 17-58 ms
    shorter, of 110-280 ms, on the 2-core machine)."""
    _Search(_warm_up_puzzle(), Rules(), [0], MAX_TT_BITS).thread_sets(0)


def warm_up_threads() -> None:
    """:func:`warm_up` for the multi-threaded A* (``solve(threads=N)``): its
    kernel compiles apart (20 s or more the first time, then from numba's
    cache), so that one-thread users never pay for it."""
    global _threads_warmed_up
    warm_up()
    if _threads_warmed_up:
        return
    _threads_warmed_up = True
    _search(_warm_up_puzzle(), Rules(), **{**_SOLVE_DEFAULTS, "threads": 2})


def solve(puzzle: Puzzle, rules: Rules | None = None, *, max_moves: int = DEFAULT_MAX_MOVES,
          time_limit: float | None = None, any_robot: bool | None = None, all_solutions: bool = False,
          fewest_robots: bool = False, max_solutions: int = 1000, max_tt_bits: int = MAX_TT_BITS,
          max_states: int = ASTAR_MAX_STATES, check: bool = False, threads: int = 1) -> Solution:
    """An optimal solution of ``puzzle`` by its rules (``rules`` overrides
    them, kept for compatibility: prefer ``puzzle.with_rules(rules)``).

    - ``any_robot``: True lets any robot reach the target (cosmic vortex),
      False uses the puzzle's active robot; None: as the puzzle says.
    - ``all_solutions``: also collect every optimal solution (up to
      ``max_solutions``) in ``Solution.alternatives``.
    - ``fewest_robots``: among optimal solutions return one that moves the
      fewest distinct robots (implies collecting them).
    - ``max_moves``: give up with status ``limit`` beyond that many moves;
      ``time_limit`` (seconds): status ``timeout``.
    - ``max_states``: memory cap of the A* phase (then IDA* continues; 0:
      IDA* alone).  ``max_tt_bits``: IDA*'s transposition table grows to at
      most 2**max_tt_bits entries of 16 bytes (default 26: 1 GiB).
    - Arguments of the wrong kind raise :class:`TypeError`, values out of
      range :class:`ValueError`, each naming the argument.
    - ``threads``: search on this many threads (for one long puzzle; a batch
      is better spread over processes by :func:`~ricochet.solver.batch.solve_many`).  Only the A*
      of one finishing robot under plain moves with 4 robots on 16×16 (or
      smaller) takes them; any other search runs on one.  The first call
      compiles the threaded kernel (:func:`warm_up_threads`).  The threads
      spin while they wait (GNU OpenMP's default): fastest on idle cores,
      but on a busy machine set ``OMP_WAIT_POLICY=PASSIVE`` before the first
      threaded call (2 threads beside 2 busy processes on 2 cores: 15 times
      slower spinning).
    - ``check``: replay the solution through the engine's
      :func:`~ricochet.puzzle.check_solution` and raise :class:`SolverError`
      if it refuses it or its cost is not the length found (a bug).  Without
      it the search's answer is trusted (the property tests compare it with
      the engine) and :attr:`Solution.paths` are replayed on first use.
    """
    with _TABLE.lock:  # searches share the process's table: threads take turns
        sol = _search(puzzle, rules, max_moves, time_limit, any_robot, all_solutions, fewest_robots, max_solutions,
                      max_tt_bits, max_states, check, threads)
    assert isinstance(sol, Solution)  # (no give-up cap)
    return sol


@dataclass(frozen=True)
class _GaveUp:
    """What :func:`_search` returns past its ``give_up`` cap: the search it threw away."""

    seconds: float
    nodes: int


def _search(puzzle: Puzzle, rules: Rules | None, max_moves: int, time_limit: float | None, any_robot: bool | None,
            all_solutions: bool, fewest_robots: bool, max_solutions: int, max_tt_bits: int, max_states: int,
            check: bool, threads: int, give_up: int = 0) -> Solution | _GaveUp:
    """:func:`solve`, and ``give_up`` (> 0) for :func:`~ricochet.solver.batch.solve_many`: no answer
    (:class:`_GaveUp`) once its A* has stored that many states (a puzzle that
    would outlast the batch's other work, searched again later on threads).
    The caller holds ``_TABLE.lock`` (the warm-ups run inside a search)."""
    _check_puzzle(puzzle)
    _check_options(rules, max_moves, time_limit, max_solutions, max_tt_bits, max_states, threads)
    if rules is not None:
        puzzle = puzzle.with_rules(rules)
    rules = puzzle.rules
    if threads > 1 and not _threads_start_here():
        warnings.warn(f"solve(threads={threads}) runs on one thread: this process was forked from one whose "
                      "threaded search had started GNU OpenMP, which does not survive a fork (start such "
                      "workers with multiprocessing's 'spawn' or 'forkserver', as solve_many does)",
                      RuntimeWarning, stacklevel=4)
        threads = 1
    if not _warmed_up:
        warm_up()
    if threads > 1:
        warm_up_threads()
    t0 = time.perf_counter()
    use_any = puzzle.active is None if any_robot is None else any_robot
    if use_any and puzzle.active is not None:
        # The override makes it an any-robot puzzle: solve, check and report that.
        puzzle = dataclasses.replace(puzzle, active=None)
    robots = puzzle.position.robots
    if use_any:
        candidates = list(range(len(robots)))
    elif puzzle.active is None:
        raise ValueError("any_robot=False needs a puzzle with an active robot")
    else:
        candidates = [puzzle.active]

    # 0 moves: already there (with must-ricochet only if that robot has turned already).
    here = puzzle.position.robot_at(puzzle.target)
    if here is not None and here in candidates and (not rules.must_ricochet or here in puzzle.position.turned):
        return _ended(puzzle, t0, "solved", length=0, alternatives=((),) if all_solutions else ())
    # A* first: each state once.  It needs memory, so it is capped; past the
    # cap (or when a time limit must be honoured) IDA* takes over.
    cap = max_states if time_limit is None else min(max_states, max(10_000, int(time_limit * ASTAR_STATES_PER_SECOND)))
    nodes = 0
    astar_done = False
    if (len(candidates) == 1 and threads == 1 and not (all_solutions or fewest_robots) and cap > 0
            and plain.plain_rules(rules) and plain.plain_board(puzzle.position.board, rules)
            and transparent_index([r.color for r in robots]) < 0):
        # Plain moves, one robot to bring home: tables and A* in one compiled call (plain.py).
        outcome = _plain_astar(puzzle, candidates[0], max_moves, cap, give_up, check, t0)
        if not isinstance(outcome, int):
            return outcome
        nodes, astar_done = outcome, True  # past A*'s cap: IDA* goes on below
    search = _Search(puzzle, rules, candidates, max_tt_bits)
    starts = search.starts
    live = [t for t in candidates if starts[t] < kernel.INF]
    if not live:
        return _ended(puzzle, t0, "unsolvable", reason=_UNREACHABLE)
    order = sorted(live, key=starts.__getitem__)
    # Several robots may finish (vortex): one A* for all of them where they
    # share a bound table, else IDA* below tries them bound by bound.
    vortex = len(order) > 1 and search.any_robot_astar()
    # A* starts every robot fresh; a must-ricochet state already under way goes to IDA*.
    fresh = ((not puzzle.position.turned and not puzzle.position.headings)
             or all(_rule_start(puzzle.position, t) == _NOT_STARTED for t in order))
    if (len(order) == 1 or vortex) and fresh and not astar_done:
        t = -1 if vortex else order[0]
        gives_up = 0 < give_up < cap
        status, cost, expanded, seq = search.astar(t, max_moves, give_up if gives_up else cap, threads)
        nodes += expanded
        if status == SearchStatus.CAP_REACHED and gives_up:
            return _GaveUp(time.perf_counter() - t0, nodes)
        if status == SearchStatus.NONE_WITHIN:
            return _ended(puzzle, t0, "limit", reason=f"no solution within {max_moves} moves", nodes=nodes)
        if status == SearchStatus.FOUND:
            return _finish(search, puzzle, rules, cost, t, seq, nodes, t0,
                           all_solutions or fewest_robots, fewest_robots, max_solutions, order, starts, check)
    rate = 5e6  # states per second, refined as we go
    first_bound = max(1, min(starts.values()))
    for bound in range(first_bound, max_moves + 1):
        for t in order:
            if starts[t] > bound:
                continue
            budget = 1 << 62
            if time_limit is not None:
                left = time_limit - (time.perf_counter() - t0)
                if left <= 0:
                    return _ended(puzzle, t0, "timeout", reason=f"no solution found within {time_limit:g} s "
                                                                f"(none shorter than {bound} moves)", nodes=nodes)
                budget = max(1000, int(left * rate))
            t1 = time.perf_counter()
            status, n, found = search.run(bound, t, budget, False, 1)
            nodes += n
            dt = time.perf_counter() - t1
            if dt > 0.05 and n > 100_000:
                rate = n / dt
            search.grow_tt()
            if status == SearchStatus.CAP_REACHED:  # past the node budget its time limit left it
                return _ended(puzzle, t0, "timeout", reason=f"no solution found within {time_limit:g} s "
                                                            f"(none shorter than {bound} moves)", nodes=nodes)
            if status == SearchStatus.FOUND:
                return _finish(search, puzzle, rules, bound, t, found[0], nodes, t0,
                               all_solutions or fewest_robots, fewest_robots, max_solutions, order, starts, check)
    return _ended(puzzle, t0, "limit", reason=f"no solution within {max_moves} moves", nodes=nodes)


_UNREACHABLE = "the target cannot be reached by the robot(s) that count, whatever the other robots do"


def _plain_astar(puzzle: Puzzle, t: int, max_moves: int, cap: int, give_up: int, check: bool, t0: float
                 ) -> Solution | _GaveUp | int:
    """:func:`_search`'s A* for target robot ``t`` of a puzzle of plain moves
    (:mod:`.plain`), in one compiled call: its answer, or the states it
    expanded when it stopped at its cap ``cap`` (IDA* goes on)."""
    robots = puzzle.position.robots
    w, h, walls, blocked, shared, bits = plain.board_args(puzzle.position.board, len(robots))
    gives_up = 0 < give_up < cap
    tx, ty = puzzle.target
    bound, status, cost, expanded, moves = plain.plain_astar(
        w, h, walls, blocked, shared, plain.spec_fields(len(robots), t, tx + w * ty, bits),
        (np.array([x + w * y for x, y in [r.cell for r in robots]], dtype=np.int64), *_NOT_MOVED),
        (max_moves, give_up if gives_up else cap, MAX_LEVEL, CHECK_AFTER, kernel.SETS_FULL_AFTER))
    if bound >= kernel.INF:
        return _ended(puzzle, t0, "unsolvable", reason=_UNREACHABLE)
    if status == SearchStatus.FOUND:
        best = tuple([_PLAIN_MOVES[4 * r + d] for r, d in zip(moves[0].tolist(), moves[1].tolist())])
        paths = _checked_paths(puzzle, best, cost) if check else None
        return Solution(puzzle, Status.SOLVED, best, cost, None, time.perf_counter() - t0, expanded, (), paths)
    if status == SearchStatus.NONE_WITHIN:
        return _ended(puzzle, t0, "limit", reason=f"no solution within {max_moves} moves", nodes=expanded)
    if gives_up:
        return _GaveUp(time.perf_counter() - t0, expanded)
    return int(expanded)


def _checked_paths(puzzle: Puzzle, moves: tuple[Move, ...], cost: int) -> tuple[Path, ...]:
    """The paths of the search's answer, replayed by the engine (``check``): a
    :class:`SolverError` if it refuses them or their cost is not ``cost`` (a bug)."""
    verdict = check_solution(puzzle, moves)
    if not verdict.ok or verdict.cost != cost:
        raise SolverError(f"solver produced a solution the engine refuses ({verdict.failure}); "
                          f"puzzle {puzzle.id!r}")
    return verdict.paths


def _ended(puzzle: Puzzle, t0: float, status: str, **kw: Any) -> Solution:
    """A :func:`_search` that ended without a search's answer: ``status`` and its details."""
    return Solution(puzzle, Status(status), seconds=time.perf_counter() - t0, **kw)


def _finish(search: _Search, puzzle: Puzzle, rules: Rules, bound: int, t: int, seq: list[tuple[int, int, int]],
            nodes: int, t0: float, collect: bool, fewest: bool, max_solutions: int, order: list[int],
            starts: dict[int, int], check: bool) -> Solution:
    best = _to_moves(search, seq)
    alternatives: list[tuple[Move, ...]] = []
    if collect:
        for cand in order:
            if starts[cand] > bound or len(alternatives) >= max_solutions:
                continue
            _, n, found = search.run(bound, cand, 1 << 62, True, max_solutions - len(alternatives))
            nodes += n
            alternatives.extend(_to_moves(search, s) for s in found)
        if fewest and alternatives:
            best = min(alternatives, key=lambda ms: len({m.robot for m in ms}))
    paths = _checked_paths(puzzle, best, bound) if check else None  # (else replayed on first use)
    return Solution(puzzle, Status.SOLVED, best, bound, None, time.perf_counter() - t0, nodes,
                    tuple(alternatives), paths)


MAX_STATES_LIMIT = (1 << 31) - 1
"""``max_states``'s bound: A*'s records hold a parent's index in 32 bits."""
TT_BITS_LIMIT = 32
"""``max_tt_bits``'s bound: a table of 2**32 entries is 64 GiB."""


def _check_puzzle(puzzle: object, name: str = "puzzle") -> None:
    """Refuse anything but a :class:`~ricochet.puzzle.Puzzle` (TypeError naming ``name``)."""
    if not isinstance(puzzle, Puzzle):
        raise TypeError(f"{name} must be a Puzzle (Puzzle.from_code reads a position code), "
                        f"got {type(puzzle).__name__}")


def _check_options(rules: object, max_moves: object, time_limit: object, max_solutions: object,
                   max_tt_bits: object, max_states: object, threads: object) -> None:
    """Refuse what :func:`solve` cannot take, naming the argument (TypeError for a
    wrong kind of object, ValueError for a value out of range).  The one check of
    its options: :func:`~ricochet.solver.batch.solve_many` makes it too, in the
    caller's process, before any worker starts."""
    if rules is not None and not isinstance(rules, Rules):
        raise TypeError(f"rules must be a Rules or None (e.g. ricochet.rules.GAME), got {type(rules).__name__}")
    _checked_max_moves(max_moves)
    if time_limit is not None and (isinstance(time_limit, bool) or not isinstance(time_limit, (int, float))
                                   or not time_limit > 0):
        raise ValueError(f"time_limit must be a positive number of seconds, got {time_limit!r}")
    if isinstance(max_solutions, bool) or not isinstance(max_solutions, int) or max_solutions < 1:
        raise ValueError(f"max_solutions must be a positive integer, got {max_solutions!r}")
    if type(max_tt_bits) is not int or not 0 <= max_tt_bits <= TT_BITS_LIMIT:
        raise ValueError(f"max_tt_bits must be an integer from 0 to {TT_BITS_LIMIT}, got {max_tt_bits!r}")
    if type(max_states) is not int or not 0 <= max_states <= MAX_STATES_LIMIT:
        raise ValueError(f"max_states must be an integer from 0 (no A*: IDA* alone) to {MAX_STATES_LIMIT}, "
                         f"got {max_states!r}")
    if type(threads) is not int or threads != 1:
        _checked_threads(threads)


def _checked_max_moves(max_moves: object) -> int:
    if isinstance(max_moves, bool) or not isinstance(max_moves, int) or not 0 <= max_moves <= 250:
        raise ValueError(f"max_moves must be an integer from 0 to 250, got {max_moves!r}")
    return max_moves


def _checked_threads(threads: object) -> int:
    if isinstance(threads, bool) or not isinstance(threads, int) or not 1 <= threads <= MAX_THREADS:
        raise ValueError(f"threads must be an integer from 1 to {MAX_THREADS}, got {threads!r}")
    return threads


_HINT_KINDS = ("length", "first", "robots", "active")


def hint(puzzle: Puzzle, rules: Rules | None = None, kind: str = "length", **options: object) -> object:
    """A hint without the whole answer (by the puzzle's rules; ``rules`` overrides
    them): ``length`` (optimal move count),
    ``first`` (the first move of an optimal solution), ``robots`` (which
    robots an optimal solution moves) or ``active`` (how many moves the
    robot that finishes makes)."""
    if kind not in _HINT_KINDS:
        raise ValueError(f"unknown hint kind {kind!r}: use {', '.join(_HINT_KINDS[:-1])} or {_HINT_KINDS[-1]}")
    sol = solve(puzzle, rules, **options)  # type: ignore[arg-type]
    if not sol.solved:
        return None
    if kind == "length":
        return sol.length
    if kind == "first":
        return sol.moves[0] if sol.moves else None
    if kind == "robots":
        return sorted({m.robot for m in sol.moves})
    last = sol.moves[-1].robot if sol.moves else None
    return sum(1 for m in sol.moves if m.robot == last)  # "active"


# solve()'s options and their defaults, for _search's callers that pass some of them.
_SOLVE_DEFAULTS: dict[str, Any] = {name: par.default for name, par in inspect.signature(solve).parameters.items()
                                   if par.kind is inspect.Parameter.KEYWORD_ONLY}


def _threading_layer() -> str | None:
    """numba's threading layer once started in this process (or inherited by a fork), else None."""
    import numba

    try:
        return str(numba.threading_layer())  # type: ignore[attr-defined]
    except ValueError:  # no thread started yet
        return None


def forked_workers_may_thread() -> bool:
    """Whether a process forked from this one may start numba's threads.  Not
    once this process has started GNU OpenMP's (numba's usual threading layer
    here, after a ``solve(threads=N)``): libgomp does not survive a fork, and
    numba ends such a child ("fork() called from a process already using GNU
    OpenMP, this is unsafe").  :func:`~ricochet.solver.batch.solve_many` then spawns its workers."""
    return _threading_layer() != "omp"


FORK_SAFE_LAYERS = ("tbb", "workqueue")
"""numba threading layers whose threads survive a fork (``NUMBA_THREADING_LAYER``):
Intel TBB's (``pip install tbb``) and numba's own work queue, unlike GNU OpenMP."""


def _threads_survive_fork() -> bool:
    """Whether the threaded kernel may be loaded here before forking workers:
    its load starts numba's threading layer, and the layer, started or chosen
    (``NUMBA_THREADING_LAYER``), is one of :data:`FORK_SAFE_LAYERS`."""
    import numba

    layer = _threading_layer() or str(numba.config.THREADING_LAYER)  # type: ignore[attr-defined]
    return layer in FORK_SAFE_LAYERS


# The process that started GNU OpenMP's threads for the threaded search: a
# process forked from it inherits this value, and must not start them.
_omp_pid: int | None = None


def _threads_start_here() -> bool:
    """False in a process forked from one whose threaded search started GNU
    OpenMP's threads (numba would end this process at its first threaded round)."""
    return _omp_pid is None or _omp_pid == os.getpid()


def effort_estimate(puzzle: Puzzle, rules: Rules | None = None) -> int:
    """A cheap guess (tens of microseconds) of how long ``puzzle`` takes to
    solve, for scheduling; not a bound.  How close (in relaxed moves) the
    nearest robot that may finish gets to the target by moving alone while
    the others stand still (:func:`kernel.solo_approach`): 0 when one can
    finish alone; the larger, the more helper moves the puzzle needs.  On
    random 16×16 puzzles the fifth with the largest estimate takes about
    85 % of the solving time."""
    rules = puzzle.rules if rules is None else rules
    pos = puzzle.position
    board = pos.board
    rt = robot_tables(board, rules, puzzle.target, tuple(r.color for r in pos.robots))
    cells = np.array([board.index(r.cell) for r in pos.robots], dtype=np.int64)
    finishers = range(len(pos.robots)) if puzzle.active is None else (puzzle.active,)
    paths = tuple(rt)  # (a plain tuple: see records.py)
    return min(int(kernel.solo_approach(cells, t, paths, lower_bound(board, rules, puzzle.target,
                                                                     pos.robots[t].color, puzzle.target)))
               for t in finishers)


def takes_threads(puzzle: Puzzle, rules: Rules | None = None, *, any_robot: bool | None = None,
                  max_moves: int = DEFAULT_MAX_MOVES, max_states: int = ASTAR_MAX_STATES) -> bool:
    """Whether ``solve(puzzle, threads=N)`` (with these options) would search
    on N threads: the A* of one finishing robot from a fresh start, under
    plain moves, with keys that fit the compact map (:func:`parallel.supported`:
    no transparent robot, no rule state, 4 robots on 16×16 or fewer).  Any
    other search runs on one thread (the vortex's A* for every robot at once
    among them), so :func:`~ricochet.solver.batch.solve_many` and ``ricochet solve`` deal their
    spare cores to such puzzles only.  Where any robot may finish, it looks
    up which robots can reach the target (the distance tables that
    :func:`effort_estimate` builds too).

    >>> from ricochet.puzzle import Puzzle
    >>> takes_threads(Puzzle.from_code("1A3B4A2A.r52ge9bdey0e.y63"))
    True
    >>> takes_threads(Puzzle.from_code("1A3B4A2A.r52ge9bdey0e.y63"), any_robot=True)
    False
    """
    _checked_max_moves(max_moves)  # as solve() would say
    rules = puzzle.rules if rules is None else rules
    pos = puzzle.position
    board = pos.board
    if not (puzzle.active is None if any_robot is None else any_robot):
        finishers = [] if puzzle.active is None else [puzzle.active]
    else:  # as solve() does: the robots that can reach the target; one alone is searched as the active robot
        finishers = [t for t, r in enumerate(pos.robots)
                     if lower_bound(board, rules, puzzle.target, r.color, puzzle.target)[board.index(r.cell)]
                     < kernel.INF]
    if len(finishers) != 1:
        return False
    t = finishers[0]
    # Must-ricochet state already under way: solve() hands the puzzle to IDA*.
    if _rule_start(pos, t) != _NOT_STARTED:
        return False
    colors = tuple([r.color for r in pos.robots])
    return parallel.supported(len(colors), cell_bits(board.width * board.height), rules.no_straight_back,
                              rules.must_ricochet, transparent_index(colors), t, max_moves, max_states)


__all__ = ["FORK_SAFE_LAYERS", "Direction", "Solution", "SolverError", "Status", "effort_estimate",
           "forked_workers_may_thread", "hint", "solve", "takes_threads", "warm_up", "warm_up_threads"]
