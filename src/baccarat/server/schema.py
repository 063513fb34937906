"""The database schema (SQLAlchemy Core). Alembic migrations in ``migrations/`` create exactly these tables.

Money columns are integers in minor units. The ledger is double entry: every row of ``entries``
moves ``amount`` from ``from_account`` to ``to_account``, and ``accounts.balance`` is the running
sum of those moves, so the balances of all accounts always add up to zero.
"""

from __future__ import annotations

from enum import StrEnum

from sqlalchemy import (
    BigInteger,
    Boolean,
    CheckConstraint,
    Column,
    Float,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    UniqueConstraint,
    false,
    text,
)

__all__ = [
    "BIG_ID",
    "OPEN_BET",
    "AccountKind",
    "BetStatus",
    "EntryKind",
    "RoundStatus",
    "ShoeStatus",
    "accounts",
    "audit_log",
    "bets",
    "entries",
    "events",
    "intents",
    "metadata",
    "rounds",
    "seed_commitments",
    "seed_entropy",
    "sessions",
    "shoes",
    "table_leases",
    "table_snapshots",
    "table_state",
    "users",
]


class AccountKind(StrEnum):
    """The kinds of ledger account."""

    ISSUANCE = "issuance"  # where play money comes from (starting balances)
    HOUSE = "house"  # the bank: pays winnings, takes losing stakes and commission
    WALLET = "wallet"  # one per user
    IN_PLAY = "in_play"  # one per table: stakes of bets not settled yet
    COMMISSION_OWED = "commission_owed"  # one per user: commission recorded in the commission box (R27)
    PURSE = "purse"  # one per user and table: the user's money at that table (the table's balance)


class EntryKind(StrEnum):
    """Why money moved."""

    GRANT = "grant"  # issuance -> wallet: starting balance
    STAKE = "stake"  # purse -> in_play: a bet accepted
    RETURN = "return"  # in_play -> purse: a winning or pushed stake returned (in full or in part)
    WIN = "win"  # house -> purse: winnings
    LOSS = "loss"  # in_play -> house: a losing stake
    REFUND = "refund"  # in_play -> purse: a voided round's stake
    COMMISSION = "commission"  # house <- commission_owed: commission recorded in the commission box
    COMMISSION_PAID = "commission_paid"  # purse -> commission_owed: the commission box collected (R27)
    BUY_IN = "buy_in"  # wallet -> purse: money brought to a table
    CASH_OUT = "cash_out"  # purse -> wallet: money taken from a table


class RoundStatus(StrEnum):
    """The life of a round."""

    BETTING = "betting"  # cards fixed and stored, bets accepted until closes_at
    CLOSED = "closed"  # no more bets; waiting for the reveal (or for the dealer's cards)
    SETTLED = "settled"  # every bet settled, exactly once
    VOIDED = "voided"  # every bet refunded, exactly once


class BetStatus(StrEnum):
    """The life of a bet."""

    ACCEPTED = "accepted"
    SETTLED = "settled"
    REFUNDED = "refunded"


class ShoeStatus(StrEnum):
    """A provably fair shoe (a server seed): in play, or ended with its seed revealed."""

    ACTIVE = "active"
    ENDED = "ended"


#: The ids of the tables that grow with every bet (events, bets, ledger entries, intents): 64 bits,
#: since 32 would run out within days at a busy table (at 2,500 bets/s, 2**31 bets in 10 days, and
#: their ledger entries sooner).
#: SQLite's ``INTEGER PRIMARY KEY`` is 64 bits already and must stay ``INTEGER`` to be the row id.
BIG_ID = BigInteger().with_variant(Integer(), "sqlite")

metadata = MetaData()

users = Table(
    "users",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("name", String(40), nullable=False, unique=True),
    Column("password_hash", String(200), nullable=False),
    Column("role", String(16), nullable=False),
    Column("wallet_id", Integer, ForeignKey("accounts.id"), nullable=False),
    Column("owed_id", Integer, ForeignKey("accounts.id"), nullable=False),
    Column("created_at", Float, nullable=False),
    #: a suspended account cannot log in or bet (its sessions end when it is suspended)
    Column("suspended", Boolean, nullable=False, server_default=false()),
)

#: The tables each dealer may run (role ``dealer``): their console acts on these only.
dealer_tables = Table(
    "dealer_tables",
    metadata,
    Column("user_id", Integer, ForeignKey("users.id"), primary_key=True),
    Column("table_id", String(40), primary_key=True),
)

#: A player's responsible-gaming settings, set by the player or the house (money in minor units):
#: the most the player may lose in a UTC day, the minutes between play-time reminders, and the
#: moment a self-exclusion ends (no log-in or bet before it).
player_limits = Table(
    "player_limits",
    metadata,
    Column("user_id", Integer, ForeignKey("users.id"), primary_key=True),
    Column("daily_loss_limit", BigInteger, nullable=True),
    Column("session_reminder_minutes", Integer, nullable=True),
    Column("excluded_until", Float, nullable=True),
    Column("updated_at", Float, nullable=False),
)

sessions = Table(
    "sessions",
    metadata,
    Column("token_hash", String(64), primary_key=True),
    Column("user_id", Integer, ForeignKey("users.id"), nullable=False),
    Column("created_at", Float, nullable=False),
    Column("expires_at", Float, nullable=False),
    #: when the session was last used (the idle timeout counts from it)
    Column("last_seen_at", Float, nullable=True),
)
Index("ix_sessions_user", sessions.c.user_id)
Index("ix_sessions_expires", sessions.c.expires_at)

accounts = Table(
    "accounts",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("kind", String(20), nullable=False),
    Column("name", String(80), nullable=False, unique=True),
    Column("balance", BigInteger, nullable=False, default=0),
)

entries = Table(
    "entries",
    metadata,
    Column("id", BIG_ID, primary_key=True, autoincrement=True),
    Column("from_account", Integer, ForeignKey("accounts.id"), nullable=False),
    Column("to_account", Integer, ForeignKey("accounts.id"), nullable=False),
    Column("amount", BigInteger, nullable=False),
    Column("kind", String(20), nullable=False),
    Column("bet_id", BIG_ID, ForeignKey("bets.id"), nullable=True),
    Column("round_id", Integer, ForeignKey("rounds.id"), nullable=True),
    Column("created_at", Float, nullable=False),
    CheckConstraint("amount > 0", name="ck_entries_amount_positive"),
    CheckConstraint("from_account <> to_account", name="ck_entries_two_accounts"),
    UniqueConstraint("bet_id", "kind", name="uq_entries_bet_kind"),
)

table_state = Table(
    "table_state",
    metadata,
    Column("table_id", String(40), primary_key=True),
    Column("is_open", Boolean, nullable=False),
    Column("change_shoe", Boolean, nullable=False, default=False),
    Column("in_play_id", Integer, ForeignKey("accounts.id"), nullable=False),
    #: the house's changes to the table's settings over its tables file (JSON; see TableSpec.SETTABLE)
    Column("settings", Text, nullable=True),
)

table_leases = Table(
    "table_leases",
    metadata,
    Column("table_id", String(40), primary_key=True),
    Column("owner", String(80), nullable=False),
    Column("expires_at", Float, nullable=False),
)

shoes = Table(
    "shoes",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("table_id", String(40), nullable=False),
    Column("number", Integer, nullable=False),
    Column("first_shoe_number", Integer, nullable=False),
    Column("config", Text, nullable=False),
    Column("server_seed", String(128), nullable=False),
    Column("client_seed", String(128), nullable=False),
    Column("commitment", String(64), nullable=False),
    Column("status", String(16), nullable=False),
    Column("coups", Integer, nullable=False, default=0),
    Column("started_at", Float, nullable=False),
    Column("ended_at", Float, nullable=True),
    #: the fairness chain's newest link (``NULL``: no round finished yet, the chain is the commitment)
    Column("chain_head", String(64), nullable=True),
    #: the players' entropy the client seed was made from (JSON list, see ``baccarat.server.chain``)
    Column("entropy", Text, nullable=True),
    UniqueConstraint("table_id", "number", name="uq_shoes_table_number"),
)

#: The commitment of each table's next shoe, published before that shoe starts so that players can
#: contribute entropy to its client seed; the server seed stays secret until that shoe ends.
seed_commitments = Table(
    "seed_commitments",
    metadata,
    Column("table_id", String(40), primary_key=True),
    Column("server_seed", String(128), nullable=False),
    Column("commitment", String(64), nullable=False),
    Column("published_at", Float, nullable=False),
)

#: Entropy players contributed to the client seed of the shoe committed to by ``commitment``.
seed_entropy = Table(
    "seed_entropy",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("table_id", String(40), nullable=False),
    Column("commitment", String(64), nullable=False),
    Column("user_id", Integer, ForeignKey("users.id"), nullable=False),
    Column("entropy", String(64), nullable=False),
    Column("created_at", Float, nullable=False),
)
Index("ix_seed_entropy_commitment", seed_entropy.c.table_id, seed_entropy.c.commitment)

#: Every house action and settings change, appended and never changed: who, what, when and why.
audit_log = Table(
    "audit_log",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("at", Float, nullable=False),
    Column("actor_id", Integer, nullable=True),
    Column("actor", String(40), nullable=False),
    Column("role", String(16), nullable=False),
    Column("action", String(40), nullable=False),
    Column("table_id", String(40), nullable=True),
    Column("round_id", Integer, nullable=True),
    Column("reason", Text, nullable=True),
    Column("detail", Text, nullable=False),
    Column("status", Integer, nullable=False),
)

rounds = Table(
    "rounds",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("table_id", String(40), nullable=False),
    Column("number", Integer, nullable=False),
    Column("shoe_id", Integer, ForeignKey("shoes.id"), nullable=True),
    Column("coup_in_shoe", Integer, nullable=True),
    Column("status", String(16), nullable=False),
    Column("opened_at", Float, nullable=False),
    Column("closes_at", Float, nullable=False),
    Column("closed_at", Float, nullable=True),
    Column("finished_at", Float, nullable=True),
    Column("cards", Text, nullable=True),  # the dealt coup (JSON), fixed before betting opens
    Column("layout", Text, nullable=True),  # pre-dealt layout, face down (JSON)
    Column("entered", Text, nullable=True),  # dealer-entry cards so far (JSON)
    Column("result", Text, nullable=True),  # the coup's result (JSON) once revealed
    Column("void_reason", Text, nullable=True),
    #: the SHA-256 of the finished round's record and the fairness chain's link after it (``baccarat.server.chain``)
    Column("record_digest", String(64), nullable=True),
    Column("chain_link", String(64), nullable=True),
    UniqueConstraint("table_id", "number", name="uq_rounds_table_number"),
)
Index("ix_rounds_table_status", rounds.c.table_id, rounds.c.status)

bets = Table(
    "bets",
    metadata,
    Column("id", BIG_ID, primary_key=True, autoincrement=True),
    Column("round_id", Integer, ForeignKey("rounds.id"), nullable=False),
    Column("user_id", Integer, ForeignKey("users.id"), nullable=False),
    Column("client_id", String(64), nullable=False),
    Column("kind", String(32), nullable=False),
    Column("stake", BigInteger, nullable=False),
    Column("status", String(16), nullable=False),
    Column("outcome", String(16), nullable=True),
    Column("paid", BigInteger, nullable=True),
    Column("commission", BigInteger, nullable=True),
    Column("returned", BigInteger, nullable=True),
    Column("balance_before", BigInteger, nullable=False),
    Column("balance_after", BigInteger, nullable=True),
    Column("created_at", Float, nullable=False),
    CheckConstraint("stake > 0", name="ck_bets_stake_positive"),
    UniqueConstraint("user_id", "client_id", name="uq_bets_user_client"),
)
# a round's bets, and each bettor's bets of one kind in it (a round is settled by bettor and kind)
Index("ix_bets_round_bettor", bets.c.round_id, bets.c.user_id, bets.c.kind)
#: the bets still open (accepted, not yet settled or refunded): few, however long the table's history
OPEN_BET = "status = 'accepted'"
Index("ix_bets_open", bets.c.round_id, sqlite_where=text(OPEN_BET), postgresql_where=text(OPEN_BET))
#: a bettor's bets by when they were placed (what they lost today, as their daily loss limit counts it)
Index("ix_bets_bettor_day", bets.c.user_id, bets.c.created_at)

events = Table(
    "events",
    metadata,
    Column("id", BIG_ID, primary_key=True, autoincrement=True),
    Column("table_id", String(40), nullable=False),
    Column("round_id", Integer, nullable=True),
    Column("kind", String(32), nullable=False),
    Column("payload", Text, nullable=False),
    Column("created_at", Float, nullable=False),
)
Index("ix_events_table", events.c.table_id, events.c.id)

#: The newest snapshot of each table's state machine between rounds (JSON of ``Table.snapshot``),
#: covering the table's events up to ``event_id``: the table is rebuilt from it and the events after.
table_snapshots = Table(
    "table_snapshots",
    metadata,
    Column("table_id", String(40), primary_key=True),
    Column("event_id", BIG_ID, nullable=False),
    Column("payload", Text, nullable=False),
    Column("created_at", Float, nullable=False),
)

intents = Table(
    "intents",
    metadata,
    Column("id", BIG_ID, primary_key=True, autoincrement=True),
    Column("table_id", String(40), nullable=False),
    Column("user_id", Integer, ForeignKey("users.id"), nullable=False),
    Column("kind", String(32), nullable=False),
    Column("body", Text, nullable=False),
    Column("created_at", Float, nullable=False),
    # NULL: waiting; 0: taken by the table's process; otherwise the answer's HTTP status
    Column("status", Integer, nullable=True),
    Column("answer", Text, nullable=True),
    Column("answered_at", Float, nullable=True),
)
Index("ix_intents_table_status", intents.c.table_id, intents.c.status)
