"""``ricochet tablebase``: build, query, stats and study through ``main``,
the GPU path under numba's CUDA simulator, and the study on a local Dask cluster."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from ricochet import Board, Position, Puzzle, Robot
from ricochet.notation import dumps_puzzle, parse_code, parse_solution, solution_from_json
from ricochet.puzzle import check_solution
from ricochet.tablebase import Tablebase, publish, study
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


def test_a_vortex_table_from_tiles(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    table = tmp_path / "v.rtb"
    status, out, err = run(capsys, "tablebase", "build", "--tiles", "1A,3B,4A,2A", "--target", "vortex",
                           "--robots", "3", "-o", str(table), "--quiet")
    assert status == 0, err
    tb = Tablebase.load(table)
    assert tb.any_robot and tb.info["active"] == "any" and tb.info["target_name"] == "vortex"
    assert json.loads(out)["positions"] == 252 * 251 * 250 // 6
    status, out, _ = run(capsys, "tablebase", "query", str(table), "--robots", "[[0, 0], [15, 15], [8, 10]]")
    assert json.loads(out) == {"robots": [[0, 0], [15, 15], [8, 10]], "moves": 0, "solution": []}
    status, out, _ = run(capsys, "tablebase", "query", str(table), "--robots", "[[15, 15], [0, 0], [3, 3]]")
    answer = json.loads(out)
    pz = tb.puzzle([(15, 15), (0, 0), (3, 3)])
    assert pz.active is None and answer["moves"] == len(solution_from_json(answer["solution"], pz.position))
    assert check_solution(pz, solution_from_json(answer["solution"], pz.position)).ok
    status, out, _ = run(capsys, "tablebase", "stats", str(table), "--top", "2", "--solve", "1")
    stats = json.loads(out)
    assert stats["active"] == "any" and stats["longest_positions"][0]["solve"]["moves"] == stats["longest"]
    assert parse_code(stats["longest_positions"][0]["code"]).active is None  # type: ignore[union-attr]


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
                       "--active", "red", says="a vortex table has no active robot")
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


# Small boards: the CUDA simulator runs each GPU thread as Python, about a millisecond a state.
GPU_CHECK = """
import numpy as np
from ricochet.board import Board
from ricochet.tablebase.build import build_table
from ricochet.tablebase.layout import Layout
boards = [(Board.build(4, 4, walls=[(1, 1, "E"), (2, 2, "S")], blocked=[(3, 3), (0, 0), (3, 0), (0, 3)]), (1, 1), 4,
           False),
          (Board.build(4, 4, walls=[(2, 2, "S"), (1, 3, "E")]), (2, 2), 2, False),
          (Board.build(3, 5, walls=[(0, 2, "E"), (2, 1, "S")]), (2, 4), 3, False),
          (Board.build(4, 4, walls=[(1, 1, "E"), (2, 2, "S"), (0, 3, "N")], blocked=[(3, 3)]), (1, 1), 4, True),
          (Board.build(5, 3, walls=[(0, 2, "E"), (2, 1, "S")]), (3, 2), 3, True),
          (Board.build(5, 5, walls=[(2, 2, "S"), (1, 3, "E")]), (2, 2), 2, True)]
for board, target, robots, any_robot in boards:
    layout = Layout.of(board, target, robots, any_robot=any_robot)
    gpu, cpu = build_table(layout, gpu=True), build_table(layout)
    assert gpu.tobytes() == cpu.tobytes(), (board, robots, any_robot)
    print(robots, layout.size, int(cpu[cpu < 255].max()))
"""


def test_the_gpu_path_gives_the_same_bytes_under_the_cuda_simulator() -> None:
    env = {**os.environ, "NUMBA_ENABLE_CUDASIM": "1"}
    done = subprocess.run([sys.executable, "-c", GPU_CHECK], capture_output=True, text=True, env=env, timeout=300,
                          check=False)
    assert done.returncode == 0, done.stderr[-2000:]
    sizes = [line.split() for line in done.stdout.splitlines()]
    assert [s[0] for s in sizes] == ["4", "2", "3", "4", "3", "2"] and all(int(s[2]) > 1 for s in sizes)


def test_the_study_on_a_local_dask_cluster_of_two_workers(tmp_path: Path) -> None:
    jobs = [study.Job("1A,3B,4A,2A", t, robots=2, records=3, keep=str(tmp_path))
            for t in ("red-circle", "green-square", "vortex")]
    results = study.run(jobs, workers=2)
    assert [r["target"] for r in results] == ["red-circle", "green-square", "vortex"]
    for r in results:
        tb = Tablebase.load(tmp_path / f"1A3B4A2A-{r['target']}-2r.rtb")
        assert tb.any_robot == (r["target"] == "vortex")
        assert r["longest"] == tb.longest and r["histogram"] == {str(k): v for k, v in tb.histogram().items()}
        assert 0 < len(r["records"]) <= 3
        for record in r["records"]:
            pz = parse_code(record["code"])
            assert isinstance(pz, Puzzle) and (pz.active is None) == tb.any_robot
            assert tb.lookup(pz) == r["longest"] == record["moves"]
            moves = parse_solution(record["solution"], pz.position)
            assert len(moves) == r["longest"] and check_solution(pz, moves).ok
    text = study.report(results)
    assert "| 1A,3B,4A,2A | red-circle | 2 |" in text and "| 1A,3B,4A,2A | vortex | 2 |" in text
    assert "record holders" in text
    assert [r["positions"] for r in results] == [252 * 251, 252 * 251, 252 * 251 // 2]


def test_the_study_command_resumes_and_prints_the_records(capsys: pytest.CaptureFixture[str],
                                                          tmp_path: Path) -> None:
    out_file = tmp_path / "study.jsonl"
    status, out, err = run(capsys, "tablebase", "study", "--tiles", "1A,3B,4A,2A", "--targets", "yellow-circle",
                           "--robots", "2", "-o", str(out_file))
    assert status == 0, err
    (row,) = [json.loads(line) for line in out_file.read_text().splitlines()]
    assert row["target"] == "yellow-circle" and "study: 1/1" in err
    assert f"| 1A,3B,4A,2A | yellow-circle | 2 | {row['longest']} |" in out
    # Again with one more target, in this process: the first is skipped, the second appended.
    status, out, err = run(capsys, "tablebase", "study", "--dd-layout", "1A 3B / 2A 4A", "--targets",
                           "yellow-circle,vortex", "--robots", "2", "-o", str(out_file), "--local")
    assert status == 0, err
    assert "skipping 1A,3B,4A,2A yellow-circle (2 robots): already in" in err and "study: 1/1" in err
    rows = [json.loads(line) for line in out_file.read_text().splitlines()]
    assert [r["target"] for r in rows] == ["yellow-circle", "vortex"] and rows[0] == row
    assert "| yellow-circle |" in out and "| vortex |" in out
    for key in ("board", "target", "longest", "records", "histogram", "seconds"):
        assert key in rows[1]

    status, out, err = run(capsys, "tablebase", "hardest", str(out_file), "--all", "--json")
    printed = [json.loads(line) for line in out.splitlines()]
    assert status == 0 and {p["target"] for p in printed} == {"yellow-circle", "vortex"}
    for p in printed:
        pz = parse_code(p["code"])
        assert isinstance(pz, Puzzle) and check_solution(pz, parse_solution(p["solution"], pz.position)).ok
    status, out, _ = run(capsys, "tablebase", "hardest", str(out_file))
    top = max(r["longest"] for r in rows)
    assert out.splitlines() and all(f" {top} moves " in line for line in out.splitlines())


def test_hardest_refuses_bad_files(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"board": "1A,3B,4A,2A", "target": "red-circle", "robots": 4, "longest": 12}\nnot json\n')
    assert_input_error(capsys, "tablebase", "hardest", str(bad), says="bad.jsonl:2: not a study result line")
    empty = tmp_path / "empty.jsonl"
    empty.write_text("")
    assert_input_error(capsys, "tablebase", "hardest", str(empty), says="no study results")
    assert_input_error(capsys, "tablebase", "hardest", str(tmp_path / "none.jsonl"), says="No such file")
    assert_input_error(capsys, "tablebase", "study", "--tiles", "1A,3B,4A,2A", "--local", "--scheduler",
                       "tcp://127.0.0.1:1", says="not both")
    assert_input_error(capsys, "tablebase", "study", "--tiles", "1A,3B,4A,2A", "--arrangements", "AB",
                       says="one of them")
    assert_input_error(capsys, "tablebase", "study", "--dd-layout", "4B 3B", says="two rows")
    assert_input_error(capsys, "tablebase", "study", "--tiles", "1A,3B,4A,9Z", says="unknown tile")
    assert_input_error(capsys, "tablebase", "study", "--tiles", "1A,3B,4A,2A", "-o", str(bad), "--robots", "2",
                       says="not a study result line")
    # The first study file (bare codes, no solutions) still reads.
    status, out, _ = run(capsys, "tablebase", "hardest", str(ROOT / "benchmarks" / "tablebase-study-1A3B4A2A.jsonl"))
    assert status == 0 and "18 moves" in out and "(no solution kept)" in out


WITHOUT_DASK = """
import sys
class Block:
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in ("distributed", "dask", "zstandard"):
            raise ImportError(f"{name} is blocked for this test")
sys.meta_path.insert(0, Block())
from ricochet.cli import main
sys.exit(main(sys.argv[1:]))
"""


def test_the_study_runs_without_dask_and_zstandard(tmp_path: Path) -> None:
    out_file = tmp_path / "s.jsonl"
    done = subprocess.run([sys.executable, "-c", WITHOUT_DASK, "tablebase", "study", "--tiles", "1A,3B,4A,2A",
                           "--targets", "red-circle,vortex", "--robots", "2", "-o", str(out_file)],
                          capture_output=True, text=True, timeout=600, check=False)
    assert done.returncode == 0, done.stderr[-2000:]
    assert "Dask distributed is not installed: running in this process" in done.stderr
    assert [json.loads(line)["target"] for line in out_file.read_text().splitlines()] == ["red-circle", "vortex"]


def test_publish_renders_the_study_into_the_doc(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    results = tmp_path / "s.jsonl"
    status, _, err = run(capsys, "tablebase", "study", "--local", "--dd-layout", "4B 3B / 1A 2B", "--dd-layout",
                         "1A 4B / 2B 3B", "--targets", "blue-triangle,vortex", "--robots", "2", "-o", str(results),
                         "--quiet")
    assert status == 0, err
    doc = tmp_path / "docs" / "page.md"
    doc.parent.mkdir()
    doc.write_text(f"# Page\n\nbefore\n\n{publish.BEGIN}\n(placeholder)\n{publish.END}\n\nafter\n")
    pictures = tmp_path / "docs" / "study"
    status, _, err = run(capsys, "tablebase", "publish", str(results), "--out-dir", str(pictures), "--doc", str(doc))
    assert status == 0, err
    text = doc.read_text()
    assert text.startswith("# Page\n\nbefore\n") and text.endswith(f"{publish.END}\n\nafter\n")
    assert "(placeholder)" not in text and "4 tables of 2 robots on 2 boards" in text
    assert "| blue-triangle |" in text and "| vortex |" in text and "](study/histogram.png)" in text
    assert "1A,4B,3B,2B is 4B,3B,2B,1A turned (the same board): its tables' histograms are identical" in text
    assert "**The claim**" not in text  # two robots: the claim is about four
    drawn = sorted(p.name for p in pictures.glob("*.svg"))
    assert drawn and all(f"](study/{name})" in text for name in drawn)
    assert all(p.read_text().startswith("<svg") and 'class="path' in p.read_text() for p in pictures.glob("*.svg"))
    assert (pictures / "histogram.png").read_bytes().startswith(b"\x89PNG")
    doc.write_text("no markers\n")
    assert_input_error(capsys, "tablebase", "publish", str(results), "--out-dir", str(pictures), "--doc", str(doc),
                       says="needs the two markers")
    assert_input_error(capsys, "tablebase", "publish", str(results), "--out-dir", str(pictures), "--robots", "4",
                       says="no tables of 4 robots")


def test_the_published_study_was_computed_twice_with_the_same_histograms() -> None:
    """The GPU study (an H200, benchmarks/device/gpu-study.sh) and the CPU study cover the same eight
    boards: each table's histogram, computed by the two paths, is the same."""
    def tables(names: list[str]) -> dict[tuple[str, str, int], dict[str, int]]:
        out = {}
        for name in names:
            for line in (ROOT / "benchmarks" / name).read_text().splitlines():
                d = json.loads(line)
                out[(d["board"], d["target"], d["robots"])] = d["histogram"]
        return out

    gpu = tables(["tablebase-study-gpu.jsonl"])
    cpu = tables(["tablebase-study-4B3B2B1A.jsonl", "tablebase-study-1A4B3B2B.jsonl", "tablebase-study-cpu.jsonl"])
    assert len(gpu) == 136 and set(gpu) <= set(cpu)
    assert [k for k in gpu if gpu[k] != cpu[k]] == []
    assert max(int(n) for h in gpu.values() for n in h) == 25
