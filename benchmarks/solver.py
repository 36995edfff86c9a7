#!/usr/bin/env python3
"""The solver benchmark: ASP 2015, 1000 random puzzles, the hard puzzles.

    .venv/bin/python benchmarks/solver.py [--quick] [--sets asp,random,hard] [--jobs N]

The same code runs as ``ricochet bench`` (``./run bench``); it lives in
:func:`ricochet.cli.bench.run_benchmark`.  See ``benchmarks/README.md``.
"""

from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
try:
    import ricochet  # noqa: F401
except ImportError:  # run from a checkout without the package installed
    sys.path.insert(0, str(HERE.parent / "src"))

from ricochet.cli import main, reexec_with_huge_pages

if __name__ == "__main__":
    argv = sys.argv[1:]  # the sets are the package's own (ricochet.datasets) unless --data/--hard say
    reexec_with_huge_pages(["bench", *argv])  # returns only if it cannot (or need not)
    sys.exit(main(["bench", *argv]))
