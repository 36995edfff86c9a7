"""Position codes: exact round trips (hypothesis) and clear errors."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ricochet import Board, Diagonal, Direction, Position, Puzzle, Robot, Target
from ricochet.board import DIAGONAL_COLORS, ROBOT_COLORS, TARGET_COLORS, TARGET_SYMBOLS
from ricochet.notation import NotationError, parse_code, position_code, puzzle_code
from ricochet.rules import GAME, PLAIN

URL_SAFE = set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.~*@")


# -- strategies shared with test_ascii.py and test_interchange.py ------------------
@st.composite
def boards(draw: st.DrawFn, max_size: int = 7) -> Board:
    """Small random boards with every feature: walls, blocked cells, towers,
    diagonals, printed targets and openings (targets/diagonals in random order)."""
    w, h = draw(st.integers(3, max_size)), draw(st.integers(3, max_size))
    cells = [(x, y) for y in range(h) for x in range(w)]
    walls = draw(st.lists(st.tuples(st.integers(0, w - 1), st.integers(0, h - 1), st.sampled_from("NESW")),
                          max_size=3 * max(w, h)))
    blocked = draw(st.sets(st.sampled_from(cells), max_size=2))
    free = [c for c in cells if c not in blocked]
    towers = draw(st.sets(st.sampled_from(free), max_size=3))
    diag_cells = draw(st.lists(st.sampled_from([c for c in free if c not in towers]), unique=True, max_size=3))
    diagonals = [Diagonal(c, draw(st.sampled_from(DIAGONAL_COLORS)), draw(st.sampled_from("/\\"))) for c in diag_cells]
    target_cells = draw(st.lists(st.sampled_from(free), unique=True, max_size=3))
    targets = [Target(c, draw(st.sampled_from(TARGET_COLORS)), draw(st.sampled_from(TARGET_SYMBOLS)))
               for c in target_cells]
    sides = [(c, d) for c in free for d in Direction if not Board.build(w, h).in_bounds(d.step(c))]
    openings = draw(st.sets(st.sampled_from(sides), max_size=2)) if sides else set()
    masks = Board.build(w, h, walls, blocked=blocked, wall_blocked=draw(st.booleans())).walls
    return Board(w, h, masks, frozenset(blocked), tuple(targets), tuple(diagonals), frozenset(openings),
                 frozenset(towers))


@st.composite
def positions(draw: st.DrawFn, board: Board | None = None) -> Position:
    board = board if board is not None else draw(boards())
    free = [c for c in board.cells() if c not in board.blocked]
    n = draw(st.integers(1, min(6, len(free))))
    colors = draw(st.permutations(ROBOT_COLORS))[:n]
    cells = draw(st.lists(st.sampled_from(free), min_size=n, max_size=n, unique=True))
    goal = draw(st.none() | st.sampled_from(list(board.cells())))
    last = draw(st.none() | st.tuples(st.integers(0, n - 1), st.sampled_from(list(Direction))))
    return Position(board, tuple(Robot(c, cell) for c, cell in zip(colors, cells)), goal, last)


@st.composite
def puzzles(draw: st.DrawFn, board: Board | None = None, extras: bool = False) -> Puzzle:
    """Random puzzles; with ``extras`` also random rules, optimal and id."""
    pos = draw(positions(board))
    free = [c for c in pos.board.cells() if c not in pos.board.blocked]
    choices = [None] + [i for i, r in enumerate(pos.robots) if r.color not in ("silver", "transparent")]
    kw = {}
    if extras:
        kw = {"rules": draw(st.sampled_from([PLAIN, GAME, PLAIN.with_options(must_ricochet=True)])),
              "optimal": draw(st.none() | st.integers(0, 40)),
              "id": draw(st.none() | st.text(max_size=12))}
    return Puzzle(pos, draw(st.sampled_from(free)), active=draw(st.sampled_from(choices)), **kw)


def tile_boards() -> st.SearchStrategy[Board]:
    from ricochet import tiles
    return st.sampled_from(tiles.arrangements("any")).map(lambda names: tiles.assemble(*names))


# -- round trips --------------------------------------------------------------
@settings(max_examples=200, deadline=None)
@given(positions())
def test_position_code_round_trips(pos: Position) -> None:
    code = position_code(pos)
    assert set(code) <= URL_SAFE
    assert parse_code(code) == pos


@settings(max_examples=200, deadline=None)
@given(puzzles())
def test_puzzle_code_round_trips(puzzle: Puzzle) -> None:
    code = puzzle_code(puzzle)
    assert set(code) <= URL_SAFE
    assert parse_code(code) == puzzle


@settings(max_examples=50, deadline=None)
@given(tile_boards().flatmap(lambda b: puzzles(board=b)))
def test_tile_boards_use_the_arrangement(puzzle: Puzzle) -> None:
    from ricochet import tiles
    code = puzzle_code(puzzle)
    board_part = code.split(".")[0]
    assert board_part == "".join(tiles.identify(puzzle.position.board))
    assert parse_code(code) == puzzle


def test_example_code() -> None:
    from ricochet import tiles
    board = tiles.assemble("1A", "3B", "4A", "2A")
    robots = (Robot("red", (0, 0)), Robot("green", (15, 0)), Robot("blue", (0, 15)), Robot("yellow", (15, 15)))
    puzzle = Puzzle(Position(board, robots), (8, 5), active=0)
    assert puzzle_code(puzzle) == "1A3B4A2A.r00gf0b0fyff.r85"
    assert position_code(puzzle.position) == "1A3B4A2A.r00gf0b0fyff.@85"
    assert parse_code("1A3B4A2A.r00gf0b0fyff.*85").active is None


def test_a_tile_board_changed_falls_back_to_raw() -> None:
    from ricochet import tiles
    board = tiles.assemble("1A", "3B", "4A", "2A")
    board = board.replace(towers=frozenset({(3, 3)}))
    pos = Position(board, (Robot("red", (0, 0)),))
    assert position_code(pos).startswith("x")
    assert parse_code(position_code(pos)) == pos


def test_rules_and_their_state_are_part_of_the_code() -> None:
    """The rules belong to the position (issue 15): the code writes the switches that differ from
    plain, the last move and who has turned, and reads them back."""
    pos = Position(Board.build(4, 4), (Robot("red", (0, 0)), Robot("blue", (3, 3))))
    assert puzzle_code(Puzzle(pos, (3, 3), rules=GAME)) == puzzle_code(Puzzle(pos, (3, 3))) + ".!mns"
    moved, _ = pos.with_rules(GAME).replay(pos.parse_solution("RE RS"))
    assert moved.turned == {0} and moved.headings == (Direction.S, None)
    assert position_code(moved).endswith(".!mns.~rS.^rS1")
    assert parse_code(position_code(moved)) == moved
    odd = GAME.with_options(diagonals=False, transparent=True, goal_tower_passthrough=False)
    assert parse_code(position_code(pos.with_rules(odd))).rules == odd


@pytest.mark.parametrize("code, match", [
    ("1A3B4A2A.r00.!x", "not a rule letter"),
    ("1A3B4A2A.r00.!mm", "given twice"),
    ("1A3B4A2A.r00.!", "at least one rule letter"),
    ("1A3B4A2A.r00.^rN1", "must-ricochet"),
    ("1A3B4A2A.r00.!m.^rX1", "heading"),
    ("1A3B4A2A.r00.~rN.!m", "too late"),
])
def test_bad_rule_sections(code: str, match: str) -> None:
    with pytest.raises(NotationError, match=match):
        parse_code(code)


def test_last_move_is_kept() -> None:
    pos = Position(Board.build(4, 4), (Robot("red", (0, 0)), Robot("blue", (1, 1))), last_move=(1, Direction.W))
    assert position_code(pos).endswith(".~bW")
    assert parse_code(position_code(pos)) == pos


# -- errors -------------------------------------------------------------------
GOOD = "1A3B4A2A.r00gf0b0fyff.r85"


@pytest.mark.parametrize("code, match", [
    ("1A3B4A2A", "needs at least a board and robots"),
    ("9Z3B4A2A.r00", "not a tile name"),
    ("hello.r00", "neither a tile arrangement"),
    ("x!!!.r00", "not valid base64url"),
    ("xAAAA.r00", "not valid base64url|truncated|version"),
    ("1A3B4A2A.r0", "colour letter \\+ x \\+ y"),
    ("1A3B4A2A.q00", "'q' is not a robot letter"),
    ("1A3B4A2A.r0w", "base-32 digits"),
    ("1A3B4A2A.r00r11", "two red robots"),
    ("1A3B4A2A.r00g00", "both on 0,0"),
    ("1A3B4A2A.r77", "blocked"),
    ("1A3B4A2A.r00.b85", "no blue robot"),
    ("1A3B4A2A.r00.r85.@11", "second"),
    ("1A3B4A2A.r00.~rX", "N, E, S or W"),
    ("1A3B4A2A.r00.r77", "blocked"),
    ("1A3B4A2A.r00s11.s85", "only for the cosmic vortex"),
    ("1A3B4A2A.r00..r85", "empty section"),
])
def test_bad_codes(code: str, match: str) -> None:
    with pytest.raises(NotationError, match=match):
        parse_code(code)


def test_error_names_the_column() -> None:
    with pytest.raises(NotationError) as e:
        parse_code("1A3B4A2A.r00gz0")
    assert e.value.column == 13 and "robots[1]" in str(e.value)
