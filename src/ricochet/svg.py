"""SVG pictures of boards, positions and puzzles, as a pure function (like ``chess.svg``).

:func:`svg` returns a standalone SVG document as a string.  The output depends
only on its arguments (no clock, no randomness, stable element order), so it
can be cached, diffed and tested.  Every element carries a class (and robots
an id) so a page can restyle it with CSS: class rules override the inline
presentation attributes used here for standalone viewing.

Classes: ``board``, ``grid``, ``blocked``, ``goal``, ``target target-<color>
target-<symbol>``, ``diagonal diagonal-<color>``, ``tower``, ``wall``
(``wall border`` on the outer edge), ``opening``, ``chip``, ``path
path-<color>``, ``robot robot-<color>`` (id ``robot-<color>``), ``coord``.

>>> from ricochet.board import Board
>>> picture = svg(Board.build(4, 4, walls=[(1, 1, "E")]), size=128)
>>> picture.startswith("<svg") and 'class="wall"' in picture
True
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Mapping, Sequence
from xml.sax.saxutils import escape, quoteattr

from .board import Board, Target
from .geometry import DIRECTIONS, Cell, Direction
from .position import LETTERS, Path, Position, Robot
from .puzzle import Puzzle, unpack

__all__ = ["COLORS", "animate", "svg"]

CELL = 40
"""Side of one cell in viewBox units; ``size`` only scales the picture."""
MARGIN = 20
"""Room for the coordinates around the board, in viewBox units."""

COLORS: dict[str, str] = {
    "red": "#d62728",
    "green": "#2ca02c",
    "blue": "#1f5fd6",
    "yellow": "#f2c500",
    "silver": "#9aa0a6",
    "transparent": "#ffffff",
    "any": "#7b2cbf",
}
"""Fill colour of each robot / target / diagonal colour name."""

_DARK = {"red": "#8b1a1a", "green": "#1b5e20", "blue": "#0d3b8c", "yellow": "#8a6d00",
         "silver": "#5f6368", "transparent": "#444444", "any": "#4a148c"}
_TEXT_ON = {"yellow": "#000000", "silver": "#000000", "transparent": "#222222"}
_VORTEX = ("red", "green", "blue", "yellow")

_BOARD_FILL = "#f4f1e8"
_GRID = "#d8d2c0"
_WALL = "#2b2b2b"
_BLOCKED = "#55524a"


def _n(value: float) -> str:
    """A number for an attribute: integers bare, others with two decimals at most."""
    rounded = round(value, 2)
    if rounded == int(rounded):
        return str(int(rounded))
    return f"{rounded:.2f}".rstrip("0").rstrip(".")


def _attrs(**attrs: object) -> str:
    """XML attributes in the given order; ``class_`` → ``class``, ``_`` → ``-``, None left out."""
    out = []
    for key, value in attrs.items():
        if value is None:
            continue
        name = "class" if key == "class_" else key.rstrip("_").replace("_", "-")
        text = _n(value) if isinstance(value, float) else str(value)
        out.append(f" {name}={quoteattr(text)}")
    return "".join(out)


def _el(tag: str, **attrs: object) -> str:
    return f"<{tag}{_attrs(**attrs)}/>"


class _Frame:
    """Converts cells to viewBox coordinates."""

    def __init__(self, board: Board, coordinates: bool) -> None:
        self.board = board
        self.off = MARGIN if coordinates else 0
        self.width = board.width * CELL + 2 * self.off
        self.height = board.height * CELL + 2 * self.off

    def x(self, col: float) -> float:
        return self.off + col * CELL

    def y(self, row: float) -> float:
        return self.off + row * CELL

    def centre(self, cell: Cell) -> tuple[float, float]:
        return self.x(cell[0] + 0.5), self.y(cell[1] + 0.5)


# -- symbols ------------------------------------------------------------------

def _polygon(cx: float, cy: float, r: float, sides: int, rotation: float) -> str:
    pts = []
    for k in range(sides):
        a = rotation + 2 * math.pi * k / sides
        pts.append(f"{_n(cx + r * math.cos(a))},{_n(cy + r * math.sin(a))}")
    return " ".join(pts)


def _symbol(color: str, symbol: str, cx: float, cy: float, r: float) -> list[str]:
    """The shapes of a target symbol centred on (cx, cy) with radius about r."""
    fill, stroke = COLORS.get(color, COLORS["any"]), _DARK.get(color, _DARK["any"])
    common: dict[str, object] = {"fill": fill, "stroke": stroke, "stroke_width": 1.5}
    if symbol == "circle":
        return [_el("circle", cx=float(cx), cy=float(cy), r=float(r), **common)]
    if symbol == "triangle":
        # Apex up; the centroid sits a little low, so shift it up to look centred.
        return [_el("polygon", points=_polygon(cx, cy + r * 0.15, r * 1.1, 3, -math.pi / 2), **common)]
    if symbol == "square":
        s = r * 1.6
        return [_el("rect", x=float(cx - s / 2), y=float(cy - s / 2), width=float(s), height=float(s), **common)]
    if symbol == "hexagon":
        return [_el("polygon", points=_polygon(cx, cy, r * 1.05, 6, 0.0), **common)]
    # The cosmic vortex: four coloured quarter wedges, a swirl drawn over them.
    out = []
    for k, name in enumerate(_VORTEX):
        a0 = -math.pi / 2 + k * math.pi / 2
        a1 = a0 + math.pi / 2
        d = (f"M{_n(cx)},{_n(cy)} L{_n(cx + r * math.cos(a0))},{_n(cy + r * math.sin(a0))} "
             f"A{_n(r)},{_n(r)} 0 0 1 {_n(cx + r * math.cos(a1))},{_n(cy + r * math.sin(a1))} Z")
        out.append(_el("path", d=d, fill=COLORS[name], stroke=_DARK[name], stroke_width=1))
    swirl = (f"M{_n(cx)},{_n(cy)} q{_n(r * 0.5)},{_n(-r * 0.6)} {_n(r * 0.9)},{_n(-r * 0.1)} "
             f"M{_n(cx)},{_n(cy)} q{_n(-r * 0.5)},{_n(r * 0.6)} {_n(-r * 0.9)},{_n(r * 0.1)}")
    out.append(_el("path", d=swirl, fill="none", stroke="#ffffff", stroke_width=1.5, stroke_linecap="round"))
    return out


def _target_group(t: Target, frame: _Frame, scale: float = 0.3, class_: str = "target") -> list[str]:
    cx, cy = frame.centre(t.cell)
    head = (f"<g{_attrs(class_=f'{class_} {class_}-{t.color} {class_}-{t.symbol}', data_cell=f'{t.cell[0]},{t.cell[1]}')}>"
            f"<title>{escape(t.name)}</title>")
    return [head, *_symbol(t.color, t.symbol, cx, cy, CELL * scale), "</g>"]


# -- the picture ----------------------------------------------------------------

def _chip_of(obj: Board | Position | Puzzle, board: Board, chip: object) -> tuple[str, str] | None:
    """The chip to show in the centre: given, or the printed target under the puzzle's goal."""
    if isinstance(chip, Target):
        return chip.color, chip.symbol
    if isinstance(chip, tuple) and len(chip) == 2 and all(isinstance(v, str) for v in chip):
        return chip[0], chip[1]
    if chip is not None:
        raise ValueError(f"chip must be a Target or a (color, symbol) pair, got {chip!r}")
    if isinstance(obj, Puzzle):
        t = board.target_at(obj.target)
        if t is not None:
            return t.color, t.symbol
    return None


def _paths(path: Path | Sequence[Path] | None) -> list[Path]:
    if path is None:
        return []
    if isinstance(path, Path):
        return [path]
    return list(path)


def _path_color(p: Path, robots: Sequence[Robot]) -> str:
    return robots[p.robot].color if 0 <= p.robot < len(robots) else "any"


def _path_stroke(color: str) -> str:
    return _DARK[color] if color in ("transparent", "silver") else COLORS[color]


def _path_lines(p: Path, frame: _Frame) -> list[list[tuple[float, float]]]:
    """The polylines of one move: broken where the robot wraps through an opening,
    running out to the edge and back in from the opposite edge."""
    lines: list[list[tuple[float, float]]] = [[frame.centre(p.start)]]
    prev, heading = p.start, p.direction
    for step in p.steps:
        if step.event and "wrap" in step.event:
            px, py = frame.centre(prev)
            lines[-1].append((px + heading.dx * CELL * 0.5, py + heading.dy * CELL * 0.5))
            cx, cy = frame.centre(step.cell)
            lines.append([(cx - heading.dx * CELL * 0.5, cy - heading.dy * CELL * 0.5)])
        lines[-1].append(frame.centre(step.cell))
        prev, heading = step.cell, step.heading
    return lines


_TOWER_LIGHT = (0.45, 0.0, -0.3, 0.2)
"""A pyramid seen from above, lit from the north-west: how much lighter (+, towards
white) or darker (-, towards black) its N, E, S and W faces are than its colour."""
_TOWER_STONE = "#b9a77a"
_TOWER_EDGE = "#6d5f3a"


def _shade(color: str, amount: float) -> str:
    """``#rrggbb`` mixed with white (``amount`` > 0) or black (< 0)."""
    rgb = [int(color[i:i + 2], 16) for i in (1, 3, 5)]
    mixed = [c + (255 - c) * amount if amount > 0 else c * (1 + amount) for c in rgb]
    return "#" + "".join(f"{round(c):02x}" for c in mixed)


def _pyramid(cx: float, cy: float, r: float, color: str) -> list[str]:
    """The four shaded faces of a square pyramid of half-width ``r`` seen from above."""
    nw, ne, se, sw = (cx - r, cy - r), (cx + r, cy - r), (cx + r, cy + r), (cx - r, cy + r)
    faces = ((nw, ne), (ne, se), (se, sw), (sw, nw))
    return [_el("path", d=f"M{_n(a[0])},{_n(a[1])} L{_n(b[0])},{_n(b[1])} L{_n(cx)},{_n(cy)} Z",
                fill=_shade(color, light), stroke=_TOWER_EDGE, stroke_width=1, stroke_linejoin="round")
            for (a, b), light in zip(faces, _TOWER_LIGHT, strict=True)]


def _tower(cell: Cell, frame: _Frame, goal: str | None, colors: tuple[str, str] | None) -> str:
    """A Ricochet Pyramids tower: a square pyramid seen from above; with ``colors``
    (top, bottom) a medium pyramid of the top colour on a large one of the bottom
    colour.  The goal tower (``goal``: the colour of the robot that must reach it)
    gets a thick ring in that colour."""
    cx, cy = frame.centre(cell)
    r = CELL * 0.4
    if colors is None:
        parts = _pyramid(cx, cy, r, _TOWER_STONE)
    else:
        top, bottom = (COLORS.get(c, _TOWER_STONE) for c in colors)
        parts = _pyramid(cx, cy, r, bottom) + _pyramid(cx, cy, r * 0.6, top)
    if goal is not None:
        parts.append(_el("rect", class_="tower-ring", x=float(cx - r - 3), y=float(cy - r - 3), width=float(2 * r + 6),
                         height=float(2 * r + 6), fill="none", stroke=_DARK[goal], stroke_width=4))
    label = {} if colors is None else {"data_top": colors[0], "data_bottom": colors[1]}
    return (f"<g{_attrs(class_='tower tower-goal' if goal is not None else 'tower', data_cell=f'{cell[0]},{cell[1]}', **label)}>"
            + "".join(parts) + "</g>")


def svg(obj: Board | Position | Puzzle, *, size: int = 512, path: Path | Sequence[Path] | None = None,
        coordinates: bool = False, chip: Target | tuple[str, str] | None = None,
        tower_colors: Mapping[Cell, tuple[str, str]] | None = None) -> str:
    """A standalone SVG picture of a board, position or puzzle.

    ``size`` is the width in pixels of the longer side.  ``path`` is a move
    path (or a list of them, e.g. a whole solution from
    :meth:`Position.replay`) drawn as arrows in the moving robot's colour.
    ``coordinates`` adds column letters (or numbers on boards wider than 26)
    and row numbers.  ``chip`` is the target chip shown on the centre block;
    by default the printed target under a puzzle's goal, if any.
    ``tower_colors``: the (top, bottom) colours of Ricochet Pyramids towers by
    cell (boards know only where towers stand); without, towers are stone.
    """
    return _picture(obj, size=size, path=path, coordinates=coordinates, chip=chip, tower_colors=tower_colors)


def animate(obj: Position | Puzzle, paths: Sequence[Path], *, size: int = 512, coordinates: bool = True,
            seconds_per_move: float = 0.8, pause: float = 1.5) -> str:
    """An SVG picture whose robots play ``paths`` (a solution's, from the
    position of ``obj``) over and over, with SVG's own animation (SMIL: no
    script, so it plays in a notebook, a browser or an ``<img>``).  The paths
    are drawn as in :func:`svg`.

    >>> from ricochet import Puzzle
    >>> from ricochet.puzzle import check_solution
    >>> pz = Puzzle.from_code("1A3B4A2A.r00gf0b0fyff.r85")
    >>> picture = animate(pz, check_solution(pz, pz.position.parse_solution("RS RE")).paths)
    >>> picture.count("<animateTransform")
    1
    """
    if not (isinstance(seconds_per_move, int | float) and seconds_per_move > 0 and pause >= 0):
        raise ValueError("seconds_per_move must be positive and pause at least 0")
    board = obj.position.board if isinstance(obj, Puzzle) else obj.board
    frame = _Frame(board, coordinates)
    total = seconds_per_move * len(paths) + pause
    # Per robot: (time, dx, dy) keyframes, offsets from its start cell's centre.
    frames: dict[int, list[tuple[float, float, float]]] = {}
    for k, p in enumerate(paths):
        keys = frames.setdefault(p.robot, [(0.0, 0.0, 0.0)])
        x0, y0 = frame.centre(_start_of(obj, p.robot))
        t0, t1 = k * seconds_per_move, (k + 1) * seconds_per_move
        keys.append((t0, keys[-1][1], keys[-1][2]))
        lines = _path_lines(p, frame)
        length = sum(math.dist(a, b) for pts in lines for a, b in itertools.pairwise(pts)) or 1.0
        done = 0.0
        for pts in lines:
            for j, (px, py) in enumerate(pts):
                if j:
                    done += math.dist(pts[j - 1], (px, py))
                keys.append((t0 + (t1 - t0) * done / length, px - x0, py - y0))
    extra: dict[int, str] = {}
    for robot, keys in frames.items():
        keys.append((total, keys[-1][1], keys[-1][2]))
        extra[robot] = "<animateTransform" + _attrs(
            attributeName="transform", type="translate", calcMode="linear", dur=f"{_n(total)}s",
            repeatCount="indefinite", keyTimes=";".join(f"{t / total:.4f}".rstrip("0").rstrip(".") or "0" for t, _, _ in keys),
            values=";".join(f"{_n(dx)},{_n(dy)}" for _, dx, dy in keys)) + "/>"
    return _picture(obj, size=size, path=paths, coordinates=coordinates, robot_extra=extra)


def _start_of(obj: Position | Puzzle, robot: int) -> Cell:
    pos = obj.position if isinstance(obj, Puzzle) else obj
    return pos.robots[robot].cell


def _picture(obj: Board | Position | Puzzle, *, size: int = 512, path: Path | Sequence[Path] | None = None,
             coordinates: bool = False, chip: Target | tuple[str, str] | None = None,
             tower_colors: Mapping[Cell, tuple[str, str]] | None = None,
             robot_extra: Mapping[int, str] | None = None) -> str:
    """Draws for :func:`svg` and :func:`animate` (the arguments as :func:`svg`
    says; ``robot_extra``: markup added inside robot *i*'s group)."""
    board, position, goal = unpack(obj, "svg")
    assert isinstance(board, Board)
    if not isinstance(size, int) or size <= 0:
        raise ValueError(f"size must be a positive integer, got {size!r}")
    frame = _Frame(board, coordinates)
    w, h = board.width, board.height
    scale = size / max(frame.width, frame.height)
    out: list[str] = [
        f"<svg{_attrs(xmlns='http://www.w3.org/2000/svg', class_='ricochet-board', viewBox=f'0 0 {frame.width} {frame.height}', width=float(frame.width * scale), height=float(frame.height * scale))}>",
    ]
    robots = position.robots if position is not None else ()
    moves = _paths(path)
    colors = sorted({_path_color(p, robots) for p in moves})
    if colors:
        # One arrow head per colour: context-stroke (SVG 2) is not supported everywhere.
        out.append("<defs>" + "".join(
            f"<marker{_attrs(id=f'ricochet-arrow-{c}', viewBox='0 0 10 10', refX=5, refY=5, markerWidth=3, markerHeight=3, orient='auto')}>"
            + _el("path", d="M0,0 L10,5 L0,10 z", fill=_path_stroke(c)) + "</marker>" for c in colors) + "</defs>")
    if isinstance(obj, Puzzle) and obj.id is not None:
        out.append(f"<title>{escape(obj.id)}</title>")

    # Board and thin cell grid.
    out.append(_el("rect", class_="board", x=frame.off, y=frame.off, width=w * CELL, height=h * CELL, fill=_BOARD_FILL))
    grid = [f"M{_n(frame.x(i))},{_n(frame.y(0))} V{_n(frame.y(h))}" for i in range(1, w)]
    grid += [f"M{_n(frame.x(0))},{_n(frame.y(j))} H{_n(frame.x(w))}" for j in range(1, h)]
    out.append(_el("path", class_="grid", d=" ".join(grid), stroke=_GRID, stroke_width=1, fill="none"))

    for cell in sorted(board.blocked, key=lambda c: (c[1], c[0])):
        out.append(_el("rect", class_="blocked", data_cell=f"{cell[0]},{cell[1]}", x=frame.x(cell[0]),
                       y=frame.y(cell[1]), width=CELL, height=CELL, fill=_BLOCKED))

    # The goal cell, tinted in the colour of the robot that must reach it.
    if goal is not None:
        color = "any"
        if isinstance(obj, Puzzle) and obj.active is not None:
            color = obj.position.robots[obj.active].color
        out.append(_el("rect", class_=f"goal goal-{color}", data_cell=f"{goal[0]},{goal[1]}",
                       x=float(frame.x(goal[0]) + 2), y=float(frame.y(goal[1]) + 2), width=CELL - 4, height=CELL - 4,
                       fill=COLORS[color], fill_opacity=0.3, stroke=_DARK[color], stroke_width=3))

    for t in board.targets:
        out.extend(_target_group(t, frame))

    for dg in board.diagonals:
        x0, y0, x1, y1 = frame.x(dg.cell[0]), frame.y(dg.cell[1]), frame.x(dg.cell[0] + 1), frame.y(dg.cell[1] + 1)
        # y points down: "/" runs from the south-west corner (x0, y1) to the north-east corner (x1, y0).
        ends = (x0, y1, x1, y0) if dg.orientation == "/" else (x0, y0, x1, y1)
        out.append(_el("line", class_=f"diagonal diagonal-{dg.color}", data_cell=f"{dg.cell[0]},{dg.cell[1]}",
                       data_orientation=dg.orientation, x1=ends[0], y1=ends[1], x2=ends[2], y2=ends[3],
                       stroke=COLORS[dg.color], stroke_width=5, stroke_linecap="round"))

    goal_tint = "any"
    if isinstance(obj, Puzzle) and obj.active is not None:
        goal_tint = obj.position.robots[obj.active].color
    for cell in sorted(board.towers, key=lambda c: (c[1], c[0])):
        out.append(_tower(cell, frame, goal_tint if cell == goal else None, (tower_colors or {}).get(cell)))

    # Walls: each interior segment once, then the border cell by cell so openings leave gaps.
    out.append("<g class=\"walls\">")
    for x, y, d in board.wall_segments():
        if d == Direction.E:
            seg = (frame.x(x + 1), frame.y(y), frame.x(x + 1), frame.y(y + 1))
        else:
            seg = (frame.x(x), frame.y(y + 1), frame.x(x + 1), frame.y(y + 1))
        out.append(_el("line", class_="wall", x1=seg[0], y1=seg[1], x2=seg[2], y2=seg[3],
                       stroke=_WALL, stroke_width=5, stroke_linecap="square"))
    openings: list[tuple[Cell, Direction, tuple[float, float, float, float]]] = []
    for cell in board.cells():
        x, y = cell
        for d in DIRECTIONS:
            if board.in_bounds(d.step(cell)):
                continue
            seg = {
                Direction.N: (frame.x(x), frame.y(y), frame.x(x + 1), frame.y(y)),
                Direction.S: (frame.x(x), frame.y(y + 1), frame.x(x + 1), frame.y(y + 1)),
                Direction.W: (frame.x(x), frame.y(y), frame.x(x), frame.y(y + 1)),
                Direction.E: (frame.x(x + 1), frame.y(y), frame.x(x + 1), frame.y(y + 1)),
            }[d]
            if board.is_opening(cell, d):
                openings.append((cell, d, seg))
                continue
            out.append(_el("line", class_="wall border", x1=seg[0], y1=seg[1], x2=seg[2], y2=seg[3],
                           stroke=_WALL, stroke_width=6, stroke_linecap="square"))
    out.append("</g>")
    for cell, d, seg in openings:
        # A gap in the border, marked by a dashed line and a small outward chevron.
        mx, my = (seg[0] + seg[2]) / 2, (seg[1] + seg[3]) / 2
        px, py = -d.dy, d.dx  # along the edge
        tip = (mx + d.dx * 6, my + d.dy * 6)
        chevron = (f"M{_n(mx + px * 6)},{_n(my + py * 6)} L{_n(tip[0])},{_n(tip[1])} "
                   f"L{_n(mx - px * 6)},{_n(my - py * 6)}")
        out.append(f"<g{_attrs(class_='opening', data_cell=f'{cell[0]},{cell[1]}', data_side=d.name)}>"
                   + _el("line", x1=seg[0], y1=seg[1], x2=seg[2], y2=seg[3], stroke=_WALL, stroke_width=2,
                         stroke_dasharray="4 4")
                   + _el("path", d=chevron, fill="none", stroke="#c2185b", stroke_width=2.5) + "</g>")

    # The target chip on the centre block.
    shown = _chip_of(obj, board, chip)
    if shown is not None and board.blocked:
        xs = [c[0] for c in board.blocked]
        ys = [c[1] for c in board.blocked]
        cx, cy = frame.x((min(xs) + max(xs) + 1) / 2), frame.y((min(ys) + max(ys) + 1) / 2)
        r = CELL * 0.55 * min(max(xs) - min(xs) + 1, max(ys) - min(ys) + 1) / 2 + CELL * 0.15
        out.append(f"<g{_attrs(class_=f'chip chip-{shown[0]} chip-{shown[1]}')}>"
                   + f"<title>{escape('vortex' if shown[1] == 'vortex' else ' '.join(shown))}</title>"
                   + _el("circle", cx=float(cx), cy=float(cy), r=float(r), fill="#fffdf5", stroke="#333333",
                         stroke_width=2)
                   + "".join(_symbol(shown[0], shown[1], cx, cy, r * 0.6)) + "</g>")

    # Move paths, in the moving robot's colour, with an arrow head at the end.
    for k, p in enumerate(moves):
        color = _path_color(p, robots)
        stroke = _path_stroke(color)
        lines = _path_lines(p, frame)
        out.append(f"<g{_attrs(class_=f'path path-{color}', data_move=k + 1)}>")
        for i, pts in enumerate(lines):
            out.append(_el("polyline", points=" ".join(f"{_n(px)},{_n(py)}" for px, py in pts), fill="none",
                           stroke=stroke, stroke_width=4, stroke_opacity=0.8, stroke_linejoin="round",
                           stroke_linecap="round", marker_end=f"url(#ricochet-arrow-{color})" if i == len(lines) - 1 else None))
        out.append("</g>")

    for index, robot in enumerate(robots):
        cx, cy = frame.centre(robot.cell)
        fill = COLORS[robot.color]
        transparent = robot.color == "transparent"
        out.append(f"<g{_attrs(class_=f'robot robot-{robot.color}', id=f'robot-{robot.color}', data_cell=f'{robot.cell[0]},{robot.cell[1]}')}>"
                   + _el("circle", cx=float(cx), cy=float(cy), r=CELL * 0.36, fill=fill,
                         fill_opacity=0.35 if transparent else None, stroke=_DARK[robot.color], stroke_width=2.5,
                         stroke_dasharray="4 3" if transparent else None)
                   + f"<text{_attrs(x=float(cx), y=float(cy + 6.5), text_anchor='middle', font_family='sans-serif', font_size=18, font_weight='bold', fill=_TEXT_ON.get(robot.color, '#ffffff'))}>"
                   + f"{escape(LETTERS[robot.color])}</text>" + (robot_extra or {}).get(index, "") + "</g>")

    if coordinates:
        for i in range(w):
            label = chr(ord("a") + i) if w <= 26 else str(i)
            cx = frame.x(i + 0.5)
            for cy in (MARGIN / 2, frame.height - MARGIN / 2):
                out.append(f"<text{_attrs(class_='coord', x=float(cx), y=float(cy + 4.5), text_anchor='middle', font_family='sans-serif', font_size=12, fill='#555555')}>{escape(label)}</text>")
        for j in range(h):
            label = str(j + 1) if w <= 26 else str(j)
            cy = frame.y(j + 0.5)
            for cx in (MARGIN / 2, frame.width - MARGIN / 2):
                out.append(f"<text{_attrs(class_='coord', x=float(cx), y=float(cy + 4.5), text_anchor='middle', font_family='sans-serif', font_size=12, fill='#555555')}>{escape(label)}</text>")

    out.append("</svg>")
    return "".join(out)
