"""``kill -9`` a real server in the middle of a Ricochet Pyramids round (a
demonstration half played), start it again on the same SQLite file: the room
resumes from its event log with nothing lost or replayed twice, the clocks moved
by the time the server was away (the crash is not charged to the players), and
the round is finished over the new server."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from typing import Any

import pytest

from ricochet.games.pyramids.game import puzzle_from_view
from ricochet.server.client import RicochetClient
from ricochet.solver import solve

ROOT = Path(__file__).resolve().parent.parent
pytestmark = pytest.mark.slow


def _free_port() -> int:
    """A free port out of the kernel's range for client sockets (``load.free_port``)."""
    from realserver import load_benchmark

    return load_benchmark().free_port()  # type: ignore[no-any-return]


def _http(method: str, url: str, body: Any = None) -> Any:
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(url, data=data, method=method, headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=10) as r:
        return json.loads(r.read())


def _serve(port: int, db: Path, log: Path) -> subprocess.Popen[bytes]:
    """``ricochet serve`` on ``port`` and ``db``, once it answers; no trainer puzzles made in the
    background (a core's work for a minute at each start, which these tests do not read)."""
    env = dict(os.environ, PYTHONPATH=str(ROOT / "src"))
    proc = subprocess.Popen([sys.executable, "-m", "ricochet", "serve", "--port", str(port), "--database", str(db),
                             "--log-level", "warning", "--trainer-pool", "0"],
                            stdout=log.open("ab"), stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, env=env,
                            start_new_session=True)
    deadline = time.monotonic() + 90
    while time.monotonic() < deadline:
        assert proc.poll() is None, log.read_text(errors="replace")
        try:
            if _http("GET", f"http://127.0.0.1:{port}/api/health")["ok"]:
                return proc
        except OSError:
            time.sleep(0.2)
    raise AssertionError(f"the server did not come up:\n{log.read_text(errors='replace')}")


def _kill9(proc: subprocess.Popen[bytes]) -> None:
    os.killpg(proc.pid, signal.SIGKILL)  # the whole group: the server and its solver worker
    proc.wait(timeout=10)


async def _until(client: RicochetClient, pred: Any, timeout: float = 30.0) -> dict[str, Any]:
    """Read messages until the client's state satisfies ``pred``."""
    deadline = time.monotonic() + timeout
    while not (client.state is not None and pred(client.state)):
        left = deadline - time.monotonic()
        assert left > 0, f"timed out; state {json.dumps(client.state)[:400]}"
        await client.recv(left)
    return client.state


def test_kill_9_mid_demonstration_and_resume(tmp_path: Path) -> None:
    port, db, log = _free_port(), tmp_path / "kill.db", tmp_path / "server.log"
    ws = f"ws://127.0.0.1:{port}/ws/"
    proc = _serve(port, db, log)
    try:
        room = _http("POST", f"http://127.0.0.1:{port}/api/rooms",
                     {"game": "pyramids", "min_moves": 3, "clock_seconds": 5, "demo_seconds": 120})["room_id"]

        async def first_half() -> tuple[list[str], int, list[Any], dict[str, Any]]:
            async with RicochetClient(ws + room) as ann, RicochetClient(ws + room) as bob:
                await ann.hello("Ann")
                await bob.hello("Bob")
                await ann.start()
                state = await _until(ann, lambda s: s["round"] is not None and s["round"]["open"])
                moves = solve(puzzle_from_view(state)).moves  # the puzzle carries the game's rules
                await ann.bid(len(moves))
                await _until(ann, lambda s: s["phase"] == "demonstration")
                m = moves[0]
                await ann.move(m.robot, m.direction.name)
                state = await _until(ann, lambda s: len(s["round"]["moves"]) == 1)
                return [ann.you["seat_token"], bob.you["seat_token"]], ann.version, list(moves), dict(state)

        tokens, version, moves, before = asyncio.run(first_half())
        time.sleep(3.0)  # quiet for longer than a heartbeat (2 s): the stamp is newer than the last move
        killed = time.time()
        _kill9(proc)
        proc = _serve(port, db, log)
        back = time.time()

        async def second_half() -> None:
            async with RicochetClient(ws + room) as ann:
                w = await ann.hello(seat_token=tokens[0], since=version)
                # loading the room paused its clocks as of the server's last heartbeat and resumed them now
                assert w["version"] == version + 2
                assert [m["event"]["type"] for m in w["missed"]] == ["game_paused", "game_resumed"]
                paused_for = w["missed"][1]["event"]["paused_for"]
                assert paused_for >= back - killed - 0.01  # the whole outage, and at most a heartbeat more
                assert paused_for <= time.time() - killed + 2.0 + 0.5  # from the last heartbeat, not the move
                s = w["state"]
                assert s["game"] == "pyramids" and s["phase"] == "demonstration"
                assert s["round"]["moves"] == before["round"]["moves"] and s["robots"] == before["robots"]
                assert s["round"]["demo_deadline"] == pytest.approx(before["round"]["demo_deadline"] + paused_for)
                for m in moves[1:]:
                    await ann.move(m.robot, m.direction.name)
                state = await _until(ann, lambda s: s["history"] or s["phase"] in ("intermission", "over")
                                     or (s["round"] and s["round"]["number"] == 2))
                me = next(p for p in state["players"] if p["id"] == ann.you["player"])
                assert me["score"] == 1

        asyncio.run(second_half())
        events = _http("GET", f"http://127.0.0.1:{port}/api/rooms/{room}/events")["events"]
        assert [e["version"] for e in events] == list(range(1, len(events) + 1))
        assert sum(e["event"]["type"] == "move_played" for e in events) == len(moves)  # none twice
        assert sum(e["event"]["type"] == "round_ended" for e in events) == 1
    finally:
        _kill9(proc) if proc.poll() is None else None


def test_kill_9_mid_micro_robots_demonstration_and_resume(tmp_path: Path) -> None:
    from ricochet.games.micro_robots.engine import MicroBoard, Space, best_route

    port, db, log = _free_port(), tmp_path / "kill.db", tmp_path / "server.log"
    ws = f"ws://127.0.0.1:{port}/ws/"
    proc = _serve(port, db, log)
    try:
        def route_of(state: dict[str, Any]) -> list[list[int]]:
            board = MicroBoard(tuple(tuple(Space(c["color"], c["number"]) for c in r) for r in state["board"]))
            rnd = state["round"]
            return [list(c) for c in best_route(board, tuple(rnd["start"]), tuple(rnd["target"]))]

        async def first_half(room: str) -> tuple[str, int, list[list[int]]] | None:
            async with RicochetClient(ws + room) as ann, RicochetClient(ws + room) as bob:
                await ann.hello("Ann")
                await bob.hello("Bob")
                await ann.start()
                state = await _until(ann, lambda s: s["phase"] == "racing")
                route = route_of(state)
                if len(route) < 3:
                    return None  # one move would end the demonstration: nothing to kill it in the middle of
                await ann.send({"type": "announce", "moves": len(route) - 1})
                await _until(ann, lambda s: s["phase"] == "demonstration")
                await ann.send({"type": "move_robot", "to": route[1]})
                await _until(ann, lambda s: len(s["round"]["route"]) == 2)
                return ann.you["seat_token"], ann.version, route

        for _ in range(8):  # the start and the target are rolled: until they are two moves apart or more
            room = _http("POST", f"http://127.0.0.1:{port}/api/rooms", {"game": "micro-robots", "demo_seconds": 120})[
                "room_id"]
            half = asyncio.run(first_half(room))
            if half is not None:
                break
        assert half is not None
        token, version, route = half
        _kill9(proc)
        proc = _serve(port, db, log)

        async def second_half() -> None:
            async with RicochetClient(ws + room) as ann:
                w = await ann.hello(seat_token=token, since=version)
                assert w["version"] == version + 2 and w["state"]["round"]["route"] == route[:2]
                assert [m["event"]["type"] for m in w["missed"]] == ["game_paused", "game_resumed"]
                for cell in route[2:]:
                    await ann.send({"type": "move_robot", "to": cell})
                state = await _until(ann, lambda s: s["phase"] != "demonstration")
                assert next(p for p in state["players"] if p["id"] == ann.you["player"])["score"] == 1

        asyncio.run(second_half())
        events = _http("GET", f"http://127.0.0.1:{port}/api/rooms/{room}/events")["events"]
        assert [e["version"] for e in events] == list(range(1, len(events) + 1))
        assert sum(e["event"]["type"] == "robot_moved" for e in events) == len(route) - 1
    finally:
        _kill9(proc) if proc.poll() is None else None


def test_kill_9_during_rambots_execution_resumes_at_the_same_instruction(tmp_path: Path) -> None:
    """Issue: "kill -9 during the execution phase → restart → the room resumes at the same instruction with
    nothing lost or replayed twice"."""
    from ricochet.games.rambots.engine import Instruction, Piece

    port, db, log = _free_port(), tmp_path / "kill.db", tmp_path / "server.log"
    ws = f"ws://127.0.0.1:{port}/ws/"
    proc = _serve(port, db, log)
    try:
        room = _http("POST", f"http://127.0.0.1:{port}/api/rooms", {"game": "rambots", "step_seconds": 2})["room_id"]
        programs = {}

        async def first_half() -> tuple[int, int]:
            async with RicochetClient(ws + room) as ann, RicochetClient(ws + room) as bob:
                await ann.hello("Ann")
                await bob.hello("Bob")
                await ann.start()
                await _until(ann, lambda s: s["phase"] == "goals")
                for c in (ann, bob):
                    await c.send({"type": "set_goals", "pieces": [{"size": 3, "color": k}
                                                                  for k in ("red", "yellow", "green", "blue")]})
                await _until(ann, lambda s: s["phase"] == "programming")
                for c, orient in ((ann, "E"), (bob, "W")):
                    prog = [Instruction(Piece(size, color), orient) for size, color in ((1, "red"), (2, "blue"),
                                                                                         (1, "green"))]
                    programs[c.you["player"]] = prog
                    await c.send({"type": "set_program", "program": [i.to_dict() for i in prog]})
                    await c.send({"type": "compile", "on": True})
                state = await _until(ann, lambda s: len(s["ran"]) >= 2)
                return state["ran"], ann.version

        ran, version = asyncio.run(first_half())
        _kill9(proc)
        proc = _serve(port, db, log)

        async def second_half() -> None:
            async with RicochetClient(ws + room) as eve:
                w = await eve.hello(spectate=True)
                assert w["version"] >= version and w["state"]["phase"] == "execution"
                # Resumes at the same instruction: what ran before the kill is kept as it was.  No step
                # comes due while the server is down (its clocks are paused as of its last heartbeat);
                # one may have run between the state above and the kill.  Each runs once (counted below).
                assert w["state"]["ran"][:len(ran)] == ran and len(w["state"]["ran"]) <= len(ran) + 2
                await _until(eve, lambda s: s["phase"] == "programming", timeout=40)

        asyncio.run(second_half())
        events = _http("GET", f"http://127.0.0.1:{port}/api/rooms/{room}/events")["events"]
        assert [e["version"] for e in events] == list(range(1, len(events) + 1))
        runs = [e["event"] for e in events if e["event"]["type"] == "instruction_run"]
        assert len(runs) == sum(len(p) for p in programs.values())  # each instruction once
        assert sum(e["event"]["type"] == "round_ended" for e in events) == 1
    finally:
        _kill9(proc) if proc.poll() is None else None
