"""Baccarat (百家樂) as played in Macau: the engine, exact odds, simulation, roads and a table service.

The names below are imported when first used, so that a command that needs only a few of them
(``baccarat --help``, ``baccarat deal``) starts quickly.

>>> from baccarat import deal_coup, parse_cards
>>> deal_coup(parse_cards("9S 8H KD 5C")).winner.value
'player'
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from baccarat.cards import Card, Rank, Suit, hand_total, parse_cards
    from baccarat.composition import Composition
    from baccarat.coup import CoupDealer, CoupResult, Hand, Position, Side, Winner, deal_coup, deal_coups
    from baccarat.dealing import DealtCoup, Layout, ShoeDealer
    from baccarat.errors import BaccaratError, InputError, ProcedureError
    from baccarat.rng import ProvablyFairSource, SecureSource, SeededSource
    from baccarat.shoe import AfterCutCard, BurnMethod, DealingMode, Shoe, ShoeConfig

__version__ = "0.1.0"

#: Each public name and the module it comes from.
_HOMES = {
    "baccarat.cards": ("Card", "Rank", "Suit", "hand_total", "parse_cards"),
    "baccarat.composition": ("Composition",),
    "baccarat.coup": ("CoupDealer", "CoupResult", "Hand", "Position", "Side", "Winner", "deal_coup", "deal_coups"),
    "baccarat.dealing": ("DealtCoup", "Layout", "ShoeDealer"),
    "baccarat.errors": ("BaccaratError", "InputError", "ProcedureError"),
    "baccarat.rng": ("ProvablyFairSource", "SecureSource", "SeededSource"),
    "baccarat.shoe": ("AfterCutCard", "BurnMethod", "DealingMode", "Shoe", "ShoeConfig"),
}
_MODULE_OF = {name: module for module, names in _HOMES.items() for name in names}

__all__ = [
    "AfterCutCard",
    "BaccaratError",
    "BurnMethod",
    "Card",
    "Composition",
    "CoupDealer",
    "CoupResult",
    "DealingMode",
    "DealtCoup",
    "Hand",
    "InputError",
    "Layout",
    "Position",
    "ProcedureError",
    "ProvablyFairSource",
    "Rank",
    "SecureSource",
    "SeededSource",
    "Shoe",
    "ShoeConfig",
    "ShoeDealer",
    "Side",
    "Suit",
    "Winner",
    "__version__",
    "deal_coup",
    "deal_coups",
    "hand_total",
    "parse_cards",
]


def __getattr__(name: str) -> Any:
    module = _MODULE_OF.get(name)
    if module is None:
        raise AttributeError(f"module 'baccarat' has no attribute {name!r}")
    value = getattr(import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
