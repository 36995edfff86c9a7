"""The JSON forms of the library's values: one codec for boards, robots,
moves and paths, used by the interchange format (:mod:`.interchange`), the
games' events and views, the server and the web UI (``web/gridboard.js`` reads the
same shapes).

- a cell is ``[x, y]``;
- a board is the interchange format's board object: ``width``, ``height``,
  ``walls`` (one mask per cell, N=1 E=2 S=4 W=8) and, when the board has
  them, ``blocked`` ``[[x, y]…]``, ``diagonals`` ``[{"x", "y", "color",
  "orientation"}…]``, ``openings`` ``[{"x", "y", "side"}…]``, ``towers``
  ``[[x, y]…]`` and ``targets`` ``[{"x", "y", "color", "symbol"}…]``;
- robots are ``[{"color": "red", "cell": [x, y]}…]``;
- a move is ``{"robot": index, "direction": "N"}``, with ``"stop": [x, y]``
  when it names where the transparent robot stops;
- a path is ``{"robot", "start", "direction", "steps": [{"cell", "heading",
  "event"?}…], "cost"}``.

(A puzzle file's ``solution`` key keeps its own compact list form,
``[[robot, "N"], [robot, "N", [x, y]]…]``, as the file format specifies.)

Reading checks every field and raises :class:`~.errors.NotationError` naming it.

>>> from ricochet import Direction, Move, Position
>>> move_to_wire(Move(5, Direction.W, (2, 3)))
{'robot': 5, 'direction': 'W', 'stop': [2, 3]}
>>> move_from_wire({"robot": 0, "direction": "N"})
Move(0, Direction.N)
>>> p = Position.from_code("xY2RmZkACAA.b21")
>>> board_to_wire(p.board)
{'width': 3, 'height': 3, 'walls': [9, 1, 3, 8, 0, 2, 12, 4, 6]}
>>> robots_to_wire(p.robots)
[{'color': 'blue', 'cell': [2, 1]}]
>>> _, path = p.play(p.parse_move("BW"))
>>> path_from_wire(path_to_wire(path)) == path
True
"""

from __future__ import annotations

import functools
import json
import operator
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, Generic, TypeVar

import orjson

from ..board import (
    DIAGONAL_COLORS,
    ORIENTATIONS,
    ROBOT_COLORS,
    TARGET_COLORS,
    TARGET_SYMBOLS,
    Board,
    BoardError,
    Color,
    Diagonal,
    Target,
    masks_in_range,
)
from ..geometry import MAX_SIZE, MIN_SIZE, Cell, Direction
from ..position import Move, Path, Robot, Step, StepEvent
from .errors import NotationError

__all__ = [
    "board_from_wire",
    "board_to_wire",
    "cell_from_wire",
    "cell_to_wire",
    "move_from_wire",
    "move_to_wire",
    "path_from_wire",
    "path_to_wire",
    "robots_from_wire",
    "robots_to_wire",
    "to_wire",
    "wire_text",
]

_SIDES = {"N": Direction.N, "E": Direction.E, "S": Direction.S, "W": Direction.W}
_ANY_SIZE = MAX_SIZE  # cells read without a board are only checked against the largest board


# -- small validators -----------------------------------------------------------
def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _int(value: Any, field: str, lo: int | None = None, hi: int | None = None) -> int:
    if not _is_int(value):
        raise NotationError(f"must be an integer, got {json.dumps(value)}", field=field)
    if (lo is not None and value < lo) or (hi is not None and value > hi):
        rng = f"from {lo} to {hi}" if hi is not None else f"at least {lo}"
        raise NotationError(f"must be {rng}, got {value}", field=field)
    return int(value)


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
    if type(value) is list and len(value) == 2:  # the common case first: a file holds thousands
        x, y = value
        if type(x) is int and type(y) is int and 0 <= x < width and 0 <= y < height:
            return (x, y)
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
def board_from_wire(obj: Any) -> Board:
    """The board of an object with the keys ``width``, ``height``, ``walls`` and
    the optional ``blocked``, ``diagonals``, ``openings``, ``towers``,
    ``targets`` (other keys are ignored: a puzzle line holds a board)."""
    if not isinstance(obj, dict):
        raise NotationError(f"a puzzle or board must be a JSON object, got {type(obj).__name__}")
    seen = _board_key(obj)
    if seen is not None and (board := _READ.get(seen)) is not None:
        return board
    board = _board_checked(obj)
    if seen is not None:
        if len(_READ) >= READ_BOARDS:
            del _READ[next(iter(_READ))]  # the oldest
        _READ[seen] = board
    return board


READ_BOARDS = 512
"""Boards :func:`board_from_wire` remembers by their keys' JSON (a file's puzzles mostly share a few)."""
_READ: dict[bytes, Board] = {}
_BOARD_KEYS = ("width", "height", "walls", "blocked", "diagonals", "openings", "towers", "targets")


def _board_key(obj: dict[str, Any]) -> bytes | None:
    """The board keys of ``obj`` as JSON, for :data:`_READ`: equal only for the same keys holding
    the same values of the same types (``1``, ``1.0`` and ``true`` differ; a key absent and a key
    holding ``null`` differ), so a board read once is not checked again.  None where orjson
    cannot write them (an integer beyond 64 bits, a value that is not JSON's)."""
    try:
        return orjson.dumps({k: obj[k] for k in _BOARD_KEYS if k in obj})
    except (TypeError, orjson.JSONEncodeError):
        return None


def _board_checked(obj: dict[str, Any]) -> Board:
    """:func:`board_from_wire`'s reading, every field checked."""
    for key in ("width", "height", "walls"):
        if key not in obj:
            raise NotationError("missing (a board needs width, height and walls)", field=key)
    w = _int(obj["width"], "width", MIN_SIZE, MAX_SIZE)
    h = _int(obj["height"], "height", MIN_SIZE, MAX_SIZE)
    walls = _list(obj["walls"], "walls")
    if len(walls) != w * h:
        raise NotationError(f"must hold width*height = {w * h} masks, got {len(walls)}", field="walls")
    if masks_in_range(walls):
        masks = tuple(walls)  # the common case, at C speed (a board is 256 masks)
    else:
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
    targets: list[tuple[int, int, str, str]] = []  # (x, y, colour, symbol): Targets only for a new board
    for i, item in enumerate(_list(obj.get("targets", []), "targets")):
        if type(item) is dict:  # the common case first, checked inline: a board lists 17 targets
            x, y, color, symbol = item.get("x"), item.get("y"), item.get("color"), item.get("symbol")
            if (type(x) is int and type(y) is int and 0 <= x < w and 0 <= y < h and type(color) is str
                    and type(symbol) is str and color in TARGET_COLORS and symbol in TARGET_SYMBOLS):
                targets.append((x, y, color, symbol))
                continue
        f = f"targets[{i}]"
        item = _object(item, f, ("x", "y", "color", "symbol"))
        targets.append((*_cell_keys(item, f, w, h), _choice(item["color"], f + ".color", TARGET_COLORS),
                        _choice(item["symbol"], f + ".symbol", TARGET_SYMBOLS)))
    if len(set(openings)) != len(openings):
        raise NotationError("the same opening is listed twice", field="openings")
    try:
        return _board(w, h, masks, blocked, tuple(targets), tuple(diagonals), frozenset(openings), towers)
    except BoardError as e:
        raise _wrap(e, "walls") from None


@functools.lru_cache(maxsize=256)
def _board(w: int, h: int, masks: tuple[int, ...], blocked: frozenset[Cell],
           targets: tuple[tuple[int, int, str, str], ...], diagonals: tuple[Diagonal, ...],
           openings: frozenset[tuple[Cell, Direction]], towers: frozenset[Cell]) -> Board:
    """One (immutable) :class:`Board` per description: a file's puzzles mostly share a few
    boards, which are then checked once and share their solver tables by identity.  Keyed by
    plain tuples (hashed at C speed; a Target's hash is Python code).  (A description the board
    refuses raises each time: errors are not cached.)"""
    return Board(w, h, masks, blocked, tuple(Target((x, y), color, symbol) for x, y, color, symbol in targets),
                 diagonals, openings, towers)


def board_to_wire(board: Board) -> dict[str, Any]:
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


# -- cells, robots, moves, paths ------------------------------------------------------------
def cell_to_wire(cell: Cell) -> list[int]:
    return [cell[0], cell[1]]


def cell_from_wire(value: Any, field: str = "cell", width: int = _ANY_SIZE, height: int = _ANY_SIZE) -> Cell:
    """``[x, y]`` as a cell, checked against a ``width`` × ``height`` board."""
    return _xy(value, field, width, height)


def robots_to_wire(robots: Iterable[Robot]) -> list[dict[str, Any]]:
    return [{"color": _COLOR_NAMES.get(r.color, r.color), "cell": [r.cell[0], r.cell[1]]} for r in robots]


_COLOR_NAMES: dict[Any, str] = {c: c.value for c in Color}
"""A robot's colour as plain text (an enum's ``value`` is a property: slow, at every robot of every view)."""


def robots_from_wire(value: Any, field: str = "robots") -> tuple[Robot, ...]:
    out = []
    for i, item in enumerate(_list(value, field)):
        f = f"{field}[{i}]"
        if not isinstance(item, Mapping) or "color" not in item or "cell" not in item:
            raise NotationError(f"must be {{\"color\": ..., \"cell\": [x, y]}}, got {json.dumps(item)[:40]}", field=f)
        out.append(Robot(_choice(item["color"], f + ".color", ROBOT_COLORS), cell_from_wire(item["cell"], f + ".cell")))
    return tuple(out)


def move_to_wire(move: Move) -> dict[str, Any]:
    d: dict[str, Any] = {"robot": move.robot, "direction": move.direction.name}
    if move.stop is not None:
        d["stop"] = cell_to_wire(move.stop)
    return d


def move_from_wire(value: Any, field: str = "move") -> Move:
    if not isinstance(value, Mapping) or "robot" not in value or "direction" not in value:
        raise NotationError(f"must be {{\"robot\": index, \"direction\": \"N\"}}, got {json.dumps(value)[:40]}",
                            field=field)
    robot = _int(value["robot"], field + ".robot", 0, len(ROBOT_COLORS) - 1)
    direction = _SIDES[_choice(value["direction"], field + ".direction", tuple(_SIDES))]
    stop = value.get("stop")
    return Move(robot, direction, None if stop is None else cell_from_wire(stop, field + ".stop"))


_PATHS_KEPT = 8192
_path_wires: dict[int, tuple[Path, dict[str, Any]]] = {}


def path_to_wire(path: Path) -> dict[str, Any]:
    """The JSON form of a path.  Memoised by identity: a game's states share their path
    objects, and a view of a demonstration lists all its paths again at every move (the
    server's costliest encoding per move).  The cache keeps each path it holds alive, so an
    ``id`` in it is never another object's; it is emptied when full.  The answer is shared:
    do not change it."""
    hit = _path_wires.get(id(path))
    if hit is not None and hit[0] is path:
        return hit[1]
    if len(_path_wires) >= _PATHS_KEPT:
        _path_wires.clear()
    wire = _path_to_wire(path)
    _path_wires[id(path)] = (path, wire)
    return wire


def _path_to_wire(path: Path) -> dict[str, Any]:
    return {
        "robot": path.robot, "start": cell_to_wire(path.start), "direction": path.direction.name,
        "steps": [{"cell": cell_to_wire(s.cell), "heading": s.heading.name,
                   **({"event": s.event.value} if s.event is not None else {})} for s in path.steps],
        "cost": path.cost,
    }


def path_from_wire(value: Any, field: str = "path") -> Path:
    if not isinstance(value, Mapping):
        raise NotationError(f"must be an object, got {json.dumps(value)[:40]}", field=field)
    for key in ("robot", "start", "direction", "steps", "cost"):
        if key not in value:
            raise NotationError(f"missing key {key!r}", field=field)
    steps = []
    for i, s in enumerate(_list(value["steps"], field + ".steps")):
        f = f"{field}.steps[{i}]"
        if not isinstance(s, Mapping) or "cell" not in s or "heading" not in s:
            raise NotationError(f"must be {{\"cell\": [x, y], \"heading\": \"N\"}}, got {json.dumps(s)[:40]}",
                                field=f)
        event = s.get("event")
        steps.append(Step(cell_from_wire(s["cell"], f + ".cell"), _SIDES[_choice(s["heading"], f + ".heading",
                                                                                  tuple(_SIDES))],
                          None if event is None else StepEvent(_choice(event, f + ".event", tuple(StepEvent)))))
    return Path(_int(value["robot"], field + ".robot", 0, len(ROBOT_COLORS) - 1),
                cell_from_wire(value["start"], field + ".start"),
                _SIDES[_choice(value["direction"], field + ".direction", tuple(_SIDES))], tuple(steps),
                _int(value["cost"], field + ".cost", 1))


E = TypeVar("E")


class _GrowingMemo(Generic[E]):
    """Encodings of tuples of moves or paths, memoised by identity: a game's states share these
    tuples (immutable), so each is encoded once.  A demonstration's tuples grow by one move at a
    time (a new tuple each time, holding the same objects): one that extends a tuple encoded
    before gets ``extend(its encoding, the new item)``, not ``whole(tuple)`` again, and the
    shorter one is forgotten (asked again, it is encoded whole).  So the memo holds about one
    encoding per demonstration in play; it is emptied when it holds ``kept``."""

    def __init__(self, whole: Callable[[tuple[Any, ...]], E], extend: Callable[[E, Any], E], kept: int) -> None:
        self.whole, self.extend, self.kept = whole, extend, kept
        self.by_id: dict[int, tuple[tuple[Any, ...], E]] = {}
        self.by_ends: dict[tuple[int, int, int], tuple[tuple[Any, ...], E]] = {}
        """By (first item's id, last item's id, length): what a tuple one item longer extends."""

    def __call__(self, value: tuple[Any, ...]) -> E:
        hit = self.by_id.get(id(value))
        if hit is not None and hit[0] is value:
            return hit[1]
        if len(self.by_id) >= self.kept:
            self.by_id.clear()
            self.by_ends.clear()
        n = len(value)
        before = self.by_ends.pop((id(value[0]), id(value[-2]), n - 1), None) if n > 1 else None
        if before is not None and all(map(operator.is_, before[0], value)):
            encoded = self.extend(before[1], value[-1])
            if self.by_id.get(id(before[0]), (None,))[0] is before[0]:
                del self.by_id[id(before[0])]
        else:
            encoded = self.whole(value)
        self.by_id[id(value)] = (value, encoded)
        if n:
            self.by_ends[(id(value[0]), id(value[-1]), n)] = (value, encoded)
        return encoded


_moves_to_wire = _GrowingMemo[list[Any]](lambda value: [to_wire(v) for v in value],
                                         lambda wire, item: [*wire, to_wire(item)], _PATHS_KEPT)
_moves_to_text = _GrowingMemo[bytes](lambda value: orjson.dumps(to_wire(value)),
                                     lambda text, item: b"%b,%b]" % (text[:-1], orjson.dumps(to_wire(item))), 2048)


def wire_text(value: tuple[Move, ...] | tuple[Path, ...]) -> orjson.Fragment:
    """The JSON text of ``to_wire(value)`` for a tuple of moves or paths, pre-encoded for
    :mod:`orjson` (which writes a :class:`orjson.Fragment` as it is; :mod:`json` refuses it).

    For the server's broadcasts: every message of a demonstration carries its paths so far.
    Encoding their dicts again at each move cost more than anything else per move, mostly in
    cache misses (they were built moves ago, among other rooms' objects): the text is
    contiguous, and a tuple one item longer than one encoded before only encodes its last item
    (:class:`_GrowingMemo`)."""
    return orjson.Fragment(_moves_to_text(value))


_AS_IS = frozenset({int, float, str, bool, type(None), dict})
"""Types :func:`to_wire` hands back as they are, told by one set lookup: most of the values a
game's events and views encode are plain (a round's number, a player's id, a time)."""


def to_wire(value: Any) -> Any:
    """The JSON form of a move, path, robot, board or direction, and of lists
    and tuples of them (anything else is returned as it is).  Paths and tuples of moves
    or paths are memoised by identity (see :func:`path_to_wire`): the answer may be
    shared, do not change it."""
    kind = type(value)
    if kind in _AS_IS:
        return value
    if kind is Move:
        return move_to_wire(value)
    if kind is Path:
        return path_to_wire(value)
    if isinstance(value, Move):
        return move_to_wire(value)
    if isinstance(value, Path):
        return path_to_wire(value)
    if isinstance(value, Robot):
        return robots_to_wire([value])[0]
    if isinstance(value, Board):
        return board_to_wire(value)
    if isinstance(value, Direction):
        return value.name
    if isinstance(value, tuple) and value and isinstance(value[0], Move | Path):
        return _moves_to_wire(value)
    if isinstance(value, tuple | list):
        if value and all(type(v) is Robot for v in value):  # a position's robots: one pass
            return robots_to_wire(value)
        return [to_wire(v) for v in value]
    return value
