"""The reinforcement-learning environments (ricochet.envs, the ``envs`` extra):
Gymnasium's and PettingZoo's own checkers, the rules honoured, the shaped
reward, and the random-vs-solver example."""

from __future__ import annotations

import subprocess
import sys
import warnings
from pathlib import Path

import numpy as np
import pytest

gymnasium = pytest.importorskip("gymnasium")
pytest.importorskip("pettingzoo")

from ricochet import GAME, PLAIN, Puzzle
from ricochet.envs import BiddingEnv, RicochetEnv
from ricochet.solver import solve

ROOT = Path(__file__).resolve().parent.parent


def test_check_env_passes() -> None:
    from gymnasium.utils.env_checker import check_env

    with warnings.catch_warnings():
        warnings.simplefilter("error")  # any complaint of the checker fails the test
        check_env(gymnasium.make("ricochet/RicochetRobots-v0", tiles="1A3B4A2A", render_mode="ansi").unwrapped)
        # Every other rule option: plain rules with the transparent robot, the faces with diagonals,
        # the reward shaped by the solver.
        check_env(gymnasium.make("ricochet/RicochetRobots-v0", rules=PLAIN.with_options(transparent=True),
                                 faces="CD", shaping=True).unwrapped)


def test_pettingzoo_api_test_passes() -> None:
    from pettingzoo.test import api_test

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        # Advice for PettingZoo's own environments, not faults: our observations are dicts (planes,
        # vector, bids, action_mask), and an agent whose turn it is not may do nothing (mask of zeros).
        for advice in ("Observation is not a NumPy array", "Observation space for each agent probably",
                       "Action mask numpy array is all zeros"):
            warnings.filterwarnings("ignore", message=advice)
        api_test(BiddingEnv(players=3), num_cycles=300)


def test_an_episode_follows_the_engine_and_the_rules() -> None:
    """The game rules' straight slide onto the target does not end the episode; the solver's
    optimal moves do, in exactly its length."""
    pz = Puzzle.from_code("xY2RjY2BoYGBg4GBAAAA.r03b30.r53.!mn")
    env = RicochetEnv(board=pz.position.board, rules=pz.rules)
    env.robots = 2
    _, info = env.reset(seed=0, options={"puzzle": pz})
    _, reward, terminated, _, info = env.step(env.action_of(pz.position.parse_move("RE")))
    assert (reward, terminated, info["moves"]) == (-1.0, False, 1)  # on the target, but no ricochet
    env.reset(seed=0, options={"puzzle": pz})
    sol = solve(pz)
    for k, move in enumerate(sol.moves):
        obs, reward, terminated, truncated, info = env.step(env.action_of(move))
        assert reward == -1.0 and terminated == (k == len(sol.moves) - 1) and not truncated
    assert info["moves"] == sol.length == 6 and obs["vector"][-1] == 6


def test_an_illegal_action_changes_nothing_and_costs_a_step() -> None:
    env = RicochetEnv(tiles="1A3B4A2A", max_steps=3)
    obs, info = env.reset(seed=5)
    illegal = int(np.flatnonzero(~info["action_mask"])[0])
    after, reward, terminated, _, info = env.step(illegal)
    assert info["illegal"] in ("blocked", "reversal") and reward == -1.0 and not terminated
    assert np.array_equal(after["planes"], obs["planes"])
    env.step(illegal)
    assert env.step(illegal)[3]  # truncated at max_steps


def test_shaped_reward_is_zero_for_an_optimal_move() -> None:
    env = RicochetEnv(tiles="1A3B4A2A", shaping=True)
    env.reset(seed=2)
    assert env.puzzle is not None and env.puzzle.rules == GAME
    moves = solve(env.puzzle).moves
    rewards = [env.step(env.action_of(m))[1] for m in moves]
    assert rewards == [0.0] * len(moves)


def test_the_bidding_round_pays_the_demonstrator_who_solves_within_the_bid() -> None:
    env = BiddingEnv(players=2)
    env.reset(seed=1)
    assert env.puzzle is not None
    moves = solve(env.puzzle).moves
    env.step(len(moves) + 1)  # player_0 bids more
    env.step(len(moves))      # player_1 bids the optimum: demonstrates first
    assert env.agent_selection == "player_1"
    for m in moves:
        env.step(env.max_bid + 1 + m.robot * 4 + m.direction.index)
    assert env.rewards == {"player_0": 0.0, "player_1": 1.0} and all(env.terminations.values())


def test_the_random_versus_solver_example_runs() -> None:
    out = subprocess.run([sys.executable, str(ROOT / "examples" / "random_vs_solver.py"), "--episodes", "3",
                          "--max-steps", "200"], capture_output=True, text=True, timeout=600, check=True).stdout
    assert "random: mean length" in out and "solver: mean length" in out and "solved 3/3" in out
