"""The multiplayer server: an ASGI app (Starlette) with rooms, a lobby, bots and
an event-sourced database (SQLAlchemy async; SQLite or PostgreSQL).

* :mod:`.app` — :func:`create_app`, HTTP endpoints and the WebSocket.
* :mod:`.protocol` — protocol v2 (``docs/protocol.md``): validation, message limits, room options.
* :mod:`.limits` — what a server accepts from whom (rates, rooms, connections), and the rate buckets.
* :mod:`.room` — a room (state = fold of the log); :mod:`.session` — one connection;
  :mod:`.manager` — the rooms in use (loaded on use), connections, the server's bots.
* :mod:`.refused` — the server's refusals.
* :mod:`.storage` — the database and its migrations.
* :mod:`.bots` — solver-backed bots; :mod:`.client` — the Python client.
"""

from __future__ import annotations

from typing import Any

__all__ = ["PROTOCOL_VERSION", "ClientError", "RicochetClient", "create_app"]


def __getattr__(name: str) -> Any:
    # Lazy: ``ricochet --help`` must not import Starlette and SQLAlchemy.
    if name == "create_app":
        from .app import create_app
        return create_app
    if name in ("ClientError", "RicochetClient"):
        from . import client
        return getattr(client, name)
    if name == "PROTOCOL_VERSION":
        from .protocol import PROTOCOL_VERSION
        return PROTOCOL_VERSION
    raise AttributeError(name)
