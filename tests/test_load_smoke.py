"""The load benchmark (benchmarks/load.py) at a tiny size: a real server subprocess, real
WebSockets on loopback, clients in this process."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from realserver import load_benchmark


@pytest.mark.slow
def test_tiny_mixed_load_run_measures_latency_without_errors() -> None:
    load = load_benchmark()
    # Four rooms, Ricochet Robots and Ricochet Pyramids in turn (the default), started over a second.
    cfg = load.LoadConfig(rooms=4, players=2, rate=4.0, moves_per_player=5, duration=3.0, workers=0, trainer_pool=0,
                          grace=1.0, quiet=True, stagger=1.0)
    report = load.run_benchmark(cfg)
    text = load.format_report(report)
    assert report["errors"] == 0, text
    assert report["connections"] == 8
    assert report["moves_broadcast"] >= 4, text  # 4 rooms x ~4 moves/s x 3 s on a quiet machine, some give-ups
    # every move reached both clients of its room, each a latency
    assert report["broadcasts"] == report["broadcasts_expected"] == 2 * report["moves_broadcast"], text
    assert 0 < report["p50_ms"] <= report["p99_ms"] <= report["max_ms"], text
    # the percentiles count the moves of the window where every room plays (the first rooms start earlier)
    assert 0 < report["broadcasts_in_percentiles"] < report["broadcasts"], text
    assert "rooms started over 1 s" in text
    assert report["server_cpu_pct"] is not None
    assert "latency p99 (ms)" in text
    # Both games were played: bids (Pyramids: once its goal was checked), demonstrations, moves.
    by_game = {g["game"]: g for g in report["by_game"]}
    assert set(by_game) == {"ricochet-robots", "pyramids"}, text
    for g in by_game.values():
        # (At least one move each: how many fit in 3 s depends on how busy the machine is; a
        # Pyramids room first waits for its goal check.)
        assert g["rooms"] == 2 and g["moves_broadcast"] >= 1 and g["broadcasts"] == 2 * g["moves_broadcast"], text
    assert "by game:" in text and "pyramids" in text


def test_room_options_are_valid_for_both_games() -> None:
    from ricochet.server import protocol as P

    load = load_benchmark()
    cfg = load.LoadConfig()
    for game in load.GAMES:
        opts = P.normalize_options(load.room_options(cfg, game))
        assert opts["game"] == game and opts["clock_seconds"] == cfg.clock_seconds
        assert opts["min_players"] == cfg.players and opts["bots"] == []
    with pytest.raises(ValueError, match="unknown game"):
        load.room_options(cfg, "chess")


@pytest.mark.slow
def test_tiny_flood_run_is_refused_while_the_rooms_play() -> None:
    """``--flood`` at a tiny size: the server keeps its per-address limits, the honest rooms come
    from addresses of their own and get every broadcast, the flood from 127.0.66.6 is refused
    (rooms, connections, messages) and held to the limits.  No latency threshold here: that is
    the benchmark's verdict, not a unit test's (a loaded machine would make it flaky)."""
    load = load_benchmark()
    # 6 in flight per kind: more socket opens wait for their turn than 2 s of turns hold, so some are refused
    cfg = load.LoadConfig(rooms=2, players=2, rate=4.0, moves_per_player=5, duration=3.0, workers=0, trainer_pool=0, grace=1.0,
                          games=("ricochet-robots",), quiet=True, flood=True, flood_concurrency=6, flood_nice=0)
    report = load.run_benchmark(cfg)
    text = load.format_report(report)
    assert report["per_address_limits"] and report["errors"] == 0, text
    assert report["moves_broadcast"] >= 4, text
    assert report["broadcasts"] == report["broadcasts_expected"] == 2 * report["moves_broadcast"], text
    flood = report["flood"]
    kinds = flood["kinds"]
    assert flood["addresses"] == ["127.0.66.6"]
    assert flood["bounded"] and flood["limits_reached"], text
    assert kinds["rooms"]["accepted"] <= 10 < kinds["rooms"]["attempts"], text  # room_burst 10, then 2 a minute
    assert kinds["rooms"]["refused"] > 0 and kinds["connections"]["refused"] > 0, text
    assert kinds["messages"]["refused"] > 0 and kinds["lobby"]["accepted"] > 0, text
    assert flood["server_connections_max"] <= 4 + 32, text  # honest + connections_per_address
    assert "flood from 127.0.66.6" in text and "bounded: yes" in text


def test_honest_rooms_have_addresses_of_their_own() -> None:
    load = load_benchmark()
    assert [load.room_source(i) for i in (0, 1, 249, 250)] == ["127.0.100.1", "127.0.100.2", "127.0.100.250",
                                                               "127.0.101.1"]
    assert load.flood_source(0) == "127.0.66.6"
    assert load.flood_source(0) not in {load.room_source(i) for i in range(load.MAX_SPREAD_ROOMS)}
    with pytest.raises(ValueError, match="addresses of their own"):
        load.room_source(load.MAX_SPREAD_ROOMS)


def test_websocket_transport_connects_from_its_source_address() -> None:
    """``WebSocketTransport(source=…)``: the server sees that address (what the flood benchmark
    and the per-address tests rely on)."""
    from websockets.asyncio.server import ServerConnection, serve

    from ricochet.server.client import WebSocketTransport

    async def main() -> list[str | None]:
        async def echo_address(ws: ServerConnection) -> None:
            await ws.send(ws.remote_address[0])

        async with serve(echo_address, "127.0.0.1", 0) as server:
            port = server.sockets[0].getsockname()[1]
            seen = []
            for source in ("127.0.9.9", None):
                t = WebSocketTransport(f"ws://127.0.0.1:{port}/", source=source)
                await t.connect()
                seen.append(await t.recv())
                await t.close()
            return seen

    assert asyncio.run(main()) == ["127.0.9.9", "127.0.0.1"]


@pytest.mark.slow
def test_tiny_run_on_two_workers_behind_haproxy() -> None:
    """``--server-workers 2``: ``ricochet serve --workers 2`` (HAProxy in front, one SQLite file):
    every room's players reach the worker that holds it, every move reaches every player, and
    the report counts the CPU of both workers and of the proxy."""
    from ricochet.server.proxy import haproxy_path

    if haproxy_path() is None:
        pytest.skip("ricochet serve --workers needs HAProxy: apt-get install haproxy")
    load = load_benchmark()
    cfg = load.LoadConfig(rooms=4, players=2, rate=4.0, moves_per_player=5, duration=3.0, workers=0, trainer_pool=0, grace=1.0,
                          quiet=True, spread=True, server_workers=2)
    report = load.run_benchmark(cfg)
    text = load.format_report(report)
    assert report["errors"] == 0, text
    assert report["moves_broadcast"] >= 16, text
    assert report["broadcasts"] == report["broadcasts_expected"] == 2 * report["moves_broadcast"], text
    assert report["server_processes"] == 2 and report["proxy_cpu_pct"] is not None, text
    assert report["server_cpu_ms_per_move"] is not None and "server CPU ms per move" in text


def test_a_picked_port_is_free_with_the_ports_after_it_and_out_of_the_client_range() -> None:
    """``ricochet serve --workers N`` listens on the picked port and the N after it; the kernel
    gives client sockets ports of its own range, so a pick there could meet one (two suites side
    by side lost a worker's port so)."""
    import socket

    load = load_benchmark()
    low, high = (int(x) for x in Path("/proc/sys/net/ipv4/ip_local_port_range").read_text().split())
    for span in (1, 3):
        base = load.free_port(span)
        assert load.PICKED_PORTS.start <= base and base + span <= load.PICKED_PORTS.stop
        assert base + span <= low or base > high
        with socket.socket() as first, socket.socket() as last:
            first.bind(("127.0.0.1", base))
            if span > 1:
                last.bind(("127.0.0.1", base + span - 1))


def test_a_server_that_lost_its_port_is_started_again_on_another() -> None:
    load = load_benchmark()
    tried: list[int] = []

    class Lost:
        def __init__(self, port: int) -> None:
            self.port, self.stopped = port, False
            tried.append(port)

        def wait_healthy(self) -> None:
            if len(tried) < 3:
                raise RuntimeError("the server exited with 1:\nricochet: cannot listen on 127.0.0.1: "
                                   "[Errno 98] Address already in use")

        def stop(self) -> None:
            self.stopped = True

    server = load.start_server(None, 3, Lost)
    assert len(tried) == 3 and server.port == tried[-1] and not server.stopped
    tried.clear()
    with pytest.raises(RuntimeError, match="Address already in use"):
        load.start_server(None, 1, Lost, tries=2)  # out of tries
    tried.clear()
    with pytest.raises(RuntimeError, match="Address already in use"):
        load.start_server(20123, 1, Lost)  # a port the caller named is not changed
    assert tried == [20123]
