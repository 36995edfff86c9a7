"""Rematch ("Play again"), through the server, for every game: the host's ``{"type": "restart",
"start": true}`` opens the next game of the room with the same options and the same seats — bots
included, and playing — and starts it at once, in one step; refused, changing nothing, when it could
not start (docs/protocol.md 2.2)."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest

from ricochet.games import GAMES
from test_server_harness import Harness, Player

OPTIONS: dict[str, dict[str, Any]] = {
    "ricochet-robots": {"clock_seconds": 45, "target_score": 3},
    "pyramids": {"clock_seconds": 20, "min_moves": 2},
    "micro-robots": {"demo_seconds": 40, "arrangement": "A0B0C0D0"},
    "rambots": {"step_seconds": 1.0, "speedbots": True},
}
"""Options other than the defaults, to see them kept."""


@pytest.fixture
def h(tmp_path: Path):
    with Harness(tmp_path) as harness:
        yield harness


def _seats(p: Player) -> list[str]:
    return [s["player"] for s in p.welcome["presence"]["seats"]] if p.welcome else []


def _game_events(msgs: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [m["event"] for m in msgs if m["type"] == "event"]


def test_every_game_is_covered() -> None:
    assert set(OPTIONS) == set(GAMES)


@pytest.mark.parametrize("game", sorted(GAMES))
def test_play_again_keeps_options_and_seats_and_starts_at_once(h: Harness, game: str) -> None:
    rid = h.room(game=game, bots=[{"level": "perfect"}], **OPTIONS[game])
    ann = h.join(rid, "Ann")
    h.seats(ann, lambda seats: len(seats) == 2)
    bob = h.join(rid, "Bob")
    bot = next(s["player"] for s in bob.welcome["presence"]["seats"] if s["bot"])
    ann.ok(type="start")
    h.idle()
    ann.ok(type="end_game")
    assert ann.state["phase"] == "over"
    options = h.client.get(f"/api/rooms/{rid}").json()["options"]
    assert bob.error(type="restart", start=True)["code"] == "not_host"
    assert ann.error(type="restart", start="yes")["code"] == "bad_message"

    msgs = ann.do(type="restart", start=True)
    assert not [m for m in msgs if m["type"] == "error"], msgs
    events = _game_events(msgs)
    assert events[0] == {**events[0], "type": "game_reset", "game": 2}
    joined = [e["player"] for e in events if e["type"] == "player_joined"]
    assert joined == [ann.id, bot, bob.id]  # the same seats, the host first (host again)
    assert ann.state["phase"] not in ("lobby", "over") and ann.state["host"] == ann.id
    assert h.client.get(f"/api/rooms/{rid}").json()["options"] == options  # the same options
    assert h.client.get(f"/api/rooms/{rid}").json()["game_number"] == 2
    # Bob followed without doing anything: the same events, the new game's state
    seen = bob.drain()
    reset = next(i for i, m in enumerate(seen) if m["type"] == "event" and m["event"]["type"] == "game_reset")
    seen = seen[reset:]  # (Bob had not read the first game's end yet)
    bob_events = _game_events(seen)
    assert [e["type"] for e in bob_events[:len(events)]] == [e["type"] for e in events]
    assert bob.state["phase"] not in ("lobby", "over")  # (the bot may have played meanwhile)
    assert [(p["id"], p["seated"]) for p in bob.state["players"]] == [(ann.id, True), (bot, True), (bob.id, True)]
    # and the bot plays the new game (bids, announces, makes its goal stack …)
    def by_the_bot(m: dict[str, Any]) -> bool:
        return m["type"] == "event" and m["event"].get("player") == bot and m["event"]["type"] != "player_joined"

    h.idle()
    if not any(by_the_bot(m) for m in seen):
        h.wait(bob, by_the_bot)
    # the first game's replay is kept
    r = h.client.get(f"/api/rooms/{rid}/events?game=1").json()
    assert r["games"] == 2 and r["events"][-1]["event"]["type"] in ("game_ended", "round_solved")


def test_play_again_during_a_game_ends_it_first(h: Harness) -> None:
    rid = h.room(min_players=1)
    ann = h.join(rid, "Ann")
    ann.ok(type="start")
    events = ann.ok(type="restart", start=True)
    assert [e["type"] for e in events][:3] == ["game_ended", "game_reset", "player_joined"]
    assert events[0]["reason"] == "host_ended" and events[0]["winners"] == []
    assert ann.state["phase"] == "thinking" and ann.state["round"]["number"] == 1


def test_play_again_that_could_not_start_changes_nothing(h: Harness) -> None:
    rid = h.room(min_players=2)
    ann, bob = h.join(rid, "Ann"), h.join(rid, "Bob")
    ann.ok(type="start")
    bob.ok(type="leave")
    ann.drain()
    version = ann.version
    err = ann.error(type="restart", start=True)
    assert err["code"] == "phase" and "at least 2 players are needed to start" in err["message"]
    assert ann.version == version and ann.state["phase"] == "thinking"  # not even ended
    # a plain restart opens the next game in its lobby, as before
    events = ann.ok(type="restart")
    assert [e["type"] for e in events] == ["game_ended", "game_reset", "player_joined"]
    assert ann.state["phase"] == "lobby"


@pytest.mark.slow
def test_play_again_on_a_real_server_with_a_bot(tmp_path: Path) -> None:
    """The same over real sockets to a ``ricochet serve`` process, with the Python client."""
    import asyncio

    from ricochet.server.client import RicochetClient
    from test_server_kill import _free_port, _http, _kill9, _serve, _until

    port = _free_port()
    proc = _serve(port, tmp_path / "rematch.db", tmp_path / "server.log")
    try:
        room = _http("POST", f"http://127.0.0.1:{port}/api/rooms",
                     {"game": "micro-robots", "bots": [{"level": "perfect"}], "reroll_seconds": 45})["room_id"]

        async def play() -> None:
            async with RicochetClient(f"ws://127.0.0.1:{port}/ws/{room}") as ann:
                await ann.hello("Ann")
                await _until(ann, lambda s: len([p for p in s["players"] if p["seated"]]) == 2)
                await ann.start()
                await _until(ann, lambda s: s["phase"] == "racing")
                await ann.end_game()
                await _until(ann, lambda s: s["phase"] == "over")
                await ann.restart(start=True, ref="again")
                await ann.wait_for(lambda m: m["type"] == "ack" and m["ref"] == "again")
                assert ann.room is not None and ann.room["game_number"] == 2
                state = await _until(ann, lambda s: s["phase"] in ("racing", "demonstration"))
                assert [p["seated"] for p in state["players"]] == [True, True]
                # the bot (a perfect one: quick) announces in the new game
                await _until(ann, lambda s: s["round"] is not None and s["round"]["announcer"] is not None
                             and s["round"]["announcer"] != ann.you["player"])

        asyncio.run(play())
        info = _http("GET", f"http://127.0.0.1:{port}/api/rooms/{room}")
        assert info["game_number"] == 2 and info["options"]["reroll_seconds"] == 45
    finally:
        if proc.poll() is None:
            _kill9(proc)


class _Script:
    """A transport that plays back server messages and keeps what the client sends."""

    def __init__(self, *messages: dict[str, Any]) -> None:
        self.messages = [json.dumps(m) for m in messages]
        self.sent: list[dict[str, Any]] = []

    async def connect(self) -> None:
        pass

    async def send(self, text: str) -> None:
        self.sent.append(json.loads(text))

    async def recv(self) -> str | None:
        return self.messages.pop(0) if self.messages else None

    async def close(self) -> None:
        pass


def _welcome(version: int) -> dict[str, Any]:
    return {"type": "welcome", "version": version, "state": {"phase": "over"}, "you": {"player": "p1"},
            "room": {"room_id": "r", "game_number": 1}}


def _reset(version: int, state: dict[str, Any]) -> dict[str, Any]:
    return {"type": "event", "version": version, "event": {"type": "game_reset", "game": 2}, "state": state}


@pytest.mark.parametrize("case", ["covered by a sync", "not mergeable"])
def test_a_client_knows_the_new_game_however_its_reset_arrived(case: str) -> None:
    """A bot tells its rounds apart by (game, round, draw): a client left on the old game number
    would take the new game's first round for one it had already thought about, and sit still."""
    from ricochet.server.client import RicochetClient

    if case == "covered by a sync":  # a gap (version 7 after 5) asks for a sync, whose answer covers the reset (8)
        script = _Script(_welcome(5), {"type": "event", "version": 7, "event": {"type": "chat"}, "state": {}},
                         {"type": "sync", "version": 9, "state": {"phase": "thinking"}, "missed": None,
                          "server_time": 0.0, "game_number": 2}, _reset(8, {}))
    else:  # the reset's state extends a list this client does not hold: it asks for a sync instead
        script = _Script(_welcome(5), _reset(6, {"extend": {"round.paths": {"at": 3, "items": []}}}))

    async def play() -> RicochetClient:
        c = RicochetClient(transport=script)
        await c.connect()
        while script.messages:
            await c.recv()
        return c

    c = asyncio.run(play())
    assert c.room is not None and c.room["game_number"] == 2
    assert {"type": "sync", "since": 5} in script.sent  # (it did ask)


def test_a_sync_answer_says_which_game_the_room_is_in(h: Harness) -> None:
    rid = h.room(min_players=1)
    ann = h.join(rid, "Ann")
    ann.ok(type="start")
    ann.ok(type="restart", start=True)
    (answer,) = [m for m in ann.do(type="sync", since=None) if m["type"] == "sync"]
    assert answer["game_number"] == 2 == h.client.get(f"/api/rooms/{rid}").json()["game_number"]
