"""Micro Robots (seed 002) as a game of the site: a race to announce, exact move counts.

Not a bidding game.  Seed 002: "Simultaneously, all players try to figure out
in their mind a route for the robot … As soon as one player has figured out a
solution, he announces aloud the number of moves … He takes the robot and
verifies his solution by actually moving the robot from the starting space to
the target space in the number of moves he has announced."

* **Dice** — the server rolls: first the starting space, then the target
  (rolled again while it equals the start); a victory point chip lies on the
  target.  The dice pass to the left each round (who rolls is shown).
* **The race** — the first announcement wins the right to demonstrate, at once,
  move by move (each move checked: same row or column, same colour or number).
* **Exactly N** — success only when the robot is on the target after exactly
  the announced number of moves (revisiting spaces is allowed).  Success takes
  the chip; failure gives one of the announcer's chips (if any) to the player
  with the fewest chips (ties: the nearest clockwise from the announcer) and
  the target's chip goes back to the supply.  Either way the robot ends on the
  target, which is the next round's start.
* **No announcement** for ``reroll_seconds`` (RULINGS: 3 minutes): the target
  is rolled again and its chip moves along.
* **End** — a player's fifth chip, or all 25 chips given out: most chips wins,
  ties share the victory.
* **Variant for experts** (option): an intermediate target, rolled after the
  target (not the start or the target), that the route must pass through.

Readings of our own: an illegal move in a demonstration is refused with the
reason and does not count; a demonstration has ``demo_seconds`` plus
``demo_seconds_per_move`` per announced move; giving up, leaving or running
out of time is a failure.  "The youngest player rolls" first: the host.
"""

from __future__ import annotations

import enum
import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from typing import Any, ClassVar

from ..events import Event
from ..interface import BotClient, Compute, ConfigError, GameError, OptionsError, Secret
from ..messages import cell, field, whole
from ..options import check_options
from ..table import (
    TABLE_EVENTS,
    GameEnded,
    TableGame,
    TableState,
    Tx,
    decide_table,
    evolve_table,
    seated_player,
    winners_of,
)
from .bot import LEVELS as BOT_LEVELS
from .bot import MicroBot
from .engine import SHIPPED, Arrangement, MicroBoard, MicroError

__all__ = [
    "MICRO_ROBOTS",
    "Announce",
    "Announced",
    "DemonstrationEnded",
    "GameStarted",
    "GiveUp",
    "MicroConfig",
    "MicroPhase",
    "MicroState",
    "MoveRobot",
    "RobotMoved",
    "RoundEnded",
    "TargetRolled",
]

CHIPS = 25
"""Victory point chips in the box (seed 002: "25 transparent victory point chips")."""
MAX_ANNOUNCE = 99
Cell = tuple[int, int]


def _cell(v: Any) -> Cell:
    return (int(v[0]), int(v[1]))


def _opt_cell(v: Any) -> Cell | None:
    return None if v is None else _cell(v)


class MicroPhase(enum.StrEnum):
    """The phases of Micro Robots: ``lobby``; ``racing`` (a target is rolled: the first
    to announce demonstrates); ``demonstration``; ``intermission`` between rounds; ``over``."""

    LOBBY = "lobby"
    RACING = "racing"
    DEMONSTRATION = "demonstration"
    INTERMISSION = "intermission"
    OVER = "over"

    def __repr__(self) -> str:
        return f"MicroPhase.{self.name}"


# -- configuration ---------------------------------------------------------------------------------
@dataclass(frozen=True)
class MicroConfig:
    """How a game of Micro Robots is played.  ``arrangement``: the sections'
    placement (``None``: a random one from ``seed`` at the start)."""

    arrangement: Arrangement | None = None
    expert: bool = False
    """Variant for experts: an intermediate target to pass through."""
    reroll_seconds: float = 180.0
    """Without an announcement for this long, the target is rolled again (RULINGS: 3 minutes)."""
    demo_seconds: float = 30.0
    demo_seconds_per_move: float = 5.0
    intermission_seconds: float = 0.0
    target_score: int = 5
    """Chips that win (seed 002: "his fifth victory point chip")."""
    min_players: int = 2
    seed: int = 0

    def __post_init__(self) -> None:
        if self.arrangement is not None and not isinstance(self.arrangement, Arrangement):
            raise ConfigError("arrangement must be an Arrangement")
        for name in ("reroll_seconds", "demo_seconds", "demo_seconds_per_move", "intermission_seconds"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int | float) or value < 0:
                raise ConfigError(f"{name} must be a number of seconds, got {value!r}")
        if isinstance(self.target_score, bool) or not isinstance(self.target_score, int) \
                or not 1 <= self.target_score <= CHIPS:
            raise ConfigError(f"target_score must be a whole number from 1 to {CHIPS}, got {self.target_score!r}")

    def to_dict(self) -> dict[str, Any]:
        """The settings players may see (not the seed)."""
        return {"arrangement": self.arrangement.code if self.arrangement else None, "expert": self.expert,
                "reroll_seconds": self.reroll_seconds, "demo_seconds": self.demo_seconds,
                "demo_seconds_per_move": self.demo_seconds_per_move,
                "intermission_seconds": self.intermission_seconds, "target_score": self.target_score,
                "min_players": self.min_players}


# -- actions ---------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Announce:
    """"I can do it in N moves!" — the first one demonstrates."""

    player: str
    moves: int


@dataclass(frozen=True)
class MoveRobot:
    """The announcer moves the robot to ``to`` (a space in its row or column)."""

    player: str
    to: Cell


@dataclass(frozen=True)
class GiveUp:
    """The announcer gives up the demonstration (a failure)."""

    player: str


# -- events ----------------------------------------------------------------------------------------
@dataclass(frozen=True)
class GameStarted(Event):
    """The set-up: players seated, the sections' arrangement, and the starting space (rolled)."""

    type: ClassVar[str] = "game_started"
    _decode: ClassVar[dict[str, Callable[[Any], Any]]] = {"players": tuple, "start": _cell}
    players: tuple[str, ...]
    arrangement: str
    start: Cell
    at: float


@dataclass(frozen=True)
class TargetRolled(Event):
    """A round's target (and, for experts, the intermediate target) rolled by ``roller``.
    ``reason``: ``round`` (a new round) or ``no_announcement`` (rolled again; the chip moves along)."""

    type: ClassVar[str] = "target_rolled"
    _decode: ClassVar[dict[str, Callable[[Any], Any]]] = {"target": _cell, "via": _opt_cell}
    round: int
    roller: str | None
    target: Cell
    via: Cell | None
    reason: str
    rerolls: int
    """Dice thrown again because they named the start (or the target, for the intermediate)."""
    at: float


@dataclass(frozen=True)
class Announced(Event):
    type: ClassVar[str] = "announced"
    round: int
    player: str
    moves: int
    deadline: float
    at: float


@dataclass(frozen=True)
class RobotMoved(Event):
    """One move of the demonstration: from ``src`` to ``dst``; ``count`` moves so far."""

    type: ClassVar[str] = "robot_moved"
    _decode: ClassVar[dict[str, Callable[[Any], Any]]] = {"src": _cell, "dst": _cell}
    round: int
    player: str
    src: Cell
    dst: Cell
    count: int
    at: float


@dataclass(frozen=True)
class DemonstrationEnded(Event):
    """``reason``: ``solved``; or a failure: ``wrong_count`` (not on the target after
    the announced moves), ``missed_via`` (the intermediate target was not passed),
    ``gave_up``, ``timeout``, ``left``."""

    type: ClassVar[str] = "demonstration_ended"
    round: int
    player: str
    success: bool
    reason: str
    count: int
    at: float


@dataclass(frozen=True)
class RoundEnded(Event):
    """The robot is on the target.  ``winner`` took the chip; or on a failure the
    chip went back to the supply and ``penalty_to`` received one of the
    announcer's chips (``None``: the announcer had none, or nobody could take it)."""

    type: ClassVar[str] = "round_ended"
    round: int
    winner: str | None
    announcer: str | None
    penalty_to: str | None
    at: float


EVENTS: tuple[type[Event], ...] = (*TABLE_EVENTS, GameStarted, TargetRolled, Announced, RobotMoved,
                                   DemonstrationEnded, RoundEnded)


# -- state -----------------------------------------------------------------------------------------
@dataclass(frozen=True)
class MicroRound:
    number: int
    start: Cell
    target: Cell
    via: Cell | None
    roller: str | None
    rolled_at: float
    announcer: str | None = None
    announced: int | None = None
    demo_deadline: float | None = None
    route: tuple[Cell, ...] = ()
    """The spaces of the demonstration so far (the start first)."""


@dataclass(frozen=True)
class MicroResult:
    number: int
    start: Cell
    target: Cell
    via: Cell | None
    announcer: str | None
    announced: int | None
    route: tuple[Cell, ...]
    success: bool
    reason: str
    winner: str | None
    penalty_to: str | None


@dataclass(frozen=True)
class MicroState(TableState):
    """A game of Micro Robots at one point of its log.  ``players[i].won`` are
    the round numbers of the chips a player holds (one entry per chip)."""

    phases: ClassVar[type[enum.StrEnum]] = MicroPhase

    board: MicroBoard | None = None
    arrangement: Arrangement | None = None
    robot: Cell | None = None
    round: MicroRound | None = None
    history: tuple[MicroResult, ...] = ()
    rolls: int = 0
    """Dice throws so far (the seed of the next throw)."""
    last_roller: str | None = None
    intermission_until: float | None = None

    def clocks_shifted(self, dt: float) -> MicroState:
        rnd = self.round
        if rnd is not None:
            rnd = replace(rnd, rolled_at=rnd.rolled_at + dt,
                          demo_deadline=None if rnd.demo_deadline is None else rnd.demo_deadline + dt)
        until = None if self.intermission_until is None else self.intermission_until + dt
        return replace(self, round=rnd, intermission_until=until)

    @property
    def supply(self) -> int:
        """Chips in the general supply (one lies on the target during a round)."""
        return CHIPS - sum(p.score for p in self.players)


# -- the game ----------------------------------------------------------------------------------------
DEFAULT_OPTIONS: dict[str, Any] = {
    "arrangement": "random", "expert": False, "reroll_seconds": 180, "demo_seconds": 30,
    "demo_seconds_per_move": 5, "intermission_seconds": 3, "target_score": 5, "min_players": 2,
}
SECONDS = {"reroll_seconds": (30, 600), "demo_seconds": (5, 600), "demo_seconds_per_move": (0, 60),
           "intermission_seconds": (0, 60)}


def _rng(config: MicroConfig, what: str) -> random.Random:
    return random.Random(f"micro-robots:{config.seed}:{what}")


def _roll(state: MicroState, avoid: set[Cell]) -> tuple[Cell, int, int]:
    """Throw the two dice until they name a space not in ``avoid``: the space,
    the throws used and how many were thrown again."""
    assert state.board is not None
    k = 0
    while True:
        rng = _rng(state.config, f"dice:{state.rolls + k}")
        space = state.board.find(rng.choice(("blue", "yellow", "green", "red", "pink", "white")), rng.randint(1, 6))
        k += 1
        if space not in avoid:
            return space, k, k - 1


class MicroRobots(TableGame):
    """Micro Robots on the platform (see the module docstring)."""

    name: ClassVar[str] = "micro-robots"
    version: ClassVar[int] = 2  # 2: game_paused and game_resumed
    title: ClassVar[str] = "Micro Robots"
    default_options: ClassVar[Mapping[str, Any]] = DEFAULT_OPTIONS
    bot_levels: ClassVar[tuple[str, ...]] = tuple(BOT_LEVELS)
    event_types: ClassVar[tuple[type[Event], ...]] = EVENTS[len(TABLE_EVENTS):]
    message_types: ClassVar[tuple[str, ...]] = ("announce", "move_robot", "give_up")

    # -- options ----------------------------------------------------------------------------------------
    def normalize_options(self, raw: Mapping[str, Any]) -> dict[str, Any]:
        """Room options of Micro Robots (``docs/protocol.md``).

        >>> MICRO_ROBOTS.normalize_options({"arrangement": "c1a0d2b3"})["arrangement"]
        'C1A0D2B3'
        """
        opts = check_options(raw, DEFAULT_OPTIONS, bools=("expert",), seconds=SECONDS,
                             ints={"target_score": (1, CHIPS), "min_players": (1, 8)})
        arrangement = opts["arrangement"]
        if not isinstance(arrangement, str):
            raise OptionsError(f"arrangement must be \"random\" or a code like A0B0C0D0, got {arrangement!r}")
        if arrangement.strip().lower() != "random":
            try:
                opts["arrangement"] = Arrangement.parse(arrangement).code
            except MicroError as e:
                raise OptionsError(f"arrangement: {e}") from None
        else:
            opts["arrangement"] = "random"
        return opts

    def config(self, options: Mapping[str, Any], seed: int) -> MicroConfig:
        arrangement = None if options["arrangement"] == "random" else Arrangement.parse(options["arrangement"])
        return MicroConfig(arrangement=arrangement, expert=options["expert"],
                           reroll_seconds=float(options["reroll_seconds"]), demo_seconds=float(options["demo_seconds"]),
                           demo_seconds_per_move=float(options["demo_seconds_per_move"]),
                           intermission_seconds=float(options["intermission_seconds"]),
                           target_score=options["target_score"], min_players=options["min_players"], seed=seed)

    def new(self, config: MicroConfig) -> MicroState:
        return MicroState(config=config)

    # -- the table --------------------------------------------------------------------------------------
    def clock(self, state: MicroState) -> float | None:
        rnd = state.round
        if state.phase == "racing" and rnd is not None:
            return rnd.rolled_at + state.config.reroll_seconds
        if state.phase == "demonstration" and rnd is not None:
            return rnd.demo_deadline
        if state.phase == "intermission":
            return state.intermission_until
        return None

    # -- evolve -------------------------------------------------------------------------------------------
    def evolve(self, state: MicroState, event: Event) -> MicroState:
        s = replace(state, version=state.version + 1, time=max(state.time, event.at))
        table = evolve_table(s, event)
        if table is not None:
            return table  # type: ignore[no-any-return]
        if isinstance(event, GameStarted):
            arrangement = Arrangement.parse(event.arrangement)
            return replace(s, phase=MicroPhase.INTERMISSION, arrangement=arrangement,
                           board=MicroBoard.arranged(arrangement, SHIPPED), robot=event.start, rolls=s.rolls + 1)
        if isinstance(event, TargetRolled):
            assert s.robot is not None
            rolls = s.rolls + 1 + event.rerolls + (0 if event.via is None else 1)
            rnd = MicroRound(event.round, s.robot, event.target, event.via, event.roller, event.at)
            return replace(s, phase=MicroPhase.RACING, round=rnd, rolls=rolls, last_roller=event.roller,
                           intermission_until=None)
        rnd = s.round
        assert rnd is not None, f"{event.type} outside a round"
        if isinstance(event, Announced):
            return replace(s, phase=MicroPhase.DEMONSTRATION, round=replace(
                rnd, announcer=event.player, announced=event.moves, demo_deadline=event.deadline,
                route=(rnd.start,)))
        if isinstance(event, RobotMoved):
            return replace(s, robot=event.dst, round=replace(rnd, route=rnd.route + (event.dst,)))
        if isinstance(event, DemonstrationEnded):
            # Either way the robot is put on the target (seed 002).
            return replace(s, robot=rnd.target, round=replace(rnd, demo_deadline=None),
                           history=s.history + (MicroResult(rnd.number, rnd.start, rnd.target, rnd.via, event.player,
                                                            rnd.announced, rnd.route, event.success, event.reason,
                                                            None, None),))
        if isinstance(event, RoundEnded):
            players = s.players
            if event.winner is not None:
                p = s.player(event.winner)
                assert p is not None
                players = s.with_player(event.winner, won=p.won + (event.round,))
            elif event.penalty_to is not None and event.announcer is not None:
                giver, taker = s.player(event.announcer), s.player(event.penalty_to)
                assert giver is not None and taker is not None and giver.won
                s = replace(s, players=s.with_player(event.announcer, won=giver.won[:-1]))
                players = s.with_player(event.penalty_to, won=taker.won + giver.won[-1:])
            history = s.history
            if history and history[-1].number == event.round:
                history = history[:-1] + (replace(history[-1], winner=event.winner, penalty_to=event.penalty_to),)
            else:  # no demonstration: cannot happen today, kept total
                history = history + (MicroResult(rnd.number, rnd.start, rnd.target, rnd.via, None, None, (), False,
                                                 "none", None, None),)
            return replace(s, players=players, history=history, round=None, robot=rnd.target, phase=MicroPhase.INTERMISSION,
                           intermission_until=event.at + s.config.intermission_seconds)
        raise TypeError(f"not an event: {event!r}")

    # -- decide ---------------------------------------------------------------------------------------------
    def time_up(self, tx: Tx, due: float) -> None:
        s = tx.state
        if s.phase == "racing":
            self._roll_target(tx, due, "no_announcement")
        elif s.phase == "demonstration":
            self._end_demo(tx, False, "timeout", due)
        else:
            self._roll_target(tx, due, "round")

    def decide(self, tx: Tx, action: Any, now: float) -> None:
        s = tx.state
        if decide_table(tx, action, now, min_players=s.config.min_players, start=self._setup, left=self._left):
            return
        if isinstance(action, Announce):
            seated_player(s, action.player)
            if s.phase != "racing" or s.round is None:
                if s.phase == "demonstration" and s.round is not None:
                    raise GameError(f"{s.name_of(s.round.announcer)} announced first ({s.round.announced} moves) "
                                    "and is demonstrating", "closed")
                raise GameError("there is no target to announce for now", "phase")
            n = action.moves
            if isinstance(n, bool) or not isinstance(n, int) or not 1 <= n <= MAX_ANNOUNCE:
                raise GameError(f"announce a whole number of moves from 1 to {MAX_ANNOUNCE}, got {n!r}", "announce")
            deadline = now + s.config.demo_seconds + s.config.demo_seconds_per_move * n
            tx.emit(Announced(s.round.number, action.player, n, deadline, now))
        elif isinstance(action, MoveRobot | GiveUp):
            seated_player(s, action.player)
            rnd = s.round
            if s.phase != "demonstration" or rnd is None:
                raise GameError("there is no demonstration now", "phase")
            if rnd.announcer != action.player:
                raise GameError(f"it is {s.name_of(rnd.announcer)}'s demonstration", "turn")
            if isinstance(action, GiveUp):
                self._end_demo(tx, False, "gave_up", now)
            else:
                self._move(tx, rnd, action.to, now)
        else:
            raise GameError(f"unknown action {type(action).__name__}", "invalid")

    def _setup(self, tx: Tx, now: float) -> None:
        s = tx.state
        arrangement = s.config.arrangement or Arrangement.random(_rng(s.config, "arrangement"))
        board = MicroBoard.arranged(arrangement, SHIPPED)
        start, _, _ = _roll(replace(s, board=board), set())
        tx.emit(GameStarted(s.seated, arrangement.code, start, now))
        self._roll_target(tx, now, "round")

    def _roll_target(self, tx: Tx, now: float, reason: str) -> None:
        s = tx.state
        assert s.robot is not None
        seated = s.seated
        if reason == "round":
            # The dice pass to the left; the first throw is the host's ("the youngest player rolls").
            if s.last_roller in seated:
                roller: str | None = seated[(seated.index(s.last_roller) + 1) % len(seated)]
            else:
                roller = s.host if s.host in seated else (seated[0] if seated else None)
            number = len(s.history) + 1
        else:
            assert s.round is not None
            roller, number = s.round.roller, s.round.number
        target, used, rerolls = _roll(s, {s.robot})
        via = None
        if s.config.expert:
            via, _, more = _roll(replace(s, rolls=s.rolls + used), {s.robot, target})
            rerolls += more
        tx.emit(TargetRolled(number, roller, target, via, reason, rerolls, now))

    def _move(self, tx: Tx, rnd: MicroRound, to: Cell, now: float) -> None:
        s = tx.state
        assert s.board is not None and s.robot is not None and rnd.announced is not None
        if not s.board.is_move(s.robot, to):
            here, there = s.board.space(s.robot), s.board.space(to)
            if to == s.robot:
                why = "the robot is already there"
            elif to[0] != s.robot[0] and to[1] != s.robot[1]:
                why = "a move goes along the row or the column"
            else:
                why = f"{there.name} has neither the colour nor the number of {here.name}"
            raise GameError(f"illegal move: {why} (seed 002: only to a space of the same colour or number "
                            "in the same row or column)", "illegal_move")
        count = len(rnd.route)
        tx.emit(RobotMoved(rnd.number, rnd.announcer or "", s.robot, to, count, now))
        if count == rnd.announced:
            after = tx.state.round
            assert after is not None
            if to != rnd.target:
                self._end_demo(tx, False, "wrong_count", now)
            elif rnd.via is not None and rnd.via not in after.route[1:-1]:
                self._end_demo(tx, False, "missed_via", now)
            else:
                self._end_demo(tx, True, "solved", now)

    def _end_demo(self, tx: Tx, success: bool, reason: str, now: float) -> None:
        rnd = tx.state.round
        assert rnd is not None and rnd.announcer is not None
        tx.emit(DemonstrationEnded(rnd.number, rnd.announcer, success, reason, len(rnd.route) - 1, now))
        s = tx.state
        if success:
            tx.emit(RoundEnded(rnd.number, rnd.announcer, rnd.announcer, None, now))
            self._after_round(tx, now, rnd.announcer)
        else:
            penalty_to = self._penalty_to(s, rnd.announcer)
            tx.emit(RoundEnded(rnd.number, None, rnd.announcer, penalty_to, now))
            self._after_round(tx, now, penalty_to)  # a chip received as a penalty counts as any other

    @staticmethod
    def _penalty_to(s: MicroState, announcer: str) -> str | None:
        """Who gets one of the announcer's chips: the seated player with the fewest
        chips other than the announcer; ties: the nearest clockwise from the announcer
        (the seating order).  ``None`` when the announcer has none to give."""
        me = s.player(announcer)
        if me is None or not me.won:
            return None
        order = [p.id for p in s.players]
        start = order.index(announcer)
        clockwise = [order[(start + k) % len(order)] for k in range(1, len(order))]
        others = [p for p in clockwise if p in s.seated]
        if not others:
            return None
        fewest = min(s.scores[p] for p in others)
        return next(p for p in others if s.scores[p] == fewest)

    def _after_round(self, tx: Tx, now: float, receiver: str | None) -> None:
        """After a round: the game ends when ``receiver`` (who took a chip this round: the
        winner, or the player given the announcer's chip as a penalty) holds ``target_score``
        chips (seed 002: "One player obtains his fifth victory point chip. He is the winner of
        the game."), or when the supply is empty."""
        s = tx.state
        if receiver is not None and s.scores[receiver] >= s.config.target_score:
            tx.emit(GameEnded("target_score", winners_of(s), now))
        elif s.supply <= 0:
            tx.emit(GameEnded("all_chips", winners_of(s), now))
        elif s.config.intermission_seconds == 0:
            self._roll_target(tx, now, "round")

    def _left(self, tx: Tx, player: str, now: float) -> None:
        rnd = tx.state.round
        if tx.state.phase == "demonstration" and rnd is not None and rnd.announcer == player:
            self._end_demo(tx, False, "left", now)

    # -- protocol --------------------------------------------------------------------------------------------
    def parse_action(self, state: MicroState, player: str, msg: Mapping[str, Any]) -> Any:
        """``announce`` (``moves``), ``move_robot`` (``to``: ``[row, col]``), ``give_up``."""
        kind = msg["type"]
        if kind == "announce":
            return Announce(player, whole(field(msg, "moves", "the number of moves you announce"), "moves"))
        if kind == "move_robot":
            return MoveRobot(player, cell(field(msg, "to", "the space [row, col] the robot goes to"), "to", 6))
        if kind == "give_up":
            return GiveUp(player)
        raise GameError(f"unknown message type {kind!r}", "unknown_type")

    # -- views -------------------------------------------------------------------------------------------------
    def view(self, state: MicroState, viewer: str | None) -> dict[str, Any]:
        rnd = state.round
        cfg = state.config
        view: dict[str, Any] = {
            "game": self.name, "version": state.version, "time": state.time, "phase": state.phase, "you": viewer,
            "host": state.host, "target_score": cfg.target_score, "supply": state.supply,
            "arrangement": state.arrangement.code if state.arrangement else None,
            "board": state.board.to_json() if state.board else None,
            "robot": list(state.robot) if state.robot else None,
            "players": [{"id": p.id, "name": p.name, "seated": p.seated, "score": p.score} for p in state.players],
            "round": None, "winners": list(state.winners), "end_reason": state.end_reason,
            "intermission_until": state.intermission_until, "config": cfg.to_dict(),
            "history": [{"number": r.number, "start": list(r.start), "target": list(r.target),
                         "via": list(r.via) if r.via else None, "announcer": r.announcer, "announced": r.announced,
                         "route": [list(c) for c in r.route], "success": r.success, "reason": r.reason,
                         "winner": r.winner, "penalty_to": r.penalty_to} for r in state.history],
        }
        if rnd is not None:
            moves = state.board.moves(state.robot) if state.board and state.robot and state.phase == "demonstration" \
                else ()
            view["round"] = {
                "number": rnd.number, "start": list(rnd.start), "target": list(rnd.target),
                "via": list(rnd.via) if rnd.via else None, "roller": rnd.roller, "rolled_at": rnd.rolled_at,
                "reroll_at": rnd.rolled_at + cfg.reroll_seconds, "announcer": rnd.announcer,
                "announced": rnd.announced, "demo_deadline": rnd.demo_deadline,
                "route": [list(c) for c in rnd.route], "count": max(0, len(rnd.route) - 1),
                "moves": [list(c) for c in moves]}
        return view

    def event_state(self, state: MicroState, event_type: str) -> dict[str, Any]:
        v = self.view(state, None)
        v.pop("you", None)
        if event_type not in ("game_started", "game_reset"):
            v.pop("board")  # 36 spaces: sent when the board is laid out
        if event_type not in ("round_ended", "game_ended", "game_reset"):
            v.pop("history")
        return v

    def secrets(self, state: MicroState) -> list[Secret]:
        return [Secret(None, "seed", state.config.seed)]

    # -- bots ----------------------------------------------------------------------------------------------------
    def trainer(self) -> Any:
        from .trainer import SPEC
        return SPEC

    def cli(self) -> Any:
        from .cli import HOOK
        return HOOK

    def make_bot(self, client: BotClient, level: str, compute: Compute, *, speed: float = 1.0,
                 rng: Any = None) -> Any:
        return MicroBot(client, level, speed=speed, rng=rng)


MICRO_ROBOTS = MicroRobots()
"""The game (one stateless instance serves every room)."""
