"""Durable state of the table service: accounts and the double-entry ledger, users and sessions,
shoes, rounds, bets, events and table leases. Every method is one transaction.

Guarantees the rest of the server builds on:

* balances change only through :func:`transfer` (one entry, two accounts), so the balances of all
  accounts always add up to zero;
* a bet is unique per ``(user, client id)``: placing it twice places it once;
* each round leaves ``betting``/``closed`` exactly once, by a conditional update, in the same
  transaction that writes its settlement or refund entries; each bet has at most one entry of each
  kind (a unique constraint), so nothing is paid twice.
"""

from __future__ import annotations

import hashlib
import json
import secrets
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from sqlalchemy import Connection, Engine, case, func, insert, or_, select, text, update
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.exc import IntegrityError

from baccarat.errors import InputError, ProcedureError
from baccarat.server.bulk import insert_rows, next_ids, update_rows
from baccarat.server.hooks import crash_point
from baccarat.server.schema import (
    AccountKind,
    BetStatus,
    EntryKind,
    RoundStatus,
    ShoeStatus,
    accounts,
    bets,
    entries,
    events,
    intents,
    rounds,
    sessions,
    shoes,
    table_leases,
    table_snapshots,
    table_state,
    users,
)
from baccarat.settlement import BetResult
from baccarat.table import SNAPSHOT_FORMAT
from baccarat.table_events import (
    EVENT_TYPES,
    BetPlaced,
    BetSettlement,
    BettorJoined,
    BettorLeft,
    CashedOut,
    CoupSettled,
    FundsAdded,
    RoundVoided,
    TableEvent,
    event_from_dict,
)

__all__ = [
    "PRIVATE_EVENTS",
    "BetOutcome",
    "BetRequest",
    "ClientIdTaken",
    "CommitResult",
    "LeaseLost",
    "LedgerReport",
    "Role",
    "SettledBet",
    "Store",
    "TableHistory",
    "TableWrite",
    "User",
    "bet_payload",
    "public_event",
]

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


@dataclass(frozen=True, slots=True, kw_only=True)
class BetRequest:
    """A bet a user asks to place (already validated against the table's menu and limits)."""

    user: User
    table_id: str
    round_id: int
    client_id: str
    kind: str
    stake: int


@dataclass(frozen=True, slots=True, kw_only=True)
class BetOutcome:
    """The answer to one :class:`BetRequest`: the stored bet (new or the earlier one), or a refusal."""

    accepted: bool
    duplicate: bool = False
    bet: dict[str, Any] | None = None
    balance: int | None = None
    reason: str = ""
    status: int = 200


@dataclass(frozen=True, slots=True, kw_only=True)
class SettledBet:
    """How one bet of a round settles, in minor units (from :func:`baccarat.settlement.settle_bets`)."""

    bet_id: int
    outcome: str  # win, lose or push
    paid: int
    commission: int
    owed: int
    returned: int


@dataclass(frozen=True, slots=True)
class LedgerReport:
    """The ledger's invariants, checked: ``ok`` when every one holds."""

    total: int
    mismatched_accounts: tuple[int, ...]
    open_bets_in_closed_rounds: int
    bets_with_wrong_entries: int
    in_play_mismatch: int

    @property
    def ok(self) -> bool:
        """Every invariant holds."""
        return (
            self.total == 0
            and not self.mismatched_accounts
            and self.open_bets_in_closed_rounds == 0
            and self.bets_with_wrong_entries == 0
            and self.in_play_mismatch == 0
        )


def _token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def _bet_dict(row: Any) -> dict[str, Any]:
    m = row._mapping
    return {
        "id": m["id"],
        "round_id": m["round_id"],
        "client_id": m["client_id"],
        "bet": m["kind"],
        "stake": m["stake"],
        "status": m["status"],
        "result": m["outcome"],
        "paid": m["paid"],
        "commission": m["commission"],
        "returned": m["returned"],
        "balance_before": m["balance_before"],
        "balance_after": m["balance_after"],
    }


def transfer(
    conn: Connection,
    *,
    source: int,
    target: int,
    amount: int,
    kind: EntryKind,
    bet_id: int | None = None,
    round_id: int | None = None,
) -> None:
    """Move ``amount`` from one account to another: one ledger entry, two balance updates."""
    if amount <= 0:
        return
    conn.execute(
        insert(entries).values(
            from_account=source,
            to_account=target,
            amount=amount,
            kind=kind.value,
            bet_id=bet_id,
            round_id=round_id,
            created_at=time.time(),
        )
    )
    conn.execute(update(accounts).where(accounts.c.id == source).values(balance=accounts.c.balance - amount))
    conn.execute(update(accounts).where(accounts.c.id == target).values(balance=accounts.c.balance + amount))


class Store:
    """All reads and writes of the service; each public method runs in its own transaction."""

    def __init__(self, engine: Engine, *, channel: str | None = None) -> None:
        self.engine = engine
        self.postgres = engine.dialect.name == "postgresql"
        #: PostgreSQL NOTIFY channel on which stored events are announced (``None``: no NOTIFY).
        self.channel = channel
        self._user_cache: dict[str, User] = {}
        self._purse_cache: dict[tuple[str, int], int] = {}
        self._in_play_cache: dict[str, int] = {}
        self._house: int | None = None

    # --- helpers ------------------------------------------------------------------------------

    def _insert_ignore(self, conn: Connection, table: Any, values: dict[str, Any]) -> None:
        dialect_insert = postgresql.insert if self.postgres else sqlite.insert
        conn.execute(dialect_insert(table).values(**values).on_conflict_do_nothing())

    def _account(self, conn: Connection, kind: AccountKind, name: str) -> int:
        self._insert_ignore(conn, accounts, {"kind": kind.value, "name": name, "balance": 0})
        return int(conn.execute(select(accounts.c.id).where(accounts.c.name == name)).scalar_one())

    def event(
        self,
        conn: Connection,
        *,
        table_id: str,
        kind: str,
        payload: dict[str, Any],
        round_id: int | None = None,
        notify: bool = True,
    ) -> dict[str, Any]:
        """Store one table event (and announce it on PostgreSQL when the transaction commits)."""
        now = time.time()
        body = _dumps(payload)
        event_id = conn.execute(
            insert(events)
            .values(table_id=table_id, round_id=round_id, kind=kind, payload=body, created_at=now)
            .returning(events.c.id)
        ).scalar_one()
        if self.channel and notify:
            conn.execute(text("SELECT pg_notify(:c, :p)"), {"c": self.channel, "p": str(event_id)})
        return {"id": event_id, "table": table_id, "round_id": round_id, "type": kind, "ts": now, **payload}

    def event_by_id(self, event_id: int) -> dict[str, Any] | None:
        """One stored event as broadcast."""
        with self.engine.connect() as conn:
            row = conn.execute(select(events).where(events.c.id == event_id)).first()
        return None if row is None else self._event_dict(row)

    @staticmethod
    def _event_dict(row: Any) -> dict[str, Any]:
        m = row._mapping
        return {
            "id": m["id"],
            "table": m["table_id"],
            "round_id": m["round_id"],
            "type": m["kind"],
            "ts": m["created_at"],
            **public_event(m["kind"], json.loads(m["payload"])),
        }

    def events_since(self, table_id: str, after_id: int, *, limit: int = 200) -> list[dict[str, Any]]:
        """Stored events of a table after ``after_id`` (for clients catching up)."""
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(events)
                .where(
                    events.c.table_id == table_id,
                    events.c.id > after_id,
                    events.c.kind.not_in(sorted(PRIVATE_EVENTS)),
                )
                .order_by(events.c.id)
                .limit(limit)
            ).all()
        return [self._event_dict(row) for row in rows]

    # --- set-up -------------------------------------------------------------------------------

    def ensure_tables(self, table_ids: Iterable[str], *, open_by_default: dict[str, bool]) -> None:
        """Create the system accounts and one row (and in-play account) per table, if missing."""
        with self.engine.begin() as conn:
            self._account(conn, AccountKind.HOUSE, "house")
            self._account(conn, AccountKind.ISSUANCE, "issuance")
            for table_id in table_ids:
                in_play = self._account(conn, AccountKind.IN_PLAY, f"in_play:{table_id}")
                self._insert_ignore(
                    conn,
                    table_state,
                    {
                        "table_id": table_id,
                        "is_open": open_by_default.get(table_id, True),
                        "change_shoe": False,
                        "in_play_id": in_play,
                    },
                )

    # --- users and sessions ---------------------------------------------------------------------

    def create_user(
        self, *, name: str, password_hash: str, role: Role, starting_balance: int, replace_admin: bool = False
    ) -> User:
        """Create a user with a wallet funded from the issuance account (refuses a taken name)."""
        with self.engine.begin() as conn:
            existing = conn.execute(select(users).where(users.c.name == name)).first()
            if existing is not None:
                if replace_admin and existing._mapping["role"] == Role.ADMIN.value:
                    conn.execute(update(users).where(users.c.name == name).values(password_hash=password_hash))
                    return self._user(existing)
                raise InputError(f"the name {name!r} is taken", hint="choose another name")
            wallet = self._account(conn, AccountKind.WALLET, f"wallet:{name}")
            owed = self._account(conn, AccountKind.COMMISSION_OWED, f"owed:{name}")
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
            issuance = self._account(conn, AccountKind.ISSUANCE, "issuance")
            transfer(conn, source=issuance, target=wallet, amount=starting_balance, kind=EntryKind.GRANT)
        return User(user_id, name, role, wallet, owed)

    @staticmethod
    def _user(row: Any) -> User:
        m = row._mapping
        return User(m["id"], m["name"], Role(m["role"]), m["wallet_id"], m["owed_id"])

    def password_hash_of(self, name: str) -> tuple[User, str] | None:
        """A user and their stored password hash, by name."""
        with self.engine.connect() as conn:
            row = conn.execute(select(users).where(users.c.name == name)).first()
        return None if row is None else (self._user(row), row._mapping["password_hash"])

    def new_session(self, user: User) -> str:
        """A new session token for the user (only its hash is stored)."""
        token = secrets.token_urlsafe(32)
        now = time.time()
        with self.engine.begin() as conn:
            conn.execute(
                insert(sessions).values(
                    token_hash=_token_hash(token), user_id=user.id, created_at=now, expires_at=now + SESSION_SECONDS
                )
            )
        return token

    def end_session(self, token: str) -> None:
        """Log out: forget the token."""
        with self.engine.begin() as conn:
            conn.execute(sessions.delete().where(sessions.c.token_hash == _token_hash(token)))

    def user_for_token(self, token: str) -> User | None:
        """The user of a live session token, or ``None``."""
        with self.engine.connect() as conn:
            row = conn.execute(
                select(users)
                .join(sessions, sessions.c.user_id == users.c.id)
                .where(sessions.c.token_hash == _token_hash(token), sessions.c.expires_at > time.time())
            ).first()
        return None if row is None else self._user(row)

    def balances(self, user: User) -> tuple[int, int]:
        """(wallet balance, commission owed) of a user."""
        with self.engine.connect() as conn:
            rows = dict(
                conn.execute(
                    select(accounts.c.id, accounts.c.balance).where(accounts.c.id.in_([user.wallet_id, user.owed_id]))
                ).all()
            )
        return int(rows[user.wallet_id]), -int(rows[user.owed_id])

    # --- tables and leases ----------------------------------------------------------------------

    def table_flags(self, table_id: str) -> tuple[bool, bool, int]:
        """(open, shoe change requested, in-play account id) of a table."""
        with self.engine.connect() as conn:
            row = conn.execute(select(table_state).where(table_state.c.table_id == table_id)).one()
        m = row._mapping
        return bool(m["is_open"]), bool(m["change_shoe"]), int(m["in_play_id"])

    def set_table_flags(
        self, table_id: str, *, is_open: bool | None = None, change_shoe: bool | None = None
    ) -> dict[str, Any]:
        """Open or close a table, or ask for (or clear) a shoe change; stores an event."""
        values: dict[str, Any] = {}
        if is_open is not None:
            values["is_open"] = is_open
        if change_shoe is not None:
            values["change_shoe"] = change_shoe
        with self.engine.begin() as conn:
            conn.execute(update(table_state).where(table_state.c.table_id == table_id).values(**values))
            payload = {k: v for k, v in (("open", is_open), ("change_shoe", change_shoe)) if v is not None}
            return self.event(conn, table_id=table_id, kind="table_changed", payload=payload)

    def acquire_lease(
        self, table_id: str, owner: str, *, ttl: float, dead: Callable[[str], bool] | None = None
    ) -> bool:
        """Take or renew the lease that lets ``owner`` run this table's rounds; False if another holds it.

        ``dead`` says whether a holder is known to be dead (a process of this machine that no longer
        runs): its lease is taken over at once instead of when it expires.
        """
        now = time.time()
        with self.engine.begin() as conn:
            self._insert_ignore(conn, table_leases, {"table_id": table_id, "owner": owner, "expires_at": now + ttl})
            holder = conn.execute(select(table_leases.c.owner).where(table_leases.c.table_id == table_id)).scalar()
            gone = holder is not None and holder != owner and dead is not None and dead(str(holder))
            result = conn.execute(
                update(table_leases)
                .where(
                    table_leases.c.table_id == table_id,
                    or_(table_leases.c.owner == owner, table_leases.c.expires_at < now, table_leases.c.owner == holder)
                    if gone
                    else or_(table_leases.c.owner == owner, table_leases.c.expires_at < now),
                )
                .values(owner=owner, expires_at=now + ttl)
            )
            return result.rowcount == 1

    def release_lease(self, table_id: str, owner: str) -> None:
        """Give the lease up (on a clean shutdown)."""
        with self.engine.begin() as conn:
            conn.execute(
                update(table_leases)
                .where(table_leases.c.table_id == table_id, table_leases.c.owner == owner)
                .values(expires_at=0.0)
            )

    def lease_owner(self, table_id: str) -> str | None:
        """Who holds a table's lease now, if anyone."""
        with self.engine.connect() as conn:
            row = conn.execute(
                select(table_leases.c.owner).where(
                    table_leases.c.table_id == table_id, table_leases.c.expires_at > time.time()
                )
            ).first()
        return None if row is None else str(row[0])

    # --- shoes ----------------------------------------------------------------------------------

    def active_shoe(self, table_id: str) -> dict[str, Any] | None:
        """The table's shoe in play, with its (still secret) seed, or ``None``."""
        with self.engine.connect() as conn:
            row = conn.execute(
                select(shoes).where(shoes.c.table_id == table_id, shoes.c.status == ShoeStatus.ACTIVE.value)
            ).first()
        return None if row is None else dict(row._mapping)

    def start_shoe(
        self,
        *,
        table_id: str,
        config: dict[str, Any],
        server_seed: str,
        client_seed: str,
        commitment: str,
    ) -> tuple[int, dict[str, Any]]:
        """Record a new shoe and publish its commitment; returns (shoe id, event)."""
        with self.engine.begin() as conn:
            number = (
                conn.execute(select(func.max(shoes.c.number)).where(shoes.c.table_id == table_id)).scalar() or 0
            ) + 1
            shoe_id = conn.execute(
                insert(shoes)
                .values(
                    table_id=table_id,
                    number=number,
                    first_shoe_number=1,
                    config=json.dumps(config),
                    server_seed=server_seed,
                    client_seed=client_seed,
                    commitment=commitment,
                    status=ShoeStatus.ACTIVE.value,
                    coups=0,
                    started_at=time.time(),
                )
                .returning(shoes.c.id)
            ).scalar_one()
            event = self.event(
                conn,
                table_id=table_id,
                kind="shoe_started",
                payload={"shoe": number, "commitment": commitment, "client_seed": client_seed, "config": config},
            )
        return shoe_id, event

    def end_shoe(self, shoe_id: int, *, reason: str) -> dict[str, Any] | None:
        """End a shoe and reveal its server seed; ``None`` if it had already ended."""
        with self.engine.begin() as conn:
            done = conn.execute(
                update(shoes)
                .where(shoes.c.id == shoe_id, shoes.c.status == ShoeStatus.ACTIVE.value)
                .values(status=ShoeStatus.ENDED.value, ended_at=time.time())
            )
            if done.rowcount != 1:
                return None
            row = conn.execute(select(shoes).where(shoes.c.id == shoe_id)).one()._mapping
            conn.execute(update(table_state).where(table_state.c.table_id == row["table_id"]).values(change_shoe=False))
            return self.event(
                conn,
                table_id=row["table_id"],
                kind="shoe_ended",
                payload={
                    "shoe": row["number"],
                    "commitment": row["commitment"],
                    "server_seed": row["server_seed"],
                    "client_seed": row["client_seed"],
                    "coups": row["coups"],
                    "reason": reason,
                },
            )

    # --- rounds ---------------------------------------------------------------------------------

    def round_row(self, round_id: int) -> dict[str, Any] | None:
        """A round's stored row."""
        with self.engine.connect() as conn:
            row = conn.execute(select(rounds).where(rounds.c.id == round_id)).first()
        return None if row is None else dict(row._mapping)

    def unfinished_rounds(self, table_id: str) -> list[dict[str, Any]]:
        """Rounds of a table still betting or closed (in flight), oldest first."""
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(rounds)
                .where(
                    rounds.c.table_id == table_id,
                    rounds.c.status.in_([RoundStatus.BETTING.value, RoundStatus.CLOSED.value]),
                )
                .order_by(rounds.c.id)
            ).all()
        return [dict(row._mapping) for row in rows]

    def current_round(self, table_id: str) -> dict[str, Any] | None:
        """The table's latest round."""
        with self.engine.connect() as conn:
            row = conn.execute(
                select(rounds).where(rounds.c.table_id == table_id).order_by(rounds.c.id.desc()).limit(1)
            ).first()
        return None if row is None else dict(row._mapping)

    def forget_round(self, round_id: int) -> None:
        """Void a stored round that the table never opened (no bet can be on it)."""
        with self.engine.begin() as conn:
            conn.execute(
                update(rounds)
                .where(
                    rounds.c.id == round_id, rounds.c.status.in_([RoundStatus.BETTING.value, RoundStatus.CLOSED.value])
                )
                .values(status=RoundStatus.VOIDED.value, finished_at=time.time(), void_reason="not opened")
            )

    def round_bets(self, round_id: int) -> list[dict[str, Any]]:
        """Every bet of a round."""
        with self.engine.connect() as conn:
            rows = conn.execute(select(bets).where(bets.c.round_id == round_id).order_by(bets.c.id)).all()
        return [dict(row._mapping) for row in rows]

    def round_totals(self, round_id: int) -> dict[str, int]:
        """Total stake per bet kind in a round (what the table shows)."""
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(bets.c.kind, func.sum(bets.c.stake)).where(bets.c.round_id == round_id).group_by(bets.c.kind)
            ).all()
        return {str(kind): int(total) for kind, total in rows}

    def _in_play_of(self, conn: Connection, table_id: str) -> int:
        found = self._in_play_cache.get(table_id)
        if found is None:
            found = self._in_play_cache[table_id] = int(
                conn.execute(select(table_state.c.in_play_id).where(table_state.c.table_id == table_id)).scalar_one()
            )
        return found

    def _finish_balances(self, conn: Connection, round_id: int, table_id: str) -> None:
        """Write each bettor's total balance (wallet and money at the tables) after the round (a few statements)."""
        placed = [
            (int(b), int(u))
            for b, u in conn.execute(select(bets.c.id, bets.c.user_id).where(bets.c.round_id == round_id))
        ]
        if not placed:
            return
        bettors = sorted({u for _, u in placed})
        totals: dict[int, int] = {}
        for start in range(0, len(bettors), 500):
            chunk = bettors[start : start + 500]
            for user_id, balance in conn.execute(
                select(users.c.id, accounts.c.balance)
                .join(accounts, accounts.c.id == users.c.wallet_id)
                .where(users.c.id.in_(chunk))
            ):
                totals[int(user_id)] = int(balance)
        for name, balance in conn.execute(
            select(accounts.c.name, accounts.c.balance).where(accounts.c.kind == AccountKind.PURSE.value)
        ):
            owner = int(str(name).split(":")[1])
            if owner in totals:
                totals[owner] += int(balance)
        update_rows(
            conn,
            "UPDATE bets SET balance_after = ? WHERE id = ?",
            [(totals[user_id], bet_id) for bet_id, user_id in placed if user_id in totals],
        )

    # --- the table's journal --------------------------------------------------------------------

    def _users_named(self, conn: Connection, names: Iterable[str]) -> dict[str, User]:
        missing = sorted({n for n in names if n not in self._user_cache})
        if missing:
            for row in conn.execute(select(users).where(users.c.name.in_(missing))).all():
                user = self._user(row)
                self._user_cache[user.name] = user
        return {n: self._user_cache[n] for n in names if n in self._user_cache}

    def _purse(self, conn: Connection, table_id: str, user: User, *, create: bool = False) -> int:
        key = (table_id, user.id)
        found = self._purse_cache.get(key)
        if found is None:
            name = f"purse:{user.id}:{table_id}"
            if create:
                found = self._account(conn, AccountKind.PURSE, name)
            else:
                found = int(conn.execute(select(accounts.c.id).where(accounts.c.name == name)).scalar_one())
            self._purse_cache[key] = found
        return found

    def table_events(self, table_id: str, *, after: int = 0) -> list[dict[str, Any]]:
        """The stored events of the table state machine with an id above ``after`` (default: every one),
        oldest first (what :meth:`Table.replay` reads)."""
        with self.engine.connect() as conn:
            return self._table_events(conn, table_id, after)

    @staticmethod
    def _table_events(conn: Connection, table_id: str, after: int) -> list[dict[str, Any]]:
        rows = conn.execute(
            select(events.c.payload)
            .where(events.c.table_id == table_id, events.c.id > after, events.c.kind.in_(sorted(EVENT_TYPES)))
            .order_by(events.c.id)
        ).all()
        return [json.loads(row[0]) for row in rows]

    def table_history(self, table_id: str) -> TableHistory:
        """What rebuilds the table: its newest snapshot (when it is of the format this version reads)
        and the state machine's events after it; with none, every event."""
        with self.engine.connect() as conn:
            row = conn.execute(
                select(table_snapshots.c.event_id, table_snapshots.c.payload).where(
                    table_snapshots.c.table_id == table_id
                )
            ).first()
            snapshot: dict[str, Any] | None = None
            after = 0
            if row is not None:
                data = json.loads(row[1])
                if isinstance(data, dict) and data.get("format") == SNAPSHOT_FORMAT:
                    snapshot, after = data, int(row[0])
            return TableHistory(snapshot=snapshot, after=after, events=self._table_events(conn, table_id, after))

    def _store_snapshot(self, conn: Connection, table_id: str, snapshot: dict[str, Any], now: float) -> None:
        """Store the table's snapshot as covering every event of the table stored so far (in this transaction too)."""
        event_id = int(conn.execute(select(func.max(events.c.id)).where(events.c.table_id == table_id)).scalar() or 0)
        values = {"table_id": table_id, "event_id": event_id, "payload": _dumps(snapshot), "created_at": now}
        dialect_insert = postgresql.insert if self.postgres else sqlite.insert
        statement = dialect_insert(table_snapshots).values(**values)
        conn.execute(
            statement.on_conflict_do_update(
                index_elements=[table_snapshots.c.table_id],
                set_={"event_id": event_id, "payload": statement.excluded.payload, "created_at": now},
            )
        )

    def last_event_id(self, table_id: str) -> int:
        """The id of the table's newest stored event (0 when none)."""
        with self.engine.connect() as conn:
            found = conn.execute(select(func.max(events.c.id)).where(events.c.table_id == table_id)).scalar()
        return int(found or 0)

    def bets_by_client(self, keys: Sequence[tuple[int, str]]) -> dict[tuple[int, str], dict[str, Any]]:
        """Stored bets by ``(user id, client id)`` (to answer a repeated client id)."""
        if not keys:
            return {}
        wanted = set(keys)
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(bets).where(
                    bets.c.user_id.in_(sorted({u for u, _ in wanted})),
                    bets.c.client_id.in_(sorted({c for _, c in wanted})),
                )
            ).all()
        out = {}
        for row in rows:
            key = (row._mapping["user_id"], row._mapping["client_id"])
            if key in wanted:
                out[key] = _bet_dict(row)
        return out

    def purses(self, user: User) -> dict[str, int]:
        """The user's money at each table (purse balances by table id)."""
        prefix = f"purse:{user.id}:"
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(accounts.c.name, accounts.c.balance).where(accounts.c.name.like(prefix + "%"))
            ).all()
        return {str(name)[len(prefix) :]: int(balance) for name, balance in rows}

    def commit_table(self, table_id: str, writes: Sequence[TableWrite], *, owner: str | None = None) -> CommitResult:
        """Store a run of the table's events with their ledger entries and round changes, in one transaction.

        Money follows the events exactly: a bettor joining or adding funds moves money from the
        wallet to the user's purse at the table; a bet from the purse to the table's in-play account;
        a settlement back to the purse (and winnings from the house, commission owed recorded in the
        commission box); a refund back to the purse; leaving or cashing out pays the commission box
        and moves the rest back to the wallet. ``owner`` fences the write: it is refused unless that
        process still holds the table's lease. A write's ``snapshot`` is stored as covering every
        event of the table up to that write's, in the same transaction.
        """
        try:
            return self._commit_table(table_id, writes, owner=owner)
        except IntegrityError:
            # the unique (user, client id) of a bet: find which, so that the caller answers the stored bets
            wanted = {(uid, client) for w in writes for uid, client, _ in w.bet_meta.values()}
            if not wanted:
                raise
            with self.engine.connect() as conn:
                taken = self._taken(conn, wanted)
            if not taken:
                raise
            raise ClientIdTaken(taken) from None

    def _taken(self, conn: Connection, wanted: set[tuple[int, str]]) -> list[tuple[int, str]]:
        """The ``(user id, client id)`` pairs of ``wanted`` that stored bets already use."""
        rows = conn.execute(
            select(bets.c.user_id, bets.c.client_id).where(
                bets.c.user_id.in_(sorted({u for u, _ in wanted})),
                bets.c.client_id.in_(sorted({c for _, c in wanted})),
            )
        ).all()
        return [(int(u), str(c)) for u, c in rows if (u, c) in wanted]

    def _commit_table(self, table_id: str, writes: Sequence[TableWrite], *, owner: str | None) -> CommitResult:
        result = CommitResult()
        with self.engine.begin() as conn:
            now = time.time()
            if owner is not None:
                held = conn.execute(
                    update(table_leases)
                    .where(
                        table_leases.c.table_id == table_id,
                        table_leases.c.owner == owner,
                        table_leases.c.expires_at > now,
                    )
                    .values(expires_at=table_leases.c.expires_at)
                )
                if held.rowcount != 1:
                    raise LeaseLost(f"this process no longer holds the lease of table {table_id}")
            names: set[str] = set()
            for w in writes:
                for e in w.events:
                    bettor = getattr(e, "bettor", None)
                    if isinstance(bettor, str):
                        names.add(bettor)
                    if isinstance(e, CoupSettled):
                        names |= {s.bettor for s in e.settlements}
                    elif isinstance(e, RoundVoided):
                        names |= {r.bettor for r in e.refunds}
            people = self._users_named(conn, names)
            journal = _Journal(self, conn, table_id, people, now)
            round_id = None
            for w in writes:
                round_id = w.round_id if w.round_id is not None else round_id
                opened: dict[str, Any] | None = None
                if w.op == "open":
                    round_id, opened = self._open_round(conn, table_id, w, now)
                    result.round_id = round_id
                    row = conn.execute(select(rounds).where(rounds.c.id == round_id)).first()
                    result.round_row = None if row is None else dict(row._mapping)
                journal.round_id = round_id
                for event in w.events:
                    journal.add(event, w.bet_meta)
                if w.op is not None:
                    journal.flush()
                if opened is not None:
                    journal.public("betting_opened", opened)
                elif w.op == "close" and round_id is not None:
                    conn.execute(
                        update(rounds)
                        .where(rounds.c.id == round_id)
                        .values(status=RoundStatus.CLOSED.value, closed_at=now)
                    )
                    count, total = conn.execute(
                        select(func.count(), func.coalesce(func.sum(bets.c.stake), 0)).where(
                            bets.c.round_id == round_id
                        )
                    ).one()
                    journal.public(
                        "betting_closed",
                        {"number": w.data.get("number"), "bets": int(count), "staked": int(total)},
                    )
                elif w.op == "cards" and round_id is not None:
                    conn.execute(
                        update(rounds).where(rounds.c.id == round_id).values(entered=json.dumps(w.data["cards"]))
                    )
                    journal.public("card_entered", {"cards": w.data["cards"]})
                elif w.op == "settle" and round_id is not None:
                    conn.execute(
                        update(rounds)
                        .where(rounds.c.id == round_id)
                        .values(status=RoundStatus.SETTLED.value, finished_at=now, result=json.dumps(w.data["result"]))
                    )
                    self._finish_balances(conn, round_id, table_id)
                    crash_point("settle_uncommitted")
                    journal.public("round_settled", w.data)
                elif w.op == "void" and round_id is not None:
                    conn.execute(
                        update(rounds)
                        .where(rounds.c.id == round_id)
                        .values(status=RoundStatus.VOIDED.value, finished_at=now, void_reason=w.data["reason"])
                    )
                    self._finish_balances(conn, round_id, table_id)
                    journal.public("round_voided", w.data)
                if w.snapshot is not None:
                    journal.flush()
                    self._store_snapshot(conn, table_id, w.snapshot, now)
            journal.flush()
            if journal.bet_ids:
                crash_point("bets_uncommitted")
            result.published = journal.published
            result.bet_ids = journal.bet_ids
        if journal.bet_ids:
            crash_point("bets_committed")
        return result

    def _open_round(self, conn: Connection, table_id: str, w: TableWrite, now: float) -> tuple[int, dict[str, Any]]:
        data = w.data
        number = (
            conn.execute(select(func.max(rounds.c.number)).where(rounds.c.table_id == table_id)).scalar() or 0
        ) + 1
        shoe_id = data.get("shoe_id")
        coup_in_shoe = None
        if shoe_id is not None:
            conn.execute(update(shoes).where(shoes.c.id == shoe_id).values(coups=shoes.c.coups + 1))
            coup_in_shoe = conn.execute(select(shoes.c.coups).where(shoes.c.id == shoe_id)).scalar_one()
        cards, layout = data.get("cards"), data.get("layout")
        closes_at = now + float(data["betting_seconds"])
        round_id = int(
            conn.execute(
                insert(rounds)
                .values(
                    table_id=table_id,
                    number=number,
                    shoe_id=shoe_id,
                    coup_in_shoe=coup_in_shoe,
                    status=RoundStatus.BETTING.value,
                    opened_at=now,
                    closes_at=closes_at,
                    cards=None if cards is None else json.dumps(cards),
                    layout=None if layout is None else json.dumps(layout),
                    entered=None if cards is not None else "[]",
                )
                .returning(rounds.c.id)
            ).scalar_one()
        )
        payload: dict[str, Any] = {
            "number": number,
            "closes_at": closes_at,
            "betting_seconds": data["betting_seconds"],
            "coup_in_shoe": coup_in_shoe,
        }
        if layout is not None:
            payload["layout"] = layout
        return round_id, payload

    # --- recall and checks ----------------------------------------------------------------------

    def history(self, user: User, *, limit: int = 20) -> list[dict[str, Any]]:
        """A user's last rounds: cards, bets, payouts, and the wallet balance before and after."""
        with self.engine.connect() as conn:
            round_ids = [
                r[0]
                for r in conn.execute(
                    select(bets.c.round_id)
                    .where(bets.c.user_id == user.id)
                    .group_by(bets.c.round_id)
                    .order_by(bets.c.round_id.desc())
                    .limit(limit)
                ).all()
            ]
            if not round_ids:
                return []
            round_rows = {
                r._mapping["id"]: r._mapping for r in conn.execute(select(rounds).where(rounds.c.id.in_(round_ids)))
            }
            bet_rows = conn.execute(
                select(bets).where(bets.c.user_id == user.id, bets.c.round_id.in_(round_ids)).order_by(bets.c.id)
            ).all()
        out = []
        for round_id in round_ids:
            r = round_rows[round_id]
            mine = [_bet_dict(b) for b in bet_rows if b._mapping["round_id"] == round_id]
            finished = r["status"] in (RoundStatus.SETTLED.value, RoundStatus.VOIDED.value)
            out.append(
                {
                    "round_id": round_id,
                    "table": r["table_id"],
                    "number": r["number"],
                    "status": r["status"],
                    "result": json.loads(r["result"]) if r["result"] else None,
                    "void_reason": r["void_reason"],
                    "bets": mine,
                    "balance_before": mine[0]["balance_before"],
                    "balance_after": mine[0]["balance_after"] if finished else None,
                }
            )
        return out

    def check_ledger(self) -> LedgerReport:
        """Check every ledger invariant (used by tests, the crash test and ``/api/admin/ledger``)."""
        with self.engine.connect() as conn:
            total = int(conn.execute(select(func.coalesce(func.sum(accounts.c.balance), 0))).scalar_one())
            debits = dict(
                conn.execute(
                    select(entries.c.from_account, func.sum(entries.c.amount)).group_by(entries.c.from_account)
                ).all()
            )
            credits = dict(
                conn.execute(
                    select(entries.c.to_account, func.sum(entries.c.amount)).group_by(entries.c.to_account)
                ).all()
            )
            mismatched = tuple(
                int(account_id)
                for account_id, balance in conn.execute(select(accounts.c.id, accounts.c.balance)).all()
                if int(balance) != int(credits.get(account_id, 0)) - int(debits.get(account_id, 0))
            )
            open_bets = int(
                conn.execute(
                    select(func.count())
                    .select_from(bets.join(rounds, rounds.c.id == bets.c.round_id))
                    .where(
                        bets.c.status == BetStatus.ACCEPTED.value,
                        or_(bets.c.outcome.is_(None), bets.c.outcome != "stay"),
                        rounds.c.status.in_([RoundStatus.SETTLED.value, RoundStatus.VOIDED.value]),
                    )
                ).scalar_one()
            )

            # each bet: one stake entry of its stake; accepted (or kept after a tie) -> nothing else;
            # settled -> its stake returned or lost, in full, once; refunded -> one refund of its stake.
            def amount_of(*kinds: EntryKind) -> Any:
                return func.sum(case((entries.c.kind.in_([k.value for k in kinds]), entries.c.amount), else_=0))

            def count_of(*kinds: EntryKind) -> Any:
                return func.sum(case((entries.c.kind.in_([k.value for k in kinds]), 1), else_=0))

            per_bet = conn.execute(
                select(
                    bets.c.stake,
                    bets.c.status,
                    count_of(EntryKind.STAKE),
                    amount_of(EntryKind.STAKE),
                    amount_of(EntryKind.RETURN, EntryKind.LOSS),
                    amount_of(EntryKind.REFUND),
                    count_of(EntryKind.REFUND),
                )
                .select_from(bets.outerjoin(entries, entries.c.bet_id == bets.c.id))
                .group_by(bets.c.id, bets.c.stake, bets.c.status)
            ).all()
            wrong = 0
            for stake, status, stakes, staked, closed, refunded, refunds in per_bet:
                closing = {BetStatus.SETTLED.value: stake}.get(status, 0)
                refund = {BetStatus.REFUNDED.value: stake}.get(status, 0)
                if (
                    (stakes or 0) != 1
                    or (staked or 0) != stake
                    or (closed or 0) != closing
                    or (refunded or 0) != refund
                    or (refunds or 0) != (1 if refund else 0)
                ):
                    wrong += 1
            in_play_total = int(
                conn.execute(
                    select(func.coalesce(func.sum(accounts.c.balance), 0)).where(
                        accounts.c.kind == AccountKind.IN_PLAY.value
                    )
                ).scalar_one()
            )
            open_stakes = int(
                conn.execute(
                    select(func.coalesce(func.sum(bets.c.stake), 0)).where(bets.c.status == BetStatus.ACCEPTED.value)
                ).scalar_one()
            )
        return LedgerReport(total, mismatched, open_bets, wrong, in_play_total - open_stakes)

    # --- intents: actions sent to a process that does not run the table -----------------------

    def add_intent(self, table_id: str, user_id: int, kind: str, body: dict[str, Any]) -> int:
        """Store an action for the table's process (announced to it on PostgreSQL); returns its id."""
        with self.engine.begin() as conn:
            intent_id = int(
                conn.execute(
                    insert(intents)
                    .values(table_id=table_id, user_id=user_id, kind=kind, body=_dumps(body), created_at=time.time())
                    .returning(intents.c.id)
                ).scalar_one()
            )
            if self.channel:
                conn.execute(text("SELECT pg_notify(:c, :p)"), {"c": self.channel, "p": f"i:{table_id}"})
        return intent_id

    def intent_answer(self, intent_id: int) -> tuple[int, dict[str, Any]] | None:
        """An intent's answer (HTTP status and body), or ``None`` while it has none."""
        with self.engine.connect() as conn:
            row = conn.execute(select(intents.c.status, intents.c.answer).where(intents.c.id == intent_id)).first()
        if row is None or not row[0] or row[1] is None:
            return None
        return int(row[0]), dict(json.loads(row[1]))

    def cancel_intent(self, intent_id: int) -> bool:
        """Withdraw an intent nobody took yet (its sender stopped waiting); whether it was withdrawn."""
        with self.engine.begin() as conn:
            done = conn.execute(
                update(intents)
                .where(intents.c.id == intent_id, intents.c.status.is_(None))
                .values(status=503, answer=_dumps({"detail": "withdrawn"}), answered_at=time.time())
            )
        return done.rowcount == 1

    def pending_intents(self, table_ids: Sequence[str], *, since: float) -> list[dict[str, Any]]:
        """The intents of these tables that nobody took yet, oldest first (those stored after ``since``)."""
        if not table_ids:
            return []
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(intents.c.id, intents.c.table_id, intents.c.user_id, intents.c.kind, intents.c.body)
                .where(intents.c.table_id.in_(table_ids), intents.c.status.is_(None), intents.c.created_at > since)
                .order_by(intents.c.id)
                .limit(1000)
            ).all()
        return [dict(r._mapping) for r in rows]

    def take_intent(self, intent_id: int) -> bool:
        """Take an intent to apply it (fails when it was taken or withdrawn already)."""
        with self.engine.begin() as conn:
            done = conn.execute(
                update(intents).where(intents.c.id == intent_id, intents.c.status.is_(None)).values(status=0)
            )
        return done.rowcount == 1

    def answer_intent(self, intent_id: int, status: int, answer: dict[str, Any]) -> None:
        """Store an intent's answer (and announce it to its sender on PostgreSQL)."""
        with self.engine.begin() as conn:
            conn.execute(
                update(intents)
                .where(intents.c.id == intent_id)
                .values(status=status, answer=_dumps(answer), answered_at=time.time())
            )
            if self.channel:
                conn.execute(text("SELECT pg_notify(:c, :p)"), {"c": self.channel, "p": f"a:{intent_id}"})

    def prune_intents(self, before: float) -> None:
        """Forget the intents stored before ``before``."""
        with self.engine.begin() as conn:
            conn.execute(intents.delete().where(intents.c.created_at < before))

    def user_by_id(self, user_id: int) -> User | None:
        """A user by id."""
        with self.engine.connect() as conn:
            row = conn.execute(select(users).where(users.c.id == user_id)).first()
        return None if row is None else self._user(row)


#: Table events stored but not broadcast: one per bet would flood every client (the running
#: totals go out with the countdown instead).
PRIVATE_EVENTS = frozenset({"BetPlaced", "BetCancelled", "BetSwitched"})


def public_event(kind: str, payload: dict[str, Any]) -> dict[str, Any]:
    """What clients see of a stored event: a table event without face-down cards, and a settled coup
    with the number of its settlements (each bettor reads their own in the history)."""
    if kind not in EVENT_TYPES:
        return payload
    data = event_from_dict(payload).public_dict()
    if kind == "CoupSettled":
        data["settlements"] = len(data.get("settlements", ()))
    return data


@dataclass(slots=True)
class TableWrite:
    """One step of a table to store: its events, and what it does to the round (``op``)."""

    events: Sequence[TableEvent]
    op: str | None = None  # open, close, cards, settle or void
    data: dict[str, Any] = field(default_factory=dict)
    round_id: int | None = None
    #: per bet id of a BetPlaced event: (user id, client id, total balance before the bet)
    bet_meta: dict[str, tuple[int, str, int]] = field(default_factory=dict)
    #: the table's snapshot (``Table.snapshot``) once this step's events are applied, between rounds
    snapshot: dict[str, Any] | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class TableHistory:
    """What rebuilds a table: its newest snapshot (``None``: none, or of another format), the id of
    the newest event it covers (0 without one), and the state machine's events after that id."""

    snapshot: dict[str, Any] | None
    after: int
    events: list[dict[str, Any]]


@dataclass(slots=True)
class CommitResult:
    """What :meth:`Store.commit_table` stored: the new round's id, the bets' ids, the events to broadcast."""

    round_id: int | None = None
    #: the new round's stored row (when a round was opened)
    round_row: dict[str, Any] | None = None
    bet_ids: dict[str, int] = field(default_factory=dict)
    published: list[dict[str, Any]] = field(default_factory=list)


class LeaseLost(ProcedureError):
    """A write for a table whose lease this process no longer holds."""


class ClientIdTaken(ProcedureError):
    """New bets whose ``(user id, client id)`` is already stored (used at another table): nothing was written."""

    def __init__(self, keys: list[tuple[int, str]]) -> None:
        self.keys = keys
        super().__init__(f"{len(keys)} client id(s) already used", hint="answer the stored bets")


class _Journal:
    """Writes table events and their ledger entries inside one transaction (bets in bulk)."""

    def __init__(self, store: Store, conn: Connection, table_id: str, people: dict[str, User], now: float) -> None:
        self.store, self.conn, self.table_id, self.people, self.now = store, conn, table_id, people, now
        self.round_id: int | None = None
        self.in_play = store._in_play_of(conn, table_id)
        if store._house is None:
            store._house = store._account(conn, AccountKind.HOUSE, "house")
        self.house = store._house
        self.published: list[dict[str, Any]] = []
        self.bet_ids: dict[str, int] = {}
        self._events: list[tuple[Any, ...]] = []
        self._bets: list[tuple[int | None, int, str, str, int, int]] = []
        self._bet_keys: list[tuple[str, int]] = []
        self._purses: dict[int, int] = {}
        self._moves: list[tuple[Any, ...]] = []
        self._finished: list[tuple[Any, ...]] = []
        self._deltas: dict[int, int] = {}

    def user(self, name: str) -> User:
        found = self.people.get(name)
        if found is None:
            raise ProcedureError(f"no user {name!r}", hint="a bettor at a server table is a registered user")
        return found

    def add(self, event: TableEvent, bet_meta: dict[str, tuple[int, str, int]]) -> None:
        if isinstance(event, BetPlaced):
            self._add_bet(event, bet_meta)
            return
        self.flush()
        self._store(event)
        self._money(event)

    def _add_bet(self, event: BetPlaced, bet_meta: dict[str, tuple[int, str, int]]) -> None:
        user = self.user(event.bettor)
        purse = self.store._purse(self.conn, self.table_id, user)
        key = event.bet_id or f"{user.id}/{len(self._bets)}"
        _, client_id, before = bet_meta.get(key, (user.id, key, 0))
        self._events.append((self.table_id, self.round_id, "BetPlaced", _dumps(bet_payload(event)), self.now))
        self._bets.append((self.round_id, user.id, client_id, event.kind.value, event.amount, before))
        self._bet_keys.append((key, purse))
        self._purses[purse] = self._purses.get(purse, 0) - event.amount

    def flush(self) -> None:
        """Write the bets waiting (events, bet rows, stake entries, balances) with a few bulk statements."""
        if not self._bets:
            return
        conn, now, accepted = self.conn, self.now, BetStatus.ACCEPTED.value
        insert_rows(conn, "events", _EVENT_COLUMNS, self._events)  # the transaction now holds the write lock
        ids = next_ids(conn, "bets", len(self._bets))
        insert_rows(
            conn,
            "bets",
            _BET_COLUMNS,
            [
                (i, r, u, c, k, stake, accepted, b, now)
                for i, (r, u, c, k, stake, b) in zip(ids, self._bets, strict=True)
            ],
        )
        insert_rows(
            conn,
            "entries",
            _ENTRY_COLUMNS,
            [
                (purse, self.in_play, row[4], EntryKind.STAKE.value, bet_id, self.round_id, now)
                for (_, purse), row, bet_id in zip(self._bet_keys, self._bets, ids, strict=True)
            ],
        )
        for (key, _), bet_id in zip(self._bet_keys, ids, strict=True):
            self.bet_ids[key] = bet_id
        self._move_many(self._purses)
        self._move_many({self.in_play: -sum(self._purses.values())})
        self._events, self._bets, self._bet_keys, self._purses = [], [], [], {}

    def _move_many(self, deltas: dict[int, int]) -> None:
        rows = [(v, k) for k, v in sorted(deltas.items()) if v]  # one lock order
        update_rows(self.conn, "UPDATE accounts SET balance = balance + ? WHERE id = ?", rows)

    def _store(self, event: TableEvent) -> None:
        payload = event.to_dict()
        stored = self.store.event(
            self.conn,
            table_id=self.table_id,
            kind=event.type,
            payload=payload,
            round_id=self.round_id,
            notify=event.type not in PRIVATE_EVENTS,
        )
        if event.type not in PRIVATE_EVENTS:
            self.published.append(
                {k: stored[k] for k in ("id", "table", "round_id", "ts")} | public_event(event.type, payload)
            )

    def public(self, kind: str, payload: dict[str, Any]) -> None:
        """Store a round event of the server (betting_opened, round_settled, …) to broadcast."""
        self.published.append(
            self.store.event(self.conn, table_id=self.table_id, kind=kind, payload=payload, round_id=self.round_id)
        )

    def _transfer(self, source: int, target: int, amount: int, kind: EntryKind, bet_id: int | None = None) -> None:
        transfer(
            self.conn, source=source, target=target, amount=amount, kind=kind, bet_id=bet_id, round_id=self.round_id
        )

    def _open_rows(self) -> dict[tuple[int, str], list[Any]]:
        rows = self.conn.execute(
            select(bets.c.id, bets.c.user_id, bets.c.kind, bets.c.stake)
            .join(rounds, rounds.c.id == bets.c.round_id)
            .where(rounds.c.table_id == self.table_id, bets.c.status == BetStatus.ACCEPTED.value)
            .order_by(bets.c.id)
        ).all()
        grouped: dict[tuple[int, str], list[Any]] = {}
        for row in rows:
            grouped.setdefault((int(row[1]), str(row[2])), []).append(row)
        return grouped

    def _money(self, event: TableEvent) -> None:
        match event:
            case BettorJoined(bettor=name, balance=amount) | FundsAdded(bettor=name, amount=amount):
                user = self.user(name)
                purse = self.store._purse(self.conn, self.table_id, user, create=True)
                if amount > 0:
                    left = self.conn.execute(
                        update(accounts)
                        .where(accounts.c.id == user.wallet_id, accounts.c.balance >= amount)
                        .values(balance=accounts.c.balance)
                    ).rowcount
                    if left != 1:
                        raise ProcedureError(f"{name!r} has less than {amount} in the wallet", hint="bring less")
                    self._transfer(user.wallet_id, purse, amount, EntryKind.BUY_IN)
            case (
                CashedOut(bettor=name, amount=amount, commission=commission)
                | BettorLeft(bettor=name, amount=amount, commission=commission)
            ):
                user = self.user(name)
                purse = self.store._purse(self.conn, self.table_id, user)
                self._transfer(purse, user.owed_id, commission, EntryKind.COMMISSION_PAID)
                self._transfer(purse, user.wallet_id, amount, EntryKind.CASH_OUT)
            case CoupSettled(settlements=settlements):
                grouped = self._open_rows()
                for s in settlements:
                    self._settle(s, grouped)
                self._write_moves()
            case RoundVoided(refunds=refunds):
                grouped = self._open_rows()
                for refund in refunds:
                    user = self.user(refund.bettor)
                    purse = self.store._purse(self.conn, self.table_id, user)
                    rows = grouped.get((user.id, refund.kind.value), [])
                    if sum(int(r[3]) for r in rows) != refund.stake:
                        raise ProcedureError(f"the stored bets of {refund.bettor!r} do not match the table's")
                    for row in rows:
                        self._move(self.in_play, purse, int(row[3]), EntryKind.REFUND, int(row[0]))
                        self._settled_bet(int(row[0]), BetStatus.REFUNDED.value, "refund", 0, 0, int(row[3]))
                self._write_moves()
            case _:
                pass

    def _move(self, source: int, target: int, amount: int, kind: EntryKind, bet_id: int) -> None:
        """A transfer written by :meth:`_write_moves` (entries and balances in bulk)."""
        if amount <= 0:
            return
        self._moves.append((source, target, amount, kind.value, bet_id, self.round_id, self.now))
        self._deltas[source] = self._deltas.get(source, 0) - amount
        self._deltas[target] = self._deltas.get(target, 0) + amount

    def _settled_bet(self, bet_id: int, status: str, outcome: str, paid: int, commission: int, returned: int) -> None:
        self._finished.append((status, outcome, paid, commission, returned, bet_id))

    def _write_moves(self) -> None:
        """Write the settled bets' entries, bet rows and balances with a few bulk statements."""
        insert_rows(self.conn, "entries", _ENTRY_COLUMNS, self._moves)
        update_rows(
            self.conn,
            "UPDATE bets SET status = ?, outcome = ?, paid = ?, commission = ?, returned = ? WHERE id = ?",
            self._finished,
        )
        self._move_many(self._deltas)
        self._moves, self._finished, self._deltas = [], [], {}

    def _settle(self, s: BetSettlement, grouped: dict[tuple[int, str], list[Any]]) -> None:
        user = self.user(s.bettor)
        purse = self.store._purse(self.conn, self.table_id, user)
        rows = grouped.get((user.id, s.kind.value), [])
        if sum(int(r[3]) for r in rows) != s.stake:
            raise ProcedureError(f"the stored {s.kind.value} bets of {s.bettor!r} do not match the table's")
        if s.result is BetResult.STAY:
            self.conn.execute(update(bets).where(bets.c.id.in_([int(r[0]) for r in rows])).values(outcome="stay"))
            return
        back = min(s.returned, s.stake)
        for index, row in enumerate(rows):
            bet_id, stake = int(row[0]), int(row[3])
            returned = min(stake, back)
            back -= returned
            self._move(self.in_play, purse, returned, EntryKind.RETURN, bet_id)
            self._move(self.in_play, self.house, stake - returned, EntryKind.LOSS, bet_id)
            first = index == 0
            if first:
                self._move(self.house, purse, s.returned - s.stake, EntryKind.WIN, bet_id)
                self._move(user.owed_id, self.house, s.owed, EntryKind.COMMISSION, bet_id)
            self._settled_bet(
                bet_id,
                BetStatus.SETTLED.value,
                s.result.value,
                s.paid if first else 0,
                s.commission if first else 0,
                returned + (max(0, s.returned - s.stake) if first else 0),
            )


_EVENT_COLUMNS = ("table_id", "round_id", "kind", "payload", "created_at")
_BET_COLUMNS = ("id", "round_id", "user_id", "client_id", "kind", "stake", "status", "balance_before", "created_at")
_ENTRY_COLUMNS = ("from_account", "to_account", "amount", "kind", "bet_id", "round_id", "created_at")


def bet_payload(event: BetPlaced) -> dict[str, Any]:
    """``event.to_dict()`` of a bet, built directly (the one event stored thousands of times a second)."""
    return {
        "type": "BetPlaced",
        "at": event.at,
        "round": event.round,
        "bettor": event.bettor,
        "kind": event.kind.value,
        "amount": event.amount,
        "stake": event.stake,
        "spot": event.spot,
        "bet_id": event.bet_id,
    }


def _dumps(payload: dict[str, Any]) -> str:
    return json.dumps(payload, separators=(",", ":"), ensure_ascii=False)
