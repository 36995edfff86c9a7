"""What every bot of the site does with its seat: take it, then react to each
event and sync of its connection until it closes (or the bot is cancelled).
A game's bot says how it reacts (:meth:`SeatBot.look`) and which background
tasks it runs (:meth:`SeatBot.tasks`, cancelled when it stops)."""

from __future__ import annotations

import abc
import asyncio
from typing import Any

from .interface import BotClient

__all__ = ["SeatBot"]


class SeatBot(abc.ABC):
    """A bot on one seat; ``speed`` scales its delays (0: none, for tests)."""

    def __init__(self, client: BotClient, speed: float = 1.0) -> None:
        self.client = client
        self.speed = speed
        self.me: str | None = None

    async def sleep(self, seconds: float) -> None:
        if self.speed > 0 and seconds > 0:
            await asyncio.sleep(seconds * self.speed)

    async def run(self, seat_token: str) -> None:
        """Take the seat and play until the connection closes or the task is cancelled."""
        welcome = await self.client.hello(seat_token=seat_token)
        self.me = welcome["you"]["player"]
        try:
            self.look(None)
            async for msg in self.client:
                if msg["type"] in ("event", "sync"):
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
