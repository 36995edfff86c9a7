"""RAMbots (seed 001) as a game of the site: secret programs, run all at once.

A round: every player lays out up to five instructions from their code pool
behind a screen (the programming phase), then all programs run interleaved
(the execution phase) — the loaded instruction with the smallest piece first,
then the piece's colour highest on the precedence stack, then the owner's
RAMbot colour; after each instruction its owner's next one is loaded at once.
At the end of the round the top of the precedence stack goes to the bottom.
Before the first round each player makes a goal stack (one piece of each
colour, in an order) in secret for the player on their left; the stacks are
revealed when all are made.  The first to tag their four goals, in order,
wins at once.

The server steps the execution: one instruction every ``step_seconds``, so
everyone sees each one (and a restart resumes at the same instruction).

Readings of our own (besides RULINGS):

* The player on one's left is the next one in seating order; RAMbots stand in
  the corners clockwise in seating order, and the precedence stack starts from
  a random corner's colour, clockwise (seed 001's suggestion), the unused
  colours included.
* A program may be changed only while uncompiled ("you're free to uncompile
  and change your program").  With the programming timer (an option), or
  under Speedbots, an uncompiled program runs "as it lies".
* A player who leaves keeps their RAMbot on the board; their program is empty
  from then on.  A goal stack a leaving player had not made is made for them:
  their pieces of each colour, smallest first, in precedence order.
* Code-pool disclosure (an option, on by default as the seed's "official
  rule"): everyone sees every pool as it was when programming began; without
  it, only how many pieces each holds.
"""

from __future__ import annotations

import enum
import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from typing import Any, ClassVar

from ..events import Event
from ..interface import BotClient, Compute, ConfigError, GameError, OptionsError, Query, Secret
from ..messages import field, shown, text_choice, whole
from ..options import check_options
from ..table import (
    TABLE_EVENTS,
    GameEnded,
    Join,
    TableGame,
    TableState,
    Tx,
    decide_table,
    evolve_table,
    seated_player,
)
from .bot import LEVELS as BOT_LEVELS
from .bot import RamBot
from .engine import (
    COLORS,
    SIZE,
    Effect,
    Instruction,
    Obj,
    Piece,
    Table,
    execute,
    order_key,
    pieces_available,
    why_first,
)

__all__ = [
    "RAMBOTS",
    "Compile",
    "RamConfig",
    "RamPhase",
    "RamState",
    "SetGoals",
    "SetProgram",
]

MAX_PROGRAM = 5
MAX_PLAYERS = 4
CORNERS: tuple[tuple[int, int], ...] = ((1, 0), (7, 1), (6, 7), (0, 6))
"""Where the RAMbots start, clockwise from the north-west: an edge square next to each corner (RULINGS)."""
CENTRE = ((3, 3), (4, 3), (4, 4), (3, 4))
ORIENTATIONS = ("N", "E", "S", "W", "up")


class RamPhase(enum.StrEnum):
    """The phases of RAMbots: ``lobby``; ``goals`` (each makes a goal stack for their left
    neighbour); ``programming`` (behind the screens); ``execution`` (the programs run); ``over``."""

    LOBBY = "lobby"
    GOALS = "goals"
    PROGRAMMING = "programming"
    EXECUTION = "execution"
    OVER = "over"

    def __repr__(self) -> str:
        return f"RamPhase.{self.name}"


# -- configuration ---------------------------------------------------------------------------------
@dataclass(frozen=True)
class RamConfig:
    """How a game of RAMbots is played."""

    programming_seconds: float = 0.0
    """A timer for the programming phase (0: none — execution waits for every compile)."""
    speedbots: bool = False
    """Seed 001's variant: programming ends when all but one have compiled."""
    disclosure: bool = True
    """Code pools public (seed 001: "the official rule")."""
    layout: str = "default"
    """``default`` (RULINGS) or ``random`` (RAMbots on random edge squares, beacons on random squares)."""
    step_seconds: float = 1.5
    """Time between executed instructions (for people to follow)."""
    min_players: int = 2
    seed: int = 0

    def __post_init__(self) -> None:
        if self.layout not in ("default", "random"):
            raise ConfigError(f"layout must be default or random, got {self.layout!r}")
        if not 2 <= self.min_players <= MAX_PLAYERS:
            raise ConfigError(f"min_players must be from 2 to {MAX_PLAYERS}, got {self.min_players!r}")

    def to_dict(self) -> dict[str, Any]:
        return {"programming_seconds": self.programming_seconds, "speedbots": self.speedbots,
                "disclosure": self.disclosure, "layout": self.layout, "step_seconds": self.step_seconds,
                "min_players": self.min_players}


# -- actions ----------------------------------------------------------------------------------------
@dataclass(frozen=True)
class SetGoals:
    """The goal stack a player makes for the player on their left: one piece of each colour, top first."""

    player: str
    pieces: tuple[Piece, ...]


@dataclass(frozen=True)
class SetProgram:
    """A player's program behind the screen: up to five instructions, run left (first) to right."""

    player: str
    program: tuple[Instruction, ...]


@dataclass(frozen=True)
class Compile:
    """Put the compilation cap on (``on``) or take it off."""

    player: str
    on: bool


# -- events -----------------------------------------------------------------------------------------
def _pieces(v: Any) -> tuple[Piece, ...]:
    return tuple(Piece.from_dict(p) for p in v)


def _program(v: Any) -> tuple[Instruction, ...]:
    return tuple(Instruction.from_dict(i) for i in v)


@dataclass(frozen=True)
class GameStarted(Event):
    """The set-up: who plays which colour (clockwise), the objects, the precedence stack."""

    type: ClassVar[str] = "game_started"
    _decode: ClassVar[dict[str, Callable[[Any], Any]]] = {
        "players": tuple, "colors": tuple, "objects": lambda v: tuple(Obj.from_dict(o) for o in v),
        "precedence": tuple}
    players: tuple[str, ...]
    colors: tuple[str, ...]
    objects: tuple[Obj, ...]
    precedence: tuple[str, ...]
    at: float

    def to_dict(self) -> dict[str, Any]:
        return {"type": self.type, "players": list(self.players), "colors": list(self.colors),
                "objects": [o.to_dict() for o in self.objects], "precedence": list(self.precedence), "at": self.at}


@dataclass(frozen=True)
class GoalsSet(Event):
    """A player made (or remade) the goal stack for their left neighbour.  ``pieces`` is
    secret until the stacks are revealed (:meth:`RamBots.public_event` leaves it out)."""

    type: ClassVar[str] = "goals_set"
    _decode: ClassVar[dict[str, Callable[[Any], Any]]] = {"pieces": _pieces}
    player: str
    pieces: tuple[Piece, ...]
    auto: bool
    at: float

    def to_dict(self) -> dict[str, Any]:
        return {"type": self.type, "player": self.player, "pieces": [p.to_dict() for p in self.pieces],
                "auto": self.auto, "at": self.at}


@dataclass(frozen=True)
class GoalsRevealed(Event):
    """Every goal stack is made: they are placed by their owners' corners (public now)."""

    type: ClassVar[str] = "goals_revealed"
    at: float


@dataclass(frozen=True)
class ProgramSet(Event):
    """A player laid out a program (secret: the public event says only its owner)."""

    type: ClassVar[str] = "program_set"
    _decode: ClassVar[dict[str, Callable[[Any], Any]]] = {"program": _program}
    player: str
    program: tuple[Instruction, ...]
    at: float

    def to_dict(self) -> dict[str, Any]:
        return {"type": self.type, "player": self.player, "program": [i.to_dict() for i in self.program],
                "at": self.at}


@dataclass(frozen=True)
class Compiled(Event):
    type: ClassVar[str] = "compiled"
    player: str
    on: bool
    at: float


@dataclass(frozen=True)
class ProgramsRevealed(Event):
    """The screens are lifted: every program (by player), and why programming ended
    (``all_compiled``, ``speedbots`` or ``timer``)."""

    type: ClassVar[str] = "programs_revealed"
    _decode: ClassVar[dict[str, Callable[[Any], Any]]] = {
        "programs": lambda v: tuple((p, _program(prog)) for p, prog in v)}
    round: int
    programs: tuple[tuple[str, tuple[Instruction, ...]], ...]
    reason: str
    at: float

    def to_dict(self) -> dict[str, Any]:
        return {"type": self.type, "round": self.round,
                "programs": [[p, [i.to_dict() for i in prog]] for p, prog in self.programs],
                "reason": self.reason, "at": self.at}


@dataclass(frozen=True)
class InstructionRun(Event):
    """One instruction executed: whose, which, why it ran now (``alone``, ``size``,
    ``color`` or ``rambot``), and what it did (for the story; the state is recomputed)."""

    type: ClassVar[str] = "instruction_run"
    _decode: ClassVar[dict[str, Callable[[Any], Any]]] = {
        "instruction": Instruction.from_dict,
        "effects": lambda v: tuple(Effect(e["kind"], {k: x for k, x in e.items() if k != "kind"}) for e in v)}
    round: int
    player: str
    instruction: Instruction
    why: str
    effects: tuple[Effect, ...]
    at: float

    def to_dict(self) -> dict[str, Any]:
        return {"type": self.type, "round": self.round, "player": self.player,
                "instruction": self.instruction.to_dict(), "why": self.why,
                "effects": [e.to_dict() for e in self.effects], "at": self.at}


@dataclass(frozen=True)
class RoundEnded(Event):
    """Every instruction ran: the top of the precedence stack goes to the bottom."""

    type: ClassVar[str] = "round_ended"
    round: int
    at: float


EVENTS: tuple[type[Event], ...] = (*TABLE_EVENTS, GameStarted, GoalsSet, GoalsRevealed, ProgramSet, Compiled,
                                   ProgramsRevealed, InstructionRun, RoundEnded)


# -- state -------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class RamState(TableState):
    """A game of RAMbots at one point of its log.  ``colors`` maps players to their
    RAMbot colour (the engine names players by colour); ``players[i].won`` are the
    goals a player tagged."""

    phases: ClassVar[type[enum.StrEnum]] = RamPhase

    colors: tuple[tuple[str, str], ...] = ()
    table: Table | None = None
    goal_drafts: tuple[tuple[str, tuple[Piece, ...]], ...] = ()
    """Goal stacks made so far, by maker (secret until revealed)."""
    drafts: tuple[tuple[str, tuple[Instruction, ...]], ...] = ()
    """Programs behind the screens (secret until revealed)."""
    compiled: frozenset[str] = frozenset()
    round: int = 0
    programming_since: float = 0.0
    running: tuple[tuple[str, tuple[Instruction, ...]], ...] = ()
    """During execution: each player's instructions not yet run (the first is loaded)."""
    revealed: tuple[tuple[str, tuple[Instruction, ...]], ...] = ()
    """This round's programs as revealed."""
    ran: tuple[InstructionRun, ...] = ()
    """This round's executed instructions, in order."""
    next_step: float | None = None

    def clocks_shifted(self, dt: float) -> RamState:
        return replace(self, programming_since=self.programming_since + dt,
                       next_step=None if self.next_step is None else self.next_step + dt)

    def color_of(self, player: str) -> str:
        return dict(self.colors)[player]

    def left_of(self, player: str) -> str:
        """The player on ``player``'s left: the next one in seating order."""
        order = [p for p, _ in self.colors]
        return order[(order.index(player) + 1) % len(order)]

    def draft(self, player: str) -> tuple[Instruction, ...]:
        return dict(self.drafts).get(player, ())


# -- the game ------------------------------------------------------------------------------------------
DEFAULT_OPTIONS: dict[str, Any] = {
    "programming_seconds": 0, "speedbots": False, "disclosure": True, "layout": "default", "step_seconds": 1.5,
    "min_players": 2,
}


def _rng(config: RamConfig, what: str) -> random.Random:
    return random.Random(f"rambots:{config.seed}:{what}")


def _auto_goals(pool: tuple[Piece, ...], precedence: tuple[str, ...]) -> tuple[Piece, ...]:
    """A goal stack made for a player who left: the smallest piece of each colour, in precedence order."""
    return tuple(min(p for p in pool if p.color == c) for c in precedence)


class RamBots(TableGame):
    """RAMbots on the platform (see the module docstring)."""

    name: ClassVar[str] = "rambots"
    version: ClassVar[int] = 2  # 2: game_paused and game_resumed
    title: ClassVar[str] = "RAMbots"
    default_options: ClassVar[Mapping[str, Any]] = DEFAULT_OPTIONS
    bot_levels: ClassVar[tuple[str, ...]] = tuple(BOT_LEVELS)
    event_types: ClassVar[tuple[type[Event], ...]] = EVENTS[len(TABLE_EVENTS):]
    message_types: ClassVar[tuple[str, ...]] = ("set_goals", "set_program", "compile", "preview_program")

    # -- options ----------------------------------------------------------------------------------------
    def normalize_options(self, raw: Mapping[str, Any]) -> dict[str, Any]:
        """Room options of RAMbots (``docs/protocol.md``).

        >>> RAMBOTS.normalize_options({"speedbots": True})["speedbots"]
        True
        """
        opts = check_options(raw, DEFAULT_OPTIONS, bools=("speedbots", "disclosure"),
                             seconds={"programming_seconds": (0, 900), "step_seconds": (0.2, 10)},
                             ints={"min_players": (2, MAX_PLAYERS)})
        if opts["layout"] not in ("default", "random"):
            raise OptionsError(f"layout must be \"default\" or \"random\", got {opts['layout']!r}")
        return opts

    def config(self, options: Mapping[str, Any], seed: int) -> RamConfig:
        return RamConfig(programming_seconds=float(options["programming_seconds"]), speedbots=options["speedbots"],
                         disclosure=options["disclosure"], layout=options["layout"],
                         step_seconds=float(options["step_seconds"]), min_players=options["min_players"], seed=seed)

    def new(self, config: RamConfig) -> RamState:
        return RamState(config=config)

    def clock(self, state: RamState) -> float | None:
        if state.phase == "execution":
            return state.next_step
        if state.phase == "programming" and state.config.programming_seconds > 0:
            return state.programming_since + state.config.programming_seconds
        return None

    # -- evolve -------------------------------------------------------------------------------------------
    def evolve(self, state: RamState, event: Event) -> RamState:
        s = replace(state, version=state.version + 1, time=max(state.time, event.at))
        table = evolve_table(s, event)
        if table is not None:
            return table  # type: ignore[no-any-return]
        if isinstance(event, GameStarted):
            colors = tuple(zip(event.players, event.colors, strict=True))
            pools = tuple((c, tuple(sorted(Piece(size, k) for k in COLORS for size in (1, 2, 3))))
                          for c in event.colors)
            return replace(s, phase=RamPhase.GOALS, colors=colors,
                           table=Table(tuple(sorted(event.objects, key=lambda o: (o.kind, o.color))), pools, (),
                                       event.precedence))
        assert s.table is not None
        if isinstance(event, GoalsSet):
            drafts = dict(s.goal_drafts)
            drafts[event.player] = event.pieces
            return replace(s, goal_drafts=tuple(sorted(drafts.items())))
        if isinstance(event, GoalsRevealed):
            pools = dict(s.table.pools)
            goals = {}
            for maker, pieces in s.goal_drafts:
                color = s.color_of(maker)
                pool = list(pools[color])
                for p in pieces:
                    pool.remove(p)
                pools[color] = tuple(pool)
                goals[s.color_of(s.left_of(maker))] = pieces
            t = s.table._with(pools=pools, goals=goals)
            return replace(s, table=t, phase=RamPhase.PROGRAMMING, round=1, programming_since=event.at, goal_drafts=())
        if isinstance(event, ProgramSet):
            drafts = dict(s.drafts)
            drafts[event.player] = event.program
            return replace(s, drafts=tuple(sorted(drafts.items())))
        if isinstance(event, Compiled):
            return replace(s, compiled=s.compiled | {event.player} if event.on else s.compiled - {event.player})
        if isinstance(event, ProgramsRevealed):
            # The program's pieces leave the pools; each comes back once it has run.
            pools = dict(s.table.pools)
            for player, prog in event.programs:
                pool = list(pools[s.color_of(player)])
                for ins in prog:
                    pool.remove(ins.piece)
                pools[s.color_of(player)] = tuple(pool)
            return replace(s, phase=RamPhase.EXECUTION, table=s.table._with(pools=pools), running=event.programs,
                           revealed=event.programs, ran=(), drafts=(), compiled=frozenset(),
                           next_step=event.at + s.config.step_seconds)
        if isinstance(event, InstructionRun):
            color = s.color_of(event.player)
            step = execute(s.table, color, event.instruction)
            pools = dict(step.table.pools)
            pools[color] = tuple(pools.get(color, ())) + (event.instruction.piece,)
            running = tuple((p, prog[1:] if p == event.player else prog) for p, prog in s.running)
            players = s.players
            for e in step.effects:  # a tagged goal is a point, for the lobby and the scores
                if e.kind == "tag":
                    me = s.player(event.player)
                    assert me is not None
                    players = s.with_player(event.player, won=me.won + (Piece.from_dict(e.data["piece"]),))
            return replace(s, table=step.table._with(pools=pools), running=running, ran=s.ran + (event,),
                           players=players, next_step=event.at + s.config.step_seconds)
        if isinstance(event, RoundEnded):
            prec = s.table.precedence
            return replace(s, phase=RamPhase.PROGRAMMING, table=replace(s.table, precedence=prec[1:] + prec[:1]),
                           running=(), round=s.round + 1, programming_since=event.at, next_step=None)
        raise TypeError(f"not an event: {event!r}")

    # -- decide ----------------------------------------------------------------------------------------------
    def time_up(self, tx: Tx, due: float) -> None:
        s = tx.state
        if s.phase == "programming":
            self._reveal(tx, due, "timer")
        else:
            self._step(tx, due)

    def decide(self, tx: Tx, action: Any, now: float) -> None:
        s = tx.state
        if isinstance(action, Join) and s.phase == "lobby" and s.player(action.player) is None \
                and len(s.seated) >= MAX_PLAYERS:
            raise GameError(f"RAMbots is for 2 to {MAX_PLAYERS} players: this table is full", "full")
        if isinstance(action, Join) and s.phase not in ("lobby", "over") and s.player(action.player) is None:
            raise GameError("RAMbots has begun: a new player cannot join (watch instead)", "join")
        if decide_table(tx, action, now, min_players=s.config.min_players, start=self._setup, left=self._left):
            return
        if isinstance(action, SetGoals):
            self._set_goals(tx, action, now)
        elif isinstance(action, SetProgram):
            seated_player(s, action.player)
            if s.phase != "programming":
                raise GameError("programs are written in the programming phase", "phase")
            if action.player in s.compiled:
                raise GameError("you have compiled: uncompile to change your program", "compiled")
            if len(action.program) > MAX_PROGRAM:
                raise GameError(f"a program has at most {MAX_PROGRAM} instructions, got {len(action.program)}",
                                "program")
            assert s.table is not None
            missing = pieces_available(s.table.pool(s.color_of(action.player)), action.program)
            if missing is not None:
                raise GameError(f"your code pool has no {missing.name} piece left for this program", "program")
            tx.emit(ProgramSet(action.player, tuple(action.program), now))
        elif isinstance(action, Compile):
            seated_player(s, action.player)
            if s.phase != "programming":
                raise GameError("compiling is for the programming phase", "phase")
            if (action.player in s.compiled) == action.on:
                return  # already so: nothing to record
            tx.emit(Compiled(action.player, action.on, now))
            self._maybe_reveal(tx, now)
        else:
            raise GameError(f"unknown action {type(action).__name__}", "invalid")

    def _setup(self, tx: Tx, now: float) -> None:
        s = tx.state
        players = s.seated
        if len(players) > MAX_PLAYERS:
            raise GameError(f"RAMbots is for 2 to {MAX_PLAYERS} players; {len(players)} are seated", "phase")
        rng = _rng(s.config, "setup")
        corner_colors = list(COLORS)
        rng.shuffle(corner_colors)  # the colour of each corner, clockwise from the north-west
        colors = corner_colors[:len(players)]
        cells = list(CORNERS)
        beacon_cells = list(CENTRE)
        if s.config.layout == "random":
            edge = [(x, y) for x in range(SIZE) for y in range(SIZE) if x in (0, SIZE - 1) or y in (0, SIZE - 1)]
            cells = rng.sample(edge, 4)
            inner = [(x, y) for x in range(1, SIZE - 1) for y in range(1, SIZE - 1)]
            beacon_cells = rng.sample(inner, 4)
        beacon_colors = list(COLORS)
        rng.shuffle(beacon_colors)
        objects = [Obj("bot", c, cells[k]) for k, c in enumerate(colors)]
        objects += [Obj("beacon", c, beacon_cells[k], rng.choice("NESW")) for k, c in enumerate(beacon_colors)]
        first = rng.randrange(4)
        precedence = tuple(corner_colors[(first + k) % 4] for k in range(4))
        tx.emit(GameStarted(players, tuple(colors), tuple(objects), precedence, now))

    def _set_goals(self, tx: Tx, action: SetGoals, now: float) -> None:
        s = tx.state
        seated_player(s, action.player)
        if s.phase != "goals":
            raise GameError("goal stacks are made once, before the first programming phase", "phase")
        pieces = tuple(action.pieces)
        if sorted(p.color for p in pieces) != sorted(COLORS):
            raise GameError(f"a goal stack has one piece of each colour ({', '.join(COLORS)}), top first", "goals")
        assert s.table is not None
        missing = pieces_available(s.table.pool(s.color_of(action.player)),
                                   [Instruction(p, "up") for p in pieces])
        if missing is not None:
            raise GameError(f"your code pool has no {missing.name} piece", "goals")
        tx.emit(GoalsSet(action.player, pieces, False, now))
        self._maybe_reveal_goals(tx, now)

    def _maybe_reveal_goals(self, tx: Tx, now: float) -> None:
        s = tx.state
        made = {p for p, _ in s.goal_drafts}
        if all(p in made for p, _ in s.colors):
            tx.emit(GoalsRevealed(now))

    def _maybe_reveal(self, tx: Tx, now: float) -> None:
        s = tx.state
        playing = [p for p in s.seated if p in dict(s.colors)]
        waiting = [p for p in playing if p not in s.compiled]
        if not waiting:
            self._reveal(tx, now, "all_compiled")
        elif s.config.speedbots and len(waiting) == 1 and len(playing) > 1:
            self._reveal(tx, now, "speedbots")

    def _reveal(self, tx: Tx, now: float, reason: str) -> None:
        s = tx.state
        seated = set(s.seated)
        programs = tuple((p, s.draft(p) if p in seated else ()) for p, _ in s.colors)
        tx.emit(ProgramsRevealed(s.round, programs, reason, now))
        if not any(prog for _, prog in programs):
            tx.emit(RoundEnded(s.round, now))

    def _step(self, tx: Tx, now: float) -> None:
        s = tx.state
        assert s.table is not None
        loaded = sorted(((p, prog[0]) for p, prog in s.running if prog),
                        key=lambda pi: order_key(s.table, s.color_of(pi[0]), pi[1]))  # type: ignore[arg-type]
        if not loaded:
            tx.emit(RoundEnded(s.round, now))
            return
        player, ins = loaded[0]
        why = why_first(s.table, [(s.color_of(p), i) for p, i in loaded])
        step = execute(s.table, s.color_of(player), ins)
        tx.emit(InstructionRun(s.round, player, ins, why, step.effects, now))
        if step.won:
            tx.emit(GameEnded("all_goals_tagged", (player,), now))
        elif not any(prog for _, prog in tx.state.running):
            tx.emit(RoundEnded(s.round, now))

    def _left(self, tx: Tx, player: str, now: float) -> None:
        s = tx.state
        if s.phase == "goals" and player not in dict(s.goal_drafts) and player in dict(s.colors):
            assert s.table is not None
            tx.emit(GoalsSet(player, _auto_goals(s.table.pool(s.color_of(player)), s.table.precedence), True, now))
            self._maybe_reveal_goals(tx, now)
        elif s.phase == "programming":
            self._maybe_reveal(tx, now)

    # -- protocol ---------------------------------------------------------------------------------------------
    def parse_action(self, state: RamState, player: str, msg: Mapping[str, Any]) -> Any:
        """``set_goals`` (``pieces``: 4 of ``{"size", "color"}``, top first), ``set_program``
        (``program``: up to 5 of ``{"size", "color", "orientation"}``), ``compile`` (``on``)."""
        kind = msg["type"]
        if kind == "set_goals":
            raw = field(msg, "pieces", "four pieces, one of each colour, top first")
            return SetGoals(player, tuple(_piece(p, f"pieces[{k}]") for k, p in enumerate(_list(raw, "pieces", 4))))
        if kind == "set_program":
            raw = field(msg, "program", f"up to {MAX_PROGRAM} instructions, first to last")
            return SetProgram(player, tuple(_instruction(i, f"program[{k}]")
                                            for k, i in enumerate(_list(raw, "program", MAX_PROGRAM))))
        if kind == "preview_program":
            raw = field(msg, "program", f"up to {MAX_PROGRAM} instructions, first to last")
            return Query(player, kind, {"program": tuple(_instruction(i, f"program[{k}]")
                                                         for k, i in enumerate(_list(raw, "program", MAX_PROGRAM)))})
        if kind == "compile":
            on = msg.get("on", True)
            if not isinstance(on, bool):
                raise GameError("compile takes \"on\": true or false", "bad_message")
            return Compile(player, on)
        raise GameError(f"unknown message type {kind!r}", "unknown_type")

    def answer(self, state: RamState, query: Query) -> dict[str, Any]:
        """``preview_program``: what the asker's program would do on the table as it stands, run by the
        engine alone (the others' programs are secret until the screens go up): each instruction's
        effects and the objects after it.  Nothing is logged; nobody else hears of it."""
        seated_player(state, query.player or "")
        if state.phase != "programming" or state.table is None:
            raise GameError("a program is previewed in the programming phase", "phase")
        program: tuple[Instruction, ...] = query.fields["program"]
        color = state.color_of(query.player or "")
        table = state.table
        missing = pieces_available(table.pool(color), program)
        if missing is not None:
            raise GameError(f"your code pool has no {missing.name} piece left for this program", "program")
        steps = []
        for ins in program:
            step = execute(table, color, ins)
            table = step.table
            steps.append({"instruction": ins.to_dict(), "effects": [e.to_dict() for e in step.effects],
                          "objects": [o.to_dict() for o in table.objects], "won": step.won})
            if step.won:
                break
        return {"type": "program_preview", "program": [i.to_dict() for i in program], "steps": steps}

    # -- views --------------------------------------------------------------------------------------------------
    def view(self, state: RamState, viewer: str | None) -> dict[str, Any]:
        t = state.table
        cfg = state.config
        public_pools = cfg.disclosure
        players = []
        for p in state.players:
            color = dict(state.colors).get(p.id)
            entry: dict[str, Any] = {"id": p.id, "name": p.name, "seated": p.seated, "color": color,
                                     "score": 0, "compiled": p.id in state.compiled}
            if t is not None and color is not None:
                pool = t.pool(color)
                goals = t.goal_stack(color)
                entry["score"] = p.score
                entry["pool_size"] = len(pool)
                if public_pools:
                    entry["pool"] = [pc.to_dict() for pc in sorted(pool)]
                if state.phase not in ("lobby", "goals"):
                    entry["goals"] = [pc.to_dict() for pc in goals]
                else:
                    entry["goals_made"] = p.id in dict(state.goal_drafts)
            players.append(entry)
        view: dict[str, Any] = {
            "game": self.name, "version": state.version, "time": state.time, "phase": state.phase, "you": viewer,
            "host": state.host, "players": players, "winners": list(state.winners), "end_reason": state.end_reason,
            "config": cfg.to_dict(), "round": None, "round_number": state.round, "size": SIZE,
            "objects": [o.to_dict() for o in t.objects] if t else [],
            "precedence": list(t.precedence) if t else [],
            "programming_until": (state.programming_since + cfg.programming_seconds)
            if state.phase == "programming" and cfg.programming_seconds > 0 else None,
            "next_step": state.next_step,
            "programs": [[p, [i.to_dict() for i in prog]] for p, prog in state.revealed]
            if state.phase == "execution" or state.ran else [],
            "running": [[p, len(prog)] for p, prog in state.running],
            "loaded": self._loaded(state),
            "ran": [e.to_dict() for e in state.ran],
        }
        if state.phase == "programming":
            view["programs"], view["ran"] = [], []  # last round's story ends when the screens go up again
        return view

    @staticmethod
    def _loaded(state: RamState) -> list[Any] | None:
        """The instruction that runs next and why (``[player, instruction, why]``), during execution."""
        if state.phase != "execution" or state.table is None:
            return None
        t = state.table
        loaded = sorted(((p, prog[0]) for p, prog in state.running if prog),
                        key=lambda pi: order_key(t, state.color_of(pi[0]), pi[1]))
        if not loaded:
            return None
        return [loaded[0][0], loaded[0][1].to_dict(), why_first(t, [(state.color_of(p), i) for p, i in loaded])]

    def private(self, state: RamState, viewer: str | None) -> dict[str, Any] | None:
        if viewer is None or viewer not in dict(state.colors):
            return None
        out: dict[str, Any] = {"program": [i.to_dict() for i in state.draft(viewer)],
                               "compiled": viewer in state.compiled}
        mine = dict(state.goal_drafts).get(viewer)
        if state.phase == "goals":
            out["goals_for"] = state.left_of(viewer)
            out["goals_made"] = [p.to_dict() for p in mine] if mine else None
        if state.table is not None and not state.config.disclosure:
            out["pool"] = [p.to_dict() for p in sorted(state.table.pool(state.color_of(viewer)))]
        return out

    def event_state(self, state: RamState, event_type: str) -> dict[str, Any]:
        v = self.view(state, None)
        v.pop("you", None)
        return v

    def public_event(self, event: Event) -> dict[str, Any]:
        d = event.to_dict()
        if d["type"] == "goals_set":
            del d["pieces"]  # secret until every stack is made
        elif d["type"] == "program_set":
            d["program"] = None  # behind the screen
        return d

    def secrets(self, state: RamState) -> list[Secret]:
        out = [Secret(None, "seed", state.config.seed)]
        for maker, pieces in state.goal_drafts:
            out.append(Secret(maker, f"goal stack made by {maker}", [p.to_dict() for p in pieces]))
        for player, prog in state.drafts:
            if prog:
                out.append(Secret(player, f"program of {player}", [i.to_dict() for i in prog]))
        if not state.config.disclosure and state.table is not None:
            for player, color in state.colors:
                pool = state.table.pool(color)
                if len(pool) >= 3:  # a short list may appear elsewhere by chance
                    out.append(Secret(player, f"pool of {player}", [p.to_dict() for p in sorted(pool)]))
        return out

    def make_bot(self, client: BotClient, level: str, compute: Compute, *, speed: float = 1.0,
                 rng: Any = None) -> Any:
        return RamBot(client, level, compute=compute, speed=speed, rng=rng)


def _list(v: Any, name: str, most: int) -> list[Any]:
    if not isinstance(v, list) or len(v) > most:
        raise GameError(f"{name} must be a list of at most {most}, got {shown(v)}", "bad_message")
    return v


def _piece(v: Any, name: str) -> Piece:
    """A piece ``{"size": 1-3, "color"}``: the size a JSON integer (``1.0`` or ``true`` are
    refused here, so never reach the log)."""
    if not isinstance(v, dict):
        raise GameError(f"{name} must be a piece {{\"size\": 1|2|3, \"color\": {'|'.join(COLORS)}}}, "
                        f"got {shown(v)}", "bad_message")
    size = whole(_key(v, name, "size", "1, 2 or 3"), f"{name}.size", 1, 3)
    color = text_choice(_key(v, name, "color", ", ".join(COLORS)), f"{name}.color", COLORS)
    return Piece(size, color)


def _key(v: Mapping[str, Any], name: str, key: str, what: str) -> Any:
    if key not in v:
        raise GameError(f"{name} needs \"{key}\": {what}", "bad_message")
    return v[key]


def _instruction(v: Any, name: str) -> Instruction:
    piece = _piece(v, name)
    orientation = text_choice(_key(v, name, "orientation", ", ".join(ORIENTATIONS)), f"{name}.orientation",
                              ORIENTATIONS)
    return Instruction(piece, orientation)


RAMBOTS = RamBots()
"""The game (one stateless instance serves every room)."""
