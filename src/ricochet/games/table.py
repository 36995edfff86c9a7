"""The table every game shares: seated players, the host, starting and ending.

* actions :class:`Join`, :class:`Leave`, :class:`Start`, :class:`EndGame`;
* events :class:`PlayerJoined`, :class:`PlayerLeft`, :class:`GameEnded`, and
  :class:`GamePaused` / :class:`GameResumed` (the clocks stop while nobody is at
  the table: the server lets the room go and pauses it, and resumes it when
  someone comes back);
* :class:`TableState`, the fields every game's state has (games subclass it);
* :class:`Tx`, a transaction that folds each event into the state as it is
  emitted, and :func:`decide_table`, the checks and events of the shared actions.

Readings of our own: the first player to sit down is the host; when the host
leaves, the next seated player is.  A name is one line of printable text,
unique among the seated players as people read it (:func:`name_key`: case,
Unicode forms, accents and look-alike letters do not make two names
different).  Someone who leaves before the start is forgotten (nothing of
theirs to keep), so coming and going in the lobby does not pile up players.
Winners are the players with the most points (ties share); nobody wins a game in which
nobody scored.
"""

from __future__ import annotations

import abc
import enum
import math
import unicodedata
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from typing import Any, ClassVar

from .. import names
from .events import Event, event_from_dict
from .interface import Game, GameError

__all__ = [
    "MAX_ID",
    "MAX_NAME",
    "EndGame",
    "GameEnded",
    "GamePaused",
    "GameResumed",
    "Join",
    "Leave",
    "PlayerJoined",
    "PlayerLeft",
    "PlayerState",
    "Start",
    "TableGame",
    "TablePhase",
    "TableState",
    "Tx",
    "check_name",
    "check_text",
    "decide_table",
    "evolve_table",
    "name_key",
    "now_of",
    "seated_player",
    "winners_of",
]

MAX_NAME = 32
MAX_ID = 64


# -- actions -------------------------------------------------------------------------------
@dataclass(frozen=True)
class Join:
    """A player takes a seat (before or during the game; again after leaving)."""

    player: str
    name: str


@dataclass(frozen=True)
class Leave:
    """A player leaves; what they won stays theirs."""

    player: str


@dataclass(frozen=True)
class Start:
    """The host starts the game."""

    player: str


@dataclass(frozen=True)
class EndGame:
    """The host ends the game now ("players are free to end in any other way they agree to")."""

    player: str


# -- events --------------------------------------------------------------------------------
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
class GameEnded(Event):
    """``reason``: why (``target_score``, ``host_ended`` …, the game says);
    ``winners`` share the win (most points; none when nobody scored)."""

    type: ClassVar[str] = "game_ended"
    _decode: ClassVar[dict[str, Callable[[Any], Any]]] = {"winners": tuple}
    reason: str
    winners: tuple[str, ...]
    at: float


@dataclass(frozen=True)
class GamePaused(Event):
    """Nobody is left at the table: every clock stops where it is (no deadline
    passes while the game is paused)."""

    type: ClassVar[str] = "game_paused"
    at: float


@dataclass(frozen=True)
class GameResumed(Event):
    """Someone is back: the clocks run again, each ``paused_for`` seconds later
    than it would have run out (:meth:`TableState.clocks_shifted`)."""

    type: ClassVar[str] = "game_resumed"
    paused_for: float
    at: float


TABLE_EVENTS: tuple[type[Event], ...] = (PlayerJoined, PlayerLeft, GameEnded, GamePaused, GameResumed)


# -- state -----------------------------------------------------------------------------------
@dataclass(frozen=True)
class PlayerState:
    """A player: id, display name, whether seated now, and ``won``: what they won, in
    order, as the game records it (one value per point); the score is how many."""

    id: str
    name: str
    seated: bool = True
    won: tuple[Any, ...] = ()

    @property
    def score(self) -> int:
        return len(self.won)


class TablePhase(enum.StrEnum):
    """The phases every game has: ``lobby`` before the start, ``over`` at the end.  A game
    names its own phases in between with an enum of its own that has these two as well
    (:attr:`TableState.phases`; a :class:`str` enum: ``state.phase == "lobby"`` works and it
    is written ``"lobby"`` in JSON)."""

    LOBBY = "lobby"
    OVER = "over"

    def __repr__(self) -> str:
        return f"TablePhase.{self.name}"


@dataclass(frozen=True)
class TableState:
    """The fields every game's state has.  ``phase`` is one of the game's
    :attr:`phases`: ``lobby`` before the start and ``over`` at the end; the game
    names those in between."""

    phases: ClassVar[type[enum.StrEnum]] = TablePhase
    """The game's phases (an enum with ``lobby`` and ``over``); ``phase`` is always one of them."""
    config: Any
    version: int = 0
    """Number of events folded in."""
    time: float = 0.0
    """Time of the last event."""
    phase: str = TablePhase.LOBBY
    players: tuple[PlayerState, ...] = ()
    host: str | None = None
    winners: tuple[str, ...] = ()
    end_reason: str | None = None
    paused_at: float | None = None
    """Since when the clocks stand still (:class:`GamePaused`), or ``None``."""

    def __post_init__(self) -> None:
        if type(self.phase) is not self.phases:
            object.__setattr__(self, "phase", self.phases(self.phase))

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

    def name_of(self, player_id: str | None) -> str:
        p = self.player(player_id) if player_id is not None else None
        return p.name if p else str(player_id)

    def clocks_shifted(self, dt: float) -> Any:
        """This state with every clock ``dt`` seconds later (after a pause of
        ``dt`` seconds).  Games with clocks override it and shift each time a
        deadline is counted from."""
        return self

    def with_player(self, player_id: str, **changes: Any) -> tuple[PlayerState, ...]:
        """The players with one of them changed."""
        return tuple(replace(p, **changes) if p.id == player_id else p for p in self.players)


def evolve_table(s: Any, event: Event) -> Any | None:
    """Fold a shared table event into ``s`` (already stamped with version and
    time); ``None`` when the event is not one of them."""
    if isinstance(event, PlayerJoined):
        if s.player(event.player) is None:
            players = s.players + (PlayerState(event.player, event.name),)
        else:
            players = s.with_player(event.player, name=event.name, seated=True)
        return replace(s, players=players, host=s.host if s.host is not None else event.player)
    if isinstance(event, PlayerLeft):
        if s.phase == "lobby":  # before the start there is nothing of theirs to keep
            s = replace(s, players=tuple(p for p in s.players if p.id != event.player))
        else:
            s = replace(s, players=s.with_player(event.player, seated=False))
        if s.host == event.player:
            s = replace(s, host=next(iter(s.seated), None))
        return s
    if isinstance(event, GameEnded):
        return replace(s, phase="over", winners=event.winners, end_reason=event.reason, paused_at=None)
    if isinstance(event, GamePaused):
        return replace(s, paused_at=event.at)
    if isinstance(event, GameResumed):
        return replace(s.clocks_shifted(event.paused_for), paused_at=None)
    return None


# -- deciding ----------------------------------------------------------------------------------
class Tx:
    """Collects events, folding each into the state as it is emitted."""

    def __init__(self, evolve: Callable[[Any, Event], Any], state: Any) -> None:
        self._evolve = evolve
        self.state = state
        self.events: list[Event] = []

    def emit(self, event: Event) -> None:
        self.state = self._evolve(self.state, event)
        self.events.append(event)


def now_of(state: TableState, now: float) -> float:
    """``now`` checked; times never run backwards (a late earlier time counts as the last event's)."""
    if isinstance(now, bool) or not isinstance(now, int | float) or not math.isfinite(now):
        raise TypeError(f"now must be a time in seconds, got {now!r}")
    return max(float(now), state.time)


_UNPRINTABLE = frozenset(("Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"))
"""Unicode categories a name may not hold: controls, invisible formatting (bidi
overrides, zero-width joiners), surrogates, private use, unassigned, line and
paragraph separators."""


def check_name(value: str, what: str = "a name") -> str:
    """A name as shown: NFC, one line of printable text, runs of spaces made one, trimmed
    (:class:`GameError` ``join`` saying which character is refused).

    >>> check_name("  Zoe\u0301   Lee ")
    'Zoé Lee'
    """
    text = unicodedata.normalize("NFC", value)
    bad = next((ch for ch in text if unicodedata.category(ch) in _UNPRINTABLE), None)
    if bad is not None:
        raise GameError(f"{what} may not contain control characters or line breaks (U+{ord(bad):04X})", "join")
    text = " ".join(text.split())
    if not text:
        raise GameError(f"{what} must not be empty", "join")
    return text


def name_key(name: str) -> str:
    """The form under which two names are the same name at a table: one rule for the rooms
    and the trainer's claimed names, Unicode's confusables (:func:`ricochet.names.name_key`:
    compatibility forms, look-alike letters of other scripts, case, accents and marks).

    >>> name_key("Ann") == name_key("АNN") == name_key("ａｎｎ") == name_key("Ánn")
    True
    >>> name_key("Bill") == name_key("BiII") == name_key("Bi11")
    True
    """
    return names.name_key(name)


def check_text(what: str, value: object, limit: int) -> str:
    if not isinstance(value, str) or not value.strip():
        raise GameError(f"{what} must be a non-empty text, got {value!r}", "join")
    text = check_name(value, what)
    if len(text) > limit:
        raise GameError(f"{what} may have at most {limit} characters, got {len(text)}", "join")
    return text


def seated_player(state: TableState, player: str) -> PlayerState:
    """The seated player, or :class:`GameError` ``not_seated``."""
    p = state.player(player)
    if p is None or not p.seated:
        raise GameError("you are not in this game: join it first", "not_seated")
    return p


def winners_of(state: TableState) -> tuple[str, ...]:
    """The players with the most points (ties share); nobody when nobody scored: a game
    ended at 0–0–0 (the host's "End the game", or every chip returned unwon) has no
    winner rather than every player a winner."""
    best = max((p.score for p in state.players), default=0)
    return tuple(p.id for p in state.players if p.score == best) if best > 0 else ()


def decide_table(tx: Tx, action: object, now: float, *, min_players: int,
                 start: Callable[[Tx, float], None], left: Callable[[Tx, str, float], None]) -> bool:
    """Decide a shared table action (``False``: not one of them).  ``start``
    sets the game up once the host's Start is accepted; ``left`` reacts to a
    player leaving mid-game (e.g. a demonstration they were giving fails)."""
    s = tx.state
    if isinstance(action, Join):
        pid = check_text("a player id", action.player, MAX_ID)
        name = check_text("a name", action.name, MAX_NAME)
        if s.phase == "over":
            raise GameError("the game is over: it cannot be joined", "phase")
        me = s.player(pid)
        if me is not None and me.seated:
            raise GameError(f"you are already in the game as {me.name}", "join")
        key = name_key(name)
        for p in s.players:
            if p.seated and p.id != pid and name_key(p.name) == key:
                if p.name.casefold() == name.casefold():
                    raise GameError(f"the name {p.name} is taken in this game: choose another", "join")
                raise GameError(f"the name {name} looks too much like {p.name}, who plays in this game: "
                                "choose another", "join")
        tx.emit(PlayerJoined(pid, name, now))
    elif isinstance(action, Leave):
        seated_player(s, action.player)
        tx.emit(PlayerLeft(action.player, now))
        left(tx, action.player, now)
    elif isinstance(action, Start):
        seated_player(s, action.player)
        if s.phase != "lobby":
            raise GameError("the game has already started", "phase")
        if s.host != action.player:
            raise GameError(f"only the host ({s.name_of(s.host)}) can start the game", "not_host")
        seated = s.seated
        if len(seated) < min_players:
            raise GameError(f"at least {min_players} players are needed to start; "
                            f"{len(seated)} {'is' if len(seated) == 1 else 'are'} seated", "phase")
        start(tx, now)
    elif isinstance(action, EndGame):
        seated_player(s, action.player)
        if s.host != action.player:
            raise GameError(f"only the host ({s.name_of(s.host)}) can end the game", "not_host")
        if s.phase in ("lobby", "over"):
            raise GameError("the game is over" if s.phase == "over" else "the game has not started", "phase")
        tx.emit(GameEnded("host_ended", winners_of(s), now))
    else:
        return False
    return True


class TableGame(Game):
    """A game whose state is a :class:`TableState`: the event table, the table
    queries, and ``apply``/``tick`` around two hooks — :meth:`decide` (an
    action) and :meth:`time_up` (a deadline of :meth:`Game.deadline` passed).
    Clocks run out in order up to ``now`` before an action is decided."""

    event_types: ClassVar[tuple[type[Event], ...]] = ()
    """The game's own events (the shared table events are added)."""

    def __init__(self) -> None:
        self.events: dict[str, type[Event]] = {c.type: c for c in (*TABLE_EVENTS, *self.event_types)}

    def event_from_dict(self, data: Mapping[str, Any]) -> Event:
        return event_from_dict(self.events, data)

    def phase(self, state: Any) -> str:
        return state.phase  # type: ignore[no-any-return]

    def players(self, state: Any) -> tuple[PlayerState, ...]:
        return state.players  # type: ignore[no-any-return]

    def host(self, state: Any) -> str | None:
        return state.host  # type: ignore[no-any-return]

    def apply(self, state: Any, action: Any, now: float) -> tuple[Any, list[Event]]:
        """Clocks are run up to ``now`` first (their events come first), then the
        action is decided.  A refused action raises :class:`GameError` and
        changes nothing — not even the clocks: tick first to keep those.  An
        action in a paused game resumes it first (someone is evidently there)."""
        tx = Tx(self.evolve, state)
        now = now_of(state, now)
        self._resume(tx, now)
        self.run_clocks(tx, now)
        self.decide(tx, action, now)
        return tx.state, tx.events

    def tick(self, state: Any, now: float) -> tuple[Any, list[Event]]:
        """Clocks that are due run out (none while the game is paused)."""
        tx = Tx(self.evolve, state)
        if state.paused_at is None:
            self.run_clocks(tx, now_of(state, now))
        return tx.state, tx.events

    def deadline(self, state: Any) -> float | None:
        """The game's :meth:`clock`, or ``None`` while the game is paused."""
        return None if state.paused_at is not None else self.clock(state)

    @abc.abstractmethod
    def clock(self, state: Any) -> float | None:
        """When the game's running clock runs out (``None``: no clock runs)."""

    def pause(self, state: Any, now: float) -> tuple[Any, list[Event]]:
        """Stop the clocks (:class:`GamePaused`) after running out those already due;
        nothing when no clock runs or the game is paused already."""
        if state.paused_at is not None:
            return state, []
        tx = Tx(self.evolve, state)
        now = now_of(state, now)
        self.run_clocks(tx, now)
        if self.clock(tx.state) is not None:
            tx.emit(GamePaused(now))
        return tx.state, tx.events

    def resume(self, state: Any, now: float) -> tuple[Any, list[Event]]:
        """Start the clocks again (:class:`GameResumed`), each as far from running
        out as when they stopped; nothing when the game is not paused."""
        tx = Tx(self.evolve, state)
        self._resume(tx, now_of(state, now))
        return tx.state, tx.events

    def _resume(self, tx: Tx, now: float) -> None:
        paused_at = tx.state.paused_at
        if paused_at is not None:
            tx.emit(GameResumed(round(max(0.0, now - paused_at), 3), now))

    def run_clocks(self, tx: Tx, now: float) -> None:
        """Every deadline up to ``now``, in order, each at its own time."""
        while True:
            due = self.deadline(tx.state)
            if due is None or now < due:
                return
            self.time_up(tx, due)

    @abc.abstractmethod
    def decide(self, tx: Tx, action: Any, now: float) -> None:
        """Emit the events of ``action`` (:class:`GameError` if refused)."""

    @abc.abstractmethod
    def time_up(self, tx: Tx, due: float) -> None:
        """The deadline ``due`` has come: emit what happens then."""
