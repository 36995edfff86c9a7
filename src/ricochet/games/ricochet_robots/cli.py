"""Ricochet Robots on the command line: ``random --game ricochet-robots`` draws a board of
four tiles (``--faces``), robots and a chip; ``show`` and ``solve`` read its positions
as the library's engine does (nothing of its own)."""

from __future__ import annotations

import argparse
import random

from ...cli.hooks import GameCli
from ...cli.shared import check_one_picture, rules_from, write_puzzles

__all__ = ["HOOK", "RicochetRobotsCli"]


class RicochetRobotsCli(GameCli):
    """The command-line hook of Ricochet Robots."""

    def arguments(self, command: str, group: argparse._ArgumentGroup) -> None:
        if command == "random":
            group.add_argument("--faces", default=None, type=lambda s: "any" if s.lower() == "any" else s.upper(),
                               choices=("AB", "CD", "any"),
                               help="tile faces to draw the board from: AB (default, first edition), CD (with "
                                    "diagonals), any")

    def random(self, args: argparse.Namespace, rng: random.Random) -> int:
        from ...generate import random_puzzle

        check_one_picture(args)
        rules, faces = rules_from(args), args.faces or "AB"
        return write_puzzles(args, (random_puzzle(rng, rules, faces=faces) for _ in range(args.count)))


HOOK = RicochetRobotsCli()
