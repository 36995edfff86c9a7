"""What one server accepts from whom, and when it lets go of what nobody uses.

:class:`ServerLimits` gathers every bound of the server (bodies, message
rates, rooms, connections, idle times, replay pages); ``ricochet serve
--limit NAME=VALUE`` changes one (:func:`parse_limit`).  :class:`Buckets` are
the token buckets of the rate limits, by key (a seat, a connection, a client
address), forgotten once full again so they cannot pile up.

>>> parse_limit("rooms_per_minute=0", ServerLimits()).rooms_per_minute
0.0
>>> parse_limit("rooms=x", ServerLimits())
Traceback (most recent call last):
...
ValueError: unknown limit 'rooms'; known: body_bytes, message_rate, message_burst, address_rate, \
address_burst, http_rate, http_burst, socket_rate, socket_burst, pace_wait_seconds, rooms_per_minute, room_burst, max_lobby_rooms, max_rooms, connections_per_address, \
max_connections, flood_cooldown_seconds, header_seconds, body_seconds, hello_seconds, idle_seconds, lobby_ttl_seconds, sweep_seconds, \
heartbeat_seconds, total_message_rate, total_socket_rate, total_rooms_per_second, total_http_rate, replay_page, replay_workers
"""

from __future__ import annotations

import dataclasses
import math
import time
from collections.abc import Callable, Hashable
from dataclasses import dataclass
from typing import Any

from .protocol import MAX_BODY_BYTES, RATE_BURST, RATE_PER_SECOND, TokenBucket

__all__ = ["Buckets", "FairShare", "ServerLimits", "fair_level", "parse_limit"]


@dataclass(frozen=True)
class ServerLimits:
    """Every bound of one server.  A count or rate of 0 turns that limit off."""

    body_bytes: int = MAX_BODY_BYTES
    """Largest HTTP request body; a bigger one is refused (413) before more is read."""
    message_rate: float = RATE_PER_SECOND
    """Socket messages per second per seat (all the seat's connections together;
    a spectator's or a connection before ``hello``: per connection)."""
    message_burst: int = RATE_BURST
    address_rate: float = 50.0
    """Socket messages per second of all the connections from one client address."""
    address_burst: int = 100
    http_rate: float = 30.0
    """HTTP requests per second from one client address, after a burst of ``http_burst``; one over
    it waits its turn, up to ``pace_wait_seconds``, then is refused (429): see :mod:`.pacing`."""
    http_burst: int = 60
    socket_rate: float = 2.0
    """Socket opens per second from one client address, after a burst of ``socket_burst`` (paced
    like HTTP requests; a refused one's handshake is closed)."""
    socket_burst: int = 8
    pace_wait_seconds: float = 2.0
    """The longest a request over its address's rate waits for its turn before it is refused."""
    rooms_per_minute: float = 2.0
    """Rooms one client address may create per minute (after a burst of ``room_burst``)."""
    room_burst: int = 10
    max_lobby_rooms: int = 2000
    """Rooms of the whole server that wait for their first start; beyond, creating is refused (503)."""
    max_rooms: int = 5000
    """Rooms held in memory; the least recently used idle one is unloaded to make room."""
    connections_per_address: int = 32
    """WebSocket connections open at once from one client address."""
    max_connections: int = 5000
    """WebSocket connections open at once on the whole server."""
    flood_cooldown_seconds: float = 30.0
    """After one of its connections is closed for sending too many messages, an address's new
    connections are refused for this long (a flooder would otherwise reconnect and go on)."""
    header_seconds: float = 10.0
    """An HTTP request (a socket's handshake too) whose headers have not all come by then is
    dropped (``ricochet serve``'s HTTP protocol)."""
    body_seconds: float = 10.0
    """A request body that has not all come by then is refused (408)."""
    hello_seconds: float = 10.0
    """A connection that has not said ``hello`` by then is closed."""
    idle_seconds: float = 120.0
    """A room nobody is connected to is unloaded from memory after this long (loaded again on use)."""
    lobby_ttl_seconds: float = 1800.0
    """A room that never started, where nobody is seated and nobody connected, is deleted after this long."""
    sweep_seconds: float = 10.0
    """How often idle rooms, expired rooms and full rate buckets are looked for."""
    heartbeat_seconds: float = 2.0
    """How often the rooms in memory are stamped alive in the database (and once more at
    shutdown): after a crash, a room's clocks move by the time since its last stamp — at least the
    time the server was away, at most this much more (0: only the shutdown stamp)."""
    total_message_rate: float = 2000.0
    """Socket messages per second of the whole server; beyond, each client address gets its
    fair share (:class:`FairShare`), and at least ``message_rate`` (one player's): many flooding
    addresses cannot crowd out honest ones.  Size it to what the machine handles."""
    total_socket_rate: float = 100.0
    """Socket opens per second on the whole server; beyond, each address its fair share (and at
    least 2 a second: a player reconnecting after a restart always may)."""
    total_rooms_per_second: float = 5.0
    """Rooms created per second on the whole server; beyond, each address its fair share (the
    per-address burst, times many addresses, would otherwise create hundreds at once)."""
    total_http_rate: float = 300.0
    """HTTP requests per second of the whole server; beyond, each address its fair share (a
    request over it is refused like one over its address's pace)."""
    replay_page: int = 500
    """Most events in one answer of ``GET /api/rooms/{id}/events`` (the rest: the next page)."""
    replay_workers: int = 1
    """Replays built at once (in threads, off the event loop); more wait their turn.  One: a
    second thread would compete with the event loop for the interpreter lock too."""

    def __post_init__(self) -> None:
        for f in dataclasses.fields(self):
            value = getattr(self, f.name)
            if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value) \
                    or value < 0:
                raise ValueError(f"limit {f.name} must be a number, 0 or more, got {value!r}")
        if self.replay_page < 1 or self.replay_workers < 1:
            raise ValueError("replay_page and replay_workers must be 1 or more")

    @classmethod
    def unlimited(cls, **changes: float) -> ServerLimits:
        """No rate, count or time limit (in-process tests); ``changes`` set some."""
        off = {f.name: 0 for f in dataclasses.fields(cls)
               if f.name not in ("body_bytes", "sweep_seconds", "heartbeat_seconds", "replay_page", "replay_workers")}
        return cls(**(off | changes))  # type: ignore[arg-type]


def parse_limit(text: str, limits: ServerLimits) -> ServerLimits:
    """``limits`` with one ``NAME=VALUE`` changed (:class:`ValueError` with the reason)."""
    names = [f.name for f in dataclasses.fields(ServerLimits)]
    name, sep, raw = text.partition("=")
    name = name.strip().replace("-", "_")
    if not sep:
        raise ValueError(f"a limit is NAME=VALUE, got {text!r}")
    if name not in names:
        raise ValueError(f"unknown limit {name!r}; known: {', '.join(names)}")
    kind = type(getattr(ServerLimits(), name))
    try:
        value: Any = kind(raw.strip())
    except ValueError:
        raise ValueError(f"limit {name} must be {'a whole' if kind is int else 'a'} number, got {raw!r}") from None
    return dataclasses.replace(limits, **{name: value})


def fair_level(counts: list[int], budget: float) -> float:
    """The max-min fair share of ``budget`` among users who asked for ``counts``: the level
    ``L`` with ``sum(min(c, L)) == budget`` (users below it get all they asked; the others
    ``L`` each), or infinity when everyone fits.

    >>> fair_level([1, 2, 100, 100], 60)
    28.5
    >>> fair_level([1, 2, 3], 60)
    inf
    """
    if sum(counts) <= budget:
        return math.inf
    left, n = budget, len(counts)
    for i, c in enumerate(sorted(counts)):
        share = left / (n - i)
        if c > share:
            return share
        left -= c
    return math.inf  # (unreachable: the total is over the budget)


class FairShare:
    """A total budget per second shared fairly among keys (client addresses).

    While the server takes fewer than ``rate`` in a second, everyone gets what they ask (their
    own limits apply elsewhere).  Beyond it, a key may take only its max-min fair share of the
    budget (:func:`fair_level`, from the last second's demand): many addresses flooding at once
    share one budget instead of each bringing its own, and an address that asks little — an
    honest player among flooders — still gets all it asks; and always ``floor`` a second (what
    one person needs).  ``rate`` 0: no total budget.

    >>> clock = [0.0]
    >>> f = FairShare(10, clock=lambda: clock[0])
    >>> sum(f.take("flood") for _ in range(30)), f.take("honest")
    (10, True)
    >>> clock[0] = 1.0   # the next second: the flood asked 30 and honest 1, the budget is 10
    >>> sum(f.take("flood") for _ in range(30)), f.take("honest"), f.take("honest")
    (9, True, True)
    """

    def __init__(self, rate: float, clock: Callable[[], float] = time.monotonic, *, floor: float = 0.0) -> None:
        self.rate, self.clock, self.floor = rate, clock, floor
        self.window = clock()
        self.counts: dict[Hashable, int] = {}
        self.asked: dict[Hashable, int] = {}
        self.total = 0
        self.level = math.inf

    @property
    def enabled(self) -> bool:
        return self.rate > 0

    def take(self, key: Hashable, *, again: bool = False) -> bool:
        """May ``key`` have one more now?  (Counted either way: demand sets the next fair share;
        ``again``: the same request asking once more after a wait, not more demand.)"""
        if not self.enabled:
            return True
        now = self.clock()
        if now - self.window >= 1.0:
            last = self.asked if now - self.window < 2.0 else {}
            self.level = fair_level(list(last.values()), self.rate)
            self.window, self.counts, self.asked, self.total = now, {}, {}, 0
        if not again or key not in self.asked:
            self.asked[key] = self.asked.get(key, 0) + 1
        n = self.counts.get(key, 0)
        if n < self.floor:  # what one person may always take
            ok = True
        elif self.level < math.inf:  # the last second was over budget: everyone to their fair share
            ok = n < self.level
        else:  # it was not: everyone may take what they need, up to an equal share once over budget
            ok = self.total < self.rate or n < self.rate / len(self.counts or (key,))
        if ok:
            self.counts[key] = n + 1
            self.total += 1
            return True
        return False


class Buckets:
    """Token buckets by key, made on first use and forgotten once full again
    (:meth:`prune`): a bucket that refilled is the same as a new one."""

    def __init__(self, rate: float, burst: int, clock: Callable[[], float] = time.monotonic) -> None:
        self.rate, self.burst, self.clock = rate, burst, clock
        self._buckets: dict[Hashable, TokenBucket] = {}

    @property
    def enabled(self) -> bool:
        return self.rate > 0 and self.burst > 0

    def take(self, key: Hashable) -> bool:
        """One token from ``key``'s bucket (always True when this limit is off)."""
        if not self.enabled:
            return True
        bucket = self._buckets.get(key)
        if bucket is None:
            bucket = self._buckets[key] = TokenBucket(self.rate, self.burst, self.clock)
        return bucket.take()

    def wait(self, key: Hashable) -> float:
        """Seconds until ``key`` has a token again (0: now)."""
        bucket = self._buckets.get(key)
        if bucket is None or not self.enabled:
            return 0.0
        missing = 1 - (bucket.tokens + (self.clock() - bucket.last) * self.rate)
        return max(0.0, missing / self.rate)

    def prune(self) -> None:
        now = self.clock()
        full = [k for k, b in self._buckets.items() if b.tokens + (now - b.last) * b.rate >= b.burst]
        for k in full:
            del self._buckets[k]

    def __len__(self) -> int:
        return len(self._buckets)
