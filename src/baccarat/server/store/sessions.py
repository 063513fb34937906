"""Session rows: one per log-in, stored by the hash of its token, with an absolute expiry and the
time it was last used (the idle timeout counts from it).

Ending sessions (log-out, a password change, the admin credential changing) is announced on
PostgreSQL to every server process, on the channel :func:`revocation_channel` names, when the
transaction commits: ``t:<token hash>`` for one session, ``u:<user id>`` for all of a user's.
"""

from __future__ import annotations

import hashlib
import secrets
import time
from collections.abc import Sequence
from typing import Any

from sqlalchemy import Connection, delete, insert, or_, select, text, update

from baccarat.server.schema import sessions, users
from baccarat.server.store.base import Database

__all__ = ["SessionRows", "revocation_channel", "token_hash"]

#: How often, at most, a session's last use is written (seconds).
TOUCH_SECONDS = 60.0


def token_hash(token: str) -> str:
    """The stored form of a token (SHA-256, hex)."""
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def revocation_channel(channel: str) -> str:
    """The PostgreSQL channel on which ended sessions are announced."""
    return f"{channel}_sessions"


class SessionRows:
    """Sessions: made at log-in, looked up by token, ended one at a time or all of a user's at once."""

    def __init__(self, db: Database) -> None:
        self.db = db

    def _announce(self, conn: Connection, note: str) -> None:
        if self.db.channel:
            conn.execute(text("SELECT pg_notify(:c, :p)"), {"c": revocation_channel(self.db.channel), "p": note})

    def new_session(self, user_id: int, *, lifetime: float) -> str:
        """A new token for the user, valid ``lifetime`` seconds at most (only its hash is stored)."""
        token = secrets.token_urlsafe(32)
        now = time.time()
        values = {"user_id": user_id, "created_at": now, "expires_at": now + lifetime, "last_seen_at": now}
        with self.db.engine.begin() as conn:
            conn.execute(insert(sessions).values(token_hash=token_hash(token), **values))
        return token

    def session(self, token: str, *, idle: float) -> tuple[Any, float] | None:
        """The user row of a live session (neither expired nor idle ``idle`` seconds) and its last use."""
        now = time.time()
        with self.db.engine.connect() as conn:
            row = conn.execute(
                select(users, sessions.c.last_seen_at)
                .join(sessions, sessions.c.user_id == users.c.id)
                .where(
                    sessions.c.token_hash == token_hash(token),
                    sessions.c.expires_at > now,
                    or_(sessions.c.last_seen_at.is_(None), sessions.c.last_seen_at > now - idle),
                )
            ).first()
        if row is None:
            return None
        return row, float(row._mapping["last_seen_at"] or 0.0)

    def started_at(self, token: str) -> float | None:
        """When a session began (its log-in), or ``None`` when there is no such session."""
        with self.db.engine.connect() as conn:
            found = conn.execute(
                select(sessions.c.created_at).where(sessions.c.token_hash == token_hash(token))
            ).scalar()
        return None if found is None else float(found)

    def live(self, digests: Sequence[str], *, idle: float) -> set[str]:
        """Which of these token hashes are of live sessions (one query for many)."""
        now, found = time.time(), set()
        wanted = sorted(set(digests))
        with self.db.engine.connect() as conn:
            for start in range(0, len(wanted), 500):
                found |= set(
                    conn.execute(
                        select(sessions.c.token_hash).where(
                            sessions.c.token_hash.in_(wanted[start : start + 500]),
                            sessions.c.expires_at > now,
                            or_(sessions.c.last_seen_at.is_(None), sessions.c.last_seen_at > now - idle),
                        )
                    ).scalars()
                )
        return {str(d) for d in found}

    def touch(self, token: str) -> None:
        """Note that the session was used now."""
        with self.db.engine.begin() as conn:
            conn.execute(
                update(sessions).where(sessions.c.token_hash == token_hash(token)).values(last_seen_at=time.time())
            )

    def end_session(self, token: str) -> None:
        """End one session (log-out), in every process."""
        digest = token_hash(token)
        with self.db.engine.begin() as conn:
            conn.execute(delete(sessions).where(sessions.c.token_hash == digest))
            self._announce(conn, f"t:{digest}")

    def end_sessions(self, conn: Connection, user_id: int) -> int:
        """End every session of a user, in the caller's transaction, in every process; how many ended."""
        ended = conn.execute(delete(sessions).where(sessions.c.user_id == user_id)).rowcount
        self._announce(conn, f"u:{user_id}")
        return int(ended or 0)

    def end_all_of(self, user_id: int) -> int:
        """:meth:`end_sessions` in a transaction of its own."""
        with self.db.engine.begin() as conn:
            return self.end_sessions(conn, user_id)

    def prune(self, *, idle: float) -> int:
        """Delete the sessions that have expired or been idle ``idle`` seconds; how many."""
        now = time.time()
        with self.db.engine.begin() as conn:
            gone = conn.execute(
                delete(sessions).where(or_(sessions.c.expires_at <= now, sessions.c.last_seen_at <= now - idle))
            ).rowcount
        return int(gone or 0)

    def count(self, user_id: int) -> int:
        """How many sessions a user has stored."""
        with self.db.engine.connect() as conn:
            rows = conn.execute(select(sessions.c.token_hash).where(sessions.c.user_id == user_id)).all()
        return len(rows)
