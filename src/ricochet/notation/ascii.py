r"""ASCII diagrams in the style of the Ricochet Pyramids figures (seed 003),
extended with walls and a legend; easy to type, and render → parse round-trips.

>>> text = '''
... . . T . .
... . r|. G .
...   -
... . . . . g
... T . * . .
... . . . . .
... '''
>>> puzzle = parse_ascii(text)
Traceback (most recent call last):
...
ricochet.notation.errors.NotationError: line 6, column 5: two goals, at 3,1 and 2,3; a diagram has at most one G or *
>>> pos = parse_ascii(text.replace("*", "."))
>>> pos.target, pos.active, sorted(pos.position.board.towers)
((3, 1), 0, [(0, 3), (2, 0), (3, 1)])
>>> pos.position.board.wall((1, 1), Direction.E), pos.position.board.wall((1, 1), Direction.S)
(True, True)
>>> parse_ascii(render_ascii(pos)) == pos
True

Grammar::

    diagram  := grid legend
    grid     := row ( wall-line? row )*        3 to 32 rows
    row      := cell ( sep cell )*             3 to 32 cells, every row alike
    sep      := " " | "|"                      "|": a wall between the two cells
    wall-line:= ( " " | "-" )*                 "-" under a cell (same column): a wall on that cell's
                                               south side; nothing between cells
    cell     := "." empty | "T" tower | "G" goal tower | "*" goal (no tower) | "#" blocked
              | "/" | "\" diagonal | r g b y s t  robot (red green blue yellow silver transparent)
    legend   := ( key ":" value )*             one per line, after the grid (blank lines allowed);
                                               a key taking a cell may also be written "key x,y: rest",
                                               e.g. "chip 3,4: red circle"

The board border is always walled; say where it opens with ``opening:``.
Text may be indented as a whole.  Legend keys (cells are ``x,y``, x east
from 0, y south from 0)::

    active: r | any | none    who must reach the goal; default: the red robot.  ``any``: any robot
                              (cosmic vortex); ``none``: not a puzzle, a position with a goal cell
    robots: g r b             robot order (index order) when it is not red green blue yellow silver
                              transparent
    target: 6,2               the goal cell when no G or * shows it (a robot, diagonal or block covers it)
    tower: 6,2 1,1            towers covered by robots
    last: r N                 no-straight-back state: the robot that moved last and its heading
    diagonal: 2,1 red [/|\]   colour of the diagonal at a cell (orientation too when a robot covers it)
    opening: 0,5 W            a gap in the border on that side of a border cell
    chip: 3,4 red circle      a printed target (``any vortex`` for the cosmic vortex)
    rules: game | plain must_ricochet=on ...   a puzzle's rules: a preset, then option=on|off
    optimal: 12               a puzzle's known optimal length
    id: name                  a puzzle's id (JSON-quoted when it has edge spaces, a leading quote or
                              unprintable characters)

A diagram with a goal (``G``, ``*`` or ``target:``) is a :class:`Puzzle` unless
``active: none``; without a goal it is a :class:`Position`.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field

from ..board import DIAGONAL_COLORS, ROBOT_COLORS, TARGET_COLORS, TARGET_SYMBOLS, Board, BoardError, Diagonal, Target
from ..geometry import MAX_SIZE, MIN_SIZE, Cell, Direction, parse_cell
from ..position import LETTERS, Position, PositionError, Robot
from ..puzzle import Puzzle
from ..rules import PLAIN, PRESETS, Rules
from .errors import NotationError

__all__ = ["parse_ascii", "parse_ascii_board", "render_ascii"]

CELL_CHARS = ".TG*#/\\" + "rgbyst"
_ROBOT_CHARS = {v.lower(): k for k, v in LETTERS.items()}  # "r" -> "red"
_KEYS = ("active", "robots", "target", "tower", "last", "diagonal", "opening", "chip", "rules", "optimal", "id")
_SINGLE = ("active", "robots", "target", "last", "rules", "optimal", "id")
_LEGEND = re.compile(r"^([A-Za-z_]+)[ \t]*:[ \t]*(.*)$")
_CELL_FIRST = re.compile(r"^([A-Za-z_]+)[ \t]+([^:\s]+)[ \t]*:[ \t]*(.*)$")  # "chip 3,4: red circle"
_CELL_KEYS = ("target", "tower", "diagonal", "opening", "chip")


# -- rendering ------------------------------------------------------------------
def _cell_text(c: Cell) -> str:
    return f"{c[0]},{c[1]}"


def render_ascii(obj: Puzzle | Position | Board) -> str:
    """Draw a puzzle, position or board as a diagram (grid, then legend lines).

    >>> from ricochet import Board, Position, Robot
    >>> print(render_ascii(Position(Board.build(4, 3, walls=[(1, 0, "E"), (2, 1, "S")]), (Robot("red", (0, 2)),))))
    . .|. .
    . . . .
        -
    r . . .
    """
    puzzle = obj if isinstance(obj, Puzzle) else None
    if isinstance(obj, Puzzle):
        pos: Position | None = obj.position
    elif isinstance(obj, Position):
        pos = obj
    elif isinstance(obj, Board):
        pos = None
    else:
        raise TypeError(f"render_ascii takes a Puzzle, Position or Board, not {type(obj).__name__}")
    board = obj if isinstance(obj, Board) else pos.board  # type: ignore[union-attr]
    robots = {r.cell: r for r in pos.robots} if pos else {}
    goal = pos.goal if pos else None
    w, h = board.width, board.height

    def char(c: Cell) -> str:
        if c in robots:
            return robots[c].letter.lower()
        if c in board.blocked:
            return "#"
        dg = board.diagonal_at(c)
        if dg is not None:
            return dg.orientation
        if c == goal:
            return "G" if c in board.towers else "*"
        return "T" if c in board.towers else "."

    lines = []
    for y in range(h):
        row = []
        for x in range(w):
            row.append(char((x, y)))
            if x < w - 1:
                row.append("|" if board.walls[y * w + x] & Direction.E else " ")
        lines.append("".join(row))
        if y < h - 1:
            south = " ".join("-" if board.walls[y * w + x] & Direction.S else " " for x in range(w)).rstrip()
            if south:  # no line at all when no wall is south of this row
                lines.append(south)
    legend: list[str] = []
    if pos is not None:
        canonical = sorted(pos.robots, key=lambda r: ROBOT_COLORS.index(r.color))
        if goal is not None:
            if puzzle is None:
                legend.append("active: none")
            elif puzzle.active is None:
                legend.append("active: any")
            elif pos.robots[puzzle.active].color != "red":
                legend.append(f"active: {pos.robots[puzzle.active].letter.lower()}")
        if list(pos.robots) != canonical:
            legend.append("robots: " + " ".join(r.letter.lower() for r in pos.robots))
        if goal is not None and char(goal) not in "G*":
            legend.append(f"target: {_cell_text(goal)}")
        covered = sorted(c for c in board.towers if c in robots)
        if covered:
            legend.append("tower: " + " ".join(_cell_text(c) for c in covered))
        if pos.last_move is not None:
            idx, heading = pos.last_move
            legend.append(f"last: {pos.robots[idx].letter.lower()} {heading.name}")
    for dg in board.diagonals:
        shown = "" if char(dg.cell) in "/\\" else f" {dg.orientation}"
        legend.append(f"diagonal: {_cell_text(dg.cell)} {dg.color}{shown}")
    for c, side in sorted(board.openings, key=lambda o: (o[0], o[1].index)):
        legend.append(f"opening: {_cell_text(c)} {side.name}")
    for t in board.targets:
        legend.append(f"chip: {_cell_text(t.cell)} {t.color} {t.symbol}")
    if puzzle is not None:
        if puzzle.rules != PLAIN:
            name = puzzle.rules.name
            if name is not None:
                legend.append(f"rules: {name}")
            else:
                diffs = [f"{k}={'on' if v else 'off'}" for k, v in puzzle.rules.to_dict().items()
                         if PLAIN.to_dict()[k] != v]
                legend.append("rules: plain " + " ".join(diffs))
        if puzzle.optimal is not None:
            legend.append(f"optimal: {puzzle.optimal}")
        if puzzle.id is not None:
            pid = puzzle.id
            plain_id = pid and pid == pid.strip() and not pid.startswith('"') and pid.isprintable()
            legend.append(f"id: {pid if plain_id else json.dumps(pid)}")
    return "\n".join(lines + legend)


# -- parsing ------------------------------------------------------------------
@dataclass
class _Diagram:
    """What a diagram says, before it becomes a board and robots."""

    width: int = 0
    height: int = 0
    chars: dict[Cell, str] = field(default_factory=dict)
    where: dict[Cell, tuple[int, int]] = field(default_factory=dict)  # cell -> (line, column), 1-based
    walls: list[tuple[int, int, Direction]] = field(default_factory=list)
    legend: dict[str, list[tuple[int, str]]] = field(default_factory=dict)  # key -> [(line, value)]


def _scan(text: str) -> _Diagram:
    if not isinstance(text, str):
        raise NotationError(f"a diagram must be text, got {type(text).__name__}")
    raw = [line.rstrip() for line in text.expandtabs(8).splitlines()]
    filled = [line for line in raw if line.strip()]
    if not filled:
        raise NotationError("the diagram is empty: draw one character per cell, e.g. '. . r .'")
    margin = min(len(line) - len(line.lstrip(" ")) for line in filled)
    lines = [line[margin:] for line in raw]
    d = _Diagram()
    i = 0
    while not lines[i].strip():
        i += 1
    rows: list[tuple[int, str]] = []
    wall_lines: list[tuple[int, str, int]] = []  # (line number, text, index of the row above)
    prev_wall = False
    while i < len(lines) and lines[i].strip() and ":" not in lines[i]:
        line, n = lines[i], i + 1
        if set(line) <= {" ", "-"}:
            if not rows:
                raise NotationError("a wall line must lie between two rows of cells (the border is always walled)",
                                    line=n)
            if prev_wall:
                raise NotationError("two wall lines in a row; one line of '-' marks the walls between two rows",
                                    line=n)
            wall_lines.append((n, line, len(rows) - 1))
            prev_wall = True
        else:
            rows.append((n, line))
            prev_wall = False
        i += 1
    if prev_wall:
        raise NotationError("a wall line must lie between two rows of cells (the border is always walled)",
                            line=wall_lines[-1][0])
    if not rows:
        raise NotationError("a diagram starts with its grid: one character per cell, e.g. '. . r .' "
                            "(a line with ':' is a legend line)", line=i + 1)
    first_n, first = rows[0]
    d.width = (len(first) + 1) // 2
    d.height = len(rows)
    for what, size in (("columns", d.width), ("rows", d.height)):
        if not MIN_SIZE <= size <= MAX_SIZE:
            raise NotationError(f"the grid has {size} {what}; a board has {MIN_SIZE} to {MAX_SIZE}", line=first_n)
    for y, (n, line) in enumerate(rows):
        cells = (len(line) + 1) // 2
        if len(line) % 2 == 0 or cells != d.width:
            got = f"{cells} cells" if len(line) % 2 else f"{len(line)} characters (it ends with a separator)"
            raise NotationError(f"ragged row: it has {got}, the first row has {d.width} cells "
                                "(one character per cell, separated by single spaces or '|')",
                                line=n, column=margin + 1)
        for k, ch in enumerate(line):
            col = margin + k + 1
            if k % 2:
                if ch == "|":
                    d.walls.append((k // 2, y, Direction.E))
                elif ch != " ":
                    raise NotationError(f"expected a space or '|' between cells {k // 2},{y} and {k // 2 + 1},{y}, "
                                        f"got {ch!r}", line=n, column=col)
                continue
            cell = (k // 2, y)
            if ch not in CELL_CHARS:
                what = "a space" if ch == " " else repr(ch)
                raise NotationError(f"cell {cell[0]},{cell[1]}: {what} is not a cell character; use "
                                    ". T G * # / \\ or a robot r g b y s t (cells are separated by single spaces)",
                                    line=n, column=col)
            d.chars[cell] = ch
            d.where[cell] = (n, col)
    for n, line, y in wall_lines:
        for k, ch in enumerate(line):
            if ch != "-":
                continue
            col = margin + k + 1
            if k % 2 or k // 2 >= d.width:
                raise NotationError(f"misaligned wall: '-' at column {col} is not under a cell; put it under "
                                    f"the cell whose south side is walled (columns {margin + 1}, {margin + 3}, "
                                    f"… {margin + 2 * d.width - 1})", line=n, column=col)
            d.walls.append((k // 2, y, Direction.S))
    for j in range(i, len(lines)):
        line, n = lines[j], j + 1
        if not line.strip():
            continue
        m = _LEGEND.match(line.strip())
        cell_first = _CELL_FIRST.match(line.strip())
        if not m and cell_first and cell_first.group(1).lower() in _CELL_KEYS:
            m = _LEGEND.match(f"{cell_first.group(1)}: {cell_first.group(2)} {cell_first.group(3)}")
        if not m:
            raise NotationError("after the grid every line must be 'key: value' "
                                f"(keys: {', '.join(_KEYS)}), got {line.strip()[:30]!r}", line=n)
        key = m.group(1).lower()
        if key not in _KEYS:
            raise NotationError(f"unknown legend key {m.group(1)!r}; keys: {', '.join(_KEYS)}", line=n)
        if key in _SINGLE and key in d.legend:
            raise NotationError(f"'{key}:' is given twice (first on line {d.legend[key][0][0]})", line=n)
        d.legend.setdefault(key, []).append((n, m.group(2).strip()))
    return d


def _legend_cell(text: str, d: _Diagram, n: int, key: str) -> Cell:
    try:
        c = parse_cell(text)
    except ValueError:
        raise NotationError(f"{key}: {text!r} is not a cell; write x,y (e.g. 3,4)", line=n) from None
    if not (0 <= c[0] < d.width and 0 <= c[1] < d.height):
        raise NotationError(f"{key}: cell {c[0]},{c[1]} is off the {d.width}×{d.height} grid", line=n)
    return c


def _robot_color(text: str, n: int, key: str) -> str:
    t = text.strip().lower()
    if t in _ROBOT_CHARS:
        return _ROBOT_CHARS[t]
    if t in ROBOT_COLORS:
        return t
    raise NotationError(f"{key}: {text!r} is not a robot; use r g b y s t (or a colour name)", line=n)


def _build_board(d: _Diagram) -> Board:
    blocked = frozenset(c for c, ch in d.chars.items() if ch == "#")
    towers = {c for c, ch in d.chars.items() if ch in "TG"}
    for n, value in d.legend.get("tower", []):
        if not value:
            raise NotationError("tower: list the covered tower cells, e.g. 'tower: 3,4 5,6'", line=n)
        for token in value.split():
            c = _legend_cell(token, d, n, "tower")
            if d.chars[c] not in _ROBOT_CHARS and d.chars[c] not in "TG":
                raise NotationError(f"tower: cell {_cell_text(c)} shows {d.chars[c]!r}; draw a visible tower as T "
                                    "('tower:' is for towers under robots)", line=n)
            towers.add(c)
    diagonals: list[Diagonal] = []
    declared: set[Cell] = set()
    for n, value in d.legend.get("diagonal", []):
        parts = value.split()
        if len(parts) not in (2, 3):
            raise NotationError("diagonal: expected 'x,y colour' (and / or \\ when a robot covers it), "
                                f"got {value!r}", line=n)
        c = _legend_cell(parts[0], d, n, "diagonal")
        color = parts[1].lower()
        if color not in DIAGONAL_COLORS:
            raise NotationError(f"diagonal: colour {parts[1]!r} is not one of {', '.join(DIAGONAL_COLORS)}", line=n)
        shown = d.chars[c]
        if c in declared:
            raise NotationError(f"diagonal: cell {_cell_text(c)} is declared twice", line=n)
        declared.add(c)
        if shown in "/\\":
            if len(parts) == 3 and parts[2] != shown:
                raise NotationError(f"diagonal: cell {_cell_text(c)} is drawn {shown!r} but declared {parts[2]!r}",
                                    line=n)
            orientation = shown
        elif shown in _ROBOT_CHARS:
            if len(parts) != 3 or parts[2] not in ("/", "\\"):
                raise NotationError(f"diagonal: a robot covers {_cell_text(c)}; add its orientation / or \\",
                                    line=n)
            orientation = parts[2]
        else:
            raise NotationError(f"diagonal: cell {_cell_text(c)} shows {shown!r}; draw the diagonal as / or \\",
                                line=n)
        diagonals.append(Diagonal(c, color, orientation))
    for c, ch in d.chars.items():
        if ch in "/\\" and c not in declared:
            n, col = d.where[c]
            raise NotationError(f"the diagonal at {_cell_text(c)} needs a colour: add a legend line "
                                f"'diagonal: {_cell_text(c)} red' (red, green, blue or yellow)", line=n, column=col)
    openings = []
    for n, value in d.legend.get("opening", []):
        parts = value.split()
        if len(parts) != 2 or parts[1].upper() not in ("N", "E", "S", "W"):
            raise NotationError(f"opening: expected 'x,y side' with side N, E, S or W, got {value!r}", line=n)
        c, side = _legend_cell(parts[0], d, n, "opening"), Direction[parts[1].upper()]
        if 0 <= c[0] + side.dx < d.width and 0 <= c[1] + side.dy < d.height:
            raise NotationError(f"opening: side {side.name} of {_cell_text(c)} is not on the border", line=n)
        openings.append((c, side))
    targets = []
    for n, value in d.legend.get("chip", []):
        parts = value.split()
        if len(parts) == 2 and parts[1].lower() == "vortex":
            parts.insert(1, "any")
        if len(parts) != 3 or parts[1].lower() not in TARGET_COLORS or parts[2].lower() not in TARGET_SYMBOLS:
            raise NotationError(f"chip: expected 'x,y colour symbol' (colour {', '.join(TARGET_COLORS)}; "
                                f"symbol {', '.join(TARGET_SYMBOLS)}), got {value!r}", line=n)
        targets.append(Target(_legend_cell(parts[0], d, n, "chip"), parts[1].lower(), parts[2].lower()))
    try:
        masks = Board.build(d.width, d.height, d.walls, wall_blocked=False).walls
        # Built directly, not by Board.build, to keep the legend's order of targets and diagonals.
        return Board(d.width, d.height, masks, blocked, tuple(targets), tuple(diagonals), frozenset(openings),
                     frozenset(towers))
    except BoardError as e:
        raise NotationError(str(e)) from None


def parse_ascii_board(text: str) -> Board:
    """The board of a diagram (robots and goal left out)."""
    return _build_board(_scan(text))


def _rules(value: str, n: int) -> Rules:
    rules = PLAIN
    for k, token in enumerate(value.split()):
        if "=" not in token:
            if k == 0 and token in PRESETS:
                rules = PRESETS[token]
                continue
            raise NotationError(f"rules: {token!r} is not a preset ({', '.join(PRESETS)}, first) or "
                                "option=on|off", line=n)
        key, _, v = token.partition("=")
        if v.lower() not in ("on", "off", "true", "false"):
            raise NotationError(f"rules: {token!r}: the value must be on or off", line=n)
        try:
            rules = rules.with_options(**{key: v.lower() in ("on", "true")})
        except ValueError as e:
            raise NotationError(f"rules: {e}", line=n) from None
    return rules


def parse_ascii(text: str) -> Puzzle | Position:
    """Read a diagram (see the module docstring): a :class:`Puzzle` when it
    shows a goal, else a :class:`Position`.  Errors name the line and column."""
    d = _scan(text)
    board = _build_board(d)
    leg = d.legend

    def one(key: str) -> tuple[int, str] | None:
        return leg[key][0] if key in leg else None

    robots: dict[str, Cell] = {}
    goal: Cell | None = None
    goal_at: tuple[int, int] | None = None
    for c in sorted(d.chars, key=lambda c: (c[1], c[0])):
        ch = d.chars[c]
        n, col = d.where[c]
        if ch in _ROBOT_CHARS:
            color = _ROBOT_CHARS[ch]
            if color in robots:
                o = robots[color]
                raise NotationError(f"two {color} robots ({ch}), at {_cell_text(o)} and {_cell_text(c)}",
                                    line=n, column=col)
            robots[color] = c
        elif ch in "G*":
            if goal is not None:
                raise NotationError(f"two goals, at {_cell_text(goal)} and {_cell_text(c)}; a diagram has at most "
                                    "one G or *", line=n, column=col)
            goal, goal_at = c, (n, col)
    if (t := one("target")) is not None:
        n, value = t
        c = _legend_cell(value, d, n, "target")
        shown = d.chars[c]
        if goal is not None and goal != c:
            raise NotationError(f"target: {_cell_text(c)}, but the grid shows the goal at {_cell_text(goal)}", line=n)
        if shown in ".T":
            raise NotationError(f"target: draw the goal at {_cell_text(c)} as * (or G on a tower); 'target:' is "
                                "for a goal the grid cannot show", line=n)
        goal = c
    if not robots:
        raise NotationError("the diagram has no robots (r g b y s t); a board alone reads with parse_ascii_board")
    colors = sorted(robots, key=ROBOT_COLORS.index)
    if (t := one("robots")) is not None:
        n, value = t
        order = [_robot_color(tok, n, "robots") for tok in value.split()]
        if sorted(order, key=ROBOT_COLORS.index) != colors:
            raise NotationError(f"robots: must list each robot on the grid once ({' '.join(LETTERS[c].lower() for c in colors)}), "
                                f"got {value!r}", line=n)
        colors = order
    last_move = None
    if (t := one("last")) is not None:
        n, value = t
        parts = value.split()
        if len(parts) != 2 or parts[1].upper() not in ("N", "E", "S", "W"):
            raise NotationError(f"last: expected 'robot heading', e.g. 'r N', got {value!r}", line=n)
        color = _robot_color(parts[0], n, "last")
        if color not in robots:
            raise NotationError(f"last: there is no {color} robot on the grid", line=n)
        last_move = (colors.index(color), Direction[parts[1].upper()])
    try:
        position = Position(board, tuple(Robot(c, robots[c]) for c in colors), goal, last_move)
    except PositionError as e:
        raise NotationError(str(e)) from None
    puzzle_keys = [k for k in ("rules", "optimal", "id") if k in leg]
    active_text = one("active")
    if goal is None or (active_text is not None and active_text[1].lower() == "none"):
        for k in puzzle_keys + (["active"] if goal is None and active_text else []):
            raise NotationError(f"'{k}:' is only for a puzzle (a diagram with a goal G, * or 'target:')",
                                line=leg[k][0][0])
        return position
    if active_text is None:
        if "red" not in robots:
            raise NotationError("which robot must reach the goal? add 'active: g' (a robot letter, or any)",
                                line=goal_at[0] if goal_at else None)
        active: int | None = colors.index("red")
    elif active_text[1].lower() == "any":
        active = None
    else:
        color = _robot_color(active_text[1], active_text[0], "active")
        if color not in robots:
            raise NotationError(f"active: there is no {color} robot on the grid", line=active_text[0])
        active = colors.index(color)
    rules = _rules(leg["rules"][0][1], leg["rules"][0][0]) if "rules" in leg else PLAIN
    optimal = None
    if "optimal" in leg:
        n, value = leg["optimal"][0]
        if not value.isdigit():
            raise NotationError(f"optimal: expected a whole number of moves, got {value!r}", line=n)
        optimal = int(value)
    pid = None
    if "id" in leg:
        n, pid = leg["id"][0]
        if pid.startswith('"'):
            try:
                pid = json.loads(pid)
            except json.JSONDecodeError:
                raise NotationError("id: a quoted id must be a JSON string", line=n) from None
            if not isinstance(pid, str):
                raise NotationError("id: a quoted id must be a JSON string", line=n)
    try:
        return Puzzle(position, goal, active=active, rules=rules, optimal=optimal, id=pid)
    except PositionError as e:
        raise NotationError(str(e), line=active_text[0] if active_text else None) from None

