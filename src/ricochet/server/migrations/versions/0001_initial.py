"""Initial schema: rooms, their append-only event log, seats and chat.

Revision ID: 0001
Revises:
Create Date: 2024-06-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "rooms",
        sa.Column("id", sa.String(16), primary_key=True),
        sa.Column("name", sa.String(80), nullable=False),
        sa.Column("options", sa.JSON, nullable=False),
        sa.Column("private", sa.Boolean, nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("game", sa.Integer, nullable=False),
        sa.Column("seed", sa.BigInteger, nullable=False),
        sa.Column("created", sa.Float, nullable=False),
        sa.Column("updated", sa.Float, nullable=False),
    )
    op.create_index("ix_rooms_status", "rooms", ["status"])
    op.create_table(
        "events",
        sa.Column("room_id", sa.String(16), sa.ForeignKey("rooms.id"), primary_key=True),
        sa.Column("seq", sa.Integer, primary_key=True, autoincrement=False),
        sa.Column("game", sa.Integer, nullable=False),
        sa.Column("type", sa.String(32), nullable=False),
        sa.Column("payload", sa.JSON, nullable=False),
        sa.Column("at", sa.Float, nullable=False),
    )
    op.create_table(
        "seats",
        sa.Column("room_id", sa.String(16), sa.ForeignKey("rooms.id"), primary_key=True),
        sa.Column("player_id", sa.String(16), primary_key=True),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("token_hash", sa.String(64), nullable=False),
        sa.Column("bot", sa.Boolean, nullable=False),
        sa.Column("level", sa.String(16), nullable=True),
        sa.Column("created", sa.Float, nullable=False),
    )
    op.create_index("ix_seats_token", "seats", ["room_id", "token_hash"], unique=True)
    op.create_table(
        "chat",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("room_id", sa.String(16), sa.ForeignKey("rooms.id"), nullable=False),
        sa.Column("player_id", sa.String(16), nullable=True),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("text", sa.Text, nullable=False),
        sa.Column("at", sa.Float, nullable=False),
    )
    op.create_index("ix_chat_room", "chat", ["room_id", "id"])


def downgrade() -> None:
    op.drop_table("chat")
    op.drop_table("seats")
    op.drop_table("events")
    op.drop_table("rooms")
