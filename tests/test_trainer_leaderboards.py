"""The leaderboards in process: dailies solved optimally on their day and Puzzle Storm's best
scores, with the names of claimed accounts only (never a player's id), ranks shared by ties,
and the asker's own standing."""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path

import pytest

from trainerkit import DAY, PARAMS, Clock, client, daily, database, moves, no_cookie, solve

GAME = "micro-robots"


@pytest.fixture(params=PARAMS)
def db(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    return database(request.param, tmp_path)


def test_leaderboards_list_claimed_names_only(db: str) -> None:
    clock = Clock()
    with client(db, clock) as ada, client(db, clock) as bob, client(db, clock) as anon:
        ids = {}
        for c, name in ((ada, "Ada"), (bob, "Bob")):
            assert c.post("/api/trainer/claim", json={"name": name, "password": "correct horse"}).status_code == 200
        for c in (ada, bob, anon):
            solve(c, daily(c, GAME))
            ids[c] = c.get("/api/trainer/me").json()["player"]["id"]
        clock.next_day()
        solve(ada, daily(ada, GAME))
        solve(bob, daily(bob, GAME), right=False)
        solve(anon, daily(anon, GAME))
        solve(bob, daily(bob, GAME, DAY - dt.timedelta(days=5)))  # from the archive: not on the board
        for c, n in ((ada, 2), (anon, 4)):
            out = c.post("/api/storm/start", json={"game": GAME}).json()
            for _ in range(n):
                p = out["puzzle"]
                out = c.post(f"/api/storm/{out['storm']['id']}/answer",
                             json={"puzzle": p["id"], "moves": moves(p)}).json()
        board = ada.get("/api/trainer/leaderboard", params={"game": GAME}).json()
        assert board["daily"] == [{"rank": 1, "name": "Ada", "solved": 2}, {"rank": 2, "name": "Bob", "solved": 1}]
        assert board["storm"] == [{"rank": 1, "name": "Ada", "score": 2}]
        assert board["you"] == {"name": "Ada", "daily": {"solved": 2, "rank": 1}, "storm": {"best": 2, "rank": 1}}
        mine = anon.get("/api/trainer/leaderboard", params={"game": GAME}).json()
        assert mine["you"] == {"name": None, "daily": {"solved": 2, "rank": None}, "storm": {"best": 4, "rank": None}}
        text = json.dumps(mine) + json.dumps(board)
        assert not any(pid in text for pid in ids.values())  # never an id
        # A tie shares its rank.
        solve(bob, daily(bob, GAME, DAY))  # already played: not a second count
        clock.next_day()
        solve(bob, daily(bob, GAME))
        with no_cookie(ada) as nobody:
            board = nobody.get("/api/trainer/leaderboard", params={"game": GAME}).json()
        assert [(r["rank"], r["name"]) for r in board["daily"]] == [(1, "Ada"), (1, "Bob")]
        assert board["you"]["name"] is None and board["you"]["daily"] == {"solved": 0, "rank": None}
        r = ada.get("/api/trainer/leaderboard", params={"game": GAME, "limit": 101})
        assert r.status_code == 400 and "limit must be from 1 to 100" in r.json()["error"]["message"]
