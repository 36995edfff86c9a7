"""Alembic environment: the server hands in an open (sync-facing) connection
through ``config.attributes["connection"]``; see ``Storage.migrate``."""

from __future__ import annotations

from typing import Any

from alembic import context


def run(config: Any) -> None:
    connection = config.attributes.get("connection")
    if connection is None:
        raise RuntimeError("run migrations through ricochet.server.storage.Storage.migrate() "
                           "(ricochet serve does it at start)")
    context.configure(connection=connection, target_metadata=None, render_as_batch=True)
    with context.begin_transaction():
        context.run_migrations()


_config: object | None
try:
    _config = context.config
except AttributeError:  # imported outside Alembic (e.g. by doctest collection): nothing to run
    _config = None
if _config is not None:
    run(_config)
