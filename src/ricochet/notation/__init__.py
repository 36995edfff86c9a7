"""Text formats: moves and solutions (:mod:`.moves`), position codes
(:mod:`.code`), the JSON interchange format of ``shared/data/README.md``
(:mod:`.interchange`) and ASCII diagrams (:mod:`.ascii`).

Every format round-trips, and every reading error is a :class:`NotationError`
that says where (line, column, field) and what is allowed.
"""

from .ascii import parse_ascii, parse_ascii_board, render_ascii
from .code import board_code, parse_board_code, parse_code, position_code, puzzle_code
from .errors import NotationError
from .interchange import (
    board_from_json,
    board_to_json,
    dumps_puzzle,
    puzzle_from_json,
    puzzle_to_json,
    read_jsonl,
    solution_from_json,
    solution_to_json,
)
from .moves import format_move, format_solution, parse_move, parse_solution

__all__ = [
    "NotationError",
    "board_code",
    "board_from_json",
    "board_to_json",
    "dumps_puzzle",
    "format_move",
    "format_solution",
    "parse_ascii",
    "parse_ascii_board",
    "parse_board_code",
    "parse_code",
    "parse_move",
    "parse_solution",
    "position_code",
    "puzzle_code",
    "puzzle_from_json",
    "puzzle_to_json",
    "read_jsonl",
    "render_ascii",
    "solution_from_json",
    "solution_to_json",
]
