"""The solver's Python API: :func:`solve`, :func:`solve_many`, :func:`hint`.

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

import contextlib
import dataclasses
import enum
import functools
import heapq
import inspect
import os
import queue
import signal
import threading
import time
import warnings
import weakref
from collections.abc import Callable, Generator, Iterable, Iterator, Mapping, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from dataclasses import dataclass, field
from multiprocessing import get_context
from typing import Any

import numpy as np

from ..errors import RicochetError
from ..geometry import DIRECTIONS, Direction
from ..notation import solution_to_json
from ..position import MAX_ROBOTS, Move, Path
from ..puzzle import Puzzle, check_solution
from ..rules import Rules
from . import kernel, parallel
from .tables import cell_bits, lower_bound, lower_bound_for, physics_key, robot_tables, search_tables, transparent_index

DEFAULT_MAX_MOVES = 40
MAX_TT_BITS = 26  # 2**26 entries * 16 bytes = 1 GiB at most
START_TT_BITS = 16
ASTAR_MAX_STATES = 20_000_000  # ≈ 1 GiB of A* bookkeeping; beyond it IDA* (fixed memory) continues
CHECK_AFTER = 50  # A*'s first expansions use hdist alone (kernel.astar): cheaper for short puzzles
MAX_LEVEL = 2  # A*'s bound: hdist + up to 2 (kernel.bound_rises); 0 = the relaxed distance alone
MAX_THREADS = 256  # solve(threads=…): a sanity bound, not a tuning
ASTAR_STATES_PER_SECOND = 2_000_000  # conservative, to keep A* inside a time limit
GIVE_UP_SHARE = 0.5
"""solve_many: a puzzle started late gives up (to be searched again on threads
once the other tasks are done) past the states this share of the batch's
expected remaining time would store, at ASTAR_STATES_PER_SECOND ..."""
GIVE_UP_OUTLIER = 10
"""... and past this many times a typical puzzle of the batch: only an
outlier gives up (the longest of 1000 random puzzles takes a fifth of their
time; ASP's longest are a few times its median, and threads do not pay for
them)."""
MIN_GIVE_UP = 200_000
"""solve_many: the least such cap (about 100 ms of search): a search again on
threads starts with costs of its own (the threaded kernel's first load in
that worker, 60 ms; every blocker set), which a shorter puzzle never wins back."""
GIVE_UP_CORES = 4
"""solve_many: the cores per puzzle that gives up, at least (so at most
cores / 4 of them in a batch, and none on fewer than 4 cores): on fewer
threads the search again cannot win back the search thrown away (2
threads: 1.5-1.9 times faster on a long random puzzle)."""
CHUNK_SECONDS = 0.004
"""solve_many: once a batch's typical puzzle (the median of its answers so
far) is known to be cheap, the tasks handed out next take that many seconds
of typical puzzles each (:func:`chunk_size`): a task's round trip costs the
calling process 0.1-0.3 ms, which it pays for every worker's tasks in turn."""


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
        """The path of every move.  :func:`solve_many`'s workers do not send
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


class _Search:
    """Compiled arrays of one puzzle and the transposition table they share."""

    # (Slots: a short puzzle's search reads and writes these some sixty times.)
    __slots__ = ("H", "N", "R", "W", "bits", "bt", "candidates", "filled", "gen", "h", "last_h", "last_r",
                 "max_moves_per_node", "max_tt_bits", "no_undo", "passable", "pcells", "pcyc", "pdefl", "pheads",
                 "plen", "pos0", "pstart", "puzzle", "rules", "starts", "target", "tr")

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
        self.N, self.W, self.H, self.R = bt.cells, bt.width, bt.height, prep.robots
        self.tr, self.passable, self.bits = prep.transparent, prep.passable, prep.bits
        rt = prep.paths
        self.pstart, self.plen, self.pcyc = rt.start, rt.length, rt.cyclic
        self.pcells, self.pheads, self.pdefl = rt.cells, rt.heads, rt.defl
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

    def rule_start(self, t: int) -> tuple[int, int]:
        """Robot t's must-ricochet state in the position (a puzzle set mid-game):
        whether it has turned (1) and its heading (-1: it has not moved)."""
        pos = self.puzzle.position
        heading = pos.headings[t] if pos.headings else None
        return int(t in pos.turned), heading.index if heading is not None else -1

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
              ) -> tuple[int, int, int, list[tuple[int, int, int]]]:
        """A* for target robot t (-1: any robot): (status, cost, expanded states, moves);
        on ``threads`` threads where :func:`parallel.supported` takes the search."""
        bt = self.bt
        if threads > 1 and parallel.supported(self.R, self.bits, self.rules.no_straight_back,
                                              self.rules.must_ricochet, self.tr, t, max_cost, max_states):
            return self._parallel_astar(t, max_cost, max_states, threads)
        status, cost, expanded, _stored, moves = kernel.astar(
            t, self.target, self.R, self.N, self.W, self.H, self.pos0, self.tr,
            self.rules.no_straight_back, self.last_r, self.last_h, self.rules.must_ricochet,
            self.pstart, self.plen, self.pcyc, self.pcells, self.pheads, self.pdefl, self.h[max(t, 0)],
            bt.wall, bt.openm, bt.obst, bt.diag, self.passable, bt.line_coords, self.bits, self.sort_helpers(t),
            self.no_undo, max_cost, max_states, self.max_moves_per_node, MAX_LEVEL if self.tr < 0 else 0,
            CHECK_AFTER, kernel.SETS_FULL_AFTER)
        return status, cost, expanded, list(zip(*moves.tolist()))

    def thread_sets(self, t: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Every blocker set of target robot t at once, and their unions, for
        the threaded A*: a search worth threads is long (kernel.astar builds
        them in stages, which would need the workers to stop and wait)."""
        qtab, qrows = kernel.blocker_sets(t, self.target, self.h[t], self.pstart, self.plen, self.pcells, self.N,
                                          self.R, MAX_LEVEL, MAX_LEVEL, kernel.MAX_SETS)
        return qtab, qrows, kernel.set_unions(qtab, qrows, self.N)

    def _parallel_astar(self, t: int, max_cost: int, max_states: int, threads: int
                        ) -> tuple[int, int, int, list[tuple[int, int, int]]]:
        import numba

        qtab, qrows, unions = self.thread_sets(t)
        h = self.h[t]
        numba.set_num_threads(min(threads, int(numba.config.NUMBA_NUM_THREADS)))  # type: ignore[attr-defined]
        status, cost, expanded, _stored, moves = parallel.parallel_astar(
            threads, parallel.BATCH, parallel.CHUNK, parallel.SERIAL_BELOW, t, self.target, self.R, self.N, self.pos0, self.pstart,
            self.plen, self.pcyc, self.pcells, self.pheads, self.pdefl, h, self.bits, self.sort_helpers(t),
            self.no_undo, max_cost, max_states, self.max_moves_per_node, MAX_LEVEL, qtab, qrows, unions,
            self.W, self.H, self.bt.line_coords)
        global _omp_pid
        if _omp_pid is None and _threading_layer() == "omp":
            _omp_pid = os.getpid()
        return status, cost, expanded, list(zip(*moves.tolist()))

    def run(self, bound: int, t: int, budget: int, all_mode: bool, max_solutions: int
            ) -> tuple[int, int, list[list[tuple[int, int, int]]]]:
        if not self.gen:
            self.gen = _TABLE.next_generation()
        rows = max(1, max_solutions)
        sol_r = np.full((rows, bound + 1), -1, dtype=np.int32)
        sol_d = np.zeros((rows, bound + 1), dtype=np.int32)
        sol_e = np.zeros((rows, bound + 1), dtype=np.int32)
        bt = self.bt
        turned, heading = self.rule_start(t)
        status, nodes, nsol, filled = kernel.ida(
            bound, t, self.target, self.R, self.N, self.W, self.H, self.pos0, self.tr,
            self.rules.no_straight_back, self.last_r, self.last_h, self.rules.must_ricochet,
            turned, heading,
            self.pstart, self.plen, self.pcyc, self.pcells, self.pheads, self.pdefl, self.h[t],
            bt.wall, bt.openm, bt.obst, bt.diag, self.passable,
            self.bits, self.sort_helpers(t), _TABLE.array, _TABLE.mask,
            budget, all_mode, sol_r, sol_d, sol_e, self.max_moves_per_node, self.no_undo, self.gen)
        self.filled += filled
        found = []
        for i in range(min(nsol, rows)):
            seq = []
            for j in range(bound + 1):
                if sol_r[i, j] < 0:
                    break
                seq.append((int(sol_r[i, j]), int(sol_d[i, j]), int(sol_e[i, j])))
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


_threads_warmed_up = False


@functools.cache  # once per process
def _load_thread_helpers() -> None:
    """Load (from numba's cache) the threaded search's compiled helpers that
    start no threads: its blocker sets.  :func:`solve_many` calls it before
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
    - ``max_states``: memory cap of the A* phase (then IDA* continues).
    - ``threads``: search on this many threads (for one long puzzle; a batch
      is better spread over processes by :func:`solve_many`).  Only the A*
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
    """:func:`solve`, and ``give_up`` (> 0) for :func:`solve_many`: no answer
    (:class:`_GaveUp`) once its A* has stored that many states (a puzzle that
    would outlast the batch's other work, searched again later on threads).
    The caller holds ``_TABLE.lock`` (the warm-ups run inside a search)."""
    if rules is not None:
        puzzle = puzzle.with_rules(rules)
    rules = puzzle.rules
    _checked_max_moves(max_moves)
    if time_limit is not None and (isinstance(time_limit, bool) or not isinstance(time_limit, (int, float))
                                   or not time_limit > 0):
        raise ValueError(f"time_limit must be a positive number of seconds, got {time_limit!r}")
    if isinstance(max_solutions, bool) or not isinstance(max_solutions, int) or max_solutions < 1:
        raise ValueError(f"max_solutions must be a positive integer, got {max_solutions!r}")
    if type(threads) is not int or threads != 1:
        _checked_threads(threads)
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
    search = _Search(puzzle, rules, candidates, max_tt_bits)
    starts = search.starts
    live = [t for t in candidates if starts[t] < kernel.INF]
    if not live:
        return _ended(puzzle, t0, "unsolvable", reason="the target cannot be reached by the robot(s) that count, "
                                                       "whatever the other robots do")
    nodes = 0
    order = sorted(live, key=starts.__getitem__)
    # A* first: each state once.  It needs memory, so it is capped; past the
    # cap (or when a time limit must be honoured) IDA* takes over.
    cap = max_states if time_limit is None else min(max_states, max(10_000, int(time_limit * ASTAR_STATES_PER_SECOND)))
    # Several robots may finish (vortex): one A* for all of them where they
    # share a bound table, else IDA* below tries them bound by bound.
    vortex = len(order) > 1 and search.any_robot_astar()
    # A* starts every robot fresh; a must-ricochet state already under way goes to IDA*.
    fresh = ((not puzzle.position.turned and not puzzle.position.headings)
             or all(search.rule_start(t) == (0, -1) for t in order))
    if (len(order) == 1 or vortex) and fresh:
        t = -1 if vortex else order[0]
        gives_up = 0 < give_up < cap
        status, cost, expanded, seq = search.astar(t, max_moves, give_up if gives_up else cap, threads)
        nodes += expanded
        if status == 2 and gives_up:
            return _GaveUp(time.perf_counter() - t0, nodes)
        if status == 0:
            return _ended(puzzle, t0, "limit", reason=f"no solution within {max_moves} moves", nodes=nodes)
        if status == 1:
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
            if status == 2:
                return _ended(puzzle, t0, "timeout", reason=f"no solution found within {time_limit:g} s "
                                                            f"(none shorter than {bound} moves)", nodes=nodes)
            if status == 1:
                return _finish(search, puzzle, rules, bound, t, found[0], nodes, t0,
                               all_solutions or fewest_robots, fewest_robots, max_solutions, order, starts, check)
    return _ended(puzzle, t0, "limit", reason=f"no solution within {max_moves} moves", nodes=nodes)


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
    paths = None  # replayed on first use
    if check:
        verdict = check_solution(puzzle, best)
        if not verdict.ok or verdict.cost != bound:
            raise SolverError(f"solver produced a solution the engine refuses ({verdict.failure}); "
                              f"puzzle {puzzle.id!r}")
        paths = verdict.paths
    return Solution(puzzle, Status.SOLVED, best, bound, None, time.perf_counter() - t0, nodes,
                    tuple(alternatives), paths)


def _checked_max_moves(max_moves: object) -> int:
    if isinstance(max_moves, bool) or not isinstance(max_moves, int) or not 0 <= max_moves <= 250:
        raise ValueError(f"max_moves must be an integer from 0 to 250, got {max_moves!r}")
    return max_moves


def _checked_threads(threads: object) -> int:
    if isinstance(threads, bool) or not isinstance(threads, int) or not 1 <= threads <= MAX_THREADS:
        raise ValueError(f"threads must be an integer from 1 to {MAX_THREADS}, got {threads!r}")
    return threads


def hint(puzzle: Puzzle, rules: Rules | None = None, kind: str = "length", **options: object) -> object:
    """A hint without the whole answer (by the puzzle's rules; ``rules`` overrides
    them): ``length`` (optimal move count),
    ``first`` (the first move of an optimal solution), ``robots`` (which
    robots an optimal solution moves) or ``active`` (how many moves the
    robot that finishes makes)."""
    sol = solve(puzzle, rules, **options)  # type: ignore[arg-type]
    if not sol.solved:
        return None
    if kind == "length":
        return sol.length
    if kind == "first":
        return sol.moves[0] if sol.moves else None
    if kind == "robots":
        return sorted({m.robot for m in sol.moves})
    if kind == "active":
        last = sol.moves[-1].robot if sol.moves else None
        return sum(1 for m in sol.moves if m.robot == last)
    raise ValueError(f"unknown hint kind {kind!r}: use length, first, robots or active")


def _solve_one(args: tuple[Puzzle, Rules | None, dict[str, object]], give_up: int = 0) -> Solution | _GaveUp:
    """:func:`solve` of ``(puzzle, rules, options)``; with ``give_up`` > 0,
    no answer once its A* has stored that many states (:func:`_search`)."""
    puzzle, rules, options = args
    if not give_up:
        return solve(puzzle, rules, **options)  # type: ignore[arg-type]
    with _TABLE.lock:
        return _search(puzzle, rules, **{**_SOLVE_DEFAULTS, **options}, give_up=give_up)


# solve()'s options and their defaults, for _search's callers that pass some of them.
_SOLVE_DEFAULTS: dict[str, Any] = {name: par.default for name, par in inspect.signature(solve).parameters.items()
                                   if par.kind is inspect.Parameter.KEYWORD_ONLY}

# solve_many's batch, inherited by its forked workers, so a task is an index
# and a result travels back without its puzzle (the parent has it): pickling a
# board costs more than solving an easy puzzle.
_BATCH: list[tuple[Puzzle, Rules | None, dict[str, object]]] = []
_BATCH_LOCK = threading.RLock()  # (reentrant: a batch opened inside another's loop is refused, not deadlocked)


def _start_worker(items: list[tuple[Puzzle, Rules | None, dict[str, object]]] | None = None) -> None:
    """A pool worker (a batch's, ``ricochet solve``'s) ignores Ctrl-C: that is
    the caller's, which ends the workers itself (:func:`_close_pool`) rather
    than each printing a traceback; a spawned batch worker is given its batch
    (a forked one inherits it)."""
    global _BATCH
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if items is not None:
        _BATCH = items


_UNJOINED_POOLS: weakref.WeakSet[threading.Thread] = weakref.WeakSet()
"""The threads of pools shut down without waiting that may still be joining their workers."""


def _join_pools_at_exit() -> None:
    """At interpreter exit, before ``concurrent.futures`` wakes its pools'
    threads: join the threads of the pools :func:`_worker_pool` shut down
    without waiting.  Python 3.11's own exit hook checks that a pool thread's
    wake-up pipe is open, then writes to it; a thread that closes it in
    between (its workers just joined) makes that write fail, and the
    interpreter prints the error on the way out ("Exception ignored in:
    <module 'threading'> ... handle is closed")."""
    for thread in list(_UNJOINED_POOLS):
        thread.join()


# threading's exit hooks run in reverse order of registration: this one, registered after
# concurrent.futures' own (at the import of ProcessPoolExecutor above), runs before it.
_register_atexit = getattr(threading, "_register_atexit", None)
if _register_atexit is not None:
    _register_atexit(_join_pools_at_exit)


@contextlib.contextmanager
def _worker_pool(processes: int, spawn_with: list[tuple[Puzzle, Rules | None, dict[str, object]]] | None = None
                 ) -> Iterator[ProcessPoolExecutor]:
    """A pool of ``processes`` :func:`_start_worker`'s (a batch's, ``ricochet
    solve``'s), forked, or spawned and given the batch ``spawn_with``.  On the
    way out it is shut down without waiting for its workers to exit (the
    pool's own thread joins them): once the body is done, the idle workers
    exit while the caller goes on (8 workers took 13-16 ms to), and the
    interpreter's exit waits for that thread (:func:`_join_pools_at_exit`);
    left by an exception (Ctrl-C, an error, a generator closed early), its
    workers are ended at once rather than left to finish long searches."""
    pool = ProcessPoolExecutor(max_workers=processes, initializer=_start_worker,
                               mp_context=get_context("fork" if spawn_with is None else "spawn"),
                               initargs=() if spawn_with is None else (spawn_with,))
    finished = False
    try:
        yield pool
        finished = True
    finally:
        if not finished:
            for proc in list((getattr(pool, "_processes", None) or {}).values()):
                proc.terminate()
        thread = getattr(pool, "_executor_manager_thread", None)  # (none if nothing was submitted)
        if thread is not None:
            _UNJOINED_POOLS.add(thread)
        pool.shutdown(wait=False, cancel_futures=True)


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
    OpenMP, this is unsafe").  :func:`solve_many` then spawns its workers."""
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


def _solve_indexed(i: int, threads: int = 1, give_up: int = 0) -> tuple[bool, Solution] | _GaveUp | SolverError:
    puzzle, rules, options = _BATCH[i]
    try:
        sol = _solve_one((puzzle, rules, {**options, "threads": threads}) if threads > 1 else _BATCH[i], give_up)
    except SolverError as e:  # one puzzle's internal error: the caller decides (ricochet solve goes on)
        return e
    if isinstance(sol, _GaveUp):  # to be searched again on threads
        return sol
    if sol.puzzle is puzzle:
        return True, dataclasses.replace(sol, puzzle=None, _paths=None if sol.moves else ())  # type: ignore[arg-type]
    return False, sol


def _estimate_indexed(i: int) -> tuple[int, bool]:
    """A batch puzzle's :func:`effort_estimate`, and whether its search takes threads (:func:`takes_threads`)."""
    puzzle, rules, options = _BATCH[i]
    return effort_estimate(puzzle, rules), takes_threads(puzzle, rules, **_thread_options(options))


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
    return min(int(kernel.solo_approach(cells, t, board.width * board.height, rt.start, rt.length, rt.cyclic,
                                        rt.cells, lower_bound(board, rules, puzzle.target, pos.robots[t].color,
                                                              puzzle.target)))
               for t in finishers)


def takes_threads(puzzle: Puzzle, rules: Rules | None = None, *, any_robot: bool | None = None,
                  max_moves: int = DEFAULT_MAX_MOVES, max_states: int = ASTAR_MAX_STATES) -> bool:
    """Whether ``solve(puzzle, threads=N)`` (with these options) would search
    on N threads: the A* of one finishing robot from a fresh start, under
    plain moves, with keys that fit the compact map (:func:`parallel.supported`:
    no transparent robot, no rule state, 4 robots on 16×16 or fewer).  Any
    other search runs on one thread (the vortex's A* for every robot at once
    among them), so :func:`solve_many` and ``ricochet solve`` deal their
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
    if t in pos.turned or (pos.headings and pos.headings[t] is not None):
        return False
    colors = tuple([r.color for r in pos.robots])
    return parallel.supported(len(colors), cell_bits(board.width * board.height), rules.no_straight_back,
                              rules.must_ricochet, transparent_index(colors), t, max_moves, max_states)


def schedule(effort: Sequence[int], processes: int, max_chunk: int = 16) -> list[list[int]]:
    """Tasks for :func:`solve_many`'s workers: the puzzles' indices in decreasing
    ``effort``, the likely-long ones one per task and the rest in chunks that
    grow towards the end of the list (to ``max_chunk``), where the puzzles are
    cheap and a task's round trip between processes (a few hundred
    microseconds) would cost more than solving them.  The workers take the
    tasks in this order as they become free (dynamic scheduling): no worker is
    handed a fixed share, so a long puzzle never waits behind another in one
    worker's chunk while other workers are idle.

    >>> schedule([0, 9, 3, 1], 2)
    [[1], [2], [3], [0]]
    >>> [len(t) for t in schedule([2] * 6 + [0] * 60, 2)]
    [1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 2, 2, 3, 3, 4, 5, 6, 8, 10, 5, 3, 1, 1, 1]
    """
    order = sorted(range(len(effort)), key=lambda i: -effort[i])
    tasks: list[list[int]] = []
    k = 0
    first_chunk = -1
    while k < len(order):
        # Singles: the puzzles that need helper moves (effort > 0: nearly all the
        # solving time), and at least four per process at the head of the list.
        if effort[order[k]] > 0 or k < 4 * processes:
            size = 1
        else:
            # Then chunks growing by one every 2 * processes puzzles, never more
            # than an even share of what is left.
            first_chunk = k if first_chunk < 0 else first_chunk
            size = max(1, min(max_chunk, (k - first_chunk) // (2 * processes) + 1, (len(order) - k) // processes))
        tasks.append(order[k:k + size])
        k += size
    return tasks


class RunningMedian:
    """The median of the values added so far, in O(log n) an addition (two
    heaps): a batch of a million puzzles keeps the median of its answers
    without sorting them again and again.  Of an even count, the upper of the
    two middle values.

    >>> m = RunningMedian([0.04, 0.0001, 0.05, 0.0002]); len(m), m.value
    (4, 0.04)
    """

    def __init__(self, values: Iterable[float] = ()) -> None:
        self._low: list[float] = []  # the lower half, negated (a max-heap)
        self._high: list[float] = []  # the upper half: as many as the lower, or one more
        for x in values:
            self.add(x)

    def add(self, x: float) -> None:
        if self._high and x >= self._high[0]:
            heapq.heappush(self._high, x)
        else:
            heapq.heappush(self._low, -x)
        if len(self._low) > len(self._high):
            heapq.heappush(self._high, -heapq.heappop(self._low))
        elif len(self._high) > len(self._low) + 1:
            heapq.heappush(self._low, -heapq.heappop(self._high))

    def __len__(self) -> int:
        return len(self._low) + len(self._high)

    @property
    def value(self) -> float:
        """The median (the sorted values' element ``len // 2``); no values: an IndexError."""
        return self._high[0]


def chunk_size(answered: RunningMedian, left: int, cores: int, max_chunk: int = 16) -> int:
    """How many puzzles :func:`solve_many`'s next task may hold, given the
    solve times of the answers so far (``answered``), the puzzles not yet
    handed out (``left``) and the ``cores``: one until ``cores`` answers are
    in; then :data:`CHUNK_SECONDS` of the median answer's time, at most
    ``max_chunk`` and an even share of those left.

    >>> cheap = RunningMedian([0.0001] * 3)
    >>> chunk_size(cheap, 500, 4), (cheap.add(0.0001), chunk_size(cheap, 500, 4))[1], chunk_size(cheap, 20, 4)
    (1, 16, 5)
    >>> chunk_size(RunningMedian([0.0001, 0.0002, 0.04, 0.05]), 200, 4)  # (the median: 40 ms)
    1
    """
    if len(answered) < cores:
        return 1
    typical = max(answered.value, 1e-6)
    return max(1, min(max_chunk, int(CHUNK_SECONDS / typical), left // cores))


def take_task(queue: list[list[int]], size: int, alone: Callable[[int], bool] | None = None) -> list[int]:
    """:func:`solve_many`'s next task, off the end of ``queue`` (tasks in
    reverse order), with the tasks after it while together they hold at most
    ``size`` puzzles (:func:`chunk_size`); a one-puzzle task whose puzzle is
    ``alone`` (dealt threads) is not shared.

    >>> queue = [[5], [4], [2, 3], [1], [0]]
    >>> take_task(queue, 3), take_task(queue, 3, alone=lambda i: i == 4), queue
    ([0, 1], [2, 3], [[5], [4]])
    """
    def single(task: list[int]) -> bool:
        return alone is not None and len(task) == 1 and alone(task[0])

    task = queue.pop()
    if single(task):
        return task
    while queue and len(task) + len(queue[-1]) <= size and not single(queue[-1]):
        task = task + queue.pop()
    return task


def share_cores(effort: Sequence[int], cores: int, threaded: Sequence[bool] | None = None) -> list[int]:
    """Threads per puzzle for a batch of fewer puzzles than ``cores``: one
    each, and the cores left over dealt in turn to the puzzles that need
    helper moves (``effort`` > 0, :func:`effort_estimate`), the largest
    effort first.  A puzzle a robot finishes alone is short: threads would
    cost it more (their start, the threaded kernel's load) than they save.
    ``threaded``: per puzzle, whether its search would use threads at all
    (:func:`takes_threads`); those it says no to get one.

    >>> share_cores([2, 0, 5], 8)
    [3, 1, 4]
    >>> share_cores([0, 0], 8), share_cores([1, 1, 1], 3)
    ([1, 1], [1, 1, 1])
    >>> share_cores([2, 0, 5], 8, threaded=[True, True, False])
    [6, 1, 1]
    """
    threads = [1] * len(effort)
    long = sorted((i for i, e in enumerate(effort) if e > 0 and (threaded is None or threaded[i])),
                  key=lambda i: -effort[i])
    for k in range(max(0, cores - len(effort)) if long else 0):
        threads[long[k % len(long)]] += 1
    return [min(n, MAX_THREADS) for n in threads]


def threads_sleep_while_waiting() -> None:
    """Have GNU OpenMP's threads sleep while they wait, rather than spin
    (``OMP_WAIT_POLICY=PASSIVE``, unless the caller set it), in a worker
    process given threads beside other workers: a spinning thread takes a
    core from them.  Read when OpenMP starts, which it has not in a worker
    that threads are dealt to (:func:`solve_many`, ``ricochet solve``)."""
    os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")


# What a batch task brings back per puzzle: (whether the parent must put the puzzle
# back, the solution), a search that gave up, or an internal error.
_Landed = tuple[bool, Solution] | _GaveUp | SolverError


def _solve_chunk(indices: list[int], threads: int, give_up: Sequence[int]) -> list[_Landed]:
    """A batch task: its puzzles in turn; ``give_up``: per puzzle its cap (0: none)."""
    if threads > 1:
        threads_sleep_while_waiting()
    return [_solve_indexed(i, threads, cap) for i, cap in zip(indices, give_up, strict=True)]


class _Batch:
    """:func:`solve_many`'s tasks handed to a pool of ``cores`` workers as
    cores become free, in :func:`schedule`'s order, and what came back.

    A puzzle handed out once the first answers are in is given a cap
    (``give_up``, :meth:`give_up_cap`): should its A* store more states than
    both :data:`GIVE_UP_SHARE` of the batch's expected remaining time and
    :data:`GIVE_UP_OUTLIER` typical puzzles allow, it gives up, and is
    searched again on threads once the queue is empty, with the cores the
    other tasks leave.  Otherwise one unforeseen long puzzle, started late,
    would run on one core while every other core waits (the estimates cannot
    tell the longest of a random set from hundreds like it).

    Once ``cores`` answers are in, a task handed out takes the tasks after it
    with it while together they hold about :data:`CHUNK_SECONDS` of the
    batch's typical puzzle (:func:`chunk_size`): each task costs this
    process a round trip, and a batch of cheap puzzles would otherwise wait
    on it (the estimates cannot tell 450 of 1000 random puzzles, at 0.2 ms
    apiece, from ASP's, at 40 ms)."""

    def __init__(self, pool: ProcessPoolExecutor, tasks: list[list[int]], cores: int, threaded: Sequence[bool],
                 may_give_up: bool, progress: Callable[[int, int], object] | None = None,
                 max_chunk: int = 16) -> None:
        self.pool = pool
        self.progress = progress
        self.queue = list(reversed(tasks))  # popped from the end
        self.cores = cores
        self.threaded = threaded
        self.may_give_up = may_give_up
        self.max_chunk = max_chunk
        self.free = cores
        # Tasks handed out beyond the free cores, waiting in the pool's queue: one per core,
        # so that the caps and sizes are set late but a worker that ends a task starts the
        # next without waiting for this process to hear of it.
        self.backlog = cores
        self.seconds = RunningMedian()  # of the answers' solve times
        self.running: dict[Future[list[_Landed]], tuple[list[int], int]] = {}
        self.ended: queue.SimpleQueue[Future[list[_Landed]]] = queue.SimpleQueue()
        self.deferred: list[int] = []  # gave up, waiting for cores
        self.tries: dict[int, _GaveUp] = {}  # every puzzle that gave up: the search it threw away
        self.searched_again = 0  # cores held by those searched again
        self.answered = 0
        self.started = time.perf_counter()
        self.left = self.total = sum(len(t) for t in tasks)  # puzzles not yet handed out; in all

    @property
    def gave_up(self) -> list[int]:
        """The puzzles that gave up, in the order they did."""
        return list(self.tries)

    def give_up_cap(self, task: list[int]) -> list[int]:
        """The state caps of a task's puzzles now (0: none): those whose search
        takes threads, once enough answers came back to tell the batch's pace,
        while fewer than cores / :data:`GIVE_UP_CORES` gave up.
        The pace is the puzzles answered per second of the batch so far: the
        first tasks are the longest-looking, so it errs towards a larger cap."""
        done = self.answered
        if not self.may_give_up or done < self.cores or len(self.tries) >= self.cores // GIVE_UP_CORES:
            return [0] * len(task)
        per_puzzle = (time.perf_counter() - self.started) / done  # of the batch's wall time
        seconds = max(GIVE_UP_SHARE * per_puzzle * self.left, GIVE_UP_OUTLIER * per_puzzle * self.cores)
        cap = max(MIN_GIVE_UP, int(seconds * ASTAR_STATES_PER_SECOND))
        return [cap if self.threaded[i] else 0 for i in task]

    def next_task(self, dealt: Sequence[int]) -> list[int]:
        """The next task off the queue (:func:`take_task`; a puzzle dealt threads goes alone)."""
        return take_task(self.queue, chunk_size(self.seconds, self.left, self.cores, self.max_chunk),
                         alone=lambda i: dealt[i] > 1)

    def submit(self, task: list[int], threads: int, give_up: Sequence[int]) -> None:
        self.free -= threads
        fut = self.pool.submit(_solve_chunk, task, threads, give_up)
        self.running[fut] = (task, threads)
        fut.add_done_callback(self.ended.put)  # (in the pool's thread)

    def answers(self, dealt: Sequence[int]) -> Iterator[tuple[int, tuple[bool, Solution] | SolverError]]:
        """``(index, answer)`` as the answers come in; ``dealt``: threads per puzzle."""
        while self.queue or self.deferred or self.running:
            while self.queue and self.free > -self.backlog:
                task = self.next_task(dealt)
                self.left -= len(task)
                self.submit(task, dealt[task[0]] if len(task) == 1 else 1, self.give_up_cap(task))
            # A puzzle that gave up waits for the queue to empty and for its share of the cores
            # that other such puzzles do not hold: the tasks still out are late ones, short or
            # capped themselves.
            while self.deferred and not self.queue:
                share = max(1, (self.cores - self.searched_again) // len(self.deferred))
                if self.free < share:
                    break
                threads = min(self.free if len(self.deferred) == 1 else share, MAX_THREADS)
                self.searched_again += threads
                self.submit([self.deferred.pop(0)], threads, [0])
            # The tasks that ended, without waiting on each of those out (several end at once
            # where tasks are short).
            finished = [self.ended.get()]
            while not self.ended.empty():
                finished.append(self.ended.get())
            for fut in finished:
                task, threads = self.running.pop(fut)
                self.free += threads
                if task[0] in self.tries:  # (set below when it gave up: this is its search again)
                    self.searched_again -= threads
                for i, got in zip(task, fut.result(), strict=True):
                    if isinstance(got, _GaveUp):
                        self.deferred.append(i)
                        self.tries[i] = got
                        continue
                    if i in self.tries and not isinstance(got, SolverError):  # time and states of both searches
                        tried = self.tries[i]
                        got = got[0], dataclasses.replace(got[1], seconds=got[1].seconds + tried.seconds,
                                                          nodes=got[1].nodes + tried.nodes)
                    if not isinstance(got, SolverError):
                        self.seconds.add(got[1].seconds)
                    self.answered += 1
                    yield i, got
            if self.progress is not None:
                self.progress(self.answered, self.total)


def _thread_options(options: Mapping[str, object]) -> dict[str, Any]:
    """The :func:`solve` options that :func:`takes_threads` reads."""
    return {k: options[k] for k in ("any_robot", "max_moves", "max_states") if k in options}


def solve_many(puzzles: Iterable[Puzzle], rules: Rules | None = None, *, processes: int | None = None,
               chunksize: int = 16, progress: Callable[[int, int], object] | None = None,
               **options: object) -> list[Solution]:
    """Solve many puzzles on every core; the answers come in the puzzles'
    order.  Options are those of :func:`solve`.

    ``progress``: called here as ``progress(answered, total)`` each time
    answers come back (a long batch's progress bar or log line).

    ``processes``: how many worker processes (None or 0: the cores, divided by
    ``threads``).  With one process (or one puzzle) everything runs here,
    without worker start-up.  A batch of fewer puzzles than ``processes``
    gets one worker per puzzle, and the processes left over become threads
    for its puzzles that need helper moves and whose search takes threads
    (:func:`share_cores`, :func:`takes_threads`): 2 long puzzles on 16
    cores are searched on 8 threads each.  Not when
    ``threads`` is given, nor after a ``solve(threads=N)`` in this process
    (:func:`forked_workers_may_thread`).  ``threads`` (a :func:`solve` option) gives each
    worker that many threads for its puzzle.  The workers are forked; with ``threads`` after a
    ``solve(threads=N)`` in this process they are spawned instead (a fork
    could not start threads: :func:`forked_workers_may_thread`), which takes
    longer to start and imports the calling script again, so that script
    needs the usual ``if __name__ == "__main__":`` guard.  The workers
    ignore Ctrl-C: on an interruption (or an error) this process ends them.

    The workers first compute every puzzle's :func:`effort_estimate` (in
    parallel), then take tasks from :func:`schedule` as they become free:
    the likely-long puzzles first and one per task, cheap ones later in
    chunks of at most ``chunksize`` (a long puzzle started late would leave
    the other cores idle at the end of the batch: longest-first, dynamic
    scheduling).  Once the first answers show the batch's typical puzzle to
    be cheap (a median of a fraction of a millisecond, as for random
    puzzles), tasks hand out about :data:`CHUNK_SECONDS` of them at a time
    (:func:`chunk_size`): this process pays a round trip per task.  On 4
    cores or more, a puzzle that turns out far longer
    than the batch's others late in it gives up and is searched again on
    threads once the other tasks are done (at most one per 4 cores; not
    with ``threads`` or ``time_limit``, nor after a ``solve(threads=N)``
    here); its :attr:`Solution.seconds` and ``nodes`` count both searches.
    Where workers may search on threads and numba's threading layer survives
    a fork (:data:`FORK_SAFE_LAYERS`, e.g. ``NUMBA_THREADING_LAYER=tbb``), the
    threaded kernel is loaded here first, so no worker loads it again; under
    GNU OpenMP only its helpers that start no threads are."""
    items = list(puzzles)
    out: dict[int, Solution] = {}
    with contextlib.closing(solve_as_answered(items, rules, processes=processes, chunksize=chunksize,
                                              progress=progress, **options)) as answers:
        for i, sol in answers:
            if isinstance(sol, SolverError):
                raise sol
            out[i] = sol
    return [out[i] for i in range(len(items))]


def solve_as_answered(puzzles: Iterable[Puzzle], rules: Rules | None = None, *, processes: int | None = None,
                      chunksize: int = 16, progress: Callable[[int, int], object] | None = None,
                      **options: object) -> Generator[tuple[int, Solution | SolverError], None, None]:
    """:func:`solve_many`, yielding ``(index, answer)`` as the answers come in
    rather than a list at the end (``ricochet solve`` writes each answer out as
    soon as those before it are in).  A puzzle's :class:`SolverError` (a bug)
    is its answer, so the others still come.  Close the generator
    (``contextlib.closing``) to stop early: that ends the workers.  The
    options are checked at the first ``next``, before any worker starts.
    One batch runs at a time: another thread's waits for this one to end,
    and one opened in this thread before this one ends is refused
    (:class:`RuntimeError`)."""
    if processes is not None and (isinstance(processes, bool) or not isinstance(processes, int) or processes < 0):
        raise ValueError(f"processes must be a non-negative integer (0 or None: every core), got {processes!r}")
    if isinstance(chunksize, bool) or not isinstance(chunksize, int) or chunksize < 1:
        raise ValueError(f"chunksize must be a positive integer, got {chunksize!r}")
    if progress is not None and not callable(progress):
        raise ValueError(f"progress must be a function of (answered, total), got {progress!r}")
    threads = _checked_threads(options.get("threads", 1))
    _checked_max_moves(options.get("max_moves", DEFAULT_MAX_MOVES))
    items = [(p, rules, options) for p in puzzles]
    cores = processes or max(1, (os.cpu_count() or 1) // threads)
    if cores <= 1 or len(items) <= 1:
        for i, (p, r, o) in enumerate(items):
            try:
                sol: Solution | SolverError = solve(p, r, **o)  # type: ignore[arg-type]
            except SolverError as e:
                sol = e
            yield i, sol
            if progress is not None:
                progress(i + 1, len(items))
        return
    global _BATCH
    procs = min(cores, len(items))
    # Fewer puzzles than cores: the cores left over become threads for the long-looking
    # puzzles, in forked workers that start their own (this process must not have).
    spare = procs < cores and "threads" not in options and forked_workers_may_thread()
    # A puzzle may give up late in the batch, to be searched again on threads: where
    # forked workers may start them, and no threads or time limit were asked for.
    may_give_up = (not spare and cores >= GIVE_UP_CORES and "threads" not in options
                   and options.get("time_limit") is None and forked_workers_may_thread())
    warm_up()  # once here, not once per forked worker
    if spare or may_give_up:
        # Workers may search on threads: with a fork-safe layer the threaded kernel
        # is loaded once here, not in each of them (~60 ms); else its helpers are.
        if _threads_survive_fork():
            warm_up_threads()
        else:
            _load_thread_helpers()
    fork = threads == 1 or forked_workers_may_thread()
    with _BATCH_LOCK:
        if _BATCH:
            raise RuntimeError("a batch of this thread is still open (solve_as_answered not finished or closed): "
                               "finish or close it before the next")
        _BATCH = items
        try:
            with _worker_pool(procs, spawn_with=None if fork else items) as pool:
                # The estimates build most of the search tables too: in the workers, in parallel.
                effort, threaded = zip(*pool.map(_estimate_indexed, range(len(items)),
                                                 chunksize=max(1, len(items) // (4 * procs))), strict=True)
                dealt = share_cores(effort, cores, threaded) if spare else [1] * len(items)
                batch = _Batch(pool, schedule(effort, procs, max(1, chunksize)), cores, threaded, may_give_up,
                               progress, max_chunk=chunksize)
                for i, got in batch.answers(dealt):
                    if isinstance(got, SolverError):
                        yield i, got
                    else:
                        stripped, sol = got
                        yield i, dataclasses.replace(sol, puzzle=items[i][0]) if stripped else sol
        finally:
            _BATCH = []


__all__ = ["FORK_SAFE_LAYERS", "Direction", "RunningMedian", "Solution", "SolverError", "Status", "chunk_size",
           "effort_estimate", "forked_workers_may_thread", "hint", "schedule", "share_cores", "solve",
           "solve_as_answered", "solve_many", "take_task", "takes_threads", "threads_sleep_while_waiting", "warm_up",
           "warm_up_threads"]
