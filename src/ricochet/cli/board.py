"""``ricochet board``: a Ricochet Robots board assembled from four tiles, drawn or as JSON."""

from __future__ import annotations

import argparse
import json

from . import EXIT_OK, add_command
from .shared import add_output_arguments, render, write_output


def build(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--tiles", required=True, metavar="NW,NE,SE,SW",
                        help="four tiles 1A..4D in the order NW, NE, SE, SW, e.g. 1A,3B,4A,2A")
    parser.add_argument("--json", action="store_true",
                        help="print the board in the JSON interchange format, one object on one line")
    add_output_arguments(parser)


def run(args: argparse.Namespace) -> int:
    """Assemble a board from four tiles and print or draw it."""
    from ..tiles import assemble, parse_arrangement

    board = assemble(*parse_arrangement(args.tiles))
    if args.json:
        from ..notation import board_to_json
        write_output(json.dumps(board_to_json(board), ensure_ascii=False), args.output)
        return EXIT_OK
    render(board, args)
    return EXIT_OK


add_command("board", "assemble a board from four tiles; print it or its JSON", build, run)
