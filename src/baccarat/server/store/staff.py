"""The house's people and the players as the back office sees them: dealers and the tables each
may run, the players with their wallets, and suspension (a suspended account cannot log in, and
its sessions end when it is suspended)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Connection, delete, func, insert, select, update

from baccarat.server.schema import accounts, dealer_tables, users
from baccarat.server.store.accounts import Accounts, Role, User
from baccarat.server.store.base import Database

__all__ = ["PlayerRow", "Staff", "StaffMember"]


@dataclass(frozen=True, slots=True)
class StaffMember:
    """A dealer: their account and the tables they may run."""

    id: int
    name: str
    tables: tuple[str, ...]
    suspended: bool


@dataclass(frozen=True, slots=True)
class PlayerRow:
    """A player in the back office: wallet balance and commission owed (minor units), suspension."""

    id: int
    name: str
    wallet: int
    owed: int
    suspended: bool
    created_at: float


class Staff:
    """Dealers, their tables, the players' list and suspension."""

    def __init__(self, db: Database, accounts_: Accounts) -> None:
        self.db = db
        self.accounts = accounts_

    def create_dealer(self, name: str, password_hash: str, tables: Iterable[str]) -> StaffMember:
        """A new dealer account (no money) assigned to ``tables``."""
        user = self.accounts.create_user(name=name, password_hash=password_hash, role=Role.DEALER, starting_balance=0)
        with self.db.engine.begin() as conn:
            self._assign(conn, user.id, tables)
        return StaffMember(user.id, user.name, tuple(sorted(set(tables))), False)

    def _assign(self, conn: Connection, user_id: int, tables: Iterable[str]) -> None:
        conn.execute(delete(dealer_tables).where(dealer_tables.c.user_id == user_id))
        rows = [{"user_id": user_id, "table_id": table} for table in sorted(set(tables))]
        if rows:
            conn.execute(insert(dealer_tables), rows)

    def set_tables(self, user_id: int, tables: Iterable[str]) -> None:
        """Assign a dealer to exactly these tables."""
        with self.db.engine.begin() as conn:
            self._assign(conn, user_id, tables)

    def tables_of(self, user_id: int) -> frozenset[str]:
        """The tables a dealer may run."""
        with self.db.engine.connect() as conn:
            found = conn.execute(select(dealer_tables.c.table_id).where(dealer_tables.c.user_id == user_id)).scalars()
            return frozenset(str(t) for t in found)

    def dealers(self) -> list[StaffMember]:
        """Every dealer, by name."""
        with self.db.engine.connect() as conn:
            rows = conn.execute(
                select(users.c.id, users.c.name, users.c.suspended)
                .where(users.c.role == Role.DEALER.value)
                .order_by(users.c.name)
            ).all()
            assigned: dict[int, list[str]] = {}
            for user_id, table in conn.execute(select(dealer_tables.c.user_id, dealer_tables.c.table_id)).all():
                assigned.setdefault(int(user_id), []).append(str(table))
        return [StaffMember(r.id, r.name, tuple(sorted(assigned.get(r.id, []))), bool(r.suspended)) for r in rows]

    def user_named(self, name: str) -> tuple[User, bool] | None:
        """A user by name and whether the account is suspended."""
        with self.db.engine.connect() as conn:
            row = conn.execute(select(users).where(users.c.name == name)).first()
        if row is None:
            return None
        m = row._mapping
        return User(m["id"], m["name"], Role(m["role"]), m["wallet_id"], m["owed_id"]), bool(m["suspended"])

    def players(self, *, query: str | None, limit: int, offset: int) -> tuple[list[PlayerRow], int]:
        """A page of players (name containing ``query``, by name) and how many match."""
        wallet = accounts.alias("wallet")
        owed = accounts.alias("owed")
        where: list[Any] = [users.c.role == Role.PLAYER.value]
        if query:
            where.append(users.c.name.contains(query, autoescape=True))
        with self.db.engine.connect() as conn:
            total = conn.execute(select(func.count()).select_from(users).where(*where)).scalar_one()
            rows = conn.execute(
                select(
                    users.c.id, users.c.name, users.c.suspended, users.c.created_at, wallet.c.balance, owed.c.balance
                )
                .join(wallet, wallet.c.id == users.c.wallet_id)
                .join(owed, owed.c.id == users.c.owed_id)
                .where(*where)
                .order_by(users.c.name)
                .limit(limit)
                .offset(offset)
            ).all()
        players = [PlayerRow(r[0], r[1], int(r[4]), -int(r[5]), bool(r[2]), float(r[3])) for r in rows]
        return players, int(total)

    def set_suspended(self, user_id: int, suspended: bool) -> None:
        """Suspend an account (its sessions end, in every process) or lift the suspension."""
        with self.db.engine.begin() as conn:
            conn.execute(update(users).where(users.c.id == user_id).values(suspended=suspended))
            if suspended:
                self.accounts.sessions.end_sessions(conn, user_id)

    def is_suspended(self, user_id: int) -> bool:
        """Whether an account is suspended."""
        with self.db.engine.connect() as conn:
            found = conn.execute(select(users.c.suspended).where(users.c.id == user_id)).scalar()
        return bool(found)
