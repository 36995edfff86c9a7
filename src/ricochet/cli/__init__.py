"""The ``ricochet`` command line: one entry point, one small module per sub-command.

This package is the core (the command table, the parser, :func:`main`, the exit
statuses and :class:`CliError`); :mod:`.shared` has the helpers commands share (reading
puzzles, writing output); :mod:`.hooks` is how a game takes part in a command
(``--game``); every command is its own module (:data:`MODULES`), imported only when it
runs or shows its help.  ``python -m ricochet`` is the same program.

Adding a sub-command
--------------------
Write a module ``ricochet/cli/<name>.py`` with a parser builder and a runner, register
them there, and add one line to :data:`MODULES`::

    def build(parser: argparse.ArgumentParser) -> None:
        add_source_arguments(parser)          # SOURCE, --index, --id, --rules (ricochet.cli.shared)
        parser.add_argument("--max-depth", type=int, default=30)

    def run(args: argparse.Namespace) -> int:
        puzzle = load_puzzle(args)            # a Puzzle (exit 2 with a message otherwise)
        ...
        out(f"{n} moves")
        return 0

    add_command("solve", "find an optimal solution", build, run)

Commands appear in ``ricochet --help`` in the order of :data:`MODULES`.  A runner
returns the exit status.  To report bad input it raises :class:`CliError` (or
lets a library ``ValueError``/``OSError`` through): :func:`main` prints one line
``ricochet: error: <message>`` on stderr and returns 2.  Any other exception
is a bug: one line and status 70 (``--debug`` shows the traceback).
"""

from __future__ import annotations

import argparse
import atexit
import functools
import gc
import io
import os
import sys
import traceback
from collections.abc import Callable
from dataclasses import dataclass
from typing import NoReturn

from .. import __version__
from ..errors import RicochetError

__all__ = [
    "COMMANDS",
    "EXIT_FAIL",
    "EXIT_INTERNAL",
    "EXIT_OK",
    "EXIT_USAGE",
    "MODULES",
    "CliError",
    "Command",
    "add_command",
    "add_lazy_command",
    "load_command",
    "main",
]

EXIT_OK = 0
EXIT_FAIL = 1
"""A well-formed answer that says no (``check``: the solution is invalid)."""
EXIT_USAGE = 2
"""Bad input: unknown option, unreadable file, malformed puzzle, illegal move…"""
EXIT_INTERNAL = 70
"""A bug (EX_SOFTWARE)."""


class CliError(RicochetError):
    """Bad input found by a command; the message is shown after ``ricochet: error:``."""

    default_code = "usage"


class _UsageError(CliError):
    """An argparse error (unknown option, missing argument)."""


class _Parser(argparse.ArgumentParser):
    """argparse that reports usage errors as one line through :func:`main` instead of exiting."""

    def error(self, message: str) -> NoReturn:
        raise _UsageError(f"{message} (see '{self.prog} --help')")


# -- the command table ----------------------------------------------------------
@dataclass(frozen=True)
class Command:
    """A sub-command: its name, one-line help, argument builder and runner.
    ``module``: where it is defined, for a command registered with
    :func:`add_lazy_command` and not imported yet."""

    name: str
    help: str
    build: Callable[[argparse.ArgumentParser], None]
    run: Callable[[argparse.Namespace], int]
    module: str | None = None


COMMANDS: dict[str, Command] = {}
"""The registered sub-commands by name, in registration order."""


def add_command(name: str, help: str, build_parser: Callable[[argparse.ArgumentParser], None],
                run: Callable[[argparse.Namespace], int]) -> None:
    """Register sub-command ``name``: ``build_parser(parser)`` adds its
    arguments, ``run(args)`` does the work and returns the exit status.
    Registering a name again replaces the earlier command."""
    COMMANDS[name] = Command(name, help, build_parser, run)


def add_lazy_command(name: str, help: str, module: str) -> None:
    """Register sub-command ``name`` defined in ``module`` (which calls
    :func:`add_command` for it when imported): the module is imported only
    when the command runs or shows its help, so ``ricochet show`` does not
    load the solver's or the server's command modules."""
    def unloaded(*_: object) -> NoReturn:
        raise RuntimeError(f"command {name!r}: module {module} did not register it")
    COMMANDS[name] = Command(name, help, unloaded, unloaded, module)


def load_command(name: str) -> None:
    """Import the module of a lazily registered command (nothing if it is loaded or unknown)."""
    cmd = COMMANDS.get(name)
    if cmd is not None and cmd.module is not None:
        import importlib

        importlib.import_module(cmd.module)


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The top-level parser with every registered sub-command (``only``: with
    the arguments of that command alone, the others listed with their help:
    building them all would import what each one needs for its options)."""
    parser = _Parser(prog="ricochet", description="Ricochet Robots and its family: show, check, solve and make "
                     "puzzles, train, serve the site.",
                     epilog="Run 'ricochet COMMAND --help' for the options of a command.")
    parser.add_argument("--version", action="version", version=f"ricochet {__version__}")
    parser.add_argument("--debug", action="store_true", help="show the traceback of an error")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for cmd in COMMANDS.values():
        p = sub.add_parser(cmd.name, help=cmd.help, description=cmd.help)
        # Also accepted after the command name; SUPPRESS keeps a --debug given before it.
        p.add_argument("--debug", action="store_true", default=argparse.SUPPRESS, help=argparse.SUPPRESS)
        if cmd.module is None and only in (None, cmd.name):  # a lazy command is loaded when it runs (main)
            cmd.build(p)
        p.set_defaults(_run=cmd.run)
    return parser


MODULES: tuple[tuple[str, str, str], ...] = (
    ("show", "show a puzzle or position (terminal text or SVG)", "ricochet.cli.show"),
    ("board", "assemble a board from four tiles; print it or its JSON", "ricochet.cli.board"),
    ("check", "check a solution of a puzzle", "ricochet.cli.check"),
    ("random", "print random puzzles", "ricochet.cli.random"),
    ("demo", "the puzzle of the day, with a short how-to", "ricochet.cli.demo"),
    ("solve", "solve puzzles of a JSON Lines file optimally, one JSON answer per line", "ricochet.cli.solve"),
    ("bench", "benchmark the solver (ASP 2015, random and hard puzzles)", "ricochet.cli.bench"),
    ("tablebase", "every position of a board and target solved at once (build, query, stats, study)",
     "ricochet.cli.tablebase"),
    ("warm", "compile the solver's and tablebase's kernels now (done once at set-up)", "ricochet.cli.warm"),
    ("serve", "start the web server: play in the browser with friends and bots", "ricochet.cli.serve"),
)
"""Every sub-command: its name, one-line help and module (which registers it with
:func:`add_command` when imported), in the order ``ricochet --help`` lists them."""
for _name, _help, _module in MODULES:
    add_lazy_command(_name, _help, _module)


# -- main ----------------------------------------------------------------------------------------
def _one_line(text: str) -> str:
    return " ".join(str(text).split())


def _describe(e: BaseException) -> str:
    """A person's message for an input error."""
    if isinstance(e, OSError):
        if e.filename is not None and e.strerror:
            return f"{e.filename}: {e.strerror}"
        return e.strerror or str(e)
    return str(e) or type(e).__name__


HUGE_PAGES_TUNABLE = "glibc.malloc.hugetlb=1"
SOLVER_COMMANDS = ("solve", "bench")


def reexec_with_huge_pages(argv: list[str]) -> None:
    """Start the solver's commands again with glibc's huge-page malloc.

    The A* state map and records are tens of MiB read at random; on 2 MiB
    pages the TLB misses mostly vanish (about 10% on the ASP benchmark).  The
    tunable is read at process start only, hence the exec.  Linux only, once
    (the variable marks it), and never when RICOCHET_NO_HUGE_PAGES is set."""
    if (sys.platform != "linux" or "GLIBC_TUNABLES" in os.environ
            or os.environ.get("RICOCHET_NO_HUGE_PAGES")):
        return
    env = {**os.environ, "GLIBC_TUNABLES": HUGE_PAGES_TUNABLE}
    # `-m ricochet` must find this very package, installed or not.
    source = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    env["PYTHONPATH"] = os.pathsep.join(p for p in (source, os.environ.get("PYTHONPATH")) if p)
    try:
        sys.stdout.flush()
        os.execve(sys.executable, [sys.executable, "-m", "ricochet", *argv], env)
    except OSError:
        return  # carry on with normal pages


@functools.cache
def _skip_the_last_collection() -> None:
    """Once numba is loaded, freeze the heap at exit (registered once per
    process): Python's last full collection would walk every object numba
    built, only for the system to free them all anyway (0.20-0.26 s of a
    solver command's exit on the 2-core machine, against 0.02-0.05 s frozen).  Our files are closed
    by their ``with`` blocks and standard output is flushed at exit, so no
    collection is needed to flush them."""

    def freeze_if_numba() -> None:
        if "numba" in sys.modules:
            gc.freeze()

    atexit.register(freeze_if_numba)


def main(argv: list[str] | None = None) -> int:
    """Run the command line with ``argv`` (default ``sys.argv[1:]``); return the exit status."""
    _skip_the_last_collection()
    if argv is None and sys.argv[1:2] and sys.argv[1] in SOLVER_COMMANDS:
        reexec_with_huge_pages(sys.argv[1:])
    if isinstance(sys.stdout, io.TextIOWrapper):
        # A terminal that cannot show a box-drawing character gets '?' rather than a crash.
        try:
            sys.stdout.reconfigure(errors="replace")
        except (AttributeError, ValueError):
            pass
    argv = sys.argv[1:] if argv is None else list(argv)
    # The command that runs: the first word that is not an option (none: the demo).  Its module
    # is imported if it is registered lazily, and only its own arguments are built.
    wanted = next((a for a in argv if not a.startswith("-")), "demo")
    load_command(wanted)
    parser = build_parser(only=wanted)
    debug = "--debug" in argv
    try:
        args = parser.parse_args(argv)
        run = getattr(args, "_run", None)
        if run is None:
            # No command: the demo, which is what a bare `ricochet` (and ./run) shows.
            args = parser.parse_args([*argv, "demo"])
            run = args._run
        return int(run(args))
    except SystemExit as e:  # --help and --version
        return e.code if isinstance(e.code, int) else (0 if e.code is None else EXIT_USAGE)
    except BrokenPipeError:
        # Output piped into `head`: stop quietly.
        try:
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        except (OSError, ValueError, io.UnsupportedOperation):
            pass
        return EXIT_FAIL
    except KeyboardInterrupt:
        return 130
    except (CliError, ValueError, OSError) as e:
        if debug:
            traceback.print_exc()
        sys.stderr.write(f"ricochet: error: {_one_line(_describe(e))}\n")
        return EXIT_USAGE
    except Exception as e:  # noqa: BLE001 -- a bug: still one line, unless --debug
        if debug:
            traceback.print_exc()
        sys.stderr.write(f"ricochet: error: internal error: {type(e).__name__}: {_one_line(str(e))} "
                         "(run with --debug to see the traceback)\n")
        return EXIT_INTERNAL
