"""Bots play at every level: in simulated rounds under each game's default clock (the real game
modules, the bots' own decisions, the solver; ``benchmarks/bots.py``), every level bids, announces
or compiles in most rounds — a weaker level answers worse and later, it is not absent (issue 44: the
beginner never bid in 4 rounds of a 20-second sand clock).  And the bidding bot itself, on its
connection, bids what it has before a running clock runs out."""

from __future__ import annotations

import asyncio
import random
import time
from types import SimpleNamespace
from typing import Any

import pytest

from realserver import ROOT
from ricochet.games.bidding import bot as bidding_bot
from ricochet.games.micro_robots import bot as micro_bot
from ricochet.games.rambots import bot as ram_bot


def _bots_benchmark() -> Any:
    import importlib.util
    import sys

    spec = importlib.util.spec_from_file_location("ricochet_bots_benchmark", ROOT / "benchmarks" / "bots.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up
    spec.loader.exec_module(module)
    return module


BENCH = _bots_benchmark()
LEVELS = ("beginner", "intermediate", "expert", "perfect")


@pytest.mark.parametrize("game", ["ricochet-robots", "pyramids", "micro-robots", "rambots"])
def test_every_level_plays_in_most_rounds_under_the_default_clock(game: str) -> None:
    tallies = {t.level: t for t in BENCH.simulate(game, 16, seed=3)}
    report = BENCH.report(list(tallies.values()))
    assert set(tallies) == set(LEVELS)
    for t in tallies.values():
        assert t.rounds >= 12, report  # rounds without any solution are left out: few
        assert t.share >= 0.75, report
    if game in ("ricochet-robots", "pyramids"):
        # weak means worse answers: further above the optimum, and later
        mean = {lv: sum(t.over) / len(t.over) for lv, t in tallies.items()}
        assert mean["perfect"] == 0 and mean["beginner"] > mean["intermediate"] > mean["expert"] >= 0, report
        assert sorted(tallies, key=lambda lv: sorted(tallies[lv].times)[len(tallies[lv].times) // 2]) == \
            list(reversed(LEVELS)), report


@pytest.mark.parametrize("game", ["ricochet-robots", "pyramids"])
def test_a_short_sand_clock_hurries_slow_bots_into_bidding(game: str) -> None:
    """The case of the issue: a 20-second clock, a quick opponent who turns it at once."""
    for t in BENCH.simulate(game, 16, seed=5, clock=20):
        assert t.share >= 0.75, BENCH.report([t])
        assert all(at <= 2 + 3 + 20 for at in t.times)  # before the clock turned by the quick bid ran out


def test_bid_time_hurries_before_the_deadline_with_a_worse_answer() -> None:
    level = bidding_bot.LEVELS["beginner"]
    plan = bidding_bot.plan_bid(level, 7, random.Random(1))
    assert plan.bid is not None and plan.bid >= 8 and plan.hurried == plan.bid + level.hurried  # sight 6: +1 at least
    assert bidding_bot.bid_time(plan, 100.0, None) == (100.0 + plan.think, plan.bid)
    at, bid = bidding_bot.bid_time(plan, 100.0, 110.0)
    assert at == 110.0 - bidding_bot.HURRY and bid == plan.hurried
    assert bidding_bot.bid_time(bidding_bot.BidPlan(5.0, None, None), 0.0, 10.0) is None
    perfect = bidding_bot.plan_bid(bidding_bot.LEVELS["perfect"], 12, random.Random(2))
    assert perfect.bid == 12 and perfect.hurried == 12
    assert micro_bot.announce_time(micro_bot.AnnouncePlan(50.0, 4), 10.0, 40.0) == 40.0 - micro_bot.HURRY
    assert ram_bot.compile_time(30.0, 0.0, 20.0) == 20.0 - ram_bot.HURRY
    assert ram_bot.compile_time(3.0, 0.0, None) == 3.0


class _Client:
    """The bot's connection: a round whose sand clock runs out ``left`` seconds from now."""

    def __init__(self, left: float) -> None:
        now = time.time()
        self.state = {"phase": "bidding", "round": {"number": 1, "standing": [], "clock": {"deadline": now + left},
                                                      "clock_turnable_at": now}}
        self.room = {"game_number": 1}
        self.sent: list[tuple[float, dict[str, Any]]] = []

    def server_now(self) -> float:
        return time.time()

    async def send(self, msg: dict[str, Any]) -> None:
        self.sent.append((time.time(), msg))


def test_the_bot_bids_what_it_has_before_the_clock_runs_out() -> None:
    client = _Client(left=2.0)
    deadline = client.state["round"]["clock"]["deadline"]

    async def solved(job: Any) -> Any:
        return SimpleNamespace(optimal=5, moves=())

    bot = bidding_bot.BiddingBot(client, "beginner", solved, lambda s: object(), rng=random.Random(4))
    bot.level = bidding_bot.BotLevel("slow", (60.0, 60.0), 9, (1.0,), 0.0, 2, 0.0)  # a minute to think
    bot.me = "b1"
    bot.solve = solved  # type: ignore[method-assign]
    asyncio.run(asyncio.wait_for(bot._think((1, 1, 0), client.state), 30))
    assert len(client.sent) == 1
    at, msg = client.sent[0]
    assert msg == {"type": "bid", "moves": 5 + 2}  # hurried: its answer, two moves worse
    assert at < deadline
