"""The immutable :class:`Board`: size, walls, blocked cells, targets, diagonals,
wall openings and towers.  It holds no robots; see :mod:`ricochet.position`.

Walls are per-cell bit masks (N=1, E=2, S=4, W=8) with both sides of every
wall set and the outer border closed; an *opening* is a gap in that border
which overrides the border bit (as in the interchange format).

>>> b = Board.build(4, 4, walls=[(1, 1, "E")])
>>> b.wall((1, 1), Direction.E), b.wall((2, 1), Direction.W)
(True, True)
"""

from __future__ import annotations

import enum
import functools
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from .errors import RicochetError
from .geometry import DIRECTIONS, MAX_SIZE, MIN_SIZE, Cell, Direction


class Color(enum.StrEnum):
    """A robot's colour.  A :class:`str` enum: ``Color.RED == "red"``, and it
    is written as ``"red"`` in JSON, so strings keep working wherever a colour
    is taken.

    >>> Color("blue"), Color.BLUE.letter, Color.parse("S")
    (Color.BLUE, 'B', Color.SILVER)
    """

    RED = "red"
    GREEN = "green"
    BLUE = "blue"
    YELLOW = "yellow"
    SILVER = "silver"
    TRANSPARENT = "transparent"

    def __repr__(self) -> str:
        return f"Color.{self.name}"

    @property
    def letter(self) -> str:
        """The colour's letter in move notation and diagrams: ``R G B Y S T``."""
        return self.name[0]

    @classmethod
    def parse(cls, text: str) -> Color:
        """A colour from its name or its letter (any case)."""
        key = text.strip().lower()
        for c in cls:
            if key in (c.value, c.letter.lower()):
                return c
        raise ValueError(f"unknown robot colour {text!r}: use one of {', '.join(cls)} or a letter R G B Y S T")


ROBOT_COLORS: tuple[Color, ...] = tuple(Color)
"""Every robot colour; the default colour of robot *i* in a file without colours is ``ROBOT_COLORS[i]``."""
DIAGONAL_COLORS: tuple[str, ...] = ("red", "green", "blue", "yellow")
TARGET_COLORS: tuple[str, ...] = ("red", "green", "blue", "yellow", "any")
TARGET_SYMBOLS: tuple[str, ...] = ("circle", "triangle", "square", "hexagon", "vortex")
ORIENTATIONS: tuple[str, ...] = ("/", "\\")

# Mirror tables with y pointing down (RULINGS.md 4).
_DEFLECT = {
    "/": {Direction.E: Direction.N, Direction.N: Direction.E, Direction.W: Direction.S, Direction.S: Direction.W},
    "\\": {Direction.E: Direction.S, Direction.S: Direction.E, Direction.W: Direction.N, Direction.N: Direction.W},
}


class BoardError(RicochetError):
    """A board description that cannot be a board; the message names the field."""

    default_code = "board"


@dataclass(frozen=True, order=True)
class Target:
    """A printed target: a colour (or ``any`` for the cosmic vortex) and a symbol."""

    cell: Cell
    color: str
    symbol: str

    @property
    def name(self) -> str:
        return "vortex" if self.symbol == "vortex" else f"{self.color} {self.symbol}"

    def __reduce__(self) -> tuple[Any, tuple[Cell, str, str]]:
        # Unpickled through a cache of equal targets: a board's 17 came back in 35 µs
        # as new objects (half of a whole puzzle's unpickling), one lookup each now.
        return _target, (self.cell, self.color, self.symbol)


@functools.cache
def _target(cell: Cell, color: str, symbol: str) -> Target:
    """The one unpickled :class:`Target` of its value (immutable, so shared; at most one per
    cell, colour and symbol)."""
    return Target(cell, color, symbol)


@dataclass(frozen=True, order=True)
class Diagonal:
    """A coloured diagonal wall across a whole cell; ``orientation`` is ``/`` or ``\\``."""

    cell: Cell
    color: str
    orientation: str

    def deflect(self, heading: Direction) -> Direction:
        """The heading of a robot leaving after it bounced off this diagonal."""
        return _DEFLECT[self.orientation][heading]


# Each mask's bits as bytes.translate tables: one bit of every cell in one C-speed pass.
_BIT_N, _BIT_E, _BIT_S, _BIT_W = (bytes((m >> k) & 1 for m in range(256)) for k in range(4))


def masks_in_range(walls: Sequence[Any]) -> bool:
    """Whether every mask is an ``int`` 0..15 (not a bool), checked at C speed
    (the common case; otherwise the caller looks for the first bad one to name
    it).  The interchange reader uses it too."""
    if not walls:
        return True
    try:
        cells = bytes(walls)  # ints 0..255 only (and bools, which the type count leaves out)
    except (TypeError, ValueError):
        return False
    return not cells.translate(None, _MASK_VALUES) and list(map(type, walls)).count(int) == len(walls)


_MASK_VALUES = bytes(range(16))


def _walls_consistent(cells: bytes, w: int, h: int) -> bool:
    """Whether the masks (ints 0..15) close the border and set both sides of
    every wall, without a loop in Python (a board read from a file or a message
    is checked in a few microseconds rather than milliseconds).  A pair across
    a row's end compares the row's E border with the next row's W border, both
    set when the borders are closed, so one comparison of shifted rows covers
    every E/W pair.  ``cells``: the masks as bytes."""
    north, east, south, west = (cells.translate(t) for t in (_BIT_N, _BIT_E, _BIT_S, _BIT_W))
    row, column = b"\x01" * w, b"\x01" * h
    return (north[:w] == row and south[-w:] == row and east[w - 1::w] == column and west[::w] == column
            and south[:-w] == north[w:] and east[:-1] == west[1:])


def _first_wall_error(walls: tuple[int, ...], w: int, h: int) -> str | None:
    """The first missing border or one-sided wall, in reading order, as a message."""
    for y in range(h):
        for x in range(w):
            mask = walls[y * w + x]
            for d in DIRECTIONS:
                nx, ny = x + d.dx, y + d.dy
                if not (0 <= nx < w and 0 <= ny < h):
                    if not mask & d:
                        return f"walls: cell {x},{y} lacks its {d.name} border wall"
                elif bool(mask & d) != bool(walls[ny * w + nx] & d.opposite):
                    return (f"walls: the wall {d.name} of cell {x},{y} is not also set "
                            f"{d.opposite.name} of cell {nx},{ny}")
    return None


@dataclass(frozen=True, repr=False)
class Board:
    """An immutable rectangular board (3×3 to 32×32).

    Construct with :meth:`build` (walls given once, both sides set for you) or
    directly with complete masks (validated: symmetric walls, closed border),
    or read one with :meth:`from_code`.  ``repr`` is that expression, ``str``
    the terminal diagram, and a notebook draws it (``_repr_svg_``):

    >>> board = Board.from_code("1A3B4A2A")
    >>> board
    Board.from_code('1A3B4A2A')
    >>> eval(repr(board)) == board
    True
    >>> print(Board.build(3, 3, walls=[(0, 0, "E")]))
        a   b   c
      ┌───┬───────┐
    1 │ · │ ·   · │
      │   ╵       │
    2 │ ·   ·   · │
      │           │
    3 │ ·   ·   · │
      └───────────┘
    3×3 board, 0 targets
    """

    width: int
    height: int
    walls: tuple[int, ...]
    blocked: frozenset[Cell] = frozenset()
    targets: tuple[Target, ...] = ()
    diagonals: tuple[Diagonal, ...] = ()
    openings: frozenset[tuple[Cell, Direction]] = frozenset()
    towers: frozenset[Cell] = frozenset()
    _diagonal_at: dict[Cell, Diagonal] = field(init=False, repr=False, compare=False, hash=False)
    _target_at: dict[Cell, Target] = field(init=False, repr=False, compare=False, hash=False)
    _wall_bytes: bytes = field(init=False, repr=False, compare=False, hash=False)

    def __post_init__(self) -> None:
        w, h = self.width, self.height
        for name, value in (("width", w), ("height", h)):
            if not isinstance(value, int) or not MIN_SIZE <= value <= MAX_SIZE:
                raise BoardError(f"{name} must be an integer from {MIN_SIZE} to {MAX_SIZE}, got {value!r}")
        object.__setattr__(self, "walls", tuple(self.walls))
        if len(self.walls) != w * h:
            raise BoardError(f"walls: expected {w * h} masks ({w}×{h}), got {len(self.walls)}")
        if not masks_in_range(self.walls):
            for i, mask in enumerate(self.walls):
                if not isinstance(mask, int) or not 0 <= mask <= 15:
                    raise BoardError(f"walls[{i}] (cell {i % w},{i // w}) must be an integer 0..15, got {mask!r}")
        cells = bytes(self.walls)
        if not _walls_consistent(cells, w, h):
            raise BoardError(_first_wall_error(self.walls, w, h) or "walls: not consistent")
        self._check_cells("blocked", self.blocked)
        self._check_cells("towers", self.towers)
        seen: dict[Cell, str] = {}
        for t in self.targets:
            self._check_cells("targets", [t.cell])
            if t.color not in TARGET_COLORS:
                raise BoardError(f"targets: colour {t.color!r} at {t.cell} is not one of {', '.join(TARGET_COLORS)}")
            if t.symbol not in TARGET_SYMBOLS:
                raise BoardError(f"targets: symbol {t.symbol!r} at {t.cell} is not one of {', '.join(TARGET_SYMBOLS)}")
            if t.cell in seen:
                raise BoardError(f"targets: two targets on cell {t.cell[0]},{t.cell[1]}")
            if t.cell in self.blocked:
                raise BoardError(f"targets: target at {t.cell[0]},{t.cell[1]} is on a blocked cell")
            seen[t.cell] = t.name
        diag: dict[Cell, Diagonal] = {}
        for dg in self.diagonals:
            self._check_cells("diagonals", [dg.cell])
            if dg.color not in DIAGONAL_COLORS:
                raise BoardError(f"diagonals: colour {dg.color!r} at {dg.cell} is not one of {', '.join(DIAGONAL_COLORS)}")
            if dg.orientation not in ORIENTATIONS:
                raise BoardError(f"diagonals: orientation {dg.orientation!r} at {dg.cell} must be / or \\")
            if dg.cell in diag or dg.cell in self.blocked or dg.cell in self.towers:
                raise BoardError(f"diagonals: cell {dg.cell[0]},{dg.cell[1]} already holds a diagonal, block or tower")
            diag[dg.cell] = dg
        for cell, side in self.openings:
            self._check_cells("openings", [cell])
            nx, ny = side.step(cell)
            if 0 <= nx < w and 0 <= ny < h:
                raise BoardError(f"openings: side {side.name} of cell {cell[0]},{cell[1]} is not on the outer wall")
            if cell in self.blocked:
                raise BoardError(f"openings: cell {cell[0]},{cell[1]} is blocked")
        if self.blocked & self.towers:
            raise BoardError("towers: a tower stands on a blocked cell")
        object.__setattr__(self, "_diagonal_at", diag)
        object.__setattr__(self, "_target_at", {t.cell: t for t in self.targets})
        object.__setattr__(self, "_wall_bytes", cells)
        object.__setattr__(self, "_hash", None)

    def __hash__(self) -> int:
        # Boards key the solver's table caches: hash the 256-cell wall tuple once.
        h: int | None = self.__dict__["_hash"]
        if h is None:
            h = hash((self.width, self.height, self.walls, self.blocked, self.targets, self.diagonals,
                      self.openings, self.towers))
            object.__setattr__(self, "_hash", h)
        return h

    def __getstate__(self) -> dict[str, object]:
        # String hashes differ between processes (spawned workers): never ship one.
        return {k: v for k, v in self.__dict__.items() if k != "_hash"}

    def __setstate__(self, state: dict[str, object]) -> None:
        for k, v in state.items():
            object.__setattr__(self, k, v)
        object.__setattr__(self, "_hash", None)
        if "_wall_bytes" not in state:  # (pickled before boards kept it)
            object.__setattr__(self, "_wall_bytes", bytes(self.walls))

    def _check_cells(self, what: str, cells: Iterable[Cell]) -> None:
        for c in cells:
            if not (isinstance(c, tuple) and len(c) == 2 and self.in_bounds(c)):
                raise BoardError(f"{what}: cell {c!r} is off the {self.width}×{self.height} board")

    # -- showing itself ----------------------------------------------------------------
    def __repr__(self) -> str:
        return f"Board.from_code({self.code()!r})"

    def __str__(self) -> str:
        from .terminal import render_terminal
        return render_terminal(self, color=False)

    def _repr_svg_(self) -> str:
        from .svg import svg
        return svg(self, size=400, coordinates=True)

    # -- notation ----------------------------------------------------------------------
    def code(self) -> str:
        """The board part of a position code: a tile arrangement such as
        ``1A3B4A2A`` when the board is exactly those tiles, else ``x`` and the
        compressed board (see :mod:`ricochet.notation.code`)."""
        from .notation.code import board_code
        return board_code(self)

    @classmethod
    def from_code(cls, code: str) -> Board:
        """The board of :meth:`code` (:class:`~ricochet.notation.NotationError` if it is not one)."""
        from .notation.code import parse_board_code
        return parse_board_code(code)

    # -- construction -----------------------------------------------------
    @classmethod
    def build(
        cls,
        width: int,
        height: int,
        walls: Iterable[tuple[int, int, str | Direction]] = (),
        *,
        blocked: Iterable[Cell] = (),
        targets: Iterable[Target] = (),
        diagonals: Iterable[Diagonal] = (),
        openings: Iterable[tuple[Cell, Direction | str]] = (),
        towers: Iterable[Cell] = (),
        wall_blocked: bool = True,
    ) -> Board:
        """Build a board from wall segments each listed once (on either cell).

        Both sides of every wall and the outer border are set.  With
        ``wall_blocked`` the outside of every blocked cell is walled too, as on
        the printed boards.
        """
        if not (isinstance(width, int) and isinstance(height, int)
                and MIN_SIZE <= width <= MAX_SIZE and MIN_SIZE <= height <= MAX_SIZE):
            raise BoardError(f"size must be from {MIN_SIZE}×{MIN_SIZE} to {MAX_SIZE}×{MAX_SIZE}, got {width!r}×{height!r}")
        masks = [0] * (width * height)
        blocked_set = frozenset(blocked)

        def put(x: int, y: int, d: Direction) -> None:
            if not (0 <= x < width and 0 <= y < height):
                raise BoardError(f"walls: cell {x},{y} is off the {width}×{height} board")
            masks[y * width + x] |= d
            nx, ny = x + d.dx, y + d.dy
            if 0 <= nx < width and 0 <= ny < height:
                masks[ny * width + nx] |= d.opposite

        for x, y, side in walls:
            put(x, y, side if isinstance(side, Direction) else Direction.parse(side))
        for y in range(height):
            for x in range(width):
                for d in DIRECTIONS:
                    nx, ny = x + d.dx, y + d.dy
                    if not (0 <= nx < width and 0 <= ny < height):
                        masks[y * width + x] |= d
        if wall_blocked:
            for (x, y) in blocked_set:
                for d in DIRECTIONS:
                    put(x, y, d)
        return cls(
            width, height, tuple(masks), blocked_set, tuple(sorted(targets)), tuple(sorted(diagonals)),
            frozenset((c, s if isinstance(s, Direction) else Direction.parse(s)) for c, s in openings),
            frozenset(towers),
        )

    def replace(self, **changes: object) -> Board:
        """A copy with some fields changed (validated again)."""
        fields = {"width": self.width, "height": self.height, "walls": self.walls, "blocked": self.blocked,
                  "targets": self.targets, "diagonals": self.diagonals, "openings": self.openings,
                  "towers": self.towers}
        fields.update(changes)
        return Board(**fields)  # type: ignore[arg-type]

    # -- queries --------------------------------------------------------------
    def in_bounds(self, cell: Cell) -> bool:
        return 0 <= cell[0] < self.width and 0 <= cell[1] < self.height

    @property
    def wall_bytes(self) -> bytes:
        """:attr:`walls` as bytes, a mask per cell (what the solver's tables start from)."""
        return self._wall_bytes

    def index(self, cell: Cell) -> int:
        """Row-major index ``y * width + x``."""
        return cell[1] * self.width + cell[0]

    def cell(self, index: int) -> Cell:
        return (index % self.width, index // self.width)

    def cells(self) -> Iterable[Cell]:
        """Every cell in row-major order."""
        return ((x, y) for y in range(self.height) for x in range(self.width))

    def wall(self, cell: Cell, side: Direction) -> bool:
        """True when that side of the cell is closed (border walls count, openings don't)."""
        if (cell, side) in self.openings:
            return False
        return bool(self.walls[cell[1] * self.width + cell[0]] & side)

    def is_opening(self, cell: Cell, side: Direction) -> bool:
        return (cell, side) in self.openings

    def wrap(self, cell: Cell, side: Direction) -> Cell:
        """The cell on the opposite edge where a robot leaving through an opening re-enters."""
        x, y = cell
        if side in (Direction.E, Direction.W):
            return (0 if side == Direction.E else self.width - 1, y)
        return (x, 0 if side == Direction.S else self.height - 1)

    def wall_passable(self, cell: Cell, side: Direction) -> bool:
        """True when a wall on this side may be passed by the transparent robot:
        an interior wall that is not a wall of a blocked cell (the centre block)."""
        if not self.wall(cell, side):
            return False
        nxt = side.step(cell)
        return self.in_bounds(nxt) and nxt not in self.blocked and cell not in self.blocked

    def diagonal_at(self, cell: Cell) -> Diagonal | None:
        return self._diagonal_at.get(cell)

    def target_at(self, cell: Cell) -> Target | None:
        return self._target_at.get(cell)

    def find_target(self, color: str, symbol: str) -> Target:
        """The printed target of that colour and symbol (``any``/``vortex`` for the vortex)."""
        for t in self.targets:
            if t.symbol == symbol and (t.color == color or symbol == "vortex"):
                return t
        raise KeyError(f"this board has no {color} {symbol} target")

    def wall_segments(self) -> list[tuple[int, int, Direction]]:
        """Every interior wall once (as the E or S side of a cell), border left out."""
        out = []
        for y in range(self.height):
            for x in range(self.width):
                m = self.walls[y * self.width + x]
                if m & Direction.E and x + 1 < self.width:
                    out.append((x, y, Direction.E))
                if m & Direction.S and y + 1 < self.height:
                    out.append((x, y, Direction.S))
        return out
