"""Which games the site plays: the built-in games, then games that plug themselves in.

A game is found by a reference ``module:attribute`` naming its :class:`Game` object,
or ``module`` alone for a module that calls :func:`register` itself when imported
(a registration hook).  References come from three places, in this order:

* :data:`BUILTIN` — the four games of this package, in the order the lobby lists them;
* the ``ricochet.games`` entry points of installed distributions (in a plug-in's
  ``pyproject.toml``: ``[project.entry-points."ricochet.games"] mygame = "mygame.game:GAME"``);
* the ``RICOCHET_GAMES`` environment variable: references separated by commas (a game
  that is not installed, e.g. one that lives in a test folder on ``PYTHONPATH``).

Nothing else in the library names a game: the server, the command line, the trainer
and the web shell take the games from here.

>>> [g.name for g in GAMES.values()][:4]
['ricochet-robots', 'pyramids', 'micro-robots', 'rambots']
>>> get_game("pyramids").title
'Ricochet Pyramids'
"""

from __future__ import annotations

import importlib
import os
import re
from importlib.metadata import entry_points

from .interface import ConfigError, Game, OptionsError

__all__ = ["BUILTIN", "ENTRY_POINTS", "ENVIRONMENT", "GAMES", "get_game", "load", "load_all", "register"]

BUILTIN = ("ricochet.games.ricochet_robots.game:RICOCHET_ROBOTS", "ricochet.games.pyramids.game:PYRAMIDS",
           "ricochet.games.micro_robots.game:MICRO_ROBOTS", "ricochet.games.rambots.game:RAMBOTS")
"""The built-in games, in the order the lobby lists them."""
ENTRY_POINTS = "ricochet.games"
"""The entry-point group of installed games."""
ENVIRONMENT = "RICOCHET_GAMES"
"""The environment variable naming more games (comma-separated references)."""
NAME = re.compile(r"^[a-z][a-z0-9]*(?:-[a-z0-9]+)*$")
"""A game's name: lower-case words joined by hyphens (it is a URL part: ``/static/games/<name>/``)."""

GAMES: dict[str, Game] = {}
"""Every game of the site by name, in the order the lobby lists them (the same dict
object all along: games registered later appear in it)."""


def register(game: Game) -> Game:
    """Add ``game`` to :data:`GAMES` (again: nothing changes) and return it; a game that
    is not a :class:`Game`, has a bad name or takes the name of another game is a
    :class:`~ricochet.games.ConfigError`."""
    if not isinstance(game, Game):
        raise ConfigError(f"a game must be a ricochet.games.Game, got {type(game).__name__}")
    name = getattr(game, "name", None)
    if not isinstance(name, str) or not NAME.match(name):
        raise ConfigError(f"a game's name must be lower-case words joined by hyphens, like 'my-game', got {name!r}")
    other = GAMES.get(name)
    if other is not None and other is not game:
        raise ConfigError(f"two games are called {name!r}: {type(other).__qualname__} and {type(game).__qualname__}")
    GAMES[name] = game
    return game


def load(reference: str) -> Game | None:
    """Import the game of ``reference`` (``module:attribute``, or ``module`` for a module
    that registers its game itself, then ``None``) and register it."""
    module_name, _, attribute = reference.strip().partition(":")
    try:
        module = importlib.import_module(module_name)
        found = getattr(module, attribute) if attribute else None
    except (ImportError, AttributeError) as e:
        raise ConfigError(f"cannot load the game {reference!r}: {e}") from None
    return None if found is None else register(found)


def load_all() -> None:
    """Load the built-in games, then the plug-ins (entry points, then ``RICOCHET_GAMES``).
    Run once by :mod:`ricochet.games` as it is imported, after its own names: a plug-in's
    module imports them (``from ricochet.games import Game, register``)."""
    plugins = [ep.value for ep in entry_points(group=ENTRY_POINTS)]
    for reference in (*BUILTIN, *plugins, *(r for r in os.environ.get(ENVIRONMENT, "").split(",") if r.strip())):
        load(reference)


def get_game(name: object) -> Game:
    """The game called ``name``; :class:`OptionsError` lists the known names otherwise.

    >>> get_game("chess")
    Traceback (most recent call last):
    ...
    ricochet.games.interface.OptionsError: game must be one of ricochet-robots, pyramids, micro-robots, rambots, got 'chess'
    """
    game = GAMES.get(name) if isinstance(name, str) else None
    if game is None:
        raise OptionsError(f"game must be one of {', '.join(GAMES)}, got {name!r}")
    return game
