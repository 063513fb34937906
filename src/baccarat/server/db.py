"""Database engines and migrations: SQLite (WAL) by default, PostgreSQL (psycopg 3) by URL.

Migrations ship inside the package (``migrations/``) and run at start-up; on PostgreSQL an
advisory lock makes concurrent start-ups of several processes take turns.
"""

from __future__ import annotations

import logging
import sqlite3
import threading
import time
from importlib import resources
from pathlib import Path
from typing import Any

from alembic import command
from alembic.config import Config
from sqlalchemy import Engine, create_engine, event, text
from sqlalchemy.engine import make_url
from sqlalchemy.exc import DisconnectionError

from baccarat.errors import InputError

__all__ = ["Checkpointer", "is_postgres", "make_engine", "migrate"]

log = logging.getLogger("baccarat.server.db")

#: How long a pooled PostgreSQL connection may lie idle and still be used without a ping first.
IDLE_PING_SECONDS = 1.0

_MIGRATION_LOCK = 0x0BACCA2A


def is_postgres(engine: Engine) -> bool:
    """Whether the engine talks to PostgreSQL."""
    return engine.dialect.name == "postgresql"


def make_engine(url: str, *, background_checkpoints: bool = False) -> Engine:
    """An engine for ``url``; a SQLite file's directory is created and the database put in WAL mode.

    SQLite runs with ``synchronous=NORMAL`` in WAL mode: a commit survives the process being killed
    at any instant (the guarantee the service relies on); ``FULL`` would also survive power loss.
    With ``background_checkpoints`` the engine's connections never copy the log back into the
    database themselves (a commit that did would wait for the disk): a :class:`Checkpointer` does.
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
            if background_checkpoints:
                cursor.execute("PRAGMA wal_autocheckpoint=0")
            cursor.close()

        return engine
    if parsed.get_backend_name() == "postgresql":
        engine = create_engine(url, pool_size=10, max_overflow=10, pool_use_lifo=True)
        _ping_when_idle(engine, IDLE_PING_SECONDS)
        return engine
    raise InputError(f"unsupported database {parsed.get_backend_name()!r}", hint="use sqlite:/// or postgresql://")


def _ping_when_idle(engine: Engine, seconds: float) -> None:
    """Ping a pooled connection before it is used again only when it has lain idle ``seconds`` or
    more (one that fails is replaced by a new one): a connection in constant use, as the group
    commit's is, is not pinged before every transaction. A connection broken while in use (the
    server restarted) fails that one use; the pool then replaces every connection it holds."""

    @event.listens_for(engine, "checkin")
    def _idle(_dbapi_connection: Any, record: Any) -> None:
        record.info["idle_since"] = time.monotonic()

    @event.listens_for(engine, "checkout")
    def _ping(dbapi_connection: Any, record: Any, _proxy: Any) -> None:
        since = record.info.get("idle_since")
        if since is None or time.monotonic() - since < seconds:
            return
        try:
            engine.dialect.do_ping(dbapi_connection)
        except Exception as error:
            raise DisconnectionError(f"a pooled connection did not answer a ping: {error}") from error


class Checkpointer:
    """A thread that copies a SQLite database's write-ahead log back into the database every ``interval`` s.

    ``PASSIVE`` checkpoints wait for no reader or writer, so commits never wait for the disk's
    ``fsync`` (which a checkpoint run by a committing connection would). Use it with an engine made
    with ``background_checkpoints=True``; :meth:`stop` runs a last checkpoint.

    >>> import tempfile, os
    >>> with tempfile.TemporaryDirectory() as d:
    ...     engine = make_engine(f"sqlite:///{d}/x.db", background_checkpoints=True)
    ...     with engine.begin() as conn:
    ...         _ = conn.execute(text("CREATE TABLE t (v INTEGER)"))
    ...     checkpointer = Checkpointer(engine, interval=0.05)
    ...     checkpointer.start()
    ...     checkpointer.stop()
    ...     checkpointer.start()  # again, as a restarted service does
    ...     checkpointer.stop()
    ...     checkpointer.runs >= 2
    True
    """

    def __init__(self, engine: Engine, *, interval: float = 1.0) -> None:
        self.database = str(engine.url.database or "")
        self.interval = interval
        self.runs = 0
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def start(self) -> None:
        """Start checkpointing (a no-op for an in-memory database, or when running already)."""
        if not self.database or self.database == ":memory:":
            return
        if self._thread is not None and self._thread.is_alive():
            return
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, args=(self._stop,), name="db-checkpoint", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        """Stop, after a last checkpoint (it may be started again)."""
        self._stop.set()
        if self._thread is not None and self._thread.is_alive():
            self._thread.join(timeout=30)
        self._thread = None

    def _run(self, stop: threading.Event) -> None:
        connection = sqlite3.connect(self.database, timeout=30, check_same_thread=False)
        try:
            while True:
                stopping = stop.wait(self.interval)
                try:
                    connection.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone()
                    self.runs += 1
                except sqlite3.Error as error:  # busy or locked: the next run catches up
                    log.debug("checkpoint skipped: %s", error)
                if stopping:
                    return
        finally:
            connection.close()


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
