"""PostgreSQL's pooled connections are pinged only after lying idle (a connection in constant use,
as the group commit's is, is not pinged before every transaction), and a broken one is replaced."""

from __future__ import annotations

from typing import Any

import pytest
from sqlalchemy import Engine, text
from sqlalchemy.exc import OperationalError

from baccarat.server import db


def _kill(url: str, pid: int) -> None:
    other = db.make_engine(url)
    try:
        with other.begin() as conn:
            conn.execute(text("SELECT pg_terminate_backend(:p)"), {"p": pid})
    finally:
        other.dispose()


def _backend(engine: Engine) -> int:
    with engine.connect() as conn:
        return int(conn.execute(text("SELECT pg_backend_pid()")).scalar_one())


def _counting_pings(engine: Engine) -> list[int]:
    pings: list[int] = []
    ping = engine.dialect.do_ping

    def counted(dbapi_connection: Any) -> bool:
        pings.append(1)
        return bool(ping(dbapi_connection))

    engine.dialect.do_ping = counted  # type: ignore[method-assign]
    return pings


def test_an_idle_connection_that_broke_is_replaced_before_use(pg_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(db, "IDLE_PING_SECONDS", 0.0)  # every checkout comes after "long enough"
    engine = db.make_engine(pg_url)
    try:
        pings = _counting_pings(engine)
        first = _backend(engine)
        _kill(pg_url, first)
        assert _backend(engine) != first  # the ping found it broken: a new connection, no error
        assert len(pings) >= 1
    finally:
        engine.dispose()


def test_a_connection_in_constant_use_is_not_pinged_and_a_break_fails_one_use(pg_url: str) -> None:
    engine = db.make_engine(pg_url)
    try:
        pings = _counting_pings(engine)
        first = _backend(engine)
        assert _backend(engine) == first and pings == []  # used again at once: the same one, no ping
        _kill(pg_url, first)
        with pytest.raises(OperationalError):
            _backend(engine)
        assert _backend(engine) != first  # the pool replaced it
    finally:
        engine.dispose()
