"""The HTTP endpoints of the site, one plain function each (``docs/protocol.md``): the
pages, the service worker, health, options, the lobby, room creation, a room's state,
its replay and its picture, and the JSON answers of HTTP errors.  Each reads what it
needs from the request's app (:mod:`.site`)."""

from __future__ import annotations

import asyncio
import hashlib
import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import FileResponse, HTMLResponse, JSONResponse, Response

from .. import __version__, safejson
from ..games import GAMES, get_game
from . import protocol as P
from .bodies import BodyTooBig, read_body
from .refused import Refused
from .replay import build_replay
from .room import Room, public_options
from .site import client_address, manager_of, site_of
from .storage import EventRow

__all__ = [
    "board_svg",
    "create_room",
    "game_folders",
    "games_index",
    "get_room",
    "health",
    "http_error",
    "index",
    "list_rooms",
    "options",
    "refused_error",
    "room_events",
    "server_error",
    "service_worker",
    "service_worker_text",
]

PLACEHOLDER = """<!doctype html><meta charset="utf-8"><title>Ricochet</title>
<p>The ricochet server is running, but its web front end (<code>ricochet/web/index.html</code>) is missing.
The API is at <a href="/api/rooms">/api/rooms</a>; the protocol is described in docs/protocol.md.</p>"""
LOBBY_SECONDS = 1.0
"""How long one answer of ``GET /api/rooms`` (the lobby) is served before it is made again."""


def error(status: int, code: str, message: str, headers: dict[str, str] | None = None) -> JSONResponse:
    """The JSON answer of a refused request: ``{"error": {"code", "message"}}``."""
    return JSONResponse({"error": {"code": code, "message": message}}, status_code=status, headers=headers)


def refused(r: Refused) -> JSONResponse:
    """A :class:`Refused` as an HTTP answer (``Retry-After`` when waiting helps)."""
    headers = {"Retry-After": str(max(1, round(r.retry_after)))} if r.retry_after is not None else None
    return error(r.status, r.code, r.message, headers)


def no_room(room_id: str) -> JSONResponse:
    return error(404, "no_room", f"there is no room {room_id}; check the link")


# -- pages ----------------------------------------------------------------------------------------
async def index(request: Request) -> Response:
    """The one page of the site (every route of the front end)."""
    page = site_of(request).web / "index.html"
    if page.is_file():
        return FileResponse(page, media_type="text/html")
    return HTMLResponse(PLACEHOLDER)


def game_folders() -> list[tuple[str, Path]]:
    """Every game with a web module: its name and web folder (served at ``/static/games/<name>/``)."""
    return [(name, game.web_dir) for name, game in GAMES.items() if game.web_dir is not None]


def _static_files(request: Request) -> Iterator[tuple[str, Path]]:
    """The front end's files for offline use: their URLs and paths (the shell's, every game's)."""
    web = site_of(request).web
    folders = [("/static", web), *((f"/static/games/{name}", folder) for name, folder in game_folders())]
    for prefix, folder in folders:
        for p in sorted(folder.rglob("*")):
            if p.is_file() and p.suffix in (".js", ".css", ".html", ".svg") and p.name != "sw.js" \
                    and "__pycache__" not in p.parts:
                yield f"{prefix}/{p.relative_to(folder).as_posix()}", p


def service_worker_text(request: Request) -> str | None:
    """``web/sw.js`` headed by the list of files it keeps for offline use (the shell's, every
    game's, and the list of games) and a version that changes with them (a new version
    replaces the old cache); ``None`` without it."""
    source = site_of(request).web / "sw.js"
    if not source.is_file():
        return None
    files = list(_static_files(request))
    digest = hashlib.sha256()
    for url, p in files:
        digest.update(url.encode() + b"\0" + p.read_bytes())
    digest.update(json.dumps(games_list()).encode())
    assets = [url for url, p in files if p.name != "index.html"] + ["/static/games/index.json"]
    head = f"const VERSION = {json.dumps(digest.hexdigest()[:16])};\nconst ASSETS = {json.dumps(assets)};\n"
    return head + source.read_text()


def games_list() -> list[dict[str, Any]]:
    """The games of the web shell, in the lobby's order: name and bot levels."""
    return [{"name": name, "bot_levels": list(GAMES[name].bot_levels)} for name, _ in game_folders()]


async def games_index(request: Request) -> Response:
    """``/static/games/index.json``: which games the web shell loads (:func:`games_list`)."""
    return JSONResponse({"games": games_list()})


async def service_worker(request: Request) -> Response:
    """The service worker (:func:`service_worker_text`); browsers ask for it on every visit."""
    worker = site_of(request).worker
    if not worker:
        worker.append(service_worker_text(request))
    if worker[0] is None:
        return error(404, "not_found", "no service worker in this build")
    return Response(worker[0], media_type="text/javascript", headers={"Cache-Control": "no-cache"})


# -- the API ---------------------------------------------------------------------------------------------
async def health(request: Request) -> Response:
    manager = manager_of(request)
    return JSONResponse({"ok": True, "protocol": P.PROTOCOL_VERSION, "version": __version__,
                         "rooms": len(manager.rooms), "connections": sum(manager.connections.values())})


async def options(request: Request) -> Response:
    """The protocol version, every game's options and bot levels, the limits."""
    games = {name: {"title": g.title, "defaults": P.COMMON_OPTIONS | {"game": name} | dict(g.default_options),
                    "bot_levels": list(g.bot_levels)} for name, g in GAMES.items()}
    lim = manager_of(request).limits
    return JSONResponse({"protocol": P.PROTOCOL_VERSION, "defaults": P.DEFAULT_OPTIONS,
                         "bot_levels": list(get_game(P.DEFAULT_OPTIONS["game"]).bot_levels), "games": games,
                         "limits": P.Limits.to_dict() | {"rate_per_second": lim.message_rate,
                                                         "burst": lim.message_burst,
                                                         "body_bytes": lim.body_bytes}})


async def list_rooms(request: Request) -> Response:
    """The lobby.  Everyone gets the same: made at most once per :data:`LOBBY_SECONDS`, so a
    crowd (or a flood) polling it costs what sending the bytes costs, not a summary of every
    room each."""
    site = site_of(request)
    now = time.monotonic()
    if now >= site.lobby[0] or not site.realtime:  # (tests on a fake clock see every change at once)
        answer = P.dumpb({"rooms": await manager_of(request).lobby_rooms()})
        site.lobby = (now + LOBBY_SECONDS, answer)
    return Response(site.lobby[1], media_type="application/json")


async def create_room(request: Request) -> Response:
    limits = site_of(request).limits
    ctype = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if ctype != "application/json":
        return error(415, "bad_content_type", f"send the room options as JSON (Content-Type: application/json), "
                                              f"not {ctype or 'no content type'}")
    try:
        body = await read_body(request, limits.body_bytes, limits.body_seconds)
    except BodyTooBig as e:
        size = f"{e.size} bytes" if e.size is not None else f"over {limits.body_bytes} bytes"
        # Connection: close — the rest of the body is never read, not even to throw it away.
        return error(413, "too_big", f"the request is {size}; at most {limits.body_bytes}", {"Connection": "close"})
    try:
        raw = safejson.loads(body) if body.strip() else {}
    except json.JSONDecodeError as e:
        return error(400, "bad_json", f"the body must be a JSON object of room options: {e.msg} "
                                      f"(at character {e.pos})")
    except ValueError:
        return error(400, "bad_json", "the body must be a JSON object of room options in UTF-8")
    try:
        opts = P.normalize_options(raw)
    except P.OptionsError as e:
        return error(400, "bad_options", str(e))
    try:
        room = await manager_of(request).create_room(opts, client_address(request))
    except Refused as r:
        return refused(r)
    base = str(request.base_url).rstrip("/")
    ws = base.replace("http://", "ws://").replace("https://", "wss://")
    return JSONResponse({"room_id": room.id, "url": f"{base}/r/{room.id}", "ws": f"{ws}/ws/{room.id}",
                         "options": room.public_options()}, status_code=201)


async def room_of(request: Request) -> Room | Response:
    """The room of the path (loaded if needed), or the answer that says why not."""
    try:
        room = await manager_of(request).get_room(request.path_params["room_id"])
    except Refused as r:
        return refused(r)
    return no_room(request.path_params["room_id"]) if room is None else room


async def get_room(request: Request) -> Response:
    room = await room_of(request)
    if not isinstance(room, Room):
        return room
    return JSONResponse({**room.summary(), "version": room.version, "state": room.view(None)})


async def room_events(request: Request) -> Response:
    """A page of a game's log for a replay (:func:`~.replay.build_replay`); a replay does
    not load the room."""
    site, manager = site_of(request), manager_of(request)
    limits = site.limits
    rid = request.path_params["room_id"]
    room = manager.rooms.get(rid)
    row = room.row() if room is not None else await manager.room_row(rid)
    if row is None:
        return no_room(rid)
    games = row.game
    q = request.query_params
    try:
        number = int(q.get("game", games))
        after = int(q.get("after", 0))
        limit = int(q.get("limit", limits.replay_page))
    except ValueError:
        return error(400, "bad_request", "game, after and limit must be whole numbers")
    if not 1 <= number <= games:
        return error(404, "no_game", f"room {rid} has games 1 to {games}")
    if after < 0 or not 1 <= limit <= limits.replay_page:
        return error(400, "bad_request", f"after must be 0 or more and limit from 1 to {limits.replay_page}")
    with_states = q.get("states") in ("1", "true", "yes")
    game = get_game(row.game_name)
    storage = manager.storage
    page = await storage.events(rid, number, since=after, limit=limit + 1)
    more = len(page) > limit
    page = page[:limit]
    start: Any = None
    prefix: list[EventRow] = []
    if after > 0:
        start = site.replay_states.get((rid, number, after))
        while start is None:  # not the page after one we served: fold what comes before,
            more_rows = await storage.events(rid, number, since=prefix[-1].seq if prefix else 0, until=after,
                                             limit=limits.replay_page)  # read a page at a time
            prefix += more_rows
            if len(more_rows) < limits.replay_page:
                break
    meta = {"room_id": rid, "game": number, "game_name": game.name, "games": games,
            "options": public_options(row), "after": after, "next": page[-1].seq if more else None}
    async with site.replay_slots:  # folding and encoding hundreds of states: in a thread, a few at a time
        body, end = await asyncio.to_thread(
            build_replay, game, manager.config_factory(row.options, row.seed, number), start, prefix, page,
            with_states, meta)
    if page:
        site.keep_replay_state((rid, number, page[-1].seq), end)
    return Response(body, media_type="application/json")


async def board_svg(request: Request) -> Response:
    room = await room_of(request)
    if not isinstance(room, Room):
        return room
    picture = room.game.picture(room.state)
    if picture is None:
        return error(404, "not_started", "the game has not started: the board is drawn at the start")
    return Response(picture, media_type="image/svg+xml", headers={"Cache-Control": "no-store"})


# -- errors ----------------------------------------------------------------------------------------------
async def http_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, HTTPException)
    if exc.status_code == 404:
        return error(404, "not_found", f"there is nothing at {request.url.path}: the API is described in "
                                       "docs/protocol.md")
    if exc.status_code == 405:
        allowed = (exc.headers or {}).get("Allow", "")
        return error(405, "method_not_allowed", f"{request.method} is not allowed on {request.url.path}"
                                                + (f"; allowed: {allowed}" if allowed else ""),
                     {"Allow": allowed} if allowed else None)
    return error(exc.status_code, "http_error", exc.detail)


async def refused_error(request: Request, exc: Exception) -> Response:
    """A :class:`Refused` raised by an endpoint: its JSON answer (a body too slow: 408, and the
    connection closed)."""
    assert isinstance(exc, Refused)
    answer = refused(exc)
    if exc.status in (408, 413):
        answer.headers["Connection"] = "close"
    return answer


async def server_error(request: Request, exc: Exception) -> Response:
    return error(500, "server_error", "something went wrong on the server; nothing was changed")
