"""Random set-ups: arrangements, positions, boards and puzzles."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ricochet.board import Board
from ricochet.generate import (
    random_arrangement,
    random_board,
    random_position,
    random_puzzle,
    random_puzzle_from_id,
    random_puzzles,
)
from ricochet.geometry import DIRECTIONS
from ricochet.rules import GAME, PLAIN, Rules
from ricochet.tiles import CHIPS, arrangements, assemble, identify

SETTINGS = settings(max_examples=150, deadline=None, derandomize=True)
seeds = st.integers(min_value=0, max_value=2**32 - 1)


# -- arrangements ---------------------------------------------------------------
@pytest.mark.parametrize("faces", ["AB", "CD", "any"])
def test_random_arrangement(faces: str) -> None:
    rng = random.Random(11)
    drawn = [random_arrangement(rng, faces) for _ in range(60)]
    assert set(drawn) <= set(arrangements(faces))
    assert len(set(drawn)) > 30  # not stuck on a few boards
    again = random.Random(11)
    assert drawn == [random_arrangement(again, faces) for _ in range(60)]
    for names in drawn:
        assert sorted((t.color, t.symbol) for t in assemble(*names).targets) == sorted(CHIPS)


def test_random_arrangement_bad_faces() -> None:
    with pytest.raises(ValueError, match="faces must be"):
        random_arrangement(random.Random(0), "EF")


# -- positions --------------------------------------------------------------------
def _check_position(board: Board, pos, colors) -> None:  # type: ignore[no-untyped-def]
    cells = [r.cell for r in pos.robots]
    assert [r.color for r in pos.robots] == list(colors)
    assert len(set(cells)) == len(cells)
    taken = {t.cell for t in board.targets} | set(board.blocked) | set(board.towers) | {
        d.cell for d in board.diagonals}
    assert not set(cells) & taken
    assert all(board.in_bounds(c) for c in cells)


@SETTINGS
@given(seed=seeds, faces=st.sampled_from(["AB", "CD", "any"]))
def test_random_position_on_tile_boards(seed: int, faces: str) -> None:
    rng = random.Random(seed)
    board = assemble(*random_arrangement(rng, faces))
    colors = ("red", "green", "blue", "yellow", "silver")
    _check_position(board, random_position(board, rng, colors), colors)


def test_random_position_default_and_towers() -> None:
    board = assemble("1A", "3B", "4A", "2A")
    towers = frozenset((x, 0) for x in range(16) if board.target_at((x, 0)) is None)
    tb = board.replace(towers=towers)
    for seed in range(50):
        pos = random_position(tb, random.Random(seed))
        _check_position(tb, pos, ("red", "green", "blue", "yellow"))
    assert random_position(board, random.Random(4)) == random_position(board, random.Random(4))


def test_random_position_too_many_robots() -> None:
    board = Board.build(3, 3, blocked=[(x, y) for x in range(3) for y in range(3) if (x, y) != (0, 0)][:6])
    with pytest.raises(ValueError, match=r"colors: 4 robots do not fit on the 3 free cells"):
        random_position(board, random.Random(0))


# -- random boards ----------------------------------------------------------------------
def _open_sides(board: Board, cell) -> int:  # type: ignore[no-untyped-def]
    n = 0
    for d in DIRECTIONS:
        nxt = d.step(cell)
        if board.in_bounds(nxt) and not board.wall(cell, d) and nxt not in board.blocked:
            n += 1
    return n


@SETTINGS
@given(width=st.integers(3, 32), height=st.integers(3, 32), seed=seeds,
       density=st.floats(0, 1), diagonals=st.integers(0, 6), openings=st.integers(0, 6),
       centre=st.booleans())
def test_random_board_valid(width: int, height: int, seed: int, density: float, diagonals: int, openings: int,
                            centre: bool) -> None:
    board = random_board(width, height, random.Random(seed), wall_density=density, centre_block=centre,
                         diagonals=diagonals, openings=openings)
    assert (board.width, board.height) == (width, height)
    Board(board.width, board.height, board.walls, board.blocked, board.targets, board.diagonals,
          board.openings, board.towers)  # validates again
    has_block = centre and width % 2 == 0 and height % 2 == 0
    assert len(board.blocked) == (4 if has_block else 0)
    free = [c for c in board.cells() if c not in board.blocked]
    # The documented guarantee: at most two closed sides per free cell (openings only open more).
    assert all(_open_sides(board, c) >= 2 for c in free)
    chips = [(t.color, t.symbol) for t in board.targets]
    assert len(set(chips)) == len(chips) == min(17, len(free) // 4)
    assert set(chips) <= set(CHIPS)
    assert not {t.cell for t in board.targets} & {d.cell for d in board.diagonals}
    assert len(board.diagonals) == diagonals and len(board.openings) == openings
    assert board == random_board(width, height, random.Random(seed), wall_density=density,
                                 centre_block=centre, diagonals=diagonals, openings=openings)
    # A random position fits on every random board with room for four robots; else a clear refusal
    # (a 3×3 board with 6 diagonals and 2 targets leaves a single cell).
    colors = ("red", "green", "blue", "yellow")
    robot_cells = [c for c in free if c not in {t.cell for t in board.targets} | {d.cell for d in board.diagonals}]
    if len(robot_cells) < len(colors):
        with pytest.raises(ValueError, match="robots do not fit"):
            random_position(board, random.Random(seed))
    else:
        _check_position(board, random_position(board, random.Random(seed)), colors)


def test_random_board_targets_sit_in_corners() -> None:
    board = random_board(16, 16, random.Random(3))
    assert len(board.targets) == 17
    corners = sum(1 for t in board.targets if 4 - _open_sides(board, t.cell) == 2)
    assert corners >= 15  # nearly every target gets its L-shaped corner
    assert len(board.wall_segments()) > 40


def test_random_board_options() -> None:
    rng = random.Random(1)
    assert random_board(8, 8, rng, targets=False).targets == ()
    assert len(random_board(8, 8, rng, targets=5).targets) == 5
    bare = random_board(9, 9, rng, targets=False, wall_density=0)
    assert bare.wall_segments() == [] and bare.blocked == frozenset()
    assert random_board(32, 32, rng).blocked == frozenset({(15, 15), (16, 15), (15, 16), (16, 16)})


@pytest.mark.parametrize(("kwargs", "message"), [
    ({"width": 2, "height": 8}, "width must be an integer from 3 to 32, got 2"),
    ({"width": 8, "height": 33}, "height must be an integer from 3 to 32, got 33"),
    ({"width": 8, "height": 8, "wall_density": 1.5}, "wall_density must be a number from 0 to 1"),
    ({"width": 8, "height": 8, "targets": 18}, "targets must be true, false or a number from 0 to 17"),
    ({"width": 3, "height": 3, "targets": 9}, "targets: 9 targets do not fit"),
    ({"width": 8, "height": 8, "diagonals": -1}, "diagonals must be a non-negative integer"),
    ({"width": 3, "height": 3, "diagonals": 20}, "diagonals: 20 do not fit"),
    ({"width": 3, "height": 3, "openings": 13}, "openings: 13 do not fit on the 12 border sides"),
])
def test_random_board_errors(kwargs: dict, message: str) -> None:  # type: ignore[type-arg]
    kwargs = dict(kwargs)
    w, h = kwargs.pop("width"), kwargs.pop("height")
    with pytest.raises(ValueError) as e:
        random_board(w, h, random.Random(0), **kwargs)
    assert message in str(e.value)


# -- puzzles ------------------------------------------------------------------------------
@SETTINGS
@given(seed=seeds, rules=st.sampled_from([PLAIN, GAME, Rules(silver=True, transparent=True)]),
       faces=st.sampled_from(["AB", "CD", "any"]))
def test_random_puzzle(seed: int, rules: Rules, faces: str) -> None:
    pz = random_puzzle(random.Random(seed), rules, faces=faces)
    pos = pz.position
    colors = [r.color for r in pos.robots]
    expected = ["red", "green", "blue", "yellow"] + (["silver"] if rules.silver else []) + (
        ["transparent"] if rules.transparent else [])
    assert colors == expected
    names = identify(pos.board)
    assert names is not None and names in arrangements(faces)
    assert pz.id is not None and pz.id.startswith(f"random-{''.join(names)}-")
    chip = pos.board.target_at(pz.target)
    assert chip is not None
    if chip.symbol == "vortex":
        assert pz.active is None
    else:
        assert pz.active is not None and colors[pz.active] == chip.color
    assert pz.rules == rules
    assert pos.robot_at(pz.target) is None
    assert random_puzzle(random.Random(seed), rules, faces=faces) == pz
    assert random_puzzle_from_id(pz.id, rules) == pz


def test_vortex_puzzles_have_any_robot() -> None:
    puzzles = random_puzzles(5, 60)
    vortex = [p for p in puzzles if p.position.board.target_at(p.target).symbol == "vortex"]
    assert vortex and all(p.active is None for p in vortex)
    assert any(p.active is not None for p in puzzles)


def test_random_puzzle_on_given_boards() -> None:
    board = assemble("2C", "1D", "3C", "4D")
    pz = random_puzzle(random.Random(9), board=board)
    assert pz.position.board is board and pz.id.startswith("random-2C1D3C4D-")
    rb = random_board(12, 10, random.Random(9), diagonals=2)
    pz = random_puzzle(random.Random(9), board=rb)
    assert pz.id.startswith("random-12x10-") and rb.target_at(pz.target) is not None
    assert random_puzzle_from_id(pz.id, board=rb) == pz
    with pytest.raises(ValueError, match="pass the board"):
        random_puzzle_from_id(pz.id)
    # Without printed targets: any free cell, a coloured robot.
    bare = random_board(7, 7, random.Random(2), targets=False)
    pz = random_puzzle(random.Random(2), board=bare)
    assert pz.active in range(4) and pz.position.robot_at(pz.target) is None
    with pytest.raises(ValueError, match="is not of the form"):
        random_puzzle_from_id("puzzle-7")


def test_random_puzzles_fixed_seed() -> None:
    a = random_puzzles(42, 25)
    assert a == random_puzzles(42, 25)
    assert len(a) == 25 and len({p.id for p in a}) == 25
    assert random_puzzles(43, 25) != a
    assert random_puzzles(42, 0) == []
    with pytest.raises(ValueError, match="count must be"):
        random_puzzles(1, -1)
    cd = random_puzzles(42, 5, GAME, faces="CD")
    assert all(len(p.position.robots) == 5 and p.rules == GAME for p in cd)
    assert all(identify(p.position.board) in arrangements("CD") for p in cd)
