"""The ASGI application: its routes (the HTTP endpoints of :mod:`.endpoints`, the
trainer's, the WebSocket of :mod:`.sockets`, the static files), its middleware, and
the lifespan that opens the database and starts the room manager.  See
``docs/protocol.md``.

Everything a client sends is bounded (:class:`~ricochet.server.limits.ServerLimits`):
request bodies are read against a byte budget, room creation and socket
messages are rate-limited, connections are counted per address, replays come
in pages built off the event loop.

>>> app = create_app("sqlite+aiosqlite:///:memory:")   # doctest: +SKIP
>>> # uvicorn.run(app)  — or: ricochet serve
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import AsyncIterator, Callable
from pathlib import Path

from starlette.applications import Starlette
from starlette.datastructures import MutableHeaders
from starlette.exceptions import HTTPException
from starlette.routing import BaseRoute, Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from . import endpoints as E
from . import protocol as P
from .cluster import Cluster
from .frames import KeepRawSend
from .hosts import HostCheck
from .limits import ServerLimits
from .manager import ConfigFactory, RoomManager
from .pacing import AddressPacing
from .refused import Refused
from .site import Site
from .sockets import ws_endpoint
from .solving import SolverService
from .storage import Storage
from .trainer_api import Trainer, TrainerOptions, trainer_routes

__all__ = ["SECURITY_HEADERS", "WEB_DIR", "SecurityHeaders", "create_app", "routes"]

WEB_DIR = Path(__file__).resolve().parent.parent / "web"
SECURITY_HEADERS = (
    ("content-security-policy", ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
                                 "connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; "
                                 "frame-ancestors 'none'")),
    ("x-content-type-options", "nosniff"),
    ("x-frame-options", "DENY"),
    ("referrer-policy", "no-referrer"),
)
"""On every HTTP answer: our own scripts and styles only, never in a frame, no referrer."""


class SecurityHeaders:
    """ASGI middleware: :data:`SECURITY_HEADERS` on every HTTP answer (unless already set)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = MutableHeaders(scope=message)
                for name, value in SECURITY_HEADERS:
                    headers.setdefault(name, value)
            await send(message)

        await self.app(scope, receive, send_with_headers)


def routes(web: Path) -> list[BaseRoute]:
    """Every route of the site: the pages, the API, the trainer's, the socket, the static files
    (the shell's, and each game's web folder at ``/static/games/<name>/``)."""
    out: list[BaseRoute] = [
        Route("/", E.index),
        Route("/r/{room_id}", E.index),
        Route("/train", E.index),
        Route("/train/{rest:path}", E.index),
        *trainer_routes(),
        Route("/sw.js", E.service_worker),
        Route("/api/health", E.health),
        Route("/api/options", E.options),
        Route("/api/rooms", E.list_rooms, methods=["GET"]),
        Route("/api/rooms", E.create_room, methods=["POST"]),
        Route("/api/rooms/{room_id}", E.get_room),
        Route("/api/rooms/{room_id}/events", E.room_events),
        Route("/api/rooms/{room_id}/board.svg", E.board_svg),
        WebSocketRoute("/ws/{room_id}", ws_endpoint),
        Route("/static/games/index.json", E.games_index),
    ]
    # Each game's own web folder (wherever its package is), before the shell's files.
    for name, folder in E.game_folders():
        out.append(Mount(f"/static/games/{name}", app=StaticFiles(directory=folder), name=f"game-{name}"))
    if web.is_dir():
        out.append(Mount("/static", app=StaticFiles(directory=web), name="static"))
    return out


def create_app(database_url: str | None = None, *, now: Callable[[], float] | None = None, realtime: bool = True,
               solver: SolverService | None = None, bot_speed: float = 1.0, bots: bool = True,
               config_factory: ConfigFactory | None = None, web_dir: Path | None = None,
               storage: Storage | None = None, rate: tuple[float, int] | None = None,
               limits: ServerLimits | None = None, allowed_origins: tuple[str, ...] = (),
               trainer: TrainerOptions | None = None, cluster_name: str | None = None,
               allowed_hosts: tuple[str, ...] | None = None) -> Starlette:
    """The server application.

    ``database_url``: SQLAlchemy URL (default: a SQLite file in the user's data
    directory, see :func:`storage.default_database_url`).  ``now``: the clock
    (tests inject a fake one, together with ``realtime=False``, and call
    ``app.state.manager.tick_all()``).  ``solver``: where optimal solutions
    are computed (default: a worker process).  ``bot_speed`` scales the bots'
    delays.  ``config_factory(options, seed, game)`` builds each game's
    configuration (tests use small boards).  ``limits``: what the server
    accepts (default :class:`ServerLimits`); ``rate`` overrides its per-seat
    message rate and burst.  ``allowed_origins``: pages of other origins
    (``https://example.org``) that may open sockets, besides the server's own.  ``trainer``: how the solo
    trainer runs (its cookie secret, its background puzzle pool).  ``cluster_name``: this
    process is the worker of that name in a cluster sharing the database (:mod:`.cluster`).
    ``allowed_hosts``: the names the site answers to besides IP addresses and ``localhost``
    (the ``Host`` header: :class:`.hosts.HostCheck`; ``ricochet serve`` always checks it;
    ``None``: any name)."""
    web = web_dir or WEB_DIR
    limits = limits or ServerLimits()

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        st = storage or await Storage.open(database_url)
        svc = solver or SolverService()
        cluster = Cluster(st, cluster_name) if cluster_name else None
        manager = RoomManager(st, now=now or time.time, realtime=realtime, solver=svc, bot_speed=bot_speed,
                              bots=bots, config_factory=config_factory or P.config_for, rate=rate, limits=limits,
                              cluster=cluster)
        app.state.manager = manager
        app.state.storage = st
        app.state.trainer = Trainer(st, svc, now or time.time, trainer, real_worker=solver is None)
        if solver is None:
            svc.warm_up()
        await manager.start()
        await app.state.trainer.start()
        try:
            yield
        finally:
            await app.state.trainer.close()
            await manager.close()
            svc.close()
            if storage is None:
                await st.close()

    app = Starlette(routes=routes(web), lifespan=lifespan,
                    exception_handlers={HTTPException: E.http_error, Refused: E.refused_error,
                                                          Exception: E.server_error})
    app.state.site = Site(web, limits, realtime=realtime, allowed_origins=allowed_origins)
    app.add_middleware(AddressPacing, limits=limits)  # outside the routing: a refusal costs little
    app.add_middleware(SecurityHeaders)
    if allowed_hosts is not None:  # (in-process tests name their server "testserver")
        app.add_middleware(HostCheck, allowed=allowed_hosts)  # before anything else reads the request
    app.add_middleware(KeepRawSend)  # the outermost: each socket's own send, for writing frames directly
    return app
