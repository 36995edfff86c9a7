#!/usr/bin/env python
"""The server's CPU per move, in process: no sockets, no client processes, no other load.

    .venv/bin/python benchmarks/move_cost.py                 # 40 rooms x 4 players, 3000 moves
    .venv/bin/python benchmarks/move_cost.py --profile 25    # and cProfile's 25 costliest functions
    .venv/bin/python benchmarks/move_cost.py --rooms 120     # demonstrations of 25 moves, as in load.py

It runs on uvloop where uvloop is installed, as the server does (``--asyncio-loop``: asyncio's
own loop; handing work to a thread costs far more there).

Each room's demonstration goes on until the moves are spread over the rooms: 3000 moves over 40
rooms is 75 moves each.  The bytes a move sends (its messages to the room's 4 players, framed) are
reported too.

The rooms, sessions, game and database (a SQLite file, its group-commit writer thread) are the
server's own (:class:`ricochet.server.manager.RoomManager`); each player is a :class:`Session`
whose connection only frames what it is sent (what a socket's writer would do).  The
demonstrators play legal moves as ``benchmarks/load.py`` does; the process's CPU time (every
thread: the database writer too) is counted around each move's handling — from the text of the
move to its broadcast to every player of the room, stored — and divided by the moves.  What a
real server adds per move (uvicorn reading the frame, the kernel's send calls) is not in it:
``benchmarks/load.py`` reports the whole ("server CPU ms per move").
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import json
import pstats
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT / "src") not in sys.path:
    sys.path.insert(0, str(ROOT / "src"))
sys.path.insert(0, str(ROOT / "benchmarks"))


async def run(rooms: int, moves: int, profile: int) -> dict[str, Any]:
    import load  # the load benchmark's room options and move picker

    from ricochet.server.limits import ServerLimits
    from ricochet.server.manager import RoomManager
    from ricochet.server.session import Session
    from ricochet.server.solving import SolverService
    from ricochet.server.storage import Storage

    clock = [time.time()]
    tmp = Path(tempfile.mkdtemp(prefix="ricochet-move-cost-"))
    storage = await Storage.open(f"sqlite+aiosqlite:///{tmp / 'cost.db'}")
    manager = RoomManager(storage, now=lambda: clock[0], realtime=False, solver=SolverService("thread"),
                          bots=False, limits=ServerLimits.unlimited())
    cfg = load.LoadConfig(rooms=rooms)
    games = ["ricochet-robots"] * rooms
    options = {"ricochet-robots": load.room_options(cfg, "ricochet-robots")}
    from ricochet.server import protocol as P

    worker = load.Worker({"players": 4, "rate": 2.0, "moves_per_player": 10 ** 6, "options": options,
                          "indices": list(range(rooms)), "room_ids": [""] * rooms, "games": games, "seed": 1})
    sent = [0, 0]  # messages, bytes framed

    def send(out: Any) -> bool:
        sent[0] += 1
        sent[1] += len(out.frame)  # a socket's writer would frame it
        return True

    tables = []
    for i in range(rooms):
        room = await manager.create_room(P.normalize_options(options["ricochet-robots"]))
        players = []
        for k in range(4):
            s = Session(manager, room, send, lambda code, reason: None, address=f"127.0.0.{k}")
            await s.receive(json.dumps({"type": "hello", "protocol": 2, "name": f"P{i}-{k}"}))
            players.append(s)
        await players[0].receive(json.dumps({"type": "start"}))
        for s in players:
            await s.receive(json.dumps({"type": "bid", "moves": 99}))
        tables.append((room, players, worker.rooms[i]))
    clock[0] += 600
    await manager.tick_all()
    cpu = 0.0
    done = 0
    move_bytes = 0
    prof = cProfile.Profile(time.process_time) if profile else None
    while done < moves:
        for room, players, run_ in tables:
            state = room.view(None)
            rnd = state.get("round") or {}
            if state["phase"] != "demonstration":
                clock[0] += 700
                await manager.tick_all()
                continue
            me = next(s for s in players if s.player == rnd["demonstrator"])
            choice = worker.pick_move(run_, state)
            assert choice is not None
            text = json.dumps({"type": "move", "robot": choice[0], "direction": choice[1], "ref": f"m{done}"})
            if prof is not None:
                prof.enable()
            t0, b0 = time.process_time(), sent[1]
            await me.receive(text)
            cpu += time.process_time() - t0
            move_bytes += sent[1] - b0
            if prof is not None:
                prof.disable()
            done += 1
    await manager.close()
    await storage.close()
    out = {"rooms": rooms, "moves": done, "cpu_ms_per_move": 1000 * cpu / done, "messages_per_move": sent[0] / done,
           "bytes_per_move": move_bytes / done}
    if prof is not None:
        stats = pstats.Stats(prof)
        stats.sort_stats("tottime").print_stats(profile)
        stats.sort_stats("cumulative").print_stats(profile)
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rooms", type=int, default=40)
    ap.add_argument("--moves", type=int, default=3000)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--profile", type=int, default=0, metavar="N", help="print cProfile's N costliest functions")
    ap.add_argument("--asyncio-loop", action="store_true",
                    help="asyncio's own event loop even where uvloop is installed (the server runs on uvloop then)")
    a = ap.parse_args()
    loop = "asyncio"
    if not a.asyncio_loop:
        try:  # the loop the server runs on: uvicorn takes uvloop where it is installed
            import uvloop  # type: ignore[import-not-found]

            asyncio.set_event_loop_policy(uvloop.EventLoopPolicy())
            loop = "uvloop"
        except ImportError:
            pass
    results = [asyncio.run(run(a.rooms, a.moves, a.profile)) for _ in range(a.repeat if not a.profile else 1)]
    for r in results:
        print(f"{r['rooms']} rooms, {r['moves']} moves: {r['cpu_ms_per_move']:.3f} ms of CPU per move "
              f"(in process, no sockets, {loop}); {r['bytes_per_move'] / 1024:.1f} KiB sent per move")
    best = min(r["cpu_ms_per_move"] for r in results)
    print(f"best of {len(results)}: {best:.3f} ms per move")
    return 0


if __name__ == "__main__":
    sys.exit(main())
