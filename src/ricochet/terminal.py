"""Boards, positions and puzzles drawn for a terminal: box-drawing walls, ANSI colours.

Each cell is three characters wide; walls sit between cells on their own
rows and columns, so every wall segment is visible.  Column letters run
along the top and row numbers down the left, as in cell names (``a1`` is the
north-west corner).  A legend line under the board names the target chip and
the active robot.

Cell contents: a robot's letter (``R G B Y S T``), a target's symbol
(``● ▲ ■ ⬢``, ``@`` the vortex), a diagonal (``╱ ╲``), a tower ``Π``, the
blocked centre ``▒``.  The goal cell is bracketed: ``[R]``.  Without colour
a target or diagonal carries its colour's lower-case letter (``r▲``).
A robot covers a tower it sits on (Ricochet Pyramids); the legend names it.

>>> from ricochet.board import Board
>>> print(render_terminal(Board.build(3, 3, walls=[(0, 0, "E")]), color=False))
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

from __future__ import annotations

from collections.abc import Mapping

from .board import Board
from .geometry import Cell, Direction, cell_name
from .position import Position
from .puzzle import Puzzle, unpack

__all__ = ["SYMBOL_GLYPHS", "render_terminal"]

SYMBOL_GLYPHS: dict[str, str] = {"circle": "●", "triangle": "▲", "square": "■", "hexagon": "⬢", "vortex": "@"}
_DIAGONAL_GLYPHS = {"/": "╱", "\\": "╲"}
_ASCII_DIAGONALS = {"/": "/", "\\": "\\"}

_RESET = "\x1b[0m"
_FG = {"red": "\x1b[1;31m", "green": "\x1b[1;32m", "blue": "\x1b[1;34m", "yellow": "\x1b[1;33m",
       "silver": "\x1b[1;37m", "transparent": "\x1b[1;37m", "any": "\x1b[1;35m"}
_ROBOT = {"red": "\x1b[1;97;41m", "green": "\x1b[1;97;42m", "blue": "\x1b[1;97;44m", "yellow": "\x1b[1;30;43m",
          "silver": "\x1b[1;30;47m", "transparent": "\x1b[1;4;37m"}
_WALL = "\x1b[1m"
_TOWER_FG = {"red": "\x1b[1;91m", "green": "\x1b[1;92m", "blue": "\x1b[1;94m", "yellow": "\x1b[1;93m"}
_TOWER_BG = {"red": "\x1b[41m", "green": "\x1b[42m", "blue": "\x1b[44m", "yellow": "\x1b[43m"}
_DIM = "\x1b[2m"
_BLOCKED = "\x1b[90m"

# Box-drawing junctions by the arms present: up=1, right=2, down=4, left=8.
_JUNCTION = " ╵╶└╷│┌├╴┘─┴┐┤┬┼"
_ASCII_JUNCTION = "+" * 16


def _paint(text: str, code: str, color: bool) -> str:
    """``text`` in an ANSI style; blanks stay unstyled to keep the output short."""
    return f"{code}{text}{_RESET}" if color and code and text.strip() else text


def render_terminal(obj: Board | Position | Puzzle, *, color: bool = True,
                    tower_colors: Mapping[Cell, tuple[str, str]] | None = None) -> str:
    """The board as lines of text for a terminal, with a legend line at the end.

    With ``color`` robots, targets and diagonals are coloured with ANSI escape
    codes; without it the output is plain text (still Unicode box drawing),
    and colours are written as letters.  ``tower_colors``: the (top, bottom)
    colours of Ricochet Pyramids towers by cell, shown with ``color`` as the
    top colour's ``Π`` on the bottom colour.
    """
    board, position, goal = unpack(obj, "render_terminal")
    w, h = board.width, board.height
    robots = {r.cell: r for r in position.robots} if position is not None else {}
    goal_color = "any"
    if isinstance(obj, Puzzle) and obj.active is not None:
        goal_color = obj.position.robots[obj.active].color

    def closed(cell: Cell, side: Direction) -> bool:
        """A wall on that side; cells off the board count as open (no wall to draw)."""
        return board.in_bounds(cell) and board.wall(cell, side)

    def hwall(x: int, j: int) -> bool:
        """Is there a wall along the top of cell (x, j) (row line j)?"""
        return closed((x, j), Direction.N) or closed((x, j - 1), Direction.S)

    def vwall(i: int, y: int) -> bool:
        """Is there a wall along the left of cell (i, y) (column line i)?"""
        return closed((i, y), Direction.W) or closed((i - 1, y), Direction.E)

    def junction(i: int, j: int) -> str:
        arms = ((1 if j > 0 and vwall(i, j - 1) else 0) | (2 if i < w and hwall(i, j) else 0)
                | (4 if j < h and vwall(i, j) else 0) | (8 if i > 0 and hwall(i - 1, j) else 0))
        return _JUNCTION[arms]

    def content(cell: Cell) -> str:
        """The three characters of a cell."""
        is_goal = cell == goal
        left, right = ("[", "]") if is_goal else (" ", " ")
        if is_goal:
            left, right = _paint(left, _FG[goal_color], color), _paint(right, _FG[goal_color], color)
        robot = robots.get(cell)
        if robot is not None:
            # The robot's colour fills the whole cell, so it stands out.
            return _paint(("[{}]" if is_goal else " {} ").format(robot.letter), _ROBOT[robot.color], color)
        target = board.target_at(cell)
        diagonal = board.diagonal_at(cell)
        if target is not None:
            glyph, tint = SYMBOL_GLYPHS[target.symbol], target.color
        elif diagonal is not None:
            glyph, tint = _DIAGONAL_GLYPHS[diagonal.orientation], diagonal.color
        elif cell in board.towers:
            pair = (tower_colors or {}).get(cell)
            style = _WALL if pair is None else _TOWER_FG.get(pair[0], "") + _TOWER_BG.get(pair[1], "")
            return left + _paint("Π", style, color) + right
        elif cell in board.blocked:
            return _paint("▒▒▒", _BLOCKED, color)
        else:
            return left + _paint("·", _DIM, color) + right
        if color:
            return left + _paint(glyph, _FG[tint], True) + right
        if is_goal or tint == "any":
            return left + glyph + right
        return tint[0] + glyph + " "

    lines: list[str] = []
    label_width = len(str(h))
    pad = " " * (label_width + 1)
    if w <= 26:
        lines.append(pad + "".join(f"  {chr(ord('a') + i)} " for i in range(w)).rstrip())
    for j in range(h + 1):
        row = [junction(0, j)]
        for x in range(w):
            seg = "───" if hwall(x, j) else "   "
            if j in (0, h) and not hwall(x, j):
                seg = " ⇕ "  # an opening in the outer wall
            row.append(_paint(seg, _WALL, color) if seg.strip() else seg)
            row.append(_paint(junction(x + 1, j), _WALL, color))
        row[0] = _paint(row[0], _WALL, color)
        lines.append(pad + "".join(row).rstrip())
        if j == h:
            break
        cells = []
        for i in range(w + 1):
            bar = "│" if vwall(i, j) else " "
            if i in (0, w) and bar == " ":
                bar = "⇔"
            cells.append(_paint(bar, _WALL, color) if bar != " " else bar)
            if i < w:
                cells.append(content((i, j)))
        lines.append(f"{j + 1:>{label_width}} " + "".join(cells))
    lines.append(_legend(obj, board, position, color))
    return "\n".join(lines)


def _name(cell: Cell, board: Board) -> str:
    return cell_name(cell) if board.width <= 26 else f"{cell[0]},{cell[1]}"


def _on_towers(board: Board, position: Position | None, goal: Cell | None, color: bool) -> list[str]:
    """Robots hiding a tower other than the goal's (Ricochet Pyramids: sat on an earlier goal)."""
    if position is None:
        return []
    on = [r for r in position.robots if r.cell in board.towers and r.cell != goal]
    if not on:
        return []
    return ["on a tower: " + " ".join(f"{_paint(r.letter, _ROBOT[r.color], color)} {_name(r.cell, board)}"
                                      for r in on)]


def _legend(obj: Board | Position | Puzzle, board: Board, position: Position | None, color: bool) -> str:
    """One line: the target chip and active robot of a puzzle, else what is on the board."""
    parts = []
    if isinstance(obj, Puzzle):
        target = board.target_at(obj.target)
        where = _name(obj.target, board)
        if target is not None:
            chip = f"{target.name} {_paint(SYMBOL_GLYPHS[target.symbol], _FG[target.color], color)}"
            parts.append(f"target: {chip} at {where}")
        elif obj.target in board.towers:
            parts.append(f"goal tower: {where}")  # Ricochet Pyramids
        else:
            parts.append(f"target: {where}")
        if obj.active is None:
            parts.append("active robot: any")
        else:
            r = obj.position.robots[obj.active]
            parts.append(f"active robot: {r.color} {_paint(r.letter, _ROBOT[r.color], color)}")
        if obj.optimal is not None:
            parts.append(f"optimal: {obj.optimal} moves")
        if obj.id:
            parts.append(f"id: {obj.id}")
        parts.extend(_on_towers(board, position, obj.target, color))
    elif position is not None:
        parts.append("robots: " + " ".join(f"{_paint(r.letter, _ROBOT[r.color], color)} {_name(r.cell, board)}"
                                           for r in position.robots))
        if position.goal is not None:
            parts.append(f"goal: {_name(position.goal, board)}")
        parts.extend(_on_towers(board, position, position.goal, color))
    else:
        parts.append(f"{board.width}×{board.height} board, {len(board.targets)} targets")
        if board.diagonals:
            parts.append(f"{len(board.diagonals)} diagonals")
        if board.openings:
            parts.append(f"{len(board.openings)} openings")
        if board.towers:
            parts.append(f"{len(board.towers)} towers")
    return " · ".join(parts)


