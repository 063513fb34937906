"""What the dealer's console observes of a dealer-entry table (R18): the round and its phase, the
cards entered with their positions, the position due next with the rule that calls for it, the
cut card and the shoe. The dealer sees no player's money, only the totals on each spot, and a
squeezer by the display name the public sees.

>>> from baccarat.table import Table
>>> from baccarat.table_config import DealSource, TableConfig
>>> table = Table(TableConfig(deal_source=DealSource.DEALER_ENTRY, min_bet=100))
>>> _ = table.open_betting(now=1.0); _ = table.close_betting(now=2.0)
>>> for card in ["5S", "3H", "KD", "2C"]:
...     _ = table.deal_card(card, now=3.0)
>>> view = console_view(table, {"id": 7, "number": 1, "status": "closed"}, dealer_paced=True)
>>> view["due"], view["due_short"], view["can_correct"]
('player_3', 'P3', True)
>>> view["reasons"]
['Player 5 draws: Player draws on 0–5 and stands on 6–7']
>>> [(c["short"], c["card"]) for c in view["cards"]]
[('P1', '5S'), ('B1', '3H'), ('P2', 'KD'), ('B2', '2C')]
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from baccarat.coup import Position
from baccarat.server.observer.names import display_name
from baccarat.shoe import BurnMethod, DealingMode
from baccarat.table import Phase, Table

__all__ = ["SHORT", "console_view", "stake_totals"]

#: The positions as a dealer calls them: P1, B1, P2, B2, P3, B3.
SHORT: dict[Position, str] = {p: f"{p.value[0].upper()}{p.value[-1]}" for p in Position}


def _round(row: Mapping[str, Any] | None) -> dict[str, Any] | None:
    if row is None:
        return None
    return {
        "id": int(row["id"]),
        "number": int(row["number"]),
        "status": str(row["status"]),
        "closes_at": None if row.get("closes_at") is None else float(row["closes_at"]),
    }


def _next_action(table: Table) -> str:
    """What the dealer does next: put a new shoe in play and burn it (R4, R6), open betting, close it,
    enter a card, wait for a squeeze."""
    state = table.state
    if state.phase is Phase.IDLE:
        if state.shoe_over and table.config.mode is not DealingMode.CONTINUOUS:
            return "new_shoe"
        return "burn" if table.can_burn() or _burn_needs_card(table) else "open_betting"
    if state.phase is Phase.BETTING:
        return "close_betting"
    return "wait_reveal" if state.reveal_due is not None else "enter_card"


def _burn_needs_card(table: Table) -> bool:
    """Whether the burn is due and waits for the turned card (method (b))."""
    return table.config.shoe.burn is BurnMethod.FIRST_CARD and table.can_burn("AS")


def console_view(table: Table, round_row: Mapping[str, Any] | None, *, dealer_paced: bool) -> dict[str, Any]:
    """The console's view of ``table`` with its stored round (``None`` between rounds)."""
    state = table.state
    coup = state.coup
    dealing = state.phase is Phase.DEALING
    due = table.due if dealing else None
    cards = [
        {
            "position": position.value,
            "short": SHORT[position],
            "card": None if position in state.face_down else str(card),
            "face_down": position in state.face_down,
        }
        for position, card in (coup.cards.items() if dealing else ())
    ]
    return {
        "phase": state.phase.value,
        "round": _round(round_row),
        "dealer_paced": dealer_paced,
        "next": _next_action(table),
        "cards": cards,
        "due": None if due is None else due.value,
        "due_short": None if due is None else SHORT[due],
        "due_label": None if due is None else due.label,
        "reasons": list(coup.reasons) if dealing else [],
        "explained": [reason.to_dict() for reason in coup.explained] if dealing else [],
        "last_coup": table.last_coup,
        "can_correct": dealing and bool(cards),
        "reveal_due": None if state.reveal_due is None else state.reveal_due.value,
        "shoe_number": state.shoe_number,
        "coup_number": state.coup_number,
        "shoe_over": state.shoe_over,
        "cut_card_at": state.cut_card_at,
        "burned": state.burned,
        "burn_method": table.config.shoe.burn.value,
        "burn_cards": _burn_cards(table),
        "squeezers": {side.value: display_name(who) for side, who in state.squeezers.items()} if dealing else {},
        "reveal_deadline": _reveal_deadline(table),
        "totals": stake_totals(table),
        "players": len(state.bettors),
    }


def _burn_cards(table: Table) -> int | None:
    """How many cards the burn takes: the decks (a), a fixed number (c), or ``None``: the turned card's value (b)."""
    shoe = table.config.shoe
    return {BurnMethod.DECKS: shoe.decks, BurnMethod.FIXED: shoe.burn_count}.get(shoe.burn)


def _reveal_deadline(table: Table) -> float | None:
    """When the dealer turns the face-down cards of the side due, if its squeezer has not (R23)."""
    state = table.state
    if state.phase is not Phase.DEALING or state.reveal_due is None:
        return None
    return state.reveal_since + table.config.squeeze_seconds


def stake_totals(table: Table) -> dict[str, int]:
    """The total stake on each bet kind at the table now (no bettor named)."""
    out: dict[str, int] = {}
    for bet in table.state.bets.values():
        out[bet.kind.value] = out.get(bet.kind.value, 0) + bet.stake
    return out
