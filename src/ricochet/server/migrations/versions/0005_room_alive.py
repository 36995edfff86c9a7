"""Restarts are not charged to players: each room records when a server holding it was last
known alive (``rooms.alive``, stamped every few seconds and at shutdown), so that a server that
comes back after a crash moves the room's clocks by the time it was away.

Revision ID: 0005
Revises: 0004
Create Date: 2026-11-29
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("rooms") as batch:
        batch.add_column(sa.Column("alive", sa.Float, nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("rooms") as batch:
        batch.drop_column("alive")
