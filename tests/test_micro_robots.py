"""Micro Robots (seed 002): the board and its moves, exact-N routes against a
brute-force reference, and the race game — each rule as a scenario quoting the
seed.  Every table is replayed from its event log (also via JSON) at teardown."""

from __future__ import annotations

import itertools
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gametable import GameTable
from ricochet.games import GameError
from ricochet.games.micro_robots.engine import (
    SHIPPED,
    Arrangement,
    MicroBoard,
    MicroError,
    best_route,
    exact_route,
    reachable_exactly,
    route_of_length,
    shortest_route,
)
from ricochet.games.micro_robots.game import (
    CHIPS,
    MICRO_ROBOTS,
    Announce,
    GameStarted,
    GiveUp,
    MicroConfig,
    MoveRobot,
    TargetRolled,
)
from ricochet.games.table import Join, Leave

G = MICRO_ROBOTS


# -- the board ---------------------------------------------------------------------------------------------
def test_every_colour_number_pair_once_on_every_arrangement():
    """Seed 002: "Each combination of number and colour exists only once in the playing area." """
    rng = random.Random(5)
    for _ in range(50):
        board = MicroBoard.arranged(Arrangement.random(rng))
        assert len({(sp.color, sp.number) for row in board.cells for sp in row}) == 36
    assert MicroBoard.arranged(Arrangement.parse("A0B0C0D0")) == SHIPPED


def test_sections_may_be_placed_and_turned_in_any_way():
    """Seed 002: "Put the 4 gameboard sections together … You can orient the sections in any way you want." """
    turned = MicroBoard.arranged(Arrangement.parse("A1B0C0D0"))
    # the north-west section turned a quarter clockwise: its left column, read upwards, is its top row now
    assert [turned.cells[0][c] for c in range(3)] == [SHIPPED.cells[2 - r][0] for r in range(3)]
    assert [turned.cells[r][3:] for r in range(6)] == [SHIPPED.cells[r][3:] for r in range(6)]
    swapped = MicroBoard.arranged(Arrangement.parse("B0A0C0D0"))
    assert swapped.cells[0][:3] == SHIPPED.cells[0][3:] and swapped.cells[0][3:] == SHIPPED.cells[0][:3]
    for bad in ("A0A0C0D0", "A4B0C0D0", "ABCD", ""):
        with pytest.raises(MicroError):
            Arrangement.parse(bad)


def test_seed_first_move_example():
    """Seed 002: "The starting chip is lying on 1 "pink". In this case, you have three possibilities for your
    first move. The robot can move in a vertical direction to "1 blue" or "1 yellow"; in a horizontal direction,
    he can move to "6 pink"." """
    start = SHIPPED.find("pink", 1)
    moves = {SHIPPED.name(c): ("vertical" if c[1] == start[1] else "horizontal") for c in SHIPPED.moves(start)}
    assert moves == {"1 blue": "vertical", "1 yellow": "vertical", "6 pink": "horizontal"}
    # "For your next move, you have the choice between "6 blue" or "6 white" in a horizontal direction or
    # "4 pink" in a vertical direction" — and back to 1 pink, which the seed does not list.
    after = {SHIPPED.name(c) for c in SHIPPED.moves(SHIPPED.find("pink", 6))}
    assert after == {"6 blue", "6 white", "4 pink", "1 pink"}


def test_seed_worked_example_route():
    """Seed 002: "He moves the robot from "1 pink" to "6 pink"; after that, "6 white", "6 red" and "2 red"
    follow. From there, he reaches the "2 white" target space. He needed five moves overall." """
    names = ["1 pink", "6 pink", "6 white", "6 red", "2 red", "2 white"]
    cells = [SHIPPED.find(n.split()[1], int(n.split()[0])) for n in names]
    assert all(SHIPPED.is_move(a, b) for a, b in itertools.pairwise(cells))
    assert len(shortest_route(SHIPPED, cells[0], cells[-1])) - 1 <= 5
    assert route_of_length(SHIPPED, cells[0], cells[-1], 5) is not None


def _adjacency(board: MicroBoard) -> list[list[int]]:
    cells = [(r, c) for r in range(6) for c in range(6)]
    return [[1 if (r2, c2) != (r1, c1) and (r1 == r2 or c1 == c2) and (
        board.space((r1, c1)).color == board.space((r2, c2)).color
        or board.space((r1, c1)).number == board.space((r2, c2)).number) else 0
        for (r2, c2) in cells] for (r1, c1) in cells]


def _walks(adj: list[list[int]], n: int) -> list[list[int]]:
    """Brute force: the number of walks of exactly n moves between every pair (the n-th power of the
    adjacency matrix, built from the rule's own words, not from MicroBoard.moves)."""
    size = len(adj)
    power = [[int(i == j) for j in range(size)] for i in range(size)]
    for _ in range(n):
        power = [[sum(power[i][k] * adj[k][j] for k in range(size) if power[i][k]) for j in range(size)]
                 for i in range(size)]
    return power


@pytest.mark.parametrize("code", ["A0B0C0D0", "C1A0D2B3"])
def test_exact_n_agrees_with_brute_force_for_every_pair_up_to_8(code: str):
    """Issue: "Exact-N reachability agrees with a brute-force reference on every start/target pair for N ≤ 8"."""
    board = MicroBoard.arranged(Arrangement.parse(code))
    adj = _adjacency(board)
    cells = [(r, c) for r in range(6) for c in range(6)]
    for n in range(9):
        walks = _walks(adj, n)
        for i, start in enumerate(cells):
            layer = reachable_exactly(board, start, n)[n]
            for j, target in enumerate(cells):
                assert (target in layer) == (walks[i][j] > 0), (code, n, start, target)
                route = route_of_length(board, start, target, n)
                assert (route is not None) == (walks[i][j] > 0)
                if route is not None:
                    assert len(route) == n + 1 and route[0] == start and route[-1] == target
                    assert all(board.is_move(a, b) for a, b in itertools.pairwise(route))
    # shortest routes: the first n with a walk
    for i, start in enumerate(cells[:6]):
        for j, target in enumerate(cells):
            best = shortest_route(board, start, target)
            first = next((n for n in range(12) if _walks(adj, n)[i][j]), None) if best is None else len(best) - 1
            assert (best is None) == (first is None) and (best is None or not any(
                _walks(adj, k)[i][j] for k in range(len(best) - 1)))


# -- the game ------------------------------------------------------------------------------------------------
class Table(GameTable):
    def __init__(self, config: MicroConfig) -> None:
        super().__init__(G, config)

    def win(self, player: str, now: float) -> None:
        """``player`` announces the shortest route and plays it."""
        rnd = self.state.round
        route = best_route(self.state.board, rnd.start, rnd.target, rnd.via)
        self.do(Announce(player, len(route) - 1), now)
        for c in route[1:]:
            self.do(MoveRobot(player, c), now)

@pytest.fixture
def table():
    made: list[Table] = []

    def make(**kw) -> Table:
        t = Table(MicroConfig(**kw))
        made.append(t)
        return t

    yield make
    for t in made:
        t.check_replay()


def seed_example_table(table, *players: str) -> Table:
    """A table on the shipped board where the robot starts on 1 pink and the target is 2 white."""
    t = table(arrangement=Arrangement.parse("A0B0C0D0"))
    for p in players:
        t.do(Join(p.lower(), p), 0)
    t.emit(GameStarted(tuple(p.lower() for p in players), "A0B0C0D0", SHIPPED.find("pink", 1), 1.0),
           TargetRolled(1, players[0].lower(), SHIPPED.find("white", 2), None, "round", 0, 1.0))
    return t


def test_seed_worked_example_played(table):
    """Seed 002: "After a short time, Roland calls out "5!" … He needed five moves overall. Roland obtains the
    victory point chip from the target space. The starting chip is then put on "2 white"." """
    t = seed_example_table(table, "Ann", "Roland")
    t.do(Announce("roland", 5), 10)
    for name in ["6 pink", "6 white", "6 red", "2 red", "2 white"]:
        n, color = name.split()
        t.do(MoveRobot("roland", SHIPPED.find(color, int(n))), 11)
    assert t.state.scores == {"ann": 0, "roland": 1}
    assert t.state.robot == SHIPPED.find("white", 2)
    # "The next player determines the new target space by rolling the dice" — the dice pass to the left.
    assert t.state.round.start == SHIPPED.find("white", 2) and t.state.round.roller == "roland"


def test_start_then_target_rolled_again_while_it_is_the_start(table):
    """Seed 002: "the youngest player rolls both dice in order to determine the starting space … the player
    re-rolls the two dice in order to determine the first target space. If he rolls the starting space again,
    he keeps rolling until a different space comes up." """
    rerolled = 0
    for seed in range(200):
        t = Table(MicroConfig(seed=seed))
        t.seat("Ann", "Bob")
        rolled = next(e for e in t.log if isinstance(e, TargetRolled))
        assert rolled.target != t.state.round.start and rolled.roller == "ann"
        rerolled += rolled.rerolls
    assert rerolled > 0  # 1 in 36 throws names the start


def test_the_first_announcement_demonstrates_at_once(table):
    """Seed 002: "As soon as one player has figured out a solution, he announces aloud the number of moves …
    He takes the robot and verifies his solution" — a race, not an auction."""
    t = table(seed=1)
    t.seat("Ann", "Bob")
    t.do(Announce("bob", 9), 3)
    assert t.state.phase == "demonstration" and t.state.round.announcer == "bob"
    err = t.refused(Announce("ann", 2), 3.1, "Bob announced first")
    assert err.code == "closed"
    t.refused(MoveRobot("ann", t.state.robot), 4, "Bob's demonstration")


def test_moves_must_match_colour_or_number_in_row_or_column(table):
    """Seed 002 rules 1 and 2: "The robot may move only horizontally or vertically. The robot may move only to
    a space that matches either the colour or the number of his starting space." """
    t = seed_example_table(table, "Ann", "Bob")
    t.do(Announce("ann", 5), 2)
    t.refused(MoveRobot("ann", SHIPPED.find("yellow", 5)), 3, "neither the colour nor the number")
    t.refused(MoveRobot("ann", SHIPPED.find("white", 1)), 3, "along the row or the column")  # a 1, off the lines
    t.do(MoveRobot("ann", SHIPPED.find("pink", 6)), 3)  # "not necessarily the closest matching space"
    assert t.state.round.route[-1] == SHIPPED.find("pink", 6)


def test_exactly_the_announced_number_of_moves(table):
    """Seed 002: "If the player manages to get the robot to the target space in the exact number of moves he
    has announced, he obtains the victory point chip" — reaching it earlier is not enough."""
    t = seed_example_table(table, "Ann", "Bob")
    route = exact_route(SHIPPED, SHIPPED.find("pink", 1), SHIPPED.find("white", 2), 7)
    assert route is not None and len(route) == 8
    t.do(Announce("ann", 7), 2)
    for c in route[1:]:
        t.do(MoveRobot("ann", c), 3)
    assert t.state.scores["ann"] == 1
    t2 = seed_example_table(table, "Ann", "Bob")
    t2.do(Announce("ann", 6), 2)
    for c in shortest_route(SHIPPED, SHIPPED.find("pink", 1), SHIPPED.find("white", 2))[1:]:
        t2.do(MoveRobot("ann", c), 3)
    assert t2.state.phase == "demonstration"  # on the target after 5 of 6 moves: not done
    t2.do(MoveRobot("ann", SHIPPED.moves(t2.state.robot)[0]), 4)
    assert t2.state.history[-1].reason == "wrong_count" and t2.state.scores["ann"] == 0


def test_a_failure_gives_a_chip_to_the_player_with_the_fewest(table):
    """Seed 002: "he has to give one victory point chip from his supply – if possible – to the player with the
    currently fewest victory point chips. If there are several players with the fewest …, the player who sits
    closest to the active player in clockwise order gets the chip. In any case, the robot is put on the target
    space and the victory point chip lying there is put back into the general supply." """
    t = table(seed=2)
    t.seat("Ann", "Bob", "Cid", "Dan")
    t.win("cid", 1)
    t.win("cid", 2)
    t.win("ann", 3)
    assert t.state.scores == {"ann": 1, "bob": 0, "cid": 2, "dan": 0}
    target = t.state.round.target
    t.do(Announce("cid", 1), 4)
    t.do(GiveUp("cid"), 5)
    # Bob and Dan have the fewest; clockwise from Cid: Dan, then Ann, then Bob.
    assert t.state.scores == {"ann": 1, "bob": 0, "cid": 1, "dan": 1}
    assert t.state.history[-1].penalty_to == "dan" and t.state.robot == target
    assert t.state.supply == CHIPS - 3
    # "if possible": Bob has no chip to give.
    t.do(Announce("bob", 1), 6)
    t.do(GiveUp("bob"), 7)
    assert t.state.scores == {"ann": 1, "bob": 0, "cid": 1, "dan": 1} and t.state.history[-1].penalty_to is None


def test_no_announcement_rolls_the_target_again(table):
    """Seed 002: "In case none of the players has figured out a route solution after 2 or 3 minutes … determining
    a new target space by rolling the dice. The victory point chip is relocated" (RULINGS: 3 minutes)."""
    t = table(seed=3)
    t.seat("Ann", "Bob")
    first = t.state.round
    assert t.tick(179.9) == []
    events = t.tick(180)
    assert [e.type for e in events] == ["target_rolled"] and events[0].reason == "no_announcement"
    rnd = t.state.round
    assert rnd.number == first.number and rnd.start == first.start and rnd.target != rnd.start
    assert rnd.roller == first.roller


def test_a_demonstration_runs_out_of_time(table):
    t = table(seed=4, demo_seconds=10, demo_seconds_per_move=1)
    t.seat("Ann", "Bob")
    t.do(Announce("ann", 3), 1)
    t.tick(1 + 13)
    assert t.state.history[-1].reason == "timeout" and t.state.robot == t.state.history[-1].target


def test_leaving_mid_demonstration_fails_it(table):
    t = table(seed=4)
    t.seat("Ann", "Bob", "Cid")
    t.do(Announce("bob", 3), 1)
    t.do(Leave("bob"), 2)
    assert t.state.history[-1].reason == "left"


def test_five_chips_win(table):
    """Seed 002: "A) One player obtains his fifth victory point chip. He is the winner of the game." """
    t = table(seed=6)
    t.seat("Ann", "Bob")
    for k in range(5):
        t.win("ann", 10 * k)
    assert t.state.phase == "over" and t.state.winners == ("ann",) and t.state.end_reason == "target_score"


def test_a_fifth_chip_received_as_a_penalty_wins(table):
    """Seed 002: "A) One player obtains his fifth victory point chip. He is the winner of the game." — however the
    chip comes: here it is the one an announcer who failed "has to give … to the player with the currently
    fewest victory point chips"."""
    t = table(seed=6)
    t.seat("Ann", "Bob")
    for k in range(4):
        t.win("ann", 10 * k)
        t.win("bob", 10 * k + 5)
    assert t.state.scores == {"ann": 4, "bob": 4} and t.state.phase != "over"
    t.do(Announce("bob", 1), 100)
    events = t.do(GiveUp("bob"), 101)
    assert [e.type for e in events][-2:] == ["round_ended", "game_ended"]
    assert events[-2].penalty_to == "ann"
    assert t.state.scores == {"ann": 5, "bob": 3}
    assert t.state.phase == "over" and t.state.winners == ("ann",) and t.state.end_reason == "target_score"


def test_all_25_chips_given_out_most_chips_wins_ties_share(table):
    """Seed 002: "B) All 25 victory point chips have been distributed. The player with the most victory point
    chips wins the game. If there is more than one player with the most …, the players involved in the tie
    share the victory." """
    names = [f"P{k}" for k in range(6)]
    t = table(seed=7, target_score=5)
    t.seat(*names)
    k = 0
    while t.state.phase != "over":
        # everyone up to 4 chips, then the last one: 6 × 4 = 24, and the 25th to P0 and … a tie needs 25 = even
        t.win(names[k % 6].lower(), k)
        k += 1
    assert t.state.end_reason in ("all_chips", "target_score")
    t2 = table(seed=8, target_score=25)
    t2.seat("Ann", "Bob")
    k = 0
    while t2.state.phase != "over":
        t2.win(("ann", "bob")[k % 2], k)
        k += 1
    assert t2.state.end_reason == "all_chips" and t2.state.scores == {"ann": 13, "bob": 12}
    assert t2.state.winners == ("ann",)


def test_expert_variant_passes_the_intermediate_target(table):
    """Seed 002, variant for experts: "the dice are rolled again … They indicate the intermediate target space
    that the robot has to pass through on his route to the target space … If the same starting space or target
    space is rolled again, players keep rolling"."""
    t = table(seed=9, expert=True)
    t.seat("Ann", "Bob")
    rnd = t.state.round
    assert rnd.via is not None and rnd.via not in (rnd.start, rnd.target)
    direct = shortest_route(t.state.board, rnd.start, rnd.target)
    if rnd.via not in direct:
        t.do(Announce("bob", len(direct) - 1), 1)
        for c in direct[1:]:
            t.do(MoveRobot("bob", c), 2)
        assert t.state.history[-1].reason == "missed_via"
        rnd = t.state.round
    route = best_route(t.state.board, rnd.start, rnd.target, rnd.via)
    t.do(Announce("ann", len(route) - 1), 3)
    for c in route[1:]:
        t.do(MoveRobot("ann", c), 4)
    assert t.state.history[-1].success


def test_options_and_their_errors():
    opts = MICRO_ROBOTS.normalize_options({})
    assert opts["reroll_seconds"] == 180 and opts["target_score"] == 5 and opts["arrangement"] == "random"
    for bad, match in [({"arrangement": "A0A0C0D0"}, "arrangement"), ({"reroll_seconds": 5}, "reroll_seconds"),
                       ({"expert": "yes"}, "expert"), ({"colors": 4}, "unknown option")]:
        with pytest.raises(ValueError, match=match):
            MICRO_ROBOTS.normalize_options(bad)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), steps=st.lists(st.integers(0, 10_000), min_size=5, max_size=60))
def test_random_play_replays_from_the_log(seed: int, steps: list[int]) -> None:
    t = Table(MicroConfig(seed=seed, expert=seed % 2 == 0))
    t.seat("Ann", "Bob", "Cid")
    rng = random.Random(seed)
    now = 1.0
    for k in steps:
        now += rng.choice((0.5, 5.0, 40.0, 200.0))
        s = t.state
        who = ("ann", "bob", "cid")[k % 3]
        try:
            if s.phase == "racing":
                t.do(Announce(who, 1 + k % 8), now)
            elif s.phase == "demonstration":
                t.do(MoveRobot(s.round.announcer, s.board.moves(s.robot)[k % len(s.board.moves(s.robot))]), now)
        except GameError:
            pass
        t.tick(now)
        assert sum(p.score for p in t.state.players) + t.state.supply == CHIPS
        assert all(p.score >= 0 for p in t.state.players)
    t.check_replay()
