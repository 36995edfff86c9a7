"""The trainer's pure core: Glicko-2 against Glickman's worked example, puzzles
made to a length and checked by the engine, the daily puzzle as a function of
(game, date), hints, scores, streaks and the share text."""

from __future__ import annotations

from datetime import date

import pytest

from ricochet.games.micro_robots.trainer import MicroPuzzle
from ricochet.trainer import daily_puzzle, generate, glicko2
from ricochet.trainer.daily import daily_number, parse_date
from ricochet.trainer.puzzles import (
    GAMES,
    STYLES,
    TrainerError,
    check_attempt,
    from_code,
    hint,
    solution_paths,
)
from ricochet.trainer.scoring import Streak, length_for_rating, score, share_text, streak_length


def test_glicko2_worked_example_of_glickmans_paper() -> None:
    # "Example of the Glicko-2 system" (Glickman, 2013), section "Example calculation".
    player = glicko2.Rating(1500, 200, 0.06)
    games = [(glicko2.Rating(1400, 30), 1.0), (glicko2.Rating(1550, 100), 0.0), (glicko2.Rating(1700, 300), 0.0)]
    after = glicko2.update(player, games, tau=0.5)
    # The paper rounds its intermediate values and prints 1464.06; exact arithmetic gives 1464.0507.
    assert after.rating == pytest.approx(1464.06, abs=0.02)
    assert after.rd == pytest.approx(151.52, abs=0.01)
    assert after.volatility == pytest.approx(0.05999, abs=1e-5)


def test_glicko2_no_games_widens_rd_and_bad_scores_are_refused() -> None:
    r = glicko2.update(glicko2.Rating(1500, 200, 0.06), [])
    assert r.rating == 1500 and r.rd == pytest.approx(200.271, abs=1e-3)  # sqrt(phi² + sigma²), paper step 6
    with pytest.raises(ValueError, match=r"results\[0\]: a score is a number from 0 to 1"):
        glicko2.update(glicko2.Rating(), [(glicko2.Rating(), 1.5)])
    with pytest.raises(ValueError, match="rating must be a finite number"):
        glicko2.Rating(float("nan"))


def test_update_pair_moves_both_sides_the_opposite_way() -> None:
    p, z = glicko2.update_pair(glicko2.Rating(1500, 350), glicko2.Rating(1700, 300), 1.0)
    assert p.rating > 1500 and z.rating < 1700 and p.rd < 350
    p2, z2 = glicko2.update_pair(glicko2.Rating(1500, 350), glicko2.Rating(1300, 300), 0.0)
    assert p2.rating < 1500 and z2.rating > 1300


@pytest.mark.parametrize(("game", "length"), [("ricochet-robots", 5), ("ricochet-robots", 9), ("pyramids", 6),
                                              ("micro-robots", 3)])
def test_generated_puzzles_have_the_requested_optimal_length_and_check(game: str, length: int) -> None:
    for style in STYLES[game]:
        tp = generate(game, length, style, seed="test")
        assert tp is not None and tp.optimal == length and tp.style == style
        assert check_attempt(tp, list(tp.solution)).result == "optimal"
        assert generate(game, length, style, seed="test") == tp  # a pure function of the seed
        again = from_code(game, tp.code)  # the shareable code gives the same puzzle back
        assert (again.code, again.optimal, again.id) == (tp.code, tp.optimal, tp.id)
        assert "solution" not in tp.public()["puzzle"] and tp.public()["puzzle"]["optimal"] == length


def test_attempts_are_graded_by_the_engine() -> None:
    tp = generate("ricochet-robots", 4, "classic", seed="grade")
    assert tp is not None
    assert check_attempt(tp, []).result == "failed"
    first = list(tp.solution[0])
    failed = check_attempt(tp, [first])
    assert failed.result == "failed" and failed.reason
    with pytest.raises(TrainerError, match=r"moves\[0\]\[1\]"):
        check_attempt(tp, [[0, "up"]])
    with pytest.raises(TrainerError, match="at most 60 moves"):
        check_attempt(tp, [[0, "N"]] * 61)
    # A longer solution: a detour by another robot first, then the optimal moves (when that still works).
    paths = solution_paths(tp)
    assert len(paths) == 4 and {"robot", "start", "steps"} <= set(paths[0])


def test_micro_robots_attempts() -> None:
    tp = generate("micro-robots", 4, "via", seed="m")
    assert tp is not None
    mp = MicroPuzzle.parse(tp.code)
    assert mp.via is not None
    assert check_attempt(tp, [list(c) for c in tp.solution]).result == "optimal"
    direct = [list(c) for c in MicroPuzzle(mp.arrangement, mp.start, mp.target).optimal_route()[1:]]
    verdict = check_attempt(tp, direct)
    assert verdict.result == "failed" or mp.via in [tuple(c) for c in direct]
    assert check_attempt(tp, [[mp.start[0], mp.start[1]]]).result == "failed"  # not a move: same space
    with pytest.raises(TrainerError, match=r"moves\[0\] must be a space"):
        check_attempt(tp, [[9, 9]])
    with pytest.raises(TrainerError, match="code: a Micro Robots puzzle is written like"):
        MicroPuzzle.parse("Z9.s00.t11")


def test_hints_are_graded() -> None:
    tp = generate("ricochet-robots", 6, "classic", seed="hints")
    assert tp is not None
    assert hint(tp, 1) == {"level": 1, "optimal": 6}
    robots = hint(tp, 2)["robots"]
    assert robots and set(robots) <= {"red", "green", "blue", "yellow"}
    assert hint(tp, 3)["first"] == list(tp.solution[0])
    assert hint(tp, 4)["solution"] == [list(m) for m in tp.solution]
    with pytest.raises(TrainerError, match="level must be 1"):
        hint(tp, 5)
    micro = generate("micro-robots", 3, "shortest", seed="hints")
    assert micro is not None and set(hint(micro, 2)["kinds"]) <= {"color", "number"}


def test_daily_puzzle_is_a_function_of_game_and_date() -> None:
    day = date(2026, 3, 14)
    for game in GAMES:
        a, b = daily_puzzle(game, day), daily_puzzle(game, day)
        assert a == b and a.id == b.id
        assert daily_puzzle(game, date(2026, 3, 15)).code != a.code
    assert daily_number(date(2026, 1, 1)) == 1 and daily_number(date(2027, 2, 16)) == 412
    with pytest.raises(TrainerError, match="in the future"):
        parse_date("2026-03-15", date(2026, 3, 14))
    with pytest.raises(TrainerError, match="YYYY-MM-DD"):
        parse_date("14/03/2026", day)
    with pytest.raises(TrainerError, match="start on 2026-01-01"):
        parse_date("2025-12-31", day)


def test_scores_streaks_and_share_text() -> None:
    assert score("optimal", 7, 7, 0) == 1.0 and score("failed", 3, 7, 0) == 0.0
    assert score("optimal", 7, 7, 4) == 0.0  # seeing the whole solution is a loss
    assert 0 < score("found", 9, 7, 1) < score("found", 9, 7, 0) < 1
    assert length_for_rating("micro-robots", 1500) == 3
    assert [streak_length("pyramids", k) for k in (0, 1, 2, 3)] == [2, 2, 3, 3]
    s = Streak().start()
    s = s.after("optimal", 0).after("optimal", 0)
    assert (s.current, s.best) == (2, 2)
    s = s.after("optimal", 1)  # a hint ends a streak
    assert (s.current, s.best) == (None, 2)
    assert share_text("ricochet-robots", 412, "optimal", 7, 7, 0) == "Ricochet daily #412: 7/7 ⭐"
    assert share_text("ricochet-robots", 412, "found", 9, 7, 2) == "Ricochet daily #412: 9/7 💡💡"


def test_codes_from_outside_are_checked() -> None:
    with pytest.raises(TrainerError, match="game must be one of"):
        from_code("chess", "x")
    with pytest.raises(TrainerError, match="code: "):
        from_code("ricochet-robots", "not-a-code")
    with pytest.raises(TrainerError, match="real 16×16 board"):
        from_code("ricochet-robots", generate("pyramids", 3, "random", seed=1).code)  # type: ignore[union-attr]
