"""Ricochet Pyramids (seed 003, Russ Williams): robots race to towers on an 8×8 board.

The shared bidding round of :mod:`ricochet.games.bidding` with the pieces of
the seed:

* **Towers** — every pair of the colours in play, a medium pyramid (``top``)
  on a large one (``bottom``): 3×3 = 9 towers, or 16 with four colours.  They
  never move and block robots, except the goal tower of the round, which
  robots slide across and stop on only when the next square blocks (then the
  robot sits on top, and may move off it later).
* **Robots** — one small pyramid of each colour, set on empty squares.
* **Goals** — each round a large, a medium and a small pyramid are drawn from
  three pools (one of each colour): the small one names the robot, the medium
  on the large the tower.  Redrawn when that robot already sits on that tower.
* **Bids** — the first bid starts the 30-second timer; a player may re-bid
  only *lower* than their own bid (an equal re-bid is refused, unlike Ricochet
  Robots); equal bids: the earlier bid first (RULINGS).  The lowest bidder
  demonstrates; too many moves or a failure: the robots go back and the next
  bidder tries.  Success earns a point from the bank; the game is played to 10
  points (an option).
* **Variants** — a minimum number of moves (goals solvable in fewer are
  redrawn; default 3, "suggested for non-newbies"), four colours, robots of
  other colours than the towers (only how they look).

The set-up: the host arranges the towers in the lobby (move one, or take a
layout: random, or the seed's "easy" and "hard" examples with colours
dealt at random); no tower may be completely surrounded by towers.

Readings of our own:

* Every goal is checked by the solver before bids open (:meth:`Pyramids.jobs`):
  an unsolvable goal is redrawn, as is one solvable in fewer moves than the
  minimum.  After 30 draws in one round the minimum is waived (a layout on
  which every goal is short must still be playable).
* Without a bid, the timer may be turned after ``no_bid_wait_seconds``
  (as RULINGS 8 for Ricochet Robots); if it runs out unbid, no point.
* A demonstration has ``demo_seconds`` plus ``demo_seconds_per_move`` per bid
  move: "smoothly … without stopping to think".
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, ClassVar

from ...board import Board
from ...geometry import Cell
from ...position import Move, Position, PositionError, Robot
from ...rules import Rules
from ..bidding.bot import LEVELS as BOT_LEVELS
from ..bidding.bot import BiddingBot
from ..bidding.round import BiddingGame, BiddingPhase, BiddingState, RoundState
from ..events import Event, encode, move_of, robots_of
from ..interface import BotClient, Compute, ConfigError, GameError, Job, OptionsError, Secret
from ..jobs import Answer, solve_job
from ..messages import cell, field, text_choice
from ..options import check_options, kind_of
from ..table import GameEnded, Tx, seated_player, winners_of
from .setup import (
    COLORS,
    LAYOUTS,
    OTHER_COLORS,
    RULES,
    SIZE,
    Goal,
    Tower,
    board_of,
    cell_name,
    check_towers,
    deal_towers,
    draw_goal,
    goal_verdict,
    initial_towers,
    place_robots,
    random_cells,
    seeded,
    surrounded,
)

__all__ = [
    "PYRAMIDS",
    "CheckGoal",
    "GameStarted",
    "GoalChecked",
    "GoalDrawn",
    "LayoutSet",
    "MoveTower",
    "Pyramids",
    "PyramidsConfig",
    "PyramidsRound",
    "PyramidsState",
    "RoundEnded",
    "SetLayout",
    "puzzle_from_view",
]

# -- configuration -------------------------------------------------------------------------------
@dataclass(frozen=True)
class PyramidsConfig:
    """How a game of Ricochet Pyramids is played; validated on construction.

    ``layout`` is ``"random"``, ``"easy"``, ``"hard"`` (the seed's examples,
    colours dealt from ``seed``) or the towers themselves; the host may still
    rearrange them before the start.  ``robots``: starting robots (``None``:
    random empty squares at the start)."""

    colors: int = 3
    layout: str | tuple[Tower, ...] = "random"
    robots: tuple[Robot, ...] | None = None
    robot_colors: str = "same"
    """``same``: robots look like the tower colours; ``other``: another palette (seed 003 variant)."""
    min_moves: int = 1
    """Goals solvable in fewer moves are redrawn.  1, the default: every solvable goal
    stands — seed 003 makes a minimum a variant players agree on ("by mutual consent");
    it suggests 3 for non-newbies."""
    clock_seconds: float = 30.0
    """The timer (seed 003: "30-second timer")."""
    no_bid_wait_seconds: float = 120.0
    demo_seconds: float = 30.0
    demo_seconds_per_move: float = 5.0
    intermission_seconds: float = 0.0
    target_score: int = 10
    """Points that end the game (seed 003: "10 points is suggested")."""
    min_players: int = 2
    seed: int = 0

    def __post_init__(self) -> None:
        if self.colors not in (3, 4) or isinstance(self.colors, bool):
            raise ConfigError(f"colors must be 3 or 4, got {self.colors!r}")
        if self.robot_colors not in ("same", "other"):
            raise ConfigError(f"robot_colors must be \"same\" or \"other\", got {self.robot_colors!r}")
        if isinstance(self.layout, str):
            if self.layout not in ("random", *LAYOUTS):
                raise ConfigError(f"layout must be random, {', '.join(LAYOUTS)} or a list of towers, "
                                  f"got {self.layout!r}")
            if self.layout != "random" and self.colors != 3:
                raise ConfigError(f"layout {self.layout!r} has 9 towers, for 3 colours; with 4 colours "
                                  "choose random or give the 16 towers")
        else:
            object.__setattr__(self, "layout", tuple(sorted(self.layout)))
            check_towers(self.layout, self.palette)
        if self.robots is not None:
            robots = tuple(self.robots)
            if sorted(r.color for r in robots) != sorted(self.palette):
                raise ConfigError(f"robots: one robot of each of {', '.join(self.palette)}")
            try:
                Position(Board.build(SIZE, SIZE), robots)
            except PositionError as e:
                raise ConfigError(f"robots: {e}") from None
            object.__setattr__(self, "robots", robots)

    @property
    def palette(self) -> tuple[str, ...]:
        return COLORS[:self.colors]

    @property
    def rules(self) -> Rules:
        return RULES

    def initial_towers(self) -> tuple[Tower, ...]:
        """The layout the lobby starts from (the host may change it)."""
        if not isinstance(self.layout, str):
            return self.layout
        return initial_towers(self.seed, self.layout, self.palette)

    def to_dict(self) -> dict[str, Any]:
        """The settings players may see (not the seed)."""
        return {"colors": self.colors, "robot_colors": self.robot_colors, "min_moves": self.min_moves,
                "clock_seconds": self.clock_seconds, "no_bid_wait_seconds": self.no_bid_wait_seconds,
                "demo_seconds": self.demo_seconds, "demo_seconds_per_move": self.demo_seconds_per_move,
                "intermission_seconds": self.intermission_seconds, "target_score": self.target_score,
                "min_players": self.min_players, "rules": self.rules.to_dict()}


# -- actions ---------------------------------------------------------------------------------------
@dataclass(frozen=True)
class MoveTower:
    """The host moves a tower to an empty square (lobby only)."""

    player: str
    source: Cell
    target: Cell


@dataclass(frozen=True)
class SetLayout:
    """The host takes a layout: ``random`` (a new one), ``easy`` or ``hard`` (lobby only)."""

    player: str
    layout: str


@dataclass(frozen=True)
class CheckGoal:
    """From the shell, not a player: the solver's answer for the goal in play (draw ``draw`` of round ``round``)."""

    round: int
    draw: int
    answer: Answer


# -- events ------------------------------------------------------------------------------------------
def _towers(v: Any) -> tuple[Tower, ...]:
    return tuple(Tower.from_dict(t) for t in v)


@dataclass(frozen=True)
class LayoutSet(Event):
    """The towers now (before the start): the host moved one or took a layout."""

    type: ClassVar[str] = "layout_set"
    _decode: ClassVar[dict[str, Callable[[Any], Any]]] = {"towers": _towers}
    towers: tuple[Tower, ...]
    at: float

    def to_dict(self) -> dict[str, Any]:
        return {"type": self.type, "towers": [t.to_dict() for t in self.towers], "at": self.at}


@dataclass(frozen=True)
class GameStarted(Event):
    """The set-up: players seated, the towers, the robots and the points that end the game."""

    type: ClassVar[str] = "game_started"
    _decode: ClassVar[dict[str, Callable[[Any], Any]]] = {"players": tuple, "towers": _towers,
                                                         "robots": robots_of}
    players: tuple[str, ...]
    towers: tuple[Tower, ...]
    robots: tuple[Robot, ...]
    target_score: int
    at: float

    def to_dict(self) -> dict[str, Any]:
        return {"type": self.type, "players": list(self.players), "towers": [t.to_dict() for t in self.towers],
                "robots": encode(self.robots), "target_score": self.target_score, "at": self.at}


@dataclass(frozen=True)
class GoalDrawn(Event):
    """A goal is drawn (``draw`` counts the draws of this round: a redraw has 2, 3 …):
    the robot (index and colour) and its tower.  ``skipped`` are the draws put back
    because that robot already sat on that tower."""

    type: ClassVar[str] = "goal_drawn"
    _decode: ClassVar[dict[str, Callable[[Any], Any]]] = {"target": lambda v: (int(v[0]), int(v[1]))}
    round: int
    draw: int
    robot: str
    top: str
    bottom: str
    target: Cell
    active: int
    skipped: int
    at: float


@dataclass(frozen=True)
class GoalChecked(Event):
    """The solver's verdict on the goal in play: ``accepted``, ``too_easy``
    (solvable in fewer than the minimum) or ``unsolvable`` — the last two
    redraw.  ``optimal`` and ``solution`` stay secret until the round is over."""

    type: ClassVar[str] = "goal_checked"
    _decode: ClassVar[dict[str, Callable[[Any], Any]]] = {"solution": lambda v: tuple(move_of(m) for m in v)}
    round: int
    draw: int
    verdict: str
    optimal: int | None
    solution: tuple[Move, ...]
    at: float


@dataclass(frozen=True)
class RoundEnded(Event):
    """``result``: ``won`` (a point to ``winner``), ``failed`` or ``no_bid`` (no point)."""

    type: ClassVar[str] = "round_ended"
    round: int
    robot: str
    top: str
    bottom: str
    result: str
    winner: str | None
    at: float


# -- state ----------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class PyramidsRound(RoundState):
    """A round of Ricochet Pyramids: its goal is a :class:`Goal`; ``draw`` counts its
    draws; bids open once the solver accepted the goal (``check``)."""

    draw: int = 1
    check: GoalChecked | None = None

    @property
    def open(self) -> bool:
        return self.check is not None and self.check.verdict == "accepted"


@dataclass(frozen=True)
class PyramidsState(BiddingState):
    """A game of Ricochet Pyramids at one point of its log."""

    towers: tuple[Tower, ...] = ()
    draws: int = 0
    """Goals drawn so far (every draw, redraws too: the seed of the next one)."""
    checks: tuple[GoalChecked, ...] = ()
    """The accepted goals' verdicts (optimal lengths and solutions), by round."""

    def tower_at(self, cell: Cell) -> Tower | None:
        return next((t for t in self.towers if t.cell == cell), None)

    def check_of(self, number: int) -> GoalChecked | None:
        return next((c for c in self.checks if c.round == number), None)


# -- the game ----------------------------------------------------------------------------------------------
DEFAULT_OPTIONS: dict[str, Any] = {
    "colors": 3, "layout": "random", "robot_colors": "same", "min_moves": 1,
    "clock_seconds": 30, "no_bid_wait_seconds": 120, "demo_seconds": 30, "demo_seconds_per_move": 5,
    "intermission_seconds": 5, "target_score": 10, "min_players": 2,
}
SECONDS_OPTIONS = {"clock_seconds": (5, 600), "no_bid_wait_seconds": (0, 3600), "demo_seconds": (5, 600),
                   "demo_seconds_per_move": (0, 120), "intermission_seconds": (0, 120)}


class Pyramids(BiddingGame):
    """Ricochet Pyramids on the platform (see the module docstring)."""

    name: ClassVar[str] = "pyramids"
    version: ClassVar[int] = 2  # 2: game_paused and game_resumed
    title: ClassVar[str] = "Ricochet Pyramids"
    default_options: ClassVar[Mapping[str, Any]] = DEFAULT_OPTIONS
    bot_levels: ClassVar[tuple[str, ...]] = tuple(BOT_LEVELS)
    event_types: ClassVar[tuple[type[Event], ...]] = (LayoutSet, GameStarted, GoalDrawn, GoalChecked, RoundEnded)
    equal_rebid: ClassVar[bool] = False  # seed 003: "a player can only re-bid lower than their own previous bid"
    heavy_keys: ClassVar[dict[str, tuple[str, ...]]] = {
        "config": ("game_reset",), "history": ("round_ended", "game_ended", "game_reset")}

    # -- options and config ---------------------------------------------------------------------------
    def normalize_options(self, raw: Mapping[str, Any]) -> dict[str, Any]:
        """Room options of Ricochet Pyramids (``docs/protocol.md``).

        >>> PYRAMIDS.normalize_options({"colors": 4, "min_moves": 1})["colors"]
        4
        """
        opts = check_options(raw, DEFAULT_OPTIONS, bools=(), seconds=SECONDS_OPTIONS,
                             ints={"colors": (3, 4), "min_moves": (1, 8), "target_score": (1, 99),
                                   "min_players": (1, 8)})
        layout = opts["layout"]
        if isinstance(layout, list):
            try:
                opts["layout"] = [Tower.from_dict(t).to_dict() for t in layout]
            except (KeyError, TypeError, ValueError, IndexError):
                raise OptionsError("layout: each tower is {\"cell\": [x, y], \"top\": colour, \"bottom\": colour}") \
                    from None
        elif layout not in ("random", *LAYOUTS):
            raise OptionsError(f"layout must be \"random\", \"easy\", \"hard\" or a list of towers, "
                               f"got {kind_of(layout) if not isinstance(layout, str) else repr(layout)}")
        if opts["robot_colors"] not in ("same", "other"):
            raise OptionsError(f"robot_colors must be \"same\" or \"other\", got {opts['robot_colors']!r}")
        try:
            self.config(opts, 0)
        except ConfigError as e:
            raise OptionsError(str(e)) from None
        return opts

    def config(self, options: Mapping[str, Any], seed: int) -> PyramidsConfig:
        layout = options["layout"]
        if isinstance(layout, list):
            layout = tuple(Tower.from_dict(t) for t in layout)
        return PyramidsConfig(
            colors=options["colors"], layout=layout, robot_colors=options["robot_colors"],
            min_moves=options["min_moves"], clock_seconds=float(options["clock_seconds"]),
            no_bid_wait_seconds=float(options["no_bid_wait_seconds"]), demo_seconds=float(options["demo_seconds"]),
            demo_seconds_per_move=float(options["demo_seconds_per_move"]),
            intermission_seconds=float(options["intermission_seconds"]), target_score=options["target_score"],
            min_players=options["min_players"], seed=seed)

    def new(self, config: PyramidsConfig) -> PyramidsState:
        towers = config.initial_towers()
        return PyramidsState(config=config, towers=towers, board=board_of(towers))

    # -- hooks of the bidding round ------------------------------------------------------------------------
    def setup(self, tx: Tx, now: float) -> None:
        s = tx.state
        cfg = s.config
        check_towers_or_refuse(s.towers, cfg.palette)
        robots = cfg.robots
        if robots is None:
            robots = place_robots(cfg.seed, s.towers, cfg.palette)
        else:
            clash = [r for r in robots if s.tower_at(r.cell) is not None]
            if clash:
                raise GameError(f"the {clash[0].color} robot stands on a tower square: move that tower", "phase")
        tx.emit(GameStarted(s.seated, s.towers, robots, cfg.target_score, now))
        self.draw(tx, now)

    def draw(self, tx: Tx, now: float) -> None:
        s = tx.state
        assert s.position is not None
        cfg = s.config
        number = len(s.history) + 1
        again = s.round is not None and s.round.number == number
        draw = s.round.draw + 1 if again else 1  # type: ignore[union-attr]
        goal, tower, active, skipped = draw_goal(cfg.seed, s.draws, cfg.palette, s.towers, s.position)
        tx.emit(GoalDrawn(number, draw, goal.robot, goal.top, goal.bottom, tower.cell, active, skipped, now))

    def round_ended(self, rnd: RoundState, result: str, winner: str | None, now: float) -> Event:
        g = rnd.goal
        return RoundEnded(rnd.number, g.robot, g.top, g.bottom, result, winner, now)

    def after_round(self, tx: Tx, now: float, winner: str | None) -> None:
        s = tx.state
        if winner is not None and s.scores[winner] >= s.target_score:
            tx.emit(GameEnded("target_score", winners_of(s), now))
        elif s.config.intermission_seconds == 0:
            self.draw(tx, now)

    def may_bid(self, state: PyramidsState, rnd: RoundState) -> None:
        assert isinstance(rnd, PyramidsRound)
        if not rnd.open:
            raise GameError("the goal is being checked (is it solvable, and not too easy?): bid in a moment",
                            "closed")

    def evolve_game(self, s: PyramidsState, event: Event) -> PyramidsState:
        if isinstance(event, LayoutSet):
            return replace(s, towers=event.towers, board=board_of(event.towers))
        if isinstance(event, GameStarted):
            board = board_of(event.towers)
            return replace(s, phase=BiddingPhase.INTERMISSION, towers=event.towers, board=board,
                           position=Position(board, event.robots, rules=s.config.rules), target_score=event.target_score)
        if isinstance(event, GoalDrawn):
            assert s.position is not None
            start = replace(s.position.fresh(), goal=event.target)
            goal = Goal(event.robot, event.top, event.bottom)
            rnd = PyramidsRound(event.round, goal, event.target, event.active, event.at, start, draw=event.draw)
            return self.begin_round(replace(s, draws=s.draws + 1 + event.skipped), rnd)
        if isinstance(event, GoalChecked):
            assert isinstance(s.round, PyramidsRound)
            s = replace(s, round=replace(s.round, check=event))
            if event.verdict == "accepted":
                return replace(s, checks=tuple(c for c in s.checks if c.round != event.round) + (event,))
            return s
        if isinstance(event, RoundEnded):
            return self.close_round(s, event.result, event.winner, event.at,
                                    Goal(event.robot, event.top, event.bottom))
        raise TypeError(f"not an event: {event!r}")

    def decide_game(self, tx: Tx, action: object, now: float) -> None:
        s = tx.state
        if isinstance(action, MoveTower | SetLayout):
            seated_player(s, action.player)
            if s.phase != "lobby":
                raise GameError("the towers can be arranged only before the start", "phase")
            if s.host != action.player:
                raise GameError(f"only the host ({s.name_of(s.host)}) arranges the towers", "not_host")
            tx.emit(LayoutSet(self._arranged(s, action), now))
        elif isinstance(action, CheckGoal):
            self._check_goal(tx, action, now)
        else:
            raise GameError(f"unknown action {type(action).__name__}", "invalid")

    def _arranged(self, s: PyramidsState, action: MoveTower | SetLayout) -> tuple[Tower, ...]:
        cfg = s.config
        if isinstance(action, SetLayout):
            if action.layout == "random":
                rng = seeded(cfg.seed, f"layout:{s.version}")
                return deal_towers(random_cells(cfg.colors ** 2, rng), cfg.palette, rng)
            if action.layout in LAYOUTS and cfg.colors == 3:
                return deal_towers(LAYOUTS[action.layout], cfg.palette, seeded(cfg.seed, f"layout:{s.version}"))
            known = "random, easy or hard" if cfg.colors == 3 else "random (easy and hard have 9 towers)"
            raise GameError(f"layout must be {known}, got {action.layout!r}", "layout")
        src, dst = action.source, action.target
        tower = s.tower_at(src)
        if tower is None:
            raise GameError(f"there is no tower on {cell_name(src)}", "layout")
        if not (0 <= dst[0] < SIZE and 0 <= dst[1] < SIZE):
            raise GameError(f"{list(dst)} is off the 8×8 board", "layout")
        if s.tower_at(dst) is not None:
            raise GameError(f"{cell_name(dst)} already has a tower", "layout")
        towers = tuple(sorted(replace(t, cell=dst) if t.cell == src else t for t in s.towers))
        bad = surrounded([t.cell for t in towers])
        if bad:
            raise GameError(f"the tower on {cell_name(bad[0])} would be completely surrounded by towers "
                            "(seed 003: no tower may be inaccessible)", "layout")
        return towers

    def _check_goal(self, tx: Tx, action: CheckGoal, now: float) -> None:
        s = tx.state
        rnd = s.round
        if not isinstance(rnd, PyramidsRound) or (rnd.number, rnd.draw) != (action.round, action.draw) \
                or rnd.check is not None:
            raise GameError(f"goal {action.round}.{action.draw} is not waiting for its check", "round")
        answer = action.answer
        verdict = goal_verdict(answer.status, answer.optimal, s.config.min_moves, rnd.draw)
        tx.emit(GoalChecked(rnd.number, rnd.draw, verdict, answer.optimal, tuple(answer.moves), now))
        if verdict != "accepted":
            self.draw(tx, now)

    # -- jobs: the solver checks each goal --------------------------------------------------------------------
    def jobs(self, state: PyramidsState) -> list[Job]:
        rnd = state.round
        if not isinstance(rnd, PyramidsRound) or rnd.check is not None or state.phase == "over":
            return []
        number, draw = rnd.number, rnd.draw

        def check(answer: Answer) -> CheckGoal:
            return CheckGoal(number, draw, answer)
        return [solve_job(rnd.puzzle, check)]

    def known_solution(self, state: PyramidsState, number: int) -> tuple[int | None, tuple[Move, ...]]:
        check = state.check_of(number)
        if check is None:
            raise GameError(f"round {number} has no known solution", "not_yet")
        return check.optimal, check.solution

    # -- views ---------------------------------------------------------------------------------------------------
    def full_view(self, state: PyramidsState, viewer: str | None, *, heavy: bool = True,
                  lists: bool = True) -> dict[str, Any]:
        cfg = state.config
        rnd = state.round
        view: dict[str, Any] = {
            "game": self.name, "version": state.version, "time": state.time, "phase": state.phase, "you": viewer,
            "host": state.host, "target_score": state.target_score or cfg.target_score,
            "towers": [t.to_dict() for t in state.towers], "size": SIZE,
            "robot_palette": OTHER_COLORS if cfg.robot_colors == "other" else None,
            "players": [{"id": p.id, "name": p.name, "seated": p.seated, "score": p.score,
                         "goals": [g.to_dict() for g in p.won]} for p in state.players],
            "robots": encode(state.robots),
            "round": None, "history": [], "winners": list(state.winners), "end_reason": state.end_reason,
            "intermission_until": state.intermission_until,
        }
        if rnd is not None:
            assert isinstance(rnd, PyramidsRound)
            view["round"] = {"goal": rnd.goal.to_dict(), "draw": rnd.draw, "open": rnd.open,
                             **self.round_view(state, rnd, viewer, lists=lists)}
        if not heavy:
            del view["history"]
            return view
        view["config"] = cfg.to_dict()
        for r in state.history:
            check = state.check_of(r.number)
            view["history"].append({**self.history_view(r), "goal": r.goal.to_dict(),
                                    "optimal": check.optimal if check else None})
        return view

    def view(self, state: PyramidsState, viewer: str | None) -> dict[str, Any]:
        return self.full_view(state, viewer)

    def event_state(self, state: PyramidsState, event_type: str) -> dict[str, Any]:
        heavy = any(event_type in when for when in self.heavy_keys.values())
        v = self.slim(self.full_view(state, None, heavy=heavy, lists=False), state.round, event_type)
        if heavy:
            for key, when in self.heavy_keys.items():
                if event_type not in when:
                    del v[key]
        return v

    def public_event(self, event: Event) -> dict[str, Any]:
        d = event.to_dict()
        if d["type"] == "goal_checked":
            del d["optimal"], d["solution"]  # secret until the round is over
        return d

    def secrets(self, state: PyramidsState) -> list[Secret]:
        out = [Secret(None, "seed", state.config.seed)]
        rnd = state.round
        # Until the demonstrations begin (a demonstrator may then play those very moves).
        if isinstance(rnd, PyramidsRound) and rnd.check is not None and rnd.check.solution \
                and state.phase in ("thinking", "bidding"):
            out.append(Secret(None, f"solution of round {rnd.number}", encode(rnd.check.solution)))
        return out

    def picture(self, state: PyramidsState) -> str | None:
        from ...puzzle import Puzzle
        from ...svg import svg

        if state.position is None:
            return None
        rnd = state.round
        return svg(Puzzle(state.position, rnd.target, rnd.active) if rnd is not None else state.position,
                   coordinates=True)

    # -- protocol ---------------------------------------------------------------------------------------------------
    message_types: ClassVar[tuple[str, ...]] = (*BiddingGame.message_types, "move_tower", "set_layout")

    def parse_action(self, state: Any, player: str, msg: Mapping[str, Any]) -> Any:
        kind = msg["type"]
        if kind == "move_tower":
            return MoveTower(player, cell(field(msg, "from", "the tower's square [x, y]"), "from", SIZE),
                             cell(field(msg, "to", "an empty square [x, y]"), "to", SIZE))
        if kind == "set_layout":
            return SetLayout(player, text_choice(field(msg, "layout", "random, easy or hard"), "layout",
                                                 ("random", *LAYOUTS)))
        return super().parse_action(state, player, msg)

    # -- bots ------------------------------------------------------------------------------------------------------
    def trainer(self) -> Any:
        from .trainer import SPEC
        return SPEC

    def cli(self) -> Any:
        from .cli import HOOK
        return HOOK

    def make_bot(self, client: BotClient, level: str, compute: Compute, *, speed: float = 1.0,
                 rng: Any = None) -> Any:
        # A 30-second timer: bots think about half as long as at a Ricochet Robots table.
        return BiddingBot(client, level, compute, puzzle_from_view, speed=speed, think=0.5, rng=rng)


def check_towers_or_refuse(towers: Sequence[Tower], colors: Sequence[str]) -> None:
    try:
        check_towers(towers, colors)
    except ConfigError as e:
        raise GameError(str(e), "layout") from None


def puzzle_from_view(state: dict[str, Any]) -> Any:
    """The puzzle of the round in play (with the game's rules), from public information only."""
    from ...puzzle import Puzzle

    rnd = state.get("round")
    if rnd is None or not state.get("towers"):
        return None
    board = board_of([Tower.from_dict(t) for t in state["towers"]])
    robots = tuple(Robot(r["color"], (r["cell"][0], r["cell"][1])) for r in rnd["start"])
    target = (rnd["target"][0], rnd["target"][1])
    return Puzzle(Position(board, robots, goal=target, rules=RULES), target, rnd["active"])


PYRAMIDS = Pyramids()
"""The game (one stateless instance serves every room)."""
