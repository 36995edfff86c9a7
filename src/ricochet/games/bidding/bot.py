"""Solver-backed bots for the bidding games, playing through the protocol like people.

A :class:`BiddingBot` reacts to what its connection shows: when a goal is up
it "thinks" (the solver, from the public state only, plus a human-like
delay), bids what it found and, when its turn to demonstrate comes, plays its
solution move by move with a pause between moves so people can follow.  A
game supplies ``puzzle_from_view``: the puzzle of the round in play as a
public state shows it.

Levels: ``beginner``, ``intermediate``, ``expert``, ``perfect``.  A weaker level
plays *worse*, not less: it thinks longer and its answers are longer than the
optimum (more so on long puzzles, beyond its ``sight``), but it bids in nearly
every round — rarely it finds nothing (``miss``).  When a running clock would
run out before it has finished thinking, it bids what it has a moment before
(:data:`HURRY` seconds), a little worse still.  :func:`plan_bid` and
:func:`bid_time` are that decision as pure functions (the bot and the
simulation in ``benchmarks/bots.py`` share them).
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ...position import Move
from ...puzzle import Puzzle
from ..interface import BotClient, Compute
from ..jobs import Answer, solve_job
from ..seat_bot import HURRY, SeatBot
from .round import MAX_BID

__all__ = ["HURRY", "LEVELS", "BidPlan", "BiddingBot", "BotLevel", "bid_time", "plan_bid"]


@dataclass(frozen=True)
class BotLevel:
    """How a bot plays: ``think`` (seconds, drawn uniformly) until its answer is
    ready; ``sight``: the longest solution it sees as it is — its answer to a longer
    one is one move longer per move beyond; ``extra``: the chances that its answer
    is 0, 1, 2 … moves longer than that (worse answers); ``miss``: the chance it
    finds nothing this round; ``hurried``: moves it adds when a clock makes it bid
    before its answer is ready; ``move_delay``: seconds between demonstrated moves."""

    name: str
    think: tuple[float, float]
    sight: int
    extra: tuple[float, ...]
    miss: float
    hurried: int
    move_delay: float


LEVELS: dict[str, BotLevel] = {
    "beginner": BotLevel("beginner", (20.0, 40.0), 6, (0.25, 0.35, 0.25, 0.15), 0.10, 2, 0.9),
    "intermediate": BotLevel("intermediate", (10.0, 25.0), 9, (0.50, 0.30, 0.20), 0.05, 1, 0.7),
    "expert": BotLevel("expert", (4.0, 12.0), 14, (0.85, 0.15), 0.02, 1, 0.5),
    "perfect": BotLevel("perfect", (1.0, 3.0), MAX_BID, (1.0,), 0.0, 0, 0.4),
}


@dataclass(frozen=True)
class BidPlan:
    """What a bot will do in a round: its answer is ready ``think`` seconds after the goal is up;
    it bids ``bid`` then, or ``hurried`` if a clock makes it bid earlier (``None``: it found nothing)."""

    think: float
    bid: int | None
    hurried: int | None


def plan_bid(level: BotLevel, optimal: int | None, rng: random.Random, think_scale: float = 1.0) -> BidPlan:
    """A bot's plan for a goal whose optimum is ``optimal`` (``None``: the solver found none)."""
    think = rng.uniform(*level.think) * think_scale
    if optimal is None or rng.random() < level.miss:
        return BidPlan(think, None, None)
    extra = rng.choices(range(len(level.extra)), weights=level.extra)[0]
    bid = min(MAX_BID, optimal + max(0, optimal - level.sight) + extra)
    return BidPlan(think, bid, min(MAX_BID, bid + level.hurried))


def bid_time(plan: BidPlan, drawn_at: float, deadline: float | None) -> tuple[float, int] | None:
    """When a bot with ``plan`` bids, and what, for a goal drawn at ``drawn_at`` whose clock runs
    out at ``deadline`` (``None``: no clock runs): its answer when ready, or its hurried one
    :data:`HURRY` seconds before the deadline; ``None`` when it bids nothing."""
    if plan.bid is None or plan.hurried is None:
        return None
    ready = drawn_at + plan.think
    if deadline is not None and ready > deadline - HURRY:
        return max(drawn_at, deadline - HURRY), plan.hurried
    return ready, plan.bid

PuzzleFromView = Callable[[dict[str, Any]], "Puzzle | None"]


class BiddingBot(SeatBot):
    """One bot seat of a bidding game.  ``compute`` runs a solver job (the
    server's worker); ``speed`` scales every delay (0: no delays, for tests);
    ``think`` scales the thinking time alone (Ricochet Pyramids' 30-second
    timer calls for quicker bots)."""

    def __init__(self, client: BotClient, level: str, compute: Compute, puzzle_from_view: PuzzleFromView, *,
                 speed: float = 1.0, think: float = 1.0, rng: random.Random | None = None) -> None:
        if level not in LEVELS:
            raise ValueError(f"unknown bot level {level!r}; choose one of {', '.join(LEVELS)}")
        super().__init__(client, speed)
        self.level = LEVELS[level]
        self.compute = compute
        self.puzzle_from_view = puzzle_from_view
        self.think_scale = think
        self.rng = rng or random.Random()
        self.solutions: dict[tuple[int, int], tuple[Move, ...]] = {}
        self._thinking: asyncio.Task[None] | None = None
        self._demo: asyncio.Task[None] | None = None
        self._thought: set[tuple[int, int]] = set()

    async def solve(self, puzzle: Puzzle) -> Answer:
        return await self.compute(solve_job(puzzle))  # type: ignore[no-any-return]

    @property
    def game(self) -> int:
        room = self.client.room or {}
        return int(room.get("game_number", 1))

    def tasks(self) -> list[asyncio.Task[Any] | None]:
        return [self._thinking, self._demo]

    def look(self, event: dict[str, Any] | None = None) -> None:
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
        key = (self.game, rnd["number"], rnd.get("draw", 0))
        if state["phase"] in ("thinking", "bidding") and key not in self._thought and rnd.get("open", True):
            self._thought.add(key)
            if self._thinking is not None:
                self._thinking.cancel()
            self._thinking = asyncio.ensure_future(self._think(key, state))
        if (state["phase"] == "demonstration" and rnd["demonstrator"] == self.me
                and (self._demo is None or self._demo.done())
                and (kind in (None, "demonstration_started"))):
            self._demo = asyncio.ensure_future(self._demonstrate(key))

    def _current(self, key: tuple[int, int, int]) -> dict[str, Any] | None:
        now = self.client.state
        if now is None or now.get("round") is None:
            return None
        rnd = now["round"]
        return now if (self.game, rnd["number"], rnd.get("draw", 0)) == key else None

    async def _think(self, key: tuple[int, int, int], state: dict[str, Any]) -> None:
        found = self.puzzle_from_view(state)
        if found is None:
            return
        loop = asyncio.get_running_loop()
        began = loop.time()
        answer = await self.solve(found)
        plan = plan_bid(self.level, answer.optimal, self.rng, self.think_scale)
        if plan.bid is None:
            await self.sleep(plan.think)
            await self._turn_clock_when_allowed(key)  # did not see it
            return
        self.solutions[key[:2]] = answer.moves
        ready = began + plan.think * self.speed if self.speed > 0 else began
        while True:  # until the answer is ready, or a running clock hurries it (bid_time, in real time)
            now = self._current(key)
            if now is None or now["phase"] not in ("thinking", "bidding"):
                return
            wait = ready - loop.time()
            clock = now["round"].get("clock")
            if clock is not None and self.speed > 0:
                wait = min(wait, clock["deadline"] - HURRY - self.client.server_now())
            if wait <= 0:
                break
            await self.doze(wait)
        bid = plan.bid if loop.time() >= ready else plan.hurried
        assert bid is not None
        mine = next((b["moves"] for b in now["round"]["standing"] if b["player"] == self.me), None)
        if mine is not None and mine <= bid:
            return
        await self.client.send({"type": "bid", "moves": bid})

    async def _turn_clock_when_allowed(self, key: tuple[int, int, int]) -> None:
        """Nobody should wait forever for a goal too hard for the table: once
        the no-bid wait is over (ruling 8), a bot that found nothing turns the
        timer if still nobody has bid.  Only in real time (speed > 0): tests
        drive the clock themselves."""
        state = self.client.state
        if self.speed <= 0 or state is None or state.get("round") is None:
            return
        at = state["round"].get("clock_turnable_at")
        if at is None:
            return
        await asyncio.sleep(max(0.0, float(at) - self.client.server_now()))
        now = self._current(key)
        if now is not None and now["phase"] == "thinking":
            await self.client.send({"type": "turn_clock"})

    async def _demonstrate(self, key: tuple[int, int, int]) -> None:
        moves = self.solutions.get(key[:2])
        state = self.client.state
        if not moves and state is not None:
            # e.g. after a server restart: find again what this bot found when it bid
            found = self.puzzle_from_view(state)
            if found is not None:
                answer = await self.solve(found)
                if answer.optimal is not None and answer.optimal <= (state["round"]["demo_bid"] or 0):
                    moves = self.solutions[key[:2]] = answer.moves
            state = self.client.state
        if not moves or state is None:
            await self.client.send({"type": "give_up"})
            return
        played = [(m["robot"], m["direction"], tuple(m["stop"]) if m.get("stop") else None)
                  for m in state["round"]["moves"]]
        mine = [(m.robot, m.direction.name, m.stop) for m in moves]
        if mine[:len(played)] != played:
            await self.client.send({"type": "give_up"})  # resumed mid-way after a different start: cannot follow
            return
        for m in moves[len(played):]:
            await self.sleep(self.level.move_delay)
            st = self.client.state
            if st is None or st["phase"] != "demonstration" or st["round"]["demonstrator"] != self.me:
                return
            msg: dict[str, Any] = {"type": "move", "robot": m.robot, "direction": m.direction.name}
            if m.stop is not None:
                msg["stop"] = list(m.stop)
            await self.client.send(msg)
