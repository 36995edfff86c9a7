"""The trainer's Puzzle Storm (runs and the puzzles of each run), and an index for the
leaderboard of dailies solved optimally.

Revision ID: 0006
Revises: 0005
Create Date: 2026-12-14
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "trainer_storms",
        sa.Column("id", sa.String(16), primary_key=True),
        sa.Column("player_id", sa.String(24), sa.ForeignKey("trainer_players.id"), nullable=False),
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
    op.create_index("ix_trainer_storms_player", "trainer_storms", ["player_id", "game", "score"])
    op.create_index("ix_trainer_storms_game", "trainer_storms", ["game", "score"])
    op.create_table(
        "trainer_storm_puzzles",
        sa.Column("storm_id", sa.String(16), sa.ForeignKey("trainer_storms.id"), primary_key=True),
        sa.Column("idx", sa.Integer, primary_key=True),
        sa.Column("puzzle_id", sa.String(16), sa.ForeignKey("trainer_puzzles.id"), nullable=False),
        sa.Column("served", sa.Float, nullable=False),
        sa.Column("result", sa.String(8), nullable=True),
        sa.Column("length", sa.Integer, nullable=True),
        sa.Column("answered", sa.Float, nullable=True),
    )
    op.create_index("ix_trainer_storm_puzzles_puzzle", "trainer_storm_puzzles", ["puzzle_id"])
    op.create_index("ix_trainer_plays_board", "trainer_plays", ["game", "mode", "result"])


def downgrade() -> None:
    op.drop_index("ix_trainer_plays_board", "trainer_plays")
    op.drop_table("trainer_storm_puzzles")
    op.drop_table("trainer_storms")
