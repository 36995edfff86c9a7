"""Solo training: rated puzzles of every game that has a trainer spec, the puzzle of
the day, graded hints, streaks and Glicko-2.  It knows no game: each game's own part
is its spec (``games/<name>/trainer.py``, :meth:`ricochet.games.Game.trainer`).

Pure code (no I/O, no clock): the server (:mod:`ricochet.server.trainer_api`)
stores players, puzzles and attempts and runs the CPU work in its worker.

* :mod:`.spec` — what a game tells the trainer (:class:`~.spec.TrainerSpec`);
  :mod:`.grid` — the shared part of the specs of the library's engine's games;
* :mod:`.glicko2` — Glickman's Glicko-2, for players and puzzles;
* :mod:`.puzzles` — puzzles of a requested optimal length and style, their
  codes, attempts checked by the engine, hints;
* :mod:`.daily` — the puzzle of the day as a function of (game, date);
* :mod:`.scoring` — scores, hint costs, streaks, share text;
* :mod:`.long` — Ricochet Robots puzzles of 14 to 21 moves, found by
  hill-climbing ahead of time (and shipped: ``ricochet/data/trainer-long.json``);
* :mod:`.themes` — a puzzle's themes, read exactly from its optimal solution;
* :mod:`.storm` — Puzzle Storm's rules: its clock, mistakes, combos, rising lengths.
"""

from .daily import daily_number, daily_puzzle, daily_spec
from .glicko2 import Rating, update, update_pair
from .puzzles import (
    GAMES,
    LENGTHS,
    STYLES,
    Attempt,
    TrainerError,
    TrainerPuzzle,
    check_attempt,
    from_code,
    generate,
    hint,
    solution_paths,
)
from .scoring import Streak, length_for_rating, rating_for_length, score, share_text, streak_length

__all__ = [
    "GAMES", "LENGTHS", "STYLES", "Attempt", "Rating", "Streak", "TrainerError", "TrainerPuzzle", "check_attempt",
    "daily_number", "daily_puzzle", "daily_spec", "from_code", "generate", "hint", "length_for_rating",
    "rating_for_length", "score", "share_text", "solution_paths", "streak_length", "update", "update_pair",
]
