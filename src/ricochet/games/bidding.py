"""The shared bidding round: bids, the never-raise rule and the order of demonstrations.

Pure functions over immutable :class:`Bid` values, shared by the bidding games
(Ricochet Robots, Ricochet Pyramids, Micro Robots).  Time is a float in
seconds handed in by the caller; ``seq`` breaks ties between bids made at the
same instant (it is the position of the bid in the game's event log).

>>> bids = (Bid("ann", 7, 1.0, 1), Bid("bob", 5, 2.0, 2), Bid("ann", 5, 3.0, 3))
>>> [b.player for b in demonstration_order(bids, {"ann": 0, "bob": 2})]
['ann', 'bob']
>>> [b.player for b in demonstration_order(bids, {"ann": 0, "bob": 2}, tournament=True)]
['bob', 'ann']
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

MIN_BID = 1
"""The smallest bid.  Zero is never a bid: a robot already on its target is not
a solution (RULINGS 2), and with must-ricochet off a one-move solution is still
at least one move."""
MAX_BID = 99
"""The largest bid; the seeds mention solutions of "twenty or more" moves."""


class GameError(ValueError):
    """An action that is not allowed now.  The message is for the person who
    tried it (what is wrong and what is allowed); ``code`` is a stable keyword
    for programs (``phase``, ``not_seated``, ``not_host``, ``bid``, ``raise``,
    ``closed``, ``clock``, ``turn``, ``illegal_move``, ``join``, ``round``)."""

    def __init__(self, message: str, code: str = "invalid") -> None:
        super().__init__(message)
        self.code = code

    @property
    def message(self) -> str:
        return str(self)


@dataclass(frozen=True)
class Bid:
    """One announcement: ``player`` says ``moves`` at time ``at`` (``seq``: log order)."""

    player: str
    moves: int
    at: float
    seq: int

    def to_dict(self) -> dict[str, object]:
        return {"player": self.player, "moves": self.moves, "at": self.at}


def validate_moves(moves: object) -> int:
    """The bid as an int, or :class:`GameError` saying what a bid may be."""
    if isinstance(moves, bool) or not isinstance(moves, int):
        raise GameError(f"a bid is a whole number of moves from {MIN_BID} to {MAX_BID}, got {moves!r}", "bid")
    if not MIN_BID <= moves <= MAX_BID:
        raise GameError(f"a bid is a whole number of moves from {MIN_BID} to {MAX_BID}, got {moves}", "bid")
    return moves


def standing_bids(bids: Sequence[Bid]) -> dict[str, Bid]:
    """Each player's standing bid: their lowest number, with the time of the
    *first* time they said that number.  Repeating an equal number is allowed
    (it is not higher) but must not buy a later, better tie position — and
    under the tournament variant an earlier bid is the better one, so the
    first time counts."""
    best: dict[str, Bid] = {}
    for b in bids:
        cur = best.get(b.player)
        if cur is None or b.moves < cur.moves:
            best[b.player] = b
    return best


def check_bid(bids: Sequence[Bid], player: str, moves: object) -> int:
    """Validate a new bid by ``player`` against the bids so far.

    Seed 000: "Once a player has made a bid, he may not change it to a higher
    number."  An equal number is not higher, so it is accepted."""
    n = validate_moves(moves)
    mine = standing_bids(bids).get(player)
    if mine is not None and n > mine.moves:
        raise GameError(f"you may not raise your own bid (you bid {mine.moves}); bid {mine.moves} or less", "raise")
    return n


def demonstration_order(bids: Sequence[Bid], chips: Mapping[str, int], tournament: bool = False,
                        eligible: frozenset[str] | None = None) -> tuple[Bid, ...]:
    """Who demonstrates, first to last: each player's standing bid, lowest
    first.  Equal bids: the player with fewer chips first (seed 000; with
    ``tournament``: the earlier bid first); still equal: the earlier bid
    (RULINGS 7).  ``eligible`` leaves out players who are gone."""
    standing = [b for p, b in standing_bids(bids).items() if eligible is None or p in eligible]
    if tournament:
        return tuple(sorted(standing, key=lambda b: (b.moves, b.at, b.seq)))
    return tuple(sorted(standing, key=lambda b: (b.moves, chips.get(b.player, 0), b.at, b.seq)))
