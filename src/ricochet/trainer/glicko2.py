"""Glicko-2 ratings (Mark E. Glickman, "Example of the Glicko-2 system", 2013).

A small implementation of the published algorithm rather than a library:
the algorithm is one page of arithmetic, the PyPI packages that implement it
are unmaintained or carry their own storage models, and we need two things
they do not give — fractional scores (a non-optimal solution earns partial
credit) and a rating period of one attempt, applied to both the player and
the puzzle.  It is checked against the paper's worked example in
``tests/test_trainer_core.py``.

>>> player = Rating(1500, 200, 0.06)
>>> games = [(Rating(1400, 30), 1.0), (Rating(1550, 100), 0.0), (Rating(1700, 300), 0.0)]
>>> after = update(player, games)
>>> round(after.rating, 2), round(after.rd, 2), round(after.volatility, 6)
(1464.05, 151.52, 0.059996)
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

__all__ = ["DEFAULT", "SCALE", "TAU", "Rating", "expected_score", "update", "update_pair"]

SCALE = 173.7178
"""The factor between the Glicko scale and the Glicko-2 scale (step 2 of the paper)."""
TAU = 0.5
"""The system constant τ: how much volatility may change (the paper suggests 0.3 to 1.2)."""
EPSILON = 1e-6
"""Convergence tolerance of the volatility iteration (step 5.4)."""
MAX_RD = 350.0
MIN_RD = 30.0
"""RD never drops below this: ratings keep moving a little (lichess keeps a floor too)."""


@dataclass(frozen=True)
class Rating:
    """A rating on the Glicko scale: ``rating`` (1500 for a newcomer), its
    deviation ``rd`` (350: unknown) and ``volatility`` σ."""

    rating: float = 1500.0
    rd: float = MAX_RD
    volatility: float = 0.06

    def __post_init__(self) -> None:
        for name in ("rating", "rd", "volatility"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
                raise ValueError(f"{name} must be a finite number, got {value!r}")
        if self.rd <= 0 or self.volatility <= 0:
            raise ValueError(f"rd and volatility must be positive, got {self.rd!r} and {self.volatility!r}")

    @property
    def mu(self) -> float:
        return (self.rating - 1500.0) / SCALE

    @property
    def phi(self) -> float:
        return self.rd / SCALE

    def to_dict(self) -> dict[str, float]:
        return {"rating": round(self.rating, 2), "rd": round(self.rd, 2), "volatility": round(self.volatility, 6)}


DEFAULT = Rating()


def _g(phi: float) -> float:
    return 1.0 / math.sqrt(1.0 + 3.0 * phi * phi / (math.pi * math.pi))


def _e(mu: float, mu_j: float, phi_j: float) -> float:
    return 1.0 / (1.0 + math.exp(-_g(phi_j) * (mu - mu_j)))


def expected_score(a: Rating, b: Rating) -> float:
    """The score ``a`` is expected to make against ``b`` (0 to 1).

    >>> round(expected_score(Rating(1500, 200), Rating(1400, 30)), 3)
    0.639
    """
    return _e(a.mu, b.mu, b.phi)


def _volatility(sigma: float, phi: float, v: float, delta: float, tau: float) -> float:
    """Step 5 of the paper: the new volatility by the Illinois algorithm."""
    a = math.log(sigma * sigma)

    def f(x: float) -> float:
        ex = math.exp(x)
        return (ex * (delta * delta - phi * phi - v - ex) / (2.0 * (phi * phi + v + ex) ** 2)) - (x - a) / (tau * tau)

    big_a = a
    if delta * delta > phi * phi + v:
        big_b = math.log(delta * delta - phi * phi - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        big_b = a - k * tau
    f_a, f_b = f(big_a), f(big_b)
    while abs(big_b - big_a) > EPSILON:
        big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a)
        f_c = f(big_c)
        if f_c * f_b <= 0:
            big_a, f_a = big_b, f_b
        else:
            f_a /= 2.0
        big_b, f_b = big_c, f_c
    return math.exp(big_a / 2.0)


def update(player: Rating, results: Sequence[tuple[Rating, float]], *, tau: float = TAU,
           min_rd: float = 0.0) -> Rating:
    """The player's rating after one rating period with these ``(opponent, score)``
    results (score 1 a win, 0 a loss, anything between for partial credit).

    No results: only the deviation grows (step 6 alone).  ``min_rd``: a floor
    for the new deviation (0 in the paper)."""
    for i, (_, score) in enumerate(results):
        if isinstance(score, bool) or not isinstance(score, (int, float)) or not 0.0 <= score <= 1.0:
            raise ValueError(f"results[{i}]: a score is a number from 0 to 1, got {score!r}")
    if tau <= 0:
        raise ValueError(f"tau must be positive, got {tau!r}")
    mu, phi, sigma = player.mu, player.phi, player.volatility
    if not results:
        new_phi = min(math.sqrt(phi * phi + sigma * sigma), MAX_RD / SCALE)
        return Rating(player.rating, max(new_phi * SCALE, min_rd), sigma)
    v_inv = 0.0
    total = 0.0
    for opp, score in results:
        g = _g(opp.phi)
        e = _e(mu, opp.mu, opp.phi)
        v_inv += g * g * e * (1.0 - e)
        total += g * (score - e)
    v = 1.0 / v_inv
    delta = v * total
    new_sigma = _volatility(sigma, phi, v, delta, tau)
    phi_star = math.sqrt(phi * phi + new_sigma * new_sigma)
    new_phi = 1.0 / math.sqrt(1.0 / (phi_star * phi_star) + 1.0 / v)
    new_mu = mu + new_phi * new_phi * total
    return Rating(1500.0 + SCALE * new_mu, min(max(new_phi * SCALE, min_rd), MAX_RD), new_sigma)


def update_pair(player: Rating, puzzle: Rating, score: float, *, tau: float = TAU) -> tuple[Rating, Rating]:
    """One attempt as a rating period for both sides: the player scored
    ``score`` against the puzzle, the puzzle ``1 - score`` against the player
    (lichess rates its puzzles the same way).  RD floors at ``MIN_RD``.

    >>> p, z = update_pair(Rating(1500, 100), Rating(1500, 100), 1.0)
    >>> p.rating > 1500 > z.rating
    True
    """
    return (update(player, [(puzzle, score)], tau=tau, min_rd=MIN_RD),
            update(puzzle, [(player, 1.0 - score)], tau=tau, min_rd=MIN_RD))
