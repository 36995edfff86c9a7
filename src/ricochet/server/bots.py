"""Running bots: a game's bot strategy (:meth:`ricochet.games.Game.make_bot`)
on a connection that speaks the protocol, like people.

The server seats its own bots on an in-process connection
(:func:`run_in_process_bot`); :func:`run_remote_bot` plays a seat of a
server over a real WebSocket.  The strategies themselves are the games'
(:meth:`ricochet.games.Game.make_bot`).
"""

from __future__ import annotations

import asyncio
import logging
import random
from typing import TYPE_CHECKING

from ..games import get_game
from .client import ClientError, InProcessTransport, RicochetClient
from .solving import SolverService

if TYPE_CHECKING:
    from .manager import RoomManager

__all__ = ["run_in_process_bot", "run_remote_bot"]

log = logging.getLogger("ricochet.server")


async def run_in_process_bot(manager: RoomManager, room_id: str, seat_token: str, level: str) -> None:
    """Run a bot of the server itself on an in-process connection to the room."""
    room = manager.rooms.get(room_id)
    if room is None:
        return
    client = RicochetClient(transport=InProcessTransport(manager, room_id))
    bot = room.game.make_bot(client, level, manager.solver.run, speed=manager.bot_speed,
                             rng=random.Random(manager.rng.random()))
    try:
        await client.connect()
        await bot.run(seat_token)
    except asyncio.CancelledError:
        raise
    except ClientError as e:
        log.info("bot in room %s stopped: %s", room_id, e)
    except Exception:
        log.exception("bot in room %s crashed", room_id)
    finally:
        await client.close()


async def run_remote_bot(url: str, seat_token: str, level: str, *, game: str = "ricochet-robots",
                         speed: float = 1.0) -> None:
    """Run a bot over a real WebSocket (``ws://host:port/ws/ROOM``), with its own solver."""
    solver = SolverService("thread")
    async with RicochetClient(url) as client:
        try:
            await get_game(game).make_bot(client, level, solver.run, speed=speed).run(seat_token)
        finally:
            solver.close()
