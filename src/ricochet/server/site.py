"""What the endpoints of one server share (:class:`Site`, at ``app.state.site``): where
the web front end is, the limits, and the small caches the answers keep (the lobby,
the service worker, replay states).  The room manager, the storage and the trainer
are ``app.state.manager``, ``app.state.storage`` and ``app.state.trainer``."""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from starlette.requests import Request
from starlette.websockets import WebSocket

from .limits import ServerLimits
from .manager import RoomManager

__all__ = ["REPLAY_STATES_KEPT", "Site", "client_address", "manager_of", "site_of"]

REPLAY_STATES_KEPT = 32
"""Game states at the end of replay pages kept for the next page (so paging stays linear)."""


@dataclass
class Site:
    """One server's settings and caches (see the module docstring)."""

    web: Path
    """The web front end's folder (the shell; each game's web folder is its own)."""
    limits: ServerLimits
    realtime: bool = True
    """False in tests with a fake clock: caches that expire with time are not kept."""
    allowed_origins: tuple[str, ...] = ()
    replay_slots: asyncio.Semaphore = field(init=False)
    """Replay pages folded at once (in threads)."""
    replay_states: OrderedDict[tuple[str, int, int], Any] = field(default_factory=OrderedDict)
    """The game state at the end of each recent replay page, by (room, game, last version)."""
    lobby: tuple[float, bytes] = (0.0, b"")
    """The lobby's answer and until when it is served (``time.monotonic``)."""
    worker: list[str | None] = field(default_factory=list)
    """The service worker's text, made on first use (the web files do not change while the server runs)."""

    def __post_init__(self) -> None:
        self.replay_slots = asyncio.Semaphore(self.limits.replay_workers)

    def keep_replay_state(self, key: tuple[str, int, int], state: Any) -> None:
        """Keep the state at the end of a replay page for the next page (the oldest go)."""
        self.replay_states[key] = state
        while len(self.replay_states) > REPLAY_STATES_KEPT:
            self.replay_states.popitem(last=False)


def site_of(conn: Request | WebSocket) -> Site:
    return conn.app.state.site  # type: ignore[no-any-return]


def manager_of(conn: Request | WebSocket) -> RoomManager:
    return conn.app.state.manager  # type: ignore[no-any-return]


def client_address(conn: Request | WebSocket) -> str:
    return conn.client.host if conn.client is not None else "unknown"
