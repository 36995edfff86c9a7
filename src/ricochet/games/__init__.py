"""The games of the site: pure, deterministic game flows behind one interface.

No I/O, no clock reads, randomness only from a seed in the configuration.
The shell feeds actions with the current time and persists the events they
return; a game's state is a fold over its events.

* :mod:`ricochet.games.interface` — the contract (:class:`Game`) the server,
  storage, replay, bots and web shell rely on;
* :mod:`ricochet.games.table` — seats, host, start and end, shared by every game;
* :mod:`ricochet.games.bidding` — the shared bidding round (bids, never-raise,
  the timer, demonstration order and tie-breaks, demonstrations);
* :mod:`ricochet.games.ricochet_robots` — Ricochet Robots (seeds 000, 004);
* :mod:`ricochet.games.pyramids` — Ricochet Pyramids (seed 003);
* :mod:`ricochet.games.micro_robots` — Micro Robots (seed 002), a race to announce;
* :mod:`ricochet.games.rambots` — RAMbots (seed 001): secret programs run all at once.

:func:`get_game` finds a game by its name; :data:`GAMES` lists them all.
"""

from __future__ import annotations

from .interface import ConfigError, Game, GameError, Job, OptionsError, Query, Secret
from .micro_robots import MICRO_ROBOTS
from .pyramids import PYRAMIDS
from .rambots import RAMBOTS
from .ricochet_robots import RICOCHET_ROBOTS

GAMES: dict[str, Game] = {g.name: g for g in (RICOCHET_ROBOTS, PYRAMIDS, MICRO_ROBOTS, RAMBOTS)}
"""Every game of the site by name, in the order the lobby lists them."""
DEFAULT_GAME = RICOCHET_ROBOTS.name


def get_game(name: object) -> Game:
    """The game called ``name``; :class:`OptionsError` lists the known names otherwise.

    >>> get_game("pyramids").title
    'Ricochet Pyramids'
    """
    game = GAMES.get(name) if isinstance(name, str) else None
    if game is None:
        raise OptionsError(f"game must be one of {', '.join(GAMES)}, got {name!r}")
    return game


__all__ = ["DEFAULT_GAME", "GAMES", "ConfigError", "Game", "GameError", "Job", "OptionsError", "Query", "Secret",
           "get_game"]
