"""Micro Robots on the command line: its hook (:data:`HOOK`) of ``show``, ``random`` and
``solve`` (``--game micro-robots``).

Spaces are ``[row, col]``, row 0 the top row, as in ``micro-robots.json``.
``ricochet solve --game micro-robots FILE`` reads JSON lines
``{"id": …, "start": [row, col], "target": [row, col], "exactly": N, "cells": …}``
(``exactly`` and ``cells`` optional; ``cells`` in the format of
``micro-robots.json``, default the shipped arrangement) and prints, per line,
``{"id": …, "moves": N | null, "route": [[row, col], …]}`` — the shortest
route, or with ``exactly`` a route of exactly N moves — with a ``"reason"``
when there is none.
"""

from __future__ import annotations

import argparse
import itertools
import json
import random
import sys
from collections.abc import Iterable, Iterator
from typing import Any

from ...cli.hooks import GameCli
from .engine import COLORS, SHIPPED, Arrangement, MicroBoard, MicroError, route_of_length, shortest_route

__all__ = ["HOOK", "MicroCli", "answer_line", "render_micro", "run_random", "run_show", "run_solve"]

_BG = {"blue": 44, "yellow": 43, "green": 42, "red": 41, "pink": 45, "white": 47}
_FG = {"yellow": 30, "white": 30}
MAX_EXACTLY = 200


def render_micro(board: MicroBoard, *, start: tuple[int, int] | None = None, target: tuple[int, int] | None = None,
                 route: Iterable[tuple[int, int]] = (), color: bool = False) -> str:
    """The board for a terminal: each space as its number and colour letter
    (``1P`` = 1 pink), ``S`` the start, ``*`` the target, route steps numbered."""
    steps = {c: k for k, c in enumerate(route) if k}
    lines = ["    " + "".join(f"  {c}  " for c in range(6))]
    for r, row in enumerate(board.cells):
        cells = []
        for c, sp in enumerate(row):
            mark = "S" if (r, c) == start else "*" if (r, c) == target else \
                (str(steps[(r, c)] % 10) if (r, c) in steps else " ")
            text = f"{sp.number}{sp.color[0].upper()}{mark}"
            if color:
                text = f"\x1b[{_BG[sp.color]};{_FG.get(sp.color, 97)}m {text} \x1b[0m"
            else:
                text = f" {text} "
            cells.append(text)
        lines.append(f" {r}  " + "".join(cells))
    lines.append("    B blue  Y yellow  G green  R red  P pink  W white;  S start  * target")
    return "\n".join(lines) + "\n"


def _cell(board: MicroBoard, value: Any, field: str) -> tuple[int, int]:
    try:
        return board.check_cell(value, field)
    except MicroError as e:
        raise ValueError(str(e)) from None


def _board_of(obj: dict[str, Any]) -> MicroBoard:
    if "cells" not in obj:
        return SHIPPED
    try:
        return MicroBoard.from_json(obj["cells"])
    except MicroError as e:
        raise ValueError(f"cells: {e}") from None


def answer_line(obj: Any) -> dict[str, Any]:
    """The answer for one request (``ValueError`` naming the field when it is malformed)."""
    if not isinstance(obj, dict):
        raise ValueError("each line must be a JSON object like {\"start\": [3, 5], \"target\": [1, 3]}")  # noqa: TRY004 (one error type for bad input)
    unknown = sorted(set(obj) - {"id", "start", "target", "exactly", "cells"})
    if unknown:
        raise ValueError(f"unknown field {unknown[0]!r}; known: id, start, target, exactly, cells")
    for name in ("start", "target"):
        if name not in obj:
            raise ValueError(f"missing {name!r}: a space [row, col], row 0 the top row")
    board = _board_of(obj)
    start, target = _cell(board, obj["start"], "start"), _cell(board, obj["target"], "target")
    exactly = obj.get("exactly")
    out: dict[str, Any] = {"id": obj.get("id")}
    if exactly is None:
        route = shortest_route(board, start, target)
        reason = "the target cannot be reached from the start"
    else:
        if isinstance(exactly, bool) or not isinstance(exactly, int) or not 0 <= exactly <= MAX_EXACTLY:
            raise ValueError(f"exactly must be a whole number of moves from 0 to {MAX_EXACTLY}, got {exactly!r}")
        route = route_of_length(board, start, target, exactly)
        reason = f"no route of exactly {exactly} moves"
    if route is None:
        out.update(moves=None, route=None, reason=reason)
    else:
        out.update(moves=len(route) - 1, route=[list(c) for c in route])
    return out


def _lines(text: Iterable[str]) -> Iterator[tuple[int, str]]:
    for n, line in enumerate(text, 1):
        if line.strip():
            yield n, line


def run_solve(args: argparse.Namespace) -> int:
    """One JSON answer per input line, in order; a malformed line gets an
    ``{"id": …, "line": N, "moves": null, "error": …}`` object (the line's
    ``id`` where it has one) and a message on stderr, as ``ricochet solve``
    gives for Ricochet Robots, and the same exit status: 0, 1 when some
    request has no route, 2 when a line was malformed."""
    from ...cli import EXIT_FAIL, EXIT_OK, EXIT_USAGE, CliError

    source = args.file
    name = "stdin" if source in (None, "-") else source
    try:
        handle = sys.stdin if source in (None, "-") else open(source, encoding="utf-8")  # noqa: SIM115
    except OSError as e:
        raise CliError(f"{source}: {e.strerror or e}") from None
    bad = unanswered = 0
    with handle:
        for n, line in _lines(handle):
            obj: Any = None
            try:
                obj = json.loads(line)
                answer = answer_line(obj)
            except (ValueError, RecursionError) as e:
                bad += 1
                message = "not valid JSON" if isinstance(e, json.JSONDecodeError | RecursionError) else str(e)
                answer = {"id": obj.get("id") if isinstance(obj, dict) else None, "line": n, "moves": None,
                          "error": message}
                sys.stderr.write(f"ricochet: error: {name}: line {n}: {message} (request skipped)\n")
                sys.stderr.flush()
            else:
                unanswered += answer["moves"] is None
            print(json.dumps(answer), flush=True)
    return EXIT_USAGE if bad else EXIT_FAIL if unanswered else EXIT_OK


def _arrangement(args: argparse.Namespace, rng: random.Random) -> Arrangement:
    from ...cli import CliError

    code = getattr(args, "arrangement", None) or "A0B0C0D0"
    if code.lower() == "random":
        return Arrangement.random(rng)
    try:
        return Arrangement.parse(code)
    except MicroError as e:
        raise CliError(f"--arrangement: {e}") from None


def run_random(args: argparse.Namespace, rng: random.Random) -> int:
    """Random Micro Robots puzzles as the dice throw them: start, then target (thrown again while
    equal), on the shipped arrangement or ``--arrangement``; JSON lines ready for ``solve``,
    each written as it is thrown."""
    from ...cli import CliError
    from ...cli.shared import use_color, write_lines, write_output

    if args.format in ("text", "ascii") and args.count != 1:
        raise CliError(f"--format {args.format} draws one puzzle; use --count 1")
    if args.format not in ("json", "code", "text", "ascii"):
        raise CliError(f"--format {args.format}: Micro Robots puzzles are JSON lines or text")
    arrangement = _arrangement(args, rng)
    board = MicroBoard.arranged(arrangement)

    def throw() -> tuple[int, int]:
        return board.find(rng.choice(COLORS), rng.randint(1, 6))

    def requests() -> Iterator[tuple[dict[str, Any], tuple[int, int], tuple[int, int]]]:
        for k in range(args.count):
            start = throw()
            target = throw()
            while target == start:  # seed 002: "keeps rolling until a different space comes up"
                target = throw()
            route = shortest_route(board, start, target)
            req: dict[str, Any] = {"id": f"micro-{k + 1}", "start": list(start), "target": list(target),
                                   "optimal": None if route is None else len(route) - 1}
            if arrangement.code != "A0B0C0D0":
                req["cells"] = board.to_json()
            yield req, start, target

    if args.format in ("text", "ascii"):
        req, start, target = next(requests())
        color = args.format == "text" and use_color(args)
        text = render_micro(board, start=start, target=target, color=color)
        write_output(f"{text}start {board.name(start)}, target {board.name(target)} "
                     f"({req['optimal']} moves at best), arrangement {arrangement.code}", args.output)
        return 0
    write_lines((json.dumps(req) for req, *_ in requests()), args.output)
    return 0


def run_show(args: argparse.Namespace) -> int:
    """The board (shipped, ``--arrangement``, or the ``cells`` of a request line), with the
    start and target of a request line, and its route when it has one (``solve``'s answer)."""
    from ...cli import CliError
    from ...cli.shared import read_source, use_color, write_output

    start = target = None
    route: list[tuple[int, int]] = []
    board = MicroBoard.arranged(_arrangement(args, random.Random()))
    if args.source is not None:
        text, name, _ = read_source(args.source, "Micro Robots request")
        try:
            obj = json.loads(text.strip().splitlines()[0]) if text.strip() else None
        except (ValueError, RecursionError):
            raise CliError(f"{name}: expected a JSON line like {{\"start\": [3, 5], \"target\": [1, 3]}}") from None
        if not isinstance(obj, dict):
            raise CliError(f"{name}: expected a JSON object")
        try:
            board = _board_of(obj) if "cells" in obj else board
            start = _cell(board, obj["start"], "start") if "start" in obj else None
            target = _cell(board, obj["target"], "target") if "target" in obj else None
            route = [_cell(board, c, "route") for c in obj.get("route") or []]
            if route:  # an answer line: its route runs from the start to the target
                start, target = start or route[0], target or route[-1]
        except ValueError as e:
            raise CliError(f"{name}: {e}") from None
        if any(not board.is_move(a, b) for a, b in itertools.pairwise(route)):
            raise CliError(f"{name}: the route is not a chain of moves on this board")
    write_output(render_micro(board, start=start, target=target, route=route,
                              color=args.output in (None, "-") and use_color(args)).rstrip("\n"), args.output)
    return 0


class MicroCli(GameCli):
    """The command-line hook of Micro Robots."""

    def arguments(self, command: str, group: argparse._ArgumentGroup) -> None:
        if command == "random":
            group.add_argument("--arrangement", default=None, metavar="CODE",
                               help="the board sections: A0B0C0D0 (default: as shipped), a code like C1A0D2B3, "
                                    "or random")
        elif command == "show":
            group.add_argument("--arrangement", default=None, metavar="CODE",
                               help="the sections' arrangement, e.g. C1A0D2B3 (default A0B0C0D0, the shipped "
                                    "board; random: any); SOURCE, optional: a request or answer line of "
                                    "'solve --game micro-robots'")

    def random(self, args: argparse.Namespace, rng: random.Random) -> int:
        from ...cli import CliError

        if args.rules is not None:
            raise CliError("--rules is not an option of Micro Robots")
        return run_random(args, rng)

    def show(self, args: argparse.Namespace) -> int:
        return run_show(args)

    def solve(self, args: argparse.Namespace) -> int:
        return run_solve(args)


HOOK = MicroCli()
