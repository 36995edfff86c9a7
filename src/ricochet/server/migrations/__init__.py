"""Alembic migrations of the server's database, run programmatically at start
(:func:`ricochet.server.storage.Storage.migrate`)."""
