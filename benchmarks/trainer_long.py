#!/usr/bin/env python3
"""Find long Ricochet Robots training puzzles (14 to 21 moves) ahead of time,
and pack them into the data file the server ships.

Search: :func:`ricochet.trainer.long.climb` (hill-climbing robot placements
under the trainer's rules: must ricochet, no moving straight back), both
styles in turn, every find appended to ``--found`` (JSON Lines) as it comes::

    nice -n 10 .venv/bin/python benchmarks/trainer_long.py search --minutes 40 --found /tmp/long.jsonl

or climbing on from the longest found so far (``--start-from``, ``--start-min``).

Re-solve: positions found for other rules (``ricochet/data/sets/hard.jsonl``: plain rules, where the
trainer's rules can only lengthen a solution) under the trainer's rules, the exact 14 to 21 appended
to ``--found``::

    nice -n 10 .venv/bin/python benchmarks/trainer_long.py resolve src/ricochet/data/sets/hard.jsonl --found /tmp/long.jsonl

Pack: up to ``--per-length`` puzzles of each length and style from one or more
found files, each re-solved and checked (the solver with no clock, so the
optimum is exact), into ``src/ricochet/data/trainer-long.json`` with its
provenance (this script, the seeds, the date, the rules)::

    nice -n 10 .venv/bin/python benchmarks/trainer_long.py pack /tmp/long.jsonl
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from ricochet.trainer.long import climb, long_lengths
from ricochet.trainer.puzzles import TrainerPuzzle, from_code
from ricochet.trainer.spec import spec_of

GAME = "ricochet-robots"
LONG_LENGTHS = long_lengths(GAME) or (14, 21)
RULES = spec_of(GAME).rules  # type: ignore[attr-defined]

DATA = ROOT / "src" / "ricochet" / "data" / "trainer-long.json"


def search(args: argparse.Namespace) -> int:
    deadline = time.monotonic() + args.minutes * 60
    t0 = time.monotonic()
    count = 0

    def save(tp: TrainerPuzzle) -> None:
        nonlocal count
        count += 1
        line = {"game": tp.game, "style": tp.style, "code": tp.code, "optimal": tp.optimal, "seed": args.seed,
                "found_after_s": round(time.monotonic() - t0, 1)}
        with open(args.found, "a", encoding="utf-8") as f:
            f.write(json.dumps(line) + "\n")
        print(f"[{time.monotonic() - t0:7.1f}s] {tp.optimal:2d} moves {tp.style} {tp.code}", flush=True)

    if args.start_from is not None:  # climb on from the longest puzzles found before
        from ricochet.trainer.long import ClimbState, climb_slice, new_climb

        rows = [json.loads(line) for line in args.start_from.read_text(encoding="utf-8").splitlines() if line.strip()]
        starts = [r for r in rows if r["optimal"] >= args.start_min]
        while time.monotonic() < deadline and starts:
            for k, row in enumerate(starts):
                left = deadline - time.monotonic()
                if left <= 0:
                    break
                rng = new_climb(GAME, row["style"], f"{args.seed}:{k}").rng
                state = ClimbState(GAME, row["style"], rng, row["code"], row["optimal"], row["optimal"], 0)
                climb_slice(state, LONG_LENGTHS, min(left, args.slice * 60), solve_limit=args.solve_limit, found=save)
        print(f"done: {count} puzzles in {time.monotonic() - t0:.0f} s", flush=True)
        return 0
    round_no = 0
    while time.monotonic() < deadline:
        for style in ("classic", "diagonals"):
            left = deadline - time.monotonic()
            if left <= 0:
                break
            climb(GAME, style, LONG_LENGTHS, f"{args.seed}:{round_no}", min(left, args.slice * 60),
                  solve_limit=args.solve_limit, found=save)
        round_no += 1
    print(f"done: {count} puzzles in {time.monotonic() - t0:.0f} s", flush=True)
    return 0


def resolve(args: argparse.Namespace) -> int:
    from ricochet.notation import puzzle_code, puzzle_from_json
    from ricochet.puzzle import Puzzle
    from ricochet.solver import solve

    lo, hi = LONG_LENGTHS
    for line in Path(args.file).read_text(encoding="utf-8").splitlines():
        if not line.strip():
            continue
        raw = puzzle_from_json(json.loads(line))
        pz = Puzzle(raw.position, raw.target, raw.active)
        t = time.monotonic()
        sol = solve(pz, RULES, max_moves=hi, time_limit=args.solve_limit)
        took = time.monotonic() - t
        code = puzzle_code(pz)
        print(f"{json.loads(line)['id']}: {sol.status} {sol.length} in {took:.0f} s", flush=True)
        if sol.solved and sol.length is not None and lo <= sol.length <= hi:
            tp = from_code(GAME, code, time_limit=None)
            row = {"game": GAME, "style": tp.style, "code": tp.code, "optimal": tp.optimal, "seed": f"resolve:{Path(args.file).name}",
                   "found_after_s": round(took, 1)}
            with open(args.found, "a", encoding="utf-8") as f:
                f.write(json.dumps(row) + "\n")
    return 0


def pack(args: argparse.Namespace) -> int:
    seen: dict[str, dict[str, object]] = {}
    for path in args.found:
        for line in Path(path).read_text(encoding="utf-8").splitlines():
            if line.strip():
                row = json.loads(line)
                seen.setdefault(row["code"], row)
    chosen: dict[tuple[str, int], list[dict[str, object]]] = {}
    # A climb meets many near-twins (one robot moved): at most one per board and target per length,
    # and three per board and target in all, so the puzzles differ.
    same_length: set[tuple[str, str, int]] = set()
    same_chip: dict[tuple[str, str], int] = {}
    for code, row in sorted(seen.items(), key=lambda kv: (-kv[1]["optimal"], kv[0])):  # type: ignore[index, operator]
        key = (str(row["style"]), int(row["optimal"]))  # type: ignore[call-overload]
        board, _, target = code.split(".")
        if len(chosen.setdefault(key, [])) >= args.per_length or (board, target, key[1]) in same_length \
                or same_chip.get((board, target), 0) >= 3:
            continue
        t = time.monotonic()
        tp = from_code(GAME, code, time_limit=None)  # exact: the solver with no clock
        if tp.optimal != row["optimal"] or not LONG_LENGTHS[0] <= tp.optimal <= LONG_LENGTHS[1]:
            print(f"skipped {code}: optimal {tp.optimal}, the search said {row['optimal']}")
            continue
        seed = str(row.get("seed", ""))
        chosen[key].append({"game": tp.game, "style": tp.style, "code": tp.code, "optimal": tp.optimal,
                            "solution": [list(m) for m in tp.solution],
                            "found_by": seed if seed.startswith("resolve:") else f"climb, seed {seed}"})
        same_length.add((board, target, key[1]))
        same_chip[(board, target)] = same_chip.get((board, target), 0) + 1
        print(f"{tp.optimal:2d} {tp.style:9s} {code} re-solved in {time.monotonic() - t:.1f} s", flush=True)
    puzzles = [p for key in sorted(chosen) for p in chosen[key]]
    doc = {
        "provenance": {
            "made_by": "benchmarks/trainer_long.py (search, then pack)",
            "method": "hill-climbing robot placements on random real boards (ricochet.trainer.long.climb), "
                      "and the plain-rules positions of ricochet/data/sets/hard.jsonl solved under the trainer's rules "
                      "(found_by says which); every optimum re-solved exactly by ricochet.solver with no time limit",
            "rules": {"must_ricochet": RULES.must_ricochet, "no_straight_back": RULES.no_straight_back},
            "packed": dt.date.today().isoformat(),
            "sources": [Path(p).name for p in args.found],
        },
        "puzzles": puzzles,
    }
    DATA.write_text(json.dumps(doc, indent=0, separators=(",", ":")) + "\n", encoding="utf-8")
    counts: dict[int, int] = {}
    for p in puzzles:
        counts[int(p["optimal"])] = counts.get(int(p["optimal"]), 0) + 1  # type: ignore[call-overload]
    print(f"wrote {len(puzzles)} puzzles to {DATA}: {dict(sorted(counts.items()))}")
    return 0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="command", required=True)
    s = sub.add_parser("search", help="climb for long puzzles, appending finds to --found")
    s.add_argument("--minutes", type=float, default=30.0)
    s.add_argument("--slice", type=float, default=5.0, help="minutes per style before switching (default 5)")
    s.add_argument("--seed", default="2026")
    s.add_argument("--solve-limit", type=float, default=8.0, help="seconds per solve while climbing")
    s.add_argument("--found", type=Path, required=True)
    s.add_argument("--start-from", type=Path, default=None,
                   help="climb on from the puzzles of this found file (at least --start-min moves)")
    s.add_argument("--start-min", type=int, default=19)
    r = sub.add_parser("resolve", help="solve a JSON Lines file's puzzles under the trainer's rules")
    r.add_argument("file", type=Path)
    r.add_argument("--solve-limit", type=float, default=300.0)
    r.add_argument("--found", type=Path, required=True)
    p = sub.add_parser("pack", help="re-solve finds and write the shipped data file")
    p.add_argument("found", nargs="+", type=Path)
    p.add_argument("--per-length", type=int, default=6, help="puzzles kept per length and style (default 6)")
    args = ap.parse_args(argv)
    return {"search": search, "resolve": resolve, "pack": pack}[args.command](args)


if __name__ == "__main__":
    raise SystemExit(main())
