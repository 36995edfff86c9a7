"""``ricochet tablebase``: build, query, stats and study through ``main``,
the GPU path under numba's CUDA simulator, and the study on a local Dask cluster."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from ricochet import Board, Position, Puzzle, Robot
from ricochet.notation import dumps_puzzle, parse_code, solution_from_json
from ricochet.puzzle import check_solution
from ricochet.tablebase import Tablebase, study
from test_cli import assert_input_error, run

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture
def puzzle_file(tmp_path: Path) -> Path:
    board = Board.build(6, 6, walls=[(2, 2, "S"), (1, 3, "E"), (4, 1, "N")], blocked=[(5, 0)])
    pz = Puzzle(Position(board, (Robot("green", (0, 0)), Robot("red", (4, 4)), Robot("blue", (3, 0)))), (2, 2), 0,
                id="six")
    path = tmp_path / "six.jsonl"
    path.write_text(dumps_puzzle(pz) + "\n")
    return path


def test_build_query_and_stats_from_a_puzzle(capsys: pytest.CaptureFixture[str], puzzle_file: Path,
                                             tmp_path: Path) -> None:
    table = tmp_path / "six.rtb"
    status, out, err = run(capsys, "tablebase", "build", "--puzzle", str(puzzle_file), "-o", str(table))
    assert status == 0, err
    built = json.loads(out)
    assert built["positions"] == 35 * 34 * 33 // 2 and "layer" in err and "ETA" in err

    status, out, _ = run(capsys, "tablebase", "query", str(table), "--robots", "[[0, 0], [4, 4], [3, 0]]")
    answer = json.loads(out)
    pz = Tablebase.load(table).puzzle([(0, 0), (4, 4), (3, 0)])
    moves = solution_from_json(answer["solution"], pz.position)
    assert status == 0 and len(moves) == answer["moves"] and check_solution(pz, moves).ok

    png = tmp_path / "h.png"
    status, out, _ = run(capsys, "tablebase", "stats", str(table), "--png", str(png), "--top", "3", "--solve", "1")
    stats = json.loads(out)
    assert status == 0 and png.read_bytes().startswith(b"\x89PNG")
    assert stats["longest"] == built["longest"] and len(stats["longest_positions"]) == 3
    first = stats["longest_positions"][0]
    assert first["moves"] == stats["longest"] == first["solve"]["moves"] and first["solve"]["replayed"]
    assert isinstance(parse_code(first["code"]), Puzzle)


def test_build_from_tiles_with_few_robots(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    table = tmp_path / "r2.rtb"
    status, out, err = run(capsys, "tablebase", "build", "--tiles", "1A,3B,4A,2A", "--target", "blue-hexagon",
                           "--robots", "2", "-o", str(table), "--quiet")
    assert status == 0 and err == ""
    tb = Tablebase.load(table)
    assert tb.info["tiles"] == "1A,3B,4A,2A" and tb.info["target_name"] == "blue hexagon"
    assert tb.active_color == "blue" and json.loads(out)["positions"] == 252 * 251
    status, out, _ = run(capsys, "tablebase", "query", str(table), "--robots", "[[11, 2], [0, 0]]")
    assert json.loads(out) == {"robots": [[11, 2], [0, 0]], "moves": 0, "solution": []}


def test_unreachable_prints_null(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    board = Board.build(5, 5, walls=[(2, 0, "E"), (2, 0, "W")])
    pz = Puzzle(Position(board, (Robot("red", (0, 0)),)), (2, 1), 0)
    src = tmp_path / "p.json"
    src.write_text(dumps_puzzle(pz))
    run(capsys, "tablebase", "build", "--puzzle", str(src), "-o", str(tmp_path / "t.rtb"), "--quiet")
    _, out, _ = run(capsys, "tablebase", "query", str(tmp_path / "t.rtb"), "--robots", "[[0, 0]]")
    assert json.loads(out) == {"robots": [[0, 0]], "moves": None, "solution": None}


def test_bad_input_is_one_line(capsys: pytest.CaptureFixture[str], puzzle_file: Path, tmp_path: Path) -> None:
    table = tmp_path / "six.rtb"
    run(capsys, "tablebase", "build", "--puzzle", str(puzzle_file), "-o", str(table), "--quiet")
    assert_input_error(capsys, "tablebase", "build", "--tiles", "1A,3B,4A,2A", says="needs --target")
    assert_input_error(capsys, "tablebase", "build", "--puzzle", str(puzzle_file), "--robots", "2",
                       says="go with --tiles")
    assert_input_error(capsys, "tablebase", "build", "--tiles", "1A,3B,4A,2A", "--target", "red-circle",
                       "--active", "silver", says="active")
    assert_input_error(capsys, "tablebase", "build", "--tiles", "1A,3B,4A,2A", "--target", "pink-circle",
                       says="no pink circle")
    assert_input_error(capsys, "tablebase", "build", "--tiles", "1D,3B,4A,2A", "--target", "red-circle",
                       says="diagonals")
    assert_input_error(capsys, "tablebase", "build", "--tiles", "1A,3B,4A,2A", "--target", "vortex",
                       says="vortex")
    assert_input_error(capsys, "tablebase", "build", "--tiles", "1A,3B,4A,2A", "--target", "7,7", says="target")
    assert_input_error(capsys, "tablebase", "build", "--tiles", "1A,3B,4A,2A", "--target", "0,0", "--robots", "5",
                       says="1 to 4 robots")
    assert_input_error(capsys, "tablebase", "query", str(table), "--robots", "[[0, 0]", says="not valid JSON")
    assert_input_error(capsys, "tablebase", "query", str(table), "--robots", "[[0, 0], [1, 1]]", says="3 robots")
    assert_input_error(capsys, "tablebase", "query", str(table), "--robots", "[[0, 0], [9, 9], [1, 1]]",
                       says="off the board")
    assert_input_error(capsys, "tablebase", "query", str(table), "--robots", '[["a", 0]]', says="integer pairs")
    assert_input_error(capsys, "tablebase", "query", str(tmp_path / "none.rtb"), "--robots", "[[0, 0]]",
                       says="No such file")
    assert_input_error(capsys, "tablebase", "query", str(puzzle_file), "--robots", "[[0, 0]]",
                       says="not a tablebase file")
    assert_input_error(capsys, "tablebase", "study", "--tiles", "1A,3B,4A,2A", "--targets", "red-square,x",
                       says="unknown target")
    assert_input_error(capsys, "tablebase", "build", "--tiles", "1A,3B,4A,2A", "--target", "0,0", "--gpu",
                       says="no CUDA GPU")


def test_other_commands_do_not_import_the_tablebase() -> None:
    code = "import sys; from ricochet.cli import main; main(['show', '--help']); " \
           "print([m for m in sys.modules if m.startswith('ricochet.tablebase.') or m == 'zstandard'])"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip().splitlines()[-1] == "[]"


GPU_CHECK = """
import numpy as np
from ricochet.board import Board
from ricochet.tablebase.build import build_table
from ricochet.tablebase.layout import Layout
boards = [(Board.build(4, 4, walls=[(1, 1, "E"), (2, 2, "S")], blocked=[(3, 3)]), (1, 1), 4),
          (Board.build(5, 5, walls=[(2, 2, "S"), (1, 3, "E")]), (2, 2), 2),
          (Board.build(4, 5, walls=[(0, 2, "E"), (2, 1, "S")]), (3, 4), 3)]
for board, target, robots in boards:
    layout = Layout.of(board, target, robots)
    gpu, cpu = build_table(layout, gpu=True), build_table(layout)
    assert gpu.tobytes() == cpu.tobytes(), (board, robots)
    print(robots, layout.size, int(cpu[cpu < 255].max()))
"""


def test_the_gpu_path_gives_the_same_bytes_under_the_cuda_simulator() -> None:
    env = {**os.environ, "NUMBA_ENABLE_CUDASIM": "1"}
    done = subprocess.run([sys.executable, "-c", GPU_CHECK], capture_output=True, text=True, env=env, timeout=300,
                          check=False)
    assert done.returncode == 0, done.stderr[-2000:]
    sizes = [line.split() for line in done.stdout.splitlines()]
    assert [s[0] for s in sizes] == ["4", "2", "3"] and all(int(s[2]) > 1 for s in sizes)


def test_the_study_on_a_local_dask_cluster(tmp_path: Path) -> None:
    jobs = [study.Job("1A,3B,4A,2A", t, robots=2, records=3, keep=str(tmp_path)) for t in ("red-circle", "green-square")]
    results = study.run(jobs, processes=False)
    assert [r["target"] for r in results] == ["red-circle", "green-square"]
    for r in results:
        tb = Tablebase.load(tmp_path / f"1A3B4A2A-{r['target']}-2r.rtb")
        assert r["longest"] == tb.longest and r["histogram"] == {str(k): v for k, v in tb.histogram().items()}
        for code in r["records"]:
            pz = parse_code(code)
            assert tb.lookup(pz) == r["longest"]
    text = study.report(results)
    assert "| 1A,3B,4A,2A | red-circle | 2 |" in text and "record holders" in text
    assert np.all([r["positions"] == 252 * 251 for r in results])


def test_the_study_command_on_its_default_local_cluster(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    out_file = tmp_path / "study.jsonl"
    status, out, err = run(capsys, "tablebase", "study", "--tiles", "1A,3B,4A,2A", "--targets", "yellow-circle",
                           "--robots", "2", "-o", str(out_file))
    assert status == 0, err
    (row,) = [json.loads(line) for line in out_file.read_text().splitlines()]
    assert row["target"] == "yellow-circle" and "study: 1/1" in err
    assert f"| 1A,3B,4A,2A | yellow-circle | 2 | {row['longest']} |" in out
