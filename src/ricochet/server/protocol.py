"""The WebSocket protocol, version 2 (``docs/protocol.md``): limits, validation
of every client message, room options, and the rate limiter.

The shell's messages (``hello``, ``chat``, ``start`` …) are checked here; a
game's own messages (``bid``, ``move`` …) are passed on as parsed and the game
checks them as it turns them into actions (:meth:`ricochet.games.Game.parse_action`).

Pure functions and small values, no I/O: the rooms module feeds text in and
gets either a clean message dict or a :class:`Refused` whose ``code`` and
``message`` go back to the client as an ``error`` message.

>>> parse_message('{"type": "chat", "text": " gg ", "ref": 3}')
{'type': 'chat', 'text': 'gg', 'ref': 3}
>>> try:
...     parse_message('{"type": "fly"}')
... except Refused as e:
...     print(e.code)
unknown_type
"""

from __future__ import annotations

import hashlib
import json
import time
import unicodedata
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

import orjson

from .. import safejson
from ..games import DEFAULT_GAME, GAMES, GameError, OptionsError, get_game
from ..games.messages import whole
from ..games.options import kind_of as _kind
from ..games.table import check_name
from .refused import Refused

PROTOCOL_VERSION = 2
PROTOCOLS = (1, 2)
"""Versions a client may speak: 1 is version 2 without game names, for Ricochet Robots rooms only."""
MAX_MESSAGE_BYTES = 4096
MAX_BODY_BYTES = 16 * 1024
RATE_PER_SECOND = 10.0
RATE_BURST = 20
DROP_PAUSE = 0.25
"""At most this many seconds a connection is not read after one of its messages was dropped by
the rate limits (until it may send again)."""
FLOOD_DROPS = 20
"""Dropped messages within :data:`FLOOD_WINDOW` seconds after which the connection is closed."""
FLOOD_WINDOW = 10.0
MAX_NAME = 32
MAX_CHAT = 300
MAX_ROOM_NAME = 40
MAX_REF = 64
MAX_TOKEN = 128
MAX_SEATS = 8
MAX_BOTS = 6
MAX_PLAYERS_PER_GAME = 24
"""Different players one game keeps (seated or gone); beyond, newcomers watch until the next game."""
SEAT_GRACE = (5, 3600)
"""Allowed ``seat_grace_seconds``: how long a seated person may be away before the seat is freed."""
RESTART_RETRY = 1.0
"""Seconds after which a client told ``server_restarting`` tries to connect again, and again each
time it fails (``docs/protocol.md`` 2.4): a server that comes back is found within about that long."""
MISSED_LIMIT = 200
"""At most this many missed events are sent on resync; beyond that only the full state."""
CHAT_HISTORY = 50


# -- text ---------------------------------------------------------------------------
def clean_text(value: object, field: str, limit: int, *, allow_empty: bool = False) -> str:
    """A trimmed text without control characters, at most ``limit`` characters.

    Stored and sent raw otherwise: escaping is the front end's job (it knows the context).

    >>> clean_text("  Ann\\x00 ", "name", 32)
    'Ann'
    """
    if not isinstance(value, str):
        raise Refused(f"{field} must be a text, got {_kind(value)}")
    text = "".join(ch for ch in value if ch in "\n" or unicodedata.category(ch) not in ("Cc", "Cf", "Cs"))
    text = text.strip()
    if not text and not allow_empty:
        raise Refused(f"{field} must not be empty")
    if len(text) > limit:
        raise Refused(f"{field} may have at most {limit} characters, got {len(text)}")
    return text


def clean_name(value: object, field: str = "name", limit: int = MAX_NAME) -> str:
    """A name for people: one line of printable text, spaces collapsed, NFC-normalised,
    1 to ``limit`` characters.  Control characters and line breaks are refused (not
    silently dropped: what is shown must be what was typed).

    >>> clean_name("  Ann   Lee ")
    'Ann Lee'
    >>> clean_name("Ann\\nLee")
    Traceback (most recent call last):
    ...
    ricochet.server.refused.Refused: name may not contain control characters or line breaks (U+000A)
    """
    if not isinstance(value, str):
        raise Refused(f"{field} must be a text, got {_kind(value)}")
    try:
        text = check_name(value, field)
    except GameError as e:
        raise Refused(str(e)) from None
    if len(text) > limit:
        raise Refused(f"{field} may have at most {limit} characters, got {len(text)}")
    return text


def _int(value: object, field: str, lo: int | None = None, hi: int | None = None) -> int:
    try:
        return whole(value, field, lo, hi)
    except GameError as e:
        raise Refused(str(e)) from None


def _bool(value: object, field: str) -> bool:
    if not isinstance(value, bool):
        raise Refused(f"{field} must be true or false, got {_kind(value)}")
    return value


# -- client messages ------------------------------------------------------------------
Validator = Callable[[Mapping[str, Any], dict[str, Any]], None]


def _none(msg: Mapping[str, Any], out: dict[str, Any]) -> None:
    pass


def _hello(msg: Mapping[str, Any], out: dict[str, Any]) -> None:
    if "protocol" not in msg:
        raise Refused(f"hello needs \"protocol\": {PROTOCOL_VERSION}", "protocol", close_code=4400)
    proto = msg["protocol"]
    if isinstance(proto, bool) or not isinstance(proto, int) or proto not in PROTOCOLS:  # 2, not 2.0 nor true
        raise Refused(f"this server speaks protocol {PROTOCOL_VERSION}, not {proto!r}: reload the page",
                      "protocol", close_code=4400)
    out["protocol"] = proto
    name = msg.get("name")
    out["name"] = None if name is None else clean_name(name)
    token = msg.get("seat_token")
    if token is not None and (not isinstance(token, str) or not 0 < len(token) <= MAX_TOKEN):
        raise Refused(f"seat_token must be the text from your welcome message or null, got {_kind(token)}")
    out["seat_token"] = token
    since = msg.get("since")
    out["since"] = None if since is None else _int(since, "since", 0)
    out["spectate"] = _bool(msg.get("spectate", False), "spectate")


def _chat(msg: Mapping[str, Any], out: dict[str, Any]) -> None:
    out["text"] = clean_text(msg.get("text"), "text", MAX_CHAT)


def _add_bot(msg: Mapping[str, Any], out: dict[str, Any], game: str | None = None) -> None:
    # Before the room is known: a level of some game (the room checks it is one of its game's).
    levels = get_game(game).bot_levels if game is not None else tuple(
        dict.fromkeys(lv for g in GAMES.values() for lv in g.bot_levels))
    level = msg.get("level", "intermediate")
    if level not in levels:
        raise Refused(f"level must be one of {', '.join(levels)}, got {level!r}")
    out["level"] = level
    name = msg.get("name")
    out["name"] = None if name is None else clean_name(name)


def _player_field(kind: str, whose: str) -> Validator:
    def check(msg: Mapping[str, Any], out: dict[str, Any]) -> None:
        player = msg.get("player")
        if not isinstance(player, str) or not 0 < len(player) <= 16:
            raise Refused(f"{kind} needs \"player\": {whose} player id, got {_kind(player)}")
        out["player"] = player
    return check


def _restart(msg: Mapping[str, Any], out: dict[str, Any]) -> None:
    out["start"] = _bool(msg.get("start", False), "start")


def _sync(msg: Mapping[str, Any], out: dict[str, Any]) -> None:
    since = msg.get("since")
    out["since"] = None if since is None else _int(since, "since", 0)


MESSAGE_TYPES: dict[str, Validator] = {
    "hello": _hello, "start": _none, "restart": _restart, "end_game": _none, "leave": _none, "join": _none,
    "chat": _chat, "add_bot": _add_bot, "remove_bot": _player_field("remove_bot", "the bot's"),
    "remove_player": _player_field("remove_player", "the"), "sync": _sync, "ping": _none,
}
"""The shell's message types (every game) and their field validators."""


def _game_message(msg: Mapping[str, Any], out: dict[str, Any]) -> None:
    """A game's own message: its fields as sent; the game checks them (``parse_action``)."""
    out.update((k, v) for k, v in msg.items() if k not in ("type", "ref"))


def message_types(game: str | None = None) -> dict[str, Validator]:
    """The message types a room of ``game`` takes (``None``: any game's).  Made once per game
    (every message asks): do not change the answer."""
    known = _types.get(game)
    if known is None or len(GAMES) != _types_games[0]:  # (a game plugged in later: made again)
        if len(GAMES) != _types_games[0]:
            _types.clear()
            _types_games[0] = len(GAMES)
        names = get_game(game).message_types if game is not None else sorted({t for g in GAMES.values()
                                                                                for t in g.message_types})
        known = _types[game] = MESSAGE_TYPES | {t: _game_message for t in names}
    return known


_types: dict[str | None, dict[str, Validator]] = {}
_types_games = [0]


def parse_ref(msg: Mapping[str, Any]) -> str | int | None:
    """The client's ``ref`` (echoed in errors and acks), or :class:`Refused`."""
    ref = msg.get("ref")
    if ref is None:
        return None
    if isinstance(ref, bool) or not isinstance(ref, str | int):
        raise Refused("ref must be a text or a whole number")
    if isinstance(ref, str) and len(ref) > MAX_REF:
        raise Refused(f"ref may have at most {MAX_REF} characters")
    if isinstance(ref, int) and abs(ref) > 2**53:
        raise Refused("ref is too large a number")
    return ref


def parse_message(text: str | bytes, game: str | None = None) -> dict[str, Any]:
    """Validate one client frame for a room of ``game``: the clean message
    (``type``, its fields, ``ref`` if given; unknown extra fields are dropped)
    or :class:`Refused`.

    On a refusal after the ``ref`` was read, the error carries it as ``ref``."""
    size = len(text.encode() if isinstance(text, str) else text)
    if size > MAX_MESSAGE_BYTES:
        raise Refused(f"message too big: {size} bytes, at most {MAX_MESSAGE_BYTES}", "too_big")
    try:
        msg = safejson.loads(text)
    except json.JSONDecodeError as e:
        raise Refused(f"not valid JSON: {e.msg} at character {e.pos}; send one JSON object per message",
                            "bad_json") from None
    except (ValueError, UnicodeDecodeError):
        raise Refused("not valid JSON (not UTF-8 text): send one JSON object per message", "bad_json") from None
    if not isinstance(msg, dict):
        raise Refused(f"a message must be a JSON object, got {_kind(msg)}", "bad_json")
    ref = parse_ref(msg)
    kind = msg.get("type")
    known = message_types(game)
    check = known.get(kind) if isinstance(kind, str) else None
    if check is None:
        raise Refused(f"unknown message type {kind!r}; known: {', '.join(known)}", "unknown_type", ref=ref)
    out: dict[str, Any] = {"type": kind}
    try:
        check(msg, out)
    except Refused as e:
        e.ref = ref
        raise
    if ref is not None:
        out["ref"] = ref
    return out


_DUMP_OPTIONS = orjson.OPT_NON_STR_KEYS


def dumpb(msg: Any) -> bytes:
    """A server message as compact JSON, UTF-8 bytes (orjson: the same text as
    ``json.dumps(msg, separators=(",", ":"), ensure_ascii=False)`` for our messages, several
    times faster; non-text keys become text as with :mod:`json`; a NaN or an infinity, which
    JSON has not, would be written ``null`` where :mod:`json` writes invalid JSON).

    >>> dumpb({"type": "chat", "text": "café", "at": 1.5, 3: [True, None]})
    b'{"type":"chat","text":"caf\xc3\xa9","at":1.5,"3":[true,null]}'
    """
    return orjson.dumps(msg, option=_DUMP_OPTIONS)


def dumps(msg: Any) -> str:
    """A server message as compact JSON text (UTF-8 kept as is): :func:`dumpb`, decoded."""
    return orjson.dumps(msg, option=_DUMP_OPTIONS).decode()


EXTEND = "extend"
"""The key of an event message's state that lists what grew by a few items (``docs/protocol.md``,
section 2.3): ``{"round.paths": {"at": 4, "items": [path]}}``: the list at that dotted place is the
one before the event, its first ``at`` items, followed by ``items``.  A demonstration's message
then carries its new move, not every move again."""


def merge_event_state(before: Mapping[str, Any], delta: Mapping[str, Any]) -> dict[str, Any] | None:
    """The state after an ``event`` message: ``before`` (the state after the previous version)
    with the message's ``state`` merged in, as every client merges it (``docs/protocol.md``,
    section 2.3): a shallow merge, then each list under :data:`EXTEND` rebuilt from the list before.
    Neither ``before`` nor ``delta`` is changed.  ``None`` when a list to extend is missing or shorter than its
    ``at``: the client missed something and asks for a ``sync``.

    >>> before = {"phase": "demonstration", "round": {"number": 2, "paths": ["p1"]}}
    >>> merge_event_state(before, {"round": {"number": 2}, "extend": {"round.paths": {"at": 1, "items": ["p2"]}}})
    {'phase': 'demonstration', 'round': {'number': 2, 'paths': ['p1', 'p2']}}
    >>> merge_event_state({}, {"round": {}, "extend": {"round.paths": {"at": 1, "items": ["p2"]}}}) is None
    True
    """
    after = {**before, **delta}
    lists = after.pop(EXTEND, None)
    if not lists:
        return after
    for place, grown in lists.items():
        *parents, key = place.split(".")
        old: Any = before
        for k in (*parents, key):
            old = old.get(k) if isinstance(old, Mapping) else None
        at = grown["at"]
        if not isinstance(old, list) or len(old) < at:
            return None
        holder = after  # each dict on the way copied: neither the state before nor the message changes
        for k in parents:
            if not isinstance(holder.get(k), dict):
                return None
            holder[k] = dict(holder[k])
            holder = holder[k]
        holder[key] = [*old[:at], *grown["items"]]
    return after


def error_message(code: str, message: str, ref: object = None, retry_after: float | None = None) -> dict[str, Any]:
    """An ``error`` message; ``retry_after``: seconds after which trying again may work (then present)."""
    out: dict[str, Any] = {"type": "error", "code": code, "message": message, "ref": ref}
    if retry_after is not None:
        out["retry_after"] = retry_after
    return out


# -- rate limit ----------------------------------------------------------------------
class TokenBucket:
    """``burst`` messages at once, refilled at ``rate`` per second (real time)."""

    def __init__(self, rate: float = RATE_PER_SECOND, burst: int = RATE_BURST,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.rate, self.burst, self.clock = rate, burst, clock
        self.tokens = float(burst)
        self.last = clock()

    def take(self) -> bool:
        now = self.clock()
        self.tokens = min(self.burst, self.tokens + (now - self.last) * self.rate)
        self.last = now
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        return False


# -- room options ----------------------------------------------------------------------
COMMON_OPTIONS: dict[str, Any] = {"game": DEFAULT_GAME, "name": None, "private": False, "bots": [],
                                  "seat_grace_seconds": 180, "spectator_chat": False}
"""The options of every room; the rest are the game's (:attr:`ricochet.games.Game.default_options`)."""
DEFAULT_OPTIONS: dict[str, Any] = COMMON_OPTIONS | dict(GAMES[DEFAULT_GAME].default_options)
"""The options of a Ricochet Robots room (the default game)."""


def normalize_options(raw: object) -> dict[str, Any]:
    """Room options with defaults filled in and every field checked
    (:class:`OptionsError` names the field).  ``game`` picks the game (default
    Ricochet Robots); unknown fields are refused so a typo does not silently
    give another game.

    >>> normalize_options({"clock_seconds": 30})["clock_seconds"]
    30
    >>> normalize_options({"game": "pyramids"})["clock_seconds"]
    30
    """
    if raw is None:
        raw = {}
    if not isinstance(raw, dict):
        raise OptionsError(f"room options must be a JSON object, got {_kind(raw)}")
    game = get_game(raw.get("game", DEFAULT_GAME))
    common = {k: raw[k] for k in COMMON_OPTIONS if k in raw}
    own = {k: v for k, v in raw.items() if k not in COMMON_OPTIONS}
    unknown = sorted(set(own) - set(game.default_options))
    if unknown:
        raise OptionsError(f"unknown option {unknown[0]!r} for {game.title}; known: "
                           f"{', '.join([*COMMON_OPTIONS, *game.default_options])}")
    opts = COMMON_OPTIONS | common
    opts["game"] = game.name
    try:
        if opts["name"] is not None:
            opts["name"] = clean_text(opts["name"], "name", MAX_ROOM_NAME, allow_empty=True) or None
        _bool(opts["private"], "private")
        _bool(opts["spectator_chat"], "spectator_chat")
        if opts["seat_grace_seconds"] is not None:
            opts["seat_grace_seconds"] = _int(opts["seat_grace_seconds"], "seat_grace_seconds", *SEAT_GRACE)
        bots = opts["bots"]
        if not isinstance(bots, list) or len(bots) > MAX_BOTS:
            raise Refused(f"bots must be a list of at most {MAX_BOTS} bots like {{\"level\": \"expert\"}}")
        clean_bots = []
        for i, b in enumerate(bots):
            if isinstance(b, str):
                b = {"level": b}
            if not isinstance(b, dict) or set(b) - {"level", "name"}:
                raise Refused(f"bots[{i}] must be an object like {{\"level\": \"expert\"}}")
            out: dict[str, Any] = {}
            _add_bot(b, out, game.name)
            clean_bots.append({k: v for k, v in out.items() if v is not None})
        opts["bots"] = clean_bots
        opts.update(game.normalize_options(own))
    except Refused as e:
        raise OptionsError(str(e)) from None
    return opts


def game_seed(room_seed: int, game: int) -> int:
    """The seed of game ``game`` of a room: stable, and unguessable without the room's secret seed."""
    digest = hashlib.sha256(f"{room_seed}:{game}".encode()).digest()
    return int.from_bytes(digest[:7], "big")


def config_for(options: Mapping[str, Any], room_seed: int, game: int) -> Any:
    """The configuration of game number ``game`` of a room with these (normalised) options."""
    kind = get_game(options.get("game", DEFAULT_GAME))
    own = {k: v for k, v in options.items() if k not in COMMON_OPTIONS}
    return kind.config(own, game_seed(room_seed, game))


@dataclass(frozen=True)
class Limits:
    """What ``GET /api/options`` reports."""

    @staticmethod
    def to_dict() -> dict[str, Any]:
        return {"message_bytes": MAX_MESSAGE_BYTES, "rate_per_second": RATE_PER_SECOND, "burst": RATE_BURST,
                "name": MAX_NAME, "chat": MAX_CHAT, "room_name": MAX_ROOM_NAME, "seats": MAX_SEATS,
                "bots": MAX_BOTS}
