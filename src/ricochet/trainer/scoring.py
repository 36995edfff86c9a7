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

from .spec import TrainerError, spec_of

__all__ = [
    "DIFFICULTY",
    "HINT_COST",
    "Streak",
    "check_difficulty",
    "length_for_rating",
    "rating_for_length",
    "score",
    "share_text",
    "streak_length",
]

HINT_COST: dict[int, float] = {0: 0.0, 1: 0.25, 2: 0.5, 3: 0.75, 4: 1.0}
"""The share of the score a hint level takes away: after the whole solution (4) an attempt counts as a loss."""


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


DIFFICULTY: dict[str, float] = {"easier": -300.0, "normal": 0.0, "harder": 300.0}
"""Rated puzzles are served near the player's rating moved by this much (as lichess's
easier / normal / harder)."""


def check_difficulty(value: object) -> str:
    """A difficulty asked for (default ``normal``); :class:`~.spec.TrainerError` names the field.

    >>> check_difficulty(None), check_difficulty("harder")
    ('normal', 'harder')
    """
    if value is None or value == "":
        return "normal"
    if value not in DIFFICULTY:
        raise TrainerError(f"difficulty must be one of {', '.join(DIFFICULTY)}, got {value!r}")
    return str(value)


def rating_for_length(game: str, length: int) -> float:
    """A new puzzle's rating from its optimal length (1500 at the game's median length).

    >>> rating_for_length("ricochet-robots", 7)
    1500.0
    """
    spec = spec_of(game)
    return 1500.0 + spec.points_per_move * (length - spec.base_length)


def length_for_rating(game: str, rating: float) -> int:
    """The optimal length of a new puzzle made for a player of that rating (within the game's range).

    >>> length_for_rating("ricochet-robots", 1720), length_for_rating("ricochet-robots", 0)
    (9, 2)
    """
    spec = spec_of(game)
    lo, hi = spec.lengths
    return max(lo, min(hi, round(spec.base_length + (rating - 1500.0) / spec.points_per_move)))


# -- streaks -------------------------------------------------------------------------------------------------


def streak_length(game: str, step: int) -> int:
    """The optimal length of the ``step``-th puzzle of a streak (0-based): rising by one every few puzzles.

    >>> [streak_length("ricochet-robots", k) for k in range(6)]
    [3, 3, 4, 4, 5, 5]
    """
    spec = spec_of(game)
    lo, hi = spec.lengths
    return max(lo, min(hi, spec.streak_start + step // spec.streak_every))


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
    return f"{spec_of(game).share_name} {what}: {got}/{optimal}{mark}{bulbs}"
