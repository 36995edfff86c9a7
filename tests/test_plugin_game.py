"""The proof that a game plugs in: Higher or Lower (``tests/higher_lower/``) lives only in the
tests, registers itself when imported, and is played — by the game interface alone, through
a real server process (``RICOCHET_GAMES``, the registry's plug-in variable) and in the web
shell in Chromium — with no line of the library written for it (``docs/new-game.md``).

It is plugged in only while these tests run (the ``plugged`` fixture): every other test
module sees the four built-in games."""

from __future__ import annotations

import asyncio
import importlib
import json
import os
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from gametable import GameTable
from realserver import ServerProcess, client, http
from ricochet.games import GAMES, get_game

TESTS = Path(__file__).resolve().parent
NAME = "higher-lower"
SHOTS = Path("/tmp")


@pytest.fixture(scope="module")
def plugged() -> Iterator[Any]:
    """Higher or Lower plugged into this process (imported: it registers itself), and taken out after."""
    assert NAME not in GAMES
    module = importlib.import_module("higher_lower.game")
    try:
        assert GAMES[NAME] is module.GAME
        yield module
    finally:
        GAMES.pop(NAME, None)
        sys.modules.pop("higher_lower.game", None)
    assert NAME not in GAMES and len(GAMES) == 4  # nothing of it stays behind


def _halving(low: int, high: int) -> int:
    return (low + high) // 2


# -- by the game interface alone ------------------------------------------------------------------
def test_a_game_plays_by_the_interface_and_its_log_is_the_truth(plugged: Any) -> None:
    game = get_game(NAME)
    config = game.config(game.normalize_options({"target_score": 2}), seed=5)
    t = GameTable(game, config)
    t.refused(plugged.Guess("ann", 5), 0, "join it first")
    t.seat("Ann", "Bob")
    assert t.state.phase == "guessing" and t.state.round == 1
    t.refused(plugged.Guess("cy", 5), 1, "not in this game")
    rounds = 0
    now = 1.0
    while t.state.phase != "over":
        before = t.state.round
        guess = _halving(t.state.low, t.state.high)
        (ev, *rest) = t.do(plugged.Guess("ann" if now % 2 else "bob", guess), now)
        assert ev.type == "guessed" and ev.number == guess and ev.verdict in ("higher", "lower", "right")
        if ev.verdict == "higher":
            assert t.state.low == guess + 1
            t.refused(plugged.Guess("bob", guess), now, "from .* to .*: guess within")
        elif ev.verdict == "lower":
            assert t.state.high == guess - 1
        else:
            rounds += 1
            assert [e.type for e in rest] in (["number_chosen"], ["game_ended"])
            assert t.state.round == before + (rest[0].type == "number_chosen")
        now += 1
    assert rounds >= 2 and t.state.end_reason == "target_score" and max(t.state.scores.values()) == 2
    assert t.state.winners == tuple(p for p, s in t.state.scores.items() if s == 2)
    t.check_replay()
    # The number is the seed's secret: never in a view or an event (only "right" shows it, once guessed).
    for viewer in ("ann", "bob", None):
        assert "secret" not in json.dumps(game.view(t.state, viewer))
    with pytest.raises(Exception, match="unknown option 'colors'"):
        game.normalize_options({"colors": 3})


def test_no_message_carries_its_secret_to_anyone(plugged: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The generic check every game passes (test_server_games), on the plugged game: its bots play
    a whole game while every message is checked against the number of the round."""
    import test_server_games as generic
    from test_server_harness import Harness

    with Harness(tmp_path) as h:
        generic.test_no_message_carries_a_secret_of_someone_else(h, NAME, monkeypatch)


# -- through a real server --------------------------------------------------------------------------
def test_played_through_a_real_server(plugged: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``python -m ricochet serve`` with ``RICOCHET_GAMES=higher_lower.game``: the server lists it,
    serves its web folder, makes its rooms, and two players guess it to the end over WebSockets."""
    monkeypatch.setenv("RICOCHET_GAMES", "higher_lower.game")
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(filter(None, [str(TESTS), os.environ.get("PYTHONPATH")])))
    server = ServerProcess(tmp_path)
    try:
        port = server.port
        _, _, index = http(port, "GET", "/static/games/index.json")
        assert [g["name"] for g in index["games"]][-1] == NAME and index["games"][-1]["bot_levels"] == ["steady"]
        status, headers, module = http(port, "GET", f"/static/games/{NAME}/game.js")
        assert status == 200 and "javascript" in headers["content-type"] and "export default" in module
        _, _, options = http(port, "GET", "/api/options")
        assert options["games"][NAME]["title"] == "Higher or Lower"
        status, _, refused = http(port, "POST", "/api/rooms", {"game": NAME, "colors": 3})
        assert status == 400 and "for Higher or Lower" in refused["error"]["message"]
        status, _, created = http(port, "POST", "/api/rooms", {"game": NAME, "target_score": 2})
        assert status == 201 and created["options"]["game"] == NAME
        asyncio.run(_two_players_guess(port, created["room_id"]))
        _, _, summary = http(port, "GET", f"/api/rooms/{created['room_id']}")
        assert summary["status"] == "over" and summary["state"]["winners"]
        _, _, replay = http(port, "GET", f"/api/rooms/{created['room_id']}/events?states=1")
        kinds = [e["event"]["type"] for e in replay["events"]]
        assert replay["game_name"] == NAME and kinds.count("number_chosen") >= 2 and kinds[-1] == "game_ended"
        assert "Traceback" not in server.log(), server.log()
    finally:
        server.stop()


async def _two_players_guess(port: int, room_id: str) -> None:
    ann, bob = client(port, room_id, "127.0.0.2"), client(port, room_id, "127.0.0.3")
    for c in (ann, bob):
        await c.connect()
    await ann.hello("Ann")
    await bob.hello("Bob")
    await ann.send({"type": "start"})

    async def now(c: Any) -> dict[str, Any]:
        """The client's state with every message sent before this ping read (the server answers in order)."""
        await c.send({"type": "ping"})
        await c.wait_for("pong")
        return c.state  # type: ignore[no-any-return]

    for turn in range(60):
        who = (ann, bob)[turn % 2]
        state = await now(who)
        if state["phase"] == "over":
            break
        assert state["phase"] == "guessing"
        await who.send({"type": "guess", "number": _halving(state["low"], state["high"])})
        got = await who.wait_for(lambda m: m.get("type") == "error"
                                 or (m.get("type") == "event" and m["event"]["type"] == "guessed"))
        assert got["type"] == "event", got
    state = await now(ann)
    assert state["phase"] == "over" and max(p["score"] for p in state["players"]) == 2
    for c in (ann, bob):
        await c.close()


# -- in the web shell ---------------------------------------------------------------------------------
@pytest.mark.browser
def test_shown_and_played_in_the_web_shell(plugged: Any, tmp_path: Path) -> None:
    """In Chromium: the lobby offers the game, a room is made from its own form, the host adds its
    bot and plays against it with the game's buttons, to the end; then the replay; desktop
    (1280×800) and phone (390×844) screenshots go to /tmp."""
    from browserkit import chromium, playwright_or_skip, served
    from ricochet.server.app import create_app
    from ricochet.server.trainer_api import TrainerOptions

    sync_api = playwright_or_skip()
    errors: list[str] = []
    with served(create_app(database_url=f"sqlite+aiosqlite:///{tmp_path / 'web.db'}", bot_speed=0.2,
                           trainer=TrainerOptions(pool=0))) as base, \
            chromium(sync_api) as browser:
        for width, height, tag in ((1280, 800, "desktop"), (390, 844, "phone")):
            ctx = browser.new_context(viewport={"width": width, "height": height}, locale="en-GB")
            page = ctx.new_page()
            page.set_default_timeout(20000)
            page.on("pageerror", lambda e, tag=tag: errors.append(f"{tag}: {e}"))
            page.on("console", lambda m, tag=tag: errors.append(f"{tag} console: {m.text}") if m.type == "error" else None)
            page.goto(base + "/")
            page.wait_for_selector("#create-form[aria-busy=false]", state="attached")
            card = page.locator(f".game-card[data-game={NAME}]")
            assert "Higher or Lower" in card.inner_text()
            page.fill("#nickname", "Ann")
            card.click()
            page.fill("#create-form input[name=target_score]", "2")
            page.click("#create-form button[type=submit]")
            page.wait_for_url("**/r/*")
            room_id = page.url.rstrip("/").rsplit("/", 1)[1]
            page.wait_for_selector("#start")
            page.select_option("#bot-level", "steady")
            page.click("#add-bot")
            page.locator(".player-list li").nth(1).wait_for()
            page.click("#start")
            page.wait_for_selector("#hl-guess-5")
            page.screenshot(path=str(SHOTS / f"higher_lower_{tag}.png"))
            for _ in range(40):
                state = _state(base, room_id)
                if state["phase"] == "over":
                    break
                button = page.locator(f"#hl-guess-{_halving(state['low'], state['high'])}")
                try:  # the bot guesses too: the range (or the game) may have moved on since
                    button.click(timeout=1000)
                except sync_api.TimeoutError:
                    pass
                page.wait_for_timeout(150)
            page.wait_for_selector("#phase[data-phase=over]")
            assert "Winner" in page.locator("#result").inner_text()
            page.click("#tab-log")
            assert page.locator("#game-log li").filter(has_text="guessed").count() >= 2
            page.screenshot(path=str(SHOTS / f"higher_lower_over_{tag}.png"))
            page.goto(f"{base}/r/{room_id}?replay=1")
            page.wait_for_selector(".replay-rounds button")
            page.click("#replay-last")
            page.screenshot(path=str(SHOTS / f"higher_lower_replay_{tag}.png"))
            if tag == "phone":
                assert page.evaluate("document.documentElement.scrollWidth") <= 392, "horizontal scroll on a phone"
            ctx.close()
    assert not errors, errors


def _state(base: str, room_id: str) -> dict[str, Any]:
    import urllib.request

    with urllib.request.urlopen(f"{base}/api/rooms/{room_id}", timeout=10) as r:
        return json.loads(r.read())["state"]  # type: ignore[no-any-return]
