"""Moves and solutions as text: ``RN``, ``G←``, ``b s``, ``TN@3,4``.

A move is a robot letter — ``R G B Y S T`` for red, green, blue, yellow,
silver, transparent — and a direction ``N E S W`` or an arrow ``↑ → ↓ ←``;
both any case, with optional spaces between.  A move of the transparent robot
may name where it stops, ``@x,y``, since it can stop at or pass each interior
wall.  A solution is moves one after the other, separated by spaces, commas,
semicolons or nothing at all.  ``S`` is both silver and south, so a solution is
read strictly alternating robot, direction: ``SS`` is silver south.

Grammar::

    solution := sep* ( move sep* )*
    move     := robot space* direction ( space* "@" space* int space* "," space* int )?
    robot    := R | G | B | Y | S | T              (any case)
    direction:= N | E | S | W | ↑ | → | ↓ | ←     (any case)
    sep      := whitespace | "," | ";"

>>> from ricochet import Board, Position, Robot
>>> pos = Position(Board.build(5, 5), (Robot("red", (0, 0)), Robot("green", (4, 4)), Robot("silver", (2, 2))))
>>> moves = parse_solution("rn,G← s s", pos)
>>> format_solution(moves, pos)
'RN GW SS'
>>> format_solution(moves, pos, arrows=True)
'R↑ G← S↓'
>>> glass = Position(Board.build(5, 5), (Robot("transparent", (3, 0)),))
>>> format_move(parse_move("tn@3,4", glass), glass)
'TN@3,4'
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from ..geometry import Direction
from ..position import COLOR_OF_LETTER, LETTERS, Move, Position
from .errors import NotationError

__all__ = ["format_move", "format_solution", "parse_move", "parse_solution"]

_ROBOT_LETTERS = "".join(LETTERS.values())  # "RGBYST"
_DIRECTION_CHARS = {"N": Direction.N, "E": Direction.E, "S": Direction.S, "W": Direction.W,
                    "↑": Direction.N, "→": Direction.E, "↓": Direction.S, "←": Direction.W}
_SEPARATORS = frozenset(" \t\r\n,;")
_SPACES = frozenset(" \t")
_STOP = re.compile(r"[ \t]*@[ \t]*(\d+)[ \t]*,[ \t]*(\d+)")


def _allowed_robots() -> str:
    return ", ".join(_ROBOT_LETTERS)


def _token(text: str, start: int) -> str:
    """The move starting at ``start`` as written, for messages: robot, spaces, direction, stop."""
    m = re.compile(r"\S[ \t]*[^\s,;]?(?:[ \t]*@[ \t]*\d*[ \t]*,?[ \t]*\d*)?").match(text, start)
    return m.group(0) if m else text[start:start + 2]


def parse_solution(text: str, position: Position) -> list[Move]:
    """Parse moves for the robots of ``position`` (``"RN GE BS"``, ``"rn,ge,bs"``,
    ``"RNGEBS"``, ``"R↑ G→"``).  Raises :class:`NotationError` naming the move,
    its column and what is allowed.  The moves are not played: legality is
    :meth:`Position.play`'s business."""
    if not isinstance(text, str):
        raise NotationError(f"a solution must be text, got {type(text).__name__}")
    moves: list[Move] = []
    i, n = 0, len(text)
    while True:
        while i < n and text[i] in _SEPARATORS:
            i += 1
        if i >= n:
            return moves
        start = i
        label = f"move {len(moves) + 1} ({_token(text, start)!r})"
        letter = text[i].upper()
        if letter not in _ROBOT_LETTERS:
            raise NotationError(f"{label}: {text[i]!r} is not a robot letter; use {_allowed_robots()} "
                                "(red, green, blue, yellow, silver, transparent)", column=start + 1)
        color = COLOR_OF_LETTER[letter]
        try:
            robot = position.index_of(color)
        except KeyError:
            present = " ".join(r.letter for r in position.robots)
            raise NotationError(f"{label}: there is no {color} robot ({letter}) in this position; "
                                f"its robots are {present}", column=start + 1) from None
        i += 1
        while i < n and text[i] in _SPACES:
            i += 1
        if i >= n or text[i].upper() not in _DIRECTION_CHARS:
            got = "nothing" if i >= n else repr(text[i])
            raise NotationError(f"{label}: after robot {letter} expected a direction N, E, S, W "
                                f"or ↑ → ↓ ←, got {got}", column=i + 1)
        direction = _DIRECTION_CHARS[text[i].upper()]
        i += 1
        stop = None
        m = _STOP.match(text, i)
        if m:
            stop = (int(m.group(1)), int(m.group(2)))
            if not position.board.in_bounds(stop):
                b = position.board
                raise NotationError(f"{label}: stop {stop[0]},{stop[1]} is off the {b.width}×{b.height} "
                                    "board", column=start + 1)
            i = m.end()
        elif re.match(r"[ \t]*@", text[i:]):
            raise NotationError(f"{label}: after '@' expected the stop cell as x,y (e.g. @3,4)",
                                column=text.index("@", i) + 1)
        moves.append(Move(robot, direction, stop))


def parse_move(text: str, position: Position) -> Move:
    """Parse one move, e.g. ``"RN"``, ``"g←"``, ``"b s"`` or ``"TN@3,4"``.

    >>> from ricochet import Board, Position, Robot
    >>> parse_move("b s", Position(Board.build(4, 4), (Robot("red", (0, 0)), Robot("blue", (1, 1)))))
    Move(1, Direction.S)
    """
    moves = parse_solution(text, position)
    if len(moves) != 1:
        raise NotationError(f"expected exactly one move (robot letter and direction, e.g. RN), "
                            f"got {len(moves)} in {text!r}")
    return moves[0]


def format_move(move: Move, position: Position, arrows: bool = False) -> str:
    """The canonical text of a move: robot letter, direction letter (or arrow)
    and ``@x,y`` when the move names its stop."""
    if not (isinstance(move.robot, int) and 0 <= move.robot < len(position.robots)):
        raise NotationError(f"move robot {move.robot!r}: this position has robots 0..{len(position.robots) - 1}")
    text = position.robots[move.robot].letter + (move.direction.arrow if arrows else move.direction.name)
    if move.stop is not None:
        text += f"@{move.stop[0]},{move.stop[1]}"
    return text


def format_solution(moves: Sequence[Move], position: Position, arrows: bool = False) -> str:
    """Moves as text separated by single spaces, e.g. ``"RN GE BS"``.

    The letters name robots of ``position`` (robot indices do not change when
    robots move, so the start position serves for the whole solution)."""
    return " ".join(format_move(m, position, arrows) for m in moves)
