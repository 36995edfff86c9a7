"""RAMbots bots: they plan their program by searching over their own instructions.

A bot simulates its own RAMbot with the rules engine (the others standing
still: their programs are secret) and searches, level by level, over programs
of up to five instructions from its code pool — a beam search whose width
grows with the level.  A program scores for goals tagged (the game at once
for the last), for the next goal object standing upright and near the nose,
for RAMing the leader, and loses for ending in front of another RAMbot's nose.
The search is a job (:func:`plan_program`) run in the server's worker, off
the event loop.  Goal stacks for the left neighbour: the far beacons first
(a beginner deals them at random).  Under a programming timer a bot compiles
:data:`HURRY` seconds before it runs out at the latest (:func:`compile_time`).
"""

from __future__ import annotations

import asyncio
import random
from collections import Counter
from dataclasses import dataclass
from typing import Any

from ..interface import BotClient, Job
from ..seat_bot import HURRY, SeatBot
from .engine import COLORS, DIRS, Instruction, Obj, Piece, Table, execute

__all__ = ["HURRY", "LEVELS", "RamBot", "compile_time", "plan_program", "think_time"]


@dataclass(frozen=True)
class RamLevel:
    """``width`` of the beam search (0: a random program), ``depth`` (most
    instructions), ``think`` seconds before compiling."""

    name: str
    width: int
    depth: int
    think: float


LEVELS: dict[str, RamLevel] = {
    "beginner": RamLevel("beginner", 0, 3, 8.0),
    "intermediate": RamLevel("intermediate", 4, 3, 5.0),
    "expert": RamLevel("expert", 16, 5, 3.0),
    "perfect": RamLevel("perfect", 48, 5, 1.5),
}



def think_time(level: str, rng: random.Random) -> float:
    """How long a bot of ``level`` thinks over its goal stack or its program."""
    return LEVELS[level].think * rng.uniform(0.6, 1.2)


def compile_time(think: float, since: float, until: float | None) -> float:
    """When a bot that began at ``since`` and thinks ``think`` seconds lays out its program and
    compiles: then, or :data:`HURRY` seconds before the programming timer runs out (``until``)."""
    ready = since + think
    return ready if until is None else max(since, min(ready, until - HURRY))


def _dist(a: tuple[int, int], b: tuple[int, int]) -> int:
    return abs(a[0] - b[0]) + abs(a[1] - b[1])


def score(table: Table, color: str, start: Table, leader: str | None) -> float:
    """How good ``table`` is for ``color`` after its program (higher is better)."""
    me = table.obj(f"bot:{color}")
    goals = table.goal_stack(color)
    tagged = len(start.goal_stack(color)) - len(goals)
    if not goals:
        return 1e9
    value = 1000.0 * tagged
    target = next((o for o in table.objects if o.color == goals[0].color and o.key != me.key and o.kind == "beacon"),
                  None) or next(o for o in table.objects if o.color == goals[0].color)
    d = _dist(me.cell, target.cell)
    value -= 10.0 * d
    if target.upright:
        value += 60.0  # ready to be tagged
        if me.facing is not None:
            dx, dy = DIRS[me.facing]
            ahead = (me.cell[0] + dx * d, me.cell[1] + dy * d)
            if ahead == target.cell:
                value += 40.0  # lined up for the RAM
    value += 5.0 * (len(table.pool(color)) - len(start.pool(color)))  # stolen pieces
    if leader is not None and leader != color:
        value += 2.0 * (_dist(start.obj(f"bot:{leader}").cell, me.cell) - _dist(table.obj(f"bot:{leader}").cell,
                                                                            me.cell))
        value += 15.0 * (len(start.pool(leader)) - len(table.pool(leader)))
    for o in table.objects:  # ending in front of another RAMbot's nose invites a RAM
        if o.kind == "bot" and o.color != color and o.facing is not None:
            dx, dy = DIRS[o.facing]
            for k in (1, 2, 3):
                if (o.cell[0] + dx * k, o.cell[1] + dy * k) == me.cell:
                    value -= 25.0 / k
    return value


def _options(pool: tuple[Piece, ...], used: Counter[Piece]) -> list[Instruction]:
    left = Counter(pool) - used
    return [Instruction(p, o) for p in sorted(left) for o in ("N", "E", "S", "W", "up")]


def plan_program(table: Table, color: str, level: str, leader: str | None, seed: int) -> tuple[Instruction, ...]:
    """The program a bot of ``level`` lays out (a beam search over its own instructions)."""
    lv = LEVELS[level]
    pool = table.pool(color)
    rng = random.Random(seed)
    if lv.width == 0 or not pool:
        opts = _options(pool, Counter())
        picked: list[Instruction] = []
        used: Counter[Piece] = Counter()
        for _ in range(rng.randint(1, lv.depth) if opts else 0):
            choices = [i for i in _options(pool, used)]
            if not choices:
                break
            ins = rng.choice(choices)
            picked.append(ins)
            used[ins.piece] += 1
        return tuple(picked)
    beam: list[tuple[float, tuple[Instruction, ...], Table, Counter[Piece]]] = [(score(table, color, table, leader),
                                                                                  (), table, Counter())]
    best = beam[0]
    for _ in range(lv.depth):
        grown = []
        for _, prog, t, used in beam:
            for ins in _options(pool, used):
                step = execute(t, color, ins)
                value = 1e12 if step.won else score(step.table, color, table, leader) + rng.random() * 0.01
                u = used.copy()
                u[ins.piece] += 1
                grown.append((value, prog + (ins,), step.table, u))
        if not grown:
            break
        grown.sort(key=lambda g: -g[0])
        beam = grown[:lv.width]
        if beam[0][0] > best[0]:
            best = beam[0]
        if best[0] >= 1e12:
            break
    return best[1]


def goal_stack_for(table: Table, color: str, neighbour: str, level: str, seed: int) -> tuple[Piece, ...]:
    """The goal stack a bot makes for its left neighbour: one piece of each colour
    from its pool (the largest: the smallest are worth keeping), the beacons far
    from the neighbour first (a beginner: in a random order)."""
    rng = random.Random(seed)
    pool = table.pool(color)
    pieces = {c: max(p for p in pool if p.color == c) for c in COLORS}
    if level == "beginner":
        order = list(COLORS)
        rng.shuffle(order)
    else:
        them = table.obj(f"bot:{neighbour}").cell
        beacons: dict[str, Obj] = {o.color: o for o in table.objects if o.kind == "beacon"}
        order, at = [], them
        for _ in COLORS:
            far = max((c for c in COLORS if c not in order), key=lambda c: (_dist(at, beacons[c].cell), c))
            order.append(far)
            at = beacons[far].cell
    return tuple(pieces[c] for c in order)


class RamBot(SeatBot):
    """One bot seat of a RAMbots room; ``compute`` runs its planning in the worker."""

    def __init__(self, client: BotClient, level: str, *, compute: Any = None, speed: float = 1.0,
                 rng: random.Random | None = None) -> None:
        if level not in LEVELS:
            raise ValueError(f"unknown bot level {level!r}; choose one of {', '.join(LEVELS)}")
        super().__init__(client, speed)
        self.level = level
        self.compute = compute
        self.rng = rng or random.Random()
        self._task: asyncio.Task[None] | None = None
        self._done: set[tuple[Any, ...]] = set()

    def tasks(self) -> list[asyncio.Task[Any] | None]:
        return [self._task]

    def look(self, event: dict[str, Any] | None = None) -> None:
        state = self.client.state
        private = getattr(self.client, "private", None) or {}
        if state is None or self.me is None:
            return
        game = (self.client.room or {}).get("game_number", 1)
        if state["phase"] == "goals" and private.get("goals_made") is None:
            key = (game, "goals")
        elif state["phase"] == "programming" and not private.get("compiled"):
            key = (game, "program", state["round_number"])
        else:
            return
        if key in self._done or (self._task is not None and not self._task.done()):
            return
        self._done.add(key)
        self._task = asyncio.ensure_future(self._act(key, state))

    def _table(self, state: dict[str, Any]) -> Table:
        """The table as this bot sees it (its own pool from ``private`` when pools are hidden)."""
        private = getattr(self.client, "private", None) or {}
        objects = tuple(sorted((Obj.from_dict(o) for o in state["objects"]), key=lambda o: (o.kind, o.color)))
        pools, goals = [], []
        for p in state["players"]:
            if p.get("color") is None:
                continue
            pool = p.get("pool")
            if p["id"] == self.me and "pool" in private:
                pool = private["pool"]
            pools.append((p["color"], tuple(sorted(Piece.from_dict(x) for x in pool or []))))
            goals.append((p["color"], tuple(Piece.from_dict(x) for x in p.get("goals") or [])))
        return Table(objects, tuple(sorted(pools)), tuple(sorted(goals)), tuple(state["precedence"]))

    async def _act(self, key: tuple[Any, ...], state: dict[str, Any]) -> None:
        me = next(p for p in state["players"] if p["id"] == self.me)
        table = self._table(state)
        seed = self.rng.randrange(2**31)
        think = think_time(self.level, self.rng)
        if key[1] == "goals":
            await self.sleep(think)
            private = getattr(self.client, "private", None) or {}
            neighbour = next(p["color"] for p in state["players"] if p["id"] == private.get("goals_for"))
            pieces = goal_stack_for(table, me["color"], neighbour, self.level, seed)
            await self.client.send({"type": "set_goals", "pieces": [p.to_dict() for p in pieces]})
            return
        leader = max((p for p in state["players"] if p.get("color")), key=lambda p: (p["score"], p["id"] != self.me))
        args = (table, me["color"], self.level, leader["color"], seed)
        job = Job(("rambots-plan", *args), plan_program, args)
        began = self.client.server_now()
        program = await self.compute(job) if self.compute is not None else plan_program(*args)
        if self.speed > 0:  # the planning was part of the thinking; the timer may cut the rest short
            now = self.client.state
            until = now.get("programming_until") if now is not None else None
            await asyncio.sleep(max(0.0, compile_time(think * self.speed, began, until) - self.client.server_now()))
        now = self.client.state
        if now is None or now["phase"] != "programming" or now["round_number"] != key[2]:
            return
        await self.client.send({"type": "set_program", "program": [i.to_dict() for i in program]})
        await self.client.send({"type": "compile", "on": True})
