"""The solver's compiled tables and kernels against the engine's physics
(:meth:`Position.paths`) on random small boards: robot-free paths for every
colour, cell and direction; truncation by other robots; the transparent
robot's stops, costs and headings; and the relaxed distance as a lower bound
of the reference optimum."""

from __future__ import annotations

import numpy as np
from hypothesis import assume, event, given, note
from hypothesis import strategies as st
from numba import njit

from reference_solver import reference_optimum
from ricochet.board import ROBOT_COLORS, Board, Diagonal
from ricochet.geometry import DIRECTIONS
from ricochet.position import IllegalMove, Move, Position, Robot
from ricochet.puzzle import Puzzle
from ricochet.rules import Rules
from ricochet.solver import kernel
from ricochet.solver.records import BoardArrays, Spec
from ricochet.solver.tables import (
    board_tables,
    lower_bound,
    path_tables,
    robot_tables,
    straight_distance,
    straight_paths,
    straight_tables,
)
from strategies import PROPERTY, boards, positions, rule_sets

SOLID_COLORS = tuple(c for c in ROBOT_COLORS if c != "transparent")
BASE = ("red", "green", "blue", "yellow")


def engine_move(pos: Position, robot: int, d: int, rules: Rules) -> tuple[tuple[int, int], int, bool] | None:
    """(end cell, final heading index, deflected) of an ordinary robot's move, or None when illegal."""
    try:
        (path,) = pos.paths(robot, DIRECTIONS[d], rules)
    except IllegalMove:
        return None
    return path.end, path.heading.index, path.deflected


def kernel_move(board: Board, pos: Position, robot: int, d: int, rules: Rules
                ) -> tuple[tuple[int, int], int, bool] | None:
    """The same move read from the path tables as the search reads them: walk
    the robot-free path; the first cell holding another robot stops the robot
    before it; a cyclic path that no robot cuts is illegal, as is a move that
    ends where it started."""
    table = path_tables(board, rules, pos.goal, pos.robots[robot].color)
    occupied = {board.index(r.cell) for i, r in enumerate(pos.robots) if i != robot}
    s = board.index(pos.robots[robot].cell)
    idx = s * 4 + d
    o, length = int(table.start[idx]), int(table.length[idx])
    end, last, broke = s, -1, False
    for j in range(length):
        c = int(table.cells[o + j])
        if c in occupied:
            broke = True
            break
        end, last = c, j
    if (not broke and table.cyclic[idx]) or end == s:
        return None
    return board.cell(end), int(table.heads[o + last]), bool(table.defl[o + last])


@st.composite
def board_goal(draw: st.DrawFn, max_size: int = 8) -> tuple[Board, tuple[int, int] | None]:
    board = draw(boards(max_size=max_size))
    free = [c for c in board.cells() if c not in board.blocked]
    goal = None
    if draw(st.booleans(), label="has goal"):
        pool = sorted(board.towers) if bool(board.towers) and draw(st.booleans(), label="goal tower") else free
        goal = draw(st.sampled_from(pool))
    return board, goal


@PROPERTY
@given(board_goal(), rule_sets())
def test_robot_free_paths_match_the_engine(bg: tuple[Board, tuple[int, int] | None], rules: Rules) -> None:
    """Every colour, every start cell (towers included), every direction, one robot alone."""
    board, goal = bg
    for color in SOLID_COLORS:
        for cell in board.cells():
            if cell in board.blocked:
                continue
            pos = Position(board, (Robot(color, cell),), goal)
            for d in range(4):
                assert kernel_move(board, pos, 0, d, rules) == engine_move(pos, 0, d, rules), (color, cell, d)


@PROPERTY
@given(boards(max_size=8).flatmap(lambda b: positions(b, min_robots=2, colors=SOLID_COLORS)), rule_sets())
def test_paths_cut_by_other_robots_match_the_engine(pos: Position, rules: Rules) -> None:
    board = pos.board
    for r in range(len(pos.robots)):
        for d in range(4):
            assert kernel_move(board, pos, r, d, rules) == engine_move(pos, r, d, rules), (r, d)


def transparent_stops(pos: Position, robot: int, d: int, rules: Rules) -> dict[tuple[int, int], tuple[int, int, bool]]:
    """The kernel's transparent moves (end → cost, heading, deflected), called
    with the workspace and move buffers ``kernel.ida`` and ``kernel.astar``
    allocate."""
    board = pos.board
    bt = board_tables(board, rules, pos.goal)
    n = board.width * board.height
    occ = np.zeros(n, dtype=np.uint8)
    for i, r in enumerate(pos.robots):
        if i != robot:
            occ[board.index(r.cell)] = 1
    arrays = BoardArrays(board.width, board.height, n, bt.wall, bt.openm, bt.obst, bt.diag, bt.passable,
                         bt.line_coords)
    mv = kernel._move_buffers(1, len(pos.robots) * 4 + 4 * n)
    count = kernel.transparent_moves(board.index(pos.robots[robot].cell), d, arrays, occ,
                                     kernel._transparent_workspace(n, robot), mv, 0, 0)
    out_end, out_head, out_defl, out_cost = mv[2, 0], mv[3, 0], mv[4, 0], mv[5, 0]
    ends = [board.cell(int(e)) for e in out_end[:count]]
    assert len(set(ends)) == len(ends), "a stop listed twice"
    return {board.cell(int(out_end[j])): (int(out_cost[j]), int(out_head[j]), bool(out_defl[j]))
            for j in range(count)}


@st.composite
def transparent_positions(draw: st.DrawFn) -> Position:
    """A transparent robot among up to three others on a small board."""
    pos = draw(positions(draw(boards(max_size=7)), max_robots=3, colors=SOLID_COLORS))
    free = [c for c in pos.board.cells() if c not in pos.board.blocked and c not in pos.cells]
    cell = draw(st.sampled_from(free)) if free else None
    if cell is None:
        return pos
    return Position(pos.board, pos.robots + (Robot("transparent", cell),), pos.goal)


@PROPERTY
@given(transparent_positions(), rule_sets())
def test_transparent_moves_match_the_engine(pos: Position, rules: Rules) -> None:
    note(repr(pos))
    for robot, r in enumerate(pos.robots):
        if r.color != "transparent":
            continue
        for d in range(4):
            try:
                paths = pos.paths(robot, DIRECTIONS[d], rules)
            except IllegalMove:
                paths = []
            expected = {p.end: (p.cost, p.heading.index, p.deflected) for p in paths}
            assert transparent_stops(pos, robot, d, rules) == expected, DIRECTIONS[d]


@PROPERTY
@given(boards(max_size=7).flatmap(lambda b: positions(b, max_robots=1, colors=BASE, goal=False)), rule_sets(),
       st.data())
def test_relaxed_distance_is_a_lower_bound(pos: Position, rules: Rules, data: st.DataObject) -> None:
    """With one robot the relaxed distance (stop anywhere on a path) never
    exceeds the true optimum; unreachable in the relaxation means unsolvable."""
    board = pos.board
    free = [c for c in board.cells() if c not in board.blocked]
    target = data.draw(st.sampled_from(free), label="target")
    puzzle = Puzzle(pos, target, 0)
    h = lower_bound(board, rules, target, pos.robots[0].color, target)
    bound = int(h[board.index(pos.robots[0].cell)])
    ref = reference_optimum(puzzle, rules, max_cost=12, max_states=5_000)
    note(f"bound {bound}, reference {ref}")
    if ref.cost is not None:
        assert bound <= ref.cost
    if bound == kernel.INF:
        assert ref.cost is None
        if not ref.unsolvable and ref.states <= 5_000:
            # The search stopped at its cost cap, not its state cap (with must-ricochet a robot
            # can go round a few cells at a growing cost): with one robot on 7×7 at most, it
            # must then find every state within a cost the moves cannot reach.
            ref = reference_optimum(puzzle, rules, max_cost=250, max_states=5_000)
        assert ref.unsolvable or ref.states > 5_000
    assert int(h[board.index(target)]) == 0


def test_relaxed_distance_unreachable_where_must_ricochet_loops() -> None:
    """The case a random run of the property above found: the relaxed distance says the
    target is out of reach, and the reference search, capped at 12 moves, stops at that cap
    after 14 states (the robot goes round at a growing cost) rather than proving it; with a
    higher cap it proves it."""
    pos = Position.from_code("xY2RnZYABRmYmBiCPkYGFkZWFjRkiCAA.r00")
    rules = Rules(must_ricochet=True, no_straight_back=True, diagonals=True, openings=True, silver=True,
                  goal_tower_passthrough=True)
    h = lower_bound(pos.board, rules, (6, 4), pos.robots[0].color, (6, 4))
    assert int(h[pos.board.index(pos.robots[0].cell)]) == kernel.INF
    puzzle = Puzzle(pos, (6, 4), 0)
    capped = reference_optimum(puzzle, rules, max_cost=12, max_states=5_000)
    assert capped.cost is None and not capped.unsolvable and capped.states < 100
    assert reference_optimum(puzzle, rules, max_cost=250, max_states=5_000).unsolvable


def test_transparent_lower_bound_is_one_off_the_target() -> None:
    board = Board.build(4, 4)
    h = lower_bound(board, Rules(), (1, 1), "transparent", (1, 1))
    assert h[board.index((1, 1))] == 0 and (np.delete(h, board.index((1, 1))) == 1).all()


def _key_spec(R: int, t: int, bits: int, sort_helpers: bool, nsb: bool = False, mr: bool = False) -> Spec:
    """A :class:`Spec` of what the keys read (the rest as a plain search has it)."""
    return Spec(R, t, 0, -1, bits, sort_helpers, nsb, mr, False, 4 * R)


@PROPERTY
@given(st.data())
def test_child_key_matches_state_key(data: st.DataObject) -> None:
    """A* keys each child from its parent's key (``kernel.child_key``, scalars
    only); the result is the key :func:`kernel.state_key` packs from the
    child's robot cells, for every rule state and with helpers sorted or not."""
    bits = data.draw(st.integers(3, 10), label="bits")
    R = data.draw(st.integers(1, 6), label="robots")
    cells = data.draw(st.lists(st.integers(0, (1 << bits) - 1), min_size=R + 1, max_size=R + 1, unique=True),
                      label="cells")
    pos, new = np.array(cells[:R], dtype=np.int64), cells[R]
    t = data.draw(st.integers(-1 if R > 1 else 0, R - 1), label="target robot")
    r = data.draw(st.integers(0, R - 1), label="moving robot")
    sort_helpers, nsb, mr = (data.draw(st.booleans(), label=name) for name in ("sort", "nsb", "mr"))
    heading, turned, t_head = data.draw(st.integers(0, 3)), data.draw(st.integers(0, 1)), data.draw(st.integers(-1, 3))
    scratch = np.empty(8, dtype=np.int64)
    spec = _key_spec(R, t, bits, sort_helpers, nsb, mr)
    parent, _ = kernel.state_key(pos, _key_spec(R, t, bits, sort_helpers), -1, 0, 0, -1, scratch)
    child = pos.copy()
    child[r] = new
    expected = kernel.state_key(child, spec, r, heading, turned, t_head, scratch)
    field = -1 if r == t else (r if t < 0 or r < t else r - 1)
    got = kernel.child_key(parent, spec, field, int(pos[r]), new, heading, turned, t_head)
    assert (int(got[0]), int(got[1])) == (int(expected[0]), int(expected[1]))


@PROPERTY
@given(st.data())
def test_word_key_matches_state_key(data: st.DataObject) -> None:
    """``kernel.word_key`` (a record's packed cells to k1, scalars only) gives
    :func:`kernel.state_key`'s k1, helpers sorted or not, any robot or one."""
    bits = data.draw(st.integers(3, 10), label="bits")
    R = data.draw(st.integers(1, 6), label="robots")
    cells = data.draw(st.lists(st.integers(0, (1 << bits) - 1), min_size=R, max_size=R, unique=True), label="cells")
    t = data.draw(st.integers(-1 if R > 1 else 0, R - 1), label="target robot")
    sort_helpers = data.draw(st.booleans(), label="sort")
    word = 0
    for q, c in enumerate(cells):
        word |= c << (q * bits)
    spec = _key_spec(R, t, bits, sort_helpers)
    expected, _ = kernel.state_key(np.array(cells, dtype=np.int64), spec, -1, 0, 0, -1, np.empty(8, dtype=np.int64))
    assert int(kernel.word_key(np.uint64(word), spec)) == int(expected)


def _rays(start: np.ndarray, length: np.ndarray, cyclic: np.ndarray, cells: np.ndarray, heads: np.ndarray,
          defl: np.ndarray) -> list[tuple[object, ...]]:
    """Each ray of one robot's path tables as the kernels read it: its
    length, whether it cycles, and its cells, headings and deflections."""
    rays = []
    for i in range(len(length)):
        o, n = int(start[i]), int(length[i])
        rays.append((n, int(cyclic[i]), cells[o:o + n].tolist(), heads[o:o + n].tolist(), defl[o:o + n].tolist()))
    return rays


@PROPERTY
@given(boards(max_size=8, diagonals=False, openings=False), st.data())
def test_straight_tables_equal_the_general_ones(board: Board, data: st.DataObject) -> None:
    """On a board of straight moves, ``straight_paths``, ``straight_tables``
    (a row per robot) and ``straight_distance`` (the fast builders every plain
    board uses) hold exactly the rays of the general ``build_paths`` (the
    same cells, headings and deflections along each ray, though laid out in
    one list shared by every board of the size) and the distances of
    ``relaxed_distance``."""
    free = [c for c in board.cells() if c not in board.blocked]
    goal = data.draw(st.sampled_from(free), label="goal")
    bt = board_tables(board, Rules(), goal)
    w, h, n = bt.width, bt.height, bt.cells
    fast = straight_paths(w, h, bt.wall, bt.obst)
    general = kernel.build_paths(w, h, bt.wall, bt.openm, bt.obst, bt.diag, bt.dcol, 4)
    assert _rays(*fast) == _rays(*general)
    assert np.array_equal(fast[1], general[1]), "the lengths"
    rows = data.draw(st.integers(1, 5), label="robots")
    stacked = straight_tables(w, h, bt.wall, bt.obst, rows)  # what robot_tables passes the kernels
    for name in ("start", "length", "cyclic"):
        assert getattr(stacked, name).shape == (rows, 4 * n), name
    for r in range(rows):
        assert _rays(stacked.start[r], stacked.length[r], stacked.cyclic[r], stacked.cells, stacked.heads,
                     stacked.defl) == _rays(*general), f"robot {r}"
    start, length, cells = fast[0], fast[1], fast[3]
    for target in {board.index(goal), board.index(data.draw(st.sampled_from(free), label="target"))}:
        expected = kernel.relaxed_distance(n, start, length, cells, target)
        assert np.array_equal(straight_distance(w, h, bt.wall, bt.obst, target), expected), board.cell(target)


@njit  # not cached: numba's cache would not see a change in the kernel functions it inlines
def _moves_both_ways(pos, spec, last_r, last_h, helpers, board, paths, lines):  # type: ignore[no-untyped-def]
    """(moves of ``kernel._gen``, moves of ``kernel._gen_lines``) of one
    state, as (6, n) arrays, set up as ``kernel.astar`` sets them up (no
    commuting move dropped: the last move's start is unknown)."""
    R, H, xy = spec.R, board.H, board.xy
    a = kernel._move_buffers(1, 4 * R)
    b = kernel._move_buffers(1, 4 * R)
    occ = np.zeros(board.N, dtype=np.uint8)
    for q in range(R):
        c = pos[q]
        occ[c] = 1
        lines[xy[1, c]] |= np.uint64(1) << np.uint64(xy[0, c])
        lines[H + xy[0, c]] |= np.uint64(1) << np.uint64(xy[1, c])
    n1 = kernel._gen(0, pos, occ, spec, last_r, last_h, helpers, paths, a)
    n2 = kernel._gen_lines(0, pos, spec, last_r, last_h, -1, helpers, board, paths.length, lines, b)
    for q in range(R):
        c = pos[q]
        lines[xy[1, c]] = np.uint64(0)
        lines[H + xy[0, c]] = np.uint64(0)
    out1 = np.empty((6, n1), dtype=np.int32)
    out2 = np.empty((6, n2), dtype=np.int32)
    for i in range(6):
        out1[i] = a[i, 0, :n1]
        out2[i] = b[i, 0, :n2]
    return out1, out2


@PROPERTY
@given(boards(max_size=8, diagonals=False, openings=False).flatmap(
    lambda b: positions(b, colors=SOLID_COLORS, goal=False)), st.data())
def test_moves_by_bit_masks_equal_the_walk_along_the_rays(pos: Position, data: st.DataObject) -> None:
    """Where every move is straight, ``kernel._gen_lines`` (a stop from the
    robots' row and column bit masks) lists exactly the moves of
    ``kernel._gen`` (a walk along each robot-free ray), which the test above
    holds to the engine: every robot first or only the target robot's,
    whatever the last move and the no-undo rule."""
    board = pos.board
    bt = board_tables(board, Rules(), None)
    rt = robot_tables(board, Rules(), None, tuple(r.color for r in pos.robots))
    n, w, h = bt.cells, bt.width, bt.height
    xy, lines = bt.line_coords, np.zeros(w + h, dtype=np.uint64)  # as kernel.astar has them
    assert xy.shape == (2, n)
    cells = np.array([board.index(r.cell) for r in pos.robots], dtype=np.int64)
    R = len(pos.robots)
    t = data.draw(st.integers(-1, R - 1), label="target robot (-1: any)")
    last_r = data.draw(st.integers(-1, R - 1), label="last robot")
    last_h = data.draw(st.integers(0, 3), label="last heading")
    flags = data.draw(st.tuples(st.booleans(), st.booleans(), st.booleans()), label="nsb, helpers, no_undo")
    spec = Spec(R, t, 0, -1, 8, False, flags[0], False, flags[2], 4 * R)
    arrays = BoardArrays(w, h, n, bt.wall, bt.openm, bt.obst, bt.diag, bt.passable, xy)
    walk, masks = _moves_both_ways(cells, spec, last_r, last_h, flags[1] or t < 0, arrays, rt, lines)
    assert np.array_equal(walk, masks)
    assert not lines.any(), "the masks are left clear for the next state"


@njit  # not cached (as above)
def _moves_kept_and_all(pos, spec, last_r, last_h, last_from, board, plen, lines):  # type: ignore[no-untyped-def]
    """(the moves ``kernel._gen_lines`` keeps where it drops commuting ones,
    all of them where it does not: the last move's start unknown), as (3, n)
    arrays: robot, direction, end."""
    R, H, xy = spec.R, board.H, board.xy
    a = kernel._move_buffers(1, 4 * R)
    b = kernel._move_buffers(1, 4 * R)
    for q in range(R):
        c = pos[q]
        lines[xy[1, c]] |= np.uint64(1) << np.uint64(xy[0, c])
        lines[H + xy[0, c]] |= np.uint64(1) << np.uint64(xy[1, c])
    n1 = kernel._gen_lines(0, pos, spec, last_r, last_h, last_from, True, board, plen, lines, a)
    n2 = kernel._gen_lines(0, pos, spec, last_r, last_h, -1, True, board, plen, lines, b)
    for q in range(R):
        c = pos[q]
        lines[xy[1, c]] = np.uint64(0)
        lines[H + xy[0, c]] = np.uint64(0)
    return a[:3, 0, :n1].copy(), b[:3, 0, :n2].copy()


@PROPERTY
@given(boards(max_size=8, diagonals=False, openings=False, towers=False).flatmap(
    lambda b: positions(b, min_robots=2, colors=SOLID_COLORS, goal=False)), st.data())
def test_a_move_dropped_as_commuting_leads_where_the_other_order_leads(before: Position,
                                                                       data: st.DataObject) -> None:
    """``kernel.commuting_dropped``, held to the engine: after robot C's move,
    another robot's move is dropped only if, played first, it ends on the
    same cell and C's move then ends on the same cell too (the same state,
    at the same cost), if it comes first in the order (end cell * 4 +
    direction), and if it does not finish.  Dropping only removes moves."""
    board = before.board
    R = len(before.robots)
    last = data.draw(st.integers(0, R - 1), label="last robot")
    heading = data.draw(st.sampled_from(DIRECTIONS), label="its heading")
    try:
        pos, _ = before.play(Move(last, heading))
    except IllegalMove:
        return
    assume(pos.robots[last].cell != before.robots[last].cell)
    t = data.draw(st.integers(-1, R - 1), label="target robot (-1: any)")
    target = board.index(data.draw(st.sampled_from(list(board.cells())), label="target"))
    bt = board_tables(board, Rules(), None)
    w, h = bt.width, bt.height
    rt = robot_tables(board, Rules(), None, tuple(r.color for r in pos.robots))
    cells = np.array([board.index(r.cell) for r in pos.robots], dtype=np.int64)
    lines = np.zeros(w + h, dtype=np.uint64)
    d_last = DIRECTIONS.index(heading)
    x0, y0 = before.robots[last].cell
    spec = Spec(R, t, target, -1, 8, False, False, False, True, 4 * R)  # plain sliding moves, no rule state
    arrays = BoardArrays(w, h, bt.cells, bt.wall, bt.openm, bt.obst, bt.diag, bt.passable, bt.line_coords)
    kept, every = _moves_kept_and_all(cells, spec, last, d_last, x0 if d_last % 2 else y0, arrays, rt.length, lines)
    every_moves = [tuple(m) for m in every.T.tolist()]
    kept_moves = [tuple(m) for m in kept.T.tolist()]
    assert kept_moves == [m for m in every_moves if m in kept_moves], "dropping only removes moves"
    last_end = cells[last]
    dropped = set(every_moves) - set(kept_moves)
    event("some move dropped" if dropped else "none dropped")
    for r, d, e in dropped:
        note(f"dropped: robot {r} {DIRECTIONS[d].name} to {board.cell(e)}")
        assert r != last and e * 4 + d < last_end * 4 + DIRECTIONS.index(heading)
        axis = 1 if d_last % 2 else 0  # the last move's row (1) or column (0) coordinate
        ends = (board.cell(int(cells[r]))[axis], board.cell(e)[axis])
        if board.cell(int(last_end))[axis] in range(min(ends), max(ends) + 1):
            event("a move meeting the last move's line dropped")
        assert not ((r == t or t < 0) and e == target), "a finishing move is never dropped"
        first, _ = before.play(Move(r, DIRECTIONS[d]))
        assert first.robots[r].cell == board.cell(e)
        both, _ = first.play(Move(last, heading))
        after, _ = pos.play(Move(r, DIRECTIONS[d]))
        assert both.cells == after.cells


def test_moves_by_bit_masks_only_where_every_move_is_straight() -> None:
    """A diagonal or an opening in play: no cell coordinates
    (``BoardTables.line_coords`` is empty), so the kernels walk along the
    rays.  (They also walk where a transparent robot is in play, which they
    check themselves: ``_gen`` leaves its moves to their own generator,
    ``_gen_lines`` does not.)"""
    plain = board_tables(Board.build(5, 4), Rules(), None).line_coords
    assert plain.shape == (2, 20) and (plain[0, 7], plain[1, 7]) == (2, 1)
    diagonal = Board.build(5, 5, diagonals=[Diagonal((2, 2), "blue", "/")])
    assert board_tables(diagonal, Rules(), None).line_coords.shape == (2, 0)
    assert board_tables(diagonal, Rules(diagonals=False), None).line_coords.shape == (2, 25)
    opening = Board.build(5, 5, openings=[((4, 2), "E")])
    assert board_tables(opening, Rules(), None).line_coords.shape == (2, 0)
    assert board_tables(opening, Rules(openings=False), None).line_coords.shape == (2, 25)
    assert board_tables(Board.build(32, 3), Rules(), None).line_coords.shape == (2, 96)  # the widest board


def test_board_layers_a_board_does_not_use_are_shared_and_blank() -> None:
    """A new board's tables cost microseconds: the layers it does not use (no
    opening in play, no diagonal) are one blank array per size, shared by
    every such board, and never written; the layers it uses are its own.
    Obstacles are the blocked cells and the towers other than a goal tower
    that robots pass through."""
    a = board_tables(Board.build(5, 4, walls=[(1, 1, "E")]), Rules(), None)
    b = board_tables(Board.build(5, 4, blocked=[(2, 2)]), Rules(), None)
    assert a.openm is b.openm and a.diag is b.diag and a.dcol is b.dcol
    assert not a.openm.any() and not a.diag.any() and (a.dcol == -1).all()
    assert not a.has_openings and not a.has_diagonals
    assert list(np.flatnonzero(b.obst)) == [12] and not a.obst.any()
    assert a.wall.flags.writeable and a.wall.tobytes() == bytes(a.board.walls)

    opening = board_tables(Board.build(5, 4, openings=[((4, 2), "E")]), Rules(), None)
    assert opening.has_openings and opening.openm is not a.openm and list(np.flatnonzero(opening.openm)) == [14]
    assert not a.openm.any(), "the shared layer stays blank"
    assert board_tables(opening.board, Rules(openings=False), None).openm is a.openm

    diagonal = board_tables(Board.build(5, 4, diagonals=[Diagonal((1, 2), "blue", "/")]), Rules(), None)
    assert diagonal.has_diagonals and diagonal.diag is not a.diag
    assert (diagonal.diag[11], diagonal.dcol[11]) == (1, ROBOT_COLORS.index("blue"))
    assert not a.diag.any() and (a.dcol == -1).all()

    towers = Board.build(5, 4, towers=[(0, 0), (3, 1)])
    assert list(np.flatnonzero(board_tables(towers, Rules(), None).obst)) == [0, 8]
    assert list(np.flatnonzero(board_tables(towers, Rules(), (3, 1)).obst)) == [0]  # the goal tower
    assert list(np.flatnonzero(board_tables(towers, Rules(goal_tower_passthrough=False), (3, 1)).obst)) == [0, 8]


def test_straight_boards_of_one_size_share_their_ray_cells() -> None:
    """A straight board's own path table is its ray lengths: the cells along
    the rays (``start``, ``cells``, ``heads``) are one list per board size,
    shared by every such board and never written by a search, so a board not
    seen before costs the lengths alone.  A* and IDA* give the same lengths
    on them before and after many searches on other boards of the size."""
    from ricochet.generate import random_puzzles
    from ricochet.solver import solve
    from ricochet.solver.tables import clear_caches, straight_rays

    puzzles = [p for p in random_puzzles(2026, 40) if p.active is not None]
    first, second = puzzles[0], next(p for p in puzzles if p.position.board != puzzles[0].position.board)
    # Tables cached by earlier tests in this process may hold an older list of the size, from
    # before straight_rays' cache let it go (64 sizes): these two are built now.
    clear_caches()
    a = robot_tables(first.position.board, first.rules, first.target, ("red",) * 4)
    b = robot_tables(second.position.board, second.rules, second.target, ("red",) * 4)
    assert a.start is b.start and a.cells is b.cells and a.heads is b.heads
    assert not np.array_equal(a.length, b.length), "the lengths are each board's own"
    shared = [x.copy() for x in straight_rays(16, 16, 4)]
    lengths = [solve(p).length for p in puzzles]
    clear_caches()
    assert all(np.array_equal(x, y) for x, y in zip(shared, straight_rays(16, 16, 4), strict=True)), "left as built"
    assert [solve(p, max_states=1).length for p in puzzles] == lengths  # IDA* reads them too
    general = kernel.build_paths(16, 16, *(getattr(board_tables(second.position.board, Rules(), None), k)
                                           for k in ("wall", "openm", "obst", "diag", "dcol")), 4)
    assert _rays(b.start[3], b.length[3], b.cyclic[3], b.cells, b.heads, b.defl) == _rays(*general)


def test_a_search_sets_up_from_one_bundle_per_board_and_colours() -> None:
    """``search_tables`` bundles what every search on a board with robots of
    these colours shares, built from the same tables as ``robot_tables``: one
    bundle per board and colours, and none kept past ``clear_caches`` (the
    bench's board "not seen before" must build everything again)."""
    from ricochet.solver.tables import clear_caches, physics_key, search_tables

    board = Board.build(8, 8, [(3, 3, "E")], blocked=[(5, 5)])
    rules = Rules()
    key = physics_key(board, rules, (1, 1))
    plain = search_tables(key, ("red", "blue"))
    assert plain is search_tables(physics_key(board, rules, (6, 2)), ("red", "blue")), "one per board and colours"
    assert plain.paths is robot_tables(board, rules, (1, 1), ("red", "blue"))
    assert (plain.robots, plain.transparent, plain.bits, plain.max_moves_per_node) == (2, -1, 6, 8)
    assert plain.reversible and plain.passable.shape == (1,)
    glass = search_tables(key, ("red", "transparent"))
    assert glass.transparent == 1 and not glass.reversible
    assert glass.max_moves_per_node == 2 * 4 + 4 * 64
    assert np.array_equal(glass.passable, board_tables(board, rules, None).passable)
    towered = search_tables(physics_key(Board.build(8, 8, towers=[(2, 2)]), rules, (1, 1)), ("red",))
    assert not towered.reversible, "a robot that leaves a tower cannot move back onto it"
    clear_caches()
    again = search_tables(key, ("red", "blue"))
    assert again is not plain and again.paths is not plain.paths
    assert np.array_equal(again.paths.length, plain.paths.length)
