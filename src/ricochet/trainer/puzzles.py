"""Training puzzles for every puzzle game of the site: made to a requested
optimal length and style, named by a shareable code, checked by the engine.

* **Ricochet Robots** — the real boards (style ``classic``: tiles A/B;
  ``diagonals``: tiles C/D, with coloured diagonals), four robots, one of the
  17 printed targets, the game's rules (must ricochet, no moving straight
  back).  Named by the position code of :mod:`ricochet.notation.code`.
* **Ricochet Pyramids** — the 8×8 board with nine towers (style ``random``,
  or the seed's ``easy`` and ``hard`` layouts), three robots, a goal tower.
  Named by its position code; the towers' colours are dealt from the board's
  code, so the code alone gives the whole puzzle.
* **Micro Robots** — the 6×6 board, its sections placed and turned; the
  robot goes from a start space to a target (style ``shortest``) or first
  through an intermediate target (style ``via``, the experts' variant).
  Named ``<arrangement>.s<rc>.t<rc>[.v<rc>]``, e.g. ``C1A0D2B3.s05.t32``.

Making a puzzle of length *n* draws candidates from a seeded
:class:`random.Random` and keeps the first whose optimal length (the solver's,
or a breadth-first search for Micro Robots) is *n*: a pure function of the
seed, so the puzzle of the day is the same wherever it is made.  This is CPU
work: the server runs it in its solver worker, never on the event loop.

>>> tp = generate("micro-robots", 3, "shortest", "doc")
>>> tp.optimal, tp.code == from_code("micro-robots", tp.code).code
(3, True)
>>> check_attempt(tp, tp.solution).result
'optimal'
"""

from __future__ import annotations

import hashlib
import itertools
import random
import re
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..micro import Arrangement, MicroBoard, shortest_route
from ..notation import NotationError, parse_code, puzzle_code, puzzle_to_json, solution_from_json, solution_to_json
from ..position import Position, PositionError, Robot
from ..puzzle import Puzzle, check_solution
from ..rules import Rules

__all__ = [
    "BASE_LENGTH",
    "GAMES",
    "LENGTHS",
    "ON_DEMAND",
    "RULES",
    "STYLES",
    "Attempt",
    "MicroPuzzle",
    "TrainerError",
    "TrainerPuzzle",
    "check_attempt",
    "from_code",
    "from_solution",
    "generate",
    "hint",
    "puzzle_id",
    "solution_paths",
]

GAMES: tuple[str, ...] = ("ricochet-robots", "pyramids", "micro-robots")
"""The games with training puzzles (RAMbots has no single-player puzzle)."""
STYLES: dict[str, tuple[str, ...]] = {
    "ricochet-robots": ("classic", "diagonals"),
    "pyramids": ("random", "easy", "hard"),
    "micro-robots": ("shortest", "via"),
}
"""Each game's styles, the first the default."""
LENGTHS: dict[str, tuple[int, int]] = {"ricochet-robots": (2, 21), "pyramids": (2, 12), "micro-robots": (1, 10)}
"""The optimal lengths that can be asked for, per game.  Ricochet Robots puzzles from
:data:`ON_DEMAND` moves on are too rare to draw at random: the server serves them from
puzzles made ahead of time (:mod:`.long`), never makes them on request."""
ON_DEMAND: dict[str, int] = {"ricochet-robots": 13, "pyramids": 12, "micro-robots": 10}
"""The longest optimal length made on request (drawn at random, :func:`generate`)."""
BASE_LENGTH: dict[str, int] = {"ricochet-robots": 7, "pyramids": 5, "micro-robots": 3}
"""The optimal length a 1500-rated newcomer is served first (about the median of random puzzles)."""
RULES: dict[str, Rules] = {
    "ricochet-robots": Rules(must_ricochet=True, no_straight_back=True),
    "pyramids": Rules.preset("pyramids"),
}
"""The rules training puzzles are played under (the games' own defaults, without the silver robot)."""
MAX_CANDIDATES = 4000
"""Candidates drawn before giving up on an exact length (Ricochet Robots needs about 100 for 12 moves)."""


class TrainerError(ValueError):
    """A request the trainer cannot serve; the message names the field and says why."""


def puzzle_id(game: str, code: str) -> str:
    """The stable id of a puzzle: the same code gives the same id on every server and database.

    >>> puzzle_id("ricochet-robots", "1A3B4A2A.r00gf0b0fyff.r85")
    'd1a528754032b2e8'
    """
    return hashlib.sha256(f"{game}:{code}".encode()).hexdigest()[:16]


# -- Micro Robots puzzles ------------------------------------------------------------------------
_MICRO_CODE = re.compile(r"^((?:[ABCD][0-3]){4})\.s([0-5])([0-5])\.t([0-5])([0-5])(?:\.v([0-5])([0-5]))?$")


@dataclass(frozen=True)
class MicroPuzzle:
    """A Micro Robots route puzzle: from ``start`` to ``target`` (through ``via``
    first, when given) on the board of ``arrangement``; spaces are ``(row, col)``."""

    arrangement: Arrangement
    start: tuple[int, int]
    target: tuple[int, int]
    via: tuple[int, int] | None = None

    @property
    def board(self) -> MicroBoard:
        return MicroBoard.arranged(self.arrangement)

    @property
    def code(self) -> str:
        def rc(c: tuple[int, int]) -> str:  # two digits: row, then column
            return f"{c[0]}{c[1]}"

        return f"{self.arrangement.code}.s{rc(self.start)}.t{rc(self.target)}" + (
            f".v{rc(self.via)}" if self.via is not None else "")

    @staticmethod
    def parse(code: str) -> MicroPuzzle:
        m = _MICRO_CODE.match(code.strip().upper().replace("S", "s").replace("T", "t").replace("V", "v")) \
            if isinstance(code, str) else None
        if m is None:
            raise TrainerError(f"code: a Micro Robots puzzle is written like C1A0D2B3.s05.t32 or "
                               f"C1A0D2B3.s05.t32.v11 (arrangement, start, target, via), got {code!r}")
        g = m.groups()
        start, target = (int(g[1]), int(g[2])), (int(g[3]), int(g[4]))
        via = (int(g[5]), int(g[6])) if g[5] is not None else None
        if start == target or via in (start, target):
            raise TrainerError("code: start, target and via must be three different spaces")
        return MicroPuzzle(Arrangement.parse(g[0]), start, target, via)

    def optimal_route(self) -> list[tuple[int, int]]:
        """A shortest route (spaces, start first), through ``via`` when there is one."""
        b = self.board
        if self.via is None:
            route = shortest_route(b, self.start, self.target)
            assert route is not None  # every space reaches every other on a real board
            return route
        first = shortest_route(b, self.start, self.via)
        second = shortest_route(b, self.via, self.target)
        assert first is not None and second is not None
        return first + second[1:]

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"arrangement": self.arrangement.code, "cells": self.board.to_json(),
                               "start": list(self.start), "target": list(self.target)}
        if self.via is not None:
            out["via"] = list(self.via)
        return out


# -- the puzzle value ------------------------------------------------------------------------------
@dataclass(frozen=True)
class TrainerPuzzle:
    """A training puzzle with its optimal solution.

    ``data`` is what a player receives: for Ricochet Robots and Pyramids one
    object of the interchange format (``shared/data/README.md``) with
    ``optimal`` and without ``solution``; for Micro Robots an object of its
    own (``arrangement``, ``cells``, ``start``, ``target``, ``via``,
    ``optimal``).  ``display`` has what drawing needs beyond the physics (the
    chip, the towers' colours).  ``solution`` is JSON-ready: ``[[robot, "N"], …]``
    or, for Micro Robots, the spaces ``[[row, col], …]`` the robot moves to."""

    game: str
    style: str
    code: str
    optimal: int
    solution: tuple[tuple[Any, ...], ...]
    data: Mapping[str, Any] = field(compare=False)
    display: Mapping[str, Any] = field(compare=False)

    @property
    def id(self) -> str:
        return puzzle_id(self.game, self.code)

    def public(self) -> dict[str, Any]:
        """The puzzle as the API sends it before an attempt (never the solution)."""
        return {"id": self.id, "game": self.game, "style": self.style, "code": self.code,
                "optimal": self.optimal, "puzzle": dict(self.data), "display": dict(self.display)}


def _engine(tp: TrainerPuzzle) -> Puzzle:
    parsed = parse_code(tp.code)
    assert isinstance(parsed, Puzzle)
    return parsed


def _finish_grid(game: str, style: str, puzzle: Puzzle, optimal: int, moves: Sequence[Any]) -> TrainerPuzzle:
    """A Ricochet Robots or Pyramids puzzle with its solution, ready to store and serve."""
    code = puzzle_code(puzzle)
    data = puzzle_to_json(Puzzle(puzzle.position, puzzle.target, puzzle.active, rules=RULES[game],
                                 optimal=optimal, id=puzzle_id(game, code)))
    return TrainerPuzzle(game, style, code, optimal, tuple(tuple(m) for m in solution_to_json(moves)), data,
                         _display(game, puzzle))


def _display(game: str, puzzle: Puzzle) -> dict[str, Any]:
    pos = puzzle.position
    active = None if puzzle.active is None else pos.robots[puzzle.active].color
    if game == "ricochet-robots":
        chip = next(({"color": t.color, "symbol": t.symbol} for t in pos.board.targets if t.cell == puzzle.target),
                    {"color": active or "any", "symbol": "vortex" if active is None else "circle"})
        return {"chip": chip, "active_color": active}
    from ..games.pyramids import COLORS, deal_towers
    from ..notation import board_code

    towers = deal_towers(sorted(pos.board.towers), COLORS[:3], random.Random(f"trainer:towers:{board_code(pos.board)}"))
    goal = next(t for t in towers if t.cell == puzzle.target)
    return {"towers": [t.to_dict() for t in towers], "active_color": active,
            "goal": {"robot": active, "top": goal.top, "bottom": goal.bottom}}


def _finish_micro(style: str, mp: MicroPuzzle) -> TrainerPuzzle:
    route = mp.optimal_route()
    optimal = len(route) - 1
    data = {"id": puzzle_id("micro-robots", mp.code), **mp.to_json(), "optimal": optimal}
    return TrainerPuzzle("micro-robots", style, mp.code, optimal, tuple(tuple(c) for c in route[1:]), data, {})


# -- candidates --------------------------------------------------------------------------------------
def _candidate(game: str, style: str, rng: random.Random) -> Puzzle | MicroPuzzle | None:
    """One random candidate of that game and style (``None``: draw again)."""
    if game == "ricochet-robots":
        from ..generate import random_puzzle

        faces = "AB" if style == "classic" else "CD"
        pz = random_puzzle(rng, RULES[game], faces=faces)
        return Puzzle(pz.position, pz.target, pz.active)
    if game == "pyramids":
        from ..games.pyramids import COLORS, LAYOUTS, SIZE, board_of, deal_towers, random_cells

        cells = random_cells(9, rng) if style == "random" else LAYOUTS[style]
        board = board_of(deal_towers(cells, COLORS[:3], rng))
        free = [(x, y) for y in range(SIZE) for x in range(SIZE) if (x, y) not in board.towers]
        robots = tuple(Robot(c, cell) for c, cell in zip(COLORS[:3], rng.sample(free, 3), strict=True))
        target = rng.choice(sorted(board.towers))
        return Puzzle(Position(board, robots), target, rng.randrange(3))
    arrangement = Arrangement.random(rng)
    spaces = [(r, c) for r in range(6) for c in range(6)]
    picks = rng.sample(spaces, 3)
    return MicroPuzzle(arrangement, picks[0], picks[1], picks[2] if style == "via" else None)


def check_spec(game: Any, length: Any = None, style: Any = None) -> tuple[str, int | None, str]:
    """``game``, ``length`` and ``style`` checked (a :class:`TrainerError` names the field);
    the style defaults to the game's first."""
    if game not in GAMES:
        raise TrainerError(f"game must be one of {', '.join(GAMES)}, got {game!r}")
    if style is None:
        style = STYLES[game][0]
    if style not in STYLES[game]:
        raise TrainerError(f"style must be one of {', '.join(STYLES[game])} for {game}, got {style!r}")
    if length is not None:
        lo, hi = LENGTHS[game]
        if isinstance(length, bool) or not isinstance(length, int) or not lo <= length <= hi:
            raise TrainerError(f"length must be a whole number of moves from {lo} to {hi} for {game}, got {length!r}")
        if style == "via" and length < 2:
            raise TrainerError("length must be at least 2 for the via style (one move to the via space, one on)")
    return game, length, style


def generate(game: str, length: int, style: str | None = None, seed: object = 0, *,
             time_budget: float | None = None, max_candidates: int = MAX_CANDIDATES) -> TrainerPuzzle | None:
    """A puzzle of ``game`` in ``style`` whose optimal solution has exactly
    ``length`` moves, drawn from ``random.Random(seed)``.

    Without ``time_budget`` the answer is a pure function of the arguments
    (the solver runs with no clock), as the puzzle of the day needs.  With a
    budget (seconds) it stops early and returns the longest puzzle found
    shorter than ``length`` (``None`` if there is none): a request never waits
    longer than that."""
    game, length, style = check_spec(game, length, style)
    assert length is not None
    rng = random.Random(f"trainer:{game}:{style}:{seed}")
    t0 = time.perf_counter()
    best: TrainerPuzzle | None = None
    if game != "micro-robots":
        from ..solver import solve
    for _ in range(max_candidates):
        left = None if time_budget is None else time_budget - (time.perf_counter() - t0)
        if left is not None and left <= 0:
            break
        cand = _candidate(game, style, rng)
        if isinstance(cand, MicroPuzzle):
            found = _finish_micro(style, cand)
        elif cand is not None:
            if cand.active is not None and cand.position.robots[cand.active].cell == cand.target:
                continue  # Pyramids: the seed redraws a robot already on its goal tower
            sol = solve(cand, RULES[game], max_moves=length, time_limit=left, check=True)
            if not sol.solved or sol.length is None or sol.length < LENGTHS[game][0]:
                continue
            found = _finish_grid(game, style, cand, sol.length, sol.moves)
        else:
            continue
        if found.optimal == length:
            return found
        if found.optimal < length and (best is None or found.optimal > best.optimal):
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
    if game == "micro-robots":
        mp = MicroPuzzle.parse(code)
        return _finish_micro("via" if mp.via is not None else "shortest", mp)
    try:
        parsed = parse_code(code)
    except NotationError as e:
        raise TrainerError(f"code: {e}") from None
    if not isinstance(parsed, Puzzle):
        raise TrainerError("code: a position without a target; a puzzle code ends with the active robot and "
                           "the target, like .r85")
    pz = Puzzle(parsed.position, parsed.target, parsed.active)
    board = pz.position.board
    colors = [r.color for r in pz.position.robots]
    if game == "ricochet-robots":
        if (board.width, board.height) != (16, 16) or board.towers or not board.targets or \
                colors != ["red", "green", "blue", "yellow"]:
            raise TrainerError("code: Ricochet Robots training puzzles are on a real 16×16 board with the red, "
                               "green, blue and yellow robots")
        style = "diagonals" if board.diagonals else "classic"
    else:
        if (board.width, board.height) != (8, 8) or len(board.towers) != 9 or pz.target not in board.towers or \
                colors != ["red", "green", "yellow"] or pz.active is None:
            raise TrainerError("code: Ricochet Pyramids training puzzles have 9 towers on the 8×8 board, the red, "
                               "green and yellow robots, and a goal tower for one of them")
        style = "random"
    from ..solver import solve

    sol = solve(pz, RULES[game], max_moves=LENGTHS[game][1] + 10, time_limit=time_limit, check=True)
    if not sol.solved or sol.length is None or sol.length == 0:
        raise TrainerError(f"code: this puzzle has no solution the trainer can use ({sol.reason or sol.status})")
    return _finish_grid(game, style, pz, sol.length, sol.moves)


def from_solution(game: str, style: str, code: str, solution: Sequence[Any]) -> TrainerPuzzle:
    """A puzzle made ahead of time (``ricochet/data/trainer-long.json``): its code and an
    optimal solution found and checked when it was made.  The solution is replayed by the
    engine (it must solve the puzzle); its optimality is the maker's (cheap: no solving).

    >>> tp = from_code("ricochet-robots", "1A3B4A2A.r52ge9bdey0e.y63")
    >>> from_solution(tp.game, tp.style, tp.code, tp.solution) == tp
    True
    """
    check_spec(game, None, style)
    if game == "micro-robots":
        raise TrainerError("game: Micro Robots puzzles are made on request")
    parsed = parse_code(code)
    if not isinstance(parsed, Puzzle):
        raise TrainerError(f"code: {code!r} is a position without a target")
    pz = Puzzle(parsed.position, parsed.target, parsed.active)
    try:
        moves = solution_from_json([list(m) for m in solution], pz.position)
    except NotationError as e:
        raise TrainerError(f"solution: {e}") from None
    verdict = check_solution(pz, moves, RULES[game])
    if not verdict.ok or not moves:
        raise TrainerError(f"solution: it does not solve {code} ({verdict.failure.message if verdict.failure else 'no moves'})")
    return _finish_grid(game, style, pz, verdict.cost, moves)


# -- attempts ------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Attempt:
    """The engine's verdict on a player's moves: ``result`` is ``optimal``,
    ``found`` (solved in ``length`` > optimal moves) or ``failed`` (``reason``
    says why, for people)."""

    result: str
    length: int
    reason: str | None = None


def _micro_moves(data: Any) -> list[tuple[int, int]]:
    if not isinstance(data, list):
        raise TrainerError("moves must be a list of spaces [row, col] the robot moves to")
    out = []
    for i, c in enumerate(data):
        if not (isinstance(c, list | tuple) and len(c) == 2 and all(
                isinstance(v, int) and not isinstance(v, bool) and 0 <= v < 6 for v in c)):
            raise TrainerError(f"moves[{i}] must be a space [row, col] with both from 0 to 5, got {c!r}")
        out.append((c[0], c[1]))
    return out


MAX_ATTEMPT_MOVES = 60


def check_attempt(tp: TrainerPuzzle, moves: Any) -> Attempt:
    """Play ``moves`` (JSON: ``[[robot, "N"], …]``, or spaces for Micro
    Robots) on the puzzle with the engine and grade them.  Malformed moves are
    a :class:`TrainerError` naming the move; legal moves that do not solve
    the puzzle are a ``failed`` attempt."""
    if not isinstance(moves, list | tuple) or len(moves) > MAX_ATTEMPT_MOVES:
        raise TrainerError(f"moves must be a list of at most {MAX_ATTEMPT_MOVES} moves")
    moves = [list(m) if isinstance(m, tuple) else m for m in moves]
    if tp.game == "micro-robots":
        mp = MicroPuzzle.parse(tp.code)
        board = mp.board
        route = [mp.start, *_micro_moves(moves)]
        for k in range(1, len(route)):
            if not board.is_move(route[k - 1], route[k]):
                return Attempt("failed", k, f"move {k}: {board.name(route[k - 1])} to {board.name(route[k])} is not "
                                            "a move (same row or column, same colour or number)")
        n = len(route) - 1
        if route[-1] != mp.target:
            return Attempt("failed", n, f"the robot ends on {board.name(route[-1])}, not on the target "
                                        f"{board.name(mp.target)}")
        if mp.via is not None and mp.via not in route[1:-1]:
            return Attempt("failed", n, f"the robot must pass through {board.name(mp.via)} first")
        return Attempt("optimal" if n <= tp.optimal else "found", n)
    pz = _engine(tp)
    try:
        parsed = solution_from_json(moves, pz.position)
    except NotationError as e:
        raise TrainerError(str(e).replace("solution", "moves")) from None
    verdict = check_solution(pz, parsed, RULES[tp.game])
    if not verdict.ok:
        assert verdict.failure is not None
        return Attempt("failed", verdict.cost, verdict.failure.message)
    return Attempt("optimal" if verdict.cost <= tp.optimal else "found", verdict.cost)


def solution_paths(tp: TrainerPuzzle) -> list[Any]:
    """The optimal solution's paths for an animation (``Path.to_dict()`` each),
    or for Micro Robots the route's spaces, start first."""
    if tp.game == "micro-robots":
        mp = MicroPuzzle.parse(tp.code)
        return [list(mp.start), *[list(c) for c in tp.solution]]
    pz = _engine(tp)
    verdict = check_solution(pz, solution_from_json([list(m) for m in tp.solution], pz.position), RULES[tp.game])
    return [p.to_dict() for p in verdict.paths]


# -- hints -----------------------------------------------------------------------------------------------
HINT_LEVELS = (1, 2, 3, 4)


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
    if tp.game == "micro-robots":
        mp = MicroPuzzle.parse(tp.code)
        board = mp.board
        route = [mp.start, *[tuple(c) for c in tp.solution]]
        if level >= 2:
            out["kinds"] = ["color" if board.space(a).color == board.space(b).color else "number"  # type: ignore[arg-type]
                            for a, b in itertools.pairwise(route)]
    else:
        colors = [r.color for r in _engine(tp).position.robots]
        if level >= 2:
            out["robots"] = sorted({colors[m[0]] for m in tp.solution}, key=colors.index)
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


def validate_code(game: str, code: str) -> None:
    """Refuse a code that cannot name a puzzle of ``game`` (cheap: no solving)."""
    check_spec(game)
    if game == "micro-robots":
        MicroPuzzle.parse(code)
        return
    try:
        parsed = parse_code(code)
    except (NotationError, PositionError) as e:
        raise TrainerError(f"code: {e}") from None
    if not isinstance(parsed, Puzzle):
        raise TrainerError("code: a position without a target")

