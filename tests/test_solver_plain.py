"""The one-call search of puzzles of plain moves (``ricochet.solver.plain``)
against the general path (``api._Search``) that it short-cuts: both run the
same A* on the same tables, so they must give the same answer, move for
move, and the same count of expanded states.  (Their optimality against an
independent search is ``test_solver.py``'s reference comparison, which
reaches the plain path for most of its puzzles.)"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from hypothesis import given, note
from hypothesis import strategies as st

from ricochet.board import ROBOT_COLORS, Board, Diagonal
from ricochet.generate import random_puzzles
from ricochet.position import Position, Robot
from ricochet.puzzle import NEUTRAL_COLORS, Puzzle
from ricochet.rules import GAME, PLAIN, Rules
from ricochet.solver import api, plain, solve
from strategies import PROPERTY, boards, positions

SOLID_COLORS = tuple(c for c in ROBOT_COLORS if c != "transparent")


class Calls:
    """Counts the one-call kernel's calls (and passes them on)."""

    def __init__(self) -> None:
        self.count = 0
        self.kernel = plain.plain_astar

    def __call__(self, *args: Any) -> Any:
        self.count += 1
        return self.kernel(*args)


@contextmanager
def counting() -> Iterator[Calls]:
    """The one-call kernel's calls in the block."""
    counter = Calls()
    plain.plain_astar = counter
    try:
        yield counter
    finally:
        plain.plain_astar = counter.kernel


@pytest.fixture
def calls() -> Iterator[Calls]:
    with counting() as counter:
        yield counter


@contextmanager
def general_path() -> Iterator[None]:
    """Every board counts as not plain: the search takes the general path."""
    saved = plain.plain_board
    plain.plain_board = lambda board, rules: False  # type: ignore[assignment]
    try:
        yield
    finally:
        plain.plain_board = saved  # type: ignore[assignment]


def both(puzzle: Puzzle, **options: Any) -> tuple[api.Solution, api.Solution]:
    """The puzzle solved on the plain path, then on the general path."""
    fast = solve(puzzle, **options)
    with general_path():
        slow = solve(puzzle, **options)
    return fast, slow


def assert_same(fast: api.Solution, slow: api.Solution) -> None:
    assert fast.status == slow.status, (fast, slow)
    assert fast.moves == slow.moves and fast.length == slow.length, (fast, slow)
    assert fast.nodes == slow.nodes and fast.reason == slow.reason, (fast, slow)


@st.composite
def plain_puzzles(draw: st.DrawFn) -> Puzzle:
    """A small puzzle of plain moves: walls and blocked cells only, 1-5 robots, one of them to bring home."""
    board = draw(boards(min_size=3, max_size=9, diagonals=False, openings=False, towers=False), label="board")
    pos = draw(positions(board, min_robots=1, max_robots=5, colors=SOLID_COLORS, goal=False), label="position")
    colored = [i for i, r in enumerate(pos.robots) if r.color not in NEUTRAL_COLORS]
    free = [c for c in board.cells() if c not in board.blocked and c not in pos.cells]
    if not colored or not free:
        return Puzzle(Position(Board.build(3, 3), (Robot("red", (0, 0)),)), (2, 2), 0)
    return Puzzle(pos, draw(st.sampled_from(free), label="target"), draw(st.sampled_from(colored), label="active"))


@PROPERTY
@given(plain_puzzles(), st.sampled_from([api.ASTAR_MAX_STATES, 40, 1]), st.integers(0, 12))
def test_the_plain_path_gives_the_general_paths_answer(puzzle: Puzzle, max_states: int, max_moves: int) -> None:
    """Move for move, on small boards with blocked cells, within a move limit, and past
    A*'s cap (IDA* then goes on from where the plain path's A* stopped)."""
    note(repr(puzzle))
    with counting() as calls:
        fast, slow = both(puzzle, max_states=max_states, max_moves=max_moves)
    assert_same(fast, slow)
    if fast.length != 0:
        assert calls.count == 1, "the plain path was not taken"


def test_real_boards_take_the_plain_path_with_the_same_answers(calls: Calls) -> None:
    puzzles = [p for p in random_puzzles(2026, 120) if p.active is not None]
    for puzzle in puzzles:
        assert_same(*both(puzzle))
    assert calls.count == len(puzzles)
    checked = solve(puzzles[0], check=True)
    assert checked.solved and checked.paths, "check=True replays the plain path's answer through the engine"


def test_an_unreachable_target_is_unsolvable_on_both_paths(calls: Calls) -> None:
    board = Board.build(5, 5, walls=[(2, 2, "N"), (2, 2, "E"), (2, 2, "S"), (2, 2, "W")])
    puzzle = Puzzle(Position(board, (Robot("red", (0, 0)), Robot("green", (4, 4)))), (2, 2), 0)
    fast, slow = both(puzzle)
    assert fast.status == "unsolvable" and fast.reason
    assert_same(fast, slow)
    assert calls.count == 1


def test_a_batch_gives_up_on_the_plain_path_as_on_the_general_one(calls: Calls) -> None:
    """solve_many's give-up cap: the A* stops there, its states counted, on either path."""
    puzzle = max(random_puzzles(2024, 40), key=lambda p: solve(p).nodes if p.active is not None else 0)
    with api._TABLE.lock:
        fast = api._search(puzzle, None, 40, None, None, False, False, 1000, api.MAX_TT_BITS,
                           api.ASTAR_MAX_STATES, False, 1, give_up=50)
        with general_path():
            slow = api._search(puzzle, None, 40, None, None, False, False, 1000, api.MAX_TT_BITS,
                               api.ASTAR_MAX_STATES, False, 1, give_up=50)
    assert isinstance(fast, api._GaveUp) and isinstance(slow, api._GaveUp)
    assert fast.nodes == slow.nodes > 0


STOP = [(3, 4, "E")]
"""A wall that stops a robot moving east along row 4 on the target, (3, 4)."""


def _diagonal_board() -> Board:
    return Board.build(6, 6, STOP, diagonals=[Diagonal((2, 2), "green", "/")])


@pytest.mark.parametrize("case", ["diagonal", "opening", "tower", "transparent", "must-ricochet",
                                  "no-straight-back", "any robot", "all solutions", "fewest robots"])
def test_what_the_plain_path_leaves_to_the_general_one(calls: Calls, case: str) -> None:
    """Puzzles whose moves or rules the plain path does not cover are searched as before."""
    robots = (Robot("red", (0, 4)), Robot("blue", (5, 5)))
    board, rules, options = Board.build(6, 6, STOP), PLAIN, {}
    active: int | None = 0
    if case == "diagonal":
        board = _diagonal_board()
    elif case == "opening":
        board = Board.build(6, 6, STOP, openings=[((0, 3), "W")])
    elif case == "tower":
        board = Board.build(6, 6, STOP, towers=[(3, 3)])
    elif case == "transparent":
        robots = (Robot("red", (0, 4)), Robot("transparent", (5, 5)))
    elif case == "must-ricochet":
        rules = Rules(must_ricochet=True)
    elif case == "no-straight-back":
        rules = Rules(no_straight_back=True)
    elif case == "any robot":
        active = None
    elif case == "all solutions":
        options = {"all_solutions": True}
    else:
        options = {"fewest_robots": True}
    puzzle = Puzzle(Position(board, robots).with_rules(rules), (3, 4), active)
    sol = solve(puzzle, **options)
    assert sol.solved
    assert calls.count == 0, f"{case}: the plain path was taken"


def test_a_diagonal_out_of_play_leaves_a_plain_board(calls: Calls) -> None:
    """Rules that switch diagonals off make such a board plain again."""
    puzzle = Puzzle(Position(_diagonal_board(), (Robot("red", (0, 4)), Robot("blue", (5, 5)))), (3, 4), 0)
    no_diagonals = Rules(diagonals=False)
    fast, slow = both(puzzle.with_rules(no_diagonals))
    assert_same(fast, slow)
    assert calls.count == 1
    assert solve(puzzle.with_rules(GAME)).solved and calls.count == 1
