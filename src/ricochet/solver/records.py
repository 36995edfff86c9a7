"""The records the compiled kernels take: a few named tuples in place of long
lists of positional parameters, and :class:`SearchStatus`, how a search ends.

numba takes a :class:`~typing.NamedTuple` of arrays and numbers as one
argument (its fields read by name inside compiled code) and builds one inside
compiled code as cheaply as a plain tuple.  From Python, though, numba's
dispatcher types a named tuple slowly (it hashes the class and every field
name: about a microsecond a record; five of them took a 1-2 move puzzle's
solve from 13.7 to 19 µs), so the kernels that Python calls once a search
(:func:`kernel.astar`, :func:`kernel.ida`, :func:`kernel.solo_approach`)
take their records as plain tuples of the fields in order and name them
first thing (``Spec(*spec)``, which takes a record too).  (The threaded
``parallel.parallel_astar`` takes the records themselves: its searches are
long, and numba's parallel lowering refuses that renaming.)  Every field of
a record keeps one type (a Python ``int`` or ``bool``, an array of a fixed
dtype and dimension): a kernel is compiled once per combination of its
arguments' types, so a field given a numpy ``int32`` here and a Python
``int`` there would compile it twice.

Which record holds what:

- :class:`BoardArrays`: one board's physics under the rules, for one set of
  robot colours (``tables.SearchTables.arrays``, built once per board).
- :class:`PathTables`: robot-free paths (``tables.robot_tables``: a row per
  robot).
- :class:`Spec`: what one search keeps fixed: the robots, the target robot and
  cell, the rules' switches and how states are keyed.
- :class:`Start`: the root state (the robots' cells and the rule state).
- :class:`Limits`: A*'s caps and the switch points of its bound.
- :class:`Goal`: what the target robot's raised bound reads (its relaxed
  distance and robot-free paths), and :class:`BlockerSets`, its blocker sets.
- :class:`Table`: IDA*'s transposition table and the search's generation.
- :class:`TransparentWork`: the transparent robot's search's scratch arrays.
- :class:`Swept`: the last move of a state, as the commuting-move test reads it.

A record is as wide as its fields: numba passes an array as its pointer,
shape and strides, so a compiled function called for every state (the
bound's checks, in their own functions) is given a record of what it reads
(:class:`Goal`, :class:`BlockerSets`), not a wider one: each unused field
costs stores at every call (wider records there cost 1.6 % more
instructions on the solver's benchmark, measured with callgrind).
"""

from __future__ import annotations

import enum
from typing import NamedTuple

import numpy as np


class SearchStatus(enum.IntEnum):
    """How a compiled search ended (its first return value).  The kernels
    return these members themselves: numba compiles an ``IntEnum``'s members
    as integers and gives them back to Python as members."""

    NONE_WITHIN = 0
    """No solution within the bound (IDA*) or ``max_cost`` (A*)."""
    FOUND = 1
    """A solution (optimal: A*'s first goal, IDA*'s within its bound)."""
    CAP_REACHED = 2
    """Stopped early: A* past ``max_states`` states, IDA* past its node budget."""


class BoardArrays(NamedTuple):
    """A board as the kernels read it (``tables.SearchTables.arrays``): per cell
    (``y * W + x``), directions as bits ``1 << d`` (0..3 = N, E, S, W)."""

    W: int
    """Columns."""
    H: int
    """Rows."""
    N: int
    """Cells, ``W * H``."""
    wall: np.ndarray
    """uint8: the sides with a wall."""
    openm: np.ndarray
    """uint8: the sides with an opening in play (a move leaves the board there
    and comes back on the opposite side)."""
    obst: np.ndarray
    """uint8: 1 on a cell no move enters (blocked, a tower other than the goal)."""
    diag: np.ndarray
    """int8: a diagonal's orientation (1 '/', 2 '\\'), 0 none (its colour is
    in the path tables: a robot of its colour passes)."""
    passable: np.ndarray
    """uint8: the sides the transparent robot may pass (a blank of one cell
    without a transparent robot)."""
    xy: np.ndarray
    """int64 ``(2, N)``: each cell's column and row where every move is a
    straight line (the move generator then reads the robots' row and column
    bit masks), else ``(2, 0)``."""


class PathTables(NamedTuple):
    """Robot-free paths from every cell and direction (a ray: ``cell * 4 +
    d``), of one robot colour (``tables.path_tables``: ``start``, ``length``
    and ``cyclic`` one row) or of each robot (``tables.robot_tables``: a row
    per robot)."""

    start: np.ndarray
    """int32 per ray: where its cells begin in ``cells``."""
    length: np.ndarray
    """int32 per ray: how many cells it enters before a wall or an obstacle."""
    cyclic: np.ndarray
    """uint8 per ray: 1 when it ends by repeating a state (the move is
    illegal unless a robot stands on it)."""
    cells: np.ndarray
    """int32: the rays' cells, one after another."""
    heads: np.ndarray
    """int8, beside ``cells``: the heading on entering each."""
    defl: np.ndarray
    """uint8, beside ``cells``: whether a diagonal turned it so far."""


class Spec(NamedTuple):
    """What one search keeps fixed."""

    R: int
    """Robots."""
    t: int
    """The target robot (-1: any robot may finish, the cosmic vortex)."""
    target: int
    """The target's cell."""
    tr: int
    """The transparent robot's index, -1 without one."""
    bits: int
    """Bits of one robot's cell in a state key (``tables.cell_bits``)."""
    sort_helpers: bool
    """Whether the helpers are interchangeable (their cells sorted in a key)."""
    nsb: bool
    """No straight back: a robot may not reverse its own last move."""
    mr: bool
    """Must ricochet: the target robot must have turned before it finishes."""
    no_undo: bool
    """Moves are reversible (no diagonal, opening, tower or transparent robot)
    and must-ricochet is off: reversing one's own last move never helps."""
    M: int
    """Moves one state may have at most (the move buffers' width)."""


class Start(NamedTuple):
    """The root state of a search."""

    pos: np.ndarray
    """int64: each robot's cell."""
    last_r: int
    """The robot that moved last (-1: none; no-straight-back reads it)."""
    last_h: int
    """Its heading after that move."""
    turned: int
    """1 when the target robot has ricocheted already (must-ricochet)."""
    t_head: int
    """The target robot's heading, -1 before it moves (must-ricochet)."""


class Limits(NamedTuple):
    """A*'s caps and the switch points of its raised bound (:func:`kernel.astar`)."""

    max_cost: int
    """No solution longer than this is searched for."""
    max_states: int
    """Past this many states A* stops (:attr:`SearchStatus.CAP_REACHED`)."""
    max_level: int
    """The bound is the relaxed distance plus up to this many levels (0 to 3)."""
    check_after: int
    """Expansions before the first check of a raised bound."""
    sets_full_after: int
    """Checks before the blocker sets of every slack are built."""


class Goal(NamedTuple):
    """What the target robot's raised bound reads (:func:`kernel.bound_rises`,
    :func:`kernel.blocker_sets`): the robots, the target robot, the target,
    the relaxed distance and the robot-free paths (the first four arrays of
    :class:`PathTables`, a row per robot)."""

    R: int
    """Robots."""
    t: int
    """The target robot."""
    cell: int
    """The target's cell."""
    hdist: np.ndarray
    """int32 per cell: the target robot's relaxed distance to the target."""
    start: np.ndarray
    length: np.ndarray
    cyclic: np.ndarray
    cells: np.ndarray


class BlockerSets(NamedTuple):
    """The target robot's blocker sets (:func:`kernel.blocker_sets`); their
    unions (:func:`kernel.set_unions`) travel apart, read by the searches
    alone."""

    table: np.ndarray
    """int32 ``(slacks, 2, N)``: per slack and cell the first row and the count
    (-1: unknown, ``kernel.UNBUILT``: not built yet)."""
    rows: np.ndarray
    """int32: one set a row, its size then its cells ascending."""


class Table(NamedTuple):
    """IDA*'s transposition table (:func:`kernel.tt_lookup`)."""

    entries: np.ndarray
    """uint64, two words an entry."""
    mask: np.uint64
    """Its entries - 1."""
    gen: int
    """The search's generation, in every entry's key: a table serves many
    searches without being cleared."""


class TransparentWork(NamedTuple):
    """Scratch arrays of :func:`kernel.transparent_moves`, the transparent
    robot's cheapest stops (a bucketed Dijkstra over cell and heading);
    :func:`kernel._transparent_workspace` makes them."""

    best: np.ndarray
    """int32 per cell and heading: its cost."""
    bstamp: np.ndarray
    """int64 per cell and heading: the search that set ``best`` and ``bdefl``."""
    bdefl: np.ndarray
    """int32 per cell and heading: whether a diagonal turned it."""
    queue: np.ndarray
    """int32 ``(3, M + 1)``: the three cost buckets, each a ring."""
    qhead: np.ndarray
    """int64 (3): each bucket's head."""
    qtail: np.ndarray
    """int64 (3): each bucket's tail."""
    stopc: np.ndarray
    """int32 per cell: the stop listed there."""
    sstamp: np.ndarray
    """int64 per cell: the search that listed a stop there."""
    stamp: np.ndarray
    """int64 (1): the last search's stamp (each search takes the next)."""


class Swept(NamedTuple):
    """A state's last move as :func:`kernel.commuting_dropped` reads it: robot
    ``r`` moved along its row (``along`` 1) or column (0) numbered ``line``,
    from ``u0`` to ``u1`` (cells along that line), keyed ``key`` (its end cell
    * 4 + heading), sweeping the cells ``lo``..``hi`` (its start to the cell
    after its stop)."""

    r: int
    key: int
    along: int
    line: int
    lo: int
    hi: int
    u0: int
    u1: int


__all__ = ["BlockerSets", "BoardArrays", "Goal", "Limits", "PathTables", "SearchStatus", "Spec", "Start", "Swept",
           "Table", "TransparentWork"]
