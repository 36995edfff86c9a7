"""Do bots of every level play under each game's default clock?  A simulation of rounds.

Each round is the first round of a fresh game of the real game module (its default options, a new
seed each time), played through the game interface: the bot's decision is the bot's own pure code
(``plan_bid``/``bid_time`` of the bidding games, ``plan_announce``/``announce_time`` of Micro
Robots, ``think_time``/``compile_time`` and ``plan_program`` of RAMbots), its answer is sent as the
protocol message it would send (``parse_action``) at the time it would send it, and the game decides
— a bid after the clock ran out is refused as it would be in a room.  The solver finds the optimum
as the bots' worker does.

* Ricochet Robots, Ricochet Pyramids: a quick opponent (a perfect bot) bids first when it is faster,
  which turns the sand clock (timer): the hardest case for a slow bot.  A round counts when the
  bot's bid is accepted.  Rounds the solver finds no solution for are left out (nobody can bid).
* Micro Robots is a race: the first announcement wins it, so a slower bot loses to a faster
  player by design.  A round counts when the bot announces before the target is rolled again
  (the game's re-roll clock), playing against people who do not announce.
* RAMbots: a round counts when the bot compiles its program before the programming timer runs out
  (the default game has none).

    .venv/bin/python benchmarks/bots.py                 # 30 rounds per game and level
    .venv/bin/python benchmarks/bots.py --rounds 100 --games pyramids --clock 20

It prints, per game and level, the share of rounds in which the bot played, its mean answer above
the optimum (bidding games: weaker levels answer worse) and its mean time to answer.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from ricochet.games import GAMES, GameError
from ricochet.games.table import Join, Start

LEVELS = ("beginner", "intermediate", "expert", "perfect")


@dataclass
class Tally:
    """What one level did in one game's simulated rounds."""

    game: str
    level: str
    rounds: int = 0
    played: int = 0
    over: list[int] = field(default_factory=list)
    """Bidding games: each accepted bid minus the optimum."""
    times: list[float] = field(default_factory=list)
    """Seconds from the goal (target, programming) to the bot's answer."""

    @property
    def share(self) -> float:
        return self.played / self.rounds if self.rounds else 0.0


class _Client:
    """Enough of a connection to build a game's bot (its level and settings are what we read)."""

    state = None
    room = None

    async def hello(self, *a: Any, **k: Any) -> dict[str, Any]:
        raise NotImplementedError

    async def send(self, msg: dict[str, Any]) -> None:
        raise NotImplementedError

    def server_now(self) -> float:
        return 0.0

    def __aiter__(self) -> Any:
        raise NotImplementedError


async def _no_compute(job: Any) -> Any:
    raise NotImplementedError


def make_bot(name: str, level: str) -> Any:
    return GAMES[name].make_bot(_Client(), level, _no_compute, speed=0)


def _act(game: Any, state: Any, player: str, msg: dict[str, Any], now: float) -> tuple[Any, bool]:
    """``msg`` from ``player`` at ``now``, as a room would take it: the new state, and whether it was accepted."""
    try:
        action = game.parse_action(state, player, msg)
        state, _ = game.apply(state, action, now)
        return state, True
    except GameError:
        return state, False


def _run_jobs(game: Any, state: Any, now: float) -> Any:
    """The game's computations (e.g. Ricochet Pyramids' goal check), done at once, as the worker would."""
    for _ in range(100):
        jobs = [j for j in game.jobs(state) if j.to_action is not None]
        if not jobs:
            return state
        job = jobs[0]
        state, _ = game.apply(state, job.to_action(job.fn(*job.args)), now)
    raise RuntimeError("the game keeps asking for jobs")


def _started(name: str, seed: int, options: dict[str, Any]) -> tuple[Any, Any]:
    game = GAMES[name]
    state = game.new(game.config(game.normalize_options(options), seed))
    for action in (Join("bot", "Bot"), Join("quick", "Quick"), Start("bot")):
        state, _ = game.apply(state, action, 0.0)
    return game, _run_jobs(game, state, 0.0)


# -- the games ---------------------------------------------------------------------------------------------
def bidding_rounds(name: str, rounds: int, options: dict[str, Any], seed: int) -> Iterator[tuple[Any, Any, Any]]:
    """Fresh first rounds of a bidding game, open for bids: (game, state, the solver's answer)."""
    from ricochet.games.jobs import puzzle_key, solve_puzzle

    cache: dict[Any, Any] = {}
    puzzle_from_view = make_bot(name, "perfect").puzzle_from_view
    for k in range(rounds):
        game, state = _started(name, seed + k, options)
        puzzle = puzzle_from_view(game.view(state, None))
        key = puzzle_key(puzzle)
        if key not in cache:
            cache[key] = solve_puzzle(puzzle)
        yield game, state, cache[key]


def simulate_bidding(name: str, rounds: int, options: dict[str, Any], seed: int) -> list[Tally]:
    from ricochet.games.bidding.bot import bid_time, plan_bid

    tallies = {lv: Tally(name, lv) for lv in LEVELS}
    quick = make_bot(name, "perfect")
    bots = {lv: make_bot(name, lv) for lv in LEVELS}
    rng = random.Random(seed)
    for game, start, answer in bidding_rounds(name, rounds, options, seed):
        if answer.optimal is None:
            continue  # nobody can bid on a goal without a solution
        drawn = start.round.drawn_at
        for lv, bot in bots.items():
            tally = tallies[lv]
            tally.rounds += 1
            plan = plan_bid(bot.level, answer.optimal, rng, bot.think_scale)
            fast = plan_bid(quick.level, answer.optimal, rng, quick.think_scale)
            state, deadline = start, None
            first = bid_time(plan, drawn, None)
            if first is None or first[0] > drawn + fast.think:  # the quick player bids first: the clock turns
                assert fast.bid is not None
                state, ok = _act(game, state, "quick", {"type": "bid", "moves": fast.bid}, drawn + fast.think)
                assert ok
                deadline = state.round.clock_deadline
            when = bid_time(plan, drawn, deadline)
            if when is None:
                continue
            at, moves = when
            state, ok = _act(game, state, "bot", {"type": "bid", "moves": moves}, at)
            if ok:
                tally.played += 1
                tally.over.append(moves - answer.optimal)
                tally.times.append(at - drawn)
    return list(tallies.values())


def simulate_micro(name: str, rounds: int, options: dict[str, Any], seed: int) -> list[Tally]:
    from ricochet.games.micro_robots.bot import announce_time, plan_announce
    from ricochet.games.micro_robots.engine import best_route

    tallies = {lv: Tally(name, lv) for lv in LEVELS}
    rng = random.Random(seed)
    for k in range(rounds):
        game, start = _started(name, seed + k, options)
        rnd = start.round
        route = best_route(start.board, rnd.start, rnd.target, rnd.via)
        if route is None:
            continue
        reroll_at = game.deadline(start)
        for lv in LEVELS:
            tally = tallies[lv]
            tally.rounds += 1
            plan = plan_announce(make_bot(name, lv).level, len(route) - 1, rng)
            at = announce_time(plan, rnd.rolled_at, reroll_at)
            _, ok = _act(game, start, "bot", {"type": "announce", "moves": plan.moves}, at)
            if ok:
                tally.played += 1
                tally.over.append(plan.moves - (len(route) - 1))
                tally.times.append(at - rnd.rolled_at)
    return list(tallies.values())


def simulate_rambots(name: str, rounds: int, options: dict[str, Any], seed: int) -> list[Tally]:
    from ricochet.games.rambots.bot import compile_time, goal_stack_for, plan_program, think_time

    tallies = {lv: Tally(name, lv) for lv in LEVELS}
    rng = random.Random(seed)
    for k in range(rounds):
        game, state = _started(name, seed + k, options)
        for player in ("bot", "quick"):
            table, color = state.table, state.color_of(player)
            pieces = goal_stack_for(table, color, state.color_of(state.left_of(player)), "expert", seed + k)
            state, ok = _act(game, state, player, {"type": "set_goals", "pieces": [p.to_dict() for p in pieces]},
                             1.0)
            assert ok
        assert state.phase == "programming", state.phase
        since, until = state.programming_since, game.deadline(state)
        for lv in LEVELS:
            tally = tallies[lv]
            tally.rounds += 1
            began = time.perf_counter()
            program = plan_program(state.table, state.color_of("bot"), lv, None, seed + k)
            planning = time.perf_counter() - began  # the search is part of the thinking (real seconds)
            at = compile_time(max(planning, think_time(lv, rng)), since, until)
            after, ok = _act(game, state, "bot", {"type": "set_program",
                                                 "program": [i.to_dict() for i in program]}, at)
            after, ok = _act(game, after, "bot", {"type": "compile", "on": True}, at) if ok else (after, False)
            if ok:
                tally.played += 1
                tally.times.append(at - since)
    return list(tallies.values())


SIMULATIONS: dict[str, Callable[[str, int, dict[str, Any], int], list[Tally]]] = {
    "ricochet-robots": simulate_bidding, "pyramids": simulate_bidding, "micro-robots": simulate_micro,
    "rambots": simulate_rambots,
}
"""How each built-in game's rounds are simulated."""

CLOCKS = {"ricochet-robots": "clock_seconds", "pyramids": "clock_seconds", "micro-robots": "reroll_seconds",
          "rambots": "programming_seconds"}
"""The clock each simulation is about (``--clock`` sets it; by default the game's own)."""


def simulate(name: str, rounds: int, *, seed: int = 1, clock: float | None = None) -> list[Tally]:
    """``rounds`` rounds of game ``name`` for every bot level, under its default clock (or ``clock`` seconds)."""
    options = {} if clock is None else {CLOCKS[name]: clock}
    return SIMULATIONS[name](name, rounds, options, seed)


def report(tallies: list[Tally]) -> str:
    lines = [f"{'game':<16} {'level':<13} {'rounds':>6} {'played':>7} {'above optimum':>14} {'answer after':>13}"]
    for t in tallies:
        over = f"{statistics.mean(t.over):+.1f}" if t.over else "-"
        when = f"{statistics.median(t.times):.1f} s" if t.times else "-"
        lines.append(f"{t.game:<16} {t.level:<13} {t.rounds:>6} {t.share:>7.0%} {over:>14} {when:>13}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rounds", type=int, default=30, help="rounds per game (default 30)")
    ap.add_argument("--games", default=",".join(SIMULATIONS), help="comma-separated (default: all four)")
    ap.add_argument("--clock", type=float, default=None,
                    help="seconds of the game's clock instead of its default (sand clock, re-roll, programming)")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args(argv)
    out: list[Tally] = []
    for name in args.games.split(","):
        if name not in SIMULATIONS:
            ap.error(f"--games: {name!r} is not one of {', '.join(SIMULATIONS)}")
        default = GAMES[name].default_options[CLOCKS[name]]
        clock = args.clock if args.clock is not None else default
        sys.stderr.write(f"{name}: {args.rounds} rounds, {CLOCKS[name]} = {clock:g}\n")
        out += simulate(name, args.rounds, seed=args.seed, clock=args.clock)
    print(report(out))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
