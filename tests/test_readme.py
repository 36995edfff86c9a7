"""The README's library example runs as written."""

import re
from pathlib import Path

README = Path(__file__).resolve().parents[1] / "README.md"


def test_readme_python_example_runs(capsys):
    blocks = re.findall(r"```python\n(.*?)```", README.read_text(), re.S)
    assert blocks, "README has a python example"
    for block in blocks:
        exec(compile(block, "README.md", "exec"), {})
    lines = capsys.readouterr().out.splitlines()
    assert lines[-1] == "True"  # the solver's answer passes the solution checker
    assert lines[0].startswith("1A3B4A2A.")  # a tile board's position code names its tiles
