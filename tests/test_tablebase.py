"""The tablebase against an independent brute force (small boards, the real
board with two robots), against the solver (the real board with three
robots), its queries, and its file."""

from __future__ import annotations

import random
from math import comb

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ricochet.board import Board, Diagonal
from ricochet.generate import random_position
from ricochet.puzzle import Puzzle, check_solution
from ricochet.solver import solve
from ricochet.tablebase import Layout, Tablebase, TablebaseError
from ricochet.tablebase.store import MAGIC
from ricochet.tiles import assemble
from strategies import PROPERTY, boards
from tablebase_brute import brute, slide_matches_engine

ASP = assemble("1A", "3B", "4A", "2A")


def table_matches_brute(board: Board, target: tuple[int, int], robots: int, any_robot: bool = False) -> Tablebase:
    tb = Tablebase.build(board, target, robots=robots, any_robot=any_robot)
    b = brute(board, target, robots, list(tb.layout.free), any_robot=any_robot)
    slide_matches_engine(b, samples=20, any_robot=any_robot)
    index = tb.layout.indices(b.cells)
    assert np.array_equal(np.sort(index), np.arange(tb.layout.size))  # the index is perfect: a bijection
    assert np.array_equal(tb.array()[index], b.lengths)
    rng = random.Random(len(index))
    for i in rng.sample(range(len(index)), min(len(index), 300)):  # the bulk index is index(), row by row
        row = b.cells[i]
        assert index[i] == tb.layout.index(board.cell(int(row[0])), [board.cell(int(c)) for c in row[1:][::-1]])
    for i in rng.sample(range(len(index)), 5):  # solutions are replayed by the engine
        cells = [board.cell(int(c)) for c in b.cells[i]]
        moves = tb.solution(cells)
        if b.lengths[i] == 255:
            assert moves is None and tb.best_moves(cells) == []
        else:
            assert moves is not None and len(moves) == b.lengths[i]
            assert check_solution(tb.puzzle(cells), moves).ok
    return tb


@settings(PROPERTY, max_examples=12)  # each example builds and brute-forces up to 200k positions
@given(board=boards(min_size=5, max_size=7, diagonals=False, openings=False, towers=False),
       robots=st.sampled_from((3, 4)), data=st.data())
def test_small_boards_equal_a_forward_brute_force(board: Board, robots: int, data: st.DataObject) -> None:
    free = [c for c in board.cells() if c not in board.blocked]
    target = data.draw(st.sampled_from(free), label="target")
    if robots == 4 and len(free) > 36:
        robots = 3  # keep the brute force small
    try:
        Layout.of(board, target, robots)
    except TablebaseError:
        return  # the target's walled-off pocket is too small for the robots
    table_matches_brute(board, target, robots)


@settings(PROPERTY, max_examples=12)
@given(board=boards(min_size=5, max_size=7, diagonals=False, openings=False, towers=False),
       robots=st.sampled_from((1, 2, 3, 4)), data=st.data())
def test_vortex_tables_of_small_boards_equal_a_forward_brute_force(board: Board, robots: int,
                                                                   data: st.DataObject) -> None:
    free = [c for c in board.cells() if c not in board.blocked]
    target = data.draw(st.sampled_from(free), label="target")
    try:
        Layout.of(board, target, robots, any_robot=True)
    except TablebaseError:
        return
    tb = table_matches_brute(board, target, robots, any_robot=True)
    assert tb.layout.size == comb(tb.layout.cells, robots)


def test_vortex_tables_agree_with_solve_on_random_positions() -> None:
    """The solver's any-robot search (the cosmic vortex) against the vortex
    table, on random positions of small random boards and of the real board."""
    rng = random.Random(47)
    colors = ("red", "green", "blue", "yellow")
    cases = [(Board.build(7, 6, walls=[(1, 0, "E"), (3, 2, "S"), (5, 4, "W"), (2, 4, "N"), (4, 1, "S")],
                          blocked=[(3, 3)]), (5, 4), 4),
             (Board.build(8, 8, walls=[(2, 2, "S"), (6, 1, "W"), (1, 6, "E"), (4, 4, "N")]), (6, 1), 3),
             (ASP, ASP.find_target("any", "vortex").cell, 3)]
    for board, target, robots in cases:
        tb = Tablebase.build(board, target, robots=robots, any_robot=True)
        seen = set()
        for _ in range(60):
            pz = Puzzle(random_position(board, rng, colors[:robots]), target, active=None)
            length = tb.lookup(pz)
            assert length == solve(pz).length, pz
            seen.add(length)
            moves = tb.solution(pz)
            assert moves is not None and len(moves) == length and check_solution(pz, moves).ok
        assert len(seen) > 3  # the positions drawn are not all alike


def test_an_8x8_board_with_three_robots_equals_the_brute_force() -> None:
    board = Board.build(8, 8, [(1, 0, "E"), (3, 2, "S"), (5, 5, "W"), (6, 1, "S"), (2, 6, "N"), (0, 4, "S"),
                               (4, 7, "E"), (7, 3, "S"), (2, 2, "E"), (5, 3, "N")], blocked=[(3, 3), (4, 3)])
    tb = table_matches_brute(board, (5, 5), 3)
    assert tb.longest > 5


def test_a_7x7_board_with_four_robots_equals_the_brute_force() -> None:
    """The four-robot paths of the CPU build (rows that precompute the moves
    of the robots they fix, pushed and pulled) on 0.7 M positions, ten layers
    deep, and the four-robot vortex table."""
    board = Board.build(7, 7, [(1, 0, "E"), (3, 2, "S"), (5, 5, "W"), (6, 1, "S"), (2, 5, "N"), (0, 4, "S"),
                               (4, 6, "E"), (6, 3, "S"), (2, 2, "E"), (5, 3, "N")], blocked=[(3, 3), (4, 3)])
    tb = table_matches_brute(board, (5, 5), 4)
    assert tb.layout.size == 47 * comb(46, 3) and tb.longest >= 10
    table_matches_brute(board, (2, 5), 4, any_robot=True)


def test_the_real_board_with_two_robots_equals_the_brute_force() -> None:
    tb = table_matches_brute(ASP, (13, 10), 2)  # the red hexagon
    assert tb.layout.cells == 252 and tb.unreachable == 0
    vortex = table_matches_brute(ASP, ASP.find_target("any", "vortex").cell, 2, any_robot=True)
    assert vortex.layout.size == 252 * 251 // 2 and vortex.unreachable == 0


def test_the_real_board_with_three_robots_agrees_with_solve() -> None:
    rng = random.Random(14)
    for color, symbol in (("red", "circle"), ("blue", "hexagon")):
        target = ASP.find_target(color, symbol).cell
        tb = Tablebase.build(ASP, target, robots=3, active_color=color)
        for _ in range(40):
            pos = random_position(ASP, rng, (color, "green" if color != "green" else "red", "yellow"))
            pz = Puzzle(pos, target, active=0)
            assert tb.lookup(pz) == solve(pz).length, pos.cells


@pytest.fixture(scope="module")
def small() -> Tablebase:
    board = Board.build(6, 6, walls=[(2, 2, "S"), (1, 3, "E"), (4, 1, "N"), (3, 4, "W")], blocked=[(0, 5)])
    return Tablebase.build(board, (2, 2), robots=3)


def test_solutions_and_best_moves_are_optimal_and_replay(small: Tablebase) -> None:
    for entry in small.hardest(5) + small.entries(3, limit=5):
        pz = small.puzzle(list(entry.cells))
        moves = small.solution(pz)
        assert moves is not None and len(moves) == entry.length == small.lookup(pz)
        assert check_solution(pz, moves).ok
        assert solve(pz).length == entry.length
        for move in small.best_moves(pz):
            after = Puzzle(pz.position.play(move)[0], pz.target, 0)
            assert small.lookup(after) == entry.length - 1


def test_hardest_and_histogram(small: Tablebase) -> None:
    hist = small.histogram()
    assert sum(hist.values()) + small.unreachable == small.layout.size
    hardest = small.hardest(hist[small.longest] + 3)
    assert [e.length for e in hardest] == sorted((e.length for e in hardest), reverse=True)
    assert sum(e.length == small.longest for e in hardest) == hist[small.longest]
    assert all(small.lookup(list(e.cells)) == e.length for e in hardest)
    assert small.lookup([(2, 2), (0, 0), (1, 1)]) == 0


def test_lookup_takes_positions_puzzles_and_cells(small: Tablebase) -> None:
    pz = small.puzzle([(0, 0), (5, 5), (3, 3)])
    assert small.lookup(pz) == small.lookup(pz.position) == small.lookup([(0, 0), (3, 3), (5, 5)])
    with pytest.raises(TablebaseError, match="two robots on one cell"):
        small.lookup([(0, 0), (0, 0), (1, 1)])
    with pytest.raises(TablebaseError, match="blocked or walled off"):
        small.lookup([(0, 5), (0, 0), (1, 1)])
    with pytest.raises(TablebaseError, match="3 robots"):
        small.lookup([(0, 0), (1, 1)])
    with pytest.raises(TablebaseError, match="target"):
        small.lookup(Puzzle(pz.position, (4, 4), 0))


def test_bulk_indices_say_which_row_is_wrong(small: Tablebase) -> None:
    lay, board = small.layout, small.layout.board
    rows = np.array([[board.index(c) for c in cells] for cells in ([(0, 0), (5, 5), (3, 3)], [(1, 1), (0, 0), (2, 2)])])
    assert lay.indices(rows).tolist() == [small.index([(0, 0), (5, 5), (3, 3)]), small.index([(1, 1), (0, 0), (2, 2)])]
    assert lay.indices(rows[:, [0, 2, 1]]).tolist() == lay.indices(rows).tolist()  # helpers in any order
    assert lay.indices(np.zeros((0, 3), dtype=np.int64)).tolist() == []
    for bad, message in (([[0, 1, 2], [0, 1, 0]], "row 1 .* two robots on one cell"),
                         ([[0, 1, 2], [board.index((0, 5)), 1, 2]], "row 1 .* blocked or walled off"),
                         ([[0, 1, 2], [0, 1, -1]], "row 1 .* off the board"),
                         ([[0, 1, 2], [0, 1, board.width * board.height]], "row 1 .* off the board"),
                         ([[0, 1]], "rows of 3 integer"), ([[0.0, 1.0, 2.0]], "rows of 3 integer")):
        with pytest.raises(TablebaseError, match=message):
            lay.indices(np.array(bad))


def test_unreachable_positions_are_none() -> None:
    # The target sits in a pocket only reachable by stopping against a robot.
    board = Board.build(5, 5, walls=[(2, 0, "E"), (2, 0, "W")])
    tb = Tablebase.build(board, (2, 1), robots=1)
    assert tb.lookup([(0, 0)]) is None and tb.solution([(0, 0)]) is None and tb.best_moves([(0, 0)]) == []
    assert tb.unreachable > 0


def test_boards_the_plain_tablebase_does_not_model_are_refused() -> None:
    diag = Board.build(5, 5, diagonals=[Diagonal((2, 2), "red", "/")])
    with pytest.raises(TablebaseError, match="diagonals"):
        Tablebase.build(diag, (0, 0))
    with pytest.raises(TablebaseError, match="robots"):
        Tablebase.build(Board.build(5, 5), (0, 0), robots=5)
    with pytest.raises(TablebaseError, match="target"):
        Tablebase.build(ASP, (7, 7))


def test_the_file_round_trips_and_is_checked(small: Tablebase, tmp_path) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path / "t.rtb"
    small.save(path)
    loaded = Tablebase.load(path)
    assert loaded.histogram() == small.histogram()
    rng = np.random.default_rng(1)
    for i in rng.integers(0, small.layout.size, 50):
        cells = small.layout.position(int(i))
        assert loaded.lookup([cells[0], *cells[1]]) == small.lookup([cells[0], *cells[1]])
    assert np.array_equal(loaded.array(), small.array())
    assert loaded.info["robots"] == 3 and loaded.info["rules"] == "plain" and len(loaded.info["sha256"]) == 64
    loaded.close()

    damaged = bytearray(path.read_bytes())
    damaged[-5] ^= 0xFF
    (tmp_path / "bad.rtb").write_bytes(bytes(damaged))
    with pytest.raises(TablebaseError, match="damaged"):
        Tablebase.load(tmp_path / "bad.rtb").array()
    (tmp_path / "short.rtb").write_bytes(bytes(damaged[:-3]))
    with pytest.raises(TablebaseError, match="truncated"):
        Tablebase.load(tmp_path / "short.rtb")
    (tmp_path / "other.rtb").write_bytes(b"PK\x03\x04" + bytes(40))
    with pytest.raises(TablebaseError, match="not a tablebase file"):
        Tablebase.load(tmp_path / "other.rtb")
    assert path.read_bytes().startswith(MAGIC)
