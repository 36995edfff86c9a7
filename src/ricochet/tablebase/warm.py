"""The tablebase's kernels compiled (or loaded from numba's cache) on a tiny
board, every robot count, so that ``ricochet tablebase`` starts building at
once (:mod:`ricochet.warm` runs this at set-up)."""

from __future__ import annotations


def warm_up() -> None:
    """Build a table of a 4×4 board for 1 to 4 robots (the kernel is
    specialised for four, the rest share a copy) and read its histogram and
    longest positions: every CPU code path of a build and its statistics."""
    from ..board import Board
    from .table import Tablebase

    board = Board.build(4, 4)
    for robots in range(1, 5):
        tb = Tablebase.build(board, (0, 0), robots=robots)
        tb.histogram()
        tb.hardest(1)
