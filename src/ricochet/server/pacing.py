"""Per-address pacing of HTTP requests and socket opens, before any routing.

A client that sends requests faster than its address's rate is not refused at
once: each request over the rate waits for its turn (:class:`Pacer`), so a
browser that loads a page with its files in a burst only slows down, and a
flooder that asks again as soon as it is answered is held to the rate while
its requests sleep, which costs the server next to nothing.  Only a request
whose turn is more than ``pace_wait_seconds`` away is refused: 429 (HTTP) or a
closed handshake (403, sockets), and its connection is closed.  That bounds
the turns one address holds to ``rate × pace_wait_seconds``.

A refusal, too, is given only after ``pace_wait_seconds``: answered at once, a
client that asks again as soon as it is answered (a flood with many requests
in flight) would make the server refuse as fast as it can reconnect; held, it
gets one refusal per request in flight and per wait.

HTTP requests and socket opens also share total budgets of the whole server
(``total_http_rate``, ``total_socket_rate``), fairly among addresses
(:class:`~.limits.FairShare`): over it, a request of an address that asked more than its fair
share waits for a later second's share, and is refused the same way after
``pace_wait_seconds``, so that many flooding addresses together cannot take what one address
may not.

The server's other limits (rooms per minute, connections per address, socket
messages) count what gets through; this one keeps the cost of *refusing* a
flood from starving the rooms in play.

>>> clock = [0.0]
>>> p = Pacer(rate=2.0, burst=3, max_wait=1.0, clock=lambda: clock[0])
>>> [p.delay("a") for _ in range(6)]  # three at once, then one every half second, then full
[0.0, 0.0, 0.0, 0.5, 1.0, None]
>>> p.delay("b")  # another address has its own turns
0.0
>>> clock[0] = 10.0; p.delay("a")
0.0
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Callable, Hashable

from starlette.types import ASGIApp, Receive, Scope, Send

from .limits import FairShare, ServerLimits

__all__ = ["AddressPacing", "Pacer"]

PRUNE_SECONDS = 10.0
HTTP_FLOOR = 10
"""HTTP requests per second any address may make whatever the total (a page and its files)."""
SOCKET_FLOOR = 2
"""Socket opens per second any address may make whatever the total (a player reconnecting)."""
"""How often the turns of addresses that went quiet are forgotten."""


class Pacer:
    """Turns by key at ``rate`` per second after a burst of ``burst`` (the generic cell rate
    algorithm: one "next turn" time per key).  ``rate`` 0 or ``burst`` 0: no pacing."""

    def __init__(self, rate: float, burst: int, max_wait: float, clock: Callable[[], float] = time.monotonic) -> None:
        self.rate, self.burst, self.max_wait, self.clock = rate, burst, max_wait, clock
        self._next: dict[Hashable, float] = {}  # the key's next turn once its burst is spent
        self._prune_at = clock() + PRUNE_SECONDS

    @property
    def enabled(self) -> bool:
        return self.rate > 0 and self.burst > 0

    def delay(self, key: Hashable) -> float | None:
        """Seconds a request of ``key`` waits for its turn (0.0: it goes now), or None: its turn is
        more than ``max_wait`` away and it is refused.  A request given a delay holds its turn."""
        if not self.enabled:
            return 0.0
        now = self.clock()
        if now >= self._prune_at:
            self.prune()
        interval = 1.0 / self.rate
        turn = max(self._next.get(key, now), now)
        wait = turn - now - (self.burst - 1) * interval
        if wait > self.max_wait:
            return None
        self._next[key] = turn + interval
        return max(0.0, wait)

    def prune(self) -> None:
        """Forget the keys whose burst is whole again (the same as a key never seen)."""
        now = self.clock()
        self._next = {k: t for k, t in self._next.items() if t > now}
        self._prune_at = now + PRUNE_SECONDS

    def __len__(self) -> int:
        return len(self._next)


def _address(scope: Scope) -> str:
    client = scope.get("client")
    return str(client[0]) if client else "unknown"


class AddressPacing:
    """ASGI middleware: :class:`Pacer` per client address for HTTP requests (``http_rate``,
    ``http_burst``) and socket opens (``socket_rate``, ``socket_burst``), from ``limits``."""

    def __init__(self, app: ASGIApp, limits: ServerLimits, clock: Callable[[], float] = time.monotonic) -> None:
        self.app = app
        self.http = Pacer(limits.http_rate, limits.http_burst, limits.pace_wait_seconds, clock)
        self.sockets = Pacer(limits.socket_rate, limits.socket_burst, limits.pace_wait_seconds, clock)
        self.total_http = FairShare(limits.total_http_rate, clock, floor=HTTP_FLOOR)
        self.total_sockets = FairShare(limits.total_socket_rate, clock, floor=SOCKET_FLOOR)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        kind = scope["type"]
        pacer = self.http if kind == "http" else self.sockets if kind == "websocket" else None
        if pacer is None or not pacer.enabled:
            await self.app(scope, receive, send)
            return
        address = _address(scope)
        if not await self._turn_of_total(kind, address, pacer.max_wait):
            await self._refuse(kind, pacer, send)
            return
        wait = pacer.delay(address)
        if wait is None:
            await asyncio.sleep(pacer.max_wait)  # see the module's doc: refusing at once costs more
            await self._refuse(kind, pacer, send)
            return
        if wait > 0:
            await asyncio.sleep(wait)
        await self.app(scope, receive, send)

    async def _turn_of_total(self, kind: str, address: str, max_wait: float) -> bool:
        """The server's total budget (fairly shared): True when this request may go, at once or
        after waiting (up to ``max_wait``) for a later second's share; False: refused after the wait."""
        total = self.total_http if kind == "http" else self.total_sockets
        if total.take(address):
            return True
        end = time.monotonic() + max_wait
        while time.monotonic() < end:
            await asyncio.sleep(min(0.25, max(0.0, end - time.monotonic())))
            if total.take(address, again=True):
                return True
        return False

    @staticmethod
    async def _refuse(kind: str, pacer: Pacer, send: Send) -> None:
        if kind == "websocket":  # closing before the handshake is accepted: the client sees 403
            await send({"type": "websocket.close", "code": 1008, "reason": "too many connection attempts"})
            return
        per = f"{pacer.rate:g} per second after {pacer.burst}"
        body = json.dumps({"error": {"code": "rate_limited",
                                     "message": f"too many requests from your address (at most {per}); "
                                                f"try again in a few seconds"}}).encode()
        await send({"type": "http.response.start", "status": 429,
                    "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode()),
                                (b"retry-after", b"1"),
                                (b"connection", b"close")]})
        await send({"type": "http.response.body", "body": body})
