"""Adapters that feed our puzzles to other solvers, for ``ricochet bench --peer-c`` and ``--peer-dd``.

Nothing of the other solvers is copied here: they are built by their own
build scripts from their public sources in a scratch directory (never in this
repository), and this module only talks to what they export.

The C solver (github.com/fogleman/Ricochet, ``ricochet.c``)
----------------------------------------------------------------
Built with its own ``build_ricochet`` script (``gcc -std=c99 -O3``), it is a
shared library whose ``search(Game *game, unsigned char *path, callback)``
returns the optimal number of moves.  Its input is a C struct that this
module fills from a :class:`~ricochet.puzzle.Puzzle`:

- ``grid[256]``: per cell (``x + 16 y``) the wall bits N=1, E=2, S=4, W=8 (the
  same bits as our ``Board.walls``) and 0x10 where a robot stands;
- ``moves[256]``: its own scratch (filled by ``search``);
- ``robots[4]``: the robots' cells, **the robot that must finish first**;
- ``token``: the target cell; ``last``: 0 (no previous move).

It knows 16×16 boards, four robots, one robot that must finish and plain rules
only; it has no blocked cells, so the sides that face a blocked cell (the
centre block) are given walls (a robot then stops where our engine stops it).
Puzzles it cannot express (any-robot "vortex" targets, other sizes or
robot counts, diagonals, towers, openings, rule variants) are reported as
such and left out of the comparison.

Build (in a scratch directory)::

    git clone https://github.com/fogleman/Ricochet /tmp/peer-c   # or any copy of its source
    cd /tmp/peer-c && sh build_ricochet                            # makes /tmp/peer-c/_ricochet
    .venv/bin/ricochet bench --peer-c /tmp/peer-c/_ricochet

The Java solver DriftingDroids (github.com/smack42/DriftingDroids)
------------------------------------------------------------------
Only its package ``driftingdroids.model`` is needed (the GUI and its layout
library are not).  ``benchmarks/DriftingDroidsHarness.java`` is our own small
program that builds its ``Board`` through the public API and calls
``Solver.createInstance(board).execute()`` (its iterative-deepening solver,
optimal, single-threaded) on the main thread: see that file's comment for the
line format, the timing and the choices.  :class:`DriftingDroids` compiles the
harness into a temporary directory against the given classpath, starts one JVM
per set (``-XX:ActiveProcessorCount=1 -XX:+UseSerialGC``), sends
:data:`DD_WARMUP` random puzzles first to warm up its JIT (not counted), then the
set, one line per puzzle (:func:`to_dd_line`), and reads one answer per line.

What it takes (:func:`dd_unsupported`): boards of 3 to 100 cells a side, one to
five robots, a blocked cell given as a cell walled on all four sides (which
DriftingDroids takes for an obstacle; the sides facing it are walled too), plain
rules.  Left out, because DriftingDroids answers another question there:

- any-robot "vortex" targets: its search for them demands that the robot
  reaching the target has turned on the way (the printed game's ricochet rule),
  which our plain rules do not (a 2-move vortex puzzle whose finishing robot
  goes straight is not answered 2; on real boards the lengths mostly agree all
  the same);
- puzzles whose robot is on the target or reaches it in one move, as its
  ``Board.isSolution01`` judges (answered "skip" by the harness): it then plays
  by its rule against one-move solutions, and its lengths are longer than
  ours, even than ours with ``must_ricochet``.

And what it cannot express: diagonals, towers, openings, rule variants, a
transparent robot, a robot on a cell walled on all four sides (an obstacle to
DriftingDroids).

Build (in a scratch directory; Java 8 or later)::

    git clone https://github.com/smack42/DriftingDroids /tmp/peer-dd   # or any copy of its source
    cd /tmp/peer-dd && mkdir -p build
    javac --release 8 -encoding UTF-8 -d build src/driftingdroids/model/*.java
    cp -r src/resource build/                # its messages bundle, loaded by Board
    jar cf driftingdroids-model.jar -C build .   # optional: a jar works as well as the directory
    .venv/bin/ricochet bench --peer-dd /tmp/peer-dd/build      # or /tmp/peer-dd/driftingdroids-model.jar
"""

from __future__ import annotations

import ctypes
import os
import shutil
import subprocess
import tempfile
import time
import zipfile
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from ricochet.geometry import Direction
from ricochet.position import Move
from ricochet.puzzle import Puzzle

ROBOT_BIT = 0x10
SIDES = ((0, -1, 1), (1, 0, 2), (0, 1, 4), (-1, 0, 8))  # dx, dy, wall bit: N, E, S, W


class _Game(ctypes.Structure):
    _fields_ = [("grid", ctypes.c_uint * 256), ("moves", ctypes.c_uint * 256), ("robots", ctypes.c_uint * 4),
                ("token", ctypes.c_uint), ("last", ctypes.c_uint)]


def c_unsupported(puzzle: Puzzle) -> str | None:
    """Why the C solver cannot take ``puzzle`` (None: it can)."""
    pos = puzzle.position
    board = pos.board
    if (board.width, board.height) != (16, 16):
        return "not a 16x16 board"
    if len(pos.robots) != 4:
        return "not four robots"
    if puzzle.active is None:
        return "any robot may finish (vortex)"
    return beyond_plain_rules(puzzle)


def beyond_plain_rules(puzzle: Puzzle) -> str | None:
    """What neither peer knows: diagonals, towers, openings, rule variants, the transparent robot."""
    pos = puzzle.position
    board = pos.board
    rules = puzzle.rules
    if board.diagonals or board.towers or board.openings:
        return "diagonals, towers or openings"
    if rules.no_straight_back or rules.must_ricochet or pos.last_move is not None:
        return "a rule variant"
    if any(r.color == "transparent" for r in pos.robots):
        return "a transparent robot"
    return None


def walls_with_blocks(puzzle: Puzzle) -> list[int]:
    """The board's wall masks (N=1, E=2, S=4, W=8, cell ``x + width * y``) with every side of a
    blocked cell and every side facing one walled: where neither peer knows blocked cells, a robot
    then stops where our engine stops it."""
    board = puzzle.position.board
    w, h = board.width, board.height
    blocked = board.blocked
    masks = []
    for y in range(h):
        for x in range(w):
            mask = board.walls[y * w + x]
            for dx, dy, bit in SIDES:
                if (x + dx, y + dy) in blocked or (x, y) in blocked:
                    mask |= bit
            masks.append(mask)
    return masks


def to_c_game(puzzle: Puzzle) -> _Game:
    """The C solver's ``Game`` struct for ``puzzle`` (see the module's doc)."""
    pos = puzzle.position
    game = _Game()
    for i, mask in enumerate(walls_with_blocks(puzzle)):
        game.grid[i] = mask
    assert puzzle.active is not None
    order = [puzzle.active] + [i for i in range(4) if i != puzzle.active]
    for k, i in enumerate(order):
        x, y = pos.robots[i].cell
        game.robots[k] = x + 16 * y
        game.grid[x + 16 * y] |= ROBOT_BIT
    tx, ty = puzzle.target
    game.token = tx + 16 * ty
    game.last = 0
    return game


@dataclass
class PeerRun:
    """One peer's results on a set: per puzzle the optimal length (None: left
    out) and seconds inside the peer's search call."""

    name: str
    lengths: list[int | None]
    seconds: list[float]
    skipped: dict[str, int]
    paths: list[list[Move] | None] = field(default_factory=list)
    """Per puzzle the peer's solution where it gives one (DriftingDroids does; empty for C)."""

    @property
    def total(self) -> float:
        return sum(self.seconds)

    @property
    def count(self) -> int:
        return sum(1 for n in self.lengths if n is not None)


class CSolver:
    """The C solver's shared library (``_ricochet`` from its ``build_ricochet``).

    It is ``interleaved``: ``ricochet bench`` hands it each puzzle in turn with our own
    ``solve`` of it, before ours on every other puzzle (:meth:`run_one`, then
    :meth:`collect`), so a slow spell of a shared machine hits both sides of the ratio
    alike (back to back, its time on the random set moved by ±15 % from run to run), and
    each side runs as often right after the other's search, with the caches as it left them."""

    name = "C (fogleman/Ricochet)"
    interleaved = True

    def __init__(self, path: str | Path) -> None:
        self.lib = ctypes.CDLL(str(Path(path).resolve()))
        self.lib.search.restype = ctypes.c_uint
        self.lib.search.argtypes = [ctypes.POINTER(_Game), ctypes.c_char_p, ctypes.c_void_p]

    def solve(self, puzzle: Puzzle) -> tuple[int, float]:
        """(optimal length, seconds inside ``search``); the struct is built before the clock starts."""
        game = to_c_game(puzzle)
        path = ctypes.create_string_buffer(256)
        t0 = time.perf_counter()
        n = self.lib.search(ctypes.byref(game), path, None)
        return int(n), time.perf_counter() - t0

    def run_one(self, puzzle: Puzzle) -> tuple[int | None, float, str | None]:
        """(optimal length, seconds) of one puzzle, or (None, 0, why it is left out)."""
        why = c_unsupported(puzzle)
        if why is not None:
            return None, 0.0, why
        n, dt = self.solve(puzzle)
        return n, dt, None

    def collect(self, results: Sequence[tuple[int | None, float, str | None]]) -> PeerRun:
        """The set's :class:`PeerRun` from :meth:`run_one`'s results, in puzzle order."""
        skipped = Counter(why for _, _, why in results if why is not None)
        return PeerRun(self.name, [n for n, _, _ in results], [dt for _, dt, _ in results], dict(skipped))

    def run(self, puzzles: Sequence[Puzzle]) -> PeerRun:
        return self.collect([self.run_one(p) for p in puzzles])


# -- DriftingDroids (Java) ----------------------------------------------------------------------
HARNESS = Path(__file__).resolve().with_name("DriftingDroidsHarness.java")
HARNESS_CLASS = "DriftingDroidsHarness"
DD_JAVA_OPTIONS = ("-XX:ActiveProcessorCount=1", "-XX:+UseSerialGC")
"""One core for the JVM: its garbage collector works on the solving thread (and is counted)."""
DD_WARMUP = 100
"""Warm-up puzzles sent before each set (``random_puzzles(1, …)``, the ones it takes), not counted."""
DD_MAX_SIDE = 100  # DriftingDroids' Board.WIDTH_MAX / HEIGHT_MAX
DD_MAX_CELLS = 4096  # its Board.SIZE_MAX
DD_MAX_ROBOTS = 5  # its robot colours (red, green, blue, yellow, silver)
_DD_DIRECTIONS = {"N": Direction.N, "E": Direction.E, "S": Direction.S, "W": Direction.W}


class PeerError(Exception):
    """A peer solver that cannot run (a tool missing, a wrong path, a failed build or run)."""


def dd_unsupported(puzzle: Puzzle) -> str | None:
    """Why DriftingDroids cannot take ``puzzle`` with our meaning (None: it can).  The harness
    leaves out one more kind itself: a robot on the target or one move from it (see the module)."""
    pos = puzzle.position
    board = pos.board
    if board.width > DD_MAX_SIDE or board.height > DD_MAX_SIDE or board.width * board.height > DD_MAX_CELLS:
        return "a board larger than DriftingDroids takes"
    if not 1 <= len(pos.robots) <= DD_MAX_ROBOTS:
        return "more than five robots"
    if puzzle.active is None:
        return "any robot may finish (vortex: DriftingDroids demands a ricochet)"
    if (why := beyond_plain_rules(puzzle)) is not None:
        return why
    masks = walls_with_blocks(puzzle)
    if any(masks[board.index(r.cell)] == 15 for r in pos.robots):
        return "a robot on a cell walled on all four sides (an obstacle to DriftingDroids)"
    return None


def to_dd_line(puzzle: Puzzle, label: str) -> str:
    """The harness's input line for ``puzzle`` (``LABEL WIDTH HEIGHT WALLS ROBOTS GOAL TARGET``,
    see ``DriftingDroidsHarness.java``), without the newline."""
    if not label or any(c.isspace() for c in label):
        raise ValueError(f"a label is one word, got {label!r}")
    pos = puzzle.position
    board = pos.board
    walls = "".join(f"{m:X}" for m in walls_with_blocks(puzzle))
    robots = ",".join(str(board.index(r.cell)) for r in pos.robots)
    goal = "*" if puzzle.active is None else str(puzzle.active)
    return f"{label} {board.width} {board.height} {walls} {robots} {goal} {board.index(puzzle.target)}"


@dataclass(frozen=True)
class DDAnswer:
    """One answer line of the harness: ``status`` is ``ok``, ``skip``, ``unsolved`` or ``error``."""

    label: str
    status: str
    moves: int | None = None
    nanos: int | None = None
    path: list[Move] | None = None
    reason: str = ""


def parse_dd_answer(line: str) -> DDAnswer:
    """Read one answer line of the harness (:class:`PeerError` for anything else)."""
    parts = line.rstrip("\n").split(" ")
    if len(parts) < 2:
        raise PeerError(f"DriftingDroids harness: unexpected answer {line!r}")
    label, status, rest = parts[0], parts[1], parts[2:]
    try:
        if status == "ok" and len(rest) == 3:
            moves, nanos = int(rest[0]), int(rest[1])
            path = [] if rest[2] == "-" else [Move(int(m[:-1]), _DD_DIRECTIONS[m[-1]]) for m in rest[2].split(",")]
            if len(path) != moves:
                raise ValueError(f"{moves} moves but a path of {len(path)}")
            return DDAnswer(label, status, moves, nanos, path)
        if status == "unsolved" and len(rest) == 1:
            return DDAnswer(label, status, nanos=int(rest[0]))
        if status in ("skip", "error"):
            return DDAnswer(label, status, reason=" ".join(rest))
    except (ValueError, KeyError) as e:
        raise PeerError(f"DriftingDroids harness: unreadable answer {line!r} ({e})") from None
    raise PeerError(f"DriftingDroids harness: unexpected answer {line!r}")


def _dd_classpath_error(classpath: Path) -> str | None:
    """Why ``classpath`` does not hold DriftingDroids' compiled model (None: it does)."""
    board = "driftingdroids/model/Board.class"
    bundle = "resource/driftingdroids-localization-model.properties"
    if not classpath.exists():
        return f"{classpath}: no such file or directory"
    if classpath.is_dir():
        names = {n for n in (board, bundle) if (classpath / n).is_file()}
    elif zipfile.is_zipfile(classpath):
        with zipfile.ZipFile(classpath) as jar:
            names = {n for n in (board, bundle) if n in jar.namelist()}
    else:
        return f"{classpath}: neither a directory of classes nor a jar"
    if board not in names:
        return f"{classpath}: no {board} (compile its src/driftingdroids/model/*.java into it with javac -d; see benchmarks/peers.py)"
    if bundle not in names:
        return f"{classpath}: no {bundle} (copy its src/resource next to the classes)"
    return None


class DriftingDroids:
    """DriftingDroids' optimal solver through ``benchmarks/DriftingDroidsHarness.java``, one JVM per
    :meth:`run`.  ``classpath``: a directory of its compiled ``driftingdroids.model`` classes (with
    its ``resource`` bundle) or a jar of them.  The harness is compiled here, into a temporary
    directory (:class:`PeerError` when ``javac``/``java`` are missing, the classpath is wrong or
    the harness does not compile)."""

    name = "DriftingDroids (smack42)"

    def __init__(self, classpath: str | Path, *, java: str = "java", javac: str = "javac",
                 java_options: Sequence[str] = DD_JAVA_OPTIONS, warmup: int = DD_WARMUP) -> None:
        self.classpath = Path(classpath).resolve()
        why = _dd_classpath_error(self.classpath)
        if why is not None:
            raise PeerError(why)
        found = {tool: shutil.which(tool) for tool in (java, javac)}
        missing = [tool for tool, where in found.items() if where is None]
        if missing:
            raise PeerError(f"{' and '.join(missing)} not found (a JDK, Java 8 or later, is needed)")
        self.java = str(found[java])
        self.java_options = list(java_options)
        self.warmup = warmup
        self._build = tempfile.TemporaryDirectory(prefix="ricochet-dd-")
        done = subprocess.run([str(found[javac]), "-nowarn", "-encoding", "UTF-8", "-cp", str(self.classpath),
                               "-d", self._build.name, str(HARNESS)], check=False, capture_output=True,
                              text=True)
        if done.returncode != 0:
            raise PeerError(f"javac could not compile {HARNESS.name} against {self.classpath}:\n"
                            + (done.stderr or done.stdout).strip())

    def answers(self, lines: Sequence[str], timeout: float | None = None) -> list[DDAnswer]:
        """Run the harness once on these input lines; one answer per line, in order."""
        cmd = [self.java, *self.java_options, "-cp", os.pathsep.join([self._build.name, str(self.classpath)]),
               HARNESS_CLASS]
        try:
            done = subprocess.run(cmd, input="".join(line + "\n" for line in lines), capture_output=True,
                                  text=True, timeout=timeout, check=False)
        except subprocess.TimeoutExpired:
            raise PeerError(f"DriftingDroids did not finish {len(lines)} puzzles within {timeout} s") from None
        out = done.stdout.splitlines()
        if done.returncode != 0 or len(out) != len(lines):
            raise PeerError(f"DriftingDroids harness: exit status {done.returncode}, {len(out)} answers to "
                            f"{len(lines)} puzzles: {done.stderr.strip()[-2000:]}")
        return [parse_dd_answer(line) for line in out]

    def run(self, puzzles: Sequence[Puzzle]) -> PeerRun:
        from ricochet.generate import random_puzzles

        warm = [p for p in random_puzzles(1, self.warmup) if dd_unsupported(p) is None]
        lines = [to_dd_line(p, f"warmup{i}") for i, p in enumerate(warm)]
        lengths: list[int | None] = [None] * len(puzzles)
        seconds = [0.0] * len(puzzles)
        paths: list[list[Move] | None] = [None] * len(puzzles)
        skipped: Counter[str] = Counter()
        for i, p in enumerate(puzzles):
            why = dd_unsupported(p)
            if why is not None:
                skipped[why] += 1
            else:
                lines.append(to_dd_line(p, f"p{i}"))
        for a in self.answers(lines):
            if a.label.startswith("warmup"):
                continue
            i = int(a.label[1:])
            if a.status == "ok":
                lengths[i] = a.moves
                seconds[i] = (a.nanos or 0) / 1e9
                paths[i] = a.path
            elif a.status == "skip":
                skipped[a.reason] += 1
            else:  # counted as left out, with the reason, so that the bench shows it and goes on
                why = "no solution found by DriftingDroids" if a.status == "unsolved" else f"error: {a.reason}"
                skipped[why] += 1
        return PeerRun(self.name, lengths, seconds, dict(skipped), paths)
