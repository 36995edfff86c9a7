"""``ricochet check``: is a solution a solution of a puzzle (within a bid)?"""

from __future__ import annotations

import argparse

from ..puzzle import check_solution
from . import EXIT_FAIL, EXIT_OK, add_command
from .shared import add_source_arguments, load_puzzle, out, parse_moves


def build(parser: argparse.ArgumentParser) -> None:
    add_source_arguments(parser, name="puzzle", optional=False)
    parser.add_argument("solution", metavar="SOLUTION",
                        help='moves as text ("RN GE"), a JSON list ([[0, "N"], [1, "E"]]) or a file holding one')
    parser.add_argument("--max-moves", type=int, metavar="N", help="also require at most N moves (a bid)")


def run(args: argparse.Namespace) -> int:
    """Check a solution: ``ok: N moves`` (status 0) or ``invalid: …`` (status 1)."""
    from ..notation import format_move

    puzzle = load_puzzle(args, "puzzle")
    moves = parse_moves(args.solution, puzzle.position)
    verdict = check_solution(puzzle, moves, max_cost=args.max_moves)
    if verdict.ok:
        out(f"ok: {verdict.cost} move{'s' if verdict.cost != 1 else ''}")
        return EXIT_OK
    failure = verdict.failure
    assert failure is not None
    if failure.move is None:
        out(f"invalid: {failure.message}")
    else:
        message = failure.message
        prefix = f"move {failure.move + 1}: "
        message = message.removeprefix(prefix)
        played = format_move(moves[failure.move], verdict.position)
        out(f"invalid: move {failure.move + 1} ({played}): {message}")
    return EXIT_FAIL


add_command("check", "check a solution of a puzzle", build, run)
