"""One site, several games: each room records its game's name and event-format version.

Rooms made before this revision play Ricochet Robots, version 1.

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-23
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("rooms") as batch:
        batch.add_column(sa.Column("game_name", sa.String(32), nullable=False, server_default="ricochet-robots"))
        batch.add_column(sa.Column("game_version", sa.Integer, nullable=False, server_default="1"))


def downgrade() -> None:
    with op.batch_alter_table("rooms") as batch:
        batch.drop_column("game_version")
        batch.drop_column("game_name")
