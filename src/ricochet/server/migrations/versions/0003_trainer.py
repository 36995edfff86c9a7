"""Solo training: players (optional name and argon2 hash), per-game ratings and
their history, stored puzzles with optimal solutions, the daily puzzle cache,
and each player's plays.

Revision ID: 0003
Revises: 0002
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "trainer_players",
        sa.Column("id", sa.String(24), primary_key=True),
        sa.Column("name", sa.String(32), nullable=True),
        sa.Column("name_key", sa.String(32), nullable=True, unique=True),
        sa.Column("password_hash", sa.String(255), nullable=True),
        sa.Column("created", sa.Float, nullable=False),
    )
    op.create_table(
        "trainer_profiles",
        sa.Column("player_id", sa.String(24), sa.ForeignKey("trainer_players.id"), primary_key=True),
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
    op.create_table(
        "trainer_history",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("player_id", sa.String(24), sa.ForeignKey("trainer_players.id"), nullable=False),
        sa.Column("game", sa.String(32), nullable=False),
        sa.Column("puzzle_id", sa.String(16), nullable=False),
        sa.Column("rating", sa.Float, nullable=False),
        sa.Column("rd", sa.Float, nullable=False),
        sa.Column("at", sa.Float, nullable=False),
    )
    op.create_index("ix_trainer_history_player", "trainer_history", ["player_id", "game", "id"])
    op.create_table(
        "trainer_puzzles",
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
    )
    op.create_index("ix_trainer_puzzles_rating", "trainer_puzzles", ["game", "rating"])
    op.create_index("ix_trainer_puzzles_length", "trainer_puzzles", ["game", "optimal"])
    op.create_table(
        "trainer_daily",
        sa.Column("game", sa.String(32), primary_key=True),
        sa.Column("day", sa.String(10), primary_key=True),
        sa.Column("puzzle_id", sa.String(16), sa.ForeignKey("trainer_puzzles.id"), nullable=False),
    )
    op.create_table(
        "trainer_plays",
        sa.Column("player_id", sa.String(24), sa.ForeignKey("trainer_players.id"), primary_key=True),
        sa.Column("puzzle_id", sa.String(16), sa.ForeignKey("trainer_puzzles.id"), primary_key=True),
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
    op.create_index("ix_trainer_plays_pending", "trainer_plays", ["player_id", "game", "mode"])


def downgrade() -> None:
    for table in ("trainer_plays", "trainer_daily", "trainer_puzzles", "trainer_history", "trainer_profiles",
                  "trainer_players"):
        op.drop_table(table)
