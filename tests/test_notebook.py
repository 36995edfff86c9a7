"""The notebook of the tour runs headless, and what it shows is the library's
pictures: the board and position as SVG, the solution as moves and an SVG
animation (issue 15: values that show themselves in Jupyter)."""

from __future__ import annotations

import base64
import re
from pathlib import Path

import pytest

nbformat = pytest.importorskip("nbformat")
nbclient = pytest.importorskip("nbclient")
nbconvert = pytest.importorskip("nbconvert")

TOUR = Path(__file__).resolve().parent.parent / "examples" / "tour.ipynb"


def test_the_tour_notebook_renders_the_board_as_svg(tmp_path: Path) -> None:
    nb = nbformat.read(TOUR, as_version=4)
    nbclient.NotebookClient(nb, timeout=300, kernel_name="python3", resources={"metadata": {"path": str(tmp_path)}}
                            ).execute()
    outputs = [o for cell in nb.cells if cell.cell_type == "code" for o in cell.outputs]
    assert not [o for o in outputs if o.output_type == "error"]
    svgs = [o.data["image/svg+xml"] for o in outputs if "image/svg+xml" in o.get("data", {})]
    assert len(svgs) == 3 and all(s.startswith("<svg") and 'class="wall"' in s for s in svgs)  # board, position, puzzle
    html = [o.data["text/html"] for o in outputs if "text/html" in o.get("data", {})]
    assert len(html) == 1 and "7 moves: BS BW BN RE BW RN RW" in html[0] and "<animateTransform" in html[0]
    text = "".join(o.get("text", "") for o in outputs)
    assert "Puzzle.from_code('1A3B4A2A.r52ge9bdey0e.r41.!mns')" in text and "active robot: red R" in text
    # Rendered as a page, as nbconvert does for people: the board is in it as SVG.
    body, _ = nbconvert.HTMLExporter().from_notebook_node(nb)
    (tmp_path / "tour.html").write_text(body, encoding="utf-8")
    # nbconvert embeds image/svg+xml outputs as data URIs and text/html as it is.
    embedded = re.findall(r'src="data:image/svg\+xml;base64,([A-Za-z0-9+/=]+)"', body)
    assert len(embedded) == 3 and all(b"ricochet-board" in base64.b64decode(e) for e in embedded)
    assert "<animatetransform" in body.lower()  # (nbconvert lowercases; HTML parsers restore SVG case)
