"""The real Ricochet Robots boards: the 16 quarter tiles ``1A``..``4D``, their
assembly into 16×16 boards, the 96 arrangements of a set, and recognising
which tiles make a board.

A tile name is the board piece (1..4) and the face (A..D); A/B are the two
faces of the first-edition pieces, C/D those of the second edition (D carries
the coloured diagonals).  The tile data (``data/ricochet-robots-tiles.json``)
gives each tile as it lies in the north-west quarter; the tile at position
*p* (NW=0, NE=1, SE=2, SW=3) is turned *p* quarter turns clockwise.

>>> board = assemble(*parse_arrangement("1A,3B,4A,2A"))
>>> len(board.targets), board.find_target("any", "vortex").cell
(17, (8, 10))
>>> identify(board)
('1A', '3B', '4A', '2A')
>>> len(arrangements("AB")), len(arrangements("any"))
(96, 1536)
"""

from __future__ import annotations

import functools
import itertools
import json
import re
from dataclasses import dataclass
from importlib import resources

from .board import Board, Diagonal, Target
from .errors import RicochetError
from .geometry import DIRECTIONS, Cell, Direction

__all__ = [
    "CENTRE",
    "CHIPS",
    "FACES",
    "PIECES",
    "SIZE",
    "TILE_NAMES",
    "Tile",
    "TileError",
    "arrangements",
    "assemble",
    "canonical",
    "format_arrangement",
    "has_all_chips",
    "identify",
    "parse_arrangement",
    "tile",
]

SIZE = 16
"""Side of an assembled board."""
PIECES: tuple[str, ...] = ("1", "2", "3", "4")
FACES: tuple[str, ...] = ("A", "B", "C", "D")
TILE_NAMES: tuple[str, ...] = tuple(p + f for p in PIECES for f in FACES)
"""The 16 tiles, ``1A 1B 1C 1D 2A … 4D``."""
CENTRE: frozenset[Cell] = frozenset({(7, 7), (8, 7), (7, 8), (8, 8)})
"""The blocked 2×2 centre of an assembled board."""
POSITIONS: tuple[str, ...] = ("NW", "NE", "SE", "SW")

CHIPS: tuple[tuple[str, str], ...] = tuple(
    (c, s) for c in ("red", "green", "blue", "yellow") for s in ("circle", "triangle", "square", "hexagon")
) + (("any", "vortex"),)
"""The 17 target chips as ``(colour, symbol)``; the last is the cosmic vortex."""

_FACE_SETS = {"AB": "AB", "CD": "CD", "ANY": "ABCD"}


class TileError(RicochetError):
    """A bad tile name or arrangement; the message says what and what is allowed."""

    default_code = "tile"


@dataclass(frozen=True)
class Tile:
    """One quarter tile as it lies in the north-west quarter (x, y in 0..7)."""

    name: str
    walls: tuple[tuple[int, int, Direction], ...]
    targets: tuple[Target, ...]
    diagonals: tuple[Diagonal, ...]

    @property
    def piece(self) -> str:
        return self.name[0]

    @property
    def face(self) -> str:
        return self.name[1]


@functools.cache
def _tiles() -> dict[str, Tile]:
    raw = json.loads(resources.files("ricochet").joinpath("data/ricochet-robots-tiles.json").read_text("utf-8"))
    out: dict[str, Tile] = {}
    for name, t in raw["tiles"].items():
        out[name] = Tile(
            name,
            tuple((w["x"], w["y"], Direction.parse(w["side"])) for w in t["walls"]),
            tuple(sorted(Target((g["x"], g["y"]), g["color"], g["symbol"]) for g in t["targets"])),
            tuple(sorted(Diagonal((g["x"], g["y"]), g["color"], g["orientation"]) for g in t["diagonals"])),
        )
    if tuple(sorted(out)) != TILE_NAMES:  # pragma: no cover - guards a broken data file
        raise TileError(f"tile data lists {sorted(out)}, expected {list(TILE_NAMES)}")
    return out


def _name(text: str) -> str:
    """Normalise one tile name (``"3b"`` → ``"3B"``) or raise :class:`TileError`."""
    key = text.strip().upper() if isinstance(text, str) else text
    if key not in TILE_NAMES:
        raise TileError(f"unknown tile {text!r}: tiles are 1A..4D")
    return key


def tile(name: str) -> Tile:
    """The data of one tile (as it lies in the north-west quarter).

    >>> tile("4a").targets[-1]
    Target(cell=(7, 5), color='any', symbol='vortex')
    """
    return _tiles()[_name(name)]


# -- rotation ---------------------------------------------------------------
def _rot_cell(cell: Cell, turns: int) -> Cell:
    """``turns`` quarter turns clockwise inside the 16×16 frame: (x, y) → (15−y, x)."""
    x, y = cell
    for _ in range(turns % 4):
        x, y = SIZE - 1 - y, x
    return (x, y)


def _rot_side(side: Direction, turns: int) -> Direction:
    return DIRECTIONS[(side.index + turns) % 4]


def _rot_orientation(orientation: str, turns: int) -> str:
    # A quarter turn maps a '/' line onto a '\' line and back.
    if turns % 2 == 0:
        return orientation
    return "\\" if orientation == "/" else "/"


@functools.cache
def _placed(name: str, position: int) -> tuple[tuple[tuple[int, int, Direction], ...], tuple[Target, ...],
                                              tuple[Diagonal, ...]]:
    """Walls, targets and diagonals of tile ``name`` turned into ``position``."""
    t = _tiles()[name]
    walls = tuple((*_rot_cell((x, y), position), _rot_side(side, position)) for x, y, side in t.walls)
    targets = tuple(Target(_rot_cell(g.cell, position), g.color, g.symbol) for g in t.targets)
    diagonals = tuple(Diagonal(_rot_cell(g.cell, position), g.color, _rot_orientation(g.orientation, position))
                      for g in t.diagonals)
    return walls, targets, diagonals


# -- arrangements -------------------------------------------------------------
_SPLIT = re.compile(r"[\s,;/|+-]+")


def parse_arrangement(text: str, *, distinct_pieces: bool = False) -> tuple[str, str, str, str]:
    """Parse four tile names in the order NW, NE, SE, SW.

    Accepts ``"1A,3B,4A,2A"``, ``"1a 3b 4a 2a"`` or ``"1A3B4A2A"``.  The same
    piece number twice is allowed (the expansion rules mix faces freely, see
    RULINGS 10) unless ``distinct_pieces`` is set.

    >>> parse_arrangement("1a 3b 4a 2a")
    ('1A', '3B', '4A', '2A')
    >>> parse_arrangement("1A,3B,4A")
    Traceback (most recent call last):
    ...
    ricochet.tiles.TileError: an arrangement needs 4 tiles (NW, NE, SE, SW), got 3: '1A,3B,4A'
    """
    if not isinstance(text, str):
        raise TileError(f"arrangement must be a string like '1A,3B,4A,2A', got {text!r}")
    stripped = text.strip()
    parts = [p for p in _SPLIT.split(stripped) if p]
    if len(parts) == 1 and len(parts[0]) > 2:
        # Compact form "1A3B4A2A": cut into pairs, but only when it is made of pairs.
        compact = parts[0]
        if len(compact) % 2 == 0:
            parts = [compact[i:i + 2] for i in range(0, len(compact), 2)]
        else:
            raise TileError(f"cannot read arrangement {text!r}: write four tiles like 1A,3B,4A,2A")
    names = [_name(p) for p in parts]
    if len(names) != 4:
        raise TileError(f"an arrangement needs 4 tiles (NW, NE, SE, SW), got {len(names)}: {text!r}")
    if distinct_pieces:
        _check_distinct(names)
    return (names[0], names[1], names[2], names[3])


def _check_distinct(names: list[str] | tuple[str, ...]) -> None:
    seen: dict[str, int] = {}
    for i, n in enumerate(names):
        if n[0] in seen:
            raise TileError(f"piece {n[0]} is used twice ({POSITIONS[seen[n[0]]]} {names[seen[n[0]]]} and "
                            f"{POSITIONS[i]} {n}): each of the 4 pieces goes on the board once")
        seen[n[0]] = i


def format_arrangement(names: tuple[str, ...] | list[str], sep: str = "") -> str:
    """The compact text of an arrangement, ``"1A3B4A2A"`` (or joined by ``sep``)."""
    return sep.join(_name(n) for n in names)


def has_all_chips(names: tuple[str, ...] | list[str]) -> bool:
    """True when these four tiles together print each of the 17 chips exactly once."""
    chips = sorted((g.color, g.symbol) for i, n in enumerate(names) for g in _placed(_name(n), i)[1])
    return chips == sorted(CHIPS)


def assemble(nw: str, ne: str, se: str, sw: str, *, require_all_targets: bool = False) -> Board:
    """The 16×16 board made of these four tiles (NW, NE, SE, SW).

    The tile at position *p* is turned *p* quarter turns clockwise; walls are
    set on both cells, the border is closed, the 2×2 centre is blocked.  With
    ``require_all_targets`` the board must hold each of the 17 chips exactly
    once (a :class:`TileError` otherwise).  Boards are cached, so assembling the
    same arrangement twice returns the same object.

    >>> b = assemble("1A", "3B", "4A", "2A")
    >>> b.find_target("red", "circle").cell
    (4, 1)
    >>> assemble("1A", "1B", "4A", "2A", require_all_targets=True)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ricochet.tiles.TileError: tiles 1A,1B,4A,2A do not hold all 17 targets: missing red triangle, ..., yellow square
    """
    names = (_name(nw), _name(ne), _name(se), _name(sw))
    if require_all_targets and not has_all_chips(names):
        present = {(g.color, g.symbol) for i, n in enumerate(names) for g in _placed(n, i)[1]}
        missing = [("vortex" if s == "vortex" else f"{c} {s}") for c, s in CHIPS if (c, s) not in present]
        raise TileError(f"tiles {','.join(names)} do not hold all 17 targets: missing {', '.join(missing)}")
    return _assemble(names)


@functools.lru_cache(maxsize=4096)
def _assemble(names: tuple[str, str, str, str]) -> Board:
    walls: list[tuple[int, int, Direction]] = []
    targets: list[Target] = []
    diagonals: list[Diagonal] = []
    for position, name in enumerate(names):
        w, t, d = _placed(name, position)
        walls.extend(w)
        targets.extend(t)
        diagonals.extend(d)
    return Board.build(SIZE, SIZE, walls, blocked=CENTRE, targets=targets, diagonals=diagonals)


def _face_letters(faces: str) -> str:
    key = faces.strip().upper() if isinstance(faces, str) else faces
    if key in _FACE_SETS:
        return _FACE_SETS[key]
    if isinstance(key, str) and key and set(key) <= set(FACES) and len(set(key)) == len(key):
        return "".join(sorted(key))
    raise TileError(f"faces must be 'AB', 'CD' or 'any' (or letters from A..D), got {faces!r}")


def canonical(names: tuple[str, ...] | list[str]) -> tuple[str, str, str, str]:
    """The representative of an arrangement's rotation class.

    Turning the whole board a quarter turn moves every tile one position on
    (NW→NE→SE→SW→NW) and the tiles turn with it, so the four rotations of an
    arrangement are its cyclic shifts.  The representative is the shift whose
    NW tile has the lowest piece number (ties, possible only with repeated
    pieces: the smallest tuple).

    >>> canonical(("3B", "4A", "2A", "1A"))
    ('1A', '3B', '4A', '2A')
    """
    n = tuple(_name(x) for x in names)
    if len(n) != 4:
        raise TileError(f"an arrangement needs 4 tiles (NW, NE, SE, SW), got {len(n)}")
    shifts = [n[k:] + n[:k] for k in range(4)]
    return min(shifts, key=lambda s: (s[0][0], s))  # type: ignore[return-value]


@functools.cache
def _arrangements(letters: str) -> tuple[tuple[str, str, str, str], ...]:
    out = []
    # Piece 1 in the NW corner picks exactly one member of each rotation class
    # (the four pieces are distinct, so no arrangement is its own rotation).
    for rest in itertools.permutations(PIECES[1:]):
        pieces = ("1",) + rest
        for faces in itertools.product(letters, repeat=4):
            out.append(tuple(p + f for p, f in zip(pieces, faces)))
    return tuple(sorted(out))  # type: ignore[arg-type]


def arrangements(faces: str = "AB") -> list[tuple[str, str, str, str]]:
    """The distinct boards of one set, one canonical arrangement (see
    :func:`canonical`) per rotation class: 4! placements × 2⁴ faces / 4
    rotations = 96 for ``"AB"`` or ``"CD"``; ``"any"`` (every face A..D for
    each piece, RULINGS 10) gives 1536.  Each piece is used once, so every
    board holds all 17 chips.

    >>> arrangements()[0]
    ('1A', '2A', '3A', '4A')
    """
    return list(_arrangements(_face_letters(faces)))


# -- recognising a board -----------------------------------------------------------
def _quadrant_cells(position: int) -> tuple[Cell, ...]:
    return tuple(_rot_cell((x, y), position) for y in range(8) for x in range(8))


def _seam_free_mask(board: Board, cell: Cell, position: int) -> int:
    """The wall mask of a cell without the sides that face another quadrant
    (a neighbouring tile may put walls there)."""
    mask = board.walls[board.index(cell)]
    for d in DIRECTIONS:
        nx, ny = d.step(cell)
        if 0 <= nx < SIZE and 0 <= ny < SIZE and _quadrant_of((nx, ny)) != position:
            mask &= ~d
    return mask


def _quadrant_of(cell: Cell) -> int:
    x, y = cell
    if y < 8:
        return 0 if x < 8 else 1
    return 3 if x < 8 else 2


def _key(board: Board, position: int) -> tuple[int, ...]:
    # The centre cell is left out: files differ in how they wall the centre block.
    return tuple(_seam_free_mask(board, c, position) for c in _quadrant_cells(position) if c not in CENTRE)


@functools.cache
def _index() -> tuple[dict[tuple[int, ...], tuple[str, ...]], ...]:
    """Per position, the tiles indexed by the walls they put in that quadrant."""
    tables: list[dict[tuple[int, ...], tuple[str, ...]]] = []
    for position in range(4):
        table: dict[tuple[int, ...], tuple[str, ...]] = {}
        for name in TILE_NAMES:
            alone = Board.build(SIZE, SIZE, _placed(name, position)[0], blocked=CENTRE)
            k = _key(alone, position)
            table[k] = table.get(k, ()) + (name,)
        tables.append(table)
    return tuple(tables)


def identify(board: Board, *, exact: bool = True) -> tuple[str, str, str, str] | None:
    """Which tiles (NW, NE, SE, SW) make this board, or None.

    With ``exact`` (the default) the board must be exactly what
    :func:`assemble` builds: walls, blocked centre, targets and diagonals, no
    openings or towers.  With ``exact=False`` only the walls outside the 2×2
    centre are compared, which recognises boards from files that carry no
    targets (e.g. the ASP 2015 instances).  Results are cached per board.

    >>> identify(assemble("2C", "1D", "3C", "4D"))
    ('2C', '1D', '3C', '4D')
    >>> identify(Board.build(16, 16)) is None
    True
    """
    if not isinstance(board, Board):
        raise TypeError(f"identify() needs a Board, got {type(board).__name__}")
    return _identify(board, exact)


@functools.lru_cache(maxsize=1024)
def _identify(board: Board, exact: bool) -> tuple[str, str, str, str] | None:
    if board.width != SIZE or board.height != SIZE:
        return None
    tables = _index()
    candidates = []
    for position in range(4):
        found = tables[position].get(_key(board, position))
        if not found:
            return None
        candidates.append(found)
    outside = [i for i, c in enumerate(board.cells()) if c not in CENTRE]
    for names in itertools.product(*candidates):
        built = _assemble(names)
        if exact:
            if (built.walls == board.walls and built.blocked == board.blocked
                    and set(built.targets) == set(board.targets) and set(built.diagonals) == set(board.diagonals)
                    and not board.openings and not board.towers):
                return names  # type: ignore[return-value]
        elif all(built.walls[i] == board.walls[i] for i in outside):
            return names  # type: ignore[return-value]
    return None
