"""What the browser tests share: Debian's Chromium driven by Playwright, and the real
server (uvicorn) in a thread of the test process on a free port."""

from __future__ import annotations

import asyncio
import contextlib
import os
import shutil
import threading
import time
import urllib.request
from collections.abc import Iterator
from typing import Any

import pytest

from test_server_kill import _free_port


def _chromium() -> str:
    """The browser the tests drive: ``$RICOCHET_CHROMIUM``, else Debian's headless shell
    (``chromium-headless-shell``: the same Blink without the desktop browser around it, about
    40 % less CPU for the same tests: the suite's browsers were a third of its CPU), else
    Debian's ``chromium`` (its new headless mode)."""
    where = os.pathsep.join((os.environ.get("PATH", ""), "/usr/bin"))
    return (os.environ.get("RICOCHET_CHROMIUM") or shutil.which("chromium-headless-shell", path=where)
            or shutil.which("chromium", path=where) or "/usr/bin/chromium-headless-shell")


CHROMIUM = _chromium()
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
        "--disable-component-update", "--disable-sync"]
KEYS = {"N": "ArrowUp", "E": "ArrowRight", "S": "ArrowDown", "W": "ArrowLeft"}


def join_room(page: Any, base_url: str, room_id: str, name: str) -> None:
    """Open a room's link and take a seat under ``name``: back once the page shows the seat taken."""
    page.goto(f"{base_url}/r/{room_id}")
    page.fill("#join-name", name)
    page.click("#join button[type=submit]")
    page.wait_for_selector(".player.me")


def playwright_or_skip() -> Any:
    """``playwright.sync_api``, or the calling test module is skipped (no Chromium, no Playwright)."""
    if not os.path.exists(CHROMIUM):
        pytest.skip(f"no Chromium at {CHROMIUM}: apt-get install -y chromium-headless-shell (or chromium), "
                    "or set RICOCHET_CHROMIUM to a Chromium binary", allow_module_level=True)
    return pytest.importorskip("playwright.sync_api", reason="playwright (Python) is not installed")


@contextlib.contextmanager
def chromium(sync_api: Any) -> Iterator[Any]:
    """A headless Chromium browser for the duration of the block."""
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            yield b
        finally:
            b.close()


@contextlib.contextmanager
def served(app: Any, timeout: float = 30.0) -> Iterator[str]:
    """``app`` served by uvicorn in a thread on a free loopback port: its base URL, once it answers
    ``/api/health``; stopped after the block."""
    import uvicorn

    port = _free_port()
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning", lifespan="on"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.time() + timeout
        while True:
            try:
                with urllib.request.urlopen(f"{base}/api/health", timeout=1):
                    break
            except OSError:
                if time.time() > deadline:
                    raise RuntimeError(f"the server did not come up within {timeout:g} s") from None
                time.sleep(0.1)
        yield base
    finally:
        server.should_exit = True
        thread.join(timeout=10)


class SkipClock:
    """The server's clock in browser tests: real time plus the seconds skipped, so that a test
    jumps over a sand clock, a pause or a grace period instead of sleeping through it (what
    happens at the deadline is the same; only the waiting goes).  Give it to ``create_app(now=…)``
    and set :attr:`app`; it learns the server's event loop from its first call there.  Not
    attached to a server (a test run against ``RICOCHET_WEB_URL``), :meth:`skip` does nothing and
    the tests wait in real time."""

    def __init__(self) -> None:
        self.offset = 0.0
        self.app: Any = None
        self.loop: asyncio.AbstractEventLoop | None = None

    def __call__(self) -> float:
        if self.loop is None:
            with contextlib.suppress(RuntimeError):
                self.loop = asyncio.get_running_loop()
        return time.time() + self.offset

    def skip(self, room_id: str) -> float:
        """Move the clock to the room's next deadline (its game clock or a seat's grace), if
        it has one, and wake its ticker: the seconds skipped."""
        if self.app is None or self.loop is None:
            return 0.0

        async def jump() -> float:
            room = self.app.state.manager.rooms.get(room_id)
            deadline = room.next_deadline() if room is not None else None
            if deadline is None:
                return 0.0
            gap = max(0.0, deadline - self())
            self.offset += gap
            room.wake.set()
            return gap

        return asyncio.run_coroutine_threadsafe(jump(), self.loop).result(timeout=30)
