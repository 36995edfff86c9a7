"""ASCII diagrams: seed 003's figures, round trips and errors."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import given, settings

from ricochet import Board, Direction, Position, Puzzle, Robot, Rules, Target, check_solution
from ricochet.notation import NotationError, parse_ascii, parse_ascii_board, parse_solution, render_ascii
from ricochet.rules import GAME
from test_notation_code import boards, positions, puzzles

SEED_003 = Path(__file__).resolve().parent / "data" / "seed-003-figures.txt"


def seed_003() -> str:
    """Seed 003's figures (the set-ups and the worked example), quoted in ``tests/data``."""
    return SEED_003.read_text(encoding="utf-8")


def split_side_by_side(band: list[str]) -> list[str]:
    """Split lines holding diagrams side by side into one text per diagram.

    Inside a diagram, cells are separated by single blank columns; diagrams
    are separated by two or more columns that are blank on every line."""
    width = max(len(line) for line in band)
    band = [line.ljust(width) for line in band]
    blank = [all(line[c] == " " for line in band) for c in range(width)]
    blocks, start, c = [], None, 0
    while c < width:
        if not blank[c]:
            start = c if start is None else start
            c += 1
            continue
        run = c
        while run < width and blank[run]:
            run += 1
        if start is not None and (run - c >= 2 or run == width):
            blocks.append((start, c))
            start = None
        c = run
    if start is not None:
        blocks.append((start, width))
    return ["\n".join(line[a:b].rstrip() for line in band) for a, b in blocks]


def bands(lines: list[str], size: int) -> list[list[str]]:
    """Runs of ``size`` consecutive grid-looking lines (captions and prose are skipped)."""
    grid = re.compile(r"^[.TGrgbyst #/\\|*]+$")
    out, run = [], []
    for line in lines + [""]:
        if line.strip() and grid.match(line) and "." in line:
            run.append(line)
            continue
        if run:
            assert len(run) == size, run
            out.append(run)
        run = []
    return out


def seed_figures() -> tuple[str, list[str]]:
    text = seed_003()
    after = text.split("The red robot (r) wants to reach the goal tower (G):", 1)[1]
    start = "\n".join(after.strip("\n").splitlines()[:8])
    solution_part = after.split("One 5-move solution", 1)[1].split("This example shows", 1)[0]
    figures = [d for band in bands(solution_part.splitlines(), 8) for d in split_side_by_side(band)]
    return start, figures


# The seed's figures draw the tower of row 1 at column 1 in four of the six
# pictures and at column 0 in the other two (start, "y east"): a misprint that
# no move of the example goes near.
SEED_MISPRINT = {(0, 1), (1, 1)}


def test_split_side_by_side() -> None:
    assert split_side_by_side([". T    r .", ". .    . T"]) == [". T\n. .", "r .\n. T"]


def test_seed_003_setup_figures_parse_as_they_are() -> None:
    text = seed_003()
    part = text.split("For example:", 1)[1].split("(easy setup)", 1)[0]
    [band] = bands(part.splitlines(), 8)
    easy, hard = (parse_ascii_board(d) for d in split_side_by_side(band))
    assert len(easy.towers) == len(hard.towers) == 9
    assert (0, 0) in easy.towers and (1, 1) in hard.towers
    assert easy.wall_segments() == [] and not easy.blocked


def test_seed_003_worked_example() -> None:
    start_text, figures = seed_figures()
    assert len(figures) == 6
    puzzle = parse_ascii(start_text)
    assert isinstance(puzzle, Puzzle)
    pos = puzzle.position
    assert puzzle.target == (6, 2) and pos.robots[puzzle.active].color == "red"
    assert (6, 2) in pos.board.towers and len(pos.board.towers) == 8
    assert pos.board.wall_segments() == []  # no walls but the border
    assert parse_ascii(figures[0]) == puzzle  # the figure's first picture is the start

    rules = Rules()
    moves = parse_solution("y N, r N, y E, y S, r E", pos)
    for k, move in enumerate(moves, 1):
        pos, _ = pos.play(move, rules)
        shown = parse_ascii(figures[k])
        shown_pos = shown.position if isinstance(shown, Puzzle) else shown
        assert {r.color: r.cell for r in shown_pos.robots} == {r.color: r.cell for r in pos.robots}, f"after move {k}"
        visible = pos.board.towers - set(pos.cells)  # a robot on a tower hides it
        assert shown_pos.board.towers ^ visible <= SEED_MISPRINT, f"after move {k}"
    # The last picture writes r on the goal cell, so it shows no G: the red robot is on the goal.
    final = parse_ascii(figures[-1])
    assert isinstance(final, Position) and final.robots[final.index_of("red")].cell == puzzle.target
    verdict = check_solution(puzzle, moves, rules)
    assert verdict.ok and verdict.cost == 5


def test_a_diagram_with_walls_and_legend() -> None:
    text = """
        r . . .|.
              -
        . / . # .
        . . . # .
        . . G . g

        diagonal: 1,1 green
        opening: 4,3 E
        chip 0,3: blue square
        active: g
    """
    p = parse_ascii(text)
    assert isinstance(p, Puzzle)
    b = p.position.board
    assert b.wall((3, 0), Direction.E) and b.wall((3, 0), Direction.S) and b.wall((3, 1), Direction.N)
    assert b.blocked == {(3, 1), (3, 2)} and b.towers == {(2, 3)}
    assert b.target_at((0, 3)) == Target((0, 3), "blue", "square")
    assert b.diagonal_at((1, 1)).color == "green" and b.is_opening((4, 3), Direction.E)
    assert p.active == 1 and p.target == (2, 3)
    # green robot west from 4,3: the goal tower does not block, the edge stops it.
    q, _ = p.position.play(parse_solution("GW", p.position)[0])
    assert q.robots[1].cell == (0, 3)
    assert parse_ascii(render_ascii(p)) == p


def test_render_shows_covered_things_in_the_legend() -> None:
    board = Board.build(4, 4, towers=[(1, 1), (2, 2)], targets=[])
    p = Puzzle(Position(board, (Robot("green", (1, 1)), Robot("red", (2, 2)))), (2, 2), active=1)
    text = render_ascii(p)
    assert text.splitlines()[1:3] == [". g . .", ". . r ."]
    assert "robots: g r" in text and "target: 2,2" in text and "tower: 1,1 2,2" in text
    assert "active" not in text  # red is the default
    assert parse_ascii(text) == p


def test_position_with_goal_and_board_only() -> None:
    pos = Position(Board.build(3, 3), (Robot("blue", (0, 0)),), goal=(2, 2), last_move=(0, Direction.S))
    text = render_ascii(pos)
    assert "active: none" in text and "last: b S" in text
    assert parse_ascii(text) == pos
    board = Board.build(3, 3, walls=[(0, 0, "S")])
    assert render_ascii(board) == ". . .\n-\n. . .\n. . ."
    assert parse_ascii_board(render_ascii(board)) == board


@settings(max_examples=200, deadline=None)
@given(positions())
def test_positions_round_trip(pos: Position) -> None:
    assert parse_ascii(render_ascii(pos)) == pos


@settings(max_examples=200, deadline=None)
@given(puzzles(extras=True))
def test_puzzles_round_trip(p: Puzzle) -> None:
    assert parse_ascii(render_ascii(p)) == p


@settings(max_examples=100, deadline=None)
@given(boards())
def test_boards_round_trip(board: Board) -> None:
    assert parse_ascii_board(render_ascii(board)) == board


def test_rules_line() -> None:
    pos = Position(Board.build(3, 3), (Robot("red", (0, 0)),))
    for rules in (GAME, GAME.with_options(diagonals=False)):
        p = Puzzle(pos, (2, 2), rules=rules, optimal=3, id=" spaced ")
        assert parse_ascii(render_ascii(p)) == p
    assert "rules: game" in render_ascii(Puzzle(pos, (2, 2), rules=GAME))


@pytest.mark.parametrize("text, match, line, column", [
    (". . .\n. . . .\n. . .", "ragged row: it has 4 cells, the first row has 3", 2, 1),
    (". . .\n. .|\n. . .", "ragged row", 2, 1),
    (". . . . .\n. . . . .\n. . . . Q\n. . . . .", "cell 4,2: 'Q' is not a cell character", 3, 9),
    (". . r\n.   .\n. . .", "cell 1,1: a space is not a cell character", 2, 3),
    (". . r\n. . .\nr . .", "two red robots \\(r\\), at 2,0 and 0,2", 3, 1),
    (". . r\n - \n. . .\n. . .", "misaligned wall: '-' at column 2 is not under a cell", 2, 2),
    (". . r\n      -\n. . .\n. . .", "misaligned wall: '-' at column 7 is not under a cell", 2, 7),
    (". . r\n   -\n. . .\n. . .", "misaligned wall", 2, 4),
    (". . r\n. . .\n. . .\n-", "wall line must lie between two rows", 4, None),
    (". . r\n-\n-\n. . .\n. . .", "two wall lines", 3, None),
    (". . r\n. . .", "2 rows; a board has 3 to 32", 1, None),
    (". .:r\n. . .\n. . .", "a diagram starts with its grid", 1, None),
    (". . r\n. . .\n. . .\n\n. . .", "after the grid every line must be 'key: value'", 5, None),
    (". . r\n. / .\n. . .", "the diagonal at 1,1 needs a colour", 2, 3),
    (". . r\n. / .\n. . .\ndiagonal: 1,1 pink", "colour 'pink'", 4, None),
    (". . r\n. / .\n. . .\ndiagonal: 1,1 red \\", "drawn '/' but declared", 4, None),
    (". . r\n. . .\n. . .\ncolour: red", "unknown legend key 'colour'", 4, None),
    (". . r\n. . G\n. . .\nactive: b", "no blue robot", 4, None),
    (". . r\n. . G\n. . .\nactive: g\nactive: r", "given twice", 5, None),
    (". . g\n. . G\n. . .", "which robot must reach the goal", 2, None),
    (". . r\n. . G\n. . .\ntarget: 0,0", "the grid shows the goal at 2,1", 4, None),
    (". . r\n. . .\n. . .\ntarget: 9,0", "off the 3×3 grid", 4, None),
    (". . r\n. . .\n. . .\noptimal: 3", "only for a puzzle", 4, None),
    (". . r\n. . .\n. . .\nopening: 1,1 N", "opening: side N of 1,1 is not on the border", 4, None),
    (". . r\n. . #\n. . .\nchip: 2,1 red circle", "on a blocked cell", None, None),
    (". . .\n. . .\n. . .", "no robots", None, None),
    (". . r\n. . G\n. . .\nrobots: r g", "must list each robot on the grid once", 4, None),
])
def test_malformed_diagrams(text: str, match: str | None, line: int | None, column: int | None) -> None:
    with pytest.raises(NotationError, match=match) as e:
        parse_ascii(text)
    assert (e.value.line, e.value.column) == (line, column), str(e.value)


def test_columns_count_the_indentation() -> None:
    with pytest.raises(NotationError) as e:
        parse_ascii("    . . r\n    . . X\n    . . .")
    assert (e.value.line, e.value.column) == (2, 9)
