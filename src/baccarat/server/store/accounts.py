"""Users and their sessions."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from sqlalchemy import Connection, insert, select, update
from sqlalchemy.exc import IntegrityError

from baccarat.errors import InputError, ProcedureError
from baccarat.server.schema import AccountKind, EntryKind, users
from baccarat.server.store.base import Database
from baccarat.server.store.ledger import Ledger, transfer
from baccarat.server.store.sessions import SessionRows

__all__ = ["DISABLED", "SESSION_SECONDS", "Accounts", "Role", "User"]

#: The longest a session lasts when the caller names no lifetime (seconds).
SESSION_SECONDS = 24 * 3600.0
#: The stored password hash of an account nobody may log in to (no argon2 hash looks like it).
DISABLED = "!disabled"


class Role(StrEnum):
    """What a user may do."""

    PLAYER = "player"
    #: runs the tables assigned to them from the dealer's console (created by the admin)
    DEALER = "dealer"
    ADMIN = "admin"


@dataclass(frozen=True, slots=True)
class User:
    """A user as the server sees it."""

    id: int
    name: str
    role: Role
    wallet_id: int
    owed_id: int


def _user(row: Any) -> User:
    m = row._mapping
    return User(m["id"], m["name"], Role(m["role"]), m["wallet_id"], m["owed_id"])


class Accounts:
    """Users (each with a wallet and a commission box in the ledger) and their session tokens."""

    def __init__(self, db: Database, ledger: Ledger) -> None:
        self.db = db
        self.ledger = ledger
        self._user_cache: dict[str, User] = {}
        self.sessions = SessionRows(db)

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
                raise ProcedureError(
                    f"the name {name!r} is taken", hint="choose another name", code="name.taken", params={"name": name}
                )
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
                raise ProcedureError(
                    f"the name {name!r} is taken", hint="choose another name", code="name.taken", params={"name": name}
                ) from None
            issuance = self.ledger.account(conn, AccountKind.ISSUANCE, "issuance")
            transfer(conn, source=issuance, target=wallet, amount=starting_balance, kind=EntryKind.GRANT)
        return User(user_id, name, role, wallet, owed)

    def password_hash_of(self, name: str) -> tuple[User, str] | None:
        """A user and their stored password hash, by name."""
        with self.db.engine.connect() as conn:
            row = conn.execute(select(users).where(users.c.name == name)).first()
        return None if row is None else (_user(row), row._mapping["password_hash"])

    def users_by_ids(self, user_ids: Sequence[int]) -> list[User | None]:
        """Users by id, in one read: each user, or ``None`` where there is none."""
        with self.db.engine.connect() as conn:
            rows = conn.execute(select(users).where(users.c.id.in_(sorted(set(user_ids))))).all()
        found = {user.id: user for user in map(_user, rows)}
        return [found.get(user_id) for user_id in user_ids]

    def users_named(self, conn: Connection, names: Iterable[str]) -> dict[str, User]:
        """The users with these names (those that exist), read once per process."""
        missing = sorted({n for n in names if n not in self._user_cache})
        if missing:
            for row in conn.execute(select(users).where(users.c.name.in_(missing))).all():
                user = _user(row)
                self._user_cache[user.name] = user
        return {n: self._user_cache[n] for n in names if n in self._user_cache}

    def new_session(self, user: User, *, lifetime: float = SESSION_SECONDS) -> str:
        """A new session token for the user (only its hash is stored)."""
        return self.sessions.new_session(user.id, lifetime=lifetime)

    def end_session(self, token: str) -> None:
        """Log out: end the token's session, in every process."""
        self.sessions.end_session(token)

    def user_for_token(self, token: str, *, idle: float = SESSION_SECONDS) -> tuple[User, float] | None:
        """The user of a live session token (neither expired nor idle ``idle`` seconds) and its last use."""
        found = self.sessions.session(token, idle=idle)
        return None if found is None else (_user(found[0]), found[1])

    def set_password(self, user_id: int, password_hash: str) -> None:
        """Store a new password hash and end every session of the user (in every process)."""
        with self.db.engine.begin() as conn:
            conn.execute(update(users).where(users.c.id == user_id).values(password_hash=password_hash))
            self.sessions.end_sessions(conn, user_id)

    def configure_admin(
        self, password: str | None, *, hash_: Callable[[str], str], check: Callable[[str, str], bool]
    ) -> str:
        """Make the ``admin`` account follow the configured password: created, given the new password
        (its sessions ended) or, with none, disabled (its sessions ended). What was done:
        ``created``, ``changed``, ``kept``, ``disabled`` or ``none``."""
        found = self.password_hash_of("admin")
        if found is not None and found[0].role is not Role.ADMIN:
            raise InputError("the name 'admin' belongs to a player", hint="rename that account before serving")
        if password is None:
            if found is None or found[1] == DISABLED:
                return "none"
            self.set_password(found[0].id, DISABLED)
            return "disabled"
        if found is None:
            self.create_user(name="admin", password_hash=hash_(password), role=Role.ADMIN, starting_balance=0)
            return "created"
        if found[1] != DISABLED and check(found[1], password):
            return "kept"
        self.set_password(found[0].id, hash_(password))
        return "changed"
