"""The ASGI application: HTTP endpoints, the WebSocket, and the lifespan that
opens the database and starts the room manager.  See ``docs/protocol.md``.

Everything a client sends is bounded (:class:`~ricochet.server.limits.ServerLimits`):
request bodies are read against a byte budget, room creation and socket
messages are rate-limited, connections are counted per address, replays come
in pages built off the event loop.

>>> app = create_app("sqlite+aiosqlite:///:memory:")   # doctest: +SKIP
>>> # uvicorn.run(app)  — or: ricochet serve
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import logging
import time
from collections import OrderedDict
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from starlette.applications import Starlette
from starlette.datastructures import MutableHeaders
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import FileResponse, HTMLResponse, JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Message, Receive, Scope, Send
from starlette.websockets import WebSocket, WebSocketState

from .. import __version__, safejson
from ..games import GAMES, Game, get_game
from . import protocol as P
from .bodies import BodyTooBig, read_body
from .limits import ServerLimits
from .pacing import AddressPacing
from .refused import Refused
from .rooms import SEND_QUEUE, ConfigFactory, Room, RoomManager, Session, dumps, public_options
from .solving import SolverService
from .storage import EventRow, Storage
from .trainer_api import Trainer, TrainerOptions, trainer_routes

log = logging.getLogger("ricochet.server")

WEB_DIR = Path(__file__).resolve().parent.parent / "web"
PLACEHOLDER = """<!doctype html><meta charset="utf-8"><title>Ricochet</title>
<p>The ricochet server is running, but its web front end (<code>ricochet/web/index.html</code>) is missing.
The API is at <a href="/api/rooms">/api/rooms</a>; the protocol is described in docs/protocol.md.</p>"""

SECURITY_HEADERS = (
    ("content-security-policy", ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
                                 "connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; "
                                 "frame-ancestors 'none'")),
    ("x-content-type-options", "nosniff"),
    ("x-frame-options", "DENY"),
    ("referrer-policy", "no-referrer"),
)
"""On every HTTP answer: our own scripts and styles only, never in a frame, no referrer."""
HELLO_TIMEOUT_CODE = 4408
LOBBY_SECONDS = 1.0
"""How long one answer of ``GET /api/rooms`` (the lobby) is served before it is made again."""
REPLAY_STATES_KEPT = 32
"""Game states at the end of replay pages kept for the next page (so paging stays linear)."""


def _error(status: int, code: str, message: str, headers: dict[str, str] | None = None) -> JSONResponse:
    return JSONResponse({"error": {"code": code, "message": message}}, status_code=status, headers=headers)


def _refused(r: Refused) -> JSONResponse:
    headers = {"Retry-After": str(max(1, round(r.retry_after)))} if r.retry_after is not None else None
    return _error(r.status, r.code, r.message, headers)


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


def origin_allowed(origin: str | None, host: str | None, allowed: tuple[str, ...]) -> bool:
    """May a page of ``origin`` open our sockets?  No ``Origin`` (not a browser), the
    page's own host (``Host``), or one of ``allowed`` (``scheme://host[:port]``).

    >>> origin_allowed("http://localhost:8000", "localhost:8000", ())
    True
    >>> origin_allowed("https://evil.example", "localhost:8000", ())
    False
    """
    if origin is None:
        return True
    if origin.rstrip("/") in allowed:
        return True
    parts = urlsplit(origin)
    return parts.scheme in ("http", "https") and bool(parts.netloc) and parts.netloc == host


def client_address(conn: Request | WebSocket) -> str:
    return conn.client.host if conn.client is not None else "unknown"


def create_app(database_url: str | None = None, *, now: Callable[[], float] | None = None, realtime: bool = True,
               solver: SolverService | None = None, bot_speed: float = 1.0, bots: bool = True,
               config_factory: ConfigFactory | None = None, web_dir: Path | None = None,
               storage: Storage | None = None, rate: tuple[float, int] | None = None,
               limits: ServerLimits | None = None, allowed_origins: tuple[str, ...] = (),
               trainer: TrainerOptions | None = None) -> Starlette:
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
    trainer runs (its cookie secret, its background puzzle pool)."""
    web = web_dir or WEB_DIR
    limits = limits or ServerLimits()
    replay_slots = asyncio.Semaphore(limits.replay_workers)
    replay_states: OrderedDict[tuple[str, int, int], Any] = OrderedDict()

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        st = storage or await Storage.open(database_url)
        svc = solver or SolverService()
        manager = RoomManager(st, now=now or time.time, realtime=realtime, solver=svc, bot_speed=bot_speed,
                              bots=bots, config_factory=config_factory or P.config_for, rate=rate, limits=limits)
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

    def service_worker_text() -> str | None:
        """``web/sw.js`` headed by the list of files it keeps for offline use and a version that
        changes with them (a new version replaces the old cache); ``None`` without it."""
        source = web / "sw.js"
        if not source.is_file():
            return None
        files = sorted(p for p in web.rglob("*") if p.is_file() and p.suffix in (".js", ".css", ".html", ".svg")
                       and p.name != "sw.js" and "__pycache__" not in p.parts)
        digest = hashlib.sha256()
        for p in files:
            digest.update(p.relative_to(web).as_posix().encode() + b"\0" + p.read_bytes())
        assets = [f"/static/{p.relative_to(web).as_posix()}" for p in files if p.name != "index.html"]
        head = f"const VERSION = {json.dumps(digest.hexdigest()[:16])};\nconst ASSETS = {json.dumps(assets)};\n"
        return head + source.read_text()

    worker: list[str | None] = []  # made on first use: the web files do not change while the server runs

    async def service_worker(request: Request) -> Response:
        """The service worker (:func:`service_worker_text`); browsers ask for it on every visit."""
        if not worker:
            worker.append(service_worker_text())
        if worker[0] is None:
            return _error(404, "not_found", "no service worker in this build")
        return Response(worker[0], media_type="text/javascript", headers={"Cache-Control": "no-cache"})

    async def health(request: Request) -> Response:
        manager = manager_of(request)
        return JSONResponse({"ok": True, "protocol": P.PROTOCOL_VERSION, "version": __version__,
                             "rooms": len(manager.rooms), "connections": sum(manager.connections.values())})

    async def options(request: Request) -> Response:
        games = {name: {"title": g.title, "defaults": P.COMMON_OPTIONS | {"game": name} | dict(g.default_options),
                        "bot_levels": list(g.bot_levels)} for name, g in GAMES.items()}
        lim = manager_of(request).limits
        return JSONResponse({"protocol": P.PROTOCOL_VERSION, "defaults": P.DEFAULT_OPTIONS,
                             "bot_levels": list(get_game(P.DEFAULT_OPTIONS["game"]).bot_levels), "games": games,
                             "limits": P.Limits.to_dict() | {"rate_per_second": lim.message_rate,
                                                             "burst": lim.message_burst,
                                                             "body_bytes": lim.body_bytes}})

    lobby: list[Any] = [0.0, b""]  # [fresh until (monotonic), the answer]

    async def list_rooms(request: Request) -> Response:
        # Everyone gets the same lobby: made at most once per LOBBY_SECONDS, so a crowd (or a
        # flood) polling it costs what sending the bytes costs, not a summary of every room each.
        now = time.monotonic()
        if now >= lobby[0] or not realtime:  # (tests on a fake clock see every change at once)
            lobby[1] = json.dumps({"rooms": manager_of(request).public_rooms()}, separators=(",", ":")).encode()
            lobby[0] = now + LOBBY_SECONDS
        return Response(lobby[1], media_type="application/json")

    async def create_room(request: Request) -> Response:
        ctype = request.headers.get("content-type", "").split(";")[0].strip().lower()
        if ctype != "application/json":
            return _error(415, "bad_content_type", f"send the room options as JSON (Content-Type: application/json), "
                                                   f"not {ctype or 'no content type'}")
        try:
            body = await read_body(request, limits.body_bytes)
        except BodyTooBig as e:
            size = f"{e.size} bytes" if e.size is not None else f"over {limits.body_bytes} bytes"
            # Connection: close — the rest of the body is never read, not even to throw it away.
            return _error(413, "too_big", f"the request is {size}; at most {limits.body_bytes}",
                          {"Connection": "close"})
        try:
            raw = safejson.loads(body) if body.strip() else {}
        except json.JSONDecodeError as e:
            return _error(400, "bad_json", f"the body must be a JSON object of room options: {e.msg} "
                                           f"(at character {e.pos})")
        except ValueError:
            return _error(400, "bad_json", "the body must be a JSON object of room options in UTF-8")
        try:
            opts = P.normalize_options(raw)
        except P.OptionsError as e:
            return _error(400, "bad_options", str(e))
        try:
            room = await manager_of(request).create_room(opts, client_address(request))
        except Refused as r:
            return _refused(r)
        base = str(request.base_url).rstrip("/")
        ws = base.replace("http://", "ws://").replace("https://", "wss://")
        return JSONResponse({"room_id": room.id, "url": f"{base}/r/{room.id}", "ws": f"{ws}/ws/{room.id}",
                             "options": room.public_options()}, status_code=201)

    def no_room(room_id: str) -> JSONResponse:
        return _error(404, "no_room", f"there is no room {room_id}; check the link")

    async def room_of(request: Request) -> Room | Response:
        try:
            room = await manager_of(request).get_room(request.path_params["room_id"])
        except Refused as r:
            return _refused(r)
        return no_room(request.path_params["room_id"]) if room is None else room

    async def get_room(request: Request) -> Response:
        room = await room_of(request)
        if not isinstance(room, Room):
            return room
        return JSONResponse({**room.summary(), "version": room.version, "state": room.view(None)})

    async def room_events(request: Request) -> Response:
        manager = manager_of(request)
        rid = request.path_params["room_id"]
        room = manager.rooms.get(rid)
        row = room.row() if room is not None else await manager.room_row(rid)  # a replay does not load the room
        if row is None:
            return no_room(rid)
        games = row.game
        q = request.query_params
        try:
            game = int(q.get("game", games))
            after = int(q.get("after", 0))
            limit = int(q.get("limit", limits.replay_page))
        except ValueError:
            return _error(400, "bad_request", "game, after and limit must be whole numbers")
        if not 1 <= game <= games:
            return _error(404, "no_game", f"room {rid} has games 1 to {games}")
        if after < 0 or not 1 <= limit <= limits.replay_page:
            return _error(400, "bad_request", f"after must be 0 or more and limit from 1 to {limits.replay_page}")
        with_states = q.get("states") in ("1", "true", "yes")
        kind = get_game(row.game_name)
        storage = manager.storage
        page = await storage.events(rid, game, since=after, limit=limit + 1)
        more = len(page) > limit
        page = page[:limit]
        start: Any = None
        prefix: list[EventRow] = []
        if after > 0:
            start = replay_states.get((rid, game, after))
            while start is None:  # not the page after one we served: fold what comes before,
                more_rows = await storage.events(rid, game, since=prefix[-1].seq if prefix else 0, until=after,
                                                 limit=limits.replay_page)  # read a page at a time
                prefix += more_rows
                if len(more_rows) < limits.replay_page:
                    break
        meta = {"room_id": rid, "game": game, "game_name": kind.name, "games": games,
                "options": public_options(row), "after": after, "next": page[-1].seq if more else None}
        async with replay_slots:  # folding and encoding hundreds of states: in a thread, a few at a time
            body, end = await asyncio.to_thread(
                build_replay, kind, manager.config_factory(row.options, row.seed, game), start, prefix, page,
                with_states, meta)
        if page:
            replay_states[(rid, game, page[-1].seq)] = end
            while len(replay_states) > REPLAY_STATES_KEPT:
                replay_states.popitem(last=False)
        return Response(body, media_type="application/json")

    async def board_svg(request: Request) -> Response:
        room = await room_of(request)
        if not isinstance(room, Room):
            return room
        picture = room.game.picture(room.state)
        if picture is None:
            return _error(404, "not_started", "the game has not started: the board is drawn at the start")
        return Response(picture, media_type="image/svg+xml", headers={"Cache-Control": "no-store"})

    async def ws_endpoint(websocket: WebSocket) -> None:
        manager = manager_of(websocket)
        if not origin_allowed(websocket.headers.get("origin"), websocket.headers.get("host"), allowed_origins):
            # Another site's page in someone's browser: refused before the handshake completes.
            await websocket.close(1008, "origin not allowed")
            return
        address = client_address(websocket)
        refusal = manager.admit(address)
        await websocket.accept()
        if refusal is not None:
            await say_and_close(websocket, refusal.code, refusal.message, refusal.close_code or 1013)
            return
        try:
            await serve_socket(websocket, manager, address)
        finally:
            manager.release(address)

    async def say_and_close(websocket: WebSocket, code: str, message: str, close_code: int) -> None:
        with contextlib.suppress(Exception):
            await websocket.send_text(dumps(P.error_message(code, message)))
            await websocket.close(close_code, code)

    async def serve_socket(websocket: WebSocket, manager: RoomManager, address: str) -> None:
        rid = websocket.path_params["room_id"]
        try:
            room = await manager.get_room(rid)
        except Refused as r:
            await say_and_close(websocket, r.code, r.message, r.close_code or 1013)
            return
        if room is None:
            await say_and_close(websocket, "no_room", f"there is no room {rid}; check the link", 4404)
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

        session = Session(manager, room, send, close, address=address)  # no await since get_room: see unload

        async def writer() -> None:
            while True:
                item = await queue.get()
                if isinstance(item, tuple):
                    await websocket.close(*item)
                    return
                await websocket.send_text(item)

        loop = asyncio.get_running_loop()
        hello_by = loop.time() + limits.hello_seconds if limits.hello_seconds else None
        writing = asyncio.ensure_future(writer())
        reading: asyncio.Future[Message] | None = None
        try:
            while not writing.done():
                if reading is None:
                    reading = asyncio.ensure_future(websocket.receive())
                timeout = None if session.welcomed or hello_by is None else max(0.0, hello_by - loop.time())
                waiting: set[asyncio.Future[Any]] = {reading, writing}
                done, _ = await asyncio.wait(waiting, timeout=timeout, return_when=asyncio.FIRST_COMPLETED)
                if reading not in done:
                    if not done and not session.closed:  # no hello in time
                        session.error("hello_timeout", f"say hello within {limits.hello_seconds:g} s of connecting")
                        session.close(HELLO_TIMEOUT_CODE, "no hello")
                        hello_by = None
                    continue
                msg, reading = reading.result(), None
                if msg["type"] == "websocket.disconnect":
                    break
                data = msg.get("text")
                if data is None and msg.get("bytes") is not None:
                    data = msg["bytes"]
                if data is not None:
                    await session.receive(data)
                    pause = session.read_pause()
                    if pause > 0:  # over its rate: read on when it may send again (TCP holds the rest)
                        await asyncio.sleep(pause)
        except Exception as e:  # noqa: BLE001 - a socket that went away mid-read: a normal end
            log.debug("room %s: connection ended: %r", rid, e)
        finally:
            session.disconnect()
            if not writing.done():
                # let queued messages (an error before a close) go out, briefly
                with contextlib.suppress(TimeoutError, Exception):
                    await asyncio.wait_for(asyncio.shield(writing), 0.05)
            for task in (reading, writing):  # every outcome retrieved: nothing is logged for a normal end
                if task is not None:
                    task.cancel()
                    with contextlib.suppress(BaseException):
                        await task
            with contextlib.suppress(Exception):
                if websocket.client_state == WebSocketState.CONNECTED:
                    await websocket.close()

    async def http_error(request: Request, exc: Exception) -> Response:
        assert isinstance(exc, HTTPException)
        if exc.status_code == 404:
            return _error(404, "not_found", f"there is nothing at {request.url.path}: the API is described in "
                                            "docs/protocol.md")
        if exc.status_code == 405:
            allowed = (exc.headers or {}).get("Allow", "")
            return _error(405, "method_not_allowed", f"{request.method} is not allowed on {request.url.path}"
                                                     + (f"; allowed: {allowed}" if allowed else ""),
                          {"Allow": allowed} if allowed else None)
        return _error(exc.status_code, "http_error", exc.detail)

    async def server_error(request: Request, exc: Exception) -> Response:
        return _error(500, "server_error", "something went wrong on the server; nothing was changed")

    routes = [
        Route("/", index),
        Route("/r/{room_id}", index),
        Route("/train", index),
        Route("/train/{rest:path}", index),
        *trainer_routes(),
        Route("/sw.js", service_worker),
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
    app = Starlette(routes=routes, lifespan=lifespan,
                    exception_handlers={HTTPException: http_error, Exception: server_error})
    app.add_middleware(AddressPacing, limits=limits)  # outside the routing: a refusal costs little
    app.add_middleware(SecurityHeaders)
    return app


def build_replay(kind: Game, config: Any, start: Any, prefix: list[EventRow], page: list[EventRow],
                 with_states: bool, meta: dict[str, Any]) -> tuple[bytes, Any]:
    """One page of a game's log for a replay viewer, as JSON (and the state after it).

    Pure and thread-safe (states are immutable): run in a worker thread.  Every event is
    as everyone may see it (the game's ``public_event``).  With ``with_states`` the answer
    has ``state``, the spectator's full state before the page (``start``, or the game's
    start folded over ``prefix``), and each entry the state after its event *as socket
    event messages carry it* (the game's ``event_state``: keys that changed, heavy ones
    only when the event changed them), to be merged in turn — linear in the log, not
    quadratic."""
    state = start if start is not None else kind.new(config)
    for r in prefix if start is None else ():
        if r.payload["type"] != "game_reset":
            state = kind.evolve(state, kind.event_from_dict(r.payload))
    out = dict(meta)
    if with_states:
        out["state"] = kind.event_state(state, "game_reset")  # a complete state, as after a reset
        out["state"]["version"] = meta["after"]
    events = []
    for i, r in enumerate(page):
        if i % 32 == 31:
            time.sleep(0)  # let the event loop's thread have the interpreter lock now and then
        if r.payload["type"] == "game_reset":
            entry: dict[str, Any] = {"version": r.seq, "event": r.payload}
        else:
            event = kind.event_from_dict(r.payload)
            state = kind.evolve(state, event)
            entry = {"version": r.seq, "event": kind.public_event(event)}
        if with_states:
            entry["state"] = v = kind.event_state(state, r.payload["type"])
            v["version"] = r.seq
        events.append(entry)
    out["board"] = kind.view(state, None).get("board")
    out["events"] = events
    return dumps(out).encode(), state
