"""Option validation of ricochet.solver.solve: clear errors, never silent coercion."""

import pytest

from ricochet.board import Board
from ricochet.position import Position, Robot
from ricochet.puzzle import Puzzle
from ricochet.solver import solve

PUZZLE = Puzzle(Position(Board.build(4, 4), (Robot("red", (0, 0)),)), (3, 3), active=0)


@pytest.mark.parametrize("options, field", [
    ({"max_moves": True}, "max_moves"),
    ({"max_moves": -1}, "max_moves"),
    ({"max_moves": 2.5}, "max_moves"),
    ({"time_limit": 0}, "time_limit"),
    ({"time_limit": -3}, "time_limit"),
    ({"time_limit": "1"}, "time_limit"),
    ({"max_solutions": 0}, "max_solutions"),
    ({"max_solutions": True}, "max_solutions"),
    ({"threads": 0}, "threads"),
    ({"threads": True}, "threads"),
    ({"threads": 2.0}, "threads"),
    ({"threads": 10_000}, "threads"),
])
def test_bad_options_name_the_field(options, field):
    with pytest.raises(ValueError, match=field):
        solve(PUZZLE, **options)


def test_good_options_solve():
    assert solve(PUZZLE, max_moves=5, time_limit=10, max_solutions=3).length == 2
