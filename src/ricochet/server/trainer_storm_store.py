"""Puzzle Storm's tables (migration ``0006_trainer_storm``) and their queries: each run's
score and clock (:class:`ricochet.trainer.storm.Run`), the puzzles it served and how each
was answered, the best score of each player, and the puzzles a new run may draw."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncEngine

from ..trainer.storm import Run
from .trainer_store import TrainerStore, players, plays, puzzles, storm_puzzles, storms

__all__ = ["StormRecord", "StormStore"]

@dataclass(frozen=True)
class StormRecord:
    """A stored run: whose, of which game, its :class:`Run`, how many puzzles it served, and
    when it ended (``None`` until the server saw its clock run out or it was stopped)."""

    id: str
    player_id: str
    game: str
    run: Run
    served: int
    ended: float | None


def _record(row: Any) -> StormRecord:
    return StormRecord(row.id, row.player_id, row.game,
                       Run(row.started, row.deadline, row.score, row.combo, row.best_combo, row.mistakes),
                       row.served, row.ended)


class StormStore:
    """Queries of Puzzle Storm's tables on the server's engine."""

    def __init__(self, engine: AsyncEngine, trainer_store: TrainerStore) -> None:
        self.engine = engine
        self.puzzles = trainer_store

    async def add(self, storm_id: str, player_id: str, game: str, run: Run) -> None:
        async with self.engine.begin() as conn:
            await conn.execute(storms.insert().values(
                id=storm_id, player_id=player_id, game=game, started=run.started, deadline=run.deadline,
                score=run.score, combo=run.combo, best_combo=run.best_combo, mistakes=run.mistakes, served=0))

    async def get(self, storm_id: str) -> StormRecord | None:
        async with self.engine.connect() as conn:
            row = (await conn.execute(storms.select().where(storms.c.id == storm_id))).first()
        return _record(row) if row else None

    async def save(self, storm_id: str, run: Run, *, ended: float | None = None) -> None:
        values: dict[str, Any] = {"deadline": run.deadline, "score": run.score, "combo": run.combo,
                                  "best_combo": run.best_combo, "mistakes": run.mistakes}
        if ended is not None:
            values["ended"] = ended
        async with self.engine.begin() as conn:
            await conn.execute(storms.update().where(storms.c.id == storm_id).values(**values))

    async def open_runs(self, player_id: str, game: str) -> list[StormRecord]:
        """The player's runs of ``game`` not marked ended (their clocks may have run out since)."""
        async with self.engine.connect() as conn:
            rows = await conn.execute(storms.select().where(storms.c.player_id == player_id, storms.c.game == game,
                                                            storms.c.ended.is_(None)))
            return [_record(r) for r in rows]

    # -- the puzzles of a run -------------------------------------------------------------------------
    async def serve(self, storm_id: str, idx: int, puzzle_id: str, at: float) -> None:
        """Puzzle ``idx`` of the run is ``puzzle_id``, on the clock from ``at``."""
        async with self.engine.begin() as conn:
            await conn.execute(storm_puzzles.insert().values(storm_id=storm_id, idx=idx, puzzle_id=puzzle_id,
                                                             served=at))
            await conn.execute(storms.update().where(storms.c.id == storm_id).values(served=idx + 1))

    async def current(self, storm_id: str) -> tuple[int, str] | None:
        """The run's puzzle waiting for an answer (its index and id), if any."""
        async with self.engine.connect() as conn:
            row = (await conn.execute(sa.select(storm_puzzles.c.idx, storm_puzzles.c.puzzle_id)
                                      .where(storm_puzzles.c.storm_id == storm_id, storm_puzzles.c.answered.is_(None))
                                      .order_by(storm_puzzles.c.idx).limit(1))).first()
        return (int(row.idx), str(row.puzzle_id)) if row else None

    async def answered(self, storm_id: str, idx: int, result: str, length: int, at: float) -> None:
        async with self.engine.begin() as conn:
            await conn.execute(storm_puzzles.update().where(storm_puzzles.c.storm_id == storm_id,
                                                            storm_puzzles.c.idx == idx)
                               .values(result=result, length=length, answered=at))

    async def review(self, storm_id: str) -> list[dict[str, Any]]:
        """The run's puzzles in order: ``{"index", "puzzle", "game", "code", "optimal", "result", "length"}``
        (``result`` ``None``: not answered)."""
        q = (sa.select(storm_puzzles.c.idx, storm_puzzles.c.result, storm_puzzles.c.length, puzzles.c.id,
                       puzzles.c.game, puzzles.c.code, puzzles.c.optimal)
             .select_from(storm_puzzles.join(puzzles, puzzles.c.id == storm_puzzles.c.puzzle_id))
             .where(storm_puzzles.c.storm_id == storm_id).order_by(storm_puzzles.c.idx))
        async with self.engine.connect() as conn:
            rows = list(await conn.execute(q))
        return [{"index": r.idx + 1, "puzzle": r.id, "game": r.game, "code": r.code, "optimal": r.optimal,
                 "result": r.result, "length": r.length} for r in rows]

    async def pick(self, player_id: str, game: str, storm_id: str, length: int) -> Any:
        """A stored puzzle of ``game`` and optimal ``length`` for the run: never one it served
        already nor a daily puzzle; first those the player never saw (in a run or elsewhere),
        then at random.  ``None`` when there is none."""
        mine = sa.select(storms.c.id).where(storms.c.player_id == player_id)
        in_run = sa.select(storm_puzzles.c.puzzle_id).where(storm_puzzles.c.storm_id == storm_id)
        seen = sa.union(sa.select(storm_puzzles.c.puzzle_id).where(storm_puzzles.c.storm_id.in_(mine)),
                        sa.select(plays.c.puzzle_id).where(plays.c.player_id == player_id))
        q = (puzzles.select().where(puzzles.c.game == game, puzzles.c.optimal == length,
                                    puzzles.c.source != "daily", puzzles.c.id.not_in(in_run))
             .order_by(sa.case((puzzles.c.id.in_(seen), 1), else_=0), sa.func.random()).limit(1))
        async with self.engine.connect() as conn:
            row = (await conn.execute(q)).first()
        return self.puzzles._stored(row) if row else None

    # -- scores ---------------------------------------------------------------------------------------
    async def bests(self, player_id: str) -> dict[str, dict[str, int]]:
        """The player's best score and number of runs, by game."""
        q = (sa.select(storms.c.game, sa.func.max(storms.c.score), sa.func.count())
             .where(storms.c.player_id == player_id).group_by(storms.c.game))
        async with self.engine.connect() as conn:
            return {r[0]: {"best": int(r[1] or 0), "runs": int(r[2])} for r in await conn.execute(q)}

    async def best(self, player_id: str, game: str, exclude: str | None = None) -> int:
        """The player's best score in ``game`` (0 before a first run), ``exclude``'s run aside."""
        q = sa.select(sa.func.max(storms.c.score)).where(storms.c.player_id == player_id, storms.c.game == game)
        if exclude is not None:
            q = q.where(storms.c.id != exclude)
        async with self.engine.connect() as conn:
            n = await conn.scalar(q)
        return int(n or 0)

    async def leaders(self, game: str, limit: int) -> list[tuple[str, int]]:
        """The best scores of claimed players (name, best), highest first (a tie: the name)."""
        best = sa.func.max(storms.c.score).label("best")
        q = (sa.select(players.c.name, best)
             .select_from(storms.join(players, players.c.id == storms.c.player_id))
             .where(storms.c.game == game, players.c.name.is_not(None), storms.c.score > 0)
             .group_by(players.c.id, players.c.name).order_by(best.desc(), players.c.name).limit(limit))
        async with self.engine.connect() as conn:
            return [(str(r.name), int(r.best)) for r in await conn.execute(q)]

    async def above(self, game: str, score: int) -> int:
        """How many claimed players have a best score above ``score``."""
        per_player = (sa.select(sa.func.max(storms.c.score).label("best"))
                      .select_from(storms.join(players, players.c.id == storms.c.player_id))
                      .where(storms.c.game == game, players.c.name.is_not(None))
                      .group_by(players.c.id).subquery())
        async with self.engine.connect() as conn:
            n = await conn.scalar(sa.select(sa.func.count()).select_from(per_player).where(per_player.c.best > score))
        return int(n or 0)
