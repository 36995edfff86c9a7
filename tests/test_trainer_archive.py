"""The daily archive in process, on a clock the test moves: every past daily puzzle playable,
listed with the player's result; one played from the archive is rated like any puzzle but
counts for no day in a row (only a daily opened on its day does)."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

from ricochet.server.trainer_records import days_in_a_row
from trainerkit import DAY, PARAMS, Clock, client, daily, database, solve

GAME = "micro-robots"


@pytest.fixture(params=PARAMS)
def db(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    return database(request.param, tmp_path)


def test_days_in_a_row() -> None:
    d = DAY
    days = {d - dt.timedelta(k) for k in (0, 1, 2, 5, 6, 7, 8)}
    assert days_in_a_row(days, d) == {"current": 3, "best": 4}
    assert days_in_a_row(days - {d}, d) == {"current": 2, "best": 4}  # today's may still come
    assert days_in_a_row(days, d + dt.timedelta(2)) == {"current": 0, "best": 4}
    assert days_in_a_row(set(), d) == {"current": 0, "best": 0}


def test_the_archive_lists_every_past_daily_with_the_players_result(db: str) -> None:
    clock = Clock()
    with client(db, clock) as c:
        assert c.get("/api/puzzles/archive", params={"game": GAME}).json()["days"][0]["opened"] is False
        today = daily(c, GAME)
        assert today["mode"] == "daily"
        solve(c, today)
        past = daily(c, GAME, DAY - dt.timedelta(days=10))
        assert past["mode"] == "archive" and past["daily"]["date"] == "2026-03-04"
        out = solve(c, past, right=False)
        assert out["rated"] and out["rating"]["change"] < 0  # rated as any puzzle
        daily(c, GAME, DAY - dt.timedelta(days=11))  # opened, not played
        a = c.get("/api/puzzles/archive", params={"game": GAME, "limit": 20}).json()
        days = a["days"]
        assert [d["date"] for d in days[:2]] == ["2026-03-14", "2026-03-13"] and len(days) == 20
        assert days[0]["number"] == 73 and days[0]["mode"] == "daily" and days[0]["result"] == "optimal"
        assert days[10]["mode"] == "archive" and days[10]["result"] == "failed"
        assert days[11]["opened"] and days[11]["result"] is None
        assert not days[1]["opened"] and days[1]["result"] is None
        assert a["next"] == "2026-02-22" and a["in_a_row"] == {"current": 1, "best": 1}
        older = c.get("/api/puzzles/archive", params={"game": GAME, "until": a["next"], "limit": 400}).json()
        assert older["days"][-1]["date"] == "2026-01-01" and older["days"][-1]["number"] == 1 and older["next"] is None
        # Solving past dailies from the archive adds no day in a row.
        solve(c, daily(c, GAME, DAY - dt.timedelta(days=1)))
        assert c.get("/api/puzzles/archive", params={"game": GAME}).json()["in_a_row"] == {"current": 1, "best": 1}
        # Solved on their days, they do.
        clock.next_day()
        solve(c, daily(c, GAME))
        clock.next_day()
        solve(c, daily(c, GAME))
        assert c.get("/api/puzzles/archive", params={"game": GAME}).json()["in_a_row"] == {"current": 3, "best": 3}
        for params, words in [({"limit": 0}, "limit must be from 1 to 400"), ({"until": "2030-01-01"}, "in the future"),
                              ({"until": "2025-12-31"}, "start on 2026-01-01"), ({"game": "chess"}, "game must be")]:
            r = c.get("/api/puzzles/archive", params={"game": GAME} | params)
            assert r.status_code == 400 and words in r.json()["error"]["message"], r.text


def test_a_daily_is_its_days_anywhere_on_earth(db: str) -> None:
    clock = Clock()
    clock.t -= 3600  # 11:00 UTC: still the 13th at UTC-12, already the 15th at UTC+14
    with client(db, clock) as c:
        assert daily(c, GAME, DAY - dt.timedelta(days=1))["mode"] == "daily"
        assert daily(c, GAME, DAY + dt.timedelta(days=1))["mode"] == "daily"
        assert daily(c, GAME, DAY - dt.timedelta(days=2))["mode"] == "archive"
