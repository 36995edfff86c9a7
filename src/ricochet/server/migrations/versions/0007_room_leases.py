"""Several server processes on one database: which process holds which room.

``room_leases`` has one row per room loaded by a worker of ``ricochet serve --workers``
(:mod:`ricochet.server.cluster`): its ``owner`` (the worker's name and incarnation), until
when the lease holds (``expires``, renewed while the owner lives), who asked for the room
(``wanted_by``: the owner hands it over), and the room's lobby line while it is public
(``summary``, JSON), so that one lobby lists the rooms of every worker.  A one-process
server never writes it.

Revision ID: 0007
Revises: 0006
Create Date: 2026-11-28
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "room_leases",
        sa.Column("room_id", sa.String(16), primary_key=True),
        sa.Column("owner", sa.String(80), nullable=False),
        sa.Column("expires", sa.Float, nullable=False),
        sa.Column("wanted_by", sa.String(80), nullable=True),
        sa.Column("summary", sa.Text, nullable=True),
        sa.Column("created", sa.Float, nullable=False, server_default="0"),
    )
    op.create_index("room_leases_owner", "room_leases", ["owner"])


def downgrade() -> None:
    op.drop_index("room_leases_owner", "room_leases")
    op.drop_table("room_leases")
