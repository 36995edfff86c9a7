"""Stop the server in the middle of a round, start a new one on the same
database: every room resumes from its event log, the round goes on — and the
restart is not charged to the players: every clock that was running is as far
from running out as when the server stopped (issue 44)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from test_server_harness import Harness, Player, solution_of


def test_round_continues_after_a_restart(tmp_path: Path) -> None:
    with Harness(tmp_path) as h1:
        rid = h1.room(demo_seconds=30, demo_seconds_per_move=5)
        ann, bob = h1.join(rid, "Ann"), h1.join(rid, "Bob")
        ann.ok(type="start")
        ann.ok(type="bid", moves=3)
        bob.ok(type="bid", moves=4)
        h1.advance(60)
        ann.drain()
        assert ann.state["phase"] == "demonstration" and ann.state["round"]["demonstrator"] == ann.id
        active = ann.state["round"]["active"]
        other = 1 - active
        cell = ann.state["robots"][other]["cell"]
        ann.ok(type="move", robot=other, direction="N" if cell[1] > 0 else "S")
        before = dict(ann.state)
        tokens, version, t = (ann.token, bob.token), ann.version, h1.t
        chat_id = next(m for m in ann.do(type="chat", text="brb") if m["type"] == "chat")["id"]
    # the first server is gone: a new one on the same database file
    with Harness(tmp_path) as h2:
        h2.t = t + 1
        assert h2.manager.rooms == {}  # nothing is loaded at start: a room resumes when someone comes back
        assert h2.client.get("/api/rooms").json()["rooms"] == []
        ann2 = h2.connect(rid)
        w = ann2.hello(seat_token=tokens[0], since=version)
        room = h2.manager.rooms[rid]
        assert room.version == version + 2 and room.state.phase == "demonstration"  # + game_paused, game_resumed
        listed = h2.client.get("/api/rooms").json()["rooms"]
        assert [r["room_id"] for r in listed] == [rid]
        assert w["you"]["player"] == before["players"][0]["id"]
        # the restart (1 s) paused the demonstration's clock: it is 1 s later than it was
        assert [m["event"]["type"] for m in w["missed"]] == ["game_paused", "game_resumed"]
        assert w["missed"][1]["event"]["paused_for"] == 1
        state = w["state"]
        assert state["round"]["moves"] == before["round"]["moves"] and state["robots"] == before["robots"]
        assert state["round"]["demo_deadline"] == before["round"]["demo_deadline"] + 1
        assert [c["id"] for c in w["chat"]] == [chat_id]
        bob2 = h2.connect(rid)
        bob2.hello(seat_token=tokens[1], since=version)
        # the demonstration's clock runs out as much later as the server was away
        h2.advance(before["round"]["demo_deadline"] + 1 - h2.t)
        events = bob2.events()
        assert [e["type"] for e in events] == ["demonstration_ended", "demonstration_started"]
        assert events[0]["reason"] == "timeout" and events[1]["player"] == bob2.id
        assert bob2.state["robots"] == bob2.state["round"]["start"]  # robots back on their tokens
        for m in solution_of(bob2.state):
            events = bob2.ok(**m)
        events = [e for e in events if e["type"] != "round_solved"]  # the solver may report at once
        assert events[-1]["type"] == "round_ended" and events[-1]["winner"] == bob2.id
        h2.idle()
        assert any(e["type"] == "round_solved" for e in ann2.events())
        # nothing was lost or duplicated: the versions of the log run 1..n without a gap
        log = h2.client.get(f"/api/rooms/{rid}/events").json()["events"]
        assert [e["version"] for e in log] == list(range(1, len(log) + 1))


@pytest.mark.parametrize("phase", ["bidding"])
def test_sand_clock_and_bots_resume(tmp_path: Path, phase: str) -> None:
    with Harness(tmp_path) as h1:
        rid = h1.room(bots=[{"level": "perfect"}], clock_seconds=60)
        ann = h1.join(rid, "Ann")
        h1.seats(ann, lambda seats: len(seats) == 2)  # the bot sits down before or after the welcome
        ann.ok(type="start")
        h1.wait(ann, lambda m: m.get("event", {}).get("type") == "bid_placed")
        assert ann.state["phase"] == phase
        deadline = ann.state["round"]["clock"]["deadline"]
        token, t = ann.token, h1.t
    with Harness(tmp_path) as h2:
        h2.t = t + 30
        ann = h2.connect(rid)
        w = ann.hello(seat_token=token)
        assert w["state"]["round"]["clock"]["deadline"] == deadline + 30  # the 30 s restart is not charged
        deadline += 30
        # The bot comes back in the background: its presence may come with the welcome, or in the
        # messages hello drained after it, or later.
        h2.seats(ann, lambda seats: all(s["online"] for s in seats))
        h2.advance(deadline - h2.t)
        seen = h2.wait(ann, lambda m: m.get("event", {}).get("type") == "round_ended")
        ended = next(m["event"] for m in seen if m.get("event", {}).get("type") == "round_ended")
        assert ended["result"] == "won" and ended["winner"].startswith("b")  # the bot came back and played


# -- restarts are not charged to players: every clock moves by the downtime ----------------------------------
DOWN = 37.0
"""Seconds the server is away in these tests."""


def _rr_bidding(h: Harness, rid: str, ann: Player, bob: Player) -> None:
    ann.ok(type="start")
    ann.ok(type="bid", moves=3)


def _rr_demonstration(h: Harness, rid: str, ann: Player, bob: Player) -> None:
    _rr_bidding(h, rid, ann, bob)
    h.advance(60)
    ann.drain()
    assert ann.state["phase"] == "demonstration"


def _rr_intermission(h: Harness, rid: str, ann: Player, bob: Player) -> None:
    _rr_demonstration(h, rid, ann, bob)
    for m in solution_of(ann.state):
        ann.ok(**m)
    assert ann.state["phase"] == "intermission"


def _pyramids_timer(h: Harness, rid: str, ann: Player, bob: Player) -> None:
    ann.ok(type="start")
    h.idle()  # the goal is checked: bids open
    ann.drain()
    ann.ok(type="bid", moves=20)


def _micro_race(h: Harness, rid: str, ann: Player, bob: Player) -> None:
    ann.ok(type="start")


def _micro_demonstration(h: Harness, rid: str, ann: Player, bob: Player) -> None:
    ann.ok(type="start")
    ann.ok(type="announce", moves=9)


def _rambots_programming(h: Harness, rid: str, ann: Player, bob: Player) -> None:
    ann.ok(type="start")
    goals = [{"size": 3, "color": c} for c in ("red", "yellow", "green", "blue")]
    ann.ok(type="set_goals", pieces=goals)
    bob.ok(type="set_goals", pieces=goals)
    ann.drain()
    assert ann.state["phase"] == "programming"


def _rambots_execution(h: Harness, rid: str, ann: Player, bob: Player) -> None:
    _rambots_programming(h, rid, ann, bob)
    for p in (ann, bob):
        p.ok(type="set_program", program=[{"size": 1, "color": "red", "orientation": "N"}])
        p.ok(type="compile", on=True)
    ann.drain()
    assert ann.state["phase"] == "execution"


CLOCKS = {
    "sand clock": ({}, _rr_bidding, ("round", "clock", "deadline")),
    "demonstration": ({}, _rr_demonstration, ("round", "demo_deadline")),
    "intermission": ({}, _rr_intermission, ("intermission_until",)),
    "pyramids timer": ({"game": "pyramids"}, _pyramids_timer, ("round", "clock", "deadline")),
    "micro robots re-roll": ({"game": "micro-robots"}, _micro_race, ("round", "reroll_at")),
    "micro robots demonstration": ({"game": "micro-robots"}, _micro_demonstration, ("round", "demo_deadline")),
    "programming timer": ({"game": "rambots", "programming_seconds": 120}, _rambots_programming,
                          ("programming_until",)),
    "rambots execution step": ({"game": "rambots"}, _rambots_execution, ("next_step",)),
}
"""Each running clock of each game: the room's options, how to get it running, where a state shows it."""


def _at(state: dict[str, Any], path: tuple[str, ...]) -> Any:
    for k in path:
        state = state[k]
    return state


@pytest.mark.parametrize("clock", sorted(CLOCKS))
def test_a_restart_lasting_n_seconds_leaves_every_clock_n_seconds_later(tmp_path: Path, clock: str) -> None:
    options, reach, path = CLOCKS[clock]
    with Harness(tmp_path) as h1:
        rid = h1.room(**options)
        ann, bob = h1.join(rid, "Ann"), h1.join(rid, "Bob")
        reach(h1, rid, ann, bob)
        ann.drain()
        shown = _at(ann.state, path)
        room = h1.manager.rooms[rid]
        due = room.game.deadline(room.state)
        assert shown is not None and due is not None and due > h1.t
        tokens, t = (ann.token, bob.token), h1.t
    with Harness(tmp_path) as h2:  # the first server stopped at t (SIGTERM: its rooms stamped alive then)
        h2.t = t + DOWN
        ann2 = h2.connect(rid)
        w = ann2.hello(seat_token=tokens[0])
        room = h2.manager.rooms[rid]
        assert _at(w["state"], path) == shown + DOWN
        assert room.game.deadline(room.state) == due + DOWN
        # and it runs out then, not before
        h2.advance(due + DOWN - h2.t - 0.01)
        assert room.game.deadline(room.state) == due + DOWN
        h2.advance(0.01)
        assert room.game.deadline(room.state) != due + DOWN


def test_after_a_crash_clocks_move_from_the_last_heartbeat(tmp_path: Path) -> None:
    """``kill -9`` has no last word: the rooms' last stamp is the heartbeat before it, so the clocks move a
    little more than the downtime (in the players' favour), never less."""
    with Harness(tmp_path) as h1:
        rid = h1.room(clock_seconds=60)
        ann, bob = h1.join(rid, "Ann"), h1.join(rid, "Bob")
        _rr_bidding(h1, rid, ann, bob)
        deadline, token = ann.state["round"]["clock"]["deadline"], ann.token
        h1.t += 5
        h1.client.portal.call(h1.manager.heartbeat)  # the last heartbeat before the crash
        beat = h1.t
        h1.t += 1.5  # the crash: no event, no stamp since
        crash = h1.t

        async def no_last_word() -> None:
            pass

        h1.manager.heartbeat = no_last_word
    with Harness(tmp_path) as h2:
        h2.t = crash + DOWN
        ann2 = h2.connect(rid)
        w = ann2.hello(seat_token=token)
        assert w["state"]["round"]["clock"]["deadline"] == deadline + (h2.t - beat)
        paused = [m["event"] for m in h2.client.get(f"/api/rooms/{rid}/events").json()["events"]][-2:]
        assert [e["type"] for e in paused] == ["game_paused", "game_resumed"]
        assert paused[0]["at"] == beat and paused[1]["paused_for"] == DOWN + 1.5


def test_a_room_without_a_running_clock_is_loaded_as_it_was(tmp_path: Path) -> None:
    """Nothing to pause in a lobby (or after the game): no event is added by a restart."""
    with Harness(tmp_path) as h1:
        rid = h1.room()
        ann = h1.join(rid, "Ann")
        version, token, t = ann.version, ann.token, h1.t
    with Harness(tmp_path) as h2:
        h2.t = t + DOWN
        w = h2.connect(rid).hello(seat_token=token)
        assert w["version"] == version


def test_an_absent_players_seat_is_not_freed_by_a_restart(tmp_path: Path) -> None:
    """Seat grace periods: someone away when the server stopped keeps the seat for the whole grace period
    after the restart (counted anew from when the others are back), not what was left of it."""
    with Harness(tmp_path) as h1:
        rid = h1.room(seat_grace_seconds=60, clock_seconds=600)
        ann = h1.join(rid, "Ann")
        with h1.socket(rid) as bob:
            bob.hello("Bob")
            bob_id = bob.id
        ann.ok(type="start")
        h1.advance(50)  # Bob has been away 50 s of his 60
        ann.drain()
        assert next(p for p in ann.state["players"] if p["id"] == bob_id)["seated"]
        token, t = ann.token, h1.t
    with Harness(tmp_path) as h2:
        h2.t = t + DOWN
        ann2 = h2.connect(rid)
        ann2.hello(seat_token=token)
        h2.advance(59)
        assert next(p for p in ann2.state["players"] if p["id"] == bob_id)["seated"]
        h2.advance(1)
        ann2.drain()
        assert not next(p for p in ann2.state["players"] if p["id"] == bob_id)["seated"]


def test_a_stopping_server_tells_clients_when_to_come_back(tmp_path: Path) -> None:
    """SIGTERM: every connection is told ``server_restarting`` with ``retry_after`` (seconds), then closed
    (1012); a connection opened meanwhile is told the same (docs/protocol.md 2.4: the client's bounded
    back-off finds the server within about that long once it is back)."""
    from starlette.websockets import WebSocketDisconnect

    with Harness(tmp_path) as h:
        rid = h.room()
        ann = h.join(rid, "Ann")
        h.client.portal.call(h.manager.announce_restart, 0.1)
        err = ann.recv()
        assert err == {"type": "error", "code": "server_restarting", "ref": None, "retry_after": 1.0,
                       "message": "the server is restarting: reconnect in a moment"}
        with pytest.raises(WebSocketDisconnect) as closed:
            ann.recv()
        assert closed.value.code == 1012
        with h.socket(rid) as late:
            err = late.recv()
            assert err["code"] == "server_restarting" and err["retry_after"] == 1.0
            with pytest.raises(WebSocketDisconnect) as closed:
                late.recv()
            assert closed.value.code == 1012
