"""The ``tablebase`` sub-command of the ``ricochet`` command line::

    ricochet tablebase build --tiles 1A,3B,4A,2A --target red-circle [-o FILE] [--gpu]
    ricochet tablebase build --puzzle FILE [--index N | --id ID]
    ricochet tablebase query FILE --robots '[[x, y], ...]'       (the active robot first)
    ricochet tablebase stats FILE [--png FILE] [--top N] [--solve N]
    ricochet tablebase study --tiles 1A,3B,4A,2A [--scheduler ADDRESS]

This module imports only argparse-level things: :mod:`ricochet.tablebase`
(numba, zstd) is imported when a tablebase command runs, so other commands
do not pay for it.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from typing import TYPE_CHECKING, Any

from ..geometry import Cell, parse_cell
from . import EXIT_OK, CliError, add_command
from .shared import load, out

if TYPE_CHECKING:
    from ..board import Board
    from ..tablebase import Tablebase

__all__ = ["build_tablebase", "run_tablebase"]


def build_tablebase(parser: argparse.ArgumentParser) -> None:
    sub = parser.add_subparsers(dest="action", metavar="ACTION", required=True)
    b = sub.add_parser("build", help="solve every position of a board, target and robot count",
                       description="Solve every position of a board, target and robot count (plain rules) and "
                                   "save the table.")
    src = b.add_mutually_exclusive_group(required=True)
    src.add_argument("--tiles", metavar="NW,NE,SE,SW", help="a real board, e.g. 1A,3B,4A,2A (tiles A-C)")
    src.add_argument("--dd-layout", metavar="'NW NE / SW SE'",
                     help="a real board in DriftingDroids' notation, e.g. '4B 3B / 1A 2B' (= --tiles 4B,3B,2B,1A)")
    src.add_argument("--puzzle", metavar="FILE",
                     help="a puzzle in the interchange format: its board, target, active robot and robot count")
    b.add_argument("--target", metavar="TARGET",
                   help="with --tiles: a printed target (red-circle, blue-hexagon…), vortex (any robot may "
                        "reach it: the vortex table) or a cell x,y")
    b.add_argument("--any-robot", action="store_true",
                   help="with a target cell x,y: any robot may reach it (a vortex table)")
    b.add_argument("--active", metavar="COLOUR", default=None,
                   help="with --tiles: the active robot's colour (default: the target's, or red for a cell)")
    b.add_argument("--robots", type=int, default=None, metavar="N",
                   help="with --tiles: robots on the board, 1-4 (default 4)")
    b.add_argument("--index", type=int, metavar="N", help="with --puzzle: the puzzle numbered N (from 0)")
    b.add_argument("--id", dest="puzzle_id", metavar="ID", help="with --puzzle: the puzzle with this id")
    b.add_argument("-o", "--output", metavar="FILE", help="the table file (default: named after board and target)")
    b.add_argument("--gpu", action="store_true", help="run the search on a CUDA GPU (same table)")
    b.add_argument("--quiet", action="store_true", help="no progress line on stderr")

    q = sub.add_parser("query", help="the optimal length and one optimal solution of a position",
                       description="Print the optimal length of a position (null when the target cannot be "
                                   "reached) and one optimal solution in the interchange move notation.")
    q.add_argument("file", metavar="FILE", help="a table written by 'ricochet tablebase build'")
    which = q.add_mutually_exclusive_group(required=True)
    which.add_argument("--robots", metavar="JSON",
                       help="the robots' cells as JSON, the active robot first: '[[x, y], [x, y], ...]'")
    which.add_argument("--dd-game-id", metavar="ID",
                       help="a DriftingDroids game ID (e.g. 7650+42+E2302B12+C9): its robots, on the table's "
                            "board and target")

    s = sub.add_parser("stats", help="the histogram of lengths (PNG) and the longest positions",
                       description="Print the histogram of optimal lengths and the longest positions as "
                                   "position codes; write the histogram as a PNG.")
    s.add_argument("file", metavar="FILE", help="a table written by 'ricochet tablebase build'")
    s.add_argument("--png", metavar="FILE", help="the histogram picture (default: FILE with .png)")
    s.add_argument("--top", type=int, default=10, metavar="N", help="how many longest positions to list (default 10)")
    s.add_argument("--solve", type=int, default=0, metavar="N",
                   help="also solve the first N of them with the solver and replay its solution with the engine")

    st = sub.add_parser("study", help="the longest puzzle of boards: every target, on a Dask cluster or here",
                        description="Build the table of every target of one or more boards (the 16 coloured "
                                    "ones and the vortex) and report the longest positions: on a Dask cluster "
                                    "(--scheduler), a local Dask cluster (the default when Dask is installed) or "
                                    "in this process (--local).  With -o, tables already in the file are skipped "
                                    "and each new result is appended as it is done.")
    st.add_argument("--tiles", metavar="NW,NE,SE,SW", action="append", dest="boards", type=_tiles_arg,
                    help="a board (repeat for more boards; with --dd-layout, in the order given)")
    st.add_argument("--dd-layout", metavar="'NW NE / SW SE'", action="append", dest="boards", type=_dd_arg,
                    help="a board in DriftingDroids' notation, e.g. '4B 3B / 1A 2B' (repeat for more)")
    st.add_argument("--arrangements", metavar="FACES", choices=("AB",),
                    help="every arrangement of the first-edition set: AB (96 boards, 1 632 tables)")
    st.add_argument("--targets", default="all", metavar="LIST",
                    help="comma-separated targets (red-circle,…,vortex), 'coloured' (the 16 coloured targets) "
                         "or 'all' (those and the vortex; the default)")
    st.add_argument("--robots", type=int, default=4, metavar="N", help="robots on the board, 1-4 (default 4)")
    st.add_argument("--scheduler", metavar="ADDRESS", help="a Dask scheduler, e.g. tcp://10.0.0.5:8786 "
                                                           "(default: a local cluster on this machine)")
    st.add_argument("--workers", type=int, default=1, metavar="N",
                    help="local cluster: worker processes (default 1: each table already uses every core)")
    st.add_argument("--local", action="store_true",
                    help="no Dask: build the tables one after the other in this process")
    st.add_argument("--gpu", action="store_true", help="build the tables on a CUDA GPU (same tables)")
    st.add_argument("--keep", metavar="DIR", help="also save every table in DIR")
    st.add_argument("--records", type=int, default=5, metavar="N",
                    help="position codes of record holders to keep per table (default 5)")
    st.add_argument("-o", "--output", metavar="FILE",
                    help="append one JSON line per table to FILE (tables already in it are skipped)")
    st.add_argument("--quiet", action="store_true", help="no progress lines on stderr")

    h = sub.add_parser("hardest", help="the record positions of study results (JSON lines)",
                       description="Print the record positions of study results: board, target, length, "
                                   "position code and one optimal solution, longest first.")
    h.add_argument("files", metavar="FILE", nargs="+", help="JSON-lines files written by 'ricochet tablebase study'")
    h.add_argument("--all", action="store_true",
                   help="every table's records (default: only those of the longest length over all files)")
    h.add_argument("--json", action="store_true", help="one JSON object per record instead of text")

    pb = sub.add_parser("publish", help="study results as a page section: tables, drawings, histogram",
                        description="Render study results (JSON lines) as Markdown: per board the longest "
                                    "solution of every target, the record positions drawn as SVG with their "
                                    "solutions, the histogram over all tables (and a PNG), the build times.")
    pb.add_argument("files", metavar="FILE", nargs="+", help="JSON-lines files written by 'ricochet tablebase study'")
    pb.add_argument("--out-dir", required=True, metavar="DIR", help="where the SVG and PNG pictures go")
    pb.add_argument("--robots", type=int, metavar="N", help="the tables of N robots (default: the most present)")
    pb.add_argument("--doc", metavar="FILE",
                    help="write the section into this Markdown file, between its study-results markers "
                         "(default: print it)")


def run_tablebase(args: argparse.Namespace) -> int:
    """Run one tablebase action."""
    from ..tablebase import TablebaseError

    action = {"build": _build, "query": _query, "stats": _stats, "study": _study, "hardest": _hardest,
              "publish": _publish}[args.action]
    try:
        return action(args)
    except TablebaseError as e:
        raise CliError(str(e)) from None


# -- build --------------------------------------------------------------------------------
def parse_target(text: str, board: Board) -> tuple[Cell, str | None]:
    """A printed target (``red-circle``, ``red circle``, ``vortex``) or a
    cell ``x,y``: the target cell and the target's colour (None for a cell,
    ``any`` for the vortex)."""
    try:
        return parse_cell(text), None
    except ValueError:
        pass
    parts = text.replace("-", " ").split()
    if [p.lower() for p in parts] in (["vortex"], ["any", "vortex"], ["cosmic", "vortex"]):
        parts = ["any", "vortex"]
    if len(parts) != 2:
        raise CliError(f"--target: {text!r} is neither a target like red-circle or vortex nor a cell x,y")
    color, symbol = (p.lower() for p in parts)
    try:
        target = board.find_target(color, symbol)
    except KeyError as e:
        raise CliError(f"--target: {e.args[0]}") from None
    return target.cell, target.color


def _board(tiles: str) -> Board:
    from ..tiles import assemble, parse_arrangement

    return assemble(*parse_arrangement(tiles))


def _dd_tiles(layout: str) -> str:
    """A DriftingDroids layout ('4B 3B / 1A 2B') as --tiles text ('4B,3B,2B,1A')."""
    from ..tablebase.dd import parse_layout

    return ",".join(parse_layout(layout))


def _build(args: argparse.Namespace) -> int:
    from ..tablebase import Tablebase
    from ..tablebase.build import ProgressLine

    if args.dd_layout is not None:
        args.tiles = _dd_tiles(args.dd_layout)
    if args.tiles is not None:
        if args.target is None:
            raise CliError(f"{'--dd-layout' if args.dd_layout else '--tiles'} needs --target "
                           "(a printed target like red-circle, or a cell x,y)")
        if args.index is not None or args.puzzle_id is not None:
            raise CliError("--index and --id go with --puzzle")
        board = _board(args.tiles)
        target, color = parse_target(args.target, board)
        any_robot = color == "any" or args.any_robot
        if any_robot and args.active is not None:
            raise CliError("--active: a vortex table has no active robot (any robot may reach the target)")
        active = args.active or (color if color != "any" else None) or "red"
        robots = 4 if args.robots is None else args.robots
        name = (f"{args.tiles.replace(',', '')}-{args.target.replace(' ', '-').replace(',', '_')}"
                f"{'-any' if args.any_robot else ''}-{robots}r.rtb")
    else:
        if args.target is not None or args.active is not None or args.robots is not None or args.any_robot:
            raise CliError("--target, --active, --any-robot and --robots go with --tiles; a puzzle names its own "
                           "target, active robot and robots")
        board, target, active, robots, name = _from_puzzle(args)
        any_robot = active == "any"
    output = args.output or name
    progress = None if args.quiet else ProgressLine()
    tb = Tablebase.build(board, target, robots=robots, active_color=active, any_robot=any_robot, gpu=args.gpu,
                         progress=progress)
    tb.save(output)
    hist = tb.histogram()
    line = (f"tablebase: {output}: {tb.layout.size:,} positions in {tb.info['seconds']:.1f} s ({tb.info['device']}), "
            f"longest {tb.longest} moves ({hist[tb.longest]:,} positions), {tb.unreachable:,} unreachable, "
            f"{os.path.getsize(output) / 2**20:.1f} MiB")
    if progress is not None:
        progress.finish(line)
    out(json.dumps({"file": output, "positions": tb.layout.size, "longest": tb.longest,
                    "histogram": hist, "unreachable": tb.unreachable, "seconds": tb.info["seconds"]}))
    return EXIT_OK


def _from_puzzle(args: argparse.Namespace) -> tuple[Board, Cell, str, int, str]:
    from ..puzzle import Puzzle
    from ..tablebase.table import BASE_COLORS

    obj = load(args.puzzle, index=args.index, puzzle_id=args.puzzle_id)
    if not isinstance(obj, Puzzle):
        raise CliError(f"{args.puzzle}: a position without a target; a puzzle is needed")
    rules = obj.rules
    if rules.must_ricochet or rules.no_straight_back:
        raise CliError(f"{args.puzzle}: the tablebase is for the plain rules; this puzzle switches on "
                       + ", ".join(k for k in ("must_ricochet", "no_straight_back") if getattr(rules, k)))
    color = "any" if obj.active is None else obj.position.robots[obj.active].color
    if color not in BASE_COLORS and color != "any":
        raise CliError(f"{args.puzzle}: the active robot must be red, green, blue or yellow, not {color}")
    stem = os.path.splitext(os.path.basename(args.puzzle))[0]
    name = f"{obj.id or stem}-{len(obj.position.robots)}r.rtb".replace(os.sep, "_")
    return obj.position.board, obj.target, color, len(obj.position.robots), name


# -- query ----------------------------------------------------------------------------------
def _open(path: str) -> Tablebase:
    from ..tablebase import Tablebase

    if not os.path.exists(path):
        raise CliError(f"{path}: No such file or directory")
    return Tablebase.load(path)


def parse_robots(text: str) -> list[Cell]:
    """``[[x, y], ...]`` as a list of cells (one line of error otherwise)."""
    try:
        data: Any = json.loads(text)
    except json.JSONDecodeError as e:
        raise CliError(f"--robots: not valid JSON: {e.msg} (column {e.colno}); write [[x, y], ...]") from None
    if not isinstance(data, list) or not data or not all(
            isinstance(c, list) and len(c) == 2 and all(isinstance(v, int) and not isinstance(v, bool) for v in c)
            for c in data):
        raise CliError("--robots: expected a list of [x, y] integer pairs, the active robot first")
    return [(c[0], c[1]) for c in data]


def _query(args: argparse.Namespace) -> int:
    from ..notation import solution_to_json

    tb = _open(args.file)
    if args.dd_game_id is not None:
        return _query_game_id(tb, args.dd_game_id)
    cells = parse_robots(args.robots)
    length = tb.lookup(cells)
    moves = tb.solution(cells)
    out(json.dumps({"robots": [list(c) for c in cells], "moves": length,
                    "solution": None if moves is None else solution_to_json(moves)}))
    return EXIT_OK


def _query_game_id(tb: Tablebase, game_id: str) -> int:
    """Look up the puzzle of a DriftingDroids game ID (robot numbers: red, green, blue, yellow, silver)."""
    from ..notation import format_solution, puzzle_code, solution_to_json
    from ..tablebase.dd import parse_game_id

    pz = parse_game_id(game_id)
    if pz.position.board != tb.layout.board:
        raise CliError(f"--dd-game-id: {game_id} is on another board than the table's ({tb.info.get('tiles')})")
    if pz.active is not None and pz.position.robots[pz.active].color != tb.active_color:
        raise CliError(f"--dd-game-id: its active robot is {pz.position.robots[pz.active].color}, "
                       f"this table's is {tb.active_color}")
    moves = tb.solution(pz)
    out(json.dumps({"code": puzzle_code(pz), "robots": [list(c) for c in pz.position.cells],
                    "moves": tb.lookup(pz), "solution": None if moves is None else solution_to_json(moves),
                    "text": None if moves is None else format_solution(moves, pz.position)}))
    return EXIT_OK


# -- stats ----------------------------------------------------------------------------------
def _stats(args: argparse.Namespace) -> int:
    from ..notation import puzzle_code, solution_to_json
    from ..puzzle import check_solution
    from ..tablebase.png import histogram_png

    if args.top < 0 or args.solve < 0:
        raise CliError("--top and --solve must be 0 or more")
    tb = _open(args.file)
    hist = tb.histogram()
    png = args.png or os.path.splitext(args.file)[0] + ".png"
    with open(png, "wb") as f:
        f.write(histogram_png(hist))
    longest = []
    for i, entry in enumerate(tb.hardest(args.top)):
        pz = tb.puzzle(list(entry.cells))
        item: dict[str, Any] = {"code": puzzle_code(pz), "moves": entry.length, "robots": [list(c) for c in entry.cells]}
        if i < args.solve:
            from ..solver import solve
            sol = solve(pz)
            verdict = check_solution(pz, sol.moves)
            item["solve"] = {"moves": sol.length, "solution": solution_to_json(sol.moves), "replayed": verdict.ok}
        longest.append(item)
    h = tb.info
    out(json.dumps({"board": h.get("board"), "tiles": h.get("tiles"), "target": list(tb.layout.target),
                    "target_name": h.get("target_name"), "active": tb.active_color, "robots": tb.layout.robots,
                    "rules": "plain", "positions": tb.layout.size, "longest": tb.longest,
                    "histogram": hist, "unreachable": tb.unreachable, "png": png, "longest_positions": longest}))
    return EXIT_OK


# -- study -----------------------------------------------------------------------------------
def _study(args: argparse.Namespace) -> int:
    from ..tablebase import study

    if bool(args.boards) == bool(args.arrangements):
        raise CliError("give the boards (--tiles or --dd-layout, repeatable) or --arrangements, one of them")
    if args.boards:
        boards = list(args.boards)
    else:
        from ..tiles import arrangements
        boards = [",".join(a) for a in arrangements(args.arrangements)]
    targets = study.parse_targets(args.targets)
    if args.workers < 1 or args.records < 0:
        raise CliError("--workers must be 1 or more and --records 0 or more")
    if args.local and args.scheduler:
        raise CliError("--local runs in this process; --scheduler sends the tables to a Dask cluster: not both")
    if args.gpu:
        from ..tablebase import gpu
        if not gpu.available():
            raise CliError("--gpu: no CUDA GPU found (numba.cuda.is_available() is false; is the NVIDIA driver "
                           "installed and numba-cuda, pip install 'ricochet[gpu]'?)")
    jobs = [study.Job(b, t, args.robots, args.records, args.keep, gpu=args.gpu) for b in boards for t in targets]
    for job in {j.tiles: j for j in jobs}.values():
        job.check()  # here, in one line, rather than on a worker
    results = study.run(jobs, scheduler=args.scheduler, workers=args.workers, local=args.local,
                        output=args.output, progress=None if args.quiet else sys.stderr)
    out(study.report(results))
    return EXIT_OK


def _results(files: list[str]) -> list[dict[str, Any]]:
    from ..tablebase import study

    results = []
    for path in files:
        if not os.path.exists(path):
            raise CliError(f"{path}: No such file or directory")
        got = study.read_results(path)
        if not got:
            raise CliError(f"{path}: no study results in it")
        results.extend(got)
    return results


def _publish(args: argparse.Namespace) -> int:
    from ..tablebase import publish

    results = _results(args.files)
    if args.doc is None:
        out(publish.render(results, args.out_dir, args.out_dir, args.robots).rstrip("\n"))
        return EXIT_OK
    if not os.path.exists(args.doc):
        raise CliError(f"--doc {args.doc}: No such file or directory")
    link = os.path.relpath(args.out_dir, os.path.dirname(os.path.abspath(args.doc)))
    section = publish.render(results, args.out_dir, link, args.robots)
    with open(args.doc, encoding="utf-8") as f:
        text = publish.into_doc(f.read(), section)
    with open(args.doc, "w", encoding="utf-8") as f:
        f.write(text)
    out(f"tablebase: {args.doc}: the study section rewritten from {len(results)} results; pictures in {args.out_dir}")
    return EXIT_OK


def _hardest(args: argparse.Namespace) -> int:
    from ..tablebase import study

    results = _results(args.files)
    top = max(int(r["longest"]) for r in results)
    chosen = sorted((r for r in results if args.all or int(r["longest"]) == top),
                    key=lambda r: -int(r["longest"]))
    for r in chosen:
        for record in r.get("records") or []:
            code = study.record_code(record)
            solution = record.get("solution") if isinstance(record, dict) else None
            if args.json:
                out(json.dumps({"board": r["board"], "target": r["target"], "robots": r["robots"],
                                "moves": r["longest"], "code": code, "solution": solution}))
            else:
                out(f"{r['board']}  {r['target']:<15} {r['longest']:>2} moves  {code}  {solution or '(no solution kept)'}")
    return EXIT_OK


def _tile_names(text: str) -> tuple[str, ...]:
    from ..tiles import parse_arrangement

    return parse_arrangement(text)


def _tiles_arg(text: str) -> str:
    """--tiles for the study: the board as NW,NE,SE,SW (argparse reports a bad one)."""
    from ..tiles import TileError

    try:
        return ",".join(_tile_names(text))
    except TileError as e:
        raise argparse.ArgumentTypeError(str(e)) from None


def _dd_arg(text: str) -> str:
    """--dd-layout for the study: the board as NW,NE,SE,SW."""
    from ..tablebase import TablebaseError

    try:
        return _dd_tiles(text)
    except TablebaseError as e:
        raise argparse.ArgumentTypeError(str(e).removeprefix("--dd-layout: ")) from None


add_command("tablebase", "every position of a board and target solved at once (build, query, stats, study)",
            build_tablebase, run_tablebase)
