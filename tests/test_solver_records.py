"""The solver kernels' interface: every compiled function takes a few grouped
parameters (the records of :mod:`ricochet.solver.records`), and the searches
say how they ended with :class:`~ricochet.solver.records.SearchStatus`."""

from __future__ import annotations

import importlib
import inspect
import pkgutil
from collections.abc import Iterator

from numba.core.dispatcher import Dispatcher

import ricochet.solver
from ricochet.generate import random_puzzles
from ricochet.rules import PLAIN
from ricochet.solver import api
from ricochet.solver.records import SearchStatus

MAX_PARAMETERS = 12


def compiled_functions() -> Iterator[tuple[str, Dispatcher]]:
    """Every numba-compiled function defined in a module of :mod:`ricochet.solver`."""
    for info in pkgutil.iter_modules(ricochet.solver.__path__, ricochet.solver.__name__ + "."):
        module = importlib.import_module(info.name)
        for name, obj in vars(module).items():
            if isinstance(obj, Dispatcher) and obj.py_func.__module__ == module.__name__:
                yield f"{module.__name__}.{name}", obj


def test_every_compiled_function_takes_at_most_twelve_parameters() -> None:
    functions = dict(compiled_functions())
    assert len(functions) > 50, sorted(functions)  # the walk finds the kernels (kernel.py alone has 60 or so)
    assert "ricochet.solver.parallel._work" in functions and "ricochet.solver.kernel._gen" in functions
    counts = {name: len(inspect.signature(f.py_func).parameters) for name, f in functions.items()}
    assert {name: n for name, n in counts.items() if n > MAX_PARAMETERS} == {}


def test_the_searches_end_with_a_search_status() -> None:
    """A*, IDA* and the threaded A* return a :class:`SearchStatus` member (numba
    gives an IntEnum's members back as members): found, none within the
    bound, or past the cap (A*'s states, IDA*'s nodes)."""
    puzzle = next(p for p in random_puzzles(2026, 50) if p.active is not None and (api.solve(p).length or 0) >= 6)
    t = puzzle.active
    assert t is not None
    search = api._Search(puzzle, PLAIN, [t], api.START_TT_BITS)
    length = api.solve(puzzle).length
    assert length is not None
    found = search.astar(t, 40, 1 << 20)
    assert found[0] is SearchStatus.FOUND and found[1] == length
    assert search.astar(t, length - 1, 1 << 20)[0] is SearchStatus.NONE_WITHIN
    assert search.astar(t, 40, 10)[0] is SearchStatus.CAP_REACHED
    assert search.astar(t, 40, 1 << 20, threads=2)[:2] == (SearchStatus.FOUND, length)
    assert search.run(length, t, 1 << 40, False, 1)[0] is SearchStatus.FOUND
    assert search.run(length - 1, t, 1 << 40, False, 1)[0] is SearchStatus.NONE_WITHIN
    assert search.run(length, t, 5, False, 1)[0] is SearchStatus.CAP_REACHED
