"""Issue 13: the solver worker of ``ricochet serve`` dies with its server — after
``kill -9`` of the server alone, and after a SIGTERM right after start (while the
worker is still starting) — so no crash-restart leaves a process behind."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from test_server_kill import _free_port, _serve

ROOT = Path(__file__).resolve().parent.parent
pytestmark = pytest.mark.slow


def _children(pid: int) -> set[int]:
    """Every descendant of ``pid`` (from /proc)."""
    kids: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                ppid = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue
            kids.setdefault(ppid, []).append(int(entry.name))
    out: set[int] = set()
    todo = [pid]
    while todo:
        for k in kids.get(todo.pop(), []):
            out.add(k)
            todo.append(k)
    return out


def _alive(pids: set[int]) -> set[int]:
    left = set()
    for p in pids:
        try:
            state = (Path("/proc") / str(p) / "stat").read_text().rsplit(")", 1)[1].split()[0]
        except OSError:
            continue
        if state != "Z":
            left.add(p)
    return left


def _gone(pids: set[int], within: float) -> set[int]:
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        if not _alive(pids):
            return set()
        time.sleep(0.1)
    return _alive(pids)


@pytest.mark.skipif(not Path("/proc").is_dir(), reason="needs /proc to find the worker")
def test_the_worker_dies_with_a_server_killed_by_sigkill(tmp_path: Path) -> None:
    proc = _serve(_free_port(), tmp_path / "a.db", tmp_path / "a.log")
    deadline = time.monotonic() + 30
    workers: set[int] = set()
    while time.monotonic() < deadline and not workers:  # the worker starts with the server (warm-up)
        workers = _children(proc.pid)
        time.sleep(0.1)
    assert workers, "no solver worker was started"
    os.kill(proc.pid, signal.SIGKILL)  # the server alone, not its process group
    proc.wait(timeout=10)
    left = _gone(workers, 5.0)
    for p in left:
        os.kill(p, signal.SIGKILL)
    assert not left, f"left behind: {left}"


@pytest.mark.skipif(not Path("/proc").is_dir(), reason="needs /proc to find the worker")
def test_sigterm_right_after_start_leaves_nothing(tmp_path: Path) -> None:
    env = dict(os.environ, PYTHONPATH=str(ROOT / "src"))
    proc = subprocess.Popen([sys.executable, "-m", "ricochet", "serve", "--port", str(_free_port()), "--database",
                             str(tmp_path / "b.db"), "--log-level", "warning"], stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL, env=env, start_new_session=True)
    seen: set[int] = set()
    end = time.monotonic() + 2.0
    while time.monotonic() < end:
        seen |= _children(proc.pid)
        time.sleep(0.05)
    proc.send_signal(signal.SIGTERM)
    seen |= _children(proc.pid)
    proc.wait(timeout=30)
    left = _gone(seen, 5.0)
    for p in left:
        os.kill(p, signal.SIGKILL)
    assert not left, f"left behind: {left}"


def test_a_background_worker_takes_only_the_cpu_nobody_else_wants() -> None:
    """The trainer's worker (``SolverService(nice=19)``) is niced and, on Linux, SCHED_IDLE: the
    puzzles it makes ahead never slow the rooms' moves (measured: benchmarks/README "Server load")."""
    import asyncio

    from ricochet.games.interface import Job
    from ricochet.server.solving import SolverService

    async def probe(service: SolverService) -> tuple[int, int]:
        nice = await service.run(Job(("nice",), os.getpriority, (os.PRIO_PROCESS, 0)))
        policy = await service.run(Job(("policy",), os.sched_getscheduler, (0,)))
        return nice, policy

    background, normal = SolverService(nice=19), SolverService()
    try:
        assert asyncio.run(probe(background)) == (19, os.SCHED_IDLE)
        assert asyncio.run(probe(normal)) == (os.getpriority(os.PRIO_PROCESS, 0), os.SCHED_OTHER)
    finally:
        background.close()
        normal.close()
