"""Scenario tests for the rules about *solutions* and *move legality* beyond
plain physics: must ricochet (ruling 2), no moving straight back (ruling 3),
the silver robot and the cosmic vortex (ruling 6), the transparent robot as a
piece and its weighted cost (seed 002), the bid limit (ruling 7: moves ≤ bid)
and Ricochet Pyramids scoring (seed 003).  Each board is written out with
``Board.build``; x to the east, y to the south.
"""

from __future__ import annotations

import pytest

from ricochet import (
    GAME,
    PLAIN,
    Board,
    Diagonal,
    Direction,
    IllegalMove,
    Move,
    Position,
    PositionError,
    Puzzle,
    Robot,
    Rules,
    check_solution,
)

N, E, S, W = Direction.N, Direction.E, Direction.S, Direction.W
RICOCHET = Rules(must_ricochet=True)
NO_BACK = Rules(no_straight_back=True)


def place(board: Board, *robots: tuple[str, tuple[int, int]], goal=None) -> Position:
    return Position(board, tuple(Robot(c, cell) for c, cell in robots), goal)


def moves(*spec) -> list[Move]:
    """``moves((0, "E"), (1, "S", (3, 2)))``."""
    return [Move(r, Direction.parse(d), *rest) for r, d, *rest in spec]


def verdict_reason(puzzle, ms, rules=None, **kw):
    v = check_solution(puzzle, ms, rules, **kw)
    return "ok" if v.ok else v.failure.reason


# ---------------------------------------------------------------------------
# Ruling 2: must ricochet
# ---------------------------------------------------------------------------

def example_2() -> Puzzle:
    """Green at the NW corner could slide straight south onto the target (0,4)."""
    board = Board.build(6, 6, [(0, 4, "S"), (5, 4, "S")])
    return Puzzle(place(board, ("green", (0, 0)), ("red", (3, 3))), (0, 4), active=0)


def test_must_ricochet_example_2_straight_reach_refused():
    """Seed 000 Example 2: "the green robot could move directly to the target
    space, but since this is not allowed, another route is chosen"; "On its way
    to the target space an active robot must hit and ricochet off (turn right or
    left) an obstacle at least once."""
    pz = example_2()
    assert verdict_reason(pz, moves((0, "S")), RICOCHET) == "no_ricochet"
    assert verdict_reason(pz, moves((0, "S")), GAME) == "no_ricochet"
    assert verdict_reason(pz, moves((0, "S")), PLAIN) == "ok"     # the plain solver interface allows it


def test_must_ricochet_route_with_a_turn_accepted():
    """Seed 000 Example 2: "The chosen other route requires ... moves" — a route
    where the active robot turns 90° is a solution."""
    pz = example_2()
    route = moves((0, "E"), (0, "S"), (0, "W"))
    v = check_solution(pz, route, GAME)
    assert v.ok and v.cost == 3 and v.position.robots[0].cell == (0, 4)


def test_must_ricochet_diagonal_bounce_counts():
    """Ruling 2: "A turn caused by a diagonal wall counts"."""
    board = Board.build(5, 5, diagonals=[Diagonal((2, 2), "blue", "/")])
    pz = Puzzle(place(board, ("red", (0, 2))), (2, 0), active=0)
    assert verdict_reason(pz, moves((0, "E")), GAME) == "ok"
    # a same-colour diagonal is passed straight: no ricochet
    board = Board.build(5, 5, diagonals=[Diagonal((2, 2), "red", "/")])
    pz = Puzzle(place(board, ("red", (0, 2))), (4, 2), active=0)
    assert verdict_reason(pz, moves((0, "E")), RICOCHET) == "no_ricochet"


def test_must_ricochet_zero_move_solution_invalid():
    """Ruling 2: "... as is a 0-move "solution" (robot already on the target)"."""
    pz = Puzzle(place(Board.build(4, 4), ("red", (1, 1))), (1, 1), active=0)
    assert verdict_reason(pz, [], RICOCHET) == "no_ricochet"


def test_must_ricochet_only_the_active_robots_turns_count():
    """Seed 000: "an active robot must hit and ricochet off ... an obstacle at
    least once" — other robots turning does not help."""
    board = Board.build(6, 6, [(0, 4, "S")])
    pz = Puzzle(place(board, ("green", (0, 0)), ("red", (5, 5))), (0, 4), active=0)
    assert verdict_reason(pz, moves((1, "N"), (1, "W"), (0, "S")), RICOCHET) == "no_ricochet"


def test_must_ricochet_straight_back_or_wrap_is_not_a_turn():
    """Ruling 2: "change direction by 90°" — reversing (180°) or wrapping through
    an opening is not a ricochet."""
    board = Board.build(5, 5, [(2, 2, "E")])
    pz = Puzzle(place(board, ("red", (2, 2)), ("green", (4, 2))), (0, 2), active=0)
    # red W to (0,2) is straight; E then W again is a reversal: neither turns 90°
    assert verdict_reason(pz, moves((0, "W")), RICOCHET) == "no_ricochet"
    pz2 = Puzzle(place(Board.build(5, 5, [(0, 2, "E")], openings=[((4, 2), E)]), ("red", (1, 2))), (0, 2), active=0)
    assert check_solution(pz2, moves((0, "E")), PLAIN).ok
    assert verdict_reason(pz2, moves((0, "E")), RICOCHET) == "no_ricochet"


def test_must_ricochet_turn_between_moves_counts():
    """Seed 000: "When a robot hits an obstacle, it can either stop or ricochet at
    right angles" — stopping and then moving at 90° is the ricochet."""
    board = Board.build(5, 5, [(4, 2, "S")])
    pz = Puzzle(place(board, ("red", (0, 0))), (4, 2), active=0)
    v = check_solution(pz, moves((0, "E"), (0, "S")), GAME)
    assert v.ok and v.cost == 2


def test_must_ricochet_is_in_the_french_rules_too():
    """Seed 004: "Pour atteindre la cible, le robot actif doit ricocher au moins
    une fois (tourner à droite ou à gauche) sur un obstacle"."""
    assert GAME.must_ricochet and Rules.preset("game+transparent").must_ricochet


# ---------------------------------------------------------------------------
# Ruling 3: no moving straight back
# ---------------------------------------------------------------------------

def test_no_straight_back_refused_until_another_robot_moves():
    """Seed 000: "When a robot stops, it may move back the way it came only after
    another robot moves"."""
    pos = place(Board.build(5, 5), ("red", (0, 0)), ("green", (4, 4)))
    pos, _ = pos.play(Move(0, E), NO_BACK)
    with pytest.raises(IllegalMove) as info:
        pos.play(Move(0, W), NO_BACK)
    assert info.value.reason == "reversal"
    assert all((m.robot, m.direction) != (0, W) for m, _ in pos.legal_moves(NO_BACK))
    assert pos.play(Move(0, W), PLAIN)[0].robots[0].cell == (0, 0)      # off: allowed
    assert pos.play(Move(0, S), NO_BACK)[0].robots[0].cell == (4, 3)    # 90° is fine
    other = pos.play(Move(1, N), NO_BACK)[0]
    assert other.play(Move(0, W), NO_BACK)[0].robots[0].cell == (0, 0)


def test_no_straight_back_after_a_turn_the_old_reverse_is_free():
    """Ruling 3: only the direction opposite to the *last* heading is refused."""
    pos = place(Board.build(5, 5), ("red", (0, 0)))
    pos = pos.play(Move(0, E), NO_BACK)[0]
    pos = pos.play(Move(0, S), NO_BACK)[0]
    assert pos.play(Move(0, W), NO_BACK)[0].robots[0].cell == (0, 4)
    with pytest.raises(IllegalMove):
        pos.play(Move(0, N), NO_BACK)


def test_no_straight_back_last_heading_is_after_deflection():
    """Ruling 3: ""Last heading" is the direction it was travelling when it stopped
    (after any diagonal deflection)"."""
    board = Board.build(5, 5, diagonals=[Diagonal((2, 2), "blue", "/")])
    pos = place(board, ("red", (0, 2)))
    pos, path = pos.play(Move(0, E), NO_BACK)      # E, deflected N, stops at (2,0)
    assert path.heading == N and pos.last_move == (0, N)
    with pytest.raises(IllegalMove):
        pos.play(Move(0, S), NO_BACK)
    assert pos.play(Move(0, W), NO_BACK)[0].robots[0].cell == (0, 0)   # opposite of E, not of N


def test_no_straight_back_reported_by_check_solution():
    """Ruling 3 in a demonstration: the illegal move is named with reason ``reversal``."""
    pz = Puzzle(place(Board.build(5, 5, [(1, 0, "E")]), ("red", (1, 0))), (0, 0), active=0)
    v = check_solution(pz, moves((0, "E"), (0, "W")), GAME)
    assert not v.ok and v.failure.reason == "blocked"      # (1,0) E is walled: not a move
    pz = Puzzle(place(Board.build(5, 5), ("red", (2, 0))), (0, 0), active=0)
    v = check_solution(pz, moves((0, "E"), (0, "W")), NO_BACK)
    assert not v.ok and v.failure.reason == "reversal" and v.failure.move == 1
    assert check_solution(pz, moves((0, "E"), (0, "W")), PLAIN).ok


# ---------------------------------------------------------------------------
# Ruling 6: silver robot and the cosmic vortex
# ---------------------------------------------------------------------------

def test_silver_and_transparent_active_only_for_vortex():
    """Ruling 6: the silver robot "can be the active robot only for the cosmic
    vortex"; RULINGS (transparent): "It may be the active robot only for the cosmic vortex"."""
    pos = place(Board.build(5, 5), ("red", (0, 0)), ("silver", (4, 4)), ("transparent", (2, 2)))
    for idx in (1, 2):
        with pytest.raises(PositionError):
            Puzzle(pos, (0, 4), active=idx)
    assert Puzzle(pos, (0, 4), active=None).any_robot
    Puzzle(pos, (0, 4), active=0)


def test_vortex_may_be_reached_by_any_robot_including_silver():
    """Seed 000: "If the chip in the center is the "cosmic vortex" ..., any robot,
    including the silver robot, may be considered the active robot"."""
    board = Board.build(5, 5, [(4, 2, "S")])
    pos = place(board, ("red", (0, 0)), ("silver", (4, 0)))
    pz = Puzzle(pos, (4, 2), active=None)
    v = check_solution(pz, moves((1, "S")), PLAIN)
    assert v.ok
    assert check_solution(pz, moves((0, "E"), (0, "S")), PLAIN).ok is False   # red stops at (3,0), then (3,4)
    assert check_solution(pz, moves((1, "W"), (0, "E"), (0, "S")), PLAIN).ok is False
    pz_red = Puzzle(pos, (4, 2), active=0)
    assert verdict_reason(pz_red, moves((1, "S")), PLAIN) == "not_reached"   # silver on a red target: no


def test_silver_robot_with_must_ricochet_on_vortex():
    """Ruling 2 applies to whichever robot reaches the vortex."""
    board = Board.build(5, 5, [(4, 2, "S")])
    pz = Puzzle(place(board, ("red", (0, 0)), ("silver", (4, 0))), (4, 2), active=None)
    assert verdict_reason(pz, moves((1, "S")), GAME) == "no_ricochet"
    assert verdict_reason(pz, moves((1, "W"), (1, "E")), GAME) == "reversal"
    pz = Puzzle(place(board, ("red", (0, 0)), ("silver", (2, 0))), (4, 2), active=None)
    assert verdict_reason(pz, moves((1, "E"), (1, "S")), GAME) == "ok"


# ---------------------------------------------------------------------------
# Transparent robot: weighted cost in solutions (seed 002)
# ---------------------------------------------------------------------------

def test_transparent_cost_counted_by_check_solution():
    """Seed 002: moving through a wall "costs one additional move"; so does
    moving through a coloured obstacle.  check_solution counts them."""
    board = Board.build(6, 6, [(1, 1, "E"), (5, 1, "S")], diagonals=[Diagonal((5, 3), "red", "/")])
    pos = place(board, ("red", (0, 5)), ("transparent", (0, 1)))
    pz = Puzzle(pos, (5, 1), active=None)
    route = moves((1, "E", (5, 1)))
    v = check_solution(pz, route, PLAIN)
    assert v.ok and v.cost == 2
    assert verdict_reason(pz, route, PLAIN, max_cost=1) == "too_long"
    assert verdict_reason(pz, route, PLAIN, max_cost=2) == "ok"
    # then S through the wall under (5,1) (+1) and through the red diagonal (+1): 2 + 3
    pz2 = Puzzle(pos, (5, 5), active=None)
    v = check_solution(pz2, moves((1, "E", (5, 1)), (1, "S", (5, 5))), PLAIN)
    assert v.ok and v.cost == 5
    assert [p.cost for p in v.paths] == [2, 3]
    pos3 = place(board, ("red", (0, 5)), ("transparent", (5, 2)))
    v = check_solution(Puzzle(pos3, (5, 5), active=None), moves((1, "S", (5, 5))), PLAIN)
    assert v.ok and v.cost == 2


def test_transparent_move_needs_its_stop_when_ambiguous():
    """Seed 002: at each interior wall "he can stop ... or, instead, move through
    the wall" — a demonstration must say which (reason ``stop``)."""
    board = Board.build(6, 3, [(1, 1, "E")])
    pz = Puzzle(place(board, ("red", (0, 0)), ("transparent", (0, 1))), (5, 1), active=None)
    assert verdict_reason(pz, moves((1, "E")), PLAIN) == "stop"
    assert verdict_reason(pz, moves((1, "E", (5, 1))), PLAIN) == "ok"


# ---------------------------------------------------------------------------
# Ruling 7 (as checked by check_solution): moves ≤ bid
# ---------------------------------------------------------------------------

def test_bid_met_when_moves_at_most_bid():
    """Seed 000: "If the number of moves he makes matches or is lower than the
    number he bid, he collects the chip"."""
    pz = example_2()
    route = moves((0, "E"), (0, "S"), (0, "W"))
    assert verdict_reason(pz, route, GAME, max_cost=3) == "ok"
    assert verdict_reason(pz, route, GAME, max_cost=4) == "ok"
    assert verdict_reason(pz, route, GAME, max_cost=2) == "too_long"


def test_illegal_move_named_by_index():
    """Ruling 7: a demonstration must obey all rules; the first bad move is reported."""
    pz = example_2()
    v = check_solution(pz, moves((0, "E"), (0, "E"), (0, "S")), GAME)
    assert not v.ok and v.failure.move == 1 and v.failure.reason == "blocked"
    assert v.position.robots[0].cell == (5, 0) and len(v.paths) == 1
    assert verdict_reason(pz, moves((7, "E")), GAME) == "robot"
    assert verdict_reason(pz, moves((0, "E")), GAME) == "not_reached"


# ---------------------------------------------------------------------------
# Ricochet Pyramids (seed 003) scoring
# ---------------------------------------------------------------------------

def test_pyramids_any_robot_may_stop_on_goal_only_designated_scores():
    """RULINGS Pyramids: "any robot may stop there, only the designated robot scores"."""
    board = Board.build(8, 8, towers=[(5, 3), (6, 3), (2, 6)])
    pos = place(board, ("red", (0, 3)), ("yellow", (5, 0)))
    pz = Puzzle(pos, (5, 3), active=0, rules=Rules())
    assert verdict_reason(pz, moves((0, "E"))) == "ok"
    v = check_solution(pz, moves((1, "S")))
    assert not v.ok and v.failure.reason == "not_reached" and v.position.robots[1].cell == (5, 7)
    # yellow stops on the goal when the tower beyond blocks (from the west)
    pz_y = Puzzle(place(board, ("red", (0, 0)), ("yellow", (0, 3))), (5, 3), active=0)
    v = check_solution(pz_y, moves((1, "E")))
    assert v.failure.reason == "not_reached" and v.position.robots[1].cell == (5, 3)


def test_pyramids_goal_tower_slid_over_is_not_reached():
    """Seed 003: "a moving robot will move into the goal's square and continue beyond it"."""
    board = Board.build(8, 8, towers=[(5, 3)])
    pz = Puzzle(place(board, ("red", (0, 3))), (5, 3), active=0)
    v = check_solution(pz, moves((0, "E")))
    assert v.failure.reason == "not_reached" and v.position.robots[0].cell == (7, 3)


def test_example_1_other_robot_moved_as_obstacle_counts_and_slides():
    """Seed 000 Example 1: "The red robot is moved to create an obstacle ...; then the
    green robot uses it as an obstacle ... Notice that the obstacle-robot, like the
    target robot, had to move without stopping until it hit an obstacle" — and
    "these moves must be counted too"."""
    board = Board.build(6, 6)
    pz = Puzzle(place(board, ("green", (0, 0)), ("red", (4, 0))), (3, 5), active=0)
    v = check_solution(pz, moves((1, "S"), (0, "S"), (0, "E")), GAME)
    assert v.ok and v.cost == 3
    # the red robot cannot be stopped half-way
    assert verdict_reason(pz, moves((1, "S", (4, 3))), GAME) == "stop"
    assert verdict_reason(pz, moves((0, "S"), (0, "E")), GAME) == "not_reached"


def test_rule_presets_follow_rulings():
    """Rulings 2 and 3: must ricochet and no straight back are "default on in the
    game, off in the plain solver interface"; the interchange format's plain rules
    let a robot move straight back."""
    assert not PLAIN.must_ricochet and not PLAIN.no_straight_back
    for name in ("game", "game+transparent"):
        r = Rules.preset(name)
        assert r.must_ricochet and r.no_straight_back
    assert Rules.preset("game+transparent").transparent
    assert Rules().goal_tower_passthrough and not Rules().must_ricochet
