"""Issue 46: the site on several worker processes behind HAProxy, on PostgreSQL.

The test starts what a deployment runs (``docs/deploy.md``): a database of its own on the
test PostgreSQL server, two workers (``ricochet serve --cluster-name``) and HAProxy with the
configuration :func:`ricochet.server.proxy.haproxy_config` writes.  Two players play a room
through the proxy; mid-round the worker holding the room is killed with ``kill -9``.  The
room comes back on the other worker, every acknowledged action is still there, and the
players' clients reconnect by themselves (``RicochetClient(reconnect=…)``, as the web
client does) and play on.

Skipped, with the reason, without PostgreSQL (``RICOCHET_TEST_POSTGRES``, which
``scripts/start-test-postgres.sh`` prints) or HAProxy (``apt-get install haproxy``); CI has both.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import secrets
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from realserver import ROOT, http, load_benchmark
from ricochet.server.client import RicochetClient
from ricochet.server.proxy import haproxy_config, haproxy_path

PG = os.environ.get("RICOCHET_TEST_POSTGRES")
HAPROXY = haproxy_path()
pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(not PG, reason="the cluster test needs PostgreSQL: RICOCHET_TEST_POSTGRES=<URL> "
                                      "(scripts/start-test-postgres.sh starts a throwaway server and prints it)"),
    pytest.mark.skipif(HAPROXY is None, reason="the cluster test needs HAProxy in front of the workers: "
                                               "apt-get install haproxy"),
]
LIMITS = ("hello_seconds=5",)


@dataclass
class Cluster:
    tmp: Path
    database: str
    proxy_port: int
    ports: dict[str, int]
    procs: dict[str, subprocess.Popen[bytes]] = field(default_factory=dict)
    log: list[str] = field(default_factory=list)
    t0: float = field(default_factory=time.monotonic)

    def say(self, text: str) -> None:
        line = f"[{time.monotonic() - self.t0:6.2f} s] {text}"
        self.log.append(line)
        print(line, flush=True)

    def start_worker(self, name: str) -> None:
        env = dict(os.environ, PYTHONPATH=str(ROOT / "src"))
        out = open(self.tmp / f"{name}.log", "ab")  # noqa: SIM115 - the process's, closed with it
        self.procs[name] = subprocess.Popen(
            [sys.executable, "-m", "ricochet", "serve", "--host", "127.0.0.1", "--port", str(self.ports[name]),
             "--database", self.database, "--cluster-name", name, "--trusted-proxy", "127.0.0.1",
             "--log-level", "info", "--trainer-pool", "0", *(a for lim in LIMITS for a in ("--limit", lim))],
            stdout=out, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, env=env, start_new_session=True)

    def start_proxy(self) -> None:
        cfg = self.tmp / "haproxy.cfg"
        cfg.write_text(haproxy_config("127.0.0.1", self.proxy_port,
                                      [(n, "127.0.0.1", p) for n, p in self.ports.items()],
                                      stats_socket=str(self.tmp / "haproxy.sock")))
        assert HAPROXY is not None
        self.procs["haproxy"] = subprocess.Popen([HAPROXY, "-db", "-f", str(cfg)], stdout=subprocess.DEVNULL,
                                                 stderr=open(self.tmp / "haproxy.log", "ab"),  # noqa: SIM115
                                                 start_new_session=True)

    def wait_healthy(self, port: int, timeout: float = 60.0) -> dict[str, Any]:
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            try:
                status, _, body = http(port, "GET", "/api/health", timeout=2)
                if status == 200:
                    return body  # type: ignore[no-any-return]
            except OSError:
                pass
            time.sleep(0.2)
        raise AssertionError(f"nothing healthy on port {port} in {timeout} s:\n{self.logs()}")

    def wait_routed(self, name: str, timeout: float = 60.0) -> float:
        """Wait until HAProxy's checks see worker ``name`` up and route its rooms to it again
        (its stats socket's ``show stat``: status UP in the rooms backend); the seconds waited.
        Its checks come every 500 ms and need two in a row: on a busy machine, more than a
        fixed wait of 1.5 s."""
        import socket

        t0 = time.monotonic()
        while time.monotonic() - t0 < timeout:
            with contextlib.suppress(OSError), socket.socket(socket.AF_UNIX) as sock:
                sock.settimeout(5)
                sock.connect(str(self.tmp / "haproxy.sock"))
                sock.sendall(b"show stat\n")
                text = b""
                while chunk := sock.recv(65536):
                    text += chunk
                for row in text.decode(errors="replace").splitlines():
                    cols = row.split(",")
                    if cols[:2] == ["rooms", name] and len(cols) > 17 and cols[17] == "UP":
                        return time.monotonic() - t0
            time.sleep(0.1)
        raise AssertionError(f"HAProxy did not see {name} up in {timeout} s:\n{self.logs()}")

    def logs(self) -> str:
        return "\n".join(f"--- {p.name}\n{p.read_text(errors='replace')[-3000:]}" for p in sorted(self.tmp.glob("*.log")))

    def stop(self) -> None:
        for p in self.procs.values():
            if p.poll() is None:
                os.killpg(p.pid, signal.SIGTERM)
        for p in self.procs.values():
            try:
                p.wait(timeout=10)
            except subprocess.TimeoutExpired:
                os.killpg(p.pid, signal.SIGKILL)
                p.wait()


def _database_url(base: str, name: str) -> str:
    head, _, _ = base.rpartition("/")
    return f"{head}/{name}"


async def _admin(base: str, sql: str) -> None:
    import asyncpg

    from ricochet.server.storage import normalize_url

    url = normalize_url(base).replace("postgresql+asyncpg://", "postgresql://")
    conn = await asyncpg.connect(url)
    try:
        await conn.execute(sql)
    finally:
        await conn.close()


async def _lease_owner(database: str, room_id: str) -> str | None:
    import asyncpg

    conn = await asyncpg.connect(database)
    try:
        return await conn.fetchval("SELECT owner FROM room_leases WHERE room_id = $1", room_id)  # type: ignore[no-any-return]
    finally:
        await conn.close()


@pytest.fixture
def cluster(tmp_path: Path) -> Iterator[Cluster]:
    assert PG is not None
    name = f"ricochet_cluster_{secrets.token_hex(4)}"
    asyncio.run(_admin(PG, f"CREATE DATABASE {name}"))
    free = load_benchmark().free_port
    c = Cluster(tmp_path, _database_url(PG, name).replace("postgresql+asyncpg://", "postgresql://"), free(),
                {"w1": free(), "w2": free()})
    try:
        yield c
    finally:
        c.stop()
        asyncio.run(_admin(PG, f"DROP DATABASE IF EXISTS {name} WITH (FORCE)"))


def test_a_room_survives_its_worker_killed_mid_round(cluster: Cluster) -> None:
    c = cluster
    c.start_worker("w1")
    c.wait_healthy(c.ports["w1"])  # the first migrates the new database; then the second and the proxy
    c.start_worker("w2")
    c.wait_healthy(c.ports["w2"])
    c.start_proxy()
    c.wait_healthy(c.proxy_port)
    c.say(f"PostgreSQL database ready, workers w1 (:{c.ports['w1']}) and w2 (:{c.ports['w2']}), "
          f"HAProxy on :{c.proxy_port}")
    status, _, made = http(c.proxy_port, "POST", "/api/rooms",
                           {"min_players": 2, "clock_seconds": 600, "tiles": "1A,2A,3A,4A"})
    assert status == 201, made
    rid = made["room_id"]
    c.say(f"room {rid} created through the proxy")

    async def play() -> dict[str, Any]:
        url = f"ws://127.0.0.1:{c.proxy_port}/ws/{rid}"
        ann, bob = RicochetClient(url, reconnect=30), RicochetClient(url, reconnect=30)
        for x, name in ((ann, "Ann"), (bob, "Bob")):
            await x.connect()
            await x.hello(name)
        await ann.start()
        await ann.wait_for(lambda m: m.get("type") == "event" and m["event"]["type"] == "chip_drawn", 15)
        acked = []
        for x, moves, ref in ((ann, 12, "a1"), (bob, 9, "b1"), (ann, 7, "a2")):
            await x.bid(moves, ref=ref)
            await x.wait_for(lambda m, ref=ref: m.get("type") == "ack" and m["ref"] == ref, 10, raise_errors=True)
            acked.append((x.player, moves))
        await bob.chat("before the crash", ref="c1")
        await bob.wait_for(lambda m: m.get("type") == "ack" and m["ref"] == "c1", 10, raise_errors=True)
        version = ann.version
        owner = await _lease_owner(c.database, rid)
        assert owner is not None
        victim = owner.split("/")[0]
        survivor = "w2" if victim == "w1" else "w1"
        c.say(f"mid-round: bids {acked} and a chat line acknowledged (version {version}); "
              f"the room's lease is held by {owner}")
        t_kill = time.monotonic()
        os.kill(c.procs[victim].pid, signal.SIGKILL)
        c.procs[victim].wait()
        c.say(f"kill -9 {victim} (pid {c.procs[victim].pid})")
        # The clients notice the close and reconnect through the proxy by themselves.
        welcomes = []
        for x in (ann, bob):
            w = await x.wait_for("welcome", 40)
            welcomes.append(w)
        back_after = time.monotonic() - t_kill
        c.say(f"both clients reconnected by themselves and were welcomed again {back_after:.2f} s after the kill "
              f"(reconnects: Ann {ann.reconnects}, Bob {bob.reconnects})")
        new_owner = await _lease_owner(c.database, rid)
        c.say(f"the room's lease is now held by {new_owner}")
        # Nothing acknowledged was lost: the standing bids and the chat line are there.
        standing = {s["player"]: s["moves"] for s in welcomes[0]["state"]["round"]["standing"]}
        chat = [m["text"] for m in welcomes[1]["chat"]]
        # Play on: a lower bid, acknowledged and broadcast to the other player.
        await bob.bid(5, ref="b2")
        await bob.wait_for(lambda m: m.get("type") == "ack" and m["ref"] == "b2", 10, raise_errors=True)
        seen = await ann.wait_for(lambda m: m.get("type") == "event" and m["event"]["type"] == "bid_placed", 10)
        c.say(f"after the failover: Bob bids 5, acknowledged; Ann sees it (version {seen['version']})")
        # The killed worker comes back: the proxy's hash sends the room's requests to it again. A
        # newcomer reaches it; it asks the holder for the room (NOTIFY), the holder hands it over
        # (its players are told room_moving, reconnect, and follow through the proxy).
        c.start_worker(victim)
        await asyncio.to_thread(c.wait_healthy, c.ports[victim])
        routed = await asyncio.to_thread(c.wait_routed, victim)
        c.say(f"{victim} answers again, and HAProxy routes to it {routed:.2f} s later")
        t_back = time.monotonic()
        watcher = RicochetClient(url, reconnect=30)
        await watcher.connect()
        await watcher.hello(spectate=True, timeout=20)
        handed = await _lease_owner(c.database, rid)
        for x in (ann, bob):
            await x.wait_for("welcome", 20)
        c.say(f"{victim} restarted; a spectator through the proxy reached it and the room was handed over to "
              f"{handed} in {time.monotonic() - t_back:.2f} s; Ann and Bob followed (reconnects: "
              f"{ann.reconnects}, {bob.reconnects})")
        await ann.bid(4, ref="a3")
        await ann.wait_for(lambda m: m.get("type") == "ack" and m["ref"] == "a3", 10, raise_errors=True)
        for x in (ann, bob, watcher):
            await x.close()
        return {"acked": acked, "standing": standing, "chat": chat, "version": version, "owner": owner,
                "new_owner": new_owner, "victim": victim, "survivor": survivor, "back_after": back_after,
                "welcome_version": welcomes[0]["version"], "after": seen["event"], "reconnects":
                    (ann.reconnects, bob.reconnects), "players": (ann.player, bob.player), "handed": handed}

    r = asyncio.run(play())
    ann_id, bob_id = r["players"]
    assert r["reconnects"] == (2, 2)  # after the kill, and after the hand-over
    assert r["new_owner"] is not None and r["new_owner"].startswith(r["survivor"] + "/"), r
    assert r["standing"] == {ann_id: 7, bob_id: 9}, r  # each player's last acknowledged bid
    assert "before the crash" in r["chat"]
    assert r["welcome_version"] >= r["version"]
    assert r["after"]["player"] == bob_id and r["after"]["moves"] == 5
    # The log, read through the proxy: every acknowledged bid, in order, versions without a gap.
    status, _, log = http(c.proxy_port, "GET", f"/api/rooms/{rid}/events")
    assert status == 200
    versions = [e["version"] for e in log["events"]]
    assert versions == list(range(1, len(versions) + 1))
    bids = [(e["event"]["player"], e["event"]["moves"]) for e in log["events"] if e["event"]["type"] == "bid_placed"]
    assert bids == [*r["acked"], (bob_id, 5), (ann_id, 4)], bids
    assert r["handed"] is not None and r["handed"].startswith(r["victim"] + "/") and r["handed"] != r["owner"]
    assert c.wait_healthy(c.ports[r["victim"]])["rooms"] == 1
    assert c.wait_healthy(c.ports[r["survivor"]])["rooms"] == 0
    c.say(f"the log through the proxy: versions 1..{versions[-1]} without a gap, bids {bids}")
    print("\n".join(["", "distributed test log:", *c.log]))
