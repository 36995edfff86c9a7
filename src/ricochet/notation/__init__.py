"""Text formats: moves and solutions, position codes, the JSON interchange
format of ``shared/data/README.md`` and ASCII diagrams.

Every format round-trips, and every reading error is a :class:`NotationError`
that says where (line, column, field) and what is allowed.
"""

from .ascii import parse_ascii, parse_ascii_board, render_ascii
from .code import board_code, parse_board_code, parse_code, position_code, puzzle_code
from .errors import NotationError
from .interchange import (board_from_json, board_to_json, dumps_puzzle, puzzle_from_json, puzzle_to_json,
                          read_jsonl, solution_from_json, solution_to_json)
from .moves import format_move, format_solution, parse_move, parse_solution

__all__ = [
    "NotationError",
    "parse_move", "format_move", "parse_solution", "format_solution",
    "position_code", "puzzle_code", "parse_code", "board_code", "parse_board_code",
    "puzzle_from_json", "puzzle_to_json", "read_jsonl", "dumps_puzzle", "solution_to_json", "solution_from_json",
    "board_to_json", "board_from_json",
    "render_ascii", "parse_ascii", "parse_ascii_board",
]
