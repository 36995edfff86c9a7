"""The ``ricochet`` command line: one entry point, one small function per sub-command.

Commands: ``show``, ``board``, ``check``, ``random``, ``demo`` (run ``ricochet
COMMAND --help``).  ``python -m ricochet`` is the same program.

Adding a sub-command
--------------------
Write a parser builder and a runner, and register them::

    def build_solve(parser: argparse.ArgumentParser) -> None:
        add_source_arguments(parser)          # SOURCE, --index, --id, --rules
        parser.add_argument("--max-depth", type=int, default=30)

    def run_solve(args: argparse.Namespace) -> int:
        puzzle = load_puzzle(args)            # a Puzzle (exit 2 with a message otherwise)
        ...
        out(f"{n} moves")
        return 0

    add_command("solve", "find an optimal solution", build_solve, run_solve)

Commands appear in ``ricochet --help`` in registration order.  A runner
returns the exit status.  To report bad input it raises :class:`CliError` (or
lets a library ``ValueError``/``OSError`` through): :func:`main` prints one line
``ricochet: error: <message>`` on stderr and returns 2.  Any other exception
is a bug: one line and status 70 (``--debug`` shows the traceback).

Shared helpers for commands: :func:`add_source_arguments` / :func:`load` /
:func:`load_puzzle` (position codes, JSON, JSON Lines, ASCII diagrams, files
and stdin), :func:`add_output_arguments` / :func:`use_color` (colour when
stdout is a terminal and ``NO_COLOR`` is unset), :func:`parse_moves`,
:func:`out` and :func:`write_output`.
"""

from __future__ import annotations

import argparse
import atexit
import dataclasses
import datetime
import functools
import gc
import io
import json
import os
import random
import sys
import traceback
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, NoReturn, TextIO

from . import __version__, safejson
from .board import Board
from .geometry import Cell
from .position import IllegalMove, Move, Path, Position
from .puzzle import Puzzle, check_solution
from .rules import PLAIN, PRESETS, Rules, rebase, rules_for

__all__ = [
    "COMMANDS",
    "CliError",
    "Command",
    "add_command",
    "add_lazy_command",
    "add_output_arguments",
    "add_rules_argument",
    "add_source_arguments",
    "load",
    "load_command",
    "load_puzzle",
    "main",
    "named_rules",
    "names_a_file",
    "out",
    "parse_moves",
    "parse_source",
    "rules_from",
    "use_color",
    "with_board_rules",
    "write_lines",
    "write_output",
]

EXIT_OK = 0
EXIT_FAIL = 1
"""A well-formed answer that says no (``check``: the solution is invalid)."""
EXIT_USAGE = 2
"""Bad input: unknown option, unreadable file, malformed puzzle, illegal move…"""
EXIT_INTERNAL = 70
"""A bug (EX_SOFTWARE)."""


class CliError(Exception):
    """Bad input found by a command; the message is shown after ``ricochet: error:``."""


class _UsageError(CliError):
    """An argparse error (unknown option, missing argument)."""


class _Parser(argparse.ArgumentParser):
    """argparse that reports usage errors as one line through :func:`main` instead of exiting."""

    def error(self, message: str) -> NoReturn:
        raise _UsageError(f"{message} (see '{self.prog} --help')")


# -- the command table ----------------------------------------------------------
@dataclass(frozen=True)
class Command:
    """A sub-command: its name, one-line help, argument builder and runner.
    ``module``: where it is defined, for a command registered with
    :func:`add_lazy_command` and not imported yet."""

    name: str
    help: str
    build: Callable[[argparse.ArgumentParser], None]
    run: Callable[[argparse.Namespace], int]
    module: str | None = None


COMMANDS: dict[str, Command] = {}
"""The registered sub-commands by name, in registration order."""


def add_command(name: str, help: str, build_parser: Callable[[argparse.ArgumentParser], None],
                run: Callable[[argparse.Namespace], int]) -> None:
    """Register sub-command ``name``: ``build_parser(parser)`` adds its
    arguments, ``run(args)`` does the work and returns the exit status.
    Registering a name again replaces the earlier command."""
    COMMANDS[name] = Command(name, help, build_parser, run)


def add_lazy_command(name: str, help: str, module: str) -> None:
    """Register sub-command ``name`` defined in ``module`` (which calls
    :func:`add_command` for it when imported): the module is imported only
    when the command runs or shows its help, so ``ricochet show`` does not
    load the solver's or the server's command modules."""
    def unloaded(*_: object) -> NoReturn:
        raise RuntimeError(f"command {name!r}: module {module} did not register it")
    COMMANDS[name] = Command(name, help, unloaded, unloaded, module)


def load_command(name: str) -> None:
    """Import the module of a lazily registered command (nothing if it is loaded or unknown)."""
    cmd = COMMANDS.get(name)
    if cmd is not None and cmd.module is not None:
        import importlib

        importlib.import_module(cmd.module)


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The top-level parser with every registered sub-command (``only``: with
    the arguments of that command alone, the others listed with their help:
    building them all would import what each one needs for its options)."""
    parser = _Parser(prog="ricochet", description="Ricochet Robots and Ricochet Pyramids: show, check, solve and "
                     "make puzzles.",
                     epilog="Run 'ricochet COMMAND --help' for the options of a command.")
    parser.add_argument("--version", action="version", version=f"ricochet {__version__}")
    parser.add_argument("--debug", action="store_true", help="show the traceback of an error")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for cmd in COMMANDS.values():
        p = sub.add_parser(cmd.name, help=cmd.help, description=cmd.help)
        # Also accepted after the command name; SUPPRESS keeps a --debug given before it.
        p.add_argument("--debug", action="store_true", default=argparse.SUPPRESS, help=argparse.SUPPRESS)
        if cmd.module is None and only in (None, cmd.name):  # a lazy command is loaded when it runs (main)
            cmd.build(p)
        p.set_defaults(_run=cmd.run)
    return parser


# -- output -------------------------------------------------------------------------
def out(text: str = "") -> None:
    """Print a line on stdout."""
    sys.stdout.write(text + "\n")


def write_output(text: str, path: str | None) -> None:
    """Write ``text`` (plus a newline) to ``path``, or to stdout when ``path`` is None or ``-``."""
    write_lines((text,), path)


def write_lines(texts: Iterable[str], path: str | None, *, blank_between: bool = False) -> None:
    """Write each of ``texts`` (plus a newline; a blank line between them with
    ``blank_between``) to ``path``, or to stdout when ``path`` is None or ``-``,
    as it comes: a long run streams, and holds one text at a time."""
    f = sys.stdout if path is None or path == "-" else open(path, "w", encoding="utf-8")  # noqa: SIM115
    try:
        for k, text in enumerate(texts):
            f.write(("\n" if blank_between and k else "") + text + "\n")
    finally:
        if f is not sys.stdout:
            f.close()


def use_color(args: argparse.Namespace, stream: TextIO | None = None) -> bool:
    """Colour on when asked with ``--color``, off with ``--no-color``; otherwise on
    when the stream is a terminal, ``NO_COLOR`` is unset and ``TERM`` is not ``dumb``."""
    choice = getattr(args, "color", None)
    if choice is not None:
        return bool(choice)
    stream = sys.stdout if stream is None else stream
    if os.environ.get("NO_COLOR") or os.environ.get("TERM") == "dumb":
        return False
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


def add_output_arguments(parser: argparse.ArgumentParser, *, svg: bool = True) -> None:
    """``--svg``, ``-o FILE``, ``--size``, ``--coordinates``, ``--color/--no-color``."""
    if svg:
        parser.add_argument("--svg", action="store_true", help="write an SVG picture instead of text")
        parser.add_argument("--size", type=int, default=512, help="SVG width in pixels (default 512)")
        parser.add_argument("--coordinates", action="store_true", help="label columns and rows in the SVG")
    parser.add_argument("-o", "--output", metavar="FILE",
                        help="write to FILE instead of stdout (a name ending in .svg implies --svg)")
    group = parser.add_mutually_exclusive_group()
    group.add_argument("--color", dest="color", action="store_const", const=True, default=None,
                       help="colour the text output even when not on a terminal")
    group.add_argument("--no-color", dest="color", action="store_const", const=False,
                       help="plain text, no ANSI colours (also when NO_COLOR is set or output is not a terminal)")


def _render(obj: Board | Position | Puzzle, args: argparse.Namespace, paths: Sequence[Path] = (), *,
            tower_colors: Mapping[Cell, tuple[str, str]] | None = None, note: str | None = None) -> None:
    """Write ``obj`` as SVG or terminal text according to the output arguments
    (``tower_colors``: Ricochet Pyramids towers' colours; ``note``: a last line under the text)."""
    output = getattr(args, "output", None)
    if getattr(args, "svg", False) or (output is not None and output.lower().endswith(".svg")):
        from .svg import svg
        write_output(svg(obj, size=args.size, path=list(paths) or None, coordinates=args.coordinates,
                         tower_colors=tower_colors), output)
        return
    from .terminal import render_terminal
    color = use_color(args) if output in (None, "-") else bool(getattr(args, "color", None))
    text = render_terminal(obj, color=color, tower_colors=tower_colors)
    write_output(text if note is None else f"{text}\n{note}", output)


# -- input ---------------------------------------------------------------------------
def add_rules_argument(parser: argparse.ArgumentParser) -> None:
    """``--rules NAME``: a rules preset (the base under a file's own ``rules`` key)."""
    parser.add_argument("--rules", choices=list(PRESETS), default=None,
                        help="rules preset (default: pyramids on a board with towers, else plain; "
                             "a JSON puzzle's own rules key adds to it)")


def rules_from(args: argparse.Namespace) -> Rules:
    """The rules preset named by ``--rules`` (plain when not given)."""
    return Rules.preset(getattr(args, "rules", None) or "plain")


def named_rules(args: argparse.Namespace) -> Rules | None:
    """The rules preset named by ``--rules``, or None: then each puzzle is played
    by its board's rules (:func:`~ricochet.rules.rules_for`: pyramids with towers)."""
    name = getattr(args, "rules", None)
    return None if name is None else Rules.preset(name)


def add_source_arguments(parser: argparse.ArgumentParser, *, name: str = "source", optional: bool = True) -> None:
    """A SOURCE argument plus ``--index``, ``--id`` and ``--rules`` (see :func:`load`)."""
    parser.add_argument(name, metavar=name.upper(), nargs="?" if optional else None, default=None,
                        help="a position code, a JSON puzzle, an ASCII diagram, or a file with one "
                             "(.jsonl: the first puzzle, or --index/--id); '-' or nothing: stdin")
    parser.add_argument("--index", type=int, metavar="N", help="in a JSON Lines file, the puzzle numbered N (from 0)")
    parser.add_argument("--id", dest="puzzle_id", metavar="ID", help="in a JSON Lines file, the puzzle with this id")
    add_rules_argument(parser)


_FILE_SUFFIXES = (".json", ".jsonl", ".txt", ".asc", ".ascii", ".code")


def names_a_file(source: str) -> bool:
    """Is ``source`` a file name rather than a position code?  Position codes never
    contain a path separator nor end in a file suffix, so such a source is a file even
    when it does not exist (then: "No such file")."""
    return os.path.exists(source) or os.sep in source or "/" in source or source.lower().endswith(_FILE_SUFFIXES)


def _read(source: str | None, what: str = "puzzle") -> tuple[str, str, bool]:
    """The text of a source, a name for messages, and whether it came from a file or stdin."""
    if source is None:
        if sys.stdin is None or sys.stdin.isatty():
            # Waiting silently for typed input would look like a hang.
            raise CliError(f"no {what} given: pass a position code, a JSON puzzle or a file (or - for stdin)")
        source = "-"
    if source == "-":
        return sys.stdin.read(), "stdin", True
    if names_a_file(source):
        try:
            with open(source, encoding="utf-8") as f:
                return f.read(), source, True
        except UnicodeDecodeError:
            raise CliError(f"{source}: not a UTF-8 text file") from None
    return source, what, False


def load(source: str | None, *, rules: Rules | None = None, index: int | None = None,
         puzzle_id: str | None = None, boards: bool = False) -> Puzzle | Position | Board:
    """Read a puzzle or position from ``source``: ``-`` (stdin; also None
    when stdin is not a terminal), a file name, or the text itself.  Text may
    be a position code, one JSON puzzle object, JSON Lines (the first puzzle,
    the one numbered ``index`` from 0, or the one with id ``puzzle_id``) or an
    ASCII diagram.  With ``boards`` a board alone (a board code, JSON without
    robots, a diagram without robots) reads as a :class:`Board`.

    ``rules`` is the base for a JSON puzzle's own ``rules`` key; codes and
    diagrams carry no rules, so their puzzles get ``rules``.  Without
    ``rules`` a puzzle on a board with towers (Ricochet Pyramids) gets the
    ``pyramids`` preset, any other the plain rules (:func:`~ricochet.rules.rules_for`).
    """
    text, name, from_file = _read(source)
    return parse_source(text, name, from_file=from_file, rules=rules, index=index, puzzle_id=puzzle_id,
                        boards=boards)


def parse_source(text: str, name: str, *, from_file: bool = False, rules: Rules | None = None,
                 index: int | None = None, puzzle_id: str | None = None,
                 boards: bool = False) -> Puzzle | Position | Board:
    """What :func:`load` reads, from text already read (``name`` in messages,
    prefixed to notation errors when ``from_file``)."""
    from . import notation

    stripped = text.strip()
    if not stripped:
        raise CliError(f"{name} is empty: expected a position code, a JSON puzzle or an ASCII diagram")
    if stripped[0] in "{[":
        got = _load_json(stripped, name, PLAIN if rules is None else rules, index, puzzle_id, boards)
        # Read on top of plain, then moved onto the board's own rules (the file's switches kept).
        return with_board_rules(got) if rules is None else got
    if index is not None or puzzle_id is not None:
        raise CliError("--index and --id select a puzzle in a JSON Lines file; this is not one")
    where = f"{name}: " if from_file else ""
    obj: Puzzle | Position | Board
    if "\n" not in stripped:
        try:
            if boards and "." not in stripped:
                return notation.parse_board_code(stripped)
            obj = notation.parse_code(stripped)
        except notation.NotationError as e:
            raise CliError(f"{where}not a position code: {e}") from None
    else:
        try:
            obj = notation.parse_ascii(text)
        except notation.NotationError as e:
            if boards:
                try:
                    return notation.parse_ascii_board(text)
                except notation.NotationError:
                    pass  # report the first error: it is about the fuller reading
            raise CliError(f"{where}bad ASCII diagram: {e}") from None
    if isinstance(obj, Puzzle):
        base = rules_for(obj.position.board) if rules is None else rules
        obj = obj.with_rules(base)
    return obj


def with_board_rules(obj: Puzzle | Board) -> Puzzle | Board:
    """A puzzle read on top of plain rules, moved onto its board's rules (pyramids with
    towers), the switches of its file's own ``rules`` key kept.  Anything else as it is."""
    if isinstance(obj, Puzzle) and obj.position.board.towers:
        return obj.with_rules(rebase(obj.rules, rules_for(obj.position.board)))
    return obj


def _load_json(text: str, name: str, base: Rules, index: int | None, puzzle_id: str | None,
               boards: bool = False) -> Puzzle | Board:
    from . import notation

    try:
        data: Any = safejson.loads(text)
    except json.JSONDecodeError as e:
        if e.msg != "Extra data":
            raise CliError(f"{name}: not valid JSON: {e.msg} (line {e.lineno}, column {e.colno})") from None
        data = None  # several values: JSON Lines
    if data is not None:
        if not isinstance(data, dict):
            raise CliError(f"{name}: expected a JSON object (one puzzle), got a JSON {type(data).__name__}")
        if index not in (None, 0) or (puzzle_id is not None and data.get("id") != puzzle_id):
            raise CliError(f"{name} holds one puzzle" + (f", not one with id {puzzle_id!r}" if puzzle_id else ""))
        try:
            if boards and "robots" not in data:
                return notation.board_from_json(data)
            return notation.puzzle_from_json(data, base)
        except notation.NotationError as e:
            raise CliError(f"{name}: {e}") from None
    if index is not None and index < 0:
        raise CliError(f"--index must be 0 or more, got {index}")
    count = 0
    for _line, item in notation.read_jsonl(text.splitlines(), base):
        chosen = (item.id == puzzle_id if isinstance(item, Puzzle) else False) if puzzle_id is not None \
            else count == (index or 0)
        if chosen:
            if isinstance(item, notation.NotationError):
                raise CliError(f"{name}: {item}")
            return item
        count += 1
    if puzzle_id is not None:
        raise CliError(f"{name}: no puzzle with id {puzzle_id!r}")
    raise CliError(f"{name}: --index {index} is past the end ({count} puzzles, numbered from 0)")


def load_puzzle(args: argparse.Namespace, attr: str = "source") -> Puzzle:
    """The puzzle named by the source arguments (see :func:`add_source_arguments`)."""
    obj = load(getattr(args, attr), rules=named_rules(args), index=args.index, puzzle_id=args.puzzle_id)
    if not isinstance(obj, Puzzle):
        raise CliError("this is a position without a target; a puzzle is needed")
    return obj


def parse_moves(text: str, position: Position) -> list[Move]:
    """A solution given as text (``"RN GE"``), a JSON list (``[[0, "N"], [1, "E"]]``)
    or the name of a file holding either."""
    from . import notation

    source = text
    if text != "-" and (os.sep in text or "/" in text or text.lower().endswith(_FILE_SUFFIXES)) \
            or os.path.isfile(text):
        source, _name, _ = _read(text, "solution")
    elif text == "-":
        source = sys.stdin.read()
    stripped = source.strip()
    if stripped.startswith("["):
        try:
            data = safejson.loads(stripped)
        except json.JSONDecodeError as e:
            raise CliError(f"solution: not valid JSON: {e.msg} (column {e.colno})") from None
        try:
            return notation.solution_from_json(data, position)
        except notation.NotationError as e:
            raise CliError(f"solution: {e}") from None
    try:
        return notation.parse_solution(stripped, position)
    except notation.NotationError as e:
        raise CliError(f"solution: {e}") from None


def _replay(position: Position, moves: Sequence[Move], rules: Rules) -> tuple[Position, list[Path]]:
    """Play the moves; an illegal one is bad input naming the move."""
    from .notation import format_move

    paths = []
    for i, move in enumerate(moves):
        try:
            nxt, path = position.play(move, rules)
        except IllegalMove as e:
            raise CliError(f"move {i + 1} ({format_move(move, position)}): {e}") from None
        position = nxt
        paths.append(path)
    return position, paths


# -- show ------------------------------------------------------------------------------
def build_show(parser: argparse.ArgumentParser) -> None:
    add_source_arguments(parser)
    parser.add_argument("--game", choices=("ricochet-robots", "pyramids", "micro-robots"), default=None,
                        help="micro-robots: the 6x6 board of colours and numbers (SOURCE, optional: a request "
                             "or answer line of 'solve --game micro-robots'); otherwise read from SOURCE")
    parser.add_argument("--arrangement", default=None, metavar="CODE",
                        help="Micro Robots: the sections' arrangement, e.g. C1A0D2B3 (default A0B0C0D0, the "
                             "shipped board; random: any)")
    parser.add_argument("--solution", metavar="MOVES",
                        help='moves to play, e.g. "RN GE": drawn as arrows in SVG, played for text')
    parser.add_argument("--format", choices=("text", "svg", "code", "json", "ascii"), default=None,
                        help="text (the default, a board for the terminal), svg, or convert to a position "
                             "code, a JSON line or an ASCII diagram")
    add_output_arguments(parser)


def run_show(args: argparse.Namespace) -> int:
    """Render a puzzle or position, optionally with a solution played or drawn."""
    from . import notation

    if args.game == "micro-robots":
        from .micro_cli import run_show as micro_show
        return micro_show(args)
    if args.arrangement is not None:
        raise CliError("--arrangement is for --game micro-robots")
    named = named_rules(args)
    obj = load(args.source, rules=named, index=args.index, puzzle_id=args.puzzle_id, boards=True)
    if isinstance(obj, Puzzle):
        rules = obj.rules
    else:
        rules = named or rules_for(obj if isinstance(obj, Board) else obj.board)
    fmt = "svg" if args.svg else (args.format or "text")
    paths: list[Path] = []
    if args.solution is not None:
        if isinstance(obj, Board):
            raise CliError("--solution needs robots: this is a board alone")
        position = obj.position if isinstance(obj, Puzzle) else obj
        moves = parse_moves(args.solution, position)
        final, paths = _replay(position, moves, rules)
        if fmt != "svg":
            # Text shows where the robots end up; the picture shows the start and the arrows.
            obj = dataclasses.replace(obj, position=final) if isinstance(obj, Puzzle) else final
    if fmt in ("text", "svg"):
        args.svg = fmt == "svg"
        _render(obj, args, paths)
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
    from .notation import format_solution

    cost = sum(p.cost for p in paths)
    line = f"after {format_solution(moves, start)} ({cost} move{'s' if cost != 1 else ''})"
    if isinstance(obj, Puzzle):
        verdict = check_solution(dataclasses.replace(obj, position=start), moves, rules)
        line += ": solved" if verdict.ok else f": not solved ({verdict.failure.message if verdict.failure else ''})"
    return line


# -- board --------------------------------------------------------------------------------
def build_board(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--tiles", required=True, metavar="NW,NE,SE,SW",
                        help="four tiles 1A..4D in the order NW, NE, SE, SW, e.g. 1A,3B,4A,2A")
    parser.add_argument("--json", action="store_true",
                        help="print the board in the JSON interchange format, one object on one line")
    add_output_arguments(parser)


def run_board(args: argparse.Namespace) -> int:
    """Assemble a board from four tiles and print or draw it."""
    from .tiles import assemble, parse_arrangement

    board = assemble(*parse_arrangement(args.tiles))
    if args.json:
        from .notation import board_to_json
        write_output(json.dumps(board_to_json(board), ensure_ascii=False), args.output)
        return EXIT_OK
    _render(board, args)
    return EXIT_OK


# -- check --------------------------------------------------------------------------------------
def build_check(parser: argparse.ArgumentParser) -> None:
    add_source_arguments(parser, name="puzzle", optional=False)
    parser.add_argument("solution", metavar="SOLUTION",
                        help='moves as text ("RN GE"), a JSON list ([[0, "N"], [1, "E"]]) or a file holding one')
    parser.add_argument("--max-moves", type=int, metavar="N", help="also require at most N moves (a bid)")


def run_check(args: argparse.Namespace) -> int:
    """Check a solution: ``ok: N moves`` (status 0) or ``invalid: …`` (status 1)."""
    from .notation import format_move

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


# -- random --------------------------------------------------------------------------------------
def build_random(parser: argparse.ArgumentParser) -> None:
    from .games import GAMES, PYRAMIDS

    parser.add_argument("--game", choices=list(GAMES), default="ricochet-robots",
                        help="ricochet-robots (default: a tile board and a chip) or pyramids (Ricochet Pyramids: "
                             "8×8, towers, a goal drawn and checked by the solver as the game does)")
    parser.add_argument("--seed", type=int, help="seed for a reproducible puzzle (default: a random one)")
    add_rules_argument(parser)
    parser.add_argument("--faces", default=None, type=lambda s: "any" if s.lower() == "any" else s.upper(),
                        choices=("AB", "CD", "any"),
                        help="tile faces to draw the board from: AB (default, first edition), CD (with diagonals), "
                             "any")
    micro = parser.add_argument_group("Micro Robots (--game micro-robots)")
    micro.add_argument("--arrangement", default=None, metavar="CODE",
                       help="the board sections: A0B0C0D0 (default: as shipped), a code like C1A0D2B3, or random")
    pyramids = parser.add_argument_group("Ricochet Pyramids (--game pyramids)")
    pyramids.add_argument("--layout", choices=("random", "easy", "hard"), default=None,
                          help="where the towers stand: random (default), or the seed's easy or hard example "
                               "(9 towers: 3 colours)")
    pyramids.add_argument("--colors", type=int, choices=(3, 4), default=None,
                          help="3 (default: 9 towers, 3 robots) or 4 colours (16 towers, 4 robots)")
    pyramids.add_argument("--min-moves", type=int, default=None, metavar="N",
                          help=f"redraw goals solvable in fewer moves, as the game does (default "
                               f"{PYRAMIDS.default_options['min_moves']}; after 30 draws any solvable goal stands)")
    parser.add_argument("--format", choices=("code", "json", "ascii", "text", "svg"), default="code",
                        help="code (default: the position code on one line), json (a JSON line), ascii, "
                             "text (a board for the terminal) or svg")
    parser.add_argument("--count", type=int, default=1, metavar="N", help="how many puzzles (default 1)")
    add_output_arguments(parser)


def run_random(args: argparse.Namespace) -> int:
    """Print random puzzles: Ricochet Robots, or Ricochet Pyramids with ``--game pyramids``.
    Each is written as soon as it is drawn: ``--count 1000000`` streams rather
    than holding a million puzzles until the last."""
    from . import notation
    from .generate import random_puzzle

    if args.count < 1:
        raise CliError(f"--count must be at least 1, got {args.count}")
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(2**32)
    rng = random.Random(seed)
    if args.game == "rambots":
        raise CliError("--game rambots has no puzzles: random puzzles are for ricochet-robots, pyramids and "
                       "micro-robots")
    if args.game != "micro-robots" and args.arrangement is not None:
        raise CliError("--arrangement is an option of Micro Robots: add --game micro-robots")
    if args.game == "micro-robots":
        given = [o for o, v in (("--layout", args.layout), ("--colors", args.colors), ("--min-moves", args.min_moves),
                                ("--faces", args.faces), ("--rules", args.rules)) if v is not None]
        if given:
            raise CliError(f"{given[0]} is not an option of Micro Robots")
        from .micro_cli import run_random as micro_random
        return micro_random(args, rng)
    if args.format in ("text", "svg") and args.count != 1:
        raise CliError(f"--format {args.format} draws one puzzle; use --count 1")
    deals: Iterator[Any] | None = None
    if args.game == "pyramids":
        if args.faces is not None:
            raise CliError("--faces picks tiles of Ricochet Robots; Ricochet Pyramids is played on an 8×8 board")
        if args.rules not in (None, "pyramids"):
            raise CliError(f"--rules {args.rules}: Ricochet Pyramids puzzles have their own rules (pyramids)")
        deals = _pyramids_deals(rng, args)
    else:
        given = [o for o, v in (("--layout", args.layout), ("--colors", args.colors), ("--min-moves", args.min_moves))
                 if v is not None]
        if given:
            raise CliError(f"{given[0]} is an option of Ricochet Pyramids: add --game pyramids")
        rules, faces = rules_from(args), args.faces or "AB"
        puzzles: Iterator[Puzzle] = (random_puzzle(rng, rules, faces=faces) for _ in range(args.count))
    if args.format in ("text", "svg"):
        args.svg = args.format == "svg"
        if deals is not None:
            deal = next(deals)
            colors = {t.cell: (t.top, t.bottom) for t in deal.towers}
            _render(deal.puzzle, args, tower_colors=colors, note=_pyramids_note(deal))
        else:
            _render(next(puzzles), args)
        return EXIT_OK
    if deals is not None:
        puzzles = (d.puzzle for d in deals)
    text_of: Callable[[Puzzle], str] = {
        "code": notation.puzzle_code,
        "json": notation.dumps_puzzle,
        "ascii": lambda p: notation.render_ascii(p).rstrip("\n"),
    }[args.format]
    write_lines((text_of(p) for p in puzzles), args.output, blank_between=args.format == "ascii")
    return EXIT_OK


def _pyramids_deals(rng: random.Random, args: argparse.Namespace) -> Iterator[Any]:
    """``--count`` Ricochet Pyramids deals (:func:`~ricochet.generate.random_pyramids`),
    drawn as they are taken; the first is drawn here, so that options the
    deals refuse are said before any output."""
    from .games import PYRAMIDS, OptionsError
    from .generate import random_pyramids

    defaults = PYRAMIDS.default_options
    colors = args.colors if args.colors is not None else defaults["colors"]
    layout = args.layout if args.layout is not None else defaults["layout"]
    min_moves = args.min_moves if args.min_moves is not None else defaults["min_moves"]
    if layout != "random" and colors != 3:
        raise CliError(f"--layout {layout} has 9 towers, for 3 colours; with --colors {colors} use --layout random")

    def draw() -> Any:
        try:
            return random_pyramids(rng, colors=colors, layout=layout, min_moves=min_moves)
        except OptionsError as e:
            raise CliError(f"--game pyramids: {str(e).replace('min_moves', '--min-moves')}") from None

    first = draw()

    def every() -> Iterator[Any]:
        short = []
        for k in range(args.count):
            deal = first if k == 0 else draw()
            if deal.puzzle.optimal is not None and deal.puzzle.optimal < min_moves:
                short.append(deal.puzzle.optimal)
            yield deal
        if short:
            # The game waives the minimum after 30 draws; say so rather than print a puzzle that looks wrong.
            sys.stderr.write(f"ricochet: note: {len(short)} puzzle(s) have no goal of {min_moves}+ moves after 30 "
                             f"draws; the game then takes any solvable goal (shortest here: "
                             f"{min(short)} moves)\n")

    return every()


def _pyramids_note(deal: Any) -> str:
    """The goal drawn and the towers' colours, which the board drawing cannot show without colour."""
    from .geometry import cell_name

    g = deal.goal
    towers = ", ".join(f"{cell_name(t.cell)} {t.top} on {t.bottom}" for t in deal.towers)
    return (f"goal: the {g.robot} robot onto the {g.top} on {g.bottom} tower at {cell_name(deal.puzzle.target)}\n"
            f"towers: {towers}")


# -- demo ---------------------------------------------------------------------------------------
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


def build_demo(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--seed", type=int, help="another puzzle instead of today's")
    parser.add_argument("--date", type=_date, metavar="YYYY-MM-DD",
                        help="the puzzle of that day (default: today)")
    add_output_arguments(parser, svg=False)


def _two_columns(rows: Sequence[tuple[str, str]]) -> list[str]:
    width = max(len(a) for a, _ in rows)
    return [f"  {a:<{width}}   {b}" for a, b in rows]


def run_demo(args: argparse.Namespace) -> int:
    """The puzzle of the day, in colour, with a few commands to try."""
    from .generate import random_puzzle
    from .notation import puzzle_code
    from .rules import GAME
    from .terminal import render_terminal

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


add_command("show", "show a puzzle or position (terminal text or SVG)", build_show, run_show)
add_command("board", "assemble a board from four tiles; print it or its JSON", build_board, run_board)
add_command("check", "check a solution of a puzzle", build_check, run_check)
add_command("random", "print random puzzles", build_random, run_random)
add_command("demo", "the puzzle of the day, with a short how-to", build_demo, run_demo)
# Defined in their own modules, imported when they run (main) or by whoever imports them.
add_lazy_command("solve", "solve puzzles of a JSON Lines file optimally, one JSON answer per line",
                 "ricochet.solve_cli")
add_lazy_command("bench", "benchmark the solver (ASP 2015, random and hard puzzles)", "ricochet.bench_cli")
add_lazy_command("tablebase", "every position of a board and target solved at once (build, query, stats, study)",
                 "ricochet.tablebase_cli")
add_lazy_command("warm", "compile the solver's and tablebase's kernels now (done once at set-up)", "ricochet.warm_cli")
add_lazy_command("serve", "start the web server: play in the browser with friends and bots",
                 "ricochet.server.serve_cli")


# -- main ----------------------------------------------------------------------------------------
def _one_line(text: str) -> str:
    return " ".join(str(text).split())


def _describe(e: BaseException) -> str:
    """A person's message for an input error."""
    if isinstance(e, OSError):
        if e.filename is not None and e.strerror:
            return f"{e.filename}: {e.strerror}"
        return e.strerror or str(e)
    return str(e) or type(e).__name__


HUGE_PAGES_TUNABLE = "glibc.malloc.hugetlb=1"
SOLVER_COMMANDS = ("solve", "bench")


def reexec_with_huge_pages(argv: list[str]) -> None:
    """Start the solver's commands again with glibc's huge-page malloc.

    The A* state map and records are tens of MiB read at random; on 2 MiB
    pages the TLB misses mostly vanish (about 10% on the ASP benchmark).  The
    tunable is read at process start only, hence the exec.  Linux only, once
    (the variable marks it), and never when RICOCHET_NO_HUGE_PAGES is set."""
    if (sys.platform != "linux" or "GLIBC_TUNABLES" in os.environ
            or os.environ.get("RICOCHET_NO_HUGE_PAGES")):
        return
    env = {**os.environ, "GLIBC_TUNABLES": HUGE_PAGES_TUNABLE}
    # `-m ricochet` must find this very package, installed or not.
    source = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    env["PYTHONPATH"] = os.pathsep.join(p for p in (source, os.environ.get("PYTHONPATH")) if p)
    try:
        sys.stdout.flush()
        os.execve(sys.executable, [sys.executable, "-m", "ricochet", *argv], env)
    except OSError:
        return  # carry on with normal pages


@functools.cache
def _skip_the_last_collection() -> None:
    """Once numba is loaded, freeze the heap at exit (registered once per
    process): Python's last full collection would walk every object numba
    built, only for the system to free them all anyway (0.20-0.26 s of a
    solver command's exit on the 2-core machine, against 0.02-0.05 s frozen).  Our files are closed
    by their ``with`` blocks and standard output is flushed at exit, so no
    collection is needed to flush them."""

    def freeze_if_numba() -> None:
        if "numba" in sys.modules:
            gc.freeze()

    atexit.register(freeze_if_numba)


def main(argv: list[str] | None = None) -> int:
    """Run the command line with ``argv`` (default ``sys.argv[1:]``); return the exit status."""
    _skip_the_last_collection()
    if argv is None and sys.argv[1:2] and sys.argv[1] in SOLVER_COMMANDS:
        reexec_with_huge_pages(sys.argv[1:])
    if isinstance(sys.stdout, io.TextIOWrapper):
        # A terminal that cannot show a box-drawing character gets '?' rather than a crash.
        try:
            sys.stdout.reconfigure(errors="replace")
        except (AttributeError, ValueError):
            pass
    argv = sys.argv[1:] if argv is None else list(argv)
    # The command that runs: the first word that is not an option (none: the demo).  Its module
    # is imported if it is registered lazily, and only its own arguments are built.
    wanted = next((a for a in argv if not a.startswith("-")), "demo")
    load_command(wanted)
    parser = build_parser(only=wanted)
    debug = "--debug" in argv
    try:
        args = parser.parse_args(argv)
        run = getattr(args, "_run", None)
        if run is None:
            # No command: the demo, which is what a bare `ricochet` (and ./run) shows.
            args = parser.parse_args([*argv, "demo"])
            run = args._run
        return int(run(args))
    except SystemExit as e:  # --help and --version
        return e.code if isinstance(e.code, int) else (0 if e.code is None else EXIT_USAGE)
    except BrokenPipeError:
        # Output piped into `head`: stop quietly.
        try:
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        except (OSError, ValueError, io.UnsupportedOperation):
            pass
        return EXIT_FAIL
    except KeyboardInterrupt:
        return 130
    except (CliError, ValueError, OSError) as e:
        if debug:
            traceback.print_exc()
        sys.stderr.write(f"ricochet: error: {_one_line(_describe(e))}\n")
        return EXIT_USAGE
    except Exception as e:  # noqa: BLE001 -- a bug: still one line, unless --debug
        if debug:
            traceback.print_exc()
        sys.stderr.write(f"ricochet: error: internal error: {type(e).__name__}: {_one_line(str(e))} "
                         "(run with --debug to see the traceback)\n")
        return EXIT_INTERNAL
