"""Every count, size and index in every game's messages is a JSON integer: ``1.0``, ``true`` and
``"1"`` are refused by the game's ``parse_action`` (code ``bad_message``, the field named), never
turned into an action — so never written to a log.  One shared check does it
(:func:`ricochet.games.messages.whole`); this test holds every game to it, through the game
interface alone."""

from __future__ import annotations

import copy
import json
from collections.abc import Iterator
from typing import Any

import pytest

from ricochet.games import GAMES, GameError
from ricochet.games.table import Join, Start

PIECES = [{"size": s, "color": c} for s, c in ((1, "red"), (2, "yellow"), (3, "green"), (1, "blue"))]

SAMPLES: dict[str, list[dict[str, Any]]] = {
    "ricochet-robots": [
        {"type": "bid", "moves": 5},
        {"type": "move", "robot": 1, "direction": "N"},
        {"type": "move", "robot": "red", "direction": "E", "stop": [3, 4]},
        {"type": "request_solution", "round": 1},
    ],
    "pyramids": [
        {"type": "bid", "moves": 5},
        {"type": "move", "robot": 1, "direction": "N"},
        {"type": "move_tower", "from": [2, 2], "to": [3, 3]},
        {"type": "request_solution", "round": 1},
    ],
    "micro-robots": [
        {"type": "announce", "moves": 4},
        {"type": "move_robot", "to": [1, 2]},
    ],
    "rambots": [
        {"type": "set_goals", "pieces": PIECES},
        {"type": "set_program", "program": [{"size": 2, "color": "red", "orientation": "N"},
                                            {"size": 1, "color": "blue", "orientation": "up"}]},
    ],
}
"""For each built-in game, valid messages of each of its types that carry a whole number."""


def started(name: str) -> Any:
    """A game of ``name`` with two players, just started (default options)."""
    game = GAMES[name]
    state = game.new(game.config(game.normalize_options({}), 7))
    for action in (Join("ann", "Ann"), Join("bob", "Bob"), Start("ann")):
        state, _ = game.apply(state, action, 0.0)
    return state


def integer_paths(value: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    """The paths to every integer (not a boolean) in a JSON value."""
    if isinstance(value, bool):
        return
    if isinstance(value, int):
        yield path
    elif isinstance(value, dict):
        for k, v in value.items():
            yield from integer_paths(v, (*path, k))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from integer_paths(v, (*path, i))


def with_value(msg: dict[str, Any], path: tuple[Any, ...], value: Any) -> dict[str, Any]:
    out = copy.deepcopy(msg)
    at: Any = out
    for k in path[:-1]:
        at = at[k]
    at[path[-1]] = value
    return out


def test_every_game_with_messages_has_samples() -> None:
    """A new built-in game adds its messages with numbers here."""
    assert set(SAMPLES) <= set(GAMES)
    for name, samples in SAMPLES.items():
        assert {m["type"] for m in samples} <= set(GAMES[name].message_types)


@pytest.mark.parametrize("name", sorted(SAMPLES))
def test_counts_sizes_and_indexes_must_be_json_integers(name: str) -> None:
    game = GAMES[name]
    state = started(name)
    checked = 0
    for msg in SAMPLES[name]:
        game.parse_action(state, "ann", msg)  # the sample itself is accepted
        for path in integer_paths({k: v for k, v in msg.items() if k != "type"}):
            good = msg
            for k in path:
                good = good[k]
            for bad in (float(good), True, str(good)):
                wrong = with_value(msg, path, bad)
                with pytest.raises(GameError) as info:
                    game.parse_action(state, "ann", json.loads(json.dumps(wrong)))
                err = info.value
                assert err.code == "bad_message", (wrong, err)
                assert json.dumps(bad) in str(err), (wrong, str(err))  # the value received is quoted
                field = str(path[0])
                assert field in str(err), (wrong, str(err))  # the field is named
                checked += 1
    assert checked >= 3 * len(SAMPLES[name])


def test_a_rambots_piece_size_names_the_piece_and_the_field() -> None:
    game = GAMES["rambots"]
    state = started("rambots")
    for bad in (1.0, True, 1.5, 4, None):
        pieces = [dict(PIECES[0], size=bad), *PIECES[1:]]
        with pytest.raises(GameError, match=r"pieces\[0\]\.size must be"):
            game.parse_action(state, "ann", {"type": "set_goals", "pieces": pieces})
    with pytest.raises(GameError, match=r"pieces\[2\] needs \"size\": 1, 2 or 3"):
        game.parse_action(state, "ann", {"type": "set_goals", "pieces": [*PIECES[:2], {"color": "red"}, PIECES[3]]})
    with pytest.raises(GameError, match=r"program\[0\]\.orientation must be one of N, E, S, W, up, got \"x\""):
        game.parse_action(state, "ann", {"type": "set_program",
                                         "program": [{"size": 1, "color": "red", "orientation": "x"}]})
