"""What the commands share: reading puzzles, positions and boards (position codes,
JSON, JSON Lines, ASCII diagrams, files and stdin), moves, the rules option, and
writing output (text with or without colour, SVG, a file or stdout).

* input: :func:`add_source_arguments` / :func:`load` / :func:`load_puzzle`,
  :func:`parse_moves`, :func:`replay`, :func:`add_rules_argument` / :func:`named_rules`;
* output: :func:`add_output_arguments` / :func:`use_color` (colour when stdout is a
  terminal and ``NO_COLOR`` is unset), :func:`render`, :func:`out`,
  :func:`write_output`, :func:`write_lines`.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from typing import Any, TextIO

from .. import safejson
from ..board import Board
from ..geometry import Cell
from ..position import IllegalMove, Move, Path, Position
from ..puzzle import Puzzle
from ..rules import PLAIN, PRESETS, Rules
from . import CliError

__all__ = [
    "add_output_arguments",
    "add_rules_argument",
    "add_source_arguments",
    "check_one_picture",
    "load",
    "load_puzzle",
    "named_rules",
    "names_a_file",
    "out",
    "parse_moves",
    "parse_source",
    "read_source",
    "render",
    "replay",
    "rules_from",
    "use_color",
    "write_lines",
    "write_output",
    "write_puzzles",
]


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


def render(obj: Board | Position | Puzzle, args: argparse.Namespace, paths: Sequence[Path] = (), *,
            tower_colors: Mapping[Cell, tuple[str, str]] | None = None, note: str | None = None) -> None:
    """Write ``obj`` as SVG or terminal text according to the output arguments
    (``tower_colors``: Ricochet Pyramids towers' colours; ``note``: a last line under the text)."""
    output = getattr(args, "output", None)
    if getattr(args, "svg", False) or (output is not None and output.lower().endswith(".svg")):
        from ..svg import svg
        write_output(svg(obj, size=args.size, path=list(paths) or None, coordinates=args.coordinates,
                         tower_colors=tower_colors), output)
        return
    from ..terminal import render_terminal
    color = use_color(args) if output in (None, "-") else bool(getattr(args, "color", None))
    text = render_terminal(obj, color=color, tower_colors=tower_colors)
    write_output(text if note is None else f"{text}\n{note}", output)


# -- input ---------------------------------------------------------------------------
def add_rules_argument(parser: argparse.ArgumentParser) -> None:
    """``--rules NAME``: a rules preset (the base under a file's own ``rules`` key)."""
    parser.add_argument("--rules", choices=list(PRESETS), default=None,
                        help="rules preset (default: plain, which plays a board with towers by Ricochet "
                             "Pyramids' rules; a JSON puzzle's own rules key adds to it)")


def rules_from(args: argparse.Namespace) -> Rules:
    """The rules preset named by ``--rules`` (plain when not given)."""
    return Rules.preset(getattr(args, "rules", None) or "plain")


def named_rules(args: argparse.Namespace) -> Rules | None:
    """The rules preset named by ``--rules``, or None: then each puzzle is played
    by its own rules (plain, plus a JSON puzzle's own ``rules`` key)."""
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


def read_source(source: str | None, what: str = "puzzle") -> tuple[str, str, bool]:
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
    diagrams carry no rules, so their puzzles get ``rules`` (plain when not given:
    on a board with towers, plain play is Ricochet Pyramids' rules).
    """
    text, name, from_file = read_source(source)
    return parse_source(text, name, from_file=from_file, rules=rules, index=index, puzzle_id=puzzle_id,
                        boards=boards)


def parse_source(text: str, name: str, *, from_file: bool = False, rules: Rules | None = None,
                 index: int | None = None, puzzle_id: str | None = None,
                 boards: bool = False) -> Puzzle | Position | Board:
    """What :func:`load` reads, from text already read (``name`` in messages,
    prefixed to notation errors when ``from_file``)."""
    from .. import notation

    stripped = text.strip()
    if not stripped:
        raise CliError(f"{name} is empty: expected a position code, a JSON puzzle or an ASCII diagram")
    if stripped[0] in "{[":
        return _load_json(stripped, name, PLAIN if rules is None else rules, index, puzzle_id, boards)
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
        obj = obj.with_rules(PLAIN if rules is None else rules)
    return obj


def _load_json(text: str, name: str, base: Rules, index: int | None, puzzle_id: str | None,
               boards: bool = False) -> Puzzle | Board:
    from .. import notation

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
    from .. import notation

    source = text
    if text != "-" and (os.sep in text or "/" in text or text.lower().endswith(_FILE_SUFFIXES)) \
            or os.path.isfile(text):
        source, _name, _ = read_source(text, "solution")
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


def replay(position: Position, moves: Sequence[Move], rules: Rules) -> tuple[Position, list[Path]]:
    """Play the moves; an illegal one is bad input naming the move."""
    from ..notation import format_move

    paths = []
    for i, move in enumerate(moves):
        try:
            nxt, path = position.play(move, rules)
        except IllegalMove as e:
            raise CliError(f"move {i + 1} ({format_move(move, position)}): {e}") from None
        position = nxt
        paths.append(path)
    return position, paths


# -- random puzzles (the games' hooks of ``ricochet random``) ---------------------------------------
def check_one_picture(args: argparse.Namespace) -> None:
    """``--format text`` and ``svg`` draw one puzzle: refuse another ``--count``."""
    if args.format in ("text", "svg") and args.count != 1:
        raise CliError(f"--format {args.format} draws one puzzle; use --count 1")


def write_puzzles(args: argparse.Namespace, puzzles: Iterator[Puzzle]) -> int:
    """Puzzles of the engine in ``--format``: one picture (``text``, ``svg``), or one
    line each (``code``, ``json``; ``ascii``: diagrams with a blank line between),
    written as they come."""
    from .. import notation

    if args.format in ("text", "svg"):
        args.svg = args.format == "svg"
        render(next(puzzles), args)
        return 0
    text_of: Callable[[Puzzle], str] = {
        "code": notation.puzzle_code,
        "json": notation.dumps_puzzle,
        "ascii": lambda p: notation.render_ascii(p).rstrip("\n"),
    }[args.format]
    write_lines((text_of(p) for p in puzzles), args.output, blank_between=args.format == "ascii")
    return 0
