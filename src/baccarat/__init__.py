"""Baccarat (百家樂) as played in Macau: the engine, exact odds, simulation, roads and a table service.

>>> from baccarat import deal_coup, parse_cards
>>> deal_coup(parse_cards("9S 8H KD 5C")).winner.value
'player'
"""

from baccarat.cards import Card, Rank, Suit, hand_total, parse_cards
from baccarat.composition import Composition
from baccarat.coup import CoupDealer, CoupResult, Hand, Position, Side, Winner, deal_coup, deal_coups
from baccarat.dealing import DealtCoup, Layout, ShoeDealer
from baccarat.errors import BaccaratError, InputError, ProcedureError
from baccarat.rng import ProvablyFairSource, SecureSource, SeededSource
from baccarat.shoe import AfterCutCard, BurnMethod, DealingMode, Shoe, ShoeConfig

__version__ = "0.1.0"

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
