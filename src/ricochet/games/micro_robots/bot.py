"""Micro Robots bots: they race people to announce, at several speeds and error rates.

A bot sees the target rolled, "thinks" for a time that grows with the length
of the shortest route (its level sets how long and how often it miscounts),
announces if nobody was faster, then demonstrates move by move.  A miscount
announces one move more or fewer than it found; when no route has that many
moves the demonstration fails, and the bot pays the chip like anyone else.
A weaker level is slower and miscounts more often, but it announces in every
round nobody wins the race before it: when the target would be rolled again
before it has finished thinking, it announces what it has :data:`HURRY`
seconds before.  :func:`plan_announce` and :func:`announce_time` are that
decision as pure functions (shared with ``benchmarks/bots.py``).
"""

from __future__ import annotations

import asyncio
import random
from dataclasses import dataclass
from typing import Any

from ..interface import BotClient
from ..seat_bot import HURRY, SeatBot
from .engine import MicroBoard, Space, best_route, exact_route

__all__ = ["HURRY", "LEVELS", "AnnouncePlan", "MicroBot", "MicroLevel", "announce_time", "plan_announce"]


@dataclass(frozen=True)
class MicroLevel:
    """``think`` seconds before announcing: ``base`` plus ``per_move`` per move of
    the route found (±30 %); ``miscount``: chance to announce a wrong number;
    ``move_delay``: seconds between demonstrated moves."""

    name: str
    base: float
    per_move: float
    miscount: float
    move_delay: float


LEVELS: dict[str, MicroLevel] = {
    "beginner": MicroLevel("beginner", 12.0, 4.0, 0.30, 1.0),
    "intermediate": MicroLevel("intermediate", 6.0, 2.0, 0.15, 0.8),
    "expert": MicroLevel("expert", 3.0, 1.0, 0.05, 0.6),
    "perfect": MicroLevel("perfect", 1.0, 0.4, 0.0, 0.5),
}



@dataclass(frozen=True)
class AnnouncePlan:
    """A bot's round: it has counted ``moves`` (maybe miscounted) ``think`` seconds after the roll."""

    think: float
    moves: int


def plan_announce(level: MicroLevel, shortest: int, rng: random.Random) -> AnnouncePlan:
    """What a bot of ``level`` makes of a target whose shortest route has ``shortest`` moves."""
    think = (level.base + level.per_move * shortest) * rng.uniform(0.7, 1.3)
    moves = shortest
    if rng.random() < level.miscount:
        moves = max(1, shortest + rng.choice((-1, 1)))
    return AnnouncePlan(think, moves)


def announce_time(plan: AnnouncePlan, rolled_at: float, reroll_at: float | None) -> float:
    """When the bot announces: when it has counted, or :data:`HURRY` seconds before the target is
    rolled again (``reroll_at``), whichever comes first."""
    ready = rolled_at + plan.think
    return ready if reroll_at is None else max(rolled_at, min(ready, reroll_at - HURRY))


def _cell(v: Any) -> tuple[int, int]:
    return (int(v[0]), int(v[1]))


class MicroBot(SeatBot):
    """One bot seat of a Micro Robots room; ``speed`` scales every delay (0: none, for tests)."""

    def __init__(self, client: BotClient, level: str, *, speed: float = 1.0, rng: random.Random | None = None) -> None:
        if level not in LEVELS:
            raise ValueError(f"unknown bot level {level!r}; choose one of {', '.join(LEVELS)}")
        super().__init__(client, speed)
        self.level = LEVELS[level]
        self.rng = rng or random.Random()
        self._thinking: asyncio.Task[None] | None = None
        self._demo: asyncio.Task[None] | None = None
        self._seen: set[tuple[int, int, float]] = set()
        self.plan: list[tuple[int, int]] | None = None

    def _board(self, state: dict[str, Any]) -> MicroBoard:
        return MicroBoard(tuple(tuple(Space(c["color"], c["number"]) for c in row) for row in state["board"]))

    def tasks(self) -> list[asyncio.Task[Any] | None]:
        return [self._thinking, self._demo]

    def look(self, event: dict[str, Any] | None = None) -> None:
        state = self.client.state
        if state is None or self.me is None or state.get("board") is None:
            return
        rnd = state.get("round")
        me = next((p for p in state["players"] if p["id"] == self.me), None)
        if rnd is None or me is None or not me["seated"]:
            return
        key = ((self.client.room or {}).get("game_number", 1), rnd["number"], rnd["rolled_at"])
        if state["phase"] == "racing" and key not in self._seen:
            self._seen.add(key)
            if self._thinking is not None:
                self._thinking.cancel()
            self._thinking = asyncio.ensure_future(self._think(key, state))
        if state["phase"] == "demonstration" and rnd["announcer"] == self.me and (self._demo is None or self._demo.done()):
            self._demo = asyncio.ensure_future(self._demonstrate())

    async def _think(self, key: tuple[int, int, float], state: dict[str, Any]) -> None:
        board, rnd = self._board(state), state["round"]
        via = _cell(rnd["via"]) if rnd.get("via") else None
        route = best_route(board, _cell(rnd["start"]), _cell(rnd["target"]), via)
        if route is None:
            return
        plan = plan_announce(self.level, len(route) - 1, self.rng)
        n = plan.moves
        loop = asyncio.get_running_loop()
        ready = loop.time() + plan.think * self.speed
        while self.speed > 0:  # until counted, or hurried by the coming re-roll (announce_time, in real time)
            now = self.client.state
            if now is None or now["phase"] != "racing" or now["round"] is None or now["round"]["number"] != key[1] \
                    or now["round"]["rolled_at"] != key[2]:
                return  # someone was faster, or the target was rolled again
            wait = min(ready - loop.time(), now["round"]["reroll_at"] - HURRY - self.client.server_now())
            if wait <= 0:
                break
            await self.doze(wait)
        now = self.client.state
        if now is None or now["phase"] != "racing" or now["round"] is None or now["round"]["number"] != key[1] \
                or now["round"]["rolled_at"] != key[2]:
            return  # someone was faster, or the target was rolled again
        self.plan = exact_route(board, _cell(rnd["start"]), _cell(rnd["target"]), n, via) or route
        await self.client.send({"type": "announce", "moves": n})

    async def _demonstrate(self) -> None:
        state = self.client.state
        if state is None:
            return
        rnd = state["round"]
        plan = self.plan
        start = _cell(rnd["start"])
        if not plan or plan[0] != start:  # e.g. after a restart: find a route again
            board = self._board(state)
            via = _cell(rnd["via"]) if rnd.get("via") else None
            plan = exact_route(board, start, _cell(rnd["target"]), rnd["announced"], via) \
                or best_route(board, start, _cell(rnd["target"]), via)
        if not plan:
            await self.client.send({"type": "give_up"})
            return
        board = self._board(state)
        route = [list(c) for c in plan]
        done = len(rnd["route"]) - 1
        # A miscounted plan runs out of moves or keeps going: wander back and forth until the count is used.
        while len(route) - 1 < rnd["announced"]:
            here = _cell(route[-1])
            route.append(list(board.moves(here)[0]))
        for to in route[1 + done:rnd["announced"] + 1]:
            await self.sleep(self.level.move_delay)
            st = self.client.state
            if st is None or st["phase"] != "demonstration" or st["round"]["announcer"] != self.me:
                return
            await self.client.send({"type": "move_robot", "to": to})
