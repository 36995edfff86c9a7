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
import urllib.parse
import urllib.request
from collections import Counter
from collections.abc import Awaitable, Callable
from dataclasses import asdict, dataclass, field
from http.client import HTTPConnection
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT / "src") not in sys.path:  # run from a checkout without installing
    sys.path.insert(0, str(ROOT / "src"))

TARGET_ROOMS, TARGET_PLAYERS, TARGET_P99_MS = 200, 4, 100.0
SERVER_LIMITS = ("rooms_per_minute=0", "connections_per_address=0", "address_rate=0", "total_rooms_per_second=0",
                 "total_http_rate=0", "total_socket_rate=0", "socket_rate=0", "http_rate=0")
"""Every simulated player comes from 127.0.0.1: the server's per-address limits (rooms created,
connections, messages) would stop the benchmark, not a crowd of real players, and so would its
pacing and the totals that one address gets whole (rooms, requests and sockets per second).
Per-seat rates, hello deadlines and the other limits stay as they are."""
BID = 99  # the protocol's highest bid: the demonstrator may play many moves
GAMES = ("ricochet-robots", "pyramids")
ROOM_BLOCK = 250  # honest room addresses per 127.0.N block (.1 to .250)
MAX_SPREAD_ROOMS = (256 - 100) * ROOM_BLOCK


def room_source(index: int) -> str:
    """The loopback address that room ``index`` is created from and its players connect from
    (``--flood`` and its baseline): 127.0.100.1, 127.0.100.2, … 127.0.100.250, 127.0.101.1, …
    Linux routes all of 127.0.0.0/8 to loopback and the server sees each as another client, so
    one room (4 players) per address stays well inside the per-address limits."""
    if not 0 <= index < MAX_SPREAD_ROOMS:
        raise ValueError(f"room {index}: at most {MAX_SPREAD_ROOMS} rooms have addresses of their own")
    return f"127.0.{100 + index // ROOM_BLOCK}.{1 + index % ROOM_BLOCK}"


def flood_source(k: int) -> str:
    """The ``k``-th flood address: 127.0.66.6, 127.0.66.7, … (apart from every honest room's)."""
    return f"127.0.66.{6 + k}"


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
    stagger: float = 0.0
    """Seconds over which the rooms start, evenly spaced (0: all at once).  Rooms started in the same
    instant also hand their demonstrations over in the same second, every ``moves_per_player /
    rate`` seconds; real rooms start when their players are ready.  The measured window then
    begins once the last room's demonstrations have begun, and only its moves count."""
    seed: int = 2026
    server_log: str | None = None
    server_prefix: tuple[str, ...] = ()
    """A command put before the server's, e.g. a profiler: ``("py-spy", "record", "-o", "x.txt", "--")``."""
    """Where the server's output goes (default: a file in the temporary directory, shown on failure)."""
    quiet: bool = False
    trainer_pool: int = 2
    """The server's ``--trainer-pool`` (2, its default: the trainer makes puzzles ahead in the
    background from 20 s after start, niced, during the measured window)."""
    spread: bool = False
    """Each room's creation and its players' connections from an address of its own
    (:func:`room_source`), and the server's per-address limits on (its defaults) instead of
    :data:`SERVER_LIMITS`.  Implied by ``flood``; the baseline beside a flood run uses it alone."""
    flood: bool = False
    """While the moves are measured, a flooder process attacks from ``flood_addresses`` other
    addresses (:class:`Flooder`); the report gets a "flood" section."""
    flood_addresses: int = 1
    flood_concurrency: int = 8
    """Flood requests (or connection attempts) in flight at once, per kind and flood address."""
    flood_rate: float = 0.0
    """Flood attempts per second per kind and address (0: as fast as the server answers)."""
    flood_kinds: tuple[str, ...] = ("rooms", "lobby", "connections", "messages")
    """What the flooder does (:class:`Flooder`); ``messages`` opens connections to send them on."""
    server_workers: int = 1
    """The server's ``--workers``: that many worker processes behind HAProxy (1: one process)."""
    flood_nice: int = 19
    """The flooder's niceness: it gets the CPU the server and the honest clients leave (a real
    attacker brings their own machine); 0 lets it compete for the two cores."""

    @property
    def limited(self) -> bool:
        """Does the server keep its per-address limits (each room from its own address)?"""
        return self.spread or self.flood


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


def server_roles(root: int) -> dict[str, list[int]]:
    """The server's processes under ``root`` by role: ``server`` (the process that serves, or
    with ``--workers`` each worker), ``proxy`` (HAProxy), ``solver`` (everything else: the
    solver and trainer workers; the supervisor of ``--workers`` waits and costs nothing)."""
    roles: dict[str, list[int]] = {"server": [], "proxy": [], "solver": []}
    pids = [root, *child_pids(root)]
    cmdlines = {}
    for pid in pids:
        with contextlib.suppress(OSError):
            cmdlines[pid] = Path(f"/proc/{pid}/cmdline").read_bytes()
    workers = [p for p, c in cmdlines.items() if b"ricochet\0serve" in c and b"--cluster-name" in c]
    if workers:
        roles["server"] = workers
    else:
        roles["server"] = [next((p for p, c in cmdlines.items() if b"ricochet\0serve" in c), root)]
    for pid, c in cmdlines.items():
        if pid in roles["server"] or (b"ricochet\0serve" in c and b"--workers" in c):
            continue
        roles["proxy" if b"haproxy" in c.split(b"\0")[0] else "solver"].append(pid)
    return roles


class CpuSampler:
    """CPU seconds of the server (every worker of ``--server-workers``), of its proxy, of its
    other children (solver and trainer workers) and of the client processes, sampled at the
    start and the end of the measured window (a thread)."""

    def __init__(self, server_root: int, client_pids: list[int]) -> None:
        self.roles = server_roles(server_root)
        self.client_pids = client_pids
        self.samples: list[tuple[float, float, float, float, float]] = []
        self.thread: threading.Thread | None = None

    def sample(self) -> None:
        r = self.roles
        self.samples.append((time.monotonic(), sum(cpu_seconds(p) for p in r["server"]),
                             sum(cpu_seconds(k) for k in r["solver"]), sum(cpu_seconds(p) for p in self.client_pids),
                             sum(cpu_seconds(p) for p in r["proxy"])))

    def at(self, start: float, end: float) -> None:
        def run() -> None:
            for t in (start, end):
                time.sleep(max(0.0, t - time.monotonic()))
                self.sample()
        self.thread = threading.Thread(target=run, daemon=True)
        self.thread.start()

    def result(self) -> dict[str, Any]:
        if self.thread is not None:
            self.thread.join(timeout=60)
        if len(self.samples) < 2:
            return {"server_cpu_pct": None, "server_cpu_s": None, "cpu_window": None, "solver_cpu_pct": None,
                    "client_cpu_pct": None, "proxy_cpu_pct": None, "server_processes": len(self.roles["server"])}
        (t0, s0, k0, c0, p0), (t1, s1, k1, c1, p1) = self.samples[0], self.samples[-1]
        dt = max(t1 - t0, 1e-9)
        return {"server_cpu_pct": 100 * (s1 - s0) / dt, "server_cpu_s": s1 - s0, "cpu_window": (t0, t1),
                "solver_cpu_pct": 100 * max(0.0, k1 - k0) / dt,
                "client_cpu_pct": 100 * (c1 - c0) / dt if self.client_pids else None,
                "proxy_cpu_pct": 100 * (p1 - p0) / dt if self.roles["proxy"] else None,
                "server_processes": len(self.roles["server"])}


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
        from ricochet.server.client import RicochetClient, WebSocketTransport

        ws_base = self.job["ws_base"]
        sem = asyncio.Semaphore(self.job.get("connect_concurrency", 25))
        sources: list[str | None] = self.job.get("sources") or [None] * len(self.rooms)
        source_of = {room.index: src for room, src in zip(self.rooms, sources, strict=True)}

        async def one(room: RoomRun, i: int) -> Any:
            c = RicochetClient(transport=WebSocketTransport(ws_base + room.room_id, source=source_of[room.index]))
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
                        key = (ev["round"], ev["player"], len(c.state["round"]["moves"]))
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
        from ricochet.games.pyramids.setup import Tower, board_of

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

    async def start_room(self, room: RoomRun, at: float) -> None:
        await asyncio.sleep(max(0.0, at - time.monotonic()))
        await self.send(room.clients[0].start(), "start")

    async def run(self, go: Callable[[dict[str, Any]], Awaitable[float]]) -> dict[str, Any]:
        """Connect, report ready and wait for the go time (``go``), start the games, let them run
        until ``t_end``, then close.  Returns the raw figures."""
        await self.connect()
        ready = {"connections": sum(len(r.clients) for r in self.rooms)}
        t0 = self.t0 = await go(ready)
        stagger = self.job.get("stagger", 0.0)
        self.t_end = t0 + stagger + self.job["clock_seconds"] + self.job["settle"] + self.job["duration"]
        await asyncio.sleep(max(0.0, t0 - time.monotonic()))
        cpu0 = time.process_time()
        for room, index in zip(self.rooms, self.job["indices"], strict=True):
            if room.clients:
                self.spawn(self.start_room(room, t0 + stagger * index / self.job["rooms_total"]))
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


# -- the flood (its own process: see Flooder) -----------------------------------------------------
FLOOD_KINDS = ("rooms", "lobby", "connections", "messages")
ADMISSION_REFUSALS = ("too_many_connections", "server_full", "server_restarting", "rate_limited")
"""The codes of a connection refused before it reaches a room (``RoomManager.admit``; ``rate_limited``:
its address is cooling down after a connection closed for flooding, or its hello was dropped)."""


class RawHttp:
    """One keep-alive HTTP/1.1 connection from ``source`` on asyncio streams (the flooder's:
    ``http.client`` would block its event loop); reconnects after a failure or a close."""

    def __init__(self, port: int, source: str) -> None:
        self.port, self.source = port, source
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None

    async def request(self, method: str, path: str, body: bytes | None = None) -> int:
        """The status of one request (its body is read and dropped); OSError when the connection fails."""
        if self.writer is None or self.reader is None:
            self.reader, self.writer = await asyncio.open_connection("127.0.0.1", self.port,
                                                                     local_addr=(self.source, 0))
        reader = self.reader
        head = f"{method} {path} HTTP/1.1\r\nHost: 127.0.0.1:{self.port}\r\n"
        if body is not None:
            head += f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\n"
        try:
            self.writer.write(head.encode() + b"\r\n" + (body or b""))
            status_line = await reader.readline()
            if not status_line:
                raise ConnectionResetError("the server closed the connection")
            status = int(status_line.split()[1])
            length, close = 0, False
            while (line := await reader.readline()) not in (b"\r\n", b""):
                name, _, value = line.decode("latin-1").partition(":")
                name = name.strip().lower()
                if name == "content-length":
                    length = int(value)
                elif name == "connection" and "close" in value.lower():
                    close = True
            await reader.readexactly(length)
        except (OSError, ValueError, IndexError, asyncio.IncompleteReadError) as e:
            self.close()
            raise OSError(f"{type(e).__name__}: {e}") from None
        if close:
            self.close()
        return status

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
        self.reader = self.writer = None


class Flooder:
    """An attacker from ``addresses`` (its own process, niced: see :func:`flooder_main`), between
    ``start`` and ``end`` (``time.monotonic``).  From each address, ``concurrency`` loops per kind,
    each as fast as the server answers:

    * ``rooms``: ``POST /api/rooms`` (expect 429 ``rate_limited`` after ``room_burst``);
    * ``lobby``: ``GET /api/rooms`` (no limit of its own but the pace of HTTP requests per
      address, the cheap request an attacker repeats: expect 429 once its turns run out);
    * ``connections``: WebSockets to the rooms in play (their links), ``hello`` as a spectator,
      kept open (expect ``too_many_connections`` beyond ``connections_per_address``, and
      handshakes closed (403) beyond the pace of socket opens per address);
    * ``messages``: on every connection kept, ``ping`` / ``chat`` / ``hello`` as fast as it can
      (expect ``rate_limited`` errors, then a close 4429).

    Counts per kind: attempts, accepted, refused (by the server's limits), other (any other
    answer or failure), with details; connections held at once per address (the flooder's view)."""

    def __init__(self, job: dict[str, Any]) -> None:
        self.port: int = job["port"]
        self.addresses: list[str] = job["addresses"]
        self.targets: list[str] = job["room_ids"]
        self.concurrency: int = job["concurrency"]
        self.kinds: tuple[str, ...] = tuple(job.get("kinds", FLOOD_KINDS))
        self.rate: float = job.get("rate", 0.0)
        self.slots: dict[tuple[str, str], float] = {}
        self.counts: dict[str, Counter[str]] = {k: Counter() for k in FLOOD_KINDS}
        self.detail: Counter[str] = Counter()
        self.rooms_accepted: Counter[str] = Counter()
        self.held: Counter[str] = Counter()
        self.max_held: Counter[str] = Counter()
        self.end = float("inf")
        self.transports: set[Any] = set()

    def running(self) -> bool:
        return time.monotonic() < self.end

    async def pace(self, kind: str, source: str) -> None:
        """With a ``rate``: wait for the next slot of this kind and address (``rate`` per second)."""
        if self.rate <= 0:
            return
        now = time.monotonic()
        slot = max(self.slots.get((kind, source), now), now)
        self.slots[(kind, source)] = slot + 1 / self.rate
        await asyncio.sleep(slot - now)

    def count(self, kind: str, outcome: str, detail: str | None = None) -> None:
        self.counts[kind][outcome] += 1
        if detail is not None:
            self.detail[f"{kind}: {detail}"] += 1

    async def rooms(self, source: str) -> None:
        conn = RawHttp(self.port, source)
        body = json.dumps({"name": "flood"}).encode()
        while self.running():
            await self.pace("rooms", source)
            self.counts["rooms"]["attempts"] += 1
            try:
                status = await conn.request("POST", "/api/rooms", body)
            except OSError as e:
                self.count("rooms", "other", str(e)[:60])
                await asyncio.sleep(0.01)  # e.g. no local port left: do not spin
                continue
            if status == 201:
                self.count("rooms", "accepted")
                self.rooms_accepted[source] += 1
            else:
                self.count("rooms", "refused" if status == 429 else "other", str(status))
        conn.close()

    async def lobby(self, source: str) -> None:
        conn = RawHttp(self.port, source)
        while self.running():
            await self.pace("lobby", source)
            self.counts["lobby"]["attempts"] += 1
            try:
                status = await conn.request("GET", "/api/rooms")
            except OSError as e:
                self.count("lobby", "other", str(e)[:60])
                await asyncio.sleep(0.01)
                continue
            self.count("lobby", "accepted" if status == 200 else "refused" if status in (429, 503) else "other",
                       None if status == 200 else str(status))
        conn.close()

    async def connections(self, source: str, lane: int) -> None:
        from ricochet.server.client import ClientError, WebSocketTransport

        hello = json.dumps({"type": "hello", "protocol": 2, "spectate": True})
        i = lane
        spammers: set[asyncio.Task[None]] = set()
        try:
            while self.running():
                await self.pace("connections", source)
                rid = self.targets[i % len(self.targets)]
                i += self.concurrency
                t = WebSocketTransport(f"ws://127.0.0.1:{self.port}/ws/{rid}", source=source)
                self.counts["connections"]["attempts"] += 1
                try:
                    await t.connect()
                    self.transports.add(t)
                    # A refused connection is told why and closed at once: the hello may find it
                    # closed already, the refusal is still there to read.
                    with contextlib.suppress(ClientError):
                        await t.send(hello)
                    first = await asyncio.wait_for(t.recv(), 10)
                except Exception as e:  # noqa: BLE001 - every failure is counted
                    await self.drop(t)
                    if "HTTP 403" in str(e):  # the handshake closed by the server's pacing of socket opens
                        self.count("connections", "refused", "paced (handshake 403)")
                        continue
                    self.count("connections", "other", type(e).__name__)
                    await asyncio.sleep(0.01)
                    continue
                msg = json.loads(first) if first is not None else {"type": "closed"}
                code = msg.get("code") if msg.get("type") == "error" else None
                if code in ADMISSION_REFUSALS or first is None:
                    self.count("connections", "refused", code or f"closed {t.ws.close_code}")
                    await self.drop(t)
                    continue
                self.count("connections", "accepted")
                if "messages" in self.kinds:
                    self.count("messages", "attempts")  # the hello: answered, or refused by the rate limit
                    self.answer(msg)
                self.held[source] += 1
                self.max_held[source] = max(self.max_held[source], self.held[source])
                task = asyncio.ensure_future(self.spam(t, source) if "messages" in self.kinds else self.hold(t, source))
                spammers.add(task)
                task.add_done_callback(spammers.discard)
        finally:
            for task in list(spammers):
                task.cancel()
            await asyncio.gather(*spammers, return_exceptions=True)

    def answer(self, msg: dict[str, Any]) -> None:
        """Count the server's answer to a flood message: ``accepted`` when the server handled it
        (a pong, a welcome, or a refusal by the rules such as "spectators may not chat"),
        ``refused`` when its rate limits dropped it.  Broadcasts of the room are not answers."""
        kind = msg.get("type")
        if kind in ("pong", "welcome"):
            self.count("messages", "accepted")
        elif kind == "error" and msg.get("code") == "rate_limited":
            self.count("messages", "refused")
        elif kind == "error":
            self.count("messages", "accepted", f"answered error {msg.get('code')}")

    async def hold(self, t: Any, source: str) -> None:
        """Keep the connection open, reading what the room broadcasts (``--flood-kinds`` without messages)."""
        try:
            while self.running() and await t.recv() is not None:
                pass
        finally:
            self.held[source] -= 1
            await self.drop(t)

    async def spam(self, t: Any, source: str) -> None:
        """Messages as fast as this connection takes them; a reader counts the answers."""
        texts = [json.dumps({"type": "ping"}), json.dumps({"type": "chat", "text": "flood " * 20}),
                 json.dumps({"type": "hello", "protocol": 2, "spectate": True})]

        async def read() -> None:
            while (text := await t.recv()) is not None:
                self.answer(json.loads(text))

        reader = asyncio.ensure_future(read())
        n = 0
        try:
            while self.running() and not reader.done():
                await self.pace("messages", source)
                try:
                    await t.send(texts[n % len(texts)])
                except Exception:  # noqa: BLE001 - closed by the server: the reader says how
                    break
                self.counts["messages"]["attempts"] += 1
                n += 1
                await asyncio.sleep(0)  # let the reader and the other loops run
            await asyncio.wait({reader}, timeout=1.0 if self.running() else 0.05)  # the close's reason
        finally:
            reader.cancel()
            await asyncio.gather(reader, return_exceptions=True)
            self.held[source] -= 1
            if t.ws is not None and t.ws.close_code is not None:
                self.detail[f"messages: closed {t.ws.close_code}"] += 1
            await self.drop(t)

    async def drop(self, t: Any) -> None:
        self.transports.discard(t)
        with contextlib.suppress(Exception):
            await asyncio.wait_for(t.close(), 2)

    async def run(self, start: float, end: float) -> dict[str, Any]:
        self.end = end
        await asyncio.sleep(max(0.0, start - time.monotonic()))
        t0 = time.monotonic()
        loops = [loop for src in self.addresses for loop in (
            *(self.rooms(src) for _ in range(self.concurrency) if "rooms" in self.kinds),
            *(self.lobby(src) for _ in range(self.concurrency) if "lobby" in self.kinds),
            *(self.connections(src, lane) for lane in range(self.concurrency)
              if "connections" in self.kinds or "messages" in self.kinds))]
        await asyncio.gather(*loops, return_exceptions=True)
        seconds = time.monotonic() - t0
        await asyncio.gather(*(self.drop(t) for t in list(self.transports)), return_exceptions=True)
        return {"addresses": self.addresses, "seconds": seconds, "concurrency": self.concurrency,
                "ran": list(self.kinds), "rate": self.rate,
                "kinds": {k: {o: c[o] for o in ("attempts", "accepted", "refused", "other")}
                          for k, c in self.counts.items()},
                "detail": dict(self.detail.most_common()), "rooms_accepted": dict(self.rooms_accepted),
                "max_held": dict(self.max_held), "cpu_s": time.process_time()}


def flooder_main() -> int:
    """``load.py --flooder``: the flood process.  Reads its job (JSON line) on stdin, lowers its
    priority (``nice``), writes ``{"ready": true}``, reads ``{"start": t, "end": t}``, floods,
    writes the result (JSON line)."""
    job = json.loads(sys.stdin.readline())
    # An attacker brings their own machine: niced, the flood takes the CPU the server and the
    # honest clients leave, so its own work does not show up as their latency.
    os.nice(job.get("nice", 19))
    use_uvloop()
    print(json.dumps({"ready": True}), flush=True)
    window = json.loads(sys.stdin.readline())
    result = asyncio.run(Flooder(job).run(float(window["start"]), float(window["end"])))
    print(json.dumps({"result": result}), flush=True)
    return 0


# -- the server ----------------------------------------------------------------------------------
PICKED_PORTS = range(20000, 32768)
"""Where :func:`free_port` picks: below Linux's ephemeral range (32768-60999), which the kernel
hands to every client socket that connects (thousands in a load run, and in a test suite
running beside this one), so that only another explicit pick can take a port picked here."""


def free_port(span: int = 1) -> int:
    """A port of 127.0.0.1 that is free with the ``span - 1`` ports after it (``ricochet serve
    --workers N`` listens on ``--port`` and the N ports after it), picked at random in
    :data:`PICKED_PORTS` and checked by binding each.  Another process may still take one
    before the server binds it: the caller starts the server again on another pick when it
    says "address already in use" (:func:`start_server`)."""
    rng = random.Random()
    for _ in range(200):
        base = rng.randrange(PICKED_PORTS.start, PICKED_PORTS.stop - span + 1)
        with contextlib.ExitStack() as held:
            try:
                for port in range(base, base + span):
                    s = held.enter_context(socket.socket())
                    s.bind(("127.0.0.1", port))
            except OSError:
                continue
            return base
    raise RuntimeError(f"no {span} free consecutive ports of 127.0.0.1 in {PICKED_PORTS.start}-{PICKED_PORTS.stop - 1}")


def http(method: str, url: str, body: Any = None, timeout: float = 30.0, source: str | None = None) -> Any:
    """The JSON answer of one request (an exception unless 2xx); ``source``: the local address
    to send from (another loopback address is another client to the server)."""
    data = None if body is None else json.dumps(body).encode()
    if source is not None:
        parts = urllib.parse.urlsplit(url)
        conn = HTTPConnection(parts.hostname or "127.0.0.1", parts.port, timeout=timeout,
                                          source_address=(source, 0))
        try:
            conn.request(method, parts.path, body=data, headers={"Content-Type": "application/json"})
            r = conn.getresponse()
            text = r.read()
            if not 200 <= r.status < 300:
                raise RuntimeError(f"{method} {url} from {source}: {r.status} {text[:200]!r}")
            return json.loads(text)
        finally:
            conn.close()
    req = urllib.request.Request(url, data=data, method=method, headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=timeout) as r:
        return json.loads(r.read())


def start_server(port: int | None, span: int, start: Callable[[int], Server], tries: int = 3) -> Server:
    """``start(port)``, answering its health check: on ``port``, or where ``port`` is None
    on a :func:`free_port` of ``span`` ports, picked again (``tries`` in all) when the server
    could not listen there because another process took a port first."""
    for attempt in range(tries):
        server = start(port or free_port(span))
        try:
            server.wait_healthy()
        except RuntimeError as e:
            server.stop()
            if port or "address already in use" not in str(e).lower() or attempt == tries - 1:
                raise
            continue
        return server
    raise RuntimeError("start_server: no tries")


class Server:
    """``python -m ricochet serve`` in its own process group (with its solver worker);
    ``limits``: ``--limit NAME=VALUE`` texts (the server's tests use this class too)."""

    def __init__(self, port: int, database: str, log_path: Path, prefix: tuple[str, ...] = (),
                 limits: tuple[str, ...] = SERVER_LIMITS, extra: tuple[str, ...] = ()) -> None:
        self.port = port
        self.base = f"http://127.0.0.1:{port}"
        self.log_path = log_path
        env = dict(os.environ)
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT / "src"), env.get("PYTHONPATH")]))
        self.log = open(log_path, "wb")  # noqa: SIM115 - closed in stop()
        self.proc = subprocess.Popen(
            [*prefix, sys.executable, "-m", "ricochet", "serve", "--host", "127.0.0.1", "--port", str(port),
             "--database", database, "--log-level", "warning", *(a for lim in limits for a in ("--limit", lim)),
             *extra],
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


class HealthSampler:
    """``/api/health`` every half second between two times (a thread): the server's own count
    of open connections, to check the flood's bound where it is enforced."""

    def __init__(self, base: str) -> None:
        self.base = base
        self.connections: list[int] = []
        self.rooms: list[int] = []
        self.thread: threading.Thread | None = None

    def at(self, start: float, end: float) -> None:
        def run() -> None:
            time.sleep(max(0.0, start - time.monotonic()))
            while time.monotonic() < end:
                with contextlib.suppress(OSError, ValueError):
                    h = http("GET", self.base + "/api/health", timeout=5)
                    self.connections.append(int(h["connections"]))
                    self.rooms.append(int(h["rooms"]))
                time.sleep(0.5)
        self.thread = threading.Thread(target=run, daemon=True)
        self.thread.start()

    def result(self) -> dict[str, Any]:
        if self.thread is not None:
            self.thread.join(timeout=60)
        return {"samples": len(self.connections), "max_connections": max(self.connections, default=None),
                "max_rooms": max(self.rooms, default=None)}


def flood_section(result: dict[str, Any], health: dict[str, Any], honest_connections: int) -> dict[str, Any]:
    """The report's "flood": the flooder's counts, their rates, and whether the server held
    the flood to its default limits — rooms accepted per address at most ``room_burst`` plus
    ``rooms_per_minute`` for the time it ran, connections open on the server at most the honest
    ones plus ``connections_per_address`` per flood address — and whether the flood reached
    those limits at all (every kind that has a limit was refused some: else it tested nothing)."""
    from ricochet.server.limits import ServerLimits

    lim = ServerLimits()
    seconds = max(result["seconds"], 1e-9)
    addresses = len(result["addresses"])
    room_bound = lim.room_burst + lim.rooms_per_minute * seconds / 60
    rooms_max = max(result["rooms_accepted"].values(), default=0)
    conn_bound = honest_connections + addresses * lim.connections_per_address
    server_max = health["max_connections"]
    kinds = result["kinds"]
    ran = set(result["ran"]) | ({"connections"} if "messages" in result["ran"] else set())
    limited = [k for k in ("rooms", "connections", "messages") if k in ran]
    return {
        **result,
        "rates": {k: c["attempts"] / seconds for k, c in kinds.items()},
        "messages_unread": kinds["messages"]["attempts"] - sum(kinds["messages"][o] for o in
                                                                ("accepted", "refused", "other")),
        "room_bound_per_address": room_bound, "rooms_accepted_max_per_address": rooms_max,
        "connections_per_address": lim.connections_per_address, "honest_connections": honest_connections,
        "server_connections_max": server_max, "server_connections_bound": conn_bound,
        "health_samples": health["samples"],
        "bounded": rooms_max <= room_bound and server_max is not None and server_max <= conn_bound,
        "limits_reached": bool(limited) and all(kinds[k]["refused"] > 0 for k in limited),
    }


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
    log_path = Path(cfg.server_log) if cfg.server_log else tmp / "server.log"
    games = [cfg.games[i % len(cfg.games)] for i in range(cfg.rooms)]
    options = {g: room_options(cfg, g) for g in dict.fromkeys(games)}
    settle = 0.5  # seconds after the clock for the demonstrations to begin
    lead = cfg.stagger + cfg.clock_seconds + settle  # from the go to the measured window
    sources = [room_source(i) for i in range(cfg.rooms)] if cfg.limited else None
    loadavg_before = os.getloadavg()
    server: Server | None = None
    procs: list[subprocess.Popen[str]] = []
    flooder: subprocess.Popen[str] | None = None
    flood_result: dict[str, Any] | None = None
    health: HealthSampler | None = None
    try:
        t_launch = time.monotonic()
        workers_args = ("--workers", str(cfg.server_workers)) if cfg.server_workers > 1 else ()
        server = start_server(cfg.port, cfg.server_workers + 1 if cfg.server_workers > 1 else 1,
                              lambda port: Server(port, database, log_path, tuple(cfg.server_prefix),
                                                  limits=() if cfg.limited else SERVER_LIMITS,
                                                  extra=("--trainer-pool", str(cfg.trainer_pool), *workers_args)))
        port = server.port
        say(f"server up on 127.0.0.1:{port} in {time.monotonic() - t_launch:.1f} s (pid {server.proc.pid})")

        from concurrent.futures import ThreadPoolExecutor

        with ThreadPoolExecutor(8) as pool:
            created = list(pool.map(lambda i: http("POST", server.base + "/api/rooms", options[games[i]],
                                                   source=sources[i] if sources else None), range(cfg.rooms)))
        room_ids = [r["room_id"] for r in created]
        say(f"{len(room_ids)} rooms created; connecting {connections} clients in "
            f"{workers or 'this'} {'process' if workers <= 1 else 'processes'}")
        base_job = {"ws_base": f"ws://127.0.0.1:{port}/ws/", "players": cfg.players, "rate": cfg.rate,
                    "moves_per_player": cfg.moves_per_player, "options": options, "seed": cfg.seed,
                    "clock_seconds": cfg.clock_seconds, "settle": settle, "duration": cfg.duration,
                    "grace": cfg.grace, "stagger": cfg.stagger, "rooms_total": cfg.rooms}
        shares = [list(range(w, cfg.rooms, max(workers, 1))) for w in range(max(workers, 1))]
        jobs = [{**base_job, "indices": s, "room_ids": [room_ids[i] for i in s], "games": [games[i] for i in s],
                 "sources": [sources[i] for i in s] if sources else None}
                for s in shares]
        env = dict(os.environ)
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT / "src"), env.get("PYTHONPATH")]))
        if cfg.flood:
            # Its own process: its event loop and its CPU (niced) apart from the measuring clients'.
            flooder = subprocess.Popen([sys.executable, str(Path(__file__).resolve()), "--flooder"], text=True,
                                       stdin=subprocess.PIPE, stdout=subprocess.PIPE, env=env)
            assert flooder.stdin is not None and flooder.stdout is not None
            flooder.stdin.write(json.dumps({
                "port": port, "addresses": [flood_source(k) for k in range(cfg.flood_addresses)],
                "room_ids": room_ids, "concurrency": cfg.flood_concurrency, "nice": cfg.flood_nice,
                "kinds": list(cfg.flood_kinds), "rate": cfg.flood_rate}) + "\n")
            flooder.stdin.flush()
            if not flooder.stdout.readline():
                raise RuntimeError(f"the flooder exited early ({flooder.wait()})")
            health = HealthSampler(server.base)

        def start_flood(t0: float) -> None:
            """The flood (and the server's health samples) over the measured moves."""
            start, end = t0 + lead, t0 + lead + cfg.duration
            if flooder is not None and health is not None:
                assert flooder.stdin is not None
                flooder.stdin.write(json.dumps({"start": start, "end": end}) + "\n")
                flooder.stdin.flush()
                health.at(start, end)

        results: list[dict[str, Any]] = []
        go_time: list[float] = []
        loop_kind = "asyncio"
        t_connect = time.monotonic()
        if workers == 0:
            sampler = CpuSampler(server.proc.pid, [])

            async def go(ready: dict[str, Any]) -> float:
                return start_window(ready)

            def start_window(ready: dict[str, Any]) -> float:
                say(f"{ready['connections']} connections ready in {time.monotonic() - t_connect:.1f} s")
                t0 = time.monotonic() + 0.5
                go_time.append(t0)
                sampler.at(t0 + lead, t0 + lead + cfg.duration)
                start_flood(t0)
                return t0

            loop_kind = use_uvloop()
            try:
                results.append(asyncio.run(Worker(jobs[0]).run(go)))
            finally:
                asyncio.set_event_loop_policy(None)
            client_cpu = [r["client_cpu_s"] for r in results]
        else:
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
            sampler = CpuSampler(server.proc.pid, [p.pid for p in procs])
            t0 = time.monotonic() + 0.5
            go_time.append(t0)
            sampler.at(t0 + lead, t0 + lead + cfg.duration)
            start_flood(t0)
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
        if flooder is not None:
            assert flooder.stdout is not None
            line = flooder.stdout.readline()
            if not line:
                raise RuntimeError(f"the flooder failed ({flooder.wait()})")
            flood_result = json.loads(line)["result"]
            flooder.wait(timeout=30)
        server_alive = server.proc.poll() is None
    finally:
        for p in [*procs, *([flooder] if flooder is not None else [])]:
            if p.poll() is None:
                p.kill()
        if server is not None:
            server.stop()
        server_tail = server.tail() if server is not None else ""
        if cfg.database is None:
            shutil.rmtree(tmp, ignore_errors=True)

    # Staggered starts: only the moves of the measured window (all rooms playing) count.
    first_counted = lead if cfg.stagger > 0 else float("-inf")
    lat = sorted(x * 1000 for r in results for x, t in zip(r["latencies"], r["sent_at"], strict=True)
                 if t >= first_counted)
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
    received: Counter[str] = Counter()
    for r in results:
        received.update(r["latency_games"])
        for x, g, t in zip(r["latencies"], r["latency_games"], r["sent_at"], strict=True):
            if t >= first_counted:
                by_game[g].append(x * 1000)
    moves_by_game: Counter[str] = Counter()
    for r in results:
        moves_by_game.update(r["moves_by_game"])
    per_game = []
    for g, xs in by_game.items():
        xs.sort()
        per_game.append({"game": g, "rooms": games.count(g), "moves_broadcast": moves_by_game[g],
                         "broadcasts": received[g], "p50_ms": percentile(xs, 50), "p99_ms": percentile(xs, 99),
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
        "moves_per_s": moves / span if span > 0 else None, "move_window_s": span,
        "broadcasts": sum(len(r["latencies"]) for r in results), "broadcasts_in_percentiles": len(lat),
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
    report["loadavg_before"], report["loadavg_after"] = list(loadavg_before), list(os.getloadavg())
    report["per_address_limits"] = cfg.limited
    report["server_cpu_ms_per_move"] = cpu_per_move(report, results, go_time[0] if go_time else None,
                                                        cfg.players)
    if flood_result is not None and health is not None:
        report["flood"] = flood_section(flood_result, health.result(), report["connections"])
    at_target = cfg.rooms == TARGET_ROOMS and cfg.players == TARGET_PLAYERS
    ok = bool(lat) and report["errors"] == 0 and report["p99_ms"] is not None and report["p99_ms"] < TARGET_P99_MS
    if cfg.flood:
        ok = ok and "flood" in report and report["flood"]["bounded"] and report["flood"]["limits_reached"]
    report["at_target_size"] = at_target
    report["passed"] = ok
    return report


def cpu_per_move(report: dict[str, Any], results: list[dict[str, Any]], t0: float | None,
                 players: int) -> float | None:
    """The server's CPU milliseconds per move: its CPU seconds over the measured window divided by
    the moves sent in that window (each move is one broadcast per player of its room)."""
    window, cpu_s = report.get("cpu_window"), report.get("server_cpu_s")
    if not window or cpu_s is None or t0 is None:
        return None
    lo, hi = window[0] - t0, window[1] - t0
    broadcasts = sum(1 for r in results for t in r["sent_at"] if lo <= t < hi)
    moves = broadcasts / max(1, players)
    return 1000 * cpu_s / moves if moves else None


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
        ("broadcasts received", f"{r['broadcasts']} of {r['broadcasts_expected']} expected"
         + (f" ({r['broadcasts_in_percentiles']} in the measured window)"
            if r.get("broadcasts_in_percentiles", r["broadcasts"]) != r["broadcasts"] else "")),
        ("latency p50 (ms)", _fmt(r["p50_ms"])), ("latency p90 (ms)", _fmt(r["p90_ms"])),
        ("latency p99 (ms)", _fmt(r["p99_ms"])), ("latency max (ms)", _fmt(r["max_ms"])),
        ("messages received (mean size)", f"{r['messages']} ({r['bytes_per_message'] / 1024:.1f} KiB)"),
        ("errors", r["errors"]),
        ("server processes", r.get("server_processes")),
        ("server CPU % (all its processes)", _fmt(r["server_cpu_pct"], 0)),
        ("proxy CPU % (HAProxy)", _fmt(r.get("proxy_cpu_pct"), 0)),
        ("server CPU ms per move", _fmt(r.get("server_cpu_ms_per_move"), 2)),
        ("server's solver process CPU %", _fmt(r["solver_cpu_pct"], 0)),
        ("client CPU % (all client processes)", _fmt(r["client_cpu_pct"], 0)),
        ("load average 1/5/15 min, before → after", " ".join(f"{x:.2f}" for x in r["loadavg_before"])
         + " → " + " ".join(f"{x:.2f}" for x in r["loadavg_after"])),
    ]
    w = max(len(k) for k, _ in rows)
    clients = (f"{r['workers']} {'process' if r['workers'] == 1 else 'processes'}" if r["workers"]
               else "in the benchmark's process")
    lines = [(f"Server load: {', '.join(cfg['games'])} rooms, {cfg['rate']:g} moves/s per room, "
              f"{cfg['duration']:g} s of moves, {cfg['moves_per_player']} moves per demonstration, "
              + (f"rooms started over {cfg['stagger']:g} s, " if cfg.get("stagger") else "") +
              f"clients: {clients} ({r['loop']})"),
             (f"Machine: {r['cores']} cores shared by the server, its solver process and the clients "
              f"(CPU % is of one core; 100 % = one core busy)"),
             ("Per-address limits: on (the server's defaults; each room and its players from an address "
              "of its own)" if r.get("per_address_limits") else
              "Per-address limits: off (every client comes from 127.0.0.1)"), "",
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
    if r.get("flood"):
        lines += ["", *format_flood(r["flood"])]
    lines.append("")
    verdict = "PASS" if r["passed"] else "FAIL"
    target = f"p99 < {TARGET_P99_MS:g} ms and no errors at {TARGET_ROOMS} rooms x {TARGET_PLAYERS} players"
    if r.get("flood"):
        target += " while a flood runs, held to the per-address limits"
    if r["at_target_size"]:
        lines.append(f"{verdict}: target {target}")
    else:
        lines.append(f"{verdict} (p99 < {TARGET_P99_MS:g} ms, no errors) at this size; the target is {target}")
    if r.get("server_log_tail"):
        lines += ["", "server log (last lines):", r["server_log_tail"]]
    return "\n".join(lines)


def format_flood(f: dict[str, Any]) -> list[str]:
    """The "flood" section of the report."""
    n = len(f["addresses"])
    rate = f"at most {f['rate']:g}/s per kind and address" if f["rate"] else "as fast as the server answers"
    lines = [(f"flood from {', '.join(f['addresses'])} ({f['concurrency']} in flight per kind and address, {rate}), "
             f"{f['seconds']:.1f} s, flooder CPU {f['cpu_s']:.1f} s:"),
             f"  {'kind':<12} {'attempts':>9} {'per s':>8} {'accepted':>9} {'refused':>9} {'other':>7}"]
    for kind, c in f["kinds"].items():
        lines.append(f"  {kind:<12} {c['attempts']:>9} {f['rates'][kind]:>8.0f} {c['accepted']:>9} "
                     f"{c['refused']:>9} {c['other']:>7}")
    lines += [
        ("  (refused: by the server's limits — 429 for rooms and lobby reads, too_many_connections or a "
         "paced handshake (403) for connections, "
        "rate_limited for messages; messages accepted: handled, a pong, a welcome or a rules error; "
        f"{f['messages_unread']} messages were still unread when the server closed their connection)"),
        (f"  rooms accepted per address: max {f['rooms_accepted_max_per_address']} "
        f"(bound {f['room_bound_per_address']:.1f}: the burst plus the rate over the flood)"),
        f"  connections open on the server (/api/health, {f['health_samples']} samples): max "
        f"{_fmt(f['server_connections_max'])} (bound {f['server_connections_bound']} = {f['honest_connections']} "
        f"honest + {n} x {f['connections_per_address']}); held at once per address, the flooder's view: "
        + ", ".join(f"{a} {v}" for a, v in f["max_held"].items()),
        (f"  bounded: {'yes' if f['bounded'] else 'NO'}; limits reached (rooms, connections, messages refused): "
        f"{'yes' if f['limits_reached'] else 'NO'}"),
    ]
    if f["detail"]:
        lines.append("  details: " + "; ".join(f"{k} x{v}" for k, v in list(f["detail"].items())[:12]))
    return lines


def median(values: list[float]) -> float | None:
    xs = sorted(v for v in values if v is not None)
    if not xs:
        return None
    mid = len(xs) // 2
    return xs[mid] if len(xs) % 2 else (xs[mid - 1] + xs[mid]) / 2


def format_comparison(runs: dict[str, list[dict[str, Any]]]) -> str:
    """Baseline and flood runs side by side, then the median of each phase."""
    lines = [("| phase | run | p50 ms | p90 ms | p99 ms | max ms | moves/s | errors | server CPU % | "
             "flood attempts (rooms / lobby / conn / msgs) | refused | load avg before | pass |"),
             "|---|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for phase, reports in runs.items():
        for i, r in enumerate(reports, 1):
            f = r.get("flood")
            attempts = " / ".join(str(f["kinds"][k]["attempts"]) for k in FLOOD_KINDS) if f else "-"
            refused = " / ".join(str(f["kinds"][k]["refused"]) for k in FLOOD_KINDS) if f else "-"
            lines.append(f"| {phase} | {i} | {_fmt(r['p50_ms'])} | {_fmt(r['p90_ms'])} | {_fmt(r['p99_ms'])} | "
                         f"{_fmt(r['max_ms'])} | {_fmt(r['moves_per_s'])} | {r['errors']} | "
                         f"{_fmt(r['server_cpu_pct'], 0)} | {attempts} | {refused} | "
                         f"{r['loadavg_before'][0]:.2f} | {'yes' if r['passed'] else 'no'} |")
    lines += ["", "medians:"]
    for phase, reports in runs.items():
        m = {k: median([r[k] for r in reports]) for k in ("p50_ms", "p90_ms", "p99_ms", "max_ms", "server_cpu_pct")}
        lines.append(f"  {phase:<9} p50 {_fmt(m['p50_ms'])}  p90 {_fmt(m['p90_ms'])}  p99 {_fmt(m['p99_ms'])}  "
                     f"max {_fmt(m['max_ms'])} ms, server CPU {_fmt(m['server_cpu_pct'], 0)} % "
                     f"({len(reports)} run{'s' if len(reports) != 1 else ''})")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["--worker"]:
        return worker_main()
    if argv[:1] == ["--flooder"]:
        return flooder_main()
    d = LoadConfig()
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.ArgumentDefaultsHelpFormatter)
    ap.add_argument("--rooms", type=int, default=d.rooms)
    ap.add_argument("--players", type=int, default=d.players, help="WebSocket clients per room (1..8)")
    ap.add_argument("--rate", type=float, default=d.rate, help="moves per second by each room's demonstrator")
    ap.add_argument("--moves-per-player", type=int, default=d.moves_per_player,
                    help="a demonstrator gives up after this many moves and the next bidder demonstrates")
    ap.add_argument("--duration", type=float, default=d.duration, help="seconds of measured moves")
    ap.add_argument("--stagger", type=float, default=d.stagger, metavar="SECONDS",
                    help="start the rooms evenly over this many seconds (0: all at once; "
                         "moves-per-player / rate spreads their hand-overs evenly); the measured "
                         "window begins once every room plays")
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
    ap.add_argument("--spread", action="store_true",
                    help="each room and its players from a loopback address of its own, with the server's "
                         "per-address limits on (what --flood's baseline runs)")
    ap.add_argument("--flood", action="store_true",
                    help="a baseline run (--spread), then the same while a flooder attacks from other "
                         "addresses; PASS needs p99 < 100 ms, no errors and a flood held to the limits")
    ap.add_argument("--flood-addresses", type=int, default=d.flood_addresses, help="addresses of the flooder")
    ap.add_argument("--flood-concurrency", type=int, default=d.flood_concurrency,
                    help="flood requests / connection attempts in flight per kind and address")
    ap.add_argument("--flood-kinds", default=",".join(d.flood_kinds), metavar="KIND,...",
                    help=f"what the flooder does, some of {', '.join(d.flood_kinds)}")
    ap.add_argument("--flood-rate", type=float, default=d.flood_rate,
                    help="flood attempts per second per kind and address (0: as fast as the server answers)")
    ap.add_argument("--flood-nice", type=int, default=d.flood_nice,
                    help="niceness of the flooder process (0: it competes for the CPU with the rest)")
    ap.add_argument("--no-baseline", action="store_true", help="with --flood: the flood runs only")
    ap.add_argument("--repeat", type=int, default=1,
                    help="with --flood: this many baseline + flood pairs, alternating; medians reported")
    ap.add_argument("--server-workers", type=int, default=d.server_workers, metavar="N",
                    help="the server's --workers: N worker processes behind HAProxy (1: one process)")
    ap.add_argument("--trainer-pool", type=int, default=d.trainer_pool,
                    help="the server's --trainer-pool (0: no puzzles made in the background)")
    ap.add_argument("--quiet", action="store_true")
    a = ap.parse_args(argv)
    if a.flood and not (1 <= a.flood_addresses <= 200 and a.flood_concurrency >= 1 and a.repeat >= 1):
        ap.error("--flood: 1..200 flood addresses, a concurrency of 1 or more, --repeat 1 or more")
    flood_kinds = tuple(k.strip() for k in a.flood_kinds.split(",") if k.strip())
    if not flood_kinds or not set(flood_kinds) <= set(d.flood_kinds):
        ap.error(f"--flood-kinds: some of {', '.join(d.flood_kinds)}")
    if (a.spread or a.flood) and a.rooms > MAX_SPREAD_ROOMS:
        ap.error(f"--spread/--flood: at most {MAX_SPREAD_ROOMS} rooms")
    if not 1 <= a.players <= 8 or a.rooms < 1 or a.rate <= 0 or a.rate > 10 or a.duration <= 0:
        ap.error("need 1..8 players, at least one room, a rate in (0, 10] moves/s and a positive duration")
    if not 0 <= a.stagger <= 600:
        ap.error(f"--stagger: 0 to 600 seconds, not {a.stagger:g}")
    games = tuple(g.strip() for g in a.games.split(",") if g.strip())
    unknown = [g for g in games if g not in GAMES]
    if not games or unknown:
        ap.error(f"--games: name one or more of {', '.join(GAMES)}" + (f" (not {unknown[0]!r})" if unknown else ""))
    cfg = LoadConfig(rooms=a.rooms, players=a.players, rate=a.rate, moves_per_player=a.moves_per_player,
                     duration=a.duration, workers=a.workers, port=a.port, database=a.database, tiles=a.tiles, games=games,
                     clock_seconds=a.clock, quiet=a.quiet, server_prefix=tuple(shlex.split(a.server_prefix)),
                     spread=a.spread, flood_addresses=a.flood_addresses, flood_concurrency=a.flood_concurrency,
                     flood_nice=a.flood_nice, flood_kinds=flood_kinds, flood_rate=a.flood_rate,
                     trainer_pool=a.trainer_pool, server_workers=a.server_workers, stagger=a.stagger)
    if a.flood:
        return flood_main(cfg, repeat=a.repeat, baseline=not a.no_baseline, json_path=a.json)
    report = run_benchmark(cfg)
    print(format_report(report))
    if a.json:
        Path(a.json).write_text(json.dumps(report, indent=2))
    return 0 if report["passed"] else 1


def flood_main(cfg: LoadConfig, *, repeat: int, baseline: bool, json_path: str | None) -> int:
    """``--flood``: ``repeat`` pairs of runs on fresh servers, alternating so that both phases
    see the same machine — a baseline (per-address limits on, no flood) and the flood run —
    then both side by side.  Exit status 0 when every flood run passed."""
    import dataclasses

    runs: dict[str, list[dict[str, Any]]] = {"baseline": [], "flood": []} if baseline else {"flood": []}
    for i in range(repeat):
        for phase, reports in runs.items():
            if not cfg.quiet:
                print(f"-- {phase} run {i + 1} of {repeat} (load average {os.getloadavg()[0]:.2f})",
                      file=sys.stderr, flush=True)
            report = run_benchmark(dataclasses.replace(cfg, spread=True, flood=phase == "flood"))
            print(format_report(report), flush=True)
            print(flush=True)
            reports.append(report)
    print(format_comparison(runs))
    passed = all(r["passed"] for r in runs["flood"])
    print(f"\n{'PASS' if passed else 'FAIL'}: every flood run (of {repeat}) kept p99 < {TARGET_P99_MS:g} ms with no "
          "errors among the honest players, and the server held the flood to its per-address limits"
          if passed else f"\nFAIL: {sum(not r['passed'] for r in runs['flood'])} of {repeat} flood runs failed")
    if json_path:
        Path(json_path).write_text(json.dumps({"runs": runs, "passed": passed}, indent=2))
    return 0 if passed else 1


if __name__ == "__main__":
    sys.exit(main())
