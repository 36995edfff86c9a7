"""Long puzzles found by hill-climbing: Ricochet Robots' 14 to 21 moves.

Random positions almost never need more than 13 moves (under Ricochet Robots'
trainer rules, about one in a few thousand needs 14), so drawing candidates until
one has the wanted length (:func:`ricochet.trainer.puzzles.generate`) takes
minutes for 14 moves and practically forever beyond.  Instead :func:`climb`
keeps a board and a target (a game's own random candidate, :class:`~.grid.GridSpec`)
and moves one robot at a time, keeping a change when the optimal length does not
drop, and restarts on a new board when it stops improving: every puzzle it meets
whose exact optimal length lies in the wanted range is kept.  It knows no game:
any game of the library's engine can climb (``longest_on_request`` of its spec
says from which length on it must).

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
from dataclasses import dataclass
from importlib import resources
from typing import Any

from ..notation import parse_code, puzzle_code
from ..position import Position, Robot
from ..puzzle import Puzzle
from .grid import GridSpec
from .spec import TrainerError, TrainerPuzzle, spec_of

__all__ = ["ClimbState", "climb", "climb_slice", "long_lengths", "new_climb", "shipped"]


def long_lengths(game: str) -> tuple[int, int] | None:
    """The lengths (inclusive) of ``game`` served only from puzzles made ahead of time (``None``: none).

    >>> long_lengths("ricochet-robots"), long_lengths("micro-robots")
    ((14, 21), None)
    """
    spec = spec_of(game)
    lo, hi = spec.longest_on_request + 1, spec.lengths[1]
    return (lo, hi) if lo <= hi and isinstance(spec, GridSpec) else None


def _grid(game: str) -> GridSpec:
    spec = spec_of(game)
    if not isinstance(spec, GridSpec):
        raise TrainerError(f"game: {game} puzzles cannot be climbed for (not of the library's engine)")
    return spec


def _free(pz: Puzzle) -> list[tuple[int, int]]:
    board = pz.position.board
    taken = set(board.blocked) | set(board.towers) | {t.cell for t in board.targets} | {
        d.cell for d in board.diagonals}
    return [c for c in board.cells() if c not in taken and c != pz.target]


def _score(spec: GridSpec, pz: Puzzle, limit: float, max_moves: int) -> tuple[int, bool, Any]:
    """``(length or lower bound, exact?, solution)``; a placement beyond ``max_moves`` scores -1."""
    from ..solver import solve

    sol = solve(pz, spec.rules, max_moves=max_moves, time_limit=limit)
    if sol.solved and sol.length:
        return sol.length, True, sol
    if sol.status == "timeout":
        import re

        m = re.search(r"none shorter than (\d+) moves", sol.reason or "")
        return (int(m.group(1)) if m else 0), False, sol
    return -1, True, sol


@dataclass(frozen=True)
class ClimbState:
    """Where a climb stands between two slices (picklable: it goes to and from a worker)."""

    game: str
    style: str
    rng: tuple[Any, ...]
    code: str | None = None
    """The placement climbed from (``None``: start on a new board)."""
    score: int = 0
    best: int = 0
    since: int = 0


def climb(game: str, style: str, lengths: tuple[int, int], seed: object, time_budget: float, *,
          solve_limit: float = 8.0, stale: int = 40,
          found: Callable[[TrainerPuzzle], None] | None = None) -> list[TrainerPuzzle]:
    """Puzzles of ``game`` (one of the library's engine) in ``style`` whose optimal
    length under its trainer rules lies in ``lengths`` (inclusive), found by
    hill-climbing robot placements for ``time_budget`` seconds.

    Each solve may take ``solve_limit`` seconds (a timeout gives a lower bound,
    which still guides the climb but is never kept); a climb restarts on a new
    board and chip after ``stale`` steps without a longer puzzle (more once it is
    past 13 moves).  ``found`` is called with each new puzzle as it is found (a
    long search can save as it goes).  The same seed on an idle machine gives
    the same puzzles; which solves time out depends on the machine."""
    out, _ = climb_slice(new_climb(game, style, seed), lengths, time_budget, solve_limit=solve_limit, stale=stale, found=found)
    return out


def new_climb(game: str, style: str, seed: object) -> ClimbState:
    """A climb's start (:func:`climb_slice` goes on from it); a :class:`TrainerError` names a
    game that cannot climb or a style it does not have."""
    spec = _grid(game)
    if style not in spec.styles:
        raise TrainerError(f"style must be one of {', '.join(spec.styles)} for {game}, got {style!r}")
    return ClimbState(game, style, random.Random(f"trainer:long:{game}:{style}:{seed}").getstate())


def climb_slice(state: ClimbState, lengths: tuple[int, int], seconds: float, *, solve_limit: float = 8.0,
                stale: int = 40, found: Callable[[TrainerPuzzle], None] | None = None,
                ) -> tuple[list[TrainerPuzzle], ClimbState]:
    """:func:`climb` for ``seconds`` from ``state``: the puzzles found and where to go on from.
    The server climbs in slices no longer than a puzzle made on request may take, so a
    request never waits behind a long climb in the worker."""
    lo, hi = lengths
    spec, style = _grid(state.game), state.style
    rng = random.Random()
    rng.setstate(state.rng)
    deadline = time.monotonic() + seconds
    out: dict[str, TrainerPuzzle] = {}

    def limit() -> float:  # a solve never runs far past the slice
        return max(0.5, min(solve_limit, deadline - time.monotonic()))

    pz: Puzzle | None = None
    if state.code is not None:
        parsed = parse_code(state.code)
        assert isinstance(parsed, Puzzle)
        pz = Puzzle(parsed.position, parsed.target, parsed.active)
    score, best, since = state.score, state.best, state.since
    while time.monotonic() < deadline:
        if pz is None:
            pz = spec.candidate(style, rng)
            if pz is None:
                continue
            score, _, _ = _score(spec, pz, limit(), hi)
            best, since = score, 0
        free = _free(pz)
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
            s, exact, sol = _score(spec, new, limit(), hi)
            if exact and lo <= s <= hi:
                tp = spec.finish(style, new, s, sol.moves)
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
        if since >= stale * (1 + max(0, best - 13)):
            pz = None  # stale: the next climb starts on a new board
    after = ClimbState(state.game, style, rng.getstate(), None if pz is None else puzzle_code(pz), score, best, since)
    return list(out.values()), after


def shipped() -> list[TrainerPuzzle]:
    """The long puzzles shipped with the package (``ricochet/data/trainer-long.json``, made by
    ``benchmarks/trainer_long.py``; its ``provenance`` says how), each solution replayed; those
    of games not registered are left out."""
    from .puzzles import GAMES, from_solution

    path = resources.files("ricochet") / "data" / "trainer-long.json"
    if not path.is_file():
        return []
    doc = json.loads(path.read_text(encoding="utf-8"))
    return [from_solution(p["game"], p["style"], p["code"], p["solution"]) for p in doc["puzzles"]
            if p["game"] in GAMES]
