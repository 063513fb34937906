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

A variant offers its menu; its options add side bets (R29, R31) or other terms for a bet, named
after the variant with ``+``:

>>> extended = get_variant("macau+lucky6+tie9")
>>> extended.name, extended.bets[-1], str(extended.paytable.terms(BetKind.TIE).levels[0].pays)
('macau+lucky6+tie9', <BetKind.LUCKY6: 'lucky6'>, '9')
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, replace
from typing import Any

from baccarat.bets import BetFamily, BetKind, bet_menu
from baccarat.errors import InputError
from baccarat.paytables import Paytable, builtin_options, builtin_paytable, format_pays
from baccarat.settlement import CommissionMode

__all__ = [
    "OPTION_SEPARATOR",
    "VARIANTS",
    "BetLimits",
    "Variant",
    "default_limits",
    "get_variant",
    "variant_names",
]

#: Joins a variant's name and its options' names: ``macau+lucky6+tie9``.
OPTION_SEPARATOR = "+"


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
    options: tuple[str, ...] = ()  # the options it offers (see :meth:`with_options`)
    chosen: tuple[str, ...] = ()  # the options it was given

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

    def with_options(self, names: tuple[str, ...]) -> Variant:
        """This variant with options added (each offered by it, none twice), in the options' order.

        >>> get_variant("ez").with_options(("banker4",))
        Traceback (most recent call last):
        ...
        baccarat.errors.InputError: variant 'ez' does not offer option 'banker4' (its options: lucky6, either_pair, perfect_pair, tie9)
        """
        for name in names:
            if name not in self.options or names.count(name) > 1 or name in self.chosen:
                problem = "gives" if name in self.chosen or names.count(name) > 1 else "does not offer"
                raise InputError(
                    f"variant {self.name!r} {problem} option {name!r}" + (" twice" if problem == "gives" else ""),
                    hint=f"its options: {', '.join(self.options)}",
                    code="variant.unknown",
                    params={"variant": f"{self.name}{OPTION_SEPARATOR}{name}"},
                )
        chosen = tuple(name for name in self.options if name in names or name in self.chosen)
        base = self.name.split(OPTION_SEPARATOR)[0]
        name = OPTION_SEPARATOR.join((base, *chosen))
        return _with_paytable(self, _option_paytable(base, chosen), name=name, chosen=chosen)

    def with_paytable(self, paytable: Paytable) -> Variant:
        """This variant played with an operator's paytable: its menu is the paytable's bets."""
        return _with_paytable(self, paytable, name=self.name, chosen=self.chosen)

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
            "options": list(self.options),
            "chosen": list(self.chosen),
        }


def _with_paytable(variant: Variant, paytable: Paytable, *, name: str, chosen: tuple[str, ...]) -> Variant:
    return replace(
        variant,
        name=name,
        title=paytable.title,
        title_zh=paytable.title_zh,
        paytable=paytable,
        bets=paytable.kinds,
        description=paytable.description,
        limits=(),
        chosen=chosen,
    )


@functools.cache
def _option_paytable(base: str, chosen: tuple[str, ...]) -> Paytable:
    paytable = builtin_paytable(base)
    options = builtin_options()
    for i, option in enumerate(chosen):
        paytable = options[option].apply(paytable, name=OPTION_SEPARATOR.join((base, *chosen[: i + 1])))
    return paytable


def _offered(name: str) -> tuple[str, ...]:
    return tuple(option.name for option in builtin_options().values() if name in option.variants)


def _builtin(name: str) -> Variant:
    paytable = builtin_paytable(name)
    return Variant(
        name=name,
        title=paytable.title,
        title_zh=paytable.title_zh,
        paytable=paytable,
        bets=paytable.kinds,
        description=paytable.description,
        options=_offered(name),
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
    base, *options = name.strip().lower().replace("-", "_").split(OPTION_SEPARATOR)
    variant = _BY_NAME.get(base.strip())
    if variant is None:
        raise InputError(
            f"unknown variant {name!r}",
            hint=f"variants: {', '.join(_BY_NAME)}",
            code="variant.unknown",
            params={"variant": name},
        )
    if not options:
        return variant
    extended = variant.with_options(tuple(option.strip() for option in options))
    return _EXTENDED.setdefault(extended.name, extended)


#: The variants with options asked for so far, by canonical name (one object per name).
_EXTENDED: dict[str, Variant] = {}
