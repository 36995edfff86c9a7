"""``ricochet solve`` and ``ricochet bench`` through ``main([...])``."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path

import pytest

from ricochet import datasets
from ricochet.cli import main
from ricochet.notation import read_jsonl, solution_from_json
from ricochet.puzzle import Puzzle, check_solution

ASP = datasets.path("asp2015")


def asp_lines(n: int = 3) -> list[str]:
    """The ``n`` quickest ASP puzzles (shortest optimal lengths)."""
    lines = [ln for ln in ASP.read_text(encoding="utf-8").splitlines() if ln.strip()]
    return sorted(lines, key=lambda ln: (json.loads(ln)["optimal"], ln))[:n]


def puzzles_of(lines: list[str]) -> list[Puzzle]:
    return [p for _, p in read_jsonl(lines) if isinstance(p, Puzzle)]


@pytest.fixture
def asp_file(tmp_path: Path) -> Path:
    path = tmp_path / "asp.jsonl"
    path.write_text("\n".join(asp_lines()) + "\n", encoding="utf-8")
    return path


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, list[dict[str, object]], str]:
    status = main(list(argv))
    captured = capsys.readouterr()
    return status, [json.loads(ln) for ln in captured.out.splitlines()], captured.err


def assert_solves(objs: list[dict[str, object]], puzzles: list[Puzzle]) -> None:
    assert [o["id"] for o in objs] == [p.id for p in puzzles]
    for obj, puzzle in zip(objs, puzzles):
        assert obj["moves"] == puzzle.optimal
        assert list(obj)[-1] == "seconds" and isinstance(obj["seconds"], float)
        moves = solution_from_json(obj["solution"], puzzle.position)
        verdict = check_solution(puzzle, moves)
        assert verdict.ok and verdict.cost == puzzle.optimal


def test_solve_file(capsys: pytest.CaptureFixture[str], asp_file: Path) -> None:
    status, objs, err = run(capsys, "solve", str(asp_file), "--jobs", "1")
    assert status == 0, err
    assert err == ""
    assert_solves(objs, puzzles_of(asp_lines()))


def test_solve_stdin(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    lines = asp_lines(2)
    monkeypatch.setattr("sys.stdin", io.StringIO("\n".join(lines) + "\n\n"))
    status, objs, _ = run(capsys, "solve", "-", "-j", "1")
    assert status == 0
    assert_solves(objs, puzzles_of(lines))


def test_malformed_line_among_good_ones(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    good = asp_lines(2)
    bad = json.loads(good[0])
    bad["robots"] = [[0, 0], [99, 0]]
    path = tmp_path / "mixed.jsonl"
    path.write_text("\n".join([good[0], json.dumps(bad), "{not json", good[1]]) + "\n", encoding="utf-8")
    status, objs, err = run(capsys, "solve", str(path), "--jobs", "1")
    assert status == 2
    assert [o.get("line") for o in objs] == [None, 2, 3, None]
    # The bad puzzle's own id comes back with its error; a line that is not JSON has none.
    assert objs[1]["id"] == bad["id"] and objs[1]["moves"] is None
    assert str(objs[1]["error"]).startswith("line 2: field 'robots")
    assert objs[2]["id"] is None and str(objs[2]["error"]).startswith("line 3")
    assert_solves([objs[0], objs[3]], puzzles_of(good))
    err_lines = err.splitlines()
    assert len(err_lines) == 2 and "line 2" in err_lines[0] and "line 3" in err_lines[1]


def test_all_solutions(capsys: pytest.CaptureFixture[str], asp_file: Path) -> None:
    status, objs, _ = run(capsys, "solve", str(asp_file), "--all", "--max-solutions", "5", "-j", "1")
    assert status == 0
    puzzles = puzzles_of(asp_lines())
    for obj, puzzle in zip(objs, puzzles):
        sols = obj["solutions"]
        assert isinstance(sols, list) and 1 <= len(sols) <= 5
        if obj.get("solutions_truncated"):
            assert len(sols) == 5
        else:
            assert obj["solution"] in sols
        for sol in sols:
            verdict = check_solution(puzzle, solution_from_json(sol, puzzle.position))
            assert verdict.ok and verdict.cost == puzzle.optimal


def test_check(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    lines = asp_lines(2)
    wrong = json.loads(lines[1])
    wrong["optimal"] += 1
    no_optimal = json.loads(lines[0])
    del no_optimal["optimal"]
    path = tmp_path / "check.jsonl"
    path.write_text("\n".join([lines[0], json.dumps(wrong), json.dumps(no_optimal)]) + "\n", encoding="utf-8")
    status, objs, _ = run(capsys, "solve", str(path), "--check", "-j", "1")
    assert [o["optimal_ok"] for o in objs] == [True, False, None]
    assert status == 1  # a length differs from the recorded optimum


def test_jobs_two_keeps_input_order(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    lines = asp_lines(4)
    path = tmp_path / "four.jsonl"
    path.write_text("\n".join(lines + ["[]"]) + "\n", encoding="utf-8")
    status, objs, err = run(capsys, "solve", str(path), "--jobs", "2", "--progress")
    assert status == 2  # the last line is not a puzzle
    # Progress as the batch's answers came in (the malformed line known from the start).
    told = re.findall(r"solve: (\d+)/5 puzzles", err)
    assert told and told[-1] == "5" and [int(n) for n in told] == sorted(int(n) for n in told) and told[0] != "0"
    assert_solves(objs[:4], puzzles_of(lines))
    assert objs[4]["line"] == 5 and objs[4]["moves"] is None


def long_file_lines(count: int, bad_at: int) -> list[str]:
    """``count`` lines of tiny puzzles (3×3, a blank line among them), line ``bad_at`` malformed."""
    lines = []
    for n in range(1, count + 1):
        x = n % 3
        lines.append("" if n == 7 else "{no json" if n == bad_at else json.dumps(
            {"id": f"p{n}", "width": 3, "height": 3, "walls": [9, 1, 3, 8, 0, 2, 12, 4, 6],
             "robots": [[x, 0], [2, 2]], "active": 0, "target": [0, 2]}))
    return lines


def test_a_long_file_is_read_on_several_processes_as_it_is_read_here() -> None:
    """Past PARALLEL_READ_MIN lines a file is parsed in chunks by forked
    processes: the same puzzles, line numbers and messages as read in one."""
    from ricochet.cli.solve import PARALLEL_READ_MIN, READ_CHUNK, _Lines

    count = max(PARALLEL_READ_MIN, 2 * READ_CHUNK) + 40
    lines = long_file_lines(count, bad_at=READ_CHUNK + 30)  # (in the second chunk)
    here, waited = list(_Lines(lines, None)), []
    read = _Lines(lines, None).parsed(2, while_waiting=lambda: waited.append(True))
    assert waited == [True]
    assert [n for n, _ in read] == [n for n, _ in here] == [n for n in range(1, count + 1) if n != 7]
    assert [str(item) if isinstance(item, Exception) else item for _, item in read] == \
        [str(item) if isinstance(item, Exception) else item for _, item in here]
    assert str(dict(read)[READ_CHUNK + 30]).startswith(f"line {READ_CHUNK + 30}, column 2: not valid JSON")


def test_a_long_file_on_two_processes(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    from ricochet.cli.solve import PARALLEL_READ_MIN

    count = PARALLEL_READ_MIN + 100
    path = tmp_path / "long.jsonl"
    path.write_text("\n".join(long_file_lines(count, bad_at=count - 5)) + "\n", encoding="utf-8")
    status, objs, err = run(capsys, "solve", str(path), "--jobs", "2")
    assert status == 2  # the malformed line
    assert [o["id"] for o in objs] == [f"p{n}" if n != count - 5 else None for n in range(1, count + 1) if n != 7]
    from ricochet.solver import solve

    lengths = {p.id: solve(p).length for p in puzzles_of(long_file_lines(count, bad_at=count - 5))}
    assert len(set(lengths.values())) > 1 and all(o["moves"] == lengths[o["id"]] for o in objs if o["id"])
    assert objs[count - 7]["line"] == count - 5 and f"line {count - 5}, column 2" in err


_BUG_SCRIPT = """
import sys
import ricochet.solver.api as api
import ricochet.solver.batch as batch
from ricochet import datasets
from ricochet.cli import main

real = api.solve

def bug(puzzle, *args, **options):  # inherited by the forked workers
    if puzzle.id == sys.argv[1]:
        raise api.SolverError("a planted bug")
    return real(puzzle, *args, **options)

api.solve = batch.solve = bug  # (a file's batch calls the latter)
sys.exit(main(sys.argv[2:]))
"""


def test_a_batch_goes_on_past_an_internal_error(tmp_path: Path) -> None:
    """A file on two processes (solve_many's schedule): a solver error in one
    puzzle is that puzzle's answer (and exit status 70); the others are
    still solved and come out in input order."""
    import subprocess
    import sys

    lines = asp_lines(4)
    path = tmp_path / "four.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    broken = json.loads(lines[1])["id"]
    done = subprocess.run([sys.executable, "-c", _BUG_SCRIPT, broken, "solve", str(path), "--jobs", "2"],
                          capture_output=True, text=True, timeout=600, check=False)
    assert done.returncode == 70, done.stderr[-2000:]
    objs = [json.loads(ln) for ln in done.stdout.splitlines()]
    assert objs[1] == {"id": broken, "moves": None, "error": "internal solver error: a planted bug"}
    puzzles = puzzles_of(lines)
    assert_solves([objs[0], *objs[2:]], [puzzles[0], *puzzles[2:]])


def test_interrupting_a_batch_ends_its_workers(tmp_path: Path) -> None:
    """Ctrl-C (SIGINT to the terminal's process group) during a file's batch:
    exit status 130 at once, no traceback from the workers (they leave Ctrl-C
    to the parent, which ends them), and no worker left behind."""
    import os
    import signal
    import subprocess
    import sys
    import time

    path = tmp_path / "asp.jsonl"
    path.write_text(ASP.read_text(encoding="utf-8"), encoding="utf-8")
    # Ctrl-C as a terminal's foreground command has it, even where this test runs in the
    # background of a shell that ignores SIGINT (which a child inherits).
    command = ("import signal, sys; signal.signal(signal.SIGINT, signal.default_int_handler); "
               "from ricochet.cli import main; sys.exit(main(sys.argv[1:]))")
    proc = subprocess.Popen([sys.executable, "-c", command, "solve", str(path), "--jobs", "2"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True)
    assert proc.stdout is not None
    first = proc.stdout.readline()  # the batch is under way
    assert json.loads(first)["moves"] is not None
    os.killpg(proc.pid, signal.SIGINT)
    out, err = proc.communicate(timeout=120)
    # It stopped where it was: the batch was not finished first (however busy the machine).
    assert proc.returncode == 130 and 1 + len(out.splitlines()) < len(ASP.read_text().splitlines()), out
    assert "Traceback" not in err
    time.sleep(0.5)
    with pytest.raises(ProcessLookupError):
        os.killpg(proc.pid, 0)  # nothing of the group is left


def test_threads_per_puzzle(capsys: pytest.CaptureFixture[str], asp_file: Path) -> None:
    status, objs, err = run(capsys, "solve", str(asp_file), "--jobs", "1", "--threads", "2", "--check")
    assert status == 0, err
    assert_solves(objs, puzzles_of(asp_lines()))


_DEAL_SCRIPT = """
import sys
import ricochet.solver
import ricochet.solver.api
import ricochet.solver.batch
from ricochet import datasets
from ricochet.cli import main

real = ricochet.solver.solve

def spy(puzzle, *args, threads=1, **options):  # inherited by the forked workers
    with open(sys.argv[1], "a", encoding="utf-8") as log:
        log.write(f"{puzzle.id} {threads}\\n")
    return real(puzzle, *args, threads=threads, **options)

# (a file's batch calls the last)
ricochet.solver.solve = ricochet.solver.api.solve = ricochet.solver.batch.solve = spy
sys.exit(main(sys.argv[2:]))
"""


def random_line(kind: str) -> str:
    """As an interchange line, a random puzzle: ``easy``, one its robot finishes
    alone (``effort_estimate`` 0); ``vortex``, one any robot may finish and
    that needs helper moves (the vortex's A* runs on one thread)."""
    from ricochet.generate import random_puzzles
    from ricochet.notation import puzzle_to_json
    from ricochet.solver import effort_estimate, solve

    want = {"easy": lambda p: effort_estimate(p) == 0 and p.active is not None,
            "vortex": lambda p: effort_estimate(p) > 0 and p.active is None}[kind]
    puzzle = next(p for p in random_puzzles(11, 200) if want(p))
    return json.dumps({**puzzle_to_json(puzzle), "id": kind, "optimal": solve(puzzle).length})


@pytest.mark.parametrize("picks, argv, dealt", [
    ([0, 1], ["--jobs", "4"], [2, 2]),  # two workers, two threads each
    ([0], ["--jobs", "3"], [3]),  # one puzzle: here, on three threads
    ([0, 1], ["--jobs", "4", "--threads", "1"], [1, 1]),  # --threads given: as given
    (["easy"], ["--jobs", "4"], [1]),  # no helper move needed: one thread
    (["vortex", 0], ["--jobs", "4"], [1, 3]),  # the vortex's search takes no threads: the other puzzle gets them
])
def test_spare_cores_become_threads(tmp_path: Path, picks: list[object], argv: list[str], dealt: list[int]) -> None:
    """Fewer puzzles than ``--jobs`` and no ``--threads``: the spare cores are
    dealt out as threads to the puzzles that need helper moves (a spy in the
    ``ricochet`` process, inherited by its forked workers, logs what each solve
    was given), and every answer is still optimal."""
    import subprocess
    import sys

    hard = sorted(datasets.path("hard")
                  .read_text(encoding="utf-8").splitlines(), key=lambda ln: json.loads(ln)["optimal"])
    lines = [random_line(k) if isinstance(k, str) else hard[int(k)] for k in picks]  # type: ignore[call-overload]
    path, log = tmp_path / "few.jsonl", tmp_path / "threads.log"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    done = subprocess.run([sys.executable, "-c", _DEAL_SCRIPT, str(log), "solve", str(path), "--check", *argv],
                          capture_output=True, text=True, timeout=600, check=False)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stderr == ""
    objs = [json.loads(ln) for ln in done.stdout.splitlines()]
    assert [o["optimal_ok"] for o in objs] == [True] * len(lines)
    given = dict(ln.split() for ln in log.read_text(encoding="utf-8").splitlines())
    assert [int(given[o["id"]]) for o in objs] == dealt


@pytest.mark.parametrize("redirected, dealt", [(True, [2, 2]), (False, [1, 1])])
def test_standard_input_from_a_file_is_scheduled_as_a_file(tmp_path: Path, redirected: bool, dealt: list[int]) -> None:
    """``ricochet solve - < FILE``: standard input that is a regular file is
    read in full and scheduled as a file is (two puzzles on four cores: two
    threads each); from a pipe the puzzles are solved as they come, one
    thread each (the count is not known in advance)."""
    import subprocess
    import sys

    hard = sorted(datasets.path("hard")
                  .read_text(encoding="utf-8").splitlines(), key=lambda ln: json.loads(ln)["optimal"])
    path, log = tmp_path / "two.jsonl", tmp_path / "threads.log"
    path.write_text("\n".join(hard[:2]) + "\n", encoding="utf-8")
    command = [sys.executable, "-c", _DEAL_SCRIPT, str(log), "solve", "-", "--check", "--jobs", "4"]
    with path.open(encoding="utf-8") as stdin:
        done = (subprocess.run(command, stdin=stdin, capture_output=True, text=True, timeout=600, check=False)
                if redirected else
                subprocess.run(command, input=path.read_text(encoding="utf-8"), capture_output=True, text=True,
                               timeout=600, check=False))
    assert done.returncode == 0, done.stderr[-2000:]
    objs = [json.loads(ln) for ln in done.stdout.splitlines()]
    assert [o["optimal_ok"] for o in objs] == [True, True]
    given = dict(ln.split() for ln in log.read_text(encoding="utf-8").splitlines())
    assert [int(given[o["id"]]) for o in objs] == dealt


def test_unsolved_within_max_moves(capsys: pytest.CaptureFixture[str], asp_file: Path) -> None:
    status, objs, _ = run(capsys, "solve", str(asp_file), "--max-moves", "5", "-j", "1")
    assert status == 1
    assert all(o["moves"] is None and "5 moves" in str(o["reason"]) for o in objs)


def test_progress_on_stderr(capsys: pytest.CaptureFixture[str], asp_file: Path) -> None:
    status, objs, err = run(capsys, "solve", str(asp_file), "--progress", "-j", "1")
    assert status == 0 and len(objs) == 3
    assert "3/3" in err and "elapsed" in err


@pytest.mark.parametrize("argv, says", [
    (["solve", "/no/such/file.jsonl"], "no such file"),
    (["solve", "ASP", "--rules", "nope"], "invalid choice: 'nope'"),
    (["solve", "ASP", "--max-moves", "300"], "--max-moves"),
    (["solve", "ASP", "--jobs", "-1"], "--jobs"),
    (["solve", "ASP", "--jobs", "9999"], "--jobs must be from 1 to 256 (0: all cores), got 9999"),
    (["solve", "ASP", "--threads", "0"], "--threads"),
])
def test_input_errors(capsys: pytest.CaptureFixture[str], asp_file: Path, argv: list[str], says: str) -> None:
    argv = [str(asp_file) if a == "ASP" else a for a in argv]
    status = main(argv)
    captured = capsys.readouterr()
    assert status == 2
    assert captured.out == ""
    assert captured.err.count("\n") == 1 and captured.err.startswith("ricochet: error: ")
    assert says in captured.err


def test_rules_preset_applies(capsys: pytest.CaptureFixture[str], asp_file: Path) -> None:
    # Under the game rules (must ricochet, no straight back) an answer is never shorter.
    status, objs, _ = run(capsys, "solve", str(asp_file), "--rules", "game", "-j", "1")
    assert status == 0
    puzzles = puzzles_of(asp_lines())
    assert all(isinstance(o["moves"], int) and o["moves"] >= (p.optimal or 0) for o, p in zip(objs, puzzles))


def test_bench_splits_a_batch_speed_up_and_alternates_rounds(capsys: pytest.CaptureFixture[str]) -> None:
    """On N processes the bench says how much slower each solve ran beside
    the others than alone, and what share of the workers' time went to solving.
    ``--rounds K``: the one-process loop and the batch K times, alternated, every batch's
    lengths checked; the speed-up from the medians, with its range over the rounds."""
    status = main(["bench", "--quick", "--sets", "random", "--jobs", "2", "--rounds", "3", "--no-startup"])
    out = capsys.readouterr().out
    assert status == 0, out
    assert "where the rest of the speed-up went" in out
    m = re.search(r"random +2 processes: each solve ([0-9.]+)x its time alone; "
                  r"the workers spent ([0-9]+)% of 2 x [0-9.]+ m?s solving", out)
    assert m, out
    # A ratio of summed solve times (1.5 on a quiet machine): a busy neighbour in the test run can
    # slow the workers' 50-ms batch many times (16.8 seen), or the one-process loop (0.24 seen), so
    # the bounds catch a unit slip (a factor of 1000) only.
    assert 0.02 < float(m.group(1)) < 100 and 0 < int(m.group(2)) <= 100
    assert "one process against N processes, 3 rounds alternated" in out
    # Each part's time as it ends, in the order it ran (a full bench is minutes of solving).
    parts = re.findall(r"^  (round \d of 3, (?:one|2) process(?:es)?): [0-9.]+ m?s$", out, flags=re.MULTILINE)
    assert parts == ["round 1 of 3, 2 processes", "round 2 of 3, one process", "round 2 of 3, 2 processes",
                     "round 3 of 3, one process", "round 3 of 3, 2 processes", "round 1 of 3, one process"], out
    m = re.search(r"random +1: ([0-9.]+) m?s \(([0-9.]+) m?s-([0-9.]+) m?s\) +2: [0-9.]+ m?s \([^)]*\) +"
                  r"([0-9.]+)x \(([0-9.]+)x-([0-9.]+)x\)", out)
    assert m, out
    assert float(m.group(5)) <= float(m.group(4)) <= float(m.group(6))


@pytest.mark.parametrize("argv", [["--rounds", "0"], ["--rounds", "51"], ["--rounds", "two"],
                                  ["--rounds", "2", "--jobs", "1"], ["--rounds", "2", "--no-single"]])
def test_bench_rounds_refused(capsys: pytest.CaptureFixture[str], argv: list[str]) -> None:
    """A count of rounds out of range, or rounds with nothing to compare, is refused in one line."""
    status = main(["bench", "--quick", "--sets", "random", "--no-startup", *argv])
    err = capsys.readouterr().err
    assert status == 2
    assert err.count("\n") == 1 and "--rounds" in err


@pytest.mark.parametrize(("argv", "says"), [
    (["--peer-c", "/nonexistent/_ricochet"], "--peer-c /nonexistent/_ricochet: no such file"),
    (["--peer-dd", "/nonexistent/dd"], "--peer-dd: cannot run DriftingDroids: /nonexistent/dd: no such file"),
    (["--data", "/nonexistent", "--sets", "asp"], "/nonexistent/asp2015.jsonl: no such file"),
    (["--hard", "/nonexistent/hard.jsonl", "--sets", "hard"], "/nonexistent/hard.jsonl: no such file"),
    (["--time-limit", "-1"], "--time-limit must be a positive number of seconds, got -1"),
    (["--jobs", "-3"], "--jobs must be from 1 to 256 (0: all cores), got -3"),
    (["--jobs", "9999"], "--jobs must be from 1 to 256 (0: all cores), got 9999"),
])
def test_bench_refuses_before_it_runs(capsys: pytest.CaptureFixture[str], argv: list[str], says: str) -> None:
    """A mistyped option or path is refused in one line before the bench solves anything (a peer
    named but missing was once a note at the end of a run of minutes, the comparison left out)."""
    status = main(["bench", "--quick", "--sets", "random", "--no-startup", *argv])
    captured = capsys.readouterr()
    assert status == 2
    assert captured.err.count("\n") == 1 and says in captured.err, captured.err
    assert "warm-up" not in captured.out and "puzzles ..." not in captured.out


def test_bench_quick(capsys: pytest.CaptureFixture[str]) -> None:
    status = main(["bench", "--quick", "--sets", "asp,random", "--jobs", "1", "--data", str(ASP.parent)])
    out = capsys.readouterr().out
    assert status == 0, out
    assert "states/s" in out and "peak MiB" in out
    assert "12/12 optimal" in out and "100/100 valid" in out
    assert "C solver" in out and "DriftingDroids" in out
    assert "modelled from the one-process times" in out
    assert re.search(r"random +16 workers: +[0-9.]+x, the batch ends at [0-9.]+x its longest puzzle", out), out
    assert re.search(r"a trivial puzzle \(optimum <= 3\) on a board not seen before .*median of \d+: \d+ µs "
                     r"solved once each in turn, \d+ µs best of 7", out), out


def test_trivial_puzzles_on_new_boards_rebuild_their_tables() -> None:
    """The bench's trivial-puzzle figure solves each with every table cache cleared
    (a board not seen before), the first TRIVIAL_COUNT of them."""
    from ricochet.cli.bench import TRIVIAL_COUNT, trivial_new_board_micros
    from ricochet.generate import random_puzzles
    from ricochet.solver import plain, solve, tables

    sols = [solve(p) for p in random_puzzles(2026, 150)]
    built = []
    # A puzzle of plain moves builds its tables inside plain.plain_astar, on every call; any other
    # builds them through tables.straight_lengths where no cache holds them.
    real, real_plain = tables.straight_lengths, plain.plain_astar
    tables.straight_lengths = lambda *a: built.append(1) or real(*a)
    plain.plain_astar = lambda *a: built.append(1) or real_plain(*a)
    try:
        count, in_turn, best = trivial_new_board_micros(sols, tries=2) or (0, 0.0, 0.0)
    finally:
        tables.straight_lengths, plain.plain_astar = real, real_plain
    trivial = sum(1 for s in sols if s.solved and s.length <= 3)
    assert count == min(trivial, TRIVIAL_COUNT) and count > 10
    assert len(built) == 3 * count  # tables rebuilt for every solve: once in turn, twice for the best
    assert 0 < best and 0 < in_turn
    assert trivial_new_board_micros([s for s in sols if s.length > 3]) is None


def test_bench_scale(capsys: pytest.CaptureFixture[str]) -> None:
    """``--scale``: the batch once more on each number of processes, the slowest hard puzzle on
    each number of threads, every length checked, in a table against one process."""
    status = main(["bench", "--quick", "--sets", "hard", "--jobs", "1", "--scale", "1,2", "--no-startup"])
    out = capsys.readouterr().out
    assert status == 0, out
    assert "scaling with cores" in out
    assert re.search(r"hard +1: [0-9.]+ m?s +2: [0-9.]+ m?s \([0-9.]+x\)", out), out
    assert re.search(r"its slowest puzzle \(hard-[^)]+\) on N threads: 1: [0-9.]+ m?s +2: [0-9.]+ m?s "
                     r"\([0-9.]+x\)", out), out
    for bad in ("0", "2,x", "999"):
        assert main(["bench", "--quick", "--scale", bad]) == 2
        assert "--scale: expected numbers of processes" in capsys.readouterr().err


def test_bench_cli(capsys: pytest.CaptureFixture[str]) -> None:
    """``--cli``: the set through ``ricochet solve FILE`` on one process and on
    ``--jobs``, each answer's length checked against the bench's own, and on one
    process what the command costs beyond its start-up (a file of the set's first
    puzzle alone) against the one-process loop, with the solver issue's target."""
    status = main(["bench", "--quick", "--sets", "random", "--jobs", "2", "--cli", "--no-startup"])
    out = capsys.readouterr().out
    assert status == 0, out
    assert re.search(r"random +100 puzzles +--jobs 1: [0-9.]+ m?s +--jobs 2: [0-9.]+ m?s \([0-9.]+x\) +"
                     r"answers: the batch's lengths", out), out
    # (One run each here: on a busy machine the first puzzle alone can take longer than the file.)
    assert re.search(r"random +--jobs 1 less its start-up \(its first puzzle alone: [0-9.]+ [mµ]?s\): (([0-9.]+ [mµ]?s,\n"
                     r" +[0-9.]+x the one-process loop's [0-9.]+ [mµ]?s \(target <= 1.3x: (met|NOT met)\))|"
                     r"not measured, the file took less \([0-9.]+ [mµ]?s\))", out), out


def test_model_batch_hands_each_task_to_the_next_free_worker() -> None:
    """The bench's model of solve_many: tasks in order, each to the worker that is free
    first, plus a round trip per task; a long task at the end of the list ends late."""
    from ricochet.cli.bench import model_batch

    seconds = [1.0, 1.0, 1.0, 3.0]
    assert model_batch([[3], [0], [1], [2]], seconds, 2, per_task=0.0) == 3.0  # longest first
    assert model_batch([[0], [1], [2], [3]], seconds, 2, per_task=0.0) == 4.0  # longest last
    assert model_batch([[0, 1, 2, 3]], seconds, 4, per_task=0.5) == 6.5  # one chunk: one worker
    assert model_batch([], [], 3) == 0.0


def test_bench_unknown_set(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "--sets", "nope"]) == 2
    assert "unknown benchmark set" in capsys.readouterr().err
