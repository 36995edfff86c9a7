"""Micro Robots (seed 002): the 6×6 board of colour/number spaces, its moves and routes.

Every space has a colour (blue, yellow, green, red, pink, white) and a number
1–6, each pair exactly once, so a colour die and a number die name one space.
Seed 002: "The robot may move only horizontally or vertically … only to a space
that matches either the colour or the number of his starting space. This does
not necessarily have to be the closest matching space."

The board is four 3×3 sections.  "You can orient the sections in any way you
want": an :class:`Arrangement` says which section lies in each quarter and how
many quarter turns clockwise it is turned.  The shipped data
(``micro-robots.json``) is one arrangement of one side of the sections; the
other (copper) side is not known to us.

Spaces are ``(row, col)``, row 0 the top row (as in ``micro-robots.json``).

>>> board = MicroBoard.shipped()
>>> start = board.find("pink", 1)
>>> sorted(board.name(c) for c in board.moves(start))
['1 blue', '1 yellow', '6 pink']
>>> [board.name(c) for c in shortest_route(board, start, board.find("white", 2))]
['1 pink', '6 pink', '6 white', '6 red', '2 red', '2 white']
>>> len(route_of_length(board, start, board.find("white", 2), 7)) - 1
7
"""

from __future__ import annotations

import json
import random
import re
from collections import deque
from dataclasses import dataclass
from functools import cached_property
from importlib import resources

from ...errors import RicochetError

__all__ = [
    "COLORS",
    "SHIPPED",
    "Arrangement",
    "MicroBoard",
    "MicroError",
    "Space",
    "best_route",
    "exact_route",
    "reachable_exactly",
    "route_of_length",
    "shortest_route",
]

Cell = tuple[int, int]
COLORS = ("blue", "yellow", "green", "red", "pink", "white")
"""The six colours of the colour die."""
SIZE = 6
QUARTERS = ("NW", "NE", "SW", "SE")


class MicroError(RicochetError):
    """A Micro Robots board, arrangement or space that cannot be; the message says which and why."""

    default_code = "micro"


@dataclass(frozen=True, order=True)
class Space:
    """One space of the board: its colour and number."""

    color: str
    number: int

    @property
    def name(self) -> str:
        """As the seed says it: ``1 pink``."""
        return f"{self.number} {self.color}"

    def to_dict(self) -> dict[str, object]:
        return {"color": self.color, "number": self.number}


@dataclass(frozen=True)
class Arrangement:
    """Which section (0–3: the shipped NW, NE, SW, SE) lies in each quarter
    (NW, NE, SW, SE) and its quarter turns clockwise (0–3).  Written as a code:
    ``A0B0C0D0`` is the shipped board; ``C1A0D2B3`` puts section C turned once in
    the north-west, and so on.

    >>> Arrangement.parse("C1A0D2B3").code
    'C1A0D2B3'
    """

    sections: tuple[int, int, int, int] = (0, 1, 2, 3)
    turns: tuple[int, int, int, int] = (0, 0, 0, 0)

    def __post_init__(self) -> None:
        if sorted(self.sections) != [0, 1, 2, 3]:
            raise MicroError(f"an arrangement uses each of the four sections once, got {self.sections}")
        if len(self.turns) != 4 or any(t not in (0, 1, 2, 3) for t in self.turns):
            raise MicroError(f"each section is turned 0 to 3 quarter turns, got {self.turns}")

    @property
    def code(self) -> str:
        return "".join(f"{'ABCD'[s]}{t}" for s, t in zip(self.sections, self.turns, strict=True))

    @staticmethod
    def parse(text: str) -> Arrangement:
        """An arrangement from its code (``A0B0C0D0``: section letter and quarter turns, for NW, NE, SW, SE)."""
        code = text.strip().upper()
        if not re.fullmatch(r"([ABCD][0-3]){4}", code):
            raise MicroError(f"an arrangement is four sections with their turns, like A0B0C0D0 or C1A0D2B3 "
                             f"(NW, NE, SW, SE), got {text!r}")
        return Arrangement(tuple("ABCD".index(code[i]) for i in range(0, 8, 2)),  # type: ignore[arg-type]
                           tuple(int(code[i]) for i in range(1, 8, 2)))  # type: ignore[arg-type]

    @staticmethod
    def random(rng: random.Random) -> Arrangement:
        """Sections placed and turned at random ("in any way you want")."""
        sections = [0, 1, 2, 3]
        rng.shuffle(sections)
        return Arrangement(tuple(sections), tuple(rng.randrange(4) for _ in range(4)))  # type: ignore[arg-type]


def _load() -> tuple[tuple[Space, ...], ...]:
    text = resources.files("ricochet").joinpath("data/micro-robots.json").read_text(encoding="utf-8")
    rows = json.loads(text)["cells"]
    return tuple(tuple(Space(c["color"], int(c["number"])) for c in row) for row in rows)


@dataclass(frozen=True)
class MicroBoard:
    """A 6×6 board: ``cells[row][col]``, every colour/number pair once (checked)."""

    cells: tuple[tuple[Space, ...], ...]

    def __post_init__(self) -> None:
        if len(self.cells) != SIZE or any(len(row) != SIZE for row in self.cells):
            raise MicroError("a Micro Robots board has 6 rows of 6 spaces")
        seen = set()
        for r, row in enumerate(self.cells):
            for c, sp in enumerate(row):
                if sp.color not in COLORS or not 1 <= sp.number <= 6 or isinstance(sp.number, bool):
                    raise MicroError(f"space [{r}, {c}]: a colour of {', '.join(COLORS)} and a number 1 to 6, "
                                     f"got {sp.color!r} {sp.number!r}")
                if (sp.color, sp.number) in seen:
                    raise MicroError(f"space [{r}, {c}]: {sp.name} is on the board twice; each pair is there once")
                seen.add((sp.color, sp.number))

    # -- construction ------------------------------------------------------------------------
    @staticmethod
    def shipped() -> MicroBoard:
        """The board of ``micro-robots.json`` (arrangement ``A0B0C0D0``)."""
        return SHIPPED

    @staticmethod
    def arranged(arrangement: Arrangement, base: MicroBoard | None = None) -> MicroBoard:
        """The four sections of ``base`` (the shipped board) placed and turned as ``arrangement`` says."""
        base = base or SHIPPED
        sections = [tuple(tuple(base.cells[3 * (q // 2) + r][3 * (q % 2) + c] for c in range(3)) for r in range(3))
                    for q in range(4)]
        grid = [[base.cells[0][0]] * SIZE for _ in range(SIZE)]
        for q, (s, turns) in enumerate(zip(arrangement.sections, arrangement.turns, strict=True)):
            sec = sections[s]
            for _ in range(turns):  # a quarter turn clockwise: (r, c) -> (c, 2 - r)
                sec = tuple(tuple(sec[2 - c][r] for c in range(3)) for r in range(3))
            for r in range(3):
                for c in range(3):
                    grid[3 * (q // 2) + r][3 * (q % 2) + c] = sec[r][c]
        return MicroBoard(tuple(tuple(row) for row in grid))

    @staticmethod
    def from_json(rows: object) -> MicroBoard:
        """A board from ``cells`` in the format of ``micro-robots.json`` (a clear error otherwise)."""
        if not (isinstance(rows, list) and len(rows) == SIZE and all(isinstance(r, list) for r in rows)):
            raise MicroError("cells must be 6 rows of 6 spaces like {\"color\": \"pink\", \"number\": 1}")
        out = []
        for r, row in enumerate(rows):
            if len(row) != SIZE:
                raise MicroError(f"cells[{r}] must have 6 spaces, got {len(row)}")
            cells = []
            for c, sp in enumerate(row):
                if not (isinstance(sp, dict) and isinstance(sp.get("color"), str)
                        and isinstance(sp.get("number"), int)):
                    raise MicroError(f"cells[{r}][{c}] must be like {{\"color\": \"pink\", \"number\": 1}}, got {sp!r}")
                cells.append(Space(sp["color"], sp["number"]))
            out.append(tuple(cells))
        return MicroBoard(tuple(out))

    def to_json(self) -> list[list[dict[str, object]]]:
        return [[sp.to_dict() for sp in row] for row in self.cells]

    # -- queries --------------------------------------------------------------------------------
    def space(self, cell: Cell) -> Space:
        return self.cells[cell[0]][cell[1]]

    def name(self, cell: Cell) -> str:
        return self.space(cell).name

    @cached_property
    def _where(self) -> dict[tuple[str, int], Cell]:
        return {(sp.color, sp.number): (r, c) for r, row in enumerate(self.cells) for c, sp in enumerate(row)}

    def find(self, color: str, number: int) -> Cell:
        """The space of that colour and number (what the dice name)."""
        try:
            return self._where[(color, number)]
        except KeyError:
            raise MicroError(f"no space {number} {color}: colours {', '.join(COLORS)}, numbers 1 to 6") from None

    def check_cell(self, cell: object, what: str = "space") -> Cell:
        """A ``[row, col]`` checked to be on the board."""
        if not (isinstance(cell, list | tuple) and len(cell) == 2
                and all(isinstance(v, int) and not isinstance(v, bool) and 0 <= v < SIZE for v in cell)):
            raise MicroError(f"{what} must be [row, col] with both from 0 to 5, got {cell!r}")
        return (cell[0], cell[1])

    @cached_property
    def _moves(self) -> dict[Cell, tuple[Cell, ...]]:
        out = {}
        for r in range(SIZE):
            for c in range(SIZE):
                here = self.cells[r][c]
                line = [(r, k) for k in range(SIZE) if k != c] + [(k, c) for k in range(SIZE) if k != r]
                out[(r, c)] = tuple(sorted(x for x in line if self.space(x).color == here.color
                                           or self.space(x).number == here.number))
        return out

    def moves(self, cell: Cell) -> tuple[Cell, ...]:
        """Where the robot may go from ``cell`` in one move: any space of its row or
        column with the same colour or the same number (seed 002, rule 2)."""
        return self._moves[cell]

    def is_move(self, src: Cell, dst: Cell) -> bool:
        return dst in self._moves[src]


SHIPPED = MicroBoard(_load())


# -- routes ----------------------------------------------------------------------------------------
def shortest_route(board: MicroBoard, start: Cell, target: Cell) -> list[Cell] | None:
    """A shortest route from ``start`` to ``target`` (the spaces, both ends
    included; ``[start]`` when they are equal), by breadth-first search; ``None``
    when the target cannot be reached."""
    parent: dict[Cell, Cell | None] = {start: None}
    queue = deque([start])
    while queue:
        cell = queue.popleft()
        if cell == target:
            out = []
            at: Cell | None = cell
            while at is not None:
                out.append(at)
                at = parent[at]
            return out[::-1]
        for nxt in board.moves(cell):
            if nxt not in parent:
                parent[nxt] = cell
                queue.append(nxt)
    return None


def reachable_exactly(board: MicroBoard, start: Cell, n: int) -> list[frozenset[Cell]]:
    """For k = 0 … n, the spaces the robot can stand on after exactly k moves
    (revisiting allowed: seed 002 counts every move from one space to another)."""
    if isinstance(n, bool) or not isinstance(n, int) or n < 0:
        raise MicroError(f"a number of moves is a whole number of at least 0, got {n!r}")
    layers = [frozenset([start])]
    for _ in range(n):
        layers.append(frozenset(nxt for cell in layers[-1] for nxt in board.moves(cell)))
    return layers


def route_of_length(board: MicroBoard, start: Cell, target: Cell, n: int) -> list[Cell] | None:
    """A route of exactly ``n`` moves from ``start`` to ``target`` (``n + 1``
    spaces), or ``None`` when there is none.  Deterministic: at each step back
    from the target, the first space (in board order) that was reachable."""
    layers = reachable_exactly(board, start, n)
    if target not in layers[n]:
        return None
    route = [target]
    for k in range(n, 0, -1):
        # moves are symmetric (same row or column, same colour or number), so a
        # predecessor is a neighbour of the current space reachable one step earlier
        route.append(next(p for p in board.moves(route[-1]) if p in layers[k - 1]))
    return route[::-1]


def exact_route(board: MicroBoard, start: Cell, target: Cell, n: int, via: Cell | None = None) -> list[Cell] | None:
    """A route of exactly ``n`` moves from ``start`` to ``target`` (passing
    ``via`` on the way, when given), or ``None``."""
    if via is None:
        return route_of_length(board, start, target, n)
    for k in range(1, n):
        first = route_of_length(board, start, via, k)
        rest = route_of_length(board, via, target, n - k) if first else None
        if first and rest:
            return first + rest[1:]
    return None


def best_route(board: MicroBoard, start: Cell, target: Cell, via: Cell | None = None) -> list[Cell] | None:
    """A shortest route (through ``via`` when given: shortest to it, then on)."""
    if via is None:
        return shortest_route(board, start, target)
    a, b = shortest_route(board, start, via), shortest_route(board, via, target)
    return None if a is None or b is None else a + b[1:]
