"""The puzzle sets shipped with the package (``data/sets/``), in the JSON
Lines interchange format: the ASP Competition 2015 set and the long puzzles
of the benchmark.  Provenance and licences: ``data/sets/README.md``.

>>> path("asp2015").name
'asp2015.jsonl'
>>> len(path("hard").read_text().splitlines()) >= 11
True
"""

from __future__ import annotations

from importlib import resources
from pathlib import Path

NAMES = ("asp2015", "hard")
"""The sets there are."""


def directory() -> Path:
    """The folder holding the sets (inside the installed package or the checkout)."""
    return Path(str(resources.files("ricochet").joinpath("data", "sets")))


def path(name: str) -> Path:
    """The file of set ``name`` (one of :data:`NAMES`)."""
    if name not in NAMES:
        raise ValueError(f"unknown puzzle set {name!r}: use {' or '.join(NAMES)}")
    return directory() / f"{name}.jsonl"
