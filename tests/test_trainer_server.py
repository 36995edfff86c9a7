"""The trainer's HTTP API in process: the daily puzzle (the same across restarts
and on SQLite and PostgreSQL), attempts checked and rated, hints charged,
streaks, accounts with cookies, and precise errors."""

from __future__ import annotations

import datetime as dt
import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from ricochet.server.app import create_app
from ricochet.server.solving import SolverService
from ricochet.server.trainer_api import TrainerOptions
from ricochet.trainer import daily_puzzle

SECRET = b"test-secret-0123456789abcdef"
NOW = dt.datetime(2026, 3, 14, 12, 0, tzinfo=dt.UTC).timestamp()


@contextmanager
def client(db: str, now: float = NOW, **options: Any) -> Iterator[TestClient]:
    app = create_app(db, now=lambda: now, realtime=False, solver=SolverService("thread"), bots=False,
                     trainer=TrainerOptions(secret=SECRET, pool=0, **options))
    with TestClient(app) as c:
        yield c


@pytest.fixture
def db(tmp_path: Path) -> str:
    return f"sqlite+aiosqlite:///{tmp_path}/trainer.db"


def test_daily_is_the_same_across_restarts_and_has_no_solution(db: str) -> None:
    with client(db) as c:
        r = c.get("/api/puzzles/daily", params={"game": "ricochet-robots", "date": "2026-03-10"})
        assert r.status_code == 200, r.text
        first = r.json()
        assert first["date"] == "2026-03-10" and first["number"] == 69
        # neither the solution nor its length before an attempt or a hint (issue 45)
        assert "optimal" not in first and "optimal" not in first["puzzle"] and "solution" not in first["puzzle"]
        assert "solution" not in str(first) and first["played"] is None and first["rating"] is None
        assert "set-cookie" in r.headers  # the puzzle is recorded as served to this (new) player
        today = c.get("/api/puzzles/daily").json()
        assert today["date"] == "2026-03-14"
    with client(db) as c:  # a restart: the cache
        assert c.get("/api/puzzles/daily", params={"date": "2026-03-10"}).json()["puzzle"] == first["puzzle"]
    expected = daily_puzzle("ricochet-robots", dt.date(2026, 3, 10))
    assert first["code"] == expected.code and first["id"] == expected.id


def test_daily_errors_name_the_field(db: str) -> None:
    with client(db) as c:
        for params, words in [({"date": "2026-13-01"}, "date must be a real day"),
                              ({"date": "2030-01-01"}, "is in the future"),
                              ({"game": "chess"}, "game must be one of"),
                              ({"date": "2025-06-01"}, "daily puzzles start on 2026-01-01")]:
            r = c.get("/api/puzzles/daily", params=params)
            assert r.status_code == 400 and words in r.json()["error"]["message"], (params, r.text)


def _solve(c: TestClient, p: dict[str, Any], moves: list[Any]) -> dict[str, Any]:
    r = c.post(f"/api/puzzles/{p['id']}/attempt", json={"moves": moves})
    assert r.status_code == 200, r.text
    return r.json()  # type: ignore[no-any-return]


def _optimal(p: dict[str, Any]) -> int:
    from ricochet.trainer.puzzles import from_code
    return from_code(p["game"], p["code"]).optimal


def _solution(p: dict[str, Any]) -> list[Any]:
    from ricochet.trainer.puzzles import from_code
    return [list(m) for m in from_code(p["game"], p["code"]).solution]


def test_attempts_are_rated_once_and_reveal_the_solution(db: str) -> None:
    with client(db) as c:
        p = c.get("/api/puzzles/daily", params={"game": "pyramids"}).json()
        out = _solve(c, p, _solution(p))
        assert out["result"] == "optimal" and out["first"] and out["rating"]["change"] > 0
        assert out["solution"] and len(out["paths"]) == out["optimal"] == _optimal(p)
        assert out["share"] == f"Pyramids daily #{p['number']}: {out['optimal']}/{out['optimal']} ⭐"
        again = _solve(c, p, [])
        assert again["result"] == "failed" and not again["first"] and again["rating"] is None
        me = c.get("/api/trainer/me", params={"game": "pyramids"}).json()
        assert me["profiles"]["pyramids"]["rating"] == out["rating"]["after"]
        assert [h["rating"] for h in me["history"]] == [out["rating"]["after"]]
        p2 = c.get("/api/puzzles/daily", params={"game": "pyramids"}).json()
        assert p2["played"]["result"] == "optimal" and p2["played"]["solution"]  # after an attempt: the solution
        r = c.post(f"/api/puzzles/{p['id']}/attempt", json={"moves": [[0, "X"]]})
        assert r.status_code == 400 and "moves[0][1]" in r.json()["error"]["message"]
        r = c.post("/api/puzzles/0123456789abcdef/attempt", json={"moves": []})
        assert r.status_code == 404 and r.json()["error"]["code"] == "no_puzzle"
        r = c.post(f"/api/puzzles/{p['id']}/attempt", content="moves", headers={"content-type": "text/plain"})
        assert r.status_code == 415


def test_hints_cost_rating_and_streaks_end_on_a_miss(db: str) -> None:
    with client(db) as c:
        p = c.get("/api/puzzles/next", params={"game": "micro-robots"}).json()
        assert p["mode"] == "rated" and p["hints"] is None
        assert c.get("/api/puzzles/next", params={"game": "micro-robots"}).json()["id"] == p["id"]  # no skipping
        h = c.post(f"/api/puzzles/{p['id']}/hint", json={"level": 2}).json()
        assert h["optimal"] == _optimal(p) and "kinds" in h and "solution" not in h and h["charged"]
        bad = c.post(f"/api/puzzles/{p['id']}/hint", json={"level": 7})
        assert bad.status_code == 400 and "level must be 1" in bad.json()["error"]["message"]
        out = _solve(c, p, _solution(p))
        assert out["result"] == "optimal" and out["hints"] == 2 and out["assisted"] and out["score"] == 0.5
        assert out["share"].endswith("💡💡")
        # a streak: rising lengths, unrated, ends at the first miss
        assert c.post("/api/trainer/streak", json={"game": "micro-robots"}).json()["streak"]["current"] == 0
        s1 = c.get("/api/puzzles/next", params={"game": "micro-robots", "mode": "streak"}).json()
        assert s1["mode"] == "streak" and _optimal(s1) == 2 and "optimal" not in s1
        r1 = _solve(c, s1, _solution(s1))
        assert r1["streak"] == {"current": 1, "best": 1, "ended": False, "reached": 0} and r1["rating"] is None
        s2 = c.get("/api/puzzles/next", params={"game": "micro-robots", "mode": "streak"}).json()
        assert s2["id"] != s1["id"]
        r2 = _solve(c, s2, [])
        assert r2["streak"]["ended"] and r2["streak"]["best"] == 1
        r = c.get("/api/puzzles/next", params={"game": "micro-robots", "mode": "streak"})
        assert r.status_code == 409 and r.json()["error"]["code"] == "no_streak"


def test_shared_codes_and_accounts(db: str) -> None:
    with client(db) as c:
        p = c.get("/api/puzzles/daily").json()
        shared = c.get(f"/api/puzzles/ricochet-robots/{p['code']}").json()
        assert shared["id"] == p["id"] and shared["url"] == f"/train/ricochet-robots/{p['code']}"
        r = c.get("/api/puzzles/ricochet-robots/1A3B4A2A.zz")
        assert r.status_code == 400 and r.json()["error"]["message"].startswith("code:")
        out = _solve(c, p, _solution(p))
        r = c.post("/api/trainer/claim", json={"name": "Ada", "password": "short"})
        assert r.status_code == 400 and "password must be 8 to 200" in r.json()["error"]["message"]
        assert c.post("/api/trainer/claim", json={"name": "Ada", "password": "correct horse"}).status_code == 200
        r = c.post("/api/trainer/claim", json={"name": "Bob", "password": "correct horse"})
        assert r.status_code == 409 and r.json()["error"]["code"] == "claimed"
        c.post("/api/trainer/logout", json={})
        assert c.get("/api/trainer/me").json()["player"] is None
        r = c.post("/api/trainer/login", json={"name": "ada", "password": "wrong password"})
        assert r.status_code == 401 and r.json()["error"]["code"] == "bad_login"
        r = c.post("/api/trainer/login", json={"name": "ADA", "password": "correct horse"})
        assert r.status_code == 200 and r.json()["player"]["name"] == "Ada"
        me = c.get("/api/trainer/me").json()
        assert me["player"]["name"] == "Ada"
        assert me["profiles"]["ricochet-robots"]["rating"] == out["rating"]["after"]
        c.cookies.clear()
        other = c.post("/api/trainer/claim", json={"name": "ada", "password": "another one"})
        assert other.status_code == 409 and other.json()["error"]["code"] == "name_taken"
        c.cookies.set("ricochet_trainer", "forged.1.abc")
        assert c.get("/api/trainer/me").json()["player"] is None


def test_logging_in_keeps_what_was_played_before(db: str) -> None:
    """Puzzles played anonymously in this browser join the account at login: a game the account
    never trained in comes with its rating; a puzzle the account played already keeps its play."""
    with client(db) as c:
        rr = c.get("/api/puzzles/daily").json()
        ada = _solve(c, rr, _solution(rr))
        assert c.post("/api/trainer/claim", json={"name": "Ada", "password": "correct horse"}).status_code == 200
        c.post("/api/trainer/logout", json={})
        c.cookies.clear()
        micro = c.get("/api/puzzles/daily", params={"game": "micro-robots"}).json()
        anon = _solve(c, micro, _solution(micro))
        assert c.get("/api/puzzles/daily").json()["id"] == rr["id"]  # served to this browser too
        _solve(c, rr, [])  # the account's daily, failed while logged out
        anonymous = c.get("/api/trainer/me").json()
        assert anonymous["player"]["name"] is None and "micro-robots" in anonymous["profiles"]
        r = c.post("/api/trainer/login", json={"name": "Ada", "password": "correct horse"})
        assert r.status_code == 200 and r.json()["merged"] == {"games": 1, "plays": 1, "storms": 0}, r.text
        me = c.get("/api/trainer/me").json()
        assert me["profiles"]["micro-robots"]["rating"] == anon["rating"]["after"]
        assert me["profiles"]["ricochet-robots"]["rating"] == ada["rating"]["after"]  # the account's stays
        again = c.get("/api/puzzles/daily", params={"game": "micro-robots"}).json()
        assert again["played"] is not None and again["played"]["result"] == "optimal"
        assert c.get("/api/puzzles/daily").json()["played"]["result"] == "optimal"
        c.post("/api/trainer/logout", json={})
        r = c.post("/api/trainer/login", json={"name": "Ada", "password": "correct horse"})
        assert r.json()["merged"] == {"games": 0, "plays": 0, "storms": 0}


def test_puzzle_requests_are_limited_per_address_and_bodies_are_bounded(db: str) -> None:
    with client(db, puzzles_per_minute=1, puzzle_burst=2) as c:
        code = c.get("/api/puzzles/daily").json()["code"]
        for _ in range(2):
            assert c.get(f"/api/puzzles/ricochet-robots/{code}").status_code == 200
        r = c.get(f"/api/puzzles/ricochet-robots/{code}")
        assert r.status_code == 429 and r.json()["error"]["code"] == "rate_limited"
        assert int(r.headers["Retry-After"]) >= 1
        assert c.get("/api/puzzles/daily").status_code == 200  # the daily puzzle is made once: not limited
        r = c.post("/api/trainer/login", content=b'{"name": "' + b"x" * 100_000 + b'"}',
                   headers={"content-type": "application/json"})
        assert r.status_code == 413 and r.json()["error"]["code"] == "too_big"
        r = c.post("/api/trainer/login", content=b"[" * 5000 + b"]" * 5000, headers={"content-type": "application/json"})
        assert r.status_code == 400


POSTGRES = os.environ.get("RICOCHET_TEST_POSTGRES")


@pytest.mark.postgres
@pytest.mark.skipif(not POSTGRES, reason="RICOCHET_TEST_POSTGRES is not set (scripts/start-test-postgres.sh)")
def test_daily_is_the_same_on_sqlite_and_postgresql(db: str) -> None:
    import asyncio

    import sqlalchemy as sa
    from sqlalchemy.ext.asyncio import create_async_engine

    from ricochet.server.storage import normalize_url

    async def reset() -> None:  # a fresh schema on the shared test server
        engine = create_async_engine(normalize_url(POSTGRES))  # type: ignore[arg-type]
        async with engine.begin() as conn:
            for table in ("trainer_storm_puzzles", "trainer_storms", "trainer_plays", "trainer_daily",
                          "trainer_history", "trainer_profiles", "trainer_puzzles", "trainer_players"):
                await conn.execute(sa.text(f"DELETE FROM {table}"))
        await engine.dispose()

    days = ["2026-02-01", "2026-03-13"]
    seen: dict[str, list[Any]] = {}
    for name, url in (("sqlite", db), ("postgresql", POSTGRES)):
        with client(url) as c:  # type: ignore[arg-type]
            if name == "postgresql":
                asyncio.run(reset())
            seen[name] = [c.get("/api/puzzles/daily", params={"game": g, "date": d}).json()["puzzle"]
                          for g in ("ricochet-robots", "pyramids", "micro-robots") for d in days]
        with client(url) as c:  # type: ignore[arg-type]
            assert [c.get("/api/puzzles/daily", params={"game": g, "date": d}).json()["puzzle"]
                    for g in ("ricochet-robots", "pyramids", "micro-robots") for d in days] == seen[name]
    assert seen["sqlite"] == seen["postgresql"]


def test_the_pool_is_made_in_the_background(db: str, monkeypatch: pytest.MonkeyPatch) -> None:
    import time

    from ricochet.server import trainer_api

    monkeypatch.setattr(trainer_api, "POOL_DELAY", 0.0)
    monkeypatch.setattr(trainer_api, "POOL_PAUSE", 0.0)
    monkeypatch.setattr(trainer_api, "POOL_LENGTHS", {"ricochet-robots": (5,), "pyramids": (4,), "micro-robots": (3,)})
    # then climbing for long puzzles, in slices: here "long" is 8 moves or more, two slices of 3 s
    from ricochet.trainer.spec import spec_of
    monkeypatch.setattr(type(spec_of("ricochet-robots")), "longest_on_request", 7)
    monkeypatch.setattr(trainer_api, "LONG_SLICES", 2)
    app = create_app(db, now=lambda: NOW, realtime=False, solver=SolverService("thread"), bots=False,
                     trainer=TrainerOptions(secret=SECRET, pool=2, generate_budget=3.0))
    with TestClient(app) as c:
        store = app.state.trainer.store
        deadline = time.time() + 30
        counts: list[int] = []
        while time.time() < deadline:
            counts = [c.portal.call(store.count_puzzles, g, n, "pool")
                      for g, n in (("ricochet-robots", 5), ("pyramids", 4), ("micro-robots", 3))]
            if counts == [2, 2, 2]:
                break
            time.sleep(0.1)
        assert counts == [2, 2, 2]
        p = c.get("/api/puzzles/next", params={"game": "pyramids", "length": 4}).json()
        assert _optimal(p) == 4 and p["mode"] == "rated"
        climbed = 0
        while time.time() < deadline + 30 and not climbed:
            climbed = sum(c.portal.call(store.count_puzzles, "ricochet-robots", n, "long") for n in range(8, 22))
            time.sleep(0.2)
        assert climbed >= 1


def test_migration_0004_keys_claimed_names_by_their_look_alike_form(tmp_path: Path) -> None:
    """Names claimed under the old key (case-folded) are keyed by the look-alike form; of two
    that are now one name, the older keeps it and the later still logs in by its exact name."""
    import sqlite3

    from alembic import command
    from alembic.config import Config

    from ricochet.server.storage import MIGRATIONS
    from ricochet.server.trainer_auth import hash_password

    path = tmp_path / "old.db"
    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    cfg.set_main_option("sqlalchemy.url", f"sqlite:///{path}")
    import sqlalchemy as sa
    engine = sa.create_engine(f"sqlite:///{path}")
    with engine.begin() as conn:
        cfg.attributes["connection"] = conn
        command.upgrade(cfg, "0003")
    with sqlite3.connect(path) as db:
        for pid, name, created, password in (("p1", "Carol950", 1.0, "correct horse"),
                                             ("p2", "\u0421arol950", 2.0, "other horse"),
                                             ("p3", "Dave", 3.0, "correct horse")):
            db.execute("INSERT INTO trainer_players (id, name, name_key, password_hash, created) VALUES (?, ?, ?, ?, ?)",
                       (pid, name, name.casefold(), hash_password(password), created))
    engine.dispose()
    with client(f"sqlite+aiosqlite:///{path}") as c:  # the server migrates to the head at start
        for name, password, who in (("CAROL95O", "correct horse", "Carol950"),
                                    ("\u0421arol950", "correct horse", "Carol950"),
                                    ("\u0421arol950", "other horse", "\u0421arol950"), ("dave", "correct horse", "Dave")):
            r = c.post("/api/trainer/login", json={"name": name, "password": password})
            assert r.status_code == 200 and r.json()["player"]["name"] == who, (name, r.text)
        c.cookies.clear()
        c.get("/api/puzzles/daily", params={"game": "micro-robots"})
        r = c.post("/api/trainer/claim", json={"name": "\u0441arol950", "password": "correct horse"})
        assert r.status_code == 409 and r.json()["error"]["code"] == "name_taken"
    with sqlite3.connect(path) as db:
        keys = dict(db.execute("SELECT id, name_key FROM trainer_players WHERE id IN ('p1', 'p2', 'p3')"))
    assert len(keys["p1"]) == len(keys["p3"]) == 32 and keys["p2"] == "\u0441arol950"  # the later keeps its old key


def test_long_puzzles_come_from_the_pool_made_ahead_never_from_the_request(
        db: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Ricochet Robots 14 to 21 moves: served from the shipped puzzles at once; a request never
    makes one (generation is not even called), and once they are all played the answer says so."""
    import json
    from importlib import resources

    from ricochet.server import trainer_api

    def no_generation(game: str, length: int, *args: Any) -> Any:
        raise AssertionError(f"a {length}-move {game} puzzle was generated on request")

    monkeypatch.setattr(trainer_api, "generate_bounded", no_generation)
    doc = json.loads((resources.files("ricochet") / "data" / "trainer-long.json").read_text(encoding="utf-8"))
    by_length: dict[int, set[str]] = {}
    for p in doc["puzzles"]:
        by_length.setdefault(p["optimal"], set()).add(p["code"])
    length = min(by_length, key=lambda n: (len(by_length[n]), -n))
    with client(db) as c:
        assert c.get("/api/trainer/me").json()["games"]["ricochet-robots"]["lengths"] == [2, 21]
        for _ in by_length[length]:
            r = c.get("/api/puzzles/next", params={"game": "ricochet-robots", "length": length})
            assert r.status_code == 200, r.text
            p = r.json()
            assert p["code"] in by_length[length] and "optimal" not in p
            out = _solve(c, p, [])
            assert out["optimal"] == length and out["rated"]
        r = c.get("/api/puzzles/next", params={"game": "ricochet-robots", "length": length})
        assert r.status_code == 503 and r.json()["error"]["code"] == "no_puzzle"
        assert "made ahead of time" in r.json()["error"]["message"]
        r = c.get("/api/puzzles/next", params={"game": "ricochet-robots", "length": 22})
        assert r.status_code == 400 and "from 2 to 21" in r.json()["error"]["message"]


def test_a_theme_is_served_on_request_and_told_after_the_attempt(db: str) -> None:
    from ricochet.trainer import generate
    from ricochet.trainer.themes import themes

    with client(db) as c:
        trainer = c.app.state.trainer  # type: ignore[attr-defined]
        made = [generate("micro-robots", n, "via", seed=f"theme:{n}") for n in (3, 4, 5)]
        for tp in made:
            assert tp is not None
            c.portal.call(trainer._store_new, tp, "pool")
        wanted = themes(made[1])[0]  # by-color, by-number or mixed: the via style has them all
        p = c.get("/api/puzzles/next", params={"game": "micro-robots", "theme": wanted})
        assert p.status_code == 200, p.text
        assert "themes" not in p.json()  # before the attempt, themes would tell part of hint 2
        out = _solve(c, p.json(), [])
        assert wanted in out["themes"] and out["facts"]["via"] is True
        r = c.get("/api/puzzles/next", params={"game": "micro-robots", "theme": "diagonal"})
        assert r.status_code == 400 and "theme must be one of" in r.json()["error"]["message"]
        assert "via" in c.get("/api/trainer/me").json()["games"]["micro-robots"]["themes"]


def test_the_rating_history_has_a_time_axis(db: str) -> None:
    with client(db, now=NOW) as c:
        p = c.get("/api/puzzles/daily", params={"game": "micro-robots"}).json()
        _solve(c, p, _solution(p))
        h = c.get("/api/trainer/history", params={"game": "micro-robots"}).json()
        assert h["game"] == "micro-robots" and len(h["history"]) == 1
        point = h["history"][0]
        assert point["at"] == NOW and point["time"] == "2026-03-14T12:00:00+00:00"
        assert c.get("/api/trainer/me", params={"game": "micro-robots"}).json()["history"] == h["history"]
        r = c.get("/api/trainer/history", params={"limit": 0})
        assert r.status_code == 400 and "limit must be from 1" in r.json()["error"]["message"]


def test_puzzles_stored_before_themes_get_them_at_start(db: str, tmp_path: Path) -> None:
    import sqlite3
    import time

    with client(db) as c:
        p = c.get("/api/puzzles/daily", params={"game": "pyramids"}).json()
    path = db.split("///", 1)[1]
    with sqlite3.connect(path) as conn:
        conn.execute("UPDATE trainer_puzzles SET themes = NULL")
    with client(db) as c:
        deadline = time.time() + 30
        while time.time() < deadline:
            with sqlite3.connect(path) as conn:
                left = conn.execute("SELECT COUNT(*) FROM trainer_puzzles WHERE themes IS NULL").fetchone()[0]
            if not left:
                break
            time.sleep(0.1)
        assert left == 0
        out = _solve(c, c.get("/api/puzzles/daily", params={"game": "pyramids"}).json(), [])
        with sqlite3.connect(path) as conn:
            stored = conn.execute("SELECT themes FROM trainer_puzzles WHERE id = ?", (p["id"],)).fetchone()[0]
        assert stored == "|" + "|".join(out["themes"]) + "|"
