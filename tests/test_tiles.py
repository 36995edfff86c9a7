"""The real tiles: assembly, rotation, the 96 arrangements, identification."""

from __future__ import annotations

import json
from collections import Counter

import pytest

from ricochet import datasets
from ricochet.board import Board, Diagonal, Target
from ricochet.geometry import Direction
from ricochet.tiles import (
    CENTRE,
    CHIPS,
    TILE_NAMES,
    TileError,
    arrangements,
    assemble,
    canonical,
    has_all_chips,
    identify,
    parse_arrangement,
    tile,
)

ASP = datasets.path("asp2015")
ASP_TILES = ("1A", "3B", "4A", "2A")


def rotate(board: Board) -> Board:
    """The board turned a quarter turn clockwise, computed independently of tiles.py."""
    n = board.width
    assert board.height == n

    def cw(c: tuple[int, int]) -> tuple[int, int]:
        return (n - 1 - c[1], c[0])

    masks = [0] * (n * n)
    for (x, y) in board.cells():
        m = board.walls[y * n + x]
        # N→E, E→S, S→W, W→N: a left shift of the 4-bit mask, wrapping W back to N.
        rm = ((m << 1) | (m >> 3)) & 15
        nx, ny = cw((x, y))
        masks[ny * n + nx] = rm
    flip = {"/": "\\", "\\": "/"}
    return Board(n, n, tuple(masks), frozenset(cw(c) for c in board.blocked),
                 tuple(sorted(Target(cw(t.cell), t.color, t.symbol) for t in board.targets)),
                 tuple(sorted(Diagonal(cw(d.cell), d.color, flip[d.orientation]) for d in board.diagonals)))


# -- names and parsing --------------------------------------------------------
def test_names_and_chips() -> None:
    assert len(TILE_NAMES) == 16 and TILE_NAMES[0] == "1A" and TILE_NAMES[-1] == "4D"
    assert len(CHIPS) == 17 and len(set(CHIPS)) == 17 and CHIPS[-1] == ("any", "vortex")


@pytest.mark.parametrize("text", ["1A,3B,4A,2A", "1a 3b 4a 2a", "1A3B4A2A", " 1a, 3B ,4a,2A ", "1a3b4a2a"])
def test_parse_arrangement_forms(text: str) -> None:
    assert parse_arrangement(text) == ASP_TILES


@pytest.mark.parametrize(("text", "message"), [
    ("1A,3B,X9,2A", "unknown tile 'X9': tiles are 1A..4D"),
    ("ZZ", "unknown tile 'ZZ': tiles are 1A..4D"),
    ("1A,3B,4A", "an arrangement needs 4 tiles (NW, NE, SE, SW), got 3: '1A,3B,4A'"),
    ("1A,3B,4A,2A,1B", "an arrangement needs 4 tiles (NW, NE, SE, SW), got 5"),
    ("", "an arrangement needs 4 tiles (NW, NE, SE, SW), got 0"),
    ("1A3B4A2", "cannot read arrangement '1A3B4A2'"),
    ("5A,3B,4A,2A", "unknown tile '5A'"),
])
def test_parse_arrangement_errors(text: str, message: str) -> None:
    with pytest.raises(TileError) as e:
        parse_arrangement(text)
    assert message in str(e.value)


def test_repeated_pieces_allowed_unless_distinct_asked() -> None:
    assert parse_arrangement("1A,1B,4A,2A") == ("1A", "1B", "4A", "2A")
    with pytest.raises(TileError, match=r"piece 1 is used twice \(NW 1A and NE 1B\)"):
        parse_arrangement("1A,1B,4A,2A", distinct_pieces=True)
    assert parse_arrangement("1A,3B,4A,2A", distinct_pieces=True) == ASP_TILES


def test_tile_errors_are_value_errors() -> None:
    assert issubclass(TileError, ValueError)
    with pytest.raises(TileError, match="unknown tile '9Z'"):
        assemble("1A", "9Z", "4A", "2A")
    with pytest.raises(TileError, match="faces must be"):
        arrangements("XY")


# -- assembly ---------------------------------------------------------------------
def test_asp2015_board_masks() -> None:
    """NW 1A, NE 3B, SE 4A, SW 2A gives the walls of every ASP 2015 instance
    exactly, in every cell outside the 2×2 centre."""
    board = assemble(*ASP_TILES)
    lines = ASP.read_text().splitlines()
    assert len(lines) == 239
    for line in lines:
        row = json.loads(line)
        assert (row["width"], row["height"]) == (16, 16)
        for i, mask in enumerate(row["walls"]):
            cell = (i % 16, i // 16)
            if cell not in CENTRE:
                assert board.walls[i] == mask, f"{row['id']}: cell {cell} has {board.walls[i]}, file says {mask}"


def test_identify_asp_board_by_walls() -> None:
    row = json.loads(ASP.read_text().splitlines()[0])
    board = Board(16, 16, tuple(row["walls"]))
    assert identify(board, exact=False) == ASP_TILES
    assert identify(board) is None  # no targets, no blocked centre: not exactly a tile board


def test_rotation_by_hand() -> None:
    """Tile 4A has its vortex at (7,5) with a wall on its E side (the seam).
    Worked out by hand for each position: NE (x,y)→(15−y,x), SE (15−x,15−y),
    SW (y,15−x); the wall side turns N→E→S→W once per quarter turn."""
    assert Target((7, 5), "any", "vortex") in tile("4A").targets
    assert (7, 5, Direction.E) in tile("4A").walls
    cases = [
        (("4A", "1B", "2B", "3B"), (7, 5), Direction.E),   # NW: unchanged
        (("1B", "4A", "2B", "3B"), (10, 7), Direction.S),  # NE: one turn
        (("2B", "3B", "4A", "1B"), (8, 10), Direction.W),  # SE: two turns
        (("3B", "1B", "2B", "4A"), (5, 8), Direction.N),   # SW: three turns
    ]
    for names, cell, side in cases:
        b = assemble(*names)
        assert b.find_target("any", "vortex").cell == cell, names
        assert b.wall(cell, side), names
        assert b.wall(side.step(cell), side.opposite), names  # set on both cells


def test_diagonal_orientation_turns() -> None:
    # 1D: green '/' at (4,1).  One quarter turn swaps the orientation, two restore it.
    assert Diagonal((4, 1), "green", "/") in tile("1D").diagonals
    ne = assemble("2D", "1D", "3D", "4D")
    assert Diagonal((14, 4), "green", "\\") in ne.diagonals
    se = assemble("2D", "3D", "1D", "4D")
    assert Diagonal((11, 14), "green", "/") in se.diagonals
    assert len(se.diagonals) == 8


def test_assembled_board_shape() -> None:
    b = assemble(*ASP_TILES)
    assert (b.width, b.height) == (16, 16)
    assert b.blocked == CENTRE
    for c in CENTRE:
        assert b.walls[b.index(c)] == 15
    assert assemble("1a", "3b", "4a", "2a") is b  # cached per arrangement


def test_rotating_the_board_shifts_the_tiles() -> None:
    """A quarter turn of the whole board is the same arrangement shifted one
    position on: this ties the per-position rotation to real geometry."""
    for names in [ASP_TILES, ("1D", "2C", "3D", "4C"), ("2B", "4D", "1A", "3C")]:
        a, b, c, d = names
        assert rotate(assemble(a, b, c, d)) == assemble(d, a, b, c)


def test_every_board_of_a_set_has_each_chip_once() -> None:
    for faces in ("AB", "CD"):
        for names in arrangements(faces):
            chips = Counter((t.color, t.symbol) for t in assemble(*names).targets)
            assert chips == Counter(CHIPS), names


def test_require_all_targets() -> None:
    assert has_all_chips(ASP_TILES)
    assert not has_all_chips(("1A", "1B", "4A", "2A"))
    assert len(assemble("1A", "1C", "4A", "2A").targets) == 17  # allowed, with a doubled chip set
    with pytest.raises(TileError, match=r"do not hold all 17 targets: missing red triangle"):
        assemble("1A", "1C", "4A", "2A", require_all_targets=True)
    assert assemble(*ASP_TILES, require_all_targets=True) is assemble(*ASP_TILES)


# -- arrangements ---------------------------------------------------------------------
@pytest.mark.parametrize("faces", ["AB", "CD"])
def test_96_distinct_boards_per_set(faces: str) -> None:
    arr = arrangements(faces)
    assert len(arr) == 96 == len(set(arr))
    letters = set(faces)
    assert all(len({n[0] for n in a}) == 4 and {n[1] for n in a} <= letters for a in arr)
    boards = [assemble(*a) for a in arr]
    assert len(set(boards)) == 96
    # All four turns of all 96 boards are distinct: no board is a turn of another.
    turned = set()
    for b in boards:
        for _ in range(4):
            turned.add(b)
            b = rotate(b)
    assert len(turned) == 4 * 96


def test_any_faces_and_canonical() -> None:
    arr = arrangements("any")
    assert len(arr) == 1536 == len(set(arr))
    assert set(arrangements("AB")) | set(arrangements("CD")) < set(arr)
    assert arrangements("abcd") == arr
    for a in arr[::97]:
        assert canonical(a) == a
        for k in range(1, 4):
            assert canonical(a[k:] + a[:k]) == a


# -- identify ----------------------------------------------------------------------------
def test_identify_round_trip_sets() -> None:
    for faces in ("AB", "CD"):
        for names in arrangements(faces):
            assert identify(assemble(*names)) == names


def test_identify_round_trip_any_faces_and_rotations() -> None:
    arr = arrangements("any")
    for names in arr[::7]:
        assert identify(assemble(*names)) == names
        shifted = names[2:] + names[:2]  # not canonical, still identified as placed
        assert identify(assemble(*shifted)) == shifted
    # Repeated pieces are tile boards too.
    assert identify(assemble("1A", "1A", "1A", "1A")) == ("1A", "1A", "1A", "1A")


def test_identify_rejects_other_boards() -> None:
    b = assemble(*ASP_TILES)
    assert identify(Board.build(16, 16)) is None
    assert identify(Board.build(15, 16)) is None
    assert identify(b.replace(targets=b.targets[1:])) is None
    assert identify(b.replace(openings=frozenset({((0, 3), Direction.W)}))) is None
    extra = Board.build(16, 16, b.wall_segments() + [(3, 3, Direction.E)], blocked=CENTRE, targets=b.targets)
    assert identify(extra) is None
    assert identify(extra, exact=False) is None
    # Unsorted targets still count as the same board.
    same = Board(16, 16, b.walls, b.blocked, tuple(reversed(b.targets)))
    assert identify(same) == ASP_TILES
    with pytest.raises(TypeError):
        identify("1A3B4A2A")  # type: ignore[arg-type]
