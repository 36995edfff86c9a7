"""Themes read exactly from the optimal solutions (:mod:`ricochet.trainer.themes`), and the long
Ricochet Robots puzzles made ahead of time (:mod:`ricochet.trainer.long`, the shipped data file)."""

from __future__ import annotations

import json
from importlib import resources

import pytest

from ricochet.trainer import generate, hint
from ricochet.trainer.long import climb, climb_slice, long_lengths, new_climb, shipped
from ricochet.trainer.puzzles import TrainerError, check_attempt, from_code, from_solution
from ricochet.trainer.spec import spec_of
from ricochet.trainer.themes import check_theme, facts, packed, theme_names, themes, unpacked


def test_themes_of_a_known_solution() -> None:
    # yellow E, red W (a helper), yellow N, yellow E: two robots, one helper move, two turns of yellow
    tp = from_code("ricochet-robots", "1A3B4A2A.r52ge9bdey0e.y63")
    assert [list(m) for m in tp.solution] == [[3, "E"], [0, "W"], [3, "N"], [3, "E"]]
    assert facts(tp) == {"moves": 4, "robots_moved": 2, "helper_moves": 1, "ricochets": 2, "diagonal_bounces": 0,
                         "vortex": False, "wall_passes": 0}
    assert themes(tp) == ["helpers", "robots-2", "ricochets-2"]


@pytest.mark.parametrize(("game", "style"), [("ricochet-robots", "classic"), ("ricochet-robots", "diagonals"),
                                             ("pyramids", "random"), ("micro-robots", "shortest"),
                                             ("micro-robots", "via")])
def test_facts_agree_with_the_solution_and_its_hints(game: str, style: str) -> None:
    for seed in range(4):
        tp = generate(game, 4, style, seed=f"themes:{seed}")
        assert tp is not None
        f, tags = facts(tp), themes(tp)
        assert all(check_theme(game, t) == t for t in tags), tags
        assert unpacked(packed(tags)) == tags
        if game == "micro-robots":
            kinds = hint(tp, 2)["kinds"]  # what each move goes by, as hint 2 tells it
            assert (f["color_moves"], f["number_moves"]) == (kinds.count("color"), kinds.count("number"))
            assert ("via" in tags) == (style == "via")
            continue
        robots = [m[0] for m in tp.solution]
        assert f["robots_moved"] == len(set(robots)) and f"robots-{len(set(robots))}" in tags
        assert f["helper_moves"] == sum(r != robots[-1] for r in robots)
        assert ("solo" in tags) == (f["helper_moves"] == 0) != ("helpers" in tags)
        if game == "ricochet-robots":  # must ricochet: the robot that finishes has turned at least once
            assert spec_of(game).rules.must_ricochet and f["ricochets"] >= 1  # type: ignore[attr-defined]
        wire = hint(tp, 4)["paths"]
        deflects = sum("deflect" in (s.get("event") or "") for p in wire for s in p["steps"])
        assert f["diagonal_bounces"] == deflects and ("diagonal" in tags) == (deflects > 0)
        assert ("vortex" in tags) == (tp.display.get("chip", {}).get("symbol") == "vortex")


def test_a_theme_asked_for_is_checked() -> None:
    assert check_theme("ricochet-robots", "ricochets-5") == "ricochets-5"
    assert "via" in theme_names("micro-robots") and "helpers" in theme_names("pyramids")
    for game, bad in (("ricochet-robots", "robots-0"), ("pyramids", "by-color"), ("micro-robots", "solo"),
                      ("ricochet-robots", "%"), ("ricochet-robots", 3)):
        with pytest.raises(TrainerError, match="theme must be one of"):
            check_theme(game, bad)


def test_the_shipped_long_puzzles_are_real_and_say_where_they_come_from() -> None:
    doc = json.loads((resources.files("ricochet") / "data" / "trainer-long.json").read_text(encoding="utf-8"))
    assert "benchmarks/trainer_long.py" in doc["provenance"]["made_by"]
    assert doc["provenance"]["rules"] == {"must_ricochet": True, "no_straight_back": True}
    puzzles = shipped()
    assert len(puzzles) == len(doc["puzzles"]) >= 5
    assert long_lengths("ricochet-robots") == (14, 21) and long_lengths("pyramids") is None
    lo, hi = 14, 21
    for tp, raw in zip(puzzles, doc["puzzles"], strict=True):
        assert lo <= tp.optimal == raw["optimal"] <= hi and tp.code == raw["code"]
        assert check_attempt(tp, [list(m) for m in tp.solution]).result == "optimal"
    assert len({tp.code.split(".")[0] for tp in puzzles}) >= 3  # several boards, not one climb's twins
    # the shortest of them re-solved with no clock: the stored optimum is the solver's
    quick = min(puzzles, key=lambda tp: tp.optimal)
    assert from_code("ricochet-robots", quick.code, time_limit=None).optimal == quick.optimal


def test_a_stored_solution_must_solve_its_puzzle() -> None:
    tp = from_code("ricochet-robots", "1A3B4A2A.r52ge9bdey0e.y63")
    with pytest.raises(TrainerError, match="does not solve"):
        from_solution("ricochet-robots", "classic", tp.code, [list(m) for m in tp.solution[:-1]])


def test_climbing_keeps_only_exact_puzzles_of_the_range() -> None:
    # A short climb for 8 to 21 moves (14+ takes longer than a test should): what it keeps is exact.
    found = climb("ricochet-robots", "classic", (8, 21), "test", 5.0, solve_limit=2.0)
    assert found
    for tp in found[:3]:
        assert 8 <= tp.optimal <= 21 and tp.style == "classic"
        assert check_attempt(tp, [list(m) for m in tp.solution]).result == "optimal"


def test_a_climb_goes_on_across_slices() -> None:
    state = new_climb("ricochet-robots", "diagonals", "slices")
    found, state = climb_slice(state, (7, 21), 2.0, solve_limit=1.0)
    assert state.style == "diagonals" and (state.code is None or state.code.startswith(("1", "2", "3", "4")))
    more, after = climb_slice(state, (7, 21), 2.0, solve_limit=1.0)
    assert after.rng != state.rng  # the climb went on from where it stood
    assert all(7 <= tp.optimal <= 21 and tp.style == "diagonals" for tp in found + more)
    with pytest.raises(TrainerError, match="style must be one of classic, diagonals"):
        new_climb("ricochet-robots", "random", 1)
    with pytest.raises(TrainerError, match="cannot be climbed"):
        new_climb("micro-robots", "shortest", 1)
