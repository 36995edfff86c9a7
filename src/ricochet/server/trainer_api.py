"""The trainer's HTTP API (``docs/protocol.md``, "Solo training"): the puzzle of
the day, rated puzzles served near the player's rating, shared puzzles by
code, graded hints, attempts checked by the engine, Glicko-2 ratings, streaks
and light accounts.

Every CPU-heavy step (making a puzzle, solving a shared code) runs as a
:class:`~ricochet.games.Job` in the server's solver worker
(:meth:`SolverService.run`), never on the event loop; a request waits at most
:attr:`TrainerOptions.generate_budget` seconds for one.  A small pool of
puzzles per length is made in the background at start, so most requests only
read the database.
"""

from __future__ import annotations

import asyncio
import contextlib
import datetime as _dt
import logging
import secrets
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from typing import Any, TypeVar

from starlette.requests import Request
from starlette.routing import Route

from ..games.interface import Job
from ..trainer import daily as D
from ..trainer import storm as STORM
from ..trainer.glicko2 import Rating, update_pair
from ..trainer.puzzles import (
    GAMES,
    LENGTHS,
    ON_DEMAND,
    STYLES,
    TrainerError,
    TrainerPuzzle,
    check_attempt,
    check_spec,
    from_code,
    generate_bounded,
    hint,
    solution_paths,
)
from ..trainer.scoring import (
    DIFFICULTY,
    check_difficulty,
    length_for_rating,
    rating_for_length,
    score,
    share_text,
    streak_length,
)
from ..trainer.themes import check_theme, facts, theme_names, themes
from . import trainer_auth as A
from .limits import Buckets
from .solving import SolverService
from .storage import Storage
from .trainer_http import ApiError, bad, body_of, endpoint, game_param, int_param, today
from .trainer_records import Records
from .trainer_store import Play, StoredPuzzle, TrainerStore
from .trainer_storm import Storms, storm_routes

__all__ = ["Trainer", "TrainerOptions", "trainer_routes"]

log = logging.getLogger("ricochet.server")
T = TypeVar("T")

NEAR = 200.0
"""A stored puzzle this close to the player's rating is served; farther, a new one is made."""
NEW_PUZZLE_RD = 300.0
ARCHIVE_PAGE = 400
"""Days of the daily archive one request may list."""
BOARD_SIZE = 100
"""Names a leaderboard may list."""
THEME_TRIES = 120
"""New puzzles made at most for one request of a theme none of the stored ones has (within
:attr:`TrainerOptions.generate_budget` seconds: a Micro Robots puzzle takes milliseconds)."""
POOL_DELAY = 20.0
POOL_PAUSE = 0.5
"""Seconds before the pool starts, and between two of its puzzles."""
LONG_POOL = 12
"""Long Ricochet Robots puzzles (14 to 21 moves) per length the background climbs towards."""
LONG_SLICES = 2000
"""At most this many climbing slices (of ``generate_budget`` seconds each, after the pool): a 21-move
puzzle may stay rare, and the background must stop some day."""
POOL_LENGTHS: dict[str, tuple[int, ...]] = {
    "ricochet-robots": (3, 4, 5, 6, 7, 8, 9, 10, 11), "pyramids": (2, 3, 4, 5, 6, 7, 8, 9),
    "micro-robots": (1, 2, 3, 4, 5, 6)}


@dataclass(frozen=True)
class TrainerOptions:
    """How the trainer runs.  ``secret``: the cookie key (default
    :func:`trainer_auth.load_secret`); ``pool``: puzzles per (game, length)
    made in the background at start (``None``: 2 with the real solver worker,
    0 with an injected one, as in tests); ``generate_budget``: seconds a
    request may wait for a new puzzle; ``puzzles_per_minute`` and
    ``puzzle_burst``: how many puzzles (next or by code, which may need the
    solver) one client address may ask for (0: no limit); ``storm_answers_per_minute`` and
    ``storm_answer_burst``: Puzzle Storm's answers from one address (each may make a puzzle)."""

    secret: bytes | None = None
    pool: int | None = None
    generate_budget: float = 8.0
    puzzles_per_minute: float = 30.0
    puzzle_burst: int = 20
    storm_answers_per_minute: float = 120.0
    storm_answer_burst: int = 60


def widening(choices: list[T], count: int) -> Iterator[T]:
    """``count`` picks from ``choices`` (best first), in rounds over a window that widens by two
    each round: the first choices are tried most often, the last ones still some times.  A
    theme asked for is found at the lengths near the player's far more often than by trying
    every length in turn (every move by number: one puzzle in two at one move, none at six).

    >>> "".join(widening(list("abcd"), 12))
    'ababcdabcdab'
    """
    if not choices:
        return
    k, width = 0, 2
    while True:
        for choice in choices[:width]:
            if k == count:
                return
            yield choice
            k += 1
        width += 2


def _not_served(puzzle_id: str) -> ApiError:
    return ApiError(409, "not_served", f"puzzle {puzzle_id} was not served to you: open it first "
                                       "(the daily puzzle, the next rated one or its link), then play it")


def _warm_auth() -> None:
    A.dummy_hash()
    A.check_name("warm up")  # loads Unicode's confusables


class Trainer:
    """The trainer's server side: identity, puzzles, attempts (one instance per app)."""

    def __init__(self, storage: Storage, solver: SolverService, now: Callable[[], float],
                 options: TrainerOptions | None = None, *, real_worker: bool = False) -> None:
        self.options = options or TrainerOptions()
        self.store = TrainerStore(storage.engine)
        # With the real worker, the trainer has a worker process of its own: making puzzles (or
        # solving a flood of shared codes) never delays a room's solver jobs, nor the other way round.
        self._own_solver = real_worker
        # Niced: puzzles are made (the pool above all) with the CPU the rooms leave.
        self.solver = SolverService(nice=19) if real_worker else solver
        self.now = now
        self._signer: A.CookieSigner | None = None
        self.logins = A.LoginLimiter()
        self.puzzle_requests = Buckets(self.options.puzzles_per_minute / 60, self.options.puzzle_burst)
        # A Storm's answers each serve a puzzle (chosen ahead, or made): a fast player's pace, not a flood's.
        self.storm_answers = Buckets(self.options.storm_answers_per_minute / 60, self.options.storm_answer_burst)
        self.storms = Storms(self)
        self.records = Records(self.store.engine, self.storms.store)
        self.pool = self.options.pool if self.options.pool is not None else (2 if real_worker else 0)
        self._locks: dict[str, asyncio.Lock] = {}
        self._tasks: set[asyncio.Task[Any]] = set()
        self._shipped: asyncio.Task[None] | None = None

    @property
    def signer(self) -> A.CookieSigner:
        # Made on first use: a server nobody trains on never writes a secret file.
        if self._signer is None:
            self._signer = A.CookieSigner(self.options.secret or A.load_secret())
        return self._signer

    async def start(self) -> None:
        # Made now, not on the first login: the first unknown name must cost no more than the others.
        self._spawn(asyncio.to_thread(_warm_auth))
        self._shipped = asyncio.ensure_future(self._store_shipped())
        self._tasks.add(self._shipped)
        if self.pool > 0:
            self._spawn(self._fill_pool())

    async def close(self) -> None:
        for task in list(self._tasks):
            task.cancel()
        for task in list(self._tasks):
            with contextlib.suppress(BaseException):
                await task
        if self._own_solver:
            self.solver.close()

    def _spawn(self, coro: Any) -> None:
        task = asyncio.ensure_future(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def _lock(self, player: str) -> asyncio.Lock:
        # One request at a time per player: two attempts at once must not both be "first".
        if len(self._locks) > 10_000:
            self._locks = {k: v for k, v in self._locks.items() if v.locked()}
        return self._locks.setdefault(player, asyncio.Lock())

    # -- puzzles made in the worker ------------------------------------------------------------------
    async def _make(self, game: str, length: int, style: str | None, seed: str) -> TrainerPuzzle | None:
        """A new puzzle of that length made on request, or ``None`` when it could not be made in
        time — at once for lengths past :data:`ON_DEMAND` (made ahead of time only)."""
        _, length, style = check_spec(game, length, style)
        assert length is not None
        if length > ON_DEMAND[game]:
            return None
        budget = self.options.generate_budget
        job = Job(("trainer", "generate", game, length, style, seed), generate_bounded,
                  (game, length, style, seed, budget))
        return await asyncio.wait_for(self.solver.run(job), budget + 30)  # type: ignore[no-any-return]

    async def _store_new(self, tp: TrainerPuzzle, source: str) -> StoredPuzzle:
        rating = Rating(rating_for_length(tp.game, tp.optimal), NEW_PUZZLE_RD, 0.06)
        return await self.store.add_puzzle(tp, rating, source, self.now())

    async def _store_shipped(self) -> None:
        """The long puzzles shipped with the package, stored once (a request for a long length
        waits for this, a fraction of a second at start, never for a puzzle to be made)."""
        from ..trainer.long import shipped

        try:
            for tp in await asyncio.to_thread(shipped):
                await self._store_new(tp, "shipped")
            await self.store.fill_themes()
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("the trainer's shipped long puzzles could not be stored")

    async def _grow_long(self) -> None:
        """Long puzzles (past a game's ``longest_on_request``: Ricochet Robots' 14 to 21 moves)
        climbed for in the worker until every long length has :data:`LONG_POOL` (or
        :data:`LONG_SLICES` slices were spent), one style after another.  A slice lasts no
        longer than a puzzle made on request may take: a request waits behind at most one
        slice, never behind a whole climb."""
        from ..trainer.long import climb_slice, long_lengths, new_climb

        budget = self.options.generate_budget
        for game in GAMES:
            span = long_lengths(game)
            if span is None:
                continue
            lo, hi = span
            styles = STYLES[game]
            states = {style: new_climb(game, style, secrets.token_hex(4)) for style in styles}
            for k in range(LONG_SLICES):
                counts = [await self.store.count_puzzles(game, n) for n in range(lo, hi + 1)]
                if min(counts) >= LONG_POOL:
                    break
                style = styles[(k // 8) % len(styles)]  # eight slices of a style, then the next
                job = Job(("trainer", "long", game, style, k, secrets.token_hex(4)), climb_slice,
                          (states[style], (lo, hi), budget))
                found, states[style] = await asyncio.wait_for(self.solver.run(job), budget + 60)
                for tp in found:
                    if await self.store.count_puzzles(game, tp.optimal) < LONG_POOL:
                        await self._store_new(tp, "long")
                await asyncio.sleep(POOL_PAUSE)

    async def _fill_pool(self) -> None:
        """A few puzzles of every length, made one at a time in the worker, gently: after
        the start has settled, with a pause between puzzles (the machine has other work)."""
        try:
            await asyncio.sleep(POOL_DELAY)
            for game in GAMES:
                for length in POOL_LENGTHS[game]:
                    have = await self.store.count_puzzles(game, length, "pool")
                    for k in range(have, self.pool):
                        tp = await self._make(game, length, None, f"pool:{k}")
                        if tp is not None:
                            await self._store_new(tp, "pool" if tp.optimal == length else "rated")
                        await asyncio.sleep(POOL_PAUSE)
            await self._grow_long()
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("the trainer's puzzle pool could not be filled")

    async def daily(self, game: str, day: _dt.date) -> StoredPuzzle:
        """The day's puzzle: from the cache, or made (deterministically) in the worker and cached."""
        key = day.isoformat()
        cached = await self.store.daily(game, key)
        if cached is not None:
            sp = await self.store.puzzle(cached)
            if sp is not None:
                return sp
        job = Job(("trainer", "daily", game, key), D.daily_puzzle, (game, day))
        tp = await asyncio.wait_for(self.solver.run(job), 120)
        sp = await self._store_new(tp, "daily")
        await self.store.set_daily(game, key, sp.puzzle.id)
        return sp

    async def by_code(self, game: str, code: str) -> StoredPuzzle:
        from ..trainer.puzzles import puzzle_id, validate_code

        validate_code(game, code)
        sp = await self.store.puzzle(puzzle_id(game, code))
        if sp is not None:
            return sp
        job = Job(("trainer", "code", game, code), from_code, (game, code))
        tp = await asyncio.wait_for(self.solver.run(job), 60)
        return await self._store_new(tp, "shared")

    # -- identity -------------------------------------------------------------------------------------
    async def identify(self, request: Request, create: bool) -> tuple[str | None, str | None]:
        """The player of the request's cookie, and a new cookie to set when one was made."""
        pid = self.signer.read(request.cookies.get(A.COOKIE))
        if pid is not None and await self.store.player(pid) is not None:
            return pid, None
        if not create:
            return None, None
        pid = A.new_player_id()
        await self.store.add_player(pid, self.now())
        return pid, self.signer.sign(pid, self.now())

    # -- serving ----------------------------------------------------------------------------------------
    async def served(self, sp: StoredPuzzle, player: str, mode: str | None = None) -> dict[str, Any]:
        """A puzzle served to a player, recorded as served (only then may they ask hints and
        attempt it).  Never the solution before their attempt (or hint 4); neither the optimal
        length nor the puzzle's rating (a new puzzle's rating tells its length) before their
        attempt or a hint (level 1 tells the length)."""
        tp = sp.puzzle
        day = await self.store.daily_days(tp.id)
        play = await self.store.start_play(player, tp.id, tp.game, mode or ("daily" if day else "free"), self.now())
        out = tp.public()
        if not (play.done or play.hints >= 1):
            del out["optimal"]
            out["puzzle"].pop("optimal", None)
        out.update(rating=round(sp.rating.rating) if play.done else None, plays=sp.plays,
                   url=f"/train/{tp.game}/{tp.code}", mode=play.mode,
                   daily={"date": day, "number": D.daily_number(_dt.date.fromisoformat(day))} if day else None,
                   hints=hint(tp, play.hints) if play.hints else None,
                   played=self._outcome(tp, play, day) if play.done else None)
        return out

    def _outcome(self, tp: TrainerPuzzle, play: Play, day: str | None, reason: str | None = None) -> dict[str, Any]:
        assert play.result is not None and play.length is not None
        number = D.daily_number(_dt.date.fromisoformat(day)) if day else None
        rating = None
        if play.rating_before is not None and play.rating_after is not None:
            rating = {"before": round(play.rating_before, 1), "after": round(play.rating_after, 1),
                      "change": round(play.rating_after - play.rating_before, 1)}
        return {"result": play.result, "length": play.length, "optimal": tp.optimal, "reason": reason,
                "score": play.score, "hints": play.hints, "assisted": play.hints > 0, "rating": rating,
                "rated": rating is not None,
                "solution": [list(m) for m in tp.solution], "paths": solution_paths(tp),
                "themes": themes(tp, f := facts(tp)), "facts": f,
                "share": share_text(tp.game, number, play.result, play.length, tp.optimal, play.hints)}

    async def next_rated(self, player: str, game: str, length: int | None, style: str | None,
                         theme: str | None = None, difficulty: str = "normal") -> StoredPuzzle:
        """A rated puzzle: the one served and not attempted yet, if it fits what is asked;
        else the stored one nearest the player's rating moved by ``difficulty``
        (:data:`~ricochet.trainer.scoring.DIFFICULTY`) that they never played (of that
        length, style and theme, if asked); farther than :data:`NEAR`, a new one."""
        r = (await self.store.profile(player, game)).rating.rating + DIFFICULTY[difficulty]
        pending = await self.store.pending(player, game, "rated")
        if pending is not None:
            sp = await self.store.puzzle(pending)
            if sp is not None and (length is None or sp.puzzle.optimal == length) and \
                    (style is None or sp.puzzle.style == style) and (theme is None or theme in sp.themes) and \
                    (difficulty == "normal" or abs(sp.rating.rating - r) <= NEAR):
                return sp
        want = length if length is not None else length_for_rating(game, r)
        if want > ON_DEMAND[game] and self._shipped is not None:
            await asyncio.shield(self._shipped)  # long puzzles come from the store only
        sp = await self.store.nearest_unplayed(player, game, r, length=length, style=style, theme=theme)
        if sp is None or (length is None and theme is None and abs(sp.rating.rating - r) > NEAR):
            sp = await self._make_rated(game, want, style, theme) or sp
        if sp is None:
            if theme is not None:
                raise ApiError(503, "no_puzzle", f"no {game} puzzle with the theme {theme} that you have not "
                                                 "played is ready; try another theme, or later")
            raise self._none_of(game, want)
        await self.store.start_play(player, sp.puzzle.id, game, "rated", self.now())
        return sp

    async def _make_rated(self, game: str, want: int, style: str | None, theme: str | None) -> StoredPuzzle | None:
        """A new puzzle of ``want`` moves, stored.  For a theme, new puzzles until one has it,
        of lengths around ``want`` (a theme may be rare at one length and common at another:
        every move by number is rarer in longer routes), within one
        :attr:`TrainerOptions.generate_budget` and :data:`THEME_TRIES`; those of other themes
        are stored for later."""
        if theme is None:
            tp = await self._make(game, want, style, secrets.token_hex(8))
            return await self._store_new(tp, "rated") if tp is not None else None
        lo, hi = LENGTHS[game][0], ON_DEMAND[game]
        lengths = dict.fromkeys(n for k in range(hi - lo + 1) for n in (want - k, want + k) if lo <= n <= hi)
        # Every style, unless one is asked for: a theme may belong to one (diagonals, a via space).
        tries = []
        for n in lengths:
            for st in ([style] if style else STYLES[game]):
                with contextlib.suppress(TrainerError):  # a length the style cannot have
                    tries.append((check_spec(game, n, st)[2], n))
        start = time.monotonic()  # a budget of work: the server's clock may be a test's
        for st, n in widening(tries, THEME_TRIES):
            tp = await self._make(game, n, st, secrets.token_hex(8))
            if tp is not None:
                made = await self._store_new(tp, "rated")
                if theme in made.themes:
                    return made
            if time.monotonic() - start > self.options.generate_budget:
                break
        return None

    @staticmethod
    def _none_of(game: str, want: int) -> ApiError:
        if want > ON_DEMAND[game]:
            return ApiError(503, "no_puzzle", f"no {game} puzzle of {want} moves that you have not played is ready: "
                                              f"puzzles past {ON_DEMAND[game]} moves are made ahead of time, in the "
                                              "background; try another length, or later")
        return ApiError(503, "no_puzzle", f"no {game} puzzle of {want} moves could be made in time; try again")

    async def start_streak(self, player: str, game: str) -> dict[str, Any]:
        profile = await self.store.profile(player, game)
        profile = replace(profile, streak=profile.streak.start())
        await self.store.set_profile(player, game, profile, self.now())
        return profile.to_dict()["streak"]

    async def next_streak(self, player: str, game: str) -> StoredPuzzle:
        profile = await self.store.profile(player, game)
        streak = profile.streak
        if streak.current is None:
            raise ApiError(409, "no_streak", "no streak is running: start one with POST /api/trainer/streak")
        if streak.puzzle is not None:
            play = await self.store.play(player, streak.puzzle)
            sp = await self.store.puzzle(streak.puzzle)
            if sp is not None and (play is None or not play.done):
                await self.store.start_play(player, sp.puzzle.id, game, "streak", self.now())
                return sp
        want = streak_length(game, streak.current)
        if want > ON_DEMAND[game] and self._shipped is not None:
            await asyncio.shield(self._shipped)
        sp = await self.store.nearest_unplayed(player, game, rating_for_length(game, want), length=want)
        if sp is None:
            tp = await self._make(game, want, None, secrets.token_hex(8))
            if tp is not None and tp.optimal == want:
                sp = await self._store_new(tp, "rated")
        if sp is None:
            raise self._none_of(game, want)
        await self.store.set_profile(player, game, replace(profile, streak=streak.serve(sp.puzzle.id)), self.now())
        await self.store.start_play(player, sp.puzzle.id, game, "streak", self.now())
        return sp

    async def _play_of(self, player: str | None, sp: StoredPuzzle) -> Play:
        """The player's play of a puzzle served to them (else 409 ``not_served``: nothing is stored)."""
        play = await self.store.play(player, sp.puzzle.id) if player is not None else None
        if play is None:
            raise _not_served(sp.puzzle.id)
        return play

    async def hint(self, player: str | None, puzzle_id: str, level: int) -> dict[str, Any]:
        async with self._lock(player or ""):
            sp = await self._puzzle(puzzle_id)
            out = hint(sp.puzzle, level)  # checks the level first
            play = await self._play_of(player, sp)
            if not play.done and level > play.hints:
                assert player is not None
                await self.store.set_hints(player, puzzle_id, level)
            out["charged"] = not play.done
            return out

    async def attempt(self, player: str | None, puzzle_id: str, moves: Any) -> dict[str, Any]:
        async with self._lock(player or ""):
            sp = await self._puzzle(puzzle_id)
            tp = sp.puzzle
            play = await self._play_of(player, sp)
            assert player is not None
            verdict = check_attempt(tp, moves)
            day = await self.store.daily_days(tp.id)
            now = self.now()
            if play.done:  # later attempts are checked and counted, never rated
                await self.store.record_attempt(player, tp.game, tp.id, None, None, None, now)
                again = replace(play, result=verdict.result, length=verdict.length, score=None,
                                rating_before=None, rating_after=None)
                out = self._outcome(tp, again, day, verdict.reason)
                out.update(first=False, streak=None)
                return out
            profile = await self.store.profile(player, tp.game)
            s = score(verdict.result, verdict.length, tp.optimal, play.hints)
            first: dict[str, Any] = {"result": verdict.result, "length": verdict.length, "score": s}
            puzzle_rating = None
            streak = None
            if play.mode == "streak":  # streaks are not rated (as lichess's)
                new_streak = profile.streak.after(verdict.result, play.hints) \
                    if profile.streak.puzzle == tp.id else profile.streak
                new_profile = replace(profile, streak=new_streak)
                streak = {"current": new_streak.current, "best": new_streak.best,
                          "ended": new_streak.current is None, "reached": profile.streak.current}
            else:
                player_rating, puzzle_rating = update_pair(profile.rating, sp.rating, s)
                new_profile = replace(profile, rating=player_rating, attempts=profile.attempts + 1)
                first.update(rating_before=profile.rating.rating, rating_after=player_rating.rating)
            await self.store.record_attempt(player, tp.game, tp.id, first, new_profile, puzzle_rating, now)
            done = replace(play, result=verdict.result, length=verdict.length, score=s,
                           rating_before=first.get("rating_before"), rating_after=first.get("rating_after"))
            out = self._outcome(tp, done, day, verdict.reason)
            out.update(first=True, streak=streak, puzzle_rating=round(puzzle_rating.rating) if puzzle_rating else None)
            return out

    async def _puzzle(self, puzzle_id: str) -> StoredPuzzle:
        if not isinstance(puzzle_id, str) or len(puzzle_id) != 16:
            raise ApiError(404, "no_puzzle", f"there is no puzzle {puzzle_id!r}")
        sp = await self.store.puzzle(puzzle_id)
        if sp is None:
            raise ApiError(404, "no_puzzle", f"there is no puzzle {puzzle_id}; check the link")
        return sp

    async def me(self, player: str | None, game: str) -> dict[str, Any]:
        from ..trainer.spec import spec_of
        from .trainer_store import NEW_PROFILE

        games = {g: {"lengths": list(LENGTHS[g]), "styles": list(STYLES[g]), "themes": list(theme_names(g)),
                     "storm": list(spec_of(g).storm_lengths)} for g in GAMES}
        rules = {"seconds": STORM.SECONDS, "mistake": STORM.MISTAKE_SECONDS,
                 "combos": [list(step) for step in STORM.COMBO_STEPS]}
        none = {"best": 0, "runs": 0}
        if player is None:
            return {"player": None, "profiles": {g: {**NEW_PROFILE.to_dict(), "storm": none} for g in GAMES},
                    "history": [], "games": games, "storm": rules}
        who = await self.store.player(player)
        profiles = await self.store.profiles(player)
        storms = await self.storms.store.bests(player)
        return {"player": {"id": player, "name": who.name if who else None},
                "profiles": {g: {**profiles.get(g, NEW_PROFILE).to_dict(), "storm": storms.get(g, none)}
                             for g in GAMES},
                "history": await self.store.history(player, game), "games": games, "storm": rules}


def trainer_routes() -> list[Route]:
    """The trainer's routes (``app.state.trainer`` is the :class:`Trainer`)."""

    async def daily(request: Request, t: Trainer, player: str) -> dict[str, Any]:
        game = game_param(request)
        now = t.now()
        # "Today" anywhere on Earth: up to UTC+14, so a browser may ask for its own local date.
        latest = today(now + 14 * 3600)
        raw = request.query_params.get("date")
        day = today(now) if raw is None else D.parse_date(raw, latest)
        sp = await t.daily(game, day)
        # Opened on its day (somewhere on Earth: UTC-12 to UTC+14) it is the daily puzzle; later,
        # from the archive: rated the same, but it counts for neither the days in a row nor the board.
        on_its_day = today(now - 12 * 3600) <= day
        out = await t.served(sp, player, "daily" if on_its_day else "archive")
        return {"date": day.isoformat(), "number": D.daily_number(day), "game": game, **out}

    async def archive(request: Request, t: Trainer, player: str | None) -> dict[str, Any]:
        game = game_param(request)
        now = t.now()
        raw = request.query_params.get("until")
        until = today(now) if raw is None else D.parse_date(raw, today(now + 14 * 3600))
        limit = int_param(request, "limit")
        if limit is not None and not 1 <= limit <= ARCHIVE_PAGE:
            raise bad(f"limit must be from 1 to {ARCHIVE_PAGE}, got {limit}")
        return await t.records.archive(player, game, until, limit or 60)

    async def leaderboard(request: Request, t: Trainer, player: str | None) -> dict[str, Any]:
        game = game_param(request)
        limit = int_param(request, "limit")
        if limit is not None and not 1 <= limit <= BOARD_SIZE:
            raise bad(f"limit must be from 1 to {BOARD_SIZE}, got {limit}")
        return await t.records.board(player, game, limit or 20)

    async def next_puzzle(request: Request, t: Trainer, player: str) -> dict[str, Any]:
        game = game_param(request)
        mode = request.query_params.get("mode", "rated")
        if mode == "streak":
            sp = await t.next_streak(player, game)
        elif mode == "rated":
            length = int_param(request, "length")
            style = request.query_params.get("style") or None
            theme = request.query_params.get("theme") or None
            difficulty = check_difficulty(request.query_params.get("difficulty"))
            check_spec(game, length, style)
            if theme is not None:
                check_theme(game, theme)
            sp = await t.next_rated(player, game, length, style, theme, difficulty)
        else:
            raise bad(f"mode must be rated or streak, got {mode!r}")
        return await t.served(sp, player, mode)

    async def by_code(request: Request, t: Trainer, player: str) -> dict[str, Any]:
        game = request.path_params["game"]
        sp = await t.by_code(game, request.path_params["code"])
        return await t.served(sp, player)

    async def post_hint(request: Request, t: Trainer, player: str | None) -> dict[str, Any]:
        body = await body_of(request)
        if "level" not in body:
            raise bad("level is missing: 1 (length), 2 (robots), 3 (first move) or 4 (solution)")
        return await t.hint(player, request.path_params["puzzle_id"], body["level"])

    async def post_attempt(request: Request, t: Trainer, player: str | None) -> dict[str, Any]:
        body = await body_of(request)
        if "moves" not in body:
            raise bad("moves is missing: the moves of your solution, like [[0, \"N\"], [2, \"E\"]]")
        return await t.attempt(player, request.path_params["puzzle_id"], body["moves"])

    async def me(request: Request, t: Trainer, player: str | None) -> dict[str, Any]:
        return await t.me(player, game_param(request))

    async def history(request: Request, t: Trainer, player: str | None) -> dict[str, Any]:
        game = game_param(request)
        limit = int_param(request, "limit")
        if limit is not None and not 1 <= limit <= 5000:
            raise bad(f"limit must be from 1 to 5000, got {limit}")
        points = await t.store.history(player, game, limit or 500) if player is not None else []
        return {"game": game, "history": points}

    async def streak(request: Request, t: Trainer, player: str) -> dict[str, Any]:
        body = await body_of(request)
        game = body.get("game", "ricochet-robots")
        check_spec(game)
        return {"game": game, "streak": await t.start_streak(player, game)}

    async def claim(request: Request, t: Trainer, player: str) -> dict[str, Any]:
        body = await body_of(request)
        name, key = A.check_name(body.get("name"))
        password = A.check_password(body.get("password"))
        who = await t.store.player(player)
        if who is not None and who.name is not None:
            raise ApiError(409, "claimed", f"you are already {who.name}; log out to claim another name")
        if await t.store.player_by_name(A.legacy_key(name)) is not None:  # an account from before 0004
            raise ApiError(409, "name_taken", f"the name {name!r} is taken; choose another (or log in)")
        hashed = await asyncio.to_thread(A.hash_password, password)
        if not await t.store.claim(player, name, key, hashed):
            raise ApiError(409, "name_taken", f"the name {name!r} is taken; choose another (or log in)")
        return {"player": {"id": player, "name": name}}

    async def login(request: Request, t: Trainer, player: str | None) -> dict[str, Any]:
        body = await body_of(request)
        name, key = A.check_name(body.get("name"))
        password = body.get("password")
        if not isinstance(password, str) or not password:
            raise bad("password is missing")
        now = t.now()
        address = A.address_key(request.client.host if request.client is not None else "unknown")
        wait = t.logins.wait(key, address, now)
        if wait > 0:
            seconds = max(1, round(wait))
            raise ApiError(429, "too_many", f"too many failed logins from your address: try again in {seconds} s",
                           headers={"Retry-After": str(seconds)})
        # The account keyed by the look-alike form, and one keyed by the exact name (an account
        # from before migration 0004 whose name became a look-alike of an older one), if any.
        found = [await t.store.player_by_name(A.legacy_key(name)), await t.store.player_by_name(key)]
        candidates = list({p.id: p for p in found if p is not None and p.password_hash}.values())
        who = None
        # An unknown name costs one argon2 verification too: the time of the answer does not
        # tell which names are claimed.
        for cand in candidates or [None]:
            stored = cand.password_hash if cand is not None and cand.password_hash else A.dummy_hash()
            if await asyncio.to_thread(A.verify_password, stored, password) and cand is not None:
                who = cand
                break
        if who is None:
            t.logins.failed(key, address, now)
            raise ApiError(401, "bad_login", "wrong name or password")
        t.logins.succeeded(key, address)
        # What this browser did before logging in (anonymously) is not lost: it joins the account.
        merged = await t.store.merge_into(player, who.id) if player is not None else {"games": 0, "plays": 0, "storms": 0}
        return {"player": {"id": who.id, "name": who.name}, "merged": merged, "_cookie": t.signer.sign(who.id, now)}

    async def logout(request: Request, t: Trainer, player: str | None) -> dict[str, Any]:
        await body_of(request)
        return {"ok": True, "_logout": True}

    return [
        Route("/api/puzzles/daily", endpoint(daily, create=True)),
        Route("/api/puzzles/archive", endpoint(archive)),
        Route("/api/puzzles/next", endpoint(next_puzzle, create=True, limit=_puzzles)),
        Route("/api/puzzles/{puzzle_id}/hint", endpoint(post_hint), methods=["POST"]),
        Route("/api/puzzles/{puzzle_id}/attempt", endpoint(post_attempt), methods=["POST"]),
        Route("/api/puzzles/{game}/{code}", endpoint(by_code, create=True, limit=_puzzles)),
        Route("/api/trainer/me", endpoint(me)),
        Route("/api/trainer/history", endpoint(history)),
        Route("/api/trainer/streak", endpoint(streak, create=True), methods=["POST"]),
        Route("/api/trainer/claim", endpoint(claim, create=True), methods=["POST"]),
        Route("/api/trainer/login", endpoint(login), methods=["POST"]),
        Route("/api/trainer/logout", endpoint(logout), methods=["POST"]),
        Route("/api/trainer/leaderboard", endpoint(leaderboard)),
        *storm_routes(),
    ]


def _puzzles(t: Trainer) -> Buckets:
    """The rate limit of requests that may need the solver (a puzzle next, by code, a storm)."""
    return t.puzzle_requests

