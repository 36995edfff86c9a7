"""Ricochet Pyramids (seed 003) as a game: each rule as a scenario quoting the
seed, the seed's worked example replayed move by move from its diagrams, and
a property test over random games.  Every table a test plays is replayed from
its event log (also via JSON) at teardown and must equal the live state."""

from __future__ import annotations

import json
import random
from dataclasses import replace

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gametable import GameTable
from ricochet.games import GameError, get_game
from ricochet.games.bidding.round import Demonstrate, GiveUp, PlaceBid, TurnClock
from ricochet.games.events import encode
from ricochet.games.interface import ConfigError
from ricochet.games.jobs import Answer
from ricochet.games.pyramids.game import (
    PYRAMIDS,
    CheckGoal,
    GameStarted,
    GoalChecked,
    GoalDrawn,
    MoveTower,
    PyramidsConfig,
    SetLayout,
)
from ricochet.games.pyramids.setup import COLORS, LAYOUTS, Tower, surrounded
from ricochet.games.table import Join, Start, Tx
from ricochet.geometry import Direction
from ricochet.notation import parse_ascii, parse_solution
from ricochet.position import Move, Position, Robot
from ricochet.puzzle import Puzzle
from test_ascii import bands, seed_003, seed_figures, split_side_by_side

N, E, S, W = Direction.N, Direction.E, Direction.S, Direction.W


# -- helpers ----------------------------------------------------------------------------------------
class Table(GameTable):
    """A game under test: the live state and its event log.  After each action
    the game's jobs (the solver's check of each goal) run at once, as the server
    runs them in its worker."""

    def __init__(self, config: PyramidsConfig, *, jobs: bool = True) -> None:
        super().__init__(PYRAMIDS, config)
        self.run_jobs = jobs

    def do(self, action, now: float) -> list:
        return super().do(action, now) + (self.jobs(now) if self.run_jobs else [])

    def jobs(self, now: float) -> list:
        out = []
        while wanted := [j for j in PYRAMIDS.jobs(self.state) if j.to_action is not None]:
            job = wanted[0]
            self.state, events = PYRAMIDS.apply(self.state, job.to_action(job.fn(*job.args)), now)
            self.log += events
            out += events
        return out

    def tick(self, now: float) -> list:
        return super().tick(now) + (self.jobs(now) if self.run_jobs else [])


@pytest.fixture
def table():
    made: list[Table] = []

    def make(*, jobs: bool = True, **kw) -> Table:
        kw.setdefault("intermission_seconds", 0.0)
        t = Table(PyramidsConfig(**kw), jobs=jobs)
        made.append(t)
        return t

    yield make
    for t in made:
        t.check_replay()


def solution(t: Table) -> tuple[Move, ...]:
    """The optimal solution of the goal in play (its check, as the solver made it)."""
    check = t.state.round.check
    assert check is not None and check.verdict == "accepted"
    return check.solution


def seed_example() -> tuple[Puzzle, list[str]]:
    start, figures = seed_figures()
    return parse_ascii(start), figures


def example_table(table) -> Table:
    """A game set up as seed 003's worked example: its towers (colours dealt in
    order, G the red-on-yellow tower), its robots, the goal "r to G"."""
    puzzle, _ = seed_example()
    pos = puzzle.position
    pairs = [(a, b) for a in ("red", "green", "yellow") for b in ("red", "green", "yellow") if (a, b) != ("red", "yellow")]
    others = sorted(c for c in pos.board.towers if c != puzzle.target)
    towers = tuple(sorted([Tower(puzzle.target, "red", "yellow")]
                          + [Tower(c, a, b) for c, (a, b) in zip(others, pairs, strict=False)]))
    t = table(jobs=False)
    t.do(Join("ann", "Ann"), 0)
    t.do(Join("bob", "Bob"), 0)
    robots = tuple(pos.robots)
    active = [r.color for r in robots].index("red")
    t.emit(GameStarted(("ann", "bob"), towers, robots, 10, 1.0),
           GoalDrawn(1, 1, "red", "red", "yellow", puzzle.target, active, 0, 1.0))
    t.do(CheckGoal(1, 1, Answer("solved", 5, tuple(parse_solution("y N, r N, y E, y S, r E", pos)))), 1.0)
    return t


# -- set-up ---------------------------------------------------------------------------------------
def test_nine_towers_one_of_each_colour_pair(table):
    """Seed 003: "Form all 3×3=9 possible color combinations of "towers" (medium stacked on a large)"."""
    t = table(seed=3)
    pairs = sorted((tw.top, tw.bottom) for tw in t.state.towers)
    assert pairs == sorted((a, b) for a in COLORS[:3] for b in COLORS[:3])
    assert len({tw.cell for tw in t.state.towers}) == 9


def test_four_colours_sixteen_towers_and_four_robots(table):
    """Seed 003 variant: "4 colors: use 4×4=16 towers and 4 robots"."""
    t = table(colors=4, seed=1)
    t.seat("Ann", "Bob")
    assert len(t.state.towers) == 16 and len({(tw.top, tw.bottom) for tw in t.state.towers}) == 16
    assert sorted(r.color for r in t.state.robots) == sorted(COLORS)
    with pytest.raises(ConfigError, match="9 towers"):
        PyramidsConfig(colors=4, layout="easy")


def test_the_seeds_easy_and_hard_layouts():
    """Seed 003: "By putting more towers along edges, the solutions on average are easier …
    For example: (easy setup) (hard setup)" — the layouts are the seed's figures."""
    text = seed_003()
    block = text.split("For example:", 1)[1].split("Place 1 small pyramid", 1)[0]
    grids = [d for band in bands(block.splitlines(), 8) for d in split_side_by_side(band)]
    assert len(grids) == 2
    for name, grid in zip(("easy", "hard"), grids, strict=True):
        rows = [line.split() for line in grid.strip("\n").splitlines()]
        cells = {(x, y) for y, row in enumerate(rows) for x, ch in enumerate(row) if ch == "T"}
        assert cells == set(LAYOUTS[name]) and len(cells) == 9
        assert not surrounded(sorted(cells))


def test_no_tower_may_be_completely_surrounded(table):
    """Seed 003: "Arrange these towers … such that no tower is completely surrounded by other towers and
    thus inaccessible"."""
    t = table(layout="easy", seed=2)
    t.do(Join("ann", "Ann"), 0)
    # the easy layout has towers on a1 (0,7) and a2 (0,6); a tower on b1 (1,7) walls a1 in.
    err = t.refused(MoveTower("ann", (2, 3), (1, 7)), 1, "completely surrounded")
    assert err.code == "layout" and "a1" in str(err)
    t.do(MoveTower("ann", (2, 3), (3, 3)), 1)
    assert any(tw.cell == (3, 3) for tw in t.state.towers) and not any(tw.cell == (2, 3) for tw in t.state.towers)
    t.refused(MoveTower("ann", (4, 4), (5, 5)), 1, "no tower on")
    t.refused(MoveTower("ann", (3, 3), (0, 0)), 1, "already has a tower")
    towers = list(PyramidsConfig(layout="easy").initial_towers())
    towers[0] = replace(towers[0], cell=(1, 7))  # a tower next to a1 and a2: a1 is walled in
    with pytest.raises(ConfigError, match="completely surrounded"):
        PyramidsConfig(layout=tuple(towers))


def test_only_the_host_arranges_the_towers_before_the_start(table):
    """The set-up is the host's ("by mutual consent"), before play."""
    t = table(seed=4)
    t.do(Join("ann", "Ann"), 0)
    t.do(Join("bob", "Bob"), 0)
    src = t.state.towers[0].cell
    free = next((x, y) for y in range(8) for x in range(8) if not t.state.tower_at((x, y))
                and not surrounded([*(tw.cell for tw in t.state.towers if tw.cell != src), (x, y)]))
    t.refused(MoveTower("bob", src, free), 1, "only the host")
    t.do(SetLayout("ann", "hard"), 1)
    assert {tw.cell for tw in t.state.towers} == set(LAYOUTS["hard"])
    t.do(Start("ann"), 2)
    t.refused(SetLayout("ann", "easy"), 3, "only before the start")


def test_robots_on_three_empty_squares(table):
    """Seed 003: "Place 1 small pyramid of each color onto 3 arbitrary empty squares. These are the robots." """
    for seed in range(5):
        t = table(seed=seed)
        t.seat("Ann", "Bob")
        robots = t.state.history[0].start if t.state.history else t.state.round.start.robots
        assert sorted(r.color for r in robots) == ["green", "red", "yellow"]
        assert not any(t.state.tower_at(r.cell) for r in robots)


# -- goals ---------------------------------------------------------------------------------------------
def test_goal_is_one_pyramid_of_each_pool(table):
    """Seed 003: "Each turn, players randomly select … a large, medium, and small pyramid from the random
    draw pools … if the goal is a small red on a medium yellow on a large red, this means the red robot
    wants to end up stacked on the yellow/red tower." """
    t = table(seed=9, min_moves=1)
    t.seat("Ann", "Bob")
    rnd = t.state.round
    goal = rnd.goal
    tower = t.state.tower_at(rnd.target)
    assert (tower.top, tower.bottom) == (goal.top, goal.bottom)
    assert t.state.robots[rnd.active].color == goal.robot


def test_goal_redrawn_when_the_robot_already_sits_on_that_tower():
    """Seed 003: "Re-randomize if the indicated robot is already on the indicated tower." """
    skipped = 0
    for seed in range(60):
        config = PyramidsConfig(seed=seed)
        s = PYRAMIDS.new(config)
        by_pair = {(tw.top, tw.bottom): tw.cell for tw in s.towers}
        # each robot on the tower of its own colour on its own colour: 3 of the 27 goals are taken
        robots = tuple(Robot(c, by_pair[(c, c)]) for c in ("red", "green", "yellow"))
        s = PYRAMIDS.evolve(s, GameStarted((), s.towers, robots, 10, 0.0))
        tx = Tx(PYRAMIDS.evolve, s)
        PYRAMIDS.draw(tx, 0.0)
        drawn = tx.events[-1]
        assert isinstance(drawn, GoalDrawn)
        assert (drawn.robot, drawn.top, drawn.bottom) not in {(c, c, c) for c in ("red", "green", "yellow")}
        skipped += drawn.skipped
    assert skipped > 0  # 1 in 9 draws hits one of them: some of the 60 did


def test_by_default_every_solvable_goal_stands(table):
    """Seed 003 lists the minimum number of moves among its "Variants", agreed "by mutual consent": a game with
    the default options keeps short goals (never redrawn as too easy)."""
    short = 0
    for seed in range(12):
        t = table(seed=seed)
        t.seat("Ann", "Bob")
        checks = [e for e in t.log if isinstance(e, GoalChecked)]
        assert all(c.verdict != "too_easy" for c in checks)
        short += checks[-1].optimal < 3
    assert short > 0


def test_minimum_moves_variant_redraws_easy_goals(table):
    """Seed 003 variant: "Minimum number of moves for solutions: by mutual consent, players can agree that if a
    solution of 1 direct move exists, it is "too easy" and the goal should be re-randomized … It is suggested that
    non-newbies require at least 3 moves." — a variant, so off unless the room asks for it."""
    assert PyramidsConfig().min_moves == 1 and get_game("pyramids").default_options["min_moves"] == 1
    redraws = 0
    for seed in range(8):
        t = table(seed=seed, min_moves=4)
        t.seat("Ann", "Bob")
        checks = [e for e in t.log if isinstance(e, GoalChecked)]
        assert checks[-1].verdict == "accepted" and checks[-1].optimal >= 4
        assert all(c.verdict == "too_easy" and c.optimal < 4 for c in checks[:-1])
        redraws += len(checks) - 1
        assert t.state.round.draw == len(checks)
    assert redraws > 0


def test_bids_wait_for_the_goal_check(table):
    """Our reading: a goal is checked by the solver (solvable, not too easy) before bids open."""
    t = table(seed=1, jobs=False)
    t.seat("Ann", "Bob")
    assert not t.state.round.open
    t.refused(PlaceBid("ann", 5), 1, "being checked")
    t.jobs(1)
    assert t.state.round.open
    t.do(PlaceBid("ann", 9), 2)


def test_an_unsolvable_goal_is_redrawn(table):
    """Our reading: a goal no sequence of moves reaches is redrawn."""
    t = table(seed=1, jobs=False)
    t.seat("Ann", "Bob")
    rnd = t.state.round
    events = t.do(CheckGoal(rnd.number, rnd.draw, Answer("unsolvable", None)), 1)
    assert [e.type for e in events] == ["goal_checked", "goal_drawn"]
    assert events[0].verdict == "unsolvable" and t.state.round.draw == 2


# -- the worked example ------------------------------------------------------------------------------------
def test_seed_worked_example_played_at_a_table(table):
    """Seed 003's example, move by move as its figures show: "One 5-move solution is to move y north …,
    r north …, y east …, y south …, r east (y blocks r so that r ends its move on the goal G)" — and the
    player who shows it "earns a point"."""
    puzzle, figures = seed_example()
    t = example_table(table)
    t.do(PlaceBid("ann", 5), 2)
    t.tick(2 + 30)  # the 30-second timer
    assert t.state.phase == "demonstration" and t.state.round.demonstrator == "ann"
    moves = parse_solution("y N, r N, y E, y S, r E", puzzle.position)
    for k, move in enumerate(moves, 1):
        t.do(Demonstrate("ann", move), 40 + k)
        if k < 5:
            shown = parse_ascii(figures[k])
            shown_pos = shown.position if isinstance(shown, Puzzle) else shown
            assert {r.color: r.cell for r in shown_pos.robots} == {r.color: r.cell for r in t.state.robots}
    assert t.state.history[-1].result == "won" and t.state.scores == {"ann": 1, "bob": 0}
    red = t.state.robots[t.state.position.index_of("red")]
    assert red.cell == puzzle.target  # "place the robot (small pyramid) on top of the goal tower"
    assert t.state.player("ann").won[0].name == "red on red on yellow"


def test_robot_on_a_former_goal_moves_off_and_is_stopped_by_it_on_the_way_back():
    """Seed 003: "If a robot begins a turn stacked on a non-goal tower …, then it can freely move off the
    tower … r could move south (stopping at the south map edge) and then north again, stopping on the
    square south of the tower it was previously on." """
    puzzle, figures = seed_example()
    final = parse_ascii(figures[-1])
    pos = Position(puzzle.position.board, final.robots)  # the tower under r is no goal any more
    r = pos.index_of("red")
    assert pos.robots[r].cell == (6, 2)
    pos, _ = pos.play(Move(r, S), PYRAMIDS.config({**PYRAMIDS.default_options}, 0).rules)
    assert pos.robots[r].cell == (6, 7)
    pos, _ = pos.play(Move(r, N))
    assert pos.robots[r].cell == (6, 3)


# -- bids and demonstrations ----------------------------------------------------------------------------------
def open_round(table, **kw) -> Table:
    t = table(seed=kw.pop("seed", 11), **kw)
    t.seat("Ann", "Bob", "Cid")
    assert t.state.round.open
    return t


def test_first_bid_starts_the_30_second_timer(table):
    """Seed 003: "The first player to find a solution calls out the number of moves, e.g. "Six!" and
    starts the 30-second timer." """
    t = open_round(table)
    events = t.do(PlaceBid("bob", 6), 10)
    assert [e.type for e in events] == ["bid_placed", "clock_started"]
    assert events[1].deadline == 40 and t.state.phase == "bidding"
    assert t.tick(39.9) == [] and t.tick(40)[0].type == "clock_ran_out"


def test_rebid_only_lower_than_ones_own_bid(table):
    """Seed 003: "A player's bid may be higher, lower, or equal to the current low bid, but a player can
    only re-bid lower than their own previous bid." """
    t = open_round(table)
    t.do(PlaceBid("ann", 7), 10)
    t.do(PlaceBid("bob", 9), 11)  # higher than the low bid: fine
    t.do(PlaceBid("cid", 7), 12)  # equal to the low bid: fine
    err = t.refused(PlaceBid("ann", 8), 13, r"may not raise your own bid \(you bid 7\); a new bid must be lower, 6 or")
    assert err.code == "raise"
    # An equal re-bid is not a raise: its own reason and code, not "you may not raise your own bid".
    err = t.refused(PlaceBid("ann", 7), 13, "^you already bid 7: a new bid must be lower, 6 or less$")
    assert err.code == "same_bid"
    t.do(PlaceBid("ann", 6), 14)
    assert t.state.round.standing["ann"].moves == 6


def test_equal_bids_the_earlier_bid_goes_first(table):
    """RULINGS, Ricochet Pyramids: "Equal bids: earlier bid first." """
    t = open_round(table)
    t.do(PlaceBid("cid", 8), 10)
    t.do(PlaceBid("ann", 8), 11)
    t.do(PlaceBid("bob", 7), 12)
    t.tick(60)
    assert t.state.round.order == ("bob", "cid", "ann")


def test_failure_restores_the_robots_and_the_next_bidder_shows(table):
    """Seed 003: "If the solver is confused and fails to achieve the goal, or the solution uses more moves
    than were bid, then the robots are restored to their original positions, and the next lowest bidder
    may show their solution." """
    t = open_round(table)
    best = solution(t)
    start = t.state.round.start.robots
    t.do(PlaceBid("ann", len(best) - 1), 10)  # too few: whatever Ann does, she runs out of moves
    t.do(PlaceBid("bob", len(best)), 11)
    t.tick(41)
    assert t.state.round.demonstrator == "ann"
    for m in best[:len(best) - 1]:
        t.do(Demonstrate("ann", m), 42)
    assert t.state.round.demonstrator == "bob" and t.state.robots == start
    assert t.state.round.attempts[0].reason == "out_of_moves"
    for m in best:
        t.do(Demonstrate("bob", m), 50)
    assert t.state.history[-1].winner == "bob" and t.state.scores["bob"] == 1


def test_no_successful_solution_no_point(table):
    """Seed 003: "If no player successfully shows a solution, then no point is awarded." """
    t = open_round(table)
    t.do(PlaceBid("ann", 9), 10)
    t.tick(40)
    t.do(GiveUp("ann"), 41)
    last = t.state.history[-1]
    assert last.result == "failed" and last.winner is None and sum(t.state.scores.values()) == 0
    assert t.state.round is not None and t.state.round.number == 2  # the next goal is up


def test_no_bid_the_timer_may_be_turned_then_no_point(table):
    """Our reading (as RULINGS 8): without a bid the timer may be turned after the wait; unbid, no point."""
    t = open_round(table, no_bid_wait_seconds=60)
    t.refused(TurnClock("ann"), 30, "only after 1 min")
    t.do(TurnClock("ann"), 61)
    t.tick(61 + 30)
    assert t.state.history[-1].result == "no_bid"


def test_play_until_the_agreed_number_of_points(table):
    """Seed 003: "Play until someone reaches a pre-agreed number of points. 10 points is suggested." """
    assert PyramidsConfig().target_score == 10
    t = table(seed=5, target_score=3)
    t.seat("Ann", "Bob")
    now = 10.0
    while t.state.phase != "over":
        best = solution(t)
        t.do(PlaceBid("ann", len(best)), now)
        t.tick(now + 30)
        for m in best:
            t.do(Demonstrate("ann", m), now + 31)
        now += 100
    assert t.state.scores["ann"] == 3 and t.state.winners == ("ann",) and t.state.end_reason == "target_score"


def test_different_coloured_robots_only_change_how_they_look(table):
    """Seed 003 variant: "the 3 robots can use different colors from the towers. This of course doesn't
    change the game rules, but merely alters players' perception of the game state." """
    a, b = table(seed=7), table(seed=7, robot_colors="other")
    for t in (a, b):
        t.seat("Ann", "Bob")
    assert a.state.round == b.state.round and a.state.towers == b.state.towers
    assert PYRAMIDS.view(a.state, None)["robot_palette"] is None
    assert PYRAMIDS.view(b.state, None)["robot_palette"]["red"] not in ("red", "green", "yellow")


# -- what is seen -----------------------------------------------------------------------------------------------
def test_the_optimum_is_secret_until_the_round_is_over(table):
    t = open_round(table)
    check = t.state.round.check
    public = [PYRAMIDS.public_event(e) for e in t.log]
    assert all("solution" not in e and "optimal" not in e for e in public if e["type"] == "goal_checked")
    text = json.dumps(PYRAMIDS.view(t.state, "ann"))
    assert check.solution and json.dumps(encode(check.solution)) not in text
    assert '"optimal"' not in json.dumps(PYRAMIDS.view(t.state, "ann")["round"])
    t.do(PlaceBid("ann", 20), 10)
    t.tick(40)
    t.do(GiveUp("ann"), 41)
    assert PYRAMIDS.view(t.state, None)["history"][0]["optimal"] == check.optimal


def test_options_and_their_errors():
    game = get_game("pyramids")
    opts = game.normalize_options({"colors": 4, "layout": "random"})
    assert opts["clock_seconds"] == 30 and opts["target_score"] == 10 and opts["min_moves"] == 1
    for bad, match in [({"colors": 5}, "colors must be"), ({"layout": "cross"}, "layout must be"),
                       ({"layout": "easy", "colors": 4}, "9 towers"), ({"speed": 1}, "unknown option 'speed'"),
                       ({"robot_colors": "pink"}, "robot_colors"), ({"layout": [{"cell": [0, 0]}]}, "layout:")]:
        with pytest.raises(ValueError, match=match):
            game.normalize_options(bad)


# -- a property: random games replay from their logs ------------------------------------------------------------------
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), steps=st.lists(st.integers(0, 10_000), min_size=5, max_size=40))
def test_random_play_replays_from_the_log(seed: int, steps: list[int]) -> None:
    t = Table(PyramidsConfig(seed=seed, intermission_seconds=0.0, min_moves=1))
    t.seat("Ann", "Bob")
    rng = random.Random(seed)
    now = 1.0
    for k in steps:
        now += rng.choice((0.5, 5.0, 31.0))
        s = t.state
        if s.phase == "over":
            break
        who = ("ann", "bob")[k % 2]
        try:
            if s.phase in ("thinking", "bidding"):
                t.do(PlaceBid(who, 1 + k % 12), now)
            elif s.phase == "demonstration":
                rnd = s.round
                best = rnd.check.solution if rnd.check else ()
                if k % 3 and len(best) > len(rnd.moves):
                    t.do(Demonstrate(rnd.demonstrator, best[len(rnd.moves)]), now)
                else:
                    t.do(Demonstrate(rnd.demonstrator, Move(k % 3, Direction(1 << (k % 4)))), now)
        except GameError:
            pass
        t.tick(now)
        for p in t.state.players:
            assert p.score <= t.state.target_score
    t.check_replay()
