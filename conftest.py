"""Root test set-up: the examples of the library (``src/``) and of the
documentation site (``docs/*.rst``) are collected as doctests beside
``tests/`` (``testpaths`` in pyproject.toml); the summary says how many ran."""

from __future__ import annotations

from typing import Any


def pytest_terminal_summary(terminalreporter: Any) -> None:
    """One line per doctest source (works under xdist: it reads the reports)."""
    counts: dict[str, dict[str, int]] = {"src": {}, "docs": {}}
    for outcome in ("passed", "failed", "skipped"):
        for report in terminalreporter.stats.get(outcome, []):
            if getattr(report, "when", "call") != "call" and outcome != "skipped":
                continue
            top = str(getattr(report, "nodeid", "")).split("/", 1)[0]
            if top in counts:
                counts[top][outcome] = counts[top].get(outcome, 0) + 1
    for top, c in counts.items():
        total = sum(c.values())
        if total:
            parts = ", ".join(f"{n} {k}" for k, n in c.items())
            terminalreporter.write_line(f"doctests in {top}/: {total} collected, {parts}")
