"""``benchmarks/peers.py``: the DriftingDroids adapter behind ``ricochet bench --peer-dd``.

The encoding of a puzzle as a harness line, the reading of its answers and the
checks of a classpath are pure Python and always run.  The tests that run
DriftingDroids itself need its compiled ``driftingdroids.model`` (a directory or
a jar, built as the module's docstring says) named by ``RICOCHET_PEER_DD``, and
a JDK; they are skipped otherwise.
"""

from __future__ import annotations

import io
import os
import random
import re
import shutil
import time
import zipfile
from pathlib import Path
from typing import Any

import pytest

from ricochet import Board, Robot
from ricochet.board import Diagonal
from ricochet.cli import CliError
from ricochet.cli.bench import _peers_module, load_peers, run_benchmark
from ricochet.geometry import Direction
from ricochet.position import Move, Position
from ricochet.puzzle import Puzzle, check_solution
from ricochet.rules import GAME

peers: Any = _peers_module()

PEER_DD = os.environ.get("RICOCHET_PEER_DD")
needs_dd = pytest.mark.skipif(
    not PEER_DD or shutil.which("java") is None or shutil.which("javac") is None,
    reason="set RICOCHET_PEER_DD to DriftingDroids' compiled driftingdroids.model (a directory or a jar, "
           "see benchmarks/peers.py) and put a JDK on PATH to run DriftingDroids")


def small_puzzle(*, active: int | None = 1, wall_blocked: bool = True) -> Puzzle:
    """5 wide, 4 high: a wall east of (0,0), a blocked cell (2,2), two robots."""
    board = Board.build(5, 4, walls=[(0, 0, "E")], blocked=[(2, 2)], wall_blocked=wall_blocked)
    pos = Position(board, (Robot("red", (0, 3)), Robot("green", (4, 0))))
    return Puzzle(pos, (1, 0), active=active)


# -- the line sent to the harness ---------------------------------------------------------------
def test_dd_line_fields() -> None:
    fields = peers.to_dd_line(small_puzzle(), "p7").split(" ")
    assert fields[:3] == ["p7", "5", "4"]
    walls = fields[3]
    assert len(walls) == 20
    # Bits N=1 E=2 S=4 W=8 at x + 5 y: (0,0) border N and W plus the wall to its east; (1,0) that wall's
    # other side plus N; (2,2) the blocked cell closed on all sides; its neighbours walled towards it.
    assert walls[0] == "B" and walls[1] == "9"
    assert walls[2 + 5 * 2] == "F"
    assert walls[2 + 5 * 1] == "4" and walls[2 + 5 * 3] == "5" and walls[1 + 5 * 2] == "2" and walls[3 + 5 * 2] == "8"
    assert walls[4 + 5 * 3] == "6"  # the south-east corner: borders E and S
    assert fields[4:] == ["15,4", "1", "1"]  # robots at (0,3) and (4,0); robot 1 must finish; target (1,0)


def test_dd_line_blocked_cells_walled_either_way() -> None:
    """A blocked cell whose sides are not walled in ``Board.walls`` is walled in the line all the same
    (DriftingDroids takes a cell closed on four sides for an obstacle; our engine stops a robot in front
    of a blocked cell)."""
    assert peers.to_dd_line(small_puzzle(wall_blocked=False), "x") == peers.to_dd_line(small_puzzle(), "x")


def test_dd_line_any_robot_and_labels() -> None:
    assert peers.to_dd_line(small_puzzle(active=None), "v").split(" ")[5] == "*"
    for bad in ("", "two words", "tab\there"):
        with pytest.raises(ValueError, match="one word"):
            peers.to_dd_line(small_puzzle(), bad)


def test_dd_unsupported() -> None:
    assert peers.dd_unsupported(small_puzzle()) is None
    assert "vortex" in peers.dd_unsupported(small_puzzle(active=None))
    assert peers.dd_unsupported(small_puzzle().with_rules(GAME)) == "a rule variant"
    board = Board.build(5, 4, diagonals=[Diagonal((3, 1), "red", "/")])
    pos = Position(board, (Robot("red", (0, 3)), Robot("green", (4, 0))))
    assert peers.dd_unsupported(Puzzle(pos, (1, 0), active=0)) == "diagonals, towers or openings"
    colors = ("red", "green", "blue", "yellow", "silver", "transparent")
    six = Position(Board.build(6, 6), tuple(Robot(c, (x, 0)) for x, c in enumerate(colors)))
    assert peers.dd_unsupported(Puzzle(six, (3, 3), active=0)) == "more than five robots"
    boxed = Board.build(5, 4, walls=[(3, 1, "N"), (3, 1, "E"), (3, 1, "S"), (3, 1, "W")])
    pos = Position(boxed, (Robot("red", (3, 1)), Robot("green", (4, 0))))
    assert "walled on all four sides" in peers.dd_unsupported(Puzzle(pos, (1, 0), active=1))


# -- the harness's answers ------------------------------------------------------------------------
def test_parse_dd_answer() -> None:
    a = peers.parse_dd_answer("p3 ok 3 123456 1E,0N,1S\n")
    assert (a.label, a.status, a.moves, a.nanos) == ("p3", "ok", 3, 123456)
    assert a.path == [Move(1, Direction.E), Move(0, Direction.N), Move(1, Direction.S)]
    assert peers.parse_dd_answer("w ok 0 5 -").path == []
    skip = peers.parse_dd_answer("p4 skip a 0- or 1-move puzzle (x)")
    assert (skip.status, skip.reason) == ("skip", "a 0- or 1-move puzzle (x)")
    assert peers.parse_dd_answer("p5 unsolved 99").nanos == 99
    assert peers.parse_dd_answer("p6 error java.lang.OutOfMemoryError: Java heap space").reason.startswith("java.")
    for bad in ("p1", "p1 ok 2 10 1E", "p1 ok x 10 1E", "p1 ok 1 10 1Q", "p1 maybe 3", "p1 unsolved"):
        with pytest.raises(peers.PeerError):
            peers.parse_dd_answer(bad)


# -- the classpath and the tools --------------------------------------------------------------------
def fake_classpath(root: Path) -> Path:
    """A directory with the two files the adapter looks for (empty: not real classes)."""
    for name in ("driftingdroids/model/Board.class", "resource/driftingdroids-localization-model.properties"):
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_bytes(b"")
    return root


def test_classpath_errors(tmp_path: Path) -> None:
    with pytest.raises(peers.PeerError, match="no such file"):
        peers.DriftingDroids(tmp_path / "missing")
    with pytest.raises(peers.PeerError, match="Board.class"):
        peers.DriftingDroids(tmp_path)
    (tmp_path / "driftingdroids/model").mkdir(parents=True)
    (tmp_path / "driftingdroids/model/Board.class").write_bytes(b"")
    with pytest.raises(peers.PeerError, match="src/resource"):
        peers.DriftingDroids(tmp_path)
    jar = tmp_path / "empty.jar"
    with zipfile.ZipFile(jar, "w") as z:
        z.writestr("META-INF/MANIFEST.MF", "Manifest-Version: 1.0\n")
    with pytest.raises(peers.PeerError, match="Board.class"):
        peers.DriftingDroids(jar)
    text = tmp_path / "notes.txt"
    text.write_text("x")
    with pytest.raises(peers.PeerError, match="neither a directory of classes nor a jar"):
        peers.DriftingDroids(text)


def test_missing_tools(tmp_path: Path) -> None:
    cp = fake_classpath(tmp_path)
    with pytest.raises(peers.PeerError, match="no-such-javac not found"):
        peers.DriftingDroids(cp, javac="no-such-javac")


@pytest.mark.skipif(shutil.which("javac") is None, reason="no javac on PATH")
def test_harness_against_fake_classes(tmp_path: Path) -> None:
    with pytest.raises(peers.PeerError, match="javac could not compile"):
        peers.DriftingDroids(fake_classpath(tmp_path))


def test_load_peers_notes(tmp_path: Path) -> None:
    found, notes = load_peers(None, None)
    assert found == []
    assert any("--peer-c PATH" in n for n in notes) and any("--peer-dd PATH" in n for n in notes)
    with pytest.raises(CliError, match=r"^--peer-dd: cannot run DriftingDroids: .*nowhere: no such file"):
        load_peers(None, tmp_path / "nowhere")
    with pytest.raises(CliError, match=r"^--peer-c .*nowhere: no such file"):
        load_peers(tmp_path / "nowhere", None)
    (tmp_path / "not-a-library").write_text("no ELF here")
    with pytest.raises(CliError, match=r"^--peer-c .*not-a-library: cannot load the C solver"):
        load_peers(tmp_path / "not-a-library", None)


# -- DriftingDroids itself (RICOCHET_PEER_DD) ---------------------------------------------------------------
def odd_puzzles(seed: int, count: int) -> list[Puzzle]:
    """Puzzles unlike the benchmark's: boards of 4 to 9 cells a side (not square), a few walls, a blocked
    cell, one to five robots, one of them to finish."""
    from ricochet.solver import solve

    rng = random.Random(seed)
    out: list[Puzzle] = []
    while len(out) < count:
        w, h = rng.randint(4, 9), rng.randint(4, 9)
        cells = [(x, y) for y in range(h) for x in range(w)]
        blocked = rng.choice(cells)
        walls = [(*rng.choice(cells), rng.choice("NESW")) for _ in range(w * h // 4)]
        board = Board.build(w, h, walls=walls, blocked=[blocked])
        free = [c for c in cells if c != blocked]
        n = rng.randint(1, 5)
        picked = rng.sample(free, n + 1)
        robots = tuple(Robot(color, cell) for color, cell in zip(("red", "green", "blue", "yellow", "silver"), picked[:n]))
        p = Puzzle(Position(board, robots), picked[n], active=rng.randrange(min(n, 4)))
        sol = solve(p, max_moves=12)
        if sol.length is not None and sol.length >= 2:
            out.append(p)
    return out


@needs_dd
def test_driftingdroids_agrees_with_ours() -> None:
    from ricochet.generate import random_puzzles
    from ricochet.solver import solve

    puzzles = random_puzzles(2026, 40) + odd_puzzles(5, 25)
    dd = peers.DriftingDroids(str(PEER_DD), warmup=3)
    run = dd.run(puzzles)
    assert run.name == "DriftingDroids (smack42)"
    assert len(run.lengths) == len(run.seconds) == len(run.paths) == len(puzzles)
    taken = [i for i, n in enumerate(run.lengths) if n is not None]
    assert len(taken) >= 50, run.skipped
    assert set(run.skipped) <= {"any robot may finish (vortex: DriftingDroids demands a ricochet)",
                                "a 0- or 1-move puzzle (DriftingDroids then demands a ricochet)",
                                "a robot on a cell walled on all four sides (an obstacle to DriftingDroids)"}, run.skipped
    for i in taken:
        p = puzzles[i]
        assert run.lengths[i] == solve(p).length, p.code()
        path = run.paths[i]
        assert path is not None and len(path) == run.lengths[i]
        verdict = check_solution(p, path)
        assert verdict.ok, (p.code(), path, verdict.failure)
        assert run.seconds[i] > 0
    # The 0- and 1-move puzzles are left out by the harness itself, and they are counted.
    easy = [i for i, p in enumerate(puzzles) if p.active is not None and (solve(p).length or 0) <= 1]
    assert all(run.lengths[i] is None for i in easy)


@needs_dd
def test_bench_with_driftingdroids() -> None:
    out = io.StringIO()
    rows = run_benchmark(["random"], quick=True, jobs=1, peer_dd=Path(str(PEER_DD)), stream=out, startup=False)
    text = out.getvalue()
    assert rows[0].ok, text
    line = next(ln for ln in text.splitlines() if "DriftingDroids (smack42)" in ln and "random" in ln)
    assert line.rstrip().endswith("all equal"), text
    assert "left out (random, DriftingDroids (smack42))" in text


# -- the C solver, puzzle by puzzle beside ours ----------------------------------------------------------------
class PerPuzzlePeer:
    """A peer that takes each puzzle in turn with ours, as the C solver does: it answers our
    solver's length in 0.25 s, noting each puzzle in ``calls``."""

    name = "per-puzzle peer"
    interleaved = True

    def __init__(self, solve: Any, calls: list[tuple[str, str]] | None = None) -> None:
        self.solve, self.calls = solve, calls

    def run_one(self, puzzle: Puzzle) -> tuple[int | None, float, str | None]:
        if self.calls is not None:
            self.calls.append(("peer", puzzle.id))
        return self.solve(puzzle).length, 0.25, None

    def collect(self, results: list[tuple[int | None, float, str | None]]) -> Any:
        return peers.CSolver.collect(self, results)


def test_bench_interleaves_a_per_puzzle_peer(monkeypatch: pytest.MonkeyPatch) -> None:
    """An ``interleaved`` peer (the C solver) takes each puzzle in turn with our own solve of
    it, so that a slow spell of the machine hits both sides of the ratio: first on every
    other puzzle, so that each side runs as often after the other's search."""
    import ricochet.solver as solver_package
    from ricochet.cli.bench import _bench_set, format_peers
    from ricochet.generate import random_puzzles

    calls: list[tuple[str, str]] = []
    real = solver_package.solve

    def ours(puzzle: Puzzle, **kw: Any) -> Any:
        calls.append(("ours", puzzle.id))
        return real(puzzle, **kw)

    monkeypatch.setattr(solver_package, "solve", ours)
    puzzles = [p for p in random_puzzles(3, 8) if p.active is not None][:4]
    row = _bench_set("four", puzzles, 1, None, True, [PerPuzzlePeer(real, calls)])
    assert calls == [c for i, p in enumerate(puzzles)
                     for c in ((("ours", p.id), ("peer", p.id)) if i % 2 == 0 else (("peer", p.id), ("ours", p.id)))]
    assert row.ok and row.interleaved == ["per-puzzle peer"]
    name, taken, theirs, _ours, differ = row.peers[0]
    assert (name, taken, theirs, differ) == ("per-puzzle peer", 4, 1.0, 0)
    text = format_peers([row], [])
    assert "interleaved: per-puzzle peer took each puzzle in turn with ours, first on every other one" in text
    # The same puzzles by optimal length: the peer's 0.25 s each against ours, band by band.
    lengths = sorted(s.length for s in row.solutions)
    assert lengths == [6, 7, 8, 8]  # two bands: 4-6 and 7-9
    assert [(label, n, theirs) for label, n, theirs, _ in row.peer_bands[0][1]] == [("4-6", 1, 0.25),
                                                                                  ("7-9", 3, 0.75)]
    assert re.search(r"four +per-puzzle peer +4-6 \d+\.\d\d \(1\)  7-9 \d+\.\d\d \(3\)", text), text


def test_bench_times_ours_with_cold_tables_in_every_round() -> None:
    """The loop a peer is compared with starts with no board's tables built, even after other
    rounds solved the same set: the caches hold a whole set (and forked workers inherit them),
    and the C solver builds its tables on every call."""
    from ricochet.cli.bench import _bench_set
    from ricochet.generate import random_puzzles
    from ricochet.solver import solve
    from ricochet.solver.tables import search_tables

    class CountingPeer(PerPuzzlePeer):
        def run_one(self, puzzle: Puzzle) -> tuple[int | None, float, str | None]:
            built.append(search_tables.cache_info().currsize)
            return super().run_one(puzzle)

    built: list[int] = []
    # (By the game's rules: a puzzle of plain moves builds its tables on every call, in
    # plain.plain_astar, and keeps none.)
    puzzles = [p.with_rules(GAME) for p in random_puzzles(3, 8) if p.active is not None][:4]
    assert len({p.code().split(".")[0] for p in puzzles}) == 4  # four boards
    row = _bench_set("four", puzzles, 2, None, True, [CountingPeer(solve)], rounds=2)
    assert row.ok and len(row.rounds) == 2
    # Each board's tables built in this loop, the first time it is met (the peer takes every other
    # puzzle before ours: it sees 1 board, 1, 3, then 3).
    assert built == [1, 1, 3, 3]


def test_bench_times_ours_end_to_end(monkeypatch: pytest.MonkeyPatch) -> None:
    """Our side of a peer's ratio is the clock around each ``solve`` call, as a caller
    waits for it, not ``Solution.seconds`` (which leaves out the call's first and last
    microseconds): time spent in the call outside the search counts."""
    import ricochet.solver as solver_package
    from ricochet.cli.bench import _bench_set
    from ricochet.generate import random_puzzles

    real = solver_package.solve
    outside = 0.005  # each call's time outside the search, which Solution.seconds leaves out

    def ours(puzzle: Puzzle, **kw: Any) -> Any:
        sol = real(puzzle, **kw)
        time.sleep(outside)
        return sol

    monkeypatch.setattr(solver_package, "solve", ours)
    puzzles = [p for p in random_puzzles(3, 8) if p.active is not None][:4]
    row = _bench_set("four", puzzles, 1, None, True, [PerPuzzlePeer(real)])
    searched = sum(s.seconds for s in row.solutions)
    assert searched < 4 * outside  # (these four take well under 5 ms each)
    _name, _taken, _theirs, ours_seconds, _differ = row.peers[0]
    assert ours_seconds >= searched + 4 * outside
    assert all(seconds >= n * outside for _label, n, _theirs, seconds in row.peer_bands[0][1])
    assert row.wall1 == pytest.approx(ours_seconds)
    assert row.longest_one is not None and row.longest_one >= outside


def test_c_solver_run_one_and_collect_without_the_library() -> None:
    from ricochet.generate import random_puzzles

    c = object.__new__(peers.CSolver)  # no library needed for what it leaves out
    vortex = next(p for p in random_puzzles(2026, 200) if p.active is None)
    assert c.run_one(vortex) == (None, 0.0, peers.c_unsupported(vortex))
    run = c.collect([(5, 0.5, None), (None, 0.0, "why"), (7, 0.25, None)])
    assert (run.lengths, run.total, run.count, run.skipped) == ([5, None, 7], 0.75, 2, {"why": 1})


def test_bench_sums_the_short_puzzles_against_a_peer() -> None:
    """The solver issue's measure, short puzzles (1-5 moves) summed: the peer's 0.25 s each
    against ours, on those puzzles only, in its own line."""
    from ricochet.cli.bench import SHORT_MAX, _bench_set, format_peers
    from ricochet.generate import random_puzzles
    from ricochet.solver import solve

    candidates = [p for p in random_puzzles(5, 30) if p.active is not None]
    lengths = {p.id: solve(p).length for p in candidates}
    short = [p for p in candidates if 1 <= (lengths[p.id] or 0) <= SHORT_MAX][:2]
    long = [p for p in candidates if (lengths[p.id] or 0) > SHORT_MAX][:2]
    assert len(short) == 2 and len(long) == 2
    row = _bench_set("mixed", short + long, 1, None, True, [PerPuzzlePeer(solve)])
    ((name, n, theirs, ours),) = row.peer_short
    assert (name, n, theirs) == ("per-puzzle peer", 2, 0.5)
    assert 0 < ours < row.peers[0][3]  # ours on the two short ones, less than on all four
    text = format_peers([row], [])
    assert re.search(rf"short puzzles \(1-{SHORT_MAX} moves\), summed, ours/peer:\n  mixed +per-puzzle peer +"
                     r"\d+\.\d\d \(2 puzzles: peer 500\.00 ms, ours ", text), text
