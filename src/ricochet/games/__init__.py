"""Pure, deterministic game flows: no I/O, no clock reads, randomness only from
a seed in the configuration.  The shell feeds actions with the current time and
persists the events they return; a game's state is a fold over its events.

* :mod:`ricochet.games.bidding` — the shared bidding round (bids, the never-raise
  rule, demonstration order) and :class:`GameError`.
* :mod:`ricochet.games.ricochet_robots` — the game flow of Ricochet Robots.
"""

from .bidding import MAX_BID, MIN_BID, GameError
from .ricochet_robots import (
    EVENT_TYPES,
    Bid,
    ConfigError,
    Demonstrate,
    EndGame,
    Event,
    GameConfig,
    GameState,
    GiveUp,
    Join,
    Leave,
    ReportSolution,
    Start,
    TurnClock,
    apply,
    event_from_dict,
    fold,
    new_game,
    tick,
)

__all__ = [
    "EVENT_TYPES", "MAX_BID", "MIN_BID", "Bid", "ConfigError", "Demonstrate", "EndGame", "Event", "GameConfig",
    "GameError", "GameState", "GiveUp", "Join", "Leave", "ReportSolution", "Start", "TurnClock", "apply",
    "event_from_dict", "fold", "new_game", "tick",
]
