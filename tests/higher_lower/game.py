"""Higher or Lower: each round the game thinks of a number from 1 to ``high`` (drawn from
its seed, never shown); anyone guesses at any time and is told "higher" or "lower" for
everyone to see; the right guess wins the round's point; the first to ``target_score``
points wins.  A whole game in one module, on the shared table of
:mod:`ricochet.games.table`, registered when imported.
"""

from __future__ import annotations

import asyncio
import enum
import random
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any, ClassVar

from ricochet.games import ConfigError, GameError, Secret, register
from ricochet.games.events import Event
from ricochet.games.interface import BotClient, Compute
from ricochet.games.messages import field, whole
from ricochet.games.options import check_options
from ricochet.games.seat_bot import SeatBot
from ricochet.games.table import (
    GameEnded,
    TableGame,
    TableState,
    Tx,
    decide_table,
    evolve_table,
    seated_player,
    winners_of,
)

NAME = "higher-lower"
HIGH = 9


class Phase(enum.StrEnum):
    LOBBY = "lobby"
    GUESSING = "guessing"
    OVER = "over"


@dataclass(frozen=True)
class Config:
    target_score: int = 2
    min_players: int = 1
    seed: int = 0

    def __post_init__(self) -> None:
        if isinstance(self.target_score, bool) or not isinstance(self.target_score, int) or self.target_score < 1:
            raise ConfigError(f"target_score must be a whole number of at least 1, got {self.target_score!r}")


@dataclass(frozen=True)
class Guess:
    player: str
    number: int


@dataclass(frozen=True)
class GameStarted(Event):
    type: ClassVar[str] = "game_started"
    at: float


@dataclass(frozen=True)
class NumberChosen(Event):
    """A round begins: the game thought of a number (which one is the seed's secret)."""

    type: ClassVar[str] = "number_chosen"
    round: int
    at: float


@dataclass(frozen=True)
class Guessed(Event):
    type: ClassVar[str] = "guessed"
    round: int
    player: str
    number: int
    verdict: str
    """``higher``, ``lower`` or ``right`` (the point goes to ``player``)."""
    at: float


def secret_of(seed: int, round_number: int) -> int:
    return random.Random(f"higher-lower:{seed}:{round_number}").randint(1, HIGH)


@dataclass(frozen=True)
class State(TableState):
    phases: ClassVar[type[enum.StrEnum]] = Phase
    round: int = 0
    secret: int | None = None
    low: int = 1
    high: int = HIGH
    last: Guessed | None = None


class HigherLower(TableGame):
    name: ClassVar[str] = NAME
    version: ClassVar[int] = 1
    title: ClassVar[str] = "Higher or Lower"
    default_options: ClassVar[Mapping[str, Any]] = {"target_score": 2, "min_players": 1}
    bot_levels: ClassVar[tuple[str, ...]] = ("steady",)
    event_types: ClassVar[tuple[type[Event], ...]] = (GameStarted, NumberChosen, Guessed)
    message_types: ClassVar[tuple[str, ...]] = ("guess",)

    def normalize_options(self, raw: Mapping[str, Any]) -> dict[str, Any]:
        return check_options(raw, self.default_options, bools=(), seconds={},
                             ints={"target_score": (1, 9), "min_players": (1, 8)})

    def config(self, options: Mapping[str, Any], seed: int) -> Config:
        return Config(options["target_score"], options["min_players"], seed)

    def new(self, config: Config) -> State:
        return State(config=config)

    def clock(self, state: State) -> float | None:
        return None

    def time_up(self, tx: Tx, due: float) -> None:  # pragma: no cover - no clock runs
        raise AssertionError("no clock")

    def evolve(self, state: State, event: Event) -> State:
        s = replace(state, version=state.version + 1, time=max(state.time, event.at))
        table = evolve_table(s, event)
        if table is not None:
            return table  # type: ignore[no-any-return]
        if isinstance(event, GameStarted):
            return replace(s, phase=Phase.GUESSING)
        if isinstance(event, NumberChosen):
            return replace(s, round=event.round, secret=secret_of(s.config.seed, event.round), low=1, high=HIGH)
        assert isinstance(event, Guessed)
        if event.verdict == "higher":
            s = replace(s, low=max(s.low, event.number + 1))
        elif event.verdict == "lower":
            s = replace(s, high=min(s.high, event.number - 1))
        else:
            p = s.player(event.player)
            assert p is not None
            s = replace(s, players=s.with_player(event.player, won=p.won + (event.round,)), secret=None)
        return replace(s, last=event)

    def decide(self, tx: Tx, action: Any, now: float) -> None:
        s = tx.state
        if decide_table(tx, action, now, min_players=s.config.min_players, start=self._start, left=lambda *_: None):
            return
        if not isinstance(action, Guess):
            raise GameError(f"unknown action {type(action).__name__}", "invalid")
        seated_player(s, action.player)
        if s.phase != "guessing" or s.secret is None:
            raise GameError("there is nothing to guess now", "phase")
        if not s.low <= action.number <= s.high:
            raise GameError(f"the number is from {s.low} to {s.high}: guess within", "guess")
        verdict = "right" if action.number == s.secret else "higher" if action.number < s.secret else "lower"
        tx.emit(Guessed(s.round, action.player, action.number, verdict, now))
        if verdict == "right":
            after = tx.state
            if after.scores[action.player] >= after.config.target_score:
                tx.emit(GameEnded("target_score", winners_of(after), now))
            else:
                tx.emit(NumberChosen(after.round + 1, now))

    def _start(self, tx: Tx, now: float) -> None:
        tx.emit(GameStarted(now))
        tx.emit(NumberChosen(1, now))

    def parse_action(self, state: Any, player: str, msg: Mapping[str, Any]) -> Any:
        if msg["type"] == "guess":
            return Guess(player, whole(field(msg, "number", f"a whole number from 1 to {HIGH}"), "number", 1, HIGH))
        raise GameError(f"unknown message type {msg['type']!r}", "unknown_type")

    def view(self, state: State, viewer: str | None) -> dict[str, Any]:
        return {"game": NAME, "version": state.version, "time": state.time, "phase": state.phase, "you": viewer,
                "host": state.host, "target_score": state.config.target_score, "round": state.round,
                "low": state.low, "high": state.high, "last": state.last.to_dict() if state.last else None,
                "players": [{"id": p.id, "name": p.name, "seated": p.seated, "score": p.score} for p in state.players],
                "winners": list(state.winners), "end_reason": state.end_reason}

    def event_state(self, state: State, event_type: str) -> dict[str, Any]:
        view = self.view(state, None)
        del view["you"]
        return view

    def secrets(self, state: State) -> list[Secret]:
        out = [Secret(None, "seed", state.config.seed)]
        if state.secret is not None:
            out.append(Secret(None, f"number of round {state.round}", {"round": state.round, "is": state.secret}))
        return out

    def make_bot(self, client: BotClient, level: str, compute: Compute, *, speed: float = 1.0,
                 rng: Any = None) -> Any:
        return HalvingBot(client, speed)


class HalvingBot(SeatBot):
    """Guesses the middle of what is left (after a short pause), until the round is won."""

    def __init__(self, client: BotClient, speed: float) -> None:
        super().__init__(client, speed)
        self.task: asyncio.Task[Any] | None = None

    def look(self, event: dict[str, Any] | None) -> None:
        state = self.client.state
        if state is None or state.get("phase") != "guessing" or (self.task and not self.task.done()):
            return
        self.task = asyncio.ensure_future(self.guess((state["low"] + state["high"]) // 2))

    async def guess(self, number: int) -> None:
        await self.sleep(0.8)
        await self.client.send({"type": "guess", "number": number})

    def tasks(self) -> list[asyncio.Task[Any] | None]:
        return [self.task]


GAME = register(HigherLower())
