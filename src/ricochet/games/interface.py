"""The contract between a game and the platform: one site, several games.

The server, the event log, replay, the bots' transport and the web shell know
only this module.  A game is one package under :mod:`ricochet.games` that
fills in :class:`Game` with pure code (no I/O, no clock: time is handed in):

* options → validated config: :meth:`Game.normalize_options`, :meth:`Game.config`;
* the state machine: :meth:`Game.new`, :meth:`Game.apply`, :meth:`Game.tick`,
  :meth:`Game.evolve`, :meth:`Game.deadline` — ``apply`` and ``tick`` return
  the new state *and* the events, and ``fold(new(config), events)`` gives the
  same state (events are the truth);
* what each viewer may see: :meth:`Game.view` (the public state, plus the
  viewer's own secrets), :meth:`Game.event_state` and :meth:`Game.public_event`
  (what everyone sees after an event), :meth:`Game.private` (one player's
  secrets) and :meth:`Game.secrets` (what must not reach anyone else — checked
  by one generic test for every game);
* protocol messages → actions: :meth:`Game.parse_action`;
* computations the game needs from the shell (the solver), run off the event
  loop: :meth:`Game.jobs`;
* bots: :meth:`Game.make_bot`, strategies that play through the same protocol
  as people;
* its parts of the other shells, imported only when asked: :meth:`Game.trainer`
  (solo puzzles) and :meth:`Game.cli` (the command line).  Its web module lives in
  the folder :attr:`Game.web_dir`.

The actions every game shares (taking and leaving a seat, starting, ending)
and the seated players are in :mod:`ricochet.games.table`.
"""

from __future__ import annotations

import abc
import enum
import sys
from collections.abc import Awaitable, Callable, Hashable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar, Protocol

from ..errors import RicochetError

__all__ = [
    "BotClient",
    "Compute",
    "ConfigError",
    "Game",
    "GameError",
    "Job",
    "OptionsError",
    "Query",
    "Secret",
    "Status",
]


class Status(enum.StrEnum):
    """Where a game is, for the lobby: ``lobby``, ``playing`` or ``over`` (a
    :class:`str` enum: compares equal to those strings)."""

    LOBBY = "lobby"
    PLAYING = "playing"
    OVER = "over"

    def __repr__(self) -> str:
        return f"Status.{self.name}"


class GameError(RicochetError):
    """An action that is not allowed now.  The message is for the person who
    tried it (what is wrong and what is allowed); ``code`` is a stable keyword
    for programs (``phase``, ``not_seated``, ``not_host``, ``bid``, ``raise``,
    ``closed``, ``clock``, ``turn``, ``illegal_move``, ``join``, ``round`` …)."""


class ConfigError(RicochetError):
    """A game configuration that cannot be played; the message names the field."""

    default_code = "config"


class OptionsError(RicochetError):
    """Room options that cannot be used; the message names the field."""

    default_code = "options"


@dataclass(frozen=True)
class Job:
    """A pure computation a game needs from the shell (e.g. the solver's optimal
    length of a round), run in a worker off the event loop.

    ``fn(*args)`` must be a picklable top-level function of picklable
    arguments; ``key`` identifies the result (equal keys share one run, also
    between rooms and bots).  When the result is known the shell applies
    ``to_action(result)`` — if the game still lists the job then.  A job
    without ``to_action`` only warms the cache (e.g. the solution of the round
    in play, wanted once the round is over)."""

    key: Hashable
    fn: Callable[..., Any]
    args: tuple[Any, ...]
    to_action: Callable[[Any], Any] | None = None


@dataclass(frozen=True)
class Secret:
    """Something in a state that only ``owner`` may see (``None``: nobody yet,
    e.g. a round's solution while it is played).  ``value`` is JSON-ready and
    distinctive: its JSON text must never appear in a message to anyone else."""

    owner: str | None
    what: str
    value: Any


@dataclass(frozen=True)
class Query:
    """A read-only request of a player (e.g. the solution of a finished round):
    the shell answers it with :meth:`Game.answer`, nothing is logged."""

    player: str | None
    kind: str
    fields: Mapping[str, Any]


Compute = Callable[[Job], Awaitable[Any]]
"""How a bot runs a :class:`Job` (the server's solver worker, memoised by key)."""


class BotClient(Protocol):
    """What a bot sees of its connection (``ricochet.server.client.RicochetClient``)."""

    state: dict[str, Any] | None
    room: dict[str, Any] | None

    async def hello(self, name: str | None = None, *, seat_token: str | None = None,
                    since: int | None = None, spectate: bool = False) -> dict[str, Any]: ...

    async def send(self, msg: dict[str, Any]) -> None: ...

    def server_now(self) -> float: ...

    def __aiter__(self) -> Any: ...


class Game(abc.ABC):
    """One game of the site.  Subclasses are stateless: every method is a pure
    function of its arguments, so one instance serves every room."""

    name: ClassVar[str]
    """Stable identifier: stored with each room and sent in every state (``ricochet-robots``)."""
    version: ClassVar[int]
    """Version of the event format; a room stores it and refuses to load a newer one."""
    title: ClassVar[str]
    """The game's name for people (the web UI translates it)."""
    default_options: ClassVar[Mapping[str, Any]]
    """The game's room options and their defaults (the server adds name, private, bots)."""
    bot_levels: ClassVar[tuple[str, ...]]
    message_types: ClassVar[tuple[str, ...]]
    """The protocol messages of this game (``bid``, ``move`` …), parsed by :meth:`parse_action`."""
    min_protocol: ClassVar[int] = 2
    """The oldest protocol version whose clients can play this game."""

    # -- configuration ---------------------------------------------------------------
    @abc.abstractmethod
    def normalize_options(self, raw: Mapping[str, Any]) -> dict[str, Any]:
        """This game's options with defaults filled in, each field checked
        (:class:`OptionsError` names the field).  Unknown keys are refused."""

    @abc.abstractmethod
    def config(self, options: Mapping[str, Any], seed: int) -> Any:
        """The configuration of one game with these (normalised) options;
        ``seed`` fixes every random draw and is never shown to players."""

    # -- the state machine ---------------------------------------------------------------
    @abc.abstractmethod
    def new(self, config: Any) -> Any:
        """The empty game: lobby, nobody seated."""

    @abc.abstractmethod
    def apply(self, state: Any, action: Any, now: float) -> tuple[Any, list[Any]]:
        """Decide an action at time ``now`` (clocks run first); :class:`GameError` if refused."""

    @abc.abstractmethod
    def tick(self, state: Any, now: float) -> tuple[Any, list[Any]]:
        """Let time pass: clocks that are due run out."""

    @abc.abstractmethod
    def evolve(self, state: Any, event: Any) -> Any:
        """Fold one event (a fact: no checks)."""

    @abc.abstractmethod
    def deadline(self, state: Any) -> float | None:
        """When :meth:`tick` has something to do next (``None``: only an action can change things)."""

    def pause(self, state: Any, now: float) -> tuple[Any, list[Any]]:
        """Nobody is left to play: stop the clocks (the server lets the room go).
        Default: nothing to stop."""
        return state, []

    def resume(self, state: Any, now: float) -> tuple[Any, list[Any]]:
        """Someone is back: the clocks run again from where they stopped.  Default: nothing."""
        return state, []

    @abc.abstractmethod
    def event_from_dict(self, data: Mapping[str, Any]) -> Any:
        """An event back from its ``to_dict()`` form (a stored log)."""

    def fold(self, config: Any, events: Any) -> Any:
        """Rebuild a game from its event log."""
        state = self.new(config)
        for e in events:
            state = self.evolve(state, e)
        return state

    # -- the table (shared by every game: see ricochet.games.table) ------------------------------
    @abc.abstractmethod
    def phase(self, state: Any) -> str:
        """The game's phase, one of its own (a :class:`str` enum): ``lobby`` before
        the start, ``over`` at the end, the game's names in between."""

    def status(self, state: Any) -> Status:
        """``lobby``, ``playing`` or ``over``."""
        phase = self.phase(state)
        return Status(phase) if phase in ("lobby", "over") else Status.PLAYING

    @abc.abstractmethod
    def players(self, state: Any) -> tuple[Any, ...]:
        """Every player who ever sat down (``PlayerState``: id, name, seated, score)."""

    @abc.abstractmethod
    def host(self, state: Any) -> str | None: ...

    # -- views ---------------------------------------------------------------------------------
    @abc.abstractmethod
    def view(self, state: Any, viewer: str | None) -> dict[str, Any]:
        """The whole state as ``viewer`` may see it (``None``: a spectator)."""

    @abc.abstractmethod
    def event_state(self, state: Any, event_type: str) -> dict[str, Any]:
        """The state after an event of that type, the same for every viewer (the
        rarely changing heavy keys only when the event changed them).  A list the event
        only grew may be left out and its new items put under ``extend``
        (:data:`ricochet.server.protocol.EXTEND`: the clients append them)."""

    def public_event(self, event: Any) -> dict[str, Any]:
        """The event as everyone may see it."""
        return event.to_dict()  # type: ignore[no-any-return]

    def private(self, state: Any, viewer: str | None) -> dict[str, Any] | None:
        """The viewer's own secrets, sent to that viewer only (``None``: nothing)."""
        return None

    def picture(self, state: Any) -> str | None:
        """An SVG picture of the game now (``None``: nothing to draw yet)."""
        return None

    def secrets(self, state: Any) -> list[Secret]:
        """Everything in the state that some viewers must not see."""
        return []

    # -- protocol -------------------------------------------------------------------------------
    @abc.abstractmethod
    def parse_action(self, state: Any, player: str, msg: Mapping[str, Any]) -> Any:
        """A checked protocol message (its ``type`` in :attr:`message_types`) as
        an action of ``player`` or a :class:`Query`; :class:`GameError` (code
        ``bad_message`` for a malformed field) otherwise."""

    def answer(self, state: Any, query: Query) -> dict[str, Any]:
        """The reply to a :class:`Query` (a server message)."""
        raise GameError(f"nothing answers {query.kind!r} in this game", "unknown_type")

    def jobs(self, state: Any) -> list[Job]:
        """The computations this state wants from the shell (see :class:`Job`)."""
        return []

    # -- the shared table actions -----------------------------------------------------------------
    def join(self, player: str, name: str) -> Any:
        from .table import Join
        return Join(player, name)

    def leave(self, player: str) -> Any:
        from .table import Leave
        return Leave(player)

    def start(self, player: str) -> Any:
        from .table import Start
        return Start(player)

    def end(self, player: str) -> Any:
        from .table import EndGame
        return EndGame(player)

    # -- bots -----------------------------------------------------------------------------------
    @abc.abstractmethod
    def make_bot(self, client: BotClient, level: str, compute: Compute, *, speed: float = 1.0,
                 rng: Any = None) -> Any:
        """A bot of that level on ``client``: an object with ``async run(seat_token)``."""

    def bot_name(self, level: str) -> str:
        """How a bot of that level is labelled after its name."""
        return level

    # -- the game's parts of the other shells (imported when asked) --------------------------------
    def trainer(self) -> Any:
        """The game's part of the solo trainer (a :class:`ricochet.trainer.spec.TrainerSpec`),
        or ``None``: the game has no single-player puzzles."""
        return None

    def cli(self) -> Any:
        """The game's part of the command line (a :class:`ricochet.cli.hooks.GameCli`), or
        ``None``: no command takes it."""
        return None

    @property
    def web_dir(self) -> Path | None:
        """The folder of the game's module of the web shell (``game.js``, its strings and
        styles: the contract is ``ricochet/web/games/index.js``), served at
        ``/static/games/<name>/``: by default the ``web`` folder beside the module that
        defines the game; ``None`` without one (the game cannot be played in the browser)."""
        source = getattr(sys.modules.get(type(self).__module__), "__file__", None)
        folder = Path(source).parent / "web" if source else None
        return folder if folder is not None and (folder / "game.js").is_file() else None
