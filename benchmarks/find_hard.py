#!/usr/bin/env python3
"""Search for hard puzzles (long optimal solutions) on the real 16×16 tile boards.

Plain rules, four robots (red, green, blue, yellow; no silver), one active
robot, the target a printed chip of the active robot's colour.  For a board
and chip drawn at random the search hill-climbs the robot placement: move one
robot (anywhere, or a few cells away), keep the change when the optimal length
does not drop, restart on a new board/chip after ``--stale`` steps without an
improvement.  Every puzzle whose exact optimal length is at least
``--min-length`` (and the best of each climb with at least ``--keep``) is appended to ``--out`` as an interchange line with its
``optimal`` and an id ``hard-<tiles>-<n>-<length>``.

Scores come from :func:`ricochet.solver.solve` with a time limit; a timeout
still gives a lower bound ("none shorter than N moves"), used to keep
climbing, and a placement whose bound reaches ``--min-length`` is confirmed
with ``--confirm-limit`` seconds before it is written.  The random choices
come from ``--seed``; which placements time out depends on the machine, so
runs are reproducible only up to that.

    nice -n 10 .venv/bin/python benchmarks/find_hard.py --minutes 25 --out /tmp/hard-found.jsonl --log /tmp/hard.log
"""

from __future__ import annotations

import argparse
import json
import random
import re
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from ricochet.generate import BASE_COLORS
from ricochet.notation import puzzle_to_json
from ricochet.position import Position, Robot
from ricochet.puzzle import Puzzle
from ricochet.solver import solve
from ricochet.tiles import arrangements, assemble, format_arrangement, identify

CORNERS = [(0, 0), (15, 0), (0, 15), (15, 15)]
_BOUND = re.compile(r"none shorter than (\d+) moves")


def free_cells(board):  # type: ignore[no-untyped-def]
    taken = set(board.blocked) | {t.cell for t in board.targets} | {d.cell for d in board.diagonals}
    return [c for c in board.cells() if c not in taken]


def active_of(chip):  # type: ignore[no-untyped-def]
    return BASE_COLORS.index(chip.color)


_STEPS = ((0, -1, 1), (1, 0, 2), (0, 1, 4), (-1, 0, 8))  # dx, dy, wall bit: N, E, S, W


def solo_distances(board, target, helpers):  # type: ignore[no-untyped-def]
    """Moves the active robot alone needs from each cell to ``target`` when the
    helpers stay put (None: never).  Plain rules; a cheap guide for placements."""
    walls, blocked, occupied = board.walls, board.blocked, set(helpers)
    succ = {}
    for y in range(16):
        for x in range(16):
            if (x, y) in blocked or (x, y) in occupied:
                continue
            out = []
            for dx, dy, bit in _STEPS:
                cx, cy = x, y
                while not walls[cy * 16 + cx] & bit and (cx + dx, cy + dy) not in occupied \
                        and (cx + dx, cy + dy) not in blocked:
                    cx, cy = cx + dx, cy + dy
                if (cx, cy) != (x, y):
                    out.append((cx, cy))
            succ[(x, y)] = out
    pred: dict = {}
    for c, outs in succ.items():
        for o in outs:
            pred.setdefault(o, []).append(c)
    dist = {target: 0}
    frontier = [target]
    while frontier:
        nxt = []
        for c in frontier:
            for p in pred.get(c, ()):
                if p not in dist:
                    dist[p] = dist[c] + 1
                    nxt.append(p)
        frontier = nxt
    return {c: dist.get(c) for c in succ}


def evaluate(board, chip, cells, limit):  # type: ignore[no-untyped-def]
    """(length or lower bound, exact?, puzzle)."""
    active = BASE_COLORS.index(chip.color)
    pos = Position(board, tuple(Robot(c, cell) for c, cell in zip(BASE_COLORS, cells)))
    puzzle = Puzzle(pos, chip.cell, active)
    sol = solve(puzzle, max_moves=60, time_limit=limit)
    if sol.solved:
        return sol.length, True, puzzle, sol.seconds
    if sol.status == "timeout":
        m = _BOUND.search(sol.reason or "")
        return (int(m.group(1)) if m else 0), False, puzzle, sol.seconds
    return -1, True, puzzle, sol.seconds  # unsolvable / limit: useless


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--minutes", type=float, default=25.0, help="wall-clock budget (default 25)")
    ap.add_argument("--min-length", type=int, default=20)
    ap.add_argument("--keep", type=int, default=16,
                    help="also write the best puzzle of each climb when it has at least this many moves")
    ap.add_argument("--limit", type=float, default=6.0, help="seconds per evaluation while climbing")
    ap.add_argument("--confirm-limit", type=float, default=90.0, help="seconds to confirm a long candidate")
    ap.add_argument("--stale", type=int, default=60, help="steps without improvement before a restart (more for long puzzles)")
    ap.add_argument("--downhill", type=float, default=0.05,
                    help="probability of accepting a step one move shorter (default 0.05)")
    ap.add_argument("--out", type=Path, required=True, help="JSON Lines file to append finds to")
    ap.add_argument("--log", type=Path, default=None, help="progress log (default: stderr)")
    args = ap.parse_args(argv)

    log_file = open(args.log, "a", encoding="utf-8") if args.log else sys.stderr  # noqa: SIM115
    t_start = time.time()
    deadline = t_start + args.minutes * 60

    def log(msg: str) -> None:
        log_file.write(f"[{time.time() - t_start:7.1f}s] {msg}\n")
        log_file.flush()

    rng = random.Random(args.seed)
    boards = arrangements("AB")
    seen: set[tuple[object, ...]] = set()
    found = 0
    best_overall = 0
    restarts = 0
    evals = 0
    def write(pz: Puzzle, length: int, secs: float) -> None:
        nonlocal found
        cells = [r.cell for r in pz.position.robots]
        a = pz.active if pz.active is not None else 0
        name = format_arrangement(identify(pz.position.board) or ("?",) * 4)
        key = (name, pz.target, cells[a], frozenset(c for j, c in enumerate(cells) if j != a))
        if key in seen:
            return
        seen.add(key)
        found += 1
        obj = {"id": f"hard-{name}-{found}-{length}", **puzzle_to_json(pz)}
        obj["optimal"] = length
        with open(args.out, "a", encoding="utf-8") as f:
            f.write(json.dumps(obj) + "\n")
        log(f"  FOUND {obj['id']} ({secs:.1f}s to solve)")

    while time.time() < deadline:
        restarts += 1
        tiles = rng.choice(boards)
        board = assemble(*tiles)
        name = format_arrangement(tiles)
        chips = [t for t in sorted(board.targets) if t.color in BASE_COLORS]
        chip = rng.choice(chips)
        free = free_cells(board)
        fset = set(free)
        edge = [c for c in free if c[0] in (0, 15) or c[1] in (0, 15)]
        # Start from the best of a few placements: the robots in the corners (as in
        # the ASP 2015 set: robots there have little mobility), one per active corner,
        # and a random placement.
        starts = []
        if all(c in fset for c in CORNERS):
            for k in range(4):
                order = list(CORNERS)
                order[active_of(chip)], order[k] = order[k], order[active_of(chip)]
                starts.append(order)
        starts.append(rng.sample(free, 4))
        score, exact, cells = -2, True, starts[0]
        for st in starts:
            sc, ex, _, _ = evaluate(board, chip, st, args.limit)
            evals += 1
            if sc > score:
                score, exact, cells = sc, ex, st
        best = score
        stale = 0
        climb_best: tuple[int, Puzzle | None] = (0, None)
        log(f"restart {restarts}: {name} {chip.name} start {score}{'' if exact else '+'}")
        # Promising climbs get more patience: each move above 12 adds --stale steps.
        while stale < args.stale * (1 + max(0, best - 12)) and time.time() < deadline:
            new = list(cells)
            i = rng.randrange(4)
            u = rng.random()
            if u < 0.2:
                # Put the active robot where it is farthest from the target on its own
                # (or where it cannot get there alone), given the helpers.
                a = active_of(chip)
                helpers = [c for k, c in enumerate(new) if k != a]
                dist = solo_distances(board, chip.cell, helpers)
                options = [(d if d is not None else 99, c) for c, d in dist.items() if c in fset and c not in helpers]
                if rng.random() < 0.5:
                    top = max(d for d, _ in options)
                    options = [o for o in options if o[0] >= top - 1]
                else:
                    options = sorted(options, reverse=True)[:12]
                new[a] = rng.choice(options)[1]
                cand = None
            elif u < 0.3:
                # Swap the active robot with a helper.
                a = active_of(chip)
                j = rng.choice([k for k in range(4) if k != a])
                new[a], new[j] = new[j], new[a]
                cand = None
            elif u < 0.4:
                cand = rng.choice(free)
            elif u < 0.6:
                cand = rng.choice(edge)
            else:
                x, y = new[i]
                cand = (min(15, max(0, x + rng.randint(-3, 3))), min(15, max(0, y + rng.randint(-3, 3))))
                if cand not in fset:
                    continue
            if cand is not None:
                if cand in new:
                    continue
                new[i] = cand
            s, ex, pz, secs = evaluate(board, chip, new, args.limit)
            evals += 1
            if s >= args.min_length and not ex:
                log(f"  candidate >= {s} after {secs:.1f}s; confirming")
                s, ex, pz, secs = evaluate(board, chip, new, args.confirm_limit)
                log(f"  confirmed: {s}{'' if ex else '+ (still timing out)'} in {secs:.1f}s")
            if ex and s >= args.keep and s > climb_best[0]:
                climb_best = (s, pz)
            if s >= score or (s == score - 1 and rng.random() < args.downhill):
                stale = 0 if s > best else stale + 1
                best = max(best, s)
                cells, score, exact = new, s, ex
                if ex and s >= args.min_length:
                    write(pz, s, secs)
                if s > best_overall:
                    best_overall = s
                    log(f"  best so far {s}{'' if ex else '+'} ({name} {chip.name} {cells})")
            else:
                stale += 1
        if climb_best[1] is not None and climb_best[0] < args.min_length:
            write(climb_best[1], climb_best[0], 0.0)  # the best of a climb that stayed short
        log(f"  end of climb: {score}{'' if exact else '+'}")
    log(f"done: {restarts} climbs, {evals} evaluations, {found} puzzles written, "
        f"longest {best_overall}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
