"""Terminal rendering: readable plain text, ANSI colours only when asked."""

from __future__ import annotations

import re

from ricochet import Board, Diagonal, Position, Puzzle, Robot, Target
from ricochet.terminal import render_terminal

ANSI = re.compile(r"\x1b\[[0-9;]*m")


def make_puzzle() -> Puzzle:
    board = Board.build(
        6, 6, walls=[(1, 1, "E")], blocked=[(2, 2), (3, 2), (2, 3), (3, 3)],
        targets=[Target((4, 1), "green", "triangle"), Target((0, 4), "any", "vortex")],
        diagonals=[Diagonal((5, 5), "blue", "/")], openings=[((0, 2), "W")])
    robots = (Robot("red", (0, 0)), Robot("green", (5, 0)), Robot("silver", (1, 5)))
    return Puzzle(Position(board, robots), (4, 1), 1)


def test_plain_has_no_ansi_and_shows_everything() -> None:
    text = render_terminal(make_puzzle(), color=False)
    assert not ANSI.search(text)
    lines = text.splitlines()
    assert lines[0].split() == list("abcdef")
    row1 = lines[2]
    assert row1.startswith("1 │ R ") and row1.rstrip().endswith("G │")
    assert "S" in lines[2 + 2 * 5]  # silver robot on row 6
    assert "[▲]" in lines[2 + 2 * 1]  # the goal: green triangle, bracketed
    assert "b╱" in lines[2 + 2 * 5]  # a blue "/" diagonal
    assert "@" in lines[2 + 2 * 4]  # the vortex
    assert "▒▒▒" in lines[2 + 2 * 2]  # the blocked centre
    assert "⇔" in lines[2 + 2 * 2]  # the opening on the west edge of row 3
    # The wall east of b2: a vertical bar right after the cell.
    assert lines[4][2:].startswith("│ ·   · │")
    assert lines[-1] == "target: green triangle ▲ at e2 · active robot: green G"


def test_colour_uses_ansi_and_same_layout() -> None:
    pz = make_puzzle()
    coloured = render_terminal(pz)
    assert "\x1b[" in coloured
    assert "\x1b[1;97;41m R \x1b[0m" in coloured  # the red robot on red
    assert ANSI.sub("", coloured) == render_terminal(pz, color=False).replace("r●", " ●").replace("b╱", " ╱")


def test_board_and_position_legends() -> None:
    pz = make_puzzle()
    assert render_terminal(pz.position.board, color=False).splitlines()[-1].startswith("6×6 board, 2 targets")
    legend = render_terminal(Position(pz.position.board, pz.position.robots), color=False).splitlines()[-1]
    assert legend == "robots: R a1 G f1 S b6"


def test_every_line_has_the_same_width() -> None:
    lines = render_terminal(make_puzzle(), color=False).splitlines()[1:-1]
    widths = {len(line.rstrip()) for line in lines if line.strip()}
    assert max(widths) == len(lines[0])
