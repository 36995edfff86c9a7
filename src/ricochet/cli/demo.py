"""``ricochet demo`` (also a bare ``ricochet``): the puzzle of the day in colour, with a few
commands to try."""

from __future__ import annotations

import argparse
import datetime
import random
from collections.abc import Sequence

from . import EXIT_OK, add_command
from .shared import add_output_arguments, use_color, write_output


def _date(text: str) -> datetime.date:
    """``--date``'s value: a calendar date written YYYY-MM-DD.

    >>> _date("2026-02-29")
    Traceback (most recent call last):
    argparse.ArgumentTypeError: expected a date YYYY-MM-DD, got '2026-02-29' (day is out of range for month)
    """
    try:
        return datetime.date.fromisoformat(text)
    except ValueError as e:
        why = "" if "isoformat" in str(e) else f" ({e})"  # (Python's own says no more than ours)
        raise argparse.ArgumentTypeError(f"expected a date YYYY-MM-DD, got {text!r}{why}") from None


def build(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--seed", type=int, help="another puzzle instead of today's")
    parser.add_argument("--date", type=_date, metavar="YYYY-MM-DD",
                        help="the puzzle of that day (default: today)")
    add_output_arguments(parser, svg=False)


def _two_columns(rows: Sequence[tuple[str, str]]) -> list[str]:
    width = max(len(a) for a, _ in rows)
    return [f"  {a:<{width}}   {b}" for a, b in rows]


def run(args: argparse.Namespace) -> int:
    """The puzzle of the day, in colour, with a few commands to try."""
    from ..generate import random_puzzle
    from ..notation import puzzle_code
    from ..rules import GAME
    from ..terminal import render_terminal

    day = args.date or datetime.date.today()
    seed = args.seed if args.seed is not None else int(day.strftime("%Y%m%d"))
    puzzle = random_puzzle(random.Random(seed), GAME)
    code = puzzle_code(puzzle)
    color = use_color(args)
    target = puzzle.position.board.target_at(puzzle.target)
    who = "any robot" if puzzle.active is None else f"the {puzzle.position.robots[puzzle.active].color} robot"
    goal = target.name if target is not None else "the target"
    title = f"Ricochet Robots: puzzle of the day, {day.isoformat()}" if args.seed is None \
        else f"Ricochet Robots: puzzle {seed}"
    lines = [
        title, "",
        render_terminal(puzzle, color=color), "",
        f"Bring {who} to the {goal} in as few moves as possible. Robots slide until they",
        "hit a wall or a robot; the active robot must ricochet (turn) at least once on its way.",
        "Write moves as a robot letter and a direction: RN = red north, GE = green east.",
        "",
        "Try:",
        *_two_columns([
            (f"ricochet check --rules game {code} \"RN GE\"", "check your solution"),
            (f"ricochet show {code} --svg -o puzzle.svg", "draw it"),
            ("ricochet random --format text", "another puzzle"),
            ("ricochet board --tiles 1A,3B,4A,2A", "a board from its four tiles"),
        ]),
    ]
    write_output("\n".join(lines), args.output)
    return EXIT_OK


add_command("demo", "the puzzle of the day, with a short how-to", build, run)
