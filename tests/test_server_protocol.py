"""The server end to end, in process (Starlette's TestClient): lobby, every rule
of a round through the WebSocket protocol, errors, reconnects, spectators,
private rooms and bots.  Time is a fake clock moved by the tests."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest

from ricochet.notation.wire import move_from_wire, path_from_wire
from ricochet.server import protocol as P
from test_server_harness import T0, Harness, Player, solution_of


@pytest.fixture
def h(tmp_path: Path):  # type: ignore[no-untyped-def]
    with Harness(tmp_path) as harness:
        yield harness


def two_players(h: Harness, **options: object) -> tuple[str, Player, Player]:
    rid = h.room(**options)
    ann = h.join(rid, "Ann")
    bob = h.join(rid, "Bob")
    ann.drain()
    return rid, ann, bob


def started(h: Harness, **options: object) -> tuple[str, Player, Player]:
    rid, ann, bob = two_players(h, **options)
    events = ann.ok(type="start")
    assert [e["type"] for e in events] == ["game_started", "chip_drawn"]
    bob.drain()
    return rid, ann, bob


def wrong_move(state: dict) -> dict:
    """A legal move that does not solve the round: the robot that is not active moves."""
    active = state["round"]["active"]
    other = 1 - active
    cell = state["robots"][other]["cell"]
    direction = "N" if cell[1] > 0 else "S"
    return {"type": "move", "robot": other, "direction": direction}


# -- lobby --------------------------------------------------------------------------------------
def test_lobby_create_list_get_and_private_rooms(h: Harness) -> None:
    public = h.room(name="Friday")
    private = h.room(name="Secret", private=True)
    listed = h.client.get("/api/rooms").json()["rooms"]
    assert [r["room_id"] for r in listed] == [public]
    assert listed[0]["name"] == "Friday" and listed[0]["status"] == "lobby"
    got = h.client.get(f"/api/rooms/{private}").json()
    assert got["private"] is True and got["state"]["phase"] == "lobby"
    assert "seed" not in json.dumps(got["options"])
    # a private room is reachable by its link
    p = h.join(private, "Ann")
    assert p.welcome and p.welcome["room"]["private"] is True
    assert h.client.get("/api/rooms/nosuchroom").status_code == 404
    assert h.client.get("/api/health").json()["protocol"] == 2
    assert "perfect" in h.client.get("/api/options").json()["bot_levels"]


def test_create_room_refuses_bad_options_with_the_field(h: Harness) -> None:
    for body, word in (({"clock_seconds": 0}, "clock_seconds"), ({"colour": "red"}, "colour"),
                       ({"tiles": "1A,1A,1A,1A"}, "tiles"), ({"bots": [{"level": "god"}]}, "level"),
                       ({"silver": "yes"}, "silver")):
        r = h.client.post("/api/rooms", json=body)
        assert r.status_code == 400, body
        assert r.json()["error"]["code"] == "bad_options" and word in r.json()["error"]["message"]
    r = h.client.post("/api/rooms", content=b"[1,2", headers={"content-type": "application/json"})
    assert r.status_code == 400 and r.json()["error"]["code"] == "bad_json"
    r = h.client.post("/api/rooms", content=b" " * (P.MAX_BODY_BYTES + 1), headers={"content-type": "application/json"})
    assert r.status_code == 413
    r = h.client.post("/api/rooms", content=b"{}", headers={"content-type": "text/plain"})
    assert r.status_code == 415 and r.json()["error"]["code"] == "bad_content_type"


def test_real_tiles_room_and_board_svg(tmp_path: Path) -> None:
    from ricochet.server.protocol import config_for
    with Harness(tmp_path, factory=config_for) as h:
        rid = h.room(tiles="1A,2A,3A,4A", silver=False)
        assert h.client.get(f"/api/rooms/{rid}/board.svg").status_code == 404
        ann, bob = h.join(rid, "Ann"), h.join(rid, "Bob")
        ann.ok(type="start")
        assert ann.state["arrangement"] == ["1A", "2A", "3A", "4A"]
        assert len(ann.state["robots"]) == 4
        r = h.client.get(f"/api/rooms/{rid}/board.svg")
        assert r.status_code == 200 and r.text.startswith("<svg")
        bob.drain()


# -- joining -------------------------------------------------------------------------------------
def test_hello_joins_and_names_must_differ(h: Harness) -> None:
    rid = h.room()
    ann = h.join(rid, "Ann")
    assert ann.welcome["you"]["host"] is True and ann.id == "p1" and ann.token
    assert ann.welcome["presence"]["seats"][0]["online"] is True
    bob = h.connect(rid)
    err = bob.hello("ann")
    assert err["type"] == "error" and err["code"] == "join" and "taken" in err["message"]
    w = bob.hello("Bob")  # the connection stays usable after a refused hello
    assert w["type"] == "welcome" and w["you"]["host"] is False
    joined = [e for e in ann.events() if e["type"] == "player_joined"]
    assert [e["name"] for e in joined] == ["Bob"]
    err = bob.error(type="hello", protocol=1, name="Again")
    assert err["code"] == "bad_message"


def test_hello_requires_a_name_or_spectate(h: Harness) -> None:
    rid = h.room()
    p = h.connect(rid)
    err = p.hello(None)
    assert err["code"] == "bad_message" and "name" in err["message"]


def test_start_needs_host_and_players(h: Harness) -> None:
    rid = h.room()
    ann = h.join(rid, "Ann")
    assert ann.error(type="start")["code"] == "phase"  # alone, min_players 2
    bob = h.join(rid, "Bob")
    assert bob.error(type="start")["code"] == "not_host"
    assert ann.ok(type="start")
    assert ann.error(type="start")["code"] == "phase"


# -- a round -----------------------------------------------------------------------------------------
def test_bids_clock_and_successful_demonstration(h: Harness) -> None:
    _rid, ann, bob = started(h, clock_seconds=60)
    rnd = ann.state["round"]
    assert ann.state["phase"] == "thinking" and rnd["number"] == 1
    # a solution is never in the state while the round is played
    assert "solution" not in json.dumps(ann.state["history"]) or ann.state["history"] == []
    events = bob.ok(type="bid", moves=3, ref="b1")
    assert [e["type"] for e in events] == ["bid_placed", "clock_started"]
    assert events[1]["deadline"] == pytest.approx(T0 + 60)
    assert bob.error(type="bid", moves=4, ref=9) == {
        "type": "error", "code": "raise", "ref": 9,
        "message": "you may not raise your own bid (you bid 3); bid 3 or less"}
    ann.ok(type="bid", moves=2)
    assert ann.ok(type="bid", moves=2) == []  # an equal re-bid is allowed and changes nothing: no event
    assert ann.error(type="bid", moves=0)["code"] == "bid"
    h.advance(59)
    assert ann.events() == []
    h.advance(1)
    events = ann.events()
    assert [e["type"] for e in events] == ["clock_ran_out", "demonstration_started"]
    assert events[0]["order"] == [ann.id, bob.id] and events[1]["player"] == ann.id
    assert bob.error(type="bid", moves=1)["code"] == "closed"
    # Bob may not move for Ann
    moves = solution_of(ann.state)
    assert bob.error(**moves[0])["code"] == "turn"
    for m in moves:
        events = ann.ok(**m)
    # the solver's report may already be waiting and follow round_ended at once
    events = [e for e in events if e["type"] != "round_solved"]
    assert [e["type"] for e in events][-3:] == ["move_played", "demonstration_ended", "round_ended"]
    played = [e for e in events if e["type"] == "move_played"][-1]
    assert played["path"]["steps"] and played["cost"] == len(moves)
    assert events[-1] == {**events[-1], "result": "won", "winner": ann.id}
    assert ann.state["players"][0]["score"] == 1
    # during the round nobody gets the solution; after it, the optimum is broadcast and the moves on request
    h.idle()
    solved = [e for e in bob.events() if e["type"] == "round_solved"]
    assert solved == [{"type": "round_solved", "round": 1, "optimal": len(moves), "at": solved[0]["at"]}]
    assert bob.state["history"][0]["optimal"] == len(moves) and bob.state["history"][0]["solution"] is None
    sol = next(m for m in bob.do(type="request_solution", round=1) if m["type"] == "solution")
    assert sol["optimal"] == len(moves) and len(sol["moves"]) == len(sol["paths"]) == len(moves)
    # Moves and paths in the one wire form (ricochet.notation.wire), as in events and states.
    parsed = [move_from_wire(m) for m in sol["moves"]]
    assert [path_from_wire(p).robot for p in sol["paths"]] == [m.robot for m in parsed]


def test_no_solution_before_the_round_ends(h: Harness) -> None:
    rid, ann, _bob = started(h)
    h.idle()  # the solver has finished: its answer must still be held back
    err = ann.error(type="request_solution", round=1)
    assert err["code"] == "not_yet"
    assert all(e["type"] != "round_solved" for e in ann.events())
    r = h.client.get(f"/api/rooms/{rid}/events").json()
    assert all(e["event"]["type"] != "round_solved" for e in r["events"])
    assert ann.error(type="request_solution", round=7)["code"] == "not_yet"


def test_ties_fewer_chips_first_then_earlier_bid(h: Harness) -> None:
    _rid, ann, bob = started(h, intermission_seconds=0)
    # round 1: Bob wins a chip
    bob.ok(type="bid", moves=1)
    h.advance(60)
    for m in solution_of(bob.state):
        bob.ok(**m)
    ann.drain()
    assert ann.state["round"]["number"] == 2
    # round 2: Bob bids first, Ann the same number later: Ann has fewer chips, so she goes first
    bob.ok(type="bid", moves=1)
    h.advance(1)
    ann.ok(type="bid", moves=1)
    h.advance(60)
    events = ann.events()
    assert events[0]["type"] == "clock_ran_out" and events[0]["order"] == [ann.id, bob.id]


def test_tournament_ties_earlier_bid_first(h: Harness) -> None:
    _rid, ann, bob = started(h, intermission_seconds=0, tournament=True)
    bob.ok(type="bid", moves=1)
    h.advance(60)
    for m in solution_of(bob.state):
        bob.ok(**m)
    ann.drain()
    bob.ok(type="bid", moves=1)
    h.advance(1)
    ann.ok(type="bid", moves=1)
    h.advance(60)
    assert ann.events()[0]["order"] == [bob.id, ann.id]


def _moves_of_the_other_robot(state: dict) -> list[dict]:
    """``move`` messages for the robot that is not active, each in a direction it can go."""
    other = 1 - state["round"]["active"]
    return [{"type": "move", "robot": other, "direction": d} for d in "NESW"]


def test_a_demonstrations_messages_carry_only_its_new_move(h: Harness) -> None:
    """Each ``move_played`` message extends ``round.moves`` and ``round.paths`` by its move
    (``extend``) rather than resending every move so far (docs/protocol.md, section 2.3): its
    size does not grow with the demonstration.  Merged in turn, the states are the full state's
    (a ``sync``'s), move after move, for a player and a spectator; a client that does not hold
    the list it would extend gets nothing wrong: it cannot merge (and asks for a sync)."""
    rid, ann, bob = started(h)
    spectator = h.connect(rid)
    assert spectator.hello(None, spectate=True)["type"] == "welcome"
    ann.ok(type="bid", moves=6)
    h.advance(60)
    bob.drain()
    spectator.drain()
    sizes = []
    for k in range(6):
        played = None
        for move in _moves_of_the_other_robot(ann.state):  # the first direction the robot can go
            msgs = ann.do(**move)
            played = next((m for m in msgs if m["type"] == "event" and m["event"]["type"] == "move_played"), None)
            if played is not None:
                break
        assert played is not None
        grown = played["state"]["extend"]
        assert set(grown) == {"round.moves", "round.paths"} and "moves" not in played["state"]["round"]
        assert grown["round.paths"] == {"at": k, "items": [played["event"]["path"]]}
        assert grown["round.moves"]["at"] == k and len(grown["round.moves"]["items"]) == 1
        sizes.append(len(json.dumps(played["state"])))
        if k == 5:
            break  # the sixth move ends the demonstration (out of moves): the round moves on
        for p in (ann, bob, spectator):
            if p is not ann:
                p.drain()
            full = next(m for m in p.do(type="sync", since=p.version) if m["type"] == "sync")["state"]
            assert len(p.state["round"]["paths"]) == k + 1
            assert p.state["round"]["moves"] == full["round"]["moves"]
            assert p.state["round"]["paths"] == full["round"]["paths"]
    assert max(sizes) - min(sizes) < 200, sizes  # the same few keys each time, not every path so far
    # A state without the list to extend cannot take the message: the merge says so, and changes nothing.
    before = {"round": {"number": 1}}
    assert P.merge_event_state(before, played["state"]) is None and before == {"round": {"number": 1}}


def test_failure_passes_to_next_bidder_robots_go_back_and_chip_returns(h: Harness) -> None:
    _rid, ann, bob = started(h, intermission_seconds=10)
    start = ann.state["round"]["start"]
    ann.ok(type="bid", moves=1)
    bob.ok(type="bid", moves=2)
    h.advance(60)
    ann.drain()
    events = ann.ok(**wrong_move(ann.state))
    assert [e["type"] for e in events] == ["move_played", "demonstration_ended", "demonstration_started"]
    assert events[1]["success"] is False and events[1]["reason"] == "out_of_moves"
    assert events[2]["player"] == bob.id
    assert ann.state["robots"] == start  # the robots went back to their square tokens
    bob.drain()
    events = [e for e in bob.ok(type="give_up") if e["type"] != "round_solved"]  # the solver's report may race
    assert [e["type"] for e in events] == ["demonstration_ended", "round_ended"]
    assert events[0]["reason"] == "gave_up" and events[1]["result"] == "failed" and events[1]["winner"] is None
    assert bob.state["phase"] == "intermission" and bob.state["pile_size"] == 2  # the chip is back
    h.advance(10)
    assert [e["type"] for e in bob.events() if e["type"] != "round_solved"] == ["chip_drawn"]


def test_demonstration_times_out(h: Harness) -> None:
    _rid, ann, _bob = started(h, demo_seconds=30, demo_seconds_per_move=5)
    ann.ok(type="bid", moves=2)
    h.advance(60)
    deadline = ann.events()[-1]["deadline"]
    assert deadline == pytest.approx(h.t + 40)
    h.advance(40)
    events = ann.events()
    assert events[0] == {**events[0], "type": "demonstration_ended", "reason": "timeout"}
    assert events[1]["type"] == "round_ended" and events[1]["result"] == "failed"


def test_illegal_move_is_refused_and_demonstration_goes_on(h: Harness) -> None:
    _rid, ann, _bob = started(h)
    ann.ok(type="bid", moves=3)
    h.advance(60)
    ann.drain()
    red = ann.state["robots"][0]["cell"]
    assert red == [0, 0]
    err = ann.error(type="move", robot="red", direction="N")  # against the wall: not a move
    assert err["code"] == "illegal_move"
    err = ann.error(type="move", robot="blue", direction="N")
    assert err["code"] == "bad_message" and "red, green" in err["message"]
    assert ann.state["phase"] == "demonstration"


def test_no_bid_wait_turn_clock_and_no_bid_round(h: Harness) -> None:
    _rid, ann, bob = started(h, no_bid_wait_seconds=120, clock_seconds=30, intermission_seconds=0)
    err = ann.error(type="turn_clock")
    assert err["code"] == "clock" and "2 min" in err["message"]
    h.advance(120)
    events = bob.ok(type="turn_clock")
    assert events[0]["type"] == "clock_started" and events[0]["reason"] == "turned"
    assert ann.error(type="turn_clock")["code"] == "clock"
    h.advance(30)
    types = [e["type"] for e in ann.events()]
    assert types[:3] == ["clock_ran_out", "round_ended", "chip_drawn"]
    assert ann.state["history"][0]["result"] == "no_bid"


def test_end_of_game_by_score_and_restart(h: Harness) -> None:
    rid, ann, bob = started(h, target_score=1)
    ann.ok(type="bid", moves=1)
    h.advance(60)
    ann.drain()
    events = []
    for m in solution_of(ann.state):
        events += ann.ok(**m)
    events = [e for e in events if e["type"] != "round_solved"]  # the solver may report at once, after it
    assert events[-1] == {**events[-1], "type": "game_ended", "reason": "target_score", "winners": [ann.id]}
    assert ann.state["phase"] == "over"
    assert h.client.get("/api/rooms").json()["rooms"] == []  # finished rooms leave the lobby
    assert ann.error(type="bid", moves=1)["code"] == "phase"
    assert bob.error(type="restart")["code"] == "not_host"
    events = ann.ok(type="restart")
    assert [e["type"] for e in events] == ["game_reset", "player_joined", "player_joined"]
    assert ann.state["phase"] == "lobby" and ann.state["board"] is None
    assert [p["id"] for p in ann.state["players"]] == [ann.id, bob.id]
    bob.drain()
    assert ann.ok(type="start")
    # the replay of the first game is still there
    r = h.client.get(f"/api/rooms/{rid}/events?game=1&states=1").json()
    assert r["games"] == 2 and r["events"][-1]["event"]["type"] in ("game_ended", "round_solved")
    assert r["events"][-1]["state"]["phase"] == "over" and r["board"]["width"] == 6


def test_host_ends_the_game(h: Harness) -> None:
    _rid, ann, bob = started(h)
    assert bob.error(type="end_game")["code"] == "not_host"
    events = ann.ok(type="end_game")
    assert events[-1]["type"] == "game_ended" and events[-1]["reason"] == "host_ended"


def test_leave_and_join_again(h: Harness) -> None:
    _rid, ann, bob = started(h)
    bob.ok(type="leave")
    ann.drain()
    assert [p["seated"] for p in ann.state["players"]] == [True, False]
    assert bob.error(type="bid", moves=3)["code"] == "not_seated"
    bob.ok(type="join")
    assert bob.ok(type="bid", moves=3)


# -- safety and errors -------------------------------------------------------------------------------------
def test_malformed_messages_change_nothing(h: Harness) -> None:
    _rid, ann, _bob = started(h)
    version = ann.version
    cases = [
        ("{not json", "bad_json"), ("[1, 2]", "bad_json"), ('{"type": "fly"}', "unknown_type"),
        ('{"moves": 3}', "unknown_type"), ('{"type": "bid"}', "bad_message"),
        ('{"type": "bid", "moves": "3"}', "bad_message"), ('{"type": "bid", "moves": true}', "bad_message"),
        ('{"type": "move", "robot": "red"}', "bad_message"),
        ('{"type": "move", "robot": "red", "direction": "UP"}', "bad_message"),
        ('{"type": "chat", "text": ""}', "bad_message"), ('{"type": "bid", "moves": 3, "ref": [1]}', "bad_message"),
        (json.dumps({"type": "chat", "text": "x" * 5000}), "too_big"),
    ]
    for text, code in cases:
        ann.send_text(text)
        msgs = ann.drain()
        assert [m["code"] for m in msgs if m["type"] == "error"] == [code], text
    err = ann.error(type="bid", moves="3", ref="r7")
    assert err["ref"] == "r7" and "moves" in err["message"]
    assert ann.version == version and ann.state["round"]["standing"] == []


def test_actions_before_hello_and_wrong_protocol(h: Harness) -> None:
    rid = h.room()
    with h.socket(rid) as p:
        assert p.error(type="bid", moves=3)["code"] == "not_welcomed"
        p.send(type="hello", protocol=3, name="Ann")
        err = p.recv()
        assert err["code"] == "protocol"
        from starlette.websockets import WebSocketDisconnect
        with pytest.raises(WebSocketDisconnect) as e:
            p.recv()
        assert e.value.code == 4400


def test_unknown_room_is_an_error_then_a_close(h: Harness) -> None:
    from starlette.websockets import WebSocketDisconnect
    with h.socket("nosuchroom") as p:
        err = p.recv()
        assert err["code"] == "no_room"
        with pytest.raises(WebSocketDisconnect) as e:
            p.recv()
        assert e.value.code == 4404


def test_spectators_see_but_cannot_act(h: Harness) -> None:
    rid, ann, _bob = started(h)
    spec = h.connect(rid)
    w = spec.hello(spectate=True)
    assert w["you"]["spectator"] is True and w["you"]["seat_token"] is None and w["state"]["phase"] == "thinking"
    for msg in ({"type": "bid", "moves": 3}, {"type": "chat", "text": "hi"}, {"type": "start"},
                {"type": "add_bot", "level": "expert"}):
        assert spec.error(**msg)["code"] == "spectator"
    ann.ok(type="bid", moves=4)
    assert [e["type"] for e in spec.events()] == ["bid_placed", "clock_started"]
    assert h.client.get(f"/api/rooms/{rid}").json()["spectators"] == 1


def test_spectator_chat_is_a_room_option(h: Harness) -> None:
    rid, ann, _bob = started(h, spectator_chat=True)
    anonymous = h.connect(rid)
    anonymous.hello(spectate=True)
    assert anonymous.error(type="chat", text="hi")["code"] == "spectator"  # a spectator needs a name to chat
    cleo = h.connect(rid)
    cleo.hello("Cleo", spectate=True)
    cleo.do(type="chat", text="nice move")
    line = next(m for m in ann.drain() if m["type"] == "chat")
    assert line["player"] is None and line["name"] == "Cleo" and line["text"] == "nice move"
    for msg in ({"type": "bid", "moves": 3}, {"type": "start"}):  # chatting is all a spectator may do
        assert cleo.error(**msg)["code"] == "spectator"
    dan = h.join(rid, "Dan")
    assert dan.welcome is not None and dan.welcome["chat"][-1]["player"] is None
    refused = h.client.post("/api/rooms", json={"spectator_chat": "yes"}).json()["error"]
    assert refused["code"] == "bad_options" and "spectator_chat" in refused["message"]


def test_rate_limit(tmp_path: Path) -> None:
    with Harness(tmp_path, rate=(1.0, 5)) as h:
        rid = h.room()
        with h.socket(rid) as p:
            for _ in range(8):
                p.send(type="ping")
            msgs = [p.recv() for _ in range(8)]
            kinds = [m["type"] for m in msgs]
            assert kinds.count("pong") == 5 and kinds.count("error") == 3
            assert {m["code"] for m in msgs if m["type"] == "error"} == {"rate_limited"}


def test_rate_limit_flood_closes(tmp_path: Path) -> None:
    from starlette.websockets import WebSocketDisconnect
    with Harness(tmp_path, rate=(0.001, 1)) as h:
        rid = h.room()
        with h.socket(rid) as p:
            for _ in range(P.FLOOD_DROPS + 3):
                p.send(type="ping")
            with pytest.raises(WebSocketDisconnect) as e:
                while True:
                    p.recv()
            assert e.value.code == 4429


def test_a_flooding_address_cools_down(tmp_path: Path) -> None:
    """After one of its connections is closed for flooding, an address's new connections are
    refused (told why, closed 4429) for ``flood_cooldown_seconds``; then it may come back."""
    from starlette.websockets import WebSocketDisconnect

    from ricochet.server.limits import ServerLimits

    with Harness(tmp_path, rate=(0.001, 1), limits=ServerLimits.unlimited(flood_cooldown_seconds=0.5)) as h:
        rid = h.room()
        with h.socket(rid) as p:
            for _ in range(P.FLOOD_DROPS + 3):
                p.send(type="ping")
            with pytest.raises(WebSocketDisconnect):
                while True:
                    p.recv()
        with h.socket(rid) as q:
            refused = q.recv()
            assert refused["type"] == "error" and refused["code"] == "rate_limited"
            assert "too many messages: new connections are refused for 1 s" in refused["message"]
            with pytest.raises(WebSocketDisconnect) as e:
                q.recv()
            assert e.value.code == 4429
        time.sleep(0.6)
        with h.socket(rid) as r:
            assert r.hello("Back")["type"] == "welcome"


def test_chat_is_stored_raw_and_limited(h: Harness) -> None:
    rid, ann, bob = two_players(h)
    ann.do(type="chat", text="  <b>hi</b> & bye\x07 ")
    msg = next(m for m in bob.drain() if m["type"] == "chat")
    assert msg["text"] == "<b>hi</b> & bye" and msg["name"] == "Ann" and msg["player"] == ann.id
    assert ann.error(type="chat", text="x" * (P.MAX_CHAT + 1))["code"] == "bad_message"
    late = h.join(rid, "Cleo")
    assert [c["text"] for c in late.welcome["chat"]] == ["<b>hi</b> & bye"]


# -- reconnecting -------------------------------------------------------------------------------------------
def test_reconnect_with_seat_token_and_since(h: Harness) -> None:
    rid = h.room()
    ann = h.join(rid, "Ann")
    token = ann.token
    with h.socket(rid) as bob:
        w = bob.hello("Bob")
        bob_token, seen = w["you"]["seat_token"], w["version"]
        bob.drain()
        seen = bob.version
    ann.ok(type="start")
    ann.ok(type="bid", moves=4)
    with h.socket(rid) as bob2:
        w = bob2.hello(seat_token=bob_token, since=seen)
        assert w["you"]["player"] == "p2" and w["you"]["name"] == "Bob"
        assert [m["event"]["type"] for m in w["missed"]] == ["game_started", "chip_drawn", "bid_placed",
                                                               "clock_started"]
        assert [m["version"] for m in w["missed"]] == list(range(seen + 1, w["version"] + 1))
        assert w["state"]["phase"] == "bidding" and w["state"]["round"]["your_bid"] is None
        assert bob2.ok(type="bid", moves=3)
        # sync on demand: too old → no missed list, but the full state
        s = next(m for m in bob2.do(type="sync", since=0) if m["type"] == "sync")
        assert s["missed"] is not None and s["version"] == bob2.version
        s = next(m for m in bob2.do(type="sync", since=None) if m["type"] == "sync")
        assert s["missed"] is None and s["state"]["round"]["your_bid"] == 3
    with h.socket(rid) as thief:
        err = thief.hello(seat_token="not-a-token")
        assert err["code"] == "bad_token"
    with h.socket(rid) as ann2:
        w = ann2.hello(seat_token=token)
        assert w["you"]["player"] == ann.id and w["you"]["host"] is True
        assert w["state"]["round"]["your_bid"] == 4


# -- bots -------------------------------------------------------------------------------------------------
def test_bots_bid_and_demonstrate_a_round(h: Harness) -> None:
    rid = h.room(bots=[{"level": "perfect"}])
    ann = h.join(rid, "Ann")  # the room's bots sit down once the first person has: Ann is the host
    seats = h.seats(ann, lambda seats: len(seats) == 2 and seats[1]["online"])
    assert seats[1]["bot"] is True and seats[1]["level"] == "perfect" and seats[1]["online"] is True
    bot = seats[1]["player"]
    assert ann.state["host"] == ann.id
    ann.ok(type="start")
    seen = h.wait(ann, lambda m: m.get("event", {}).get("type") == "bid_placed" and m["event"]["player"] == bot)
    h.advance(60)
    seen = h.wait(ann, lambda m: m.get("event", {}).get("type") == "round_ended")
    ended = next(m["event"] for m in seen if m.get("event", {}).get("type") == "round_ended")
    assert ended["result"] == "won" and ended["winner"] == bot
    assert any(m.get("event", {}).get("type") == "move_played" for m in seen)


def test_host_adds_and_removes_bots(h: Harness) -> None:
    rid = h.room()
    ann = h.join(rid, "Ann")
    ann.ok(type="add_bot", level="expert")
    bots = [p for p in ann.state["players"] if p["id"].startswith("b")]
    assert len(bots) == 1 and bots[0]["name"].endswith("(expert)")
    bob = h.join(rid, "Bob")
    assert bob.error(type="add_bot", level="expert")["code"] == "not_host"
    assert bob.error(type="remove_bot", player=bots[0]["id"])["code"] == "not_host"
    assert ann.error(type="remove_bot", player=bob.id)["code"] == "bad_message"
    ann.ok(type="remove_bot", player=bots[0]["id"])
    assert [p for p in ann.state["players"] if p["id"] == bots[0]["id"]] == []  # left the lobby: forgotten
    assert ann.ok(type="start")
    assert (rid, bots[0]["id"]) not in h.manager.bots


# -- rooms and seats over time (issue #16; the attacks themselves: test_server_hardening.py) ------------------
def gone(h: Harness, rid: str, left: int) -> None:
    """Wait until the server has seen connections end: ``left`` still hold the room."""
    import time
    end = time.monotonic() + 5
    while h.manager.rooms[rid].attached > left and time.monotonic() < end:
        time.sleep(0.01)
    assert h.manager.rooms[rid].attached == left


def test_a_seat_expires_after_the_grace_period_while_others_wait(h: Harness) -> None:
    rid, ann, bob = started(h, seat_grace_seconds=30)
    with h.socket(rid) as cleo:
        cleo.hello("Cleo")
        cleo_id = cleo.id
    gone(h, rid, 2)
    ann.drain()
    h.advance(29)
    assert ann.events() == [] and bob.drain()
    h.advance(1)
    assert [(e["type"], e["player"]) for e in ann.events()] == [("player_left", cleo_id)]
    # nobody is kept waiting in an empty room: the grace counts only while someone is there
    with h.socket(rid) as dan:
        dan.hello("Dan")
        dan_id, dan_token = dan.id, dan.token
    gone(h, rid, 2)
    h.advance(10)
    ann.ws.close()
    bob.ws.close()
    gone(h, rid, 0)
    h.advance(600)
    back = h.connect(rid)
    w = back.hello(seat_token=dan_token)
    assert next(p["seated"] for p in w["state"]["players"] if p["id"] == dan_id)


def test_the_host_removes_a_person_and_their_token_dies(h: Harness) -> None:
    rid, ann, bob = started(h)
    assert bob.error(type="remove_player", player=ann.id)["code"] == "not_host"
    assert ann.error(type="remove_player", player=ann.id)["code"] == "not_host"  # leave instead
    assert ann.error(type="remove_player", player="p99")["code"] == "bad_message"
    assert ann.error(type="remove_player")["code"] == "bad_message"
    token = bob.token
    events = ann.ok(type="remove_player", player=bob.id)
    assert [e["type"] for e in events] == ["player_left"]
    err = bob.recv()
    while err["type"] != "error":  # the broadcast of his leaving comes first
        err = bob.recv()
    assert err["code"] == "removed"
    from starlette.websockets import WebSocketDisconnect
    with pytest.raises(WebSocketDisconnect) as e:
        bob.recv()
    assert e.value.code == 4403
    again = h.connect(rid)
    answer = again.hello(seat_token=token)
    assert answer["type"] == "error" and answer["code"] == "bad_token", answer
    assert ann.error(type="remove_player", player=bob.id)["code"] == "bad_message"  # gone already


def test_names_are_one_printable_line_and_compared_as_people_read_them(h: Harness) -> None:
    rid = h.room()
    h.join(rid, "Ann Lee")
    for name, code in (("ann  lee", "join"), ("Аnn Lee", "join"), ("Ánn Lee", "join"), ("Ann\nLee", "bad_message"),
                       ("Ann\u200bLee", "bad_message"), ("\u202eeeL nnA", "bad_message")):
        with h.socket(rid) as p:
            assert p.hello(name)["code"] == code, name
    assert h.join(rid, "  Zoe   Lee ").welcome["you"]["name"] == "Zoe Lee"


def test_idle_rooms_unload_and_load_again_and_empty_ones_expire(tmp_path: Path) -> None:
    from ricochet.server.limits import ServerLimits

    limits = ServerLimits.unlimited(idle_seconds=60, lobby_ttl_seconds=600)
    with Harness(tmp_path, limits=limits) as h:
        rid, ann, bob = started(h)
        ann.ok(type="bid", moves=3)
        empty = h.room()
        version = ann.version
        h.client.portal.call(h.manager.sweep)
        assert set(h.manager.rooms) == {rid, empty}  # in use, and not idle long enough
        ann.ws.close()
        bob.ws.close()
        gone(h, rid, 0)
        h.t += 61
        h.client.portal.call(h.manager.sweep)
        assert h.manager.rooms == {}  # both idle: unloaded, not forgotten
        room = h.loaded(rid)
        assert room.state.round.standing[ann.id].moves == 3
        # The sand clock ran out before the room was let go, the demonstration's clock was
        # paused as it went and resumed as it came back.
        assert [json.loads(text)["type"] for _, text in room.log if _ > version] == [
            "clock_ran_out", "demonstration_started", "game_paused", "game_resumed"]
        h.t += 600
        h.client.portal.call(h.manager.sweep)
        assert h.client.get(f"/api/rooms/{empty}").status_code == 404  # never started, nobody came: deleted
        assert h.client.get(f"/api/rooms/{rid}").status_code == 200  # a game is kept


def test_a_room_let_go_while_a_clock_runs_resumes_with_the_time_it_had_left(tmp_path: Path) -> None:
    """Nobody waits for a clock that ran out while nobody was there: the room's clocks stop when it
    is let go (``game_paused``) and run again, as far from running out, when it is loaded."""
    from ricochet.server.limits import ServerLimits

    with Harness(tmp_path, limits=ServerLimits.unlimited(idle_seconds=20)) as h:
        rid, ann, bob = started(h)
        ann.ok(type="bid", moves=3)
        left = h.manager.rooms[rid].state.round.clock_deadline - h.t
        assert left == 60
        ann.ws.close()
        bob.ws.close()
        gone(h, rid, 0)
        h.t += 25
        h.client.portal.call(h.manager.sweep)
        assert rid not in h.manager.rooms
        h.t += 3600  # an hour later someone comes back
        room = h.loaded(rid)
        state = room.state
        assert state.phase == "bidding" and state.paused_at is None and state.round.standing[ann.id].moves == 3
        assert state.round.clock_deadline - h.t == pytest.approx(left - 25)
        paused, resumed = (json.loads(text) for _, text in list(room.log)[-2:])
        assert paused["type"] == "game_paused" and resumed["type"] == "game_resumed"
        assert resumed["paused_for"] == pytest.approx(3600) and resumed["at"] - paused["at"] == pytest.approx(3600)
        h.advance(left - 25 - 1)
        assert room.state.phase == "bidding"
        h.advance(2)
        assert room.state.phase == "demonstration" and room.state.round.demonstrator == ann.id
        back = h.connect(rid)
        assert back.hello(seat_token=ann.token)["type"] == "welcome"


def test_a_paused_game_keeps_its_clocks_still_and_an_action_resumes_it() -> None:
    """The game interface alone, for every game with a clock: ``pause`` stops the clocks (no
    deadline), ``resume`` moves each clock by the pause, an action resumes a paused game first."""
    from ricochet.games import get_game
    from ricochet.games.table import GamePaused, GameResumed

    kind = get_game("ricochet-robots")
    state = kind.new(kind.config(kind.normalize_options({}), seed=7))
    for player, name in (("p1", "Ann"), ("p2", "Bob")):
        state, _ = kind.apply(state, kind.join(player, name), 0.0)
    state, _ = kind.apply(state, kind.start("p1"), 1.0)
    assert kind.pause(state, 2.0) == (state, [])  # thinking: no clock runs, nothing to stop
    state, _ = kind.apply(state, kind.parse_action(state, "p2", {"type": "bid", "moves": 5}), 10.0)
    due = kind.deadline(state)
    assert due == 70.0
    paused, events = kind.pause(state, 30.0)
    assert events == [GamePaused(30.0)] and kind.deadline(paused) is None
    assert kind.tick(paused, 500.0) == (paused, [])  # nothing runs out meanwhile
    assert kind.pause(paused, 40.0) == (paused, [])
    resumed, events = kind.resume(paused, 530.0)
    assert events == [GameResumed(500.0, 530.0)] and kind.deadline(resumed) == due + 500
    again, events = kind.apply(paused, kind.parse_action(paused, "p1", {"type": "bid", "moves": 4}), 530.0)
    assert [type(e) for e in events][:1] == [GameResumed] and kind.deadline(again) == due + 500


def test_every_game_moves_each_of_its_clocks_by_the_pause() -> None:
    """``clocks_shifted`` of each game's state moves every time a deadline is counted from."""
    from dataclasses import replace

    from ricochet.games import get_game

    micro = get_game("micro-robots")
    state = micro.new(micro.config(micro.normalize_options({}), seed=3))
    for player, name in (("p1", "Ann"), ("p2", "Bob")):
        state, _ = micro.apply(state, micro.join(player, name), 0.0)
    state, _ = micro.apply(state, micro.start("p1"), 1.0)
    due = micro.deadline(state)
    assert state.phase == "racing" and due == 1.0 + 180
    paused, _ = micro.pause(state, 50.0)
    resumed, events = micro.resume(paused, 1050.0)
    assert [e.type for e in events] == ["game_resumed"] and micro.deadline(resumed) == due + 1000

    rambots = get_game("rambots")
    ram = replace(rambots.new(rambots.config(rambots.normalize_options({}), seed=3)), programming_since=1.0,
                  next_step=7.5).clocks_shifted(10.0)
    assert (ram.programming_since, ram.next_step) == (11.0, 17.5)

    pyramids = get_game("pyramids")
    pyr = pyramids.new(pyramids.config(pyramids.normalize_options({}), seed=3))
    assert replace(pyr, intermission_until=4.0).clocks_shifted(2.0).intermission_until == 6.0


def test_the_service_worker_lists_every_static_file_under_a_version(h: Harness) -> None:
    r = h.client.get("/sw.js")
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/javascript")
    assert r.headers["cache-control"] == "no-cache" and "script-src 'self'" in r.headers["content-security-policy"]
    head = r.text.splitlines()[:2]
    version = json.loads(head[0].removeprefix("const VERSION = ").removesuffix(";"))
    assets = json.loads(head[1].removeprefix("const ASSETS = ").removesuffix(";"))
    assert len(version) == 16 and "/static/app.js" in assets and "/static/games/rambots/game.js" in assets
    assert "/static/sw.js" not in assets and all(h.client.get(a).status_code == 200 for a in assets)
    assert "self.addEventListener(\"fetch\"" in r.text
