"""Request bodies read against a byte budget (the rest of a too-big body is never read)."""

from __future__ import annotations

from starlette.requests import Request

from .refused import Refused

__all__ = ["BodyTooBig", "read_body"]


class BodyTooBig(Refused):
    """A request body over the budget (``size``: its announced length, if any; HTTP 413)."""

    def __init__(self, size: int | None) -> None:
        super().__init__("the request body is too big" + (f" ({size} bytes)" if size is not None else ""),
                         "too_big", status=413)
        self.size = size


async def read_body(request: Request, limit: int) -> bytes:
    """The request body, read against a budget of ``limit`` bytes: a bigger one raises
    :class:`BodyTooBig` as soon as it is announced (``Content-Length``) or, when it is
    not, as soon as more than ``limit`` bytes came — the rest is never read."""
    length = request.headers.get("content-length")
    if length is not None and length.strip().isdigit() and int(length) > limit:
        raise BodyTooBig(int(length))
    body = bytearray()
    async for chunk in request.stream():
        body += chunk
        if len(body) > limit:
            raise BodyTooBig(None)
    return bytes(body)
