"""Training puzzles of every game that has a trainer spec (:mod:`.spec`): made to a
requested optimal length and style, named by a shareable code, checked by the engine.

Making a puzzle of length *n* draws candidates from a seeded :class:`random.Random`
and keeps the first whose optimal length (the game's own search) is *n*: a pure
function of the seed, so the puzzle of the day is the same wherever it is made.  This
is CPU work: the server runs it in its solver worker, never on the event loop.

The games' own parts (styles, lengths, how a candidate is drawn, a code read, moves
played) are their specs: ``games/<name>/trainer.py``.  :data:`GAMES`, :data:`STYLES`
and :data:`LENGTHS` are live views of them.

>>> tp = generate("micro-robots", 3, "shortest", "doc")
>>> tp.optimal, tp.code == from_code("micro-robots", tp.code).code
(3, True)
>>> check_attempt(tp, tp.solution).result
'optimal'
"""

from __future__ import annotations

import random
import time
from collections.abc import Mapping, Sequence
from typing import Any

from .spec import Attempt, TrainerError, TrainerPuzzle, lookup, names, puzzle_id, spec_of

__all__ = [
    "GAMES",
    "HINT_LEVELS",
    "LENGTHS",
    "ON_DEMAND",
    "STYLES",
    "Attempt",
    "TrainerError",
    "TrainerPuzzle",
    "check_attempt",
    "check_spec",
    "from_code",
    "from_solution",
    "generate",
    "generate_bounded",
    "hint",
    "load",
    "puzzle_id",
    "solution_paths",
    "validate_code",
]

GAMES: Sequence[str] = names()
"""The games with training puzzles (RAMbots has no single-player puzzle): a live view of the specs."""
STYLES: Mapping[str, tuple[str, ...]] = lookup("styles")
"""Each game's styles, the first the default."""
LENGTHS: Mapping[str, tuple[int, int]] = lookup("lengths")
"""The optimal lengths that can be asked for, per game."""
ON_DEMAND: Mapping[str, int] = lookup("longest_on_request")
"""The longest optimal length made on request, per game; longer ones are too rare to draw at random:
the server serves them from puzzles made ahead of time (:mod:`.long`), never makes them on request."""
MAX_CANDIDATES = 4000
"""Candidates drawn before giving up on an exact length (Ricochet Robots needs about 100 for 12 moves)."""
MAX_ATTEMPT_MOVES = 60
HINT_LEVELS = (1, 2, 3, 4)


def check_spec(game: Any, length: Any = None, style: Any = None) -> tuple[str, int | None, str]:
    """``game``, ``length`` and ``style`` checked (a :class:`TrainerError` names the field);
    the style defaults to the game's first."""
    spec = spec_of(game)
    if style is None:
        style = spec.styles[0]
    if style not in spec.styles:
        raise TrainerError(f"style must be one of {', '.join(spec.styles)} for {game}, got {style!r}")
    if length is not None:
        lo, hi = spec.lengths
        if isinstance(length, bool) or not isinstance(length, int) or not lo <= length <= hi:
            raise TrainerError(f"length must be a whole number of moves from {lo} to {hi} for {game}, got {length!r}")
        spec.check_length(style, length)
    return spec.game, length, style


def generate(game: str, length: int, style: str | None = None, seed: object = 0, *,
             time_budget: float | None = None, max_candidates: int = MAX_CANDIDATES) -> TrainerPuzzle | None:
    """A puzzle of ``game`` in ``style`` whose optimal solution has exactly
    ``length`` moves, drawn from ``random.Random(seed)``.

    Without ``time_budget`` the answer is a pure function of the arguments
    (the solver runs with no clock), as the puzzle of the day needs.  With a
    budget (seconds) it stops early and returns the longest puzzle found
    shorter than ``length`` (``None`` if there is none): a request never waits
    longer than that."""
    game, checked, style = check_spec(game, length, style)
    assert checked is not None
    spec = spec_of(game)
    rng = random.Random(f"trainer:{game}:{style}:{seed}")
    t0 = time.perf_counter()
    best: TrainerPuzzle | None = None
    for _ in range(max_candidates):
        left = None if time_budget is None else time_budget - (time.perf_counter() - t0)
        if left is not None and left <= 0:
            break
        found = spec.draw(style, rng, checked, left)
        if found is None:
            continue
        if found.optimal == checked:
            return found
        if found.optimal < checked and (best is None or found.optimal > best.optimal):
            best = found
    return best


def generate_bounded(game: str, length: int, style: str, seed: object, time_budget: float) -> TrainerPuzzle | None:
    """:func:`generate` with a time budget, as a worker's job (positional arguments only)."""
    return generate(game, length, style, seed, time_budget=time_budget)


def from_code(game: str, code: str, *, time_limit: float | None = 20.0) -> TrainerPuzzle:
    """The puzzle a shared code names, solved (CPU work).  A code the game
    cannot play, or one without a solution, is a :class:`TrainerError`."""
    game, _, _ = check_spec(game)
    if not isinstance(code, str) or not code.strip() or len(code) > 2000:
        raise TrainerError("code must be a puzzle code of at most 2000 characters")
    return spec_of(game).from_code(code, time_limit)


def from_solution(game: str, style: str, code: str, solution: Sequence[Any]) -> TrainerPuzzle:
    """A puzzle made ahead of time (``ricochet/data/trainer-long.json``): its code and an
    optimal solution found and checked when it was made.  The solution is replayed by the
    engine (it must solve the puzzle); its optimality is the maker's (cheap: no solving).

    >>> tp = from_code("ricochet-robots", "1A3B4A2A.r52ge9bdey0e.y63")
    >>> from_solution(tp.game, tp.style, tp.code, tp.solution) == tp
    True
    """
    from ..notation import NotationError, parse_code, solution_from_json
    from ..puzzle import Puzzle, check_solution
    from .grid import GridSpec

    game, _, style = check_spec(game, None, style)
    spec = spec_of(game)
    if not isinstance(spec, GridSpec):
        raise TrainerError(f"game: {game} puzzles are made on request, not ahead of time")
    try:
        parsed = parse_code(code)
    except NotationError as e:
        raise TrainerError(f"code: {e}") from None
    if not isinstance(parsed, Puzzle):
        raise TrainerError(f"code: {code!r} is a position without a target")
    pz = Puzzle(parsed.position, parsed.target, parsed.active)
    try:
        moves = solution_from_json([list(m) for m in solution], pz.position)
    except NotationError as e:
        raise TrainerError(f"solution: {e}") from None
    verdict = check_solution(pz.with_rules(spec.rules), moves)
    if not verdict.ok or not moves:
        why = verdict.failure.message if verdict.failure else "no moves"
        raise TrainerError(f"solution: it does not solve {code} ({why})")
    return spec.finish(style, pz, verdict.cost, moves)


def validate_code(game: str, code: str) -> None:
    """Refuse a code that cannot name a puzzle of ``game`` (cheap: no solving)."""
    check_spec(game)
    spec_of(game).validate_code(code)


def check_attempt(tp: TrainerPuzzle, moves: Any) -> Attempt:
    """Play ``moves`` (JSON, in the game's form of moves) on the puzzle with the
    engine and grade them.  Malformed moves are a :class:`TrainerError` naming the
    move; legal moves that do not solve the puzzle are a ``failed`` attempt."""
    if not isinstance(moves, list | tuple) or len(moves) > MAX_ATTEMPT_MOVES:
        raise TrainerError(f"moves must be a list of at most {MAX_ATTEMPT_MOVES} moves")
    return spec_of(tp.game).check_attempt(tp, [list(m) if isinstance(m, tuple) else m for m in moves])


def solution_paths(tp: TrainerPuzzle) -> list[Any]:
    """The optimal solution for an animation, in the game's form (paths, or spaces)."""
    return spec_of(tp.game).solution_paths(tp)


def hint(tp: TrainerPuzzle, level: int) -> dict[str, Any]:
    """The graded hints: 1 the optimal number of moves, 2 which robots move
    (Micro Robots: whether each move goes by colour or by number), 3 the first
    move, 4 the whole solution.  A level gives the lower ones too.

    >>> tp = generate("micro-robots", 2, "shortest", "doc")
    >>> sorted(hint(tp, 3))
    ['first', 'kinds', 'level', 'optimal']
    """
    if isinstance(level, bool) or level not in HINT_LEVELS:
        raise TrainerError(f"level must be 1 (length), 2 (robots), 3 (first move) or 4 (solution), got {level!r}")
    out: dict[str, Any] = {"level": level, "optimal": tp.optimal}
    if level >= 2:
        out.update(spec_of(tp.game).hint_details(tp))
    if level >= 3:
        out["first"] = list(tp.solution[0])
    if level >= 4:
        out["solution"] = [list(m) for m in tp.solution]
        out["paths"] = solution_paths(tp)
    return out


def load(row: Mapping[str, Any]) -> TrainerPuzzle:
    """A puzzle back from its stored fields (``game``, ``style``, ``code``, ``optimal``,
    ``solution``, ``data``, ``display``)."""
    return TrainerPuzzle(row["game"], row["style"], row["code"], int(row["optimal"]),
                         tuple(tuple(m) for m in row["solution"]), dict(row["data"]), dict(row["display"]))
