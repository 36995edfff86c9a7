"""``ricochet warm``: compile every kernel into numba's cache now (see :mod:`ricochet.warm`)."""

from __future__ import annotations

import argparse
import os
import sys
import time

from . import CliError, add_command


def build_warm(parser: argparse.ArgumentParser) -> None:
    from ..warm import GROUPS

    names = ", ".join(g.name for g in GROUPS)
    parser.add_argument("--only", metavar="GROUPS",
                        help=f"comma-separated kernel groups to warm (default: all of {names})")
    parser.add_argument("--details", action="store_true",
                        help="list every function compiled, with its signature and its own compile time")
    parser.add_argument("--quiet", action="store_true", help="print nothing unless something had to be compiled")
    parser.add_argument("--jobs", "-j", type=int, metavar="N", default=None,
                        help="processes (default: 2 where there are two cores or more): the tablebase's "
                             "kernels compile beside the solver's")


def run_warm(args: argparse.Namespace) -> int:
    from ..warm import Report, select, warm

    try:
        groups = select(None if args.only is None else [n.strip() for n in args.only.split(",") if n.strip()])
    except ValueError as e:
        raise CliError(f"--only: {e}") from None
    jobs = args.jobs if args.jobs is not None else min(2, os.cpu_count() or 1)
    if jobs < 1:
        raise CliError(f"--jobs: must be at least 1, got {jobs}")
    err = sys.stderr
    started = time.perf_counter()
    said = False

    def announce() -> None:
        nonlocal said
        if not said:
            said = True
            err.write("ricochet warm: the solver's and tablebase's kernels into numba's cache "
                      "(compiled once: a minute or two on a fresh install; then loaded in under a second)\n")
            err.flush()

    if not args.quiet:
        announce()

    def progress(report: Report) -> None:
        if args.quiet and report.from_cache:
            return
        announce()
        err.write(f"  {report.line()}\n")
        if args.details:
            for c in sorted(report.compiled, key=lambda c: -c.seconds):
                err.write(f"      {c.seconds:6.2f} s  {c.function} {c.signature}\n")
        err.flush()

    reports = warm(groups, progress, jobs)
    if said:
        compiled = sum(len(r.compiled) for r in reports)
        err.write(f"ricochet warm: done in {time.perf_counter() - started:.1f} s"
                  f" ({compiled} functions compiled)\n" if compiled else
                  f"ricochet warm: every kernel was already in the cache ({time.perf_counter() - started:.1f} s)\n")
    return 0


add_command("warm", "compile the solver's and tablebase's kernels now (done once at set-up)", build_warm, run_warm)
