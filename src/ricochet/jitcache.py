"""numba's on-disk cache, told which other source files a module's compiled
functions take code from.

numba keys a cached function by its own file only.  A function that calls (or
inlines) a compiled function of another module carries that function's code
in its own cached object, so an edit to the other module alone left the old
code running from the cache: in a development tree, an edit to
:mod:`ricochet.solver.kernel` did not reach the threaded search of
:mod:`ricochet.solver.parallel` until ``parallel.py`` changed too.  (An
installed package is compiled afresh, once, so only a changing tree is
concerned.)

A module declares its dependencies with :func:`depends_on` before its first
``@njit(cache=True)``; its functions' cache entries are then stamped with the
contents of its own file and of those files, and any edit to one of them
compiles the module's functions again.

>>> import os, ricochet.solver.kernel as kernel, ricochet.solver.parallel as parallel
>>> os.path.realpath(kernel.__file__) in dependencies(parallel.__file__)
True
"""

from __future__ import annotations

import functools
import hashlib
import os
from typing import Any

_DEPENDENCIES: dict[str, tuple[str, ...]] = {}


def depends_on(module_file: str, *files: str) -> None:
    """Stamp the cache entries of the compiled functions defined in
    ``module_file`` (a module's ``__file__``) from this point on with the
    contents of ``files`` as well as its own.  Call it before the module's
    first ``@njit(cache=True)``: numba reads the stamp when it decorates."""
    _DEPENDENCIES[os.path.realpath(module_file)] = tuple(os.path.realpath(f) for f in files)
    _install()


def dependencies(module_file: str) -> tuple[str, ...]:
    """The files :func:`depends_on` declared for ``module_file`` (none: ``()``)."""
    return _DEPENDENCIES.get(os.path.realpath(module_file), ())


@functools.cache
def _digest(path: str, mtime_ns: int, size: int) -> bytes:
    # Keyed by time and size too, so that a file edited while this process runs is read again.
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).digest()


def _stamp(module_file: str) -> bytes:
    files = (os.path.realpath(module_file),) + dependencies(module_file)
    digests = []
    for path in files:
        st = os.stat(path)
        digests.append(_digest(path, st.st_mtime_ns, st.st_size))
    return hashlib.sha256(b"".join(digests)).digest()


class _WithDependencies:
    """Mixed into numba's locators for source files: the stamp covers the
    declared dependencies; modules that declared none keep numba's own."""

    _py_file: str

    def get_source_stamp(self) -> bytes:
        return _stamp(self._py_file)

    @classmethod
    def from_function(cls, py_func: Any, py_file: str) -> Any:
        if os.path.realpath(py_file) not in _DEPENDENCIES:
            return None  # the next locator, numba's own, takes it
        return super().from_function(py_func, py_file)  # type: ignore[misc]


@functools.cache  # once per process
def _install() -> None:
    """Put a dependency-aware copy of each of numba's source-file locators
    ahead of the originals.  These are numba internals (present, under these
    names, from numba 0.59 to at least 0.68); ``tests/test_jitcache.py``
    checks that an edit to a dependency still compiles again."""
    from numba.core import caching

    impl = caching.CacheImpl
    source_backed = [c for c in impl._locator_classes if issubclass(c, caching._SourceFileBackedLocatorMixin)]
    ours: list[type[object]] = [type(f"WithDependencies{c.__name__.lstrip('_')}", (_WithDependencies, c), {})
                                for c in source_backed]
    impl._locator_classes = ours + list(impl._locator_classes)
