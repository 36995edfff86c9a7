"""numba's cache told about the files a module inlines (:mod:`ricochet.jitcache`)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

BASE = """\
from numba import njit


@njit(cache=True, inline="always")
def inlined():
    return {inlined}


@njit(cache=True)
def called():
    return {called}
"""

USER = """\
from numba import njit

from ricochet import jitcache

from . import base

jitcache.depends_on(__file__, base.__file__)


@njit(cache=True)
def total():
    return base.inlined() + base.called()
"""

RUN = """\
from pkg import user
print(user.total(), sum(user.total.stats.cache_hits.values()), sum(user.total.stats.cache_misses.values()))
"""


def _run(root: Path, cache: Path) -> tuple[int, int, int]:
    env = {**os.environ, "NUMBA_CACHE_DIR": str(cache), "PYTHONPATH": os.pathsep.join([str(root), *sys.path])}
    out = subprocess.run([sys.executable, "-c", RUN], cwd=root, env=env, capture_output=True, text=True,
                         timeout=300, check=False)
    assert out.returncode == 0, out.stderr
    value, hits, misses = map(int, out.stdout.split())
    return value, hits, misses


def test_an_edit_to_a_dependency_compiles_the_function_again(tmp_path: Path) -> None:
    """``total`` inlines one function of ``base`` and calls another; numba
    alone would keep serving the cached ``total`` after ``base`` changed."""
    pkg = tmp_path / "pkg"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "base.py").write_text(BASE.format(inlined=1, called=10))
    (pkg / "user.py").write_text(USER)
    cache = tmp_path / "cache"
    assert _run(tmp_path, cache) == (11, 0, 1)  # compiled, then cached
    assert _run(tmp_path, cache) == (11, 1, 0)  # from the cache: unchanged files keep it
    (pkg / "base.py").write_text(BASE.format(inlined=200, called=1000))
    assert _run(tmp_path, cache) == (1200, 0, 1)
    (pkg / "base.py").write_text(BASE.format(inlined=3, called=1000))
    assert _run(tmp_path, cache)[0] == 1003  # the inlined function alone changed
