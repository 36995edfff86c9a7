"""Ricochet Pyramids on the command line: ``random --game pyramids`` deals puzzles as the
game deals its first round (:mod:`.deal`: ``--layout``, ``--colors``, ``--min-moves``);
its text and SVG pictures say the towers' colours and the goal.  ``show`` and ``solve``
read its positions (boards with towers) as the library's engine does."""

from __future__ import annotations

import argparse
import random
import sys
from collections.abc import Iterator

from ...cli import CliError
from ...cli.hooks import GameCli
from ...cli.shared import check_one_picture, render, write_puzzles
from .deal import DEAL_MIN_MOVES, Deal

__all__ = ["HOOK", "PyramidsCli"]


class PyramidsCli(GameCli):
    """The command-line hook of Ricochet Pyramids."""

    def arguments(self, command: str, group: argparse._ArgumentGroup) -> None:
        if command != "random":
            return
        group.add_argument("--layout", choices=("random", "easy", "hard"), default=None,
                           help="where the towers stand: random (default), or the seed's easy or hard example "
                                "(9 towers: 3 colours)")
        group.add_argument("--colors", type=int, choices=(3, 4), default=None,
                           help="3 (default: 9 towers, 3 robots) or 4 colours (16 towers, 4 robots)")
        group.add_argument("--min-moves", type=int, default=None, metavar="N",
                           help=f"redraw goals solvable in fewer moves, as the game's variant does (default "
                                f"{DEAL_MIN_MOVES}, seed 003's suggestion; after 30 draws any solvable goal stands)")

    def random(self, args: argparse.Namespace, rng: random.Random) -> int:
        check_one_picture(args)
        if args.rules not in (None, "plain"):
            raise CliError(f"--rules {args.rules}: Ricochet Pyramids puzzles have their own rules (plain)")
        deals = _deals(rng, args)
        if args.format in ("text", "svg"):
            args.svg = args.format == "svg"
            deal = next(deals)
            colors = {t.cell: (t.top, t.bottom) for t in deal.towers}
            render(deal.puzzle, args, tower_colors=colors, note=_note(deal))
            return 0
        return write_puzzles(args, (d.puzzle for d in deals))


def _deals(rng: random.Random, args: argparse.Namespace) -> Iterator[Deal]:
    """``--count`` deals (:func:`.deal.deal`), drawn as they are taken; the first is drawn
    here, so that options the deals refuse are said before any output."""
    from ..interface import OptionsError
    from .deal import deal
    from .game import PYRAMIDS

    defaults = PYRAMIDS.default_options
    colors = args.colors if args.colors is not None else defaults["colors"]
    layout = args.layout if args.layout is not None else defaults["layout"]
    min_moves = args.min_moves if args.min_moves is not None else DEAL_MIN_MOVES
    if layout != "random" and colors != 3:
        raise CliError(f"--layout {layout} has 9 towers, for 3 colours; with --colors {colors} use --layout random")

    def draw() -> Deal:
        try:
            return deal(rng, colors=colors, layout=layout, min_moves=min_moves)
        except OptionsError as e:
            raise CliError(f"--game pyramids: {str(e).replace('min_moves', '--min-moves')}") from None

    first = draw()

    def every() -> Iterator[Deal]:
        short = []
        for k in range(args.count):
            dealt = first if k == 0 else draw()
            if dealt.puzzle.optimal is not None and dealt.puzzle.optimal < min_moves:
                short.append(dealt.puzzle.optimal)
            yield dealt
        if short:
            # The game waives the minimum after 30 draws; say so rather than print a puzzle that looks wrong.
            sys.stderr.write(f"ricochet: note: {len(short)} puzzle(s) have no goal of {min_moves}+ moves after 30 "
                             f"draws; the game then takes any solvable goal (shortest here: "
                             f"{min(short)} moves)\n")

    return every()


def _note(deal: Deal) -> str:
    """The goal drawn and the towers' colours, which the board drawing cannot show without colour."""
    from ...geometry import cell_name

    g = deal.goal
    towers = ", ".join(f"{cell_name(t.cell)} {t.top} on {t.bottom}" for t in deal.towers)
    return (f"goal: the {g.robot} robot onto the {g.top} on {g.bottom} tower at {cell_name(deal.puzzle.target)}\n"
            f"towers: {towers}")


HOOK = PyramidsCli()
