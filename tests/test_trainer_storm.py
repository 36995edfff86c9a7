"""Puzzle Storm in process, on a clock the test moves (``create_app(now=…)``): the server
serves rising puzzles, checks every answer, keeps the time (mistakes cost it, combos give
it back, its own waiting is given back) and refuses answers after the end; best scores per
game and player; a storm moves no rating and spoils no rated puzzle."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from ricochet.trainer.storm import GRACE, MISTAKE_SECONDS, SECONDS, Run, combo_bonus, storm_length
from trainerkit import PARAMS, Clock, client, database, moves, no_cookie

GAME = "micro-robots"  # its puzzles are made in milliseconds (a breadth-first search)


@pytest.fixture(params=PARAMS)
def db(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    return database(request.param, tmp_path)


def _answer(c: TestClient, out: dict[str, Any], right: bool = True) -> Any:
    p = out["puzzle"]
    return c.post(f"/api/storm/{out['storm']['id']}/answer", json={"puzzle": p["id"], "moves": moves(p) if right else []})


def test_combo_bonuses_and_mistakes() -> None:
    assert [combo_bonus(n) for n in range(1, 26)] == [0, 0, 3, 0, 0, 5, 0, 0, 0, 7, 0, 0, 0, 0, 10, 0, 0, 0, 0, 10,
                                                      0, 0, 0, 0, 10]
    run = Run.begin(0.0)
    assert run.left(0.0) == SECONDS and not run.over(SECONDS - 0.1) and run.over(SECONDS)
    assert run.accepts(SECONDS + GRACE - 0.1) and not run.accepts(SECONDS + GRACE)
    assert run.answer(False, 1.0).deadline == SECONDS - MISTAKE_SECONDS
    assert run.credit(2.5).deadline == SECONDS + 2.5 and run.end(50.0).deadline == 50.0


def test_a_storm_rises_counts_and_keeps_the_time(db: str) -> None:
    clock = Clock()
    with client(db, clock) as c:
        out = c.post("/api/storm/start", json={"game": GAME}).json()
        st = out["storm"]
        assert st["left"] == SECONDS and st["score"] == 0 and not st["over"] and "set-cookie" not in str(out)
        lengths = []
        for k in range(6):  # six right in a row: +3 s at the third, +5 s at the sixth
            p = out["puzzle"]
            assert p["index"] == k + 1 and p["optimal"] == storm_length(GAME, k) and "solution" not in p["puzzle"]
            lengths.append(p["optimal"])
            clock.t += 4
            r = _answer(c, out)
            assert r.status_code == 200, r.text
            out = r.json()
            assert out["answer"]["correct"] and out["answer"]["result"] == "optimal"
            assert out["answer"]["seconds"] == combo_bonus(k + 1)
        assert lengths == sorted(lengths) and lengths[-1] > lengths[0]  # rising
        assert out["storm"]["score"] == 6 and out["storm"]["combo"] == 6
        assert out["storm"]["left"] == SECONDS - 24 + 3 + 5
        clock.t += 1
        out = _answer(c, out, right=False).json()  # a mistake: ten seconds, and the combo is gone
        assert not out["answer"]["correct"] and out["answer"]["seconds"] == -MISTAKE_SECONDS
        assert out["storm"]["combo"] == 0 and out["storm"]["best_combo"] == 6 and out["storm"]["mistakes"] == 1
        assert out["storm"]["left"] == SECONDS - 25 + 8 - MISTAKE_SECONDS
        state = c.get(f"/api/storm/{out['storm']['id']}").json()
        assert state["puzzle"]["id"] == out["puzzle"]["id"] and state["storm"]["score"] == 6


def test_answers_after_the_end_are_refused_and_the_best_is_kept(db: str) -> None:
    clock = Clock()
    with client(db, clock) as c:
        out = c.post("/api/storm/start", json={"game": GAME}).json()
        sid = out["storm"]["id"]
        out = _answer(c, out).json()
        clock.t += SECONDS + GRACE / 2  # past the end, within the grace: it counts, and ends the storm
        late = _answer(c, out).json()
        assert late["answer"]["correct"] and late["storm"]["over"] and late["puzzle"] is None
        assert late["storm"]["score"] == 2 and late["storm"]["left"] == 0 and late["storm"]["record"]
        r = c.post(f"/api/storm/{sid}/answer", json={"puzzle": out["puzzle"]["id"], "moves": []})
        assert r.status_code == 409 and r.json()["error"]["code"] == "storm_over"
        review = c.get(f"/api/storm/{sid}").json()["storm"]["review"]
        assert [p["result"] for p in review] == ["optimal", "optimal"]
        assert all(p["url"] == f"/train/{GAME}/{p['code']}" and "solution" not in p for p in review)
        # Another storm, let run out without an answer in time: refused, and the best stays 2.
        out = c.post("/api/storm/start", json={"game": GAME}).json()
        clock.t += SECONDS + GRACE
        r = _answer(c, out)
        assert r.status_code == 409 and r.json()["error"]["code"] == "storm_over"
        state = c.get(f"/api/storm/{out['storm']['id']}").json()["storm"]
        assert state["over"] and state["score"] == 0 and state["best"] == 2 and not state["record"]
        me = c.get("/api/trainer/me").json()
        assert me["profiles"][GAME]["storm"] == {"best": 2, "runs": 2}
        assert me["profiles"]["pyramids"]["storm"] == {"best": 0, "runs": 0}
        assert me["storm"]["seconds"] == SECONDS and me["games"][GAME]["storm"] == [2, 6]


def test_mistakes_alone_end_a_storm(db: str) -> None:
    clock = Clock()
    with client(db, clock) as c:
        out = c.post("/api/storm/start", json={"game": GAME}).json()
        answers = 0
        while not out["storm"]["over"]:
            out = _answer(c, out, right=False).json()
            answers += 1
        assert answers == int(SECONDS // MISTAKE_SECONDS) and out["storm"]["score"] == 0


def test_the_server_gives_back_the_time_it_waits_for_a_puzzle(db: str, monkeypatch: pytest.MonkeyPatch) -> None:
    from ricochet.server.trainer_storm import Storms

    clock = Clock()
    slow = Storms._choose

    async def choose(self: Storms, *args: Any) -> Any:
        clock.t += 7  # making the puzzle took seven seconds of the server's time
        return await slow(self, *args)

    monkeypatch.setattr(Storms, "_prefetch", lambda self, *args: None)  # nothing chosen ahead: each answer waits
    monkeypatch.setattr(Storms, "_choose", choose)
    with client(db, clock) as c:
        out = c.post("/api/storm/start", json={"game": GAME}).json()
        assert out["storm"]["left"] == SECONDS  # the clock starts once the first puzzle is there
        clock.t += 10
        out = _answer(c, out).json()
        assert out["storm"]["left"] == SECONDS - 10  # the player's ten seconds, not the server's seven
        assert out["puzzle"]["index"] == 2


def test_a_storm_is_its_players_alone_and_answers_are_checked(db: str) -> None:
    clock = Clock()
    with client(db, clock) as c, client(db, clock) as other:
        out = c.post("/api/storm/start", json={"game": GAME}).json()
        sid, pid = out["storm"]["id"], out["puzzle"]["id"]
        other.get("/api/puzzles/daily", params={"game": GAME})  # another player, with a cookie
        with no_cookie(c) as nobody:
            for who in (other, nobody):  # another's cookie, or none: no such storm of theirs
                r = who.post(f"/api/storm/{sid}/answer", json={"puzzle": pid, "moves": moves(out["puzzle"])})
                assert r.status_code == 404 and r.json()["error"]["code"] == "no_storm", r.text
                assert who.get(f"/api/storm/{sid}").status_code == 404
        for body, words in [({"puzzle": pid, "moves": [[9, 9]]}, "moves[0]"), ({"moves": []}, "puzzle is missing"),
                            ({"puzzle": pid}, "moves is missing"), ({"puzzle": "x" * 16, "moves": []}, "current puzzle")]:
            r = c.post(f"/api/storm/{sid}/answer", json=body)
            assert r.status_code in (400, 409) and words in r.json()["error"]["message"], r.text
        state = c.get(f"/api/storm/{sid}").json()["storm"]
        assert state["score"] == 0 and state["mistakes"] == 0  # refused answers count for nothing
        r = c.post("/api/storm/start", json={"game": "chess"})
        assert r.status_code == 400 and "game must be one of" in r.json()["error"]["message"]
        # A new storm stops the old one where it is.
        c.post("/api/storm/start", json={"game": GAME})
        r = c.post(f"/api/storm/{sid}/answer", json={"puzzle": pid, "moves": moves(out["puzzle"])})
        assert r.status_code == 409 and r.json()["error"]["code"] == "storm_over"


def test_a_storm_moves_no_rating_and_spoils_no_rated_puzzle(db: str) -> None:
    clock = Clock()
    with client(db, clock) as c:
        trainer = c.app.state.trainer  # type: ignore[attr-defined]
        out = c.post("/api/storm/start", json={"game": GAME}).json()
        seen = {out["puzzle"]["id"]}
        before = c.portal.call(trainer.store.puzzle, out["puzzle"]["id"]).rating
        for _ in range(3):
            out = _answer(c, out).json()
            seen.add(out["puzzle"]["id"])
        after = c.portal.call(trainer.store.puzzle, next(iter(seen - {out["puzzle"]["id"]}))).rating
        assert after.rd == before.rd  # no rating period for a storm's puzzle
        me = c.get("/api/trainer/me").json()
        assert me["profiles"][GAME]["rating"] == 1500 and me["profiles"][GAME]["attempts"] == 0 and me["history"] == []
        # A rated puzzle of a storm's length is never one the storm showed (it told its optimum).
        for _ in range(3):
            p = c.get("/api/puzzles/next", params={"game": GAME, "length": storm_length(GAME, 0)}).json()
            assert p["id"] not in seen
            c.post(f"/api/puzzles/{p['id']}/attempt", json={"moves": []})
        # The normal attempt of a storm's puzzle: not served to this player as a puzzle to rate.
        r = c.post(f"/api/puzzles/{out['puzzle']['id']}/attempt", json={"moves": []})
        assert r.status_code == 409 and r.json()["error"]["code"] == "not_served"


def test_storms_follow_the_player_who_logs_in(db: str) -> None:
    clock = Clock()
    with client(db, clock) as account, client(db, clock) as anonymous:
        assert account.post("/api/trainer/claim", json={"name": "Stormy", "password": "correct horse"}).status_code == 200
        out = anonymous.post("/api/storm/start", json={"game": GAME}).json()
        out = _answer(anonymous, out).json()
        r = anonymous.post("/api/trainer/login", json={"name": "Stormy", "password": "correct horse"})
        assert r.json()["merged"]["storms"] == 1
        assert anonymous.get("/api/trainer/me").json()["profiles"][GAME]["storm"] == {"best": 1, "runs": 1}
        # still playable by the same browser, now the account
        assert _answer(anonymous, out).status_code == 200


def test_a_puzzle_not_made_in_time_is_asked_for_again(db: str, monkeypatch: pytest.MonkeyPatch) -> None:
    from ricochet.server.trainer_storm import Storms

    clock = Clock()
    real = Storms._choose
    busy = [False]

    async def choose(self: Storms, *args: Any) -> Any:
        if busy[0]:
            raise TimeoutError  # the worker could not make it in time
        return await real(self, *args)

    monkeypatch.setattr(Storms, "_prefetch", lambda self, *args: None)
    monkeypatch.setattr(Storms, "_choose", choose)
    with client(db, clock) as c:
        out = c.post("/api/storm/start", json={"game": GAME}).json()
        sid = out["storm"]["id"]
        busy[0] = True
        r = _answer(c, out)
        assert r.status_code == 200, r.text
        assert r.json()["puzzle"] is None and not r.json()["storm"]["over"] and r.json()["storm"]["score"] == 1
        busy[0] = False
        state = c.get(f"/api/storm/{sid}").json()  # the page asks again: now there is one
        assert state["puzzle"]["index"] == 2 and state["storm"]["score"] == 1
        assert c.get(f"/api/storm/{sid}").json()["puzzle"]["id"] == state["puzzle"]["id"]
