"""Durable state of the table service, one repository per aggregate over the engine: accounts
(users and sessions), the ledger (wallets and the double-entry ledger), rounds and their bets,
shoes, table leases, intents, and tables (flags, events, snapshots). :class:`Store` builds them
and writes a table's steps across them in one transaction (:meth:`Store.commit_table`).

Guarantees the rest of the server builds on:

* balances change only through ledger transfers (one entry, two accounts), so the balances of all
  accounts always add up to zero;
* a bet is unique per ``(user, client id)``: placing it twice places it once;
* each round leaves ``betting``/``closed`` exactly once, by the group commit, in the same
  transaction that writes its settlement or refund entries; each bet has at most one entry of each
  kind (a unique constraint), so nothing is paid twice.
"""

from __future__ import annotations

from baccarat.server.store.accounts import Accounts, Role, User
from baccarat.server.store.intents import Intents
from baccarat.server.store.journal import ClientIdTaken, CommitResult, TableWrite, bet_payload
from baccarat.server.store.leases import LeaseLost, Leases
from baccarat.server.store.ledger import Ledger, LedgerReport
from baccarat.server.store.rounds import Rounds, SettledBet
from baccarat.server.store.shoes import Shoes
from baccarat.server.store.tables import PRIVATE_EVENTS, TableHistory, Tables
from baccarat.server.store.unit_of_work import Store

__all__ = [
    "PRIVATE_EVENTS",
    "Accounts",
    "ClientIdTaken",
    "CommitResult",
    "Intents",
    "LeaseLost",
    "Leases",
    "Ledger",
    "LedgerReport",
    "Role",
    "Rounds",
    "SettledBet",
    "Shoes",
    "Store",
    "TableHistory",
    "TableWrite",
    "Tables",
    "User",
    "bet_payload",
]
