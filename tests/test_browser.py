"""The web front end in real headless Chromium (Debian's, driven by Playwright):
two players and a bot play a full round on the real server.

Ann creates a room with a 12 s sand clock, Bob joins through the link, Ann adds
a (slow, beginner) bot and starts.  The test solves the round's position with
``ricochet.solver.solve`` so it knows an optimal route; Ann bids its length,
Bob one more, the clock runs out, Ann demonstrates by clicking robots and
pressing arrow keys, wins the chip, and both pages show her score.  Screenshots
(desktop and a 390×844 phone) go to /tmp.

Set RICOCHET_WEB_URL to run against a server that is already up.
"""

from __future__ import annotations

import json
import os
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from browserkit import KEYS, SkipClock, chromium, join_room, playwright_or_skip, served

# One worker runs the browser tests and the real-server attacks (test_server_hardening), one after
# the other: both load the machine, and side by side the browsers' timeouts run out.
pytestmark = pytest.mark.browser

SHOTS = Path("/tmp")
sync_api = playwright_or_skip()


@pytest.fixture(scope="module")
def clock() -> SkipClock:
    """The server's clock: the games jump over their sand clocks and pauses (``clock.skip``)."""
    return SkipClock()


@pytest.fixture(scope="module")
def base_url(tmp_path_factory: pytest.TempPathFactory, clock: SkipClock) -> Iterator[str]:
    url = os.environ.get("RICOCHET_WEB_URL")
    if url:
        yield url.rstrip("/")
        return
    try:
        from ricochet.server.app import create_app
        from ricochet.server.trainer_api import TrainerOptions
    except ImportError as e:  # pragma: no cover - depends on the server package being there
        pytest.skip(f"the server package is not available: {e}")
    db = tmp_path_factory.mktemp("web") / "browser.db"
    # The bots think at 0.3 times their usual pace: a game of several rounds waits less for them.
    # No trainer puzzles made in the background (a core's work for a minute; not tested here).
    clock.app = create_app(database_url=f"sqlite+aiosqlite:///{db}", now=clock, bot_speed=0.3,
                           trainer=TrainerOptions(pool=0))
    with served(clock.app) as base:
        yield base


@pytest.fixture(scope="module")
def browser() -> Iterator[object]:
    with chromium(sync_api) as b:
        yield b


def _get(url: str) -> dict:
    with urllib.request.urlopen(url, timeout=5) as r:
        return json.loads(r.read())


def _position(state: dict):
    """The round's position (robots now, the table's rules) from a public state, read with the one
    wire codec the server writes it with."""
    from ricochet.notation.wire import board_from_wire, robots_from_wire
    from ricochet.position import Position
    from ricochet.rules import Rules

    rules = Rules(**{k: v for k, v in state["config"]["rules"].items() if k in Rules.__dataclass_fields__})
    return Position(board_from_wire(state["board"]), robots_from_wire(state["robots"]),
                    goal=tuple(state["round"]["target"]), rules=rules)


def _solve(state: dict) -> list[tuple[str, str]]:
    """An optimal route for the round in ``state``: [(robot colour, direction), …]."""
    from ricochet.puzzle import Puzzle
    from ricochet.solver import solve

    position = _position(state)
    rnd = state["round"]
    sol = solve(Puzzle(position, tuple(rnd["target"]), rnd["active"]), time_limit=20)
    assert sol.moves, f"no solution found: {sol}"
    return [(position.robots[m.robot].color, m.direction.name) for m in sol.moves]


def _blocked_move(state: dict) -> tuple[str, str] | None:
    """A robot and a direction it cannot move in (a wall or robot right next to it), if any."""
    from ricochet.geometry import Direction
    from ricochet.position import IllegalMove, Move

    position = _position(state)
    for i, robot in enumerate(position.robots):
        for d in Direction:
            try:
                position.play(Move(i, d))
            except IllegalMove:
                return robot.color, d.name
    return None


def _watch_errors(page, name: str, errors: list[str]) -> None:
    page.on("pageerror", lambda e: errors.append(f"{name}: {e}"))
    page.on("console", lambda m: errors.append(f"{name} console: {m.text}") if m.type == "error" else None)


def _create_room(page, base_url: str, nickname: str, game: str | None = None, *, selects: dict[str, str] | None = None,
                 checks: tuple[str, ...] = (), rules: dict[str, str] | None = None,
                 rule_checks: tuple[str, ...] = ()) -> str:
    """From the lobby: the nickname, the game's card, the form's selects and check boxes, then the
    rules panel's fields and check boxes; create.  The new room's id, once its page is open.
    It waits for the lobby's options first, as a person sees the form settle before filling it."""
    page.goto(base_url + "/")
    page.wait_for_selector("#create-form[aria-busy=false]", state="attached")
    page.fill("#nickname", nickname)
    if game is not None:
        page.click(f".game-card[data-game={game}]")
    for name, value in (selects or {}).items():
        page.select_option(f"#create-form select[name={name}]", value)
    for name in checks:
        page.check(f"#create-form input[name={name}]")
    if rules or rule_checks:
        page.click("#create-form details.rules summary")
    for name in rule_checks:
        page.check(f"#create-form input[name={name}]")
    for name, value in (rules or {}).items():
        page.fill(f"#create-form input[name={name}]", value)
    page.click("#create-form button[type=submit]")
    try:
        page.wait_for_url("**/r/*")
    except Exception as e:  # say what the lobby showed: a refusal's toast, the URL it stayed on
        raise AssertionError(f"no room page after creating one: at {page.url}, toasts "
                             f"{page.locator('#toasts').all_inner_texts()}") from e
    return page.url.rstrip("/").rsplit("/", 1)[1].split("?")[0]


def test_the_new_room_form_keeps_what_was_typed_when_the_servers_options_arrive(base_url: str, browser) -> None:
    """The lobby's form is built again when the server's options arrive (defaults, bot levels) and
    when the language changes: a room name typed, a rule ticked off and the open rules panel with
    its sand clock stay; the fields nobody touched take the server's defaults, and a bot level the
    server does not offer gives way to one it does.  Another game keeps the room's name but not
    the clock, which is that game's own."""
    ctx = browser.new_context(viewport={"width": 1280, "height": 900}, locale="en-GB")
    page = ctx.new_page()
    page.set_default_timeout(20000)
    held: list = []
    page.route("**/api/options", lambda route: held.append(route))
    try:
        page.goto(base_url + "/")
        page.click(".game-card[data-game=ricochet-robots]")
        assert page.get_attribute("#create-form", "aria-busy") == "true"
        page.fill("#create-form input[name=name]", "Friday night")
        page.click("#create-form details.rules summary")
        page.uncheck("#create-form input[name=must_ricochet]")
        page.fill("#create-form input[name=clock_seconds]", "90")
        page.select_option("#create-level", "expert")
        untouched = page.is_checked("#create-form input[name=silver]")
        while not held:
            page.wait_for_timeout(50)
        held[0].fulfill(json={"bot_levels": ["beginner", "perfect"],
                              "defaults": {"silver": not untouched, "clock_seconds": 45}})
        page.wait_for_selector("#create-form[aria-busy=false]", state="attached")
        assert page.locator("#create-level option").all_inner_texts() == ["Beginner", "Perfect"]
        assert page.input_value("#create-level") == "beginner"  # "expert" is no longer offered: the first level
        assert page.is_checked("#create-form input[name=silver]") is (not untouched)  # the server's default
        assert page.input_value("#create-form input[name=name]") == "Friday night"
        assert not page.is_checked("#create-form input[name=must_ricochet]")
        assert page.is_visible("#create-form input[name=clock_seconds]")  # the panel stayed open
        assert page.input_value("#create-form input[name=clock_seconds]") == "90"
        page.select_option("#lang", "fr")
        assert page.input_value("#create-form input[name=name]") == "Friday night"
        assert page.input_value("#create-form input[name=clock_seconds]") == "90"
        page.click(".game-card[data-game=pyramids]")  # another game: the room's name stays, not the clock
        assert page.input_value("#create-form input[name=name]") == "Friday night"
        assert page.input_value("#create-form input[name=clock_seconds]") == "30"
    finally:
        ctx.close()


def _add_bots(page, level: str, count: int, seated: int) -> None:
    """The host adds ``count`` bots of ``level`` to ``seated`` players, each seen in the list in turn
    (no wait_for_function: the CSP forbids eval)."""
    page.select_option("#bot-level", level)
    for k in range(count):
        page.click("#add-bot")
        page.locator(".player-list li").nth(seated + k).wait_for()


def test_two_players_and_a_bot_play_a_round(base_url: str, browser, clock: SkipClock) -> None:
    errors: list[str] = []
    ann_ctx = browser.new_context(viewport={"width": 1280, "height": 900}, locale="en-GB")
    bob_ctx = browser.new_context(viewport={"width": 1100, "height": 860}, locale="fr-FR")
    ann, bob = ann_ctx.new_page(), bob_ctx.new_page()
    _watch_errors(ann, "ann", errors)
    _watch_errors(bob, "bob", errors)
    for page in (ann, bob):
        page.set_default_timeout(15000)

    # Ann creates a room from the lobby with a short sand clock (long enough for
    # both bids and the checks below on a loaded machine).
    room_id = _create_room(ann, base_url, "Ann <i>", rules={"clock_seconds": "12"})
    ann.wait_for_selector("#start")

    # Bob (a French browser) opens the link, watches, then takes a seat.
    join_room(bob, base_url, room_id, "Bob")
    assert bob.locator("html").get_attribute("lang") == "fr"

    # Ann adds a slow bot (a beginner thinks 20-40 s: no bid within the clock) and starts.
    _add_bots(ann, "beginner", 1, seated=2)
    ann.click("#start")
    for page in (ann, bob):
        page.wait_for_selector("#round-info .target-name")
        page.wait_for_selector(".board-svg .chip")
        page.wait_for_selector(".board-svg .goal")
    # The goal pulses a few beats as it appears, then rests (an endless pulse repainted the board
    # for as long as the room was open); the bids below do not draw it anew, restarting its pulse.
    goal = bob.locator(".board-svg .goal")
    goal.evaluate("el => { el.marked = true; }")
    assert goal.evaluate("el => getComputedStyle(el).animationIterationCount") == "3"

    state = _get(f"{base_url}/api/rooms/{room_id}")["state"]
    route = _solve(state)
    n = len(route)

    ann.fill("#bid-input", str(n))
    ann.press("#bid-input", "Enter")
    quick = bob.locator(f".quick-bid[data-moves='{n + 1}']")
    if n + 1 <= 12:
        quick.click()
    else:
        bob.fill("#bid-input", str(n + 1))
        bob.press("#bid-input", "Enter")
    for page in (ann, bob):
        page.wait_for_selector("#bids li:nth-child(2)")
        page.wait_for_selector("#clock[data-running='1']")
    assert goal.evaluate("el => el.marked === true")  # the same element: its pulse not restarted
    ann.screenshot(path=str(SHOTS / "ricochet_bidding.png"))

    # The clock runs out (skipped to its end): Ann, the lowest bidder, demonstrates.
    clock.skip(room_id)
    ann.wait_for_selector("#demo-bar:not([hidden])")
    bob.wait_for_selector("#phase[data-phase='demonstration']")
    assert bob.locator("#demo-bar").is_hidden()
    blocked = _blocked_move(state)
    if blocked:
        # A refused move: the server's reason appears as a toast and nothing moves.
        ann.click(f"#robot-{blocked[0]}")
        ann.keyboard.press(KEYS[blocked[1]])
        ann.wait_for_selector(".toast-error")
        assert ann.get_attribute("#phase", "data-cost") == "0"
    for k, (color, direction) in enumerate(route, 1):
        ann.click(f"#robot-{color}")
        ann.keyboard.press(KEYS[direction])
        if k < n:
            ann.wait_for_selector(f"#phase[data-cost='{k}']")
            # Bob's page draws every path so far, though each message brought only the new one (`extend`).
            bob.wait_for_selector(f".layer-paths .path[data-move='{k}']")
            assert bob.locator(".layer-paths .path").count() == k

    # Ann wins the chip; both pages show it.
    ann.wait_for_selector(".player.me .score:text-is('1')")
    bob.wait_for_selector(".player-list li:has(.pname:text-is('Ann <i>')) .score:text-is('1')")
    ann.wait_for_selector("#winner")
    ann.wait_for_timeout(600)  # let the last move's animation finish before the pictures
    ann.screenshot(path=str(SHOTS / "ricochet_round_won.png"))
    bob.screenshot(path=str(SHOTS / "ricochet_round_won_fr.png"))
    # The name was shown as text, never as markup.
    assert ann.locator(".pname", has_text="Ann <i>").count() >= 1
    assert ann.locator(".pname i").count() == 0

    # Bob reloads: his seat token (localStorage) takes his seat back.
    bob.reload()
    bob.wait_for_selector(".player.me .pname:text-is('Bob')")
    # Once the solver has reported, the optimal route of round 1 can be drawn.
    bob.wait_for_selector(".history-list li[data-round='1']:not([data-optimal=''])", timeout=20000)
    assert int(bob.get_attribute(".history-list li[data-round='1']", "data-optimal")) <= n
    bob.click(".history-list li[data-round='1'] .show-solution")
    bob.wait_for_selector(".layer-paths .path")

    # The same room on a phone.
    bob.set_viewport_size({"width": 390, "height": 844})
    bob.wait_for_timeout(300)
    bob.screenshot(path=str(SHOTS / "ricochet_phone.png"))
    bob.screenshot(path=str(SHOTS / "ricochet_phone_full.png"), full_page=True)
    assert bob.evaluate("document.documentElement.scrollWidth") <= 392, "horizontal scroll on a phone"

    assert not [e for e in errors if "favicon" not in e], errors
    ann_ctx.close()
    bob_ctx.close()


def _pyramids_route(state: dict) -> list[tuple[str, str]]:
    """An optimal route for the Ricochet Pyramids round in ``state``: [(robot colour, direction), …]."""
    from ricochet.games.pyramids.game import puzzle_from_view
    from ricochet.solver import solve

    found = puzzle_from_view(state)
    assert found is not None
    sol = solve(found, time_limit=20)  # the puzzle carries the game's rules
    assert sol.moves, f"no solution found: {sol}"
    return [(found.position.robots[m.robot].color, m.direction.name) for m in sol.moves]


def test_a_pyramids_game_to_ten_points_with_a_spectator_and_two_bots(base_url: str, browser,
                                                                     clock: SkipClock) -> None:
    """Seed 003 in the browser: Ann picks Ricochet Pyramids in the lobby, takes the
    seed's easy layout and moves a tower, seats two bots and plays to 10 points
    (bidding in the page, demonstrating with clicks and arrow keys) while a
    spectator watches.  The timers and pauses are skipped, not waited for."""
    errors: list[str] = []
    # Ann's robots jump to their stops (reduced motion, which the page honours): no animation to wait for.
    ann_ctx = browser.new_context(viewport={"width": 1280, "height": 900}, locale="en-GB", reduced_motion="reduce")
    eve_ctx = browser.new_context(viewport={"width": 390, "height": 844}, locale="fr-FR", is_mobile=True,
                                  has_touch=True)
    ann, eve = ann_ctx.new_page(), eve_ctx.new_page()
    _watch_errors(ann, "ann", errors)
    _watch_errors(eve, "eve", errors)
    for page in (ann, eve):
        page.set_default_timeout(20000)

    room_id = _create_room(ann, base_url, "Ann", "pyramids", rules={"clock_seconds": "5", "min_moves": "2"})
    api = f"{base_url}/api/rooms/{room_id}"
    ann.wait_for_selector("#start")
    assert _get(api)["game"] == "pyramids"

    # The host takes the seed's easy layout, then carries the c5 tower to d5 (tap it, tap the square).
    ann.click("#layout-easy")
    ann.wait_for_selector(".tower[data-cell='2,3']")
    ann.screenshot(path=str(SHOTS / "pyramids_lobby.png"))
    ann.click(".tower[data-cell='2,3']")
    box = ann.locator(".board-svg").bounding_box()
    cell = box["width"] / (8 + 20 / 40)  # the viewBox is 8 cells and a half-cell margin wide
    ann.mouse.click(box["x"] + (16 / 40 + 3.5) * cell, box["y"] + (4 / 40 + 3.5) * cell)
    ann.wait_for_selector(".tower[data-cell='3,3']")
    assert any(t["cell"] == [3, 3] for t in _get(api)["state"]["towers"])

    # A spectator on a phone (French) watches.
    eve.goto(f"{base_url}/r/{room_id}?watch=1")
    eve.wait_for_selector(".board-svg .tower")
    _add_bots(ann, "beginner", 2, seated=1)
    ann.click("#start")

    shots = False
    while True:
        state = _get(api)["state"]
        if state["phase"] == "over":
            break
        rnd = state["round"]
        if rnd is None or not rnd["open"] or state["phase"] not in ("thinking", "bidding"):
            if state["phase"] == "intermission":
                clock.skip(room_id)
            time.sleep(0.1)
            continue
        number = rnd["number"]
        route = _pyramids_route(state)
        mine = next((b for b in rnd["standing"] if b["player"] == "p1"), None)
        if mine is None:
            ann.fill("#bid-input", str(len(route)))
            ann.press("#bid-input", "Enter")
            ann.wait_for_selector("#bids li.mine")
        # The timer runs out (skipped to its end): Ann demonstrates (unless a bot bid lower and wins).
        clock.skip(room_id)
        deadline = time.time() + 60
        while time.time() < deadline:
            state = _get(api)["state"]
            rnd = state["round"]
            if state["phase"] == "over" or rnd is None or rnd["number"] != number:
                break
            if state["phase"] == "demonstration" and rnd["demonstrator"] == "p1":
                # The API said so; Ann's page may not have heard yet (two suites side by side): wait for it.
                ann.wait_for_selector("#demo-bar:not([hidden])")
                if not shots:
                    ann.screenshot(path=str(SHOTS / "pyramids_demonstration.png"))
                for k, (color, direction) in enumerate(route, 1):
                    ann.click(f"#robot-{color}")
                    ann.keyboard.press(KEYS[direction])
                    if k < len(route):
                        ann.wait_for_selector(f"#phase[data-cost='{k}']")
                break
            time.sleep(0.1)
        if not shots:
            ann.wait_for_selector("#history .history-list li")
            ann.screenshot(path=str(SHOTS / "pyramids_round.png"))
            eve.screenshot(path=str(SHOTS / "pyramids_phone_spectator.png"))
            shots = True

    final = _get(api)["state"]
    scores = {p["id"]: p["score"] for p in final["players"]}
    assert max(scores.values()) == 10 and final["end_reason"] == "target_score", scores
    for page in (ann, eve):
        page.wait_for_selector("#phase[data-phase='over']")
    ann.screenshot(path=str(SHOTS / "pyramids_over.png"))
    assert eve.locator("#join").is_hidden() or eve.locator("#bid-input").count() == 0
    # The replay of the game draws the towers and steps through its events.
    ann.goto(f"{base_url}/r/{room_id}?replay=1")
    ann.wait_for_selector("#event-list li")
    ann.click("#replay-last")
    ann.wait_for_selector(".board-svg .tower")
    ann.wait_for_selector(".board-svg .robot")
    assert "10" in ann.locator(".player-list").inner_text()
    ann.click("#replay-first")
    for _ in range(12):
        ann.click("#replay-next")
    assert "Event 12" in ann.inner_text("#replay-step")
    ann.screenshot(path=str(SHOTS / "pyramids_replay.png"))
    # Mid-demonstration, the replay draws every path so far: each move's entry brought only its own (`extend`).
    log: list[str] = []
    after = 0
    while after is not None:  # the log, page after page
        page = _get(f"{base_url}/api/rooms/{room_id}/events?game=1&after={after}")
        log += [e["event"]["type"] for e in page["events"]]
        after = page["next"]
    third = next(i + 3 for i, kind in enumerate(log)
                 if kind == "demonstration_started" and log[i + 1:i + 4] == ["move_played"] * 3)
    ann.click("#replay-first")
    for _ in range(third + 1):  # "Event N" is the log's N-th entry
        ann.click("#replay-next")
    ann.wait_for_selector(".layer-paths .path[data-move='3']")
    assert ann.locator(".layer-paths .path").count() == 3
    ann.screenshot(path=str(SHOTS / "pyramids_replay_paths.png"))
    assert eve.evaluate("document.documentElement.scrollWidth") <= 392, "horizontal scroll on a phone"
    assert not [e for e in errors if "favicon" not in e], errors
    ann_ctx.close()
    eve_ctx.close()


def _micro_route(state: dict) -> list[list[int]]:
    from ricochet.games.micro_robots.engine import MicroBoard, Space, best_route

    board = MicroBoard(tuple(tuple(Space(c["color"], c["number"]) for c in row) for row in state["board"]))
    rnd = state["round"]
    route = best_route(board, tuple(rnd["start"]), tuple(rnd["target"]), tuple(rnd["via"]) if rnd["via"] else None)
    assert route is not None
    return [list(c) for c in route]


def test_a_micro_robots_game_with_a_spectator_a_bot_and_a_failed_announcement(base_url: str, browser,
                                                                               clock: SkipClock) -> None:
    """Seed 002 in the browser: Ann races a bot, announces, moves the robot by tapping spaces; once she
    fails (gives up) and her chip goes to the player with the fewest; she plays on to five chips while a
    spectator watches on a phone."""
    errors: list[str] = []
    # Ann's robots jump to their stops (reduced motion, which the page honours): no animation to wait for.
    ann_ctx = browser.new_context(viewport={"width": 1280, "height": 900}, locale="en-GB", reduced_motion="reduce")
    eve_ctx = browser.new_context(viewport={"width": 390, "height": 844}, locale="fr-FR", is_mobile=True,
                                  has_touch=True)
    ann, eve = ann_ctx.new_page(), eve_ctx.new_page()
    _watch_errors(ann, "ann", errors)
    _watch_errors(eve, "eve", errors)
    for page in (ann, eve):
        page.set_default_timeout(20000)
    room_id = _create_room(ann, base_url, "Ann", "micro-robots", selects={"arrangement": "A0B0C0D0"},
                           checks=("spectator_chat",))
    api = f"{base_url}/api/rooms/{room_id}"
    ann.wait_for_selector("#start")
    eve.goto(base_url + "/")
    eve.evaluate("localStorage.setItem('ricochet.name', 'Eve')")  # as the lobby's nickname box keeps it
    eve.goto(f"{base_url}/r/{room_id}?watch=1")
    # The room lets spectators chat: Eve, watching, says hello; Ann sees it tagged as a spectator's.
    # She types once her page is connected, as a person sees it settle: a message sent before
    # is refused with a "not sent" notice (act()), and a loaded machine can take that long.
    eve.wait_for_selector("#conn.conn-open", state="attached")
    eve.fill("#chat-input", "bonne chance")
    eve.press("#chat-input", "Enter")
    ann.wait_for_selector(".chat-line:has-text('Eve (watching)'):has-text('bonne chance')")
    eve.wait_for_selector(".chat-line:has-text('Eve (spectateur)')")
    _add_bots(ann, "beginner", 1, seated=1)
    ann.click("#start")

    failed = False
    rounds = 0
    while True:
        state = _get(api)["state"]
        if state["phase"] == "over":
            break
        if state["phase"] != "racing":
            if state["phase"] == "intermission":
                clock.skip(room_id)
            time.sleep(0.1)
            continue
        number = state["round"]["number"]
        route = _micro_route(state)
        ann.fill("#announce-input", str(len(route) - 1))
        ann.click("#announce")
        ann.wait_for_selector("#demo-bar:not([hidden])")
        if rounds == 0:
            ann.screenshot(path=str(SHOTS / "micro_demonstration.png"))
        me = next(p for p in state["players"] if p["name"] == "Ann")
        if me["score"] == 1 and not failed:
            # A failed announcement: Ann gives up; her only chip goes to the bot, who has the fewest.
            ann.click("#give-up")
            ann.wait_for_selector(".history-list li:has-text('A chip goes to')")
            failed = True
        else:
            for k, cell in enumerate(route[1:], 1):
                ann.click(f".move-to[data-cell='{cell[0]},{cell[1]}']")
                if k < len(route) - 1:
                    ann.wait_for_selector(f"#phase[data-cost='{k}']")
        deadline = time.time() + 60
        while time.time() < deadline:
            s = _get(api)["state"]
            if s["phase"] == "over" or (s["round"] and s["round"]["number"] > number):
                break
            if s["phase"] == "intermission":
                clock.skip(room_id)
            time.sleep(0.1)
        rounds += 1
        assert rounds < 20

    final = _get(api)["state"]
    scores = {p["name"]: p["score"] for p in final["players"]}
    assert failed and scores["Ann"] == 5 and final["winners"] == [final["players"][0]["id"]], scores
    penalties = [r for r in final["history"] if r["penalty_to"]]
    assert len(penalties) == 1 and penalties[0]["announcer"] == final["players"][0]["id"]
    for page in (ann, eve):
        page.wait_for_selector("#phase[data-phase='over']")
    eve.wait_for_selector(".history-list li:has-text('Un jeton va à')")
    ann.screenshot(path=str(SHOTS / "micro_over.png"))
    eve.screenshot(path=str(SHOTS / "micro_phone_spectator.png"), full_page=True)
    assert eve.evaluate("document.documentElement.scrollWidth") <= 392, "horizontal scroll on a phone"
    assert not [e for e in errors if "favicon" not in e], errors
    ann_ctx.close()
    eve_ctx.close()


def test_the_transparent_robot_passes_a_wall_for_one_more_move(base_url: str, browser, clock: SkipClock) -> None:
    """Seed 002's variant for Ricochet Robots at an online table: "he can stop at a wall and make another
    move or, instead, move through the wall, which costs one additional move" — the demonstrator picks
    where the robot stops, and the move counter counts the extra move."""
    errors: list[str] = []
    ctx = browser.new_context(viewport={"width": 1280, "height": 900}, locale="en-GB")
    ann = ctx.new_page()
    _watch_errors(ann, "ann", errors)
    ann.set_default_timeout(20000)
    room_id = _create_room(ann, base_url, "Ann", "ricochet-robots", rule_checks=("transparent",),
                           rules={"clock_seconds": "5"})
    api = f"{base_url}/api/rooms/{room_id}"
    ann.wait_for_selector("#start")
    _add_bots(ann, "beginner", 1, seated=1)
    ann.click("#start")
    ann.wait_for_selector("#robot-transparent")
    ann.fill("#bid-input", "30")
    ann.press("#bid-input", "Enter")
    ann.wait_for_selector("#bids li.mine")
    clock.skip(room_id)  # the sand clock runs out
    ann.wait_for_selector("#demo-bar:not([hidden])")

    passed = False
    for _ in range(4):
        state = _get(api)["state"]
        rnd = state["round"]
        cost = rnd["cost"]
        choices = rnd["choices"]
        # The page offers a choice only where a direction has more than one stop (one stop: it moves).
        through = [(d, opt) for d in "NESW" if len(choices[d]) > 1 for opt in choices[d] if opt["cost"] >= 2]
        ann.click("#robot-transparent")
        if through:
            direction, opt = min(through, key=lambda x: x[1]["cost"])
            ann.keyboard.press(KEYS[direction])
            ann.wait_for_selector(".layer-choices .choice")
            ann.screenshot(path=str(SHOTS / "transparent_choice.png"))
            ann.click(f".layer-choices .choice[data-cell='{opt['stop'][0]},{opt['stop'][1]}']")
            ann.wait_for_selector(f"#phase[data-cost='{cost + opt['cost']}']")
            assert f"{cost + opt['cost']} of 30 moves" in ann.inner_text("#phase")
            passed = True
            break
        # No choice to make from here: a move with a single stop, and look again.  Its cost may be 2
        # where its only way is through the wall beside the robot (the page then asks nothing).
        single = [d for d in "NESW" if len(choices[d]) == 1]
        assert single, f"the transparent robot cannot move from here: {choices}"
        d = min(single, key=lambda d: choices[d][0]["cost"])
        ann.keyboard.press(KEYS[d])
        ann.wait_for_selector(f"#phase[data-cost='{cost + choices[d][0]['cost']}']")
    assert passed, "the transparent robot never met a wall it could pass"
    ann.click("#give-up")
    assert not [e for e in errors if "favicon" not in e], errors
    ctx.close()


def _ram_table(state: dict):
    from ricochet.games.rambots.engine import Obj, Piece, Table

    objects = tuple(sorted((Obj.from_dict(o) for o in state["objects"]), key=lambda o: (o.kind, o.color)))
    pools = tuple(sorted((p["color"], tuple(sorted(Piece.from_dict(x) for x in p["pool"])))
                         for p in state["players"] if p.get("color")))
    goals = tuple(sorted((p["color"], tuple(Piece.from_dict(x) for x in p.get("goals") or []))
                         for p in state["players"] if p.get("color")))
    return Table(objects, pools, goals, tuple(state["precedence"]))


def test_the_rambots_editor_is_not_rebuilt_by_another_players_news(base_url: str, browser) -> None:
    """Ann lays out her program while Bob compiles his: Bob's news reaches Ann's page, and her editor's
    buttons stay the same elements. When every message rebuilt them, a click of hers that met Bob's
    news was lost (the mouse went down on a button and up on its replacement: seen as a program
    short of one piece in the bots' game below)."""
    ctx_a = browser.new_context(viewport={"width": 1280, "height": 900}, locale="en-GB")
    ctx_b = browser.new_context(viewport={"width": 1280, "height": 900}, locale="en-GB")
    ann, bob = ctx_a.new_page(), ctx_b.new_page()
    try:
        room_id = _create_room(ann, base_url, "Ann", "rambots")
        join_room(bob, base_url, room_id, "Bob")
        ann.click("#start")
        for page in (ann, bob):  # each makes a goal stack for the other
            page.wait_for_selector("#ram-editor .ram-pool .piece-btn")
            for _ in range(4):
                page.locator("#ram-editor .ram-pool .piece-btn[data-size='3']").first.click()
            page.click("#send-goals")
        for page in (ann, bob):
            page.wait_for_selector("#ram-program")
        ann.click(".orient[data-orient='E']")
        buttons = ann.locator("#ram-editor .piece-btn, #ram-editor .orient, #compile")
        count = buttons.count()
        buttons.evaluate_all("els => els.forEach((el) => { el.marked = true; })")
        bob.click("#ram-editor .ram-pool .piece-btn")
        bob.click("#compile")
        bob_id = _get(f"{base_url}/api/rooms/{room_id}")["state"]["players"][1]["id"]
        ann.wait_for_selector(f"#ram-players li[data-player='{bob_id}'] .cap.on")  # Ann's page heard it
        assert buttons.count() == count
        assert buttons.evaluate_all("els => els.every((el) => el.marked === true)")
        ann.locator("#ram-editor .ram-pool .piece-btn").first.click()  # her own click draws it anew
        ann.wait_for_selector("#ram-program .slot:not(.empty)")
    finally:
        ctx_a.close()
        ctx_b.close()


def test_a_rambots_game_of_a_human_and_two_bots_to_a_win(base_url: str, browser, clock: SkipClock) -> None:
    """Seed 001 in the browser: Ann makes a goal stack for her neighbour by clicking pieces, then each round
    lays out a program in the editor (lay the piece, pick it from the pool), compiles, and watches the
    programs run, until someone tags four goals."""
    from ricochet.games.rambots.bot import plan_program

    errors: list[str] = []
    ctx = browser.new_context(viewport={"width": 1280, "height": 900}, locale="en-GB")
    ann = ctx.new_page()
    _watch_errors(ann, "ann", errors)
    ann.set_default_timeout(30000)
    room_id = _create_room(ann, base_url, "Ann", "rambots", rules={"step_seconds": "0.3"})
    api = f"{base_url}/api/rooms/{room_id}"
    ann.wait_for_selector("#start")
    _add_bots(ann, "expert", 2, seated=1)
    ann.click("#start")
    # The goal stack for the player on her left: one piece of each colour, top first.
    ann.wait_for_selector("#ram-editor .ram-pool .piece-btn")
    for _ in range(4):
        ann.locator("#ram-editor .ram-pool .piece-btn[data-size='3']").first.click()
    ann.click("#send-goals")
    rounds = 0
    while True:
        state = _get(api)["state"]
        if state["phase"] == "over":
            break
        if state["phase"] != "programming" or next(p for p in state["players"] if p["id"] == "p1")["compiled"]:
            time.sleep(0.2)
            continue
        me = next(p for p in state["players"] if p["id"] == "p1")
        program = plan_program(_ram_table(state), me["color"], "perfect", None, rounds)
        ann.wait_for_selector("#ram-program")
        for ins in program:
            ann.click(f".orient[data-orient='{ins.orientation}']")
            ann.click(f"#ram-editor .ram-pool .piece-btn[data-size='{ins.piece.size}'][data-color='{ins.piece.color}']")
        if program:
            ann.locator("#ram-program .slot:not(.empty)").nth(len(program) - 1).wait_for()
        if rounds == 0:
            ann.screenshot(path=str(SHOTS / "rambots_program.png"))
        ann.click("#compile")
        rounds += 1
        deadline = time.time() + 60
        while time.time() < deadline:
            s = _get(api)["state"]
            if s["phase"] == "over" or s["round_number"] > rounds:
                break
            if s["phase"] == "execution":
                clock.skip(room_id)  # the next instruction at once, not after its step time
            time.sleep(0.02 if s["phase"] == "execution" else 0.1)
        if rounds == 1:
            ann.screenshot(path=str(SHOTS / "rambots_execution.png"))
        assert rounds < 25, "no winner after 25 rounds"
    final = _get(api)["state"]
    assert final["end_reason"] == "all_goals_tagged" and len(final["winners"]) == 1
    winner = next(p for p in final["players"] if p["id"] == final["winners"][0])
    assert winner["goals"] == [] and winner["score"] == 4
    ann.wait_for_selector("#phase[data-phase='over']")
    ann.screenshot(path=str(SHOTS / "rambots_over.png"))
    assert not [e for e in errors if "favicon" not in e], errors
    ctx.close()


def test_a_typed_bid_survives_other_bids_and_a_server_outage(browser, tmp_path: Path) -> None:
    """Issue 13: "A typed bid is never lost … While disconnected, actions are queued or visibly refused …
    never silently dropped" — Ann types while Bob bids, the server goes down and comes back."""
    from test_server_kill import _free_port, _kill9, _serve

    port, db = _free_port(), tmp_path / "outage.db"
    proc = _serve(port, db, tmp_path / "server.log")
    base = f"http://127.0.0.1:{port}"
    errors: list[str] = []
    ann_ctx = browser.new_context(viewport={"width": 1280, "height": 900}, locale="en-GB")
    bob_ctx = browser.new_context(viewport={"width": 1100, "height": 860}, locale="en-GB")
    ann, bob = ann_ctx.new_page(), bob_ctx.new_page()
    for page in (ann, bob):
        page.set_default_timeout(20000)
    try:
        room_id = _create_room(ann, base, "Ann", "ricochet-robots", rules={"clock_seconds": "120"})
        join_room(bob, base, room_id, "Bob")
        ann.click("#start")
        ann.wait_for_selector("#bid-input:not([disabled])")
        # Ann starts typing; Bob's bids arrive meanwhile: her text and her focus stay.
        ann.click("#bid-input")
        ann.keyboard.type("1")
        bob.fill("#bid-input", "20")
        bob.press("#bid-input", "Enter")
        ann.wait_for_selector("#bids li[data-player='p2']")
        bob.fill("#bid-input", "19")
        bob.press("#bid-input", "Enter")
        ann.wait_for_selector("#bids li:has-text('19 moves')")
        assert ann.evaluate("document.activeElement.id") == "bid-input"
        ann.keyboard.type("8")
        assert ann.input_value("#bid-input") == "18"
        ann.keyboard.press("Enter")
        ann.wait_for_selector("#bids li.mine:has-text('18 moves')")
        _watch_errors(ann, "ann", errors)
        # The server goes down: Ann's next bid cannot be sent, and she is told so.
        _kill9(proc)
        ann.wait_for_selector("#offline:not([hidden])")
        ann.fill("#bid-input", "17")
        assert ann.is_disabled("#bid-submit")
        ann.screenshot(path=str(SHOTS / "ricochet_offline.png"))
        # It comes back: the typed bid is still there and goes through.
        proc = _serve(port, db, tmp_path / "server.log")
        ann.wait_for_selector("#offline", state="hidden", timeout=40000)
        assert ann.input_value("#bid-input") == "17"
        ann.click("#bid-submit")
        ann.wait_for_selector("#bids li.mine:has-text('17 moves')")
        assert not [e for e in errors if "favicon" not in e and "WebSocket" not in e and "ERR_CONNECTION" not in e], errors
    finally:
        ann_ctx.close()
        bob_ctx.close()
        if proc.poll() is None:
            _kill9(proc)


def _post(url: str, body: dict) -> dict:
    req = urllib.request.Request(url, data=json.dumps(body).encode(), method="POST",
                                 headers={"content-type": "application/json"})
    with urllib.request.urlopen(req, timeout=5) as r:
        return json.loads(r.read())


def test_host_controls_confirm_skip_an_away_demonstrator_remove_and_hand_over(base_url: str, browser,
                                                                              clock: SkipClock) -> None:
    """Issue 13, roles: "End the game" asks first; the host skips an away demonstrator (the next bidder
    demonstrates) and removes an away player, both after a confirmation; when the host's connection drops,
    host rights pass on after the grace period; the game log is there again after a reload."""
    grace = 20
    room_id = _post(f"{base_url}/api/rooms", {"clock_seconds": 5, "seat_grace_seconds": grace,
                                               "intermission_seconds": 30})["room_id"]
    api = f"{base_url}/api/rooms/{room_id}"
    errors: list[str] = []
    pages = {}
    for name in ("Ann", "Bob", "Cleo"):
        ctx = browser.new_context(viewport={"width": 1280, "height": 900}, locale="en-GB")
        page = ctx.new_page()
        page.set_default_timeout(20000)
        page.goto(base_url + "/")
        page.evaluate(f"localStorage.setItem('ricochet.name', '{name}')")
        page.goto(f"{base_url}/r/{room_id}")
        page.wait_for_selector(".player.me")
        _watch_errors(page, name.lower(), errors)
        pages[name] = page
    ann, bob, cleo = pages["Ann"], pages["Bob"], pages["Cleo"]
    ann.click("#start")
    # "End the game" asks first; keeping on changes nothing.
    ann.click("#end-game")
    ann.wait_for_selector("dialog.confirm[open]")
    ann.click("#confirm-no")
    assert _get(api)["state"]["phase"] == "thinking"
    bob.fill("#bid-input", "20")
    bob.press("#bid-input", "Enter")
    cleo.fill("#bid-input", "25")
    cleo.press("#bid-input", "Enter")
    ann.wait_for_selector("#bids li:nth-child(2)")
    clock.skip(room_id)  # the sand clock runs out
    ann.wait_for_selector("#phase[data-phase='demonstration']")
    # Bob, first to demonstrate, goes away: the host skips his demonstration; Cleo's begins.
    bob.context.close()
    ann.wait_for_selector("#skip-demo")
    ann.click("#skip-demo")
    ann.click("#confirm-yes")
    ann.wait_for_selector("#bids li.failed[data-player='p2']")
    assert _get(api)["state"]["round"]["demonstrator"] == "p3"
    cleo.click("#tab-log")
    cleo.wait_for_selector("#game-log li:has-text('skipped Bob')")
    cleo.click("#give-up")
    ann.wait_for_selector("#phase[data-phase='intermission']")
    # The host removes Bob (away), after a confirmation.
    ann.click(".remove-player[data-player='p2']")
    ann.click("#confirm-yes")
    cleo.wait_for_selector(".player-list li[data-player='p2']", state="detached")
    # Cleo reloads: the game log is back.
    cleo.reload()
    cleo.click("#tab-log")
    cleo.wait_for_selector("#game-log li:has-text('skipped Bob')")
    # Ann's connection drops: after the grace period, Cleo is the host.
    assert not cleo.locator("#end-game").is_visible()
    ann.context.close()
    # The grace period runs out (skipped to its end; the room's other deadlines on the way too).
    for _ in range(20):
        if _get(api)["state"]["host"] == "p3":
            break
        clock.skip(room_id)
        time.sleep(0.3)
    cleo.wait_for_selector(".player-list li[data-player='p3']:has-text('host')")
    cleo.wait_for_selector("#end-game")
    assert _get(api)["state"]["host"] == "p3"
    cleo.screenshot(path=str(SHOTS / "ricochet_host_handover.png"))
    assert not [e for e in errors if "favicon" not in e], errors
    cleo.context.close()
