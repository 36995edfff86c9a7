"""Puzzle Storm's rules, pure: three minutes of rising puzzles, a mistake costs time,
combos (correct answers in a row) give time back, the score is the puzzles solved.

The server (:mod:`ricochet.server.trainer_storm`) keeps a run's :class:`Run` in its
database and runs the clock by its own time; this module only says what an answer
does to a run.  A puzzle is answered correctly when it is solved in its optimal number
of moves (a Storm puzzle tells that number: there is no time to guess it).

>>> run = Run.begin(100.0)
>>> run.left(130.0)
150.0
>>> run = run.answer(True, 130.0).answer(True, 140.0).answer(True, 150.0)
>>> run.score, run.combo, run.deadline  # the third in a row gives 3 s back
(3, 3, 283.0)
>>> run = run.answer(False, 160.0)
>>> run.combo, run.mistakes, run.deadline
(0, 1, 273.0)
>>> [storm_length("micro-robots", k) for k in range(7)]
[2, 2, 2, 3, 3, 3, 4]
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from .spec import spec_of

__all__ = ["COMBO_STEPS", "GRACE", "MAX_PUZZLES", "MISTAKE_SECONDS", "SECONDS", "Run", "combo_bonus", "storm_length"]

SECONDS = 180.0
"""A run's clock at the start."""
MISTAKE_SECONDS = 10.0
"""What a wrong answer (or a skipped puzzle) costs."""
COMBO_STEPS = ((3, 3.0), (6, 5.0), (10, 7.0), (15, 10.0))
"""Seconds given back on reaching each combo (correct answers in a row); past the last, 10 s
every 5 more.  Lichess's steps (5, 12, 20, 30) halved: a puzzle here takes a few moves."""
GRACE = 2.0
"""An answer that reaches the server up to this long after the clock ran out still counts (the
time it took to travel); it ends the run all the same.  Later ones are refused."""
MAX_PUZZLES = 300
"""A run ends after this many puzzles, whatever its clock (no run holds the server for ever)."""


def combo_bonus(combo: int) -> float:
    """Seconds given back when a run's combo reaches ``combo``.

    >>> [combo_bonus(n) for n in (1, 3, 6, 10, 15, 19, 20, 25)]
    [0.0, 3.0, 5.0, 7.0, 10.0, 0.0, 10.0, 10.0]
    """
    for step, seconds in COMBO_STEPS:
        if combo == step:
            return seconds
    last = COMBO_STEPS[-1][0]
    return COMBO_STEPS[-1][1] if combo > last and (combo - last) % 5 == 0 else 0.0


def storm_length(game: str, index: int) -> int:
    """The optimal length of a run's ``index``-th puzzle (0-based): from the first of the
    game's :attr:`~.spec.TrainerSpec.storm_lengths`, one more every ``storm_every`` puzzles,
    up to the last."""
    spec = spec_of(game)
    lo, hi = spec.storm_lengths
    return min(hi, lo + index // spec.storm_every)


@dataclass(frozen=True)
class Run:
    """A run's score and clock: ``deadline`` is the server's time the clock reaches zero
    (moved by mistakes, combos and the time the server spends making a puzzle)."""

    started: float
    deadline: float
    score: int = 0
    combo: int = 0
    best_combo: int = 0
    mistakes: int = 0

    @staticmethod
    def begin(at: float, seconds: float = SECONDS) -> Run:
        return Run(at, at + seconds)

    def left(self, at: float) -> float:
        """Seconds on the clock at ``at`` (0 once it ran out)."""
        return max(0.0, self.deadline - at)

    def over(self, at: float) -> bool:
        return at >= self.deadline

    def accepts(self, at: float) -> bool:
        """Whether an answer reaching the server at ``at`` counts (:data:`GRACE`)."""
        return at < self.deadline + GRACE

    def answer(self, correct: bool, at: float) -> Run:
        """The run after an answer at ``at`` (the caller checked :meth:`accepts`)."""
        if correct:
            combo = self.combo + 1
            return replace(self, score=self.score + 1, combo=combo, best_combo=max(self.best_combo, combo),
                           deadline=self.deadline + combo_bonus(combo))
        return replace(self, combo=0, mistakes=self.mistakes + 1, deadline=self.deadline - MISTAKE_SECONDS)

    def credit(self, seconds: float) -> Run:
        """The clock stopped for ``seconds`` (the server was making the next puzzle)."""
        return replace(self, deadline=self.deadline + max(0.0, seconds))

    def end(self, at: float) -> Run:
        """The run stopped at ``at`` (a new run started, or it hit :data:`MAX_PUZZLES`)."""
        return replace(self, deadline=min(self.deadline, at))
