"""What each entry point imports: ``pip install ricochet`` gives the library,
the solver and the command line without the web stack, so ``ricochet solve``,
``show`` and ``check`` must not import it (nor the environments' packages)."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

HEAVY = ("starlette", "sqlalchemy", "uvicorn", "alembic", "httpx", "websockets", "asyncpg", "aiosqlite",
         "gymnasium", "pettingzoo")
PUZZLE = {"id": "p", "width": 3, "height": 3, "walls": [9, 1, 3, 8, 0, 2, 12, 4, 6], "robots": [[0, 0], [2, 2]],
          "active": 1, "target": [0, 2]}


def _imported(code: str) -> set[str]:
    probe = (f"import sys\n{code}\n"
             "print(sorted({m.split('.')[0] for m in sys.modules}))")
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=300, check=True)
    return set(json.loads(out.stdout.strip().splitlines()[-1].replace("'", '"')))


def test_import_ricochet_is_lean() -> None:
    assert not _imported("import ricochet") & {*HEAVY, "numba"}


@pytest.mark.parametrize("argv", [["solve", "{file}"], ["show", "1A3B4A2A.r52ge9bdey0e.r41"],
                                  ["check", "1A3B4A2A.r52ge9bdey0e.r41", "RE"], ["--help"]])
def test_the_cli_does_not_import_the_server_stack(argv: list[str], tmp_path) -> None:
    path = tmp_path / "p.jsonl"
    path.write_text(json.dumps(PUZZLE) + "\n")
    args = [a.replace("{file}", str(path)) for a in argv]
    code = (f"from ricochet.cli import main\nimport contextlib, io\n"
            f"with contextlib.redirect_stdout(io.StringIO()):\n"
            f"    try:\n        main({args!r})\n    except SystemExit:\n        pass")
    assert not _imported(code) & set(HEAVY)
