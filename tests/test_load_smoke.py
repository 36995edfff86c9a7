"""The load benchmark (benchmarks/load.py) at a tiny size: a real server subprocess, real
WebSockets on loopback, clients in this process."""

from __future__ import annotations

import asyncio

import pytest

from realserver import load_benchmark


@pytest.mark.slow
def test_tiny_mixed_load_run_measures_latency_without_errors() -> None:
    load = load_benchmark()
    # Four rooms, Ricochet Robots and Ricochet Pyramids in turn (the default).
    cfg = load.LoadConfig(rooms=4, players=2, rate=4.0, moves_per_player=5, duration=3.0, workers=0,
                          grace=1.0, quiet=True)
    report = load.run_benchmark(cfg)
    text = load.format_report(report)
    assert report["errors"] == 0, text
    assert report["connections"] == 8
    assert report["moves_broadcast"] >= 16, text  # 4 rooms x ~4 moves/s x 3 s, some give-ups
    # every move reached both clients of its room, each a latency
    assert report["broadcasts"] == report["broadcasts_expected"] == 2 * report["moves_broadcast"], text
    assert 0 < report["p50_ms"] <= report["p99_ms"] <= report["max_ms"], text
    assert report["server_cpu_pct"] is not None
    assert "latency p99 (ms)" in text
    # Both games were played: bids (Pyramids: once its goal was checked), demonstrations, moves.
    by_game = {g["game"]: g for g in report["by_game"]}
    assert set(by_game) == {"ricochet-robots", "pyramids"}, text
    for g in by_game.values():
        assert g["rooms"] == 2 and g["moves_broadcast"] >= 8 and g["broadcasts"] == 2 * g["moves_broadcast"], text
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
