"""SVG pictures: valid XML, deterministic, the right elements in the right places."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest

from ricochet import Board, Diagonal, Direction, Move, Position, Puzzle, Robot, Target
from ricochet.svg import CELL, svg

NS = "{http://www.w3.org/2000/svg}"


def classes(el: ET.Element) -> list[str]:
    return el.get("class", "").split()


def find_class(root: ET.Element, name: str) -> list[ET.Element]:
    return [el for el in root.iter() if name in classes(el)]


@pytest.fixture
def puzzle() -> Puzzle:
    board = Board.build(
        8, 8, walls=[(1, 1, "E"), (2, 2, "S")], blocked=[(3, 3), (4, 3), (3, 4), (4, 4)],
        targets=[Target((1, 1), "red", "circle"), Target((6, 1), "green", "triangle"),
                 Target((1, 6), "blue", "square"), Target((6, 6), "yellow", "hexagon"),
                 Target((2, 5), "any", "vortex")],
        diagonals=[Diagonal((5, 2), "red", "/"), Diagonal((2, 6), "blue", "\\")],
        openings=[((0, 5), "W")], towers=[(6, 4)])
    robots = (Robot("red", (0, 0)), Robot("green", (7, 7)), Robot("silver", (7, 0)), Robot("transparent", (0, 7)))
    return Puzzle(Position(board, robots), (1, 1), 0, id="demo <&> \"1\"")


def test_valid_xml_and_deterministic(puzzle: Puzzle) -> None:
    text = svg(puzzle)
    root = ET.fromstring(text)
    assert root.tag == NS + "svg"
    assert root.get("width") == "512"
    assert svg(puzzle) == text
    # The id is escaped, not injected.
    assert root.find(NS + "title").text == 'demo <&> "1"'


def test_board_position_and_puzzle_all_render(puzzle: Puzzle) -> None:
    for obj in (puzzle.position.board, puzzle.position, puzzle):
        ET.fromstring(svg(obj, size=200, coordinates=True))
    with pytest.raises(TypeError):
        svg("not a board")  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        svg(puzzle, size=0)


def test_robots_are_classed_discs_with_letters(puzzle: Puzzle) -> None:
    root = ET.fromstring(svg(puzzle))
    robots = find_class(root, "robot")
    assert [r.get("id") for r in robots] == ["robot-red", "robot-green", "robot-silver", "robot-transparent"]
    red = robots[0]
    assert "robot-red" in classes(red) and red.get("data-cell") == "0,0"
    circle = red.find(NS + "circle")
    assert (float(circle.get("cx")), float(circle.get("cy"))) == (CELL / 2, CELL / 2)
    assert red.find(NS + "text").text == "R"
    silver_fill = robots[2].find(NS + "circle").get("fill")
    assert silver_fill not in ("none", robots[0].find(NS + "circle").get("fill"))
    transparent = robots[3].find(NS + "circle")
    assert transparent.get("stroke-dasharray")  # drawn as an outline


def test_walls_interior_and_border(puzzle: Puzzle) -> None:
    board = puzzle.position.board
    root = ET.fromstring(svg(board))
    interior = [el for el in find_class(root, "wall") if "border" not in classes(el)]
    border = find_class(root, "border")
    assert len(interior) == len(board.wall_segments())
    # Every border side of every edge cell, except the one opening.
    assert len(border) == 2 * (board.width + board.height) - 1
    # The wall east of (1,1) is a vertical line at x = 2 cells, from y = 1 to 2 cells.
    coords = {(float(el.get("x1")), float(el.get("y1")), float(el.get("x2")), float(el.get("y2"))) for el in interior}
    assert (2 * CELL, 1 * CELL, 2 * CELL, 2 * CELL) in coords
    assert (2 * CELL, 3 * CELL, 3 * CELL, 3 * CELL) in coords  # south of (2,2)
    openings = find_class(root, "opening")
    assert [(o.get("data-cell"), o.get("data-side")) for o in openings] == [("0,5", "W")]


def test_diagonal_orientation(puzzle: Puzzle) -> None:
    root = ET.fromstring(svg(puzzle.position.board))
    diagonals = {el.get("data-cell"): el for el in find_class(root, "diagonal")}
    slash, backslash = diagonals["5,2"], diagonals["2,6"]
    assert "diagonal-red" in classes(slash) and "diagonal-blue" in classes(backslash)

    def ends(el: ET.Element) -> set[tuple[float, float]]:
        return {(float(el.get("x1")) / CELL, float(el.get("y1")) / CELL),
                (float(el.get("x2")) / CELL, float(el.get("y2")) / CELL)}

    # "/" joins the south-west corner (5, 3) and the north-east corner (6, 2) of cell (5, 2), y down.
    assert ends(slash) == {(5, 3), (6, 2)}
    # "\" joins the north-west corner (2, 6) and the south-east corner (3, 7) of cell (2, 6).
    assert ends(backslash) == {(2, 6), (3, 7)}


def test_targets_symbols_and_chip(puzzle: Puzzle) -> None:
    root = ET.fromstring(svg(puzzle))
    targets = {el.get("data-cell"): el for el in find_class(root, "target")}
    assert len(targets) == 5
    assert targets["1,1"].find(NS + "circle") is not None
    assert "target-red" in classes(targets["1,1"])
    assert targets["6,1"].find(NS + "polygon").get("points").count(",") == 3  # triangle
    assert targets["1,6"].find(NS + "rect") is not None  # square
    assert targets["6,6"].find(NS + "polygon").get("points").count(",") == 6  # hexagon
    vortex = targets["2,5"]
    fills = {p.get("fill") for p in vortex.findall(NS + "path")}
    assert len(fills - {"none"}) == 4  # four colours
    # The chip on the centre block is the puzzle's target: a red circle.
    (chip,) = find_class(root, "chip")
    assert "chip-red" in classes(chip) and "chip-circle" in classes(chip)
    (goal,) = find_class(root, "goal")
    assert goal.get("data-cell") == "1,1" and "goal-red" in classes(goal)
    assert len(find_class(root, "blocked")) == 4
    assert len(find_class(root, "tower")) == 1
    # An explicit chip replaces the default one; a board alone has none.
    root = ET.fromstring(svg(puzzle, chip=("any", "vortex")))
    assert "chip-vortex" in classes(find_class(root, "chip")[0])
    assert find_class(ET.fromstring(svg(puzzle.position.board)), "chip") == []


def test_move_paths(puzzle: Puzzle) -> None:
    _, paths = puzzle.position.replay([Move(0, Direction.S), Move(0, Direction.E)])
    root = ET.fromstring(svg(puzzle, path=paths))
    drawn = find_class(root, "path")
    assert [el.get("data-move") for el in drawn] == ["1", "2"]
    assert all("path-red" in classes(el) for el in drawn)
    first = drawn[0].find(NS + "polyline").get("points").split()
    assert first[0] == f"{CELL // 2},{CELL // 2}"
    assert first[-1] == f"{CELL // 2},{6 * CELL + CELL // 2}"
    # The second move bounces off the blue diagonal at (2, 6) and goes south.
    second = drawn[1].find(NS + "polyline").get("points").split()
    assert second[-1] == f"{2 * CELL + CELL // 2},{7 * CELL + CELL // 2}"
    assert drawn[1].find(NS + "polyline").get("marker-end") == "url(#ricochet-arrow-red)"
    # A single Path works too.
    assert len(find_class(ET.fromstring(svg(puzzle, path=paths[0])), "path")) == 1


def test_wrap_through_opening_breaks_the_line() -> None:
    board = Board.build(4, 4, openings=[((0, 1), "W")])
    pos = Position(board, (Robot("red", (1, 1)), Robot("green", (2, 1))))
    _, path = pos.play(Move(0, Direction.W))
    root = ET.fromstring(svg(pos, path=path))
    (group,) = find_class(root, "path")
    assert len(group.findall(NS + "polyline")) == 2


def test_coordinates_labels() -> None:
    root = ET.fromstring(svg(Board.build(4, 3), coordinates=True))
    labels = [el.text for el in find_class(root, "coord")]
    assert labels.count("a") == 2 and labels.count("d") == 2 and labels.count("3") == 2
    assert "e" not in labels
