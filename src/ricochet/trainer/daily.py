"""The puzzle of the day: a pure function of (game, date).

The date fixes a seed and a difficulty (easier on Mondays, harder towards the
weekend); :func:`ricochet.trainer.puzzles.generate` with no clock does the
rest, so every server, on SQLite or PostgreSQL, after any restart, makes the
same puzzle for the same day (the server caches it in its database).

>>> daily_number(date(2026, 1, 1)), daily_spec("ricochet-robots", date(2026, 1, 5))
(1, (4, 'classic'))
"""

from __future__ import annotations

import datetime as _dt
from datetime import date

from .puzzles import TrainerError, TrainerPuzzle, check_spec, generate
from .spec import spec_of

__all__ = ["EPOCH", "daily_number", "daily_puzzle", "daily_spec", "parse_date"]

EPOCH = date(2026, 1, 1)
"""Daily puzzle #1."""


def daily_number(day: date) -> int:
    """The daily puzzle's number (#1 on :data:`EPOCH`)."""
    return (day - EPOCH).days + 1


def daily_spec(game: str, day: date) -> tuple[int, str]:
    """The optimal length and style of that day's puzzle (the game's week: :attr:`TrainerSpec.week`)."""
    check_spec(game)
    return spec_of(game).week[day.weekday()]


def daily_puzzle(game: str, day: date) -> TrainerPuzzle:
    """That day's puzzle (CPU work: the server runs it in its worker)."""
    length, style = daily_spec(game, day)
    tp = generate(game, length, style, seed=f"daily:{day.isoformat()}")
    if tp is None:  # not one candidate of MAX_CANDIDATES solvable in fewer moves: never seen
        raise TrainerError(f"no daily puzzle could be made for {game} on {day.isoformat()}")
    return tp


def parse_date(text: object, today: date) -> date:
    """A ``YYYY-MM-DD`` date from the epoch to ``today`` (a :class:`TrainerError` says what is wrong).

    >>> parse_date("2026-02-03", date(2026, 3, 1))
    datetime.date(2026, 2, 3)
    """
    if not isinstance(text, str):
        raise TrainerError(f"date must be YYYY-MM-DD, got {text!r}")
    try:
        day = _dt.date.fromisoformat(text.strip())
    except ValueError:
        raise TrainerError(f"date must be a real day written YYYY-MM-DD, got {text!r}") from None
    if day < EPOCH:
        raise TrainerError(f"date: daily puzzles start on {EPOCH.isoformat()}, got {day.isoformat()}")
    if day > today:
        raise TrainerError(f"date: {day.isoformat()} is in the future (today is {today.isoformat()})")
    return day
