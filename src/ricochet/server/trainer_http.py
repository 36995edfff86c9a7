"""The trainer's HTTP plumbing, shared by its endpoints (puzzles, Puzzle Storm, records):
refusals as :class:`ApiError`, JSON bodies, query parameters checked with a precise
message, and :func:`endpoint`, which identifies the player by their cookie, applies a
rate limit, turns errors into answers and sets or removes the cookie."""

from __future__ import annotations

import datetime as _dt
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from .. import safejson
from ..errors import RicochetError
from ..trainer.puzzles import TrainerError, check_spec
from . import trainer_auth as A
from .bodies import BodyTooBig, read_body

if TYPE_CHECKING:
    from .limits import Buckets
    from .trainer_api import Trainer

__all__ = ["MAX_BODY", "ApiError", "bad", "body_of", "endpoint", "game_param", "int_param", "today"]

MAX_BODY = 16 * 1024


class ApiError(RicochetError):
    """A trainer request refused: the HTTP ``status``, the ``code`` and ``message`` of the
    answer's body, and headers to send with it (``Retry-After``)."""

    def __init__(self, status: int, code: str, message: str, headers: dict[str, str] | None = None) -> None:
        super().__init__(message, code)
        self.status, self.headers = status, headers


def bad(message: str, code: str = "bad_request") -> ApiError:
    """A 400 answer (the message names the field and says why)."""
    return ApiError(400, code, message)


def today(now: float) -> _dt.date:
    """The date in UTC at ``now`` (seconds since 1970)."""
    return _dt.datetime.fromtimestamp(now, _dt.UTC).date()


def game_param(request: Request) -> str:
    """The ``game`` query parameter (default the first game with puzzles' old default), checked."""
    game = request.query_params.get("game", "ricochet-robots")
    check_spec(game)
    return game


def int_param(request: Request, name: str) -> int | None:
    """A whole-number query parameter, or ``None`` when it is absent or empty."""
    raw = request.query_params.get(name)
    if raw is None or raw == "":
        return None
    try:
        return int(raw)
    except ValueError:
        raise bad(f"{name} must be a whole number, got {raw!r}") from None


async def body_of(request: Request) -> dict[str, Any]:
    """The request's JSON object (415 when it is not JSON, 413 past :data:`MAX_BODY`)."""
    # JSON only: a cross-site form cannot send it without the browser asking first (no CSRF by form).
    if request.headers.get("content-type", "").split(";")[0].strip() != "application/json":
        raise ApiError(415, "bad_request", "send the body as JSON (Content-Type: application/json)")
    try:
        body = await read_body(request, MAX_BODY)
    except BodyTooBig as e:
        size = f"{e.size} bytes" if e.size is not None else f"over {MAX_BODY} bytes"
        raise ApiError(413, "too_big", f"the request is {size}; at most {MAX_BODY}") from None
    try:
        data = safejson.loads(body) if body.strip() else {}
    except ValueError:
        raise bad("the body must be a JSON object") from None
    if not isinstance(data, dict):
        raise bad("the body must be a JSON object")
    return data


Handler = Callable[[Request, "Trainer", Any], Awaitable[dict[str, Any]]]


def endpoint(fn: Handler, *, create: bool = False,
             limit: Callable[[Trainer], Buckets] | None = None) -> Callable[[Request], Awaitable[Response]]:
    """A route's endpoint: ``fn(request, trainer, player)`` answers a JSON object.  ``create``:
    a request without a (valid) cookie makes an anonymous player; ``limit``: the trainer's
    rate limit (by client address) the request counts against (429 ``rate_limited``).  A
    ``_cookie`` or ``_logout`` key of the answer sets or removes the cookie."""

    async def handler(request: Request) -> Response:
        trainer: Trainer = request.app.state.trainer
        address = request.client.host if request.client is not None else "unknown"
        buckets = limit(trainer) if limit is not None else None
        if buckets is not None and not buckets.take(address):
            wait = max(1, round(buckets.wait(address)))
            return JSONResponse({"error": {"code": "rate_limited", "message": "too many puzzles asked for from "
                                           f"your address: try again in {wait} s"}},
                                status_code=429, headers={"Retry-After": str(wait)})
        try:
            player, cookie = await trainer.identify(request, create)
            data = await fn(request, trainer, player)
        except ApiError as e:
            return JSONResponse({"error": {"code": e.code, "message": e.message}}, status_code=e.status,
                                headers=e.headers)
        except TrainerError as e:
            return JSONResponse({"error": {"code": "bad_request", "message": str(e)}}, status_code=400)
        except TimeoutError:
            return JSONResponse({"error": {"code": "busy", "message": "the server is busy making puzzles; "
                                                                      "try again in a moment"}}, status_code=503)
        logout = data.pop("_logout", False)
        cookie = data.pop("_cookie", None) or cookie
        response = JSONResponse(data, headers={"Cache-Control": "no-store"})
        if logout:
            response.delete_cookie(A.COOKIE, path="/")
        elif cookie is not None:
            response.set_cookie(A.COOKIE, cookie, max_age=A.COOKIE_MAX_AGE, path="/", httponly=True,
                                samesite="lax", secure=request.url.scheme == "https")
        return response

    return handler
