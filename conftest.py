"""Root test set-up: the examples of the library (``src/``) and of the
documentation site (``docs/*.rst``) are collected as doctests beside
``tests/`` (``testpaths`` in pyproject.toml); the summary says how many ran,
and how long the tests waited for the machine's test slots (``tests/machineslots.py``)."""

from __future__ import annotations

from typing import Any

import pytest


def pytest_terminal_summary(terminalreporter: Any) -> None:
    """One line per doctest source, and one on the tests' waits for a test slot if any
    was long (works under xdist: it reads the reports)."""
    counts: dict[str, dict[str, int]] = {"src": {}, "docs": {}}
    for outcome in ("passed", "failed", "skipped"):
        for report in terminalreporter.stats.get(outcome, []):
            if getattr(report, "when", "call") != "call" and outcome != "skipped":
                continue
            top = str(getattr(report, "nodeid", "")).split("/", 1)[0]
            if top in counts:
                counts[top][outcome] = counts[top].get(outcome, 0) + 1
    waited = [seconds for report in terminalreporter.stats.get("passed", []) + terminalreporter.stats.get("failed", [])
              if getattr(report, "when", "") == "call"
              for name, seconds in getattr(report, "user_properties", ()) if name == "slot_wait"]
    busy = [s for s in waited if s > 0.5]
    if busy:  # another suite (or RICOCHET_TEST_SLOTS below the workers) held the machine's slots
        tests = f"{len(busy)} test{'s' if len(busy) > 1 else ''}"
        terminalreporter.write_line(f"machine's test slots: {tests} waited over 0.5 s for one, "
                                    f"{sum(waited):.0f} s in all (another test run on this machine?)")
    for top, c in counts.items():
        total = sum(c.values())
        if total:
            parts = ", ".join(f"{n} {k}" for k, n in c.items())
            terminalreporter.write_line(f"doctests in {top}/: {total} collected, {parts}")


def pytest_configure(config: Any) -> None:
    """A bad ``RICOCHET_TEST_SLOTS`` stops the run at once with what is wrong, not a traceback."""
    from tests.machineslots import slot_count

    try:
        slot_count()
    except ValueError as e:
        raise pytest.UsageError(str(e)) from None


def pytest_report_header() -> str:
    """How many tests this machine runs at once, across every suite on it."""
    from tests.machineslots import ENV, slot_count

    n = slot_count()
    return f"machine's test slots: {n or 'no budget'} ({ENV}; by default the cores + 1)"
