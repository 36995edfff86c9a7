"""The compiled solver against a deliberately simple reference search
(``reference_solver.py``: uniform-cost search over full states, engine only)
on small random boards with every rule option, and on real puzzles: the ASP
2015 set at its published optimum, random puzzles on the real boards (plain and
game rules), the cosmic vortex, all/fewest-robot solutions, every status,
``solve_many``, ``hint`` and option errors."""

from __future__ import annotations

import dataclasses
import os
import random
from typing import Any

import pytest
from hypothesis import assume, event, given, note
from hypothesis import strategies as st

from reference_solver import all_optimal, reference_optimum
from ricochet import datasets
from ricochet.board import Board
from ricochet.generate import random_puzzles
from ricochet.geometry import DIRECTIONS, Direction
from ricochet.notation.interchange import dumps_puzzle, read_jsonl
from ricochet.position import Move, Position, Robot
from ricochet.puzzle import NEUTRAL_COLORS, Puzzle, check_solution
from ricochet.rules import GAME, PLAIN, Rules
from ricochet.solver import api, batch, kernel, parallel
from ricochet.solver.api import hint, solve
from ricochet.solver.batch import solve_many
from ricochet.solver.records import BlockerSets
from strategies import PROPERTY, boards, positions, rule_sets

ASP = datasets.path("asp2015")
MAX_MOVES = 8
REF_STATES = 4_000


# -- helpers ----------------------------------------------------------------------
def assert_valid(sol: api.Solution, puzzle: Puzzle, rules: Rules) -> None:
    """A solved answer replays through the engine at exactly its length."""
    assert sol.status == "solved", sol
    verdict = check_solution(puzzle, sol.moves, rules)
    assert verdict.ok, (verdict.failure, sol.moves)
    assert verdict.cost == sol.length
    assert verdict.paths == sol.paths


def judged(puzzle: Puzzle, any_robot: bool | None) -> Puzzle:
    """The puzzle a solution is judged against: ``any_robot=True`` makes any
    robot count (as the cosmic vortex does)."""
    return dataclasses.replace(puzzle, active=None) if any_robot else puzzle


def describe(puzzle: Puzzle, rules: Rules, any_robot: bool | None) -> str:
    """Enough to rebuild a failing case: the interchange line and the switches."""
    return f"{dumps_puzzle(puzzle, rules=rules)}\nrules={rules}\nany_robot={any_robot}"


@st.composite
def small_puzzles(draw: st.DrawFn, *, max_size: int = 7, max_robots: int = 4) -> tuple[Puzzle, Rules, bool | None]:
    """A small random puzzle (3×3 … 7×7, 1–4 robots, sometimes silver or
    transparent, diagonals, openings, towers, blocked cells), its rules and
    the ``any_robot`` option to solve it with."""
    board = draw(boards(min_size=3, max_size=max_size), label="board")
    pos = draw(positions(board, min_robots=1, max_robots=max_robots, goal=False), label="position")
    free = [c for c in board.cells() if c not in board.blocked]
    empty = [c for c in free if c not in pos.cells]
    if empty and draw(st.integers(0, 7), label="target under a robot") > 0:
        free = empty  # mostly an empty target cell; sometimes one a robot already stands on
    if bool(board.towers) and draw(st.booleans(), label="target on a tower"):
        target = draw(st.sampled_from(sorted(board.towers)), label="target")
    else:
        target = draw(st.sampled_from(free), label="target")
    colored = [i for i, r in enumerate(pos.robots) if r.color not in NEUTRAL_COLORS]
    active = draw(st.sampled_from(colored + [None]) if colored else st.just(None), label="active")
    rules = draw(rule_sets(), label="rules")
    if rules.no_straight_back and draw(st.booleans(), label="has last move"):
        last = (draw(st.integers(0, len(pos.robots) - 1)), draw(st.sampled_from(DIRECTIONS)))
        pos = dataclasses.replace(pos, last_move=last)
    any_robot = None
    if active is not None:
        any_robot = draw(st.sampled_from([None, None, True, False]), label="any_robot")
    return Puzzle(pos, target, active), rules, any_robot


def solve_checking_at_once(puzzle: Puzzle, rules: Rules, any_robot: bool | None,
                           sets_full_after: int = 0) -> api.Solution:
    """A* with every bound check from the first expansion.  With
    ``sets_full_after`` 0 every blocker set is built at once (so inherited
    levels reach 2 even in these small searches); with the default the
    slack-0 sets are built cell by cell as the checks need them."""
    saved = api.CHECK_AFTER, kernel.SETS_FULL_AFTER
    api.CHECK_AFTER, kernel.SETS_FULL_AFTER = 0, sets_full_after
    try:
        return solve(puzzle, rules, max_moves=MAX_MOVES, any_robot=any_robot)
    finally:
        api.CHECK_AFTER, kernel.SETS_FULL_AFTER = saved


def solve_threaded(puzzle: Puzzle, rules: Rules, any_robot: bool | None) -> api.Solution:
    """``solve(threads=3)`` with rounds of two states per worker, claimed one
    at a time, all of them shared out to the threads (``parallel.SERIAL_BELOW``
    0): a small search then goes through as many rounds, claims from other
    workers' slices, hand-overs and map growths as a long one."""
    saved = parallel.BATCH, parallel.CHUNK, parallel.SERIAL_BELOW
    parallel.BATCH, parallel.CHUNK, parallel.SERIAL_BELOW = 2, 1, 0
    try:
        return solve(puzzle, rules, max_moves=MAX_MOVES, any_robot=any_robot, threads=3)
    finally:
        parallel.BATCH, parallel.CHUNK, parallel.SERIAL_BELOW = saved


# -- agreement with the reference search --------------------------------------------
@PROPERTY
@given(small_puzzles())
def test_solver_agrees_with_reference_search(case: tuple[Puzzle, Rules, bool | None]) -> None:
    puzzle, rules, any_robot = case
    note(describe(puzzle, rules, any_robot))
    ref = reference_optimum(puzzle, rules, any_robot=any_robot, max_cost=MAX_MOVES, max_states=REF_STATES)
    note(f"reference: {ref}")
    if ref.moves is not None:  # the reference's own answer passes the engine's check
        verdict = check_solution(judged(puzzle, any_robot), ref.moves, rules)
        assert verdict.ok and verdict.cost == ref.cost, verdict
    event("reference: " + ("capped" if not ref.complete else "none" if ref.cost is None else f"{ref.cost} moves"))
    if ref.complete:
        sol = solve(puzzle, rules, max_moves=MAX_MOVES, any_robot=any_robot)
        assert sol.length == ref.cost, (sol, ref)
        # A*'s raised bound from the first expansion (by default the first CHECK_AFTER check nothing,
        # which would leave most of these small searches unchecked)
        eager = solve_checking_at_once(puzzle, rules, any_robot)
        assert eager.length == ref.cost, (eager, ref)
        on_demand = solve_checking_at_once(puzzle, rules, any_robot, kernel.SETS_FULL_AFTER)
        assert on_demand.length == ref.cost, (on_demand, ref)
        # The threaded A* (parallel.parallel_astar, where it takes the search): three workers, rounds
        # of two states each, every round on the threads (by default small ones run on one)
        threaded = solve_threaded(puzzle, rules, any_robot)
        assert threaded.length == ref.cost, (threaded, ref)
        if threaded.solved:
            assert_valid(threaded, judged(puzzle, any_robot), rules)
        # IDA*, the fixed-memory fallback once A* reaches its state cap
        ida = solve(puzzle, rules, max_moves=MAX_MOVES, any_robot=any_robot, max_states=1)
        assert ida.length == ref.cost, (ida, ref)
        if ida.solved:
            assert_valid(ida, judged(puzzle, any_robot), rules)
        if ref.cost is None:
            assert sol.status in ("limit", "unsolvable"), sol
        else:
            assert_valid(sol, judged(puzzle, any_robot), rules)
        if sol.status == "unsolvable":
            assert ref.cost is None
    else:
        # The reference gave up at its state cap having proved "nothing cheaper
        # than ref.lower": the solver must agree up to there, and whatever it
        # finds beyond must be valid.
        below = int(ref.lower) - 1
        sol = solve(puzzle, rules, max_moves=below, any_robot=any_robot)
        assert sol.status in ("limit", "unsolvable"), (sol, ref)
        sol = solve(puzzle, rules, max_moves=MAX_MOVES, any_robot=any_robot)
        if sol.solved:
            assert sol.length is not None and sol.length >= ref.lower
            assert_valid(sol, judged(puzzle, any_robot), rules)
        elif sol.status == "limit":
            pass
        else:
            assert sol.status == "unsolvable", sol
    if ref.unsolvable:
        assert sol.status in ("limit", "unsolvable"), sol


@PROPERTY
@given(small_puzzles(max_size=5, max_robots=3), st.booleans(), st.sampled_from([api.ASTAR_MAX_STATES, 1]))
def test_all_solutions_are_every_optimal_solution(case: tuple[Puzzle, Rules, bool | None], fewest: bool,
                                                  max_states: int) -> None:
    puzzle, rules, any_robot = case
    note(describe(puzzle, rules, any_robot))
    ref = reference_optimum(puzzle, rules, any_robot=any_robot, max_cost=5, max_states=REF_STATES)
    assume(ref.cost is not None and ref.cost > 0)
    assert ref.cost is not None
    expected = all_optimal(puzzle, ref.cost, rules, any_robot=any_robot, limit=200)
    assume(expected is not None)
    sol = solve(puzzle, rules, max_moves=5, any_robot=any_robot, all_solutions=True, fewest_robots=fewest,
                max_states=max_states)
    assert_valid(sol, judged(puzzle, any_robot), rules)
    alternatives = sol.alternatives
    assert len(set(alternatives)) == len(alternatives), "the same solution twice"
    assert set(alternatives) == expected
    assert sol.moves in alternatives
    if fewest:
        robots = len({m.robot for m in sol.moves})
        assert robots == min(len({m.robot for m in alt}) for alt in alternatives)


# -- regressions found by the agreement test ----------------------------------------
def test_must_ricochet_turn_in_place_is_not_pruned() -> None:
    """Moving out and straight back to the same cell is a turn (S then E, W
    back: E is perpendicular to S) under must-ricochet without
    no-straight-back; the kernel's ``no_undo`` pruning must not drop it.

    3×3 empty board, red (0,0) active, green (1,0), target (0,0):
    S, E, W, N (4 moves; W returns red to (0,2) having turned)."""
    pz = Puzzle(Position(Board.build(3, 3), (Robot("red", (0, 0)), Robot("green", (1, 0)))), (0, 0), active=0)
    rules = Rules(must_ricochet=True)
    ref = reference_optimum(pz, rules)
    assert ref.cost == 4 and ref.moves is not None and check_solution(pz, ref.moves, rules).ok
    sol = solve(pz, rules, max_moves=8)
    assert sol.length == 4, sol.moves


def test_any_robot_override_on_a_puzzle_with_an_active_robot() -> None:
    """``any_robot=True`` lets another robot finish, so the returned solution
    is judged as a vortex puzzle (not refused against the active robot)."""
    pz = Puzzle(Position(Board.build(3, 3), (Robot("red", (0, 1)), Robot("green", (2, 2)))), (0, 0), active=1)
    sol = solve(pz, any_robot=True)
    assert sol.length == 1 and sol.moves == (Move(0, Direction.N),)
    assert_valid(sol, judged(pz, True), PLAIN)


def test_moving_back_after_wrapping_through_an_opening_is_not_pruned() -> None:
    """An opening is a gap on one side only: red leaves (0,0) westward, wraps
    to (3,0) and stops at (1,0) against a wall; moving back east it stops at
    (3,0) against the east border instead of returning.  The kernel's
    ``no_undo`` pruning (a reversal equals one move) must not drop W, E.

    4×3 board, wall E of (0,0), opening W of (0,0), red (0,0), target (3,0)."""
    board = Board.build(4, 3, walls=[(0, 0, "E")], openings=[((0, 0), "W")])
    pz = Puzzle(Position(board, (Robot("red", (0, 0)),)), (3, 0), active=0)
    ref = reference_optimum(pz)
    assert ref.cost == 2 and ref.moves == (Move(0, Direction.W), Move(0, Direction.E))
    sol = solve(pz, max_moves=8)
    assert sol.length == 2, sol.moves


# -- the real data ----------------------------------------------------------------
def asp_puzzles() -> list[Puzzle]:
    out = []
    with ASP.open(encoding="utf-8") as f:
        for n, item in read_jsonl(f):
            assert isinstance(item, Puzzle), f"line {n}: {item}"
            out.append(item)
    return out


def test_asp_2015_sample_at_the_published_optimum() -> None:
    """The 12 shortest of the 239 ASP 2015 instances, at exactly their recorded optimum."""
    puzzles = asp_puzzles()
    assert len(puzzles) == 239
    sample = sorted(puzzles, key=lambda p: (p.optimal, p.id))[:12]
    for pz in sample:
        sol = solve(pz)
        assert sol.length == pz.optimal, pz.id
        assert_valid(sol, pz, pz.rules)
        assert pz.optimal is not None and solve(pz, max_moves=pz.optimal - 1).status == "limit", pz.id
    for pz in sample[:3]:  # IDA* alone (A* capped at once)
        sol = solve(pz, max_states=1)
        assert sol.length == pz.optimal, pz.id
        assert_valid(sol, pz, pz.rules)


@pytest.mark.parametrize(("preset", "count"), [("plain", 50), ("game", 20)])
def test_random_real_board_puzzles(preset: str, count: int) -> None:
    """Random puzzles on the real boards; short ones are confirmed optimal by
    the reference search."""
    rules = Rules.preset(preset)
    for pz in random_puzzles(2024, count, rules):
        sol = solve(pz)
        assert_valid(sol, pz, rules)
        assert sol.length is not None
        if sol.length <= 3:
            ref = reference_optimum(pz, rules, max_cost=sol.length, max_states=50_000)
            assert ref.cost == sol.length, (pz.id, ref)


def test_random_puzzles_are_deterministic_and_solver_follows_the_puzzle_rules() -> None:
    pz = random_puzzles(7, 1, GAME)[0]
    assert pz.rules == GAME
    a, b = solve(pz), solve(pz, GAME)
    assert (a.status, a.moves, a.rules) == (b.status, b.moves, GAME)


def test_vortex_any_robot_is_the_best_of_the_robots() -> None:
    """The cosmic vortex (active None): the optimum is the best over the robots
    that could each be the active one."""
    vortex = [p for p in random_puzzles(2024, 50) if p.active is None]
    assert vortex, "no vortex puzzle among the random ones"
    samples = vortex + [dataclasses.replace(p, active=None) for p in random_puzzles(99, 4)]
    for pz in samples:
        sol = solve(pz)
        assert_valid(sol, pz, pz.rules)
        each = [solve(dataclasses.replace(pz, active=i)).length for i in range(len(pz.position.robots))]
        assert sol.length == min(x for x in each if x is not None), pz.id
        assert solve(pz, any_robot=True).length == sol.length


def test_all_solutions_and_fewest_robots_on_real_boards() -> None:
    for pz in random_puzzles(11, 6):
        sol = solve(pz, all_solutions=True, max_solutions=500)
        alts = sol.alternatives
        assert alts and len(set(alts)) == len(alts)
        assert sol.moves in alts
        for alt in alts:
            verdict = check_solution(pz, alt)
            assert verdict.ok and verdict.cost == sol.length, (pz.id, alt, verdict.failure)
        few = solve(pz, fewest_robots=True, max_solutions=500)
        assert few.length == sol.length
        assert_valid(few, pz, pz.rules)
        robots = len({m.robot for m in few.moves})
        assert robots == min(len({m.robot for m in alt}) for alt in few.alternatives)
        assert set(few.alternatives) == set(alts)


def test_max_solutions_caps_the_alternatives() -> None:
    pz = Puzzle(Position(Board.build(5, 5), (Robot("red", (0, 0)),)), (4, 4), active=0)
    assert len(solve(pz, all_solutions=True).alternatives) == 2
    capped = solve(pz, all_solutions=True, max_solutions=1)
    assert len(capped.alternatives) == 1 and capped.length == 2


def test_the_bounds_helpers_compile_without_numbas_runtime() -> None:
    """The installed numba still accepts ``_nrt`` (its undocumented option the
    bound's helpers are compiled with, kernel.leaf): a canary.  A release
    without it gets the fallback, slower leaves, and this test says why."""
    assert kernel._has_option("_nrt"), "this numba has no _nrt option: the solver's leaves run with reference counting"
    assert not kernel._has_option("no_such_option")
    assert kernel.solo_within.targetoptions["_nrt"] is False


def test_threaded_astar_gives_the_optimum_on_real_boards(monkeypatch: pytest.MonkeyPatch) -> None:
    """solve(threads=N) runs parallel.parallel_astar (workers sharing one map,
    lock-free) on plain 16×16 puzzles and finds the one-thread A*'s length,
    with solutions the engine accepts, on the longest of 80 random puzzles."""
    api.warm_up_threads()  # its own tiny threaded solve, before the count
    calls: list[int] = []
    threaded = parallel.parallel_astar

    def counted(*args: Any) -> Any:
        calls.append(args[-1].P)  # (the plan: its workers)
        return threaded(*args)

    monkeypatch.setattr(parallel, "parallel_astar", counted)
    puzzles = [p for p in random_puzzles(31, 80) if p.active is not None]
    lengths = {p.code(): solve(p).length for p in puzzles}
    longest = sorted(puzzles, key=lambda p: -(lengths[p.code()] or 0))[:10]
    assert min(lengths[p.code()] or 0 for p in longest) >= 8
    for p in longest:
        for threads in (2, 3):
            sol = solve(p, threads=threads, check=True)  # check: replayed through the engine
            assert sol.length == lengths[p.code()], (p.code(), threads)
    assert calls == [2, 3] * len(longest)


def test_threads_fall_back_to_one_where_the_threaded_search_does_not_apply() -> None:
    """A puzzle any robot may finish (the vortex) or under a rule with state
    (no straight back) is solved on one thread, at the same length."""
    puzzles = random_puzzles(5, 40)
    vortex = next(p for p in puzzles if p.active is None)
    plain = next(p for p in puzzles if p.active is not None and (solve(p).length or 0) >= 4)
    assert solve(vortex, threads=2).length == solve(vortex).length
    assert solve(plain, GAME, threads=2).length == solve(plain, GAME).length


def _runs_on_threads(monkeypatch: pytest.MonkeyPatch, puzzle: Puzzle, rules: Rules | None = None,
                     any_robot: bool | None = None) -> bool:
    """Whether ``solve(threads=2)`` of this puzzle called the threaded kernel."""
    calls: list[int] = []
    threaded = parallel.parallel_astar

    def counted(*args: Any) -> Any:
        calls.append(args[-1].P)
        return threaded(*args)

    with monkeypatch.context() as m:
        m.setattr(parallel, "parallel_astar", counted)
        solve(puzzle, rules, any_robot=any_robot, threads=2)
    return bool(calls)


@pytest.mark.parametrize("case, expected", [
    ("plain", True), ("vortex", False), ("game rules", False), ("any robot asked", False),
    ("silver: 5 robots", False), ("transparent robot", False),
])
def test_takes_threads_says_which_searches_run_on_threads(monkeypatch: pytest.MonkeyPatch, case: str,
                                                          expected: bool) -> None:
    """api.takes_threads (what solve_many and ``ricochet solve`` deal spare
    cores by) agrees with what solve(threads=2) does: plain moves and one
    finishing robot take the threads; the vortex, rule state, a fifth robot
    (keys beyond the compact map) and the transparent robot run on one."""
    api.warm_up_threads()
    rules = {"silver: 5 robots": Rules(silver=True), "transparent robot": Rules(transparent=True),
             "game rules": GAME}.get(case, PLAIN)
    puzzles = random_puzzles(5, 40, rules)
    want_active = case != "vortex"
    puzzle = next(p for p in puzzles if (p.active is not None) == want_active and (solve(p).length or 0) >= 3)
    any_robot = True if case == "any robot asked" else None
    assert api.takes_threads(puzzle, any_robot=any_robot) is expected
    assert _runs_on_threads(monkeypatch, puzzle, any_robot=any_robot) is expected


@PROPERTY
@given(small_puzzles())
def test_takes_threads_agrees_with_solve_on_small_puzzles(case: tuple[Puzzle, Rules, bool | None]) -> None:
    """On every small puzzle whose answer needs a search, api.takes_threads
    says whether solve(threads=2) runs the threaded kernel."""
    puzzle, rules, any_robot = case
    sol = solve(puzzle, rules, max_moves=MAX_MOVES, any_robot=any_robot)
    assume(sol.solved and (sol.length or 0) > 0)
    with pytest.MonkeyPatch.context() as monkeypatch:
        assert _runs_on_threads(monkeypatch, puzzle, rules, any_robot) == api.takes_threads(
            puzzle, rules, any_robot=any_robot)


# -- statuses -----------------------------------------------------------------------
def test_raised_bound_keeps_the_optimum_and_prunes(monkeypatch: pytest.MonkeyPatch) -> None:
    """A*'s bound raised by the blocker argument (kernel.bound_rises) finds the
    same optimum as the relaxed distance alone, expanding fewer states."""
    puzzles = sorted(random_puzzles(7, 40), key=lambda p: -(solve(p).length or 0))[:4]
    raised = [solve(p) for p in puzzles]
    monkeypatch.setattr(api, "MAX_LEVEL", 0)
    plain = [solve(p) for p in puzzles]
    assert [s.length for s in raised] == [s.length for s in plain]
    assert all(s.length and s.length >= 6 for s in raised)
    assert sum(s.nodes for s in raised) < 0.8 * sum(s.nodes for s in plain)


def _in_bitset(words: Any, cell: int) -> bool:
    return bool((int(words[cell >> 6]) >> (cell & 63)) & 1)


def test_blocker_sets_built_on_demand_equal_the_whole_table() -> None:
    """kernel.sets_near (A*'s slack-0 sets, built for the cells its checks
    need and what they depend on) gives those cells exactly the sets and
    unions of the whole table, builds every cell a built one depends on, and
    leaves the rest unbuilt."""
    import numpy as np

    rng = random.Random(3)
    partial = 0
    for puzzle in random_puzzles(13, 8):
        t = puzzle.active
        assert t is not None
        s = api._Search(puzzle, PLAIN, [t], api.START_TT_BITS)
        hdist, n, goal = s.h[t], s.N, s.goal(t)
        full, rows = kernel.blocker_sets(goal, 2, 1, kernel.MAX_SETS)
        full_unions = kernel.set_unions(BlockerSets(full, rows), n)
        qtab = np.full((1, 2, n), kernel.UNBUILT, dtype=np.int32)
        qrows, used = np.empty((4, s.R + 1), dtype=np.int32), 0  # small: it must grow
        unions = np.zeros((1, n, (n + 63) // 64), dtype=np.uint64)
        for seed in rng.sample(range(n), 3):
            qrows, used = kernel.sets_near(seed, goal, 2, BlockerSets(qtab, qrows), used, unions)

        def sets(table: Any, rows: Any, c: int) -> set[tuple[int, ...]] | int:
            first, count = int(table[0, 0, c]), int(table[0, 1, c])
            return count if count < 0 else {tuple(rows[q, 1:1 + rows[q, 0]]) for q in range(first, first + count)}

        built = [c for c in range(n) if qtab[0, 1, c] != kernel.UNBUILT]
        assert built
        partial += len(built) < sum(1 for c in range(n) if hdist[c] < kernel.INF)
        for c in built:
            assert sets(qtab, qrows, c) == sets(full, rows, c), (puzzle.code(), c)
            assert (unions[0, c] == full_unions[0, c]).all(), (puzzle.code(), c)
            for d in range(4):
                o, length = int(s.paths.start[t, 4 * c + d]), int(s.paths.length[t, 4 * c + d])
                for e in s.paths.cells[o:o + length]:
                    if hdist[e] == hdist[c] - 1:
                        assert qtab[0, 1, e] != kernel.UNBUILT, (puzzle.code(), c, int(e))
    assert partial >= 4  # most boards: a part of the cells only


def test_a_helper_move_outside_the_blocker_sets_keeps_the_raised_bound() -> None:
    """The children A* queues without a check of their own (kernel.inheritable):
    a helper moved (by the engine) onto a cell outside the target robot's
    blocker sets leaves a state whose bound rises at every level below the
    inherited one, exactly as bound_rises checks it."""
    import numpy as np

    seen = {1: 0, 2: 0}
    rng = random.Random(5)
    for puzzle in random_puzzles(11, 12):
        t = puzzle.active
        assert t is not None
        s = api._Search(puzzle, PLAIN, [t], api.START_TT_BITS)
        hdist, n, board, goal = s.h[t], s.N, puzzle.position.board, s.goal(t)
        sets = kernel.blocker_sets(goal, 2, 2, kernel.MAX_SETS)
        unions = kernel.set_unions(sets, n)
        ws, occ = kernel.bound_workspace(n), np.zeros(n, dtype=np.uint8)

        position = puzzle.position.with_rules(PLAIN)
        for _ in range(40):  # a random walk of the robots
            cells = [board.index(r.cell) for r in position.robots]
            c0 = cells[t]
            if 0 < hdist[c0] < kernel.INF:
                for q, c in enumerate(cells):
                    occ[c] = q != t
                inherit = kernel.inheritable(c0, 2, occ, sets)
                occ[:] = 0
                for move in position.legal_moves if inherit else ():
                    e = board.index(position.play(move)[0].robots[move.robot].cell)
                    if move.robot == t or _in_bitset(unions[0, c0], e):
                        continue
                    level = 2 if inherit == 2 and not _in_bitset(unions[1, c0], e) else 1
                    child = np.array([e if q == move.robot else c for q, c in enumerate(cells)], dtype=np.int64)
                    for below in range(level):
                        assert kernel.bound_rises(below, child, occ, goal, sets, ws), (puzzle.code(), move, below)
                    seen[level] += 1
            position = position.play(rng.choice(list(position.legal_moves)))[0]
    assert seen[1] > 50 and seen[2] > 50, seen


def test_vortex_astar_agrees_with_ida_on_real_boards() -> None:
    """The cosmic vortex on the 16×16 tile boards: one A* for every robot at
    once (robots sorted, the nearest robot's bound) finds the optimum that
    IDA*, trying robot by robot, finds (``max_states=1`` forces IDA*)."""
    puzzles = [p for p in random_puzzles(2026, 400) if p.active is None][:12]
    assert len(puzzles) >= 10
    for p in puzzles:
        search = api._Search(p, p.rules, range(len(p.position.robots)), api.MAX_TT_BITS)
        assert search.any_robot_astar()
        astar, ida = solve(p), solve(p, max_states=1)
        assert astar.solved and astar.length == ida.length, p.id

def hard_puzzle() -> Puzzle:
    return max(random_puzzles(2024, 50)[20:25], key=lambda p: solve(p).length or 0)


def test_status_limit() -> None:
    pz = hard_puzzle()
    sol = solve(pz, max_moves=3)
    assert sol.status == "limit" and not sol.solved and sol.length is None and sol.moves == ()
    assert sol.reason is not None and "3 moves" in sol.reason
    assert sol.to_json()["moves"] is None and "reason" in sol.to_json()


def test_status_unsolvable_walled_in_target() -> None:
    board = Board.build(5, 5, walls=[(2, 2, "N"), (2, 2, "E"), (2, 2, "S"), (2, 2, "W")])
    robots = (Robot("red", (0, 0)), Robot("green", (4, 4)), Robot("blue", (0, 4)))
    for active in (0, None):
        pz = Puzzle(Position(board, robots), (2, 2), active)
        for rules in (PLAIN, GAME):
            sol = solve(pz, rules)
            assert sol.status == "unsolvable" and sol.reason, sol
    alone = Puzzle(Position(board, robots[:1]), (2, 2), 0)
    assert reference_optimum(alone, GAME, max_cost=50).unsolvable
    assert solve(alone, GAME).status == "unsolvable"


def test_status_timeout() -> None:
    """A tiny time limit on a long puzzle (an ASP 20-mover when the data is there)."""
    pz = max(asp_puzzles(), key=lambda p: p.optimal or 0)
    sol = solve(pz, time_limit=1e-4)
    assert sol.status == "timeout" and sol.length is None
    assert sol.reason is not None and "within 0.0001 s" in sol.reason


def test_zero_moves_and_must_ricochet() -> None:
    """Already on the target: 0 moves, except with must-ricochet (the robot
    has to leave and come back having turned: S, E, N, W)."""
    pz = Puzzle(Position(Board.build(3, 3), (Robot("red", (0, 0)),)), (0, 0), active=0)
    assert solve(pz).length == 0 and solve(pz).moves == ()
    game = solve(pz, GAME)
    assert game.length == 4
    assert_valid(game, pz, GAME)
    assert reference_optimum(pz, GAME).cost == 4
    # Two robots on an open 4×4 board cannot bring red back to its cell having turned.
    stuck = Puzzle(Position(Board.build(4, 4), (Robot("red", (1, 1)), Robot("green", (3, 3)))), (1, 1), active=0)
    assert solve(stuck).length == 0
    assert solve(stuck, GAME).status in ("limit", "unsolvable")
    assert reference_optimum(stuck, GAME, max_cost=50).unsolvable


# -- solve_many, hint, options -------------------------------------------------------
def test_solve_many_in_two_processes_equals_solve() -> None:
    puzzles = random_puzzles(5, 8) + random_puzzles(6, 4, GAME)
    told: list[tuple[int, int]] = []
    many = solve_many(puzzles, processes=2, max_moves=20, progress=lambda done, total: told.append((done, total)))
    # Progress as answers came back: growing to all of them.
    assert told[-1] == (12, 12) and all(t == 12 for _, t in told) and [d for d, _ in told] == sorted(d for d, _ in told)
    one = [solve(p, max_moves=20) for p in puzzles]
    assert [(s.status, s.length, s.moves) for s in many] == [(s.status, s.length, s.moves) for s in one]
    assert [s.puzzle.id for s in many] == [p.id for p in puzzles]
    assert [s.paths for s in many] == [s.paths for s in one]  # replayed on first use in this process
    told.clear()
    assert [(s.length, s.moves) for s in solve_many(puzzles[:3], processes=1, progress=lambda *a: told.append(a))] == \
           [(s.length, s.moves) for s in one[:3]]
    assert told == [(1, 3), (2, 3), (3, 3)]


def test_solve_as_answered_yields_each_answer_once_and_a_bug_as_an_answer(monkeypatch: pytest.MonkeyPatch) -> None:
    """The batch as it comes in: every index once, a puzzle's SolverError as
    its answer (the others still come), which solve_many raises; closing the
    generator early ends its workers and frees the batch for the next call."""
    import contextlib

    puzzles = random_puzzles(5, 10)
    broken = puzzles[3].id
    real = api.solve

    def planted(puzzle: Puzzle, rules: Rules | None = None, **options: Any) -> api.Solution:  # forked workers too
        if puzzle.id == broken:
            raise api.SolverError("a planted bug")
        return real(puzzle, rules, **options)

    monkeypatch.setattr(batch, "solve", planted)  # (what a batch's workers call)
    for processes in (1, 2):
        got = dict(batch.solve_as_answered(puzzles, processes=processes, max_moves=20))
        assert sorted(got) == list(range(10))
        assert isinstance(got[3], api.SolverError) and str(got[3]) == "a planted bug"
        assert all(got[i].length == real(puzzles[i], max_moves=20).length for i in got if i != 3)
        with pytest.raises(api.SolverError, match="planted"):
            solve_many(puzzles, processes=processes, max_moves=20)
    with contextlib.closing(batch.solve_as_answered(puzzles, processes=2)) as answers:
        next(answers)
        with pytest.raises(RuntimeError, match="still open"):  # one inside another: refused, not deadlocked
            solve_many(puzzles[:2], processes=2)
    assert not batch._BATCH  # closed: the workers ended, the batch let go
    assert [s.length for s in solve_many(puzzles[4:], processes=2)] == [real(p).length for p in puzzles[4:]]


def test_a_batch_returns_its_answers_without_waiting_for_its_workers_to_exit(monkeypatch: pytest.MonkeyPatch
                                                                             ) -> None:
    """Once every answer is in, the idle workers exit while the caller goes
    on: here none can exit before the test lets it (a finalizer that waits),
    and the batch is back while they all still wait; then they end."""
    import multiprocessing
    import multiprocessing.util
    import time

    real_start = batch._start_worker
    release = multiprocessing.Event()  # (inherited by the forked workers)

    def held_at_exit(*args: Any) -> None:  # (forked workers run it as the pool's initializer)
        real_start(*args)
        multiprocessing.util.Finalize(None, release.wait, args=(120,), exitpriority=0)

    monkeypatch.setattr(batch, "_start_worker", held_at_exit)
    puzzles = random_puzzles(5, 4)
    try:
        many = solve_many(puzzles, processes=2, max_moves=20)
        # Back with every answer while its workers still wait to exit: it did not wait for them.
        waiting = [p for p in multiprocessing.active_children() if p.is_alive()]
        assert waiting, "the batch waited for its workers to exit"
    finally:
        release.set()
    assert [s.length for s in many] == [solve(p, max_moves=20).length for p in puzzles]
    deadline = time.monotonic() + 60  # (the pool's thread joins them: wait, rather than join them here too)
    while multiprocessing.active_children() and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not multiprocessing.active_children()


_EXIT_RACE_SCRIPT = """
import concurrent.futures.process as cfp, multiprocessing.util, time
from ricochet.generate import random_puzzles
from ricochet.solver import batch, solve_many
real_start = batch._start_worker
def slow_to_exit(*args):  # each worker takes 0.3 s to exit: the pool's thread is still joining them at exit
    real_start(*args)
    multiprocessing.util.Finalize(None, time.sleep, args=(0.3,), exitpriority=0)
batch._start_worker = slow_to_exit
print([s.length for s in solve_many(random_puzzles(5, 4), processes=2, max_moves=20)])
def late_wakeup(self):  # Python's exit hook, slowed between its check of the pipe and its write
    if not self._closed:
        time.sleep(0.8)
        self._writer.send_bytes(b"")
cfp._ThreadWakeup.wakeup = late_wakeup
"""


def test_a_process_that_exits_right_after_a_batch_says_nothing_on_the_way_out() -> None:
    """The batch's pool is shut down without waiting for its workers, so its
    thread may still be joining them when the process exits.  Python's exit
    hook for pools checks that the thread's wake-up pipe is open and then
    writes to it; the thread closing the pipe in between made the write
    fail, printed as "Exception ignored in: <module 'threading'>" at the end
    of ``ricochet solve`` (seen once in a full test run).  Here the hook is
    slowed between its check and its write, which makes that order certain:
    the exit must first join the pool's thread, and then there is nothing to
    say."""
    import subprocess
    import sys

    done = subprocess.run([sys.executable, "-c", _EXIT_RACE_SCRIPT], capture_output=True, text=True, timeout=300,
                          check=False)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stderr == ""
    assert done.stdout.strip() == str([solve(p, max_moves=20).length for p in random_puzzles(5, 4)])


_PRELOAD_SCRIPT = """
import json
from ricochet.generate import random_puzzles
from ricochet.solver import api, kernel, solve, solve_many
puzzles = random_puzzles(5, 8)
many = solve_many(puzzles, processes=4)
print(json.dumps([api._threads_warmed_up, api._threading_layer(), bool(kernel.blocker_sets.signatures),
                  [s.length for s in many], [solve(p).length for p in puzzles]]))
"""


@pytest.mark.parametrize("layer, preloaded", [("workqueue", True), (None, False)])
def test_a_fork_safe_threading_layer_has_the_threaded_kernel_loaded_before_the_fork(layer: str | None,
                                                                                   preloaded: bool) -> None:
    """With a threading layer that survives a fork (``NUMBA_THREADING_LAYER``:
    numba's own work queue here, TBB where installed), a batch whose workers may
    search on threads loads the threaded kernel in the caller first; with the
    default layer (GNU OpenMP, which does not survive one) the caller starts no
    threads but loads the threaded search's helpers that start none (its
    blocker sets), so that no worker loads those.  The answers are the same
    either way."""
    import json
    import subprocess
    import sys

    env = {k: v for k, v in os.environ.items() if k != "NUMBA_THREADING_LAYER"}
    if layer is not None:
        env["NUMBA_THREADING_LAYER"] = layer
    done = subprocess.run([sys.executable, "-c", _PRELOAD_SCRIPT], env=env, capture_output=True, text=True,
                          timeout=600, check=False)
    assert done.returncode == 0, done.stderr[-2000:]
    warmed, started, helpers, many, one = json.loads(done.stdout)
    assert warmed is preloaded and (started == layer if preloaded else started is None)
    assert helpers
    assert many == one


# A fresh interpreter: whether OpenMP's threads already run is process-wide state.
# The guard is what a spawned worker needs (it imports the main module again).
_THREADED_BATCH_SCRIPT = """
import dataclasses
import json
import multiprocessing
import sys
import warnings
from pathlib import Path
from ricochet.generate import random_puzzles
from ricochet.cli.bench import _read_set
from ricochet.solver import api, batch, solve, solve_many

def solve_warned(puzzle):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        sol = solve(puzzle, threads=2, check=True)
    return sol.length, [str(w.message) for w in caught]

if __name__ == "__main__":
    hard = sorted(_read_set(Path(sys.argv[1])), key=lambda p: p.optimal)[:2]
    # Two puzzles on four processes: two workers, each searching on two threads (the
    # spy, inherited by the forked workers, says how many each solve was given).
    real = batch._solve_one
    def spy(args, give_up=0):
        sol = real(args, give_up)
        return sol if isinstance(sol, api._GaveUp) else dataclasses.replace(sol, reason=str(args[2].get("threads", 1)))
    batch._solve_one = spy
    dealt = solve_many(hard, processes=4, check=True)
    # A vortex puzzle beside one: its search takes no threads, the other gets all three spare.
    vortex = next(p for p in random_puzzles(11, 200) if p.active is None and api.effort_estimate(p) > 0)
    vortex_dealt = solve_many([vortex, hard[0]], processes=4, check=True)
    # A batch on four processes where every late puzzle gives up past 50 states: those are
    # searched again, on the threads of the cores the batch has left by then.
    batch.MIN_GIVE_UP, batch.GIVE_UP_SHARE, batch.GIVE_UP_OUTLIER = 50, 0.0, 0.0
    batches = []
    answers = batch._Batch.answers
    batch._Batch.answers = lambda self, dealt: batches.append(self) or answers(self, dealt)
    late = random_puzzles(5, 30) + hard[:1]
    late_many = solve_many(late, processes=4, check=True, time_limit=None)  # as the bench calls it
    batch._Batch.answers = answers
    batch._solve_one = real
    fresh = api.forked_workers_may_thread()
    first = solve(hard[0], threads=2)  # 16 moves: rounds big enough to start the threads
    after = api.forked_workers_may_thread()
    many = solve_many(hard, processes=2, threads=2, check=True)
    # A worker the caller forks itself cannot start them: one thread, and a warning.
    with multiprocessing.get_context("fork").Pool(1) as pool:
        forked, warned = pool.apply_async(solve_warned, (hard[0],)).get(timeout=120)  # a killed worker: no answer
    print(json.dumps([fresh, after, first.length, [s.length for s in many], [p.optimal for p in hard],
                      forked, warned, [(s.length, s.reason) for s in dealt],
                      [s.reason for s in vortex_dealt],
                      [[s.puzzle.id, s.length, s.reason] for s in late_many], batches[0].gave_up]))
"""


def test_solve_many_with_threads_after_a_threaded_solve_here() -> None:
    """``solve_many(threads=N)`` after ``solve(threads=N)`` in the same process:
    GNU OpenMP does not survive a fork (numba ends such a child), so the
    workers are spawned instead of forked, and every answer is optimal.  A
    process the caller forks after that solves on one thread, with a warning,
    instead of being ended.  Before that, a batch of fewer puzzles than
    processes had its spare processes dealt out as threads, started in the
    forked workers only (this process could still fork workers that thread),
    and not to a vortex puzzle, whose search runs on one thread."""
    import json
    import subprocess
    import sys

    hard = datasets.path("hard")
    done = subprocess.run([sys.executable, "-c", _THREADED_BATCH_SCRIPT, str(hard)], check=False,
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-2000:]
    fresh, after, first, many, optimal, forked, warned, dealt, vortex_dealt, late, gave_up = json.loads(done.stdout)
    assert dealt == [[n, "2"] for n in optimal]
    assert vortex_dealt == ["1", "3"]
    # The late give-ups: some puzzles gave up and were searched again, and every answer is
    # the optimum of its own puzzle.
    from ricochet.cli.bench import _read_set

    late_puzzles = random_puzzles(5, 30) + sorted(_read_set(hard), key=lambda p: p.optimal)[:1]
    assert [p.id for p in late_puzzles] == [i for i, _, _ in late]
    assert [n for _, n, _ in late] == [solve(p).length for p in late_puzzles]
    assert gave_up
    assert (fresh, after) == (True, False)  # forked workers could thread before, not after
    assert first == 16 and many == optimal
    assert forked == 16 and len(warned) == 1 and "runs on one thread" in warned[0]


def test_a_late_puzzle_that_gives_up_gets_the_free_cores_as_threads() -> None:
    """solve_many's dealing (``_Batch``), on a pool whose tasks end at once:
    the tasks handed out before ``cores`` answers are in run uncapped (no
    pace known yet; one per core waits beyond those running), later ones
    whose search takes threads get a cap, and one that gives up comes back
    once the queue is empty, on every core free then, without a cap."""
    from concurrent.futures import Future

    puzzle = random_puzzles(5, 1)[0]
    calls: list[tuple[list[int], int, int]] = []

    class Pool:
        def submit(self, fn: object, task: list[int], threads: int, give_up: list[int]) -> Future[object]:
            assert len(task) == 1  # (10 ms a puzzle: too long to share a task)
            calls.append((task, threads, max(give_up, default=0)))
            fut: Future[object] = Future()
            fut.set_result([api._GaveUp(0.02, 100) if give_up and give_up[0] and i == 12
                            else (True, api.Solution(puzzle, api.Status.SOLVED, seconds=0.01, nodes=5)) for i in task])
            return fut

    threaded = [True] * 14
    threaded[13] = False
    dealing = batch._Batch(Pool(), [[i] for i in range(14)], 4, threaded, True)  # type: ignore[arg-type]
    answers = dict(dealing.answers([1] * 14))
    assert sorted(answers) == list(range(14)) and dealing.gave_up == [12]
    assert [c[2] > 0 for c in calls[:8]] == [False] * 8  # 4 running, 4 waiting: no answer yet
    # 8-12 get a cap; 12 gives up, the one puzzle that may on 4 cores (cores / GIVE_UP_CORES),
    # and 13's search takes no threads anyway.
    assert [c[2] > 0 for c in calls[8:14]] == [True] * 5 + [False]
    assert calls[14:] == [([12], 4, 0)]
    assert answers[12][1].seconds == pytest.approx(0.03) and answers[12][1].nodes == 105  # both searches count
    calls.clear()
    dict(batch._Batch(Pool(), [[i] for i in range(14)], 4, threaded, False).answers([1] * 14))  # no giving up
    assert all(give_up == 0 for _, _, give_up in calls) and len(calls) == 14


def test_cheap_puzzles_share_a_task_once_the_batch_knows_they_are_cheap() -> None:
    """solve_many's dealing (``_Batch``), on a pool whose tasks end at once:
    one puzzle a task until ``cores`` answers are in; then, where the median
    answer took 0.1 ms, each task takes CHUNK_SECONDS of such puzzles, at most
    the chunk limit and an even share of those left, in the schedule's order.
    A puzzle dealt threads still goes alone, each puzzle of a shared task
    keeps its own cap (none where its search takes no threads), and at 40 ms
    a puzzle (ASP) every task stays one puzzle."""
    from concurrent.futures import Future

    puzzle = random_puzzles(5, 1)[0]

    def deal(seconds: float, n: int, cores: int, may_give_up: bool, threaded: list[bool] | None = None,
             dealt: list[int] | None = None) -> list[tuple[list[int], list[int]]]:
        calls: list[tuple[list[int], list[int]]] = []

        class Pool:
            def submit(self, fn: object, task: list[int], threads: int, give_up: list[int]) -> Future[object]:
                calls.append((list(task), list(give_up)))
                fut: Future[object] = Future()
                fut.set_result([(True, api.Solution(puzzle, api.Status.SOLVED, seconds=seconds, nodes=5))
                                for _ in task])
                return fut

        dealing = batch._Batch(Pool(), [[i] for i in range(n)], cores, threaded or [True] * n,  # type: ignore[arg-type]
                               may_give_up, max_chunk=16)
        assert sorted(dict(dealing.answers(dealt or [1] * n))) == list(range(n))
        return calls

    cheap = deal(0.0001, 200, 2, False)
    assert [i for task, _ in cheap for i in task] == list(range(200))
    assert [len(task) for task, _ in cheap[:4]] == [1] * 4  # 2 running, 2 waiting: no answer yet
    left = 196
    for task, _ in cheap[4:]:
        assert len(task) == max(1, min(16, int(batch.CHUNK_SECONDS / 0.0001), left // 2))
        left -= len(task)
    assert max(len(task) for task, _ in cheap) == 16 and len(cheap) < 30
    assert all(len(task) == 1 for task, _ in deal(0.04, 40, 2, False))
    # A puzzle dealt threads goes alone, and the tasks on either side of it are shared.
    alone = deal(0.0001, 60, 2, False, dealt=[3 if i == 20 else 1 for i in range(60)])
    assert ([20] in [task for task, _ in alone] and len(alone) < 20
            and [i for task, _ in alone for i in task] == list(range(60)))
    # On 4 cores, late puzzles get caps: in a shared task, only those whose search takes threads.
    threaded = [i % 3 != 0 for i in range(100)]
    capped = deal(0.0001, 100, 4, True, threaded)
    shared = [(task, caps) for task, caps in capped if len(task) > 1]
    assert shared and all(len(caps) == len(task) and [c > 0 for c in caps] == [threaded[i] for i in task]
                          for task, caps in shared)


@given(st.lists(st.floats(min_value=0, max_value=10, allow_nan=False), min_size=1, max_size=60))
def test_the_running_median_is_the_sorted_answers_middle(values: list[float]) -> None:
    """solve_many's median of its answers (``RunningMedian``, two heaps) is the
    sorted values' element ``len // 2`` after every addition."""
    median = batch.RunningMedian()
    for k, x in enumerate(values, 1):
        median.add(x)
        assert len(median) == k and median.value == sorted(values[:k])[k // 2]


def test_a_search_gives_up_past_its_cap() -> None:
    """solve_many's late cap (``_search``'s ``give_up``): no answer once A*
    has stored that many states; the same answer as :func:`solve` below it."""
    puzzle = random_puzzles(5, 30)[9]  # 12 moves, about 13,000 expansions
    options = dict(api._SOLVE_DEFAULTS)
    gave_up = api._search(puzzle, None, **options, give_up=1000)
    assert isinstance(gave_up, api._GaveUp) and gave_up.nodes > 0 and gave_up.seconds > 0
    below = api._search(puzzle, None, **options, give_up=10**6)
    assert below is not None and below == solve(puzzle) and below.length == 12
    # A user's own max_states below the cap: IDA* takes over as usual, and answers.
    ida = api._search(puzzle, None, **{**options, "max_states": 500}, give_up=1000)
    assert ida is not None and ida.length == 12 and check_solution(puzzle, ida.moves).ok


def test_solve_many_options_are_checked_before_any_worker_starts(monkeypatch: pytest.MonkeyPatch) -> None:
    puzzles = random_puzzles(5, 3)

    def no_pool(*args: object, **kwargs: object) -> None:
        raise AssertionError("a worker pool was started before the options were checked")

    monkeypatch.setattr(batch, "_worker_pool", no_pool)
    for bad in (-1, 2.0, True):
        with pytest.raises(ValueError, match="processes must be"):
            solve_many(puzzles, processes=bad)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="chunksize must be"):
        solve_many(puzzles, processes=2, chunksize=0)
    with pytest.raises(ValueError, match="progress must be a function"):
        solve_many(puzzles, processes=2, progress="yes")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="threads must be"):
        solve_many(puzzles, processes=2, threads=0)
    # Fewer puzzles than processes: the spare cores' deal reads max_moves, and says what solve() says.
    with pytest.raises(ValueError, match="max_moves must be an integer"):
        solve_many(puzzles, processes=4, max_moves="40")
    # Every option solve() checks, and every puzzle, in this process (they once failed in a worker).
    with pytest.raises(TypeError, match=r"unknown option 'max_move' \(solve's options: max_moves, "):
        solve_many(puzzles, processes=2, max_move=40)
    with pytest.raises(ValueError, match="max_states must be an integer from 0"):
        solve_many(puzzles, processes=2, max_states=-1)
    with pytest.raises(ValueError, match="time_limit must be a positive number"):
        solve_many(puzzles, processes=2, time_limit=0)
    with pytest.raises(TypeError, match=r"^puzzles\[3\] must be a Puzzle .*got str$"):
        solve_many([*puzzles, puzzles[0].code()], processes=2)
    with pytest.raises(TypeError, match="rules must be a Rules or None"):
        solve_many(puzzles, "game", processes=2)  # type: ignore[arg-type]


@pytest.mark.parametrize(("args", "options", "error", "says"), [
    ((None,), {}, TypeError, r"^puzzle must be a Puzzle \(Puzzle.from_code reads a position code\), got NoneType$"),
    (("1A3B4A2A.r52ge9bdey0e.r41",), {}, TypeError, r"^puzzle must be a Puzzle .*got str$"),
    (("PUZZLE", "game"), {}, TypeError, r"^rules must be a Rules or None .*got str$"),
    (("PUZZLE",), {"max_states": -5}, ValueError, r"^max_states must be an integer from 0 .* got -5$"),
    (("PUZZLE",), {"max_states": 2 ** 40}, ValueError, r"^max_states must be an integer from 0 .* got 1099511627776$"),
    (("PUZZLE",), {"max_states": 1e6}, ValueError, r"^max_states must be an integer"),
    (("PUZZLE",), {"max_tt_bits": 200}, ValueError, r"^max_tt_bits must be an integer from 0 to 32, got 200$"),
    (("PUZZLE",), {"max_tt_bits": -1}, ValueError, r"^max_tt_bits must be an integer from 0 to 32, got -1$"),
    (("PUZZLE",), {"max_solutions": 0}, ValueError, r"^max_solutions must be a positive integer, got 0$"),
    (("PUZZLE",), {"time_limit": float("nan")}, ValueError, r"^time_limit must be a positive number of seconds"),
])
def test_solve_refuses_what_it_cannot_take(args: tuple[object, ...], options: dict[str, object],
                                           error: type[Exception], says: str) -> None:
    """A wrong kind of object is a TypeError, a value out of range a ValueError, each naming its
    argument (a string or None for the puzzle was an AttributeError from deep inside)."""
    pz = Puzzle(Position(Board.build(4, 4), (Robot("red", (0, 0)),)), (3, 3), active=0)
    args = tuple(pz if a == "PUZZLE" else a for a in args)
    with pytest.raises(error, match=says):
        solve(*args, **options)  # type: ignore[arg-type]


def test_max_states_zero_is_ida_alone() -> None:
    """``max_states=0``, the bound's low end: no A* at all, IDA* finds the same length."""
    for p in random_puzzles(8, 5):
        assert solve(p, max_states=0).length == solve(p).length


def test_effort_estimate_is_how_close_a_robot_gets_alone() -> None:
    """solve_many's scheduling estimate: the least relaxed distance to the
    target over the cells the finishing robot reaches alone."""
    board = Board.build(5, 5)
    red = Robot("red", (0, 0))
    assert api.effort_estimate(Puzzle(Position(board, (red,)), (4, 0), 0)) == 0  # slides into the corner
    assert api.effort_estimate(Puzzle(Position(board, (red,)), (2, 0), 0)) == 1  # passes it, cannot stop
    assert api.effort_estimate(Puzzle(Position(board, (red,)), (2, 2), 0)) == 2  # corners only
    stopper = (red, Robot("blue", (3, 0)))
    assert api.effort_estimate(Puzzle(Position(board, stopper), (2, 0), 0)) == 0  # blue stops it
    vortex = (red, Robot("blue", (2, 4)))
    assert api.effort_estimate(Puzzle(Position(board, vortex), (2, 0), None)) == 0  # blue goes north


def test_hint_kinds() -> None:
    pz = next(p for p in random_puzzles(2024, 50) if (solve(p).length or 0) >= 5 and p.active is not None)
    sol = solve(pz)
    assert hint(pz, None, "length") == sol.length
    assert hint(pz, None, "first") == sol.moves[0]
    assert hint(pz, None, "robots") == sorted({m.robot for m in sol.moves})
    last = sol.moves[-1].robot
    assert last == pz.active
    assert hint(pz, None, "active") == sum(1 for m in sol.moves if m.robot == last)
    assert hint(pz, None, "length", max_moves=2) is None
    with pytest.raises(ValueError, match="unknown hint kind 'bogus': use length, first, robots or active"):
        hint(pz, None, "bogus")


def test_hint_refuses_an_unknown_kind_before_it_solves(monkeypatch: pytest.MonkeyPatch) -> None:
    def no_solve(*args: object, **kwargs: object) -> None:
        raise AssertionError("solved before the kind was checked")

    monkeypatch.setattr(api, "solve", no_solve)
    pz = Puzzle(Position(Board.build(4, 4), (Robot("red", (0, 0)),)), (3, 3), active=0)
    with pytest.raises(ValueError, match="unknown hint kind 'firts'"):
        hint(pz, None, "firts")


@pytest.mark.parametrize("max_moves", [-1, 251, 2.5, "5", None])
def test_bad_max_moves(max_moves: object) -> None:
    pz = Puzzle(Position(Board.build(4, 4), (Robot("red", (0, 0)),)), (3, 3), active=0)
    with pytest.raises(ValueError, match="max_moves must be an integer from 0 to 250"):
        solve(pz, max_moves=max_moves)  # type: ignore[arg-type]


def test_any_robot_false_needs_an_active_robot() -> None:
    pz = Puzzle(Position(Board.build(4, 4), (Robot("red", (0, 0)),)), (3, 3), active=None)
    with pytest.raises(ValueError, match="any_robot=False needs a puzzle with an active robot"):
        solve(pz, any_robot=False)
    assert solve(pz).length == 2


def test_moving_back_towards_a_tower_the_robot_started_on_is_not_pruned() -> None:
    """A robot may start on a tower (not the goal) but never re-enter it:
    red on the tower (0,0) moves E to (2,0), then W stops at (1,0) in front of
    the tower.  The kernel's ``no_undo`` pruning must not drop E, W.

    3×3 board, tower (0,0), red (0,0), target (1,0)."""
    board = Board.build(3, 3, towers=[(0, 0)])
    pz = Puzzle(Position(board, (Robot("red", (0, 0)),)), (1, 0), active=0)
    ref = reference_optimum(pz)
    assert ref.cost == 2 and ref.moves == (Move(0, Direction.E), Move(0, Direction.W))
    sol = solve(pz, max_moves=8)
    assert sol.length == 2, sol.moves
