"""Threaded A* on the hard set's puzzles: GNU OpenMP spinning (default) vs sleeping (PASSIVE) waits."""
import os
import time

from ricochet import datasets
from ricochet.notation.interchange import read_jsonl
from ricochet.solver import api, solve

ps = [p for _, p in read_jsonl(datasets.path("hard").read_text().splitlines())][:4]
api.warm_up(); api.warm_up_threads()
for th in (1, 2, 16):
    ts = []
    for p in ps:
        t = time.perf_counter(); s = solve(p, threads=th); ts.append(time.perf_counter() - t)
    print(f"policy={os.environ.get('OMP_WAIT_POLICY', 'default')} threads={th:2d} total {sum(ts):.3f} s "
          f"({', '.join(f'{x:.2f}' for x in ts)})", flush=True)
