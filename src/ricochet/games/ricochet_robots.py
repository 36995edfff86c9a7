"""The game flow of Ricochet Robots as a pure, event-sourced state machine.

Nothing here reads a clock, touches I/O or draws unseeded randomness.  The
shell (the server) hands in every action with the current time and calls
:func:`tick` regularly so clocks run out; each call returns the new state and
the events it produced.  Events are the truth: :func:`fold` rebuilds the very
same state from the configuration and the event log.

    state = new_game(config)
    state, events = apply(state, Join("p1", "Ann"), now)
    state, events = tick(state, now)          # clocks, demonstration time limits
    fold(config, log) == state                # the log is enough

A round (seed 000, RULINGS 7–9): a chip is drawn from the shuffled pile; its
target is the round's target and the robot of its colour the active robot
(the cosmic vortex: any robot).  The first bid turns the sand clock; anyone
bids any number of times but never raises their own bid.  When the clock runs
out the bidders demonstrate in order (lowest bid; ties: fewer chips first, or
the earlier bid in the tournament variant; still equal: the earlier bid), one
move at a time.  Reaching the target validly within the bid wins the chip and
the robots stay; exceeding the bid, giving up, running out of time or leaving
fails, the robots go back and the next bidder demonstrates.  Nobody succeeds
or nobody bids: the chip goes back into the pile and another is drawn.

Readings of our own (documented where they act):

* An equal re-bid is allowed (it is not higher) but keeps the time of the
  player's first bid of that number, so it cannot improve a tie position.
* Each player demonstrates at most once per round, with their standing bid.
* An illegal move in a demonstration is refused with the reason and the robot
  does not move; the demonstration goes on (the bid and the time limit still
  bind).  A demonstration ends as a failure as soon as the bid is used up
  without success.
* A turned clock (after the no-bid wait) is not turned again by the first bid.
* The score that ends the game is fixed at the start from the number of
  players seated then; players who join later play on the same target.
* "Pile exhausted with no chip winnable": the game ends when every chip left
  in the pile has been drawn and returned unwon since the last chip was won.
* Times never run backwards: an earlier ``now`` than the last event counts as
  the time of the last event.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, fields, replace
from typing import Any, ClassVar

from ..board import Board
from ..geometry import Cell, Direction
from ..position import IllegalMove, Move, Path, Position, PositionError, Robot, Step
from ..puzzle import Puzzle, check_solution
from ..rules import GAME, Rules
from . import bidding
from .bidding import GameError, check_bid, demonstration_order, standing_bids

__all__ = [
    "EVENT_TYPES",
    "Attempt",
    "Bid",
    "BidPlaced",
    "Chip",
    "ChipDrawn",
    "ClockRanOut",
    "ClockStarted",
    "ConfigError",
    "Demonstrate",
    "DemonstrationEnded",
    "DemonstrationStarted",
    "EndGame",
    "Event",
    "GameConfig",
    "GameEnded",
    "GameError",
    "GameStarted",
    "GameState",
    "GiveUp",
    "Join",
    "Leave",
    "MovePlayed",
    "PlayerJoined",
    "PlayerLeft",
    "PlayerState",
    "ReportSolution",
    "RoundEnded",
    "RoundResult",
    "RoundSolved",
    "RoundState",
    "Start",
    "TurnClock",
    "apply",
    "event_from_dict",
    "evolve",
    "fold",
    "new_game",
    "target_score_for",
    "tick",
]

PHASES = ("lobby", "thinking", "bidding", "demonstration", "intermission", "over")
"""``lobby`` before the start; ``thinking`` a chip is up, no clock running;
``bidding`` the sand clock runs; ``demonstration`` a bidder plays it out;
``intermission`` between rounds; ``over`` the game has ended."""

MAX_NAME = 32
MAX_ID = 64


class ConfigError(ValueError):
    """A game configuration that cannot be played; the message names the field."""


@dataclass(frozen=True, order=True)
class Chip:
    """A round target chip: colour (``any`` for the vortex) and symbol."""

    color: str
    symbol: str

    @property
    def name(self) -> str:
        return "vortex" if self.symbol == "vortex" else f"{self.color} {self.symbol}"

    def to_dict(self) -> dict[str, str]:
        return {"color": self.color, "symbol": self.symbol}


def target_score_for(players: int) -> int | None:
    """Chips that end the game (seed 000, RULINGS 9): 2 players 8, 3 → 6,
    4 → 5; more than 4: ``None`` (play until all chips are won).  One player
    (a practice game) plays to 8, like two.

    >>> [target_score_for(n) for n in (1, 2, 3, 4, 5)]
    [8, 8, 6, 5, None]
    """
    if players <= 2:
        return 8
    return {3: 6, 4: 5}.get(players)


# -- configuration ---------------------------------------------------------------
def _seconds(name: str, value: object, *, positive: bool) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        raise ConfigError(f"{name} must be a number of seconds, got {value!r}")
    if value < 0 or (positive and value == 0):
        raise ConfigError(f"{name} must be {'more than' if positive else 'at least'} 0 seconds, got {value!r}")
    return float(value)


@dataclass(frozen=True)
class GameConfig:
    """How a game is played; validated on construction (:class:`ConfigError`).

    The board is ``board`` (any :class:`~ricochet.board.Board`, e.g. a tiny
    test board; its printed targets are the chips) or the four tiles
    ``tiles`` (NW, NE, SE, SW, e.g. ``"1A,3B,4A,2A"``; must hold all 17
    targets, seed 000 "Expansion rules"), or, when both are ``None``, a random
    arrangement of the faces ``faces`` drawn from ``seed``.  ``robots`` are the
    starting robots (``None``: random cells from ``seed``).
    """

    tiles: tuple[str, str, str, str] | None = None
    faces: str = "AB"
    board: Board | None = None
    robots: tuple[Robot, ...] | None = None
    rules: Rules = GAME
    clock_seconds: float = 60.0
    """The sand clock (seed 000: "approximately 1 minute")."""
    no_bid_wait_seconds: float = 300.0
    """Wait without a bid before anyone may turn the clock (RULINGS 8: 5 minutes)."""
    demo_seconds: float = 60.0
    """Time limit of a demonstration: this plus ``demo_seconds_per_move`` per bid move."""
    demo_seconds_per_move: float = 10.0
    intermission_seconds: float = 0.0
    """Pause after a round before the next chip (0: the next round begins at once, as in the seed)."""
    target_score: int | None = None
    """Chips that end the game; ``None``: by the number of players (:func:`target_score_for`)."""
    tournament: bool = False
    """Tournament variant: equal bids are ordered by the earlier bid, not by fewer chips."""
    min_players: int = 2
    seed: int = 0
    """Seeds the pile draws and a random set-up; never shown to players."""

    def __post_init__(self) -> None:
        from ..tiles import TileError, assemble, parse_arrangement  # lazy: tiles loads data files

        if self.tiles is not None and self.board is not None:
            raise ConfigError("give either tiles or board, not both")
        if self.tiles is not None:
            raw: object = self.tiles
            if not isinstance(raw, str):
                if not (isinstance(raw, Sequence) and all(isinstance(n, str) for n in raw)):
                    raise ConfigError(f"tiles must be four tile names like '1A,3B,4A,2A', got {raw!r}")
                raw = ",".join(raw)
            try:
                names = parse_arrangement(str(raw))
                assemble(*names, require_all_targets=True)
            except TileError as e:
                raise ConfigError(f"tiles: {e}") from None
            object.__setattr__(self, "tiles", names)
        if self.board is not None and not isinstance(self.board, Board):
            raise ConfigError(f"board must be a Board, got {type(self.board).__name__}")
        if self.board is None and self.tiles is None and self.faces.strip().upper() not in ("AB", "CD", "ANY"):
            raise ConfigError(f"faces must be 'AB', 'CD' or 'any', got {self.faces!r}")
        if not isinstance(self.rules, Rules):
            raise ConfigError(f"rules must be a Rules value, got {type(self.rules).__name__}")
        for name, positive in (("clock_seconds", True), ("no_bid_wait_seconds", False), ("demo_seconds", True),
                               ("demo_seconds_per_move", False), ("intermission_seconds", False)):
            object.__setattr__(self, name, _seconds(name, getattr(self, name), positive=positive))
        if self.target_score is not None and (isinstance(self.target_score, bool)
                                              or not isinstance(self.target_score, int) or self.target_score < 1):
            raise ConfigError(f"target_score must be a whole number of chips of at least 1 or None, "
                              f"got {self.target_score!r}")
        if not isinstance(self.tournament, bool):
            raise ConfigError(f"tournament must be true or false, got {self.tournament!r}")
        if isinstance(self.min_players, bool) or not isinstance(self.min_players, int) or self.min_players < 1:
            raise ConfigError(f"min_players must be a whole number of at least 1, got {self.min_players!r}")
        if isinstance(self.seed, bool) or not isinstance(self.seed, int):
            raise ConfigError(f"seed must be an integer, got {self.seed!r}")
        if self.board is not None:
            if not any(t for t in self.board.targets):
                raise ConfigError("board: it has no targets, so there are no chips to play for")
            for t in self.board.targets:
                if sum(1 for u in self.board.targets if (u.color, u.symbol) == (t.color, t.symbol)) > 1:
                    raise ConfigError(f"board: the {t.name} target is printed twice; each chip needs one target")
        if self.robots is not None:
            robots = tuple(self.robots)
            if not all(isinstance(r, Robot) for r in robots):
                raise ConfigError("robots must be Robot values (colour and cell)")
            object.__setattr__(self, "robots", robots)
            colors = {r.color for r in robots}
            for neutral in ("silver", "transparent"):
                if (neutral in colors) != getattr(self.rules, neutral):
                    on = getattr(self.rules, neutral)
                    raise ConfigError(f"robots: the {neutral} robot is {'missing' if on else 'there'} but the "
                                      f"{neutral} rule is {'on' if on else 'off'}")
            board = self.board if self.board is not None else (assemble(*self.tiles) if self.tiles else None)
            if board is None:
                raise ConfigError("robots need a board: give tiles or board too (or leave robots to the seed)")
            try:
                Position(board, robots)
            except PositionError as e:
                raise ConfigError(f"robots: {e}") from None
            for t in board.targets:
                if t.color != "any" and t.color not in colors:
                    raise ConfigError(f"robots: the board has a {t.name} target but there is no {t.color} robot")

    def board_for(self, arrangement: tuple[str, ...] | None) -> Board:
        """The board of this game, given the arrangement announced at the start."""
        if self.board is not None:
            return self.board
        if arrangement is None:
            raise ConfigError("a tile board needs its arrangement")
        from ..tiles import assemble
        return assemble(*arrangement)

    def to_dict(self) -> dict[str, Any]:
        """The settings players may see (the seed is left out: it fixes the pile order)."""
        return {
            "tiles": list(self.tiles) if self.tiles else None, "custom_board": self.board is not None,
            "rules": self.rules.to_dict(), "clock_seconds": self.clock_seconds,
            "no_bid_wait_seconds": self.no_bid_wait_seconds, "demo_seconds": self.demo_seconds,
            "demo_seconds_per_move": self.demo_seconds_per_move,
            "intermission_seconds": self.intermission_seconds, "target_score": self.target_score,
            "tournament": self.tournament, "min_players": self.min_players,
        }


# -- actions -----------------------------------------------------------------------
@dataclass(frozen=True)
class Join:
    """A player takes a seat (before or during the game; again after leaving)."""

    player: str
    name: str


@dataclass(frozen=True)
class Leave:
    """A player leaves; their chips stay theirs.  Leaving while demonstrating fails the demonstration."""

    player: str


@dataclass(frozen=True)
class Start:
    """The host starts the game: set-up and the first chip."""

    player: str


@dataclass(frozen=True)
class Bid:
    """Announce a number of moves (a whole number, see :mod:`.bidding`)."""

    player: str
    moves: int


@dataclass(frozen=True)
class TurnClock:
    """Turn the sand clock without a bid; allowed after the no-bid wait (RULINGS 8)."""

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
class EndGame:
    """The host ends the game now ("players are free to end in any other way they agree to")."""

    player: str


@dataclass(frozen=True)
class ReportSolution:
    """From the shell, not a player: the solver's optimal length for a round (``None``: none found)."""

    round: int
    optimal: int | None
    solution: tuple[Move, ...] = ()


Action = Join | Leave | Start | Bid | TurnClock | Demonstrate | GiveUp | EndGame | ReportSolution


# -- events ------------------------------------------------------------------------------
def _encode(value: Any) -> Any:
    if isinstance(value, Move):
        d: dict[str, Any] = {"robot": value.robot, "direction": value.direction.name}
        if value.stop is not None:
            d["stop"] = list(value.stop)
        return d
    if isinstance(value, Path):
        return value.to_dict()
    if isinstance(value, Robot):
        return {"color": value.color, "cell": list(value.cell)}
    if isinstance(value, tuple | list):
        return [_encode(v) for v in value]
    return value


def _move(d: Mapping[str, Any]) -> Move:
    stop = d.get("stop")
    return Move(int(d["robot"]), Direction[d["direction"]], tuple(stop) if stop is not None else None)  # type: ignore[arg-type]


def _path(d: Mapping[str, Any]) -> Path:
    steps = tuple(Step(tuple(s["cell"]), Direction[s["heading"]], s.get("event")) for s in d["steps"])  # type: ignore[arg-type]
    return Path(int(d["robot"]), tuple(d["start"]), Direction[d["direction"]], steps, int(d["cost"]))  # type: ignore[arg-type]


def _cell(v: Any) -> Cell | None:
    return None if v is None else (int(v[0]), int(v[1]))


def _strs(v: Any) -> tuple[str, ...] | None:
    return None if v is None else tuple(v)


class Event:
    """Base of every event: a frozen dataclass with a ``type`` string and ``at``
    (seconds, the time it happened).  ``to_dict`` is JSON-ready and
    :func:`event_from_dict` reads it back."""

    type: ClassVar[str]
    _decode: ClassVar[dict[str, Callable[[Any], Any]]] = {}
    at: float

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"type": self.type}
        for f in fields(self):  # type: ignore[arg-type]
            out[f.name] = _encode(getattr(self, f.name))
        return out


@dataclass(frozen=True)
class PlayerJoined(Event):
    type: ClassVar[str] = "player_joined"
    player: str
    name: str
    at: float


@dataclass(frozen=True)
class PlayerLeft(Event):
    type: ClassVar[str] = "player_left"
    player: str
    at: float


@dataclass(frozen=True)
class GameStarted(Event):
    """The set-up: players seated, tile arrangement (``None`` on a custom board),
    starting robots and the score that ends the game (``None``: all chips)."""

    type: ClassVar[str] = "game_started"
    _decode: ClassVar[dict[str, Callable[[Any], Any]]] = {
        "players": tuple, "arrangement": _strs,
        "robots": lambda v: tuple(Robot(r["color"], (int(r["cell"][0]), int(r["cell"][1]))) for r in v)}
    players: tuple[str, ...]
    arrangement: tuple[str, ...] | None
    robots: tuple[Robot, ...]
    target_score: int | None
    at: float


@dataclass(frozen=True)
class ChipDrawn(Event):
    """A round begins: the chip, its target cell and the active robot (``None``: any, the vortex)."""

    type: ClassVar[str] = "chip_drawn"
    _decode: ClassVar[dict[str, Callable[[Any], Any]]] = {"target": _cell}
    round: int
    color: str
    symbol: str
    target: Cell
    active: int | None
    at: float


@dataclass(frozen=True)
class BidPlaced(Event):
    type: ClassVar[str] = "bid_placed"
    round: int
    player: str
    moves: int
    at: float


@dataclass(frozen=True)
class ClockStarted(Event):
    """The sand clock is turned, by the first bid (``reason="bid"``) or after the no-bid wait (``"turned"``)."""

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
    _decode: ClassVar[dict[str, Callable[[Any], Any]]] = {"move": _move, "path": _path}
    round: int
    player: str
    move: Move
    path: Path
    cost: int
    at: float


@dataclass(frozen=True)
class DemonstrationEnded(Event):
    """``reason``: ``solved`` (success), ``too_long`` (more moves than the bid),
    ``out_of_moves`` (the bid used up without success), ``gave_up``,
    ``timeout`` or ``left``."""

    type: ClassVar[str] = "demonstration_ended"
    round: int
    player: str
    success: bool
    reason: str
    cost: int
    at: float


@dataclass(frozen=True)
class RoundEnded(Event):
    """``result``: ``won`` (the chip goes to ``winner``), ``failed`` (every
    bidder failed) or ``no_bid``; in the last two the chip goes back into the pile."""

    type: ClassVar[str] = "round_ended"
    round: int
    color: str
    symbol: str
    result: str
    winner: str | None
    at: float


@dataclass(frozen=True)
class RoundSolved(Event):
    """The solver's optimal length for a round (injected by the shell); shown once the round is over."""

    type: ClassVar[str] = "round_solved"
    _decode: ClassVar[dict[str, Callable[[Any], Any]]] = {"solution": lambda v: tuple(_move(m) for m in v)}
    round: int
    optimal: int | None
    solution: tuple[Move, ...]
    at: float


@dataclass(frozen=True)
class GameEnded(Event):
    """``reason``: ``target_score``, ``all_chips``, ``no_winnable_chip`` or ``host_ended``;
    ``winners`` share the win (most chips)."""

    type: ClassVar[str] = "game_ended"
    _decode: ClassVar[dict[str, Callable[[Any], Any]]] = {"winners": tuple}
    reason: str
    winners: tuple[str, ...]
    at: float


EVENT_TYPES: dict[str, type[Event]] = {c.type: c for c in (
    PlayerJoined, PlayerLeft, GameStarted, ChipDrawn, BidPlaced, ClockStarted, ClockRanOut, DemonstrationStarted,
    MovePlayed, DemonstrationEnded, RoundEnded, RoundSolved, GameEnded)}


def event_from_dict(data: Mapping[str, Any]) -> Event:
    """Read an event back from its :meth:`Event.to_dict` form (e.g. from a stored log)."""
    kind = data.get("type")
    cls = EVENT_TYPES.get(kind)  # type: ignore[arg-type]
    if cls is None:
        raise ValueError(f"unknown event type {kind!r}; known: {', '.join(EVENT_TYPES)}")
    kwargs = {}
    for f in fields(cls):  # type: ignore[arg-type]
        if f.name not in data:
            raise ValueError(f"{kind} event lacks {f.name!r}")
        conv = cls._decode.get(f.name)
        kwargs[f.name] = conv(data[f.name]) if conv else data[f.name]
    return cls(**kwargs)


# -- state --------------------------------------------------------------------------------
@dataclass(frozen=True)
class PlayerState:
    """A player: id, display name, whether seated now, chips won (in order)."""

    id: str
    name: str
    seated: bool = True
    chips: tuple[Chip, ...] = ()

    @property
    def score(self) -> int:
        return len(self.chips)


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
    """The round in play.  ``start`` is the position at the start of the round
    (the square tokens); ``order`` is fixed when the clock runs out."""

    number: int
    chip: Chip
    target: Cell
    active: int | None
    drawn_at: float
    start: Position
    bids: tuple[bidding.Bid, ...] = ()
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
    def standing(self) -> dict[str, bidding.Bid]:
        """Each bidder's standing bid (lowest, with the time it was first made)."""
        return standing_bids(self.bids)

    @property
    def puzzle(self) -> Puzzle:
        return Puzzle(self.start, self.target, self.active)


@dataclass(frozen=True)
class RoundResult:
    """A finished round, for the history."""

    number: int
    chip: Chip
    result: str
    winner: str | None
    bids: tuple[bidding.Bid, ...]
    attempts: tuple[Attempt, ...]
    target: Cell
    active: int | None
    start: tuple[Robot, ...]


@dataclass(frozen=True)
class GameState:
    """Everything about a game at one point of its event log.

    Equal logs give equal states.  ``pile`` (the chips not yet won, in a
    canonical order; the draw order comes from the seed) is hidden from
    players: use :meth:`public_view` for what a client may see."""

    config: GameConfig
    version: int = 0
    """Number of events folded in."""
    time: float = 0.0
    """Time of the last event."""
    phase: str = "lobby"
    players: tuple[PlayerState, ...] = ()
    host: str | None = None
    arrangement: tuple[str, ...] | None = None
    board: Board | None = None
    position: Position | None = None
    """The robots now (during a demonstration: as moved so far)."""
    target_score: int | None = None
    pile: tuple[Chip, ...] = ()
    draws: int = 0
    round: RoundState | None = None
    history: tuple[RoundResult, ...] = ()
    solutions: tuple[RoundSolved, ...] = ()
    returned_since_win: frozenset[Chip] = frozenset()
    intermission_until: float | None = None
    winners: tuple[str, ...] = ()
    end_reason: str | None = None

    # -- queries ---------------------------------------------------------------------
    def player(self, player_id: str) -> PlayerState | None:
        for p in self.players:
            if p.id == player_id:
                return p
        return None

    @property
    def seated(self) -> tuple[str, ...]:
        return tuple(p.id for p in self.players if p.seated)

    @property
    def scores(self) -> dict[str, int]:
        return {p.id: p.score for p in self.players}

    @property
    def chips_won(self) -> int:
        return sum(p.score for p in self.players)

    @property
    def robots(self) -> tuple[Robot, ...]:
        return self.position.robots if self.position else ()

    def name_of(self, player_id: str | None) -> str:
        p = self.player(player_id) if player_id is not None else None
        return p.name if p else str(player_id)

    def solution_of(self, number: int) -> RoundSolved | None:
        for s in self.solutions:
            if s.round == number:
                return s
        return None

    def public_view(self, for_player: str | None = None, *, heavy: bool = True) -> dict[str, Any]:
        """A JSON-ready view for a client (``for_player``: whose view; spectators
        pass ``None``).  Never shows the seed or the order of the pile; the
        solver's optimum only for finished rounds.  ``heavy=False`` leaves out
        ``config``, ``board`` and ``history`` (the keys are absent)."""
        rnd = self.round
        view: dict[str, Any] = {
            "version": self.version, "time": self.time, "phase": self.phase, "you": for_player,
            "host": self.host, "arrangement": _encode(self.arrangement),
            "target_score": self.target_score, "pile_size": len(self.pile),
            "players": [{"id": p.id, "name": p.name, "seated": p.seated, "score": p.score,
                         "chips": [c.to_dict() for c in p.chips]} for p in self.players],
            "robots": _encode(self.robots),
            "round": None, "history": [], "winners": list(self.winners), "end_reason": self.end_reason,
            "intermission_until": self.intermission_until,
        }
        if rnd is not None:
            standing = rnd.standing
            view["round"] = {
                "number": rnd.number, "chip": rnd.chip.to_dict(), "target": list(rnd.target),
                "active": rnd.active,
                "active_color": None if rnd.active is None else rnd.start.robots[rnd.active].color,
                "drawn_at": rnd.drawn_at, "clock_turnable_at": rnd.drawn_at + self.config.no_bid_wait_seconds,
                "start": _encode(rnd.start.robots),
                "bids": [b.to_dict() for b in rnd.bids],
                "standing": [standing[p].to_dict() for p in sorted(standing, key=lambda q: (
                    standing[q].moves, standing[q].at, standing[q].seq))],
                "your_bid": standing[for_player].moves if for_player in standing else None,
                "clock": None if rnd.clock_deadline is None else {
                    "deadline": rnd.clock_deadline, "by": rnd.clock_by, "reason": rnd.clock_reason},
                "order": list(rnd.order), "demonstrator": rnd.demonstrator, "demo_bid": rnd.demo_bid,
                "demo_deadline": rnd.demo_deadline, "moves": _encode(rnd.moves), "paths": _encode(rnd.paths),
                "cost": rnd.cost, "attempts": [_attempt_dict(a) for a in rnd.attempts],
            }
        if not heavy:
            del view["history"]
            return view
        view["config"] = self.config.to_dict()
        view["board"] = _board_dict(self.board) if self.board is not None else None
        for r in self.history:
            sol = self.solution_of(r.number)
            view["history"].append({
                "number": r.number, "chip": r.chip.to_dict(), "result": r.result, "winner": r.winner,
                "target": list(r.target), "active": r.active, "start": _encode(r.start),
                "bids": [b.to_dict() for b in r.bids], "attempts": [_attempt_dict(a) for a in r.attempts],
                "optimal": sol.optimal if sol else None, "solution": _encode(sol.solution) if sol else None,
            })
        return view


def _attempt_dict(a: Attempt) -> dict[str, Any]:
    return {"player": a.player, "bid": a.bid, "moves": _encode(a.moves), "paths": _encode(a.paths),
            "cost": a.cost, "success": a.success, "reason": a.reason}


def _board_dict(b: Board) -> dict[str, Any]:
    return {
        "width": b.width, "height": b.height, "walls": list(b.walls),
        "blocked": sorted(list(c) for c in b.blocked),
        "targets": [{"cell": list(t.cell), "color": t.color, "symbol": t.symbol} for t in b.targets],
        "diagonals": [{"cell": list(d.cell), "color": d.color, "orientation": d.orientation} for d in b.diagonals],
        "openings": sorted([list(c), s.name] for c, s in b.openings),
    }


# -- evolve: events → state -----------------------------------------------------------------------
def new_game(config: GameConfig) -> GameState:
    """The empty game: lobby, no players."""
    return GameState(config=config)


def _set_player(state: GameState, player_id: str, **changes: Any) -> tuple[PlayerState, ...]:
    return tuple(replace(p, **changes) if p.id == player_id else p for p in state.players)


def evolve(state: GameState, event: Event) -> GameState:
    """Fold one event into the state (no checks: events are facts)."""
    s = replace(state, version=state.version + 1, time=max(state.time, event.at))
    rnd = s.round
    if isinstance(event, PlayerJoined):
        if s.player(event.player) is None:
            players = s.players + (PlayerState(event.player, event.name),)
        else:
            players = _set_player(s, event.player, name=event.name, seated=True)
        return replace(s, players=players, host=s.host if s.host is not None else event.player)
    if isinstance(event, PlayerLeft):
        s = replace(s, players=_set_player(s, event.player, seated=False))
        if s.host == event.player:
            s = replace(s, host=next(iter(s.seated), None))
        return s
    if isinstance(event, GameStarted):
        board = s.config.board_for(event.arrangement)
        return replace(s, phase="intermission", arrangement=event.arrangement, board=board,
                       position=Position(board, event.robots), target_score=event.target_score,
                       pile=tuple(sorted(Chip(t.color, t.symbol) for t in board.targets)))
    if isinstance(event, ChipDrawn):
        chip = Chip(event.color, event.symbol)
        assert s.position is not None
        start = replace(s.position, goal=event.target, last_move=None)  # a new round: no straight-back memory
        pile = list(s.pile)
        pile.remove(chip)
        return replace(s, phase="thinking", pile=tuple(pile), draws=s.draws + 1, position=start,
                       intermission_until=None,
                       round=RoundState(event.round, chip, event.target, event.active, event.at, start))
    assert rnd is not None or isinstance(event, RoundSolved | GameEnded), f"{event.type} outside a round"
    if isinstance(event, BidPlaced):
        assert rnd is not None
        # seq = the bid's place in the log: breaks ties between bids made at the same instant.
        bid = bidding.Bid(event.player, event.moves, event.at, state.version)
        return replace(s, round=replace(rnd, bids=rnd.bids + (bid,)))
    if isinstance(event, ClockStarted):
        assert rnd is not None
        return replace(s, phase="bidding", round=replace(rnd, clock_deadline=event.deadline, clock_by=event.player,
                                                         clock_reason=event.reason))
    if isinstance(event, ClockRanOut):
        assert rnd is not None
        return replace(s, round=replace(rnd, order=event.order))
    if isinstance(event, DemonstrationStarted):
        assert rnd is not None
        return replace(s, phase="demonstration", position=rnd.start, round=replace(
            rnd, demonstrator=event.player, demo_bid=event.bid, demo_deadline=event.deadline,
            moves=(), paths=(), cost=0))
    if isinstance(event, MovePlayed):
        assert rnd is not None and s.position is not None
        position, path = s.position.play(event.move, s.config.rules)
        return replace(s, position=position, round=replace(
            rnd, moves=rnd.moves + (event.move,), paths=rnd.paths + (path,), cost=event.cost))
    if isinstance(event, DemonstrationEnded):
        assert rnd is not None and rnd.demo_bid is not None
        attempt = Attempt(event.player, rnd.demo_bid, rnd.moves, rnd.paths, event.cost, event.success, event.reason)
        rnd = replace(rnd, attempts=rnd.attempts + (attempt,), demonstrator=None, demo_bid=None,
                      demo_deadline=None, moves=(), paths=(), cost=0)
        # Failure: the robots go back to their square tokens (seed 000).
        return replace(s, round=rnd, position=s.position if event.success else rnd.start)
    if isinstance(event, RoundEnded):
        assert rnd is not None
        chip = Chip(event.color, event.symbol)
        result = RoundResult(rnd.number, chip, event.result, event.winner, rnd.bids, rnd.attempts, rnd.target,
                             rnd.active, rnd.start.robots)
        s = replace(s, round=None, history=s.history + (result,), phase="intermission",
                    intermission_until=event.at + s.config.intermission_seconds)
        if event.winner is not None:
            winner = s.player(event.winner)
            assert winner is not None
            return replace(s, players=_set_player(s, event.winner, chips=winner.chips + (chip,)),
                           returned_since_win=frozenset())
        # Back into the pile; the next draw is uniform over the pile, i.e. "reshuffled".
        return replace(s, pile=tuple(sorted(s.pile + (chip,))), returned_since_win=s.returned_since_win | {chip})
    if isinstance(event, RoundSolved):
        return replace(s, solutions=tuple(x for x in s.solutions if x.round != event.round) + (event,))
    if isinstance(event, GameEnded):
        return replace(s, phase="over", winners=event.winners, end_reason=event.reason, intermission_until=None)
    raise TypeError(f"not an event: {event!r}")


def fold(config: GameConfig, events: Iterable[Event]) -> GameState:
    """Rebuild a game from its event log."""
    state = new_game(config)
    for e in events:
        state = evolve(state, e)
    return state


# -- decide: actions and time → events ---------------------------------------------------------------
class _Tx:
    """Collects events, folding each into the state as it is emitted."""

    def __init__(self, state: GameState) -> None:
        self.state = state
        self.events: list[Event] = []

    def emit(self, event: Event) -> None:
        self.state = evolve(self.state, event)
        self.events.append(event)


def _rng(config: GameConfig, what: str) -> random.Random:
    # A string seed is hashed (SHA-512) by random.seed: stable across runs and platforms.
    return random.Random(f"ricochet-robots:{config.seed}:{what}")


def _fmt(seconds: float) -> str:
    seconds = max(0, math.ceil(seconds))
    m, s = divmod(seconds, 60)
    if m and s:
        return f"{m} min {s} s"
    return f"{m} min" if m else f"{s} s"


def _draw(tx: _Tx, now: float) -> None:
    s = tx.state
    assert s.board is not None and s.position is not None
    chip = _rng(s.config, f"draw:{s.draws}").choice(s.pile)
    target = s.board.find_target(chip.color, chip.symbol).cell
    active = None if chip.symbol == "vortex" else s.position.index_of(chip.color)
    number = len(s.history) + 1
    tx.emit(ChipDrawn(number, chip.color, chip.symbol, target, active, now))


def _winners(state: GameState) -> tuple[str, ...]:
    best = max((p.score for p in state.players), default=0)
    return tuple(p.id for p in state.players if p.score == best and (best > 0 or p.seated))


def _after_round(tx: _Tx, now: float, winner: str | None) -> None:
    s = tx.state
    if winner is not None and s.target_score is not None and s.scores[winner] >= s.target_score:
        tx.emit(GameEnded("target_score", _winners(s), now))
    elif not s.pile:
        tx.emit(GameEnded("all_chips", _winners(s), now))
    elif set(s.pile) <= s.returned_since_win:
        tx.emit(GameEnded("no_winnable_chip", _winners(s), now))
    elif s.config.intermission_seconds == 0:
        _draw(tx, now)


def _start_demo(tx: _Tx, player: str, now: float) -> None:
    s = tx.state
    assert s.round is not None
    bid = s.round.standing[player].moves
    deadline = now + s.config.demo_seconds + s.config.demo_seconds_per_move * bid
    tx.emit(DemonstrationStarted(s.round.number, player, bid, deadline, now))


def _end_round(tx: _Tx, result: str, winner: str | None, now: float) -> None:
    rnd = tx.state.round
    assert rnd is not None
    tx.emit(RoundEnded(rnd.number, rnd.chip.color, rnd.chip.symbol, result, winner, now))
    _after_round(tx, now, winner)


def _next_demo(tx: _Tx, now: float, after: str | None) -> None:
    """The next seated bidder in the order after ``after`` demonstrates, or the round ends unwon."""
    s = tx.state
    assert s.round is not None
    order = s.round.order
    rest = order[order.index(after) + 1:] if after is not None else order
    seated = set(s.seated)
    for p in rest:
        if p in seated:
            _start_demo(tx, p, now)
            return
    _end_round(tx, "failed" if s.round.attempts else "no_bid", None, now)


def _end_demo(tx: _Tx, success: bool, reason: str, now: float) -> None:
    s = tx.state
    rnd = s.round
    assert rnd is not None and rnd.demonstrator is not None
    player = rnd.demonstrator
    tx.emit(DemonstrationEnded(rnd.number, player, success, reason, rnd.cost, now))
    if success:
        _end_round(tx, "won", player, now)
    else:
        _next_demo(tx, now, player)


def _clock_out(tx: _Tx, now: float) -> None:
    s = tx.state
    rnd = s.round
    assert rnd is not None
    order = demonstration_order(rnd.bids, s.scores, s.config.tournament, frozenset(s.seated))
    tx.emit(ClockRanOut(rnd.number, tuple(b.player for b in order), now))
    _next_demo(tx, now, None)


def _run_clocks(tx: _Tx, now: float) -> None:
    while True:
        s = tx.state
        rnd = s.round
        if s.phase == "bidding" and rnd is not None and rnd.clock_deadline is not None and now >= rnd.clock_deadline:
            _clock_out(tx, now)
        elif (s.phase == "demonstration" and rnd is not None and rnd.demo_deadline is not None
              and now >= rnd.demo_deadline):
            _end_demo(tx, False, "timeout", now)
        elif (s.phase == "intermission" and rnd is None and s.intermission_until is not None
              and now >= s.intermission_until):
            _draw(tx, now)
        else:
            return


def _now(state: GameState, now: float) -> float:
    if isinstance(now, bool) or not isinstance(now, int | float) or not math.isfinite(now):
        raise TypeError(f"now must be a time in seconds, got {now!r}")
    # Times never run backwards: a late-arriving earlier time counts as the last event's time.
    return max(float(now), state.time)


def tick(state: GameState, now: float) -> tuple[GameState, list[Event]]:
    """Let time pass: the sand clock runs out, a demonstration runs out of time,
    an intermission ends.  Returns the new state and the events (often none)."""
    tx = _Tx(state)
    _run_clocks(tx, _now(state, now))
    return tx.state, tx.events


def _seated(state: GameState, player: str) -> PlayerState:
    p = state.player(player)
    if p is None or not p.seated:
        raise GameError("you are not in this game: join it first", "not_seated")
    return p


def _round_phase(state: GameState, doing: str) -> RoundState:
    """The round, when bids and clock turns are allowed now; else the reason why not."""
    if state.phase == "lobby":
        raise GameError(f"the game has not started: you cannot {doing} yet", "phase")
    if state.phase == "over":
        raise GameError("the game is over", "phase")
    if state.phase == "intermission":
        raise GameError(f"the round is over: wait for the next chip to {doing}", "phase")
    if state.phase == "demonstration":
        assert state.round is not None
        raise GameError(f"the sand clock has run out: it is {state.name_of(state.round.demonstrator)}'s "
                        "demonstration", "closed")
    assert state.round is not None
    return state.round


def _check_text(what: str, value: object, limit: int) -> str:
    if not isinstance(value, str) or not value.strip():
        raise GameError(f"{what} must be a non-empty text, got {value!r}", "join")
    text = value.strip()
    if len(text) > limit:
        raise GameError(f"{what} may have at most {limit} characters, got {len(text)}", "join")
    return text


def _decide(tx: _Tx, action: Action, now: float) -> None:
    s = tx.state
    if isinstance(action, Join):
        pid = _check_text("a player id", action.player, MAX_ID)
        name = _check_text("a name", action.name, MAX_NAME)
        if s.phase == "over":
            raise GameError("the game is over: it cannot be joined", "phase")
        me = s.player(pid)
        if me is not None and me.seated:
            raise GameError(f"you are already in the game as {me.name}", "join")
        for p in s.players:
            if p.seated and p.id != pid and p.name.casefold() == name.casefold():
                raise GameError(f"the name {p.name} is taken in this game: choose another", "join")
        tx.emit(PlayerJoined(pid, name, now))
    elif isinstance(action, Leave):
        _seated(s, action.player)
        tx.emit(PlayerLeft(action.player, now))
        rnd = tx.state.round
        if tx.state.phase == "demonstration" and rnd is not None and rnd.demonstrator == action.player:
            _end_demo(tx, False, "left", now)
    elif isinstance(action, Start):
        _seated(s, action.player)
        if s.phase != "lobby":
            raise GameError("the game has already started", "phase")
        if s.host != action.player:
            raise GameError(f"only the host ({s.name_of(s.host)}) can start the game", "not_host")
        seated = s.seated
        if len(seated) < s.config.min_players:
            raise GameError(f"at least {s.config.min_players} players are needed to start; "
                            f"{len(seated)} {'is' if len(seated) == 1 else 'are'} seated", "phase")
        _start(tx, now)
    elif isinstance(action, Bid):
        _seated(s, action.player)
        rnd = _round_phase(s, "bid")
        moves = check_bid(rnd.bids, action.player, action.moves)
        tx.emit(BidPlaced(rnd.number, action.player, moves, now))
        if s.phase == "thinking":
            # The first bid turns the sand clock (seed 000, RULINGS 7).
            tx.emit(ClockStarted(rnd.number, action.player, "bid", now + s.config.clock_seconds, now))
    elif isinstance(action, TurnClock):
        _seated(s, action.player)
        rnd = _round_phase(s, "turn the sand clock")
        if s.phase == "bidding":
            assert rnd.clock_deadline is not None
            raise GameError(f"the sand clock is already running ({_fmt(rnd.clock_deadline - now)} left)", "clock")
        allowed = rnd.drawn_at + s.config.no_bid_wait_seconds
        if now < allowed:
            raise GameError(f"the sand clock may be turned without a bid only after "
                            f"{_fmt(s.config.no_bid_wait_seconds)} without a bid: "
                            f"{_fmt(allowed - now)} to go (or bid)", "clock")
        tx.emit(ClockStarted(rnd.number, action.player, "turned", now + s.config.clock_seconds, now))
    elif isinstance(action, Demonstrate | GiveUp):
        _seated(s, action.player)
        rnd = s.round
        if s.phase != "demonstration" or rnd is None:
            raise GameError("there is no demonstration now", "phase")
        if rnd.demonstrator != action.player:
            raise GameError(f"it is {s.name_of(rnd.demonstrator)}'s demonstration", "turn")
        if isinstance(action, GiveUp):
            _end_demo(tx, False, "gave_up", now)
            return
        _demonstrate(tx, rnd, action.move, now)
    elif isinstance(action, EndGame):
        _seated(s, action.player)
        if s.host != action.player:
            raise GameError(f"only the host ({s.name_of(s.host)}) can end the game", "not_host")
        if s.phase in ("lobby", "over"):
            raise GameError("the game is over" if s.phase == "over" else "the game has not started", "phase")
        tx.emit(GameEnded("host_ended", _winners(s), now))
    elif isinstance(action, ReportSolution):
        n = action.round
        current = s.round.number if s.round is not None else len(s.history)
        if isinstance(n, bool) or not isinstance(n, int) or not 1 <= n <= current:
            so_far = f"rounds so far: 1 to {current}" if current else "no round has begun yet"
            raise GameError(f"there is no round {n!r} ({so_far})", "round")
        opt = action.optimal
        if opt is not None and (isinstance(opt, bool) or not isinstance(opt, int) or opt < 0):
            raise GameError(f"optimal must be a whole number of moves or None, got {opt!r}", "round")
        if not all(isinstance(m, Move) for m in action.solution):
            raise GameError("solution must be a sequence of moves", "round")
        tx.emit(RoundSolved(n, opt, tuple(action.solution), now))
    else:
        raise GameError(f"unknown action {type(action).__name__}", "invalid")


def _start(tx: _Tx, now: float) -> None:
    from ..generate import puzzle_colors, random_arrangement, random_position

    s = tx.state
    cfg = s.config
    rng = _rng(cfg, "setup")
    arrangement: tuple[str, ...] | None = None
    if cfg.board is None:
        arrangement = cfg.tiles if cfg.tiles is not None else random_arrangement(rng, cfg.faces)
    board = cfg.board_for(arrangement)
    robots = cfg.robots if cfg.robots is not None else random_position(board, rng, puzzle_colors(cfg.rules)).robots
    target = cfg.target_score if cfg.target_score is not None else target_score_for(len(s.seated))
    tx.emit(GameStarted(s.seated, arrangement, robots, target, now))
    _draw(tx, now)


def _demonstrate(tx: _Tx, rnd: RoundState, move: object, now: float) -> None:
    s = tx.state
    assert s.position is not None and rnd.demo_bid is not None
    if not isinstance(move, Move):
        raise GameError(f"a move names a robot and a direction, got {move!r}", "illegal_move")
    try:
        _, path = s.position.play(move, s.config.rules)
    except IllegalMove as e:
        # Refused: the robot does not move and the demonstration goes on (bid and time still bind).
        raise GameError(f"illegal move: {e}", "illegal_move") from None
    cost = rnd.cost + path.cost
    tx.emit(MovePlayed(rnd.number, rnd.demonstrator or "", move, path, cost, now))
    after = tx.state.round
    assert after is not None and after.demo_bid is not None
    puzzle = after.puzzle
    # Only a position with the right robot on the target can be a solution: replay the whole
    # demonstration (the authoritative check) only then, not at every move.
    reached = tx.state.position is not None and puzzle.solved_by(tx.state.position) is not None
    if reached and check_solution(puzzle, after.moves, s.config.rules, max_cost=after.demo_bid).ok:
        _end_demo(tx, True, "solved", now)
    elif cost > after.demo_bid:
        _end_demo(tx, False, "too_long", now)
    elif cost == after.demo_bid:
        _end_demo(tx, False, "out_of_moves", now)


def apply(state: GameState, action: Action, now: float) -> tuple[GameState, list[Event]]:
    """Apply a player's (or the shell's) action at time ``now``.

    Clocks are run up to ``now`` first (their events come first in the list),
    then the action is decided.  An action that is not allowed raises
    :class:`GameError` and changes nothing — not even the clocks: call
    :func:`tick` first to keep those events whatever the action does."""
    tx = _Tx(state)
    now = _now(state, now)
    _run_clocks(tx, now)
    _decide(tx, action, now)
    return tx.state, tx.events

