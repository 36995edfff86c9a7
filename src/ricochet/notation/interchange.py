"""The JSON interchange format of ``shared/data/README.md`` (JSON Lines, one
puzzle per line), read and written with all its optional keys.

Keys: ``id``, ``width``, ``height``, ``walls`` (width*height masks N=1 E=2 S=4
W=8), ``robots`` ([[x, y], ...]), ``active``, ``target``, ``optimal``; optional
``colors``, ``blocked``, ``diagonals``, ``openings``, ``towers``,
``any_robot``, ``rules`` ({"must_ricochet", "no_straight_back"}).  Our
extensions: ``targets`` (the printed targets, [{"x", "y", "color", "symbol"}])
and ``solution`` ([[robot_index, "N"], ...]; a transparent robot's move
``[i, "N", [x, y]]`` names its stop).  Other keys are ignored when reading.

What a file says is kept exactly: a centre marked only by walls stays without
blocked cells, and walls are kept as given (they are validated: symmetric and
with a closed border).

>>> import json
>>> line = ('{"id": "p", "width": 3, "height": 3, "walls": [9, 1, 3, 8, 0, 2, 12, 4, 6], '
...         '"robots": [[0, 0], [2, 2]], "active": 1, "target": [0, 2], "optimal": 2}')
>>> puzzle = puzzle_from_json(json.loads(line))
>>> puzzle.target, puzzle.active, puzzle.optimal
((0, 2), 1, 2)
>>> dumps_puzzle(puzzle) == line
True
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Sequence
from typing import Any

from .. import safejson
from ..board import ROBOT_COLORS
from ..geometry import Direction
from ..position import MAX_ROBOTS, Move, Position, PositionError, Robot
from ..puzzle import Puzzle
from ..rules import PLAIN, Rules
from .errors import NotationError
from .wire import _board_extras, _choice, _int, _list, _wrap, _xy, board_from_wire, board_to_wire

board_from_json = board_from_wire
"""The board keys of a puzzle object: the wire form of a board (:func:`~ricochet.notation.wire.board_from_wire`)."""
board_to_json = board_to_wire
"""A board as the interchange format writes it (:func:`~ricochet.notation.wire.board_to_wire`)."""

__all__ = [
    "board_from_json",
    "board_to_json",
    "dumps_puzzle",
    "puzzle_from_json",
    "puzzle_to_json",
    "read_jsonl",
    "solution_from_json",
    "solution_to_json",
]

FILE_RULES = ("must_ricochet", "no_straight_back")
"""The rule switches a file's ``rules`` key may set."""
_SIDES = {"N": Direction.N, "E": Direction.E, "S": Direction.S, "W": Direction.W}


# -- puzzles ------------------------------------------------------------------
def puzzle_from_json(obj: dict[str, Any], base_rules: Rules = PLAIN) -> Puzzle:
    """Read one puzzle object.  The file's ``rules`` key switches only
    ``must_ricochet`` and ``no_straight_back``, on top of ``base_rules``.
    Raises :class:`NotationError` naming the field."""
    board = board_from_json(obj)
    w, h = board.width, board.height
    if "robots" not in obj:
        raise NotationError("missing (a puzzle needs robots: [[x, y], ...])", field="robots")
    cells = [_xy(c, f"robots[{i}]", w, h) for i, c in enumerate(_list(obj["robots"], "robots"))]
    if not 1 <= len(cells) <= MAX_ROBOTS:
        raise NotationError(f"must list 1 to {MAX_ROBOTS} robots, got {len(cells)}", field="robots")
    if "colors" in obj:
        colors = [_choice(c, f"colors[{i}]", ROBOT_COLORS) for i, c in enumerate(_list(obj["colors"], "colors"))]
        if len(colors) != len(cells):
            raise NotationError(f"must give one colour per robot ({len(cells)}), got {len(colors)}", field="colors")
    else:
        colors = list(ROBOT_COLORS[:len(cells)])
    robots = tuple(Robot(c, cell) for c, cell in zip(colors, cells))
    any_robot = obj.get("any_robot", False)
    if not isinstance(any_robot, bool):
        raise NotationError(f"must be true or false, got {json.dumps(any_robot)}", field="any_robot")
    active: int | None = None
    if any_robot:
        if "active" in obj:  # ignored, but it must still be a number
            _int(obj["active"], "active", 0)
    else:
        if "active" not in obj:
            raise NotationError("missing (index of the robot that must reach the target; or any_robot: true)",
                                field="active")
        active = _int(obj["active"], "active", 0, len(cells) - 1)
    if "target" not in obj:
        raise NotationError("missing (the target cell [x, y])", field="target")
    target = _xy(obj["target"], "target", w, h)
    optimal = obj.get("optimal")
    if optimal is not None:
        optimal = _int(optimal, "optimal", 0)
    pid = obj.get("id")
    if pid is not None and not isinstance(pid, str):
        raise NotationError(f"must be a string, got {json.dumps(pid)}", field="id")
    rules = base_rules
    if "rules" in obj:
        given = obj["rules"]
        if not isinstance(given, dict):
            raise NotationError(f"must be an object like {{\"must_ricochet\": true}}, got {json.dumps(given)}",
                                field="rules")
        for key, value in given.items():
            if key not in FILE_RULES:
                raise NotationError(f"unknown rule {key!r}; a file may set {', '.join(FILE_RULES)}", field="rules")
            if not isinstance(value, bool):
                raise NotationError(f"must be true or false, got {json.dumps(value)}", field=f"rules.{key}")
        rules = base_rules.with_options(**given)
    try:  # the position built once, with its goal and rules (a Puzzle would otherwise rebuild it twice)
        position = Position(board, robots, goal=target, rules=rules)
    except PositionError as e:
        raise _wrap(e, "robots") from None
    try:
        return Puzzle(position, target, active=active, optimal=optimal, id=pid)
    except PositionError as e:
        raise _wrap(e, "target") from None


def puzzle_to_json(puzzle: Puzzle, *, rules: Rules | None = None,
                   solution: Sequence[Move] | None = None) -> dict[str, Any]:
    """A puzzle as a JSON object; optional keys only when needed.

    ``rules`` (default: the puzzle's own) is written as the ``rules`` key only
    when ``must_ricochet`` or ``no_straight_back`` is on; other switches have
    no place in the format.  With ``any_robot`` the ``active`` key is written
    as 0 for readers that require it.  ``solution`` adds a ``solution`` key.
    The position's no-straight-back state is not part of the format."""
    rules = puzzle.rules if rules is None else rules
    pos = puzzle.position
    board = pos.board
    out: dict[str, Any] = {}
    if puzzle.id is not None:
        out["id"] = puzzle.id
    out.update(width=board.width, height=board.height, walls=list(board.walls))
    out["robots"] = [list(r.cell) for r in pos.robots]
    colors = [r.color for r in pos.robots]
    if colors != list(ROBOT_COLORS[:len(colors)]):
        out["colors"] = colors
    out["active"] = 0 if puzzle.active is None else puzzle.active
    if puzzle.active is None:
        out["any_robot"] = True
    out["target"] = list(puzzle.target)
    if puzzle.optimal is not None:
        out["optimal"] = puzzle.optimal
    out.update(_board_extras(board))
    switched = {k: True for k in FILE_RULES if getattr(rules, k)}
    if switched:
        out["rules"] = switched
    if solution is not None:
        out["solution"] = solution_to_json(solution)
    return out


def dumps_puzzle(puzzle: Puzzle, **kwargs: Any) -> str:
    """One JSON line for a puzzle (keyword arguments go to :func:`puzzle_to_json`)."""
    return json.dumps(puzzle_to_json(puzzle, **kwargs), ensure_ascii=False)


def read_jsonl(lines: Iterable[str], base_rules: Rules = PLAIN, *, first_line: int = 1
               ) -> Iterator[tuple[int, Puzzle | NotationError]]:
    """Read JSON Lines: ``(line number, puzzle or error)`` for every non-blank
    line.  A bad line yields its error (``line N: field 'robots[2]': …``) and
    reading goes on.  ``first_line``: the number of the first line (a slice of
    a longer file).  A bad line's error keeps its ``id`` where the line has a
    string one (:attr:`NotationError.puzzle_id`).

    >>> [(n, str(r)) for n, r in read_jsonl(['', '{"width": 2, "height": 3, "walls": []}'])]
    [(2, "line 2: field 'width': must be from 3 to 32, got 2")]
    """
    for number, line in enumerate(lines, first_line):
        if not line.strip():
            continue
        try:
            obj = safejson.loads(line)
        except json.JSONDecodeError as e:
            yield number, NotationError(f"not valid JSON: {e.msg}", line=number, column=e.colno)
            continue
        try:
            yield number, puzzle_from_json(obj, base_rules)
        except NotationError as e:
            pid = obj.get("id") if isinstance(obj, dict) else None
            yield number, e.located(line=number, puzzle_id=pid if isinstance(pid, str) else None)


# -- solutions ------------------------------------------------------------------
def solution_to_json(moves: Sequence[Move]) -> list[list[Any]]:
    """Moves as ``[[robot_index, "N"], ...]``; a move naming its stop (the
    transparent robot's) as ``[i, "N", [x, y]]``.

    >>> solution_to_json([Move(0, Direction.N), Move(4, Direction.W, (2, 3))])
    [[0, 'N'], [4, 'W', [2, 3]]]
    """
    return [[m.robot, m.direction.name] + ([list(m.stop)] if m.stop is not None else []) for m in moves]


def solution_from_json(data: Any, position: Position) -> list[Move]:
    """Read a ``solution`` list for the robots of ``position`` (not played)."""
    out = []
    b = position.board
    for i, item in enumerate(_list(data, "solution")):
        f = f"solution[{i}]"
        if not (isinstance(item, list) and len(item) in (2, 3)):
            raise NotationError(f"must be [robot_index, \"N\"] or [robot_index, \"N\", [x, y]], "
                                f"got {json.dumps(item)[:40]}", field=f)
        robot = _int(item[0], f + "[0]", 0, len(position.robots) - 1)
        direction = _SIDES[_choice(item[1], f + "[1]", tuple(_SIDES))]
        stop = _xy(item[2], f + "[2]", b.width, b.height) if len(item) == 3 else None
        out.append(Move(robot, direction, stop))
    return out
