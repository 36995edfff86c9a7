"""Puzzle Storm on the server (``docs/protocol.md``, section 9): the server serves a run's
puzzles one at a time, checks each answer with the engine, runs the clock by its own time
(:attr:`Trainer.now`) and refuses answers once it ran out; the browser only shows it.

A run's puzzles rise in length (:func:`ricochet.trainer.storm.storm_length`); each is a
stored puzzle of that length the player never saw if there is one, else made in the
solver worker.  While the player works on one, the next is chosen (and made if needed)
in the background; whatever time the server still spends waiting for it is given back to
the clock.  Storm answers never move a rating, and a puzzle seen in a run is never served
to that player as a rated one (the run told its optimal length).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
from typing import TYPE_CHECKING, Any

from starlette.requests import Request
from starlette.routing import Route

from ..errors import RicochetError
from ..trainer.puzzles import check_attempt, check_spec
from ..trainer.storm import MAX_PUZZLES, SECONDS, Run, storm_length
from .trainer_http import ApiError, body_of, endpoint
from .trainer_store import StoredPuzzle
from .trainer_storm_store import StormRecord, StormStore

if TYPE_CHECKING:
    from .trainer_api import Trainer

__all__ = ["Storms", "storm_routes"]

log = logging.getLogger("ricochet.server")


def _no_storm(storm_id: object) -> ApiError:
    return ApiError(404, "no_storm", f"there is no storm {storm_id!r} of yours; start one with POST /api/storm/start")


def _retrieved(task: asyncio.Task[Any]) -> None:
    # A next puzzle nobody waits for any more (the run ended) may have failed: nothing to report.
    if not task.cancelled():
        task.exception()


class Storms:
    """Puzzle Storm's runs (one instance per trainer)."""

    def __init__(self, trainer: Trainer) -> None:
        self.trainer = trainer
        self.store = StormStore(trainer.store.engine, trainer.store)
        self._next: dict[str, asyncio.Task[StoredPuzzle | None]] = {}

    # -- choosing puzzles ------------------------------------------------------------------------------
    async def _choose(self, player: str, game: str, storm_id: str, idx: int) -> StoredPuzzle | None:
        """Puzzle ``idx`` of the run: a stored one of its length, else a new one (made in the
        worker), else a stored one a move shorter… (never ``None`` unless nothing can be had)."""
        t = self.trainer
        length = storm_length(game, idx)
        sp = await self.store.pick(player, game, storm_id, length)
        if sp is not None:
            return sp  # type: ignore[no-any-return]
        tp = await t._make(game, length, None, secrets.token_hex(8))
        if tp is not None:
            return await t._store_new(tp, "storm")
        for shorter in range(length - 1, storm_length(game, 0) - 1, -1):
            sp = await self.store.pick(player, game, storm_id, shorter)
            if sp is not None:
                return sp  # type: ignore[no-any-return]
        return None

    def _prefetch(self, player: str, game: str, storm_id: str, idx: int) -> None:
        """Choose puzzle ``idx`` in the background, while the player works on the one before."""
        old = self._next.pop(storm_id, None)
        if old is not None:
            old.cancel()
        if len(self._next) > 1000:  # runs abandoned mid-way: forget their next puzzle
            for key in [k for k, task in self._next.items() if task.done()]:
                del self._next[key]
        task = asyncio.ensure_future(self._choose(player, game, storm_id, idx))
        self.trainer._tasks.add(task)
        task.add_done_callback(self.trainer._tasks.discard)
        task.add_done_callback(_retrieved)
        self._next[storm_id] = task

    async def _next_puzzle(self, player: str, game: str, storm_id: str, idx: int) -> StoredPuzzle | None:
        task = self._next.pop(storm_id, None)
        if task is not None and not task.cancelled():
            with contextlib.suppress(Exception):  # chosen ahead in vain (it failed): choose now
                sp = await task
                if sp is not None and (await self.store.current(storm_id)) is None:
                    return sp
        try:
            return await self._choose(player, game, storm_id, idx)
        except (TimeoutError, RicochetError):
            # Not made in time: the storm goes on without a current puzzle; its next request asks again.
            log.warning("storm %s: no puzzle %d could be made in time", storm_id, idx)
            return None

    async def _serve_next(self, rec: StormRecord, run: Run) -> tuple[Run, StoredPuzzle | None]:
        """Serve the run's next puzzle: the clock stops while the server waits for it."""
        t = self.trainer
        waiting = t.now()
        sp = await self._next_puzzle(rec.player_id, rec.game, rec.id, rec.served)
        run = run.credit(t.now() - waiting)
        if sp is None:
            return run, None
        await self.store.serve(rec.id, rec.served, sp.puzzle.id, t.now())
        if rec.served + 1 < MAX_PUZZLES:
            self._prefetch(rec.player_id, rec.game, rec.id, rec.served + 1)
        return run, sp

    # -- what the API answers -----------------------------------------------------------------------------
    async def _state(self, rec: StormRecord, run: Run, over: bool) -> dict[str, Any]:
        now = self.trainer.now()
        before = await self.store.best(rec.player_id, rec.game, exclude=rec.id)
        out: dict[str, Any] = {
            "id": rec.id, "game": rec.game, "over": over, "left": round(0.0 if over else run.left(now), 1),
            "seconds": SECONDS, "score": run.score, "combo": run.combo, "best_combo": run.best_combo,
            "mistakes": run.mistakes, "best": max(before, run.score), "record": over and run.score > before}
        if over:
            out["review"] = [{**p, "url": f"/train/{p['game']}/{p['code']}"} for p in await self.store.review(rec.id)]
        return out

    @staticmethod
    def _puzzle(sp: StoredPuzzle, idx: int) -> dict[str, Any]:
        """A Storm puzzle: the trainer's public form (with its optimal length: no time to guess it)."""
        return {**sp.puzzle.public(), "index": idx + 1}

    async def _mine(self, player: str | None, storm_id: object) -> StormRecord:
        if player is None or not isinstance(storm_id, str) or len(storm_id) != 16:
            raise _no_storm(storm_id)
        rec = await self.store.get(storm_id)
        if rec is None or rec.player_id != player:  # another's run is none of yours: the same answer
            raise _no_storm(storm_id)
        return rec

    async def _end(self, rec: StormRecord, run: Run, at: float) -> None:
        self._next.pop(rec.id, None)
        await self.store.save(rec.id, run, ended=at)

    # -- the three requests ---------------------------------------------------------------------------------
    async def start(self, player: str, game: str) -> dict[str, Any]:
        """A new run (the player's other runs of the game stop where they are)."""
        t = self.trainer
        async with t._lock(player):
            now = t.now()
            for old in await self.store.open_runs(player, game):
                await self._end(old, old.run.end(now), now)
            storm_id = secrets.token_hex(8)
            sp = await self._choose(player, game, storm_id, 0)
            if sp is None:
                raise ApiError(503, "no_puzzle", f"no {game} puzzle could be made in time for a storm; try again")
            run = Run.begin(t.now())  # the clock starts once the first puzzle is there
            await self.store.add(storm_id, player, game, run)
            await self.store.serve(storm_id, 0, sp.puzzle.id, run.started)
            self._prefetch(player, game, storm_id, 1)
            rec = StormRecord(storm_id, player, game, run, 1, None)
            return {"storm": await self._state(rec, run, False), "puzzle": self._puzzle(sp, 0)}

    async def state(self, player: str | None, storm_id: str) -> dict[str, Any]:
        """The run as it stands (its current puzzle, or its review once over)."""
        t = self.trainer
        async with t._lock(player or ""):
            rec = await self._mine(player, storm_id)
            now = t.now()
            run = rec.run
            current = await self.store.current(rec.id)
            over = rec.ended is not None or run.over(now)
            if over and rec.ended is None:
                await self._end(rec, run, now)
            if over or current is None:
                if not over:  # the server failed to serve the next puzzle before: try again
                    run, sp = await self._serve_next(rec, run)
                    await self.store.save(rec.id, run)
                    return {"storm": await self._state(rec, run, False),
                            "puzzle": self._puzzle(sp, rec.served) if sp else None}
                return {"storm": await self._state(rec, run, True), "puzzle": None}
            sp = await t.store.puzzle(current[1])
            assert sp is not None
            return {"storm": await self._state(rec, run, False), "puzzle": self._puzzle(sp, current[0])}

    async def answer(self, player: str | None, storm_id: str, puzzle_id: Any, moves: Any) -> dict[str, Any]:
        """An answer to the run's current puzzle, timed on arrival: right (its optimal
        length) or a mistake; then the next puzzle, or the end of the run."""
        t = self.trainer
        async with t._lock(player or ""):
            rec = await self._mine(player, storm_id)
            now = t.now()
            run = rec.run
            if rec.ended is not None or not run.accepts(now):
                if rec.ended is None:
                    await self._end(rec, run, now)
                raise ApiError(409, "storm_over", "this storm is over: the clock ran out (GET it for its score)")
            current = await self.store.current(rec.id)
            if current is None or current[1] != puzzle_id:
                raise ApiError(409, "not_current", f"puzzle must be the storm's current puzzle "
                                                   f"({current[1] if current else 'none yet'}), got {puzzle_id!r}")
            sp = await t.store.puzzle(current[1])
            assert sp is not None
            verdict = check_attempt(sp.puzzle, moves)  # malformed moves: 400, nothing counted
            correct = verdict.result == "optimal"
            late = run.over(now)  # within the grace: it counts, and the run ends
            after = run.answer(correct, now)
            await self.store.answered(rec.id, current[0], verdict.result, verdict.length, now)
            answer = {"puzzle": current[1], "correct": correct, "result": verdict.result, "length": verdict.length,
                      "optimal": sp.puzzle.optimal, "reason": verdict.reason,
                      "seconds": round(after.deadline - run.deadline, 1)}
            nxt = None
            if late or after.over(now) or rec.served >= MAX_PUZZLES:
                await self._end(rec, after.end(now), now)
                over = True
            else:
                await self.store.save(rec.id, after)  # the answer counts whatever comes next
                after, nxt = await self._serve_next(rec, after)
                await self.store.save(rec.id, after)
                over = False
            return {"answer": answer, "storm": await self._state(rec, after, over),
                    "puzzle": self._puzzle(nxt, rec.served) if nxt is not None else None}


def storm_routes() -> list[Route]:
    """Puzzle Storm's routes (``app.state.trainer.storms`` is the :class:`Storms`)."""

    async def start(request: Request, t: Trainer, player: str) -> dict[str, Any]:
        body = await body_of(request)
        game = body.get("game")
        check_spec(game)
        return await t.storms.start(player, str(game))

    async def state(request: Request, t: Trainer, player: str | None) -> dict[str, Any]:
        return await t.storms.state(player, request.path_params["storm_id"])

    async def answer(request: Request, t: Trainer, player: str | None) -> dict[str, Any]:
        body = await body_of(request)
        for field, what in (("puzzle", "the id of the storm's current puzzle"),
                            ("moves", 'the moves of your solution, like [[0, "N"], [2, "E"]]')):
            if field not in body:
                raise ApiError(400, "bad_request", f"{field} is missing: {what}")
        return await t.storms.answer(player, request.path_params["storm_id"], body["puzzle"], body["moves"])

    return [
        Route("/api/storm/start", endpoint(start, create=True, limit=lambda t: t.puzzle_requests), methods=["POST"]),
        Route("/api/storm/{storm_id}", endpoint(state)),
        Route("/api/storm/{storm_id}/answer", endpoint(answer, limit=lambda t: t.storm_answers), methods=["POST"]),
    ]
