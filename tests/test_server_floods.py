"""Issue 46, "floods from many addresses": each defence against a real server on loopback.

* 8 flooding addresses (``benchmarks/load.py``'s flooder process: rooms, lobby reads,
  connections, junk messages; each kind alone, then all at once) share the server's total
  budgets fairly with everyone else: an honest player (:class:`realserver.Probe`) keeps its
  p99 round trip within a multiple of its own quiet p99 (with a floor), never an absolute time;
* SQLite held locked by another process for longer than sqlite's old 5 s default: a chat
  line waits and is stored, never a ``server_error``;
* binary frames: refused with an ``error`` that says why and the close 1003;
* a ``Host`` the site does not answer to (DNS rebinding): 421, and the socket's handshake refused;
* a request body or request headers that trickle in: cut off after their deadline;
* ``X-Forwarded-For`` believed only from a configured trusted proxy;
* the protocol's envelope numbers (``protocol``, ``since``, ``ref``): JSON integers only.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from realserver import ROOT, Helper, Probe, ServerProcess, client, http, load_benchmark, percentile
from ricochet.server import protocol as P
from ricochet.server.client import ClientError
from ricochet.server.refused import Refused
from sqlitelock import lock_held

pytestmark = pytest.mark.slow

LIMITS = ("total_message_rate=80", "total_http_rate=40", "total_socket_rate=10", "body_seconds=1.5", "header_seconds=1.5",
          "hello_seconds=3")
P99 = 0.300
"""The floor of the probe's allowed p99 under a flood (seconds). The goal, 100 ms, is measured by
``benchmarks/load.py --flood``; here the floor absorbs a busy machine's spells (the tests beside
this one, two more on two cores, took the probe past 100 ms often enough that most runs of the
suite repeated a flood with the machine to itself, idling it for 15-30 s), while the stall this
test guards against (8 addresses before the total budgets: p50 319 ms, p99 1542 ms) stays far over it."""
SLOWDOWN = 8.0
"""How many times its own quiet p99 the probe's p99 may grow under a flood."""
FLOOD_ADDRESSES = [f"127.0.66.{6 + k}" for k in range(8)]
FLOOD_SECONDS = 4.0
WATCHERS = tuple(f"127.0.46.{251 + k}" for k in range(4))
"""The probe's spectators, each from an address of its own: every address of the probe asks
what one person does (8 messages a second), under its fair share of the total budget."""


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    tmp = tmp_path_factory.mktemp("floods")
    s = ServerProcess(tmp, limits=LIMITS, extra=("--allowed-host", "play.example.org"))
    try:
        yield s
    finally:
        s.stop()


def allowed_p99(latencies: list[float], probe: Probe) -> tuple[float, float, float]:
    """(p99 under the flood, quiet p99, the allowed p99: SLOWDOWN times quiet, at least P99)."""
    assert len(latencies) >= 8 and len(probe.baseline) >= 8, (latencies, probe.baseline)
    p99, quiet = percentile(latencies, 99), percentile(probe.baseline, 99)
    return p99, quiet, max(P99, SLOWDOWN * quiet)


# -- 8 addresses ------------------------------------------------------------------------------------
class Flooder(Helper):
    """``benchmarks/load.py --flooder`` from 8 flood addresses, started at once (it loads, then
    waits, niced): :meth:`ready` waits for it, :meth:`run` floods and returns its counts."""

    def __init__(self, port: int, rooms: list[str], kinds: tuple[str, ...],
                 addresses: list[str] = FLOOD_ADDRESSES) -> None:
        self.proc = subprocess.Popen([sys.executable, str(ROOT / "benchmarks" / "load.py"), "--flooder"], text=True,
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     env={"PYTHONPATH": str(ROOT / "src"), "PATH": "/usr/bin:/bin"})
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.proc.stdin.write(json.dumps({"port": port, "addresses": addresses, "room_ids": rooms, "concurrency": 4,
                                          "nice": 10, "kinds": list(kinds), "rate": 0.0}) + "\n")
        self.proc.stdin.flush()
        self.started = False

    def ready(self) -> None:
        assert self.proc.stdout is not None
        if not self.started:
            assert self.proc.stdout.readline(), "the flooder did not start"
            self.started = True

    def run(self, seconds: float) -> dict[str, Any]:
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.ready()
        start = time.monotonic() + 0.2
        self.proc.stdin.write(json.dumps({"start": start, "end": start + seconds}) + "\n")
        self.proc.stdin.flush()
        line = self.proc.stdout.readline()
        self.proc.wait(timeout=30)
        return json.loads(line)["result"]  # type: ignore[no-any-return]


def test_8_flooding_addresses_leave_the_honest_p99_within_bounds(server: ServerProcess,
                                                                   machine_alone: Callable[[], Any]) -> None:
    port = server.port
    rooms = []
    for i in range(3):  # rooms in play for the flood's connections (and their broadcasts)
        status, _, made = http(port, "POST", "/api/rooms", {"min_players": 1}, source=f"127.0.46.{i + 1}")
        assert status == 201, made
        rooms.append(made["room_id"])
    load_benchmark()
    table = []
    runs = (("rooms",), ("lobby",), ("connections",), ("messages",), ("rooms", "lobby", "messages"))
    for i, kinds in enumerate(runs):
        # A run over its bound is run once more with the machine to itself (no other test of any
        # suite on it running: tests/machineslots.py), and judged by the second: the tests beside
        # this one (two more on two cores, a second suite waiting) can take the server's share of
        # the cores for one run's 4 s; a server that floods slow fails both.
        for again in (0, 1):
            # each run from 8 addresses of its own (an address closed for flooding cools down 30 s)
            addresses = [f"127.0.{66 + i + len(runs) * again}.{6 + k}" for k in range(8)]
            # (The flooder loads while the probe starts, and is ready before its quiet round trips.)
            with machine_alone() if again else contextlib.nullcontext(), Flooder(port, rooms, kinds, addresses) as fl, \
                    Probe(port, "127.0.46.250", watchers=WATCHERS, before_quiet=fl.ready) as probe:
                result = fl.run(FLOOD_SECONDS)
                latencies = probe.stop()
            p99, quiet, allowed = allowed_p99(latencies, probe)
            refused = {k: c["refused"] for k, c in result["kinds"].items() if c["attempts"]}
            table.append((" + ".join(kinds) + (" (again)" if again else ""), percentile(probe.baseline, 50), quiet,
                          percentile(latencies, 50), p99, allowed,
                          {k: c["attempts"] for k, c in result["kinds"].items() if c["attempts"]}, refused))
            if p99 < allowed:
                break
        assert p99 < allowed, table[-2:]
        for k in kinds:  # the flood did reach the server's limits (else it tested nothing)
            assert result["kinds"][k]["refused"] > 0 or k in ("lobby", "connections"), (kinds, result["kinds"])
    print("\nflood from 8 addresses (127.0.66-75.6-13), 4 s per kind; the honest probe's round trips (ms):")
    print("| flood | quiet p50 | quiet p99 | flood p50 | flood p99 | allowed p99 | attempts | refused |")
    print("|---|---|---|---|---|---|---|---|")
    for kind, q50, q99, f50, f99, allowed, attempts, refused in table:
        print(f"| {kind} | {q50 * 1000:.1f} | {q99 * 1000:.1f} | {f50 * 1000:.1f} | {f99 * 1000:.1f} | "
              f"{allowed * 1000:.0f} | {attempts} | {refused} |")
    text = server.log()
    assert "Traceback" not in text and "server_error" not in text, text[-3000:]


# -- SQLite busy ------------------------------------------------------------------------------------
def test_a_locked_database_is_waited_for_never_a_server_error(server: ServerProcess) -> None:
    port = server.port
    status, _, made = http(port, "POST", "/api/rooms", {"min_players": 1}, source="127.0.46.20")
    rid = made["room_id"]
    db = server.server.proc.args[server.server.proc.args.index("--database") + 1].split("///", 1)[1]

    async def main() -> tuple[dict[str, Any], float]:
        c = client(port, rid, "127.0.46.20")
        await c.connect()
        await c.hello("Ann")
        with lock_held(db, "EXCLUSIVE"):  # another process's writer, 6 s (sqlite's old timeout was 5)
            t0 = time.monotonic()
            await c.chat("while the database is locked", ref="x")
            await asyncio.sleep(6.0)
        answer = await c.wait_for(lambda m: m.get("ref") == "x" or m.get("type") == "error", 30)
        took = time.monotonic() - t0
        await c.close()
        return answer, took

    answer, took = asyncio.run(main())
    assert answer["type"] == "ack", answer  # stored once the lock was let go: no server_error
    assert took >= 6.0
    status, _, _body = http(port, "GET", f"/api/rooms/{rid}")
    assert status == 200


# -- binary frames --------------------------------------------------------------------------------
def test_binary_frames_are_refused_with_a_clear_close(server: ServerProcess) -> None:
    port = server.port
    _status, _, made = http(port, "POST", "/api/rooms", {"min_players": 1}, source="127.0.46.21")

    async def main() -> tuple[dict[str, Any], int | None]:
        c = client(port, made["room_id"], "127.0.46.21")
        await c.connect()
        await c.hello("Ann")
        await c.transport.ws.send(b'{"type":"ping"}')
        err = await c.wait_for("error", 5)
        with pytest.raises(ClientError):
            await c.recv(5)
        return err, c.transport.ws.close_code

    err, code = asyncio.run(main())
    assert err["code"] == "binary" and "text frames only" in err["message"]
    assert code == 1003


# -- Host -------------------------------------------------------------------------------------------
def test_only_the_sites_own_names_are_answered(server: ServerProcess) -> None:
    port = server.port
    status, _, body = http(port, "GET", "/api/health", headers={"Host": "evil.example:80"}, source="127.0.46.22")
    assert status == 421 and body["error"]["code"] == "unknown_host" and "--allowed-host" in body["error"]["message"]
    for host in (f"127.0.0.1:{port}", f"localhost:{port}", "play.example.org", "PLAY.example.org:443"):
        assert http(port, "GET", "/api/health", headers={"Host": host}, source="127.0.46.22")[0] == 200, host
    _, _, made = http(port, "POST", "/api/rooms", {"min_players": 1}, source="127.0.46.22")

    def handshake(host: str) -> bytes:  # a socket's opening as a rebinding page's would say it
        s = socket.create_connection(("127.0.0.1", port), source_address=("127.0.46.22", 0))
        s.settimeout(5)
        s.sendall(f"GET /ws/{made['room_id']} HTTP/1.1\r\nHost: {host}\r\nUpgrade: websocket\r\n"
                  f"Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
                  f"Sec-WebSocket-Version: 13\r\nOrigin: http://{host}\r\n\r\n".encode())
        answer = s.recv(4096)
        s.close()
        return answer.split(b"\r\n", 1)[0]

    assert handshake("evil.example") == b"HTTP/1.1 403 Forbidden"
    assert handshake("play.example.org") == b"HTTP/1.1 101 Switching Protocols"


# -- slow bodies and handshakes -------------------------------------------------------------------
def _trickle(port: int, source: str, head: bytes, then: bytes) -> tuple[bytes, float]:
    """Send ``head``, then ``then`` one byte every 0.3 s; the answer and when it came."""
    s = socket.create_connection(("127.0.0.1", port), source_address=(source, 0))
    s.settimeout(0.3)
    t0 = time.monotonic()
    s.sendall(head)
    answer = b""
    i = 0
    while time.monotonic() - t0 < 10:
        try:
            data = s.recv(65536)
            if not data:
                break
            answer += data
            if answer.rstrip().endswith(b"}"):
                break
        except TimeoutError:
            if i < len(then):
                try:
                    s.sendall(then[i:i + 1])
                except OSError:
                    break
                i += 1
        except OSError:
            break
    took = time.monotonic() - t0
    s.close()
    return answer, took


def test_slow_bodies_and_slow_handshakes_are_cut_off(server: ServerProcess) -> None:
    port = server.port
    body = json.dumps({"name": "slow"}).encode() * 3
    head = (b"POST /api/rooms HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
            b"Content-Length: " + str(len(body)).encode() + b"\r\n\r\n")
    answer, took = _trickle(port, "127.0.46.23", head, body)
    assert answer.startswith(b"HTTP/1.1 408") and b'"code":"body_timeout"' in answer, answer[:300]
    assert 1.4 < took < 4, took
    # headers that never end (a slow handshake): the connection is closed after 1.5 s
    answer, took = _trickle(port, "127.0.46.24", b"GET /ws/abc HTTP/1.1\r\nHost: 127.0.0.1\r\n",
                            b"X-Slow: " + b"a" * 40)
    assert answer == b"" and 1.4 < took < 4, (answer, took)
    # a complete request is answered as ever
    assert http(port, "GET", "/api/health", source="127.0.46.24")[0] == 200


# -- X-Forwarded-For --------------------------------------------------------------------------------
def test_forwarded_addresses_are_believed_only_from_a_trusted_proxy(server: ServerProcess, tmp_path: Path) -> None:
    # This server trusts no proxy: a client that names other addresses is still itself.
    port = server.port
    codes = [http(port, "POST", "/api/rooms", {}, source="127.0.46.30",
                  headers={"X-Forwarded-For": f"10.9.8.{i}"})[0] for i in range(14)]
    assert codes.count(201) <= 10 and codes[-1] == 429, codes  # room_burst 10, one address
    # One that trusts 127.0.0.1 (a proxy on this machine): from it, each forwarded address is a client.
    other = ServerProcess(tmp_path, extra=("--trusted-proxy", "127.0.0.1"))
    try:
        forwarded = [http(other.port, "POST", "/api/rooms", {}, source="127.0.0.1",
                          headers={"X-Forwarded-For": f"10.9.8.{i}"})[0] for i in range(14)]
        spoofed = [http(other.port, "POST", "/api/rooms", {}, source="127.0.46.31",
                        headers={"X-Forwarded-For": f"10.9.7.{i}"})[0] for i in range(14)]
    finally:
        other.stop()
    assert forwarded == [201] * 14, forwarded  # 14 clients behind the proxy, one room each
    assert spoofed.count(201) <= 10 and spoofed[-1] == 429, spoofed  # not the proxy: its own address


# -- the envelope's numbers ---------------------------------------------------------------------------
@pytest.mark.parametrize("text, field", [
    ('{"type":"hello","protocol":2.0,"name":"Ann"}', "protocol"),
    ('{"type":"hello","protocol":true,"name":"Ann"}', "protocol"),
    ('{"type":"hello","protocol":2,"name":"Ann","since":1.0}', "since"),
    ('{"type":"sync","since":true}', "since"),
    ('{"type":"ping","ref":1.0}', "ref"),
    ('{"type":"ping","ref":false}', "ref"),
    ('{"type":"hello","protocol":2,"since":NaN}', "NaN"),
])
def test_envelope_counts_are_json_integers(text: str, field: str) -> None:
    with pytest.raises(Refused) as e:
        P.parse_message(text, "ricochet-robots")
    assert field in str(e.value)
