"""Retrograde analysis: every position of a board, target and active robot
solved at once, one byte (the optimal number of moves) per position.

>>> from ricochet.board import Board
>>> tb = Tablebase.build(Board.build(4, 4), (3, 0), robots=2)
>>> tb.lookup([(0, 0), (3, 3)]), tb.longest
(1, 3)

See ``docs/tablebase.md`` for the method, the file format and the measured speed.
"""

from .layout import Layout, TablebaseError
from .table import Entry, Tablebase

__all__ = ["Entry", "Layout", "Tablebase", "TablebaseError"]
