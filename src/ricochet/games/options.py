"""Room options: the checks every game's options share.

A game lists its options and defaults; :func:`check_options` fills the
defaults in, refuses unknown keys and checks booleans, durations and whole
numbers, each error (:class:`~ricochet.games.interface.OptionsError`) naming
the field.

>>> check_options({"fast": True}, {"fast": False, "seconds": 30}, bools=("fast",),
...               seconds={"seconds": (5, 60)}, ints={})
{'fast': True, 'seconds': 30}
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

from .interface import OptionsError

__all__ = ["check_options", "kind_of"]


def kind_of(value: object) -> str:
    """How a JSON value is named in messages (``a number``, ``a text`` …)."""
    return "null" if value is None else {bool: "true/false", int: "a number", float: "a number", str: "a text",
                                         list: "a list", dict: "an object"}.get(type(value), type(value).__name__)


def check_options(raw: Mapping[str, Any], defaults: Mapping[str, Any], *, bools: Sequence[str],
                  seconds: Mapping[str, tuple[float, float]], ints: Mapping[str, tuple[int, int | None]]
                  ) -> dict[str, Any]:
    """Options with defaults filled in: unknown keys refused, booleans, seconds
    and whole numbers (``None`` allowed where the default is ``None``) checked,
    each error naming the field.  Other keys are left to the caller."""
    unknown = sorted(set(raw) - set(defaults))
    if unknown:
        raise OptionsError(f"unknown option {unknown[0]!r}; known: {', '.join(defaults)}")
    opts = {**defaults, **raw}
    for key in bools:
        if not isinstance(opts[key], bool):
            raise OptionsError(f"{key} must be true or false, got {kind_of(opts[key])}")
    for key, (lo, hi) in seconds.items():
        v = opts[key]
        if isinstance(v, bool) or not isinstance(v, int | float) or not math.isfinite(v) or not lo <= v <= hi:
            raise OptionsError(f"{key} must be a number of seconds from {lo:g} to {hi:g}, got {v!r}")
    for key, (lo, hi_or_none) in ints.items():
        v = opts[key]
        if v is None and defaults[key] is None:
            continue
        if isinstance(v, bool) or not isinstance(v, int) or v < lo or (hi_or_none is not None and v > hi_or_none):
            rng = f"from {lo} to {hi_or_none}" if hi_or_none is not None else f"at least {lo}"
            raise OptionsError(f"{key} must be a whole number {rng}{' or null' if defaults[key] is None else ''}, "
                               f"got {v!r}")
    return opts
