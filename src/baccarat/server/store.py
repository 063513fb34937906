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
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from sqlalchemy import Connection, Engine, case, func, insert, or_, select, text, update
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.exc import IntegrityError

from baccarat.errors import InputError, ProcedureError
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
    rounds,
    sessions,
    shoes,
    table_leases,
    table_state,
    users,
)

__all__ = [
    "BetOutcome",
    "BetRequest",
    "LedgerReport",
    "Role",
    "SettledBet",
    "Store",
    "User",
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

    # --- helpers ------------------------------------------------------------------------------

    def _insert_ignore(self, conn: Connection, table: Any, values: dict[str, Any]) -> None:
        dialect_insert = postgresql.insert if self.postgres else sqlite.insert
        conn.execute(dialect_insert(table).values(**values).on_conflict_do_nothing())

    def _account(self, conn: Connection, kind: AccountKind, name: str) -> int:
        self._insert_ignore(conn, accounts, {"kind": kind.value, "name": name, "balance": 0})
        return int(conn.execute(select(accounts.c.id).where(accounts.c.name == name)).scalar_one())

    def event(
        self, conn: Connection, *, table_id: str, kind: str, payload: dict[str, Any], round_id: int | None = None
    ) -> dict[str, Any]:
        """Store one table event (and announce it on PostgreSQL when the transaction commits)."""
        now = time.time()
        body = json.dumps(payload, separators=(",", ":"))
        event_id = conn.execute(
            insert(events)
            .values(table_id=table_id, round_id=round_id, kind=kind, payload=body, created_at=now)
            .returning(events.c.id)
        ).scalar_one()
        if self.channel:
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
            **json.loads(m["payload"]),
        }

    def events_since(self, table_id: str, after_id: int, *, limit: int = 200) -> list[dict[str, Any]]:
        """Stored events of a table after ``after_id`` (for clients catching up)."""
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(events)
                .where(events.c.table_id == table_id, events.c.id > after_id)
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

    def acquire_lease(self, table_id: str, owner: str, *, ttl: float) -> bool:
        """Take or renew the lease that lets ``owner`` run this table's rounds; False if another holds it."""
        now = time.time()
        with self.engine.begin() as conn:
            self._insert_ignore(conn, table_leases, {"table_id": table_id, "owner": owner, "expires_at": now + ttl})
            result = conn.execute(
                update(table_leases)
                .where(
                    table_leases.c.table_id == table_id,
                    or_(table_leases.c.owner == owner, table_leases.c.expires_at < now),
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

    def open_round(
        self,
        *,
        table_id: str,
        shoe_id: int | None,
        cards: dict[str, Any] | None,
        layout: dict[str, Any] | None,
        betting_seconds: float,
    ) -> tuple[int, dict[str, Any]]:
        """Open a round for betting with its cards already fixed and stored; returns (round id, event)."""
        now = time.time()
        with self.engine.begin() as conn:
            number = (
                conn.execute(select(func.max(rounds.c.number)).where(rounds.c.table_id == table_id)).scalar() or 0
            ) + 1
            coup_in_shoe = None
            if shoe_id is not None:
                conn.execute(update(shoes).where(shoes.c.id == shoe_id).values(coups=shoes.c.coups + 1))
                coup_in_shoe = conn.execute(select(shoes.c.coups).where(shoes.c.id == shoe_id)).scalar_one()
            round_id = conn.execute(
                insert(rounds)
                .values(
                    table_id=table_id,
                    number=number,
                    shoe_id=shoe_id,
                    coup_in_shoe=coup_in_shoe,
                    status=RoundStatus.BETTING.value,
                    opened_at=now,
                    closes_at=now + betting_seconds,
                    cards=None if cards is None else json.dumps(cards),
                    layout=None if layout is None else json.dumps(layout),
                    entered=None if cards is not None else "[]",
                )
                .returning(rounds.c.id)
            ).scalar_one()
            payload: dict[str, Any] = {
                "number": number,
                "closes_at": now + betting_seconds,
                "betting_seconds": betting_seconds,
                "coup_in_shoe": coup_in_shoe,
            }
            if layout is not None:
                payload["layout"] = layout
            event = self.event(conn, table_id=table_id, kind="betting_opened", round_id=round_id, payload=payload)
        return round_id, event

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

    def close_round(self, round_id: int) -> dict[str, Any] | None:
        """Stop betting; ``None`` if the round was no longer betting."""
        with self.engine.begin() as conn:
            done = conn.execute(
                update(rounds)
                .where(rounds.c.id == round_id, rounds.c.status == RoundStatus.BETTING.value)
                .values(status=RoundStatus.CLOSED.value, closed_at=time.time())
            )
            if done.rowcount != 1:
                return None
            row = conn.execute(select(rounds.c.table_id, rounds.c.number).where(rounds.c.id == round_id)).one()
            count, total = conn.execute(
                select(func.count(), func.coalesce(func.sum(bets.c.stake), 0)).where(bets.c.round_id == round_id)
            ).one()
            return self.event(
                conn,
                table_id=row[0],
                kind="betting_closed",
                round_id=round_id,
                payload={"number": row[1], "bets": int(count), "staked": int(total)},
            )

    def enter_card(self, round_id: int, entered: list[str]) -> dict[str, Any]:
        """Store the dealer-entry cards of a closed round (the caller checked the order)."""
        with self.engine.begin() as conn:
            row = conn.execute(select(rounds).where(rounds.c.id == round_id)).first()
            if row is None or row._mapping["status"] != RoundStatus.CLOSED.value or row._mapping["cards"] is not None:
                raise ProcedureError(
                    "cards can be entered only in a dealer-entry round whose betting has closed",
                    hint="wait for betting to close",
                )
            done = conn.execute(
                update(rounds)
                .where(rounds.c.id == round_id, rounds.c.entered == row._mapping["entered"])
                .values(entered=json.dumps(entered))
            )
            if done.rowcount != 1:
                raise ProcedureError("another card was entered at the same time", hint="reload and try again")
            return self.event(
                conn,
                table_id=row._mapping["table_id"],
                kind="card_entered",
                round_id=round_id,
                payload={"cards": entered},
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
        return int(
            conn.execute(select(table_state.c.in_play_id).where(table_state.c.table_id == table_id)).scalar_one()
        )

    def _finish_balances(self, conn: Connection, round_id: int) -> None:
        per_user = conn.execute(
            select(bets.c.user_id, accounts.c.balance)
            .join(users, users.c.id == bets.c.user_id)
            .join(accounts, accounts.c.id == users.c.wallet_id)
            .where(bets.c.round_id == round_id)
            .distinct()
        ).all()
        for user_id, balance in per_user:
            conn.execute(
                update(bets).where(bets.c.round_id == round_id, bets.c.user_id == user_id).values(balance_after=balance)
            )

    def settle_round(
        self,
        round_id: int,
        *,
        result: dict[str, Any],
        settled: Sequence[SettledBet],
        extra: dict[str, Any] | None = None,
    ) -> dict[str, Any] | None:
        """Settle a closed round exactly once; ``None`` if it was not closed (already settled or voided)."""
        now = time.time()
        with self.engine.begin() as conn:
            done = conn.execute(
                update(rounds)
                .where(rounds.c.id == round_id, rounds.c.status == RoundStatus.CLOSED.value)
                .values(status=RoundStatus.SETTLED.value, finished_at=now, result=json.dumps(result))
            )
            if done.rowcount != 1:
                return None
            row = conn.execute(select(rounds.c.table_id, rounds.c.number).where(rounds.c.id == round_id)).one()
            table_id = str(row[0])
            in_play = self._in_play_of(conn, table_id)
            house = self._account(conn, AccountKind.HOUSE, "house")
            bet_rows = {
                r._mapping["id"]: r._mapping
                for r in conn.execute(
                    select(bets, users.c.wallet_id, users.c.owed_id)
                    .join(users, users.c.id == bets.c.user_id)
                    .where(bets.c.round_id == round_id)
                ).all()
            }
            if set(bet_rows) != {s.bet_id for s in settled}:
                raise ProcedureError(f"round {round_id}: the settlement does not cover exactly its bets")
            paid_total = 0
            for s in settled:
                bet = bet_rows[s.bet_id]
                stake, wallet = int(bet["stake"]), int(bet["wallet_id"])
                if s.outcome == "lose":
                    transfer(conn, source=in_play, target=house, amount=stake, kind=EntryKind.LOSS, bet_id=s.bet_id)
                else:
                    transfer(conn, source=in_play, target=wallet, amount=stake, kind=EntryKind.RETURN, bet_id=s.bet_id)
                    transfer(conn, source=house, target=wallet, amount=s.paid, kind=EntryKind.WIN, bet_id=s.bet_id)
                    transfer(
                        conn,
                        source=int(bet["owed_id"]),
                        target=house,
                        amount=s.owed,
                        kind=EntryKind.COMMISSION,
                        bet_id=s.bet_id,
                    )
                paid_total += s.returned
                conn.execute(
                    update(bets)
                    .where(bets.c.id == s.bet_id, bets.c.status == BetStatus.ACCEPTED.value)
                    .values(
                        status=BetStatus.SETTLED.value,
                        outcome=s.outcome,
                        paid=s.paid,
                        commission=s.commission,
                        returned=s.returned,
                    )
                )
            self._finish_balances(conn, round_id)
            payload = {"number": row[1], "result": result, "bets": len(settled), "returned": paid_total}
            if extra:
                payload |= extra
            event = self.event(conn, table_id=table_id, kind="round_settled", round_id=round_id, payload=payload)
            crash_point("settle_uncommitted")
            return event

    def void_round(self, round_id: int, *, reason: str) -> dict[str, Any] | None:
        """Void a round in flight and refund every bet exactly once; ``None`` if it had already finished."""
        with self.engine.begin() as conn:
            done = conn.execute(
                update(rounds)
                .where(
                    rounds.c.id == round_id,
                    rounds.c.status.in_([RoundStatus.BETTING.value, RoundStatus.CLOSED.value]),
                )
                .values(status=RoundStatus.VOIDED.value, finished_at=time.time(), void_reason=reason)
            )
            if done.rowcount != 1:
                return None
            row = conn.execute(select(rounds).where(rounds.c.id == round_id)).one()._mapping
            table_id = str(row["table_id"])
            in_play = self._in_play_of(conn, table_id)
            refunded = 0
            for bet in conn.execute(
                select(bets.c.id, bets.c.stake, users.c.wallet_id)
                .join(users, users.c.id == bets.c.user_id)
                .where(bets.c.round_id == round_id)
            ).all():
                transfer(
                    conn, source=in_play, target=int(bet[2]), amount=int(bet[1]), kind=EntryKind.REFUND, bet_id=bet[0]
                )
                refunded += int(bet[1])
            conn.execute(
                update(bets)
                .where(bets.c.round_id == round_id, bets.c.status == BetStatus.ACCEPTED.value)
                .values(status=BetStatus.REFUNDED.value, outcome="refund", paid=0, commission=0, returned=bets.c.stake)
            )
            self._finish_balances(conn, round_id)
            payload: dict[str, Any] = {"number": row["number"], "reason": reason, "refunded": refunded}
            if row["cards"] is not None:
                payload["cards"] = json.loads(row["cards"])
            return self.event(conn, table_id=table_id, kind="round_voided", round_id=round_id, payload=payload)

    # --- bets -----------------------------------------------------------------------------------

    def place_bets(self, requests: Sequence[BetRequest]) -> list[BetOutcome]:
        """Place a batch of bets in one transaction (group commit); one outcome per request, in order.

        A request whose ``(user, client id)`` is already stored gets the stored bet back
        (``duplicate``): placing a bet twice places it once.
        """
        for attempt in range(3):
            try:
                return self._place_bets(requests)
            except IntegrityError:
                if attempt == 2:
                    raise
        raise AssertionError("unreachable")

    def _place_bets(self, requests: Sequence[BetRequest]) -> list[BetOutcome]:
        now = time.time()
        outcomes: list[BetOutcome | None] = [None] * len(requests)
        with self.engine.begin() as conn:
            round_ids = sorted({r.round_id for r in requests})
            query = select(rounds.c.id, rounds.c.table_id, rounds.c.status, rounds.c.closes_at).where(
                rounds.c.id.in_(round_ids)
            )
            if self.postgres:
                query = query.with_for_update(read=True)
            round_info = {row[0]: row for row in conn.execute(query).all()}
            keys = [(r.user.id, r.client_id) for r in requests]
            existing: dict[tuple[int, str], Any] = {}
            wanted = set(keys)
            for row in conn.execute(
                select(bets).where(
                    bets.c.user_id.in_(sorted({u for u, _ in wanted})),
                    bets.c.client_id.in_(sorted({c for _, c in wanted})),
                )
            ).all():
                key = (row._mapping["user_id"], row._mapping["client_id"])
                if key in wanted:
                    existing[key] = row
            new_rows: list[dict[str, Any]] = []
            new_index: list[int] = []
            seen: dict[tuple[int, str], int] = {}
            in_play_credit: dict[str, int] = {}
            for i, request in enumerate(requests):
                key = keys[i]
                if key in existing:
                    outcomes[i] = BetOutcome(accepted=True, duplicate=True, bet=_bet_dict(existing[key]))
                    continue
                if key in seen:
                    continue  # filled in after the insert, from the first request with this id
                info = round_info.get(request.round_id)
                if info is None or info[1] != request.table_id:
                    outcomes[i] = BetOutcome(accepted=False, reason="no such round at this table", status=404)
                    continue
                if info[2] != RoundStatus.BETTING.value or info[3] <= now:
                    outcomes[i] = BetOutcome(
                        accepted=False, reason=f"betting is closed for round {request.round_id}", status=409
                    )
                    continue
                balance = conn.execute(
                    update(accounts)
                    .where(accounts.c.id == request.user.wallet_id, accounts.c.balance >= request.stake)
                    .values(balance=accounts.c.balance - request.stake)
                    .returning(accounts.c.balance)
                ).scalar()
                if balance is None:
                    outcomes[i] = BetOutcome(
                        accepted=False, reason=f"insufficient balance for a stake of {request.stake}", status=409
                    )
                    continue
                seen[key] = i
                in_play_credit[request.table_id] = in_play_credit.get(request.table_id, 0) + request.stake
                new_index.append(i)
                new_rows.append(
                    {
                        "round_id": request.round_id,
                        "user_id": request.user.id,
                        "client_id": request.client_id,
                        "kind": request.kind,
                        "stake": request.stake,
                        "status": BetStatus.ACCEPTED.value,
                        "balance_before": int(balance) + request.stake,
                        "created_at": now,
                        "_balance": int(balance),
                        "_wallet": request.user.wallet_id,
                    }
                )
            if new_rows:
                ids = conn.execute(
                    insert(bets).returning(bets.c.id, sort_by_parameter_order=True),
                    [{k: v for k, v in row.items() if not k.startswith("_")} for row in new_rows],
                ).all()
                in_play_ids = {table_id: self._in_play_of(conn, table_id) for table_id in in_play_credit}
                conn.execute(
                    insert(entries),
                    [
                        {
                            "from_account": new["_wallet"],
                            "to_account": in_play_ids[requests[i].table_id],
                            "amount": new["stake"],
                            "kind": EntryKind.STAKE.value,
                            "bet_id": bet_id[0],
                            "round_id": new["round_id"],
                            "created_at": now,
                        }
                        for i, new, bet_id in zip(new_index, new_rows, ids, strict=True)
                    ],
                )
                for table_id, amount in in_play_credit.items():
                    conn.execute(
                        update(accounts)
                        .where(accounts.c.id == in_play_ids[table_id])
                        .values(balance=accounts.c.balance + amount)
                    )
                for i, new, bet_id in zip(new_index, new_rows, ids, strict=True):
                    bet = {
                        "id": bet_id[0],
                        "round_id": new["round_id"],
                        "client_id": new["client_id"],
                        "bet": new["kind"],
                        "stake": new["stake"],
                        "status": BetStatus.ACCEPTED.value,
                        "result": None,
                        "paid": None,
                        "commission": None,
                        "returned": None,
                        "balance_before": new["balance_before"],
                        "balance_after": None,
                    }
                    outcomes[i] = BetOutcome(accepted=True, bet=bet, balance=new["_balance"])
            crash_point("bets_uncommitted")
        crash_point("bets_committed")
        for i, outcome in enumerate(outcomes):
            if outcome is None:
                first = outcomes[seen[keys[i]]]
                assert first is not None
                outcomes[i] = BetOutcome(accepted=first.accepted, duplicate=True, bet=first.bet, reason=first.reason)
        return [o for o in outcomes if o is not None]

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
                        rounds.c.status.in_([RoundStatus.SETTLED.value, RoundStatus.VOIDED.value]),
                    )
                ).scalar_one()
            )
            # each bet: one stake entry; accepted -> nothing else; settled -> return or loss (once);
            # refunded -> exactly one refund.
            per_bet = conn.execute(
                select(
                    bets.c.id,
                    bets.c.status,
                    func.sum(case((entries.c.kind == EntryKind.STAKE.value, 1), else_=0)),
                    func.sum(
                        case(
                            (
                                entries.c.kind.in_(
                                    [EntryKind.RETURN.value, EntryKind.LOSS.value, EntryKind.REFUND.value]
                                ),
                                1,
                            ),
                            else_=0,
                        )
                    ),
                    func.sum(case((entries.c.kind == EntryKind.REFUND.value, 1), else_=0)),
                )
                .select_from(bets.outerjoin(entries, entries.c.bet_id == bets.c.id))
                .group_by(bets.c.id, bets.c.status)
            ).all()
            wrong = 0
            for _bet_id, status, stakes, closings, refunds in per_bet:
                closing_expected = 0 if status == BetStatus.ACCEPTED.value else 1
                refund_expected = 1 if status == BetStatus.REFUNDED.value else 0
                if (stakes or 0) != 1 or (closings or 0) != closing_expected or (refunds or 0) != refund_expected:
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
