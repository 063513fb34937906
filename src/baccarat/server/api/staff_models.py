"""The request and response models of the dealer's console and of the back office's people
(dealers and players)."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictStr

__all__ = [
    "ConsoleCard",
    "ConsoleOut",
    "ConsoleRound",
    "DealerBody",
    "DealerOut",
    "DealerTableOut",
    "DealerTablesBody",
    "DealersOut",
    "LimitsBody",
    "LimitsOut",
    "MyTablesOut",
    "PlayerOut",
    "PlayersOut",
    "SuspendBody",
]

_TABLE_ID = Field(min_length=1, max_length=40, pattern=r"^[A-Za-z0-9_-]+$")


class _Body(BaseModel):
    model_config = ConfigDict(extra="forbid")


class ConsoleCard(BaseModel):
    """A card of the coup as entered: its position (``player_1``…), the dealer's call (``P1``…), and
    the card (``null`` while it lies face down for its squeezer, R23)."""

    position: str
    short: str
    card: str | None
    face_down: bool


class ConsoleReason(BaseModel):
    """Why a hand draws or stands (R12–R15): a stable ``code``, its ``params`` and the English ``text``."""

    code: str
    params: dict[str, int | str | bool]
    text: str


class ConsoleRound(BaseModel):
    """The stored round in play."""

    id: int
    number: int
    status: str
    closes_at: float | None


class ConsoleOut(BaseModel):
    """What the dealer's console shows: the phase, the round, the cards entered, the position due
    with the rules that called for it, the shoe and its burn (R4), the squeeze (who turns each side
    and when the dealer does, R23), the totals on each spot, and what to do next (``burn``,
    ``open_betting``, ``close_betting``, ``enter_card``, ``wait_reveal``)."""

    phase: str
    round: ConsoleRound | None
    dealer_paced: bool
    next: str
    cards: list[ConsoleCard]
    due: str | None
    due_short: str | None
    due_label: str | None
    reasons: list[str]
    explained: list[ConsoleReason]
    last_coup: bool
    can_correct: bool
    reveal_due: str | None
    shoe_number: int
    coup_number: int
    shoe_over: bool
    cut_card_at: int | None
    burned: int
    burn_method: str
    burn_cards: int | None
    squeezers: dict[str, str | None]
    reveal_deadline: float | None
    totals: dict[str, int]
    players: int


class DealerTableOut(BaseModel):
    """A table a dealer may run."""

    id: str
    name: str
    dealing: str
    dealer_paced: bool


class MyTablesOut(BaseModel):
    """The tables the logged-in dealer may run (the admin: every dealer-entry table)."""

    tables: list[DealerTableOut]


class DealerBody(_Body):
    """A new dealer: name, password and the tables assigned."""

    #: any script, NFKC-normalised and checked by the route (400 ``name.invalid``)
    name: StrictStr = Field(min_length=1, max_length=64)
    password: StrictStr = Field(min_length=8, max_length=128)
    tables: list[StrictStr] = Field(default_factory=list, max_length=100)


class DealerTablesBody(_Body):
    """The tables a dealer is assigned to (replacing the earlier assignment)."""

    tables: list[StrictStr] = Field(max_length=100)


class DealerOut(BaseModel):
    """A dealer: id, name, the tables assigned, whether suspended."""

    id: int
    name: str
    tables: list[str]
    suspended: bool


class DealersOut(BaseModel):
    """Every dealer, by name."""

    dealers: list[DealerOut]


class PlayerOut(BaseModel):
    """A player in the back office: wallet and commission owed (minor units), suspension."""

    id: int
    name: str
    wallet: int
    owed: int
    suspended: bool
    created_at: float


class PlayersOut(BaseModel):
    """A page of players and how many match."""

    players: list[PlayerOut]
    total: int


class SuspendBody(_Body):
    """Suspend an account (it cannot log in; its sessions end) or lift the suspension, and why."""

    suspended: StrictBool
    reason: StrictStr | None = Field(default=None, min_length=1, max_length=200)


class LimitsBody(_Body):
    """Responsible-gaming settings: a daily loss limit (minor units, ``null``: none), the minutes
    between play-time reminders (``null``: none) and a self-exclusion of ``exclude_days`` days from now."""

    daily_loss_limit: int | None = Field(default=None, ge=100, le=10**12)
    session_reminder_minutes: int | None = Field(default=None, ge=5, le=24 * 60)
    exclude_days: int | None = Field(default=None, ge=1, le=3650)


class LimitsOut(BaseModel):
    """A player's settings, what they lost today (UTC; open bets counted in full) and what is left
    under the daily limit (``null``: no limit)."""

    daily_loss_limit: int | None
    session_reminder_minutes: int | None
    excluded_until: float | None
    lost_today: int
    left_today: int | None
