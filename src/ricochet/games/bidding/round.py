"""The shared bidding round of Ricochet Robots and Ricochet Pyramids.

A round: a goal is drawn (a chip, or a pyramid tree); a robot must reach a
target cell.  The first bid turns the timer (the sand clock); anyone bids any
number of times but never raises their own bid.  When the timer runs out the
bidders demonstrate in order (lowest bid first; ties as the game says), one
move at a time, checked by the engine.  Reaching the target validly within
the bid wins; exceeding the bid, giving up, running out of time or leaving
fails, the robots go back and the next bidder demonstrates.  Nobody succeeds
or nobody bids: nothing is won and the next goal is drawn.

Pure functions over immutable values; time is a float in seconds handed in by
the caller, and ``seq`` (a bid's place in the event log) breaks ties between
bids made at the same instant.

>>> bids = (Bid("ann", 7, 1.0, 1), Bid("bob", 5, 2.0, 2), Bid("ann", 5, 3.0, 3))
>>> [b.player for b in demonstration_order(bids, {"ann": 0, "bob": 2})]
['ann', 'bob']
>>> [b.player for b in demonstration_order(bids, {"ann": 0, "bob": 2}, tournament=True)]
['bob', 'ann']

:class:`BiddingGame` is the state machine of such games; a game fills in
how it is set up, how a goal is drawn, how a round's end is recorded and when
the game ends.  Readings of our own (documented where they act):

* An equal re-bid is allowed (it is not higher) but changes nothing: the
  time of the player's first bid of that number stands (it cannot improve a
  tie position), and no event is logged (repeating a number cannot inflate
  the log).
* Each player demonstrates at most once per round, with their standing bid.
* An illegal move in a demonstration is refused with the reason and the robot
  does not move; the demonstration goes on (the bid and the time limit still
  bind).  A demonstration ends as a failure as soon as the bid is used up
  without success.
* A turned clock (after the no-bid wait) is not turned again by the first bid.
* Times never run backwards: an earlier ``now`` than the last event counts as
  the time of the last event.
"""

from __future__ import annotations

import abc
import enum
import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from ...board import ROBOT_COLORS
from ...geometry import Cell, Direction
from ...notation.wire import wire_text
from ...position import IllegalMove, Move, Path, Position
from ...puzzle import Puzzle, check_solution
from ..events import Event, encode, move_of, path_of
from ..frozen import replace
from ..interface import GameError, Query
from ..messages import cell, field, shown, whole
from ..table import TableGame, TableState, Tx, decide_table, evolve_table, seated_player

__all__ = [
    "MAX_BID",
    "MIN_BID",
    "Attempt",
    "Bid",
    "BidPlaced",
    "BiddingGame",
    "BiddingPhase",
    "BiddingState",
    "ClockRanOut",
    "ClockStarted",
    "Demonstrate",
    "DemonstrationEnded",
    "DemonstrationStarted",
    "GiveUp",
    "MovePlayed",
    "PlaceBid",
    "RoundResult",
    "RoundState",
    "SkipDemonstration",
    "TurnClock",
    "check_bid",
    "demonstration_order",
    "fmt_seconds",
    "standing_bids",
    "validate_moves",
]

MIN_BID = 1
"""The smallest bid.  Zero is never a bid: a robot already on its target is not
a solution (RULINGS 2), and with must-ricochet off a one-move solution is still
at least one move."""
MAX_BID = 99
"""The largest bid; the seeds mention solutions of "twenty or more" moves."""


class BiddingPhase(enum.StrEnum):
    """The phases of a bidding game: ``lobby`` before the start; ``thinking`` a goal
    is up, no clock running; ``bidding`` the timer runs; ``demonstration`` a bidder
    plays it out; ``intermission`` between rounds; ``over`` the game has ended."""

    LOBBY = "lobby"
    THINKING = "thinking"
    BIDDING = "bidding"
    DEMONSTRATION = "demonstration"
    INTERMISSION = "intermission"
    OVER = "over"

    def __repr__(self) -> str:
        return f"BiddingPhase.{self.name}"


# -- bids -------------------------------------------------------------------------------------
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


def check_bid(bids: Sequence[Bid], player: str, moves: object, *, equal: bool = True) -> int:
    """Validate a new bid by ``player`` against the bids so far.

    Seed 000: "Once a player has made a bid, he may not change it to a higher
    number."  An equal number is not higher, so it is accepted — unless
    ``equal`` is false (seed 003: "a player can only re-bid lower than their own
    previous bid").  A higher bid is refused with code ``raise``, a forbidden
    equal one with code ``same_bid`` (a different fault: the message of each
    says what may be bid instead).

    >>> first = [Bid("ann", 5, 1.0, 1)]
    >>> try:
    ...     check_bid(first, "ann", 5, equal=False)
    ... except GameError as e:
    ...     print(e.code, e)
    same_bid you already bid 5: a new bid must be lower, 4 or less
    """
    n = validate_moves(moves)
    mine = standing_bids(bids).get(player)
    if mine is None or n < mine.moves or (equal and n == mine.moves):
        return n
    if equal:
        allowed = f"bid {mine.moves} or less"
    elif mine.moves > MIN_BID:
        allowed = f"a new bid must be lower, {mine.moves - 1} or less"
    else:
        allowed = f"{MIN_BID} is the lowest bid there is"
    if n == mine.moves:
        raise GameError(f"you already bid {mine.moves}: {allowed}", "same_bid")
    raise GameError(f"you may not raise your own bid (you bid {mine.moves}); {allowed}", "raise")


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


def fmt_seconds(seconds: float) -> str:
    """A wait for people: ``45 s``, ``2 min``, ``4 min 30 s``."""
    seconds = max(0, math.ceil(seconds))
    m, s = divmod(seconds, 60)
    if m and s:
        return f"{m} min {s} s"
    return f"{m} min" if m else f"{s} s"


# -- actions -----------------------------------------------------------------------------------
@dataclass(frozen=True)
class PlaceBid:
    """Announce a number of moves (a whole number from 1 to 99)."""

    player: str
    moves: int


@dataclass(frozen=True)
class TurnClock:
    """Turn the timer without a bid; allowed after the no-bid wait (RULINGS 8)."""

    player: str


@dataclass(frozen=True)
class Demonstrate:
    """The demonstrator plays one move; the server checks it with the engine."""

    player: str
    move: Move


@dataclass(frozen=True)
class GiveUp:
    """The demonstrator ends their demonstration as a failure."""

    player: str


@dataclass(frozen=True)
class SkipDemonstration:
    """The host ends someone else's demonstration as a failure (reason ``skipped``):
    for a demonstrator who is away, so the table need not wait out their time.
    The rules' consequence follows, as for any failure: the next bidder."""

    player: str


# -- events ---------------------------------------------------------------------------------------
@dataclass(frozen=True)
class BidPlaced(Event):
    type: ClassVar[str] = "bid_placed"
    round: int
    player: str
    moves: int
    at: float


@dataclass(frozen=True)
class ClockStarted(Event):
    """The timer is turned, by the first bid (``reason="bid"``) or after the no-bid wait (``"turned"``)."""

    type: ClassVar[str] = "clock_started"
    round: int
    player: str
    reason: str
    deadline: float
    at: float


@dataclass(frozen=True)
class ClockRanOut(Event):
    """Bidding is over; ``order`` is who demonstrates, first to last."""

    type: ClassVar[str] = "clock_ran_out"
    _decode: ClassVar[dict[str, Callable[[Any], Any]]] = {"order": tuple}
    round: int
    order: tuple[str, ...]
    at: float


@dataclass(frozen=True)
class DemonstrationStarted(Event):
    type: ClassVar[str] = "demonstration_started"
    round: int
    player: str
    bid: int
    deadline: float
    at: float


@dataclass(frozen=True)
class MovePlayed(Event):
    """One demonstrated move, its path (for animation) and the moves counted so far."""

    type: ClassVar[str] = "move_played"
    _decode: ClassVar[dict[str, Callable[[Any], Any]]] = {"move": move_of, "path": path_of}
    round: int
    player: str
    move: Move
    path: Path
    cost: int
    at: float


@dataclass(frozen=True)
class DemonstrationEnded(Event):
    """``reason``: ``solved`` (success), ``too_long`` (more moves than the bid),
    ``out_of_moves`` (the bid used up without success), ``gave_up``, ``skipped`` (by the host),
    ``timeout`` or ``left``."""

    type: ClassVar[str] = "demonstration_ended"
    round: int
    player: str
    success: bool
    reason: str
    cost: int
    at: float


ROUND_EVENTS: tuple[type[Event], ...] = (
    BidPlaced, ClockStarted, ClockRanOut, DemonstrationStarted, MovePlayed, DemonstrationEnded)


# -- state ----------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Attempt:
    """One demonstration of a round and how it ended."""

    player: str
    bid: int
    moves: tuple[Move, ...]
    paths: tuple[Path, ...]
    cost: int
    success: bool
    reason: str


@dataclass(frozen=True)
class RoundState:
    """The round in play.  ``goal`` is the game's value for what was drawn (a
    chip, a pyramid tree); ``start`` is the position at the start of the round
    (where the robots go back on a failure); ``order`` is fixed when the timer
    runs out."""

    number: int
    goal: Any
    target: Cell
    active: int | None
    drawn_at: float
    start: Position
    bids: tuple[Bid, ...] = ()
    clock_deadline: float | None = None
    clock_by: str | None = None
    clock_reason: str | None = None
    order: tuple[str, ...] = ()
    demonstrator: str | None = None
    demo_bid: int | None = None
    demo_deadline: float | None = None
    moves: tuple[Move, ...] = ()
    paths: tuple[Path, ...] = ()
    cost: int = 0
    attempts: tuple[Attempt, ...] = ()

    @property
    def standing(self) -> dict[str, Bid]:
        """Each bidder's standing bid (lowest, with the time it was first made)."""
        return standing_bids(self.bids)

    @property
    def puzzle(self) -> Puzzle:
        """The round's puzzle, played by the table's rules (its start position carries them)."""
        return Puzzle(self.start, self.target, self.active)


@dataclass(frozen=True)
class RoundResult:
    """A finished round, for the history (``result``: ``won``, ``failed``, ``no_bid`` …)."""

    number: int
    goal: Any
    result: str
    winner: str | None
    bids: tuple[Bid, ...]
    attempts: tuple[Attempt, ...]
    target: Cell
    active: int | None
    start: tuple[Any, ...]


@dataclass(frozen=True)
class BiddingState(TableState):
    """The state of a bidding game (games subclass it with their own fields)."""

    phases: ClassVar[type[enum.StrEnum]] = BiddingPhase
    board: Any = None
    position: Position | None = None
    """The robots now (during a demonstration: as moved so far)."""
    round: RoundState | None = None
    history: tuple[RoundResult, ...] = ()
    intermission_until: float | None = None
    target_score: int | None = None
    """Points that end the game (``None``: the game's other ending)."""

    @property
    def robots(self) -> tuple[Any, ...]:
        return self.position.robots if self.position else ()

    def clocks_shifted(self, dt: float) -> Any:
        rnd = self.round
        if rnd is not None:
            rnd = replace(rnd, drawn_at=rnd.drawn_at + dt,
                          clock_deadline=None if rnd.clock_deadline is None else rnd.clock_deadline + dt,
                          demo_deadline=None if rnd.demo_deadline is None else rnd.demo_deadline + dt)
        until = None if self.intermission_until is None else self.intermission_until + dt
        return replace(self, round=rnd, intermission_until=until)


def _attempt_dict(a: Attempt, *, paths: bool = True) -> dict[str, Any]:
    d = {"player": a.player, "bid": a.bid, "moves": encode(a.moves), "paths": encode(a.paths),
         "cost": a.cost, "success": a.success, "reason": a.reason}
    if not paths:
        del d["paths"]
    return d


# -- the state machine ----------------------------------------------------------------------------
class BiddingGame(TableGame):
    """A bidding game: the shared round, filled in by a game's hooks.

    The configuration must have ``rules``, ``clock_seconds``,
    ``no_bid_wait_seconds``, ``demo_seconds``, ``demo_seconds_per_move``,
    ``intermission_seconds`` and ``min_players``."""

    message_types: ClassVar[tuple[str, ...]] = ("bid", "move", "give_up", "skip_demo", "turn_clock",
                                                "request_solution")
    timer_name: ClassVar[str] = "timer"
    """What the timer is called in messages (Ricochet Robots: the sand clock)."""
    goal_name: ClassVar[str] = "goal"
    """What is drawn each round, in messages (Ricochet Robots: a chip)."""
    equal_rebid: ClassVar[bool] = True
    """May a player bid their own standing number again?  ``True`` (seed 000: it is not
    higher): accepted, and it changes nothing (no event); ``False`` (seed 003: "only re-bid
    lower"): refused, code ``same_bid``."""

    def __init__(self) -> None:
        super().__init__()
        self.events.update({c.type: c for c in ROUND_EVENTS})
        # The last move checked by a demonstration, with what it gave: folding its MovePlayed into
        # the state at once needs the same new position, so the move is not slid twice.  Keyed by
        # the position object itself (immutable): any other position or move slides again.
        self._played: tuple[Position, Move, tuple[Position, Path]] | None = None

    # -- hooks ------------------------------------------------------------------------------
    @abc.abstractmethod
    def setup(self, tx: Tx, now: float) -> None:
        """The host started: emit the set-up and draw the first goal."""

    @abc.abstractmethod
    def draw(self, tx: Tx, now: float) -> None:
        """Emit the event that starts the next round."""

    @abc.abstractmethod
    def round_ended(self, rnd: RoundState, result: str, winner: str | None, now: float) -> Event:
        """The event that ends ``rnd`` with ``result`` (``won``, ``failed`` or ``no_bid``)."""

    @abc.abstractmethod
    def evolve_game(self, s: Any, event: Event) -> Any:
        """Fold one of the game's own events (``s`` is already stamped)."""

    @abc.abstractmethod
    def after_round(self, tx: Tx, now: float, winner: str | None) -> None:
        """A round ended: end the game, or draw the next goal (now or after the intermission)."""

    def order(self, state: Any, rnd: RoundState) -> tuple[Bid, ...]:
        """Who demonstrates, first to last (default: lowest bid, then the earlier bid)."""
        return demonstration_order(rnd.bids, state.scores, True, frozenset(state.seated))

    def may_bid(self, state: Any, rnd: RoundState) -> None:
        """Raise :class:`GameError` while bids are not open yet (default: always open)."""

    def decide_game(self, tx: Tx, action: object, now: float) -> None:
        """The game's own actions (default: none)."""
        raise GameError(f"unknown action {type(action).__name__}", "invalid")

    def rules(self, state: Any) -> Any:
        return state.config.rules

    # -- Game ---------------------------------------------------------------------------------
    def clock(self, state: Any) -> float | None:
        rnd = state.round
        if state.phase == "bidding" and rnd is not None:
            return rnd.clock_deadline  # type: ignore[no-any-return]
        if state.phase == "demonstration" and rnd is not None:
            return rnd.demo_deadline  # type: ignore[no-any-return]
        if state.phase == "intermission" and rnd is None:
            return state.intermission_until  # type: ignore[no-any-return]
        return None

    # -- evolve: events → state -----------------------------------------------------------------
    def evolve(self, state: Any, event: Event) -> Any:
        """Fold one event into the state (no checks: events are facts)."""
        s = replace(state, version=state.version + 1, time=max(state.time, event.at))
        table = evolve_table(s, event)
        if table is not None:
            return replace(table, intermission_until=None) if table.phase == "over" else table
        rnd = s.round
        if not isinstance(event, ROUND_EVENTS):
            return self.evolve_game(s, event)
        assert rnd is not None, f"{event.type} outside a round"
        if isinstance(event, BidPlaced):
            # seq = the bid's place in the log: breaks ties between bids made at the same instant.
            bid = Bid(event.player, event.moves, event.at, state.version)
            return replace(s, round=replace(rnd, bids=rnd.bids + (bid,)))
        if isinstance(event, ClockStarted):
            return replace(s, phase=BiddingPhase.BIDDING, round=replace(
                rnd, clock_deadline=event.deadline, clock_by=event.player, clock_reason=event.reason))
        if isinstance(event, ClockRanOut):
            return replace(s, round=replace(rnd, order=event.order))
        if isinstance(event, DemonstrationStarted):
            return replace(s, phase=BiddingPhase.DEMONSTRATION, position=rnd.start, round=replace(
                rnd, demonstrator=event.player, demo_bid=event.bid, demo_deadline=event.deadline,
                moves=(), paths=(), cost=0))
        if isinstance(event, MovePlayed):
            assert s.position is not None
            played = self._played
            if played is not None and played[0] is s.position and played[1] == event.move:
                position, path = played[2]
            else:
                position, path = s.position.play(event.move)
            return replace(s, position=position, round=replace(
                rnd, moves=rnd.moves + (event.move,), paths=rnd.paths + (path,), cost=event.cost))
        assert isinstance(event, DemonstrationEnded) and rnd.demo_bid is not None
        attempt = Attempt(event.player, rnd.demo_bid, rnd.moves, rnd.paths, event.cost, event.success, event.reason)
        rnd = replace(rnd, attempts=rnd.attempts + (attempt,), demonstrator=None, demo_bid=None,
                      demo_deadline=None, moves=(), paths=(), cost=0)
        # Failure: the robots go back to where they started the round (seed 000: the square tokens).
        return replace(s, round=rnd, position=s.position if event.success else rnd.start)

    @staticmethod
    def begin_round(s: Any, rnd: RoundState) -> Any:
        """The state as a new round begins (for the game's draw event)."""
        return replace(s, phase=BiddingPhase.THINKING, position=rnd.start, intermission_until=None, round=rnd)

    @staticmethod
    def close_round(s: Any, result: str, winner: str | None, at: float, won: Any) -> Any:
        """The state after the round in play ended: into the history; ``won`` goes to ``winner``."""
        rnd = s.round
        assert rnd is not None
        done = RoundResult(rnd.number, rnd.goal, result, winner, rnd.bids, rnd.attempts, rnd.target, rnd.active,
                           rnd.start.robots)
        s = replace(s, round=None, history=s.history + (done,), phase=BiddingPhase.INTERMISSION,
                    intermission_until=at + s.config.intermission_seconds)
        if winner is not None:
            p = s.player(winner)
            assert p is not None
            s = replace(s, players=s.with_player(winner, won=p.won + (won,)))
        return s

    # -- decide: actions and time → events ----------------------------------------------------------
    def decide(self, tx: Tx, action: object, now: float) -> None:
        s = tx.state
        if decide_table(tx, action, now, min_players=s.config.min_players, start=self.setup, left=self._left):
            return
        if isinstance(action, PlaceBid):
            seated_player(s, action.player)
            rnd = self._round_phase(s, "bid")
            self.may_bid(s, rnd)
            moves = check_bid(rnd.bids, action.player, action.moves, equal=self.equal_rebid)
            mine = rnd.standing.get(action.player)
            if mine is not None and mine.moves == moves:
                return  # an equal re-bid: the first time of that number stands, nothing to log
            tx.emit(BidPlaced(rnd.number, action.player, moves, now))
            if s.phase == "thinking":
                # The first bid turns the timer (seed 000 "turns over the sand timer", seed 003).
                tx.emit(ClockStarted(rnd.number, action.player, "bid", now + s.config.clock_seconds, now))
        elif isinstance(action, TurnClock):
            seated_player(s, action.player)
            rnd = self._round_phase(s, f"turn the {self.timer_name}")
            if s.phase == "bidding":
                assert rnd.clock_deadline is not None
                raise GameError(f"the {self.timer_name} is already running ({fmt_seconds(rnd.clock_deadline - now)} "
                                "left)", "clock")
            allowed = rnd.drawn_at + s.config.no_bid_wait_seconds
            if now < allowed:
                raise GameError(f"the {self.timer_name} may be turned without a bid only after "
                                f"{fmt_seconds(s.config.no_bid_wait_seconds)} without a bid: "
                                f"{fmt_seconds(allowed - now)} to go (or bid)", "clock")
            tx.emit(ClockStarted(rnd.number, action.player, "turned", now + s.config.clock_seconds, now))
        elif isinstance(action, Demonstrate | GiveUp):
            seated_player(s, action.player)
            rnd = s.round
            if s.phase != "demonstration" or rnd is None:
                raise GameError("there is no demonstration now", "phase")
            if rnd.demonstrator != action.player:
                raise GameError(f"it is {s.name_of(rnd.demonstrator)}'s demonstration", "turn")
            if isinstance(action, GiveUp):
                self._end_demo(tx, False, "gave_up", now)
            else:
                self._demonstrate(tx, rnd, action.move, now)
        elif isinstance(action, SkipDemonstration):
            if s.host != action.player:
                raise GameError(f"only the host ({s.name_of(s.host)}) can skip a demonstration", "not_host")
            rnd = s.round
            if s.phase != "demonstration" or rnd is None:
                raise GameError("there is no demonstration now", "phase")
            if rnd.demonstrator == action.player:
                raise GameError("it is your own demonstration: give up instead", "turn")
            self._end_demo(tx, False, "skipped", now)
        else:
            self.decide_game(tx, action, now)

    def _left(self, tx: Tx, player: str, now: float) -> None:
        rnd = tx.state.round
        if tx.state.phase == "demonstration" and rnd is not None and rnd.demonstrator == player:
            self._end_demo(tx, False, "left", now)

    def _round_phase(self, state: Any, doing: str) -> RoundState:
        """The round, when bids and clock turns are allowed now; else the reason why not."""
        if state.phase == "lobby":
            raise GameError(f"the game has not started: you cannot {doing} yet", "phase")
        if state.phase == "over":
            raise GameError("the game is over", "phase")
        if state.phase == "intermission":
            raise GameError(f"the round is over: wait for the next {self.goal_name} to {doing}", "phase")
        if state.phase == "demonstration":
            assert state.round is not None
            raise GameError(f"the {self.timer_name} has run out: it is {state.name_of(state.round.demonstrator)}'s "
                            "demonstration", "closed")
        assert state.round is not None
        return state.round  # type: ignore[no-any-return]

    def _start_demo(self, tx: Tx, player: str, now: float) -> None:
        s = tx.state
        assert s.round is not None
        bid = s.round.standing[player].moves
        deadline = now + s.config.demo_seconds + s.config.demo_seconds_per_move * bid
        tx.emit(DemonstrationStarted(s.round.number, player, bid, deadline, now))

    def end_round(self, tx: Tx, result: str, winner: str | None, now: float) -> None:
        rnd = tx.state.round
        assert rnd is not None
        tx.emit(self.round_ended(rnd, result, winner, now))
        self.after_round(tx, now, winner)

    def _next_demo(self, tx: Tx, now: float, after: str | None) -> None:
        """The next seated bidder in the order after ``after`` demonstrates, or the round ends unwon."""
        s = tx.state
        assert s.round is not None
        order = s.round.order
        rest = order[order.index(after) + 1:] if after is not None else order
        seated = set(s.seated)
        for p in rest:
            if p in seated:
                self._start_demo(tx, p, now)
                return
        self.end_round(tx, "failed" if s.round.attempts else "no_bid", None, now)

    def _end_demo(self, tx: Tx, success: bool, reason: str, now: float) -> None:
        rnd = tx.state.round
        assert rnd is not None and rnd.demonstrator is not None
        player = rnd.demonstrator
        tx.emit(DemonstrationEnded(rnd.number, player, success, reason, rnd.cost, now))
        if success:
            self.end_round(tx, "won", player, now)
        else:
            self._next_demo(tx, now, player)

    def _clock_out(self, tx: Tx, now: float) -> None:
        rnd = tx.state.round
        assert rnd is not None
        order = self.order(tx.state, rnd)
        tx.emit(ClockRanOut(rnd.number, tuple(b.player for b in order), now))
        self._next_demo(tx, now, None)

    def time_up(self, tx: Tx, due: float) -> None:  # pragma: no cover - run_clocks below decides
        raise NotImplementedError

    def run_clocks(self, tx: Tx, now: float) -> None:
        # Every clock of a round runs out "now" (the time of the tick), not at its deadline: the
        # logs of existing rooms were written that way.
        while True:
            s = tx.state
            rnd = s.round
            if s.phase == "bidding" and rnd is not None and rnd.clock_deadline is not None \
                    and now >= rnd.clock_deadline:
                self._clock_out(tx, now)
            elif (s.phase == "demonstration" and rnd is not None and rnd.demo_deadline is not None
                  and now >= rnd.demo_deadline):
                self._end_demo(tx, False, "timeout", now)
            elif (s.phase == "intermission" and rnd is None and s.intermission_until is not None
                  and now >= s.intermission_until):
                self.draw(tx, now)
            else:
                return

    def _demonstrate(self, tx: Tx, rnd: RoundState, move: object, now: float) -> None:
        s = tx.state
        assert s.position is not None and rnd.demo_bid is not None
        if not isinstance(move, Move):
            raise GameError(f"a move names a robot and a direction, got {move!r}", "illegal_move")
        try:
            moved, path = s.position.play(move)
        except IllegalMove as e:
            # Refused: the robot does not move and the demonstration goes on (bid and time still bind).
            raise GameError(f"illegal move: {e}", "illegal_move") from None
        self._played = (s.position, move, (moved, path))
        cost = rnd.cost + path.cost
        tx.emit(MovePlayed(rnd.number, rnd.demonstrator or "", move, path, cost, now))
        after = tx.state.round
        assert after is not None and after.demo_bid is not None
        puzzle = after.puzzle
        # Only a position with the right robot on the target can be a solution: replay the whole
        # demonstration (the authoritative check) only then, not at every move.
        reached = tx.state.position is not None and puzzle.solved_by(tx.state.position) is not None
        if reached and check_solution(puzzle, after.moves, max_cost=after.demo_bid).ok:
            self._end_demo(tx, True, "solved", now)
        elif cost > after.demo_bid:
            self._end_demo(tx, False, "too_long", now)
        elif cost == after.demo_bid:
            self._end_demo(tx, False, "out_of_moves", now)

    # -- protocol -----------------------------------------------------------------------------------
    def parse_action(self, state: Any, player: str, msg: Mapping[str, Any]) -> Any:
        """``bid`` → :class:`PlaceBid`, ``move`` → :class:`Demonstrate` (the robot
        by colour or index; ``stop`` for the transparent robot), ``give_up``,
        ``skip_demo`` (the host), ``turn_clock``; ``request_solution`` → a :class:`Query`."""
        kind = msg["type"]
        if kind == "bid":
            # The range is the round's to judge (code "bid"), with the never-raise rule.
            return PlaceBid(player, whole(field(msg, "moves", "the number of moves you bid"), "moves"))
        if kind == "move":
            return Demonstrate(player, self._move(state, msg))
        if kind == "give_up":
            return GiveUp(player)
        if kind == "skip_demo":
            return SkipDemonstration(player)
        if kind == "turn_clock":
            return TurnClock(player)
        if kind == "request_solution":
            return Query(player, kind, {"round": whole(field(msg, "round", "the round number"), "round", 1)})
        raise GameError(f"unknown message type {kind!r}", "unknown_type")

    def known_solution(self, state: Any, number: int) -> tuple[int | None, tuple[Move, ...]]:
        """The optimal length and moves of finished round ``number``; :class:`GameError`
        ``not_yet`` when they are not known (yet)."""
        raise GameError(f"round {number} has no known solution", "not_yet")

    def answer(self, state: Any, query: Query) -> dict[str, Any]:
        """``request_solution``: the optimal solution of a finished round, with its paths."""
        number = query.fields["round"]
        result = next((r for r in state.history if r.number == number), None)
        if result is None:
            if state.round is not None and state.round.number == number:
                raise GameError(f"round {number} is still being played: the solution is shown after it", "not_yet")
            raise GameError(f"there is no finished round {number} in this game", "not_yet")
        optimal, solution = self.known_solution(state, number)
        start = Position(state.board, result.start, goal=result.target, rules=self.rules(state))
        _, paths = start.replay(solution)
        return {"type": "solution", "round": number, "optimal": optimal, "moves": encode(solution),
                "paths": encode(paths)}

    @staticmethod
    def _move(state: Any, msg: Mapping[str, Any]) -> Move:
        robot = msg.get("robot")
        if isinstance(robot, str):
            if robot not in ROBOT_COLORS:
                raise GameError(f"robot must be one of {', '.join(ROBOT_COLORS)} (or a whole index), got {shown(robot)}",
                                "bad_message")
        elif isinstance(robot, int) and not isinstance(robot, bool):
            whole(robot, "robot", 0, len(ROBOT_COLORS) - 1)
        else:
            raise GameError(f"move needs \"robot\": a colour like \"red\" (or a whole index), got {shown(robot)}",
                            "bad_message")
        direction = msg.get("direction")
        if not isinstance(direction, str) or direction.upper() not in ("N", "E", "S", "W"):
            raise GameError(f"move needs \"direction\": one of N, E, S, W, got {direction!r}", "bad_message")
        stop = msg.get("stop")
        stop_cell = None if stop is None else cell(stop, "stop")
        position = state.position
        if position is None:
            raise GameError("the game has not started: there is nothing to move", "phase")
        if isinstance(robot, str):
            try:
                robot = position.index_of(robot)
            except KeyError:
                colors = ", ".join(r.color for r in position.robots)
                raise GameError(f"there is no {robot} robot in this game; robots: {colors}", "bad_message") from None
        elif robot >= len(position.robots):
            raise GameError(f"robot index {robot} is out of range: 0 to {len(position.robots) - 1}", "bad_message")
        return Move(robot, Direction[direction.upper()], stop_cell)

    # -- views ------------------------------------------------------------------------------------
    def round_view(self, state: Any, rnd: RoundState, viewer: str | None, *, lists: bool = True) -> dict[str, Any]:
        """The shared part of ``state.round`` in a view.  ``lists=False``: ``bids``, ``moves`` and
        ``paths`` are left ``None``, for :meth:`slim`, which drops or replaces them (an event's
        state: they were encoded at every move only to be thrown away)."""
        standing = rnd.standing
        return {
            "number": rnd.number, "target": list(rnd.target), "active": rnd.active,
            "active_color": None if rnd.active is None else rnd.start.robots[rnd.active].color,
            "drawn_at": rnd.drawn_at, "clock_turnable_at": rnd.drawn_at + state.config.no_bid_wait_seconds,
            "start": encode(rnd.start.robots),
            "bids": [b.to_dict() for b in rnd.bids] if lists else None,
            "standing": [standing[p].to_dict() for p in sorted(standing, key=lambda q: (
                standing[q].moves, standing[q].at, standing[q].seq))],
            "your_bid": standing[viewer].moves if viewer in standing else None,
            "clock": None if rnd.clock_deadline is None else {
                "deadline": rnd.clock_deadline, "by": rnd.clock_by, "reason": rnd.clock_reason},
            "order": list(rnd.order), "demonstrator": rnd.demonstrator, "demo_bid": rnd.demo_bid,
            "demo_deadline": rnd.demo_deadline, "moves": encode(rnd.moves) if lists else None,
            "paths": encode(rnd.paths) if lists else None,
            "cost": rnd.cost, "attempts": [_attempt_dict(a) for a in rnd.attempts],
        }

    @staticmethod
    def history_view(r: RoundResult) -> dict[str, Any]:
        """The shared part of one finished round in a view."""
        return {"number": r.number, "result": r.result, "winner": r.winner, "target": list(r.target),
                "active": r.active, "start": encode(r.start), "bids": [b.to_dict() for b in r.bids],
                "attempts": [_attempt_dict(a) for a in r.attempts]}

    @staticmethod
    def slim(view: dict[str, Any], rnd: RoundState | None = None, event_type: str | None = None) -> dict[str, Any]:
        """A view made the same for every viewer and lighter: without ``you``
        and ``round.your_bid``, without ``round.bids`` (every bid of the round:
        it would make each message of a round longer than the one before; each
        player's standing bid is in ``round.standing``), finished attempts
        without their paths (their moves are there; the paths come with full
        states).  With ``rnd`` (the view's round), the demonstration's moves and
        paths are pre-encoded (:func:`~ricochet.notation.wire.wire_text`): for
        the server's encoder, not :mod:`json`.  After a ``move_played`` event
        (``event_type``), which adds one move and one path, they are not resent:
        the view's ``extend`` holds the new ones (``docs/protocol.md``, section 2.3),
        so a demonstration's message no longer grows with every move before it."""
        view.pop("you", None)
        if view.get("round") is not None:
            view["round"].pop("your_bid", None)
            view["round"].pop("bids", None)
            for a in view["round"]["attempts"]:
                a.pop("paths", None)
            if rnd is not None and event_type == MovePlayed.type and rnd.moves:
                at = len(rnd.moves) - 1
                del view["round"]["moves"], view["round"]["paths"]
                view["extend"] = {"round.moves": {"at": at, "items": [encode(rnd.moves[at])]},
                                  "round.paths": {"at": at, "items": [encode(rnd.paths[at])]}}
            elif rnd is not None:
                view["round"]["moves"] = wire_text(rnd.moves)
                view["round"]["paths"] = wire_text(rnd.paths)
        return view
