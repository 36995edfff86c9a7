"""The ASGI application: HTTP endpoints, the WebSocket, and the lifespan that
opens the database and resumes the rooms.  See ``docs/protocol.md``.

>>> app = create_app("sqlite+aiosqlite:///:memory:")   # doctest: +SKIP
>>> # uvicorn.run(app)  — or: ricochet serve
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import FileResponse, HTMLResponse, JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect, WebSocketState

from .. import __version__
from ..games import GAMES
from . import protocol as P
from .rooms import SEND_QUEUE, ConfigFactory, Room, RoomManager, Session
from .solving import SolverService
from .storage import Storage
from .trainer_api import Trainer, TrainerOptions, trainer_routes

log = logging.getLogger("ricochet.server")

WEB_DIR = Path(__file__).resolve().parent.parent / "web"
PLACEHOLDER = """<!doctype html><meta charset="utf-8"><title>Ricochet</title>
<p>The ricochet server is running, but its web front end (<code>ricochet/web/index.html</code>) is missing.
The API is at <a href="/api/rooms">/api/rooms</a>; the protocol is described in docs/protocol.md.</p>"""


def _error(status: int, code: str, message: str) -> JSONResponse:
    return JSONResponse({"error": {"code": code, "message": message}}, status_code=status)


def create_app(database_url: str | None = None, *, now: Callable[[], float] | None = None, realtime: bool = True,
               solver: SolverService | None = None, bot_speed: float = 1.0, bots: bool = True,
               config_factory: ConfigFactory | None = None, web_dir: Path | None = None,
               storage: Storage | None = None,
               rate: tuple[float, int] = (P.RATE_PER_SECOND, P.RATE_BURST),
               trainer: TrainerOptions | None = None) -> Starlette:
    """The server application.

    ``database_url``: SQLAlchemy URL (default: a SQLite file in the user's data
    directory, see :func:`storage.default_database_url`).  ``now``: the clock
    (tests inject a fake one, together with ``realtime=False``, and call
    ``app.state.manager.tick_all()``).  ``solver``: where optimal solutions
    are computed (default: a worker process).  ``bot_speed`` scales the bots'
    delays.  ``config_factory(options, seed, game)`` builds each game's
    configuration (tests use small boards).  ``rate``: per-connection messages
    per second and burst.  ``trainer``: how the solo trainer runs (its cookie
    secret, its background puzzle pool)."""
    web = web_dir or WEB_DIR

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        st = storage or await Storage.open(database_url)
        svc = solver or SolverService()
        manager = RoomManager(st, now=now or time.time, realtime=realtime, solver=svc, bot_speed=bot_speed,
                              bots=bots, config_factory=config_factory or P.config_for, rate=rate)
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

    def manager_of(request: Request | WebSocket) -> RoomManager:
        return request.app.state.manager  # type: ignore[no-any-return]

    async def index(request: Request) -> Response:
        page = web / "index.html"
        if page.is_file():
            return FileResponse(page, media_type="text/html")
        return HTMLResponse(PLACEHOLDER)

    async def health(request: Request) -> Response:
        return JSONResponse({"ok": True, "protocol": P.PROTOCOL_VERSION, "version": __version__})

    async def options(request: Request) -> Response:
        games = {name: {"title": g.title, "defaults": P.COMMON_OPTIONS | {"game": name} | dict(g.default_options),
                        "bot_levels": list(g.bot_levels)} for name, g in GAMES.items()}
        return JSONResponse({"protocol": P.PROTOCOL_VERSION, "defaults": P.DEFAULT_OPTIONS,
                             "bot_levels": list(P.BOT_LEVELS), "games": games, "limits": P.Limits.to_dict()})

    async def list_rooms(request: Request) -> Response:
        return JSONResponse({"rooms": manager_of(request).public_rooms()})

    async def create_room(request: Request) -> Response:
        body = await request.body()
        if len(body) > P.MAX_BODY_BYTES:
            return _error(413, "too_big", f"the request is {len(body)} bytes; at most {P.MAX_BODY_BYTES}")
        try:
            raw = json.loads(body) if body.strip() else {}
        except ValueError:
            return _error(400, "bad_options", "the body must be a JSON object of room options")
        try:
            opts = P.normalize_options(raw)
        except P.OptionsError as e:
            return _error(400, "bad_options", str(e))
        room = await manager_of(request).create_room(opts)
        base = str(request.base_url).rstrip("/")
        ws = base.replace("http://", "ws://").replace("https://", "wss://")
        return JSONResponse({"room_id": room.id, "url": f"{base}/r/{room.id}", "ws": f"{ws}/ws/{room.id}",
                             "options": room.public_options()}, status_code=201)

    async def room_of(request: Request) -> Room | Response:
        room = await manager_of(request).get_room(request.path_params["room_id"])
        if room is None:
            return _error(404, "no_room", f"there is no room {request.path_params['room_id']}; check the link")
        return room

    async def get_room(request: Request) -> Response:
        room = await room_of(request)
        if not isinstance(room, Room):
            return room
        return JSONResponse({**room.summary(), "version": room.version, "state": room.view(None)})

    async def room_events(request: Request) -> Response:
        room = await room_of(request)
        if not isinstance(room, Room):
            return room
        try:
            game = int(request.query_params.get("game", room.game))
        except ValueError:
            return _error(400, "bad_request", "game must be a game number")
        if not 1 <= game <= room.game:
            return _error(404, "no_game", f"room {room.id} has games 1 to {room.game}")
        with_states = request.query_params.get("states") in ("1", "true", "yes")
        rows = await manager_of(request).storage.events(room.id, game)
        return JSONResponse(replay(room, game, rows, with_states))

    async def board_svg(request: Request) -> Response:
        room = await room_of(request)
        if not isinstance(room, Room):
            return room
        picture = room.kind.picture(room.state)
        if picture is None:
            return _error(404, "not_started", "the game has not started: the board is drawn at the start")
        return Response(picture, media_type="image/svg+xml", headers={"Cache-Control": "no-store"})

    async def ws_endpoint(websocket: WebSocket) -> None:
        await websocket.accept()
        manager = manager_of(websocket)
        room = await manager.get_room(websocket.path_params["room_id"])
        if room is None:
            await websocket.send_text(json.dumps(P.error_message(
                "no_room", f"there is no room {websocket.path_params['room_id']}; check the link")))
            await websocket.close(4404, "no such room")
            return
        queue: asyncio.Queue[str | tuple[int, str]] = asyncio.Queue(maxsize=SEND_QUEUE)

        def send(text: str) -> bool:
            try:
                queue.put_nowait(text)
                return True
            except asyncio.QueueFull:
                return False

        def close(code: int, reason: str) -> None:
            with contextlib.suppress(asyncio.QueueFull):
                queue.put_nowait((code, reason))

        session = Session(manager, room, send, close)

        async def writer() -> None:
            while True:
                item = await queue.get()
                if isinstance(item, tuple):
                    await websocket.close(*item)
                    return
                await websocket.send_text(item)

        writing = asyncio.ensure_future(writer())
        try:
            while not writing.done():
                reading = asyncio.ensure_future(websocket.receive())
                done, _ = await asyncio.wait({reading, writing}, return_when=asyncio.FIRST_COMPLETED)
                if reading not in done:
                    reading.cancel()
                    break
                msg = reading.result()
                if msg["type"] == "websocket.disconnect":
                    break
                data = msg.get("text")
                if data is None and msg.get("bytes") is not None:
                    data = msg["bytes"]
                if data is not None:
                    await session.receive(data)
        except (WebSocketDisconnect, RuntimeError):
            pass
        finally:
            session.disconnect()
            if not writing.done():
                # let queued messages (an error before a close) go out, briefly
                with contextlib.suppress(TimeoutError, Exception):
                    await asyncio.wait_for(asyncio.shield(writing), 0.05)
                writing.cancel()
                with contextlib.suppress(BaseException):
                    await writing
            with contextlib.suppress(Exception):
                if websocket.client_state == WebSocketState.CONNECTED:
                    await websocket.close()

    routes = [
        Route("/", index),
        Route("/r/{room_id}", index),
        Route("/train", index),
        Route("/train/{rest:path}", index),
        *trainer_routes(),
        Route("/api/health", health),
        Route("/api/options", options),
        Route("/api/rooms", list_rooms, methods=["GET"]),
        Route("/api/rooms", create_room, methods=["POST"]),
        Route("/api/rooms/{room_id}", get_room),
        Route("/api/rooms/{room_id}/events", room_events),
        Route("/api/rooms/{room_id}/board.svg", board_svg),
        WebSocketRoute("/ws/{room_id}", ws_endpoint),
    ]
    if web.is_dir():
        routes.append(Mount("/static", app=StaticFiles(directory=web), name="static"))
    return Starlette(routes=routes, lifespan=lifespan)


def replay(room: Room, game: int, rows: list[Any], with_states: bool) -> dict[str, Any]:
    """The log of one game of a room, for a replay viewer (``GET /api/rooms/{id}/events``):
    every event as everyone may see it, and with ``states`` the spectator's state after it."""
    kind = room.kind
    config = room.manager.config_factory(room.options, room.seed, game)
    state = kind.new(config)
    events = []
    for r in rows:
        if r.payload["type"] == "game_reset":
            entry: dict[str, Any] = {"version": r.seq, "event": r.payload}
        else:
            event = kind.event_from_dict(r.payload)
            state = kind.evolve(state, event)
            entry = {"version": r.seq, "event": kind.public_event(event)}
        if with_states:
            v = kind.view(state, None)
            v["version"] = r.seq
            v.pop("you", None)
            if v.get("round") is not None:
                v["round"].pop("your_bid", None)
            entry["state"] = v
        events.append(entry)
    return {"room_id": room.id, "game": game, "game_name": kind.name, "games": room.game,
            "options": room.public_options(), "board": kind.view(state, None).get("board"), "events": events}
