"""The bidding round for several agents (PettingZoo, agent-environment cycle)."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from ..generate import puzzle_colors, random_puzzle
from ..geometry import DIRECTIONS
from ..position import IllegalMove, Move, Position
from ..puzzle import Puzzle
from ..rules import GAME, Rules
from .observation import PLANES, VECTOR_SIZE, planes, static_planes, vector

__all__ = ["BiddingEnv"]


class BiddingEnv(AECEnv[str, dict[str, np.ndarray], int]):  # type: ignore[misc]  # PettingZoo is untyped
    """One round of Ricochet Robots' bidding for ``players`` agents, turn by
    turn (the sand clock's race is left out: bids are sealed, one each).

    1. **Bidding**: each agent in turn bids a number of moves (action
       ``1..max_bid``) or passes (action ``0``).
    2. **Demonstrations**: the lowest bidder (ties: the earlier bid) plays from
       the round's start, one move per action (``max_bid + 1 + robot * 4 +
       direction``).  Reaching the target by the rules within the bid wins:
       reward +1 and the round ends.  Using up the bid, or a move the engine
       refuses, fails: reward -1, the robots go back and the next bidder plays.
       Nobody bids, or everyone fails: the round ends with no reward.

    Observations (per agent, all public): the planes and vector of
    :mod:`ricochet.envs.observation`, ``bids`` (each agent's bid, 0 for none
    or not yet) and ``action_mask`` (the actions allowed to that agent now).

    >>> env = BiddingEnv(players=2)
    >>> env.reset(seed=3)
    >>> env.agent_selection, int(env.observe("player_0")["action_mask"].sum())
    ('player_0', 21)
    """

    metadata = {"render_modes": ["ansi"], "name": "ricochet_bidding_v0", "is_parallelizable": False}  # noqa: RUF012

    def __init__(self, *, players: int = 2, rules: Rules = GAME, faces: str = "AB", max_bid: int = 20,
                 render_mode: str | None = None) -> None:
        super().__init__()
        if not isinstance(players, int) or not 1 <= players <= 8:
            raise ValueError(f"players must be 1 to 8, got {players!r}")
        if not isinstance(max_bid, int) or max_bid < 1:
            raise ValueError(f"max_bid must be a positive integer, got {max_bid!r}")
        if render_mode is not None and render_mode != "ansi":
            raise ValueError(f"render_mode must be None or 'ansi', got {render_mode!r}")
        self.rules, self.faces, self.max_bid, self.render_mode = rules, faces, max_bid, render_mode
        self.possible_agents = [f"player_{i}" for i in range(players)]
        robots = len(puzzle_colors(rules))
        self.n_actions = max_bid + 1 + robots * len(DIRECTIONS)
        one = spaces.Dict({
            "planes": spaces.Box(0, 4, (PLANES, 16, 16), dtype=np.uint8),
            "vector": spaces.Box(-1, np.iinfo(np.int16).max, (VECTOR_SIZE,), dtype=np.int16),
            "bids": spaces.Box(0, max_bid, (players,), dtype=np.int16),
            "action_mask": spaces.Box(0, 1, (self.n_actions,), dtype=np.int8),
        })
        self.observation_spaces = {a: one for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(self.n_actions) for a in self.possible_agents}
        self._rng = random.Random()
        self.puzzle: Puzzle | None = None
        self.position: Position | None = None

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    # -- the round --------------------------------------------------------------------------------
    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """A new round: a random puzzle (``options={"puzzle": p}``: that one), nobody has bid."""
        if seed is not None:
            self._rng.seed(seed)
        self.agents = list(self.possible_agents)
        given = (options or {}).get("puzzle")
        self.puzzle = given if isinstance(given, Puzzle) else random_puzzle(self._rng, self.rules, faces=self.faces)
        self.position = self.puzzle.position
        self._static = static_planes(self.puzzle)
        self.bids: dict[str, int] = {}
        self.order: list[str] = []
        self.demonstrator: str | None = None
        self.spent = 0
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self.agent_selection = self.agents[0]

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        """What ``agent`` sees now (everything is public) and the actions it may take."""
        assert self.puzzle is not None and self.position is not None, "call reset() first"
        mask = np.zeros(self.n_actions, dtype=np.int8)
        if agent == self.agent_selection and not (self.terminations[agent] or self.truncations[agent]):
            if self.demonstrator is None:
                mask[:self.max_bid + 1] = 1
            else:
                for move, _ in self.position.legal_moves.with_paths():
                    mask[self.max_bid + 1 + move.robot * len(DIRECTIONS) + move.direction.index] = 1
        bids = np.array([self.bids.get(a, 0) for a in self.possible_agents], dtype=np.int16)
        return {"planes": planes(self.puzzle, self.position, self._static),
                "vector": vector(self.puzzle, self.position, self.spent), "bids": bids, "action_mask": mask}

    def step(self, action: int | None) -> None:
        """The selected agent's bid or move (see the class)."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        assert self.puzzle is not None and self.position is not None
        self._cumulative_rewards[agent] = 0.0
        self.rewards = {a: 0.0 for a in self.agents}
        action = int(action) if action is not None else 0
        if self.demonstrator is None:
            self._bid(agent, action)
        else:
            self._move(agent, action)
        self._accumulate_rewards()

    def _bid(self, agent: str, action: int) -> None:
        if 1 <= action <= self.max_bid:
            self.bids[agent] = action
        i = self.agents.index(agent)
        if i + 1 < len(self.agents):
            self.agent_selection = self.agents[i + 1]
            return
        # Everyone has bid: lowest first, ties to the earlier bid (the order of the agents).
        self.order = sorted(self.bids, key=lambda a: (self.bids[a], self.agents.index(a)))
        self._next_demonstrator()

    def _next_demonstrator(self) -> None:
        assert self.puzzle is not None
        self.position, self.spent = self.puzzle.position, 0
        if not self.order:
            self._end()
            return
        self.demonstrator = self.agent_selection = self.order.pop(0)

    def _move(self, agent: str, action: int) -> None:
        assert self.puzzle is not None and self.position is not None
        index = action - self.max_bid - 1
        ok = 0 <= index < self.n_actions - self.max_bid - 1
        if ok:
            robot, d = divmod(index, len(DIRECTIONS))
            try:
                paths = self.position.paths(robot, DIRECTIONS[d])
                path = min(paths, key=lambda p: (p.cost, p.end))
                self.position, _ = self.position.play(Move(robot, DIRECTIONS[d], path.end if len(paths) > 1 else None))
                self.spent += path.cost
            except IllegalMove:
                ok = False
        winner = self.puzzle.solved_by(self.position) if ok else None
        solved = winner is not None and (not self.position.rules.must_ricochet or winner in self.position.turned)
        if solved and self.spent <= self.bids[agent]:
            self.rewards[agent] = 1.0
            self._end()
        elif not ok or self.spent >= self.bids[agent]:
            self.rewards[agent] = -1.0
            self._next_demonstrator()

    def _end(self) -> None:
        self.demonstrator = None
        self.terminations = {a: True for a in self.agents}

    def render(self) -> str | None:
        """``render_mode="ansi"``: the terminal diagram of the round as it stands."""
        if self.render_mode == "ansi" and self.puzzle is not None and self.position is not None:
            return str(Puzzle(self.position, self.puzzle.target, self.puzzle.active))
        return None

    def close(self) -> None:
        """Nothing to release."""
