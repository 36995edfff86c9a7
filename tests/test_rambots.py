"""RAMbots (seed 001): each rule of the engine as a scenario quoting the seed,
the game's phases (goal stacks, programming, execution) with their secrets,
and a property test over random programs."""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gametable import GameTable
from ricochet.games import GameError
from ricochet.games.rambots.bot import goal_stack_for, plan_program
from ricochet.games.rambots.engine import COLORS, Instruction, Obj, Piece, Table, execute, order_key, why_first
from ricochet.games.rambots.game import RAMBOTS, Compile, RamConfig, SetGoals, SetProgram
from ricochet.games.table import Join, Leave

G = RAMBOTS
TREES = tuple(sorted(Piece(size, c) for c in COLORS for size in (1, 2, 3)))


def table(*objects: Obj, pools: dict[str, tuple[Piece, ...]] | None = None,
          goals: dict[str, tuple[Piece, ...]] | None = None,
          precedence: tuple[str, ...] = ("red", "yellow", "green", "blue")) -> Table:
    """A table with these objects; every RAMbot's owner holds a tree of each colour unless ``pools`` says."""
    pools = pools if pools is not None else {o.color: TREES for o in objects if o.kind == "bot"}
    return Table(tuple(sorted(objects, key=lambda o: (o.kind, o.color))),
                 tuple(sorted((k, tuple(sorted(v))) for k, v in pools.items())),
                 tuple(sorted((goals or {}).items())), precedence)


def bot(color: str, cell: tuple[int, int], facing: str | None = None) -> Obj:
    return Obj("bot", color, cell, facing)


def beacon(color: str, cell: tuple[int, int], facing: str | None = "N") -> Obj:
    return Obj("beacon", color, cell, facing)


def ins(size: int, color: str, orientation: str) -> Instruction:
    return Instruction(Piece(size, color), orientation)


def kinds(step) -> list[str]:
    return [e.kind for e in step.effects]


# -- movement -------------------------------------------------------------------------------------------
def test_a_lying_instruction_moves_that_way_turning_first():
    """Seed 001: "move your RAMbot one, two, or three spaces in the appropriate direction … If your RAMbot is
    not already facing in the direction …, the first unit of the movement instruction will be used to reorient
    your RAMbot … A small-sized movement instruction will therefore reorient your RAMbot without moving it"."""
    t = table(bot("red", (2, 2), "N"))
    step = execute(t, "red", ins(3, "blue", "N"))
    assert step.table.obj("bot:red").cell == (2, 0) and kinds(step) == ["move", "move", "wall", "beam"]
    step = execute(t, "red", ins(3, "blue", "E"))
    assert step.table.obj("bot:red").cell == (4, 2) and kinds(step)[0] == "turn"
    step = execute(t, "red", ins(1, "blue", "S"))
    me = step.table.obj("bot:red")
    assert me.cell == (2, 2) and me.facing == "S"


def test_an_upright_rambot_tips_down_first():
    """Seed 001: "If at any time your RAMbot is standing on its base …, the first unit of a movement
    instruction will tip your RAMbot down and point it in the appropriate direction"."""
    step = execute(table(bot("red", (1, 0))), "red", ins(2, "blue", "S"))
    me = step.table.obj("bot:red")
    assert kinds(step)[:2] == ["tip_down", "move"] and me.cell == (1, 1) and me.facing == "S"


def test_reverse_gear_and_upright_reverse_does_nothing():
    """Seed 001: "An instruction piece standing on its base represents "reverse gear"—it causes your RAMbot to
    move backwards away from the direction that it's currently pointing … If your RAMbot is currently standing on
    its base, an upright instruction will not move your RAMbot at all." """
    step = execute(table(bot("red", (3, 3), "E")), "red", ins(2, "blue", "up"))
    me = step.table.obj("bot:red")
    assert me.cell == (1, 3) and me.facing == "E"
    step = execute(table(bot("red", (3, 3))), "red", ins(3, "blue", "up"))
    assert step.table.obj("bot:red").cell == (3, 3) and "nothing" in kinds(step)


def test_running_into_a_wall_nothing_special():
    """Seed 001: "If your RAMbot runs directly into a wall, nothing special happens." """
    step = execute(table(bot("red", (1, 0), "N")), "red", ins(3, "green", "N"))
    assert step.table.obj("bot:red").cell == (1, 0) and "wall" in kinds(step)


# -- pushing and RAMing ---------------------------------------------------------------------------------------
def test_pushing_a_chain_and_a_chain_against_the_wall():
    """Seed 001: "If there are objects directly on the other side of the pushed object, they will be pushed along
    with it. If an object cannot be pushed any further (because it's against a wall, or it's against objects which
    are against a wall), your RAMbot simply stays where it is (though you do still make contact with the object)."
    """
    t = table(bot("red", (3, 5), "E"), beacon("blue", (4, 5)), bot("green", (5, 5), "N"))
    step = execute(t, "red", ins(2, "green", "E"))
    assert [step.table.obj(k).cell for k in ("bot:red", "beacon:blue", "bot:green")] == [(5, 5), (6, 5), (7, 5)]
    # against the wall: nothing moves, but the contact is a RAM (steal) all the same
    t = table(bot("red", (4, 5), "E"), beacon("blue", (5, 5)), beacon("yellow", (6, 5)), bot("green", (7, 5), "N"))
    step = execute(t, "red", ins(3, "green", "E"))
    assert [step.table.obj(k).cell for k in ("bot:red", "beacon:blue", "beacon:yellow", "bot:green")] == \
        [(4, 5), (5, 5), (6, 5), (7, 5)]
    assert "blocked" in kinds(step) and [e.data["object"] for e in step.effects if e.kind == "ram"] == ["beacon:blue"]


def test_two_contacts_in_one_instruction_are_one_ram():
    """Seed 001: "If you make contact with another object multiple times during a single instruction, this only
    counts as a single RAM" (RULINGS: only the first object contacted with the nose; one RAM per instruction)."""
    t = table(bot("red", (1, 4), "E"), bot("green", (2, 4), "N"), bot("blue", (5, 4), "N"))
    step = execute(t, "red", ins(3, "yellow", "E"))
    rams = [e for e in step.effects if e.kind == "ram"]
    steals = [e for e in step.effects if e.kind == "steal"]
    assert len(rams) == 1 and rams[0].data["object"] == "bot:green"
    assert len(steals) == 1 and steals[0].data["from"] == "green"
    assert step.table.obj("bot:green").cell == (5, 4) and step.table.obj("bot:blue").cell == (6, 4)


def test_backing_into_an_object_pushes_without_a_ram():
    """Seed 001: "If you back up into an object, or if you get pushed into another object during someone else's
    instruction, you do not RAM that object." """
    t = table(bot("red", (3, 3), "E"), bot("green", (2, 3)))
    step = execute(t, "red", ins(1, "blue", "up"))
    assert "ram" not in kinds(step) and step.table.obj("bot:green").cell == (1, 3)
    assert step.table.obj("bot:green").upright and step.table.pool("green") == TREES


def test_a_ram_steals_the_smallest_piece_ties_by_precedence():
    """Seed 001: "Take the highest precedence piece from that player's code-pool … take the smallest piece
    available in that player's code pool; if there's a tie for smallest piece, take a piece of the color that's
    highest on the precedence stack." """
    victim = (Piece(2, "red"), Piece(1, "green"), Piece(1, "blue"), Piece(3, "yellow"))
    t = table(bot("red", (1, 1), "E"), bot("green", (2, 1), "N"),
              pools={"red": (), "green": victim}, precedence=("yellow", "blue", "green", "red"))
    step = execute(t, "red", ins(1, "green", "E"))
    assert [e.data["piece"] for e in step.effects if e.kind == "steal"] == [{"size": 1, "color": "blue"}]
    assert step.table.pool("red") == (Piece(1, "blue"),)
    assert Piece(1, "blue") not in step.table.pool("green")
    # nothing to steal from an empty pool (the program's pieces are not in it)
    t = table(bot("red", (1, 1), "E"), bot("green", (2, 1), "N"), pools={"red": (), "green": ()})
    step = execute(t, "red", ins(1, "green", "E"))
    assert [e.data["piece"] for e in step.effects if e.kind == "steal"] == [None]


def test_a_ram_tips_an_upright_object_and_tags_the_goal_on_top():
    """Seed 001: "If you RAM an upright object (whether it's a beacon or a RAMbot), tip it down onto its side,
    facing away from the point of impact. If that object matches the color currently on top of your goal stack,
    you have tagged a goal. Remove the top piece from your goal stack, and add it to your own code-pool." """
    goals = {"red": (Piece(3, "blue"), Piece(3, "green"))}
    t = table(bot("red", (1, 2), "S"), beacon("blue", (1, 4), None), goals=goals, pools={"red": ()})
    step = execute(t, "red", ins(2, "blue", "S"))
    b = step.table.obj("beacon:blue")
    assert b.facing == "S" and kinds(step)[:5] == ["move", "push", "move", "ram", "knock_over"]
    assert step.table.goal_stack("red") == (Piece(3, "green"),) and step.table.pool("red") == (Piece(3, "blue"),)
    assert not step.won
    # a lying beacon is RAMed but not tagged (RULINGS: a tag needs the object upright)
    t = table(bot("red", (1, 2), "S"), beacon("blue", (1, 4), "W"), goals=goals, pools={"red": ()})
    step = execute(t, "red", ins(2, "yellow", "S"))
    assert "tag" not in kinds(step) and step.table.goal_stack("red") == goals["red"]


def test_the_fourth_tag_wins_at_once():
    """Seed 001: "The first player to tag all four goal colors in the order specified by his or her goal stack is
    the winner" (RULINGS: the moment the fourth is tagged)."""
    t = table(bot("red", (1, 2), "S"), beacon("blue", (1, 3), None), goals={"red": (Piece(1, "blue"),)})
    assert execute(t, "red", ins(1, "green", "S")).won


def test_damage_and_a_tag_from_one_ram():
    """RULINGS: damage and a goal tag can both follow from one RAM."""
    t = table(bot("red", (1, 2), "S"), bot("green", (1, 3)), goals={"red": (Piece(2, "green"), Piece(2, "blue"))})
    step = execute(t, "red", ins(1, "blue", "S"))
    assert {"ram", "steal", "knock_over", "tag"} <= set(kinds(step))
    assert step.table.obj("bot:green").facing == "S"


# -- beams ---------------------------------------------------------------------------------------------------------
def test_blue_pushes_the_first_object_hit():
    """Seed 001: "A blue beam will push any object it hits (along with anything else that the object runs into)
    away from your RAMbot for one, two, or three spaces"."""
    t = table(bot("red", (0, 4), "E"), beacon("yellow", (3, 4)), beacon("blue", (6, 4)))
    step = execute(t, "red", ins(3, "blue", "up"))  # reverse into the wall: no move; then the beam
    assert step.table.obj("beacon:yellow").cell == (6, 4) or step.table.obj("beacon:yellow").cell == (5, 4)
    assert step.table.obj("beacon:blue").cell == (7, 4) and step.table.obj("beacon:yellow").cell == (6, 4)


def test_yellow_pulls_up_to_the_nose_without_a_ram():
    """Seed 001: "A yellow beam will pull any object it hits toward your RAMbot … If an object is pulled all the
    way into the nose of your RAMbot, the object remains in the space next to your RAMbot. This does not count as
    a RAM; you cannot damage another player, tag a goal, or knock over an upright object in this fashion." """
    # a clean pull to the nose: 3 spaces asked, 1 possible
    t = table(bot("red", (2, 5), "E"), bot("green", (4, 5)), goals={"red": (Piece(1, "green"),)})
    step = execute(t, "red", ins(3, "yellow", "up"))  # backs to (0,5) (2 spaces: wall), beam east pulls green
    assert step.table.obj("bot:red").cell == (0, 5)
    assert step.table.obj("bot:green").cell == (1, 5)  # next to the nose
    assert "ram" not in kinds(step) and "steal" not in kinds(step) and "tag" not in kinds(step)
    assert step.table.obj("bot:green").upright and step.table.pool("green") == TREES


def test_red_slides_toward_the_centre_line_from_both_halves():
    """Seed 001: "A red beam will slide any object it hits sideways (along with anything else that the object runs
    into), away from the beam and towards the center line of the game board" (RULINGS: perpendicular to the beam,
    toward the centre line parallel to it)."""
    # an east-west beam: the centre line runs between rows 3 and 4
    north = execute(table(bot("red", (0, 1), "E"), beacon("blue", (5, 1))), "red", ins(2, "red", "up"))
    assert north.table.obj("beacon:blue").cell == (5, 3)
    south = execute(table(bot("red", (0, 6), "E"), beacon("blue", (5, 6))), "red", ins(2, "red", "up"))
    assert south.table.obj("beacon:blue").cell == (5, 4)
    # a north-south beam: toward the line between columns 3 and 4, pushing what it runs into
    west = execute(table(bot("red", (1, 7), "N"), beacon("blue", (1, 2)), beacon("green", (2, 2))), "red",
                   ins(1, "red", "up"))
    assert west.table.obj("beacon:blue").cell == (2, 2) and west.table.obj("beacon:green").cell == (3, 2)
    east = execute(table(bot("red", (6, 0), "S"), beacon("blue", (6, 4))), "red", ins(3, "red", "up"))
    assert east.table.obj("beacon:blue").cell == (3, 4)


def test_green_sets_upright_and_beams_into_walls_or_upwards_do_nothing():
    """Seed 001: "A green beam will set any object it hits upright." — "If a beam hits a wall, or fires straight
    upwards, it has no effect." """
    step = execute(table(bot("red", (0, 3), "E"), beacon("blue", (6, 3), "S")), "red", ins(1, "green", "up"))
    assert step.table.obj("beacon:blue").upright
    step = execute(table(bot("red", (0, 3), "N"), beacon("blue", (6, 3), "S")), "red", ins(1, "green", "up"))
    assert not step.table.obj("beacon:blue").upright
    step = execute(table(bot("red", (6, 4)), beacon("blue", (6, 3), "S")), "red", ins(1, "blue", "up"))
    assert [e.data.get("why") for e in step.effects if e.kind == "beam"] == ["upright"]


# -- the order of execution ------------------------------------------------------------------------------------------
def test_smallest_first_then_colour_then_rambot_precedence():
    """Seed 001: "smaller pieces always take precedence over larger ones … If there is a tie for smallest piece,
    compare the colors of the tying pieces to the precedence stack … If there is another tie … The instruction
    belonging to the player whose RAMbot's color is highest on the precedence stack should execute first." """
    t = table(bot("red", (0, 0)), bot("blue", (7, 7)), precedence=("blue", "green", "red", "yellow"))
    loaded = [("red", ins(2, "green", "N")), ("blue", ins(3, "blue", "N"))]
    assert min(loaded, key=lambda x: order_key(t, *x))[0] == "red"
    loaded = [("red", ins(2, "red", "N")), ("blue", ins(2, "green", "N"))]
    first = sorted(loaded, key=lambda x: order_key(t, *x))
    assert first[0][0] == "blue" and why_first(t, first) == "color"
    loaded = [("red", ins(2, "red", "N")), ("blue", ins(2, "red", "E"))]
    first = sorted(loaded, key=lambda x: order_key(t, *x))
    assert first[0][0] == "blue" and why_first(t, first) == "rambot"


# -- the game ----------------------------------------------------------------------------------------------------------
class Room(GameTable):
    def __init__(self, config: RamConfig) -> None:
        super().__init__(G, config, view=False)

    def start(self, *names: str) -> None:
        self.seat(*names)

    def goals(self, now: float = 1) -> None:
        for p, c in self.state.colors:
            if p not in self.state.seated or p in dict(self.state.goal_drafts):
                continue
            nb = self.state.color_of(self.state.left_of(p))
            self.do(SetGoals(p, goal_stack_for(self.state.table, c, nb, "expert", 1)), now)

@pytest.fixture
def room():
    made: list[Room] = []

    def make(**kw) -> Room:
        r = Room(RamConfig(**kw))
        made.append(r)
        return r

    yield make
    for r in made:
        r.check_replay()


def test_setup_trees_goal_stacks_for_the_left_neighbour_revealed_when_all_made(room):
    """Seed 001: "Each player should gather an initial "code-pool" of pieces by selecting a single tree of each
    color … create a "goal stack" for the player on your left … Keep the goal stack you create hidden until all
    players have created one"."""
    r = room(seed=3)
    r.start("Ann", "Bob", "Cid")
    s = r.state
    assert s.phase == "goals" and all(s.table.pool(c) == TREES for _, c in s.colors)
    assert len([o for o in s.table.objects if o.kind == "beacon"]) == 4
    assert all(o.upright for o in s.table.objects if o.kind == "bot")
    assert all(not o.upright for o in s.table.objects if o.kind == "beacon")
    pieces = (Piece(1, "red"), Piece(2, "blue"), Piece(3, "green"), Piece(1, "yellow"))
    r.do(SetGoals("ann", pieces), 1)
    view = json.dumps([G.view(r.state, p) for p in (None, "bob", "cid")])
    assert json.dumps([p.to_dict() for p in pieces]) not in view
    assert G.private(r.state, "ann")["goals_made"] == [p.to_dict() for p in pieces]
    assert "pieces" not in G.public_event(r.log[-1])
    with pytest.raises(GameError, match="one piece of each colour"):
        G.apply(r.state, SetGoals("bob", pieces[:3] + (Piece(1, "red"),)), 1)
    r.do(SetGoals("bob", pieces), 1)
    r.do(SetGoals("cid", pieces), 1)
    s = r.state
    assert s.phase == "programming" and s.table.goal_stack(s.color_of("bob")) == pieces  # Ann's stack, for Bob
    assert len(s.table.pool(s.color_of("ann"))) == 8


def test_programs_are_secret_until_all_compile_then_run_interleaved(room):
    """Seed 001: "You may lay out up to five of your code-pool pieces behind your screen … When all players have
    finished programming, everyone lifts their screens" — and "it is perfectly possible for a player to execute
    two or more instructions in a row"."""
    r = room(seed=4, step_seconds=1)
    r.start("Ann", "Bob")
    r.goals()
    s = r.state
    ann, bob = s.color_of("ann"), s.color_of("bob")
    pool = s.table.pool(ann)
    small = [p for p in pool if p.size == 1]
    big = [p for p in s.table.pool(bob) if p.size == 2]  # the goal stacks took the large ones
    r.do(SetProgram("ann", (Instruction(small[0], "up"), Instruction(small[1], "up"))), 2)
    r.do(SetProgram("bob", (Instruction(big[0], "up"),)), 2)
    secret = json.dumps([i.to_dict() for i in r.state.draft("ann")], separators=(",", ":"))
    assert secret not in json.dumps(G.view(r.state, "bob"), separators=(",", ":"))
    r.do(Compile("ann", True), 3)
    with pytest.raises(GameError, match="uncompile"):
        G.apply(r.state, SetProgram("ann", ()), 3)
    r.do(Compile("ann", False), 3)  # "you're free to "uncompile" and change your program"
    r.do(Compile("ann", True), 3)
    events = r.do(Compile("bob", True), 4)
    assert [e.type for e in events] == ["compiled", "programs_revealed"]
    r.tick(5)
    r.tick(6)
    ran = [e.player for e in r.log if e.type == "instruction_run"]
    assert ran == ["ann", "ann"]  # two small pieces in a row, before Bob's large one
    r.tick(7)
    r.tick(8)
    assert r.state.phase == "programming" and r.state.round == 2
    assert r.state.table.pool(ann) == pool  # the pieces came back to the pool


def test_the_precedence_stack_turns_after_each_round(room):
    """Seed 001: "When all instructions have been executed, the round of play is over. Remove the top piece from
    the precedence stack, and place it on the bottom of the stack." """
    r = room(seed=5)
    r.start("Ann", "Bob")
    r.goals()
    before = r.state.table.precedence
    r.do(Compile("ann", True), 2)
    r.do(Compile("bob", True), 2)  # empty programs: the round ends at once
    assert r.state.table.precedence == before[1:] + before[:1] and r.state.round == 2


def test_speedbots_and_the_programming_timer(room):
    """Seed 001, Speedbots: "the programming round ends when all but one of the players have compiled; the
    uncompiled player must use his or her program as it lies" — and the timer option ends it likewise."""
    r = room(seed=6, speedbots=True)
    r.start("Ann", "Bob", "Cid")
    r.goals()
    piece = r.state.table.pool(r.state.color_of("cid"))[0]
    r.do(SetProgram("cid", (Instruction(piece, "N"),)), 2)
    r.do(Compile("ann", True), 2)
    events = r.do(Compile("bob", True), 2)
    revealed = next(e for e in events if e.type == "programs_revealed")
    assert revealed.reason == "speedbots" and dict(revealed.programs)["cid"] == (Instruction(piece, "N"),)
    t = room(seed=7, programming_seconds=60)
    t.start("Ann", "Bob")
    t.goals(now=1)
    assert t.tick(60) == [] and t.tick(61.5)[0].type == "programs_revealed"


def test_at_most_five_instructions_from_ones_own_pool(room):
    r = room(seed=8)
    r.start("Ann", "Bob")
    r.goals()
    pool = r.state.table.pool(r.state.color_of("ann"))
    with pytest.raises(GameError, match="at most 5"):
        G.apply(r.state, SetProgram("ann", tuple(Instruction(p, "N") for p in pool[:6])), 2)
    with pytest.raises(GameError, match="no small red"):
        G.apply(r.state, SetProgram("ann", (Instruction(Piece(1, "red"), "N"),) * 2), 2)


def test_two_to_four_players(room):
    r = room(seed=9)
    for n in ("Ann", "Bob", "Cid", "Dan"):
        r.do(Join(n.lower(), n), 0)
    with pytest.raises(GameError, match="2 to 4"):
        G.apply(r.state, Join("eve", "Eve"), 0)


def test_a_player_who_leaves_during_goal_making_gets_a_stack_made(room):
    r = room(seed=10)
    r.start("Ann", "Bob", "Cid")
    r.do(Leave("cid"), 1)
    assert [e.auto for e in r.log if e.type == "goals_set"] == [True]
    r.goals()
    assert r.state.phase == "programming" and len(r.state.table.goal_stack(r.state.color_of("ann"))) == 4


def test_a_game_of_bots_is_won_by_tagging_four_goals(room):
    """Bots plan with the engine; a game of two perfect bots ends with four goals tagged."""
    r = room(seed=11, step_seconds=1)
    r.start("Ann", "Bob")
    r.goals()
    now = 2.0
    for _ in range(40):
        if r.state.phase == "over":
            break
        leader = None
        for p, c in r.state.colors:
            r.do(SetProgram(p, plan_program(r.state.table, c, "perfect", leader, 1)), now)
        for p, _ in r.state.colors:
            if r.state.phase == "programming":
                r.do(Compile(p, True), now)
        while r.state.phase == "execution":
            now += 1
            r.tick(now)
    assert r.state.phase == "over" and r.state.end_reason == "all_goals_tagged"
    winner = r.state.winners[0]
    assert r.state.table.goal_stack(r.state.color_of(winner)) == ()


# -- a property ------------------------------------------------------------------------------------------------------------
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), rounds=st.integers(1, 6))
def test_random_programs_keep_every_piece_on_the_board_and_counted(seed: int, rounds: int) -> None:
    """Issue: "any sequence of legal programs keeps every piece on the board, no two on one space, the total
    number of pieces constant"."""
    rng = random.Random(seed)
    r = Room(RamConfig(seed=seed, step_seconds=1, layout=rng.choice(("default", "random"))))
    names = ["Ann", "Bob", "Cid", "Dan"][:rng.randint(2, 4)]
    r.start(*names)
    r.goals()
    total = None
    now = 2.0
    for _ in range(rounds):
        if r.state.phase == "over":
            break
        for p, c in r.state.colors:
            pool = list(r.state.table.pool(c))
            rng.shuffle(pool)
            prog = tuple(Instruction(pc, rng.choice(("N", "E", "S", "W", "up"))) for pc in pool[:rng.randint(0, 5)])
            r.do(SetProgram(p, prog), now)
        for p, _ in r.state.colors:
            if r.state.phase == "programming":
                r.do(Compile(p, True), now)
        while r.state.phase == "execution":
            now += 1
            r.tick(now)
            t = r.state.table
            cells = [o.cell for o in t.objects]
            assert all(0 <= x < 8 and 0 <= y < 8 for x, y in cells) and len(set(cells)) == len(cells)
            pieces = Counter(p for _, pool in t.pools for p in pool) + Counter(
                p for _, g in t.goals for p in g) + Counter(i.piece for _, prog in r.state.running for i in prog)
            n = sum(pieces.values()) + len(t.objects)
            total = total or n
            assert n == total
    r.check_replay()


def test_a_program_previewed_before_compiling_is_the_engines_own_run_told_only_to_its_author(room):
    """Issue 44, "what will this program do?": before compiling, a player asks the game for a preview of the
    program laid out behind the screen: the engine runs it alone on the table as it stands (the others'
    programs are secret), instruction by instruction — the same steps as ``execute`` — and nothing is logged,
    nothing changes, no one else hears of it.  A piece not in the pool, or a preview out of the
    programming phase, is refused with the reason."""
    from ricochet.games import Query

    r = room(seed=5)
    r.start("Ann", "Bob")
    with pytest.raises(GameError, match="programming phase"):
        G.answer(r.state, G.parse_action(r.state, "ann", {"type": "preview_program", "program": []}))
    r.goals()
    s = r.state
    ann = s.color_of("ann")
    pool = s.table.pool(ann)
    program = (Instruction(pool[0], "E"), Instruction(pool[1], "N"), Instruction(pool[2], "up"))
    msg = {"type": "preview_program", "program": [i.to_dict() for i in program]}
    query = G.parse_action(s, "ann", msg)
    assert isinstance(query, Query)
    before = (json.dumps(G.view(s, None), sort_keys=True), len(r.log))
    answer = G.answer(s, query)
    assert (json.dumps(G.view(r.state, None), sort_keys=True), len(r.log)) == before  # nothing changed
    assert answer["type"] == "program_preview" and len(answer["steps"]) == 3
    table = s.table
    for ins, step in zip(program, answer["steps"], strict=True):
        done = execute(table, ann, ins)
        table = done.table
        assert step["instruction"] == ins.to_dict()
        assert step["effects"] == [e.to_dict() for e in done.effects]
        assert step["objects"] == [o.to_dict() for o in table.objects]
    missing = Piece(3, ann)  # the large piece of her colour went into a goal stack
    assert missing not in pool
    bad = G.parse_action(s, "ann", {"type": "preview_program", "program": [{"size": 3, "color": ann, "orientation": "N"}]})
    with pytest.raises(GameError, match="no .* piece left"):
        G.answer(s, bad)
    with pytest.raises(GameError, match="at most 5"):
        G.parse_action(s, "ann", {"type": "preview_program", "program": [i.to_dict() for i in program] * 2})
