"""What every bot of the site does with its seat: take it, then react to each
event and sync of its connection until it closes (or the bot is cancelled).
A game's bot says how it reacts (:meth:`SeatBot.look`) and which background
tasks it runs (:meth:`SeatBot.tasks`, cancelled when it stops)."""

from __future__ import annotations

import abc
import asyncio
import contextlib
from typing import Any

from .interface import BotClient

__all__ = ["HURRY", "SeatBot"]

HURRY = 1.5
"""Seconds before a running clock's end (a deadline, a re-roll, a programming timer) at which a
bot that has not finished thinking acts on what it has."""


class SeatBot(abc.ABC):
    """A bot on one seat; ``speed`` scales its delays (0: none, for tests)."""

    def __init__(self, client: BotClient, speed: float = 1.0) -> None:
        self.client = client
        self.speed = speed
        self.me: str | None = None
        self._wake = asyncio.Event()
        """Set at each message: a bot waiting in :meth:`doze` looks again (a clock may have
        started, the game been paused or resumed)."""

    async def sleep(self, seconds: float) -> None:
        if self.speed > 0 and seconds > 0:
            await asyncio.sleep(seconds * self.speed)

    async def doze(self, seconds: float) -> None:
        """Wait ``seconds``, or until the next message arrives, whichever comes first."""
        self._wake.clear()
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._wake.wait(), seconds)

    async def run(self, seat_token: str) -> None:
        """Take the seat and play until the connection closes or the task is cancelled."""
        welcome = await self.client.hello(seat_token=seat_token)
        self.me = welcome["you"]["player"]
        try:
            self._wake.set()
            self.look(None)
            async for msg in self.client:
                if msg["type"] in ("event", "sync"):
                    self._wake.set()
                    self.look(msg.get("event"))
        finally:
            for task in self.tasks():
                if task is not None:
                    task.cancel()

    @abc.abstractmethod
    def look(self, event: dict[str, Any] | None) -> None:
        """React to the state as it is now (``event``: what just happened, if anything)."""

    @abc.abstractmethod
    def tasks(self) -> list[asyncio.Task[Any] | None]:
        """The background tasks to cancel when the bot stops."""
