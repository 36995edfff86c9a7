"""The game flow of Ricochet Robots (src/ricochet/games): each rule of a round as
a scenario quoting seed 000 / RULINGS, and a property test over random action
sequences.  Every table a test plays is replayed from its event log (also via
JSON) at teardown and must equal the live state."""

from __future__ import annotations

import json
from collections import deque

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gametable import GameTable
from ricochet.board import Board, Target
from ricochet.games import ConfigError, GameError
from ricochet.games.bidding import round as bidding
from ricochet.games.bidding.round import Demonstrate, GiveUp, PlaceBid, SkipDemonstration, TurnClock
from ricochet.games.ricochet_robots.game import RICOCHET_ROBOTS, GameConfig, GameState, ReportSolution, target_score_for
from ricochet.games.table import EndGame, Join, Leave, Start
from ricochet.geometry import DIRECTIONS, Direction
from ricochet.position import Move, Robot
from ricochet.puzzle import check_solution
from ricochet.rules import GAME, PLAIN

E, W, N, S = Direction.E, Direction.W, Direction.N, Direction.S
RULES = GAME.with_options(silver=False)  # must ricochet + no straight back, the four robots of the box
RED, GREEN, BLUE, YELLOW = 0, 1, 2, 3

# A 5×5 open board with one chip, the red circle in the corner (4,4):
#   R . . . .      red (0,0): S then E is a 2-move solution with a ricochet;
#   . . . . .      a straight slide onto the target would not count.
#   . . B . G
#   . Y . . .
#   . . . . o
ONE = Board.build(5, 5, targets=[Target((4, 4), "red", "circle")])
ONE_ROBOTS = (Robot("red", (0, 0)), Robot("green", (4, 2)), Robot("blue", (2, 2)), Robot("yellow", (1, 3)))
TWO = Board.build(5, 5, targets=[Target((4, 4), "red", "circle"), Target((0, 4), "green", "triangle")])


# -- helpers ----------------------------------------------------------------------------
class Table(GameTable):
    """A Ricochet Robots game under test (:class:`gametable.GameTable`); its replay check also
    writes the full public view (solutions of past rounds included) as JSON."""

    def __init__(self, config: GameConfig) -> None:
        super().__init__(RICOCHET_ROBOTS, config)

    def types(self, events: list) -> list[str]:
        return [e.type for e in events]

    def check_replay(self) -> None:
        super().check_replay()
        json.dumps(RICOCHET_ROBOTS.full_view(self.state, None))


@pytest.fixture
def table():
    """Make tables; each is checked for replay equality when the test ends."""
    made: list[Table] = []

    def make(**kw) -> Table:
        kw.setdefault("board", ONE)
        kw.setdefault("robots", ONE_ROBOTS)
        kw.setdefault("rules", RULES)
        t = Table(GameConfig(**kw))
        made.append(t)
        return t

    yield make
    for t in made:
        t.check_replay()


def solve(state: GameState, max_moves: int = 4) -> tuple[Move, ...] | None:
    """Shortest solution of the current round by breadth-first search (tiny boards only).
    Without must-ricochet and no-straight-back a state is just the robots' cells."""
    rnd = state.round
    assert rnd is not None
    pz, rules = rnd.puzzle, state.config.rules
    simple = not (rules.must_ricochet or rules.no_straight_back)
    queue = deque([(pz.position, (), {}, frozenset())])
    seen = set()
    while queue:
        pos, moves, heading, turned = queue.popleft()
        if moves and (pz.solved_by(pos) is not None if simple else check_solution(pz, moves, rules).ok):
            return moves
        if len(moves) >= max_moves:
            continue
        for move, path in pos.legal_moves(rules):
            prev = heading.get(move.robot)
            t = turned | {move.robot} if (path.deflected or (prev is not None and prev.perpendicular(move.direction))) \
                else turned
            h = {**heading, move.robot: path.heading}
            nxt, _ = pos.play(move, rules)
            key = nxt.cells if simple else (nxt.cells, nxt.last_move, tuple(sorted(h.items())), t)
            if key not in seen:
                seen.add(key)
                queue.append((nxt, moves + (move,), h, t))
    return None


def to_demonstration(t: Table, bids: dict[str, int], now: float = 1.0) -> float:
    """Place bids in the order given, one second apart, and let the clock run out."""
    for i, (p, n) in enumerate(bids.items()):
        t.do(PlaceBid(p, n), now + i)
    end = now + t.config.clock_seconds
    t.tick(end)
    assert t.state.phase == "demonstration"
    return end


# -- the round's puzzle carries the table's rules (issue 15) ------------------------------------
def test_round_puzzle_solved_without_rules_gets_the_rounds_rules(table):
    """``solve(round.puzzle)`` plays by the table's rules, not plain ones: here the red robot could
    slide straight onto its target (1 move, plain rules), which must-ricochet forbids."""
    from ricochet.puzzle import Puzzle
    from ricochet.solver import solve as optimal

    robots = (Robot("red", (0, 4)), Robot("green", (4, 0)), Robot("blue", (2, 2)), Robot("yellow", (1, 1)))
    t = table(robots=robots)
    t.seat("Ann", "Bob")
    puzzle = t.state.round.puzzle
    assert puzzle.rules == RULES == t.config.rules
    assert puzzle.position.rules is puzzle.rules
    answer = optimal(puzzle)  # no rules argument
    assert answer.rules == RULES and answer.length == optimal(puzzle, RULES).length
    assert check_solution(puzzle, answer.moves).ok
    straight = [Move(RED, E)]
    assert check_solution(puzzle, straight).failure.reason == "no_ricochet"
    assert answer.length > 1 == optimal(puzzle.with_rules(PLAIN)).length
    # The history's puzzles and the bots' puzzle (from the public view) carry them too.
    from ricochet.games.ricochet_robots.game import RICOCHET_ROBOTS, puzzle_from_view
    seen = puzzle_from_view(RICOCHET_ROBOTS.full_view(t.state, None))
    assert isinstance(seen, Puzzle) and seen == puzzle.with_rules(RULES)
    assert [j.args[0].rules for j in RICOCHET_ROBOTS.jobs(t.state)] == [RULES]


# -- configuration --------------------------------------------------------------------------
def test_defaults_follow_the_seed_and_rulings():
    c = GameConfig(board=ONE)
    assert (c.clock_seconds, c.no_bid_wait_seconds, c.demo_seconds, c.demo_seconds_per_move) == (60, 300, 60, 10)
    assert c.rules.must_ricochet and c.rules.no_straight_back and not c.tournament


@pytest.mark.parametrize("kw, match", [
    ({"clock_seconds": 0}, "clock_seconds must be more than 0"),
    ({"no_bid_wait_seconds": -1}, "no_bid_wait_seconds must be at least 0"),
    ({"clock_seconds": "60"}, "clock_seconds must be a number"),
    ({"target_score": 0}, "target_score must be a whole number"),
    ({"tournament": "yes"}, "tournament must be true or false"),
    ({"seed": 1.5}, "seed must be an integer"),
    ({"tiles": "1A,3B,4A"}, "tiles: an arrangement needs 4 tiles"),
    ({"tiles": "1A,1B,4A,2A"}, "do not hold all 17 targets"),
    ({"board": ONE, "tiles": "1A,3B,4A,2A"}, "either tiles or board"),
    ({"board": ONE, "robots": (Robot("green", (4, 2)),), "rules": RULES}, "no red robot"),
    ({"board": ONE, "robots": ONE_ROBOTS, "rules": GAME}, "silver robot is missing"),
    ({"board": ONE, "robots": (Robot("red", (0, 0)), Robot("green", (0, 0))), "rules": RULES}, "both on 0,0"),
    ({"robots": ONE_ROBOTS, "rules": RULES}, "robots need a board"),
])
def test_config_errors_name_the_field(kw, match):
    with pytest.raises(ConfigError, match=match):
        GameConfig(**kw)


def test_tile_config_accepts_text_and_starts_a_real_game(table):
    t = table(board=None, robots=None, rules=GAME, tiles="1a 3b 4a 2a", seed=5)
    assert t.config.tiles == ("1A", "3B", "4A", "2A")
    t.seat("Ann", "Bob")
    s = t.state
    assert s.arrangement == ("1A", "3B", "4A", "2A") and s.board.width == 16
    assert [r.color for r in s.robots] == ["red", "green", "blue", "yellow", "silver"]
    assert len(s.pile) == 16 and s.round.number == 1


def test_random_setup_is_seeded(table):
    a, b, c = (table(board=None, robots=None, rules=GAME, seed=seed) for seed in (1, 1, 2))
    for x in (a, b, c):
        x.seat("Ann", "Bob")
    assert a.state == b.state
    assert (a.state.arrangement, a.state.robots, a.state.round.chip) != (c.state.arrangement, c.state.robots,
                                                                         c.state.round.chip)


# -- lobby, players ----------------------------------------------------------------------
def test_lobby_host_and_start(table):
    t = table()
    t.do(Join("ann", "Ann"), 0)
    t.refused(Start("ann"), 1, "at least 2 players are needed to start; 1 is seated")
    t.refused(Join("ann", "Ann"), 1, "already in the game as Ann")
    t.refused(Join("x", "ann"), 1, "the name Ann is taken")
    t.refused(Join("x", "  "), 1, "a name must be a non-empty text")
    t.do(Join("bob", "Bob"), 1)
    t.refused(Start("bob"), 2, r"only the host \(Ann\) can start")
    t.refused(PlaceBid("bob", 3), 2, "the game has not started")
    t.do(Leave("ann"), 2)
    assert t.state.host == "bob"
    t.refused(Start("bob"), 2, "at least 2 players")
    t.do(Join("ann", "Ann"), 3)
    assert t.state.host == "bob"
    t.do(Start("bob"), 4)
    assert t.state.phase == "thinking"
    t.refused(Start("bob"), 5, "already started")
    t.refused(PlaceBid("zed", 3), 5, "you are not in this game")


def test_players_may_join_mid_game_and_bid(table):
    t = table()
    t.seat("Ann", "Bob")
    t.do(PlaceBid("ann", 4), 1)
    t.do(Join("cy", "Cy"), 2)
    t.do(PlaceBid("cy", 2), 3)
    t.tick(61)
    assert t.state.round.demonstrator == "cy"
    assert t.state.target_score == 8  # fixed at the start from the 2 players seated then


# -- bidding --------------------------------------------------------------------------------
def test_first_bid_turns_the_sand_clock_for_60_seconds(table):
    """Seed 000: "As soon as a player has found a solution, he may bid aloud the number of moves he
    thinks is required and set up the sand clock.  The other players have now 1 minute to make their bids."""
    t = table()
    t.seat("Ann", "Bob")
    assert t.state.phase == "thinking" and t.state.round.clock_deadline is None
    events = t.do(PlaceBid("ann", 5), 10)
    assert t.types(events) == ["bid_placed", "clock_started"]
    assert events[1].deadline == 70 and events[1].reason == "bid"
    assert t.state.phase == "bidding"
    events = t.do(PlaceBid("bob", 4), 20)
    assert t.types(events) == ["bid_placed"]  # the clock is not turned again
    assert t.state.round.clock_deadline == 70
    assert t.tick(69.9) == []


def test_bids_after_the_clock_ran_out_are_refused(table):
    """Seed 000: "When the sand clock runs out, the lowest bidder plays out the round." """
    t = table()
    t.seat("Ann", "Bob")
    t.do(PlaceBid("ann", 5), 10)
    t.do(PlaceBid("bob", 6), 69.99)  # just in time
    t.refused(PlaceBid("bob", 3), 70, "the sand clock has run out: it is Ann's demonstration")
    events = t.tick(70)
    assert t.types(events) == ["clock_ran_out", "demonstration_started"]
    assert events[0].order == ("ann", "bob")
    t.refused(PlaceBid("bob", 3), 71, "the sand clock has run out")


def test_anyone_bids_any_number_of_times_but_never_raises_their_own(table):
    """Seed 000: "There is no order of bidding and players may bid more than once. Successive bids will
    usually be lower but may also be equal and even higher ... Once a player has made a bid, he may not
    change it to a higher number." """
    t = table()
    t.seat("Ann", "Bob")
    t.do(PlaceBid("ann", 5), 1)
    err = t.refused(PlaceBid("ann", 6), 2, r"you may not raise your own bid \(you bid 5\)")
    assert err.code == "raise"
    assert t.do(PlaceBid("ann", 5), 3) == []  # equal is not higher: allowed, and changes nothing (no event)
    t.do(PlaceBid("bob", 9), 4)  # higher than another player's bid is fine
    t.do(PlaceBid("ann", 4), 5)
    t.refused(PlaceBid("ann", 5), 6, r"you bid 4")
    t.do(PlaceBid("bob", 3), 7)
    assert [b.moves for b in t.state.round.bids] == [5, 9, 4, 3]
    assert {p: b.moves for p, b in t.state.round.standing.items()} == {"ann": 4, "bob": 3}


@pytest.mark.parametrize("moves", [0, -1, 100, 2.5, "3", True, None])
def test_bids_are_whole_numbers_from_1_to_99(table, moves):
    t = table()
    t.seat("Ann", "Bob")
    t.refused(PlaceBid("ann", moves), 1, "a bid is a whole number of moves from 1 to 99")


def test_equal_rebid_keeps_the_time_of_the_first_bid_of_that_number(table):
    """Our reading: re-announcing the same number is allowed but cannot buy a better tie position;
    it is not even logged (seed 000: "Once a player has made a bid, he may not change it to a higher
    number" — an equal one changes nothing)."""
    t = table(tournament=True)
    t.seat("Ann", "Bob")
    t.do(PlaceBid("ann", 5), 1)
    t.do(PlaceBid("bob", 5), 2)
    assert t.do(PlaceBid("ann", 5), 3) == []
    t.tick(61)
    assert t.state.round.order == ("ann", "bob")
    u = table(tournament=True)
    u.seat("Ann", "Bob")
    u.do(PlaceBid("ann", 6), 1)
    u.do(PlaceBid("bob", 5), 2)
    u.do(PlaceBid("ann", 5), 3)  # ann's 5 is later than bob's 5
    u.tick(61)
    assert u.state.round.order == ("bob", "ann")


def _ann_wins_round_one(t: Table) -> float:
    """Ann takes the first chip; returns the time the second round began."""
    end = to_demonstration(t, {"ann": 2})
    for m in solve(t.state):
        t.do(Demonstrate("ann", m), end + 1)
    assert t.state.scores == {"ann": 1, "bob": 0}
    assert t.state.round.number == 2
    return end + 1


def test_equal_bids_the_player_with_fewer_chips_goes_first(table):
    """Seed 000: "In case of equal bids, the player who is behind in the game (has the fewer chips) has
    precedence." """
    t = table(board=TWO, seed=0)
    t.seat("Ann", "Bob")
    now = _ann_wins_round_one(t)
    t.do(PlaceBid("ann", 7), now + 1)
    t.do(PlaceBid("bob", 7), now + 2)
    t.tick(now + 61)
    assert t.state.round.order == ("bob", "ann")
    assert t.state.round.demonstrator == "bob"


def test_tournament_equal_bids_the_earlier_bid_goes_first(table):
    """Seed 000, Tournament variant: "in case of equal bids, the player who bid first has precedence." """
    t = table(board=TWO, seed=0, tournament=True)
    t.seat("Ann", "Bob")
    now = _ann_wins_round_one(t)
    t.do(PlaceBid("ann", 7), now + 1)
    t.do(PlaceBid("bob", 7), now + 2)
    t.tick(now + 61)
    assert t.state.round.order == ("ann", "bob")


def test_equal_bids_and_equal_chips_the_earlier_bid_goes_first(table):
    """RULINGS 7: "Equal bids: the player with fewer chips goes first ...; still equal: the earlier bid." """
    t = table()
    t.seat("Ann", "Bob", "Cy")
    t.do(PlaceBid("bob", 6), 1)
    t.do(PlaceBid("cy", 6), 1)  # same instant: log order decides
    t.do(PlaceBid("ann", 6), 2)
    t.do(PlaceBid("ann", 3), 3)
    t.tick(61)
    assert t.state.round.order == ("ann", "bob", "cy")


def test_order_function_directly():
    B = bidding.Bid
    bids = (B("a", 4, 1.0, 1), B("b", 4, 2.0, 2), B("c", 3, 3.0, 3), B("d", 4, 0.5, 0))
    chips = {"a": 2, "b": 0, "c": 5, "d": 2}
    assert [b.player for b in bidding.demonstration_order(bids, chips)] == ["c", "b", "d", "a"]
    assert [b.player for b in bidding.demonstration_order(bids, chips, True)] == ["c", "d", "a", "b"]
    assert [b.player for b in bidding.demonstration_order(bids, chips, eligible=frozenset("ab"))] == ["b", "a"]


# -- demonstration --------------------------------------------------------------------------------
def test_success_awards_the_chip_and_the_robots_stay(table):
    """Seed 000: "If the number of moves he makes matches or is lower than the number he bid, he collects
    the chip and the round is over."  RULINGS 7: "Robots stay where the successful demonstration left them." """
    t = table(board=TWO, seed=0)
    t.seat("Ann", "Bob")
    assert t.state.round.chip.name == "red circle"
    end = to_demonstration(t, {"ann": 3, "bob": 2})
    assert t.state.round.demonstrator == "bob"
    t.do(Demonstrate("bob", Move(RED, S)), end + 1)
    assert t.state.robots[RED].cell == (0, 4) and t.state.phase == "demonstration"
    events = t.do(Demonstrate("bob", Move(RED, E)), end + 2)  # 2 moves ≤ bid 2, with a ricochet
    assert t.types(events) == ["move_played", "demonstration_ended", "round_ended", "chip_drawn"]
    assert events[1].success and events[1].reason == "solved" and events[2].winner == "bob"
    s = t.state
    assert s.scores == {"ann": 0, "bob": 1} and [c.name for c in s.player("bob").won] == ["red circle"]
    assert s.robots[RED].cell == (4, 4)
    assert s.round.number == 2 and s.round.start.robots[RED].cell == (4, 4)
    assert s.history[0].attempts[0].moves == (Move(RED, S), Move(RED, E))
    assert len(s.history[0].attempts[0].paths) == 2


def test_a_solution_shorter_than_the_bid_wins(table):
    t = table()
    t.seat("Ann", "Bob")
    end = to_demonstration(t, {"ann": 9})
    t.do(Demonstrate("ann", Move(RED, S)), end + 1)
    t.do(Demonstrate("ann", Move(RED, E)), end + 2)
    assert t.state.scores["ann"] == 1 and t.state.phase == "over"  # the only chip: the pile is exhausted
    assert t.state.end_reason == "all_chips" and t.state.winners == ("ann",)


def test_must_ricochet_a_straight_slide_onto_the_target_does_not_count(table):
    """Seed 000: "On its way to the target space an active robot must hit and ricochet off ... an obstacle
    at least once.  If it could reach the target space without ricocheting, another route must be chosen." """
    board = Board.build(5, 5, targets=[Target((0, 4), "red", "circle")])
    robots = (Robot("red", (0, 0)), Robot("green", (4, 0)), Robot("blue", (2, 2)), Robot("yellow", (1, 3)))
    t = table(board=board, robots=robots)
    t.seat("Ann", "Bob")
    end = to_demonstration(t, {"ann": 1, "bob": 3})
    events = t.do(Demonstrate("ann", Move(RED, S)), end + 1)  # on the target, but straight from the start
    assert events[1].reason == "out_of_moves" and t.state.round.demonstrator == "bob"
    t.do(Demonstrate("bob", Move(RED, E)), end + 2)  # (3,0), stopped by green
    t.do(Demonstrate("bob", Move(RED, S)), end + 3)  # (3,4)
    t.do(Demonstrate("bob", Move(RED, W)), end + 4)  # (0,4) after a turn: 3 ≤ 3
    assert t.state.scores == {"ann": 0, "bob": 1}


def test_failure_puts_the_robots_back_and_passes_to_the_next_bidder(table):
    """Seed 000: "If he fails, he must return the robots he moved to their starting spaces ... and the turn
    passes to the player with the next higher number." """
    t = table()
    t.seat("Ann", "Bob", "Cy")
    end = to_demonstration(t, {"ann": 2, "bob": 3, "cy": 4})
    start = t.state.robots
    t.do(Demonstrate("ann", Move(BLUE, N)), end + 1)
    assert t.state.robots != start
    events = t.do(GiveUp("ann"), end + 2)
    assert t.types(events) == ["demonstration_ended", "demonstration_started"]
    assert events[0].reason == "gave_up" and not events[0].success
    assert t.state.robots == start and t.state.round.moves == ()
    assert t.state.round.demonstrator == "bob" and t.state.round.demo_bid == 3
    assert t.state.round.attempts[0].moves == (Move(BLUE, N),)


def test_the_host_skips_an_away_demonstrator_and_the_turn_passes(table):
    """Seed 000's consequence of a failure ("the turn passes to the player with the next higher number")
    when the host skips a demonstrator who is away; only the host may, and not their own demonstration."""
    t = table()
    t.seat("Ann", "Bob", "Cy")  # Ann sat down first: the host
    end = to_demonstration(t, {"bob": 2, "ann": 3, "cy": 4})
    t.do(Demonstrate("bob", Move(BLUE, N)), end + 1)
    start_cost = t.state.round.cost
    t.refused(SkipDemonstration("cy"), end + 2, "only the host")
    events = t.do(SkipDemonstration("ann"), end + 3)
    assert t.types(events) == ["demonstration_ended", "demonstration_started"]
    assert events[0].reason == "skipped" and events[0].player == "bob" and events[0].cost == start_cost
    assert t.state.round.demonstrator == "ann" and t.state.round.moves == ()
    t.refused(SkipDemonstration("ann"), end + 4, "your own demonstration")
    t.do(GiveUp("ann"), end + 5)
    t.do(SkipDemonstration("ann"), end + 6)
    assert t.state.phase != "demonstration" and t.state.history[-1].result == "failed"
    t.refused(SkipDemonstration("ann"), end + 7, "no demonstration")


def test_exceeding_the_bid_fails(table):
    """Seed 000: "If the number of moves he makes matches or is lower than the number he bid" — more fails.
    The demonstration ends as soon as the bid is used up without reaching the target."""
    t = table()
    t.seat("Ann", "Bob")
    end = to_demonstration(t, {"ann": 2, "bob": 3})
    t.do(Demonstrate("ann", Move(RED, E)), end + 1)  # (4,0)
    events = t.do(Demonstrate("ann", Move(RED, S)), end + 2)  # (4,1): stopped by green, bid used up
    assert t.types(events)[:3] == ["move_played", "demonstration_ended", "demonstration_started"]
    assert events[1].reason == "out_of_moves" and events[1].cost == 2
    assert t.state.robots == ONE_ROBOTS and t.state.round.demonstrator == "bob"


def test_too_long_with_the_transparent_robot_costs(table):
    """A move of the transparent robot through a wall costs extra: the count can jump past the bid."""
    board = Board.build(5, 5, walls=[(1, 4, "E")], targets=[Target((4, 4), "any", "vortex")])
    rules = RULES.with_options(transparent=True, must_ricochet=False)
    robots = ONE_ROBOTS[:2] + (Robot("transparent", (0, 4)),) + ONE_ROBOTS[3:]
    t = table(board=board, robots=robots, rules=rules)
    t.seat("Ann", "Bob")
    end = to_demonstration(t, {"ann": 1})
    events = t.do(Demonstrate("ann", Move(2, E, (4, 4))), end + 1)  # through the wall: cost 2 > 1
    assert events[1].reason == "too_long" and events[1].cost == 2


def test_an_illegal_move_is_refused_and_the_demonstration_goes_on(table):
    """RULINGS 7: "success means reaching the target ... obeying all rules": an illegal move is refused
    with its reason, the robot does not move, the demonstration continues."""
    t = table()
    t.seat("Ann", "Bob")
    end = to_demonstration(t, {"ann": 3})
    err = t.refused(Demonstrate("ann", Move(RED, N)), end + 1, "illegal move: the red robot cannot move N")
    assert err.code == "illegal_move"
    t.do(Demonstrate("ann", Move(RED, S)), end + 2)
    t.refused(Demonstrate("ann", Move(RED, N)), end + 3, "may not move straight back")  # RULINGS 3
    t.refused(Demonstrate("ann", Move(7, N)), end + 3, "there is no robot 7")
    t.refused(Demonstrate("bob", Move(RED, E)), end + 3, "it is Ann's demonstration")
    t.refused(GiveUp("bob"), end + 3, "it is Ann's demonstration")
    t.do(Demonstrate("ann", Move(RED, E)), end + 4)
    assert t.state.scores["ann"] == 1


def test_demonstration_time_limit(table):
    """Our limit: 60 s plus 10 s per bid move; running out of time is a failure."""
    t = table()
    t.seat("Ann", "Bob")
    end = to_demonstration(t, {"ann": 3, "bob": 4})
    assert t.state.round.demo_deadline == end + 90
    assert t.tick(end + 89) == []
    events = t.tick(end + 90)
    assert events[0].reason == "timeout" and t.state.round.demonstrator == "bob"
    assert t.state.round.demo_deadline == end + 90 + 100


def test_leaving_while_demonstrating_is_a_failure(table):
    t = table()
    t.seat("Ann", "Bob", "Cy")
    end = to_demonstration(t, {"ann": 3, "bob": 4, "cy": 5})
    t.do(Demonstrate("ann", Move(BLUE, N)), end + 1)
    t.do(Leave("bob"), end + 1)  # bob leaves while waiting: skipped later
    events = t.do(Leave("ann"), end + 2)
    assert t.types(events) == ["player_left", "demonstration_ended", "demonstration_started"]
    assert events[1].reason == "left" and t.state.round.demonstrator == "cy"
    assert t.state.robots == ONE_ROBOTS and t.state.host == "cy"


def test_nobody_succeeds_the_chip_goes_back_into_the_pile(table):
    """Seed 000: "If no one succeeds, no one gets the chip, which is returned and reshuffled on the table." """
    t = table(board=TWO, seed=0)
    t.seat("Ann", "Bob")
    first = t.state.round.chip
    assert len(t.state.pile) == 1
    end = to_demonstration(t, {"ann": 3, "bob": 4})
    t.do(GiveUp("ann"), end + 1)
    events = t.do(GiveUp("bob"), end + 2)
    assert t.types(events) == ["demonstration_ended", "round_ended", "chip_drawn"]
    assert events[1].result == "failed" and events[1].winner is None
    assert t.state.scores == {"ann": 0, "bob": 0} and t.state.chips_won == 0
    assert t.state.round.number == 2 and len(t.state.pile) == 1
    assert first in t.state.pile or t.state.round.chip == first


def test_no_bid_wait_then_the_clock_may_be_turned(table):
    """Seed 000: "if, after 4 or 5 minutes no one has made a bid, one of the players set up the sand clock.
    If at the end of the minute there has not been a bid, return the chip to the table, reshuffle and replace
    it with another."  RULINGS 8: default wait 5 minutes."""
    t = table(board=TWO, seed=0)
    t.seat("Ann", "Bob")
    t.refused(TurnClock("bob"), 120, r"only after 5 min without a bid: 3 min to go")
    events = t.do(TurnClock("bob"), 300)
    assert t.types(events) == ["clock_started"] and events[0].reason == "turned" and events[0].deadline == 360
    t.refused(TurnClock("ann"), 310, "already running")
    events = t.tick(360)
    assert t.types(events) == ["clock_ran_out", "round_ended", "chip_drawn"]
    assert events[1].result == "no_bid" and t.state.round.number == 2 and t.state.round.drawn_at == 360


def test_a_bid_during_a_turned_clock_does_not_turn_it_again(table):
    t = table()
    t.seat("Ann", "Bob")
    t.do(TurnClock("bob"), 300)
    assert t.types(t.do(PlaceBid("ann", 4), 350)) == ["bid_placed"]
    t.tick(360)
    assert t.state.round.demonstrator == "ann"


def test_every_chip_returned_unwon_ends_the_game(table):
    """RULINGS 9: "Also end when the pile is exhausted; then most chips wins (ties share)." — our reading of
    "no chip winnable": every chip left has been drawn and returned since the last chip was won."""
    t = table(board=TWO, seed=0, no_bid_wait_seconds=0)
    t.seat("Ann", "Bob")
    now, seen = 1.0, set()
    while t.state.phase != "over":
        seen.add(t.state.round.chip)
        t.do(TurnClock("ann"), now)
        t.tick(now + 60)
        now += 61
    assert len(seen) == 2 and t.state.end_reason == "no_winnable_chip"
    assert t.state.winners == ()  # nobody has a chip: nobody won (not "all share")


def test_vortex_any_robot(table):
    """Seed 000: "If the chip in the center is the "cosmic vortex" (which has all colors), any robot,
    including the silver robot, may be considered the active robot." """
    board = Board.build(5, 5, targets=[Target((4, 4), "any", "vortex")])
    robots = (Robot("red", (0, 1)), Robot("green", (1, 0)), Robot("blue", (2, 2)), Robot("yellow", (1, 3)),
              Robot("silver", (0, 0)))
    t = table(board=board, robots=robots, rules=GAME)
    t.seat("Ann", "Bob")
    assert t.state.round.active is None and RICOCHET_ROBOTS.full_view(t.state, None)["round"]["active_color"] is None
    end = to_demonstration(t, {"ann": 2})
    t.do(Demonstrate("ann", Move(GREEN, E)), end + 1)  # (4,0)
    t.do(Demonstrate("ann", Move(GREEN, S)), end + 2)  # (4,4), turned
    assert t.state.scores["ann"] == 1


def test_silver_reaches_the_vortex(table):
    board = Board.build(5, 5, targets=[Target((4, 4), "any", "vortex")])
    robots = (Robot("red", (0, 1)), Robot("green", (1, 1)), Robot("blue", (2, 2)), Robot("yellow", (1, 3)),
              Robot("silver", (0, 0)))
    t = table(board=board, robots=robots, rules=GAME)
    t.seat("Ann", "Bob")
    end = to_demonstration(t, {"ann": 2})
    t.do(Demonstrate("ann", Move(4, E)), end + 1)
    t.do(Demonstrate("ann", Move(4, S)), end + 2)
    assert t.state.scores["ann"] == 1 and t.state.player("ann").won[0].name == "vortex"


def test_silver_is_never_active_for_a_coloured_chip(table):
    t = table(board=TWO, rules=GAME, robots=ONE_ROBOTS + (Robot("silver", (3, 0)),))
    t.seat("Ann", "Bob")
    assert t.state.round.active is not None
    assert t.state.robots[t.state.round.active].color == t.state.round.chip.color


# -- end of the game ---------------------------------------------------------------------------
# A 6×6 board with 9 chips (red and green × 4 symbols, and the vortex) and two robots: small enough that
# a breadth-first search finds every solution at once.
_CHIPS9 = [(c, s) for c in ("red", "green") for s in ("circle", "triangle", "square", "hexagon")] + [("any", "vortex")]
_CELLS9 = [(1, 0), (4, 1), (0, 2), (5, 3), (2, 4), (3, 5), (1, 3), (4, 2), (2, 1)]
BIG = Board.build(6, 6, walls=[(1, 0, "E"), (4, 1, "S"), (0, 2, "N"), (5, 3, "W"), (2, 4, "S"), (3, 5, "E"),
                               (1, 3, "W"), (1, 3, "N"), (4, 2, "E"), (4, 2, "S"), (2, 1, "N"), (2, 1, "E")],
                  targets=[Target(c, col, sym) for c, (col, sym) in zip(_CELLS9, _CHIPS9)])
BIG_ROBOTS = (Robot("red", (0, 0)), Robot("green", (5, 5)))


def play_out(t: Table, winner: str, rounds: int = 200) -> None:
    """Every round ``winner`` bids the shortest solution found and plays it; unsolved rounds are
    given up (or, with no solution, the clock is turned after the wait)."""
    now = 10.0
    for _ in range(rounds):
        if t.state.phase == "over":
            return
        sol = solve(t.state, 12)
        if sol is None:
            t.do(TurnClock(winner), now)
            t.tick(now + 60)
        else:
            t.do(PlaceBid(winner, len(sol)), now)
            t.tick(now + 60)
            for m in sol:
                t.do(Demonstrate(winner, m), now + 61)
        assert sum(t.state.scores.values()) == t.state.chips_won == 9 - len(t.state.pile) - (t.state.round is not None)
        now += 100
    raise AssertionError("the game did not end")


@pytest.mark.parametrize("players, target", [(2, 8), (3, 6), (4, 5)])
def test_the_game_ends_when_a_player_has_the_chips_for_the_player_count(table, players, target):
    """Seed 000: "A 2-player game ends as soon as a player has won 8 chips; a 3-player game when a player
    has won 6 and a 4-player game when a player has won 5." """
    t = table(board=BIG, robots=BIG_ROBOTS, rules=PLAIN, no_bid_wait_seconds=0, seed=players)
    t.seat(*["Ann", "Bob", "Cy", "Dee"][:players])
    assert t.state.target_score == target == target_score_for(players)
    play_out(t, "ann")
    assert t.state.end_reason == "target_score" and t.state.scores["ann"] == target
    assert t.state.winners == ("ann",) and t.state.pile


def test_more_than_four_players_play_until_all_chips_are_won(table):
    """Seed 000: "If more than 4 are playing, continue until all the chips have been won." (5 passes by.)"""
    t = table(board=BIG, robots=BIG_ROBOTS, rules=PLAIN, no_bid_wait_seconds=0, seed=5)
    t.seat("Ann", "Bob", "Cy", "Dee", "Eve")
    assert t.state.target_score is None
    play_out(t, "ann", 400)
    assert t.state.end_reason == "all_chips" and t.state.scores["ann"] == 9 and not t.state.pile


def test_target_score_may_be_set_and_the_host_may_end_the_game(table):
    t = table(board=TWO, seed=0, target_score=1)
    t.seat("Ann", "Bob")
    t.refused(EndGame("bob"), 1, r"only the host \(Ann\)")
    t.do(EndGame("ann"), 2)
    assert t.state.phase == "over" and t.state.end_reason == "host_ended"
    assert t.state.winners == ()  # ended at 0–0: nobody won
    t.refused(PlaceBid("ann", 3), 3, "the game is over")
    t.refused(Join("cy", "Cy"), 3, "the game is over")


# -- solver report, public view ------------------------------------------------------------------
def test_round_solved_is_carried_and_revealed_after_the_round(table):
    t = table(board=TWO, seed=0)
    t.seat("Ann", "Bob")
    t.do(ReportSolution(1, 2, (Move(RED, S), Move(RED, E))), 1)
    t.refused(ReportSolution(5, 2), 1, "there is no round 5")
    t.refused(ReportSolution(1, -2), 1, "optimal must be a whole number")
    view = RICOCHET_ROBOTS.full_view(t.state, "ann")
    assert "optimal" not in json.dumps(view["round"])
    end = to_demonstration(t, {"ann": 2})
    t.do(Demonstrate("ann", Move(RED, S)), end + 1)
    t.do(Demonstrate("ann", Move(RED, E)), end + 2)
    hist = RICOCHET_ROBOTS.full_view(t.state, "bob")["history"][0]
    assert hist["optimal"] == 2 and hist["solution"][0] == {"robot": 0, "direction": "S"}


def test_public_view_never_shows_the_seed_or_the_pile_order(table):
    t = table(board=None, robots=None, rules=GAME, seed=123456789)
    t.seat("Ann", "Bob")
    t.do(PlaceBid("ann", 5), 3)
    view = RICOCHET_ROBOTS.full_view(t.state, "bob")
    text = json.dumps(view)
    assert "123456789" not in text and "seed" not in text and "pile\"" not in text
    assert view["pile_size"] == 16 and view["round"]["your_bid"] is None
    assert RICOCHET_ROBOTS.full_view(t.state, "ann")["round"]["your_bid"] == 5
    assert view["round"]["clock"]["deadline"] == 63 and view["round"]["active_color"] == t.state.round.chip.color \
        or t.state.round.chip.symbol == "vortex"
    for e in t.log:  # events never carry the seed either
        assert "123456789" not in json.dumps(e.to_dict())


def test_intermission_between_rounds(table):
    """With ``intermission_seconds`` the next chip comes after a pause (default 0: at once, as in the seed)."""
    t = table(board=TWO, seed=0, intermission_seconds=5)
    t.seat("Ann", "Bob")
    end = to_demonstration(t, {"ann": 2})
    t.do(Demonstrate("ann", Move(RED, S)), end + 1)
    t.do(Demonstrate("ann", Move(RED, E)), end + 2)
    assert t.state.phase == "intermission" and t.state.round is None
    t.refused(PlaceBid("bob", 3), end + 3, "the round is over: wait for the next chip")
    assert t.tick(end + 6.9) == []
    assert t.types(t.tick(end + 7)) == ["chip_drawn"] and t.state.round.number == 2


def test_solver_report_before_any_round(table):
    t = table()
    t.refused(ReportSolution(1, 2), 0, r"there is no round 1 \(no round has begun yet\)")


def test_time_never_runs_backwards(table):
    t = table()
    t.seat("Ann", "Bob", now=100)
    t.do(PlaceBid("ann", 3), 50)  # a late message: counts at 100
    assert t.state.round.clock_deadline == 160


# -- property: random action sequences --------------------------------------------------------
PLAYERS = ("ann", "bob", "cy")
SOLVE = "solve"  # sentinel: the demonstrator plays a shortest solution, if one fits the bid
_moves = st.builds(Move, st.integers(0, 4), st.sampled_from(DIRECTIONS))
_who = st.sampled_from(PLAYERS)
_actions = st.one_of(
    st.builds(Join, _who, st.sampled_from(["Ann", "Bob", "Cy", "Ann "])),
    st.builds(Leave, _who),
    st.builds(Start, _who),
    st.builds(PlaceBid, _who, st.one_of(st.integers(1, 5), st.integers(-1, 6), st.just(100))),
    st.builds(TurnClock, _who),
    st.builds(Demonstrate, _who, _moves),
    st.builds(GiveUp, _who),
    st.builds(EndGame, st.sampled_from(["bob", "cy"])),  # not the host (see the scenario test)
    st.builds(ReportSolution, st.integers(0, 3), st.integers(0, 5)),
    st.just(SOLVE),
    st.none(),  # just a tick
)
_likely = st.one_of(st.builds(PlaceBid, _who, st.integers(1, 4)), st.none(), st.builds(Demonstrate, _who, _moves))
_dt = st.one_of(st.just(0.0), st.floats(0, 5), st.floats(0, 90))
_SETUP = [(Join("ann", "Ann"), 0.0), (Join("bob", "Bob"), 0.0), (Start("ann"), 0.0)]


def _demonstrator_actions(player: str) -> st.SearchStrategy:
    return st.one_of(st.just(SOLVE), st.builds(Demonstrate, st.just(player), _moves), st.just(GiveUp(player)))


@settings(max_examples=100, derandomize=True, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), setup=st.sampled_from([True] * 7 + [False]), tournament=st.booleans(),
       seed=st.integers(0, 3), silver=st.booleans())
def test_random_action_sequences_keep_the_invariants(data, setup, tournament, seed, silver):
    """Anything players do either is refused with a GameError (changing nothing) or keeps the invariants:
    robots never overlap, scores add up to the chips won, every chip is in the pile, won or in play, the
    demonstrator is seated and within their bid, events are in time order, and the log replays the state.
    During a demonstration the demonstrator acts half of the time, so rounds get played out."""
    rules = RULES.with_options(silver=silver)
    robots = ONE_ROBOTS + ((Robot("silver", (3, 0)),) if silver else ())
    config = GameConfig(board=TWO, robots=robots, rules=rules, tournament=tournament, seed=seed,
                        no_bid_wait_seconds=30, clock_seconds=20, demo_seconds=15, demo_seconds_per_move=1)
    all_chips = sorted((t.color, t.symbol) for t in TWO.targets)
    state, log, now = RICOCHET_ROBOTS.new(config), [], 0.0
    steps = list(_SETUP if setup else [])
    for _ in range(data.draw(st.integers(10, 60), label="steps")):
        if steps:
            action, dt = steps.pop(0)
        elif state.phase == "demonstration" and data.draw(st.booleans()):
            action, dt = data.draw(_demonstrator_actions(state.round.demonstrator)), data.draw(_dt)
        else:
            action, dt = data.draw(st.one_of(_actions, _likely, _likely)), data.draw(_dt)
        now += dt
        try:
            if action is None:
                state, events = RICOCHET_ROBOTS.tick(state, now)
            elif action == SOLVE:
                events = []
                rnd = state.round
                if state.phase == "demonstration" and not rnd.moves:
                    sol = solve(state, 3)
                    for m in sol if sol and len(sol) <= rnd.demo_bid else ():
                        state, evs = RICOCHET_ROBOTS.apply(state, Demonstrate(rnd.demonstrator, m), now)
                        events += evs
                    assert sol is None or len(sol) > rnd.demo_bid or state.history[-1].result == "won"
            else:
                state, events = RICOCHET_ROBOTS.apply(state, action, now)
        except GameError as e:
            assert str(e)
            continue
        log += events
        cells = [r.cell for r in state.robots]
        assert len(cells) == len(set(cells))  # robots never overlap
        assert sum(state.scores.values()) == state.chips_won == sum(1 for r in state.history if r.winner)
        if state.board is not None and state.phase != "over":
            won = [(c.color, c.symbol) for p in state.players for c in p.won]
            current = [(state.round.chip.color, state.round.chip.symbol)] if state.round is not None else []
            assert sorted(won + [(c.color, c.symbol) for c in state.pile] + current) == all_chips
        if state.phase == "demonstration":
            assert state.round.demonstrator in state.seated and state.round.cost < state.round.demo_bid
        if state.host is not None:
            assert state.host in state.seated
        assert [e.at for e in log] == sorted(e.at for e in log)
    assert RICOCHET_ROBOTS.fold(config, log) == state
    assert RICOCHET_ROBOTS.fold(config, [RICOCHET_ROBOTS.event_from_dict(json.loads(json.dumps(e.to_dict()))) for e in log]) == state
    json.dumps(RICOCHET_ROBOTS.full_view(state, "ann"))
