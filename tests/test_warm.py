"""``ricochet warm`` and the solver's warm-ups: compiling once covers every kernel.

A kernel a warm-up misses is compiled at its first real use: a silent wait of
seconds in the middle of a solve, a server round or a test worker.  These tests
hold the warm-ups to covering everything, by the signatures each compiled
function has after the warm-up (whatever numba's cache holds), and check that a
solve's time limit starts after the warm-up."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
import time
from types import ModuleType

import pytest
from numba.core.registry import CPUDispatcher

from ricochet import Board, Position, Puzzle, Robot, warm
from ricochet.board import Diagonal
from ricochet.cli import main
from ricochet.generate import random_puzzles
from ricochet.rules import GAME
from ricochet.solver import api, kernel, parallel, solve, solve_many, tables


def signatures(*modules: ModuleType) -> dict[str, set[str]]:
    """Every compiled function of ``modules`` and the signatures it has been compiled for."""
    out: dict[str, set[str]] = {}
    for m in modules:
        for name, obj in vars(m).items():
            if isinstance(obj, CPUDispatcher):
                out[f"{m.__name__}.{name}"] = {str(s) for s in obj.signatures}
    return out


def grown(before: dict[str, set[str]], after: dict[str, set[str]]) -> dict[str, list[str]]:
    """The signatures each function gained (none: an empty dict)."""
    return {k: sorted(after[k] - before.get(k, set())) for k in after if after[k] - before.get(k, set())}


def in_a_fresh_process(scenario: str) -> dict[str, list[str]]:
    """Run ``scenario`` (a function of this module) in a new Python process, where only
    the warm-up has run before it (numba's cache holds what it holds: the signatures a
    function has are what was compiled or loaded in this process), and return what it
    compiled beyond the warm-up."""
    here = os.path.dirname(os.path.abspath(__file__))
    code = f"import json, test_warm; print(json.dumps(test_warm.{scenario}()))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False, timeout=900,
                         cwd=here, env={**os.environ, "PYTHONPATH": os.pathsep.join([here, os.environ.get(
                             "PYTHONPATH", "")])})
    assert out.returncode == 0, out.stderr[-3000:]
    return json.loads(out.stdout.splitlines()[-1])  # type: ignore[no-any-return]


def test_after_the_warm_up_solving_compiles_nothing() -> None:
    """Every kind of solve (A*, IDA*, all solutions, the vortex, must-ricochet, the transparent
    robot, diagonals, wall openings, a silver robot, Ricochet Pyramids' towers, a time limit,
    a batch's estimates) uses only what ``warm_up`` compiled."""
    assert in_a_fresh_process("solving_after_the_warm_up") == {}


def test_the_threads_warm_up_covers_the_threaded_search() -> None:
    assert in_a_fresh_process("threads_after_their_warm_up") == {}


def test_the_tablebase_warm_up_covers_a_build_and_its_statistics() -> None:
    assert in_a_fresh_process("tablebase_after_its_warm_up") == {}


def solving_after_the_warm_up() -> dict[str, list[str]]:
    api.warm_up()
    before = signatures(kernel, tables)
    puzzles = random_puzzles(11, 12)
    for p in puzzles[:6]:
        solve(p)
        solve(p.with_rules(GAME), max_moves=12)
        solve(p, any_robot=True)
        solve(p, all_solutions=True, max_solutions=5)
        solve(p, max_states=0, time_limit=5)
        api.effort_estimate(p)
    board = Board.build(6, 6, walls=[(2, 3, "E"), (4, 1, "S")])
    pos = Position(board, (Robot("red", (0, 0)), Robot("transparent", (5, 5)), Robot("blue", (3, 0))))
    solve(Puzzle(pos, (2, 3), 0))
    solve(Puzzle(pos, (2, 3), None))
    # Diagonals and a wall opening (their own path builder), a silver robot, the game's rules.
    odd = Board.build(6, 6, walls=[(2, 3, "E")], diagonals=[Diagonal((1, 2), "green", "/"),
                                                             Diagonal((4, 4), "red", "\\")],
                      openings=[((0, 3), "W")])
    robots = (Robot("red", (0, 0)), Robot("green", (5, 5)), Robot("silver", (3, 0)))
    for rules in (None, GAME):
        for active in (0, 1, None):
            solve(Puzzle(Position(odd, robots), (2, 3), active), rules)
    # Ricochet Pyramids: towers, the goal tower passed over.
    from ricochet.games.pyramids.deal import deal

    for seed in range(3):
        solve(deal(random.Random(seed)).puzzle)
    assert solve_many(puzzles[6:], processes=1)
    return grown(before, signatures(kernel, tables))


def threads_after_their_warm_up() -> dict[str, list[str]]:
    api.warm_up_threads()
    before = signatures(kernel, parallel, tables)
    for p in random_puzzles(5, 4):
        solve(p, threads=2)
    return grown(before, signatures(kernel, parallel, tables))


def tablebase_after_its_warm_up() -> dict[str, list[str]]:
    from ricochet.tablebase import Tablebase, cpu
    from ricochet.tablebase.warm import warm_up

    warm_up()
    before = signatures(cpu, cpu.R, tables)
    board = Board.build(5, 4, walls=[(1, 1, "S")])
    for robots in (1, 2, 3, 4):
        for any_robot in (False, True):
            tb = Tablebase.build(board, (4, 3), robots=robots, any_robot=any_robot)
            tb.histogram()
            tb.hardest(2)
    return grown(before, signatures(cpu, cpu.R, tables))


def test_a_time_limit_starts_after_the_warm_up(monkeypatch: pytest.MonkeyPatch) -> None:
    """A fresh process compiles first (a minute on a busy machine): that time is not the
    search's.  Here the warm-up takes 1.5 s and the limit is 1 s: still solved (by IDA*,
    which checks the clock before each iteration)."""
    real = api.warm_up

    def slow_warm_up() -> None:
        time.sleep(1.5)
        real()

    monkeypatch.setattr(api, "_warmed_up", False)
    monkeypatch.setattr(api, "warm_up", slow_warm_up)
    board = Board.build(6, 6, walls=[(2, 3, "E"), (4, 1, "S")])
    pos = Position(board, (Robot("red", (0, 0)), Robot("blue", (5, 5))))
    sol = solve(Puzzle(pos, (2, 3), 0), time_limit=1, max_states=0)
    assert sol.solved and sol.length == solve(Puzzle(pos, (2, 3), 0)).length


def test_warm_reports_each_group() -> None:
    reports = warm.warm(warm.select(["solver"]))
    assert [r.group.name for r in reports] == ["solver"]
    again = warm.warm(warm.select(["solver"]))[0]
    assert again.from_cache and "loaded from the cache" in again.line()  # the process has them now
    with pytest.raises(ValueError, match="unknown kernel group 'solvr': use solver, threads, tablebase"):
        warm.select(["solvr"])


def test_warm_on_two_processes_reports_every_group_and_leaves_its_kernels_here() -> None:
    """With ``jobs=2`` the tablebase's kernels are compiled (or loaded) in a spawned process
    beside the solver's, then loaded here too: a later warm-up here finds them loaded."""
    from ricochet.tablebase import cpu

    reports = warm.warm(warm.select(["solver", "tablebase"]), jobs=2)
    assert [r.group.name for r in reports] == ["solver", "tablebase"]
    assert all(r.seconds > 0 for r in reports)
    loaded = [name for name, obj in vars(cpu).items() if isinstance(obj, CPUDispatcher) and obj.signatures]
    assert loaded, "the tablebase's CPU kernels are not loaded in this process"
    again = warm.warm(warm.select(["tablebase"]), jobs=2)  # one group: nothing to run beside it
    assert again[0].from_cache


def test_the_warm_command(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["warm", "--only", "solver"]) == 0
    err = capsys.readouterr().err
    assert "solver" in err and ("loaded from the cache" in err or "compiled" in err)
    assert main(["warm", "--only", "solver", "--quiet"]) == 0
    assert capsys.readouterr().err == ""  # nothing to compile: nothing said
    assert main(["warm", "--only", "solvr"]) == 2
    assert "--only: unknown kernel group 'solvr'" in capsys.readouterr().err
    assert main(["warm", "--jobs", "0"]) == 2
    assert "--jobs: must be at least 1, got 0" in capsys.readouterr().err


def test_a_server_says_when_its_solver_had_to_compile_at_start(caplog: pytest.LogCaptureFixture) -> None:
    """``ricochet serve`` warms its solver worker in the background at start; where numba's
    cache was cold (an install without ``ricochet warm``) the first rounds wait for it: it says so."""
    from concurrent.futures import Future

    from ricochet.server.solving import _report_warm_up, _warm_worker

    seconds, compiled = _warm_worker()  # in this process: loaded (the suite warmed them)
    assert compiled == 0 and seconds >= 0
    for result in ((0.3, 0), (48.0, 120)):
        done: Future[tuple[float, int]] = Future()
        done.set_result(result)
        _report_warm_up(done)
    [record] = caplog.records
    assert record.levelname == "WARNING" and "compiled at start in 48 s" in record.getMessage()
    assert "ricochet warm" in record.getMessage()
