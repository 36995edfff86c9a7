"""Ricochet Pyramids on the command line: seed 003's worked example through
``show``, ``solve`` and ``check`` (as a diagram, a position code and an
interchange line), the rules a board with towers gets, ``random --game
pyramids`` and its errors."""

from __future__ import annotations

import io
import json
import random
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from ricochet import Position, Puzzle, Rules, check_solution
from ricochet.cli import shared as cli
from ricochet.games.pyramids.deal import deal
from ricochet.games.pyramids.game import PYRAMIDS
from ricochet.games.pyramids.setup import COLORS, LAYOUTS
from ricochet.games.table import Join, Start
from ricochet.notation import (
    parse_ascii,
    parse_code,
    parse_solution,
    puzzle_from_json,
    puzzle_to_json,
    solution_from_json,
)
from ricochet.rules import GAME, PLAIN
from test_ascii import seed_figures
from test_cli import assert_input_error, run

SVG = "{http://www.w3.org/2000/svg}"
SEED_SOLUTION = "y N, r N, y E, y S, r E"
"""Seed 003: "One 5-move solution is to move y north, r north, y east, y south, r east"."""


@pytest.fixture(autouse=True)
def no_color_env(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("NO_COLOR", raising=False)


@pytest.fixture
def example(tmp_path: Path) -> Path:
    """Seed 003's worked example, the diagram as printed (T towers, G the goal, r g y robots)."""
    start, _ = seed_figures()
    path = tmp_path / "example.txt"
    path.write_text(start + "\n", encoding="utf-8")
    return path


def towers_of(svg_text: str) -> dict[str, ET.Element]:
    root = ET.fromstring(svg_text)
    return {g.get("data-cell"): g for g in root.iter(SVG + "g") if "tower" in (g.get("class") or "").split()}


def the_puzzle(path: Path) -> Puzzle:
    p = parse_ascii(path.read_text(encoding="utf-8"))
    assert isinstance(p, Puzzle)
    return p


# -- the seed's worked example -------------------------------------------------------------------
def test_show_draws_the_towers_and_the_goal_tower(capsys: pytest.CaptureFixture[str], example: Path) -> None:
    status, out, err = run(capsys, "show", str(example), "--no-color")
    assert status == 0 and err == ""
    lines = out.rstrip().splitlines()
    assert lines[-1] == "goal tower: g3 · active robot: red R"
    assert out.count("Π") == 8 and "[Π]" in lines[6]  # row 3: the goal tower, bracketed
    assert " Y " in lines[8] and " G " in lines[8] and " R " in lines[14]

    status, out, _ = run(capsys, "show", str(example), "--svg")
    towers = towers_of(out)
    assert status == 0 and len(towers) == 8
    assert [c for c, g in towers.items() if "tower-goal" in g.get("class", "")] == ["6,2"]
    assert all(len(g.findall(SVG + "path")) == 4 for g in towers.values())  # a pyramid's four faces


def test_show_plays_the_seed_solution(capsys: pytest.CaptureFixture[str], example: Path) -> None:
    status, out, _ = run(capsys, "show", str(example), "--no-color", "--solution", SEED_SOLUTION)
    assert status == 0
    assert out.rstrip().splitlines()[-1] == "after YN RN YE YS RE (5 moves): solved"
    assert "[R]" in out  # the red robot sits on the goal tower


def test_solve_a_diagram_prints_the_five_move_optimum(capsys: pytest.CaptureFixture[str], example: Path) -> None:
    status, out, err = run(capsys, "solve", str(example))
    assert status == 0 and err == ""
    [obj] = [json.loads(line) for line in out.splitlines()]
    assert obj["moves"] == 5
    puzzle = the_puzzle(example)
    moves = solution_from_json(obj["solution"], puzzle.position)
    # Replayed with the engine under Ricochet Pyramids' rules: the goal tower is passed through.
    verdict = check_solution(puzzle, moves, PLAIN)
    assert verdict.ok and verdict.cost == 5
    assert verdict.position.robots[puzzle.active].cell == (6, 2) == puzzle.target

    status, out, _ = run(capsys, "solve", str(example), "--format", "text", "--all")
    lines = out.splitlines()
    assert status == 0 and lines[0].startswith("5 moves: ")
    assert "  or: YN RN YE YS RE" in lines or lines[0] == "5 moves: YN RN YE YS RE"  # the seed's own is optimal


def test_solve_reads_a_diagram_on_stdin(capsys: pytest.CaptureFixture[str], example: Path,
                                        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO("\n" + example.read_text(encoding="utf-8")))
    status, out, _ = run(capsys, "solve", "-")
    assert status == 0 and json.loads(out)["moves"] == 5


def test_check_accepts_the_seed_solution(capsys: pytest.CaptureFixture[str], example: Path) -> None:
    assert run(capsys, "check", str(example), SEED_SOLUTION) == (0, "ok: 5 moves\n", "")
    # A bid of 4 is not met; stopping one move short leaves red beside the goal.
    status, out, _ = run(capsys, "check", str(example), SEED_SOLUTION, "--max-moves", "4")
    assert status == 1 and out.startswith("invalid: the solution takes 5 moves")
    status, out, _ = run(capsys, "check", str(example), "y N, r N, y E, r E")
    assert status == 1 and "not on the target 6,2" in out


def test_code_and_interchange_line_work_the_same(capsys: pytest.CaptureFixture[str], example: Path,
                                                 tmp_path: Path) -> None:
    _, code, _ = run(capsys, "show", str(example), "--format", "code")
    _, line, _ = run(capsys, "show", str(example), "--format", "json")
    code, line = code.strip(), line.strip()
    assert "towers" in json.loads(line)
    puzzle = the_puzzle(example)
    assert parse_code(code) == puzzle and puzzle_from_json(json.loads(line)) == puzzle
    jsonl = tmp_path / "example.jsonl"
    jsonl.write_text(line + "\n" + line + "\n", encoding="utf-8")
    for source in (code, str(jsonl)):
        assert run(capsys, "check", source, SEED_SOLUTION)[:2] == (0, "ok: 5 moves\n")
        status, out, _ = run(capsys, "solve", source, "-j", "1")
        assert status == 0 and [json.loads(o)["moves"] for o in out.splitlines()] in ([5], [5, 5])
        status, out, _ = run(capsys, "show", source, "--no-color")
        assert status == 0 and "goal tower: g3" in out


# -- which rules --------------------------------------------------------------------------------
def test_a_board_with_towers_is_played_by_plain_rules_unless_told(example: Path, tmp_path: Path) -> None:
    puzzle = the_puzzle(example)
    assert PLAIN.goal_tower_passthrough  # plain play on a board with towers is Ricochet Pyramids' rule
    assert cli.load(str(example)).rules == PLAIN
    assert cli.load(str(example), rules=GAME).rules == GAME  # --rules wins
    # A puzzle's own rules key adds to them.
    obj = {**puzzle_to_json(puzzle), "rules": {"must_ricochet": True}}
    path = tmp_path / "one.json"
    path.write_text(json.dumps(obj), encoding="utf-8")
    assert cli.load(str(path)).rules == PLAIN.with_options(must_ricochet=True)
    # A board without towers stays plain.
    plain = {**obj, "towers": []}
    path.write_text(json.dumps(plain), encoding="utf-8")
    assert cli.load(str(path)).rules == PLAIN.with_options(must_ricochet=True)


def test_explicit_rules_reach_the_solver(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    # Red slides east across the row onto the goal tower at the edge: one move, straight.
    path = tmp_path / "straight.txt"
    path.write_text("r . . G\n. . . .\n. . . .\n. . . .\n", encoding="utf-8")
    assert run(capsys, "check", str(path), "r E")[:2] == (0, "ok: 1 move\n")
    assert json.loads(run(capsys, "solve", str(path))[1])["moves"] == 1
    # Under --rules game red must ricochet on its way: refused, and the optimum is longer.
    status, out, _ = run(capsys, "check", str(path), "r E", "--rules", "game")
    assert status == 1 and "without a ricochet" in out
    status, out, _ = run(capsys, "solve", str(path), "--rules", "game")
    obj = json.loads(out)
    assert status == 0 and obj["moves"] == 3  # south, east, north onto the goal
    puzzle = the_puzzle(path)
    assert check_solution(puzzle, solution_from_json(obj["solution"], puzzle.position), GAME).ok


# -- random --game pyramids ------------------------------------------------------------------------
def test_random_pyramids_round_trips_through_solve(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    status, out, err = run(capsys, "random", "--game", "pyramids", "--seed", "7", "--count", "4", "--format", "json")
    assert status == 0 and err == ""
    lines = out.splitlines()
    assert len(lines) == 4 and len(set(lines)) == 4
    for line in lines:
        p = puzzle_from_json(json.loads(line))
        board = p.position.board
        assert (board.width, board.height, len(board.towers)) == (8, 8, 9)
        assert [r.color for r in p.position.robots] == list(COLORS[:3])
        assert not set(p.position.cells) & board.towers  # robots on empty squares
        assert p.target in board.towers and p.optimal is not None and p.optimal >= 3  # the game's minimum
        assert p.id is not None and p.id.startswith("pyramids-random-3c-3m-")
    path = tmp_path / "random.jsonl"
    path.write_text(out, encoding="utf-8")
    status, out, _ = run(capsys, "solve", str(path), "--check", "-j", "1")
    answers = [json.loads(x) for x in out.splitlines()]
    assert status == 0 and all(a["optimal_ok"] for a in answers)
    for line, a in zip(lines, answers, strict=True):
        p = puzzle_from_json(json.loads(line))
        assert check_solution(p, solution_from_json(a["solution"], p.position), PLAIN).ok
    # The same seed, the same puzzles; the code and the JSON line are the same puzzle.
    assert run(capsys, "random", "--game", "pyramids", "--seed", "7", "--count", "4", "--format", "json")[1] \
        == "\n".join(lines) + "\n"
    _, code, _ = run(capsys, "random", "--game", "pyramids", "--seed", "7")
    first = puzzle_from_json(json.loads(lines[0]))
    assert parse_code(code.strip()).position == first.position


def test_random_pyramids_is_the_games_own_deal() -> None:
    dealt = deal(random.Random(11), layout="easy", min_moves=5)
    p = dealt.puzzle
    assert sorted(p.position.board.towers) == sorted(LAYOUTS["easy"])
    assert sorted((t.top, t.bottom) for t in dealt.towers) == sorted((a, b) for a in COLORS[:3] for b in COLORS[:3])
    # The goal: the small pyramid names the robot, the medium on the large the tower.
    tower = next(t for t in dealt.towers if t.cell == p.target)
    assert (tower.top, tower.bottom) == (dealt.goal.top, dealt.goal.bottom)
    assert p.position.robots[p.active].color == dealt.goal.robot
    assert p.optimal is not None and p.optimal >= 5 and p.rules == PLAIN
    # A game seeded as the id says deals the same first round (robots, goal) through the server's path.
    n = int(p.id.rsplit("-", 1)[1])
    options = PYRAMIDS.normalize_options({"layout": "easy", "min_moves": 5, "min_players": 1})
    state = PYRAMIDS.new(PYRAMIDS.config(options, n))
    for action in (Join("a", "A"), Start("a")):
        state, _ = PYRAMIDS.apply(state, action, 0.0)
    assert state.towers == dealt.towers and state.round.start.robots == p.position.robots


def test_random_pyramids_options(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "random", "--game", "pyramids", "--seed", "3", "--colors", "4", "--format", "json",
                         "--min-moves", "6", "--count", "3")
    assert status == 0
    for line in out.splitlines():
        p = puzzle_from_json(json.loads(line))
        assert len(p.position.board.towers) == 16 and len(p.position.robots) == 4
        assert p.optimal is not None and p.optimal >= 6
    status, out, _ = run(capsys, "random", "--game", "pyramids", "--seed", "3", "--layout", "hard", "--format",
                         "ascii")
    p = parse_ascii(out)
    assert isinstance(p, Puzzle) and sorted(p.position.board.towers) == sorted(LAYOUTS["hard"])


def test_random_pyramids_text_and_svg_show_the_colours(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "random", "--game", "pyramids", "--seed", "5", "--format", "text", "--no-color")
    lines = out.rstrip().splitlines()
    assert status == 0 and lines[-3].startswith("goal tower: ")
    assert lines[-2].startswith("goal: the ") and " robot onto the " in lines[-2]
    assert lines[-1].startswith("towers: ") and lines[-1].count(" on ") == 9
    status, out, _ = run(capsys, "random", "--game", "pyramids", "--seed", "5", "--format", "text", "--color")
    assert "\x1b[41m" in out or "\x1b[42m" in out or "\x1b[43m" in out  # a tower on its bottom colour
    status, out, _ = run(capsys, "random", "--game", "pyramids", "--seed", "5", "--format", "svg")
    towers = towers_of(out)
    assert status == 0 and len(towers) == 9
    pairs = sorted((g.get("data-top"), g.get("data-bottom")) for g in towers.values())
    assert pairs == sorted((a, b) for a in COLORS[:3] for b in COLORS[:3])
    assert all(len(g.findall(SVG + "path")) == 8 for g in towers.values())  # a medium pyramid on a large one


@pytest.mark.parametrize("argv, says", [
    (["random", "--game", "chess"], "invalid choice: 'chess'"),
    (["random", "--game", "pyramids", "--layout", "easy", "--colors", "4"], "--layout easy has 9 towers"),
    (["random", "--game", "pyramids", "--colors", "5"], "invalid choice: 5"),
    (["random", "--game", "pyramids", "--min-moves", "9"], "--min-moves must be a whole number from 1 to 8"),
    (["random", "--game", "pyramids", "--min-moves", "0"], "--min-moves must be"),
    (["random", "--game", "pyramids", "--layout", "spiral"], "invalid choice: 'spiral'"),
    (["random", "--game", "pyramids", "--faces", "CD"], "--faces"),
    (["random", "--game", "pyramids", "--rules", "game"], "own rules"),
    (["random", "--layout", "hard"], "add --game pyramids"),
    (["random", "--min-moves", "4"], "add --game pyramids"),
    (["random", "--game", "pyramids", "--count", "2", "--format", "svg"], "--count 1"),
])
def test_random_errors(capsys: pytest.CaptureFixture[str], argv: list[str], says: str) -> None:
    assert_input_error(capsys, *argv, says=says)


def test_solve_errors(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    no_goal = tmp_path / "no-goal.txt"
    no_goal.write_text(". . T\nr . .\n. T .\n", encoding="utf-8")
    assert_input_error(capsys, "solve", str(no_goal), says="solve needs a puzzle")
    bad = tmp_path / "bad.txt"
    bad.write_text(". . T\nr . Q\n. G .\n", encoding="utf-8")
    assert_input_error(capsys, "solve", str(bad), says="bad ASCII diagram")
    assert_input_error(capsys, "solve", "nonsense", says="no such file, and not a position code")


def test_a_robot_on_a_tower_is_named(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    # After a won round a robot sits on its tower (seed 003), which the board drawing hides.
    path = tmp_path / "on.txt"
    path.write_text(". . . .\n. r . .\n. . G .\n. . . g\ntower: 1,1\n", encoding="utf-8")
    status, out, _ = run(capsys, "show", str(path), "--no-color")
    assert status == 0 and out.rstrip().endswith("on a tower: R b2")
    p = the_puzzle(path)
    # Red moves off its tower south, then back north: the tower now blocks it (seed 003).
    moves = parse_solution("r S, r N", p.position)
    assert isinstance(p.position, Position)
    verdict = check_solution(p, moves)
    assert verdict.position.robots[0].cell == (1, 2) and Rules() == p.rules
