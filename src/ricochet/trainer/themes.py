"""A training puzzle's themes, read exactly from its optimal solution.

:func:`facts` replays the stored optimal solution with the engine and counts
what it does; :func:`themes` turns the facts into tags a player can ask for
(``GET /api/puzzles/next?theme=…``).  Pure functions: the server stores both
with each puzzle.  They know no game: what they read is the game's spec's —
the paths of a game of the library's engine (:class:`~.grid.GridSpec`), or the
kinds of moves of its hint 2 (``kinds``, as Micro Robots tells them).

Games of the engine (Ricochet Robots, Ricochet Pyramids): ``robots_moved``,
``helper_moves``, ``ricochets``, ``diagonal_bounces``, ``vortex``, ``wall_passes``:

* ``robots-N`` — N different robots move; ``solo``: only the robot that
  finishes, ``helpers``: at least one move of another robot (``helper_moves``
  counts them);
* ``ricochets-N`` — the finishing robot turns N times on its way (a change of
  heading between its moves, or a diagonal deflecting it within one);
* ``diagonal`` — a robot bounces off a coloured diagonal (``diagonal_bounces``);
* ``vortex`` — the cosmic vortex: any robot may finish;
* ``wall-pass`` — the transparent robot passes through a wall (only where
  the rules have one; the trainer's puzzles do not).

Games whose hint 2 tells each move's kind (Micro Robots: ``color_moves``,
``number_moves``, ``via``): ``by-color`` (every move by colour), ``by-number``
(every move by number), ``mixed``, and ``via`` (an intermediate target first).

Themes tell part of what hint 2 tells (which robots move), so the server shows
them only once the puzzle is played; asking for a theme is choosing it.

>>> from ricochet.trainer.puzzles import from_code
>>> tp = from_code("ricochet-robots", "1A3B4A2A.r52ge9bdey0e.y63")
>>> facts(tp)["robots_moved"], themes(tp)[:2]
(2, ['helpers', 'robots-2'])
"""

from __future__ import annotations

import re
from typing import Any

from .grid import GridSpec
from .spec import TrainerError, TrainerPuzzle, spec_of

__all__ = ["check_theme", "facts", "packed", "theme_names", "themes", "unpacked"]

_GRID = re.compile(r"^(solo|helpers|robots-[1-9]|ricochets-\d{1,2}|diagonal|vortex|wall-pass)$")
_ROUTE = re.compile(r"^(by-color|by-number|mixed|via)$")
_GRID_COMMON = ("solo", "helpers")
_RICOCHETS = tuple(f"ricochets-{n}" for n in range(1, 11))
_ROUTE_THEMES = ("by-color", "by-number", "mixed")


def theme_names(game: str) -> tuple[str, ...]:
    """The themes a picker offers for ``game``: only those its puzzles can have (``robots-N``
    up to its number of robots; ``diagonal``, ``vortex``, ``wall-pass`` when its spec's
    :attr:`~.grid.GridSpec.features` has them; ``via`` when it has that style).
    ``ricochets-N`` goes on past those listed.

    >>> theme_names("micro-robots")
    ('by-color', 'by-number', 'mixed', 'via')
    >>> "diagonal" in theme_names("pyramids"), "diagonal" in theme_names("ricochet-robots")
    (False, True)
    """
    spec = spec_of(game)
    if not isinstance(spec, GridSpec):
        return _ROUTE_THEMES + (("via",) if "via" in spec.styles else ())
    robots = tuple(f"robots-{n}" for n in range(1, spec.robot_count + 1))
    return (*_GRID_COMMON, *robots, *_RICOCHETS, *spec.features)


def facts(tp: TrainerPuzzle) -> dict[str, Any]:
    """What the optimal solution does, counted (see the module's documentation)."""
    spec = spec_of(tp.game)
    if not isinstance(spec, GridSpec):
        kinds = spec.hint_details(tp).get("kinds", [])
        by_color = sum(k == "color" for k in kinds)
        return {"moves": tp.optimal, "color_moves": by_color, "number_moves": len(kinds) - by_color,
                "via": tp.data.get("via") is not None}
    from ..notation import solution_from_json
    from ..puzzle import check_solution

    pz = spec.engine(tp)
    verdict = check_solution(pz.with_rules(spec.rules), solution_from_json([list(m) for m in tp.solution], pz.position))
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
    if "color_moves" in f:
        kind = "by-color" if f["number_moves"] == 0 else "by-number" if f["color_moves"] == 0 else "mixed"
        return [kind, *(["via"] if f["via"] else [])]
    out = ["solo" if f["helper_moves"] == 0 else "helpers", f"robots-{f['robots_moved']}",
           f"ricochets-{f['ricochets']}"]
    out += [name for name, key in (("diagonal", "diagonal_bounces"), ("vortex", "vortex"), ("wall-pass", "wall_passes"))
            if f[key]]
    return out


def check_theme(game: str, theme: object) -> str:
    """A theme asked for, checked (a :class:`TrainerError` names the field and what is allowed)."""
    grid = isinstance(spec_of(game), GridSpec)
    if not isinstance(theme, str) or not (_GRID if grid else _ROUTE).match(theme):
        allowed = "solo, helpers, robots-N, ricochets-N, diagonal, vortex, wall-pass" if grid else \
            "by-color, by-number, mixed, via"
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
