"""The variants (docs/rules.md, "The variants"): each a frozen record of its bets, paytable, commission and limits.

Dealing mode is independent of the variant: any variant runs from a shoe (R4), a continuous shuffler
(R8) or the pre-dealt layout (R19).

>>> variant = get_variant("no_commission")
>>> variant.title, variant.title_zh, BetKind.SUPER6 in variant.bets
('No Commission', '免佣百家樂', True)
>>> variant.limit(BetKind.BANKER)
BetLimits(kind=<BetKind.BANKER: 'banker'>, minimum=10000, maximum=10000000, step=2)
>>> [v.name for v in VARIANTS]
['macau', 'standard', 'no_commission', 'western', 'ez']
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from baccarat.bets import BetFamily, BetKind, bet_menu
from baccarat.errors import InputError
from baccarat.paytables import Paytable, builtin_paytable, format_pays
from baccarat.settlement import CommissionMode

__all__ = ["VARIANTS", "BetLimits", "Variant", "default_limits", "get_variant", "variant_names"]


@dataclass(frozen=True, slots=True)
class BetLimits:
    """A bet's table minimum and maximum (R21), in minor units, and its stake step.

    ``step`` is the smallest stake on which every paying level pays a whole number of minor units
    (R32: "table stake steps are set so that standard bets never round"); the defaults keep minimum
    and maximum multiples of it.
    """

    kind: BetKind
    minimum: int
    maximum: int
    step: int = 1

    def to_dict(self) -> dict[str, Any]:
        """``{"bet", "min", "max", "step"}``."""
        return {"bet": self.kind.value, "min": self.minimum, "max": self.maximum, "step": self.step}


#: Default limits (minor units): 100.00 to 100,000.00 on the even-money bets, 10.00 to 5,000.00 on the others.
_MAIN_LIMITS = (10_000, 10_000_000)
_SIDE_LIMITS = (1_000, 500_000)
_MAIN_FAMILIES = {BetFamily.MAIN, BetFamily.CARD_COUNT, BetFamily.TOTAL}


def default_limits(paytable: Paytable) -> tuple[BetLimits, ...]:
    """Default limits for every bet of a paytable, each bound rounded up to a multiple of the bet's step.

    >>> [(l.kind.value, l.minimum, l.step) for l in default_limits(builtin_paytable("standard"))][:2]
    [('banker', 10000, 20), ('player', 10000, 1)]
    """
    limits = []
    for terms in paytable.bets:
        low, high = _MAIN_LIMITS if terms.kind.spec.family in _MAIN_FAMILIES else _SIDE_LIMITS
        step = terms.step
        limits.append(BetLimits(terms.kind, -(-low // step) * step, -(-high // step) * step, step))
    return tuple(limits)


@dataclass(frozen=True, slots=True)
class Variant:
    """A variant: its names, the bets it offers, their paytable, the commission mode and default limits."""

    name: str
    title: str
    title_zh: str
    paytable: Paytable
    bets: tuple[BetKind, ...]
    commission: CommissionMode = CommissionMode.DEDUCTED
    limits: tuple[BetLimits, ...] = ()
    description: str = ""

    def __post_init__(self) -> None:
        missing = [kind for kind in self.bets if kind not in self.paytable]
        if missing:
            raise InputError(
                f"variant {self.name!r} offers {bet_menu(missing)}, which paytable {self.paytable.name!r} does not pay",
                hint=f"the paytable's bets: {bet_menu(self.paytable.kinds)}",
                code="variant.invalid",
                params={"variant": self.name},
            )
        if not self.limits:
            offered = tuple(limit for limit in default_limits(self.paytable) if limit.kind in self.bets)
            object.__setattr__(self, "limits", offered)

    def offers(self, kind: BetKind) -> bool:
        """Whether the variant takes this bet."""
        return kind in self.bets

    def check_bet(self, kind: BetKind) -> None:
        """Refuse a bet the variant does not offer, naming the bet and the menu.

        >>> get_variant("macau").check_bet(BetKind.DRAGON7)
        Traceback (most recent call last):
        ...
        baccarat.errors.InputError: bet dragon7 (Dragon 7) is not offered by variant 'macau' (the macau menu: banker (莊), player (閒), tie (和), banker_pair (莊對), player_pair (閒對))
        """
        if kind not in self.bets:
            raise InputError(
                f"bet {kind.value} ({kind.english}) is not offered by variant {self.name!r}",
                hint=f"the {self.name} menu: {bet_menu(self.bets)}",
                code="bet.not_on_menu",
                params={"bet": kind, "variant": self.name},
            )

    def limit(self, kind: BetKind) -> BetLimits:
        """The default limits of one bet of the variant."""
        self.check_bet(kind)
        return next(limit for limit in self.limits if limit.kind == kind)

    def to_dict(self) -> dict[str, Any]:
        """The variant and its paytable as JSON data.

        ``pays`` is a number, net per unit, as in ``baccarat odds --json`` (e.g. ``0.95``, ``8.0``);
        ``gross`` and ``commission`` are exact text (``"1"``, ``"0.05"``), so the exact payout is
        ``gross − commission``.

        >>> get_variant("macau").to_dict()["bets"][0]["levels"]
        [{'name': 'win', 'pays': 0.95, 'gross': '1', 'commission': '0.05'}]
        """
        limits = {limit.kind: limit for limit in self.limits}
        bets = []
        for kind in self.bets:
            terms = self.paytable.terms(kind)
            bets.append(
                {
                    "bet": kind.value,
                    "name": kind.english,
                    "name_zh": kind.chinese,
                    "levels": [
                        {
                            "name": level.name,
                            "pays": float(level.pays),
                            "gross": format_pays(level.gross),
                            "commission": format_pays(level.commission),
                        }
                        for level in terms.levels
                    ],
                    "pushes": [push.name for push in terms.pushes],
                    "min": limits[kind].minimum,
                    "max": limits[kind].maximum,
                    "step": limits[kind].step,
                }
            )
        return {
            "name": self.name,
            "title": self.title,
            "title_zh": self.title_zh,
            "description": self.description,
            "commission": self.commission.value,
            "paytable": self.paytable.name,
            "bets": bets,
        }


def _builtin(name: str) -> Variant:
    paytable = builtin_paytable(name)
    return Variant(
        name=name,
        title=paytable.title,
        title_zh=paytable.title_zh,
        paytable=paytable,
        bets=paytable.kinds,
        description=paytable.description,
    )


#: The registry, in menu order.
VARIANTS: tuple[Variant, ...] = tuple(
    _builtin(name) for name in ("macau", "standard", "no_commission", "western", "ez")
)
_BY_NAME = {variant.name: variant for variant in VARIANTS}


def variant_names() -> tuple[str, ...]:
    """The registered variants' names."""
    return tuple(_BY_NAME)


def get_variant(name: str) -> Variant:
    """A registered variant by name (case and ``-`` ignored).

    >>> get_variant("EZ").paytable.name
    'ez'
    >>> get_variant("baccarat")
    Traceback (most recent call last):
    ...
    baccarat.errors.InputError: unknown variant 'baccarat' (variants: macau, standard, no_commission, western, ez)
    """
    variant = _BY_NAME.get(name.strip().lower().replace("-", "_"))
    if variant is None:
        raise InputError(
            f"unknown variant {name!r}",
            hint=f"variants: {', '.join(_BY_NAME)}",
            code="variant.unknown",
            params={"variant": name},
        )
    return variant
