"""One player, one puzzle: reach the target in the fewest moves (Gymnasium)."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, SupportsFloat

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from ..board import Board
from ..generate import puzzle_colors, random_puzzle
from ..geometry import DIRECTIONS
from ..position import IllegalMove, Move, Position
from ..puzzle import Puzzle
from ..rules import GAME, Rules
from ..tiles import assemble, parse_arrangement
from .observation import PLANES, VECTOR_SIZE, planes, static_planes, vector

__all__ = ["RicochetEnv"]


class RicochetEnv(gym.Env[dict[str, np.ndarray], np.int64]):
    """Ricochet Robots for one agent: each episode is a random puzzle on the
    real boards (a random arrangement of the tiles, or the ones given), played
    by ``rules`` (:data:`~ricochet.rules.GAME` by default: must ricochet, no
    straight back, the silver robot; any :class:`~ricochet.rules.Rules` works).

    - **Observation**: a dict of ``planes`` (``uint8``, walls, blocks,
      diagonals, robots, target, active robot) and ``vector`` (``int16``: robot
      cells, target, active robot, the rules' state, moves spent); see
      :mod:`ricochet.envs.observation`.
    - **Action**: ``robot * 4 + direction`` (directions N, E, S, W).  The
      transparent robot stops at its cheapest stop.  An illegal action
      (blocked, moving straight back) changes nothing and costs one step;
      :meth:`action_masks` and ``info["action_mask"]`` give the legal ones.
    - **Reward**: minus the moves spent (the transparent robot's passes count);
      with ``shaping=True`` also the decrease of the solver's optimal remaining
      length (potential-based: an optimal move earns 0, the return is still
      minus the moves spent, shifted by the start's optimum).
    - **End**: ``terminated`` when the puzzle is solved by its rules,
      ``truncated`` after ``max_steps`` steps.

    ``board`` (a :class:`~ricochet.board.Board`) or ``tiles`` (e.g.
    ``"1A3B4A2A"``) fix the board; ``faces`` picks the tile faces of random
    arrangements (``AB``, ``CD`` — with diagonals — or ``ANY``).
    ``render_mode="ansi"`` renders the terminal diagram.

    >>> env = RicochetEnv(tiles="1A3B4A2A")
    >>> obs, info = env.reset(seed=1)
    >>> obs["planes"].shape, env.action_space
    ((15, 16, 16), Discrete(20))
    >>> env.puzzle
    Puzzle.from_code('1A3B4A2A.ra1g3ab6by29se5.bb2.!mns', id='random-1A3B4A2A-3868233237')
    """

    metadata = {"render_modes": ["ansi"], "render_fps": 4}  # noqa: RUF012 (Gymnasium reads it from the class)

    def __init__(self, *, rules: Rules = GAME, tiles: str | Sequence[str] | None = None, board: Board | None = None,
                 faces: str = "AB", max_steps: int = 200, shaping: bool = False, solver_time_limit: float = 10.0,
                 render_mode: str | None = None) -> None:
        if render_mode is not None and render_mode != "ansi":
            raise ValueError(f"render_mode must be None or 'ansi', got {render_mode!r}")
        if not isinstance(max_steps, int) or max_steps < 1:
            raise ValueError(f"max_steps must be a positive integer, got {max_steps!r}")
        if tiles is not None and board is not None:
            raise ValueError("give tiles or board, not both")
        if tiles is not None:
            names = parse_arrangement(tiles if isinstance(tiles, str) else ",".join(tiles))
            board = assemble(*names)
        self.rules = rules
        self.board = board
        self.faces = faces
        self.max_steps = max_steps
        self.shaping = shaping
        self.solver_time_limit = solver_time_limit
        self.render_mode = render_mode
        self.robots = len(puzzle_colors(rules))
        width = height = 16 if board is None else None
        if board is not None:
            width, height = board.width, board.height
        assert width is not None and height is not None
        # A Dict space of Boxes: Gymnasium types the attribute as a space of that dict.
        self.observation_space = spaces.Dict({  # type: ignore[assignment]
            "planes": spaces.Box(0, 4, (PLANES, height, width), dtype=np.uint8),
            "vector": spaces.Box(-1, np.iinfo(np.int16).max, (VECTOR_SIZE,), dtype=np.int16),
        })
        self.action_space: spaces.Discrete = spaces.Discrete(self.robots * len(DIRECTIONS))
        self.puzzle: Puzzle | None = None
        """The episode's puzzle (its start position, with its rules)."""
        self.position: Position | None = None
        """Where the robots are now."""
        self.spent = 0
        self.steps = 0
        self._static: np.ndarray | None = None
        self._rng = random.Random()

    # -- actions ----------------------------------------------------------------------------------
    def move_of(self, action: int) -> Move:
        """The move of an action (the transparent robot: its cheapest stop)."""
        robot, d = divmod(int(action), len(DIRECTIONS))
        return Move(robot, DIRECTIONS[d])

    def action_of(self, move: Move) -> int:
        """The action of a move (a transparent robot's stop is not part of it)."""
        return move.robot * len(DIRECTIONS) + move.direction.index

    def action_masks(self) -> np.ndarray:
        """``True`` for each legal action now."""
        assert self.position is not None, "call reset() first"
        mask = np.zeros(int(self.action_space.n), dtype=np.bool_)
        for move, _ in self.position.legal_moves.with_paths():
            mask[self.action_of(move)] = True
        return mask

    def _play(self, move: Move) -> tuple[Position, int]:
        assert self.position is not None
        paths = self.position.paths(move.robot, move.direction)
        path = min(paths, key=lambda p: (p.cost, p.end))
        after, _ = self.position.play(Move(move.robot, move.direction, path.end if len(paths) > 1 else None))
        return after, path.cost

    # -- the episode ------------------------------------------------------------------------------
    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None
              ) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        """A new random puzzle (``options={"puzzle": p}`` plays that one instead)."""
        super().reset(seed=seed)
        self._rng.seed(int(self.np_random.integers(2 ** 63)))
        given = (options or {}).get("puzzle")
        if given is not None:
            if not isinstance(given, Puzzle) or len(given.position.robots) != self.robots:
                raise ValueError(f"options['puzzle'] must be a Puzzle with {self.robots} robots")
            self.puzzle = given
        else:
            self.puzzle = random_puzzle(self._rng, self.rules, board=self.board, faces=self.faces)
        self.position = self.puzzle.position
        self.spent = self.steps = 0
        self._static = static_planes(self.puzzle)
        self._potential = -self._optimal(self.position) if self.shaping else 0.0
        return self._observation(), self._info()

    def step(self, action: np.int64 | int) -> tuple[dict[str, np.ndarray], SupportsFloat, bool, bool, dict[str, Any]]:
        """Play one action: observation, reward, terminated (solved), truncated
        (``max_steps`` reached) and info (``action_mask``, ``moves`` spent, and
        ``illegal``: the engine's reason when it refused the move)."""
        assert self.puzzle is not None and self.position is not None, "call reset() first"
        if not self.action_space.contains(np.int64(action)):
            raise ValueError(f"action must be 0..{self.action_space.n - 1}, got {action!r}")
        self.steps += 1
        reward = 0.0
        illegal = None
        try:
            self.position, cost = self._play(self.move_of(int(action)))
        except IllegalMove as e:
            cost, illegal = 1, e.reason
        self.spent += cost
        reward -= cost
        solved = self._solved()
        if self.shaping and illegal is None:
            potential = 0.0 if solved else -self._optimal(self.position)
            reward += potential - self._potential
            self._potential = potential
        truncated = not solved and self.steps >= self.max_steps
        info = self._info()
        if illegal is not None:
            info["illegal"] = illegal
        return self._observation(), reward, solved, truncated, info

    def render(self) -> str | None:
        """``render_mode="ansi"``: the terminal diagram of the puzzle as it stands."""
        if self.render_mode == "ansi" and self.position is not None and self.puzzle is not None:
            return str(Puzzle(self.position, self.puzzle.target, self.puzzle.active))
        return None

    # -- helpers ----------------------------------------------------------------------------------
    def _solved(self) -> bool:
        assert self.puzzle is not None and self.position is not None
        winner = self.puzzle.solved_by(self.position)
        return winner is not None and (not self.position.rules.must_ricochet or winner in self.position.turned)

    def _optimal(self, position: Position) -> float:
        """The solver's optimal remaining length from ``position`` (its rule state included)."""
        from ..solver import solve

        assert self.puzzle is not None
        sol = solve(Puzzle(position, self.puzzle.target, self.puzzle.active), time_limit=self.solver_time_limit)
        return float(sol.length) if sol.solved and sol.length is not None else float(self.max_steps)

    def _observation(self) -> dict[str, np.ndarray]:
        assert self.puzzle is not None and self.position is not None
        return {"planes": planes(self.puzzle, self.position, self._static),
                "vector": vector(self.puzzle, self.position, self.spent)}

    def _info(self) -> dict[str, Any]:
        return {"action_mask": self.action_masks(), "moves": self.spent}
