"""Sphinx configuration of the ricochet documentation site.

Build it with ``scripts/build-docs`` (warnings are errors).  Sphinx rather than
MkDocs: the docstrings are already reStructuredText with Sphinx roles
(``:class:``, ``:func:``), autodoc reads them as they are, and python-chess's
site, the model of this one, is Sphinx too.  The Markdown pages (protocol,
tablebase, benchmarks) are read by MyST.
"""

from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE / "_ext"))
sys.path.insert(0, str(HERE.parent / "src"))

import ricochet

project = "ricochet"
author = "the ricochet authors"
copyright = "the ricochet authors (MIT)"
version = release = ricochet.__version__

extensions = [
    "sphinx.ext.autodoc",
    "sphinx.ext.intersphinx",
    "sphinx.ext.viewcode",
    "myst_parser",
    "ricochet_diagram",
]
source_suffix = {".rst": "restructuredtext", ".md": "markdown"}
exclude_patterns = ["_build"]
nitpicky = False
autodoc_member_order = "bysource"
autodoc_typehints = "description"
autodoc_default_options = {"members": True, "show-inheritance": True}
autodoc_preserve_defaults = True
intersphinx_mapping: dict[str, tuple[str, str | None]] = {}  # offline: CI reaches no documentation hosts
myst_heading_anchors = 3
suppress_warnings = ["myst.xref_missing"]
html_theme = "alabaster"
html_title = f"ricochet {release}"
html_static_path: list[str] = []
html_theme_options = {"description": "Ricochet Robots and its family, in Python", "fixed_sidebar": True}
