"""A game under test through the game interface alone (no server): the live state and its
event log, for the scenario tests of each game."""

from __future__ import annotations

import json
from typing import Any

import pytest

from ricochet.games import GameError
from ricochet.games.table import Join, Start


class GameTable:
    """``game``'s state from ``config`` and every event so far.  :meth:`check_replay` folds the log
    back to the same state, also after a round trip through JSON (with ``view``: and the
    spectator's view is JSON)."""

    def __init__(self, game: Any, config: Any, *, view: bool = True) -> None:
        self.game = game
        self.config = config
        self.state = game.new(config)
        self.log: list = []
        self.view = view

    def emit(self, *events: Any) -> None:
        """Fold events that happened (a set-up the test chooses)."""
        for e in events:
            self.state = self.game.evolve(self.state, e)
            self.log.append(e)

    def do(self, action: Any, now: float) -> list:
        self.state, events = self.game.apply(self.state, action, now)
        self.log += events
        return events

    def tick(self, now: float) -> list:
        self.state, events = self.game.tick(self.state, now)
        self.log += events
        return events

    def refused(self, action: Any, now: float, match: str) -> GameError:
        """The action is refused with that message and changes nothing."""
        before = self.state
        with pytest.raises(GameError, match=match) as info:
            self.game.apply(self.state, action, now)
        assert self.state is before
        return info.value

    def seat(self, *names: str, start: bool = True, now: float = 0.0) -> None:
        """Players join by name (id: the name in lower case); the first starts the game."""
        for n in names:
            self.do(Join(n.lower(), n), now)
        if start:
            self.do(Start(names[0].lower()), now)

    def check_replay(self) -> None:
        game = self.game
        assert game.fold(self.config, self.log) == self.state
        text = json.dumps([e.to_dict() for e in self.log])
        assert game.fold(self.config, [game.event_from_dict(d) for d in json.loads(text)]) == self.state
        if self.view:
            json.dumps(game.view(self.state, None))
