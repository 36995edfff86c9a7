"""The layout the games promise (docs/new-game.md), checked: a game is one package under
``ricochet/games/``; the server, the command line and the trainer import no game; the web
shell names no game and no game's event; every error the library raises is a
``RicochetError``."""

from __future__ import annotations

import ast
import importlib
import pkgutil
import re
from pathlib import Path

import pytest

import ricochet
from ricochet.errors import RicochetError
from ricochet.games import GAMES
from ricochet.games.table import TABLE_EVENTS

SRC = Path(ricochet.__file__).resolve().parent
GAMES_DIR = SRC / "games"
GAME_PACKAGES = sorted(p.name for p in GAMES_DIR.iterdir() if (p / "__init__.py").is_file())
"""The packages of ricochet.games: one per game, and the bidding round two games share."""
GAME_LIBRARIES = ("bidding.js", "bidding-strings.js", "gridboard.js", "trainer-grid.js", "trainer-physics.js", "lesson-grid.js")
"""Shared code of ricochet/web that games import (not the shell): the bidding round, the
engine's board and its trainer part."""
SHELL = sorted(p for p in (SRC / "web").rglob("*.js") if p.name not in GAME_LIBRARIES)


def _imports(path: Path) -> set[str]:
    """The modules a Python file imports, relative imports made absolute."""
    module = ".".join(path.relative_to(SRC.parent).with_suffix("").parts)
    package = module if path.name == "__init__.py" else module.rsplit(".", 1)[0]
    out = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            out |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            base = package.rsplit(".", node.level - 1)[0] if node.level else ""
            name = ".".join(filter(None, [base, node.module or ""]))
            out.add(name)
            out |= {f"{name}.{alias.name}" for alias in node.names}
    return out


def test_every_game_is_one_package_of_its_own() -> None:
    for name, game in GAMES.items():
        module = type(game).__module__
        assert module.startswith("ricochet.games.") and module.count(".") == 3, f"{name}: defined in {module}"
        package = module.rsplit(".", 1)[0]
        assert package.rsplit(".", 1)[1] in GAME_PACKAGES, name
        assert game.web_dir is not None and game.web_dir.parent == SRC / "games" / package.rsplit(".", 1)[1], name


@pytest.mark.parametrize("part", ["server", "cli", "trainer"])
def test_no_game_is_imported_by_the_shells(part: str) -> None:
    """The server, the command line and the trainer know the games' contracts only: the
    registry, the interface and the pieces every game shares — never a game's package."""
    for path in sorted((SRC / part).rglob("*.py")):
        for name in _imports(path):
            parts = name.split(".")
            if parts[:2] == ["ricochet", "games"] and len(parts) > 2:
                assert parts[2] not in GAME_PACKAGES, f"{path.relative_to(SRC)} imports {name}"


def test_no_module_outside_games_is_one_games() -> None:
    """No top-level module holds one game (as micro.py and micro_cli.py once did), and no
    module outside ricochet.games imports a game."""
    games = {type(g).__module__.split(".")[2] for g in GAMES.values()}
    stems = {pkg.split("_")[0] for pkg in games} - {"ricochet"}  # "ricochet" is the library's name
    assert stems == {"micro", "pyramids", "rambots"}
    for path in sorted(SRC.rglob("*.py")):
        rel = path.relative_to(SRC)
        if rel.parts[0] == "games":
            continue
        assert not rel.parts[0].startswith(tuple(stems)), f"{rel}: a top-level module of one game"
        for name in _imports(path):
            parts = name.split(".")
            if parts[:2] == ["ricochet", "games"] and len(parts) > 2:
                assert parts[2] not in GAME_PACKAGES, f"{rel} imports {name}"


def _event_names() -> set[str]:
    table = {e.type for e in TABLE_EVENTS}
    return {kind for game in GAMES.values() for kind in getattr(game, "events", {})} - table


def test_the_web_shell_names_no_game_and_no_games_event() -> None:
    names = _event_names() | set(GAMES)
    assert {"chip_drawn", "goal_drawn", "target_rolled", "programs_revealed", "announced", "round_ended"} <= names
    for path in SHELL:
        literals = set(re.findall(r"""["'`]([a-z][a-z0-9_-]*)["'`]""", path.read_text(encoding="utf-8")))
        found = sorted(literals & names)
        assert not found, f"{path.relative_to(SRC)} names {found}: the shell speaks to a game through its module"


def _every_module() -> list[str]:
    names = []
    for info in pkgutil.walk_packages([str(SRC)], "ricochet."):
        if ".migrations" in info.name:  # alembic's scripts run migrations when imported
            continue
        names.append(info.name)
    return names


def test_every_error_is_a_ricochet_error() -> None:
    outside = set()
    for name in _every_module():
        try:
            module = importlib.import_module(name)
        except ImportError:  # an optional backend (the tablebase's GPU) that is not installed
            continue
        for value in vars(module).values():
            if isinstance(value, type) and issubclass(value, BaseException) and value.__module__ == name \
                    and not issubclass(value, RicochetError):
                outside.add(f"{name}.{value.__qualname__}")
    assert not outside, f"errors outside RicochetError: {sorted(outside)}"
