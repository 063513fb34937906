"""The tables of ``baccarat deal`` and ``baccarat shoe``: coups and settled bets, drawn as text.

>>> from baccarat.coup import deal_coup
>>> coup = deal_coup(parse_cards("AS 2H 3D KC 4S 8D"))
>>> print(coups_table("Coups", [("1", coup, [])]).render(width=80, colour=False))
                    Coups
 #  Player 閒     Banker 莊     Result  Notes
 ────────────────────────────────────────────
 1  A♠ 3♦ 4♠   8  2♥ K♣ 8♦   0  Player
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from baccarat.cards import Card
from baccarat.cli.text import BOLD, CYAN, GREEN, RED, YELLOW, Column, Styled, TextTable
from baccarat.coup import CoupResult, Winner
from baccarat.play.money import format_money

if TYPE_CHECKING:
    from baccarat.settlement import Settlement

__all__ = ["WINNER_STYLE", "cards_text", "coup_notes", "coups_table", "settlement_table"]

#: Each side's colour: Banker red, Player blue, Tie green (the scoreboards' colours).
WINNER_STYLE = {Winner.BANKER: f"{BOLD};{RED}", Winner.PLAYER: f"{BOLD};34", Winner.TIE: f"{BOLD};{GREEN}"}
_RESULT_STYLE = {"win": f"{BOLD};{GREEN}", "lose": RED, "push": YELLOW, "stay": CYAN}


def cards_text(cards: Sequence[Card]) -> Styled:
    """Cards with suit glyphs, hearts and diamonds in red."""
    text = Styled()
    for i, card in enumerate(cards):
        text = text.plus(" " if i else "").plus(card.pretty, RED if card.suit.is_red else "")
    return text


def coup_notes(result: CoupResult) -> list[str]:
    """What is notable about a coup: a natural, the pairs."""
    notes = []
    if result.natural:
        notes.append("natural")
    if result.player_pair:
        notes.append("Player pair")
    if result.banker_pair:
        notes.append("Banker pair")
    return notes


def coups_table(title: str, rows: Sequence[tuple[str, CoupResult, list[str]]]) -> TextTable:
    """One row per coup (``rows``: label, result, notes before the coup's own): cards, totals, winner."""
    table = TextTable(
        title,
        [
            Column("#", justify="right"),
            Column("Player 閒"),
            Column("", justify="right"),
            Column("Banker 莊"),
            Column("", justify="right"),
            Column("Result"),
            Column("Notes", fold=True),
        ],
    )
    for label, result, notes in rows:
        winner = result.winner
        table.add_row(
            label,
            cards_text(result.player.cards),
            str(result.player.total),
            cards_text(result.banker.cards),
            str(result.banker.total),
            Styled(winner.value.capitalize(), WINNER_STYLE[winner]),
            ", ".join([*notes, *coup_notes(result)]),
        )
    return table


def settlement_table(title: str, rows: Sequence[tuple[str, Settlement]]) -> TextTable:
    """One row per settled bet (``rows``: coup label, settlement), amounts in currency units; empty
    columns are left out."""
    show_commission = any(s.commission for _, s in rows)
    show_level = any(s.level for _, s in rows)
    columns = [Column("#", justify="right"), Column("Bet", fold=True), Column("Stake", justify="right")]
    columns += [Column("Result"), Column("Paid", justify="right")]
    if show_commission:
        columns.append(Column("Commission", justify="right"))
    columns.append(Column("Returned", justify="right"))
    if show_level:
        columns.append(Column("Level", fold=True, drop=1))
    table = TextTable(title, columns)
    for label, s in rows:
        cells: list[str | Styled] = [label, s.bet.kind.label, _amount(s.bet.stake)]
        cells += [Styled(s.result.value, _RESULT_STYLE[s.result.value]), _amount(s.paid)]
        if show_commission:
            cells.append(f"{_amount(s.commission)}{' owed' if s.owed else ''}" if s.commission else "")
        cells.append(_amount(s.returned))
        if show_level:
            cells.append(s.level)
        table.add_row(*cells)
    return table


def _amount(minor: int) -> str:
    return format_money(minor)
