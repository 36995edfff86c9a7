"""Random set-ups: tile arrangements, robot positions, whole random boards and
puzzles.  Every function takes a :class:`random.Random`, so a seed gives the
same result on every run and platform.

>>> import random
>>> rng = random.Random(7)
>>> pz = random_puzzle(rng)
>>> pz.id == random_puzzle(random.Random(7)).id
True
>>> random_puzzle_from_id(pz.id) == pz
True
"""

from __future__ import annotations

import random
import re
from collections.abc import Sequence

from .board import DIAGONAL_COLORS, Board, Diagonal, Target
from .geometry import DIRECTIONS, MAX_SIZE, MIN_SIZE, Cell, Direction
from .position import Position, Robot
from .puzzle import Puzzle
from .rules import PLAIN, Rules
from .tiles import CHIPS, arrangements, assemble, format_arrangement, identify, parse_arrangement

__all__ = [
    "BASE_COLORS",
    "puzzle_colors",
    "random_arrangement",
    "random_board",
    "random_position",
    "random_puzzle",
    "random_puzzle_from_id",
    "random_puzzles",
]

BASE_COLORS: tuple[str, ...] = ("red", "green", "blue", "yellow")


def random_arrangement(rng: random.Random, faces: str = "AB") -> tuple[str, str, str, str]:
    """A random board of the set: uniform over the distinct boards of
    :func:`ricochet.tiles.arrangements` (``"AB"``, ``"CD"`` or ``"any"``).
    Each piece is used once, so the board always holds all 17 targets.

    >>> random_arrangement(random.Random(1), "CD")[0][0]
    '1'
    """
    return rng.choice(arrangements(faces))


def _free_cells(board: Board) -> list[Cell]:
    """Cells a robot may be set on: not blocked, no tower, no target, no diagonal."""
    taken = set(board.blocked) | set(board.towers) | {t.cell for t in board.targets} | {
        d.cell for d in board.diagonals}
    return [c for c in board.cells() if c not in taken]


def random_position(board: Board, rng: random.Random,
                    colors: Sequence[str] = BASE_COLORS) -> Position:
    """Robots of ``colors`` (in that order) on distinct random cells that are
    not blocked and hold no target, tower or diagonal.

    >>> from ricochet.tiles import assemble
    >>> p = random_position(assemble("1A", "3B", "4A", "2A"), random.Random(3))
    >>> [r.color for r in p.robots]
    [Color.RED, Color.GREEN, Color.BLUE, Color.YELLOW]
    """
    free = _free_cells(board)
    if len(free) < len(colors):
        raise ValueError(f"colors: {len(colors)} robots do not fit on the {len(free)} free cells of this "
                         f"{board.width}×{board.height} board")
    cells = rng.sample(free, len(colors))
    return Position(board, tuple(Robot(c, cell) for c, cell in zip(colors, cells)))


# -- random boards ----------------------------------------------------------
_CORNERS: tuple[tuple[Direction, Direction], ...] = (
    (Direction.N, Direction.E), (Direction.E, Direction.S), (Direction.S, Direction.W), (Direction.W, Direction.N))


class _Walls:
    """Walls under construction with the rule that keeps boards playable:
    every free cell keeps at least two open sides (border, walls and the
    centre block counted)."""

    def __init__(self, width: int, height: int, blocked: frozenset[Cell]) -> None:
        self.w, self.h, self.blocked = width, height, blocked
        self.segments: set[tuple[int, int, Direction]] = set()

    def _norm(self, cell: Cell, side: Direction) -> tuple[int, int, Direction]:
        # One key per segment: the N and W sides are stored as the neighbour's S and E.
        if side in (Direction.N, Direction.W):
            cell, side = side.step(cell), side.opposite
        return (cell[0], cell[1], side)

    def closed(self, cell: Cell, side: Direction) -> bool:
        nx, ny = side.step(cell)
        if not (0 <= nx < self.w and 0 <= ny < self.h) or (nx, ny) in self.blocked:
            return True
        return self._norm(cell, side) in self.segments

    def closed_count(self, cell: Cell) -> int:
        return sum(self.closed(cell, d) for d in DIRECTIONS)

    def try_add(self, cell: Cell, sides: Sequence[Direction]) -> bool:
        """Add walls on these sides of ``cell`` if every touched cell keeps two open sides."""
        new = [s for s in sides if not self.closed(cell, s)]
        if not new:
            return False
        keys = [self._norm(cell, s) for s in new]
        self.segments.update(keys)
        touched = {cell} | {s.step(cell) for s in new}
        if all(self.closed_count(c) <= 2 for c in touched):
            return True
        self.segments.difference_update(keys)
        return False


def random_board(width: int, height: int, rng: random.Random, *, wall_density: float = 0.05,
                 centre_block: bool = True, targets: bool | int = True, diagonals: int = 0,
                 openings: int = 0) -> Board:
    """A random board of any size from 3×3 to 32×32.

    - ``centre_block``: when both sides are even (and at least 4), the middle
      2×2 cells are blocked and walled, as on the real board.
    - ``targets``: ``True`` places one target per 4 free cells, up to the 17
      chips; an int places exactly that many (0..17); ``False`` none.  Each
      target gets an L-shaped wall corner when one fits, like the printed
      boards, and the chips are distinct.
    - ``wall_density``: extra wall pieces (L corners and single segments,
      border stubs included) per free cell, 0..1.
    - ``diagonals``: that many coloured diagonals on cells without a target.
    - ``openings``: that many gaps in the outer wall.

    Guaranteed: the result is a valid :class:`Board`; every cell that is not
    blocked keeps at least two open sides (walls, border and block counted),
    so no cell is a three-sided pocket; targets are on distinct free cells,
    never under a diagonal; the same rng state gives the same board.  Not
    guaranteed: that every cell can be reached, or that a puzzle on it is
    solvable.

    >>> b = random_board(10, 10, random.Random(5), diagonals=3, openings=2)
    >>> (b.width, len(b.blocked), len(b.targets), len(b.diagonals), len(b.openings))
    (10, 4, 17, 3, 2)
    """
    for name, value in (("width", width), ("height", height)):
        if not isinstance(value, int) or isinstance(value, bool) or not MIN_SIZE <= value <= MAX_SIZE:
            raise ValueError(f"{name} must be an integer from {MIN_SIZE} to {MAX_SIZE}, got {value!r}")
    if not isinstance(wall_density, (int, float)) or not 0 <= wall_density <= 1:
        raise ValueError(f"wall_density must be a number from 0 to 1, got {wall_density!r}")
    for name, value in (("diagonals", diagonals), ("openings", openings)):
        if not isinstance(value, int) or isinstance(value, bool) or value < 0:
            raise ValueError(f"{name} must be a non-negative integer, got {value!r}")

    blocked: frozenset[Cell] = frozenset()
    if centre_block and width % 2 == 0 and height % 2 == 0 and min(width, height) >= 4:
        cx, cy = width // 2 - 1, height // 2 - 1
        blocked = frozenset({(cx, cy), (cx + 1, cy), (cx, cy + 1), (cx + 1, cy + 1)})
    cells = [(x, y) for y in range(height) for x in range(width) if (x, y) not in blocked]
    walls = _Walls(width, height, blocked)

    # Targets first, so that they get the corners.
    if targets is True:
        n_targets = min(len(CHIPS), len(cells) // 4)
    elif targets is False:
        n_targets = 0
    elif isinstance(targets, int) and 0 <= targets <= len(CHIPS):
        n_targets = targets
        if n_targets > len(cells) // 2:
            raise ValueError(f"targets: {targets} targets do not fit on a {width}×{height} board "
                             f"(at most {len(cells) // 2})")
    else:
        raise ValueError(f"targets must be true, false or a number from 0 to {len(CHIPS)}, got {targets!r}")
    placed: list[Target] = []
    used: set[Cell] = set()
    for color, symbol in rng.sample(CHIPS, n_targets):
        order = rng.sample(cells, len(cells))
        # Prefer a cell with no target next to it (8-neighbourhood) and a corner that fits.
        spot: Cell | None = None
        for cell in order:
            if cell in used or any((cell[0] + dx, cell[1] + dy) in used for dx in (-1, 0, 1) for dy in (-1, 0, 1)):
                continue
            if any(walls.try_add(cell, corner) for corner in rng.sample(_CORNERS, 4)):
                spot = cell
                break
        if spot is None:
            spot = next(c for c in order if c not in used)
        used.add(spot)
        placed.append(Target(spot, color, symbol))

    for _ in range(round(wall_density * len(cells))):
        for _attempt in range(20):
            cell = rng.choice(cells)
            shape: Sequence[Direction] = rng.choice(_CORNERS) if rng.random() < 0.6 else (rng.choice(DIRECTIONS),)
            if walls.try_add(cell, shape):
                break

    free = [c for c in cells if c not in used]
    if diagonals > len(free):
        raise ValueError(f"diagonals: {diagonals} do not fit on the {len(free)} cells without a target")
    diags = [Diagonal(c, rng.choice(DIAGONAL_COLORS), rng.choice("/\\")) for c in rng.sample(free, diagonals)]

    border = [((x, y), d) for (x, y) in cells for d in DIRECTIONS
              if not (0 <= x + d.dx < width and 0 <= y + d.dy < height)]
    if openings > len(border):
        raise ValueError(f"openings: {openings} do not fit on the {len(border)} border sides")
    gaps = rng.sample(border, openings)

    return Board.build(width, height, sorted(walls.segments), blocked=blocked, targets=placed,
                       diagonals=diags, openings=gaps)


# -- random puzzles ------------------------------------------------------------
def puzzle_colors(rules: Rules = PLAIN) -> tuple[str, ...]:
    """The robots of a random puzzle: red, green, blue, yellow, then silver
    and transparent when the rules put them in play."""
    return BASE_COLORS + (("silver",) if rules.silver else ()) + (("transparent",) if rules.transparent else ())


def _board_name(board: Board) -> str:
    names = identify(board)
    return format_arrangement(names) if names else f"{board.width}x{board.height}"


def _puzzle_from_number(board: Board, name: str, n: int, rules: Rules) -> Puzzle:
    """The puzzle numbered ``n`` on ``board``: everything is drawn from ``Random(n)``."""
    rng = random.Random(n)
    colors = puzzle_colors(rules)
    if board.targets:
        chip = rng.choice(sorted(board.targets))
        position = random_position(board, rng, colors)
        target = chip.cell
        active = None if chip.color not in colors else colors.index(chip.color)
    else:
        # A board without printed targets: any free cell, a random coloured robot.
        position = random_position(board, rng, colors)
        occupied = set(position.cells)
        target = rng.choice([c for c in _free_cells(board) if c not in occupied])
        active = rng.randrange(len(BASE_COLORS))
    return Puzzle(position, target, active, rules=rules, id=f"random-{name}-{n}")


def random_puzzle(rng: random.Random, rules: Rules = PLAIN, *, board: Board | None = None,
                  faces: str = "AB") -> Puzzle:
    """A random puzzle: a random arrangement (unless ``board`` is given), a
    drawn chip, robots red, green, blue, yellow (+ silver, + transparent as
    the rules say) on random free cells.  The target is the chip's cell; the
    active robot is the one of the chip's colour, or None (any robot) for the
    vortex.

    The id is ``random-<board>-<n>`` where ``<board>`` is the arrangement
    (``1A3B4A2A``) or ``<w>x<h>`` and ``n`` a number drawn from ``rng``; the
    puzzle is a function of board, ``n`` and rules, so
    :func:`random_puzzle_from_id` rebuilds it.
    """
    if board is None:
        board = assemble(*random_arrangement(rng, faces))
    return _puzzle_from_number(board, _board_name(board), rng.getrandbits(32), rules)


_ID = re.compile(r"^random-([1-4A-Da-d]{8}|\d+x\d+)-(\d+)$")


def random_puzzle_from_id(puzzle_id: str, rules: Rules = PLAIN, *, board: Board | None = None) -> Puzzle:
    """Rebuild the puzzle of :func:`random_puzzle` from its id (and the same
    rules).  Ids naming a size rather than tiles need the ``board``."""
    m = _ID.match(puzzle_id) if isinstance(puzzle_id, str) else None
    if m is None:
        raise ValueError(f"puzzle id {puzzle_id!r} is not of the form random-<tiles or WxH>-<number>")
    name, n = m.group(1), int(m.group(2))
    if board is None:
        if "x" in name:
            raise ValueError(f"puzzle id {puzzle_id!r} names a {name} board that is not made of tiles: "
                             "pass the board")
        board = assemble(*parse_arrangement(name))
    elif _board_name(board) != name.upper() and _board_name(board) != name:
        raise ValueError(f"puzzle id {puzzle_id!r} is for board {name}, not for this {_board_name(board)} board")
    return _puzzle_from_number(board, _board_name(board), n, rules)


def random_puzzles(seed: int, count: int, rules: Rules = PLAIN, faces: str = "AB") -> list[Puzzle]:
    """``count`` random puzzles from a fixed seed (the same list on every run).

    >>> [p.id for p in random_puzzles(2024, 2)] == [p.id for p in random_puzzles(2024, 2)]
    True
    """
    if not isinstance(count, int) or count < 0:
        raise ValueError(f"count must be a non-negative integer, got {count!r}")
    rng = random.Random(seed)
    return [random_puzzle(rng, rules, faces=faces) for _ in range(count)]

