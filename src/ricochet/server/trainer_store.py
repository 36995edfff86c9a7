"""The trainer's tables (created by migration ``0003_trainer``) and their queries.

Nothing about people but what the trainer needs: a random id, an optional
name with its argon2 hash, ratings, attempts.  Puzzles are stored with their
optimal solutions; the daily puzzle of each (game, day) is cached here, but
made by :func:`ricochet.trainer.daily.daily_puzzle`, never chosen from the
table, so every database agrees on it.
"""

from __future__ import annotations

import asyncio
import datetime as _dt
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncEngine

from ..trainer.glicko2 import Rating
from ..trainer.puzzles import TrainerPuzzle, load
from ..trainer.scoring import Streak
from ..trainer.themes import packed, themes, unpacked

metadata = sa.MetaData()
players = sa.Table(
    "trainer_players", metadata,
    sa.Column("id", sa.String(24), primary_key=True),
    sa.Column("name", sa.String(32), nullable=True),
    sa.Column("name_key", sa.String(32), nullable=True, unique=True),
    sa.Column("password_hash", sa.String(255), nullable=True),
    sa.Column("created", sa.Float, nullable=False),
)
profiles = sa.Table(
    "trainer_profiles", metadata,
    sa.Column("player_id", sa.String(24), primary_key=True),
    sa.Column("game", sa.String(32), primary_key=True),
    sa.Column("rating", sa.Float, nullable=False),
    sa.Column("rd", sa.Float, nullable=False),
    sa.Column("volatility", sa.Float, nullable=False),
    sa.Column("attempts", sa.Integer, nullable=False),
    sa.Column("streak_current", sa.Integer, nullable=True),
    sa.Column("streak_best", sa.Integer, nullable=False),
    sa.Column("streak_puzzle", sa.String(16), nullable=True),
    sa.Column("updated", sa.Float, nullable=False),
)
history = sa.Table(
    "trainer_history", metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("player_id", sa.String(24), nullable=False),
    sa.Column("game", sa.String(32), nullable=False),
    sa.Column("puzzle_id", sa.String(16), nullable=False),
    sa.Column("rating", sa.Float, nullable=False),
    sa.Column("rd", sa.Float, nullable=False),
    sa.Column("at", sa.Float, nullable=False),
)
puzzles = sa.Table(
    "trainer_puzzles", metadata,
    sa.Column("id", sa.String(16), primary_key=True),
    sa.Column("game", sa.String(32), nullable=False),
    sa.Column("style", sa.String(16), nullable=False),
    sa.Column("code", sa.Text, nullable=False),
    sa.Column("optimal", sa.Integer, nullable=False),
    sa.Column("solution", sa.JSON, nullable=False),
    sa.Column("data", sa.JSON, nullable=False),
    sa.Column("display", sa.JSON, nullable=False),
    sa.Column("rating", sa.Float, nullable=False),
    sa.Column("rd", sa.Float, nullable=False),
    sa.Column("volatility", sa.Float, nullable=False),
    sa.Column("plays", sa.Integer, nullable=False),
    sa.Column("source", sa.String(16), nullable=False),
    sa.Column("created", sa.Float, nullable=False),
    sa.Column("themes", sa.Text, nullable=True),  # "|theme|theme|" (migration 0004)
)
daily = sa.Table(
    "trainer_daily", metadata,
    sa.Column("game", sa.String(32), primary_key=True),
    sa.Column("day", sa.String(10), primary_key=True),
    sa.Column("puzzle_id", sa.String(16), nullable=False),
)
plays = sa.Table(
    "trainer_plays", metadata,
    sa.Column("player_id", sa.String(24), primary_key=True),
    sa.Column("puzzle_id", sa.String(16), primary_key=True),
    sa.Column("game", sa.String(32), nullable=False),
    sa.Column("mode", sa.String(8), nullable=False),
    sa.Column("hints", sa.Integer, nullable=False),
    sa.Column("result", sa.String(8), nullable=True),
    sa.Column("length", sa.Integer, nullable=True),
    sa.Column("score", sa.Float, nullable=True),
    sa.Column("rating_before", sa.Float, nullable=True),
    sa.Column("rating_after", sa.Float, nullable=True),
    sa.Column("attempts", sa.Integer, nullable=False),
    sa.Column("started", sa.Float, nullable=False),
    sa.Column("finished", sa.Float, nullable=True),
)

storms = sa.Table(
    "trainer_storms", metadata,
    sa.Column("id", sa.String(16), primary_key=True),
    sa.Column("player_id", sa.String(24), nullable=False),
    sa.Column("game", sa.String(32), nullable=False),
    sa.Column("started", sa.Float, nullable=False),
    sa.Column("deadline", sa.Float, nullable=False),
    sa.Column("score", sa.Integer, nullable=False),
    sa.Column("combo", sa.Integer, nullable=False),
    sa.Column("best_combo", sa.Integer, nullable=False),
    sa.Column("mistakes", sa.Integer, nullable=False),
    sa.Column("served", sa.Integer, nullable=False),
    sa.Column("ended", sa.Float, nullable=True),
)
storm_puzzles = sa.Table(
    "trainer_storm_puzzles", metadata,
    sa.Column("storm_id", sa.String(16), primary_key=True),
    sa.Column("idx", sa.Integer, primary_key=True),
    sa.Column("puzzle_id", sa.String(16), nullable=False),
    sa.Column("served", sa.Float, nullable=False),
    sa.Column("result", sa.String(8), nullable=True),
    sa.Column("length", sa.Integer, nullable=True),
    sa.Column("answered", sa.Float, nullable=True),
)


@dataclass(frozen=True)
class Player:
    id: str
    name: str | None
    password_hash: str | None


@dataclass(frozen=True)
class Profile:
    """A player's standing in one game."""

    rating: Rating
    attempts: int
    streak: Streak

    def to_dict(self) -> dict[str, Any]:
        return {"rating": round(self.rating.rating, 1), "rd": round(self.rating.rd, 1), "attempts": self.attempts,
                "streak": {"current": self.streak.current, "best": self.streak.best}}


NEW_PROFILE = Profile(Rating(), 0, Streak())


@dataclass(frozen=True)
class Play:
    """One player's play of one puzzle: hints asked, the first attempt's outcome."""

    mode: str
    hints: int
    result: str | None
    length: int | None
    score: float | None
    rating_before: float | None
    rating_after: float | None
    attempts: int

    @property
    def done(self) -> bool:
        return self.result is not None


@dataclass(frozen=True)
class StoredPuzzle:
    puzzle: TrainerPuzzle
    rating: Rating
    plays: int
    source: str
    themes: tuple[str, ...] = ()


class TrainerStore:
    """Queries of the trainer's tables on the server's engine."""

    def __init__(self, engine: AsyncEngine) -> None:
        self.engine = engine

    # -- players ------------------------------------------------------------------------------------
    async def add_player(self, player_id: str, at: float) -> None:
        async with self.engine.begin() as conn:
            await conn.execute(players.insert().values(id=player_id, created=at))

    async def player(self, player_id: str) -> Player | None:
        async with self.engine.connect() as conn:
            row = (await conn.execute(players.select().where(players.c.id == player_id))).first()
        return Player(row.id, row.name, row.password_hash) if row else None

    async def player_by_name(self, name_key: str) -> Player | None:
        async with self.engine.connect() as conn:
            row = (await conn.execute(players.select().where(players.c.name_key == name_key))).first()
        return Player(row.id, row.name, row.password_hash) if row else None

    async def claim(self, player_id: str, name: str, name_key: str, password_hash: str) -> bool:
        """Give an unnamed player a name; False when the name is taken (or the player already has one)."""
        try:
            async with self.engine.begin() as conn:
                result = await conn.execute(players.update().where(players.c.id == player_id,
                                                                   players.c.name_key.is_(None))
                                            .values(name=name, name_key=name_key, password_hash=password_hash))
                return bool(result.rowcount)
        except sa.exc.IntegrityError:
            return False

    async def merge_into(self, anonymous_id: str, player_id: str) -> dict[str, int]:
        """What an anonymous player did before logging in goes to the account ``player_id``:
        the games the account never trained in (rating, streak and history as they are), and
        the plays of puzzles the account has not played (so a daily puzzle solved before
        logging in counts as played).  Where both trained in a game the account's rating
        stays (two rating histories cannot be joined).  The anonymous player is then deleted.
        Puzzle Storm's runs all go to the account.  Nothing happens when ``anonymous_id``
        has a name or is the account itself."""
        if anonymous_id == player_id:
            return {"games": 0, "plays": 0, "storms": 0}
        async with self.engine.begin() as conn:
            row = (await conn.execute(players.select().where(players.c.id == anonymous_id))).first()
            if row is None or row.name_key is not None:
                return {"games": 0, "plays": 0, "storms": 0}
            own = set((await conn.execute(sa.select(profiles.c.game)
                                          .where(profiles.c.player_id == player_id))).scalars())
            theirs = set((await conn.execute(sa.select(profiles.c.game)
                                             .where(profiles.c.player_id == anonymous_id))).scalars())
            games = sorted(theirs - own)
            if games:
                await conn.execute(profiles.update().where(profiles.c.player_id == anonymous_id,
                                                           profiles.c.game.in_(games)).values(player_id=player_id))
                await conn.execute(history.update().where(history.c.player_id == anonymous_id,
                                                          history.c.game.in_(games)).values(player_id=player_id))
            # A puzzle the account was served but never attempted, which this browser did attempt:
            # the attempt wins (opening a puzzle records it as served).
            done_here = sa.select(plays.c.puzzle_id).where(plays.c.player_id == anonymous_id,
                                                           plays.c.result.is_not(None))
            await conn.execute(plays.delete().where(plays.c.player_id == player_id, plays.c.result.is_(None),
                                                    plays.c.puzzle_id.in_(done_here)))
            played = sa.select(plays.c.puzzle_id).where(plays.c.player_id == player_id)
            moved = await conn.execute(plays.update().where(plays.c.player_id == anonymous_id,
                                                            plays.c.puzzle_id.not_in(played))
                                       .values(player_id=player_id))
            # Puzzle Storm's runs all come along: a best score is the best of every run.
            runs = await conn.execute(storms.update().where(storms.c.player_id == anonymous_id)
                                      .values(player_id=player_id))
            for table in (plays, history, profiles):
                await conn.execute(table.delete().where(table.c.player_id == anonymous_id))
            await conn.execute(players.delete().where(players.c.id == anonymous_id))
            return {"games": len(games), "plays": int(moved.rowcount or 0), "storms": int(runs.rowcount or 0)}

    # -- profiles -----------------------------------------------------------------------------------
    async def profile(self, player_id: str, game: str) -> Profile:
        async with self.engine.connect() as conn:
            row = (await conn.execute(profiles.select().where(profiles.c.player_id == player_id,
                                                              profiles.c.game == game))).first()
        if row is None:
            return NEW_PROFILE
        return Profile(Rating(row.rating, row.rd, row.volatility), row.attempts,
                       Streak(row.streak_current, row.streak_best, row.streak_puzzle))

    async def profiles(self, player_id: str) -> dict[str, Profile]:
        async with self.engine.connect() as conn:
            rows = await conn.execute(profiles.select().where(profiles.c.player_id == player_id))
            return {r.game: Profile(Rating(r.rating, r.rd, r.volatility), r.attempts,
                                    Streak(r.streak_current, r.streak_best, r.streak_puzzle)) for r in rows}

    async def save_profile(self, conn: Any, player_id: str, game: str, p: Profile, at: float) -> None:
        values = {"rating": p.rating.rating, "rd": p.rating.rd, "volatility": p.rating.volatility,
                  "attempts": p.attempts, "streak_current": p.streak.current, "streak_best": p.streak.best,
                  "streak_puzzle": p.streak.puzzle, "updated": at}
        result = await conn.execute(profiles.update().where(profiles.c.player_id == player_id,
                                                            profiles.c.game == game).values(**values))
        if not result.rowcount:
            await conn.execute(profiles.insert().values(player_id=player_id, game=game, **values))

    async def set_profile(self, player_id: str, game: str, p: Profile, at: float) -> None:
        async with self.engine.begin() as conn:
            await self.save_profile(conn, player_id, game, p, at)

    async def history(self, player_id: str, game: str, limit: int = 500) -> list[dict[str, Any]]:
        """The player's rating after each rated attempt, oldest first (the last ``limit``): ``at``
        in seconds since 1970 (UTC), ``time`` the same as ISO 8601 (for a chart's time axis)."""
        async with self.engine.connect() as conn:
            rows = list(await conn.execute(history.select().where(history.c.player_id == player_id,
                                                                  history.c.game == game)
                                           .order_by(history.c.id.desc()).limit(limit)))
        return [{"at": r.at, "time": _dt.datetime.fromtimestamp(r.at, _dt.UTC).isoformat(timespec="seconds"),
                 "rating": round(r.rating, 1), "rd": round(r.rd, 1), "puzzle": r.puzzle_id} for r in reversed(rows)]

    # -- puzzles --------------------------------------------------------------------------------------
    @staticmethod
    def _stored(row: Any) -> StoredPuzzle:
        tp = load(row._mapping)
        return StoredPuzzle(tp, Rating(row.rating, row.rd, row.volatility), row.plays, row.source,
                            tuple(unpacked(row.themes)))

    async def add_puzzle(self, tp: TrainerPuzzle, rating: Rating, source: str, at: float) -> StoredPuzzle:
        """Store a puzzle (a puzzle already there, by id, is kept as it is)."""
        existing = await self.puzzle(tp.id)
        if existing is not None:
            return existing
        try:
            async with self.engine.begin() as conn:
                await conn.execute(puzzles.insert().values(
                    id=tp.id, game=tp.game, style=tp.style, code=tp.code, optimal=tp.optimal,
                    solution=[list(m) for m in tp.solution], data=dict(tp.data), display=dict(tp.display),
                    rating=rating.rating, rd=rating.rd, volatility=rating.volatility, plays=0, source=source,
                    created=at, themes=packed(themes(tp))))
        except sa.exc.IntegrityError:  # made at the same moment by another request
            pass
        stored = await self.puzzle(tp.id)
        assert stored is not None
        return stored

    async def puzzle(self, puzzle_id: str) -> StoredPuzzle | None:
        async with self.engine.connect() as conn:
            row = (await conn.execute(puzzles.select().where(puzzles.c.id == puzzle_id))).first()
        return self._stored(row) if row else None

    async def nearest_unplayed(self, player_id: str, game: str, rating: float, *, length: int | None = None,
                               style: str | None = None, theme: str | None = None,
                               exclude_sources: tuple[str, ...] = ("daily",)) -> StoredPuzzle | None:
        """The stored puzzle nearest ``rating`` that the player never played (of ``length``,
        ``style`` and with ``theme`` if given; a theme is one of :func:`~ricochet.trainer.themes.theme_names`),
        nor saw in a Puzzle Storm (which told its optimal length)."""
        played = sa.union(sa.select(plays.c.puzzle_id).where(plays.c.player_id == player_id),
                          sa.select(storm_puzzles.c.puzzle_id).where(storm_puzzles.c.storm_id.in_(
                              sa.select(storms.c.id).where(storms.c.player_id == player_id))))
        q = puzzles.select().where(puzzles.c.game == game, puzzles.c.id.not_in(played),
                                   puzzles.c.source.not_in(exclude_sources))
        if length is not None:
            q = q.where(puzzles.c.optimal == length)
        if style is not None:
            q = q.where(puzzles.c.style == style)
        if theme is not None:
            q = q.where(puzzles.c.themes.like(f"%|{theme}|%"))
        q = q.order_by(sa.func.abs(puzzles.c.rating - rating), puzzles.c.id).limit(1)
        async with self.engine.connect() as conn:
            row = (await conn.execute(q)).first()
        return self._stored(row) if row else None

    async def fill_themes(self, limit: int = 5000) -> int:
        """Themes for puzzles stored before they were computed (migration 0004); how many were filled."""
        async with self.engine.connect() as conn:
            rows = list(await conn.execute(puzzles.select().where(puzzles.c.themes.is_(None)).limit(limit)))
        def tags_of(row: Any) -> str:
            return packed(themes(load(row._mapping)))

        for row in rows:
            tags = await asyncio.to_thread(tags_of, row)
            async with self.engine.begin() as conn:
                await conn.execute(puzzles.update().where(puzzles.c.id == row.id).values(themes=tags))
        return len(rows)

    async def count_puzzles(self, game: str, length: int, source: str | None = None) -> int:
        """Stored puzzles of that game and optimal length (from ``source`` only, if given)."""
        q = sa.select(sa.func.count()).select_from(puzzles).where(puzzles.c.game == game, puzzles.c.optimal == length)
        if source is not None:
            q = q.where(puzzles.c.source == source)
        async with self.engine.connect() as conn:
            n = await conn.scalar(q)
        return int(n or 0)

    # -- the daily puzzle --------------------------------------------------------------------------------
    async def daily(self, game: str, day: str) -> str | None:
        async with self.engine.connect() as conn:
            return await conn.scalar(sa.select(daily.c.puzzle_id).where(daily.c.game == game, daily.c.day == day))

    async def set_daily(self, game: str, day: str, puzzle_id: str) -> None:
        try:
            async with self.engine.begin() as conn:
                await conn.execute(daily.insert().values(game=game, day=day, puzzle_id=puzzle_id))
        except sa.exc.IntegrityError:  # cached at the same moment by another request: the same puzzle
            pass

    async def daily_days(self, puzzle_id: str) -> str | None:
        """The day a puzzle was the puzzle of the day (``None``: never)."""
        async with self.engine.connect() as conn:
            return await conn.scalar(sa.select(daily.c.day).where(daily.c.puzzle_id == puzzle_id)
                                     .order_by(daily.c.day).limit(1))

    # -- plays --------------------------------------------------------------------------------------------
    async def play(self, player_id: str, puzzle_id: str) -> Play | None:
        async with self.engine.connect() as conn:
            row = (await conn.execute(plays.select().where(plays.c.player_id == player_id,
                                                           plays.c.puzzle_id == puzzle_id))).first()
        if row is None:
            return None
        return Play(row.mode, row.hints, row.result, row.length, row.score, row.rating_before, row.rating_after,
                    row.attempts)

    async def start_play(self, player_id: str, puzzle_id: str, game: str, mode: str, at: float) -> Play:
        existing = await self.play(player_id, puzzle_id)
        if existing is not None:
            return existing
        try:
            async with self.engine.begin() as conn:
                await conn.execute(plays.insert().values(player_id=player_id, puzzle_id=puzzle_id, game=game,
                                                         mode=mode, hints=0, attempts=0, started=at))
        except sa.exc.IntegrityError:
            pass
        play = await self.play(player_id, puzzle_id)
        assert play is not None
        return play

    async def set_hints(self, player_id: str, puzzle_id: str, level: int) -> None:
        async with self.engine.begin() as conn:
            await conn.execute(plays.update().where(plays.c.player_id == player_id, plays.c.puzzle_id == puzzle_id,
                                                    plays.c.hints < level).values(hints=level))

    async def pending(self, player_id: str, game: str, mode: str) -> str | None:
        """A puzzle served in that mode and not attempted yet (served again rather than skipped)."""
        async with self.engine.connect() as conn:
            return await conn.scalar(sa.select(plays.c.puzzle_id).where(
                plays.c.player_id == player_id, plays.c.game == game, plays.c.mode == mode,
                plays.c.result.is_(None)).order_by(plays.c.started).limit(1))

    async def record_attempt(self, player_id: str, game: str, puzzle_id: str, first: Mapping[str, Any] | None,
                             profile: Profile | None, puzzle_rating: Rating | None, at: float) -> None:
        """One attempt in one transaction: the play's outcome (``first``: the first attempt's
        fields), the player's new profile, the rating point for the chart, the puzzle's new rating."""
        async with self.engine.begin() as conn:
            where = (plays.c.player_id == player_id, plays.c.puzzle_id == puzzle_id)
            await conn.execute(plays.update().where(*where).values(attempts=plays.c.attempts + 1))
            if first is not None:
                await conn.execute(plays.update().where(*where).values(finished=at, **first))
            if profile is not None:
                await self.save_profile(conn, player_id, game, profile, at)
                if first is not None and first.get("rating_after") is not None:
                    await conn.execute(history.insert().values(player_id=player_id, game=game, puzzle_id=puzzle_id,
                                                               rating=profile.rating.rating, rd=profile.rating.rd,
                                                               at=at))
            if puzzle_rating is not None:
                await conn.execute(puzzles.update().where(puzzles.c.id == puzzle_id).values(
                    rating=puzzle_rating.rating, rd=puzzle_rating.rd, volatility=puzzle_rating.volatility,
                    plays=puzzles.c.plays + 1))
