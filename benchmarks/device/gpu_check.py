"""Issue 47, on the lent GPU machine (run by benchmarks/device/gpu-study.sh).

CPU (every core) against GPU, byte for byte, on the claim's board: 3 robots
(blue triangle, vortex), then the four-robot blue-triangle table and the
four-robot vortex table, timing both builds; then the claim's and the
contender's positions looked up in the four-robot tables.  Prints one line
per check; exits 1 if any table differs.  GPU_STUDY_TINY=1: small boards
under the CUDA simulator (to test this script without a GPU).
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
import time

import numba
import numpy as np

from ricochet.tablebase import Tablebase
from ricochet.tablebase.build import build_table
from ricochet.tablebase.dd import parse_game_id
from ricochet.tablebase.layout import Layout
from ricochet.tiles import assemble

TINY = os.environ.get("GPU_STUDY_TINY") == "1"
STAND_IN = os.environ.get("GPU_STUDY_DEVICE") == "cpu"  # testing this script: the CPU stands in for the GPU


def timed(layout: Layout, gpu: bool) -> tuple[np.ndarray, float]:
    start = time.perf_counter()
    table = build_table(layout, gpu=gpu and not STAND_IN)
    return table, time.perf_counter() - start


def compare(label: str, layout: Layout) -> bool:
    gpu, gpu_s = timed(layout, True)
    cpu, cpu_s = timed(layout, False)
    same = gpu.tobytes() == cpu.tobytes()
    hist = np.bincount(cpu, minlength=256)
    longest = int(max(i for i in range(255) if hist[i])) if hist[:255].any() else None
    print(json.dumps({"check": label, "positions": layout.size, "identical": same, "gpu_s": round(gpu_s, 3),
                      "cpu_s": round(cpu_s, 3), "cpu_threads": numba.get_num_threads(), "longest": longest,
                      "sha256": hashlib.sha256(cpu.data).hexdigest()[:16]}), flush=True)
    return same


def main() -> int:
    numba.set_num_threads(numba.config.NUMBA_NUM_THREADS)  # type: ignore[attr-defined]
    ok = True
    if TINY:
        from ricochet.board import Board
        board = Board.build(5, 5, walls=[(1, 1, "E"), (3, 2, "S"), (2, 4, "N")], blocked=[(4, 4)])
        for robots in (3, 4):
            ok &= compare(f"tiny {robots} robots", Layout.of(board, (1, 1), robots))
            ok &= compare(f"tiny {robots} robots vortex", Layout.of(board, (1, 1), robots, any_robot=True))
        return 0 if ok else 1
    board = assemble("4B", "3B", "2B", "1A")  # the 25-move claim's board (DriftingDroids "4B 3B / 1A 2B")
    triangle = board.find_target("blue", "triangle").cell
    vortex = board.find_target("any", "vortex").cell
    # Compile both paths first, on 3 robots, so that the four-robot timings are the builds'.
    ok &= compare("claim board, 3 robots, blue triangle", Layout.of(board, triangle, 3))
    ok &= compare("claim board, 3 robots, vortex", Layout.of(board, vortex, 3, any_robot=True))
    ok &= compare("claim board, 4 robots, vortex", Layout.of(board, vortex, 4, any_robot=True))
    layout = Layout.of(board, triangle, 4)
    gpu, gpu_s = timed(layout, True)
    cpu, cpu_s = timed(layout, False)
    same = gpu.tobytes() == cpu.tobytes()
    ok &= same
    tb = Tablebase(layout, "blue", cpu)
    hist = tb.histogram()
    print(json.dumps({"check": "claim board, 4 robots, blue triangle", "positions": layout.size, "identical": same,
                      "gpu_s": round(gpu_s, 3), "cpu_s": round(cpu_s, 3), "cpu_threads": numba.get_num_threads(),
                      "longest": tb.longest, "at_longest": hist[tb.longest],
                      "sha256": hashlib.sha256(cpu.data).hexdigest()[:16]}), flush=True)
    from ricochet.notation import format_solution, puzzle_code
    # The contender's board is the claim's turned a quarter: its own table (GPU) must have the same histogram.
    pz24 = parse_game_id("0765+42+2E21BD0F+93")
    turned = Layout.of(pz24.position.board, pz24.target, 4)
    t24, t24_s = timed(turned, True)
    tb24 = Tablebase(turned, "blue", t24)
    print(json.dumps({"check": "contender board (the claim's turned), 4 robots, blue triangle, GPU",
                      "gpu_s": round(t24_s, 3), "same_histogram": tb24.histogram() == hist}), flush=True)
    ok &= tb24.histogram() == hist
    for label, game_id, table in (("claim (25)", "7650+42+E2302B12+C9", tb), ("contender (24)", "0765+42+2E21BD0F+93",
                                                                           tb24)):
        pz = parse_game_id(game_id)
        moves = table.solution(pz)
        print(json.dumps({"lookup": label, "game_id": game_id, "code": puzzle_code(pz), "moves": table.lookup(pz),
                          "solution": format_solution(moves or [], pz.position)}), flush=True)
    for e in tb.hardest(3):
        pz = tb.puzzle(list(e.cells))
        print(json.dumps({"hardest": puzzle_code(pz), "moves": e.length,
                          "solution": format_solution(tb.solution(pz) or [], pz.position)}), flush=True)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
