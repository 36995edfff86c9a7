"""``ricochet serve``: start the web server (registered in :mod:`ricochet.cli`)."""

from __future__ import annotations

import argparse
import asyncio
import ipaddress
import logging
import re
import socket
from typing import Any

from . import CliError, add_command
from .shared import out


def build_serve(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1; "
                                                            "0.0.0.0 to let other machines in)")
    parser.add_argument("--port", type=int, default=8000, help="port (default 8000)")
    parser.add_argument("--database", default=None, metavar="URL",
                        help="SQLAlchemy URL or SQLite file path, e.g. sqlite+aiosqlite:///ricochet.db or "
                             "postgresql://user:pass@host/db (default: ricochet.db in $RICOCHET_DATA_DIR, "
                             "$XDG_DATA_HOME/ricochet or ~/.local/share/ricochet)")
    parser.add_argument("--log-level", default="info", choices=["debug", "info", "warning", "error"])
    parser.add_argument("--limit", action="append", default=[], metavar="NAME=VALUE",
                        help="change one of the server's limits, e.g. rooms_per_minute=10 or max_connections=20000 "
                             "(0 turns a limit off; the names are those of ricochet.server.limits.ServerLimits)")
    parser.add_argument("--trainer-pool", type=int, default=2, metavar="N",
                        help="puzzles of each length the trainer makes ahead, in the background, from 20 s "
                             "after start (default 2; 0: none, every puzzle is made when asked for)")
    parser.add_argument("--allow-origin", action="append", default=[], metavar="URL",
                        help="another site whose pages may open game sockets, e.g. https://example.org "
                             "(the server's own pages always may)")
    parser.add_argument("--allowed-host", action="append", default=[], metavar="NAME",
                        help="a name the site answers to, e.g. play.example.org or *.example.org (the Host "
                             "header; IP addresses and localhost always: other names are refused, against DNS "
                             "rebinding)")
    parser.add_argument("--trusted-proxy", action="append", default=[], metavar="IP",
                        help="a proxy in front of this server (e.g. 127.0.0.1 for HAProxy on this machine): "
                             "only from its address is X-Forwarded-For believed as the client's address")
    parser.add_argument("--workers", type=int, default=1, metavar="N",
                        help="N worker processes behind HAProxy on --host:--port (they listen on the next N "
                             "ports of 127.0.0.1), each room played in exactly one of them (docs/deploy.md); "
                             "needs haproxy (apt-get install haproxy). Default 1: one process, no proxy")
    parser.add_argument("--cluster-name", default=None, metavar="NAME",
                        help="this process is the worker NAME of a cluster sharing --database behind a proxy "
                             "(docs/deploy.md; --workers starts such workers itself)")


def run_serve(args: argparse.Namespace) -> int:
    try:
        import uvicorn

        from ..server.app import create_app
        from ..server.storage import Storage, StorageError, default_database_url, normalize_url
    except ImportError as e:  # `pip install ricochet` alone: the library, the solver and the CLI
        raise CliError(f"the web server needs the server extra (missing {e.name}): "
                       "pip install 'ricochet[server]'") from None
    from ..server.limits import ServerLimits, parse_limit

    if not 0 < args.port < 65536:
        raise CliError(f"--port must be from 1 to 65535, got {args.port}")
    if not 0 <= args.trainer_pool <= 100:
        raise CliError(f"--trainer-pool must be from 0 to 100, got {args.trainer_pool}")
    limits = ServerLimits()
    try:
        for text in args.limit:
            limits = parse_limit(text, limits)
    except ValueError as e:
        raise CliError(f"--limit: {e}") from None
    origins = tuple(o.rstrip("/") for o in args.allow_origin)
    bad = next((o for o in origins if not o.startswith(("http://", "https://"))), None)
    if bad is not None:
        raise CliError(f"--allow-origin takes a page's origin like https://example.org, got {bad!r}")
    if not 1 <= args.workers <= 64:
        raise CliError(f"--workers must be from 1 to 64, got {args.workers}")
    if args.cluster_name is not None and not re.fullmatch(r"[A-Za-z0-9_.-]{1,40}", args.cluster_name):
        raise CliError(f"--cluster-name must be 1 to 40 letters, digits, '.', '_' or '-', got {args.cluster_name!r}")
    for ip in args.trusted_proxy:
        try:
            ipaddress.ip_network(ip, strict=False)
        except ValueError:
            raise CliError(f"--trusted-proxy takes an IP address or network, e.g. 127.0.0.1, got {ip!r}") from None
    for name in args.allowed_host:
        if not re.fullmatch(r"(\*\.)?[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)*\.?", name):
            raise CliError(f"--allowed-host takes a host name like play.example.org, got {name!r}")
    url = normalize_url(args.database or default_database_url())
    logging.basicConfig(level=args.log_level.upper(), format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    if args.log_level != "debug":
        logging.getLogger("alembic").setLevel(logging.WARNING)  # one line per migration step is noise

    import asyncio

    async def check() -> None:  # fail early, with a message, if the database is unusable
        st = await Storage.open(url)
        await st.close()

    try:
        asyncio.run(check())
    except StorageError as e:
        raise CliError(str(e)) from None
    # The event loop shares the GIL with the database writer thread (and aiosqlite's): a thread that
    # finished its I/O waits up to the switch interval (5 ms by default) for the GIL while the loop
    # is busy, and a room's next move waits for that commit.  1 ms keeps those hand-offs short
    # (measured: p99 move-to-broadcast latency several times lower under load) for little overhead.
    if args.workers > 1:
        from .workers import run_workers

        return run_workers(args, url)
    import sys
    sys.setswitchinterval(0.001)
    from ..server.trainer_api import TrainerOptions

    app = create_app(url, limits=limits, allowed_origins=origins, trainer=TrainerOptions(pool=args.trainer_pool),
                     cluster_name=args.cluster_name, allowed_hosts=tuple(args.allowed_host))
    # The garbage collector's full (generation 2) passes stop the event loop for as long as they scan
    # every tracked object: ~100 ms with a few hundred rooms in play, every couple of seconds under
    # load, and every move in flight waits.  Everything imported so far (modules, classes, functions:
    # about 100 000 objects) lives as long as the process: frozen, it is never scanned again.  And a
    # full pass runs after 1000 middle-generation passes instead of 10 (young cycles are still
    # collected as usual; the server makes few cycles: game states are immutable trees).
    import gc
    gc.collect()
    gc.freeze()
    gc.set_threshold(700, 10, 1000)
    shown = "localhost" if args.host in ("0.0.0.0", "::") else args.host
    from sqlalchemy.engine import make_url
    out(f"ricochet: database {make_url(url).render_as_string(hide_password=True)}")
    out(f"ricochet: open http://{shown}:{args.port}/ in your browser (Ctrl+C to stop)")
    # h11 parses HTTP: it refuses a request line or headers over 16 KiB as they come, where
    # httptools would keep reading a header of any length into memory.  Sockets are unaffected
    # (they leave HTTP at the upgrade) and HTTP requests are few (lobby, room creation, replays).
    # No per-message compression: compressing every broadcast once per connection cost the event
    # loop about 14 % of its time under load (py-spy), inflating a flooder's frames more; the
    # messages are a few KiB of JSON.
    # X-Forwarded-For: believed only from --trusted-proxy (uvicorn's own default trusts 127.0.0.1,
    # which would let any local client name itself another address).
    trusted = ",".join(args.trusted_proxy)
    from ..server.frames import bounded_websocket_protocol
    from ..server.sockets import FLOOD_BACKLOG

    ws = bounded_websocket_protocol(FLOOD_BACKLOG) or "auto"
    config = uvicorn.Config(app, host=args.host, port=args.port, log_level=args.log_level, ws_max_size=65536, ws=ws,
                            timeout_graceful_shutdown=3, http=header_deadline_protocol(limits.header_seconds),
                            ws_per_message_deflate=False, proxy_headers=bool(trusted),
                            forwarded_allow_ips=trusted or None)
    try:
        sock = listening_socket(args.host, args.port)
        _serve(app, config, sock)
    except OSError as e:
        raise CliError(f"cannot listen on {args.host}:{args.port}: {e}") from None
    return 0


RECEIVE_BUFFER = 16 * 1024
"""Each connection's kernel receive buffer (``SO_RCVBUF``, which Linux doubles).  The web server
parses every frame of what it reads at once, so a client that writes as fast as it can (a
flooder's thousands of tiny messages) costs one parse of a whole buffer per read: about 100 ms of
the event loop for a default-sized one.  Small, it costs a few milliseconds, and TCP holds the
rest back while the connection is throttled.  Our messages are at most 4 KiB, requests 16 KiB."""


def listening_socket(host: str, port: int) -> socket.socket:
    """The server's socket, bound as uvicorn binds it, with :data:`RECEIVE_BUFFER` (the
    connections it accepts inherit it)."""
    sock = socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET, socket.SOCK_STREAM)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, RECEIVE_BUFFER)
        sock.bind((host, port))
    except OSError:
        sock.close()
        raise
    sock.set_inheritable(True)
    return sock


def header_deadline_protocol(seconds: float) -> Any:
    """uvicorn's HTTP protocol (h11) that closes a connection whose request headers have not all
    come within ``seconds`` of its opening or of the previous answer (a slow handshake, one
    header line now and then, holds a connection and its memory for nothing).  0: no deadline."""
    from uvicorn.protocols.http.h11_impl import H11Protocol

    if not seconds:
        return H11Protocol

    class HeaderDeadline(H11Protocol):
        _header_timer: asyncio.TimerHandle | None = None

        def _arm(self) -> None:
            self._disarm()
            armed = self.cycle
            self._header_timer = self.loop.call_later(seconds, self._header_timeout, armed)

        def _disarm(self) -> None:
            if self._header_timer is not None:
                self._header_timer.cancel()
                self._header_timer = None

        def _header_timeout(self, armed: Any) -> None:
            self._header_timer = None
            if self.cycle is armed and not self.transport.is_closing():  # no new request began since
                self.transport.close()

        def connection_made(self, transport: Any) -> None:  # type: ignore[override]
            super().connection_made(transport)
            self._arm()

        def on_response_complete(self) -> None:
            super().on_response_complete()
            self._arm()

        def handle_websocket_upgrade(self, event: Any) -> None:
            self._disarm()  # the socket's own deadlines (hello) take over
            super().handle_websocket_upgrade(event)

        def connection_lost(self, exc: Exception | None) -> None:
            self._disarm()
            super().connection_lost(exc)

    return HeaderDeadline


def _serve(app: Any, config: Any, sock: socket.socket) -> None:
    import uvicorn

    class Server(uvicorn.Server):
        """uvicorn that tells every player "server_restarting" before it closes their connections
        (on SIGINT or SIGTERM uvicorn's own shutdown closes them at once, saying nothing)."""

        async def shutdown(self, sockets: list[Any] | None = None) -> None:
            manager = getattr(app.state, "manager", None)
            if manager is not None:
                await manager.announce_restart()
            await super().shutdown(sockets)

    Server(config).run(sockets=[sock])


add_command("serve", "start the web server: play in the browser with friends and bots", build_serve, run_serve)
