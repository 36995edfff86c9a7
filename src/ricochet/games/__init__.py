"""The games of the site: pure, deterministic game flows behind one interface.

No I/O, no clock reads, randomness only from a seed in the configuration.
The shell feeds actions with the current time and persists the events they
return; a game's state is a fold over its events.

* :mod:`ricochet.games.interface` — the contract (:class:`Game`) the server,
  storage, replay, bots and web shell rely on;
* :mod:`ricochet.games.registry` — which games there are (:data:`GAMES`,
  :func:`get_game`): the built-in ones and those that plug themselves in;
* :mod:`ricochet.games.table` — seats, host, start and end, shared by every game;
  :mod:`~ricochet.games.events`, :mod:`~ricochet.games.options`,
  :mod:`~ricochet.games.messages`, :mod:`~ricochet.games.jobs`,
  :mod:`~ricochet.games.seat_bot` — the other pieces games share;
* :mod:`ricochet.games.bidding` — the bidding round two games share;
* one package per game: :mod:`~ricochet.games.ricochet_robots` (seeds 000, 004),
  :mod:`~ricochet.games.pyramids` (seed 003), :mod:`~ricochet.games.micro_robots`
  (seed 002, a race to announce), :mod:`~ricochet.games.rambots` (seed 001, secret
  programs run all at once).  ``docs/new-game.md`` says what a new game writes.
"""

from __future__ import annotations

from .interface import ConfigError, Game, GameError, Job, OptionsError, Query, Secret
from .registry import GAMES, get_game, load_all, register

__all__ = ["DEFAULT_GAME", "GAMES", "ConfigError", "Game", "GameError", "Job", "OptionsError", "Query", "Secret",
           "get_game", "register"]

load_all()  # last but one: a plug-in's module imports the names above

DEFAULT_GAME = next(iter(GAMES))
"""The game of a room whose options name none: the first built-in game (``ricochet-robots``)."""
