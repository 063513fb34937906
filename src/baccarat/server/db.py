"""Database engines and migrations: SQLite (WAL) by default, PostgreSQL (psycopg 3) by URL.

Migrations ship inside the package (``migrations/``) and run at start-up; on PostgreSQL an
advisory lock makes concurrent start-ups of several processes take turns.
"""

from __future__ import annotations

from importlib import resources
from pathlib import Path
from typing import Any

from alembic import command
from alembic.config import Config
from sqlalchemy import Engine, create_engine, event, text
from sqlalchemy.engine import make_url

from baccarat.errors import InputError

__all__ = ["is_postgres", "make_engine", "migrate"]

_MIGRATION_LOCK = 0x0BACCA2A


def is_postgres(engine: Engine) -> bool:
    """Whether the engine talks to PostgreSQL."""
    return engine.dialect.name == "postgresql"


def make_engine(url: str) -> Engine:
    """An engine for ``url``; a SQLite file's directory is created and the database put in WAL mode.

    SQLite runs with ``synchronous=NORMAL`` in WAL mode: a commit survives the process being killed
    at any instant (the guarantee the service relies on); ``FULL`` would also survive power loss.
    """
    try:
        parsed = make_url(url)
    except Exception:
        raise InputError(f"database URL {url!r} is not valid", hint="e.g. sqlite:///data/baccarat.db") from None
    if parsed.get_backend_name() == "sqlite":
        database = parsed.database or ""
        if database and database != ":memory:":
            Path(database).parent.mkdir(parents=True, exist_ok=True)
        engine = create_engine(
            url,
            connect_args={"check_same_thread": False, "timeout": 30},
            pool_size=8,
            max_overflow=8,
        )

        @event.listens_for(engine, "connect")
        def _pragmas(dbapi_connection: Any, _record: Any) -> None:
            cursor = dbapi_connection.cursor()
            cursor.execute("PRAGMA journal_mode=WAL")
            cursor.execute("PRAGMA synchronous=NORMAL")
            cursor.execute("PRAGMA foreign_keys=ON")
            cursor.execute("PRAGMA busy_timeout=30000")
            cursor.close()

        return engine
    if parsed.get_backend_name() == "postgresql":
        return create_engine(url, pool_size=10, max_overflow=10, pool_pre_ping=True)
    raise InputError(f"unsupported database {parsed.get_backend_name()!r}", hint="use sqlite:/// or postgresql://")


def _alembic_config() -> Config:
    config = Config()
    location = resources.files("baccarat.server").joinpath("migrations")
    config.set_main_option("script_location", str(location))
    return config


def migrate(engine: Engine) -> None:
    """Bring the schema up to the newest migration."""
    config = _alembic_config()
    with engine.connect() as connection:
        if is_postgres(engine):
            connection.execute(text("SELECT pg_advisory_lock(:k)"), {"k": _MIGRATION_LOCK})
            connection.commit()
        try:
            config.attributes["connection"] = connection
            command.upgrade(config, "head")
            connection.commit()
        finally:
            if is_postgres(engine):
                connection.execute(text("SELECT pg_advisory_unlock(:k)"), {"k": _MIGRATION_LOCK})
                connection.commit()
