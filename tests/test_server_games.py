"""The platform is game-agnostic: rooms of every game on one server, the lobby
listing them, protocol 1 for old Ricochet Robots clients, a Ricochet Pyramids
room played over the socket and resumed after a restart, and — for every game
— no message ever carries what the game marks secret for someone else."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import pytest

from ricochet.games import GAMES
from ricochet.games.pyramids.setup import Tower
from ricochet.server.session import Session
from test_server_harness import Harness, Player


@pytest.fixture
def h(tmp_path: Path):
    with Harness(tmp_path) as harness:
        yield harness


def pyramids_solution(h: Harness, rid: str) -> list[dict[str, Any]]:
    """The optimal moves of the goal in play (as the room's solver found them), as ``move`` messages."""
    rnd = h.manager.rooms[rid].state.round
    assert rnd.check is not None and rnd.check.verdict == "accepted"
    return [{"type": "move", "robot": m.robot, "direction": m.direction.name} for m in rnd.check.solution]


def open_goal(h: Harness, p: Player) -> dict[str, Any]:
    """Wait until the goal in play is checked and bids are open; the state then."""
    h.idle()
    p.drain()
    assert p.state["round"]["open"], p.state["round"]
    return p.state


def test_the_lobby_lists_rooms_of_every_game_with_its_name(h: Harness) -> None:
    rr = h.room(name="Robots")
    py = h.room(name="Pyramids", game="pyramids", colors=4)
    listed = {r["room_id"]: r for r in h.client.get("/api/rooms").json()["rooms"]}
    assert listed[rr]["game"] == "ricochet-robots" and listed[rr]["title"] == "Ricochet Robots"
    assert listed[py]["game"] == "pyramids" and listed[py]["options"]["colors"] == 4
    opts = h.client.get("/api/options").json()
    assert set(opts["games"]) == set(GAMES) and opts["games"]["pyramids"]["defaults"]["clock_seconds"] == 30
    assert opts["games"]["pyramids"]["defaults"]["min_moves"] == 1  # seed 003's minimum is a variant: off
    r = h.client.post("/api/rooms", json={"game": "chess"})
    assert r.status_code == 400 and "game must be one of" in r.json()["error"]["message"]
    r = h.client.post("/api/rooms", json={"game": "pyramids", "tiles": "1A,3B,4A,2A"})
    assert r.status_code == 400 and "unknown option 'tiles' for Ricochet Pyramids" in r.json()["error"]["message"]


def test_protocol_1_plays_ricochet_robots_and_is_told_to_reload_for_pyramids(h: Harness) -> None:
    rr = h.room()
    p = h.connect(rr)
    w = p.hello("Ann", protocol=1)
    assert w["type"] == "welcome" and w["protocol"] == 1 and w["room"]["game"] == 1  # v1: the game number
    assert w["state"]["game"] == "ricochet-robots"
    py = h.room(game="pyramids")
    with h.socket(py) as q:
        q.send(type="hello", protocol=1, name="Ann")
        err = q.recv()
        assert err["type"] == "error" and err["code"] == "protocol" and "Ricochet Pyramids" in err["message"]
        assert "reload the page" in err["message"]


def test_a_pyramids_round_over_the_socket(h: Harness) -> None:
    rid = h.room(game="pyramids", min_moves=2)
    ann, bob = h.join(rid, "Ann"), h.join(rid, "Bob")
    assert ann.welcome["room"]["game"] == "pyramids" and ann.welcome["room"]["game_number"] == 1
    assert len(ann.state["towers"]) == 9 and ann.state["game"] == "pyramids"
    # the host arranges the towers in the lobby
    towers = [Tower.from_dict(t) for t in ann.state["towers"]]
    assert bob.error(type="set_layout", layout="easy")["code"] == "not_host"
    assert ann.error(type="set_layout", layout="square")["code"] == "bad_message"
    ann.ok(type="set_layout", layout="hard")
    assert {tuple(t["cell"]) for t in ann.state["towers"]} != {t.cell for t in towers}
    src = ann.state["towers"][0]["cell"]
    err = ann.error(type="move_tower", **{"from": src, "to": ann.state["towers"][1]["cell"]})
    assert err["code"] == "layout" and "already has a tower" in err["message"]
    ann.ok(type="start")
    state = open_goal(h, ann)
    assert state["phase"] == "thinking" and state["round"]["goal"]["robot"] == state["round"]["active_color"]
    moves = pyramids_solution(h, rid)
    ann.ok(type="bid", moves=len(moves))
    bob.ok(type="bid", moves=len(moves) + 3)  # above the low bid: fine
    assert bob.error(type="bid", moves=len(moves) + 4)["code"] == "raise"  # re-bid only lower
    same = bob.error(type="bid", moves=len(moves) + 3)  # not lower either, but not a raise: its own reason
    assert same["code"] == "same_bid" and same["message"].startswith(f"you already bid {len(moves) + 3}: a new bid")
    h.advance(30)
    ann.drain()
    assert ann.state["phase"] == "demonstration" and ann.state["round"]["demonstrator"] == ann.id
    for m in moves:
        events = ann.ok(**m)
    assert any(e["type"] == "round_ended" and e["winner"] == ann.id for e in events)
    assert next(p for p in ann.state["players"] if p["id"] == ann.id)["score"] == 1
    solution = next(m for m in ann.do(type="request_solution", round=1) if m["type"] == "solution")
    assert solution["optimal"] == len(moves) and len(solution["paths"]) == len(moves)


def test_a_pyramids_room_resumes_after_a_restart(tmp_path: Path) -> None:
    with Harness(tmp_path) as h1:
        # at least two moves, so that the demonstration is still under way after the first
        rid = h1.room(game="pyramids", min_moves=2, demo_seconds=30, demo_seconds_per_move=5)
        ann, bob = h1.join(rid, "Ann"), h1.join(rid, "Bob")
        ann.ok(type="start")
        open_goal(h1, ann)
        moves = pyramids_solution(h1, rid)
        assert len(moves) >= 2
        ann.ok(type="bid", moves=len(moves) + 1)
        h1.advance(30)
        ann.drain()
        first = moves[0]
        ann.ok(**first)
        before, version, t, tokens = json.loads(json.dumps(ann.state)), ann.version, h1.t, (ann.token, bob.token)
    with Harness(tmp_path) as h2:
        h2.t = t + 1
        room = h2.loaded(rid)
        assert room.game.name == "pyramids" and room.version == version + 2  # its clocks paused, resumed
        ann2 = h2.connect(rid)
        w = ann2.hello(seat_token=tokens[0], since=version)
        assert [m["event"]["type"] for m in w["missed"]] == ["game_paused", "game_resumed"]
        assert w["state"]["robots"] == before["robots"]
        assert w["state"]["round"]["demo_deadline"] == before["round"]["demo_deadline"] + 1  # a 1 s restart
        assert w["state"]["round"]["moves"] == before["round"]["moves"] and w["state"]["towers"] == before["towers"]
        for m in moves[1:]:
            events = ann2.ok(**m)
        assert events[-1]["type"] in ("round_ended", "goal_drawn", "goal_checked")
        assert any(e["type"] == "round_ended" and e["winner"] == ann2.id for e in events)
        log = h2.client.get(f"/api/rooms/{rid}/events").json()["events"]
        assert [e["version"] for e in log] == list(range(1, len(log) + 1))


def test_a_rambots_piece_size_is_a_json_integer_and_a_refused_one_is_not_logged(h: Harness) -> None:
    """``{"size": 1.0}`` (or ``true``) is not a piece size: refused with the field named, and nothing is logged."""
    rid = h.room(game="rambots")
    ann, _bob = h.join(rid, "Ann"), h.join(rid, "Bob")
    ann.ok(type="start")
    assert ann.state["phase"] == "goals"
    pieces = [{"size": s, "color": c} for s, c in ((1, "red"), (2, "yellow"), (3, "green"), (1, "blue"))]
    version = ann.version
    for bad in (1.0, True, 2.5):
        err = ann.error(type="set_goals", pieces=[{"size": bad, "color": "red"}, *pieces[1:]])
        assert err["code"] == "bad_message" and err["message"].startswith("pieces[0].size must be a whole number")
    assert ann.version == version
    log = h.client.get(f"/api/rooms/{rid}/events").json()["events"]
    assert log[-1]["version"] == version and "1.0" not in json.dumps(log)
    ann.ok(type="set_goals", pieces=pieces)


@pytest.mark.parametrize("game", sorted(GAMES))
def test_no_message_carries_a_secret_of_someone_else(h: Harness, game: str, monkeypatch) -> None:
    """Generic, for every game: each text a session is sent is checked, at the
    moment it is sent, against the secrets the game lists for the room's state
    then; a secret may reach only its owner."""
    leaks: list[str] = []
    checked = {"texts": 0, "secrets": 0}
    whats: set[str] = set()
    deliver = Session.deliver

    def spy(self: Session, out: Any) -> None:
        text = str(out)  # a text, or a message encoded once for all its recipients (its text)
        checked["texts"] += 1
        secrets = self.room.game.secrets(self.room.state)
        # its own secrets may reach the recipient, and so may another's of the same value: it tells
        # nothing (two RAMbots players may lay out the same program)
        own = [s.value for s in secrets if s.owner is not None and s.owner == self.player]
        for secret in secrets:
            if secret.value in own:
                continue
            checked["secrets"] += 1
            whats.add(secret.what.split()[0])
            forms = (json.dumps(secret.value, separators=(",", ":"), ensure_ascii=False), json.dumps(secret.value))
            if any(form in text for form in forms):
                leaks.append(f"{secret.what} reached {self.player or 'a spectator'}: {text[:200]}")
        deliver(self, out)

    monkeypatch.setattr(Session, "deliver", spy)
    levels = GAMES[game].bot_levels  # the game's own, the strongest last
    rid = h.room(game=game, bots=[{"level": levels[-1]}, {"level": levels[-2] if len(levels) > 1 else levels[-1]}])
    ann = h.join(rid, "Ann")
    watcher = h.connect(rid)
    watcher.hello(spectate=True)
    h.seats(ann, lambda seats: len(seats) == 3)
    ann.ok(type="start")
    ann.ok(type="leave")  # the bots play on; Ann (still connected) and the spectator watch
    for _ in range(40):  # bots bid and demonstrate; the clock is ours to move
        time.sleep(0.05)  # bots that plan in the worker (RAMbots) need a moment of real time
        h.idle()
        ann.drain()
        watcher.drain()
        if ann.state["phase"] == "over":
            break
        h.advance(31)
    ann.do(type="sync", since=1)
    watcher.do(type="sync", since=None)
    assert checked["texts"] > 50 and checked["secrets"] > 50
    if game == "pyramids":
        assert "solution" in whats  # the goal's solution was a secret while bids were open
    if game == "rambots":
        assert {"program", "goal"} <= whats  # programs and goal stacks were secrets while they were made
    assert not leaks, leaks[:3]
    # the spy does catch a secret sent to someone else
    room = h.manager.rooms[rid]
    session = next(s for s in room.sessions if s.player is None)
    Session.deliver(session, json.dumps({"oops": room.game.secrets(room.state)[0].value}))
    assert len(leaks) == 1


def _micro_route(state: dict[str, Any], n: int | None = None) -> list[list[int]]:
    from ricochet.games.micro_robots.engine import MicroBoard, Space, best_route, exact_route

    board = MicroBoard(tuple(tuple(Space(c["color"], c["number"]) for c in row) for row in state["board"]))
    rnd = state["round"]
    start, target = tuple(rnd["start"]), tuple(rnd["target"])
    route = best_route(board, start, target) if n is None else exact_route(board, start, target, n)
    assert route is not None
    return [list(c) for c in route]


def test_micro_robots_over_the_socket_and_after_a_restart(tmp_path: Path) -> None:
    with Harness(tmp_path) as h1:
        rid = h1.room(game="micro-robots", arrangement="A0B0C0D0", intermission_seconds=0)
        ann, bob = h1.join(rid, "Ann"), h1.join(rid, "Bob")
        assert ann.welcome["room"]["game"] == "micro-robots"
        ann.ok(type="start")
        assert ann.state["phase"] == "racing" and len(ann.state["board"]) == 6
        route = _micro_route(ann.state)
        bob.ok(type="announce", moves=len(route) - 1)
        assert ann.error(type="announce", moves=1)["code"] == "closed"
        assert bob.error(type="move_robot", to=[9, 0])["code"] == "bad_message"
        for cell in route[1:]:
            events = bob.ok(type="move_robot", to=cell)
        assert any(e["type"] == "round_ended" and e["winner"] == bob.id for e in events)
        # Ann announces, moves once, and the server stops
        ann.drain()
        route = _micro_route(ann.state)
        # two more moves than the best route, so her first move never ends the demonstration (even onto the target)
        ann.ok(type="announce", moves=len(route) + 1)
        ann.ok(type="move_robot", to=route[1])
        version, tokens, t = ann.version, (ann.token, bob.token), h1.t
        before = json.loads(json.dumps(ann.state))
    with Harness(tmp_path) as h2:
        h2.t = t + 1
        ann2 = h2.connect(rid)
        w = ann2.hello(seat_token=tokens[0], since=version)
        assert w["state"]["round"]["route"] == before["round"]["route"] and w["state"]["robot"] == route[1]
        ann2.ok(type="give_up")  # a failure: Ann has no chip, so nobody gets one
        bob2 = h2.connect(rid)
        bob2.hello(seat_token=tokens[1])
        scores = {p["id"]: p["score"] for p in bob2.state["players"]}
        assert scores == {ann2.id: 0, bob2.id: 1} and bob2.state["history"][-1]["reason"] == "gave_up"
        # now Bob fails: his chip goes to Ann, the player with the fewest
        route = _micro_route(bob2.state)
        bob2.ok(type="announce", moves=len(route) - 1)
        bob2.ok(type="give_up")
        scores = {p["id"]: p["score"] for p in bob2.state["players"]}
        assert scores == {ann2.id: 1, bob2.id: 0} and bob2.state["history"][-1]["penalty_to"] == ann2.id
