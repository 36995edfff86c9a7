"""Micro Robots on the command line: ``solve --game micro-robots`` per issue 9's
format, ``random --game micro-robots`` round-tripping through it, ``show``."""

from __future__ import annotations

import itertools
import json
import subprocess
import sys
from pathlib import Path

from ricochet.games.micro_robots.engine import SHIPPED, Arrangement, MicroBoard, reachable_exactly


def ricochet(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "ricochet", *args], input=stdin, capture_output=True, text=True,
                          timeout=60, check=False)


def test_solve_shortest_and_exact_routes(tmp_path: Path) -> None:
    lines = [{"id": "seed", "start": [3, 5], "target": [1, 3]},            # seed 002: 1 pink -> 2 white
             {"id": "x7", "start": [3, 5], "target": [1, 3], "exactly": 7},
             {"id": "x1", "start": [3, 5], "target": [1, 3], "exactly": 1}]
    path = tmp_path / "in.jsonl"
    path.write_text("\n".join(json.dumps(x) for x in lines) + "\n")
    run = ricochet("solve", "--game", "micro-robots", str(path))
    assert run.returncode == 1, run.stderr  # as ricochet solve: a request without a route ("x1")
    assert ricochet("solve", "--game", "micro-robots", "-", stdin=json.dumps(lines[0])).returncode == 0
    out = [json.loads(x) for x in run.stdout.splitlines()]
    assert [o["id"] for o in out] == ["seed", "x7", "x1"]
    assert out[0]["moves"] == 5 and out[0]["route"][0] == [3, 5] and out[0]["route"][-1] == [1, 3]
    assert out[1]["moves"] == 7 and len(out[1]["route"]) == 8
    for o in out[:2]:
        cells = [tuple(c) for c in o["route"]]
        assert all(SHIPPED.is_move(a, b) for a, b in itertools.pairwise(cells))
    assert out[2] == {"id": "x1", "moves": None, "route": None, "reason": "no route of exactly 1 moves"}


def test_solve_with_other_cells_and_bad_lines(tmp_path: Path) -> None:
    board = MicroBoard.arranged(Arrangement.parse("C1A0D2B3"))
    good = {"id": 1, "start": [0, 0], "target": [5, 5], "exactly": 6, "cells": board.to_json()}
    bad = ['{"start": [6, 0], "target": [0, 0]}', "[1, 2", '{"start": [0, 0]}',
           '{"start": [0, 0], "target": [1, 1], "exactly": -1}', '{"start": [0,0], "target": [1,1], "speed": 3}',
           '{"start": [0, 0], "target": [1, 1], "cells": [[]]}', "[" * 3000, '{"id": "m9", "start": [0, 9], "target": [0, 0]}']
    run = ricochet("solve", "--game", "micro-robots", "-", stdin="\n".join([json.dumps(good), *bad]) + "\n")
    assert run.returncode == 2 and "Traceback" not in run.stderr  # as ricochet solve: a malformed line
    out = [json.loads(x) for x in run.stdout.splitlines()]
    # The answers to bad lines have ricochet solve's shape, and each is said on stderr too.
    assert all(o["moves"] is None and o["line"] == n for n, o in enumerate(out[1:], 2))
    assert [o["id"] for o in out[1:]] == [None] * 7 + ["m9"]  # (the line's own id where it gives one)
    assert len(run.stderr.splitlines()) == 8 and "stdin: line 3: not valid JSON" in run.stderr
    assert (out[0]["moves"] is not None) == ((5, 5) in reachable_exactly(board, (0, 0), 6)[6])
    errors = [o["error"] for o in out[1:]]
    assert "start must be [row, col]" in errors[0] and errors[1] == "not valid JSON"
    assert "missing 'target'" in errors[2] and "exactly must be" in errors[3] and "unknown field 'speed'" in errors[4]
    assert errors[5].startswith("cells:") and errors[6] == "not valid JSON" and "start must be" in errors[7]
    assert ricochet("solve", "--game", "micro-robots", str(Path("/nonexistent/x.jsonl"))).returncode == 2


def test_random_round_trips_through_solve_and_show() -> None:
    run = ricochet("random", "--game", "micro-robots", "--seed", "5", "--count", "20", "--arrangement", "random",
                   "--format", "json")
    assert run.returncode == 0, run.stderr
    requests = [json.loads(x) for x in run.stdout.splitlines()]
    assert len(requests) == 20 and all(r["start"] != r["target"] and "cells" in r for r in requests)
    payload = "\n".join(json.dumps({k: v for k, v in r.items() if k != "optimal"}) for r in requests)
    answers = [json.loads(x) for x in ricochet("solve", "--game", "micro-robots", "-", stdin=payload).stdout.splitlines()]
    assert [a["moves"] for a in answers] == [r["optimal"] for r in requests]
    shown = ricochet("show", "--game", "micro-robots", "-", stdin=json.dumps(answers[0] | {"cells": requests[0]["cells"]}))
    assert shown.returncode == 0 and "S" in shown.stdout and "*" in shown.stdout
    assert ricochet("random", "--game", "micro-robots", "--layout", "easy").returncode == 2
    assert "arrangement" in ricochet("show", "--game", "micro-robots", "--arrangement", "Z9").stderr
