"""Wallets and the double-entry ledger: accounts, transfers, balances and the ledger's invariants.

Balances change only through :func:`transfer` (one entry, two accounts) or the journal's bulk moves
(the same entries, written many at a time), so the balances of all accounts always add up to zero.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from sqlalchemy import Connection, case, func, insert, or_, select, update

from baccarat.server.schema import (
    AccountKind,
    BetStatus,
    EntryKind,
    RoundStatus,
    accounts,
    bets,
    entries,
    rounds,
    table_state,
)
from baccarat.server.store.base import Database

if TYPE_CHECKING:
    from baccarat.server.store.accounts import User

__all__ = ["Ledger", "LedgerReport", "transfer"]


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


class Ledger:
    """The accounts of users, tables and the house, and the checks of the ledger."""

    def __init__(self, db: Database) -> None:
        self.db = db
        self._purse_cache: dict[tuple[str, int], int] = {}
        self._in_play_cache: dict[str, int] = {}
        self._house: int | None = None

    def account(self, conn: Connection, kind: AccountKind, name: str) -> int:
        """The id of the account named ``name``, created (with a zero balance) if missing."""
        self.db.insert_ignore(conn, accounts, {"kind": kind.value, "name": name, "balance": 0})
        return int(conn.execute(select(accounts.c.id).where(accounts.c.name == name)).scalar_one())

    def house(self, conn: Connection) -> int:
        """The house's account (the bank)."""
        if self._house is None:
            self._house = self.account(conn, AccountKind.HOUSE, "house")
        return self._house

    def in_play_of(self, conn: Connection, table_id: str) -> int:
        """The table's in-play account (the stakes of its bets not settled yet)."""
        found = self._in_play_cache.get(table_id)
        if found is None:
            found = self._in_play_cache[table_id] = int(
                conn.execute(select(table_state.c.in_play_id).where(table_state.c.table_id == table_id)).scalar_one()
            )
        return found

    def purse(self, conn: Connection, table_id: str, user: User, *, create: bool = False) -> int:
        """The user's purse at a table (their money there), created on joining (``create``)."""
        key = (table_id, user.id)
        found = self._purse_cache.get(key)
        if found is None:
            name = f"purse:{user.id}:{table_id}"
            if create:
                found = self.account(conn, AccountKind.PURSE, name)
            else:
                found = int(conn.execute(select(accounts.c.id).where(accounts.c.name == name)).scalar_one())
            self._purse_cache[key] = found
        return found

    def balances(self, user: User) -> tuple[int, int]:
        """(wallet balance, commission owed) of a user."""
        with self.db.engine.connect() as conn:
            rows = dict(
                conn.execute(
                    select(accounts.c.id, accounts.c.balance).where(accounts.c.id.in_([user.wallet_id, user.owed_id]))
                ).all()
            )
        return int(rows[user.wallet_id]), -int(rows[user.owed_id])

    def purses(self, user: User) -> dict[str, int]:
        """The user's money at each table (purse balances by table id)."""
        prefix = f"purse:{user.id}:"
        with self.db.engine.connect() as conn:
            rows = conn.execute(
                select(accounts.c.name, accounts.c.balance).where(accounts.c.name.like(prefix + "%"))
            ).all()
        return {str(name)[len(prefix) :]: int(balance) for name, balance in rows}

    def check_ledger(self) -> LedgerReport:
        """Check every ledger invariant (used by tests, the crash test and ``/api/admin/ledger``)."""
        with self.db.engine.connect() as conn:
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
            wrong = _bets_with_wrong_entries(conn)
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


def _bets_with_wrong_entries(conn: Connection) -> int:
    """How many bets do not have exactly their entries: one stake entry of their stake; accepted (or
    kept after a tie): nothing else; settled: the stake returned or lost, in full, once; refunded:
    one refund of the stake."""

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
    return wrong
