"""Scenario tests for the physics of a move, one per rule of the seeds and of
RULINGS.md: sliding (ruling 1), the centre block (ruling 10 as physics),
coloured diagonals (ruling 4), wall openings (ruling 5), Ricochet Pyramids
towers (seed 003) and the transparent robot's movement (seed 002).

Coordinates: x to the east, y to the south; every board is written out with
``Board.build``.
"""

from __future__ import annotations

import pytest

from ricochet import Board, Diagonal, Direction, IllegalMove, Move, Position, PositionError, Robot, Rules, Target
from ricochet.rules import PLAIN

N, E, S, W = Direction.N, Direction.E, Direction.S, Direction.W


def place(board: Board, *robots: tuple[str, tuple[int, int]], goal=None) -> Position:
    return Position(board, tuple(Robot(c, cell) for c, cell in robots), goal)


def end(pos: Position, robot: int, d: Direction, rules: Rules = PLAIN):
    return pos.play(Move(robot, d), rules)[0].robots[robot].cell


def reason(pos: Position, move: Move, rules: Rules = PLAIN) -> str:
    with pytest.raises(IllegalMove) as info:
        pos.play(move, rules)
    return info.value.reason


CENTRE = [(2, 2), (3, 2), (2, 3), (3, 3)]


# ---------------------------------------------------------------------------
# Ruling 1: movement
# ---------------------------------------------------------------------------

def test_slides_until_board_edge():
    """"once a robot is set in motion, it cannot stop until it hits an obstacle.
    Obstacles are the edges of the board, ..." (seed 000)"""
    pos = place(Board.build(5, 5), ("red", (0, 2)))
    nxt, path = pos.play(Move(0, E))
    assert nxt.robots[0].cell == (4, 2)
    assert path.cells == ((0, 2), (1, 2), (2, 2), (3, 2), (4, 2))
    assert path.cost == 1
    for d, cell in ((N, (0, 0)), (S, (0, 4))):
        assert end(pos, 0, d) == cell


def test_slides_until_wall():
    """"Obstacles are ... the walls pictured on the board" (seed 000); a wall is
    the same wall seen from either cell."""
    for walls in ([(2, 2, "E")], [(3, 2, "W")]):
        pos = place(Board.build(5, 5, walls), ("red", (0, 2)), ("green", (4, 2)))
        assert end(pos, 0, E) == (2, 2)
        assert end(pos, 1, W) == (3, 2)


def test_slides_until_other_robot():
    """"Obstacles are ... other robots" (seed 000): it stops in front of the robot."""
    pos = place(Board.build(5, 5), ("red", (0, 2)), ("blue", (3, 2)))
    nxt, _ = pos.play(Move(0, E))
    assert nxt.robots[0].cell == (2, 2)
    assert nxt.robots[1].cell == (3, 2), "the robot hit does not move"


def test_slides_until_centre_block():
    """"Obstacles are ... the center-piece" (seed 000; ruling 10: the 2×2 centre
    block) — with or without walls drawn round it."""
    for wall_blocked in (True, False):
        board = Board.build(6, 6, blocked=CENTRE, wall_blocked=wall_blocked)
        pos = place(board, ("red", (0, 2)), ("green", (2, 0)), ("blue", (5, 3)), ("yellow", (3, 5)))
        assert end(pos, 0, E) == (1, 2)
        assert end(pos, 1, S) == (2, 1)
        assert end(pos, 2, W) == (4, 3)
        assert end(pos, 3, N) == (3, 4)


def test_no_robot_on_centre_block():
    """Ruling 10: no robot can stand in the centre block."""
    with pytest.raises(PositionError):
        place(Board.build(6, 6, blocked=CENTRE), ("red", (2, 2)))


def test_non_move_is_illegal():
    """Ruling 1: "A move that would not change the robot's cell is not a move (illegal)"."""
    board = Board.build(5, 5, [(1, 1, "S")])
    pos = place(board, ("red", (0, 0)), ("green", (1, 0)), ("blue", (1, 1)))
    assert reason(pos, Move(0, N)) == "blocked"      # board edge
    assert reason(pos, Move(0, E)) == "blocked"      # a robot next to it
    assert reason(pos, Move(2, S)) == "blocked"      # a wall
    listed = {(m.robot, m.direction) for m, _ in pos.legal_moves()}
    assert (0, N) not in listed and (0, E) not in listed and (2, S) not in listed
    assert (0, S) in listed


def test_robots_pass_over_targets():
    """Ruling 1: "Robots pass over targets (and over the square tokens) without
    stopping" — seed 000 Example 2: "the route crosses the robot's own colored
    square token, which shows that these tokens are not obstacles"."""
    board = Board.build(5, 5, targets=[Target((2, 2), "red", "circle"), Target((3, 2), "any", "vortex")])
    pos = place(board, ("red", (0, 2)))
    assert end(pos, 0, E) == (4, 2)


def test_whole_slide_is_one_move_and_others_stay():
    """"Each movement of a robot to the next obstacle counts as 1 move." (seed 000)"""
    pos = place(Board.build(10, 3), ("red", (0, 1)), ("green", (5, 0)))
    nxt, path = pos.play(Move(0, E))
    assert path.cost == 1 and len(path.steps) == 9
    assert nxt.robots[1] == pos.robots[1]


def test_robot_that_stopped_can_move_any_open_way():
    """"When a robot hits an obstacle, it can either stop or ricochet at right
    angles, left or right" (seed 000): after stopping it may go on at 90°."""
    pos = place(Board.build(5, 5), ("red", (0, 0)))
    pos = pos.play(Move(0, E))[0]
    assert end(pos, 0, S) == (4, 4)


# ---------------------------------------------------------------------------
# Ruling 4: coloured diagonal walls
# ---------------------------------------------------------------------------

# (orientation, heading in, heading out) — RULINGS 4 with y pointing down.
DEFLECTIONS = [
    ("/", E, N), ("/", N, E), ("/", W, S), ("/", S, W),
    ("\\", E, S), ("\\", S, E), ("\\", W, N), ("\\", N, W),
]
APPROACH = {E: (0, 2), W: (4, 2), N: (2, 4), S: (2, 0)}   # start cells aiming at (2, 2)
EDGE_FROM_CENTRE = {N: (2, 0), E: (4, 2), S: (2, 4), W: (0, 2)}


@pytest.mark.parametrize("orientation,heading,out", DEFLECTIONS,
                         ids=[f"{o}-{h.name}to{x.name}" for o, h, x in DEFLECTIONS])
def test_diagonal_deflects_as_a_mirror(orientation, heading, out):
    """Ruling 4: "With y pointing down, `/` turns E→N, N→E, W→S, S→W and `\\`
    turns E→S, S→E, W→N, N→W"; seed 000: it "bounces off the wall at right
    angles if its color does not match the wall" and the trip is one move."""
    board = Board.build(5, 5, diagonals=[Diagonal((2, 2), "blue", orientation)])
    pos = place(board, ("red", APPROACH[heading]))
    nxt, path = pos.play(Move(0, heading))
    assert nxt.robots[0].cell == EDGE_FROM_CENTRE[out]
    hit = path.steps[path.cells.index((2, 2)) - 1]
    assert hit.event == "deflect" and hit.heading == out
    assert path.heading == out and path.deflected and path.cost == 1


def test_same_colour_passes_diagonal():
    """Seed 000: "it passes through the wall if its color matches the wall"."""
    for orientation in ("/", "\\"):
        board = Board.build(5, 5, diagonals=[Diagonal((2, 2), "red", orientation)])
        nxt, path = place(board, ("red", (0, 2))).play(Move(0, E))
        assert nxt.robots[0].cell == (4, 2)
        assert path.steps[1].event == "pass" and not path.deflected


@pytest.mark.parametrize("color", ["red", "green", "blue", "yellow"])
def test_silver_robot_always_deflected(color):
    """Ruling 4: "The silver robot matches no colour: it is always deflected"."""
    board = Board.build(5, 5, diagonals=[Diagonal((2, 2), color, "/")])
    assert end(place(board, ("silver", (0, 2))), 0, E) == (2, 0)


def test_robot_may_rest_on_diagonal_when_way_out_blocked():
    """Ruling 4: "A robot may come to rest on a diagonal's square when its way
    out is blocked; it is then an obstacle like any robot"."""
    board = Board.build(5, 5, [(2, 2, "N")], diagonals=[Diagonal((2, 2), "blue", "/")])
    pos = place(board, ("red", (0, 2)), ("green", (4, 2)), ("yellow", (2, 4)))
    pos, path = pos.play(Move(0, E))
    assert pos.robots[0].cell == (2, 2) and path.heading == N
    # a robot in the way out blocks as well
    pos2 = place(Board.build(5, 5, diagonals=[Diagonal((2, 2), "blue", "/")]), ("red", (0, 2)), ("green", (2, 1)))
    assert end(pos2, 0, E) == (2, 2)
    # the robot resting there is an obstacle
    assert end(pos, 1, W) == (3, 2)
    assert end(pos, 2, N) == (2, 3)


def test_robot_starting_on_diagonal_leaves_undeflected():
    """Ruling 4: "A robot that starts its move on a diagonal square leaves in the
    chosen direction without being deflected"."""
    board = Board.build(5, 5, diagonals=[Diagonal((2, 2), "blue", "/")])
    pos = place(board, ("red", (2, 2)))
    for d, cell in EDGE_FROM_CENTRE.items():
        nxt, path = pos.play(Move(0, d))
        assert nxt.robots[0].cell == cell and not path.deflected


def test_deflection_then_wall_robot_and_second_diagonal():
    """Seed 000: after bouncing the robot "continues to an obstacle, counting the
    entire move as just one move" — including a second diagonal."""
    board = Board.build(6, 6, [(4, 1, "N")], diagonals=[Diagonal((4, 4), "blue", "/"), Diagonal((4, 1), "green", "\\")])
    pos = place(board, ("red", (0, 4)))
    nxt, path = pos.play(Move(0, E))
    # E → (4,4) '/' → N → (4,1) '\' → W → (0,1)
    assert nxt.robots[0].cell == (0, 1)
    assert [s.event for s in path.steps].count("deflect") == 2 and path.cost == 1
    assert path.heading == W


def test_diagonals_switched_off():
    """Rules(diagonals=False): a board's diagonals are ignored."""
    board = Board.build(5, 5, diagonals=[Diagonal((2, 2), "blue", "/")])
    assert end(place(board, ("red", (0, 2))), 0, E, Rules(diagonals=False)) == (4, 2)


# ---------------------------------------------------------------------------
# Ruling 5: wall openings
# ---------------------------------------------------------------------------

def test_opening_wraps_to_opposite_edge():
    """Seed 000: "When a robot reaches a wall opening, it passes through and
    appears, still moving, on the board exactly opposite the opening ... the
    entire move as just one move"."""
    board = Board.build(5, 5, [(0, 2, "E")], openings=[((4, 2), E)])
    nxt, path = place(board, ("red", (1, 2))).play(Move(0, E))
    assert nxt.robots[0].cell == (0, 2)
    assert path.cells == ((1, 2), (2, 2), (3, 2), (4, 2), (0, 2))
    assert path.steps[-1].event == "wrap" and path.cost == 1
    # vertical, robot still moving after re-entry
    board = Board.build(5, 5, [(2, 2, "S")], openings=[((2, 0), N)])
    assert end(place(board, ("red", (2, 1))), 0, N) == (2, 3)


def test_opening_entry_occupied_stops_in_front():
    """Ruling 5: "If the entry square is occupied, the robot stops in front of the opening"."""
    board = Board.build(5, 5, openings=[((4, 2), E)])
    pos = place(board, ("red", (1, 2)), ("green", (0, 2)))
    assert end(pos, 0, E) == (4, 2)
    board = Board.build(5, 5, blocked=[(0, 2)], openings=[((4, 2), E)])
    assert end(place(board, ("red", (1, 2))), 0, E) == (4, 2)


def test_opening_infinite_cycle_is_illegal():
    """Ruling 5: "A move that would cycle forever is illegal"."""
    board = Board.build(3, 3, openings=[((2, 1), E)])
    pos = place(board, ("red", (0, 1)))
    assert reason(pos, Move(0, E)) == "cycle"
    assert all(m.direction != E for m, _ in pos.legal_moves())
    # a longer cycle through two openings and two diagonals
    # E along row 1, wrap, the \ at (1,1) turns it S, wrap at the bottom, the \ turns it E again ...
    board = Board.build(5, 5, openings=[((4, 1), E), ((1, 4), S)], diagonals=[Diagonal((1, 1), "blue", "\\")])
    pos = place(board, ("red", (2, 1)))
    assert reason(pos, Move(0, E)) == "cycle"


def test_opening_reentry_then_deflected_by_diagonal():
    """Ruling 5 + 4: the robot re-enters "still moving in the same direction", so
    a diagonal on the entry square deflects it."""
    board = Board.build(5, 5, openings=[((4, 2), E)], diagonals=[Diagonal((0, 2), "blue", "\\")])
    nxt, path = place(board, ("red", (1, 2))).play(Move(0, E))
    assert nxt.robots[0].cell == (0, 4)
    assert path.steps[3].event == "wrap+deflect" and path.deflected and path.cost == 1


def test_openings_switched_off():
    """Rules(openings=False): an opening is a closed wall."""
    board = Board.build(5, 5, openings=[((4, 2), E)])
    assert end(place(board, ("red", (1, 2))), 0, E, Rules(openings=False)) == (4, 2)


# ---------------------------------------------------------------------------
# Ricochet Pyramids (seed 003)
# ---------------------------------------------------------------------------

def test_tower_blocks():
    """Seed 003: "A robot moves in a straight line continually until it is stopped
    by hitting another robot, a tower, or the edge of the board"."""
    board = Board.build(8, 8, towers=[(5, 3)])
    assert end(place(board, ("red", (0, 3))), 0, E) == (4, 3)


def test_goal_tower_does_not_block():
    """Seed 003: "The goal does not block robots: a moving robot will move into the
    goal's square and continue beyond it"."""
    board = Board.build(8, 8, towers=[(5, 3)])
    nxt, path = place(board, ("red", (0, 3)), goal=(5, 3)).play(Move(0, E))
    assert nxt.robots[0].cell == (7, 3) and (5, 3) in path.cells
    # switched off, the goal tower blocks like any tower
    assert end(place(board, ("red", (0, 3)), goal=(5, 3)), 0, E, Rules(goal_tower_passthrough=False)) == (4, 3)


def test_robot_stops_on_goal_tower_only_when_next_step_blocked():
    """Seed 003: "If a robot does stop in the goal's square (because the next square
    blocks the robot), then place the robot ... on top of the goal tower"."""
    board = Board.build(8, 8, towers=[(5, 3), (6, 3)])
    assert end(place(board, ("red", (0, 3)), goal=(5, 3)), 0, E) == (5, 3)          # tower beyond
    assert end(place(Board.build(8, 8, towers=[(7, 3)]), ("red", (0, 3)), goal=(7, 3)), 0, E) == (7, 3)  # edge
    board = Board.build(8, 8, towers=[(5, 3)])
    assert end(place(board, ("red", (0, 3)), ("green", (6, 3)), goal=(5, 3)), 0, E) == (5, 3)  # robot


def test_robot_on_tower_moves_off_and_tower_blocks_on_return():
    """Seed 003: "r could move south (stopping at the south map edge) and then north
    again, stopping on the square south of the tower it was previously on"."""
    board = Board.build(8, 8, towers=[(6, 2)])
    pos = place(board, ("red", (6, 2)), goal=None)
    pos = pos.play(Move(0, S))[0]
    assert pos.robots[0].cell == (6, 7)
    assert end(pos, 0, N) == (6, 3)
    # one square off the tower: moving straight back is not a move
    pos = place(Board.build(8, 8, [(6, 3, "S")], towers=[(6, 2)]), ("red", (6, 2)))
    pos = pos.play(Move(0, S))[0]
    assert pos.robots[0].cell == (6, 3)
    assert reason(pos, Move(0, N)) == "blocked"


def test_robot_on_tower_blocks_as_a_robot():
    """RULINGS Pyramids: "a robot on top of a tower blocks as a robot" — even on the goal tower."""
    board = Board.build(8, 8, towers=[(5, 3)])
    pos = place(board, ("red", (0, 3)), ("green", (5, 3)), goal=(5, 3))
    assert end(pos, 0, E) == (4, 3)


SEED_003_START = """\
. . . . . T . .
T . . . . . . .
. . . . . . G .
. . T . . y . g
. . . . . . . T
. . . T . . . .
T . . . . r . .
. . . . T . . ."""

SEED_003_AFTER = [  # (robot letter, direction, picture after the move) from the seed's diagrams
    ("y", N, "y@5,1 r@5,6 g@7,3"),
    ("r", N, "y@5,1 r@5,2 g@7,3"),
    ("y", E, "y@7,1 r@5,2 g@7,3"),
    ("y", S, "y@7,2 r@5,2 g@7,3"),
    ("r", E, "y@7,2 r@6,2 g@7,3"),
]


def test_seed_003_example_solution():
    """Seed 003's worked example: "y north, r north, y east, y south, r east
    (y blocks r so that r ends its move on the goal G)" — and r moving east
    earlier would pass over G ("When first learning the game, players often
    forget this!")."""
    rows = SEED_003_START.splitlines()
    towers, robots, goal = [], {}, None
    for y, row in enumerate(rows):
        for x, ch in enumerate(row.split()):
            if ch in "TG":
                towers.append((x, y))
            if ch == "G":
                goal = (x, y)
            if ch in "ryg":
                robots[ch] = (x, y)
    colour = {"r": "red", "y": "yellow", "g": "green"}
    order = ["r", "y", "g"]
    pos = place(Board.build(8, 8, towers=towers), *[(colour[k], robots[k]) for k in order], goal=goal)
    # the first picture's seed note: y north moves 2 squares then stops below a tower
    for letter, d, picture in SEED_003_AFTER:
        pos = pos.play(Move(order.index(letter), d))[0]
        expect = {k: tuple(int(v) for v in c.split(",")) for k, c in (p.split("@") for p in picture.split())}
        assert {k: pos.robots[order.index(k)].cell for k in order} == expect, (letter, d)
    assert pos.robots[0].cell == goal
    # then "r could move south (stopping at the south map edge) and then north again,
    # stopping on the square south of the tower it was previously on" (a new goal elsewhere)
    from dataclasses import replace
    pos = replace(pos, goal=(0, 0))
    pos = pos.play(Move(0, S))[0]
    assert pos.robots[0].cell == (6, 7)
    assert end(pos, 0, N) == (6, 3)


# ---------------------------------------------------------------------------
# The transparent robot (seed 002, variant for Ricochet Robots)
# ---------------------------------------------------------------------------

def stops(pos: Position, robot: int, d: Direction, rules: Rules = PLAIN) -> dict:
    return {p.end: p.cost for p in pos.paths(robot, d, rules)}


def test_transparent_may_stop_at_wall_or_pass_it_for_one_more():
    """Seed 002: "he can stop at a wall and make another move or, instead, move
    through the wall, which costs one additional move"."""
    board = Board.build(6, 3, [(1, 1, "E"), (3, 1, "E")])
    pos = place(board, ("transparent", (0, 1)))
    assert stops(pos, 0, E) == {(1, 1): 1, (3, 1): 2, (5, 1): 3}
    assert reason(pos, Move(0, E)) == "stop"                    # it must say where it stops
    nxt, path = pos.play(Move(0, E, (3, 1)))
    assert nxt.robots[0].cell == (3, 1) and path.cost == 2
    assert [s.event for s in path.steps] == [None, "wall", None]
    assert reason(pos, Move(0, E, (2, 1))) == "stop"            # no obstacle there: it cannot stop
    legal = {(m.direction, m.stop) for m, _ in pos.legal_moves()}
    assert {(E, (1, 1)), (E, (3, 1)), (E, (5, 1))} <= legal


def test_transparent_cannot_pass_outer_wall():
    """Seed 002: "The walls ... at the edge of the playing area are excluded from this rule"."""
    pos = place(Board.build(4, 4), ("transparent", (0, 0)))
    assert stops(pos, 0, E) == {(3, 0): 1}
    assert reason(pos, Move(0, W)) == "blocked"


def test_transparent_cannot_pass_centre_block_walls():
    """Seed 002: "The walls around the centrepiece ... are excluded from this rule"."""
    for wall_blocked in (True, False):
        board = Board.build(6, 6, blocked=CENTRE, wall_blocked=wall_blocked)
        pos = place(board, ("transparent", (0, 2)))
        assert stops(pos, 0, E) == {(1, 2): 1}


def test_transparent_never_passes_robots():
    """Seed 002: "He may not move through other robots. As usual, he may be used
    by other robots as an obstacle"."""
    board = Board.build(6, 3, [(1, 1, "E")])
    pos = place(board, ("transparent", (0, 1)), ("red", (3, 1)), ("green", (5, 1)))
    assert stops(pos, 0, E) == {(1, 1): 1, (2, 1): 2}
    assert end(pos, 2, W) == (4, 1)
    pos = place(board, ("transparent", (3, 1)), ("green", (5, 1)))
    assert end(pos, 1, W) == (4, 1)


def test_transparent_at_diagonal_bounces_free_or_passes_for_one_more():
    """Seed 002: "When encountering a coloured obstacle, the player can choose
    whether the transparent robot bounces off or moves through it; but if the
    robot moves through it, this costs him an additional move"."""
    board = Board.build(5, 5, diagonals=[Diagonal((2, 2), "red", "/")])
    pos = place(board, ("transparent", (0, 2)))
    assert stops(pos, 0, E) == {(2, 0): 1, (4, 2): 2}
    bounce = pos.play(Move(0, E, (2, 0)))[1]
    through = pos.play(Move(0, E, (4, 2)))[1]
    assert bounce.deflected and bounce.heading == N
    assert not through.deflected and through.steps[1].event == "diagonal" and through.heading == E


def test_transparent_stops_only_where_an_obstacle_stops_it():
    """RULINGS (transparent): "It stops only where an obstacle stops it"; with no
    interior wall it moves like any robot."""
    pos = place(Board.build(5, 5), ("transparent", (0, 2)), ("red", (4, 2)))
    assert stops(pos, 0, E) == {(3, 2): 1}
    nxt, path = pos.play(Move(0, E))       # a single stop needs no name
    assert nxt.robots[0].cell == (3, 2) and path.cost == 1


def test_transparent_cheapest_route_to_each_stop():
    """Seed 002 + RULINGS: move counts are weighted; each stop is offered at its
    cheapest cost (here passing the wall beats passing the diagonal)."""
    board = Board.build(5, 5, [(1, 2, "E")], diagonals=[Diagonal((3, 2), "blue", "/")])
    pos = place(board, ("transparent", (0, 2)))
    # stop at the wall (1); pass it (+1) then bounce N to (3,0) (2) or pass the diagonal too (3)
    assert stops(pos, 0, E) == {(1, 2): 1, (3, 0): 2, (4, 2): 3}


def test_transparent_wraps_through_openings_like_any_robot():
    """Ruling 5 for the transparent robot: an opening is a gap, not a wall, so it
    wraps for free; with openings switched off the gap is an outer wall it cannot pass."""
    board = Board.build(5, 3, [(0, 1, "E")], openings=[((4, 1), E)])
    pos = place(board, ("transparent", (1, 1)))
    # after the wrap it meets the wall E of (0,1): stop there; passing it only goes round again
    assert stops(pos, 0, E) == {(0, 1): 1}
    assert stops(pos, 0, E, Rules(openings=False)) == {(4, 1): 1}


def test_transparent_endless_wrap_is_a_cycle():
    """Ruling 5: "A move that would cycle forever is illegal" — for the transparent
    robot too, with the same reason (``cycle``) as for any robot."""
    board = Board.build(3, 3, openings=[((2, 1), E)])
    pos = place(board, ("transparent", (0, 1)))
    assert reason(pos, Move(0, E)) == "cycle"
    assert reason(pos, Move(0, W)) == "blocked"


def test_board_hash_is_cached_but_never_pickled() -> None:
    """Boards key the solver's caches, so their hash is computed once; a
    pickled board (sent to a spawned worker, whose string hashes differ)
    carries no hash and computes its own."""
    import pickle

    board = Board.build(5, 5, walls=[(1, 1, "E")])
    key = hash(board)
    assert board.__dict__["_hash"] == key
    copy = pickle.loads(pickle.dumps(board))
    assert copy.__dict__["_hash"] is None
    assert copy == board and hash(copy) == key and {board: 1}[copy] == 1


def test_wall_bytes_are_the_masks_kept_from_the_check() -> None:
    """``Board.wall_bytes``: the masks as bytes, built once when the board is
    checked (the solver's tables start from them), through a pickle and a
    ``dataclasses.replace`` too; a pickle from before boards kept them
    rebuilds them."""
    import dataclasses
    import pickle

    board = Board.build(4, 3, walls=[(1, 1, "E")])
    assert board.wall_bytes == bytes(board.walls) and board.wall_bytes[5] & E
    assert pickle.loads(pickle.dumps(board)).wall_bytes == board.wall_bytes
    wider = dataclasses.replace(board, walls=Board.build(4, 3).walls)
    assert wider.wall_bytes == bytes(Board.build(4, 3).walls) != board.wall_bytes
    old = board.__reduce_ex__(4)
    state = {k: v for k, v in old[2].items() if k != "_wall_bytes"}
    again = old[0](*old[1])
    again.__setstate__(state)
    assert again.wall_bytes == board.wall_bytes and again == board


def test_unpickled_targets_are_shared() -> None:
    """A board's targets come back from a pickle (a file's puzzles read by other
    processes) as the one target of each value, not as new objects."""
    import pickle

    board = Board.from_code("1A3B4A2A")
    first, second = pickle.loads(pickle.dumps(board)), pickle.loads(pickle.dumps([board]))[0]
    assert first == board and first.targets == board.targets and len(board.targets) == 17
    assert all(a is b for a, b in zip(first.targets, second.targets, strict=True))
    assert first.target_at(board.targets[0].cell) is first.targets[0]
