"""Micro Robots in the trainer: the 6×6 board, its sections placed and turned; the robot
goes from a start space to a target (style ``shortest``) or first through an
intermediate target (style ``via``, the experts' variant).  A puzzle is named
``<arrangement>.s<rc>.t<rc>[.v<rc>]``, e.g. ``C1A0D2B3.s05.t32``; its optimal length
is a breadth-first search's (no solver)."""

from __future__ import annotations

import itertools
import random
import re
from dataclasses import dataclass
from typing import Any

from ...trainer.spec import Attempt, TrainerError, TrainerPuzzle, TrainerSpec, puzzle_id
from .engine import Arrangement, MicroBoard, shortest_route

__all__ = ["SPEC", "MicroPuzzle", "MicroTrainer"]

_MICRO_CODE = re.compile(r"^((?:[ABCD][0-3]){4})\.s([0-5])([0-5])\.t([0-5])([0-5])(?:\.v([0-5])([0-5]))?$")


@dataclass(frozen=True)
class MicroPuzzle:
    """A Micro Robots route puzzle: from ``start`` to ``target`` (through ``via``
    first, when given) on the board of ``arrangement``; spaces are ``(row, col)``."""

    arrangement: Arrangement
    start: tuple[int, int]
    target: tuple[int, int]
    via: tuple[int, int] | None = None

    @property
    def board(self) -> MicroBoard:
        return MicroBoard.arranged(self.arrangement)

    @property
    def code(self) -> str:
        def rc(c: tuple[int, int]) -> str:  # two digits: row, then column
            return f"{c[0]}{c[1]}"

        return f"{self.arrangement.code}.s{rc(self.start)}.t{rc(self.target)}" + (
            f".v{rc(self.via)}" if self.via is not None else "")

    @staticmethod
    def parse(code: str) -> MicroPuzzle:
        m = _MICRO_CODE.match(code.strip().upper().replace("S", "s").replace("T", "t").replace("V", "v")) \
            if isinstance(code, str) else None
        if m is None:
            raise TrainerError(f"code: a Micro Robots puzzle is written like C1A0D2B3.s05.t32 or "
                               f"C1A0D2B3.s05.t32.v11 (arrangement, start, target, via), got {code!r}")
        g = m.groups()
        start, target = (int(g[1]), int(g[2])), (int(g[3]), int(g[4]))
        via = (int(g[5]), int(g[6])) if g[5] is not None else None
        if start == target or via in (start, target):
            raise TrainerError("code: start, target and via must be three different spaces")
        return MicroPuzzle(Arrangement.parse(g[0]), start, target, via)

    def optimal_route(self) -> list[tuple[int, int]]:
        """A shortest route (spaces, start first), through ``via`` when there is one."""
        b = self.board
        if self.via is None:
            route = shortest_route(b, self.start, self.target)
            assert route is not None  # every space reaches every other on a real board
            return route
        first = shortest_route(b, self.start, self.via)
        second = shortest_route(b, self.via, self.target)
        assert first is not None and second is not None
        return first + second[1:]

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"arrangement": self.arrangement.code, "cells": self.board.to_json(),
                               "start": list(self.start), "target": list(self.target)}
        if self.via is not None:
            out["via"] = list(self.via)
        return out


def _moves(data: list[Any]) -> list[tuple[int, int]]:
    out = []
    for i, c in enumerate(data):
        if not (isinstance(c, list | tuple) and len(c) == 2 and all(
                isinstance(v, int) and not isinstance(v, bool) and 0 <= v < 6 for v in c)):
            raise TrainerError(f"moves[{i}] must be a space [row, col] with both from 0 to 5, got {c!r}")
        out.append((c[0], c[1]))
    return out


class MicroTrainer(TrainerSpec):
    """The trainer spec of Micro Robots (see the module docstring)."""

    game = "micro-robots"
    share_name = "Micro Robots"
    styles = ("shortest", "via")
    lengths = (1, 10)
    base_length = 3
    points_per_move = 160.0
    streak_start = 2
    streak_every = 3
    storm_lengths = (2, 6)  # a one-move route is only a warm-up in the other modes
    week = ((2, "shortest"), (3, "shortest"), (3, "shortest"), (4, "shortest"), (4, "shortest"), (5, "via"),
            (6, "via"))

    def check_length(self, style: str, length: int) -> None:
        if style == "via" and length < 2:
            raise TrainerError("length must be at least 2 for the via style (one move to the via space, one on)")

    def finish(self, style: str, mp: MicroPuzzle) -> TrainerPuzzle:
        """A puzzle with its optimal route, ready to store and serve."""
        route = mp.optimal_route()
        optimal = len(route) - 1
        data = {"id": puzzle_id(self.game, mp.code), **mp.to_json(), "optimal": optimal}
        return TrainerPuzzle(self.game, style, mp.code, optimal, tuple(tuple(c) for c in route[1:]), data, {})

    def draw(self, style: str, rng: random.Random, length: int, time_left: float | None) -> TrainerPuzzle | None:
        arrangement = Arrangement.random(rng)
        spaces = [(r, c) for r in range(6) for c in range(6)]
        picks = rng.sample(spaces, 3)
        return self.finish(style, MicroPuzzle(arrangement, picks[0], picks[1], picks[2] if style == "via" else None))

    def from_code(self, code: str, time_limit: float | None) -> TrainerPuzzle:
        mp = MicroPuzzle.parse(code)
        return self.finish("via" if mp.via is not None else "shortest", mp)

    def validate_code(self, code: str) -> None:
        MicroPuzzle.parse(code)

    def check_attempt(self, tp: TrainerPuzzle, moves: list[Any]) -> Attempt:
        mp = MicroPuzzle.parse(tp.code)
        board = mp.board
        route = [mp.start, *_moves(moves)]
        for k in range(1, len(route)):
            if not board.is_move(route[k - 1], route[k]):
                return Attempt("failed", k, f"move {k}: {board.name(route[k - 1])} to {board.name(route[k])} is not "
                                            "a move (same row or column, same colour or number)")
        n = len(route) - 1
        if route[-1] != mp.target:
            return Attempt("failed", n, f"the robot ends on {board.name(route[-1])}, not on the target "
                                        f"{board.name(mp.target)}")
        if mp.via is not None and mp.via not in route[1:-1]:
            return Attempt("failed", n, f"the robot must pass through {board.name(mp.via)} first")
        return Attempt("optimal" if n <= tp.optimal else "found", n)

    def solution_paths(self, tp: TrainerPuzzle) -> list[Any]:
        """The route's spaces, start first."""
        mp = MicroPuzzle.parse(tp.code)
        return [list(mp.start), *[list(c) for c in tp.solution]]

    def hint_details(self, tp: TrainerPuzzle) -> dict[str, Any]:
        """``kinds``: whether each move goes by ``color`` or by ``number``."""
        mp = MicroPuzzle.parse(tp.code)
        board = mp.board
        route = [mp.start, *[(c[0], c[1]) for c in tp.solution]]
        return {"kinds": ["color" if board.space(a).color == board.space(b).color else "number"
                          for a, b in itertools.pairwise(route)]}


SPEC = MicroTrainer()
