"""The load benchmark (benchmarks/load.py) at a tiny size: a real server subprocess, real
WebSockets on loopback, clients in this process."""

from __future__ import annotations

import pytest

from realserver import load_benchmark


@pytest.mark.slow
def test_tiny_load_run_measures_latency_without_errors() -> None:
    load = load_benchmark()
    cfg = load.LoadConfig(rooms=3, players=2, rate=4.0, moves_per_player=5, duration=3.0, workers=0,
                          grace=1.0, quiet=True)
    report = load.run_benchmark(cfg)
    text = load.format_report(report)
    assert report["errors"] == 0, text
    assert report["connections"] == 6
    assert report["moves_broadcast"] >= 10, text  # 3 rooms x ~4 moves/s x 3 s, some give-ups
    # every move reached both clients of its room, each a latency
    assert report["broadcasts"] == report["broadcasts_expected"] == 2 * report["moves_broadcast"], text
    assert 0 < report["p50_ms"] <= report["p99_ms"] <= report["max_ms"], text
    assert report["server_cpu_pct"] is not None
    assert "latency p99 (ms)" in text
