"""The trainer: claimed names keyed by their look-alike form (Unicode's confusables), and
each puzzle's themes.

Every claimed name's key becomes the digest of :func:`ricochet.names.name_key` (before:
the name case-folded).  Two names claimed before that are now one name: the older keeps
it, the later keeps its old key (it still logs in by its exact name; ``trainer_auth.legacy_key``).
``trainer_puzzles.themes`` holds ``|theme|theme|`` (filled by the server for puzzles stored before).

Revision ID: 0004
Revises: 0003
Create Date: 2026-12-10
"""

from __future__ import annotations

import hashlib

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None

players = sa.table("trainer_players", sa.column("id", sa.String), sa.column("name", sa.String),
                   sa.column("name_key", sa.String), sa.column("created", sa.Float))


def upgrade() -> None:
    op.add_column("trainer_puzzles", sa.Column("themes", sa.Text, nullable=True))
    from ricochet.names import name_key

    conn = op.get_bind()
    rows = conn.execute(sa.select(players.c.id, players.c.name).where(players.c.name.is_not(None))
                        .order_by(players.c.created, players.c.id)).all()
    taken: set[str] = set()
    for pid, name in rows:
        key = hashlib.sha256(name_key(name).encode()).hexdigest()[:32]
        if key in taken:
            continue  # a look-alike of an older name: keeps its old key
        taken.add(key)
        conn.execute(players.update().where(players.c.id == pid).values(name_key=key))


def downgrade() -> None:
    conn = op.get_bind()
    for pid, name in conn.execute(sa.select(players.c.id, players.c.name).where(players.c.name.is_not(None))).all():
        conn.execute(players.update().where(players.c.id == pid).values(name_key=" ".join(name.split()).casefold()))
    with op.batch_alter_table("trainer_puzzles") as batch:
        batch.drop_column("themes")
