"""Ricochet Robots (seeds 000 and 004) as a game of the site: the shared
bidding round of :mod:`ricochet.games.bidding` with the chips of the box.

Nothing here reads a clock, touches I/O or draws unseeded randomness.  The
shell (the server) hands in every action with the current time and calls
``tick`` regularly so clocks run out; each call returns the new state and
the events it produced.  Events are the truth: ``fold`` rebuilds the very
same state from the configuration and the event log.

    state = RICOCHET_ROBOTS.new(config)
    state, events = RICOCHET_ROBOTS.apply(state, Join("p1", "Ann"), now)
    state, events = RICOCHET_ROBOTS.tick(state, now)   # clocks, demonstration time limits
    RICOCHET_ROBOTS.fold(config, log) == state         # the log is enough

A round (seed 000, RULINGS 7–9): a chip is drawn from the shuffled pile; its
target is the round's target and the robot of its colour the active robot
(the cosmic vortex: any robot).  Bids, the sand clock and the demonstrations
are the shared bidding round; equal bids: the player with fewer chips first
(the tournament variant: the earlier bid).  Reaching the target validly within
the bid wins the chip and the robots stay.  Nobody succeeds or nobody bids:
the chip goes back into the pile and another is drawn.

Readings of our own (documented where they act; the shared ones are in
:mod:`ricochet.games.bidding`):

* The score that ends the game is fixed at the start from the number of
  players seated then; players who join later play on the same target.
* "Pile exhausted with no chip winnable": the game ends when every chip left
  in the pile has been drawn and returned unwon since the last chip was won.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, ClassVar

from ...board import Board
from ...notation.wire import board_from_wire, board_to_wire, robots_from_wire
from ...position import IllegalMove, Move, Position, PositionError, Robot
from ...rules import GAME, Rules
from ..bidding import round as bidding
from ..bidding.bot import LEVELS as BOT_LEVELS
from ..bidding.bot import BiddingBot
from ..bidding.round import (
    BiddingGame,
    BiddingPhase,
    BiddingState,
    Demonstrate,
    GiveUp,
    PlaceBid,
    RoundState,
    SkipDemonstration,
    TurnClock,
    demonstration_order,
)
from ..events import Event, cell_of, encode, move_of, robots_of, strs_of
from ..interface import BotClient, Compute, ConfigError, GameError, Job, OptionsError, Secret
from ..jobs import Answer, solve_job
from ..options import check_options
from ..table import EndGame, GameEnded, Join, Leave, Start, Tx, winners_of

__all__ = [
    "GAME_NAME",
    "RICOCHET_ROBOTS",
    "Chip",
    "ChipDrawn",
    "GameConfig",
    "GameStarted",
    "GameState",
    "ReportSolution",
    "RicochetRobots",
    "RoundEnded",
    "RoundSolved",
    "target_score_for",
]

GAME_NAME = "ricochet-robots"


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
        from ...tiles import TileError, assemble, parse_arrangement  # lazy: tiles loads data files

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
        from ...tiles import assemble
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


# -- actions -----------------------------------------------------------------------------
@dataclass(frozen=True)
class ReportSolution:
    """From the shell, not a player: the solver's optimal length for a round (``None``: none found)."""

    round: int
    optimal: int | None
    solution: tuple[Move, ...] = ()


Action = (Join | Leave | Start | PlaceBid | TurnClock | Demonstrate | GiveUp | SkipDemonstration | EndGame
          | ReportSolution)


# -- events ------------------------------------------------------------------------------
@dataclass(frozen=True)
class GameStarted(Event):
    """The set-up: players seated, tile arrangement (``None`` on a custom board),
    starting robots and the score that ends the game (``None``: all chips)."""

    type: ClassVar[str] = "game_started"
    _decode: ClassVar[dict[str, Callable[[Any], Any]]] = {"players": tuple, "arrangement": strs_of,
                                                         "robots": robots_of}
    players: tuple[str, ...]
    arrangement: tuple[str, ...] | None
    robots: tuple[Robot, ...]
    target_score: int | None
    at: float


@dataclass(frozen=True)
class ChipDrawn(Event):
    """A round begins: the chip, its target cell and the active robot (``None``: any, the vortex)."""

    type: ClassVar[str] = "chip_drawn"
    _decode: ClassVar[dict[str, Callable[[Any], Any]]] = {"target": cell_of}
    round: int
    color: str
    symbol: str
    target: tuple[int, int]
    active: int | None
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
    _decode: ClassVar[dict[str, Callable[[Any], Any]]] = {"solution": lambda v: tuple(move_of(m) for m in v)}
    round: int
    optimal: int | None
    solution: tuple[Move, ...]
    at: float


# -- state --------------------------------------------------------------------------------
@dataclass(frozen=True)
class ChipRound(RoundState):
    """A round of Ricochet Robots: its goal is a :class:`Chip`."""

    @property
    def chip(self) -> Chip:
        return self.goal  # type: ignore[no-any-return]


@dataclass(frozen=True)
class GameState(BiddingState):
    """Everything about a game at one point of its event log.

    Equal logs give equal states.  ``pile`` (the chips not yet won, in a
    canonical order; the draw order comes from the seed) is hidden from
    players: :meth:`RicochetRobots.view` is what a client may see."""

    arrangement: tuple[str, ...] | None = None
    pile: tuple[Chip, ...] = ()
    draws: int = 0
    solutions: tuple[RoundSolved, ...] = ()
    returned_since_win: frozenset[Chip] = frozenset()

    @property
    def chips_won(self) -> int:
        return sum(p.score for p in self.players)

    def solution_of(self, number: int) -> RoundSolved | None:
        for s in self.solutions:
            if s.round == number:
                return s
        return None


# -- room options ---------------------------------------------------------------------------
RULE_OPTIONS = ("diagonals", "openings", "silver", "transparent", "must_ricochet", "no_straight_back")
DEFAULT_OPTIONS: dict[str, Any] = {
    "tiles": None, "faces": "AB",
    "diagonals": True, "openings": True, "silver": True, "transparent": False,
    "must_ricochet": True, "no_straight_back": True,
    "clock_seconds": 60, "no_bid_wait_seconds": 300, "demo_seconds": 60, "demo_seconds_per_move": 10,
    "intermission_seconds": 5, "target_score": None, "tournament": False, "min_players": 2,
}
SECONDS_OPTIONS = {"clock_seconds": (5, 600), "no_bid_wait_seconds": (0, 3600), "demo_seconds": (5, 600),
                   "demo_seconds_per_move": (0, 120), "intermission_seconds": (0, 120)}
MAX_SEATS = 8


# -- the game ------------------------------------------------------------------------------
def _rng(config: GameConfig, what: str) -> random.Random:
    # A string seed is hashed (SHA-512) by random.seed: stable across runs and platforms.
    return random.Random(f"ricochet-robots:{config.seed}:{what}")


class RicochetRobots(BiddingGame):
    """Ricochet Robots on the platform (see the module docstring)."""

    name: ClassVar[str] = GAME_NAME
    version: ClassVar[int] = 2  # 2: game_paused and game_resumed
    title: ClassVar[str] = "Ricochet Robots"
    default_options: ClassVar[Mapping[str, Any]] = DEFAULT_OPTIONS
    bot_levels: ClassVar[tuple[str, ...]] = tuple(BOT_LEVELS)
    event_types: ClassVar[tuple[type[Event], ...]] = (GameStarted, ChipDrawn, RoundEnded, RoundSolved)
    min_protocol: ClassVar[int] = 1
    timer_name: ClassVar[str] = "sand clock"
    goal_name: ClassVar[str] = "chip"
    heavy_keys: ClassVar[dict[str, tuple[str, ...]]] = {
        "board": ("game_started", "game_reset"), "config": ("game_reset",),
        "history": ("round_ended", "round_solved", "game_ended", "game_reset")}
    """Keys of a view sent with an event only when that event changed them."""

    # -- options and config -----------------------------------------------------------------
    def normalize_options(self, raw: Mapping[str, Any]) -> dict[str, Any]:
        """Room options of Ricochet Robots (``docs/protocol.md``).

        >>> RICOCHET_ROBOTS.normalize_options({"clock_seconds": 30})["clock_seconds"]
        30
        """
        opts = check_options(raw, DEFAULT_OPTIONS, bools=("tournament", *RULE_OPTIONS), seconds=SECONDS_OPTIONS,
                             ints={"target_score": (1, 17), "min_players": (1, MAX_SEATS)})
        tiles = opts["tiles"]
        if isinstance(tiles, list):
            tiles = ",".join(str(t) for t in tiles)
        if tiles is not None:
            if not isinstance(tiles, str):
                raise OptionsError("tiles must be four tile names like \"1A,3B,4A,2A\" or null (random)")
            tiles = tiles.strip() or None
            if tiles is not None and tiles.lower() == "random":
                tiles = None
        opts["tiles"] = tiles
        faces = opts["faces"]
        if not isinstance(faces, str) or faces.strip().upper() not in ("AB", "CD", "ANY"):
            raise OptionsError(f"faces must be \"AB\", \"CD\" or \"any\", got {faces!r}")
        opts["faces"] = faces.strip().upper() if faces.strip().upper() != "ANY" else "any"
        try:
            self.config(opts, 0)  # the game flow's own checks (tiles, rules)
        except ConfigError as e:
            raise OptionsError(str(e)) from None
        return opts

    def config(self, options: Mapping[str, Any], seed: int) -> GameConfig:
        rules = Rules(**{k: bool(options[k]) for k in RULE_OPTIONS})
        return GameConfig(
            tiles=options["tiles"], faces=options["faces"], rules=rules,
            clock_seconds=options["clock_seconds"], no_bid_wait_seconds=options["no_bid_wait_seconds"],
            demo_seconds=options["demo_seconds"], demo_seconds_per_move=options["demo_seconds_per_move"],
            intermission_seconds=options["intermission_seconds"], target_score=options["target_score"],
            tournament=options["tournament"], min_players=options["min_players"], seed=seed)

    def new(self, config: GameConfig) -> GameState:
        return GameState(config=config)

    # -- hooks of the bidding round ----------------------------------------------------------------
    def setup(self, tx: Tx, now: float) -> None:
        from ...generate import puzzle_colors, random_arrangement, random_position

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
        self.draw(tx, now)

    def draw(self, tx: Tx, now: float) -> None:
        s = tx.state
        assert s.board is not None and s.position is not None
        chip = _rng(s.config, f"draw:{s.draws}").choice(s.pile)
        target = s.board.find_target(chip.color, chip.symbol).cell
        active = None if chip.symbol == "vortex" else s.position.index_of(chip.color)
        tx.emit(ChipDrawn(len(s.history) + 1, chip.color, chip.symbol, target, active, now))

    def round_ended(self, rnd: RoundState, result: str, winner: str | None, now: float) -> Event:
        return RoundEnded(rnd.number, rnd.goal.color, rnd.goal.symbol, result, winner, now)

    def order(self, state: GameState, rnd: RoundState) -> tuple[bidding.Bid, ...]:
        # Seed 000: equal bids, fewer chips first; the tournament variant: the earlier bid.
        return demonstration_order(rnd.bids, state.scores, state.config.tournament, frozenset(state.seated))

    def after_round(self, tx: Tx, now: float, winner: str | None) -> None:
        s = tx.state
        if winner is not None and s.target_score is not None and s.scores[winner] >= s.target_score:
            tx.emit(GameEnded("target_score", winners_of(s), now))
        elif not s.pile:
            tx.emit(GameEnded("all_chips", winners_of(s), now))
        elif set(s.pile) <= s.returned_since_win:
            tx.emit(GameEnded("no_winnable_chip", winners_of(s), now))
        elif s.config.intermission_seconds == 0:
            self.draw(tx, now)

    def evolve_game(self, s: GameState, event: Event) -> GameState:
        if isinstance(event, GameStarted):
            board = s.config.board_for(event.arrangement)
            return replace(s, phase=BiddingPhase.INTERMISSION, arrangement=event.arrangement, board=board,
                           position=Position(board, event.robots, rules=s.config.rules),
                           target_score=event.target_score,
                           pile=tuple(sorted(Chip(t.color, t.symbol) for t in board.targets)))
        if isinstance(event, ChipDrawn):
            chip = Chip(event.color, event.symbol)
            assert s.position is not None
            start = replace(s.position.fresh(), goal=event.target)  # a new round: no rule state (straight back, turns)
            pile = list(s.pile)
            pile.remove(chip)
            s = replace(s, pile=tuple(pile), draws=s.draws + 1)
            return self.begin_round(s, ChipRound(event.round, chip, event.target, event.active, event.at, start))
        if isinstance(event, RoundEnded):
            chip = Chip(event.color, event.symbol)
            s = self.close_round(s, event.result, event.winner, event.at, chip)
            if event.winner is not None:
                return replace(s, returned_since_win=frozenset())
            # Back into the pile; the next draw is uniform over the pile, i.e. "reshuffled".
            return replace(s, pile=tuple(sorted(s.pile + (chip,))), returned_since_win=s.returned_since_win | {chip})
        if isinstance(event, RoundSolved):
            return replace(s, solutions=tuple(x for x in s.solutions if x.round != event.round) + (event,))
        raise TypeError(f"not an event: {event!r}")

    def decide_game(self, tx: Tx, action: object, now: float) -> None:
        if not isinstance(action, ReportSolution):
            raise GameError(f"unknown action {type(action).__name__}", "invalid")
        s = tx.state
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

    # -- the solver's answers ---------------------------------------------------------------------
    def round_puzzle(self, state: GameState, number: int) -> Any:
        """The puzzle of round ``number`` (in play or finished), or ``None``."""
        if state.round is not None and state.round.number == number:
            return state.round.puzzle
        for r in state.history:
            if r.number == number and state.board is not None:
                from ...puzzle import Puzzle
                return Puzzle(Position(state.board, r.start, rules=state.config.rules), r.target, r.active)
        return None

    def jobs(self, state: GameState) -> list[Job]:
        """The solution of the round in play (to have it ready), and the report
        of every finished round still lacking its optimum (never before its end)."""
        out: list[Job] = []
        if state.round is not None:
            out.append(solve_job(state.round.puzzle))
        for r in state.history:
            if state.solution_of(r.number) is None:
                number = r.number

                def report(answer: Answer, number: int = number) -> ReportSolution:
                    return ReportSolution(number, answer.optimal, answer.moves)
                out.append(solve_job(self.round_puzzle(state, number), report))
        return out

    def known_solution(self, state: GameState, number: int) -> tuple[int | None, tuple[Move, ...]]:
        sol = state.solution_of(number)
        if sol is None:
            raise GameError(f"the solution of round {number} is still being computed: try again in a moment",
                            "not_yet")
        return sol.optimal, sol.solution

    # -- views --------------------------------------------------------------------------------------
    def full_view(self, state: GameState, viewer: str | None, *, heavy: bool = True,
                  lists: bool = True) -> dict[str, Any]:
        rnd = state.round
        view: dict[str, Any] = {
            "game": GAME_NAME, "version": state.version, "time": state.time, "phase": state.phase, "you": viewer,
            "host": state.host, "arrangement": encode(state.arrangement),
            # Before the start: what it will be with the players seated now (it is fixed at the start).
            "target_score": state.target_score if state.phase != "lobby" else (
                state.config.target_score or target_score_for(len(state.seated))),
            "pile_size": len(state.pile),
            "players": [{"id": p.id, "name": p.name, "seated": p.seated, "score": p.score,
                         "chips": [c.to_dict() for c in p.won]} for p in state.players],
            "robots": encode(state.robots),
            "round": None, "history": [], "winners": list(state.winners), "end_reason": state.end_reason,
            "intermission_until": state.intermission_until,
        }
        if rnd is not None:
            view["round"] = {"chip": rnd.goal.to_dict(), **self.round_view(state, rnd, viewer, lists=lists)}
            if state.phase == "demonstration":
                view["round"]["choices"] = transparent_choices(state)
        if not heavy:
            del view["history"]
            return view
        view["config"] = state.config.to_dict()
        view["board"] = board_to_wire(state.board) if state.board is not None else None
        for r in state.history:
            sol = state.solution_of(r.number)
            view["history"].append({
                **self.history_view(r), "chip": r.goal.to_dict(),
                "optimal": sol.optimal if sol else None, "solution": encode(sol.solution) if sol else None})
        return view

    def view(self, state: GameState, viewer: str | None) -> dict[str, Any]:
        v = self.full_view(state, viewer)
        for h in v["history"]:
            h["solution"] = None  # moves only on request_solution
        return v

    def event_state(self, state: GameState, event_type: str) -> dict[str, Any]:
        heavy = any(event_type in when for when in self.heavy_keys.values())
        # Most events: the heavy keys not even computed.
        v = self.slim(self.full_view(state, None, heavy=heavy, lists=False), state.round, event_type)
        if heavy:
            for h in v["history"]:
                h["solution"] = None
            for key, when in self.heavy_keys.items():
                if event_type not in when:
                    del v[key]
        return v

    def public_event(self, event: Event) -> dict[str, Any]:
        d = event.to_dict()
        if d["type"] == "round_solved":
            del d["solution"]  # moves only on request_solution
        return d

    def picture(self, state: GameState) -> str | None:
        """The position with the chip in play (the solution never: it is not drawn)."""
        from ...puzzle import Puzzle
        from ...svg import svg

        if state.position is None or state.board is None:
            return None
        rnd = state.round
        if rnd is not None:
            return svg(Puzzle(state.position, rnd.target, rnd.active), chip=(rnd.goal.color, rnd.goal.symbol),
                       coordinates=True)
        return svg(state.position, coordinates=True)

    def secrets(self, state: GameState) -> list[Secret]:
        """The seed (it fixes the pile's order).  A round's solution is never in the
        state before the round is over (the shell reports it only then)."""
        return [Secret(None, "seed", state.config.seed)]

    # -- bots ---------------------------------------------------------------------------------------
    def trainer(self) -> Any:
        from .trainer import SPEC
        return SPEC

    def cli(self) -> Any:
        from .cli import HOOK
        return HOOK

    def make_bot(self, client: BotClient, level: str, compute: Compute, *, speed: float = 1.0,
                 rng: Any = None) -> Any:
        return BiddingBot(client, level, compute, puzzle_from_view, speed=speed, rng=rng)


def transparent_choices(state: GameState) -> dict[str, Any] | None:
    """Where the transparent robot may stop now, by direction, with what each
    stop costs (1, plus 1 per wall or diagonal passed through): the choices a
    demonstrator makes at each interior wall or coloured diagonal (seed 002's
    variant).  ``None`` without a transparent robot."""
    from ...geometry import DIRECTIONS

    pos = state.position
    if pos is None or not any(r.color == "transparent" for r in pos.robots):
        return None
    robot = pos.index_of("transparent")
    out: dict[str, Any] = {"robot": robot}
    for d in DIRECTIONS:
        try:
            paths = pos.paths(robot, d)
        except IllegalMove:
            paths = []
        out[d.name] = [{"stop": list(p.end), "cost": p.cost} for p in sorted(paths, key=lambda p: (p.cost, p.end))]
    return out


def puzzle_from_view(state: dict[str, Any]) -> Any:
    """The puzzle of the round in play, with the table's rules, from public information only."""
    from ...puzzle import Puzzle

    rnd = state.get("round")
    if rnd is None or state.get("board") is None:
        return None
    board = board_from_wire(state["board"])
    rules = Rules(**state["config"]["rules"])
    position = Position(board, robots_from_wire(rnd["start"]), rules=rules)
    return Puzzle(position, (rnd["target"][0], rnd["target"][1]), rnd["active"])


RICOCHET_ROBOTS = RicochetRobots()
"""The game (one stateless instance serves every room)."""
