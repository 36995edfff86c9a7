"""Issue #16, "Hardening": every attack of the adversarial review, performed against a real
server (``python -m ricochet serve``) on loopback, bounded in time and memory.  Each test
checks the server's answer, its memory, log or latency bound, and that an honest player in
another room (:class:`realserver.Probe`, its own process) keeps its p99 round trip while the
attack runs within a bound set by its own p99 just before it (:func:`assert_p99`: a ratio with a
floor, so that a busy machine slows both sides alike).

One server with small limits serves the module; its database is filled beforehand with
3000 unfinished rooms of an earlier "run" and one game of 1 200 events (the replay attack).
Each test sends from its own loopback addresses (``127.0.N.x`` for item N): per-address
budgets are the test's own.
"""

from __future__ import annotations

import asyncio
import json
import signal
import socket
import subprocess
import sys
import threading
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from realserver import ROOT, Probe, ServerProcess, client, http, percentile
from ricochet.games import get_game
from ricochet.games.bidding.round import GiveUp, PlaceBid
from ricochet.games.ricochet_robots.game import ReportSolution
from ricochet.games.table import Join, Start
from ricochet.geometry import Direction
from ricochet.position import Move
from ricochet.server import protocol as P
from ricochet.server.client import ClientError
from ricochet.server.storage import Storage, events_table, hash_token, rooms_table, seats_table

pytestmark = pytest.mark.slow

LIMITS = ("rooms_per_minute=6", "room_burst=5", "max_lobby_rooms=30", "max_rooms=60", "connections_per_address=50",
          "max_connections=450", "hello_seconds=1.5", "idle_seconds=2", "lobby_ttl_seconds=4", "sweep_seconds=0.5",
          "replay_page=500", "socket_burst=60")  # HTTP pacing: the defaults (item 9)
P99 = 0.500
"""The floor of the probe's allowed p99 under an attack (seconds): the server's goal is 100 ms
(benchmarks/load.py measures it); here the floor only absorbs a busy machine's spells (104 ms
was seen at a load average of 8; 304 ms, one stall of five round trips at once, with three tests
on two cores and a second suite waiting beside them), while an attack that stalls the server's
loop costs seconds."""
SLOWDOWN = 10.0
"""How many times its own quiet p99 the probe's p99 may grow under an attack: an attack that
stalls the server's loop (a blocking read, a synchronous parse of megabytes) takes it far past."""
STORED_ROOMS = 3000
OPTIONS = P.normalize_options({"name": "earlier run", "tiles": "1A,2A,3A,4A", "clock_seconds": 60,
                               "intermission_seconds": 5})
SEED = 20260101
FAKE_SOLUTION = (Move(3, Direction.W), Move(1, Direction.S), Move(3, Direction.E), Move(2, Direction.N))


@dataclass
class World:
    server: ServerProcess
    long_room: str
    long_events: int
    long_log: list[dict[str, Any]]
    stored: list[str]
    rooms_at_start: int


# -- the database of an earlier run ---------------------------------------------------------------
def _play(rounds: int, t0: float) -> list[dict[str, Any]]:
    """A Ricochet Robots game of Ann and Bob: started, then ``rounds`` rounds where both bid
    every number from 99 down to 2, give up their demonstrations, and the solver reports."""
    kind = get_game("ricochet-robots")
    state = kind.new(P.config_for(OPTIONS, SEED, 1))
    out: list[Any] = []
    t = t0

    def do(action: Any) -> None:
        nonlocal state
        state, events = kind.apply(state, action, t)
        out.extend(events)

    do(Join("p1", "Ann"))
    do(Join("p2", "Bob"))
    do(Start("p1"))
    for _ in range(rounds):
        if state.phase == "intermission":
            t = state.intermission_until + 0.01
            state, events = kind.tick(state, t)
            out.extend(events)
        for n in range(99, 1, -1):
            for p in ("p1", "p2"):
                t += 0.01
                do(PlaceBid(p, n))
        t = state.round.clock_deadline + 0.01
        state, events = kind.tick(state, t)
        out.extend(events)
        number = state.round.number
        while state.phase == "demonstration":
            t += 0.5
            do(GiveUp(state.round.demonstrator))
        do(ReportSolution(number, len(FAKE_SOLUTION), FAKE_SOLUTION))
    return [e.to_dict() for e in out]


async def _fill(db: Path) -> tuple[str, list[dict[str, Any]], list[str]]:
    st = await Storage.open(f"sqlite+aiosqlite:///{db}")
    now = time.time()
    short = _play(0, now - 7200)
    long = _play(6, now - 3600)
    rooms, events, seats = [], [], []

    def room(rid: str, log: list[dict[str, Any]]) -> None:
        rooms.append({"id": rid, "name": "earlier run", "options": OPTIONS, "private": False, "status": "playing",
                      "game": 1, "seed": SEED, "created": log[0]["at"], "updated": log[-1]["at"],
                      "game_name": "ricochet-robots", "game_version": 1})
        events.extend({"room_id": rid, "seq": i, "game": 1, "type": e["type"], "payload": e, "at": e["at"]}
                      for i, e in enumerate(log, 1))
        seats.extend({"room_id": rid, "player_id": p, "name": n, "token_hash": hash_token(p), "bot": False, "level": None,
                      "created": log[0]["at"]} for p, n in (("p1", "Ann"), ("p2", "Bob")))

    stored = [f"old{i:05d}" for i in range(STORED_ROOMS)]
    for rid in stored:
        room(rid, short)
    room("longgame", long)
    async with st.engine.begin() as conn:
        await conn.execute(rooms_table.insert(), rooms)
        await conn.execute(events_table.insert(), events)
        await conn.execute(seats_table.insert(), seats)
    await st.close()
    return "longgame", long, stored


@pytest.fixture(scope="module")
def world(tmp_path_factory: pytest.TempPathFactory) -> Any:
    tmp = tmp_path_factory.mktemp("hardening")
    db = tmp / "server.db"
    long_room, log, stored = asyncio.run(_fill(db))
    server = ServerProcess(tmp, limits=LIMITS, database=db)
    try:
        yield World(server, long_room, len(log), log, stored, server.health()["rooms"])
    finally:
        server.stop()


def quiet_log(server: ServerProcess) -> None:
    """Nothing alarming in the server's log (it runs at level warning)."""
    text = server.log()
    for bad in ("Traceback", "exception", "Exception", "ERROR", "never retrieved"):
        assert bad not in text, text[-3000:]


def assert_p99(latencies: list[float], probe: Probe) -> None:
    """The honest probe's p99 round trip under the attack stays within :data:`SLOWDOWN` times
    its p99 before the attack (measured in this test, on this machine, as busy as it is), or
    within :data:`P99`, whichever is larger: a ratio with a floor, never an absolute bound
    alone (the absolute goal, under load from many clients, is benchmarks/load.py's)."""
    assert len(latencies) >= 8 and len(probe.baseline) >= 8, (latencies, probe.baseline)
    p99, quiet = percentile(latencies, 99), percentile(probe.baseline, 99)
    allowed = max(P99, SLOWDOWN * quiet)
    assert p99 < allowed, (f"p99 {p99 * 1000:.0f} ms over {len(latencies)} round trips, allowed {allowed * 1000:.0f} ms "
                           f"(quiet p99 {quiet * 1000:.0f} ms): {sorted(latencies)[-5:]}")


def create(world: World, source: str, **options: Any) -> str:
    status, _, body = http(world.server.port, "POST", "/api/rooms", {"min_players": 1} | options, source=source)
    assert status == 201, body
    return body["room_id"]  # type: ignore[no-any-return]


# -- 1. bodies -----------------------------------------------------------------------------------------
def _big_post(port: int, source: str, head: bytes, chunk: bytes, limit: int) -> tuple[bytes, int, float]:
    """Send ``head``, then ``chunk`` over and over (up to ``limit`` bytes) in a thread while this
    one reads the answer: (answer, bytes the kernel took before the server hung up, seconds).
    The answer is read to its end: a JSON body's closing brace, or the server closing."""
    s = socket.create_connection(("127.0.0.1", port), source_address=(source, 0))
    s.settimeout(10)
    sent = [0]

    def pump() -> None:
        try:
            s.sendall(head)
            while sent[0] < limit:
                s.sendall(chunk)
                sent[0] += len(chunk)
        except OSError:
            pass  # the server closed: it read no more

    t0 = time.monotonic()
    th = threading.Thread(target=pump, daemon=True)
    th.start()
    answer = b""
    try:
        while b"\r\n\r\n" not in answer or not answer.rstrip().endswith(b"}"):
            data = s.recv(65536)
            if not data:
                break
            answer += data
    except OSError:
        pass
    took = time.monotonic() - t0
    th.join(timeout=20)
    s.close()
    return answer, sent[0], took


def test_1_request_bodies_are_limited_while_reading(world: World) -> None:
    s = world.server
    mib = 1024 * 1024
    with Probe(s.port, "127.0.1.250") as probe:
        rss0 = s.rss_kib()
        for _ in range(3):  # again and again while the probe plays
            # 200 MB announced: refused at once, without reading it
            head = (b"POST /api/rooms HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                    b"Content-Length: 200000000\r\n\r\n")
            announced, sent_a, took_a = _big_post(s.port, "127.0.1.1", head, b" " * 65536, 200 * mib)
            # streamed without a length: refused once 16 KB came
            head = (b"POST /api/rooms HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                    b"Transfer-Encoding: chunked\r\n\r\n")
            chunk = b"10000\r\n" + b" " * 65536 + b"\r\n"
            streamed, sent_s, took_s = _big_post(s.port, "127.0.1.2", head, chunk, 200 * mib)
            # any other body: a route that reads none answers at once and keeps nothing
            head = (b"POST /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                    b"Content-Length: 200000000\r\n\r\n")
            other, _, took_o = _big_post(s.port, "127.0.1.3", head, b" " * 65536, 20 * mib)
            # nor a header without end: the request line and headers are refused past 16 KiB
            head = b"GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Endless: "
            header, sent_h, took_h = _big_post(s.port, "127.0.1.4", head, b"a" * 65536, 200 * mib)
        rss1 = s.rss_kib()
        latencies = probe.stop()
    for answer in (announced, streamed):
        assert answer.startswith(b"HTTP/1.1 413"), answer[:200]
        assert b"connection: close" in answer.lower() and b'"code":"too_big"' in answer
    assert b"the request is 200000000 bytes; at most 16384" in announced
    assert b"over 16384 bytes" in streamed
    assert other.startswith(b"HTTP/1.1 405") and b'"code":"method_not_allowed"' in other
    assert header.startswith(b"HTTP/1.1 400")
    assert max(took_a, took_s, took_o, took_h) < 3.0
    assert max(sent_a, sent_s, sent_h) < 200 * mib  # the server hung up long before the end
    assert rss1 - rss0 < 16 * 1024, f"server RSS grew by {(rss1 - rss0) / 1024:.1f} MiB"
    assert_p99(latencies, probe)
    print(f"\n1: 413 after {took_a * 1000:.0f} ms (announced) / {took_s * 1000:.0f} ms (streamed); the client pushed "
          f"{sent_a / mib:.1f} / {sent_s / mib:.1f} MiB before the hang-up; server RSS {rss0 / 1024:.0f} -> "
          f"{rss1 / 1024:.0f} MiB; probe p99 {percentile(latencies, 99) * 1000:.1f} ms")


# -- 2. rooms --------------------------------------------------------------------------------------------
def test_2_rooms_are_bounded_evicted_and_loaded_lazily(world: World) -> None:
    s = world.server
    port = s.port
    # start-up loaded none of the 3000 unfinished rooms of the earlier run (once: 41.8 s for 23 001)
    assert world.rooms_at_start == 0
    assert s.up_after < 30, s.up_after
    with Probe(port, "127.0.2.250") as probe:
        base = s.health()["rooms"]
        # creation is rate-limited per address: 5 at once, then 6 a minute
        answers = [http(port, "POST", "/api/rooms", {}, source="127.0.2.1") for _ in range(7)]
        assert [a[0] for a in answers] == [201] * 5 + [429] * 2
        assert answers[-1][2]["error"]["code"] == "rate_limited" and int(answers[-1][1]["retry-after"]) >= 1
        # and capped per server: 30 rooms waiting for players, whatever the number of addresses
        made = 5
        refused = None
        for i in range(10, 40):
            status, _, body = http(port, "POST", "/api/rooms", {}, source=f"127.0.2.{i}")
            if status == 201:
                made += 1
            else:
                refused = (status, body)
                break
        assert refused is not None and refused[0] == 503 and refused[1]["error"]["code"] == "server_full", refused
        assert made <= 30
        # rooms are loaded lazily on first use, at most max_rooms (60) in memory: the least recently used go
        peak = 0
        for i, rid in enumerate(world.stored[:150]):
            status, _, body = http(port, "GET", f"/api/rooms/{rid}", source=f"127.0.2.{100 + i % 50}")
            assert status == 200 and body["status"] == "playing" and body["state"]["phase"] == "thinking", body
            if i % 10 == 0:
                peak = max(peak, s.health()["rooms"])
        assert peak <= 60
        # idle rooms unload from memory: back to what the probe uses
        end = time.monotonic() + 10
        while s.health()["rooms"] > base and time.monotonic() < end:
            time.sleep(0.2)
        assert s.health()["rooms"] <= base
        # empty rooms that never started expire (4 s here): gone from the database, creating works again
        pending = [a[2]["room_id"] for a in answers[:5]]
        end = time.monotonic() + 20
        while pending and time.monotonic() < end:  # (reading one loads it: it expires 4 s after that)
            time.sleep(0.5)
            pending = [rid for rid in pending if http(port, "GET", f"/api/rooms/{rid}", source="127.0.2.2")[0] != 404]
        assert pending == []
        assert http(port, "POST", "/api/rooms", {}, source="127.0.2.60")[0] == 201
        latencies = probe.stop()
    # a stored room, loaded again on use, is the one of the log
    status, _, body = http(port, "GET", f"/api/rooms/{world.stored[7]}")
    assert status == 200 and [p["name"] for p in body["players"]] == ["Ann", "Bob"]
    quiet_log(s)
    assert_p99(latencies, probe)
    print(f"\n2: up in {s.up_after:.1f} s with {STORED_ROOMS} unfinished rooms stored, 0 loaded; {made} rooms made "
          f"before 503; at most {peak} rooms in memory while 150 were read; probe p99 "
          f"{percentile(latencies, 99) * 1000:.1f} ms")


# -- 3. the event log ------------------------------------------------------------------------------------
def test_3_the_event_log_cannot_be_inflated(world: World) -> None:
    port = world.server.port
    rid = create(world, "127.0.3.1", clock_seconds=600, min_players=2)

    async def attack() -> tuple[int, int, int, int, int, float]:
        ann, bob = client(port, rid, "127.0.3.1"), client(port, rid, "127.0.3.1")
        for c, n in ((ann, "Ann"), (bob, "Bob")):
            await c.connect()
            await c.hello(n)
        await ann.start()
        await ann.wait_for(lambda m: m.get("type") == "event" and m["event"]["type"] == "chip_drawn")
        await ann.bid(50)
        # ten connections on Ann's seat, from another address, re-bid 50 as fast as they can for 3 s
        tabs = [client(port, rid, "127.0.3.2") for _ in range(10)]
        for c in tabs:
            await c.connect()
            await c.hello(seat_token=ann.you["seat_token"])
        acks = 0
        refused: dict[int, int] = {}  # tab -> rate_limited errors it read
        biggest = 0
        done = asyncio.Event()

        async def read(c: Any) -> None:
            nonlocal acks
            async for m in c:
                if m["type"] == "ack":
                    acks += 1
                elif m["type"] == "error" and m["code"] == "rate_limited":
                    refused[id(c)] = refused.get(id(c), 0) + 1

        async def flood(c: Any) -> None:
            # 3 s at least, then on until the server has closed one of the ten (a busy machine
            # may send too few bids in 3 s for the refusals that close one), 20 s at most.
            reader = asyncio.ensure_future(read(c))
            end, last = time.monotonic() + 3, time.monotonic() + 20
            ref = 0
            try:
                while time.monotonic() < end or (time.monotonic() < last
                                                 and not any(t.transport.close_reason for t in tabs)):
                    ref += 1
                    await c.bid(50, ref=ref)
                    sent_until[0] = max(sent_until[0], time.monotonic())
                    await asyncio.sleep(0.01)
            except ClientError:
                pass  # closed for flooding
            await asyncio.sleep(0.5)
            await c.close()
            await reader

        async def watch() -> None:
            nonlocal biggest
            while not done.is_set():
                try:
                    m = await bob.recv(0.2)
                except TimeoutError:
                    continue
                biggest = max(biggest, len(json.dumps(m)))

        watcher = asyncio.ensure_future(watch())
        began = time.monotonic()
        sent_until = [began]
        await asyncio.gather(*(flood(c) for c in tabs))
        seconds = sent_until[0] - began + 0.5  # how long bids were sent (and half a second more)
        done.set()
        await watcher
        closed_tabs = [c for c in tabs if c.transport.close_reason and "4429" in c.transport.close_reason]
        # Each closed tab was told why before its close: dropped bids (20 in 10 s), or a backlog of
        # unread ones; how many refusals it read first depends on the machine's pace, not on the rule.
        told = sum(1 for c in closed_tabs if refused.get(id(c), 0) >= 1)
        for c in (ann, bob):
            await c.close()
        return acks, sum(refused.values()), biggest, len(closed_tabs), told, seconds

    with Probe(port, "127.0.3.250") as probe:
        acks, limited, biggest, closed, told, seconds = asyncio.run(attack())
        # per address: 20 spectators of one address ping as fast as they may each (10/s): 50/s in all
        sent, pongs = asyncio.run(_address_flood(port, rid, "127.0.3.3", 20, 2.0))
        latencies = probe.stop()
    log = http(port, "GET", f"/api/rooms/{rid}/events")[2]["events"]
    bids = [e["event"] for e in log if e["event"]["type"] == "bid_placed"]
    assert [(b["player"], b["moves"]) for b in bids] == [("p1", 50)]  # one event, whatever the re-bids
    assert acks <= 20 + 10 * seconds, (acks, seconds)  # the seat's budget, shared by its ten connections
    assert closed >= 1 and told == closed  # still flooding after its refusals: closed (4429), and told why
    assert limited >= closed
    assert biggest < 8 * 1024  # no message carries a growing bid list
    assert pongs <= 100 + 50 * 2.5 < sent, (sent, pongs)  # the address's budget: 100 at once, then 50/s
    quiet_log(world.server)
    assert_p99(latencies, probe)
    print(f"\n3: 10 connections on one seat for {seconds:.1f} s: {acks} accepted, {limited} rate-limited, {closed} closed, "
          "1 bid_placed event; "
          f"biggest broadcast {biggest} B; 20 spectators of one address: {pongs} of {sent} pings answered in 2 s; probe p99 "
          f"{percentile(latencies, 99) * 1000:.1f} ms")


async def _address_flood(port: int, rid: str, source: str, n: int, seconds: float) -> tuple[int, int]:
    """``n`` spectators of one address ping 8 times a second each (under their own limit of 10):
    (pings sent, pongs received)."""
    clients = [client(port, rid, source) for _ in range(n)]
    for c in clients:
        await c.connect()
        await c.hello(spectate=True)
    counts = {"sent": 0, "pongs": 0}

    async def read(c: Any) -> None:
        async for m in c:
            if m["type"] == "pong":
                counts["pongs"] += 1

    async def flood(c: Any) -> None:
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            await c.ping()
            counts["sent"] += 1
            await asyncio.sleep(0.125)

    readers = [asyncio.ensure_future(read(c)) for c in clients]
    await asyncio.gather(*(flood(c) for c in clients))
    await asyncio.sleep(0.5)
    for c in clients:
        await c.close()
    await asyncio.gather(*readers)
    return counts["sent"], counts["pongs"]


# -- 4. replay --------------------------------------------------------------------------------------------
def test_4_replay_is_paged_linear_and_off_the_event_loop(world: World) -> None:
    port, rid = world.server.port, world.long_room
    with Probe(port, "127.0.4.250") as probe, ThreadPoolExecutor(4) as pool:
        t0 = time.monotonic()
        firsts = list(pool.map(lambda i: http(port, "GET", f"/api/rooms/{rid}/events?states=1",
                                              source=f"127.0.4.{i + 1}", raw=None), range(4)))
        took = time.monotonic() - t0
        latencies = probe.stop()
    sizes = []
    for status, _, body in firsts:
        assert status == 200 and len(body["events"]) == 500 and body["next"] == 500
        sizes.append(len(json.dumps(body)))
    # the whole log, page after page, merged as a client would: the state of now
    state: dict[str, Any] = {}
    entries: list[dict[str, Any]] = []
    at_700: dict[str, Any] = {}
    after = 0
    while True:
        status, _, page = http(port, "GET", f"/api/rooms/{rid}/events?states=1&after={after}")
        assert status == 200
        if after == 0:
            state = dict(page["state"])
        for e in page["events"]:
            entries.append(e)
            merged = P.merge_event_state(state, e["state"])
            assert merged is not None
            state = merged
            if e["version"] == 700:
                at_700 = dict(state)
        if page["next"] is None:
            break
        after = page["next"]
    # any page, not only the next one: the state before it is the log folded so far
    status, _, page = http(port, "GET", f"/api/rooms/{rid}/events?states=1&after=700&limit=3")
    assert [e["version"] for e in page["events"]] == [701, 702, 703] and page["next"] == 703
    assert page["state"] == at_700
    assert [e["version"] for e in entries] == list(range(1, world.long_events + 1))
    kind = get_game("ricochet-robots")
    final = kind.fold(P.config_for(OPTIONS, SEED, 1), [kind.event_from_dict(e) for e in world.long_log])
    expected = json.loads(P.dumps(kind.event_state(final, "game_reset")))  # the server's encoder
    assert {k: v for k, v in state.items() if k != "version"} == {k: v for k, v in expected.items() if k != "version"}
    # the round's solutions are never in /events (docs/protocol.md): not even the reported ones
    solved = [e["event"] for e in entries if e["event"]["type"] == "round_solved"]
    assert len(solved) == 6 and all(set(e) == {"type", "round", "optimal", "at"} for e in solved)
    assert "solution" not in json.dumps([e["event"] for e in entries])
    assert max(sizes) < 3 * 1024 * 1024
    assert_p99(latencies, probe)
    print(f"\n4: {world.long_events} events; 4 replays at once in {took:.2f} s, pages of {max(sizes) / 1024:.0f} KiB "
          f"(once 39 MB whole); probe p99 {percentile(latencies, 99) * 1000:.1f} ms")


# -- 5. nested JSON ----------------------------------------------------------------------------------------
def test_5_deeply_nested_json_is_bad_json_everywhere(world: World, tmp_path: Path) -> None:
    port = world.server.port
    deep = "[" * 2000

    async def socket_attack() -> tuple[dict[str, Any], dict[str, Any]]:
        rid = create(world, "127.0.5.1")
        c = client(port, rid, "127.0.5.1")
        await c.connect()
        await c.hello("Ann")
        await c.transport.send(deep)
        err = await c.wait_for("error")
        await c.transport.send('{"a":' * 800)  # 4 000 bytes: under the frame limit, 800 levels deep
        err2 = await c.wait_for("error")
        await c.ping()
        await c.wait_for("pong")  # still served
        await c.close()
        return err, err2

    with Probe(port, "127.0.5.250") as probe:
        err, err2 = asyncio.run(socket_attack())
        posts = [http(port, "POST", "/api/rooms", raw=text.encode(), source="127.0.5.2")
                 for text in (deep, '{"name":' * 2000)]  # 16 000 bytes: within the body limit
        latencies = probe.stop()
    for e in (err, err2):
        assert e["code"] == "bad_json" and "nested too deeply" in e["message"]
    for status, _, body in posts:
        assert status == 400 and body["error"]["code"] == "bad_json" and "nested too deeply" in body["error"]["message"]
    path = tmp_path / "deep.jsonl"
    path.write_text(deep + "\n")
    cli = subprocess.run([sys.executable, "-m", "ricochet", "solve", str(path)], capture_output=True, text=True,
                         env={"PYTHONPATH": str(ROOT / "src"), "PATH": "/usr/bin:/bin"}, timeout=60, check=False)
    assert cli.returncode == 2 and "nested too deeply" in cli.stderr and "internal error" not in cli.stderr
    quiet_log(world.server)
    assert_p99(latencies, probe)
    print(f"\n5: socket: {err['message']!r}; POST: {posts[0][0]}; ricochet solve: exit {cli.returncode}; "
          f"probe p99 {percentile(latencies, 99) * 1000:.1f} ms")


# -- 6. connections ------------------------------------------------------------------------------------------
def test_6_connections_are_bounded_and_checked(world: World) -> None:
    s = world.server
    port = s.port
    rooms = [create(world, f"127.0.6.{100 + i}", min_players=1) for i in range(10)]
    keepers = []  # a player in each room: a never-started room nobody is in would expire (in 4 s here)

    async def keep() -> None:
        for i, rid in enumerate(rooms):
            c = client(port, rid, "127.0.6.5")
            await c.connect()
            await c.hello(f"Keeper {i}")
            keepers.append(c)

    async def attack() -> dict[str, Any]:
        out: dict[str, Any] = {}
        await keep()
        # no hello: closed after 1.5 s, with a reason, pings or not
        silent, pinger = client(port, rooms[0], "127.0.6.1"), client(port, rooms[0], "127.0.6.1")
        await silent.connect()
        await pinger.connect()
        t0 = time.monotonic()

        async def ping_on() -> None:
            with pytest.raises(ClientError):
                while True:
                    await pinger.ping()
                    await asyncio.sleep(0.2)

        task = asyncio.ensure_future(ping_on())
        out["hello"] = await silent.wait_for("error", 5)
        with pytest.raises(ClientError):
            await silent.recv(5)
        out["hello_after"] = time.monotonic() - t0
        out["hello_close"] = silent.transport.ws.close_code
        await asyncio.wait_for(task, 5)
        # per address: 50 open at once
        mine = []
        for _ in range(50):
            c = client(port, rooms[1], "127.0.6.2")
            await c.connect()
            await c.hello(spectate=True)
            mine.append(c)
        extra = client(port, rooms[1], "127.0.6.2")
        await extra.connect()
        out["address"] = await extra.wait_for("error", 5)
        with pytest.raises(ClientError):
            await extra.recv(5)
        out["address_close"] = extra.transport.ws.close_code
        # overall: 450 on the server, from any number of addresses
        others: list[Any] = []
        i = 0
        while s.health()["connections"] < 450:
            c = client(port, rooms[2 + i // 50], f"127.0.6.{10 + i // 50}")
            i += 1
            await c.connect()
            try:
                await c.hello(spectate=True)
            except ClientError:
                break
            others.append(c)
        last = client(port, rooms[9], "127.0.6.99")
        await last.connect()
        out["full"] = await last.wait_for("error", 5)
        with pytest.raises(ClientError):
            await last.recv(5)
        out["full_close"] = last.transport.ws.close_code
        for c in mine + others:
            await c.close()
        # Origin: another site's page may not open a socket; the server's own may
        evil = client(port, rooms[0], "127.0.6.3", origin="https://evil.example")
        with pytest.raises(Exception) as refused:
            await evil.connect()
        out["origin"] = str(refused.value)
        own = client(port, rooms[0], "127.0.6.3", origin=f"http://127.0.0.1:{port}")
        await own.connect()
        out["own_origin"] = (await own.hello(spectate=True))["type"]
        for c in (own, *keepers):
            await c.close()
        return out

    with Probe(port, "127.0.6.250") as probe:
        out = asyncio.run(attack())
        posts = [http(port, "POST", "/api/rooms", raw=b"{}", source="127.0.6.4", headers={"Content-Type": ct})
                 for ct in ("text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x")]
        index = http(port, "GET", "/", source="127.0.6.4")
        unknown = http(port, "GET", "/api/nothing", source="127.0.6.4")
        wrong = http(port, "DELETE", "/api/rooms", source="127.0.6.4")
        latencies = probe.stop()
    assert out["hello"]["code"] == "hello_timeout" and out["hello_close"] == 4408 and 1.4 < out["hello_after"] < 3
    assert out["address"]["code"] == "too_many_connections" and out["address_close"] == 4429
    assert out["full"]["code"] == "server_full" and out["full_close"] == 1013
    assert "403" in out["origin"] and out["own_origin"] == "welcome"
    for status, _, body in posts:
        assert status == 415 and body["error"]["code"] == "bad_content_type"
    headers = index[1]
    assert "frame-ancestors 'none'" in headers["content-security-policy"]
    assert "script-src 'self'" in headers["content-security-policy"]
    assert headers["x-content-type-options"] == "nosniff" and headers["referrer-policy"] == "no-referrer"
    assert unknown[0] == 404 and unknown[2]["error"]["code"] == "not_found"
    assert "content-security-policy" in unknown[1]
    assert wrong[0] == 405 and wrong[2]["error"]["code"] == "method_not_allowed" and "GET" in wrong[1]["allow"]
    end = time.monotonic() + 5
    while s.health()["connections"] and time.monotonic() < end:  # every connection is given back
        time.sleep(0.1)
    assert s.health()["connections"] == 0
    quiet_log(s)
    assert_p99(latencies, probe)
    print(f"\n6: no hello: closed {out['hello_close']} after {out['hello_after']:.2f} s; 51st connection of an address: "
          f"{out['address_close']}; 451st of the server: {out['full_close']}; other origin: {out['origin']}; "
          f"POST text/plain: 415; probe p99 {percentile(latencies, 99) * 1000:.1f} ms")


# -- 7. seats -------------------------------------------------------------------------------------------------
def test_7_seats_expire_are_removable_and_bounded(world: World) -> None:
    port = world.server.port
    rid = create(world, "127.0.7.1", seat_grace_seconds=5, min_players=2)

    async def attack() -> dict[str, Any]:
        out: dict[str, Any] = {}
        ann, bob, cleo = (client(port, rid, "127.0.7.2") for _ in range(3))
        for c, n in ((ann, "Ann"), (bob, "Bob"), (cleo, "Cleo")):
            await c.connect()
            await c.hello(n)
        await ann.start()
        # names: look-alikes and line breaks are refused
        for name in ("ANN", "Аnn", "ａｎｎ", "B0b", "CIeo", "Ann\nBob", "\u202eAnn", "Zed\u200d"):
            probe_c = client(port, rid, "127.0.7.3")
            await probe_c.connect()
            with pytest.raises(ClientError) as e:
                await probe_c.hello(name)
            out.setdefault("names", []).append(e.value.code)
            await probe_c.close()
        # Bob's connection drops: after the 5 s grace his seat is freed (Ann is here to wait)
        token = bob.you["seat_token"]
        await bob.close()
        t0 = time.monotonic()
        left = await ann.wait_for(lambda m: m.get("type") == "event" and m["event"]["type"] == "player_left", 12)
        out["grace"] = (left["event"]["player"], time.monotonic() - t0)
        back = client(port, rid, "127.0.7.2")
        await back.connect()
        w = await back.hello(seat_token=token)  # back: seated again, same seat
        out["back"] = [(p["id"], p["seated"]) for p in w["state"]["players"] if p["id"] == w["you"]["player"]]
        # the host removes Cleo: told why, closed, her token no longer works
        await ann.send({"type": "remove_player", "player": cleo.you["player"]})
        out["removed"] = await cleo.wait_for("error", 5)
        with pytest.raises(ClientError):
            await cleo.recv(5)
        out["removed_close"] = cleo.transport.ws.close_code
        again = client(port, rid, "127.0.7.2")
        await again.connect()
        with pytest.raises(ClientError) as e:
            await again.hello(seat_token=cleo.you["seat_token"])
        out["revoked"] = e.value.code
        await again.close()
        # join/leave cycles: 70 newcomers in a lobby keep the players at who is seated
        lobby = create(world, "127.0.7.1")
        host = client(port, lobby, "127.0.7.4")
        await host.connect()
        await host.hello("Host")
        for i in range(70):  # more than the 64 seats a room keeps: the oldest unused are given up
            c = client(port, lobby, f"127.0.7.{10 + i % 20}")
            await c.connect()
            await c.hello(f"Visitor {i}")
            await c.leave(ref=1)
            await c.wait_for("ack")
            await c.close()
        out["lobby_players"] = len((await _state(host))["players"])
        # in a game, who left keeps a line (their chips): at most 24 different players per game
        codes = []
        for i in range(30):
            c = client(port, rid, f"127.0.7.{30 + i % 10}")
            await c.connect()
            try:
                await c.hello(f"Guest {i}")
                await c.leave(ref=1)
                await c.wait_for("ack")
            except ClientError as err:
                codes.append(err.code)
            await c.close()
        out["game_players"] = len((await _state(ann))["players"])
        out["game_codes"] = codes
        for c in (ann, back, host):
            await c.close()
        return out

    with Probe(port, "127.0.7.250") as probe:
        out = asyncio.run(attack())
        latencies = probe.stop()
    assert out["names"] == ["join"] * 5 + ["bad_message"] * 3, out["names"]
    assert out["grace"][0] == "p2" and 4.5 < out["grace"][1] < 8, out["grace"]
    assert out["back"] == [("p2", True)]
    assert out["removed"]["code"] == "removed" and out["removed_close"] == 4403 and out["revoked"] == "bad_token"
    assert out["lobby_players"] == 1
    assert out["game_players"] == P.MAX_PLAYERS_PER_GAME and set(out["game_codes"]) == {"full"}
    quiet_log(world.server)
    assert_p99(latencies, probe)
    print(f"\n7: seat freed {out['grace'][1]:.1f} s after the drop (grace 5 s); removed: close {out['removed_close']}, "
          f"token {out['revoked']}; 70 lobby visitors -> {out['lobby_players']} player; 30 guests in a game -> "
          f"{out['game_players']} players, {len(out['game_codes'])} refused; probe p99 "
          f"{percentile(latencies, 99) * 1000:.1f} ms")


async def _state(c: Any) -> dict[str, Any]:
    await c.send({"type": "sync", "since": None})
    return (await c.wait_for("sync"))["state"]  # type: ignore[no-any-return]


# -- 8. clean logs and shutdown --------------------------------------------------------------------------------
def test_8_clean_logs_and_a_said_shutdown(world: World, tmp_path: Path) -> None:
    port = world.server.port
    rooms = [create(world, f"127.0.8.{100 + i}", min_players=1) for i in range(8)]

    async def spectators() -> int:
        players = []
        for rid in rooms:
            p = client(port, rid, "127.0.8.1")
            await p.connect()
            await p.hello("Talker")
            players.append(p)
        watchers = []
        for i in range(400):
            c = client(port, rooms[i % 8], f"127.0.8.{10 + i // 50}")
            await c.connect()
            await c.hello(spectate=True)
            watchers.append(c)
        for p in players:  # traffic while they leave: writes race the closes
            await p.chat("bye all")
        for i, c in enumerate(watchers):  # half say goodbye, half just vanish
            if i % 2:
                await c.close()
            else:
                c.transport.ws.transport.abort()
        for p in players:
            await p.chat("anyone?")
        await asyncio.sleep(1.0)
        for p in players:
            await p.close()
        return len(watchers)

    with Probe(port, "127.0.8.250") as probe:
        n = asyncio.run(spectators())
        latencies = probe.stop()
    assert n == 400
    quiet_log(world.server)
    assert_p99(latencies, probe)
    # SIGTERM (and SIGINT): every client is told "server_restarting", then the close (1012)
    other = ServerProcess(tmp_path)
    try:
        _, _, made = http(other.port, "POST", "/api/rooms", {"min_players": 1})

        async def shutdown() -> list[tuple[str, int | None]]:
            cs = [client(other.port, made["room_id"], "127.0.8.2") for _ in range(6)]
            for i, c in enumerate(cs):
                await c.connect()
                await (c.hello(f"P{i}") if i < 3 else c.hello(spectate=True))
            other.signal(signal.SIGTERM)
            seen = []
            for c in cs:
                err = await c.wait_for("error", 10)
                with pytest.raises(ClientError):
                    await c.recv(10)
                seen.append((err["code"], c.transport.ws.close_code))
            return seen

        seen = asyncio.run(shutdown())
        assert other.proc.wait(timeout=20) in (0, -signal.SIGTERM)  # uvicorn ends by the signal it was sent
    finally:
        other.stop()
    assert seen == [("server_restarting", 1012)] * 6
    quiet_log(other)
    print(f"\n8: 400 spectators left (200 closed, 200 vanished): log clean; probe p99 "
          f"{percentile(latencies, 99) * 1000:.1f} ms; SIGTERM: {seen[0]} to all 6 clients")


# -- 9. a flood of requests ---------------------------------------------------------------------------------
def test_9_a_request_flood_is_paced_and_its_refusals_held(world: World) -> None:
    """One address with 100 requests in flight, each asked again as soon as it is answered:
    held to the default pace (30 a second after 60, turns up to 2 s ahead), the rest refused
    after 2 s; another address is answered at once and the probe keeps its p99."""
    port = world.server.port
    load = sys.modules.get("ricochet_load_benchmark")
    assert load is not None  # loaded by ServerProcess
    seconds = 5.0

    async def flood() -> tuple[Counter[int], list[float], dict[str, Any]]:
        statuses: Counter[int] = Counter()
        refusal: dict[str, Any] = {}
        end = time.monotonic() + seconds

        async def loop() -> None:
            conn = load.RawHttp(port, "127.0.9.1")
            while time.monotonic() < end:
                try:
                    statuses[await conn.request("GET", "/api/rooms")] += 1
                except OSError:
                    statuses[0] += 1
            conn.close()

        async def honest() -> list[float]:
            times = []
            await asyncio.sleep(1.0)
            for _ in range(10):
                t0 = time.monotonic()
                answer = await asyncio.to_thread(http, port, "GET", "/api/rooms", source="127.0.9.2")
                assert answer[0] == 200
                times.append(time.monotonic() - t0)
                await asyncio.sleep(0.2)
            t0 = time.monotonic()
            refusal["answer"] = await asyncio.to_thread(http, port, "GET", "/api/rooms", source="127.0.9.1")
            refusal["after"] = time.monotonic() - t0
            return times

        *_, times = await asyncio.gather(*(loop() for _ in range(100)), honest())
        return statuses, times, refusal

    with Probe(port, "127.0.9.250") as probe:
        t0 = time.monotonic()
        statuses, honest, refusal = asyncio.run(flood())
        took = time.monotonic() - t0
        latencies = probe.stop()
    served, refused = statuses[200], statuses[429]
    # served: the burst, then 30 a second (the last turns given may come up to 2 s after the end)
    assert 60 + 30 * (seconds - 1) <= served <= 60 + 30 * (took + 2) + 10, statuses
    # refused: each of the ~40 loops over the 60 turns waiting gets one refusal per 2 s
    assert 0 < refused <= 100 * (took / 2 + 1), statuses
    assert statuses[0] == 0, statuses  # nothing failed: a refusal is an answer
    # One more request from the flooding address: refused, or served only after waiting for a turn
    # (a refused loop's turn may just have come free: which one happens is a race)
    status, headers, body = refusal["answer"]
    if status == 429:
        assert body["error"]["code"] == "rate_limited" and headers["connection"] == "close"
    else:
        assert status == 200 and refusal["after"] > 1.0, refusal
    # Another address is not held up: its median answer as fast as the probe's own quiet round trips
    # allow (held to the flooder's pace, most would wait for a turn, up to 2 s). Not the slowest: these
    # requests leave from this process, whose interpreter the 100 flooding loops share (0.56 s, once,
    # with three tests on two cores).
    assert percentile(honest, 50) < max(P99, SLOWDOWN * percentile(probe.baseline, 99)), (honest, probe.baseline)
    quiet_log(world.server)
    assert_p99(latencies, probe)
    print(f"\n9: {served + refused} answers to one address in {took:.1f} s with 100 in flight: {served} served, "
          f"{refused} refused; another address: median {percentile(honest, 50) * 1000:.0f} ms, slowest {max(honest) * 1000:.0f} ms; "
          f"probe p99 {percentile(latencies, 99) * 1000:.1f} ms")
