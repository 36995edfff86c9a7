#!/usr/bin/env python
"""Server load benchmark: simulated players over real WebSockets on loopback.

    .venv/bin/python benchmarks/load.py                       # 200 rooms x 4 players, 30 s of moves
    .venv/bin/python benchmarks/load.py --rooms 20 --duration 10
    .venv/bin/python benchmarks/load.py --games pyramids      # Ricochet Pyramids rooms only

What it does (see benchmarks/README.md, "Server load"):

1. starts the real server as a subprocess (``python -m ricochet serve`` on a free port of
   127.0.0.1, a fresh SQLite file in a temporary directory unless ``--database``), waits for
   ``/api/health``;
2. creates ``--rooms`` rooms with ``POST /api/rooms``, of the ``--games`` in turn (default both:
   Ricochet Robots on fixed tiles and Ricochet Pyramids on random towers, alternating), with a 5 s
   clock and no bots;
3. connects ``--players`` WebSocket clients per room (``ricochet.server.client.RicochetClient``,
   real sockets), in ``--workers`` client processes (0: in this process), with uvloop if present;
4. the host starts the game; at every goal everyone bids 99 (a Pyramids round first waits for the
   server's solver to check its goal: bids open with ``state.round.open``); when the clock runs out
   the demonstrator plays legal moves (computed with the engine from the public state, never onto
   the target; Pyramids: the goal tower passable) at ``--rate`` moves per second, gives up after
   ``--moves-per-player`` moves so the next bidder demonstrates (keeps the messages the size of real
   demonstrations); rounds follow rounds;
5. every client stamps each ``move_played`` broadcast on arrival.  Latency = arrival at a client
   minus the moment the mover sent the move (same process, same monotonic clock);
6. after ``--duration`` seconds of moves (+ a grace period for the last broadcasts) everything is
   closed and the server is stopped.

The report: connections, moves, broadcasts, p50/p90/p99/max latency (also by game), errors (error
messages, missing broadcasts, failed connections), CPU of the server (and of its solver process)
and of the clients.  PASS when p99 < 100 ms with no errors at 200 rooms x 4 players (the target of issue 4).
Exit status 0 on PASS (or, for other sizes, when there were no errors and p99 < 100 ms), else 1.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import json
import os
import random
import shlex
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from collections import Counter
from collections.abc import Awaitable, Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT / "src") not in sys.path:  # run from a checkout without installing
    sys.path.insert(0, str(ROOT / "src"))

TARGET_ROOMS, TARGET_PLAYERS, TARGET_P99_MS = 200, 4, 100.0
SERVER_LIMITS = ("rooms_per_minute=0", "connections_per_address=0", "address_rate=0")
"""Every simulated player comes from 127.0.0.1: the server's per-address limits (rooms created,
connections, messages) would stop the benchmark, not a crowd of real players.  Per-seat rates,
hello deadlines and the other limits stay as they are."""
BID = 99  # the protocol's highest bid: the demonstrator may play many moves
GAMES = ("ricochet-robots", "pyramids")


@dataclass
class LoadConfig:
    rooms: int = 200
    players: int = 4
    rate: float = 2.0
    """Moves per second sent by the demonstrator of each room."""
    moves_per_player: int = 25
    """A demonstrator gives up after this many moves (the next bidder then demonstrates)."""
    duration: float = 30.0
    """Seconds of measured moves."""
    workers: int | None = None
    """Client processes; 0 runs the clients in this process; None: 0 up to 40 connections, else 1."""
    port: int = 0
    database: str | None = None
    tiles: str = "1A,2A,3A,4A"
    games: tuple[str, ...] = GAMES
    """The games of the rooms, in turn: room i plays ``games[i % len(games)]``."""
    clock_seconds: int = 5
    """The clock of the rooms (the minimum of both games is 5 s)."""
    grace: float = 2.0
    """Seconds to wait for the last broadcasts after the last move."""
    seed: int = 2026
    server_log: str | None = None
    server_prefix: tuple[str, ...] = ()
    """A command put before the server's, e.g. a profiler: ``("py-spy", "record", "-o", "x.txt", "--")``."""
    """Where the server's output goes (default: a file in the temporary directory, shown on failure)."""
    quiet: bool = False


def room_options(cfg: LoadConfig, game: str = "ricochet-robots") -> dict[str, Any]:
    """The options of the benchmark rooms of ``game``.  Ricochet Robots: the game's usual rules
    (diagonals, openings, silver robot, must-ricochet) on a fixed arrangement, except
    no-straight-back (so any move the engine finds is legal whatever the server remembers of
    earlier demonstrations).  Ricochet Pyramids: the game's defaults (random towers per room,
    goals of 3+ moves checked by the server's solver).  Both: long demonstrations, no pause
    between rounds, everyone seated before the start."""
    common = {"game": game, "name": "load", "private": True, "clock_seconds": cfg.clock_seconds,
              "demo_seconds": 600, "demo_seconds_per_move": 10, "intermission_seconds": 0,
              "min_players": cfg.players, "bots": []}
    if game == "ricochet-robots":
        return {**common, "tiles": cfg.tiles, "no_straight_back": False}
    if game == "pyramids":
        return common
    raise ValueError(f"unknown game {game!r}; the benchmark plays {', '.join(GAMES)}")


# -- measuring CPU ----------------------------------------------------------------------------------
def cpu_seconds(pid: int) -> float:
    """User + system CPU seconds of one process (psutil if present, else /proc)."""
    try:
        import psutil  # type: ignore[import-untyped]

        t = psutil.Process(pid).cpu_times()
        return float(t.user + t.system)
    except ImportError:
        pass
    except Exception:  # noqa: BLE001 - the process is gone
        return 0.0
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, IndexError, ValueError):
        return 0.0


def child_pids(pid: int) -> list[int]:
    """Direct and indirect children of ``pid`` (from /proc)."""
    parents: dict[int, list[int]] = {}
    for d in Path("/proc").iterdir():
        if not d.name.isdigit():
            continue
        try:
            ppid = int((d / "stat").read_text().rsplit(")", 1)[1].split()[1])
        except (OSError, IndexError, ValueError):
            continue
        parents.setdefault(ppid, []).append(int(d.name))
    out, todo = [], [pid]
    while todo:
        for c in parents.get(todo.pop(), []):
            out.append(c)
            todo.append(c)
    return out


class CpuSampler:
    """CPU seconds of the server, of its children (the solver worker) and of the client
    processes, sampled at the start and the end of the measured window (a thread)."""

    def __init__(self, server_pid: int, client_pids: list[int]) -> None:
        self.server_pid = server_pid
        self.client_pids = client_pids
        self.samples: list[tuple[float, float, float, float]] = []
        self.thread: threading.Thread | None = None

    def sample(self) -> None:
        kids = child_pids(self.server_pid)
        self.samples.append((time.monotonic(), cpu_seconds(self.server_pid), sum(cpu_seconds(k) for k in kids),
                             sum(cpu_seconds(p) for p in self.client_pids)))

    def at(self, start: float, end: float) -> None:
        def run() -> None:
            for t in (start, end):
                time.sleep(max(0.0, t - time.monotonic()))
                self.sample()
        self.thread = threading.Thread(target=run, daemon=True)
        self.thread.start()

    def result(self) -> dict[str, float | None]:
        if self.thread is not None:
            self.thread.join(timeout=60)
        if len(self.samples) < 2:
            return {"server_cpu_pct": None, "solver_cpu_pct": None, "client_cpu_pct": None}
        (t0, s0, k0, c0), (t1, s1, k1, c1) = self.samples[0], self.samples[-1]
        dt = max(t1 - t0, 1e-9)
        return {"server_cpu_pct": 100 * (s1 - s0) / dt, "solver_cpu_pct": 100 * max(0.0, k1 - k0) / dt,
                "client_cpu_pct": 100 * (c1 - c0) / dt if self.client_pids else None}


# -- the clients (one worker = a share of the rooms, all clients of a room in the same process) ----
@dataclass
class RoomRun:
    """One room as seen by the clients of this worker."""

    index: int
    room_id: str
    game: str = "ricochet-robots"
    clients: list[Any] = field(default_factory=list)
    sent: dict[tuple[int, str, int], float] = field(default_factory=dict)
    """(round, player, moves so far) -> when the mover sent that move."""
    received: Counter[tuple[int, str, int]] = field(default_factory=Counter)
    rng: random.Random = field(default_factory=random.Random)
    mover: asyncio.Task[None] | None = None
    echo: asyncio.Event = field(default_factory=asyncio.Event)
    """Set when the mover's own move came back (or was refused)."""
    refused: bool = False
    refused_keys: set[tuple[int, str, int]] = field(default_factory=set)
    bid_rounds: dict[str, int] = field(default_factory=dict)
    """The last round each player bid in (a round is bid once: Pyramids refuses an equal re-bid)."""


class Worker:
    def __init__(self, job: dict[str, Any]) -> None:
        from ricochet.server import protocol as P
        from ricochet.tiles import assemble, parse_arrangement

        self.job = job
        self.players: int = job["players"]
        self.rate: float = job["rate"]
        self.moves_per_player: int = job["moves_per_player"]
        # Each game's rules, and the Ricochet Robots board (a Pyramids board comes from each room's towers).
        self.rules = {g: P.config_for(P.normalize_options(o), 0, 1).rules for g, o in job["options"].items()}
        robots = job["options"].get("ricochet-robots")
        self.board = assemble(*parse_arrangement(robots["tiles"])) if robots else None
        self.tower_boards: dict[tuple[tuple[int, int], ...], Any] = {}
        self.rooms = [RoomRun(i, rid, game, rng=random.Random(job["seed"] * 7919 + i))
                      for i, rid, game in zip(job["indices"], job["room_ids"], job["games"], strict=True)]
        self.latencies: list[float] = []
        self.latency_games: list[str] = []
        """For each latency: the game of its room."""
        self.sent_at: list[float] = []
        """For each latency: when its move was sent, seconds after the go time."""
        self.t0 = 0.0
        self.errors: Counter[str] = Counter()
        self.messages = 0
        self.bytes = 0
        self.moves_sent = 0
        self.first_send: float | None = None
        self.last_send: float | None = None
        self.gave_up = 0
        self.t_end = float("inf")
        self.stopping = False
        self.readers: list[asyncio.Task[None]] = []
        self.tasks: set[asyncio.Task[Any]] = set()

    # -- set-up ------------------------------------------------------------------------------
    async def connect(self) -> None:
        from ricochet.server.client import RicochetClient

        ws_base = self.job["ws_base"]
        sem = asyncio.Semaphore(self.job.get("connect_concurrency", 25))

        async def one(room: RoomRun, i: int) -> Any:
            c = RicochetClient(ws_base + room.room_id)
            recv = c.transport.recv

            async def counted() -> str | None:
                text = await recv()
                if text is not None:
                    self.bytes += len(text)
                return text

            c.transport.recv = counted  # type: ignore[method-assign]
            await c.connect()
            await c.hello(f"L{room.index}-{i}", timeout=60)
            return c

        async def seat(room: RoomRun) -> None:
            async with sem:
                try:
                    host = await one(room, 0)  # the first to join is the host
                    rest = await asyncio.gather(*(one(room, i) for i in range(1, self.players)))
                    room.clients = [host, *rest]
                except Exception as e:  # noqa: BLE001 - every failure is counted
                    self.errors[f"connect: {type(e).__name__}: {e}"[:120]] += 1

        await asyncio.gather(*(seat(r) for r in self.rooms))
        for room in self.rooms:
            for c in room.clients:
                self.readers.append(asyncio.ensure_future(self.read(room, c)))

    # -- the game ----------------------------------------------------------------------------
    def spawn(self, coro: Awaitable[Any]) -> asyncio.Task[Any]:
        task = asyncio.ensure_future(coro)
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)
        return task

    async def send(self, coro: Awaitable[None], what: str) -> None:
        try:
            await coro
        except Exception as e:  # noqa: BLE001 - every failure is counted
            if not self.stopping:
                self.errors[f"send {what}: {type(e).__name__}"] += 1

    async def read(self, room: RoomRun, c: Any) -> None:
        from ricochet.server.client import ClientError

        me = c.player
        try:
            while True:
                msg = await c.recv()
                now = time.monotonic()
                self.messages += 1
                kind = msg.get("type")
                if kind == "event":
                    ev = msg["event"]
                    et = ev["type"]
                    if et == "move_played":
                        key = (ev["round"], ev["player"], len(msg["state"]["round"]["moves"]))
                        sent = room.sent.get(key)
                        if sent is not None:
                            self.latencies.append(now - sent)
                            self.latency_games.append(room.game)
                            self.sent_at.append(sent - self.t0)
                            room.received[key] += 1
                        if ev["player"] == me:
                            room.echo.set()
                    elif not self.stopping and self.may_bid(room, me, c.state):
                        room.bid_rounds[me] = c.state["round"]["number"]
                        self.spawn(self.send(c.bid(BID), "bid"))
                    elif et == "demonstration_started" and ev["player"] == me and not self.stopping:
                        room.mover = self.spawn(self.demonstrate(room, c, ev["round"]))
                    elif et == "demonstration_ended" and ev["player"] == me:
                        room.echo.set()
                        if room.mover is not None and ev["reason"] != "gave_up":
                            room.mover.cancel()
                elif kind == "error":
                    if msg.get("ref") is not None and str(msg["ref"]).startswith("m"):
                        room.refused = True
                        room.echo.set()
                    if not (self.stopping and msg.get("code") in ("server_restarting", "phase", "turn")):
                        self.errors[f"error message: {msg.get('code')}"] += 1
        except ClientError as e:
            if e.code == "closed" and not self.stopping:
                self.errors["connection closed by the server"] += 1
        except asyncio.CancelledError:
            raise
        except Exception as e:  # noqa: BLE001 - every failure is counted
            if not self.stopping:
                self.errors[f"reader: {type(e).__name__}: {e}"[:120]] += 1

    @staticmethod
    def may_bid(room: RoomRun, me: str, state: dict[str, Any] | None) -> bool:
        """Is a round open for bids that this player has not bid in?  (A new chip in Ricochet
        Robots; in Ricochet Pyramids once the server's solver has accepted the goal.)"""
        rnd = state.get("round") if state else None
        return (rnd is not None and state is not None and state["phase"] in ("thinking", "bidding")
                and rnd.get("open", True) and room.bid_rounds.get(me) != rnd["number"])

    def board_of(self, room: RoomRun, state: dict[str, Any]) -> Any:
        """The room's board: the fixed tiles, or the Pyramids towers of its public state."""
        if room.game != "pyramids":
            return self.board
        from ricochet.games.pyramids import Tower, board_of

        key = tuple(sorted((t["cell"][0], t["cell"][1]) for t in state["towers"]))
        board = self.tower_boards.get(key)
        if board is None:
            board = self.tower_boards[key] = board_of([Tower.from_dict(t) for t in state["towers"]])
        return board

    def pick_move(self, room: RoomRun, state: dict[str, Any]) -> tuple[int, str] | None:
        """A legal move in the current public state that does not end the round: no robot that
        counts for the goal stops on the target (a Pyramids goal tower is passable: the
        position's goal)."""
        from ricochet.geometry import Direction
        from ricochet.position import IllegalMove, Position, Robot

        rnd = state["round"]
        robots = tuple(Robot(r["color"], (r["cell"][0], r["cell"][1])) for r in state["robots"])
        target = (rnd["target"][0], rnd["target"][1])
        goal = target if room.game == "pyramids" else None
        position = Position(self.board_of(room, state), robots, goal=goal)
        active = rnd["active"]
        rules = self.rules[room.game]
        options = [(i, d) for i in range(len(robots)) for d in "NESW"]
        rng = random.Random()
        rng.shuffle(options)
        for i, d in options:
            try:
                _, path = position.play(_move(i, Direction[d]), rules)
            except IllegalMove:
                continue
            if (active is None or active == i) and tuple(path.end) == target:
                continue
            return i, d
        return None

    async def demonstrate(self, room: RoomRun, c: Any, round_no: int) -> None:
        me = c.player
        period = 1.0 / self.rate
        nxt = time.monotonic() + room.rng.uniform(0, period)  # rooms out of step with each other
        played = 0
        while True:
            await asyncio.sleep(max(0.0, nxt - time.monotonic()))
            if self.stopping or time.monotonic() >= self.t_end:
                return
            state = c.state
            rnd = state.get("round") if state else None
            if state is None or rnd is None or state["phase"] != "demonstration" or rnd["demonstrator"] != me:
                return
            if played >= self.moves_per_player:
                self.gave_up += 1
                await self.send(c.give_up(), "give_up")
                return
            choice = self.pick_move(room, state)
            if choice is None:
                self.errors["no legal move found"] += 1
                await self.send(c.give_up(), "give_up")
                return
            robot, direction = choice
            key = (round_no, me, len(rnd["moves"]) + 1)
            room.echo.clear()
            room.refused = False
            room.sent[key] = sent = time.monotonic()
            self.moves_sent += 1
            if self.first_send is None:
                self.first_send = sent
            self.last_send = sent
            await self.send(c.move(robot, direction, ref=f"m{self.moves_sent}"), "move")
            try:
                await asyncio.wait_for(room.echo.wait(), 10.0)
            except TimeoutError:
                self.errors["move not broadcast back within 10 s"] += 1
                return
            if room.refused:
                room.refused_keys.add(key)
                return  # counted as an error message
            played += 1
            nxt = max(nxt + period, time.monotonic())

    async def run(self, go: Callable[[dict[str, Any]], Awaitable[float]]) -> dict[str, Any]:
        """Connect, report ready and wait for the go time (``go``), start the games, let them run
        until ``t_end``, then close.  Returns the raw figures."""
        await self.connect()
        ready = {"connections": sum(len(r.clients) for r in self.rooms)}
        t0 = self.t0 = await go(ready)
        self.t_end = t0 + self.job["clock_seconds"] + self.job["settle"] + self.job["duration"]
        await asyncio.sleep(max(0.0, t0 - time.monotonic()))
        cpu0 = time.process_time()
        for room in self.rooms:
            if room.clients:
                self.spawn(self.send(room.clients[0].start(), "start"))
        await asyncio.sleep(max(0.0, self.t_end - time.monotonic()))
        self.stopping = True
        await asyncio.sleep(self.job["grace"])
        cpu1 = time.process_time()
        for t in list(self.tasks):
            t.cancel()
        for t in self.readers:
            t.cancel()
        await asyncio.gather(*self.tasks, *self.readers, return_exceptions=True)
        await asyncio.gather(*(c.close() for r in self.rooms for c in r.clients), return_exceptions=True)
        expected = missing = 0
        for room in self.rooms:
            n = len(room.clients)
            for key in room.sent:
                if key in room.refused_keys:
                    continue  # refused moves are not broadcast (their error message is counted)
                expected += n
                missing += n - room.received.get(key, 0)
        return {
            "connections": ready["connections"], "latencies": self.latencies, "latency_games": self.latency_games,
            "sent_at": self.sent_at, "errors": dict(self.errors),
            "moves_by_game": dict(Counter(r.game for r in self.rooms for _ in r.received)),
            "moves_sent": self.moves_sent, "moves_broadcast": sum(1 for r in self.rooms for k in r.received),
            "broadcasts": len(self.latencies), "expected": expected, "missing": missing,
            "first_send": self.first_send, "last_send": self.last_send,
            "messages": self.messages, "bytes": self.bytes, "gave_up": self.gave_up, "client_cpu_s": cpu1 - cpu0,
        }


def _move(robot: int, direction: Any) -> Any:
    from ricochet.position import Move

    return Move(robot, direction)


def use_uvloop() -> str:
    try:
        import uvloop  # type: ignore[import-not-found]
    except ImportError:
        return "asyncio"
    asyncio.set_event_loop_policy(uvloop.EventLoopPolicy())
    return "uvloop"


def worker_main() -> int:
    """``load.py --worker``: one client process.  Reads its job (JSON line) on stdin, writes
    ``{"ready": …}``, reads ``{"go": t0}``, writes the result (JSON line)."""
    loop_kind = use_uvloop()
    job = json.loads(sys.stdin.readline())

    async def go(ready: dict[str, Any]) -> float:
        # Hundreds of simulated players share this heap (a browser holds one room): without this,
        # the collector's full passes over all their states stop this process for 100-200 ms
        # several times a run, and every broadcast arriving meanwhile counts as server latency.
        gc.collect()
        gc.freeze()
        gc.set_threshold(700, 10, 1000)
        print(json.dumps({"ready": ready, "loop": loop_kind}), flush=True)
        line = await asyncio.get_running_loop().run_in_executor(None, sys.stdin.readline)
        return float(json.loads(line)["go"])

    result = asyncio.run(Worker(job).run(go))
    print(json.dumps({"result": result}), flush=True)
    return 0


# -- the server ----------------------------------------------------------------------------------
def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def http(method: str, url: str, body: Any = None, timeout: float = 30.0) -> Any:
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(url, data=data, method=method, headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=timeout) as r:
        return json.loads(r.read())


class Server:
    """``python -m ricochet serve`` in its own process group (with its solver worker);
    ``limits``: ``--limit NAME=VALUE`` texts (the server's tests use this class too)."""

    def __init__(self, port: int, database: str, log_path: Path, prefix: tuple[str, ...] = (),
                 limits: tuple[str, ...] = SERVER_LIMITS) -> None:
        self.port = port
        self.base = f"http://127.0.0.1:{port}"
        self.log_path = log_path
        env = dict(os.environ)
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT / "src"), env.get("PYTHONPATH")]))
        self.log = open(log_path, "wb")  # noqa: SIM115 - closed in stop()
        self.proc = subprocess.Popen(
            [*prefix, sys.executable, "-m", "ricochet", "serve", "--host", "127.0.0.1", "--port", str(port),
             "--database", database, "--log-level", "warning", *(a for lim in limits for a in ("--limit", lim))],
            stdout=self.log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, env=env, start_new_session=True)

    def wait_healthy(self, timeout: float = 90.0) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"the server exited with {self.proc.returncode}:\n{self.tail()}")
            try:
                if http("GET", self.base + "/api/health", timeout=2).get("ok"):
                    return
            except (OSError, ValueError):
                pass
            time.sleep(0.2)
        raise RuntimeError(f"the server did not answer /api/health within {timeout:.0f} s:\n{self.tail()}")

    def python_pid(self) -> int:
        """The server's own process (a child of the prefix command, if any)."""
        for pid in [self.proc.pid, *child_pids(self.proc.pid)]:
            with contextlib.suppress(OSError):
                if b"ricochet\0serve" in Path(f"/proc/{pid}/cmdline").read_bytes():
                    return pid
        return self.proc.pid

    def tail(self, n: int = 30) -> str:
        with contextlib.suppress(OSError):
            return "\n".join(self.log_path.read_text(errors="replace").splitlines()[-n:])
        return ""

    def stop(self) -> None:
        if self.proc.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.proc.pid, signal.SIGINT)
            try:
                self.proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                pass
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(self.proc.pid, signal.SIGKILL)  # the solver worker too, whatever happened
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.proc.wait(timeout=5)
        self.log.close()


# -- the benchmark ---------------------------------------------------------------------------------
def percentile(sorted_values: list[float], p: float) -> float | None:
    if not sorted_values:
        return None
    k = max(0, min(len(sorted_values) - 1, round(p / 100 * len(sorted_values) + 0.5) - 1))
    return sorted_values[k]


def run_benchmark(cfg: LoadConfig) -> dict[str, Any]:
    """Run the whole benchmark (server, rooms, clients) and return the report (a dict; see
    :func:`format_report`).  Stops the server and every client process whatever happens."""
    say = (lambda *a: None) if cfg.quiet else (lambda *a: print(*a, file=sys.stderr, flush=True))
    connections = cfg.rooms * cfg.players
    workers = cfg.workers if cfg.workers is not None else (0 if connections <= 40 else 1)
    workers = min(workers, cfg.rooms)
    tmp = Path(tempfile.mkdtemp(prefix="ricochet-load-"))
    database = cfg.database or f"sqlite+aiosqlite:///{tmp / 'load.db'}"
    port = cfg.port or free_port()
    log_path = Path(cfg.server_log) if cfg.server_log else tmp / "server.log"
    games = [cfg.games[i % len(cfg.games)] for i in range(cfg.rooms)]
    options = {g: room_options(cfg, g) for g in dict.fromkeys(games)}
    settle = 0.5  # seconds after the clock for the demonstrations to begin
    server: Server | None = None
    procs: list[subprocess.Popen[str]] = []
    try:
        t_launch = time.monotonic()
        server = Server(port, database, log_path, tuple(cfg.server_prefix))
        server.wait_healthy()
        say(f"server up on 127.0.0.1:{port} in {time.monotonic() - t_launch:.1f} s (pid {server.proc.pid})")

        from concurrent.futures import ThreadPoolExecutor

        with ThreadPoolExecutor(8) as pool:
            created = list(pool.map(lambda g: http("POST", server.base + "/api/rooms", options[g]), games))
        room_ids = [r["room_id"] for r in created]
        say(f"{len(room_ids)} rooms created; connecting {connections} clients in "
            f"{workers or 'this'} {'process' if workers <= 1 else 'processes'}")
        base_job = {"ws_base": f"ws://127.0.0.1:{port}/ws/", "players": cfg.players, "rate": cfg.rate,
                    "moves_per_player": cfg.moves_per_player, "options": options, "seed": cfg.seed,
                    "clock_seconds": cfg.clock_seconds, "settle": settle, "duration": cfg.duration,
                    "grace": cfg.grace}
        shares = [list(range(w, cfg.rooms, max(workers, 1))) for w in range(max(workers, 1))]
        jobs = [{**base_job, "indices": s, "room_ids": [room_ids[i] for i in s], "games": [games[i] for i in s]}
                for s in shares]

        results: list[dict[str, Any]] = []
        loop_kind = "asyncio"
        t_connect = time.monotonic()
        if workers == 0:
            sampler = CpuSampler(server.python_pid(), [])

            async def go(ready: dict[str, Any]) -> float:
                return start_window(ready)

            def start_window(ready: dict[str, Any]) -> float:
                say(f"{ready['connections']} connections ready in {time.monotonic() - t_connect:.1f} s")
                t0 = time.monotonic() + 0.5
                sampler.at(t0 + cfg.clock_seconds + settle, t0 + cfg.clock_seconds + settle + cfg.duration)
                return t0

            loop_kind = use_uvloop()
            try:
                results.append(asyncio.run(Worker(jobs[0]).run(go)))
            finally:
                asyncio.set_event_loop_policy(None)
            client_cpu = [r["client_cpu_s"] for r in results]
        else:
            env = dict(os.environ)
            env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT / "src"), env.get("PYTHONPATH")]))
            for job in jobs:
                p = subprocess.Popen([sys.executable, str(Path(__file__).resolve()), "--worker"], text=True,
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, env=env)
                assert p.stdin is not None
                p.stdin.write(json.dumps(job) + "\n")
                p.stdin.flush()
                procs.append(p)
            ready_total = 0
            for p in procs:
                assert p.stdout is not None
                line = p.stdout.readline()
                if not line:
                    raise RuntimeError(f"a client process exited early ({p.wait()})")
                msg = json.loads(line)
                ready_total += msg["ready"]["connections"]
                loop_kind = msg["loop"]
            say(f"{ready_total} connections ready in {time.monotonic() - t_connect:.1f} s")
            sampler = CpuSampler(server.python_pid(), [p.pid for p in procs])
            t0 = time.monotonic() + 0.5
            sampler.at(t0 + cfg.clock_seconds + settle, t0 + cfg.clock_seconds + settle + cfg.duration)
            for p in procs:
                assert p.stdin is not None
                p.stdin.write(json.dumps({"go": t0}) + "\n")
                p.stdin.flush()
            say(f"go: {cfg.clock_seconds} s sand clock, then {cfg.duration:g} s of moves")
            for p in procs:
                assert p.stdout is not None
                line = p.stdout.readline()
                if not line:
                    raise RuntimeError(f"a client process failed ({p.wait()})")
                results.append(json.loads(line)["result"])
                p.wait(timeout=30)
        cpu = sampler.result()
        server_alive = server.proc.poll() is None
    finally:
        for p in procs:
            if p.poll() is None:
                p.kill()
        if server is not None:
            server.stop()
        server_tail = server.tail() if server is not None else ""
        if cfg.database is None:
            shutil.rmtree(tmp, ignore_errors=True)

    lat = sorted(x * 1000 for r in results for x in r["latencies"])
    slices: dict[int, list[float]] = {}
    for r in results:
        for x, t in zip(r["latencies"], r["sent_at"], strict=True):
            slices.setdefault(int(t // 5) * 5, []).append(x * 1000)
    timeline = []
    for start in sorted(slices):
        xs = sorted(slices[start])
        timeline.append({"from_s": start, "broadcasts": len(xs), "p50_ms": percentile(xs, 50),
                         "p99_ms": percentile(xs, 99), "max_ms": xs[-1]})
    by_game: dict[str, list[float]] = {g: [] for g in dict.fromkeys(games)}
    for r in results:
        for x, g in zip(r["latencies"], r["latency_games"], strict=True):
            by_game[g].append(x * 1000)
    moves_by_game: Counter[str] = Counter()
    for r in results:
        moves_by_game.update(r["moves_by_game"])
    per_game = []
    for g, xs in by_game.items():
        xs.sort()
        per_game.append({"game": g, "rooms": games.count(g), "moves_broadcast": moves_by_game[g],
                         "broadcasts": len(xs), "p50_ms": percentile(xs, 50), "p99_ms": percentile(xs, 99),
                         "max_ms": xs[-1] if xs else None})
    errors: Counter[str] = Counter()
    for r in results:
        errors.update(r["errors"])
    missing = sum(r["missing"] for r in results)
    if missing:
        errors["broadcasts never received"] += missing
    if not server_alive:
        errors["server died during the run"] += 1
    moves = sum(r["moves_broadcast"] for r in results)
    firsts = [r["first_send"] for r in results if r["first_send"] is not None]
    lasts = [r["last_send"] for r in results if r["last_send"] is not None]
    span = max(lasts) - min(firsts) if firsts and lasts else 0.0
    report = {
        "config": asdict(cfg), "workers": workers, "loop": loop_kind, "cores": os.cpu_count(),
        "rooms": cfg.rooms, "players": cfg.players, "connections": sum(r["connections"] for r in results),
        "moves_sent": sum(r["moves_sent"] for r in results), "moves_broadcast": moves,
        "moves_per_s": moves / span if span > 0 else None, "move_window_s": span, "broadcasts": len(lat),
        "broadcasts_expected": sum(r["expected"] for r in results),
        "messages": sum(r["messages"] for r in results),
        "bytes_per_message": (sum(r["bytes"] for r in results) / max(1, sum(r["messages"] for r in results))),
        "p50_ms": percentile(lat, 50), "p90_ms": percentile(lat, 90), "p99_ms": percentile(lat, 99),
        "max_ms": lat[-1] if lat else None, "mean_ms": sum(lat) / len(lat) if lat else None,
        "errors": sum(errors.values()), "error_kinds": dict(errors), **cpu, "timeline": timeline,
        "by_game": per_game,
        "server_log_tail": server_tail if errors else "",
    }
    if cpu.get("client_cpu_pct") is None and workers == 0 and results:
        window = cfg.duration + cfg.grace
        report["client_cpu_pct"] = 100 * sum(client_cpu) / window
    at_target = cfg.rooms == TARGET_ROOMS and cfg.players == TARGET_PLAYERS
    ok = bool(lat) and report["errors"] == 0 and report["p99_ms"] is not None and report["p99_ms"] < TARGET_P99_MS
    report["at_target_size"] = at_target
    report["passed"] = ok
    return report


def _fmt(v: Any, digits: int = 1) -> str:
    if v is None:
        return "-"
    if isinstance(v, float):
        return f"{v:.{digits}f}"
    return str(v)


def format_report(r: dict[str, Any]) -> str:
    cfg = r["config"]
    rows = [
        ("rooms", r["rooms"]), ("players per room", r["players"]), ("connections", r["connections"]),
        ("moves sent", r["moves_sent"]), ("moves broadcast", r["moves_broadcast"]),
        ("moves/s (all rooms)", f"{_fmt(r['moves_per_s'])} over {_fmt(r['move_window_s'])} s"),
        ("broadcasts received", f"{r['broadcasts']} of {r['broadcasts_expected']} expected"),
        ("latency p50 (ms)", _fmt(r["p50_ms"])), ("latency p90 (ms)", _fmt(r["p90_ms"])),
        ("latency p99 (ms)", _fmt(r["p99_ms"])), ("latency max (ms)", _fmt(r["max_ms"])),
        ("messages received (mean size)", f"{r['messages']} ({r['bytes_per_message'] / 1024:.1f} KiB)"),
        ("errors", r["errors"]),
        ("server CPU %", _fmt(r["server_cpu_pct"], 0)),
        ("server's solver process CPU %", _fmt(r["solver_cpu_pct"], 0)),
        ("client CPU % (all client processes)", _fmt(r["client_cpu_pct"], 0)),
    ]
    w = max(len(k) for k, _ in rows)
    clients = (f"{r['workers']} {'process' if r['workers'] == 1 else 'processes'}" if r["workers"]
               else "in the benchmark's process")
    lines = [(f"Server load: {', '.join(cfg['games'])} rooms, {cfg['rate']:g} moves/s per room, "
              f"{cfg['duration']:g} s of moves, {cfg['moves_per_player']} moves per demonstration, "
              f"clients: {clients} ({r['loop']})"),
             (f"Machine: {r['cores']} cores shared by the server, its solver process and the clients "
              f"(CPU % is of one core; 100 % = one core busy)"), "",
             f"| {'':{w}} | value |", f"|{'-' * (w + 2)}|-------|"]
    lines += [f"| {k:{w}} | {v} |" for k, v in rows]
    if len(r.get("by_game", [])) > 1:
        lines += ["", "by game:", (f"  {'game':<16} {'rooms':>5} {'moves':>6} {'broadcasts':>10} {'p50 ms':>8} "
                                  f"{'p99 ms':>8} {'max ms':>8}")]
        for g in r["by_game"]:
            lines.append(f"  {g['game']:<16} {g['rooms']:>5} {g['moves_broadcast']:>6} {g['broadcasts']:>10} "
                         f"{_fmt(g['p50_ms']):>8} {_fmt(g['p99_ms']):>8} {_fmt(g['max_ms']):>8}")
    if r.get("timeline"):
        lines += ["", (f"by when the move was sent (seconds after the go; the sand clock runs the first "
                       f"{cfg['clock_seconds']} s):"),
                  f"  {'s':>8} {'broadcasts':>10} {'p50 ms':>8} {'p99 ms':>8} {'max ms':>8}"]
        for t in r["timeline"]:
            lines.append(f"  {t['from_s']:>4}-{t['from_s'] + 5:<3} {t['broadcasts']:>10} {_fmt(t['p50_ms']):>8} "
                         f"{_fmt(t['p99_ms']):>8} {_fmt(t['max_ms']):>8}")
    if r["error_kinds"]:
        lines.append("")
        lines.append("errors: " + "; ".join(f"{k} x{v}" for k, v in sorted(r["error_kinds"].items())))
    lines.append("")
    verdict = "PASS" if r["passed"] else "FAIL"
    target = f"p99 < {TARGET_P99_MS:g} ms and no errors at {TARGET_ROOMS} rooms x {TARGET_PLAYERS} players"
    if r["at_target_size"]:
        lines.append(f"{verdict}: target {target}")
    else:
        lines.append(f"{verdict} (p99 < {TARGET_P99_MS:g} ms, no errors) at this size; the target is {target}")
    if r.get("server_log_tail"):
        lines += ["", "server log (last lines):", r["server_log_tail"]]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["--worker"]:
        return worker_main()
    d = LoadConfig()
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.ArgumentDefaultsHelpFormatter)
    ap.add_argument("--rooms", type=int, default=d.rooms)
    ap.add_argument("--players", type=int, default=d.players, help="WebSocket clients per room (1..8)")
    ap.add_argument("--rate", type=float, default=d.rate, help="moves per second by each room's demonstrator")
    ap.add_argument("--moves-per-player", type=int, default=d.moves_per_player,
                    help="a demonstrator gives up after this many moves and the next bidder demonstrates")
    ap.add_argument("--duration", type=float, default=d.duration, help="seconds of measured moves")
    ap.add_argument("--workers", type=int, default=None,
                    help="client processes (0: in this process; default 0 up to 40 connections, else 1)")
    ap.add_argument("--port", type=int, default=d.port, help="server port on 127.0.0.1 (0: a free one)")
    ap.add_argument("--database", default=None,
                    help="the server's database URL (default: SQLite in a temporary directory, deleted after)")
    ap.add_argument("--games", default=",".join(d.games), metavar="GAME,...",
                    help=f"the games of the rooms, in turn ({', '.join(GAMES)})")
    ap.add_argument("--tiles", default=d.tiles, help="tile arrangement of the Ricochet Robots rooms")
    ap.add_argument("--clock", type=int, default=d.clock_seconds, help="clock seconds (5..600)")
    ap.add_argument("--json", metavar="FILE", help="also write the report as JSON")
    ap.add_argument("--server-prefix", default="", metavar="CMD",
                    help="run the server under this command, e.g. a profiler: "
                         "'py-spy record -o server.txt --format raw --'")
    ap.add_argument("--quiet", action="store_true")
    a = ap.parse_args(argv)
    if not 1 <= a.players <= 8 or a.rooms < 1 or a.rate <= 0 or a.rate > 10 or a.duration <= 0:
        ap.error("need 1..8 players, at least one room, a rate in (0, 10] moves/s and a positive duration")
    games = tuple(g.strip() for g in a.games.split(",") if g.strip())
    unknown = [g for g in games if g not in GAMES]
    if not games or unknown:
        ap.error(f"--games: name one or more of {', '.join(GAMES)}" + (f" (not {unknown[0]!r})" if unknown else ""))
    cfg = LoadConfig(rooms=a.rooms, players=a.players, rate=a.rate, moves_per_player=a.moves_per_player,
                     duration=a.duration, workers=a.workers, port=a.port, database=a.database, tiles=a.tiles, games=games,
                     clock_seconds=a.clock, quiet=a.quiet, server_prefix=tuple(shlex.split(a.server_prefix)))
    report = run_benchmark(cfg)
    print(format_report(report))
    if a.json:
        Path(a.json).write_text(json.dumps(report, indent=2))
    return 0 if report["passed"] else 1


if __name__ == "__main__":
    sys.exit(main())
