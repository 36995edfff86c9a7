"""Request bodies read against a byte budget (the rest of a too-big body is never read) and a
deadline (a body that trickles in is not waited for)."""

from __future__ import annotations

import asyncio

from starlette.requests import Request

from .refused import Refused

__all__ = ["BODY_SECONDS", "BodyTimeout", "BodyTooBig", "read_body"]

BODY_SECONDS = 10.0
"""How long a request body may take to arrive, by default."""


class BodyTooBig(Refused):
    """A request body over the budget (``size``: its announced length, if any; HTTP 413)."""

    def __init__(self, size: int | None) -> None:
        super().__init__("the request body is too big" + (f" ({size} bytes)" if size is not None else ""),
                         "too_big", status=413)
        self.size = size


class BodyTimeout(Refused):
    """A request body that did not all come in time (HTTP 408; the connection is closed)."""

    def __init__(self, seconds: float) -> None:
        super().__init__(f"the request body did not all arrive within {seconds:g} s: send it at once",
                         "body_timeout", status=408)


async def read_body(request: Request, limit: int, seconds: float = BODY_SECONDS) -> bytes:
    """The request body, read against a budget of ``limit`` bytes: a bigger one raises
    :class:`BodyTooBig` as soon as it is announced (``Content-Length``) or, when it is
    not, as soon as more than ``limit`` bytes came — the rest is never read.  A body not all
    come within ``seconds`` (0: no deadline) raises :class:`BodyTimeout`."""
    length = request.headers.get("content-length")
    if length is not None and length.strip().isdigit() and int(length) > limit:
        raise BodyTooBig(int(length))
    body = bytearray()

    async def read() -> None:
        async for chunk in request.stream():
            body.extend(chunk)
            if len(body) > limit:
                raise BodyTooBig(None)

    if not seconds:
        await read()
        return bytes(body)
    try:
        await asyncio.wait_for(read(), seconds)
    except TimeoutError:
        raise BodyTimeout(seconds) from None
    return bytes(body)
