"""Property tests of the move physics and of solution checking on random
small boards (walls, blocked cells, diagonals, openings, towers) with random
robots, including silver and transparent ones.

Each property is checked against what the rules say, not against the
engine's own helpers: a path is re-walked cell by cell, an ordinary slide is
recomputed by a plain reference simulation, the transparent robot's stops by
a heap-based Dijkstra, and a solution verdict by replaying the moves.
"""

from __future__ import annotations

import heapq
import itertools

from hypothesis import assume, given
from hypothesis import strategies as st

from ricochet import Direction, IllegalMove, Move, Position, Puzzle, Rules, check_solution
from ricochet.geometry import DIRECTIONS
from strategies import PROPERTY, boards, moves_for, positions, rule_sets

ILLEGAL_REASONS = {"robot", "blocked", "reversal", "cycle", "stop"}


# -- independent reference physics ----------------------------------------------

def closed(pos: Position, cell, heading, rules: Rules) -> bool:
    """A wall on that side (an opening counts as a wall only when openings are off)."""
    b = pos.board
    if b.is_opening(cell, heading):
        return not rules.openings
    return bool(b.walls[b.index(cell)] & heading)


def ahead(pos: Position, cell, heading, rules: Rules):
    """(next cell, came through an opening) ignoring obstacles, or None at a wall."""
    if closed(pos, cell, heading, rules):
        return None
    if pos.board.is_opening(cell, heading):
        return pos.board.wrap(cell, heading), True
    return heading.step(cell), False


def obstacle(pos: Position, cell, mover: int, rules: Rules) -> bool:
    b = pos.board
    if cell in b.blocked:
        return True
    if cell in b.towers and not (rules.goal_tower_passthrough and cell == pos.goal):
        return True
    return any(i != mover and r.cell == cell for i, r in enumerate(pos.robots))


def turn(pos: Position, robot: int, cell, heading, rules: Rules):
    dg = pos.board.diagonal_at(cell) if rules.diagonals else None
    if dg is None or dg.color == pos.robots[robot].color:
        return heading
    return dg.deflect(heading)


def reference_slide(pos: Position, robot: int, d: Direction, rules: Rules):
    """The cells an ordinary robot visits and its last heading, or ``"cycle"``/``"blocked"``."""
    cell, heading, cells = pos.robots[robot].cell, d, [pos.robots[robot].cell]
    limit = 4 * pos.board.width * pos.board.height + 2
    for _ in range(limit):
        nxt = ahead(pos, cell, heading, rules)
        if nxt is None or obstacle(pos, nxt[0], robot, rules):
            return ("blocked" if cell == cells[0] else (cells, heading))
        cell = nxt[0]
        heading = turn(pos, robot, cell, heading, rules)
        cells.append(cell)
    return "cycle"


def reference_transparent_stops(pos: Position, robot: int, d: Direction, rules: Rules) -> dict:
    """Cheapest cost (1 + passes) of every stop of the transparent robot (heap
    Dijkstra); ``{None: 0}`` when every route circles forever."""
    b = pos.board
    start = pos.robots[robot].cell
    best = {(start, d): 0}
    heap = [(0, start, d)]
    out: dict = {}
    halts = False
    while heap:
        cost, cell, heading = heapq.heappop(heap)
        if best[(cell, heading)] < cost:
            continue
        nxt = ahead(pos, cell, heading, rules)
        edges = []
        if nxt is not None and not obstacle(pos, nxt[0], robot, rules):
            edges.append((nxt[0], 0))
        elif nxt is None and b.wall_passable(cell, heading) and not obstacle(pos, heading.step(cell), robot, rules):
            edges.append((heading.step(cell), 1))
        stop_here = nxt is None or obstacle(pos, nxt[0], robot, rules)
        halts = halts or stop_here
        if stop_here and cell != start:
            out[cell] = min(out.get(cell, cost + 1), cost + 1)   # the move itself counts one
        for ncell, extra in edges:
            dg = b.diagonal_at(ncell) if rules.diagonals else None
            options = [(heading, 0)] if dg is None else [(dg.deflect(heading), 0), (heading, 1)]
            for h, more in options:
                c = cost + extra + more
                if c < best.get((ncell, h), 1 << 30):
                    best[(ncell, h)] = c
                    heapq.heappush(heap, (c, ncell, h))
    return out if halts else {None: 0}


def check_path(pos: Position, move: Move, path, rules: Rules) -> None:
    """Every rule a single path must obey, checked step by step."""
    b = pos.board
    robot = pos.robots[move.robot]
    transparent = robot.color == "transparent"
    assert path.robot == move.robot and path.direction == move.direction and path.start == robot.cell
    assert path.steps, "a move leaves its cell"
    assert path.end != path.start
    cell, heading, extra = path.start, move.direction, 0
    for step in path.steps:
        events = set((step.event or "").split("+")) - {""}
        # where it goes: a neighbour through an open side, a wrap, or (transparent) through a wall
        if "wrap" in events:
            assert rules.openings and b.is_opening(cell, heading) and step.cell == b.wrap(cell, heading)
        elif "wall" in events:
            assert transparent and b.wall_passable(cell, heading) and step.cell == heading.step(cell)
            extra += 1
        else:
            assert not closed(pos, cell, heading, rules) and not b.is_opening(cell, heading)
            assert step.cell == heading.step(cell)
        assert b.in_bounds(step.cell)
        assert not obstacle(pos, step.cell, move.robot, rules), "never enters a blocked cell, tower or robot"
        # what happens there
        dg = b.diagonal_at(step.cell) if rules.diagonals else None
        if dg is None:
            assert step.heading == heading and not events & {"deflect", "pass", "diagonal"}
        elif dg.color == robot.color:
            assert step.heading == heading and "pass" in events
        elif "diagonal" in events:
            assert transparent and step.heading == heading
            extra += 1
        else:
            assert "deflect" in events and step.heading == dg.deflect(heading)
        cell, heading = step.cell, step.heading
    assert path.heading == heading
    assert path.cost == 1 + extra
    # it stops only where something stops it
    nxt = ahead(pos, cell, heading, rules)
    assert nxt is None or obstacle(pos, nxt[0], move.robot, rules)
    if not transparent:
        assert extra == 0


# -- properties ------------------------------------------------------------------

@PROPERTY
@given(positions(), rule_sets())
def test_every_legal_move_obeys_the_physics(pos, rules):
    """Moves never leave the board, never end on a blocked cell, a non-goal tower
    or another robot; the path is contiguous (neighbour or wrap through an
    opening, or a transparent wall pass); it stops only at an obstacle; and the
    robots never overlap."""
    for move, path in pos.legal_moves(rules):
        check_path(pos, move, path, rules)
        nxt, again = pos.play(move, rules)
        assert again == path
        cells = nxt.cells
        assert len(set(cells)) == len(cells)
        assert nxt.robots[move.robot].cell == path.end
        assert all(a == c for i, (a, c) in enumerate(zip(pos.cells, cells)) if i != move.robot)
        assert nxt.last_move == (move.robot, path.heading)
        assert nxt.board is pos.board and nxt.goal == pos.goal
        end = path.end
        assert b_ok(pos, end, rules)


def b_ok(pos: Position, cell, rules: Rules) -> bool:
    b = pos.board
    return (b.in_bounds(cell) and cell not in b.blocked
            and not (cell in b.towers and not (rules.goal_tower_passthrough and cell == pos.goal)))


@PROPERTY
@given(positions(), rule_sets())
def test_legal_moves_equal_play_and_cover_every_direction(pos, rules):
    """legal_moves lists exactly the moves play accepts, with play's paths; every
    other (robot, direction) raises IllegalMove with a stable reason."""
    listed = {}
    for move, path in pos.legal_moves(rules):
        listed.setdefault((move.robot, move.direction), []).append(path)
    for i, r in enumerate(pos.robots):
        for d in DIRECTIONS:
            try:
                paths = pos.paths(i, d, rules)
            except IllegalMove as e:
                assert e.reason in ILLEGAL_REASONS
                assert (i, d) not in listed
                continue
            assert listed[(i, d)] == paths
            if r.color != "transparent":
                assert len(paths) == 1
            assert len({p.end for p in paths}) == len(paths)


@PROPERTY
@given(positions(), rule_sets())
def test_ordinary_slide_matches_reference_simulation(pos, rules):
    """An ordinary robot slides deterministically until blocked; cycles are illegal;
    a non-move is illegal; reversal is refused only right after its own move."""
    for i, r in enumerate(pos.robots):
        if r.color == "transparent":
            continue
        for d in DIRECTIONS:
            expected = reference_slide(pos, i, d, rules)
            try:
                pos2, path = pos.play(Move(i, d), rules)
            except IllegalMove as e:
                if e.reason == "reversal":
                    assert rules.no_straight_back and pos.last_move == (i, d.opposite)
                    continue
                if expected == "blocked":
                    assert e.reason == "blocked"
                elif expected == "cycle":
                    assert e.reason == "cycle"
                else:
                    # it came back to its own cell: not a move
                    assert e.reason == "blocked" and expected[0][-1] == r.cell
                continue
            assert expected not in ("blocked", "cycle")
            cells, heading = expected
            assert path.cells == tuple(cells) and path.heading == heading
            assert pos.play(Move(i, d), rules) == (pos2, path), "play is deterministic"


@PROPERTY
@given(positions(colors=("transparent", "red", "green", "blue", "yellow", "silver"), min_robots=1), rule_sets())
def test_transparent_stops_are_the_cheapest_possible(pos, rules):
    """Seed 002: the transparent robot may stop at any interior wall or obstacle it
    reaches, passing walls and diagonals at +1 each; each stop is offered once at
    its cheapest cost."""
    i = next((k for k, r in enumerate(pos.robots) if r.color == "transparent"), None)
    assume(i is not None)
    pos = pos.with_robots(pos.cells)   # clear the no-straight-back state
    for d in DIRECTIONS:
        expected = reference_transparent_stops(pos, i, d, rules)
        try:
            paths = pos.paths(i, d, rules)
        except IllegalMove as e:
            assert (e.reason, expected) in (("blocked", {}), ("cycle", {None: 0}))
            continue
        assert {p.end: p.cost for p in paths} == expected
        for p in paths:
            check_path(pos, Move(i, d, p.end), p, rules)


@PROPERTY
@given(positions(colors=("red", "green", "blue", "yellow", "silver"), diagonals=False, openings=False), st.data())
def test_move_then_reverse_retraces_the_path(pos, data):
    """Without diagonals or openings, moving straight back retraces the path: it
    returns over every cell it crossed and reaches its start or beyond — unless it
    started on a (non-goal) tower, which then stops it one square short (seed 003)."""
    moves = pos.legal_moves()
    assume(moves)
    move, path = data.draw(st.sampled_from(moves))
    after = pos.play(move)[0]
    back = Move(move.robot, move.direction.opposite)
    start_is_tower = path.start in pos.board.towers and path.start != pos.goal
    forward_back = tuple(reversed(path.cells))
    try:
        _, rpath = after.play(back)
    except IllegalMove as e:
        assert start_is_tower and len(path.cells) == 2 and e.reason == "blocked"
        return
    if start_is_tower:
        assert rpath.cells == forward_back[:-1]
    else:
        assert rpath.cells[:len(forward_back)] == forward_back
    # and with no moving straight back, that reverse is refused
    try:
        after.play(back, Rules(no_straight_back=True))
        raise AssertionError("a reversal was allowed")
    except IllegalMove as e:
        assert e.reason == "reversal"


def turned(pos: Position, moves, rules: Rules, robot: int) -> bool:
    """Did ``robot`` change direction by 90° at some point (within a move or between two of its moves)?"""
    headings: list[Direction] = []
    for m in moves:
        pos, path = pos.play(m, rules)
        if m.robot == robot:
            headings.append(m.direction)
            headings.extend(s.heading for s in path.steps)
    return any(a.perpendicular(b) for a, b in itertools.pairwise(headings))


@PROPERTY
@given(positions(max_robots=4, colors=("red", "green", "blue", "yellow", "silver", "transparent")), rule_sets(),
       st.data())
def test_check_solution_accepts_exactly_legal_replays_to_the_target(pos, rules, data):
    """check_solution accepts a move list exactly when it replays legally, ends
    with the robot that counts on the target, turns 90° when must-ricochet is on,
    and costs no more than the bid; its cost is the sum of the path costs."""
    free = [c for c in pos.board.cells() if c not in pos.board.blocked]
    target = data.draw(st.sampled_from(free), label="target")
    ordinary = [i for i, r in enumerate(pos.robots) if r.color not in ("silver", "transparent")]
    active = data.draw(st.sampled_from([None] + ordinary), label="active")
    pz = Puzzle(pos, target, active=active)
    start = pz.position
    # mostly legal moves, sometimes arbitrary ones
    ms: list[Move] = []
    cur = start
    for _ in range(data.draw(st.integers(0, 5), label="length")):
        legal = cur.legal_moves(rules)
        if legal and data.draw(st.booleans()):
            m = data.draw(st.sampled_from(legal))[0]
        else:
            m = data.draw(moves_for(cur))
        ms.append(m)
        try:
            cur = cur.play(m, rules)[0]
        except IllegalMove:
            break
    bid = data.draw(st.one_of(st.none(), st.integers(0, 12)), label="bid")
    verdict = check_solution(pz, ms, rules, max_cost=bid)

    # the expected verdict, by replaying
    p, cost, legal_prefix, bad = start.with_rules(rules), 0, 0, None
    for k, m in enumerate(ms):
        try:
            p, path = p.play(m, rules)
        except IllegalMove as e:
            bad = (k, e.reason)
            break
        cost += path.cost
        legal_prefix += 1
    assert verdict.cost == cost and len(verdict.paths) == legal_prefix and verdict.position == p
    if bad is not None:
        assert not verdict.ok and (verdict.failure.move, verdict.failure.reason) == bad
        return
    on = p.robot_at(target)
    winner = on if on is not None and (active is None or on == active) else None
    if winner is None:
        assert not verdict.ok and verdict.failure.reason == "not_reached"
    elif rules.must_ricochet and not turned(start, ms, rules, winner):
        assert not verdict.ok and verdict.failure.reason == "no_ricochet"
    elif bid is not None and cost > bid:
        assert not verdict.ok and verdict.failure.reason == "too_long"
    else:
        assert verdict.ok and verdict.failure is None


@PROPERTY
@given(boards())
def test_board_walls_are_symmetric_and_border_closed(board):
    """Board.build sets both sides of every wall and closes the border (openings aside)."""
    for cell in board.cells():
        for d in DIRECTIONS:
            nxt = d.step(cell)
            if board.in_bounds(nxt):
                assert board.wall(cell, d) == board.wall(nxt, d.opposite)
            else:
                assert board.wall(cell, d) != board.is_opening(cell, d)


@PROPERTY
@given(positions(), rule_sets(), st.data())
def test_no_straight_back_refuses_only_the_reversal(pos, rules, data):
    """Ruling 3: after robot *i* stops with heading *h*, the only move the rule
    takes away is *i* moving opposite to *h*; once another robot has moved, nothing."""
    plain = rules.with_options(no_straight_back=False)
    strict = rules.with_options(no_straight_back=True)
    legal = pos.legal_moves(plain)
    assume(legal)
    move, path = data.draw(st.sampled_from(legal))
    after = pos.play(move, strict)[0]

    def keys(p: Position, r: Rules):
        return {(m.robot, m.direction, m.stop) for m, _ in p.legal_moves(r)}

    free = keys(after, plain)
    assert keys(after, strict) == {k for k in free if (k[0], k[1]) != (move.robot, path.heading.opposite)}
    others = [(m, p) for m, p in after.legal_moves(plain) if m.robot != move.robot]
    if others:
        other = data.draw(st.sampled_from(others))[0]
        later = after.play(other, strict)[0]
        assert {(m.robot, m.direction) for m, _ in later.legal_moves(strict)} >= {
            (m.robot, m.direction) for m, _ in later.legal_moves(plain)
            if m.robot == move.robot}


@PROPERTY
@given(boards(), st.data())
def test_the_fast_wall_check_agrees_with_the_cell_by_cell_one(board, data):
    """A board's masks are checked with whole-row byte comparisons; any one
    bit flipped must be refused, with the first fault in reading order named
    (the cell-by-cell walk that only runs to say which)."""
    from ricochet.board import BoardError, _first_wall_error, _walls_consistent

    w, h = board.width, board.height
    assert _walls_consistent(bytes(board.walls), w, h) and _first_wall_error(board.walls, w, h) is None
    walls = list(board.walls)
    for _ in range(data.draw(st.integers(1, 3))):
        walls[data.draw(st.integers(0, w * h - 1))] ^= data.draw(st.sampled_from(DIRECTIONS)).value
    message = _first_wall_error(tuple(walls), w, h)
    assert _walls_consistent(bytes(walls), w, h) == (message is None)
    if message is not None:
        try:
            type(board)(w, h, tuple(walls))
        except BoardError as e:
            assert str(e) == message
        else:
            raise AssertionError("an inconsistent board was accepted")
