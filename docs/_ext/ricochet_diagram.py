"""A Sphinx directive that draws a position or puzzle from its code, so the
pictures of the documentation are made by the library they document and
cannot drift from it::

    .. ricochet:: 1A3B4A2A.r52ge9bdey0e.y63
       :solution: RW YE YN YE
       :animate:
       :caption: The yellow robot reaches the yellow hexagon.

``:solution:`` draws the moves (checked by the engine: a wrong one is a build
error), ``:animate:`` plays them (SVG animation), ``:size:`` is the width in
pixels (default 360, 240 for boards up to 8 wide).
"""

from __future__ import annotations

from html import escape
from typing import Any

from docutils import nodes
from docutils.parsers.rst import Directive, directives


class RicochetDiagram(Directive):
    required_arguments = 1
    has_content = False
    option_spec = {  # noqa: RUF012 (docutils reads it as a class attribute)
        "solution": directives.unchanged,
        "animate": directives.flag,
        "size": directives.positive_int,
        "caption": directives.unchanged,
    }

    def run(self) -> list[nodes.Node]:
        from ricochet.notation import NotationError, parse_code
        from ricochet.puzzle import Puzzle, check_solution
        from ricochet.svg import animate, svg

        code = self.arguments[0]
        try:
            value = parse_code(code)
        except NotationError as e:
            raise self.error(f"ricochet: {code}: {e}") from None
        position = value.position if isinstance(value, Puzzle) else value
        size = self.options.get("size", 360 if position.board.width > 8 else 240)
        paths: Any = None
        text = self.options.get("solution")
        if text is not None:
            moves = position.parse_solution(text)
            if isinstance(value, Puzzle):
                verdict = check_solution(value, moves)
                if not verdict.ok:
                    assert verdict.failure is not None
                    raise self.error(f"ricochet: {code}: {text!r} is not a solution: {verdict.failure.message}")
                paths = verdict.paths
            else:
                paths = position.replay(moves)[1]
        if paths is not None and "animate" in self.options:
            picture = animate(value, paths, size=size)
        else:
            picture = svg(value, size=size, path=paths, coordinates=True)
        caption = self.options.get("caption", "")
        label = f"<code>{escape(code)}</code>" + (f" — {escape(text)}" if text else "")
        html = (f'<figure class="ricochet-diagram">{picture}<figcaption>{escape(caption)}'
                f'{"<br>" if caption else ""}{label}</figcaption></figure>')
        return [nodes.raw("", html, format="html")]


def setup(app: Any) -> dict[str, Any]:
    app.add_directive("ricochet", RicochetDiagram)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
