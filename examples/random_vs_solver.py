"""A random policy and the solver's policy on the same 100 puzzles, in the
Gymnasium environment: it trains nothing, it shows the scale of the task.

    pip install 'ricochet[envs]'
    python examples/random_vs_solver.py [--episodes 100] [--rules game|plain]

The random policy picks uniformly among the legal moves (the action mask);
the solver's plays an optimal solution found at the start of each episode.
"""

from __future__ import annotations

import argparse
import statistics
import time

import gymnasium
import numpy as np

import ricochet.envs  # noqa: F401 (registers the environment)
from ricochet.rules import Rules
from ricochet.solver import solve


def run(policy: str, episodes: int, rules: Rules, seed: int, max_steps: int) -> tuple[list[int], int, float]:
    """Moves per episode, episodes solved, seconds."""
    env = gymnasium.make("ricochet/RicochetRobots-v0", rules=rules, max_steps=max_steps)
    rng = np.random.default_rng(seed)
    lengths, solved = [], 0
    t0 = time.perf_counter()
    for episode in range(episodes):
        _, info = env.reset(seed=seed + episode)  # the same puzzles for both policies
        plan: list[int] = []
        if policy == "solver":
            base = env.unwrapped
            plan = [base.action_of(m) for m in solve(base.puzzle).moves]
        done = False
        while not done:
            if policy == "solver":
                action = plan.pop(0)
            else:
                action = int(rng.choice(np.flatnonzero(info["action_mask"])))
            _, _, terminated, truncated, info = env.step(action)
            done = terminated or truncated
        solved += terminated
        lengths.append(info["moves"])
    env.close()
    return lengths, solved, time.perf_counter() - t0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--episodes", type=int, default=100)
    parser.add_argument("--rules", default="game", choices=["game", "plain"])
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--max-steps", type=int, default=1000, help="the random policy gives up after this many")
    args = parser.parse_args()
    rules = Rules.preset(args.rules)
    print(f"{args.episodes} episodes, {args.rules} rules, random boards of the real tiles, "
          f"episodes cut at {args.max_steps} moves")
    for policy in ("random", "solver"):
        lengths, solved, seconds = run(policy, args.episodes, rules, args.seed, args.max_steps)
        print(f"{policy:>6}: mean length {statistics.mean(lengths):7.1f} moves "
              f"(median {statistics.median(lengths):g}), solved {solved}/{args.episodes}, {seconds:.1f} s")


if __name__ == "__main__":
    main()
