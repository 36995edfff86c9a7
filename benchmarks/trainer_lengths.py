#!/usr/bin/env python3
"""How long making a training puzzle of each optimal length takes, 2 to 21
moves, for each game (Ricochet Robots, Ricochet Pyramids, Micro Robots): one
Markdown table of median seconds per length (and how many of the samples found
one), each game in its first style.

* Lengths the server makes on request (Ricochet Robots up to 13, Pyramids up
  to 12, Micro Robots up to 10): one :func:`ricochet.trainer.generate` call
  per seed, as the server's worker runs it (random candidates, each solved,
  until one has the length).
* Ricochet Robots 14 to 21: :func:`ricochet.trainer.long.climb` (what the
  server's background pool and ``benchmarks/trainer_long.py`` run), one climb
  per seed; the time is when it first found a puzzle of that length.
* Longer Pyramids and Micro Robots lengths: random candidates solved in full
  for ``--stream`` seconds per seed; the time is the first of that length, if
  any ("—": none in the time).

Small samples by design (``--seeds 2``): the development machine is shared;
run it niced::

    nice -n 10 .venv/bin/python benchmarks/trainer_lengths.py --seeds 2
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from ricochet.solver import solve, warm_up
from ricochet.trainer import generate
from ricochet.trainer.grid import GridSpec
from ricochet.trainer.long import climb
from ricochet.trainer.puzzles import GAMES, ON_DEMAND, STYLES
from ricochet.trainer.spec import spec_of

LENGTHS = range(2, 22)


def stream(game: str, style: str, seed: int, seconds: float) -> dict[int, float]:
    """Random candidates solved in full (up to 21 moves) for ``seconds``: when each length was
    first seen.  The game's own draw (its spec) with a length cap of 21."""
    spec = spec_of(game)
    rng = random.Random(f"bench:stream:{game}:{seed}")
    first: dict[int, float] = {}
    t0 = time.perf_counter()
    while (left := seconds - (time.perf_counter() - t0)) > 0:
        if isinstance(spec, GridSpec):
            cand = spec.candidate(style, rng)
            if cand is None or (cand.active is not None and cand.position.robots[cand.active].cell == cand.target):
                continue
            sol = solve(cand, spec.rules, max_moves=21, time_limit=left)
            if not sol.solved or sol.length is None:
                continue
            n = sol.length
        else:
            tp = spec.draw(style, rng, 21, left)
            if tp is None:
                continue
            n = tp.optimal
        first.setdefault(n, time.perf_counter() - t0)
    return first


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seeds", type=int, default=2, help="samples per (game, length) (default 2)")
    ap.add_argument("--budget", type=float, default=20.0, help="seconds a generate call may take (default 20)")
    ap.add_argument("--climb", type=float, default=150.0, help="seconds per climb (default 150)")
    ap.add_argument("--stream", type=float, default=30.0, help="seconds of random candidates past the "
                                                               "on-request lengths (default 30)")
    ap.add_argument("--games", nargs="*", default=None, help="only these games (default: every game)")
    args = ap.parse_args()
    games = [g for g in GAMES if args.games is None or g in args.games]
    warm_up()
    times: dict[tuple[str, int], list[float | None]] = {}
    for game in games:
        style = STYLES[game][0]
        lo = 2
        for length in range(lo, ON_DEMAND[game] + 1):
            for seed in range(args.seeds):
                t0 = time.perf_counter()
                tp = generate(game, length, style, seed=f"bench:{seed}", time_budget=args.budget)
                took = time.perf_counter() - t0
                times.setdefault((game, length), []).append(took if tp is not None and tp.optimal == length else None)
            print(f"# {game} {length}: {times[(game, length)]}", file=sys.stderr, flush=True)
        for seed in range(args.seeds):
            t0 = time.perf_counter()
            if game == "ricochet-robots":
                first: dict[int, float] = {}

                def seen(tp: object, t0: float = t0, first: dict[int, float] = first) -> None:
                    first.setdefault(tp.optimal, time.perf_counter() - t0)  # type: ignore[attr-defined]

                climb(game, style, (ON_DEMAND[game] + 1, 21), f"bench:{seed}", args.climb, found=seen)
            else:
                first = stream(game, style, seed, args.stream)
            for length in range(ON_DEMAND[game] + 1, 22):
                times.setdefault((game, length), []).append(first.get(length))
            print(f"# {game} past {ON_DEMAND[game]}, seed {seed}: {sorted(first.items())}", file=sys.stderr, flush=True)

    def cell(game: str, length: int) -> str:
        got = [t for t in times.get((game, length), []) if t is not None]
        n = len(times.get((game, length), []))
        if not got:
            return f"— (0/{n})"
        return f"{statistics.median(got):.2f} ({len(got)}/{n})"

    def method(game: str) -> str:
        how = f"climb ({args.climb:.0f} s)" if game == "ricochet-robots" else f"random stream ({args.stream:.0f} s)"
        return f"≤{ON_DEMAND[game]} generate, ≥{ON_DEMAND[game] + 1} {how}"

    print(f"median seconds to the first puzzle of each length (found/samples), {args.seeds} samples, "
          f"generate budget {args.budget:.0f} s\n")
    print("| moves | " + " | ".join(f"{g} ({method(g)})" for g in games) + " |")
    print("|---:|" + "---:|" * len(games))
    for length in LENGTHS:
        print(f"| {length} | " + " | ".join(cell(g, length) for g in games) + " |")


if __name__ == "__main__":
    main()
