"""Alembic environment of the table service: runs on the connection handed over by ``baccarat.server.db``."""

from __future__ import annotations

from alembic import context
from sqlalchemy import engine_from_config, pool

from baccarat.server.schema import metadata


def run_migrations_online() -> None:
    """Run the migrations on the given connection (or one made from the ini file's URL)."""
    config = context.config
    connection = config.attributes.get("connection")
    if connection is not None:
        context.configure(connection=connection, target_metadata=metadata, render_as_batch=True)
        with context.begin_transaction():
            context.run_migrations()
        return
    engine = engine_from_config(
        config.get_section(config.config_ini_section, {}), prefix="sqlalchemy.", poolclass=pool.NullPool
    )
    with engine.connect() as conn:
        context.configure(connection=conn, target_metadata=metadata, render_as_batch=True)
        with context.begin_transaction():
            context.run_migrations()


if getattr(context, "config", None) is not None:  # only under alembic (not when a test collector imports it)
    run_migrations_online()
