#!/usr/bin/env python3
"""The tablebase benchmark: the time and peak memory of full tables, and the
table against ``solve`` on random positions.

    .venv/bin/python benchmarks/tablebase.py [--tiles 1A,3B,4A,2A] [--target 8,5] [--robots 4]
                                             [--repeat 3] [--check 1000] [--gpu] [--threads N]
                                             [--vortex] [--compare OTHER/src]

Each build runs in a fresh process (numba's cache already warm: one build
compiles first) so its peak resident memory is its own; the time is that of
the search alone (the table in memory, not saved).  ``--check N`` then
compares the table with ``solve`` on N random positions of the board
(``solve_many`` on every core).  ``--compare DIR`` alternates each build
with one by the package in DIR (another checkout's ``src``: before/after
under the same load).  Prints Markdown tables; see ``docs/tablebase.md``
for the figures.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
try:
    import ricochet  # noqa: F401
except ImportError:  # run from a checkout without the package installed
    sys.path.insert(0, str(HERE.parent / "src"))

CHILD = """
import json, resource, sys, time
from ricochet.tablebase.build import build_table
from ricochet.tablebase.layout import Layout
from ricochet.tiles import assemble, parse_arrangement
import numba
args = json.loads(sys.argv[1])
if args["threads"]:
    numba.set_num_threads(args["threads"])
layout = Layout.of(assemble(*parse_arrangement(args["tiles"])), tuple(args["target"]), args["robots"],
                   **({"any_robot": True} if args.get("vortex") else {}))
start, cpu = time.perf_counter(), time.process_time()
table = build_table(layout, gpu=args["gpu"])
seconds, cpu = time.perf_counter() - start, time.process_time() - cpu
from ricochet.tablebase.cpu import histogram
hist = histogram(table)
longest = max(k for k in range(255) if hist[k])
print(json.dumps({"seconds": seconds, "cpu": cpu, "positions": layout.size, "longest": longest, "at_longest": int(hist[longest]),
                  "threads": numba.get_num_threads(),
                  "rss_mib": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}))
"""


def build_once(args: argparse.Namespace, src: str | None = None) -> dict[str, float]:
    spec = {"tiles": args.tiles, "target": list(args.target), "robots": args.robots, "gpu": args.gpu,
            "threads": args.threads, "vortex": args.vortex}
    env = {**os.environ, "PYTHONPATH": src} if src else None
    done = subprocess.run([sys.executable, "-c", CHILD, json.dumps(spec)], capture_output=True, text=True, check=False,
                          env=env)
    if done.returncode != 0:
        sys.exit(f"tablebase benchmark: the build failed:\n{done.stderr[-2000:]}")
    result: dict[str, float] = json.loads(done.stdout.strip().splitlines()[-1])
    result["load"] = os.getloadavg()[0]  # the 1-minute load as the build ends (the others' work included)
    return result


def check(args: argparse.Namespace) -> str:
    from ricochet.generate import random_position
    from ricochet.puzzle import Puzzle
    from ricochet.solver import solve_many
    from ricochet.tablebase import Tablebase
    from ricochet.tiles import assemble, parse_arrangement

    board = assemble(*parse_arrangement(args.tiles))
    tb = Tablebase.build(board, args.target, robots=args.robots)
    rng = random.Random(2026)
    colors = ("red", "green", "blue", "yellow")[:args.robots]
    puzzles = [Puzzle(random_position(board, rng, colors), args.target, 0) for _ in range(args.check)]
    start = time.perf_counter()
    looked = [tb.lookup(p) for p in puzzles]
    lookup_s = time.perf_counter() - start
    start = time.perf_counter()
    solved = [s.length for s in solve_many(puzzles)]
    solve_s = time.perf_counter() - start
    wrong = [(p.position.cells, a, b) for p, a, b in zip(puzzles, looked, solved) if a != b]
    lengths = [x for x in looked if x is not None]
    return "\n".join([
        "| positions | agree with solve | table lookups | solve_many | mean length | longest drawn |",
        "|---|---|---|---|---|---|",
        (f"| {len(puzzles)} | {len(puzzles) - len(wrong)} | {lookup_s:.3f} s | {solve_s:.1f} s | "
         f"{statistics.mean(lengths):.2f} | {max(lengths)} |"),
    ] + [f"MISMATCH {w}" for w in wrong[:10]])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tiles", default="1A,3B,4A,2A")
    parser.add_argument("--target", default="8,5", help="x,y (default 8,5: the ASP board's)")
    parser.add_argument("--robots", type=int, default=4)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--check", type=int, default=1000, help="random positions compared with solve (0: none)")
    parser.add_argument("--gpu", action="store_true")
    parser.add_argument("--threads", type=int, default=0, help="numba threads (default: all cores)")
    parser.add_argument("--vortex", action="store_true", help="the vortex table (any robot) of the target cell")
    parser.add_argument("--compare", metavar="SRC", help="alternate each build with one by the package in SRC")
    args = parser.parse_args()
    args.target = tuple(int(v) for v in args.target.split(","))
    load = os.getloadavg()
    print(f"tablebase benchmark: board {args.tiles}, target {args.target}, {args.robots} robots, "
          f"{os.cpu_count()} cores, load {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}")
    trees = [("this", None)] + ([("compare", args.compare)] if args.compare else [])
    for _name, src in trees:
        build_once(args, src)  # compiles (numba cache) so that the timed runs do not
    runs: list[tuple[str, dict[str, float]]] = []
    for _ in range(args.repeat):
        runs.extend((name, build_once(args, src)) for name, src in trees)
    print("| run | package | seconds | CPU seconds | peak RSS | threads | positions | longest | at longest | load |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for i, (name, r) in enumerate(runs, 1):
        print(f"| {i} | {name} | {r['seconds']:.1f} | {r['cpu']:.1f} | {r['rss_mib']:.0f} MiB | {r['threads']} | "
              f"{r['positions']:,} | {r['longest']} | {r['at_longest']} | {r['load']:.2f} |")
    for name, _src in trees:
        mine = [r for n, r in runs if n == name]
        print(f"| median | {name} | {statistics.median(r['seconds'] for r in mine):.1f} | "
              f"{statistics.median(r['cpu'] for r in mine):.1f} | "
              f"{statistics.median(r['rss_mib'] for r in mine):.0f} MiB | | | | | {statistics.median(r['load'] for r in mine):.2f} |")
    if args.check:
        print()
        print(check(args))
    print(f"load after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}; "
          f"this process peak RSS {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MiB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
