"""The command line, through ``main([...])`` (and twice through the real entry point)."""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from ricochet import Board, Position, Puzzle, Robot, cli, datasets
from ricochet.cli import main
from ricochet.cli import shared as cli_io
from ricochet.notation import dumps_puzzle, parse_code, puzzle_code

ASP = datasets.path("asp2015")
CENTRE = {(7, 7), (8, 7), (7, 8), (8, 8)}


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def assert_input_error(capsys: pytest.CaptureFixture[str], *argv: str, says: str) -> str:
    """Exit 2, nothing on stdout, and one line on stderr naming the problem."""
    status, out, err = run(capsys, *argv)
    assert status == 2, (out, err)
    assert out == ""
    assert err.count("\n") == 1 and err.startswith("ricochet: error: "), err
    assert "Traceback" not in err
    assert says.lower() in err.lower(), err
    return err


@pytest.fixture
def tiny() -> Puzzle:
    """5×5, red in the NW corner, green in the SE corner, target in the NE corner."""
    board = Board.build(5, 5, walls=[(2, 2, "E")])
    return Puzzle(Position(board, (Robot("red", (0, 0)), Robot("green", (4, 4)))), (4, 0), 0, id="tiny")


@pytest.fixture(autouse=True)
def no_color_env(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("NO_COLOR", raising=False)


# -- show ----------------------------------------------------------------------------------------
def test_show_code_plain(capsys: pytest.CaptureFixture[str], tiny: Puzzle) -> None:
    status, out, err = run(capsys, "show", puzzle_code(tiny), "--no-color")
    assert status == 0 and err == ""
    assert "\x1b[" not in out
    assert " R " in out and " G " in out
    assert out.rstrip().splitlines()[-1] == "target: e1 · active robot: red R"


def test_show_is_plain_when_not_a_terminal_and_coloured_on_request(capsys: pytest.CaptureFixture[str],
                                                                   tiny: Puzzle) -> None:
    _, out, _ = run(capsys, "show", puzzle_code(tiny))  # captured stdout is not a TTY
    assert "\x1b[" not in out
    _, out, _ = run(capsys, "show", puzzle_code(tiny), "--color")
    assert "\x1b[" in out


def test_show_svg_with_solution(capsys: pytest.CaptureFixture[str], tiny: Puzzle) -> None:
    status, out, _ = run(capsys, "show", puzzle_code(tiny), "--svg", "--solution", "RS RE", "--size", "300")
    assert status == 0
    root = ET.fromstring(out)
    assert root.get("width") == "300"
    paths = [el for el in root.iter() if "path" in el.get("class", "").split()]
    assert len(paths) == 2
    robots = [el for el in root.iter() if "robot" in el.get("class", "").split()]
    assert robots[0].get("data-cell") == "0,0"  # drawn at the start; the arrows show the moves


def test_show_solution_text_plays_the_moves(capsys: pytest.CaptureFixture[str], tiny: Puzzle) -> None:
    status, out, _ = run(capsys, "show", puzzle_code(tiny), "--no-color", "--solution", "RE")
    assert status == 0
    assert "[R]" in out  # the red robot now stands on the goal
    assert out.rstrip().splitlines()[-1] == "after RE (1 move): solved"


def test_show_svg_to_file(capsys: pytest.CaptureFixture[str], tiny: Puzzle, tmp_path: Path) -> None:
    target = tmp_path / "p.svg"
    status, out, _ = run(capsys, "show", puzzle_code(tiny), "-o", str(target))
    assert status == 0 and out == ""
    ET.fromstring(target.read_text(encoding="utf-8"))


def test_show_json_line_ascii_file_and_stdin(capsys: pytest.CaptureFixture[str], tiny: Puzzle, tmp_path: Path,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    status, out, _ = run(capsys, "show", dumps_puzzle(tiny), "--no-color")
    assert status == 0 and "id: tiny" in out
    status, ascii_text, _ = run(capsys, "show", puzzle_code(tiny), "--format", "ascii")
    assert status == 0
    diagram = tmp_path / "tiny.txt"
    diagram.write_text(ascii_text, encoding="utf-8")
    status, out, _ = run(capsys, "show", str(diagram), "--format", "code")
    assert status == 0 and out.strip() == puzzle_code(tiny)
    monkeypatch.setattr(sys, "stdin", __import__("io").StringIO(dumps_puzzle(tiny) + "\n"))
    status, out, _ = run(capsys, "show", "-", "--format", "code")
    assert status == 0 and out.strip() == puzzle_code(tiny)


def test_show_jsonl_first_index_and_id(capsys: pytest.CaptureFixture[str]) -> None:
    lines = ASP.read_text().splitlines()
    ids = [json.loads(line)["id"] for line in lines[:3]]
    _, out, _ = run(capsys, "show", str(ASP), "--no-color")
    assert f"id: {ids[0]}" in out
    _, out, _ = run(capsys, "show", str(ASP), "--index", "2", "--no-color")
    assert f"id: {ids[2]}" in out
    _, out, _ = run(capsys, "show", str(ASP), "--id", ids[1], "--format", "json")
    assert json.loads(out)["id"] == ids[1]
    assert_input_error(capsys, "show", str(ASP), "--id", "nope", says="no puzzle with id 'nope'")
    assert_input_error(capsys, "show", str(ASP), "--index", "9999", says="past the end")


# -- board ----------------------------------------------------------------------------------------
def test_board_json_matches_the_asp_board(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "board", "--tiles", "1A,3B,4A,2A", "--json")
    assert status == 0
    assert out.count("\n") == 1  # one object on one line
    board = json.loads(out)
    assert (board["width"], board["height"]) == (16, 16)
    assert {tuple(c) for c in board["blocked"]} == CENTRE
    assert len(board["targets"]) == 17
    for i in ((7 * 16 + 7), (8 * 16 + 8)):
        assert board["walls"][i] == 15  # centre cells walled on every side
    outside = [i for i in range(256) if (i % 16, i // 16) not in CENTRE]
    for line in ASP.read_text().splitlines():
        puzzle = json.loads(line)
        assert [puzzle["walls"][i] for i in outside] == [board["walls"][i] for i in outside], puzzle["id"]


def test_board_text_and_svg(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "board", "--tiles", "1A 3B 4A 2A", "--no-color")
    assert status == 0 and "16×16 board, 17 targets" in out
    status, out, _ = run(capsys, "board", "--tiles", "1D,2D,3D,4D", "--svg")
    assert status == 0
    root = ET.fromstring(out)
    assert len([el for el in root.iter() if "diagonal" in el.get("class", "").split()]) == 8


# -- check ----------------------------------------------------------------------------------------------
def test_check_ok_and_invalid(capsys: pytest.CaptureFixture[str], tiny: Puzzle) -> None:
    code = puzzle_code(tiny)
    assert run(capsys, "check", code, "RE") == (0, "ok: 1 move\n", "")
    status, out, _ = run(capsys, "check", code, "RE", "--rules", "game")
    assert status == 1 and out.startswith("invalid: the red robot reached the target without a ricochet")
    assert run(capsys, "check", code, "GW RS RE RN", "--rules", "game") == (0, "ok: 4 moves\n", "")
    assert run(capsys, "check", code, '[[0, "E"]]') == (0, "ok: 1 move\n", "")
    status, out, _ = run(capsys, "check", code, "RS RS")
    assert status == 1
    assert out == "invalid: move 2 (RS): the red robot cannot move S: it would not leave its cell\n"
    status, out, _ = run(capsys, "check", code, "RS")
    assert (status, out) == (1, "invalid: the red robot is not on the target 4,0\n")
    status, out, _ = run(capsys, "check", code, "GW RS RE RN", "--max-moves", "3")
    assert status == 1 and "more than 3" in out


def test_check_puzzle_from_a_json_file_with_its_rules(capsys: pytest.CaptureFixture[str], tiny: Puzzle,
                                                      tmp_path: Path) -> None:
    data = json.loads(dumps_puzzle(tiny))
    data["rules"] = {"must_ricochet": True}
    f = tmp_path / "p.json"
    f.write_text(json.dumps(data))
    status, out, _ = run(capsys, "check", str(f), "RE")
    assert status == 1 and "without a ricochet" in out


# -- random and demo ---------------------------------------------------------------------------------------
def test_random_formats(capsys: pytest.CaptureFixture[str]) -> None:
    status, code, _ = run(capsys, "random", "--seed", "7")
    assert status == 0 and code.count("\n") == 1
    assert isinstance(parse_code(code.strip()), Puzzle)
    assert run(capsys, "random", "--seed", "7")[1] == code  # reproducible
    _, line, _ = run(capsys, "random", "--seed", "7", "--format", "json")
    assert json.loads(line)["width"] == 16
    _, text, _ = run(capsys, "random", "--seed", "7", "--format", "ascii")
    assert text.count("\n") > 16
    _, game, _ = run(capsys, "random", "--seed", "7", "--rules", "game", "--faces", "CD")
    assert "silver" in {r.color for r in parse_code(game.strip()).position.robots}
    _, many, _ = run(capsys, "random", "--seed", "7", "--count", "3")
    assert len(many.split()) == 3
    status, out, _ = run(capsys, "random", "--seed", "7", "--format", "svg")
    assert status == 0 and out.startswith("<svg")


@pytest.mark.parametrize("game", ["ricochet-robots", "pyramids", "micro-robots"])
def test_random_streams_its_puzzles(capsys: pytest.CaptureFixture[str], game: str) -> None:
    """Each puzzle is written as it is drawn: ten million of them piped into
    ``head -2`` give their first two at once (drawing them all first would take
    hours), the same two that ``--count 2`` prints, and the pipe closing early
    is no error."""
    status, expected, _ = run(capsys, "random", "--game", game, "--seed", "11", "--count", "2", "--format", "json")
    assert status == 0 and len(expected.splitlines()) == 2
    done = subprocess.run(f"{sys.executable} -m ricochet random --game {game} --seed 11 --count 10000000 "
                          "--format json | head -2", shell=True, capture_output=True, text=True, timeout=120,
                          check=False)
    assert done.stdout == expected and "Traceback" not in done.stderr


def test_demo_and_no_command(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "demo", "--date", "2024-05-01", "--no-color")
    assert status == 0
    assert "puzzle of the day, 2024-05-01" in out and "ricochet check" in out
    assert run(capsys, "demo", "--date", "2024-05-01", "--no-color")[1] == out
    status, bare, _ = run(capsys)
    assert status == 0 and "puzzle of the day" in bare


@pytest.mark.parametrize("date, why", [("2024-13-01", "(month must be in 1..12)"), ("tomorrow", "'tomorrow'")])
def test_demo_says_what_a_date_is(capsys: pytest.CaptureFixture[str], date: str, why: str) -> None:
    status, _, err = run(capsys, "demo", "--date", date)
    assert status == 2 and "--date: expected a date YYYY-MM-DD" in err and why in err and "isoformat" not in err


# -- errors ----------------------------------------------------------------------------------------------------
def test_unknown_tile(capsys: pytest.CaptureFixture[str]) -> None:
    assert_input_error(capsys, "board", "--tiles", "1A,X9,4A,2A", says="unknown tile 'X9'")


def test_malformed_diagram(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    f = tmp_path / "bad.txt"
    f.write_text("garbage\nmore garbage\n")
    assert_input_error(capsys, "show", str(f), says="bad ASCII diagram")


def test_robot_off_the_board(capsys: pytest.CaptureFixture[str], tiny: Puzzle) -> None:
    data = json.loads(dumps_puzzle(tiny))
    data["robots"][1] = [9, 9]
    assert_input_error(capsys, "show", json.dumps(data), says="robots[1]")
    assert_input_error(capsys, "show", "1A3B4A2A.r00gv0.r22", says="off")


def test_two_robots_on_one_cell(capsys: pytest.CaptureFixture[str], tiny: Puzzle) -> None:
    data = json.loads(dumps_puzzle(tiny))
    data["robots"][1] = [0, 0]
    assert_input_error(capsys, "show", json.dumps(data), says="both on 0,0")
    assert_input_error(capsys, "show", "1A3B4A2A.r00g00", says="both on 0,0")


def test_unknown_move(capsys: pytest.CaptureFixture[str], tiny: Puzzle) -> None:
    assert_input_error(capsys, "check", puzzle_code(tiny), "RX", says="expected a direction")
    assert_input_error(capsys, "check", puzzle_code(tiny), "BN", says="solution")
    assert_input_error(capsys, "show", puzzle_code(tiny), "--solution", "RS RS", says="move 2 (RS)")


def test_missing_file(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    missing = str(tmp_path / "nope.jsonl")
    assert_input_error(capsys, "show", missing, says=f"{missing}: No such file")


def test_bad_json(capsys: pytest.CaptureFixture[str], tmp_path: Path, tiny: Puzzle) -> None:
    assert_input_error(capsys, "show", '{"width": 16,', says="not valid JSON")
    assert_input_error(capsys, "show", "[1, 2]", says="expected a JSON object")
    assert_input_error(capsys, "check", puzzle_code(tiny), "[[0, ", says="not valid JSON")
    f = tmp_path / "two.jsonl"
    f.write_text(dumps_puzzle(tiny) + "\n{oops\n")
    assert_input_error(capsys, "show", str(f), "--index", "1", says="line 2")


def test_bad_code_and_usage(capsys: pytest.CaptureFixture[str]) -> None:
    assert_input_error(capsys, "show", "hello", says="not a position code")
    assert_input_error(capsys, "show", "--bogus", says="unrecognized arguments: --bogus")
    assert_input_error(capsys, "check", "--rules", "chess", "x", "y", says="invalid choice")
    assert_input_error(capsys, "nosuchcommand", says="invalid choice")


def test_help_and_version(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "--help")
    assert status == 0 and all(name in out for name in ("show", "board", "check", "random", "demo"))
    status, out, _ = run(capsys, "--version")
    assert status == 0 and out.startswith("ricochet ")


def test_internal_error_is_one_line_and_70(capsys: pytest.CaptureFixture[str],
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    def boom(args: argparse.Namespace) -> int:
        raise RuntimeError("kaboom")

    monkeypatch.setitem(cli.COMMANDS, "boom", cli.Command("boom", "explode", lambda p: None, boom))
    status, _, err = run(capsys, "boom")
    assert status == 70 and err.count("\n") == 1 and "internal error: RuntimeError: kaboom" in err
    status, _, err = run(capsys, "--debug", "boom")
    assert status == 70 and "Traceback" in err


def test_add_command(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tiny: Puzzle) -> None:
    monkeypatch.setattr(cli, "COMMANDS", dict(cli.COMMANDS))

    def build(parser: argparse.ArgumentParser) -> None:
        cli_io.add_source_arguments(parser)

    def count_robots(args: argparse.Namespace) -> int:
        cli_io.out(str(len(cli_io.load_puzzle(args).position.robots)))
        return 0

    cli.add_command("robots", "count robots", build, count_robots)
    assert run(capsys, "robots", puzzle_code(tiny)) == (0, "2\n", "")


# -- the real entry point ----------------------------------------------------------------------------------------
def _entry_env() -> dict[str, str]:
    env = dict(os.environ)
    env.pop("NO_COLOR", None)
    return env


def test_console_script() -> None:
    script = Path(sys.executable).with_name("ricochet")
    result = subprocess.run([str(script), "random", "--seed", "1"], capture_output=True, text=True,
                            env=_entry_env(), timeout=60, check=False)
    assert result.returncode == 0 and result.stderr == ""
    assert isinstance(parse_code(result.stdout.strip()), Puzzle)


def test_python_m_bad_input() -> None:
    result = subprocess.run([sys.executable, "-m", "ricochet", "board", "--tiles", "1A,X9,4A,2A"],
                            capture_output=True, text=True, env=_entry_env(), timeout=60, check=False)
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr == "ricochet: error: unknown tile 'X9': tiles are 1A..4D\n"


def test_show_a_board_alone(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    _, board_json, _ = run(capsys, "board", "--tiles", "1A,3B,4A,2A", "--json")
    status, out, _ = run(capsys, "show", board_json.strip(), "--no-color")
    assert status == 0 and out.rstrip().endswith("16×16 board, 17 targets")
    assert run(capsys, "show", board_json.strip(), "--format", "code")[1] == "1A3B4A2A\n"
    _, diagram, _ = run(capsys, "show", "1A3B4A2A", "--format", "ascii")
    f = tmp_path / "board.txt"
    f.write_text(diagram)
    assert run(capsys, "show", str(f), "--format", "json")[1] == board_json
    assert_input_error(capsys, "show", "1A3B4A2A", "--solution", "RN", says="needs robots")


@pytest.mark.skipif(sys.platform != "linux", reason="glibc huge pages are a Linux matter")
@pytest.mark.parametrize("opt_out", [False, True])
def test_solver_commands_restart_with_huge_pages(tmp_path: Path, opt_out: bool) -> None:
    """`ricochet bench` / `ricochet solve` re-execute themselves once with glibc's
    huge-page malloc (the bench header says which pages it ran on); stdin and
    the arguments survive the exec; RICOCHET_NO_HUGE_PAGES opts out."""
    pz = Puzzle(Position(Board.build(5, 5), (Robot("red", (0, 0)),)), (4, 4), active=0, optimal=2)
    hard = tmp_path / "tiny.jsonl"
    hard.write_text(dumps_puzzle(pz) + "\n", encoding="utf-8")
    env = {k: v for k, v in os.environ.items() if k not in ("GLIBC_TUNABLES", "RICOCHET_NO_HUGE_PAGES")}
    if opt_out:
        env["RICOCHET_NO_HUGE_PAGES"] = "1"
    bench = subprocess.run([sys.executable, "-m", "ricochet", "bench", "--sets", "hard", "--hard", str(hard),
                            "--jobs", "1"], env=env, capture_output=True, text=True, timeout=300, check=False)
    assert bench.returncode == 0, bench.stderr
    assert ("normal pages" if opt_out else "huge pages") in bench.stdout.splitlines()[0]
    solved = subprocess.run([sys.executable, "-m", "ricochet", "solve", "-"], input=dumps_puzzle(pz) + "\n",
                            env=env, capture_output=True, text=True, timeout=300, check=False)
    assert solved.returncode == 0, solved.stderr
    assert json.loads(solved.stdout)["moves"] == 2


@pytest.mark.parametrize("argv, numba", [(["solve", "1A3B4A2A.r52ge9bdey0e.r41"], True),
                                         (["show", "1A3B4A2A.r52ge9bdey0e.r41"], False)])
def test_a_command_that_loaded_numba_freezes_the_heap_at_exit(argv: list[str], numba: bool) -> None:
    """Python's last full collection at exit would walk every object numba built
    (0.14-0.2 s of a solver command's exit): once numba is loaded, the command
    line's exit handler freezes the heap first; a command without it is left alone."""
    code = ("import atexit, contextlib, gc, io, sys\nfrom ricochet.cli import main\n"
            f"with contextlib.redirect_stdout(io.StringIO()):\n    status = main({argv!r})\n"
            "before = gc.get_freeze_count()\natexit._run_exitfuncs()\n"
            "print(status, 'numba' in sys.modules, before, gc.get_freeze_count() > 0)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300, check=True)
    assert done.stdout.split() == ["0", str(numba), "0", str(numba)]
