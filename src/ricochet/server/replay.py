"""Replays: a room's log, page after page, with the state after each event as the
socket's event messages carry it (built off the event loop, in a thread)."""

from __future__ import annotations

import time
from typing import Any

from ..games import Game
from .protocol import dumps
from .storage import EventRow

__all__ = ["build_replay"]


def build_replay(game: Game, config: Any, start: Any, prefix: list[EventRow], page: list[EventRow],
                 with_states: bool, meta: dict[str, Any]) -> tuple[bytes, Any]:
    """One page of a game's log for a replay viewer, as JSON (and the state after it).

    Pure and thread-safe (states are immutable): run in a worker thread.  Every event is
    as everyone may see it (the game's ``public_event``).  With ``with_states`` the answer
    has ``state``, the spectator's full state before the page (``start``, or the game's
    start folded over ``prefix``), and each entry the state after its event *as socket
    event messages carry it* (the game's ``event_state``: keys that changed, heavy ones
    only when the event changed them), to be merged in turn — linear in the log, not
    quadratic."""
    state = start if start is not None else game.new(config)
    for r in prefix if start is None else ():
        if r.payload["type"] != "game_reset":
            state = game.evolve(state, game.event_from_dict(r.payload))
    out = dict(meta)
    if with_states:
        out["state"] = game.event_state(state, "game_reset")  # a complete state, as after a reset
        out["state"]["version"] = meta["after"]
    events = []
    for i, r in enumerate(page):
        if i % 32 == 31:
            time.sleep(0)  # let the event loop's thread have the interpreter lock now and then
        if r.payload["type"] == "game_reset":
            entry: dict[str, Any] = {"version": r.seq, "event": r.payload}
        else:
            event = game.event_from_dict(r.payload)
            state = game.evolve(state, event)
            entry = {"version": r.seq, "event": game.public_event(event)}
        if with_states:
            entry["state"] = v = game.event_state(state, r.payload["type"])
            v["version"] = r.seq
        events.append(entry)
    out["board"] = game.view(state, None).get("board")
    out["events"] = events
    return dumps(out).encode(), state
