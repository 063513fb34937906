"""Cards as the game shows them (Rich text): rank and suit glyph, hearts and diamonds in red."""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text

from baccarat.cards import Card

__all__ = ["render_cards"]


def render_cards(cards: Sequence[Card]) -> Text:
    """Cards with suit glyphs, red suits in red.

    >>> render_cards(parse_cards("AS 10H")).plain
    'A♠ 10♥'
    """
    text = Text()
    for i, card in enumerate(cards):
        if i:
            text.append(" ")
        text.append(card.pretty, style="red" if card.suit.is_red else "bright_white")
    return text
