"""A table's settings as validated data (R5–R8, R20–R24, R27, R28), loadable from a dict or TOML.

Every choice a house makes about a table is a field of :class:`TableConfig`, with the rule book's
default: the variant, how cards reach the table (a shoe, a continuous shuffler or the pre-dealt
layout; dealt automatically or entered by a dealer from a physical shoe), the shoe procedures, seats
and standing bettors, limits, the Banker/Player net-exposure limit, squeeze, the tie policy and
the commission box.

>>> config = TableConfig.from_dict({
...     "variant": "standard", "dealing": "pre_dealt", "decks": 8, "seats": 9,
...     "min_bet": 100, "max_bet": 200_000, "limits": {"tie": {"max": 20_000}},
...     "on_tie": "stay", "tie_permissions": "sjm", "commission": "owed",
... })
>>> config.mode.value, config.seats, config.limit(BetKind.TIE).maximum, config.net_limit
('pre_dealt', 9, 20000, 200000)
>>> sorted(p.value for p in config.tie_permissions)
['add']
>>> TableConfig.from_dict(config.to_dict()) == config
True
>>> TableConfig(seats=20)
Traceback (most recent call last):
...
baccarat.errors.InputError: 20 seats is outside 7–14 (R20: a table has 7 or more seats; a small table 9, a large table 14)
"""

from __future__ import annotations

import tomllib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, TypeVar

from baccarat.bets import BetKind, bet_menu, parse_bet_kind
from baccarat.errors import InputError
from baccarat.settlement import CommissionMode, TiePolicy
from baccarat.shoe import AfterCutCard, BurnMethod, DealingMode, ShoeConfig
from baccarat.variants import BetLimits, Variant, get_variant

__all__ = [
    "ALL_TIE_PERMISSIONS",
    "MAX_SEATS",
    "MIN_SEATS",
    "SJM_TIE_PERMISSIONS",
    "SWITCHABLE_VARIANTS",
    "TABLE_SETTINGS",
    "DealSource",
    "TableConfig",
    "TiePermission",
]

#: Seats at a table (R20): 7 or more; a small table has 9, a large one 14.
MIN_SEATS, MAX_SEATS = 7, 14

#: The variants a bettor may switch between with no bet open (R28, seed 002).
SWITCHABLE_VARIANTS: frozenset[str] = frozenset({"standard", "no_commission"})


class DealSource(StrEnum):
    """Where the cards come from: the table deals them itself, or a dealer enters each card (R18)."""

    AUTOMATIC = "automatic"  # from a shoe the table shuffles (baccarat.dealing.ShoeDealer)
    DEALER_ENTRY = "dealer_entry"  # from a physical shoe or card reader, card by card (baccarat.coup.CoupDealer)


class TiePermission(StrEnum):
    """What a bettor may do with Banker/Player bets that stay in action after a tie (R24)."""

    WITHDRAW = "withdraw"  # take the whole bet back
    REDUCE = "reduce"  # take part of it back
    SWITCH = "switch"  # move it to the other side
    ADD = "add"  # add to it


#: Article 12 of the Macau rules allows every change.
ALL_TIE_PERMISSIONS: frozenset[TiePermission] = frozenset(TiePermission)
#: The SJM house rule: after a tie a bettor may only add (article 18).
SJM_TIE_PERMISSIONS: frozenset[TiePermission] = frozenset({TiePermission.ADD})


@dataclass(frozen=True, kw_only=True)
class TableConfig:
    """Every setting of one table, validated when made.

    Each bet spot's minimum and maximum (R21) is, first, the one ``limits`` gives for that bet;
    else ``min_bet``/``max_bet`` when set; else the variant's default.
    ``banker_player_limit`` caps the difference between all Banker and all Player bets at the table
    (R21, 數紅); ``None`` means the larger of the Banker and Player maximums. ``tie_permissions``
    matter only with ``on_tie = stay`` (R24). ``squeeze_seconds`` is how long a squeezer has before
    the dealer may turn the cards (R23). ``variant_switching`` lets bettors switch between standard
    and no-commission play with no bet open (R28). ``betting_seconds`` is data for the loop that
    runs the table (the table itself has no clock).
    """

    variant: str = "macau"
    deal_source: DealSource = DealSource.AUTOMATIC
    shoe: ShoeConfig = field(default_factory=ShoeConfig)
    seats: int = MIN_SEATS
    standing_bettors: bool = True
    min_bet: int | None = None
    max_bet: int | None = None
    limits: Mapping[BetKind, BetLimits] = field(default_factory=dict)
    banker_player_limit: int | None = None
    banker_multiple_of_minimum: bool = True
    squeeze: bool = False
    squeeze_seconds: float = 30.0
    on_tie: TiePolicy = TiePolicy.PUSH
    tie_permissions: frozenset[TiePermission] = ALL_TIE_PERMISSIONS
    commission: CommissionMode = CommissionMode.DEDUCTED
    variant_switching: bool = True
    betting_seconds: float = 15.0

    def __post_init__(self) -> None:
        object.__setattr__(self, "limits", dict(self.limits))
        object.__setattr__(self, "tie_permissions", frozenset(self.tie_permissions))
        table_variant = get_variant(self.variant)
        object.__setattr__(self, "variant", table_variant.name)  # one name per variant: macau+lucky6+tie9
        if not MIN_SEATS <= _whole(self.seats, "seats") <= MAX_SEATS:
            raise InputError(
                f"{self.seats} seats is outside {MIN_SEATS}–{MAX_SEATS}",
                hint="R20: a table has 7 or more seats; a small table 9, a large table 14",
                code="config.invalid",
            )
        for what, amount in (("minimum bet", self.min_bet), ("maximum bet", self.max_bet)):
            if amount is not None:
                _whole(amount, what, least=1)
        if self.min_bet is not None and self.max_bet is not None:
            _check_range(self.min_bet, self.max_bet, "every bet")
        for kind, limits in self.limits.items():
            if not isinstance(kind, BetKind) or not isinstance(limits, BetLimits) or limits.kind is not kind:
                raise InputError(
                    "limits map a BetKind to its BetLimits",
                    hint="e.g. {BetKind.TIE: BetLimits(BetKind.TIE, 100, 20_000)}",
                    code="config.invalid",
                )
            _whole(limits.minimum, f"{kind.value} minimum", least=1)
            _check_range(limits.minimum, limits.maximum, kind.value)
            if not any(kind in get_variant(name).bets for name in self.variants):
                raise InputError(
                    f"a limit is given for {kind.value}, which variant {self.variant!r} does not offer",
                    hint=f"its bets: {bet_menu(table_variant.bets)}",
                    code="config.invalid",
                )
        if self.banker_player_limit is not None:
            _whole(self.banker_player_limit, "Banker/Player limit", least=1)
        if not self.squeeze_seconds > 0:
            raise InputError(
                f"squeeze time {self.squeeze_seconds} s is not positive",
                hint="give seconds, e.g. 30",
                code="config.invalid",
            )
        if not self.betting_seconds > 0:
            raise InputError(
                f"betting time {self.betting_seconds} s is not positive",
                hint="give seconds, e.g. 15",
                code="config.invalid",
            )
        if self.deal_source is DealSource.DEALER_ENTRY and self.mode is DealingMode.PRE_DEALT:
            raise InputError(
                "the pre-dealt layout needs the automatic deal source",
                hint="its six cards are committed to before betting (R19); use dealing = shoe for a physical shoe",
                code="config.invalid",
            )

    # --- derived ------------------------------------------------------------------------------

    @property
    def mode(self) -> DealingMode:
        """The dealing mode: shoe (R4), continuous shuffler (R8) or pre-dealt layout (R19)."""
        return self.shoe.mode

    @property
    def variants(self) -> tuple[str, ...]:
        """The variants bettors may play at this table: the table's, and the one it may switch to (R28)."""
        if self.variant_switching and self.variant in SWITCHABLE_VARIANTS:
            return (self.variant, *sorted(SWITCHABLE_VARIANTS - {self.variant}))
        return (self.variant,)

    def get_variant(self, name: str | None = None) -> Variant:
        """A variant played at this table (the table's own by default)."""
        return get_variant(name or self.variant)

    def limit(self, kind: BetKind, variant: str | None = None) -> BetLimits:
        """The minimum and maximum of one bet spot (R21) for a bettor playing ``variant`` (the table's by default).

        >>> TableConfig(min_bet=500).limit(BetKind.TIE)
        BetLimits(kind=<BetKind.TIE: 'tie'>, minimum=500, maximum=500000, step=1)
        """
        given = self.limits.get(kind)
        if given is not None:
            return given
        default = self.get_variant(variant).limit(kind)
        if self.min_bet is None and self.max_bet is None:
            return default
        minimum = default.minimum if self.min_bet is None else self.min_bet
        maximum = default.maximum if self.max_bet is None else self.max_bet
        return BetLimits(kind, minimum, max(minimum, maximum), default.step)

    @property
    def net_limit(self) -> int:
        """The most the Banker and Player totals at the table may differ by (R21)."""
        if self.banker_player_limit is not None:
            return self.banker_player_limit
        return max(self.limit(BetKind.BANKER).maximum, self.limit(BetKind.PLAYER).maximum)

    # --- data ---------------------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        """Plain data that :meth:`from_dict` reads back."""
        return {
            "variant": self.variant,
            "deal_source": self.deal_source.value,
            "shoe": self.shoe.to_dict(),
            "seats": self.seats,
            "standing_bettors": self.standing_bettors,
            "min_bet": self.min_bet,
            "max_bet": self.max_bet,
            "limits": {k.value: {"min": v.minimum, "max": v.maximum, "step": v.step} for k, v in self.limits.items()},
            "banker_player_limit": self.banker_player_limit,
            "banker_multiple_of_minimum": self.banker_multiple_of_minimum,
            "squeeze": self.squeeze,
            "squeeze_seconds": self.squeeze_seconds,
            "on_tie": self.on_tie.value,
            "tie_permissions": sorted(p.value for p in self.tie_permissions),
            "commission": self.commission.value,
            "variant_switching": self.variant_switching,
            "betting_seconds": self.betting_seconds,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], *, ignore: Iterable[str] = ()) -> TableConfig:
        """Read a table's settings from plain data (a parsed TOML table); unknown keys are refused.

        Besides the field names, ``dealing`` (``shoe``, ``continuous``, ``pre_dealt`` or
        ``dealer_entry``) and ``decks`` are accepted as shorthands, and ``tie_permissions`` may be
        ``"all"`` or ``"sjm"``. ``ignore`` names keys that belong to someone else (a server's ``id``).

        >>> TableConfig.from_dict({"dealing": "dealer_entry"}).deal_source.value
        'dealer_entry'
        >>> TableConfig.from_dict({"seets": 9})
        Traceback (most recent call last):
        ...
        baccarat.errors.InputError: unknown table setting 'seets' (known settings: variant, deal_source, ...)
        """
        return _Reader(data, frozenset(ignore)).config()

    @classmethod
    def from_toml(cls, text: str) -> TableConfig:
        """Read a table's settings from TOML text (the keys of :meth:`from_dict`).

        >>> TableConfig.from_toml('variant = "no_commission"\\nsqueeze = true').variants
        ('no_commission', 'standard')
        """
        try:
            data = tomllib.loads(text)
        except tomllib.TOMLDecodeError as error:
            raise InputError(
                f"table settings are not valid TOML: {error}", hint="check the TOML syntax", code="config.invalid"
            ) from None
        return cls.from_dict(data)


def _check_range(minimum: int, maximum: int, what: str) -> None:
    _whole(maximum, f"{what} maximum", least=1)
    if maximum < minimum:
        raise InputError(
            f"{what} maximum {maximum} is below the minimum {minimum}",
            hint="give a maximum at least as large as the minimum",
            code="config.invalid",
        )


def _whole(value: Any, what: str, *, least: int = 0) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise InputError(
            f"{what} {value!r} is not a whole number", hint="money is in minor units (cents)", code="config.invalid"
        )
    if value < least:
        raise InputError(f"{what} {value} is below {least}", hint=f"give at least {least}", code="config.invalid")
    return value


_E = TypeVar("_E", bound=StrEnum)

_SHOE_KEYS = (
    "decks",
    "mode",
    "cut_card_from_end",
    "burn",
    "burn_count",
    "demo_coups",
    "after_cut_card",
    "burn_each_coup",
)
TABLE_SETTINGS = _KEYS = (
    "variant",
    "deal_source",
    "dealing",
    "shoe",
    "decks",
    "seats",
    "standing_bettors",
    "min_bet",
    "max_bet",
    "limits",
    "banker_player_limit",
    "banker_multiple_of_minimum",
    "squeeze",
    "squeeze_seconds",
    "on_tie",
    "tie_permissions",
    "commission",
    "variant_switching",
    "betting_seconds",
)


class _Reader:
    """Type checks with messages that name the setting."""

    def __init__(self, data: Mapping[str, Any], ignore: frozenset[str]) -> None:
        if not isinstance(data, Mapping):
            raise InputError(
                "table settings must be a table of key = value", hint="see TableConfig.from_dict", code="config.invalid"
            )
        self.data = {k: v for k, v in data.items() if k not in ignore}
        for key in self.data:
            if key not in _KEYS:
                raise InputError(
                    f"unknown table setting {key!r}", hint=f"known settings: {', '.join(_KEYS)}", code="config.invalid"
                )

    @staticmethod
    def enum(kind: type[_E], value: Any, key: str) -> _E:
        try:
            return kind(value)
        except ValueError:
            choices = ", ".join(member.value for member in kind)
            raise InputError(
                f"{key} = {value!r} is not one of: {choices}", hint=f"choose one of: {choices}", code="config.invalid"
            ) from None

    @staticmethod
    def flag(value: Any, key: str) -> bool:
        if not isinstance(value, bool):
            raise InputError(
                f"{key} = {value!r} is not true or false", hint=f"write {key} = true or false", code="config.invalid"
            )
        return value

    @staticmethod
    def seconds(value: Any, key: str) -> float:
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise InputError(
                f"{key} = {value!r} is not a number of seconds", hint=f"write {key} = 30", code="config.invalid"
            )
        return float(value)

    def shoe(self) -> ShoeConfig:
        raw = self.data.get("shoe", {})
        if not isinstance(raw, Mapping):
            raise InputError(
                "shoe must be a table of shoe settings",
                hint=f"its keys: {', '.join(_SHOE_KEYS)}",
                code="config.invalid",
            )
        values: dict[str, Any] = {}
        for key, value in raw.items():
            if key not in _SHOE_KEYS:
                raise InputError(
                    f"unknown shoe setting {key!r}",
                    hint=f"known shoe settings: {', '.join(_SHOE_KEYS)}",
                    code="config.invalid",
                )
            if key == "mode":
                values[key] = self.enum(DealingMode, value, "shoe.mode")
            elif key == "burn":
                values[key] = self.enum(BurnMethod, value, "shoe.burn")
            elif key == "after_cut_card":
                values[key] = self.enum(AfterCutCard, value, "shoe.after_cut_card")
            elif key == "burn_each_coup":
                values[key] = self.flag(value, "shoe.burn_each_coup")
            else:
                values[key] = _whole(value, f"shoe.{key}")
        if "decks" in self.data:
            if "decks" in values and values["decks"] != self.data["decks"]:
                raise InputError(
                    "decks is given twice with different values", hint="give it once", code="config.invalid"
                )
            values["decks"] = _whole(self.data["decks"], "decks")
        dealing = self.data.get("dealing")
        if dealing is not None:
            mode = (
                DealingMode.SHOE if dealing == DealSource.DEALER_ENTRY else self.enum(DealingMode, dealing, "dealing")
            )
            if values.get("mode", mode) is not mode:
                raise InputError(
                    f"dealing = {dealing!r} contradicts shoe.mode",
                    hint="give the dealing mode once",
                    code="config.invalid",
                )
            values["mode"] = mode
        return ShoeConfig(**values)

    def default_limit(self, kind: BetKind) -> BetLimits:
        variant = get_variant(str(self.data.get("variant", TableConfig.variant)))
        for other in (variant, *(get_variant(name) for name in sorted(SWITCHABLE_VARIANTS))):
            if other.offers(kind):
                return other.limit(kind)
        return BetLimits(kind, 1, 1)  # TableConfig refuses the bet, naming the variant's menu

    def limits(self) -> dict[BetKind, BetLimits]:
        raw = self.data.get("limits", {})
        if not isinstance(raw, Mapping):
            raise InputError(
                "limits must be a table: bet id = {min = …, max = …}",
                hint="e.g. limits.tie = {max = 20000}",
                code="config.invalid",
            )
        limits: dict[BetKind, BetLimits] = {}
        for name, entry in raw.items():
            kind = parse_bet_kind(name)
            if not isinstance(entry, Mapping) or not set(entry) <= {"min", "max", "step"} or not entry:
                raise InputError(
                    f"limits.{name} must hold min and/or max",
                    hint=f"e.g. limits.{name} = {{max = 20000}}",
                    code="config.invalid",
                )
            if kind in limits:
                raise InputError(
                    f"limits.{name}: {kind.value} is given twice", hint="give each bet once", code="config.invalid"
                )
            default = self.default_limit(kind)
            minimum = entry.get("min", self.data.get("min_bet", default.minimum))
            maximum = entry.get("max", self.data.get("max_bet", default.maximum))
            step = entry.get("step", default.step)
            limits[kind] = BetLimits(
                kind,
                _whole(minimum, f"limits.{name}.min", least=1),
                _whole(maximum, f"limits.{name}.max", least=1),
                _whole(step, f"limits.{name}.step", least=1),
            )
        return limits

    def permissions(self) -> frozenset[TiePermission]:
        raw = self.data["tie_permissions"]
        if raw == "all":
            return ALL_TIE_PERMISSIONS
        if raw == "sjm":
            return SJM_TIE_PERMISSIONS
        if isinstance(raw, str) or not isinstance(raw, Iterable):
            raise InputError(
                f"tie_permissions = {raw!r} is not a list",
                hint='write "all", "sjm" or a list of withdraw, reduce, switch, add',
                code="config.invalid",
            )
        return frozenset(self.enum(TiePermission, item, "tie_permissions") for item in raw)

    def config(self) -> TableConfig:
        d = self.data
        values: dict[str, Any] = {"shoe": self.shoe(), "limits": self.limits()}
        if "variant" in d:
            if not isinstance(d["variant"], str):
                raise InputError(
                    f"variant = {d['variant']!r} is not a name", hint='e.g. variant = "macau"', code="config.invalid"
                )
            values["variant"] = d["variant"]
        if "deal_source" in d:
            values["deal_source"] = self.enum(DealSource, d["deal_source"], "deal_source")
        if d.get("dealing") == DealSource.DEALER_ENTRY:
            if values.get("deal_source", DealSource.DEALER_ENTRY) is not DealSource.DEALER_ENTRY:
                raise InputError(
                    "dealing = dealer_entry contradicts deal_source",
                    hint="give the deal source once",
                    code="config.invalid",
                )
            values["deal_source"] = DealSource.DEALER_ENTRY
        for key in ("seats", "min_bet", "max_bet"):
            if d.get(key) is not None:
                values[key] = _whole(d[key], key)
        if d.get("banker_player_limit") is not None:
            values["banker_player_limit"] = _whole(d["banker_player_limit"], "banker_player_limit")
        for key in ("standing_bettors", "banker_multiple_of_minimum", "squeeze", "variant_switching"):
            if key in d:
                values[key] = self.flag(d[key], key)
        for key in ("squeeze_seconds", "betting_seconds"):
            if key in d:
                values[key] = self.seconds(d[key], key)
        if "on_tie" in d:
            values["on_tie"] = self.enum(TiePolicy, d["on_tie"], "on_tie")
        if "commission" in d:
            values["commission"] = self.enum(CommissionMode, d["commission"], "commission")
        if "tie_permissions" in d:
            values["tie_permissions"] = self.permissions()
        return TableConfig(**values)
