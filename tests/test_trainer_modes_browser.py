"""The trainer's modes in real headless Chromium on the real server (issue 45): Puzzle
Storm, a theme (with a difficulty), the daily archive and the leaderboards, each on a
desktop (1280×800) and a phone (390×844).  Screenshots go to /tmp/shots-45/.

The Storm's clock is the server's (:class:`browserkit.SkipClock`): a test jumps over the
three minutes instead of waiting, and the page learns that the storm is over from the
server, as it would when its own countdown reaches zero.  No test asserts a time.
"""

from __future__ import annotations

import datetime as dt
import itertools
import json
import re
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from browserkit import KEYS, SkipClock, chromium, playwright_or_skip, served

pytestmark = pytest.mark.browser

SHOTS = Path("/tmp/shots-45")
DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}
sync_api = playwright_or_skip()


@pytest.fixture(scope="module")
def clock() -> SkipClock:
    return SkipClock()


@pytest.fixture(scope="module")
def base_url(tmp_path_factory: pytest.TempPathFactory, clock: SkipClock) -> Iterator[str]:
    from ricochet.server.app import create_app
    from ricochet.server.trainer_api import TrainerOptions

    SHOTS.mkdir(parents=True, exist_ok=True)
    db = tmp_path_factory.mktemp("trainer-modes") / "trainer.db"
    # A request may wait as long as a busy machine needs to make a puzzle (a hang guard, not a speed check).
    clock.app = create_app(f"sqlite+aiosqlite:///{db}", now=clock,
                           trainer=TrainerOptions(secret=b"modes-browser-secret-0123", pool=0, generate_budget=120.0))
    with served(clock.app) as base:
        yield base


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with chromium(sync_api) as b:
        yield b


def _page(browser: Any, viewport: dict[str, int]) -> tuple[Any, Any, list[str]]:
    ctx = browser.new_context(viewport=viewport)
    ctx.set_default_timeout(120_000)  # puzzles are made on request: a busy machine is slow (a hang guard)
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    return ctx, page, errors


def _solution(game: str, code: str) -> list[Any]:
    from ricochet.trainer.puzzles import from_code

    return [list(m) for m in from_code(game, code).solution]


def _route(page: Any, cells: list[Any]) -> None:
    """Micro Robots: click the spaces of a route."""
    for row, col in cells:
        page.click(f'.move-to[data-cell="{row},{col}"]')


def _keys(page: Any, moves: list[Any]) -> None:
    """A game of the engine: a number picks the robot, an arrow moves it."""
    page.locator("#board svg").click(position={"x": 2, "y": 2})
    for robot, direction in moves:
        page.keyboard.press(str(robot + 1))
        page.keyboard.press(KEYS[direction])
        page.wait_for_timeout(120)


def _shot(page: Any, name: str) -> None:
    page.mouse.wheel(0, -100_000)  # from the top: the sticky bar stays where it belongs
    page.wait_for_timeout(300)
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)


def _storm_puzzle(page: Any, index: int) -> str:
    """The code of the storm's puzzle number ``index`` once it is on the page."""
    page.wait_for_selector(f"#ts-puzzle:has-text('Puzzle {index} ')")
    return page.get_attribute("#storm", "data-code")  # type: ignore[no-any-return]


def _play_storm(page: Any, clock: SkipClock, label: str) -> None:
    page.wait_for_selector("#ts-start")
    assert "3 minutes" in page.inner_text("#ts-panel")
    page.click("#ts-start")
    # Three right in a row: the third gives time back (the server's combo).
    for i in range(1, 4):
        _route(page, _solution("micro-robots", _storm_puzzle(page, i)))
    _storm_puzzle(page, 4)
    assert page.inner_text("#ts-score") == "3" and page.inner_text("#ts-combo") == "3"
    assert "+3 s" in page.inner_text("#ts-flash")
    _shot(page, f"storm-playing-{label}")
    page.click("#ts-skip")  # a mistake: the combo goes, the score stays
    _storm_puzzle(page, 5)
    assert page.inner_text("#ts-combo") == "0" and page.inner_text("#ts-score") == "3"
    assert "−10 s" in page.inner_text("#ts-flash")
    # The three minutes pass on the server; the page's own countdown knows nothing of it.
    clock.offset += 200
    page.click("#ts-skip")  # refused by the server: the storm is over, and the page says so
    page.wait_for_selector("#ts-final")
    assert page.inner_text("#ts-final") == "3"
    assert "3 solved" in page.inner_text("#ts-summary") and "mistakes: 1" in page.inner_text("#ts-summary")
    assert page.locator("#ts-record").count() == 1
    assert page.locator("#ts-review li").count() == 5
    assert page.locator("#ts-review li a").first.get_attribute("href").startswith("/train/micro-robots/")
    _shot(page, f"storm-over-{label}")


def test_puzzle_storm_on_a_desktop_and_a_phone(browser: Any, base_url: str, clock: SkipClock) -> None:
    ctx, page, errors = _page(browser, DESKTOP)
    page.goto(f"{base_url}/train?game=micro-robots&mode=storm")
    page.wait_for_selector("#ts-start")
    assert page.inner_text("#ts-best") == "No storm yet in this game."
    _shot(page, "storm-intro-desktop")
    _play_storm(page, clock, "desktop")
    assert page.inner_text("#ts-best") == "Your best: 3"
    page.click("#ts-again")  # a new storm starts at once
    _storm_puzzle(page, 1)
    assert page.inner_text("#ts-score") == "0"
    assert not errors, errors
    ctx.close()

    ctx, page, errors = _page(browser, PHONE)
    page.goto(f"{base_url}/train?game=micro-robots&mode=storm")
    _play_storm(page, clock, "phone")
    assert not errors, errors
    ctx.close()


def test_a_theme_and_a_difficulty(browser: Any, base_url: str) -> None:
    for label, viewport in (("desktop", DESKTOP), ("phone", PHONE)):
        ctx, page, errors = _page(browser, viewport)
        page.goto(f"{base_url}/train?game=ricochet-robots&mode=rated")
        page.wait_for_selector("#tr-theme")
        options = [o.get_attribute("value") for o in page.locator("#tr-theme option").all()]
        assert "helpers" in options and "vortex" in options and "diagonal" in options
        page.select_option("#tr-difficulty", "easier")
        page.wait_for_selector(".trainer[data-loading='false'] #tr-title:has-text('Puzzle rated')")
        page.select_option("#tr-theme", "helpers")
        page.wait_for_selector(".trainer[data-loading='false'] #tr-tag:has-text('Theme: Helpers move')")
        href = page.get_attribute("#tr-share-link", "href")
        _, _, game, code = href.split("/", 3)
        _keys(page, _solution(game, urllib.request.unquote(code)))
        page.wait_for_selector("#tr-headline:has-text('Optimal')")
        assert "Helpers move" in page.inner_text("#tr-themes")
        assert page.input_value("#tr-difficulty") == "easier"
        _shot(page, f"theme-{label}")
        # Pyramids has no diagonals and no vortex: its picker does not offer them.
        page.click(".tr-game[data-game='pyramids']")
        page.wait_for_selector(".trainer[data-loading='false'] #tr-theme")
        options = [o.get_attribute("value") for o in page.locator("#tr-theme option").all()]
        assert "helpers" in options and "diagonal" not in options and "vortex" not in options
        assert not errors, errors
        ctx.close()


def test_the_rating_chart_has_a_time_axis(browser: Any, base_url: str, clock: SkipClock) -> None:
    """Rated attempts over three weeks (the server's clock skipped a day or more between them):
    the chart puts them at their times, with dates under the line."""
    ctx = browser.new_context(viewport=DESKTOP)
    start = clock.offset
    try:
        for k in range(8):
            p = _api(ctx, base_url, "GET", "/api/puzzles/next?game=micro-robots&mode=rated")
            moves = _solution(p["game"], p["code"]) if k % 3 else []
            _api(ctx, base_url, "POST", f"/api/puzzles/{p['id']}/attempt", {"moves": moves})
            clock.offset += 86400 * (1 + k % 4)
    finally:
        clock.offset = start  # the other tests' "today" is today
    history = _api(ctx, base_url, "GET", "/api/trainer/history?game=micro-robots")["history"]
    assert len(history) == 8 and history[-1]["at"] - history[0]["at"] > 14 * 86400
    for label, viewport in (("desktop", DESKTOP), ("phone", PHONE)):
        page = ctx.new_page()
        page.set_viewport_size(viewport)
        page.goto(f"{base_url}/train?game=micro-robots&mode=rated")
        page.wait_for_selector("#tr-chart polyline")
        ticks = [t.text_content() or "" for t in page.locator("#tr-chart .tr-chart-tick").all()]
        assert len(set(ticks)) >= 2 and all(re.search(r"\d", t) and ":" not in t for t in ticks), ticks  # days
        points = page.get_attribute("#tr-chart polyline", "points").split()
        assert len(points) == 8
        xs = [float(p.split(",")[0]) for p in points]
        gaps = [b - a for a, b in itertools.pairwise(xs)]
        assert max(gaps) > 2.5 * min(gaps)  # a time axis: four days apart is farther than one
        page.locator("#tr-rating").screenshot(path=str(SHOTS / f"chart-{label}.png"))
        page.close()
    ctx.close()


def test_the_daily_archive(browser: Any, base_url: str) -> None:
    today = dt.date.today()
    # Two days ago: past may still be today somewhere on Earth (UTC-12), and so its daily puzzle.
    past = (today - dt.timedelta(days=2)).isoformat()
    for label, viewport in (("desktop", DESKTOP), ("phone", PHONE)):
        ctx, page, errors = _page(browser, viewport)
        page.goto(f"{base_url}/train?game=micro-robots&mode=archive")
        page.wait_for_selector(f".ta-day[data-date='{past}']")
        assert page.locator(f".ta-day.ta-today[data-date='{today.isoformat()}']").count() == 1
        assert page.inner_text("#ta-row").startswith("Days in a row: 0")
        page.click(f".ta-day[data-date='{past}']")
        page.wait_for_selector(".trainer[data-loading='false'] #tr-tag:has-text('from the archive')")
        assert f"&date={past}" in page.url
        href = page.get_attribute("#tr-share-link", "href")
        _, _, game, code = href.split("/", 3)
        _route(page, _solution(game, urllib.request.unquote(code)))
        page.wait_for_selector("#tr-headline:has-text('Optimal')")
        assert page.locator("#tr-change").count() == 1  # rated like any puzzle
        page.click("#tr-archive")
        page.wait_for_selector(f".ta-day.ta-optimal[data-date='{past}']")
        assert page.inner_text("#ta-row").startswith("Days in a row: 0")  # from the archive: no day in a row
        _shot(page, f"archive-{label}")
        # Today's puzzle, opened on its day, counts.
        page.click("#tr-mode-daily")
        page.wait_for_selector(".trainer[data-loading='false'] #tr-title:has-text('Daily #')")
        href = page.get_attribute("#tr-share-link", "href")
        _, _, game, code = href.split("/", 3)
        _route(page, _solution(game, urllib.request.unquote(code)))
        page.wait_for_selector("#tr-headline:has-text('Optimal')")
        page.click("#tr-mode-archive")
        page.wait_for_selector(f".ta-day.ta-optimal[data-date='{today.isoformat()}']")
        assert page.inner_text("#ta-row").startswith("Days in a row: 1")
        assert not errors, errors
        ctx.close()


def _api(ctx: Any, base: str, method: str, path: str, body: Any = None) -> Any:
    r = ctx.request.fetch(f"{base}{path}", method=method, data=json.dumps(body) if body is not None else None,
                          headers={"Content-Type": "application/json"} if body is not None else {})
    assert r.ok, r.text()
    return r.json()


def _daily_optimal(ctx: Any, base: str) -> None:
    p = _api(ctx, base, "GET", "/api/puzzles/daily?game=micro-robots")
    out = _api(ctx, base, "POST", f"/api/puzzles/{p['id']}/attempt", {"moves": _solution(p["game"], p["code"])})
    assert out["result"] == "optimal"


def _storm_score(ctx: Any, base: str, n: int) -> None:
    """A storm with ``n`` right answers, then skipped to its end."""
    out = _api(ctx, base, "POST", "/api/storm/start", {"game": "micro-robots"})
    sid = out["storm"]["id"]
    for _ in range(n):
        p = out["puzzle"]
        out = _api(ctx, base, "POST", f"/api/storm/{sid}/answer", {"puzzle": p["id"], "moves": _solution(p["game"], p["code"])})
    while not out["storm"]["over"]:  # mistakes until the clock runs out
        out = _api(ctx, base, "POST", f"/api/storm/{sid}/answer", {"puzzle": out["puzzle"]["id"], "moves": []})


def test_the_leaderboards_show_claimed_names_only(browser: Any, base_url: str) -> None:
    ada = browser.new_context(viewport=DESKTOP)
    _daily_optimal(ada, base_url)
    _storm_score(ada, base_url, 4)
    _api(ada, base_url, "POST", "/api/trainer/claim", {"name": "Ada Board", "password": "analytical engine"})
    anon = browser.new_context(viewport=PHONE)
    _daily_optimal(anon, base_url)
    _storm_score(anon, base_url, 6)  # the best storm of all, by someone who claimed no name
    anon_id = _api(anon, base_url, "GET", "/api/trainer/me")["player"]["id"]
    for label, ctx in (("desktop", ada), ("phone", anon)):
        ctx.set_default_timeout(60_000)
        page = ctx.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda e, errors=errors: errors.append(str(e)))
        page.goto(f"{base_url}/train?game=micro-robots&mode=leaders")
        page.wait_for_selector("#tb-daily")
        daily = page.inner_text("#tb-daily")
        storm = page.inner_text("#tb-storm")
        assert "Ada Board" in daily and "Ada Board" in storm and "4" in storm
        assert "6" not in storm  # the anonymous best is not listed, under any name
        assert anon_id not in page.content()  # no player id anywhere on the page
        names = [n.inner_text() for n in page.locator(".tb-name").all()]
        assert names == ["Ada Board", "Ada Board"], names
        if label == "desktop":
            assert page.locator(".tb-me").count() == 2 and page.locator("#tb-anon").count() == 0
            assert page.inner_text("#tb-storm-you") == "You: 4 · rank 1"
        else:
            assert page.locator("#tb-anon").count() == 1
            assert page.inner_text("#tb-storm-you") == "You: 6"  # told to them alone, unranked
        _shot(page, f"leaders-{label}")
        assert not errors, errors
    ada.close()
    anon.close()
