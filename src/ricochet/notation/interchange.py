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
import re
from collections.abc import Iterable, Iterator, Sequence
from typing import Any

from .. import safejson
from ..board import (
    DIAGONAL_COLORS,
    ORIENTATIONS,
    ROBOT_COLORS,
    TARGET_COLORS,
    TARGET_SYMBOLS,
    Board,
    BoardError,
    Diagonal,
    Target,
)
from ..geometry import MAX_SIZE, MIN_SIZE, Cell, Direction
from ..position import MAX_ROBOTS, Move, Position, PositionError, Robot
from ..puzzle import Puzzle
from ..rules import PLAIN, Rules
from .errors import NotationError

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


# -- small validators -----------------------------------------------------------
def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _int(value: Any, field: str, lo: int | None = None, hi: int | None = None) -> int:
    if not _is_int(value):
        raise NotationError(f"must be an integer, got {json.dumps(value)}", field=field)
    if (lo is not None and value < lo) or (hi is not None and value > hi):
        rng = f"from {lo} to {hi}" if hi is not None else f"at least {lo}"
        raise NotationError(f"must be {rng}, got {value}", field=field)
    return value


def _list(value: Any, field: str) -> list[Any]:
    if not isinstance(value, list):
        raise NotationError(f"must be a list, got {json.dumps(value)[:40]}", field=field)
    return value


def _object(value: Any, field: str, keys: Sequence[str]) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise NotationError(f"must be an object with keys {', '.join(keys)}, got {json.dumps(value)[:40]}",
                            field=field)
    for k in keys:
        if k not in value:
            raise NotationError(f"missing key {k!r} (needs {', '.join(keys)})", field=field)
    return value


def _choice(value: Any, field: str, allowed: Sequence[str]) -> str:
    if value not in allowed or not isinstance(value, str):
        raise NotationError(f"must be one of {', '.join(allowed)}, got {json.dumps(value)}", field=field)
    return value


def _xy(value: Any, field: str, width: int, height: int) -> Cell:
    if not (isinstance(value, list) and len(value) == 2 and all(_is_int(v) for v in value)):
        raise NotationError(f"must be [x, y] with integers x and y, got {json.dumps(value)[:40]}", field=field)
    x, y = value
    if not (0 <= x < width and 0 <= y < height):
        raise NotationError(f"cell {x},{y} is off the {width}×{height} board (x 0..{width - 1}, "
                            f"y 0..{height - 1})", field=field)
    return (x, y)


def _cell_keys(item: dict[str, Any], field: str, width: int, height: int) -> Cell:
    return _xy([item["x"], item["y"]], field, width, height)


_FIELD = re.compile(r"^([a-z_]+(?:\[\d+\])?)")


def _wrap(e: ValueError, default: str) -> NotationError:
    """A board or position error as a notation error naming the field its message starts with."""
    text = str(e)
    m = _FIELD.match(text)
    field = m.group(1) if m and text[m.end():m.end() + 1] in (":", " ") else default
    return NotationError(text, field=field)


# -- boards -------------------------------------------------------------------
def board_from_json(obj: dict[str, Any]) -> Board:
    """The board keys of an object: ``width``, ``height``, ``walls`` and the
    optional ``blocked``, ``diagonals``, ``openings``, ``towers``, ``targets``."""
    if not isinstance(obj, dict):
        raise NotationError(f"a puzzle or board must be a JSON object, got {type(obj).__name__}")
    for key in ("width", "height", "walls"):
        if key not in obj:
            raise NotationError("missing (a board needs width, height and walls)", field=key)
    w = _int(obj["width"], "width", MIN_SIZE, MAX_SIZE)
    h = _int(obj["height"], "height", MIN_SIZE, MAX_SIZE)
    walls = _list(obj["walls"], "walls")
    if len(walls) != w * h:
        raise NotationError(f"must hold width*height = {w * h} masks, got {len(walls)}", field="walls")
    masks = tuple(_int(m, f"walls[{i}]", 0, 15) for i, m in enumerate(walls))
    blocked = frozenset(_xy(c, f"blocked[{i}]", w, h) for i, c in enumerate(_list(obj.get("blocked", []), "blocked")))
    towers = frozenset(_xy(c, f"towers[{i}]", w, h) for i, c in enumerate(_list(obj.get("towers", []), "towers")))
    diagonals = []
    for i, item in enumerate(_list(obj.get("diagonals", []), "diagonals")):
        f = f"diagonals[{i}]"
        item = _object(item, f, ("x", "y", "color", "orientation"))
        diagonals.append(Diagonal(_cell_keys(item, f, w, h), _choice(item["color"], f + ".color", DIAGONAL_COLORS),
                                  _choice(item["orientation"], f + ".orientation", ORIENTATIONS)))
    openings = []
    for i, item in enumerate(_list(obj.get("openings", []), "openings")):
        f = f"openings[{i}]"
        item = _object(item, f, ("x", "y", "side"))
        openings.append((_cell_keys(item, f, w, h), _SIDES[_choice(item["side"], f + ".side", tuple(_SIDES))]))
    targets = []
    for i, item in enumerate(_list(obj.get("targets", []), "targets")):
        f = f"targets[{i}]"
        item = _object(item, f, ("x", "y", "color", "symbol"))
        targets.append(Target(_cell_keys(item, f, w, h), _choice(item["color"], f + ".color", TARGET_COLORS),
                              _choice(item["symbol"], f + ".symbol", TARGET_SYMBOLS)))
    if len(set(openings)) != len(openings):
        raise NotationError("the same opening is listed twice", field="openings")
    try:
        return Board(w, h, masks, blocked, tuple(targets), tuple(diagonals), frozenset(openings), towers)
    except BoardError as e:
        raise _wrap(e, "walls") from None


def board_to_json(board: Board) -> dict[str, Any]:
    """The board-only keys: ``width``, ``height``, ``walls`` and, when the
    board has them, ``blocked``, ``diagonals``, ``openings``, ``towers`` and
    ``targets`` (our extension: the printed targets)."""
    out: dict[str, Any] = {"width": board.width, "height": board.height, "walls": list(board.walls)}
    out.update(_board_extras(board))
    return out


def _board_extras(board: Board) -> dict[str, Any]:
    out: dict[str, Any] = {}
    if board.blocked:
        out["blocked"] = [list(c) for c in sorted(board.blocked)]
    if board.diagonals:
        out["diagonals"] = [{"x": d.cell[0], "y": d.cell[1], "color": d.color, "orientation": d.orientation}
                            for d in board.diagonals]
    if board.openings:
        out["openings"] = [{"x": c[0], "y": c[1], "side": s.name}
                           for c, s in sorted(board.openings, key=lambda o: (o[0], o[1].index))]
    if board.towers:
        out["towers"] = [list(c) for c in sorted(board.towers)]
    if board.targets:
        out["targets"] = [{"x": t.cell[0], "y": t.cell[1], "color": t.color, "symbol": t.symbol}
                          for t in board.targets]
    return out


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
    try:
        position = Position(board, tuple(Robot(c, cell) for c, cell in zip(colors, cells)))
    except PositionError as e:
        raise _wrap(e, "robots") from None
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
    try:
        return Puzzle(position, target, active=active, rules=rules, optimal=optimal, id=pid)
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


def read_jsonl(lines: Iterable[str], base_rules: Rules = PLAIN) -> Iterator[tuple[int, Puzzle | NotationError]]:
    """Read JSON Lines: ``(line number, puzzle or error)`` for every non-blank
    line.  A bad line yields its error (``line N: field 'robots[2]': …``) and
    reading goes on.

    >>> [(n, str(r)) for n, r in read_jsonl(['', '{"width": 2, "height": 3, "walls": []}'])]
    [(2, "line 2: field 'width': must be from 3 to 32, got 2")]
    """
    for number, line in enumerate(lines, 1):
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
            yield number, e.located(line=number)


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
