"""A training puzzle's themes, read exactly from its optimal solution.

:func:`facts` replays the stored optimal solution with the engine and counts
what it does; :func:`themes` turns the facts into tags a player can ask for
(``GET /api/puzzles/next?theme=…``).  Pure functions: the server stores both
with each puzzle.

Ricochet Robots and Ricochet Pyramids (``robots_moved``, ``helper_moves``,
``ricochets``, ``diagonal_bounces``, ``vortex``, ``wall_passes``):

* ``robots-N`` — N different robots move; ``solo``: only the robot that
  finishes, ``helpers``: at least one move of another robot (``helper_moves``
  counts them);
* ``ricochets-N`` — the finishing robot turns N times on its way (a change of
  heading between its moves, or a diagonal deflecting it within one);
* ``diagonal`` — a robot bounces off a coloured diagonal (``diagonal_bounces``);
* ``vortex`` — the cosmic vortex: any robot may finish;
* ``wall-pass`` — the transparent robot passes through a wall (only where
  the rules have one; the trainer's puzzles do not).

Micro Robots (``color_moves``, ``number_moves``, ``via``): ``by-color`` (every
move by colour), ``by-number`` (every move by number), ``mixed``, and ``via``
(an intermediate target first).

Themes tell part of what hint 2 tells (which robots move), so the server shows
them only once the puzzle is played; asking for a theme is choosing it.

>>> from ricochet.trainer.puzzles import from_code
>>> tp = from_code("ricochet-robots", "1A3B4A2A.r52ge9bdey0e.y63")
>>> facts(tp)["robots_moved"], themes(tp)[:2]
(2, ['helpers', 'robots-2'])
"""

from __future__ import annotations

import itertools
import re
from typing import Any

from .puzzles import GAMES, RULES, MicroPuzzle, TrainerError, TrainerPuzzle, _engine

__all__ = ["THEMES", "THEME_PATTERN", "check_theme", "facts", "packed", "themes", "unpacked"]

THEMES: dict[str, tuple[str, ...]] = {
    "ricochet-robots": ("solo", "helpers", "robots-1", "robots-2", "robots-3", "robots-4", "diagonal", "vortex",
                        *(f"ricochets-{n}" for n in range(1, 11))),
    "pyramids": ("solo", "helpers", "robots-1", "robots-2", "robots-3", *(f"ricochets-{n}" for n in range(11))),
    "micro-robots": ("by-color", "by-number", "mixed", "via"),
}
"""The themes a picker offers, per game (``ricochets-N`` goes on past those listed)."""

THEME_PATTERN: dict[str, re.Pattern[str]] = {
    "ricochet-robots": re.compile(r"^(solo|helpers|robots-[1-4]|ricochets-\d{1,2}|diagonal|vortex|wall-pass)$"),
    "pyramids": re.compile(r"^(solo|helpers|robots-[1-3]|ricochets-\d{1,2})$"),
    "micro-robots": re.compile(r"^(by-color|by-number|mixed|via)$"),
}
"""The themes each game's puzzles may have."""


def facts(tp: TrainerPuzzle) -> dict[str, Any]:
    """What the optimal solution does, counted (see the module's documentation)."""
    if tp.game == "micro-robots":
        mp = MicroPuzzle.parse(tp.code)
        board = mp.board
        route = [mp.start, *[(int(c[0]), int(c[1])) for c in tp.solution]]
        by_color = sum(board.space(a).color == board.space(b).color for a, b in itertools.pairwise(route))
        return {"moves": tp.optimal, "color_moves": by_color, "number_moves": len(route) - 1 - by_color,
                "via": mp.via is not None}
    from ..notation import solution_from_json
    from ..puzzle import check_solution

    pz = _engine(tp)
    verdict = check_solution(pz, solution_from_json([list(m) for m in tp.solution], pz.position), RULES[tp.game])
    if not verdict.ok or not verdict.paths:
        raise TrainerError(f"the stored solution of {tp.code} does not solve it")
    paths = verdict.paths
    finisher = paths[-1].robot
    turns, heading = 0, None
    for path in paths:
        if path.robot != finisher:
            continue
        for h in (path.direction, *(s.heading for s in path.steps)):
            if heading is not None and h != heading:
                turns += 1
            heading = h
    events = [s.event for p in paths for s in p.steps if s.event is not None]
    return {
        "moves": tp.optimal,
        "robots_moved": len({p.robot for p in paths}),
        "helper_moves": sum(p.robot != finisher for p in paths),
        "ricochets": turns,
        "diagonal_bounces": sum("deflect" in e for e in events),
        "vortex": pz.active is None,
        "wall_passes": sum("wall" in e for e in events),
    }


def themes(tp: TrainerPuzzle, known: dict[str, Any] | None = None) -> list[str]:
    """The puzzle's theme tags, from its :func:`facts` (``known``: facts already counted)."""
    f = known if known is not None else facts(tp)
    if tp.game == "micro-robots":
        kind = "by-color" if f["number_moves"] == 0 else "by-number" if f["color_moves"] == 0 else "mixed"
        return [kind, *(["via"] if f["via"] else [])]
    out = ["solo" if f["helper_moves"] == 0 else "helpers", f"robots-{f['robots_moved']}",
           f"ricochets-{f['ricochets']}"]
    out += [name for name, key in (("diagonal", "diagonal_bounces"), ("vortex", "vortex"), ("wall-pass", "wall_passes"))
            if f[key]]
    return out


def check_theme(game: str, theme: object) -> str:
    """A theme asked for, checked (a :class:`TrainerError` names the field and what is allowed)."""
    if game not in GAMES:
        raise TrainerError(f"game must be one of {', '.join(GAMES)}, got {game!r}")
    if not isinstance(theme, str) or not THEME_PATTERN[game].match(theme):
        allowed = {"ricochet-robots": "solo, helpers, robots-1 to robots-4, ricochets-N, diagonal, vortex, wall-pass",
                   "pyramids": "solo, helpers, robots-1 to robots-3, ricochets-N",
                   "micro-robots": "by-color, by-number, mixed, via"}[game]
        raise TrainerError(f"theme must be one of {allowed} for {game}, got {theme!r}")
    return theme


def packed(tags: list[str]) -> str:
    """Tags as stored (``|a|b|``: one ``LIKE '%|a|%'`` finds a theme on any database).

    >>> packed(["solo", "robots-1"]), unpacked("|solo|robots-1|")
    ('|solo|robots-1|', ['solo', 'robots-1'])
    """
    return "|" + "|".join(tags) + "|"


def unpacked(text: str | None) -> list[str]:
    return [t for t in (text or "").split("|") if t]
