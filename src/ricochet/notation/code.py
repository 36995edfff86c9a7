"""A compact, URL-safe position code that round-trips exactly.

>>> from ricochet import Board, Position, Robot, Puzzle
>>> pos = Position(Board.build(5, 5), (Robot("red", (0, 0)), Robot("green", (4, 2))))
>>> code = puzzle_code(Puzzle(pos, (3, 1), active=1))
>>> code.split(".")[1:]
['r00g42', 'g31']
>>> parse_code(code) == Puzzle(pos, (3, 1), active=1)
True

Grammar (sections separated by ``.``; every character is a URL path/query
character that needs no escaping)::

    code     := board "." robots ( "." section )*
    board    := tiles | "x" base64url
    tiles    := (piece face){4}          tiles NW NE SE SW, e.g. 1A3B4A2A (see ricochet.tiles)
    robots   := ( color x y )+           in robot order, e.g. r00gf0
    color    := r | g | b | y | s | t    red green blue yellow silver transparent
    x, y     := one base-32 digit 0-9a-v (boards are at most 32 wide)
    section  := target | goal | rules | last | turns
                                        each at most once, in this order; target and goal exclude each other
    target   := ( color | "*" ) x y      a puzzle: the active robot (``*``: any robot) and target cell
    goal     := "@" x y                  a position (not a puzzle) whose goal cell is set
    rules    := "!" flag+                the rules, when they are not plain: the switches that differ, in
                                         this order: m must-ricochet, n no-straight-back, D diagonals off,
                                         O openings off, s silver, t transparent, P goal tower blocks
                                         (``!mns``: the game preset)
    last     := "~" color dir            no-straight-back state: robot and heading of the last move
    turns    := "^" ( color dir turned )+   must-ricochet state: each robot that has moved, its heading
                                         and whether it has turned (0 or 1)
    dir      := N | E | S | W

A code with a ``target`` section reads as a :class:`~ricochet.Puzzle`, one
without as a :class:`~ricochet.Position`.  The board is a tile arrangement when
:func:`ricochet.tiles.identify` recognises it and assembling those tiles gives
exactly the same board; otherwise ``x`` and the unpadded base64url of a raw
DEFLATE stream of this byte layout (version 1)::

    1, width, height,
    interior walls: one bit per cell for E (x < width-1) then S (y < height-1),
        cells row-major, bits most-significant first, padded to a byte,
    blocked:   u16 count, then x, y per cell (sorted)
    towers:    u16 count, then x, y (sorted)
    openings:  u16 count, then x, y, side (0..3 = N E S W) (sorted)
    targets:   u16 count, then x, y, colour index, symbol index (board order)
    diagonals: u16 count, then x, y, colour index, orientation index (board order)

Not part of a code: a puzzle's ``optimal`` length and ``id``.
"""

from __future__ import annotations

import base64
import re
import struct
import zlib
from dataclasses import replace

from ..board import DIAGONAL_COLORS, ORIENTATIONS, TARGET_COLORS, TARGET_SYMBOLS, Board, BoardError, Diagonal, Target
from ..geometry import DIRECTIONS, Cell, Direction
from ..position import COLOR_OF_LETTER, LETTERS, Position, PositionError, Robot
from ..puzzle import Puzzle
from ..rules import PLAIN, Rules
from .errors import NotationError

__all__ = ["board_code", "parse_board_code", "parse_code", "position_code", "puzzle_code"]

_DIGITS = "0123456789abcdefghijklmnopqrstuv"
_VERSION = 1
_TILES = re.compile(r"^(?:[1-9][A-Z]){4}$")


# -- writing ------------------------------------------------------------------
def _xy(cell: Cell) -> str:
    return _DIGITS[cell[0]] + _DIGITS[cell[1]]


def _raw_board(board: Board) -> bytes:
    w, h = board.width, board.height
    out = bytearray([_VERSION, w, h])
    bits: list[int] = []
    for y in range(h):
        for x in range(w):
            m = board.walls[y * w + x]
            if x < w - 1:
                bits.append(1 if m & Direction.E else 0)
            if y < h - 1:
                bits.append(1 if m & Direction.S else 0)
    bits += [0] * (-len(bits) % 8)
    out += bytes(int("".join(map(str, bits[i:i + 8])), 2) for i in range(0, len(bits), 8))

    def items(rows: list[tuple[int, ...]]) -> None:
        out.extend(struct.pack(">H", len(rows)))
        for row in rows:
            out.extend(row)

    items(sorted(board.blocked))
    items(sorted(board.towers))
    items(sorted((c[0], c[1], d.index) for c, d in board.openings))
    items([(t.cell[0], t.cell[1], TARGET_COLORS.index(t.color), TARGET_SYMBOLS.index(t.symbol))
           for t in board.targets])
    items([(d.cell[0], d.cell[1], DIAGONAL_COLORS.index(d.color), ORIENTATIONS.index(d.orientation))
           for d in board.diagonals])
    return bytes(out)


def board_code(board: Board) -> str:
    """The board part of a code: a tile arrangement such as ``1A3B4A2A``
    when the board is exactly those tiles, else ``x`` + base64url data."""
    try:
        from .. import tiles
    except ImportError:  # pragma: no cover - tiles is optional for this module
        tiles = None  # type: ignore[assignment]
    if tiles is not None and board.width == board.height == 16:
        try:
            names = tiles.identify(board)
        except ValueError:  # recognition is only a shortcut; the raw form always works
            names = None
        if names is not None and tiles.assemble(*names) == board:
            return "".join(names)
    packer = zlib.compressobj(9, zlib.DEFLATED, -15)
    data = packer.compress(_raw_board(board)) + packer.flush()
    return "x" + base64.urlsafe_b64encode(data).decode("ascii").rstrip("=")


def _robots_part(position: Position) -> str:
    return "".join(r.letter.lower() + _xy(r.cell) for r in position.robots)


# The rules section: a letter per switch that differs from plain, in Rules' field order.
_RULE_FLAGS = (("must_ricochet", "m"), ("no_straight_back", "n"), ("diagonals", "D"), ("openings", "O"),
               ("silver", "s"), ("transparent", "t"), ("goal_tower_passthrough", "P"))


def rules_flags(rules: Rules) -> str:
    """The letters of the switches that differ from plain (``""`` for plain).

    >>> from ricochet.rules import GAME
    >>> rules_flags(GAME), rules_flags(PLAIN)
    ('mns', '')
    """
    return "".join(letter for name, letter in _RULE_FLAGS if getattr(rules, name) != getattr(PLAIN, name))


def _rules_of(flags: str) -> Rules:
    known = {letter: name for name, letter in _RULE_FLAGS}
    changes: dict[str, bool] = {}
    for ch in flags:
        if ch not in known:
            raise NotationError(f"rules: {ch!r} is not a rule letter; use {' '.join(known)} "
                                "(must-ricochet, no-straight-back, no diagonals, no openings, silver, transparent, "
                                "goal tower blocks)")
        if known[ch] in changes:
            raise NotationError(f"rules: {ch!r} given twice")
        changes[known[ch]] = not getattr(PLAIN, known[ch])
    if not changes:
        raise NotationError("rules: '!' needs at least one rule letter (plain rules have no section)")
    return PLAIN.with_options(**changes)


def _state_parts(position: Position) -> str:
    """The rules and their state: ``.!flags``, ``.~`` last move, ``.^`` must-ricochet state."""
    out = ""
    flags = rules_flags(position.rules)
    if flags:
        out += ".!" + flags
    if position.last_move is not None:
        idx, heading = position.last_move
        out += f".~{position.robots[idx].letter.lower()}{heading.name}"
    if position.headings:
        out += ".^" + "".join(f"{position.robots[i].letter.lower()}{h.name}{int(i in position.turned)}"
                              for i, h in enumerate(position.headings) if h is not None)
    return out


def position_code(position: Position) -> str:
    """The code of a position: board, robots, its goal (``@xy``) when set and
    the last move (``~`` robot heading) when recorded.

    >>> from ricochet import Board, Position, Robot
    >>> position_code(Position(Board.build(3, 3), (Robot("blue", (2, 1)),)))
    'xY2RmZkACAA.b21'
    """
    code = board_code(position.board) + "." + _robots_part(position)
    if position.goal is not None:
        code += ".@" + _xy(position.goal)
    return code + _state_parts(position)


def puzzle_code(puzzle: Puzzle) -> str:
    """The code of a puzzle: its position's code with the target section
    (active robot letter or ``*``, then the target cell).  ``optimal`` and
    ``id`` are not part of it."""
    pos = puzzle.position
    who = "*" if puzzle.active is None else pos.robots[puzzle.active].letter.lower()
    return board_code(pos.board) + "." + _robots_part(pos) + "." + who + _xy(puzzle.target) + _state_parts(pos)


# -- reading ------------------------------------------------------------------
class _Reader:
    """Reads the raw board bytes, failing with a clear message when short."""

    def __init__(self, data: bytes) -> None:
        self.data, self.at = data, 0

    def take(self, n: int) -> bytes:
        if self.at + n > len(self.data):
            raise NotationError("the board data is truncated", field="board")
        chunk = self.data[self.at:self.at + n]
        self.at += n
        return chunk

    def rows(self, width: int) -> list[bytes]:
        (count,) = struct.unpack(">H", self.take(2))
        return [self.take(width) for _ in range(count)]


def _pick(table: tuple[str, ...], index: int, what: str) -> str:
    if index >= len(table):
        raise NotationError(f"{what} index {index} is not 0..{len(table) - 1}", field="board")
    return table[index]


def _decode_raw(text: str) -> Board:
    try:
        data = base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
        raw = zlib.decompress(data, -15)
    except (ValueError, zlib.error) as e:
        raise NotationError(f"the board data after 'x' is not valid base64url DEFLATE data ({e})",
                            field="board") from None
    r = _Reader(raw)
    version, w, h = r.take(3)
    if version != _VERSION:
        raise NotationError(f"board data version {version} is not supported (only {_VERSION})", field="board")
    if not (3 <= w <= 32 and 3 <= h <= 32):
        raise NotationError(f"board size {w}×{h} is not from 3×3 to 32×32", field="board")
    nbits = (w - 1) * h + w * (h - 1)
    packed = r.take((nbits + 7) // 8)
    bits = [(packed[i // 8] >> (7 - i % 8)) & 1 for i in range(nbits)]
    masks = [0] * (w * h)
    k = 0
    for y in range(h):
        for x in range(w):
            for d in DIRECTIONS:
                if not (0 <= x + d.dx < w and 0 <= y + d.dy < h):
                    masks[y * w + x] |= d
            if x < w - 1:
                if bits[k]:
                    masks[y * w + x] |= Direction.E
                    masks[y * w + x + 1] |= Direction.W
                k += 1
            if y < h - 1:
                if bits[k]:
                    masks[y * w + x] |= Direction.S
                    masks[(y + 1) * w + x] |= Direction.N
                k += 1
    blocked = frozenset((row[0], row[1]) for row in r.rows(2))
    towers = frozenset((row[0], row[1]) for row in r.rows(2))
    openings = frozenset(((row[0], row[1]), DIRECTIONS[row[2]] if row[2] < 4 else _bad_side(row[2]))
                         for row in r.rows(3))
    targets = tuple(Target((row[0], row[1]), _pick(TARGET_COLORS, row[2], "target colour"),
                           _pick(TARGET_SYMBOLS, row[3], "target symbol")) for row in r.rows(4))
    diagonals = tuple(Diagonal((row[0], row[1]), _pick(DIAGONAL_COLORS, row[2], "diagonal colour"),
                               _pick(ORIENTATIONS, row[3], "diagonal orientation")) for row in r.rows(4))
    if r.at != len(raw):
        raise NotationError(f"{len(raw) - r.at} unexpected bytes after the board data", field="board")
    try:
        return Board(w, h, tuple(masks), blocked, targets, diagonals, openings, towers)
    except BoardError as e:
        raise NotationError(str(e), field="board") from None


def _bad_side(index: int) -> Direction:
    raise NotationError(f"opening side index {index} is not 0..3", field="board")


def parse_board_code(text: str) -> Board:
    """The board of a board part (tile arrangement or ``x`` data)."""
    if text.startswith("x"):
        return _decode_raw(text[1:])
    if _TILES.match(text):
        from .. import tiles
        names = [text[i:i + 2] for i in range(0, 8, 2)]
        for i, name in enumerate(names):
            if name not in tiles.TILE_NAMES:
                raise NotationError(f"{name!r} (tile {['NW', 'NE', 'SE', 'SW'][i]}) is not a tile name; "
                                    f"use one of {' '.join(tiles.TILE_NAMES)}", field="board", column=2 * i + 1)
        return tiles.assemble(*names)
    raise NotationError(f"{text[:20]!r} is neither a tile arrangement like 1A3B4A2A nor 'x' + board data",
                        field="board", column=1)


def _cell(text: str, at: int, board: Board, what: str) -> Cell:
    """Two base-32 digits starting at ``text[at]``, checked against the board."""
    if at + 2 > len(text) or any(ch not in _DIGITS for ch in text[at:at + 2]):
        raise NotationError(f"{what}: expected two base-32 digits (0-9, a-v) for x and y, "
                            f"got {text[at:at + 2]!r}")
    cell = (_DIGITS.index(text[at]), _DIGITS.index(text[at + 1]))
    if not board.in_bounds(cell):
        raise NotationError(f"{what}: cell {cell[0]},{cell[1]} is off the {board.width}×{board.height} board")
    return cell


def _color(letter: str, what: str) -> str:
    if letter.upper() not in COLOR_OF_LETTER or letter != letter.lower():
        raise NotationError(f"{what}: {letter!r} is not a robot letter; use one of "
                            f"{' '.join(v.lower() for v in LETTERS.values())}")
    return COLOR_OF_LETTER[letter.upper()]


def parse_code(code: str) -> Puzzle | Position:
    """Read a code written by :func:`position_code` or :func:`puzzle_code`:
    a :class:`Puzzle` when it has a target section, else a :class:`Position`.
    Errors name the section and the column (1-based) in the code."""
    if not isinstance(code, str):
        raise NotationError(f"a position code must be text, got {type(code).__name__}")
    code = code.strip()
    parts = code.split(".")
    if len(parts) < 2:
        raise NotationError("a position code needs at least a board and robots: board.robots (e.g. "
                            "1A3B4A2A.r00gf0)")
    starts = [0]
    for p in parts[:-1]:
        starts.append(starts[-1] + len(p) + 1)
    board = parse_board_code(parts[0])

    def located(e: NotationError, section: int, offset: int = 0) -> NotationError:
        return NotationError(e.detail, field=e.field, column=starts[section] + offset + 1)

    text = parts[1]
    robots = []
    if not text or len(text) % 3:
        raise NotationError(f"robots: expected colour letter + x + y per robot (e.g. r00gf0), got {text!r}",
                            column=starts[1] + 1)
    for k in range(0, len(text), 3):
        what = f"robots[{k // 3}]"
        try:
            robots.append(Robot(_color(text[k], what), _cell(text, k + 1, board, what)))
        except NotationError as e:
            raise located(e, 1, k) from None
    try:
        position = Position(board, tuple(robots))
    except PositionError as e:
        raise NotationError(str(e), column=starts[1] + 1) from None
    target: tuple[int | None, Cell, int] | None = None
    rules: Rules = PLAIN
    turns: list[tuple[int, Direction, bool]] = []
    seen: set[str] = set()
    order = ("target", "rules", "last", "turns")
    for s in range(2, len(parts)):
        text = parts[s]
        kind = {"@": "goal", "~": "last", "!": "rules", "^": "turns"}.get(text[:1], "target")
        if not text:
            raise NotationError("empty section between dots", column=starts[s] + 1)
        if kind in seen or (kind in ("goal", "target") and {"goal", "target"} & seen):
            raise NotationError(f"a second {kind} section; a code has at most one target or goal, one rules, "
                                "one last move and one turns section", column=starts[s] + 1)
        rank = order.index("target" if kind == "goal" else kind)
        if any(order.index("target" if k == "goal" else k) > rank for k in seen):
            raise NotationError(f"the {kind} section comes too late: sections go target (or goal), rules, "
                                "last move, turns", column=starts[s] + 1)
        seen.add(kind)
        try:
            if kind == "goal":
                if len(text) != 3:
                    raise NotationError(f"goal: expected '@' + x + y, got {text!r}")
                position = replace(position, goal=_cell(text, 1, board, "goal"))
            elif kind == "rules":
                rules = _rules_of(text[1:])
            elif kind == "last":
                if len(text) != 3 or text[2] not in "NESW":
                    raise NotationError(f"last move: expected '~' + robot letter + N, E, S or W, got {text!r}")
                color = _color(text[1], "last move")
                try:
                    idx = position.index_of(color)
                except KeyError:
                    raise NotationError(f"last move: there is no {color} robot") from None
                position = replace(position, last_move=(idx, Direction[text[2]]))
            elif kind == "turns":
                body = text[1:]
                if not body or len(body) % 3:
                    raise NotationError(f"turns: expected '^' + robot letter, N/E/S/W and 0/1 per robot that "
                                        f"has moved (e.g. ^rN1), got {text!r}")
                for k in range(0, len(body), 3):
                    color = _color(body[k], "turns")
                    if body[k + 1] not in "NESW" or body[k + 2] not in "01":
                        raise NotationError(f"turns: expected a heading N/E/S/W and 0 or 1 after {body[k]!r}, "
                                            f"got {body[k + 1:k + 3]!r}")
                    try:
                        idx = position.index_of(color)
                    except KeyError:
                        raise NotationError(f"turns: there is no {color} robot") from None
                    turns.append((idx, Direction[body[k + 1]], body[k + 2] == "1"))
            else:
                if len(text) != 3:
                    raise NotationError(f"target: expected robot letter (or *) + x + y, got {text!r}")
                active: int | None = None
                if text[0] != "*":
                    color = _color(text[0], "target")
                    try:
                        active = position.index_of(color)
                    except KeyError:
                        raise NotationError(f"target: there is no {color} robot to be the active robot") from None
                target = (active, _cell(text, 1, board, "target"), starts[s])
        except NotationError as e:
            raise located(e, s) from None
    if rules != PLAIN or turns:
        headings: list[Direction | None] = [None] * len(position.robots)
        for idx, heading, _ in turns:
            headings[idx] = heading
        try:
            position = replace(position, rules=rules, headings=tuple(headings),
                               turned=frozenset(idx for idx, _, t in turns if t))
        except PositionError as e:
            raise NotationError(str(e), column=starts[-1] + 1) from None
    if target is None:
        return position
    try:
        return Puzzle(position, target[1], active=target[0])
    except PositionError as e:
        raise NotationError(str(e), field="target", column=target[2] + 1) from None
