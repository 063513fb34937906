"""Users and their sessions."""

from __future__ import annotations

import hashlib
import secrets
import time
from collections.abc import Iterable
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from sqlalchemy import Connection, insert, select, update
from sqlalchemy.exc import IntegrityError

from baccarat.errors import InputError
from baccarat.server.schema import AccountKind, EntryKind, sessions, users
from baccarat.server.store.base import Database
from baccarat.server.store.ledger import Ledger, transfer

__all__ = ["SESSION_SECONDS", "Accounts", "Role", "User"]

SESSION_SECONDS = 7 * 24 * 3600


class Role(StrEnum):
    """What a user may do."""

    PLAYER = "player"
    ADMIN = "admin"


@dataclass(frozen=True, slots=True)
class User:
    """A user as the server sees it."""

    id: int
    name: str
    role: Role
    wallet_id: int
    owed_id: int


def _token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def _user(row: Any) -> User:
    m = row._mapping
    return User(m["id"], m["name"], Role(m["role"]), m["wallet_id"], m["owed_id"])


class Accounts:
    """Users (each with a wallet and a commission box in the ledger) and their session tokens."""

    def __init__(self, db: Database, ledger: Ledger) -> None:
        self.db = db
        self.ledger = ledger
        self._user_cache: dict[str, User] = {}

    def create_user(
        self, *, name: str, password_hash: str, role: Role, starting_balance: int, replace_admin: bool = False
    ) -> User:
        """Create a user with a wallet funded from the issuance account (refuses a taken name)."""
        with self.db.engine.begin() as conn:
            existing = conn.execute(select(users).where(users.c.name == name)).first()
            if existing is not None:
                if replace_admin and existing._mapping["role"] == Role.ADMIN.value:
                    conn.execute(update(users).where(users.c.name == name).values(password_hash=password_hash))
                    return _user(existing)
                raise InputError(f"the name {name!r} is taken", hint="choose another name")
            wallet = self.ledger.account(conn, AccountKind.WALLET, f"wallet:{name}")
            owed = self.ledger.account(conn, AccountKind.COMMISSION_OWED, f"owed:{name}")
            try:
                user_id = conn.execute(
                    insert(users)
                    .values(
                        name=name,
                        password_hash=password_hash,
                        role=role.value,
                        wallet_id=wallet,
                        owed_id=owed,
                        created_at=time.time(),
                    )
                    .returning(users.c.id)
                ).scalar_one()
            except IntegrityError:
                raise InputError(f"the name {name!r} is taken", hint="choose another name") from None
            issuance = self.ledger.account(conn, AccountKind.ISSUANCE, "issuance")
            transfer(conn, source=issuance, target=wallet, amount=starting_balance, kind=EntryKind.GRANT)
        return User(user_id, name, role, wallet, owed)

    def password_hash_of(self, name: str) -> tuple[User, str] | None:
        """A user and their stored password hash, by name."""
        with self.db.engine.connect() as conn:
            row = conn.execute(select(users).where(users.c.name == name)).first()
        return None if row is None else (_user(row), row._mapping["password_hash"])

    def user_by_id(self, user_id: int) -> User | None:
        """A user by id."""
        with self.db.engine.connect() as conn:
            row = conn.execute(select(users).where(users.c.id == user_id)).first()
        return None if row is None else _user(row)

    def users_named(self, conn: Connection, names: Iterable[str]) -> dict[str, User]:
        """The users with these names (those that exist), read once per process."""
        missing = sorted({n for n in names if n not in self._user_cache})
        if missing:
            for row in conn.execute(select(users).where(users.c.name.in_(missing))).all():
                user = _user(row)
                self._user_cache[user.name] = user
        return {n: self._user_cache[n] for n in names if n in self._user_cache}

    def new_session(self, user: User) -> str:
        """A new session token for the user (only its hash is stored)."""
        token = secrets.token_urlsafe(32)
        now = time.time()
        with self.db.engine.begin() as conn:
            conn.execute(
                insert(sessions).values(
                    token_hash=_token_hash(token), user_id=user.id, created_at=now, expires_at=now + SESSION_SECONDS
                )
            )
        return token

    def end_session(self, token: str) -> None:
        """Log out: forget the token."""
        with self.db.engine.begin() as conn:
            conn.execute(sessions.delete().where(sessions.c.token_hash == _token_hash(token)))

    def user_for_token(self, token: str) -> User | None:
        """The user of a live session token, or ``None``."""
        with self.db.engine.connect() as conn:
            row = conn.execute(
                select(users)
                .join(sessions, sessions.c.user_id == users.c.id)
                .where(sessions.c.token_hash == _token_hash(token), sessions.c.expires_at > time.time())
            ).first()
        return None if row is None else _user(row)
