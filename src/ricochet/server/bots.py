"""Solver-backed bots that play through the protocol, like people.

A :class:`Bot` holds a :class:`~ricochet.server.client.RicochetClient` (an
in-process connection when the server runs it, or a real WebSocket) and
reacts to what it sees: when a chip is drawn it "thinks" (the solver, from the
public state only, plus a human-like delay), bids what it found — maybe a
little more, maybe nothing at all, depending on its level — and, when its turn
to demonstrate comes, plays its solution move by move with a pause between
moves so people can follow.

Levels (see ``docs/protocol.md``): ``beginner``, ``intermediate``, ``expert``,
``perfect``.
"""

from __future__ import annotations

import asyncio
import logging
import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..board import Board, Diagonal, Target
from ..geometry import Direction
from ..position import Move, Position, Robot
from ..puzzle import Puzzle
from ..rules import Rules
from .client import ClientError, InProcessTransport, RicochetClient
from .solving import Answer, SolverService

if TYPE_CHECKING:
    from .rooms import RoomManager

log = logging.getLogger("ricochet.server")


@dataclass(frozen=True)
class BotLevel:
    """How a bot plays: ``think`` (seconds, drawn uniformly) before it bids,
    ``depth`` (longest solution it can find), ``miss`` (chance it finds nothing
    this round), ``higher`` (chance it bids above what it found, by 1 to
    ``higher_by``), ``move_delay`` (seconds between demonstrated moves)."""

    name: str
    think: tuple[float, float]
    depth: int
    miss: float
    higher: float
    higher_by: int
    move_delay: float


LEVELS: dict[str, BotLevel] = {
    "beginner": BotLevel("beginner", (20.0, 40.0), 6, 0.40, 0.40, 3, 0.9),
    "intermediate": BotLevel("intermediate", (10.0, 25.0), 9, 0.20, 0.25, 2, 0.7),
    "expert": BotLevel("expert", (4.0, 12.0), 14, 0.05, 0.10, 1, 0.5),
    "perfect": BotLevel("perfect", (1.0, 3.0), 25, 0.0, 0.0, 0, 0.4),
}


def board_from_view(d: dict[str, Any]) -> Board:
    """The :class:`Board` of a public state's ``board`` object."""
    return Board(
        d["width"], d["height"], tuple(d["walls"]), frozenset(tuple(c) for c in d["blocked"]),
        tuple(Target(tuple(t["cell"]), t["color"], t["symbol"]) for t in d["targets"]),  # type: ignore[arg-type]
        tuple(Diagonal(tuple(g["cell"]), g["color"], g["orientation"]) for g in d["diagonals"]),  # type: ignore[arg-type]
        frozenset((tuple(c), Direction[side]) for c, side in d["openings"]),  # type: ignore[misc]
    )


def puzzle_from_view(state: dict[str, Any]) -> tuple[Puzzle, Rules] | None:
    """The puzzle of the round in play, from public information only."""
    rnd = state.get("round")
    if rnd is None or state.get("board") is None:
        return None
    board = board_from_view(state["board"])
    robots = tuple(Robot(r["color"], (r["cell"][0], r["cell"][1])) for r in rnd["start"])
    rules = Rules(**state["config"]["rules"])
    return Puzzle(Position(board, robots), (rnd["target"][0], rnd["target"][1]), rnd["active"]), rules


class Bot:
    """One bot seat.  ``solve(puzzle, rules)`` returns an awaitable :class:`Answer`;
    ``speed`` scales every delay (0: no delays, for tests)."""

    def __init__(self, client: RicochetClient, level: str, solve: Callable[[Puzzle, Rules], Any], *,
                 speed: float = 1.0, rng: random.Random | None = None) -> None:
        if level not in LEVELS:
            raise ValueError(f"unknown bot level {level!r}; choose one of {', '.join(LEVELS)}")
        self.client = client
        self.level = LEVELS[level]
        self.solve = solve
        self.speed = speed
        self.rng = rng or random.Random()
        self.me: str | None = None
        self.solutions: dict[tuple[int, int], tuple[Move, ...]] = {}
        self._thinking: asyncio.Task[None] | None = None
        self._demo: asyncio.Task[None] | None = None
        self._thought: set[tuple[int, int]] = set()

    async def sleep(self, seconds: float) -> None:
        if self.speed > 0 and seconds > 0:
            await asyncio.sleep(seconds * self.speed)

    @property
    def game(self) -> int:
        return int(self.client.room["game"]) if self.client.room else 1

    async def run(self, seat_token: str) -> None:
        """Take the seat and play until the connection closes or the task is cancelled."""
        welcome = await self.client.hello(seat_token=seat_token)
        self.me = welcome["you"]["player"]
        try:
            self._look()
            async for msg in self.client:
                if msg["type"] in ("event", "sync"):
                    self._look(msg.get("event"))
        finally:
            for t in (self._thinking, self._demo):
                if t is not None:
                    t.cancel()

    def _look(self, event: dict[str, Any] | None = None) -> None:
        """React to the state as it is now."""
        state = self.client.state
        if state is None or self.me is None:
            return
        kind = event["type"] if event else None
        if kind in ("game_reset", "game_ended"):
            for t in (self._thinking, self._demo):
                if t is not None:
                    t.cancel()
            return
        rnd = state.get("round")
        me = next((p for p in state["players"] if p["id"] == self.me), None)
        if rnd is None or me is None or not me["seated"]:
            return
        key = (self.game, rnd["number"])
        if state["phase"] in ("thinking", "bidding") and key not in self._thought:
            self._thought.add(key)
            if self._thinking is not None:
                self._thinking.cancel()
            self._thinking = asyncio.ensure_future(self._think(key, state))
        if (state["phase"] == "demonstration" and rnd["demonstrator"] == self.me
                and (self._demo is None or self._demo.done())
                and (kind in (None, "demonstration_started"))):
            self._demo = asyncio.ensure_future(self._demonstrate(key))

    async def _think(self, key: tuple[int, int], state: dict[str, Any]) -> None:
        found = puzzle_from_view(state)
        if found is None:
            return
        puzzle, rules = found
        answer: Answer = await self.solve(puzzle, rules)
        lo, hi = self.level.think
        await self.sleep(self.rng.uniform(lo, hi))
        if answer.optimal is None or answer.optimal > self.level.depth or self.rng.random() < self.level.miss:
            await self._turn_clock_when_allowed(key)  # did not see it
            return
        self.solutions[key] = answer.moves
        bid = answer.optimal
        if self.level.higher_by and self.rng.random() < self.level.higher:
            bid += self.rng.randint(1, self.level.higher_by)
        now = self.client.state
        if now is None or now.get("round") is None or (self.game, now["round"]["number"]) != key:
            return
        if now["phase"] not in ("thinking", "bidding"):
            return
        mine = next((b["moves"] for b in now["round"]["standing"] if b["player"] == self.me), None)
        if mine is not None and mine <= bid:
            return
        await self.client.bid(max(1, bid))

    async def _turn_clock_when_allowed(self, key: tuple[int, int]) -> None:
        """Nobody should wait forever for a chip too hard for the table: once
        the no-bid wait is over (ruling 8), a bot that found nothing turns the
        sand clock if still nobody has bid.  Only in real time (speed > 0):
        tests drive the clock themselves."""
        state = self.client.state
        if self.speed <= 0 or state is None or state.get("round") is None:
            return
        at = state["round"].get("clock_turnable_at")
        if at is None:
            return
        await asyncio.sleep(max(0.0, float(at) - self.client.server_now()))
        now = self.client.state
        if (now is not None and now.get("round") is not None and now["phase"] == "thinking"
                and (self.game, now["round"]["number"]) == key):
            await self.client.turn_clock()

    async def _demonstrate(self, key: tuple[int, int]) -> None:
        moves = self.solutions.get(key)
        state = self.client.state
        if not moves and state is not None:
            # e.g. after a server restart: find again what this bot found when it bid
            found = puzzle_from_view(state)
            if found is not None:
                answer: Answer = await self.solve(*found)
                if answer.optimal is not None and answer.optimal <= (state["round"]["demo_bid"] or 0):
                    moves = self.solutions[key] = answer.moves
            state = self.client.state
        if not moves or state is None:
            await self.client.give_up()
            return
        played = [(m["robot"], m["direction"], tuple(m["stop"]) if m.get("stop") else None)
                  for m in state["round"]["moves"]]
        mine = [(m.robot, m.direction.name, m.stop) for m in moves]
        if mine[:len(played)] != played:
            await self.client.give_up()  # resumed mid-way after a different start: cannot follow
            return
        for m in moves[len(played):]:
            await self.sleep(self.level.move_delay)
            st = self.client.state
            if st is None or st["phase"] != "demonstration" or st["round"]["demonstrator"] != self.me:
                return
            await self.client.move(m.robot, m.direction.name, m.stop)


async def run_in_process_bot(manager: RoomManager, room_id: str, seat_token: str, level: str) -> None:
    """Run a bot of the server itself on an in-process connection to the room."""
    client = RicochetClient(transport=InProcessTransport(manager, room_id))
    bot = Bot(client, level, manager.solver.solve, speed=manager.bot_speed, rng=random.Random(manager.rng.random()))
    try:
        await client.connect()
        await bot.run(seat_token)
    except asyncio.CancelledError:
        raise
    except ClientError as e:
        log.info("bot in room %s stopped: %s", room_id, e)
    except Exception:
        log.exception("bot in room %s crashed", room_id)
    finally:
        await client.close()


async def run_remote_bot(url: str, seat_token: str, level: str, *, speed: float = 1.0) -> None:
    """Run a bot over a real WebSocket (``ws://host:port/ws/ROOM``), with its own solver."""
    solver = SolverService("thread")
    async with RicochetClient(url) as client:
        try:
            await Bot(client, level, solver.solve, speed=speed).run(seat_token)
        finally:
            solver.close()
