"""How an attempt counts: its score for the ratings, the cost of hints, the
rating ↔ puzzle length scale, streaks and the spoiler-free share text.

>>> score("optimal", 7, 7, hints=0)
1.0
>>> score("found", 9, 7, hints=0) < score("found", 8, 7, hints=0) < 1.0
True
>>> score("optimal", 7, 7, hints=2)
0.5
>>> share_text("ricochet-robots", 412, "optimal", 7, 7, 0)
'Ricochet daily #412: 7/7 ⭐'
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from .puzzles import BASE_LENGTH, LENGTHS

__all__ = [
    "HINT_COST",
    "POINTS_PER_MOVE",
    "Streak",
    "length_for_rating",
    "rating_for_length",
    "score",
    "share_text",
    "streak_length",
]

HINT_COST: dict[int, float] = {0: 0.0, 1: 0.25, 2: 0.5, 3: 0.75, 4: 1.0}
"""The share of the score a hint level takes away: after the whole solution (4) an attempt counts as a loss."""
POINTS_PER_MOVE: dict[str, float] = {"ricochet-robots": 110.0, "pyramids": 110.0, "micro-robots": 160.0}
"""Rating points per move of optimal length, for a new puzzle's first rating (attempts then correct it)."""


def score(result: str, length: int, optimal: int, hints: int) -> float:
    """The score of an attempt against the puzzle, 0 to 1 (Glicko-2's result):
    1 for an optimal solution, ``(optimal / length)²`` for a longer one, 0 for
    a failure; then the hints' cost (:data:`HINT_COST`) is taken off."""
    if result not in ("optimal", "found", "failed"):
        raise ValueError(f"result must be optimal, found or failed, got {result!r}")
    if hints not in HINT_COST:
        raise ValueError(f"hints must be 0 to 4, got {hints!r}")
    if result == "optimal":
        base = 1.0
    elif result == "found":
        base = (optimal / max(length, optimal)) ** 2
    else:
        base = 0.0
    return round(base * (1.0 - HINT_COST[hints]), 6)


def rating_for_length(game: str, length: int) -> float:
    """A new puzzle's rating from its optimal length (1500 at the game's median length).

    >>> rating_for_length("ricochet-robots", 7)
    1500.0
    """
    return 1500.0 + POINTS_PER_MOVE[game] * (length - BASE_LENGTH[game])


def length_for_rating(game: str, rating: float) -> int:
    """The optimal length of a new puzzle made for a player of that rating (within the game's range).

    >>> length_for_rating("ricochet-robots", 1720), length_for_rating("ricochet-robots", 0)
    (9, 2)
    """
    lo, hi = LENGTHS[game]
    return max(lo, min(hi, round(BASE_LENGTH[game] + (rating - 1500.0) / POINTS_PER_MOVE[game])))


# -- streaks -------------------------------------------------------------------------------------------------
STREAK_START: dict[str, int] = {"ricochet-robots": 3, "pyramids": 2, "micro-robots": 2}
STREAK_EVERY: dict[str, int] = {"ricochet-robots": 2, "pyramids": 2, "micro-robots": 3}


def streak_length(game: str, step: int) -> int:
    """The optimal length of the ``step``-th puzzle of a streak (0-based): rising by one every few puzzles.

    >>> [streak_length("ricochet-robots", k) for k in range(6)]
    [3, 3, 4, 4, 5, 5]
    """
    lo, hi = LENGTHS[game]
    return max(lo, min(hi, STREAK_START[game] + step // STREAK_EVERY[game]))


@dataclass(frozen=True)
class Streak:
    """A player's streak in one game: ``current`` puzzles solved optimally in a
    row (``None`` when no streak is running), ``best`` ever, and the puzzle in play."""

    current: int | None = None
    best: int = 0
    puzzle: str | None = None

    def start(self) -> Streak:
        return replace(self, current=0, puzzle=None)

    def serve(self, puzzle_id: str) -> Streak:
        return replace(self, puzzle=puzzle_id)

    def after(self, result: str, hints: int) -> Streak:
        """After an attempt at the streak's puzzle: an optimal, unassisted solution
        extends it; anything else ends it (the best is kept).

        >>> Streak(2, 2, "p").after("optimal", 0)
        Streak(current=3, best=3, puzzle=None)
        >>> Streak(3, 3, "p").after("found", 0)
        Streak(current=None, best=3, puzzle=None)
        """
        if self.current is None:
            return self
        if result == "optimal" and hints == 0:
            n = self.current + 1
            return Streak(n, max(self.best, n), None)
        return Streak(None, self.best, None)


# -- sharing ----------------------------------------------------------------------------------------------------
SHARE_NAMES: dict[str, str] = {"ricochet-robots": "Ricochet", "pyramids": "Pyramids", "micro-robots": "Micro Robots"}


def share_text(game: str, number: int | None, result: str, length: int, optimal: int, hints: int) -> str:
    """A line to share that tells how it went without giving anything away
    (no moves, no robots): ``Ricochet daily #412: 9/7``, ``…: ✗/7``; a star
    for an optimal solution, a bulb per hint level.  ``number`` ``None``: not
    a daily puzzle (``Ricochet puzzle: 9/7``).

    >>> share_text("pyramids", 3, "failed", 4, 6, 1)
    'Pyramids daily #3: ✗/6 💡'
    """
    got = "✗" if result == "failed" else str(length)
    mark = " ⭐" if result == "optimal" and hints == 0 else ""
    bulbs = " " + "💡" * hints if hints else ""
    what = "puzzle" if number is None else f"daily #{number}"
    return f"{SHARE_NAMES[game]} {what}: {got}/{optimal}{mark}{bulbs}"
