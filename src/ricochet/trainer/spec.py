"""What a game tells the trainer: a :class:`TrainerSpec`, the game's own part of solo
training (its styles, the lengths it can make, its week of daily puzzles, its scoring
constants, and how to make, name, check and hint its puzzles).

The trainer knows no game: it asks each game of :mod:`ricochet.games.registry` for its
spec (:meth:`ricochet.games.Game.trainer`) and uses only what is written here.
Ricochet Robots and Ricochet Pyramids write theirs on :class:`~.grid.GridSpec` (puzzles
of the library's engine, solved by the solver); Micro Robots writes its own.
"""

from __future__ import annotations

import abc
import random
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..errors import RicochetError

__all__ = ["Attempt", "TrainerError", "TrainerPuzzle", "TrainerSpec", "lookup", "names", "puzzle_id", "spec_of", "specs"]


class TrainerError(RicochetError):
    """A request the trainer cannot serve; the message names the field and says why."""

    default_code = "trainer"


def puzzle_id(game: str, code: str) -> str:
    """The stable id of a puzzle: the same code gives the same id on every server and database.

    >>> puzzle_id("ricochet-robots", "1A3B4A2A.r00gf0b0fyff.r85")
    'd1a528754032b2e8'
    """
    import hashlib

    return hashlib.sha256(f"{game}:{code}".encode()).hexdigest()[:16]


@dataclass(frozen=True)
class TrainerPuzzle:
    """A training puzzle with its optimal solution.

    ``data`` is what a player receives (the game's own JSON form of the puzzle, with
    ``optimal`` and without the solution: for the grid games one object of the
    interchange format of ``shared/data/README.md``).  ``display`` has what drawing
    needs beyond the puzzle (a chip, the towers' colours).  ``solution`` is JSON-ready,
    in the form of the game's moves (``[[robot, "N"], …]``, or the spaces a Micro Robots
    robot moves to)."""

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


@dataclass(frozen=True)
class Attempt:
    """The engine's verdict on a player's moves: ``result`` is ``optimal``,
    ``found`` (solved in ``length`` > optimal moves) or ``failed`` (``reason``
    says why, for people)."""

    result: str
    length: int
    reason: str | None = None


class TrainerSpec(abc.ABC):
    """A game's part of the trainer (one stateless instance per game)."""

    game: str
    """The game's name (:attr:`ricochet.games.Game.name`)."""
    share_name: str
    """The game's name in the share text (``Ricochet daily #412: 9/7``)."""
    styles: tuple[str, ...]
    """The kinds of puzzle it makes, the first the default."""
    lengths: tuple[int, int]
    """The optimal lengths that can be asked for (longer ones are too rare to find on demand)."""

    @property
    def longest_on_request(self) -> int:
        """The longest optimal length made on request (default: every length it can be asked
        for).  Longer ones are served from puzzles made ahead of time, never made for a request."""
        return self.lengths[1]
    base_length: int
    """The optimal length a 1500-rated newcomer is served first (about the median of random puzzles)."""
    points_per_move: float
    """Rating points per move of optimal length, for a new puzzle's rating."""
    streak_start: int
    streak_every: int
    """A streak starts at ``streak_start`` moves and grows by one every ``streak_every`` puzzles."""
    week: tuple[tuple[int, str], ...]
    """The daily puzzle's (length, style) from Monday to Sunday."""
    storm_every: int = 3
    """Puzzle Storm: one move more every ``storm_every`` puzzles (:mod:`.storm`)."""

    @property
    def storm_lengths(self) -> tuple[int, int]:
        """Puzzle Storm's first and longest optimal lengths (default: from the shortest
        to two moves past :attr:`base_length`; a run is three minutes)."""
        return self.lengths[0], min(self.longest_on_request, self.base_length + 2)

    def check_length(self, style: str, length: int) -> None:
        """Refuse a length (within :attr:`lengths`) that ``style`` cannot have (default: none)."""

    @abc.abstractmethod
    def draw(self, style: str, rng: random.Random, length: int, time_left: float | None) -> TrainerPuzzle | None:
        """One random candidate of ``style`` drawn from ``rng``, solved: a puzzle of optimal
        length at most ``length`` (the search may stop there), or ``None`` (draw again).
        ``time_left``: seconds the solver may take (``None``: no clock, a pure function)."""

    @abc.abstractmethod
    def from_code(self, code: str, time_limit: float | None) -> TrainerPuzzle:
        """The puzzle a shared code names, solved; :class:`TrainerError` if the game cannot use it."""

    @abc.abstractmethod
    def validate_code(self, code: str) -> None:
        """Refuse a code that cannot name a puzzle of this game (cheap: no solving)."""

    @abc.abstractmethod
    def check_attempt(self, tp: TrainerPuzzle, moves: list[Any]) -> Attempt:
        """Play ``moves`` (a list, already bounded) with the engine and grade them; malformed
        moves are a :class:`TrainerError` naming the move."""

    @abc.abstractmethod
    def solution_paths(self, tp: TrainerPuzzle) -> list[Any]:
        """The optimal solution for an animation, in the game's own form."""

    @abc.abstractmethod
    def hint_details(self, tp: TrainerPuzzle) -> dict[str, Any]:
        """Hint 2, in the game's words: which robots move (``robots``), or how each move
        goes (``kinds``)."""


class _Specs(Mapping[str, TrainerSpec]):
    """The trainer specs of the registered games, by game name, in the lobby's order
    (read afresh on each use: a game registered later is there)."""

    @staticmethod
    def _all() -> dict[str, TrainerSpec]:
        from ..games.registry import GAMES

        found = ((name, game.trainer()) for name, game in GAMES.items())
        return {name: spec for name, spec in found if spec is not None}

    def __getitem__(self, game: str) -> TrainerSpec:
        return self._all()[game]

    def __iter__(self) -> Iterator[str]:
        return iter(self._all())

    def __len__(self) -> int:
        return len(self._all())


def specs() -> Mapping[str, TrainerSpec]:
    """Every game's trainer spec, by game name (games without solo puzzles have none)."""
    return _Specs()


def spec_of(game: object) -> TrainerSpec:
    """The spec of ``game``; :class:`TrainerError` (field ``game``) lists the games with puzzles."""
    found = specs()
    if not isinstance(game, str) or game not in found:
        raise TrainerError(f"game must be one of {', '.join(found)}, got {game!r}")
    return found[game]


def lookup(attribute: str) -> Mapping[str, Any]:
    """One attribute of every spec, by game name (a live view: ``lookup("styles")["pyramids"]``)."""
    return _Attribute(attribute)


class _Attribute(Mapping[str, Any]):
    def __init__(self, attribute: str) -> None:
        self.attribute = attribute

    def __getitem__(self, game: str) -> Any:
        return getattr(specs()[game], self.attribute)

    def __iter__(self) -> Iterator[str]:
        return iter(specs())

    def __len__(self) -> int:
        return len(specs())


class _Names(Sequence[str]):
    """The names of the games with trainer specs (a live view)."""

    def __getitem__(self, i: Any) -> Any:
        return list(specs())[i]

    def __len__(self) -> int:
        return len(specs())

    def __contains__(self, game: object) -> bool:
        return isinstance(game, str) and game in specs()

    def __repr__(self) -> str:
        return repr(tuple(specs()))


def names() -> Sequence[str]:
    """The games with solo puzzles, in the lobby's order (a live view)."""
    return _Names()
