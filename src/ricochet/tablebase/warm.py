"""The tablebase's kernels compiled (or loaded from numba's cache) on a tiny
board, every robot count, so that ``ricochet tablebase`` starts building at
once (:mod:`ricochet.warm` runs this at set-up)."""

from __future__ import annotations


def warm_up() -> None:
    """Build the tables of a 4×4 board for 1 to 4 robots, one active robot
    and any robot (each kernel is specialised for four, the rest share a
    copy) and read their histograms and longest positions: every CPU code
    path of a build and its statistics."""
    from ..board import Board
    from .table import Tablebase

    board = Board.build(4, 4)
    for robots in range(1, 5):
        for any_robot in (False, True):  # the coloured tables, and the vortex's (its own kernel)
            tb = Tablebase.build(board, (0, 0), robots=robots, any_robot=any_robot)
            tb.histogram()
            tb.hardest(1)
