"""Stop the server in the middle of a round, start a new one on the same
database: every room resumes from its event log, the round goes on."""

from __future__ import annotations

from pathlib import Path

import pytest

from test_server_harness import Harness, solution_of


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
        assert room.version == version and room.state.phase == "demonstration"
        listed = h2.client.get("/api/rooms").json()["rooms"]
        assert [r["room_id"] for r in listed] == [rid]
        assert w["you"]["player"] == before["players"][0]["id"] and w["missed"] == []
        state = w["state"]
        assert state["round"]["moves"] == before["round"]["moves"] and state["robots"] == before["robots"]
        assert state["round"]["demo_deadline"] == before["round"]["demo_deadline"]
        assert [c["id"] for c in w["chat"]] == [chat_id]
        bob2 = h2.connect(rid)
        bob2.hello(seat_token=tokens[1], since=version)
        # the demonstration's clock is absolute: it runs out at the same time as before
        h2.advance(before["round"]["demo_deadline"] - h2.t)
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
        h1.wait(ann, lambda m: m["type"] == "presence" and len(m["seats"]) == 2)
        ann.ok(type="start")
        h1.wait(ann, lambda m: m.get("event", {}).get("type") == "bid_placed")
        assert ann.state["phase"] == phase
        deadline = ann.state["round"]["clock"]["deadline"]
        token, t = ann.token, h1.t
    with Harness(tmp_path) as h2:
        h2.t = t + 30
        ann = h2.connect(rid)
        w = ann.hello(seat_token=token)
        assert w["state"]["round"]["clock"]["deadline"] == deadline
        if not all(s["online"] for s in w["presence"]["seats"]):
            h2.wait(ann, lambda m: m["type"] == "presence" and all(s["online"] for s in m["seats"]))
        h2.advance(deadline - h2.t)
        seen = h2.wait(ann, lambda m: m.get("event", {}).get("type") == "round_ended")
        ended = next(m["event"] for m in seen if m.get("event", {}).get("type") == "round_ended")
        assert ended["result"] == "won" and ended["winner"].startswith("b")  # the bot came back and played
