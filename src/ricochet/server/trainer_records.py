"""What the trainer shows of players' records: the daily archive (every past daily with the
player's result, and their run of days solved) and the leaderboards of each game (dailies
solved optimally, Puzzle Storm's best scores).

Leaderboards list claimed names only, never a player's id: an anonymous player does not
appear (their own standing is told to them alone, with ``rank`` ``None``).  A daily
counts for the board and the run of days only when it was opened on its day (play mode
``daily``); one opened later from the archive is mode ``archive``.
"""

from __future__ import annotations

import datetime as _dt
from typing import Any

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncEngine

from ..trainer import daily as D
from .trainer_store import daily, players, plays
from .trainer_storm_store import StormStore

__all__ = ["Records", "days_in_a_row"]

SOLVED = ("optimal", "found")


def days_in_a_row(days: set[_dt.date], today: _dt.date) -> dict[str, int]:
    """``current``: days solved in a row up to ``today`` (or up to the day before: today's may
    still come); ``best``: the longest such run.

    >>> d = _dt.date(2026, 3, 14)
    >>> days_in_a_row({d, d - _dt.timedelta(1), d - _dt.timedelta(3)}, d)
    {'current': 2, 'best': 2}
    >>> days_in_a_row({d - _dt.timedelta(1)}, d)
    {'current': 1, 'best': 1}
    """
    best = run = 0
    previous = None
    for day in sorted(days):
        run = run + 1 if previous is not None and (day - previous).days == 1 else 1
        best = max(best, run)
        previous = day
    current = 0
    day = today if today in days else today - _dt.timedelta(days=1)
    while day in days:
        current += 1
        day -= _dt.timedelta(days=1)
    return {"current": current, "best": best}


class Records:
    """The archive's and the leaderboards' queries."""

    def __init__(self, engine: AsyncEngine, storms: StormStore) -> None:
        self.engine = engine
        self.storms = storms

    # -- the daily archive ------------------------------------------------------------------------------
    async def archive(self, player: str | None, game: str, until: _dt.date, limit: int) -> dict[str, Any]:
        """The days from ``until`` back (newest first, at most ``limit``; none before
        :data:`~ricochet.trainer.daily.EPOCH`), each with the player's play of its puzzle."""
        first = max(D.EPOCH, until - _dt.timedelta(days=limit - 1))
        mine: dict[str, Any] = {}
        if player is not None:
            q = (sa.select(daily.c.day, plays.c.mode, plays.c.result, plays.c.length, plays.c.hints)
                 .select_from(daily.join(plays, plays.c.puzzle_id == daily.c.puzzle_id))
                 .where(daily.c.game == game, plays.c.player_id == player,
                        daily.c.day >= first.isoformat(), daily.c.day <= until.isoformat()))
            async with self.engine.connect() as conn:
                mine = {r.day: r for r in await conn.execute(q)}
        days = []
        day = until
        while day >= first:
            key = day.isoformat()
            p = mine.get(key)
            days.append({"date": key, "number": D.daily_number(day), "opened": p is not None,
                         "mode": p.mode if p is not None else None, "result": p.result if p is not None else None,
                         "length": p.length if p is not None else None, "hints": p.hints if p is not None else 0})
            day -= _dt.timedelta(days=1)
        more = first > D.EPOCH
        return {"game": game, "until": until.isoformat(), "days": days,
                "next": (first - _dt.timedelta(days=1)).isoformat() if more else None,
                "in_a_row": await self.in_a_row(player, game, until)}

    async def in_a_row(self, player: str | None, game: str, today: _dt.date) -> dict[str, int]:
        """The player's days of dailies solved on their day, in a row (:func:`days_in_a_row`)."""
        if player is None:
            return {"current": 0, "best": 0}
        q = (sa.select(daily.c.day).select_from(daily.join(plays, plays.c.puzzle_id == daily.c.puzzle_id))
             .where(daily.c.game == game, plays.c.player_id == player, plays.c.mode == "daily",
                    plays.c.result.in_(SOLVED)))
        async with self.engine.connect() as conn:
            days = {_dt.date.fromisoformat(d) for d in (await conn.execute(q)).scalars()}
        return days_in_a_row({d for d in days if d <= today}, today)

    # -- leaderboards -----------------------------------------------------------------------------------
    def _optimal_dailies(self, game: str) -> Any:
        return (sa.select(plays.c.player_id, sa.func.count().label("solved"))
                .where(plays.c.game == game, plays.c.mode == "daily", plays.c.result == "optimal", plays.c.hints == 0)
                .group_by(plays.c.player_id).subquery())

    async def board(self, player: str | None, game: str, limit: int) -> dict[str, Any]:
        """The game's leaderboards (claimed names only) and the player's own standing."""
        counts = self._optimal_dailies(game)
        q = (sa.select(players.c.name, counts.c.solved)
             .select_from(counts.join(players, players.c.id == counts.c.player_id))
             .where(players.c.name.is_not(None))
             .order_by(counts.c.solved.desc(), players.c.name).limit(limit))
        async with self.engine.connect() as conn:
            dailies = [(str(r.name), int(r.solved)) for r in await conn.execute(q)]
            name = None
            solved = 0
            if player is not None:
                name = await conn.scalar(sa.select(players.c.name).where(players.c.id == player))
                solved = int(await conn.scalar(sa.select(counts.c.solved).where(counts.c.player_id == player)) or 0)
            daily_above = int(await conn.scalar(
                sa.select(sa.func.count()).select_from(counts.join(players, players.c.id == counts.c.player_id))
                .where(players.c.name.is_not(None), counts.c.solved > solved)) or 0)
        storm = await self.storms.leaders(game, limit)
        best = await self.storms.best(player, game) if player is not None else 0
        storm_above = await self.storms.above(game, best)
        claimed = name is not None
        return {
            "game": game,
            "daily": _ranked(dailies, "solved"),
            "storm": _ranked(storm, "score"),
            "you": {"name": name,
                    "daily": {"solved": solved, "rank": daily_above + 1 if claimed and solved else None},
                    "storm": {"best": best, "rank": storm_above + 1 if claimed and best else None}},
        }


def _ranked(rows: list[tuple[str, int]], field: str) -> list[dict[str, Any]]:
    """Rows with their rank (ties share it: 1, 2, 2, 4).

    >>> _ranked([("a", 5), ("b", 3), ("c", 3), ("d", 1)], "n")[3]
    {'rank': 4, 'name': 'd', 'n': 1}
    """
    out: list[dict[str, Any]] = []
    for i, (name, value) in enumerate(rows):
        rank = out[-1]["rank"] if out and out[-1][field] == value else i + 1
        out.append({"rank": rank, "name": name, field: value})
    return out
