"""Compile :mod:`ricochet.tablebase.retro` for one target.

The CPU and the GPU paths must settle exactly the same positions, so the
retrograde step exists once, as plain Python, and each path gets its own
copy of that module with every function in ``retro.DEVICE_FUNCTIONS``
replaced by its compiled form.  Calls between those functions go through
the copy's globals, so they reach the compiled versions of the same target.
"""

from __future__ import annotations

import importlib.util
import sys
from collections.abc import Callable
from types import ModuleType
from typing import Any

from . import retro


def load(target: str, decorate: Callable[[Any], Any]) -> ModuleType:
    """A fresh copy of :mod:`retro` named ``ricochet.tablebase.retro_<target>``
    whose device functions are wrapped by ``decorate`` (in dependency order)."""
    name = f"{retro.__name__}_{target}"
    spec = importlib.util.spec_from_file_location(name, retro.__file__)
    if spec is None or spec.loader is None:  # pragma: no cover - the file is part of the package
        raise ImportError(f"cannot load {retro.__file__}")
    module = importlib.util.module_from_spec(spec)
    # numba's on-disk cache re-imports a compiled function's module by name.
    sys.modules[name] = module
    spec.loader.exec_module(module)
    for fn in retro.DEVICE_FUNCTIONS:
        setattr(module, fn, decorate(getattr(module, fn)))
    return module
