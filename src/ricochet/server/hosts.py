"""Which names the site answers to (the ``Host`` header), against DNS rebinding.

A page of ``evil.example`` whose name is made to resolve to the server's address (DNS
rebinding) reaches the server as a page of its own origin: its requests and sockets say
``Host: evil.example`` and ``Origin: http://evil.example``, which the origin check alone
cannot tell from the site's own.  So the server answers only to its own names: IP addresses
(no rebinding goes through one), ``localhost``, and the names given with ``ricochet serve
--allowed-host`` (the public name of a deployment).  Anything else is refused before routing:
HTTP 421 with a JSON error, a socket's handshake closed (403).

>>> host_allowed("127.0.0.1:8000", ())
True
>>> host_allowed("[::1]:8000", ())
True
>>> host_allowed("localhost", ())
True
>>> host_allowed("evil.example:8000", ())
False
>>> host_allowed("Play.Example.org", ("play.example.org",))
True
>>> host_allowed(None, ())
False
"""

from __future__ import annotations

import ipaddress
import json

from starlette.types import ASGIApp, Receive, Scope, Send

__all__ = ["HostCheck", "host_allowed"]


def _name(host: str) -> str:
    """The name of a ``Host`` header without its port, lower case, brackets of IPv6 removed."""
    host = host.strip().lower()
    if host.startswith("["):
        return host[1:].split("]", 1)[0]
    if host.count(":") == 1:
        host = host.split(":", 1)[0]
    return host.rstrip(".")


def host_allowed(host: str | None, allowed: tuple[str, ...]) -> bool:
    """May a request naming ``host`` be answered?  IP addresses and ``localhost`` always, and
    the names of ``allowed`` (exact, case-insensitive; ``*.example.org`` for its sub-domains)."""
    if not host:
        return False
    name = _name(host)
    if name == "localhost":
        return True
    try:
        ipaddress.ip_address(name)
        return True
    except ValueError:
        pass
    for a in allowed:
        a = a.lower().rstrip(".")
        if name == a or (a.startswith("*.") and name.endswith(a[1:])):
            return True
    return False


class HostCheck:
    """ASGI middleware: refuses requests and sockets for a ``Host`` not :func:`host_allowed`."""

    def __init__(self, app: ASGIApp, allowed: tuple[str, ...] = ()) -> None:
        self.app = app
        self.allowed = tuple(allowed)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        host = next((v.decode("latin-1") for k, v in scope["headers"] if k == b"host"), None)
        if host_allowed(host, self.allowed):
            await self.app(scope, receive, send)
            return
        if scope["type"] == "websocket":  # closed before the handshake completes: the client sees 403
            await send({"type": "websocket.close", "code": 1008, "reason": "unknown host"})
            return
        body = json.dumps({"error": {"code": "unknown_host", "message": (
            f"this server does not answer to the name {host!r}: use its own address "
            "(ricochet serve --allowed-host NAME adds a name)")}}).encode()
        await send({"type": "http.response.start", "status": 421,
                    "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode()),
                                (b"connection", b"close")]})
        await send({"type": "http.response.body", "body": body})
