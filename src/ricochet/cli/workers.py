"""``ricochet serve --workers N``: N worker processes behind HAProxy, on one machine.

The workers are ``ricochet serve --cluster-name wK`` on ports ``--port + K`` of 127.0.0.1, on
the same database (SQLite here; PostgreSQL for several machines: ``docs/deploy.md``), each
room held by exactly one of them (:mod:`ricochet.server.cluster`).  HAProxy listens on
``--host:--port`` and routes each room to one worker (:mod:`ricochet.server.proxy`).  This
process watches them: a worker that exits is started again (its leases given back first: it
is known to be dead), HAProxy exiting stops everything; Ctrl+C or SIGTERM stops the workers
(each tells its players "server_restarting") and the proxy.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from . import CliError
from .shared import out

__all__ = ["run_workers", "worker_command"]

RESTART_DELAY = 1.0
WORKER_START_SECONDS = 120.0


def _wait_healthy(ports: dict[str, int], procs: dict[str, subprocess.Popen[bytes]], timeout: float) -> bool:
    """Wait until every worker answers ``/api/health`` (False: one exited, or the time ran out)."""
    import urllib.request

    end = time.monotonic() + timeout
    waiting = dict(ports)
    while waiting and time.monotonic() < end:
        for name, port in list(waiting.items()):
            if procs[name].poll() is not None:
                return False
            with contextlib.suppress(OSError, ValueError), \
                    urllib.request.urlopen(f"http://127.0.0.1:{port}/api/health", timeout=2) as r:
                if r.status == 200:
                    del waiting[name]
        time.sleep(0.2)
    return not waiting


def worker_command(args: argparse.Namespace, url: str, name: str, port: int) -> list[str]:
    """The command line of worker ``name`` on ``port`` (127.0.0.1), with this command's options."""
    cmd = [sys.executable, "-m", "ricochet", "serve", "--host", "127.0.0.1", "--port", str(port), "--database", url,
           "--cluster-name", name, "--trusted-proxy", "127.0.0.1", "--log-level", args.log_level,
           "--trainer-pool", str(args.trainer_pool)]
    for flag, values in (("--limit", args.limit), ("--allow-origin", args.allow_origin),
                         ("--allowed-host", args.allowed_host)):
        for v in values:
            cmd += [flag, v]
    return cmd


async def _clear(url: str, name: str) -> int:
    from ..server.cluster import Cluster
    from ..server.storage import Storage

    st = await Storage.open(url, migrate=False)
    try:
        return await Cluster.clear_owner(st, name)
    finally:
        await st.close()


def run_workers(args: argparse.Namespace, url: str) -> int:
    from ..server.proxy import haproxy_config, haproxy_path

    haproxy = haproxy_path()
    if haproxy is None:
        raise CliError("--workers runs the workers behind HAProxy, which is not installed: apt-get install haproxy "
                       "(or run each worker with --cluster-name behind your own proxy: docs/deploy.md)")
    if args.port + args.workers > 65535:
        raise CliError(f"--port {args.port}: the workers need the {args.workers} ports after it")
    names = [f"w{k}" for k in range(1, args.workers + 1)]
    ports = {name: args.port + k for k, name in enumerate(names, 1)}
    folder = Path(tempfile.mkdtemp(prefix="ricochet-workers-"))
    cfg = folder / "haproxy.cfg"
    cfg.write_text(haproxy_config(args.host, args.port, [(n, "127.0.0.1", ports[n]) for n in names]))
    procs: dict[str, subprocess.Popen[bytes]] = {}

    def start(name: str) -> None:
        procs[name] = subprocess.Popen(worker_command(args, url, name, ports[name]))

    stopping = False

    def stop(*_: object) -> None:
        nonlocal stopping
        stopping = True

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    for name in names:
        start(name)
    # HAProxy once every worker answers: from its first check on, it sees them all (a worker
    # seen late would take its share of rooms from the others, their players moved at once).
    if not _wait_healthy(ports, procs, WORKER_START_SECONDS):
        for p in procs.values():
            p.kill()
        raise CliError(f"the workers did not all answer within {WORKER_START_SECONDS:.0f} s")
    proxy = subprocess.Popen([haproxy, "-db", "-f", str(cfg)])
    shown = "localhost" if args.host in ("0.0.0.0", "::") else args.host
    out(f"ricochet: {args.workers} workers on 127.0.0.1:{args.port + 1}-{args.port + args.workers} behind HAProxy "
        f"({cfg})")
    out(f"ricochet: open http://{shown}:{args.port}/ in your browser (Ctrl+C to stop)")
    code = 0
    try:
        while not stopping:
            time.sleep(0.2)
            if proxy.poll() is not None:
                out(f"ricochet: HAProxy exited with {proxy.returncode}: stopping the workers")
                code = 1
                break
            for name, p in list(procs.items()):
                if p.poll() is not None and not stopping:
                    cleared = asyncio.run(_clear(url, name))
                    out(f"ricochet: worker {name} exited with {p.returncode}; {cleared} rooms given back; "
                        f"starting it again")
                    time.sleep(RESTART_DELAY)
                    start(name)
    finally:
        for p in procs.values():
            if p.poll() is None:
                p.send_signal(signal.SIGTERM)
        deadline = time.monotonic() + 15
        for p in procs.values():
            with contextlib.suppress(subprocess.TimeoutExpired):
                p.wait(timeout=max(0.1, deadline - time.monotonic()))
            if p.poll() is None:
                p.kill()
        if proxy.poll() is None:
            proxy.terminate()
            with contextlib.suppress(subprocess.TimeoutExpired):
                proxy.wait(timeout=5)
        if proxy.poll() is None:
            proxy.kill()
        with contextlib.suppress(OSError):
            cfg.unlink()
            folder.rmdir()
    return code
