"""Reinforcement-learning environments (the ``envs`` extra: ``pip install
'ricochet[envs]'``): the real boards, every rule option, the engine's physics.

- :class:`RicochetEnv` (Gymnasium, registered as ``ricochet/RicochetRobots-v0``):
  one agent reaches the target in the fewest moves; observations as planes and
  a compact vector, action = robot × direction, the reward optionally shaped
  by the solver's optimal length.
- :class:`BiddingEnv` (PettingZoo, agent-environment cycle): one round of the
  bidding game for several agents.

>>> import gymnasium
>>> env = gymnasium.make("ricochet/RicochetRobots-v0", tiles="1A3B4A2A")
>>> obs, info = env.reset(seed=7)
>>> sorted(obs), int(info["action_mask"].sum()) > 0
(['planes', 'vector'], True)
"""

from __future__ import annotations

from typing import Any

try:
    import gymnasium
except ImportError as e:  # pragma: no cover - the extra is missing
    raise ImportError("ricochet.envs needs Gymnasium: pip install 'ricochet[envs]'") from e

from .single import RicochetEnv

__all__ = ["BiddingEnv", "RicochetEnv"]

if "ricochet/RicochetRobots-v0" not in gymnasium.registry:
    gymnasium.register(id="ricochet/RicochetRobots-v0", entry_point="ricochet.envs.single:RicochetEnv")


def __getattr__(name: str) -> Any:
    # PettingZoo only when the multi-agent environment is asked for.
    if name == "BiddingEnv":
        from .bidding import BiddingEnv
        return BiddingEnv
    raise AttributeError(f"module 'ricochet.envs' has no attribute {name!r}")
