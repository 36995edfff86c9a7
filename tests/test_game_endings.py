"""How a game ends, for every game through the game interface: "End the game" at 0–0–0 names
no winner (nobody won anything; it used to name every player a winner)."""

from __future__ import annotations

import pytest

from gametable import GameTable
from ricochet.games import GAMES
from ricochet.games.table import EndGame


@pytest.mark.parametrize("name", sorted(GAMES))
def test_ending_the_game_at_nil_all_names_no_winner(name: str) -> None:
    game = GAMES[name]
    t = GameTable(game, game.config(game.normalize_options({}), 3))
    t.seat("Ann", "Bob", "Cid")
    assert game.status(t.state) == "playing" and all(p.score == 0 for p in game.players(t.state))
    events = t.do(EndGame("ann"), 5.0)
    ended = events[-1]
    assert ended.type == "game_ended" and ended.reason == "host_ended" and ended.winners == ()
    view = game.view(t.state, None)
    assert view["winners"] == [] and view["end_reason"] == "host_ended"
    t.check_replay()
