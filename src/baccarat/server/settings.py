"""Settings of the table service: the database, the lobby of tables (a TOML file) and the admin credential.

>>> lobby = load_lobby(None)
>>> [spec.id for spec in lobby.tables][:2]
['macau-1', 'standard-1']
>>> lobby.tables[0].dealing
<Dealing.SHOE: 'shoe'>
"""

from __future__ import annotations

import os
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from enum import StrEnum
from importlib import resources
from pathlib import Path
from typing import Any, ClassVar

from baccarat.errors import InputError
from baccarat.server.policy import Policy, verify_admin_password
from baccarat.shoe import DealingMode, ShoeConfig
from baccarat.table_config import TABLE_SETTINGS, DealSource, TableConfig
from baccarat.variants import get_variant

__all__ = [
    "DEFAULT_DB_URL",
    "Dealing",
    "Lobby",
    "TableSpec",
    "load_lobby",
    "normalise_db_url",
]

#: Where ``baccarat serve`` keeps its data when no ``--db`` is given.
DEFAULT_DB_URL = "sqlite:///data/baccarat.db"


class Dealing(StrEnum):
    """How a table gets its cards: the three shoe modes of the engine, or cards entered by the dealer (R18)."""

    SHOE = "shoe"
    CONTINUOUS = "continuous"
    PRE_DEALT = "pre_dealt"
    DEALER_ENTRY = "dealer_entry"

    @property
    def shoe_mode(self) -> DealingMode | None:
        """The engine's dealing mode, or ``None`` for dealer entry (no server-side shoe)."""
        return None if self is Dealing.DEALER_ENTRY else DealingMode(self.value)


@dataclass(frozen=True, slots=True, kw_only=True)
class TableSpec:
    """One table of the lobby."""

    id: str
    name: str
    variant: str = "macau"
    dealing: Dealing = Dealing.SHOE
    decks: int = 8
    betting_seconds: float = 15.0
    settle_pause_seconds: float = 4.5
    #: Seconds between the cards as the dealer turns them over, one at a time, in the order of the
    #: deal (P1, B1, P2, B2), and twice as long before a third card (0: every card at once).
    card_seconds: float = 0.0
    min_bet: int = 100
    max_bet: int = 500_000
    open: bool = True
    #: A table whose dealer (or the admin) opens each round's betting (the table waits for it) and
    #: may close it before ``betting_seconds`` run out; with any dealing: a table with a shoe of its
    #: own still deals its cards from it once betting closes.
    dealer_paced: bool = False
    coups_per_seed: int = 60
    #: Further settings of the table state machine (:meth:`TableConfig.from_dict` keys: seats,
    #: squeeze, on_tie, commission, limits, banker_player_limit, …).
    rules: dict[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if not self.id or len(self.id) > 40 or not all(c.isalnum() or c in "-_" for c in self.id):
            raise InputError(f"table id {self.id!r} is not valid", hint="use 1–40 letters, digits, - or _")
        if not 0.05 <= self.betting_seconds <= 600:
            raise InputError(f"table {self.id}: betting_seconds {self.betting_seconds} is outside 0.05–600")
        if not 0 <= self.settle_pause_seconds <= 60:
            raise InputError(f"table {self.id}: settle_pause_seconds {self.settle_pause_seconds} is outside 0–60")
        if not 0 <= self.card_seconds <= 10:
            raise InputError(f"table {self.id}: card_seconds {self.card_seconds} is outside 0–10")
        if not 1 <= self.min_bet <= self.max_bet:
            raise InputError(
                f"table {self.id}: limits {self.min_bet}–{self.max_bet} are not valid",
                hint="min_bet must be at least 1 and at most max_bet",
            )
        if not 1 <= self.coups_per_seed <= 1000:
            raise InputError(f"table {self.id}: coups_per_seed {self.coups_per_seed} is outside 1–1000")

    #: The settings the house may change while the server runs (the back office), from the next round.
    SETTABLE: ClassVar[tuple[str, ...]] = (
        "min_bet",
        "max_bet",
        "betting_seconds",
        "card_seconds",
        "settle_pause_seconds",
    )

    def with_settings(self, changes: Mapping[str, Any]) -> TableSpec:
        """This table with the house's changes to :attr:`SETTABLE` settings (refused when not valid).

        >>> TableSpec(id="t", name="T").with_settings({"min_bet": 500}).min_bet
        500
        """
        unknown = sorted(set(changes) - set(self.SETTABLE))
        if unknown:
            raise InputError(f"table {self.id}: {unknown} cannot be changed", hint=f"settable: {list(self.SETTABLE)}")
        changed = replace(self, **dict(changes))
        changed.table_config()  # the table's own rules accept the new limits
        return changed

    def table_config(self) -> TableConfig:
        """The table state machine's settings. The server deals each coup from its provably fair
        shoe when betting opens and enters the cards into the table, so the table itself always
        takes entered cards (its shoe settings check them)."""
        mode = "shoe" if self.dealing is Dealing.PRE_DEALT else self.dealing.value
        data: dict[str, Any] = {
            "variant": self.variant,
            "dealing": mode,
            "decks": self.decks,
            "min_bet": self.min_bet,
            "max_bet": self.max_bet,
            "betting_seconds": self.betting_seconds,
            **self.rules,
        }
        data.setdefault("commission", get_variant(self.variant).commission.value)
        data["deal_source"] = DealSource.DEALER_ENTRY.value
        if mode != "dealer_entry":
            data.pop("dealing")
            data["shoe"] = {"mode": mode}
        try:
            return TableConfig.from_dict(data)
        except InputError as error:
            raise InputError(f"table {self.id}: {error.message}", hint=error.hint) from None

    def shoe_config(self) -> ShoeConfig | None:
        """The engine's shoe settings for this table (``None`` in dealer-entry mode)."""
        mode = self.dealing.shoe_mode
        return None if mode is None else ShoeConfig(decks=self.decks, mode=mode)

    def to_dict(self) -> dict[str, Any]:
        """The public description shown in the lobby."""
        return {
            "id": self.id,
            "name": self.name,
            "variant": self.variant,
            "dealing": self.dealing.value,
            "decks": self.decks,
            "betting_seconds": self.betting_seconds,
            "card_seconds": self.card_seconds,
            "settle_pause_seconds": self.settle_pause_seconds,
            "dealer_paced": self.dealer_paced,
            "min_bet": self.min_bet,
            "max_bet": self.max_bet,
            "rules": self.table_config().to_dict(),
        }


@dataclass(frozen=True, slots=True, kw_only=True)
class Lobby:
    """The tables of a server and the server-wide settings of its config file."""

    tables: tuple[TableSpec, ...]
    starting_balance: int = 1_000_000
    admin_password: str | None = field(default=None, repr=False)
    #: sessions, log-in throttling, per-address limits, websocket origins (the ``[security]`` section)
    policy: Policy = field(default_factory=Policy)

    #: the house's changes to each table's settings, kept up to date by the service (see TableSpec.SETTABLE)
    changes: dict[str, dict[str, Any]] = field(default_factory=dict, repr=False, compare=False)

    def table(self, table_id: str) -> TableSpec | None:
        """The table with this id, with the house's changes to its settings, if any."""
        spec = next((spec for spec in self.tables if spec.id == table_id), None)
        if spec is None or not self.changes.get(table_id):
            return spec
        try:
            return spec.with_settings(self.changes[table_id])
        except InputError:  # pragma: no cover - changes are checked before they are stored
            return spec

    def current(self) -> list[TableSpec]:
        """Every table, with the house's changes to its settings."""
        return [spec for spec in (self.table(s.id) for s in self.tables) if spec is not None]


_TABLE_KEYS = set(TableSpec.__dataclass_fields__) - {"rules"}
#: The table rules a ``[[table]]`` may set beyond the server's own keys: the table's settings,
#: less how cards reach it (the server always enters them from its provably fair shoe).
_RULE_KEYS = set(TABLE_SETTINGS) - _TABLE_KEYS - {"deal_source", "shoe"}


def _table_from(data: dict[str, Any]) -> TableSpec:
    unknown = set(data) - _TABLE_KEYS - _RULE_KEYS
    if unknown:
        known = sorted(_TABLE_KEYS | _RULE_KEYS)
        raise InputError(f"unknown table setting(s) {sorted(unknown)}", hint=f"known: {known}")
    try:
        values = {k: v for k, v in data.items() if k in _TABLE_KEYS}
        values["rules"] = {k: v for k, v in data.items() if k in _RULE_KEYS}
        if "dealing" in values:
            values["dealing"] = Dealing(values["dealing"])
        spec = TableSpec(**values)
    except (TypeError, ValueError) as error:
        if isinstance(error, InputError):
            raise
        raise InputError(f"table {data.get('id')!r}: {error}", hint="see the default tables.toml") from None
    spec.shoe_config()  # validates decks
    spec.table_config()  # validates the table's rules
    return spec


def load_lobby(path: str | Path | None) -> Lobby:
    """Read a lobby file (the packaged ``tables.toml`` when ``path`` is ``None``).

    The admin password comes from ``BACCARAT_ADMIN_PASSWORD`` or else the file's ``[server]`` section
    (refused under 12 characters); the security settings from its ``[security]`` section.
    """
    if path is None:
        text = resources.files("baccarat.server").joinpath("tables.toml").read_text(encoding="utf-8")
    else:
        try:
            text = Path(path).read_text(encoding="utf-8")
        except OSError as error:
            raise InputError(f"cannot read the tables file {path}: {error.strerror}") from None
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise InputError(f"the tables file is not valid TOML: {error}") from None
    server = data.get("server", {})
    tables = tuple(_table_from(entry) for entry in data.get("table", []))
    if not tables:
        raise InputError("the tables file defines no table", hint="add at least one [[table]] section")
    if len({t.id for t in tables}) != len(tables):
        raise InputError("two tables share an id", hint="give every [[table]] its own id")
    balance = server.get("starting_balance", 1_000_000)
    if isinstance(balance, bool) or not isinstance(balance, int) or balance < 0:
        raise InputError(f"starting_balance {balance!r} is not a whole number ≥ 0")
    password = verify_admin_password(os.environ.get("BACCARAT_ADMIN_PASSWORD") or server.get("admin_password"))
    policy = Policy.from_dict(data.get("security", {}))
    return Lobby(tables=tables, starting_balance=balance, admin_password=password, policy=policy)


def normalise_db_url(url: str) -> str:
    """SQLAlchemy URL for a user's ``--db``: ``postgresql://`` uses psycopg 3; a bare path means SQLite.

    >>> normalise_db_url("postgresql://postgres@127.0.0.1/test")
    'postgresql+psycopg://postgres@127.0.0.1/test'
    >>> normalise_db_url("data/x.db")
    'sqlite:///data/x.db'
    """
    if url.startswith(("postgresql://", "postgres://")):
        return "postgresql+psycopg://" + url.split("://", 1)[1]
    if "://" not in url:
        return f"sqlite:///{url}"
    return url
