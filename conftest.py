"""Names every doctest may use without importing them (pytest's doctest namespace)."""

from typing import Any

import pytest

import baccarat
from baccarat.cards import Card, Rank, Suit, parse_cards


@pytest.fixture(autouse=True)
def _doctest_names(doctest_namespace: dict[str, Any]) -> None:
    doctest_namespace.update(baccarat=baccarat, Card=Card, Rank=Rank, Suit=Suit, parse_cards=parse_cards)
