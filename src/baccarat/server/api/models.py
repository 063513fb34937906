"""Request and response bodies of the table service (money is always integer minor units).

Requests forbid unknown fields and take strict types. Responses describe every 2xx answer for the
OpenAPI document; the views that carry the engine's own JSON data (a table's rules, its public
state, the roads) type their main fields and let the engine's other fields through.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field, StrictInt, StrictStr

__all__ = [
    "AuditEntryOut",
    "AuditOut",
    "BetAtTable",
    "BetBody",
    "BetOut",
    "BetView",
    "CardBody",
    "CardsOut",
    "CashOutBody",
    "CashOutOut",
    "Credentials",
    "EntropyBody",
    "EntropyOut",
    "ErrorBody",
    "EventsOut",
    "FlagsOut",
    "HandOverBody",
    "HistoryOut",
    "JoinBody",
    "LeaveOut",
    "LedgerOut",
    "LobbyOut",
    "MeAtTable",
    "OkOut",
    "PasswordBody",
    "RevealBody",
    "RoundOut",
    "RoundView",
    "SeatBody",
    "SeatOut",
    "SessionOut",
    "ShoeInfo",
    "TableDetail",
    "TableState",
    "TableSummary",
    "UserView",
    "VariantBody",
    "VerifyOut",
    "VoidBody",
    "VoidIntent",
    "VoidOut",
]

CLIENT_ID = r"^[A-Za-z0-9_.:-]{1,64}$"
_OPEN = ConfigDict(extra="allow")


# --- requests ----------------------------------------------------------------------------------


class _Body(BaseModel):
    model_config = ConfigDict(extra="forbid")


class Credentials(_Body):
    """A name and password."""

    #: any script (張三), NFKC-normalised and checked by the route (400 ``name.invalid``)
    name: StrictStr = Field(min_length=1, max_length=64)
    password: StrictStr = Field(min_length=8, max_length=128)


class PasswordBody(_Body):
    """A password change: the password now, and the new one."""

    old_password: StrictStr = Field(min_length=1, max_length=128)
    new_password: StrictStr = Field(min_length=8, max_length=128)


class BetBody(_Body):
    """A bet: the client's id for it (placing it twice places it once), the bet id and the stake."""

    client_id: StrictStr = Field(pattern=CLIENT_ID)
    bet: StrictStr = Field(min_length=1, max_length=40)
    stake: StrictInt = Field(gt=0, le=10**12)
    round_id: StrictInt | None = Field(default=None, gt=0, le=2**31)
    spot: StrictInt | None = Field(default=None, ge=1, le=14)


class JoinBody(_Body):
    """Come to the table: a seat (``None``: stand) and the money brought from the wallet (default: all of it)."""

    seat: StrictInt | None = Field(default=None, ge=1, le=14)
    buy_in: StrictInt | None = Field(default=None, ge=0, le=10**12)


class SeatBody(_Body):
    """A seat to take (R20)."""

    seat: StrictInt = Field(ge=1, le=14)


class CashOutBody(_Body):
    """How much to take back to the wallet (default: all that is available)."""

    amount: StrictInt | None = Field(default=None, gt=0, le=10**12)


class VariantBody(_Body):
    """The variant to play (R28): ``standard`` or ``no_commission`` where the table offers both."""

    variant: StrictStr = Field(min_length=1, max_length=40)


class RevealBody(_Body):
    """The side whose face-down cards to turn (R23)."""

    side: StrictStr = Field(pattern=r"^(player|banker)$")


class HandOverBody(_Body):
    """Hand a side's squeeze to another seated bettor with a bet (``to``), or to the dealer (``None``, R23)."""

    side: StrictStr = Field(pattern=r"^(player|banker)$")
    to: StrictStr | None = Field(default=None, min_length=1, max_length=40)


class CardBody(_Body):
    """One card entered by the dealer (R18): ``AS``, ``10h``…; ``position`` must be the one due if given."""

    card: StrictStr = Field(min_length=2, max_length=8)
    position: StrictStr | None = Field(default=None, max_length=12)
    face_up: bool = False


class BurnBody(_Body):
    """The card turned to burn a new shoe by method (b) (R4); none for methods (a) and (c)."""

    card: StrictStr | None = Field(default=None, min_length=2, max_length=8)


class CorrectBody(_Body):
    """The card that should have been entered last (R18): it replaces the last card before the next is drawn."""

    card: StrictStr = Field(min_length=2, max_length=8)


class DealerCallOut(BaseModel):
    """The dealer's call was taken: the table acts on it at once (its messages tell when)."""

    asked: str
    phase: str


class VoidBody(_Body):
    """Why the round is voided."""

    reason: StrictStr | None = Field(
        default=None,
        min_length=1,
        max_length=200,
        description="Why; needed once a card of the coup is face up (else it reads 'voided by the house').",
    )


class VoidIntent(VoidBody):
    """A void passed on to the table's process: the round and the reason."""

    round_id: StrictInt = Field(gt=0, le=2**31)


# --- responses ---------------------------------------------------------------------------------


class ErrorBody(BaseModel):
    """A refusal: a stable ``code``, the rule it enforces, the numbers it names, and the English detail."""

    code: str = Field(examples=["limit.max"])
    rule: str | None = Field(default=None, examples=["R21"])
    params: dict[str, Any] = Field(default_factory=dict)
    detail: str


class OkOut(BaseModel):
    """Done."""

    ok: bool


class UserView(BaseModel):
    """A user's own account: all their money (``balance`` = ``wallet`` + what is at each table)."""

    id: int
    name: str
    role: str
    balance: int
    wallet: int
    at_tables: dict[str, int]
    commission_owed: int
    display_name: str | None = Field(default=None, description="The masked name others see at the tables.")


class SessionOut(BaseModel):
    """A new session: send ``token`` as ``Authorization: Bearer <token>``."""

    token: str
    user: UserView


class HistoryOut(BaseModel):
    """The user's last rounds, newest first: cards, bets, payouts, balance before and after."""

    rounds: list[dict[str, Any]]


class ShoeInfo(BaseModel):
    """The shoe in play: its number, the commitment to its server seed and the client seed."""

    number: int
    commitment: str
    client_seed: str


class RoundView(BaseModel):
    """A round: ``betting`` (cards dealt and stored) → ``closed`` → ``settled`` or ``voided``.

    Two fields come only when they apply: ``cards`` (the stored cards, once the round is over)
    and ``totals`` (the stake on each bet, while betting)."""

    model_config = _OPEN
    id: int
    table: str
    number: int
    status: str
    opened_at: float | None
    closes_at: float | None
    coup_in_shoe: int | None
    layout: dict[str, Any] | None
    result: dict[str, Any] | None
    void_reason: str | None
    entered: list[str] | None


class TableSummary(BaseModel):
    """A table in the lobby: its settings and rules, whether it is open, its shoe and current round."""

    model_config = _OPEN
    id: str
    name: str
    variant: str
    dealing: str
    decks: int | None
    betting_seconds: float
    #: seconds between the cards as the dealer turns them (0: all at once)
    card_seconds: float = 0.0
    #: the result phase: seconds the result stays on the table before betting opens again
    settle_pause_seconds: float = 4.5
    min_bet: int
    max_bet: int
    rules: dict[str, Any]
    open: bool
    change_shoe_requested: bool
    shoe: ShoeInfo | None
    round: RoundView | None
    players: int


class TableState(BaseModel):
    """The table's public state (the table state machine's ``public_state`` with its seats)."""

    model_config = _OPEN
    phase: str
    round: int
    seats: list[dict[str, Any]]
    players: int
    bettors: list[dict[str, Any]]
    bets: list[dict[str, Any]]
    exposure: int
    cards: dict[str, str | None]
    due: str | None
    reveal_due: str | None
    reveal_deadline: float | None


class TableDetail(TableSummary):
    """One table: the lobby's view plus the bet menus, the public state, the roads and statistics."""

    bets: list[dict[str, Any]]
    variants: dict[str, list[dict[str, Any]]]
    table: TableState
    roads: dict[str, Any]
    stats: dict[str, Any]


class LobbyOut(BaseModel):
    """Every table of the lobby."""

    tables: list[TableSummary]


class EventsOut(BaseModel):
    """Stored public messages of a table after an event id, oldest first, and where the page ends."""

    events: list[dict[str, Any]]
    #: the id of the last stored event the page read (some have no public message): the next page's
    #: ``after``; ``None`` when the page read none, so that no more are stored yet
    last: int | None = None


class BetView(BaseModel):
    """A stored bet."""

    model_config = _OPEN
    id: int | None
    round_id: int | None
    client_id: str
    bet: str
    stake: int
    status: str
    result: str | None
    paid: int | None
    commission: int | None
    returned: int | None
    balance_before: int | None
    balance_after: int | None


class BetOut(BaseModel):
    """An accepted bet (``duplicate``: placed before with this client id; the stored bet is the answer)."""

    bet: BetView
    duplicate: bool
    balance: int | None
    #: the bettor's money at this table after the bet (``None`` for a duplicate)
    at_table: int | None = None


class SeatOut(BaseModel):
    """Where the user is at the table: seat (``None``: standing), money there, commission owed (R27), variant."""

    at_table: bool
    seat: int | None = None
    balance: int | None = None
    available: int | None = None
    owed: int | None = None
    variant: str | None = None


class BetAtTable(BaseModel):
    """One of the user's bets on the table (``carried``: the part of the stake kept in action after a tie, R24)."""

    bet: str
    stake: int
    spot: int | None
    carried: int


class MeAtTable(SeatOut):
    """The user at this table, with their bets on it."""

    bets: list[BetAtTable] | None = None
    squeeze: dict[str, str] | None = Field(
        default=None, description="The face-down cards you squeeze (R23), by position: yours alone to see until turned."
    )


class LeaveOut(BaseModel):
    """Left the table: the amount taken back to the wallet and the commission paid (R27)."""

    amount: int
    commission: int
    at_table: bool


class CashOutOut(SeatOut):
    """Cashed out: the amount taken back to the wallet, the commission paid (R27), and where the user is now."""

    amount: int
    commission: int


class RoundOut(RoundView):
    """A round with its fairness proof (the shoe's server seed once revealed)."""

    proof: dict[str, Any] | None


class VerifyOut(BaseModel):
    """Whether the round's cards are the ones its revealed shoe seed deals."""

    ok: bool
    reason: str
    proof: dict[str, Any]
    recomputed: list[str] | None


class TableSettingsBody(_Body):
    """The house's changes to a table's settings, in force from the next round: limits (minor
    units) and timing (seconds); ``null`` puts a setting back to the tables file's."""

    min_bet: int | None = Field(default=None, ge=1, le=10**12)
    max_bet: int | None = Field(default=None, ge=1, le=10**12)
    betting_seconds: float | None = Field(default=None, ge=0.05, le=600)
    card_seconds: float | None = Field(default=None, ge=0, le=10)
    settle_pause_seconds: float | None = Field(default=None, ge=0, le=60)


class TableSettingsOut(BaseModel):
    """A table's settings now (the tables file's with the house's changes) and the changes alone."""

    table: str
    settings: dict[str, float | int]
    changes: dict[str, float | int]


class FlagsOut(BaseModel):
    """A table setting changed."""

    ok: bool
    open: bool | None = None


class VoidOut(BaseModel):
    """A voided round: every bet refunded in full."""

    ok: bool
    refunded: int


class CardsOut(BaseModel):
    """The cards entered in this coup so far and the position due next (``None``: the coup is complete)."""

    entered: list[str]
    due: str | None


class LedgerOut(BaseModel):
    """The ledger's invariants: the sum is zero, balances equal entries, every bet settled once."""

    ok: bool
    total: int
    mismatched_accounts: list[int]
    open_bets_in_finished_rounds: int
    bets_with_wrong_entries: int
    in_play_mismatch: int


class EntropyBody(_Body):
    """A player's entropy for the client seed of the table's next shoe (any text the player chooses)."""

    entropy: StrictStr = Field(min_length=1, max_length=64, pattern=r"^[\x21-\x7e]+$", examples=["my-lucky-7"])


class EntropyOut(BaseModel):
    """The commitment of the table's next shoe, published ahead, and the entropy players gave to it:
    that shoe's client seed is made from both (docs/security.md, "Fairness chain")."""

    table: str
    commitment: str
    published_at: float
    entropy: list[str]


class AuditEntryOut(BaseModel):
    """One house action or settings change: who, what, when (Unix time), why, and the answer's status."""

    id: int
    at: float
    actor_id: int | None
    actor: str
    role: str
    action: str
    table_id: str | None
    round_id: int | None
    reason: str | None
    detail: dict[str, Any]
    status: int


class AuditOut(BaseModel):
    """A page of the audit log, newest first; ``next``: the ``before`` of the next page (``None``: the last)."""

    entries: list[AuditEntryOut]
    next: int | None
    total: int
