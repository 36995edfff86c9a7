"""The compiled solver against a deliberately simple reference search
(``reference_solver.py``: uniform-cost search over full states, engine only)
on small random boards with every rule option, and on real puzzles: the ASP
2015 set at its published optimum, random puzzles on the real boards (plain and
game rules), the cosmic vortex, all/fewest-robot solutions, every status,
``solve_many``, ``hint`` and option errors."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest
from hypothesis import assume, given, note
from hypothesis import strategies as st
from reference_solver import all_optimal, reference_optimum
from strategies import PROPERTY, boards, positions, rule_sets

from ricochet.board import Board
from ricochet.generate import random_puzzles
from ricochet.geometry import DIRECTIONS, Direction
from ricochet.notation.interchange import dumps_puzzle, read_jsonl
from ricochet.position import Move, Position, Robot
from ricochet.puzzle import NEUTRAL_COLORS, Puzzle, check_solution
from ricochet.rules import GAME, PLAIN, Rules
from ricochet.solver import api
from ricochet.solver.api import hint, solve, solve_many

DATA = Path(__file__).resolve().parents[1].parent / "shared" / "data"
ASP = DATA / "asp2015.jsonl"
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
    if board.towers and draw(st.booleans(), label="target on a tower"):
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
    if ref.complete:
        sol = solve(puzzle, rules, max_moves=MAX_MOVES, any_robot=any_robot)
        assert sol.length == ref.cost, (sol, ref)
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
            assert sol.length >= ref.lower
            assert_valid(sol, judged(puzzle, any_robot), rules)
        elif sol.status == "limit":
            pass
        else:
            assert sol.status == "unsolvable", sol
    if ref.unsolvable:
        assert sol.status in ("limit", "unsolvable"), sol


@PROPERTY
@given(small_puzzles(max_size=5, max_robots=3), st.booleans())
def test_all_solutions_are_every_optimal_solution(case: tuple[Puzzle, Rules, bool | None], fewest: bool) -> None:
    puzzle, rules, any_robot = case
    note(describe(puzzle, rules, any_robot))
    ref = reference_optimum(puzzle, rules, any_robot=any_robot, max_cost=5, max_states=REF_STATES)
    assume(ref.cost is not None and ref.cost > 0)
    expected = all_optimal(puzzle, ref.cost, rules, any_robot=any_robot, limit=200)
    assume(expected is not None)
    sol = solve(puzzle, rules, max_moves=5, any_robot=any_robot, all_solutions=True, fewest_robots=fewest)
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
    assert ref.cost == 4 and check_solution(pz, ref.moves, rules).ok
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
