"""Rated puzzles' choices in process: a theme (only those a game's puzzles can have; one no
stored puzzle has is made on request) and a difficulty (the rating served moves by -300, 0
or +300)."""

from __future__ import annotations

from pathlib import Path

import pytest

from ricochet.trainer.themes import theme_names
from trainerkit import PARAMS, Clock, client, database, solve

GAME = "micro-robots"


@pytest.fixture(params=PARAMS)
def db(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    return database(request.param, tmp_path)


def test_a_theme_none_is_stored_with_is_made_and_the_picker_offers_a_games_own(db: str) -> None:
    clock = Clock()
    with client(db, clock) as c:
        p = c.get("/api/puzzles/next", params={"game": GAME, "theme": "by-number"})
        assert p.status_code == 200, p.text  # made on request, trying until one has it
        assert "by-number" in solve(c, p.json(), right=False)["themes"]
        games = c.get("/api/trainer/me").json()["games"]
        assert games["pyramids"]["themes"] == list(theme_names("pyramids"))
        assert "diagonal" not in games["pyramids"]["themes"] and "vortex" not in games["pyramids"]["themes"]
        assert "robots-3" in games["pyramids"]["themes"] and "robots-4" not in games["pyramids"]["themes"]
        assert {"diagonal", "vortex", "robots-4"} <= set(games["ricochet-robots"]["themes"])
        assert games[GAME]["themes"] == ["by-color", "by-number", "mixed", "via"]
        # A theme of one style only (a via space) is found with no style asked for.
        p = c.get("/api/puzzles/next", params={"game": GAME, "theme": "via"})
        assert p.status_code == 200, p.text
        assert "via" in solve(c, p.json(), right=False)["themes"]


def test_difficulty_moves_the_rating_served(tmp_path: Path) -> None:
    from ricochet.trainer.scoring import DIFFICULTY, length_for_rating

    got = {}
    for difficulty in ("easier", "normal", "harder"):  # a new player (1500) on an empty server each time
        with client(f"sqlite+aiosqlite:///{tmp_path}/{difficulty}.db", Clock()) as c:
            p = c.get("/api/puzzles/next", params={"game": GAME, "difficulty": difficulty}).json()
            got[difficulty] = solve(c, p, right=False)["optimal"]
            assert got[difficulty] == length_for_rating(GAME, 1500 + DIFFICULTY[difficulty])
            r = c.get("/api/puzzles/next", params={"game": GAME, "difficulty": "hardest"})
            assert r.status_code == 400 and "difficulty must be one of easier, normal, harder" in r.json()["error"]["message"]
    assert got["easier"] < got["normal"] < got["harder"]
