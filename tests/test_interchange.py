"""The JSON interchange format of shared/data/README.md."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest
from hypothesis import given, settings

from ricochet import Board, Direction, Move, Position, Puzzle, Robot, check_solution, datasets
from ricochet.notation import (
    NotationError,
    board_from_json,
    board_to_json,
    dumps_puzzle,
    puzzle_from_json,
    puzzle_to_json,
    read_jsonl,
    solution_from_json,
    solution_to_json,
)
from ricochet.rules import GAME, PLAIN
from test_notation_code import boards, puzzles

ASP = datasets.path("asp2015")


def asp_lines() -> list[str]:
    return ASP.read_text().splitlines()


def test_every_asp2015_line_round_trips() -> None:
    lines = asp_lines()
    assert len(lines) == 239
    for n, result in read_jsonl(lines):
        assert isinstance(result, Puzzle), result
        obj = json.loads(lines[n - 1])
        assert puzzle_to_json(result) == obj
        assert dumps_puzzle(result) == lines[n - 1]  # same key order and spacing, byte for byte
        # The centre is walled only: no blocked cells invented.
        assert not result.position.board.blocked


def small() -> dict[str, Any]:
    """A 3×3 puzzle; walls: border only."""
    return {"id": "s", "width": 3, "height": 3, "walls": [9, 1, 3, 8, 0, 2, 12, 4, 6],
            "robots": [[0, 0], [2, 2]], "active": 0, "target": [1, 1]}


def test_optional_keys_read_and_written() -> None:
    obj = small()
    obj.update(colors=["green", "transparent"], any_robot=True,
               blocked=[[1, 0]], towers=[[2, 0]],
               diagonals=[{"x": 0, "y": 2, "color": "red", "orientation": "\\"}],
               openings=[{"x": 0, "y": 1, "side": "W"}],
               targets=[{"x": 1, "y": 2, "color": "any", "symbol": "vortex"}],
               rules={"must_ricochet": True})
    p = puzzle_from_json(obj)
    b = p.position.board
    assert [r.color for r in p.position.robots] == ["green", "transparent"]
    assert p.active is None and p.rules == PLAIN.with_options(must_ricochet=True)
    assert b.blocked == {(1, 0)} and b.towers == {(2, 0)} and b.is_opening((0, 1), Direction.W)
    assert b.diagonal_at((0, 2)).orientation == "\\" and b.target_at((1, 2)).symbol == "vortex"
    assert puzzle_to_json(p) == obj
    assert puzzle_from_json(puzzle_to_json(p)) == p


def test_rules_override_only_the_file_switches() -> None:
    obj = small() | {"rules": {"no_straight_back": False}}
    assert puzzle_from_json(obj, base_rules=GAME).rules == GAME.with_options(no_straight_back=False)
    assert puzzle_from_json(small(), base_rules=GAME).rules == GAME
    # Written only when on; switches the format cannot hold are left out.
    assert "rules" not in puzzle_to_json(puzzle_from_json(small()))
    assert puzzle_to_json(puzzle_from_json(small()), rules=GAME)["rules"] == {"must_ricochet": True,
                                                                             "no_straight_back": True}


def test_defaults_are_not_written() -> None:
    out = puzzle_to_json(puzzle_from_json(small()))
    assert set(out) == {"id", "width", "height", "walls", "robots", "active", "target"}


@settings(max_examples=150, deadline=None)
@given(puzzles(extras=True))
def test_random_puzzles_round_trip(p: Puzzle) -> None:
    # The format holds the position without its no-straight-back state and only two rule switches.
    p = Puzzle(Position(p.position.board, p.position.robots), p.target, p.active,
               PLAIN.with_options(must_ricochet=p.rules.must_ricochet, no_straight_back=p.rules.no_straight_back),
               p.optimal, p.id)
    line = dumps_puzzle(p)
    assert "\n" not in line
    [(_, back)] = list(read_jsonl([line]))
    assert back == p


@settings(max_examples=100, deadline=None)
@given(boards())
def test_board_round_trips(board: Board) -> None:
    assert board_from_json(json.loads(json.dumps(board_to_json(board)))) == board


def test_board_to_json_keys() -> None:
    b = Board.build(3, 3, blocked=[(1, 1)])
    assert board_to_json(b) == {"width": 3, "height": 3, "walls": list(b.walls), "blocked": [[1, 1]]}


def test_solution_encoding() -> None:
    pos = Position(Board.build(4, 4, walls=[(1, 0, "E")]), (Robot("red", (0, 0)), Robot("transparent", (0, 3))))
    moves = [Move(0, Direction.E), Move(1, Direction.N, (0, 1))]
    data = solution_to_json(moves)
    assert data == [[0, "E"], [1, "N", [0, 1]]]
    assert solution_from_json(json.loads(json.dumps(data)), pos) == moves
    p = Puzzle(pos, (1, 0))
    assert puzzle_to_json(p, solution=moves)["solution"] == data
    assert check_solution(p, solution_from_json(data[:1], pos)).ok


@pytest.mark.parametrize("data, match", [
    ("RN", "field 'solution': must be a list"),
    ([[0]], "field 'solution\\[0\\]': must be \\[robot_index"),
    ([[2, "N"]], "field 'solution\\[0\\]\\[0\\]': must be from 0 to 1"),
    ([[0, "X"]], "field 'solution\\[0\\]\\[1\\]': must be one of N, E, S, W"),
    ([[1, "N", [9, 0]]], "field 'solution\\[0\\]\\[2\\]': cell 9,0 is off"),
])
def test_bad_solutions(data: Any, match: str) -> None:
    pos = Position(Board.build(4, 4), (Robot("red", (0, 0)), Robot("transparent", (0, 3))))
    with pytest.raises(NotationError, match=match):
        solution_from_json(data, pos)


def with_(changes: dict[str, Any], drop: tuple[str, ...] = ()) -> dict[str, Any]:
    obj = copy.deepcopy(small())
    obj.update(changes)
    for k in drop:
        del obj[k]
    return obj


BAD = [
    (with_({}, drop=("walls",)), "walls", "missing"),
    (with_({"width": "3"}), "width", "must be an integer"),
    (with_({"height": 99}), "height", "from 3 to 32"),
    (with_({"walls": [9, 1, 3]}), "walls", "must hold width\\*height = 9 masks, got 3"),
    (with_({"walls": [9, 1, 3, 8, 0, 2, 12, 4, 16]}), "walls[8]", "from 0 to 15"),
    (with_({"walls": [9, 1, 3, 8, 0, 2, 12, 4, True]}), "walls[8]", "must be an integer"),
    (with_({"walls": [9, 3, 3, 8, 0, 2, 12, 4, 6]}), "walls", "not also set"),
    (with_({"walls": [9, 1, 3, 8, 0, 2, 12, 4, 2]}), "walls", "lacks its S border"),
    (with_({}, drop=("robots",)), "robots", "missing"),
    (with_({"robots": [[0, 0], [2, "2"]]}), "robots[1]", "integers x and y"),
    (with_({"robots": [[0, 0], [3, 0]]}), "robots[1]", "off the 3×3 board"),
    (with_({"robots": [[0, 0], [0, 0]]}), "robots[1]", "both on 0,0"),
    (with_({"robots": []}), "robots", "1 to 6 robots"),
    (with_({"robots": [[0, 0], [1, 1]], "blocked": [[1, 1]]}), "robots[1]", "blocked"),
    (with_({"colors": ["red"]}), "colors", "one colour per robot"),
    (with_({"colors": ["red", "pink"]}), "colors[1]", "must be one of red, green"),
    (with_({"colors": ["red", "red"]}), "robots[1]", "two red robots"),
    (with_({"active": 2}), "active", "from 0 to 1"),
    (with_({}, drop=("active",)), "active", "missing"),
    (with_({"colors": ["silver", "red"]}), "active", "cosmic vortex"),
    (with_({"target": [1]}), "target", "must be \\[x, y\\]"),
    (with_({"target": [1, 5]}), "target", "off the 3×3 board"),
    (with_({"target": [1, 1], "blocked": [[1, 1]]}), "target", "blocked"),
    (with_({"optimal": -1}), "optimal", "at least 0"),
    (with_({"id": 5}), "id", "must be a string"),
    (with_({"any_robot": 1}), "any_robot", "true or false"),
    (with_({"blocked": [[5, 5]]}), "blocked[0]", "off the 3×3"),
    (with_({"towers": "1,1"}), "towers", "must be a list"),
    (with_({"diagonals": [{"x": 1, "y": 1, "color": "red"}]}), "diagonals[0]", "missing key 'orientation'"),
    (with_({"diagonals": [{"x": 1, "y": 1, "color": "pink", "orientation": "/"}]}), "diagonals[0].color",
     "one of red, green, blue, yellow"),
    (with_({"diagonals": [{"x": 1, "y": 1, "color": "red", "orientation": "|"}]}), "diagonals[0].orientation",
     "one of /"),
    (with_({"openings": [{"x": 1, "y": 1, "side": "W"}]}), "openings", "not on the outer wall"),
    (with_({"openings": [{"x": 0, "y": 1, "side": "up"}]}), "openings[0].side", "one of N, E, S, W"),
    (with_({"targets": [{"x": 0, "y": 1, "color": "red", "symbol": "star"}]}), "targets[0].symbol", "circle"),
    (with_({"rules": {"silver": True}}), "rules", "a file may set must_ricochet, no_straight_back"),
    (with_({"rules": {"must_ricochet": "yes"}}), "rules.must_ricochet", "true or false"),
    (with_({"rules": []}), "rules", "must be an object"),
]


@pytest.mark.parametrize("obj, field, match", BAD, ids=[f"{f}-{m[:20]}" for _, f, m in BAD])
def test_malformed_fields(obj: dict[str, Any], field: str, match: str) -> None:
    with pytest.raises(NotationError, match=match) as e:
        puzzle_from_json(obj)
    assert e.value.field == field
    assert f"field '{field}'" in str(e.value)


def test_a_board_read_before_is_remembered_but_never_taken_for_a_variant_of_it() -> None:
    """Boards are remembered by their keys' JSON: the same board read again is the same
    object, unchecked, but every malformed variant of it is still refused, those equal to it
    in Python included (``1.0`` or ``true`` for ``1``, ``null`` for an absent key)."""
    good = small()
    board = puzzle_from_json(good).position.board
    assert puzzle_from_json(copy.deepcopy(good)).position.board is board
    for obj, field, match in BAD:
        with pytest.raises(NotationError, match=match) as e:
            puzzle_from_json(obj)
        assert e.value.field == field
    walls = good["walls"]
    one = walls.index(1)
    for variant, field in [({"walls": [float(walls[0]), *walls[1:]]}, "walls[0]"),
                           ({"walls": [*walls[:one], True, *walls[one + 1:]]}, f"walls[{one}]"),
                           ({"blocked": None}, "blocked"), ({"targets": None}, "targets")]:
        with pytest.raises(NotationError) as e:
            board_from_json(with_(variant))
        assert e.value.field == field, variant
    assert board_from_json(with_({})) is board


def test_not_an_object() -> None:
    with pytest.raises(NotationError, match="must be a JSON object"):
        puzzle_from_json([1, 2])  # type: ignore[arg-type]


def test_read_jsonl_goes_on_after_errors() -> None:
    good = json.dumps(small())
    bad_robot = json.dumps(with_({"robots": [[0, 0], [1, 1], ["a", 0]]}))
    lines = [good, "", "   ", "{not json", bad_robot, good]
    results = list(read_jsonl(lines))
    assert [n for n, _ in results] == [1, 4, 5, 6]
    assert isinstance(results[0][1], Puzzle) and isinstance(results[3][1], Puzzle)
    err = results[1][1]
    assert isinstance(err, NotationError) and err.line == 4 and str(err).startswith("line 4, column 2: not valid JSON")
    assert str(results[2][1]).startswith("line 5: field 'robots[2]': must be [x, y] with integers x and y")


def test_a_bad_line_keeps_its_puzzle_id() -> None:
    """The error of a line that names its puzzle carries the id (``ricochet solve``
    echoes it), also once pickled back from a reading process; a line without a
    string id, or not JSON at all, gives none."""
    import pickle

    bad = with_({"id": "p7", "robots": [[0, 0], [99, 0]]})
    lines = [json.dumps(bad), json.dumps({**bad, "id": 7}), "{not json"]
    errors = [item for _, item in read_jsonl(lines)]
    assert all(isinstance(e, NotationError) for e in errors)
    assert [e.puzzle_id for e in errors] == ["p7", None, None]  # type: ignore[union-attr]
    back = pickle.loads(pickle.dumps(errors[0]))
    assert (back.puzzle_id, back.line, str(back)) == ("p7", 1, str(errors[0]))
