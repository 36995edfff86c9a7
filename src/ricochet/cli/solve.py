"""The ``solve`` sub-command of the ``ricochet`` command line.

``ricochet solve SOURCE`` reads interchange puzzles (JSON Lines, ``-`` for
stdin) or one puzzle (a JSON object, an ASCII diagram such as seed 003's, a
position code) and prints one JSON object per puzzle, in input order, as soon
as it is known (each line is flushed)::

    {"id": "001-ricochetrobot-12-0", "moves": 12, "solution": [[0, "S"], ...], "seconds": 0.21}
    {"id": "x", "moves": null, "reason": "no solution within 40 moves", "seconds": 0.5}
    {"id": "y", "line": 7, "moves": null, "error": "line 7: field 'robots': ..."}

Importing this module registers the command in :data:`ricochet.cli.COMMANDS`
(``ricochet bench``, the solver benchmark, is :mod:`ricochet.cli.bench`'s).
"""

from __future__ import annotations

import argparse
import contextlib
import io
import itertools
import json
import os
import queue
import stat
import sys
import threading
import time
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from concurrent.futures import Future
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, TextIO

from ..puzzle import Puzzle
from ..rules import PLAIN, Rules
from . import EXIT_FAIL, EXIT_INTERNAL, EXIT_OK, EXIT_USAGE, CliError, add_command
from .hooks import GameOptions
from .shared import add_rules_argument, named_rules, names_a_file, parse_source

if TYPE_CHECKING:
    from ..solver import Solution, SolverError

__all__ = ["answer", "build_solve", "run_solve", "solve_batch", "solve_stream"]


# -- solving one puzzle (in this process or in a worker) -------------------------------------
@dataclass(frozen=True)
class _Options:
    max_moves: int = 40
    time_limit: float | None = None
    all_solutions: bool = False
    fewest_robots: bool = False
    check: bool = False
    max_solutions: int = 1000
    threads: int = 1


# What ``answer`` says about a puzzle, for the exit status.
SOLVED, UNSOLVED, MISMATCH, INTERNAL = "solved", "unsolved", "mismatch", "internal"


def answer(puzzle: Puzzle, options: _Options) -> tuple[dict[str, Any], str]:
    """The output object of one puzzle and its outcome (``solved``, ``unsolved``,
    ``mismatch`` with ``--check``, ``internal`` for a solver error)."""
    from ..solver import SolverError, solve

    try:
        sol = solve(puzzle, **_solve_options(options), threads=options.threads)
    except SolverError as e:
        return _answer_of(puzzle, e, options)
    return _answer_of(puzzle, sol, options)


def _solve_options(options: _Options) -> dict[str, Any]:
    """:func:`~ricochet.solver.solve`'s options from the command line's (less ``threads``)."""
    return {"max_moves": options.max_moves, "time_limit": options.time_limit,
            "all_solutions": options.all_solutions, "fewest_robots": options.fewest_robots,
            "max_solutions": options.max_solutions, "check": options.check}


def _answer_of(puzzle: Puzzle, sol: Solution | SolverError, options: _Options) -> tuple[dict[str, Any], str]:
    """:func:`answer`'s object and outcome for a solution (or a solver error) already at hand."""
    from ..notation import solution_to_json
    from ..solver import SolverError

    if isinstance(sol, SolverError):
        return {"id": puzzle.id, "moves": None, "error": f"internal solver error: {sol}"}, INTERNAL
    obj = sol.to_json()
    if options.all_solutions and sol.solved:
        obj["solutions"] = [solution_to_json(alt) for alt in sol.alternatives or (sol.moves,)]
        if len(sol.alternatives) >= options.max_solutions:
            obj["solutions_truncated"] = True
    outcome = SOLVED if sol.solved else UNSOLVED
    if options.check:
        ok = None if puzzle.optimal is None else sol.length == puzzle.optimal
        obj["optimal_ok"] = ok
        if ok is False and outcome == SOLVED:
            outcome = MISMATCH
    # `seconds` last, as in the documented object.
    obj["seconds"] = obj.pop("seconds")
    return obj, outcome


def _with_threads(options: _Options, threads: int) -> _Options:
    return options if threads == options.threads else replace(options, threads=threads)


def _answer_chunk(puzzles: Sequence[Puzzle], options: _Options, threads: Sequence[int]
                  ) -> list[tuple[dict[str, Any], str]]:
    """``answer`` of each puzzle in a worker, on its own number of ``threads`` (:func:`deal_threads`)."""
    if any(n > 1 for n in threads):
        from ..solver.batch import threads_sleep_while_waiting

        threads_sleep_while_waiting()
    return [answer(p, _with_threads(options, n)) for p, n in zip(puzzles, threads, strict=True)]


def _noop() -> int:
    return os.getpid()


# -- the stream: input order in, input order out ----------------------------------------------
@dataclass
class _Entry:
    line: int
    item: Any  # Puzzle or NotationError
    future: Future[list[tuple[dict[str, Any], str]]] | None = None
    index: int = 0

    @property
    def ready(self) -> bool:
        return not isinstance(self.item, Puzzle) or (self.future is not None and self.future.done())


_EOF = object()


def solve_stream(items: Iterable[tuple[int, Any]], options: _Options, jobs: int = 1, chunksize: int = 1,
                 threads: Mapping[int, int] | None = None
                 ) -> Iterator[tuple[int, Any, tuple[dict[str, Any], str] | None]]:
    """Solve ``(line, Puzzle | NotationError)`` items as they come (standard
    input, one puzzle; a file goes to :func:`solve_batch`); yield ``(line, item,
    (object, outcome) or None for an error)`` in input order, each as soon as it
    and everything before it is done.  With ``jobs`` > 1 the puzzles go to a
    pool of forked worker processes, ``chunksize`` at a time; the input is
    read by a thread, so a slow producer (a pipe) still gets its answers.
    ``threads``: threads for the puzzle of a line, where not ``options.threads``
    (:func:`deal_threads`)."""
    from ..notation import NotationError

    dealt = threads or {}
    if jobs <= 1:
        for line, item in items:
            yield line, item, (None if isinstance(item, NotationError)
                               else answer(item, _with_threads(options, dealt.get(line, options.threads))))
        return

    from ..solver.api import warm_up
    from ..solver.batch import _worker_pool

    warm_up()  # in this process, so forked workers inherit the kernels
    with _worker_pool(jobs) as pool:  # (its workers ended on Ctrl-C, a closed pipe, an error)
        # Start every worker now, before the reader thread exists (fork + threads).
        for f in [pool.submit(_noop) for _ in range(jobs)]:
            f.result()
        inbox: queue.Queue[Any] = queue.Queue(maxsize=max(64, jobs * chunksize * 8))

        def reader() -> None:
            try:
                for got in items:
                    inbox.put(got)
            except BaseException as e:  # noqa: BLE001 -- handed to the main thread
                inbox.put(e)
            inbox.put(_EOF)

        threading.Thread(target=reader, name="ricochet-solve-reader", daemon=True).start()
        pending: deque[_Entry] = deque()
        batch: list[_Entry] = []
        in_flight = 0  # puzzles pending (submitted or batched)
        limit = jobs * chunksize * 4
        eof = False

        def submit() -> None:
            if batch:
                fut = pool.submit(_answer_chunk, [e.item for e in batch], options,
                                  [dealt.get(e.line, options.threads) for e in batch])
                for k, e in enumerate(batch):
                    e.future, e.index = fut, k
                batch.clear()

        while True:
            while pending and pending[0].ready:
                e = pending.popleft()
                if isinstance(e.item, Puzzle):
                    in_flight -= 1
                    assert e.future is not None
                    yield e.line, e.item, e.future.result()[e.index]
                else:
                    yield e.line, e.item, None
            if eof and not pending:
                break
            if not eof and in_flight < limit:
                try:
                    got = inbox.get(timeout=None if not pending else 0.002)
                except queue.Empty:
                    submit()  # the input is slow: do not hold a partial chunk back
                    continue
                if got is _EOF:
                    eof = True
                    submit()
                    continue
                if isinstance(got, BaseException):
                    raise got
                line, item = got
                entry = _Entry(line, item)
                pending.append(entry)
                if isinstance(item, Puzzle):
                    in_flight += 1
                    batch.append(entry)
                    if len(batch) >= chunksize:
                        submit()
                continue
            # Enough work queued (or no more input): wait for the oldest.
            head = pending[0]
            if head.future is None:
                submit()
            assert head.future is not None
            head.future.result()


def solve_batch(items: Sequence[tuple[int, Any]], options: _Options, cores: int, threads_given: bool = False,
                progress: Callable[[int], object] | None = None
                ) -> Iterator[tuple[int, Any, tuple[dict[str, Any], str] | None]]:
    """:func:`solve_stream` for input read in full (a file): the puzzles go
    to :func:`~ricochet.solver.batch.solve_as_answered` on ``cores``, scheduled
    as :func:`~ricochet.solver.solve_many` schedules them (the likely-long
    ones first, cheap ones in chunks, a late long one searched again on
    threads, spare cores dealt as threads to a batch smaller than ``cores``),
    and each answer is yielded in input order as soon as it and everything
    before it are in.  ``threads_given``: ``options.threads`` was asked for
    (``--threads``), so no cores are dealt as threads.  ``progress``: called
    with the number of items known (answered or malformed) as answers come
    in, which is ahead of the output: a puzzle that came out cheap waits for
    the long ones before it in the file."""
    from ..solver.batch import solve_as_answered

    where = [k for k, (_, item) in enumerate(items) if isinstance(item, Puzzle)]  # item index per batch index
    answers: dict[int, tuple[dict[str, Any], str]] = {}
    head = 0  # the first item not yet yielded

    def ready() -> Iterator[tuple[int, Any, tuple[dict[str, Any], str] | None]]:
        nonlocal head
        while head < len(items):
            line, item = items[head]
            if isinstance(item, Puzzle):
                if head not in answers:
                    return
                yield line, item, answers.pop(head)
            else:
                yield line, item, None
            head += 1

    solve_options = _solve_options(options)
    if threads_given:
        solve_options["threads"] = options.threads
    malformed = len(items) - len(where)
    tell = None if progress is None else (lambda answered, _total: progress(malformed + answered))
    with contextlib.closing(solve_as_answered([items[k][1] for k in where], processes=cores, progress=tell,
                                              **solve_options)) as batch:
        yield from ready()
        for j, sol in batch:
            answers[where[j]] = _answer_of(items[where[j]][1], sol, options)
            yield from ready()
    yield from ready()


# -- ricochet solve ------------------------------------------------------------------------------
SOLVE_EPILOG = """\
output: one JSON object per puzzle, in input order, each flushed as soon as it and
those before it are known (a file's likely-long puzzles are solved first):
  {"id": ..., "moves": N, "solution": [[robot_index, "N"|"E"|"S"|"W"], ...], "seconds": ...}
  a transparent robot's move is [robot_index, "N", [x, y]] (where it stops);
  unsolved: "moves": null and "reason"; --all adds "solutions" (every optimal
  solution); --check replays every answer through the engine and adds
  "optimal_ok" (true/false, null when the file gives no "optimal");
  a malformed line: {"id": ..., "line": N, "moves": null, "error": "..."}
  ("id": the line's own if it has one, else null; a message on stderr too;
  the other lines are still solved).
  --format text: one line per puzzle instead, "5 moves: RN RE RN YE RS".

rules: --rules, else plain (which plays a board with towers as Ricochet Pyramids
does: the goal tower does not block); a puzzle's own "rules" key adds to them.

exit status:
  0  every puzzle solved (and, with --check, at its recorded optimal length)
  1  some puzzle got no solution (unsolvable, none within --max-moves, --time-limit),
     or with --check a length differs from the recorded optimal
  2  a malformed line (or a missing/unreadable file, a bad option); takes precedence over 1
  70 an internal solver error (a bug)
"""


def build_solve(parser: argparse.ArgumentParser) -> None:
    parser.formatter_class = argparse.RawDescriptionHelpFormatter
    parser.epilog = SOLVE_EPILOG
    parser.add_argument("file", metavar="SOURCE",
                        help="puzzles in the JSON Lines interchange format, or one puzzle: a JSON object, an "
                             "ASCII diagram or a position code (a file, or the code itself); '-': stdin")
    add_rules_argument(parser)
    parser.set_defaults(game_options=GameOptions(
        parser, "solve", "a game whose puzzles are not the engine's (its lines and answers are its own; "
        "without --game: puzzles of the library's engine, boards with towers too)"))
    parser.add_argument("--format", choices=("json", "text"), default="json",
                        help="json (default: one JSON object per puzzle) or text (the moves, e.g. RN GE)")
    parser.add_argument("--max-moves", type=int, default=40, metavar="N",
                        help="give up beyond N moves (default 40; at most 250)")
    parser.add_argument("--time-limit", type=float, default=None, metavar="S",
                        help="give up on a puzzle after S seconds (default: no limit)")
    parser.add_argument("--all", dest="all_solutions", action="store_true",
                        help='also list every optimal solution ("solutions"; at most --max-solutions, then '
                             '"solutions_truncated": true)')
    parser.add_argument("--max-solutions", type=int, default=1000, metavar="N",
                        help="with --all, list at most N solutions (default 1000)")
    parser.add_argument("--fewest-robots", action="store_true",
                        help="among optimal solutions, give one that moves the fewest robots")
    parser.add_argument("--jobs", "-j", type=int, default=None, metavar="N",
                        help="worker processes (default: all cores, divided by --threads; 1: solve in this process); "
                             "a file's puzzles (also '- < FILE') are scheduled as solve_many schedules them (the "
                             "likely-long ones first, cheap ones in chunks), the answers still in input order; a "
                             "pipe's go out one by one as they come")
    parser.add_argument("--threads", type=int, default=None, metavar="N",
                        help="threads per puzzle (default 1; with fewer puzzles than --jobs, the spare cores "
                             "are dealt out as threads to the puzzles that need helper moves and that the threaded "
                             "search takes): for a few long "
                             "puzzles, e.g. --jobs 1 --threads 16; a puzzle the threaded search does not take "
                             "(several robots may finish, rule variants, more than 4 robots or 16x16 cells) "
                             "runs on one")
    parser.add_argument("--check", action="store_true",
                        help='replay every answer through the engine and compare with the file\'s "optimal" '
                             '(adds "optimal_ok")')
    parser.add_argument("--progress", action="store_true",
                        help="show progress on stderr (puzzles done / total, elapsed time)")


def _jobs(value: int | None) -> int:
    """``--jobs``: the number of worker processes (None or 0: every core).

    The bound is a sanity bound, as for ``--threads``: a typo such as 9999 would
    otherwise fork a process per puzzle.
    """
    from ..solver.api import MAX_THREADS

    if value is None or value == 0:
        return os.cpu_count() or 1
    if not 1 <= value <= MAX_THREADS:
        raise CliError(f"--jobs must be from 1 to {MAX_THREADS} (0: all cores), got {value}")
    return value


def _time_limit(value: float | None) -> float | None:
    """``--time-limit``: None (no limit) or a positive number of seconds."""
    if value is not None and not value > 0:
        raise CliError(f"--time-limit must be a positive number of seconds, got {value:g}")
    return value


def _processes(jobs: int | None, threads: int) -> int:
    """``--jobs`` as given, else (None, 0) the cores divided by ``--threads``:
    every core busy, none twice.

    >>> import os; cores = os.cpu_count() or 1
    >>> _processes(3, 4), _processes(None, 1) == cores, _processes(0, 2) == max(1, cores // 2)
    (3, True, True)
    """
    return _jobs(jobs) if jobs else max(1, _jobs(jobs) // threads)


def deal_threads(items: Sequence[tuple[int, Any]], cores: int, max_moves: int = _Options.max_moves) -> dict[int, int]:
    """Threads per line for a run of fewer puzzles than ``cores``: what
    :func:`~ricochet.solver.batch.share_cores` deals them by their
    :func:`~ricochet.solver.api.effort_estimate`, to the puzzles whose search
    takes threads (:func:`~ricochet.solver.api.takes_threads`); the lines left
    out get one.

    >>> from ricochet.puzzle import Puzzle
    >>> code = "1A3B4A2A.r52ge9bdey0e.y63"
    >>> deal_threads([(1, Puzzle.from_code(code)), (2, ValueError("a malformed line"))], 8)
    {1: 8}
    """
    from ..solver.api import effort_estimate, takes_threads
    from ..solver.batch import share_cores

    lines = [(line, item) for line, item in items if isinstance(item, Puzzle)]
    shares = share_cores([effort_estimate(p) for _, p in lines], cores,
                         [takes_threads(p, max_moves=max_moves) for _, p in lines])
    return {line: n for (line, _), n in zip(lines, shares, strict=True) if n > 1}


def _open_source(source: str, rules: Rules | None) -> tuple[Iterable[tuple[int, Any]], str, int | None]:
    """The puzzles of the input as ``(line, Puzzle | NotationError)``, its name for
    messages, and the number of puzzles when known (JSON Lines from a pipe are read as
    they come; standard input redirected from a file is read in full, as a file is).
    JSON Lines are the interchange format; any other text is one puzzle
    (a JSON object over several lines, an ASCII diagram, a position code)."""
    if source == "-":
        if _is_regular_file(sys.stdin):
            # `ricochet solve - < FILE`: a file after all, read in full (and so scheduled as one).
            try:
                return _from_text(sys.stdin.read(), "stdin", rules)
            except UnicodeDecodeError:
                raise CliError("stdin: not a UTF-8 text file") from None
        return _from_stream(rules)
    if not names_a_file(source):
        # Not a file: a position code given on the command line (a typo gets both readings).
        try:
            return _one(parse_source(source, "SOURCE", rules=rules)), "SOURCE", 1
        except CliError as e:
            raise CliError(f"{source}: no such file, and {e}") from None
    try:
        with open(source, encoding="utf-8") as f:
            text = f.read()
    except UnicodeDecodeError:
        raise CliError(f"{source}: not a UTF-8 text file") from None
    except FileNotFoundError:
        raise CliError(f"{source}: no such file") from None
    return _from_text(text, source, rules)


def _is_regular_file(stream: TextIO) -> bool:
    """Whether ``stream`` is backed by a regular file (a shell's ``< FILE``), not a pipe or a terminal."""
    try:
        return stat.S_ISREG(os.fstat(stream.fileno()).st_mode)
    except (AttributeError, OSError, ValueError, io.UnsupportedOperation):
        return False  # (a StringIO in tests, a closed stream)


def _from_stream(rules: Rules | None) -> tuple[Iterable[tuple[int, Any]], str, int | None]:
    """Standard input as it comes: JSON Lines read line by line (the number of puzzles unknown), else one puzzle."""
    head: list[str] = []
    for line in sys.stdin:
        head.append(line)
        if line.strip():
            break
    if head and head[-1].lstrip().startswith("{"):
        return _parse_lines(itertools.chain(head, sys.stdin), rules), "stdin", None
    return _one(parse_source("".join(head) + sys.stdin.read(), "stdin", rules=rules)), "stdin", 1


def _from_text(text: str, name: str, rules: Rules | None) -> tuple[Iterable[tuple[int, Any]], str, int | None]:
    """A whole input's puzzles: JSON Lines (counted), else one puzzle in any notation."""
    stripped = text.strip()
    if stripped.startswith("{"):
        try:
            single = json.loads(stripped)
        except json.JSONDecodeError:
            single = None  # several objects: JSON Lines (or a malformed line, reported as such)
        if not isinstance(single, dict) or "\n" not in stripped:
            lines = text.splitlines()
            return _Lines(lines, rules), name, sum(1 for ln in lines if ln.strip())
    return _one(parse_source(text, name, from_file=True, rules=rules)), name, 1


# A file's lines while forked processes parse them (inherited: a task is a range of line indices).
_PARSING: list[str] = []
PARALLEL_READ_MIN = 256  # lines: fewer are read here (forking the readers costs more than they save)
READ_CHUNK = 512  # lines per reading task


@dataclass
class _Lines:
    """A file's JSON Lines, read in full and parsed as they are iterated, or on
    several processes at once by :meth:`parsed`."""

    lines: list[str]
    rules: Rules | None

    def __iter__(self) -> Iterator[tuple[int, Any]]:
        return _parse_lines(self.lines, self.rules)

    def parsed(self, processes: int, while_waiting: Callable[[], object] = lambda: None) -> list[tuple[int, Any]]:
        """Every ``(line, Puzzle | NotationError)``, parsed on ``processes``
        forked processes in chunks of :data:`READ_CHUNK` lines: reading a board
        (its walls, targets and robots validated) costs about 0.2 ms, which
        in this process alone would outweigh solving short puzzles on many
        cores.  This process calls ``while_waiting`` meanwhile (the solver's
        warm-up) and takes the parsed puzzles back, pickled (unpickling costs
        a fifth of the reading).  Fewer than :data:`PARALLEL_READ_MIN` lines, or one
        process: read here."""
        global _PARSING
        if processes <= 1 or len(self.lines) < PARALLEL_READ_MIN:
            while_waiting()
            return list(self)
        from ..solver.batch import _worker_pool

        starts = range(0, len(self.lines), READ_CHUNK)
        _PARSING = self.lines
        try:
            with _worker_pool(min(processes, len(starts))) as pool:
                chunks = [pool.submit(_parse_chunk, start, self.rules) for start in starts]  # (forks the readers)
                while_waiting()
                return [item for chunk in chunks for item in chunk.result()]
        finally:
            _PARSING = []


def _read_ahead(items: Iterable[tuple[int, Any]], size: int = READ_CHUNK) -> Iterator[tuple[int, Any]]:
    """``items`` read :data:`READ_CHUNK` at a time, each chunk before its first is handed on: a
    file solved here (``--jobs 1``) then reads a chunk of lines, then solves them one after the
    other, the solver's code and tables staying in the processor's caches between short puzzles
    (about 5 % of the random set's time against reading each line just before its puzzle), in
    memory bounded by the chunk (not the file: a file of a million puzzles is read as it is solved)."""
    it = iter(items)
    while chunk := list(itertools.islice(it, size)):
        yield from chunk


def _parse_lines(lines: Iterable[str], rules: Rules | None, first_line: int = 1) -> Iterator[tuple[int, Any]]:
    """JSON Lines as ``(line, Puzzle | NotationError)``, read on top of ``rules`` (plain without)."""
    from ..notation import read_jsonl

    return read_jsonl(lines, PLAIN if rules is None else rules, first_line=first_line)


def _parse_chunk(start: int, rules: Rules | None) -> list[tuple[int, Any]]:
    """In a reading process: the inherited lines ``start`` to ``start + READ_CHUNK``, parsed."""
    return list(_parse_lines(_PARSING[start:start + READ_CHUNK], rules, first_line=start + 1))


def _one(obj: Any) -> list[tuple[int, Any]]:
    if not isinstance(obj, Puzzle):
        raise CliError("this is a position without a target (or a board alone); solve needs a puzzle")
    return [(1, obj)]


class _Progress:
    def __init__(self, enabled: bool, total: int | None, stream: TextIO | None = None) -> None:
        self.enabled, self.total = enabled, total
        self.stream = stream or sys.stderr
        self.t0 = time.perf_counter()
        self.done = 0
        try:
            self.tty = self.stream.isatty()
        except (AttributeError, ValueError):
            self.tty = False

    def step(self) -> None:
        self.update(self.done + 1)

    def update(self, done: int) -> None:
        """``done`` puzzles (or malformed lines) known so far."""
        self.done = done
        if not self.enabled:
            return
        total = "?" if self.total is None else str(self.total)
        text = f"solve: {self.done}/{total} puzzles, {time.perf_counter() - self.t0:.1f} s elapsed"
        self.stream.write(("\r" + text) if self.tty else text + "\n")
        self.stream.flush()

    def finish(self, summary: str) -> None:
        if self.enabled:
            self.stream.write(("\n" if self.tty and self.done else "") + summary + "\n")
            self.stream.flush()


def _text_answer(obj: dict[str, Any], puzzle: Puzzle) -> str:
    """One line for people: ``[id: ]5 moves: RN RE`` (the robots' letters), or why not."""
    from ..notation import format_solution, solution_from_json

    head = f"{obj['id']}: " if obj.get("id") is not None else ""
    if obj.get("moves") is None:
        return head + "no solution: " + str(obj.get("reason") or obj.get("error") or "unknown")
    n = obj["moves"]
    lines = [head + f"{n} move{'s' if n != 1 else ''}: "
             + format_solution(solution_from_json(obj["solution"], puzzle.position), puzzle.position)]
    # --all: every other optimal solution, one per line.
    lines += ["  or: " + format_solution(solution_from_json(alt, puzzle.position), puzzle.position)
              for alt in obj.get("solutions", []) if alt != obj["solution"]]
    return "\n".join(lines)


def run_solve(args: argparse.Namespace) -> int:
    """Solve every puzzle of a JSON Lines file (or one puzzle); see the epilog for output and exit status."""
    from ..notation import NotationError

    hook = args.game_options.hook(args)
    solved = hook.solve(args) if hook is not None else None
    if solved is not None:
        return solved
    if not 0 <= args.max_moves <= 250:
        raise CliError(f"--max-moves must be from 0 to 250, got {args.max_moves}")
    _time_limit(args.time_limit)
    if args.max_solutions < 1:
        raise CliError(f"--max-solutions must be 1 or more, got {args.max_solutions}")
    from ..solver.api import MAX_THREADS

    if args.threads is not None and not 1 <= args.threads <= MAX_THREADS:
        raise CliError(f"--threads must be from 1 to {MAX_THREADS}, got {args.threads}")
    threads = args.threads or 1
    cores = jobs = _processes(args.jobs, threads)
    items, name, total = _open_source(args.file, named_rules(args))
    if total == 0:
        raise CliError(f"{name}: no puzzles (expected one JSON object per line)")
    options = _Options(max_moves=args.max_moves, time_limit=args.time_limit, all_solutions=args.all_solutions,
                       fewest_robots=args.fewest_robots, check=args.check, max_solutions=args.max_solutions,
                       threads=threads)
    progress = _Progress(args.progress, total)
    dealt: dict[int, int] = {}
    if total is not None:
        jobs = max(1, min(jobs, total))
    batch = total is not None and total > 1 and cores > 1
    if batch:
        # A file read in full: solve_many's schedule (by effort, cheap puzzles in
        # chunks, spare cores as threads), answers still in input order.
        from ..solver import warm_up

        # (Only JSON Lines hold more than one puzzle.)  Read on every core while the solver loads its kernels here.
        assert isinstance(items, _Lines)
        results = solve_batch(items.parsed(cores, while_waiting=warm_up), options, cores, threads_given=args.threads is not None,
                              progress=progress.update)
    else:
        if total == 1 and args.threads is None and cores > 1:
            # One puzzle (on the command line): searched here, on every core as threads.
            items = list(items)
            dealt = deal_threads(items, cores, args.max_moves)
        if isinstance(items, _Lines):
            items = _read_ahead(items)
        # Standard input as it comes: one puzzle per task, each answer out as soon as
        # it is known (the cost, ~0.3 ms of traffic per puzzle, buys that).
        results = solve_stream(items, options, jobs, 1, dealt)
    counts = {SOLVED: 0, UNSOLVED: 0, MISMATCH: 0, INTERNAL: 0, "malformed": 0}
    seen = 0
    for line, item, result in results:
        seen += 1
        if result is None:
            assert isinstance(item, NotationError)
            counts["malformed"] += 1
            obj: dict[str, Any] = {"id": item.puzzle_id, "line": line, "moves": None, "error": str(item)}
            sys.stderr.write(f"ricochet: error: {name}: {' '.join(str(item).split())} (puzzle skipped)\n")
            sys.stderr.flush()
        else:
            obj, outcome = result
            counts[outcome] += 1
        if args.format == "text":
            if result is not None:
                sys.stdout.write(_text_answer(obj, item) + "\n")
        else:
            sys.stdout.write(json.dumps(obj, ensure_ascii=False) + "\n")
        sys.stdout.flush()
        if not batch:  # (the batch tells its progress as answers come in, ahead of the output)
            progress.step()
    if seen == 0:
        raise CliError(f"{name}: no puzzles (expected one JSON object per line)")
    progress.finish(f"solve: {seen} puzzles: {counts[SOLVED] + counts[MISMATCH]} solved, {counts[UNSOLVED]} unsolved"
                    + (f", {counts[MISMATCH]} not at the recorded optimum" if args.check else "")
                    + f", {counts['malformed']} malformed; {time.perf_counter() - progress.t0:.1f} s")
    if counts[INTERNAL]:
        return EXIT_INTERNAL
    if counts["malformed"]:
        return EXIT_USAGE
    if counts[UNSOLVED] or counts[MISMATCH]:
        return EXIT_FAIL
    return EXIT_OK


add_command("solve", "solve puzzles of a JSON Lines file optimally, one JSON answer per line", build_solve, run_solve)
