"""``ricochet show``: a puzzle, position or board as text for the terminal or SVG, or
converted to another notation; a solution played (text) or drawn (SVG).  A game with
its own way of showing takes ``--game`` (:mod:`ricochet.cli.hooks`)."""

from __future__ import annotations

import argparse
import dataclasses
import json
from collections.abc import Sequence

from ..board import Board
from ..position import Move, Path, Position
from ..puzzle import Puzzle, check_solution
from ..rules import PLAIN, Rules
from . import EXIT_OK, CliError, add_command
from .hooks import GameOptions
from .shared import (
    add_output_arguments,
    add_source_arguments,
    load,
    named_rules,
    out,
    parse_moves,
    render,
    replay,
    write_output,
)


def build(parser: argparse.ArgumentParser) -> None:
    add_source_arguments(parser)
    options = GameOptions(parser, "show", "a game that shows its own way (see its options below); otherwise "
                          "SOURCE is read as a position of the library's engine")
    parser.set_defaults(game_options=options)
    parser.add_argument("--solution", metavar="MOVES",
                        help='moves to play, e.g. "RN GE": drawn as arrows in SVG, played for text')
    parser.add_argument("--format", choices=("text", "svg", "code", "json", "ascii"), default=None,
                        help="text (the default, a board for the terminal), svg, or convert to a position "
                             "code, a JSON line or an ASCII diagram")
    add_output_arguments(parser)


def run(args: argparse.Namespace) -> int:
    """Render a puzzle or position, optionally with a solution played or drawn."""
    from .. import notation

    hook = args.game_options.hook(args)
    shown = hook.show(args) if hook is not None else None
    if shown is not None:
        return shown
    named = named_rules(args)
    obj = load(args.source, rules=named, index=args.index, puzzle_id=args.puzzle_id, boards=True)
    if isinstance(obj, Puzzle):
        rules = obj.rules
    else:
        rules = named or PLAIN
    fmt = "svg" if args.svg else (args.format or "text")
    paths: list[Path] = []
    if args.solution is not None:
        if isinstance(obj, Board):
            raise CliError("--solution needs robots: this is a board alone")
        position = obj.position if isinstance(obj, Puzzle) else obj
        moves = parse_moves(args.solution, position)
        final, paths = replay(position, moves, rules)
        if fmt != "svg":
            # Text shows where the robots end up; the picture shows the start and the arrows.
            obj = dataclasses.replace(obj, position=final) if isinstance(obj, Puzzle) else final
    if fmt in ("text", "svg"):
        args.svg = fmt == "svg"
        render(obj, args, paths)
        if args.solution is not None and fmt == "text" and args.output in (None, "-"):
            out(_solution_summary(obj, moves, paths, position, rules))
        return EXIT_OK
    if fmt == "code":
        if isinstance(obj, Board):
            text = notation.board_code(obj)
        else:
            text = notation.puzzle_code(obj) if isinstance(obj, Puzzle) else notation.position_code(obj)
    elif fmt == "json":
        if isinstance(obj, Board):
            text = json.dumps(notation.board_to_json(obj), ensure_ascii=False)
        elif isinstance(obj, Puzzle):
            text = notation.dumps_puzzle(obj)
        else:
            raise CliError("--format json needs a puzzle (a position with a target) or a board")
    else:
        text = notation.render_ascii(obj).rstrip("\n")
    write_output(text, args.output)
    return EXIT_OK


def _solution_summary(obj: Board | Position | Puzzle, moves: Sequence[Move], paths: Sequence[Path],
                      start: Position, rules: Rules) -> str:
    from ..notation import format_solution

    cost = sum(p.cost for p in paths)
    line = f"after {format_solution(moves, start)} ({cost} move{'s' if cost != 1 else ''})"
    if isinstance(obj, Puzzle):
        verdict = check_solution(dataclasses.replace(obj, position=start), moves, rules)
        line += ": solved" if verdict.ok else f": not solved ({verdict.failure.message if verdict.failure else ''})"
    return line


add_command("show", "show a puzzle or position (terminal text or SVG)", build, run)
