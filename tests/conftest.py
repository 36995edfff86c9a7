"""Shared test set-up: put ``tests/`` on ``sys.path`` so test modules can
``from strategies import boards, positions, PROPERTY`` whether or not
``tests`` is a package."""

from __future__ import annotations

import os
import sys

_HERE = os.path.dirname(os.path.abspath(__file__))
if _HERE not in sys.path:
    sys.path.insert(0, _HERE)
