"""How a game takes part in the command line: its :class:`GameCli` (``games/<name>/cli.py``,
given by :meth:`ricochet.games.Game.cli`).

A command that takes ``--game`` asks every game for its hook: the game may add its own
options (in an argument group of its own), and run the command its way.  The commands
know no game: ``--game``'s choices, the options and the refusals of another game's
options all come from here.  Without ``--game`` (or for a game whose hook leaves the
command alone) ``show`` and ``solve`` read puzzles of the library's engine (Ricochet
Robots and Ricochet Pyramids positions alike).
"""

from __future__ import annotations

import argparse
import random
from typing import Any

from . import CliError

__all__ = ["GameCli", "GameOptions", "hooks"]


class GameCli:
    """A game's part of the command line; every method is optional (the default: the game
    has nothing for that command).  ``arguments(command, group)`` adds the game's own
    options of a command; give them ``default=None`` so that an option of another game
    can be refused when it is given."""

    def arguments(self, command: str, group: argparse._ArgumentGroup) -> None:
        """Add the game's own options of ``command`` to ``group``."""

    def random(self, args: argparse.Namespace, rng: random.Random) -> int | None:
        """``ricochet random --game <name>``: write ``args.count`` puzzles; ``None``: the game has none."""
        return None

    def show(self, args: argparse.Namespace) -> int | None:
        """``ricochet show --game <name>``; ``None``: read SOURCE as a puzzle of the engine."""
        return None

    def solve(self, args: argparse.Namespace) -> int | None:
        """``ricochet solve --game <name>``; ``None``: solve puzzles of the engine."""
        return None


def hooks() -> dict[str, tuple[Any, GameCli]]:
    """Every game with a command-line hook: its name → (the game, its hook), in the lobby's order."""
    from ..games.registry import GAMES

    found = ((name, game, game.cli()) for name, game in GAMES.items())
    return {name: (game, hook) for name, game, hook in found if hook is not None}


class GameOptions:
    """The ``--game`` option of a command and every game's own options of it.

    >>> parser = argparse.ArgumentParser()
    >>> options = GameOptions(parser, "random", "which game", default="ricochet-robots")
    >>> "pyramids" in options.choices and "--layout" in options.owner
    True
    """

    def __init__(self, parser: argparse.ArgumentParser, command: str, help: str, *,
                 default: str | None = None, takes: str | None = None) -> None:
        found = hooks()
        self.command = command
        self.games = {name: game for name, (game, _) in found.items()}
        self.hooks = {name: hook for name, (_, hook) in found.items()}
        self.choices = [name for name, hook in self.hooks.items() if takes is None or _overrides(hook, takes)]
        parser.add_argument("--game", choices=self.choices, default=default, help=help)
        self.owner: dict[str, str] = {}
        """An option string → the game it belongs to."""
        self.dests: dict[str, list[tuple[str, str]]] = {}
        """A game → its options of this command as (option string, destination)."""
        for name, hook in self.hooks.items():
            group = parser.add_argument_group(f"{self.games[name].title} (--game {name})")
            hook.arguments(command, group)
            actions = group._group_actions
            self.dests[name] = [(a.option_strings[0], a.dest) for a in actions if a.option_strings]
            for flag, _ in self.dests[name]:
                self.owner[flag] = name
            if not actions:
                parser._action_groups.remove(group)

    def hook(self, args: argparse.Namespace) -> GameCli | None:
        """The hook of ``args.game`` (``None`` without ``--game``), after refusing any option
        of another game (``--layout is an option of Ricochet Pyramids: add --game pyramids``)."""
        for name, dests in self.dests.items():
            if name == args.game:
                continue
            for flag, dest in dests:
                if getattr(args, dest, None) is not None:
                    raise CliError(f"{flag} is an option of {self.games[name].title}: add --game {name}")
        return None if args.game is None else self.hooks[args.game]


def _overrides(hook: GameCli, method: str) -> bool:
    return getattr(type(hook), method) is not getattr(GameCli, method)
