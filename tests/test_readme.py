"""The README's library example runs as written."""

import re
from pathlib import Path

README = Path(__file__).resolve().parents[1] / "README.md"


def test_readme_python_example_runs(capsys):
    blocks = re.findall(r"```python\n(.*?)```", README.read_text(), re.DOTALL)
    assert blocks, "README has a python example"
    for block in blocks:
        exec(compile(block, "README.md", "exec"), {})  # noqa: S102 (running the documented example is the point)
    lines = capsys.readouterr().out.splitlines()
    assert lines[-1] == "True"  # the solver's answer passes the solution checker
    assert lines[0].startswith("1A3B4A2A.")  # a tile board's position code names its tiles
