"""Long Ricochet Robots puzzles (14 to 21 moves) found by hill-climbing.

Random positions almost never need more than 13 moves (under the trainer's
rules, about one in a few thousand needs 14), so drawing candidates until one
has the wanted length (:func:`ricochet.trainer.puzzles.generate`) takes
minutes for 14 moves and practically forever beyond.  Instead :func:`climb`
keeps a board and a chip and moves one robot at a time, keeping a change
when the optimal length does not drop, and restarts on a new board when it
stops improving: every puzzle it meets whose exact optimal length lies in
the wanted range is kept.

This is slow work (seconds per solve at these lengths): the server runs it in
the background, niced, and ships puzzles found ahead of time
(``ricochet/data/trainer-long.json``, made by ``benchmarks/trainer_long.py``);
a request never waits for it.
"""

from __future__ import annotations

import json
import random
import time
from collections.abc import Callable
from importlib import resources

from ..generate import random_puzzle
from ..position import Position, Robot
from ..puzzle import Puzzle
from .puzzles import RULES, TrainerPuzzle, _finish_grid

__all__ = ["LONG_LENGTHS", "climb", "shipped"]

LONG_LENGTHS = (14, 21)
"""The lengths (inclusive) served only from puzzles made ahead of time."""
_GAME = "ricochet-robots"


def _free(pz: Puzzle) -> list[tuple[int, int]]:
    board = pz.position.board
    taken = set(board.blocked) | {t.cell for t in board.targets} | {d.cell for d in board.diagonals}
    return [c for c in board.cells() if c not in taken]


def _score(pz: Puzzle, limit: float, max_moves: int) -> tuple[int, bool, object]:
    """``(length or lower bound, exact?, solution)``; a placement beyond ``max_moves`` scores -1."""
    from ..solver import solve

    sol = solve(pz, RULES[_GAME], max_moves=max_moves, time_limit=limit)
    if sol.solved and sol.length:
        return sol.length, True, sol
    if sol.status == "timeout":
        import re

        m = re.search(r"none shorter than (\d+) moves", sol.reason or "")
        return (int(m.group(1)) if m else 0), False, sol
    return -1, True, sol


def climb(style: str, lengths: tuple[int, int], seed: object, time_budget: float, *, solve_limit: float = 8.0,
          stale: int = 40, found: Callable[[TrainerPuzzle], None] | None = None) -> list[TrainerPuzzle]:
    """Ricochet Robots puzzles of ``style`` (``classic`` or ``diagonals``) whose
    optimal length under the trainer's rules lies in ``lengths`` (inclusive),
    found by hill-climbing robot placements for ``time_budget`` seconds.

    Each solve may take ``solve_limit`` seconds (a timeout gives a lower bound,
    which still guides the climb but is never kept); a climb restarts on a new
    board and chip after ``stale`` steps without a longer puzzle (more once it is
    past 13 moves).  ``found`` is
    called with each new puzzle as it is found (a long search can save as it
    goes).  The same seed on an idle machine gives the same puzzles; which
    solves time out depends on the machine."""
    lo, hi = lengths
    rng = random.Random(f"trainer:long:{style}:{seed}")
    deadline = time.monotonic() + time_budget
    faces = "AB" if style == "classic" else "CD"
    out: dict[str, TrainerPuzzle] = {}
    while time.monotonic() < deadline:
        start = random_puzzle(rng, RULES[_GAME], faces=faces)
        pz = Puzzle(start.position, start.target, start.active)
        free = _free(pz)
        score, _, _ = _score(pz, solve_limit, hi)
        best, since = score, 0
        # A climb that got long gets more patience: each move above 13 adds ``stale`` steps.
        while since < stale * (1 + max(0, best - 13)) and time.monotonic() < deadline:
            cells = [r.cell for r in pz.position.robots]
            i = rng.randrange(len(cells))
            if rng.random() < 0.5:
                cand = rng.choice(free)
            else:
                x, y = cells[i]
                cand = (min(15, max(0, x + rng.randint(-3, 3))), min(15, max(0, y + rng.randint(-3, 3))))
            if cand in cells or cand not in free:
                continue
            cells[i] = cand
            robots = tuple(Robot(r.color, c) for r, c in zip(pz.position.robots, cells, strict=True))
            new = Puzzle(Position(pz.position.board, robots), pz.target, pz.active)
            s, exact, sol = _score(new, solve_limit, hi)
            if exact and lo <= s <= hi:
                tp = _finish_grid(_GAME, style, new, s, sol.moves)  # type: ignore[attr-defined]
                if tp.id not in out:
                    out[tp.id] = tp
                    if found is not None:
                        found(tp)
            if s >= score:
                since = 0 if s > best else since + 1
                best = max(best, s)
                pz, score = new, s
            else:
                since += 1
    return list(out.values())


def shipped() -> list[TrainerPuzzle]:
    """The long puzzles shipped with the package (``ricochet/data/trainer-long.json``, made by
    ``benchmarks/trainer_long.py``; its ``provenance`` says how), each solution replayed."""
    from .puzzles import from_solution

    path = resources.files("ricochet") / "data" / "trainer-long.json"
    if not path.is_file():
        return []
    doc = json.loads(path.read_text(encoding="utf-8"))
    return [from_solution(_GAME, p["style"], p["code"], p["solution"]) for p in doc["puzzles"]]
