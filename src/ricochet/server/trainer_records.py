"""What the trainer shows of players' records: the daily archive (every past daily with the
player's result, and their run of days solved).  A daily counts for the run of days only
when it was opened on its day (play mode ``daily``); one opened later from the archive is
mode ``archive``.
"""

from __future__ import annotations

import datetime as _dt
from typing import Any

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncEngine

from ..trainer import daily as D
from .trainer_store import daily, plays

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
    """The archive's queries."""

    def __init__(self, engine: AsyncEngine) -> None:
        self.engine = engine

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

