"""The trainer's modes against a real server (``python -m ricochet serve`` on loopback,
:mod:`realserver`), as browsers with their own cookies and addresses would use them:
Puzzle Storm on the server's own clock (ended here by mistakes: each costs ten seconds,
so no test waits three minutes), the leaderboards (names of claimed accounts only), the
daily archive (rated, but no day in a row), difficulty and themes."""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Iterator
from typing import Any

import pytest

from realserver import Browser, ServerProcess
from ricochet.trainer.puzzles import from_code
from ricochet.trainer.storm import MISTAKE_SECONDS, SECONDS, combo_bonus

pytestmark = pytest.mark.slow
GAME = "micro-robots"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    tmp = tmp_path_factory.mktemp("trainer-modes")
    mp = pytest.MonkeyPatch()
    mp.setenv("RICOCHET_SECRET", "modes-secret-0123456789")
    mp.setenv("RICOCHET_DATA_DIR", str(tmp))
    server = ServerProcess(tmp, database=tmp / "server.db", extra=("--trainer-pool", "0"))
    try:
        yield server
    finally:
        server.stop()
        mp.undo()


_addresses = iter(range(1, 250))


def _browser(server: ServerProcess) -> Browser:
    return Browser(server.port, f"127.0.46.{next(_addresses)}")  # each its own address: its own rate limits


def _moves(p: dict[str, Any]) -> list[Any]:
    return [list(m) for m in from_code(p["game"], p["code"]).solution]


def _storm(b: Browser, right: int) -> dict[str, Any]:
    """A storm with ``right`` right answers first, then mistakes until the server ends it."""
    out = b.ok("POST", "/api/storm/start", {"game": GAME})
    sid = out["storm"]["id"]
    for k in range(right):
        out = b.ok("POST", f"/api/storm/{sid}/answer", {"puzzle": out["puzzle"]["id"], "moves": _moves(out["puzzle"])})
        assert out["answer"]["correct"] and out["answer"]["seconds"] == combo_bonus(k + 1)
    mistakes = 0
    while not out["storm"]["over"]:
        out = b.ok("POST", f"/api/storm/{sid}/answer", {"puzzle": out["puzzle"]["id"], "moves": []})
        assert out["answer"]["seconds"] == -MISTAKE_SECONDS and out["storm"]["combo"] == 0
        mistakes += 1
    assert out["puzzle"] is None and out["storm"]["left"] == 0
    # The three minutes (and a bonus) are spent by mistakes, at ten seconds each, on the server's clock.
    assert mistakes <= (SECONDS + sum(combo_bonus(k + 1) for k in range(right))) // MISTAKE_SECONDS + 1
    return out


def test_puzzle_storm_on_the_servers_clock(server: ServerProcess) -> None:
    a, b = _browser(server), _browser(server)
    out = a.ok("POST", "/api/storm/start", {"game": GAME})
    sid, first = out["storm"]["id"], out["puzzle"]
    assert first["optimal"] == 2 and "solution" not in json.dumps(out)
    b.ok("GET", f"/api/puzzles/daily?game={GAME}")
    status, err = b("POST", f"/api/storm/{sid}/answer", {"puzzle": first["id"], "moves": _moves(first)})
    assert status == 404 and err["error"]["code"] == "no_storm"  # another browser's storm is not theirs
    status, err = a("POST", f"/api/storm/{sid}/answer", {"puzzle": "0" * 16, "moves": []})
    assert status == 409 and err["error"]["code"] == "not_current"
    status, err = a("POST", f"/api/storm/{sid}/answer", {"puzzle": first["id"], "moves": "N"})
    assert status == 400 and "moves must be a list" in err["error"]["message"]
    a.ok("POST", f"/api/storm/{sid}/answer", {"puzzle": first["id"], "moves": _moves(first)})
    over = _storm(a, 3)  # a new storm: the first one stops where it was (score 1)
    assert over["storm"]["score"] == 3 and over["storm"]["record"]
    status, err = a("POST", f"/api/storm/{over['storm']['id']}/answer", {"puzzle": first["id"], "moves": []})
    assert status == 409 and err["error"]["code"] == "storm_over"
    status, err = a("POST", f"/api/storm/{sid}/answer", {"puzzle": first["id"], "moves": []})
    assert status == 409 and err["error"]["code"] == "storm_over"
    review = a.ok("GET", f"/api/storm/{over['storm']['id']}")["storm"]["review"]
    assert [p["result"] for p in review[:3]] == ["optimal"] * 3 and review[3]["result"] == "failed"
    me = a.ok("GET", "/api/trainer/me")
    assert me["profiles"][GAME]["storm"] == {"best": 3, "runs": 2}
    assert me["profiles"][GAME]["rating"] == 1500 and me["history"] == []  # a storm is not rated


def test_leaderboards_name_claimed_accounts_only(server: ServerProcess) -> None:
    ada, anon = _browser(server), _browser(server)
    for b, right in ((ada, 2), (anon, 5)):
        p = b.ok("GET", f"/api/puzzles/daily?game={GAME}")
        assert b.ok("POST", f"/api/puzzles/{p['id']}/attempt", {"moves": _moves(p)})["result"] == "optimal"
        _storm(b, right)
    ada.ok("POST", "/api/trainer/claim", {"name": "Ada Realserver", "password": "analytical engine"})
    anon_id = anon.ok("GET", "/api/trainer/me")["player"]["id"]
    for b in (ada, anon, _browser(server)):
        board = b.ok("GET", f"/api/trainer/leaderboard?game={GAME}")
        assert "Ada Realserver" in [r["name"] for r in board["daily"]]
        assert [r["name"] for r in board["storm"]] == ["Ada Realserver"] and board["storm"][0]["score"] == 2
        assert anon_id not in json.dumps(board) and None not in [r["name"] for r in board["daily"]]
    assert anon.ok("GET", f"/api/trainer/leaderboard?game={GAME}")["you"]["storm"] == {"best": 5, "rank": None}


def test_the_archive_is_rated_but_adds_no_day_in_a_row(server: ServerProcess) -> None:
    b = _browser(server)
    past = (dt.datetime.now(dt.UTC).date() - dt.timedelta(days=3)).isoformat()
    p = b.ok("GET", f"/api/puzzles/daily?game={GAME}&date={past}")
    assert p["mode"] == "archive"
    out = b.ok("POST", f"/api/puzzles/{p['id']}/attempt", {"moves": _moves(p)})
    assert out["result"] == "optimal" and out["rated"] and out["rating"]["change"] > 0
    archive = b.ok("GET", f"/api/puzzles/archive?game={GAME}&limit=5")
    day = next(d for d in archive["days"] if d["date"] == past)
    assert day["result"] == "optimal" and day["mode"] == "archive"
    assert archive["in_a_row"] == {"current": 0, "best": 0}
    status, err = b("GET", f"/api/puzzles/archive?game={GAME}&limit=401")
    assert status == 400 and "limit must be from 1 to 400" in err["error"]["message"]


def test_difficulty_and_themes(server: ServerProcess) -> None:
    b = _browser(server)
    hard = b.ok("GET", f"/api/puzzles/next?game={GAME}&difficulty=harder")
    out = b.ok("POST", f"/api/puzzles/{hard['id']}/attempt", {"moves": []})
    assert out["optimal"] == 5  # 1500 + 300: two moves past the newcomer's three
    status, err = b("GET", f"/api/puzzles/next?game={GAME}&difficulty=impossible")
    assert status == 400 and "difficulty must be one of" in err["error"]["message"]
    p = b.ok("GET", f"/api/puzzles/next?game={GAME}&theme=by-color")
    assert "by-color" in b.ok("POST", f"/api/puzzles/{p['id']}/attempt", {"moves": []})["themes"]
    status, err = b("GET", f"/api/puzzles/next?game={GAME}&theme=diagonal")
    assert status == 400 and "theme must be one of" in err["error"]["message"]


def test_the_server_log_is_clean(server: ServerProcess) -> None:
    assert "Traceback" not in server.log(), server.log()[-3000:]
