"""Helpers for tests against a real server on loopback (no tests here).

* :class:`ServerProcess` — ``python -m ricochet serve`` as a subprocess (its own
  process group: the solver worker goes with it), its log, memory and exit;
* :func:`http` — an HTTP request from a chosen loopback address: every
  ``127.x.y.z`` reaches the server and counts as another client, so per-address
  limits can be tested, and one test's traffic does not eat another's budget;
* :class:`BoundTransport` — a WebSocket (``RicochetClient``) from such an address;
* :class:`Probe` — a player in a room of its own, in a separate process, that
  plays (pings, bids, chats; spectators ping) while an attack runs and times every round trip:
  the server's answer time as an honest player sees it.  Run as a script it is
  the probe itself: ``python realserver.py PORT ADDRESS``.
"""

from __future__ import annotations

import asyncio
import functools
import importlib.util
import json
import os
import subprocess
import sys
import time
from collections.abc import Callable
from http.client import HTTPConnection
from pathlib import Path
from types import ModuleType
from typing import Any, Self

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT / "src") not in sys.path:  # run as a script from a checkout
    sys.path.insert(0, str(ROOT / "src"))

from ricochet.server.client import RicochetClient, WebSocketTransport


@functools.cache
def load_benchmark() -> ModuleType:
    """``benchmarks/load.py`` as a module: its server process and percentiles serve the tests too."""
    spec = importlib.util.spec_from_file_location("ricochet_load_benchmark", ROOT / "benchmarks" / "load.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up
    spec.loader.exec_module(module)
    return module


def percentile(values: list[float], p: float) -> float:
    return load_benchmark().percentile(sorted(values), p)  # type: ignore[no-any-return]


def http(port: int, method: str, path: str, body: Any = None, *, source: str = "127.0.0.1",
         headers: dict[str, str] | None = None, raw: bytes | None = None,
         timeout: float = 15.0) -> tuple[int, dict[str, str], Any]:
    """``(status, headers, JSON body or text)`` of one request sent from ``source``."""
    conn = HTTPConnection("127.0.0.1", port, timeout=timeout, source_address=(source, 0))
    try:
        data = raw if raw is not None else (None if body is None else json.dumps(body).encode())
        hdrs = {"Content-Type": "application/json"} if data is not None else {}
        conn.request(method, path, body=data, headers=hdrs | (headers or {}))
        r = conn.getresponse()
        text = r.read().decode("utf-8", "replace")
        try:
            payload: Any = json.loads(text)
        except ValueError:
            payload = text
        return r.status, {k.lower(): v for k, v in r.getheaders()}, payload
    finally:
        conn.close()


class Browser:
    """One browser of the trainer's API: its trainer cookie, the loopback address it sends from."""

    def __init__(self, port: int, source: str) -> None:
        self.port, self.source, self.cookie = port, source, None

    def __call__(self, method: str, path: str, body: Any = None) -> tuple[int, Any]:
        headers = {"Cookie": f"ricochet_trainer={self.cookie}"} if self.cookie else {}
        status, hdrs, payload = http(self.port, method, path, body, source=self.source, headers=headers)
        cookie = hdrs.get("set-cookie", "")
        if cookie.startswith("ricochet_trainer="):
            self.cookie = cookie.split(";")[0].split("=", 1)[1] or None
        return status, payload

    def ok(self, method: str, path: str, body: Any = None) -> Any:
        status, out = self(method, path, body)
        assert status == 200, out
        return out


class BoundTransport(WebSocketTransport):
    """A WebSocket from a chosen local address (``extra``: more ``connect`` arguments).
    Incoming messages are buffered without limit: a test client that does not read them
    all must still be able to close (with websockets' default, 16 unread messages stop the
    reading, and the server's close frame is never seen)."""

    def __init__(self, url: str, source: str, **extra: Any) -> None:
        super().__init__(url, source=source)
        self.extra = {"max_queue": None} | extra

    async def connect(self) -> None:
        from websockets.asyncio.client import connect

        self.ws = await connect(self.url, open_timeout=self.open_timeout, max_size=2**22,
                                local_addr=(self.source, 0), **self.extra)


def client(port: int, room: str, source: str, **extra: Any) -> RicochetClient:
    return RicochetClient(transport=BoundTransport(f"ws://127.0.0.1:{port}/ws/{room}", source, **extra))


class ServerProcess:
    """``python -m ricochet serve`` on a free port with ``limits`` (``NAME=VALUE`` texts), on a
    SQLite file: the load benchmark's :class:`Server`, timed to its first health answer; ``extra``:
    more arguments of ``ricochet serve`` (e.g. ``--trusted-proxy 127.0.0.1``).

    Without a ``--trainer-pool`` of the test's own, the server makes no trainer puzzles in the
    background (``--trainer-pool 0``): at its default it fills a pool of every game and length
    at start, a core's work for about a minute (niced), which the tests that do not test it
    would pay for in every server they start."""

    def __init__(self, tmp: Path, *, limits: tuple[str, ...] = (), database: Path | None = None,
                 extra: tuple[str, ...] = ()) -> None:
        load = load_benchmark()
        if "--trainer-pool" not in extra:
            extra = ("--trainer-pool", "0", *extra)
        started: list[float] = []

        def start(port: int) -> Any:
            started.append(time.monotonic())
            return load.Server(port, f"sqlite+aiosqlite:///{database or tmp / 'server.db'}", tmp / f"server-{port}.log",
                               limits=limits, extra=extra)

        # (Started again on another free port if another process takes this one first.)
        self.server = load.start_server(None, 1, start)
        self.up_after = time.monotonic() - started[-1]
        self.port, self.log_path = self.server.port, self.server.log_path
        self.proc: subprocess.Popen[bytes] = self.server.proc

    def health(self) -> dict[str, Any]:
        return http(self.port, "GET", "/api/health")[2]  # type: ignore[no-any-return]

    def rss_kib(self) -> int:
        for line in Path(f"/proc/{self.proc.pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
        return 0

    def log(self) -> str:
        return self.log_path.read_text(errors="replace") if self.log_path.exists() else ""

    def signal(self, sig: int) -> None:
        os.kill(self.proc.pid, sig)

    def stop(self) -> None:
        self.server.stop()


class Helper:
    """A helper process of a test (``proc``), killed when the ``with`` block ends if it still runs."""

    proc: subprocess.Popen[str]

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()


class Probe(Helper):
    """An honest player in a room of its own, in another process, while an attack runs.

    It first plays ``quiet_seconds`` with nothing else going on: those round trips are
    :attr:`baseline`, the same machine's speed measured in the same test, against which the
    attack's round trips are judged (a ratio, not an absolute time: a busy machine slows both).
    :meth:`stop` returns the round trips (seconds) of its pings, bids and chat lines since."""

    def __init__(self, port: int, source: str, min_seconds: float = 3.0, quiet_seconds: float = 1.5,
                 watchers: tuple[str, ...] = (), before_quiet: Callable[[], object] | None = None) -> None:
        # ``watchers``: the spectators' addresses (default: the player's), e.g. to keep each
        # address's demand that of one person when the server shares a budget among addresses.
        # ``before_quiet``: called once the probe plays, before its quiet round trips are timed
        # (e.g. to wait for an attacker started alongside to be ready, and quiet).
        self.proc = subprocess.Popen([sys.executable, __file__, str(port), source, ",".join(watchers)],
                                     stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, text=True, env=dict(os.environ,
                                                                                 PYTHONPATH=str(ROOT / "src")))
        assert self.proc.stdin is not None and self.proc.stdout is not None
        line = self.proc.stdout.readline()
        assert line.strip() == "ready", f"the probe did not start: {line!r}"
        if before_quiet is not None:
            before_quiet()
        time.sleep(quiet_seconds)
        self.proc.stdin.write("mark\n")  # what follows is measured under the attack
        self.proc.stdin.flush()
        self.baseline: list[float] = []
        self.until = time.monotonic() + min_seconds  # at least this long: enough round trips for a p99

    def stop(self) -> list[float]:
        assert self.proc.stdin is not None and self.proc.stdout is not None
        time.sleep(max(0.0, self.until - time.monotonic()))
        self.proc.stdin.write("stop\n")
        self.proc.stdin.flush()
        out = json.loads(self.proc.stdout.readline())
        self.proc.wait(timeout=30)
        assert not out["errors"], out["errors"]
        self.baseline = out["baseline"]
        return out["latencies"]  # type: ignore[no-any-return]


async def _probe(port: int, source: str, watchers_from: tuple[str, ...] = ()) -> None:
    """Play alone in a room (``min_players`` 1): four times a second a ``ping`` then a lower
    bid (or a chat line once bids run out); meanwhile four spectators of the room ping eight
    times a second each (within their own rate limit): every round trip is timed."""
    loop = asyncio.get_running_loop()
    mark = asyncio.ensure_future(loop.run_in_executor(None, sys.stdin.readline))  # "mark": the attack starts
    stop = asyncio.ensure_future(mark_then_stop(mark))
    _, _, created = http(port, "POST", "/api/rooms", {"name": "probe", "min_players": 1, "clock_seconds": 600},
                         source=source)
    rid = created["room_id"]
    c = client(port, rid, source)
    await c.connect()
    await c.hello("Probe")
    await c.start()
    await c.wait_for(lambda m: m.get("type") == "event" and m["event"]["type"] == "chip_drawn")
    watchers = [client(port, rid, watchers_from[i % len(watchers_from)] if watchers_from else source)
                for i in range(4)]
    for w in watchers:
        await w.connect()
        await w.hello(spectate=True)
    latencies: list[float] = []
    baseline: list[float] = []
    errors: list[str] = []

    async def timed(who: RicochetClient, send: Any, answer: Any) -> None:
        t = time.monotonic()
        await send
        got = await who.wait_for(lambda m: m.get("type") == "error" or answer(m))
        (latencies if mark.done() else baseline).append(time.monotonic() - t)
        if got["type"] == "error":
            errors.append(f"{got['code']}: {got['message']}")

    def pong(m: dict[str, Any]) -> bool:
        return m.get("type") == "pong"

    async def play() -> None:
        bid = 99
        while not stop.done():
            t = time.monotonic()
            await timed(c, c.ping(), pong)
            if bid > 1:
                await timed(c, c.bid(bid), lambda m: m.get("type") == "event" and m["event"]["type"] == "bid_placed")
                bid -= 1
            else:
                await timed(c, c.chat("still here"), lambda m: m.get("type") == "chat")
            await asyncio.sleep(max(0.0, 0.25 - (time.monotonic() - t)))

    async def watch(w: RicochetClient) -> None:
        while not stop.done():
            t = time.monotonic()
            await timed(w, w.ping(), pong)
            await asyncio.sleep(max(0.0, 0.125 - (time.monotonic() - t)))

    print("ready", flush=True)
    await asyncio.gather(play(), *(watch(w) for w in watchers))
    for x in (c, *watchers):
        await x.close()
    print(json.dumps({"latencies": latencies, "baseline": baseline, "errors": errors}), flush=True)


async def mark_then_stop(mark: asyncio.Future[str]) -> str:
    """The probe's second line on stdin ("stop"), read once the first ("mark") came."""
    await mark
    return await asyncio.get_running_loop().run_in_executor(None, sys.stdin.readline)


if __name__ == "__main__":
    asyncio.run(_probe(int(sys.argv[1]), sys.argv[2], tuple(a for a in sys.argv[3:4] for a in a.split(",") if a)))
