"""How long the trainer takes to make puzzles: every game, style and length
the server asks for (a rated puzzle, a streak's, the pool's) and a month of
daily puzzles, a few seeds each.  Prints one table; run with

    .venv/bin/python benchmarks/trainer.py [--seeds 5]

Each figure is the time of one ``generate`` call (drawing candidates and
solving each with the optimal solver until one has the requested length), as
the server's worker runs it.
"""

from __future__ import annotations

import argparse
import datetime as dt
import statistics
import time

from ricochet.solver import warm_up
from ricochet.trainer import daily_puzzle, generate
from ricochet.trainer.puzzles import LENGTHS, STYLES


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seeds", type=int, default=5, help="puzzles per (game, style, length)")
    args = ap.parse_args()
    warm_up()
    print(f"{'game':16} {'style':10} {'length':>6} {'median s':>9} {'max s':>7}  found")
    for game, styles in STYLES.items():
        lo, hi = LENGTHS[game]
        for style in styles:
            for length in range(lo, hi + 1):
                times, found = [], 0
                for seed in range(args.seeds):
                    t0 = time.perf_counter()
                    tp = generate(game, length, style, seed=f"bench:{seed}", time_budget=30.0)
                    times.append(time.perf_counter() - t0)
                    found += tp is not None and tp.optimal == length
                print(f"{game:16} {style:10} {length:>6} {statistics.median(times):>9.3f} {max(times):>7.3f}  "
                      f"{found}/{args.seeds}")
    for game in STYLES:
        t0 = time.perf_counter()
        for d in range(31):
            daily_puzzle(game, dt.date(2026, 1, 1) + dt.timedelta(days=d))
        print(f"daily {game}: 31 days in {time.perf_counter() - t0:.2f} s")


if __name__ == "__main__":
    main()
