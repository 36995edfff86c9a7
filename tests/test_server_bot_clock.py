"""Ruling 8 for bots: a bot that finds nothing turns the sand clock once the
no-bid wait is over, and only if still nobody has bid."""

import asyncio
import time
from types import SimpleNamespace

from ricochet.games.bidding import bot as bots


class FakeClient:
    def __init__(self, state):
        self.state = state
        self.room = {"game_number": 1}
        self.turned = 0

    def server_now(self):
        return time.time()

    async def send(self, msg):
        assert msg == {"type": "turn_clock"}
        self.turned += 1


def state(phase, turnable_at):
    return {"phase": phase, "round": {"number": 1, "clock_turnable_at": turnable_at}}


async def no_solution(job):
    return SimpleNamespace(optimal=None, moves=())


def run_think(client, speed=1.0):
    bot = bots.BiddingBot(client, "perfect", no_solution, lambda s: (object(), object()), speed=speed)
    bot.level = bots.BotLevel("test", (0.0, 0.0), 99, (1.0,), 0.0, 0, 0.0)
    bot.me = "b1"
    bot.solve = lambda puzzle: no_solution(None)
    asyncio.run(bot._think((1, 1, 0), client.state))
    return client.turned


def test_bot_turns_the_clock_after_the_no_bid_wait():
    assert run_think(FakeClient(state("thinking", time.time() + 0.05))) == 1


def test_bot_does_not_turn_the_clock_once_someone_bid():
    assert run_think(FakeClient(state("bidding", time.time() - 1))) == 0


def test_bot_leaves_the_clock_to_tests_that_drive_time():
    assert run_think(FakeClient(state("thinking", time.time() - 1)), speed=0) == 0
