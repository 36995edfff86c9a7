"""Shared helpers of the server tests (no tests here): an app on a temp SQLite file with a fake
clock, a tiny deterministic board, and a thin wrapper over Starlette's
in-process WebSocket test session that never blocks forever (``drain`` sends a
``ping`` and reads up to its ``pong``)."""

from __future__ import annotations

import contextlib
import time
import warnings
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any, Self

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from ricochet.board import Board, Target
from ricochet.games.ricochet_robots.game import GameConfig, puzzle_from_view
from ricochet.position import Robot
from ricochet.rules import Rules
from ricochet.server.app import create_app
from ricochet.server.limits import ServerLimits
from ricochet.server.protocol import config_for, game_seed, merge_event_state
from ricochet.server.solving import SolverService
from ricochet.solver import solve

T0 = 1_700_000_000.0

# 6×6, no interior walls: red (0,0) → red circle (5,0) is one move E; green (5,5) → green triangle (0,5) one move W.
BOARD = Board.build(6, 6, targets=[Target((5, 0), "red", "circle"), Target((0, 5), "green", "triangle")])
ROBOTS = (Robot("red", (0, 0)), Robot("green", (5, 5)))


def small_factory(options: Mapping[str, Any], seed: int, game: int) -> Any:
    """A Ricochet Robots room: the room's timing options on the tiny board with plain rules.
    Rooms of other games get their real configuration."""
    if options.get("game", "ricochet-robots") != "ricochet-robots":
        return config_for(options, seed, game)
    return GameConfig(
        board=BOARD, robots=ROBOTS, rules=Rules(), clock_seconds=options["clock_seconds"],
        no_bid_wait_seconds=options["no_bid_wait_seconds"], demo_seconds=options["demo_seconds"],
        demo_seconds_per_move=options["demo_seconds_per_move"],
        intermission_seconds=options["intermission_seconds"], target_score=options["target_score"],
        tournament=options["tournament"], min_players=options["min_players"], seed=game_seed(seed, game))


class Player:
    """One WebSocket test session."""

    def __init__(self, ws: Any) -> None:
        self.ws = ws
        self.welcome: dict[str, Any] | None = None
        self.state: dict[str, Any] | None = None
        self.version = 0
        self.seats: list[dict[str, Any]] | None = None
        """The room's seats as this session last heard of them (its welcome, then each presence
        message), whichever call drained the message."""

    def send(self, **msg: Any) -> None:
        self.ws.send_json(msg)

    def send_text(self, text: str) -> None:
        self.ws.send_text(text)

    def recv(self) -> dict[str, Any]:
        msg: dict[str, Any] = self.ws.receive_json()
        if msg["type"] == "welcome":
            self.welcome, self.state, self.version = msg, msg["state"], msg["version"]
            self.seats = msg["presence"]["seats"]
        elif msg["type"] == "presence":
            self.seats = msg["seats"]
        elif msg["type"] == "event":
            assert msg["version"] == self.version + 1, f"version gap: {self.version} → {msg['version']}"
            self.version = msg["version"]
            assert self.state is not None
            merged = merge_event_state(self.state, msg["state"])
            assert merged is not None, f"cannot merge version {self.version}: {msg['state'].get('extend')}"
            self.state = merged
        elif msg["type"] == "sync":
            self.state, self.version = msg["state"], msg["version"]
        return msg

    def hello(self, name: str | None = None, **kw: Any) -> dict[str, Any]:
        kw.setdefault("protocol", 2)
        self.send(type="hello", name=name, **kw)
        msgs = self.drain()
        for m in msgs:
            if m["type"] in ("welcome", "error"):
                return m
        raise AssertionError(f"no welcome: {msgs}")

    def drain(self) -> list[dict[str, Any]]:
        """Everything the server sent so far (ping → pong marks the end)."""
        self.send(type="ping")
        out = []
        while True:
            m = self.recv()
            if m["type"] == "pong":
                return out
            out.append(m)

    def events(self) -> list[dict[str, Any]]:
        return [m["event"] for m in self.drain() if m["type"] == "event"]

    def do(self, **msg: Any) -> list[dict[str, Any]]:
        """Send one message, return what came back (its events, errors …)."""
        self.send(**msg)
        return self.drain()

    def error(self, **msg: Any) -> dict[str, Any]:
        """Send a message that must be refused; the error message."""
        errors = [m for m in self.do(**msg) if m["type"] == "error"]
        assert errors, f"{msg} was not refused"
        return errors[0]

    def ok(self, **msg: Any) -> list[dict[str, Any]]:
        """Send a message that must be accepted; its events."""
        msgs = self.do(**msg)
        errors = [m for m in msgs if m["type"] == "error"]
        assert not errors, errors
        return [m["event"] for m in msgs if m["type"] == "event"]

    @property
    def id(self) -> str:
        assert self.welcome is not None
        return self.welcome["you"]["player"]  # type: ignore[no-any-return]

    @property
    def token(self) -> str:
        assert self.welcome is not None
        return self.welcome["you"]["seat_token"]  # type: ignore[no-any-return]


class Harness:
    """An app on ``tmp_path/test.db`` with a fake clock (``advance``) and in-thread solver."""

    def __init__(self, tmp_path: Path, *, factory: Any = small_factory, rate: tuple[float, int] = (1000.0, 1000),
                 db: str | None = None, limits: ServerLimits | None = None) -> None:
        self.t = T0
        self.db = db or f"sqlite+aiosqlite:///{tmp_path}/test.db"
        # No per-address limits: every test connection comes from the same "testclient" address.
        self.app = create_app(self.db, now=lambda: self.t, realtime=False, solver=SolverService("thread"),
                              bot_speed=0, config_factory=factory, rate=rate,
                              limits=limits or ServerLimits.unlimited())
        self.stack = contextlib.ExitStack()

    def __enter__(self) -> Self:
        self.client = self.stack.enter_context(TestClient(self.app))
        return self

    def __exit__(self, *exc: object) -> None:
        self.stack.close()

    @property
    def manager(self) -> Any:
        return self.app.state.manager

    def room(self, **options: Any) -> str:
        r = self.client.post("/api/rooms", json=options)
        assert r.status_code == 201, r.text
        return r.json()["room_id"]  # type: ignore[no-any-return]

    def loaded(self, room_id: str) -> Any:
        """The room, loaded from the database if it is not in memory (as a connection would)."""
        return self.client.portal.call(self.manager.get_room, room_id)

    def connect(self, room_id: str) -> Player:
        return Player(self.stack.enter_context(self.client.websocket_connect(f"/ws/{room_id}")))

    def join(self, room_id: str, name: str) -> Player:
        p = self.connect(room_id)
        w = p.hello(name)
        assert w["type"] == "welcome", w
        return p

    @contextlib.contextmanager
    def socket(self, room_id: str) -> Iterator[Player]:
        with self.client.websocket_connect(f"/ws/{room_id}") as ws:
            yield Player(ws)

    def advance(self, seconds: float) -> None:
        """Move the fake clock and let the rooms' clocks run out."""
        self.t += seconds
        self.client.portal.call(self.manager.tick_all)

    def idle(self) -> None:
        """Wait until background work (the solver's reports) is done."""
        self.client.portal.call(self.manager.idle)

    def seats(self, player: Player, pred: Any, timeout: float = 60.0) -> list[dict[str, Any]]:
        """The room's seats as ``player`` last heard of them, once ``pred(seats)`` holds: from its
        welcome or a later presence message, drained here or by an earlier call (the room's bots
        sit down in the background, before or after the welcome: which one is a race)."""
        assert player.seats is not None
        if pred(player.seats):
            return player.seats
        seen = self.wait(player, lambda m: m["type"] == "presence" and pred(m["seats"]), timeout)
        return [m for m in seen if m["type"] == "presence"][-1]["seats"]  # type: ignore[no-any-return]

    def wait(self, player: Player, pred: Any, timeout: float = 60.0) -> list[dict[str, Any]]:
        """Drain ``player`` until a message matches (bots act in the background)."""
        seen: list[dict[str, Any]] = []
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            msgs = player.drain()
            seen += msgs
            if any(pred(m) for m in msgs):
                return seen
            time.sleep(0.01)
        raise AssertionError(f"timed out; saw {[m.get('event', m).get('type') for m in seen]}")


def solution_of(state: dict[str, Any]) -> list[dict[str, Any]]:
    """Optimal moves of the round in play, as ``move`` messages."""
    puzzle = puzzle_from_view(state)
    assert puzzle is not None
    sol = solve(puzzle)  # by the table's rules, which the puzzle carries
    assert sol.solved
    return [{"type": "move", "robot": m.robot, "direction": m.direction.name} for m in sol.moves]
