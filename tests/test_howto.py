"""The "How to play" lesson of each game is its seed's own example, played by the engine.

Each game's web folder holds ``howto.json``: the position of the seed's example and every step of
it, as the page draws them.  Here each is built again from the rules texts' figures and the
engines (``Position.replay``, Micro Robots' board and moves, RAMbots' ``execute`` through the
game's own preview), and must be what is committed: a lesson can never show a move the engine
would not make.  ``RICOCHET_WRITE_HOWTO=1`` writes them (after a change of an engine or of an
example).

- Ricochet Robots (seed 000, "Example 1: a different robot is moved to serve as obstacle. The red
  robot is moved to create an obstacle (moves 1 and 2); then the green robot uses it as an
  obstacle (moves 3-5)"; "Example 2: the green robot could move directly to the target space, but
  since this is not allowed, another route is chosen"): positions of that shape on the classic
  tiles, each route optimal by the solver.
- Ricochet Pyramids (seed 003): the worked example, "One 5-move solution is to move y north …, r
  north …, y east …, y south …, r east", from the seed's figure.
- Micro Robots (seed 002): "'1 pink' is the starting space. The target space is '2 white' … He
  moves the robot from '1 pink' to '6 pink'; after that, '6 white', '6 red' and '2 red' follow",
  on the board as printed.
- RAMbots (seed 001): a first program of the default set-up, previewed step by step as the game
  previews one ("what will this program do?").
"""

from __future__ import annotations

import itertools
import json
import os
from pathlib import Path
from typing import Any

import pytest

from ricochet.games import GAMES


def _path(game: str) -> Path:
    web_dir = GAMES[game].web_dir
    assert web_dir is not None
    return web_dir / "howto.json"


# -- Ricochet Robots ---------------------------------------------------------------------------------------
RR_TILES = ("1A", "2A", "3A", "4A")
RR_EXAMPLES = (484, 11)
"""The puzzles (numbers of ``generate``'s draw on the classic tiles, the game's rules) of the shapes of
seed 000's two examples: found once by searching the first few thousand; each is checked below."""


def build_ricochet_robots() -> dict[str, Any]:
    from ricochet.games.events import encode
    from ricochet.generate import _puzzle_from_number
    from ricochet.geometry import Direction
    from ricochet.notation.wire import board_to_wire, robots_to_wire
    from ricochet.position import IllegalMove, Move
    from ricochet.rules import GAME
    from ricochet.solver import solve
    from ricochet.tiles import assemble

    board = assemble(*RR_TILES)
    examples = []
    for n in RR_EXAMPLES:
        pz = _puzzle_from_number(board, "".join(RR_TILES), n, GAME)
        pos = pz.position
        sol = solve(pz, time_limit=30)
        assert sol.status == "solved" and sol.moves, f"puzzle {n}: no proven optimum ({sol.status})"
        _, paths = pos.replay(sol.moves)
        direct = None
        for d in Direction:
            try:
                after, _ = pos.play(Move(pz.active, d))
            except IllegalMove:
                continue
            if after.robots[pz.active].cell == pz.target:
                direct = d.name
        chip = next(t for t in board.targets if t.cell == pz.target)
        examples.append({
            "robots": robots_to_wire(pos.robots), "target": list(pz.target),
            "active": pos.robots[pz.active].color.name.lower(),
            "chip": {"color": str(chip.color), "symbol": str(chip.symbol)},
            "direct": direct,
            "moves": [{"robot": pos.robots[m.robot].color.name.lower(), "direction": m.direction.name, "path": encode(p)}
                      for m, p in zip(sol.moves, paths, strict=True)],
        })
    rules = {k: getattr(GAME, k) for k in ("must_ricochet", "no_straight_back", "diagonals", "openings")}
    return {"tiles": list(RR_TILES), "board": board_to_wire(board), "rules": rules, "examples": examples}


def test_ricochet_robots_lessons_are_the_seeds_examples_in_shape() -> None:
    """Example 1: the red robot moves twice to make an obstacle, then the green robot (the active one)
    three times; example 2: the green robot could reach the target in one move without a ricochet (not
    allowed), and the optimal route ricochets."""
    one, two = build_ricochet_robots()["examples"]
    assert [m["robot"] for m in one["moves"]] == ["red", "red", "green", "green", "green"] and one["active"] == "green"
    assert two["active"] == "green" and two["direct"] is not None and len(two["moves"]) > 1


# -- Ricochet Pyramids -------------------------------------------------------------------------------------
def build_pyramids() -> dict[str, Any]:
    from ricochet.games.events import encode
    from ricochet.notation import parse_solution
    from test_pyramids import seed_example

    puzzle, _ = seed_example()
    pos = puzzle.position
    # The seed's figure shows towers (T) and the goal (G), not their colours: G is the red-on-yellow
    # tower (the goal "r to G"), the others take the other pairs in order (as tests/test_pyramids.py).
    pairs = [(a, b) for a in ("red", "green", "yellow") for b in ("red", "green", "yellow") if (a, b) != ("red", "yellow")]
    others = sorted(c for c in pos.board.towers if c != puzzle.target)
    towers = [{"cell": list(puzzle.target), "top": "red", "bottom": "yellow"}]
    towers += [{"cell": list(c), "top": a, "bottom": b} for c, (a, b) in zip(others, pairs, strict=False)]
    moves = parse_solution("y N, r N, y E, y S, r E", pos)
    _, paths = pos.replay(moves)
    robots = [{"color": r.color.name.lower(), "cell": list(r.cell)} for r in pos.robots]
    return {
        "towers": sorted(towers, key=lambda t: t["cell"]), "robots": robots, "target": list(puzzle.target),
        "goal": {"robot": "red", "top": "red", "bottom": "yellow"},
        "moves": [{"robot": robots[m.robot]["color"], "direction": m.direction.name, "path": encode(p)}
                  for m, p in zip(moves, paths, strict=True)],
    }


# -- Micro Robots ------------------------------------------------------------------------------------------
def build_micro_robots() -> dict[str, Any]:
    from ricochet.games.micro_robots.engine import SHIPPED

    names = ["1 pink", "6 pink", "6 white", "6 red", "2 red", "2 white"]
    route = [SHIPPED.find(n.split()[1], int(n.split()[0])) for n in names]
    return {
        "arrangement": "A0B0C0D0", "board": SHIPPED.to_json(), "start": list(route[0]), "target": list(route[-1]),
        "first": sorted(list(c) for c in SHIPPED.moves(route[0])), "route": [list(c) for c in route],
    }


def test_the_micro_robots_lesson_is_a_route_of_legal_moves() -> None:
    from ricochet.games.micro_robots.engine import SHIPPED

    lesson = build_micro_robots()
    route = [tuple(c) for c in lesson["route"]]
    assert all(SHIPPED.is_move(a, b) for a, b in itertools.pairwise(route)) and len(route) == 6
    # "you have three possibilities for your first move … to '1 blue' or '1 yellow' …, to '6 pink'"
    assert sorted(SHIPPED.name(tuple(c)) for c in lesson["first"]) == ["1 blue", "1 yellow", "6 pink"]


# -- RAMbots -------------------------------------------------------------------------------------------------
def build_rambots() -> dict[str, Any]:
    from gametable import GameTable
    from ricochet.games.rambots.bot import goal_stack_for
    from ricochet.games.rambots.game import RAMBOTS, RamConfig, SetGoals

    t = GameTable(RAMBOTS, RamConfig(seed=1), view=False)
    t.seat("Ann", "Bob")
    for p, c in t.state.colors:
        nb = t.state.color_of(t.state.left_of(p))
        t.do(SetGoals(p, goal_stack_for(t.state.table, c, nb, "expert", 1)), 1)
    s = t.state
    ann = s.color_of("ann")
    beacons = sorted(o.color for o in s.table.objects if o.kind == "beacon")
    program = _first_lesson_program(s.table, ann)
    answer = RAMBOTS.answer(s, RAMBOTS.parse_action(s, "ann", {"type": "preview_program",
                                                               "program": [i.to_dict() for i in program]}))
    players = [{"id": p, "name": p.capitalize(), "color": c} for p, c in s.colors]
    return {"objects": [o.to_dict() for o in s.table.objects], "players": players, "you": "ann", "beacons": beacons,
            "precedence": list(s.table.precedence), "program": answer["program"], "steps": answer["steps"]}


def _first_lesson_program(table: Any, color: str) -> list[Any]:
    """The first program (in a fixed order) of two instructions from the pool that shows the most of
    the rules: the RAMbot tips down and travels, and a beam moves something."""
    import itertools

    from ricochet.games.rambots.engine import Instruction, execute

    pool = sorted(set(table.pool(color)))
    choices = [Instruction(p, o) for p in pool for o in ("N", "E", "S", "W", "up")]
    for a, b in itertools.product(choices, repeat=2):
        if a.piece == b.piece and table.pool(color).count(a.piece) < 2:
            continue
        first = execute(table, color, a)
        second = execute(first.table, color, b)
        kinds = [e.kind for e in first.effects] + [e.kind for e in second.effects]
        moved = sum(k == "move" for k in kinds)
        if "tip_down" in kinds and moved >= 2 and any(k in kinds for k in ("beam_push", "pull", "slide")):
            return [a, b]
    raise AssertionError("no two-instruction program shows a move and a beam at work")


BUILDERS = {"ricochet-robots": build_ricochet_robots, "pyramids": build_pyramids,
            "micro-robots": build_micro_robots, "rambots": build_rambots}


@pytest.mark.parametrize("game", sorted(BUILDERS))
def test_each_games_lesson_is_built_by_its_engine(game: str) -> None:
    built = json.loads(json.dumps(BUILDERS[game]()))
    path = _path(game)
    if os.environ.get("RICOCHET_WRITE_HOWTO"):
        path.write_text(json.dumps(built, separators=(",", ":")) + "\n", encoding="utf-8")
    assert path.is_file(), f"{path} is missing: RICOCHET_WRITE_HOWTO=1 writes it"
    assert json.loads(path.read_text(encoding="utf-8")) == built, f"{path} is not what the engine makes of the example"
