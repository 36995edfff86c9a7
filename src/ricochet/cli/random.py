"""``ricochet random``: random puzzles of a game (``--game``, default the first game of
the registry), each written as soon as it is drawn: ``--count 1000000`` streams rather
than holding a million puzzles until the last.  Each game draws its own
(:meth:`ricochet.cli.hooks.GameCli.random`) with its own options; this module has the
options every game shares."""

from __future__ import annotations

import argparse
import random

from . import CliError, add_command
from .hooks import GameOptions
from .shared import add_output_arguments, add_rules_argument


def build(parser: argparse.ArgumentParser) -> None:
    from ..games import DEFAULT_GAME

    options = GameOptions(parser, "random", f"the game (default {DEFAULT_GAME}; each has its options below)",
                          default=DEFAULT_GAME, takes="random")
    parser.set_defaults(game_options=options)
    parser.add_argument("--seed", type=int, help="seed for a reproducible puzzle (default: a random one)")
    add_rules_argument(parser)
    parser.add_argument("--format", choices=("code", "json", "ascii", "text", "svg"), default="code",
                        help="code (default: the position code on one line), json (a JSON line), ascii, "
                             "text (a board for the terminal) or svg")
    parser.add_argument("--count", type=int, default=1, metavar="N", help="how many puzzles (default 1)")
    add_output_arguments(parser)


def run(args: argparse.Namespace) -> int:
    """Print random puzzles of ``--game``."""
    if args.count < 1:
        raise CliError(f"--count must be at least 1, got {args.count}")
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(2**32)
    hook = args.game_options.hook(args)
    assert hook is not None  # --game has a default
    status = hook.random(args, random.Random(seed))
    assert status is not None  # --game's choices are the games that draw puzzles
    return status


add_command("random", "print random puzzles", build, run)
