"""The engine as the server uses it: a table's bet menu and paytable, coups from stored cards, settlement.

Nothing here restates a rule: bets are parsed by :mod:`baccarat.bets`, settled by
:func:`baccarat.settlement.settle_bets` on the table's paytable, coups are dealt by
:class:`baccarat.coup.CoupDealer`.

>>> result = coup_from_cards(["AS", "2H", "3D", "KC", "4S", "8D"])
>>> result.winner.value
'player'
>>> [s.outcome for s in settle_round_bets(result, [(1, "player", 100), (2, "banker", 100)], variant="macau")]
['win', 'lose']
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from baccarat.bets import Bet, BetKind, parse_bet_kind
from baccarat.cards import parse_cards
from baccarat.coup import CoupDealer, CoupResult, Position, deal_coup
from baccarat.errors import InputError, ProcedureError
from baccarat.paytables import Paytable, format_pays
from baccarat.server.settings import TableSpec
from baccarat.server.store import SettledBet
from baccarat.settlement import BetResult, CommissionMode, TiePolicy, settle_bets
from baccarat.table_config import TableConfig
from baccarat.variants import get_variant

__all__ = [
    "coup_from_cards",
    "dealer_entry_state",
    "menu",
    "paytable_for",
    "settle_round_bets",
    "validate_bet",
]


def paytable_for(variant: str) -> Paytable:
    """The paytable of a variant (:func:`baccarat.variants.get_variant`)."""
    return get_variant(variant).paytable


def menu(variant: str, *, config: TableConfig | None = None) -> list[dict[str, Any]]:
    """The bets a variant offers (:mod:`baccarat.variants`): id, names, what each level pays and the
    limits (the table's, when ``config`` is given; else the variant's defaults)."""
    played = get_variant(variant)
    out = []
    for kind in played.bets:
        terms = played.paytable.terms(kind)
        limits = config.limit(kind, variant) if config is not None else played.limit(kind)
        out.append(
            {
                "bet": kind.value,
                "english": kind.english,
                "chinese": kind.chinese,
                "pays": [{"level": level.name, "pays": format_pays(level.pays)} for level in terms.levels],
                "min": limits.minimum,
                "max": limits.maximum,
            }
        )
    return out


def validate_bet(spec: TableSpec, bet: str, stake: int) -> BetKind:
    """The bet kind of a request, refusing a bet the table does not offer or a stake outside its limits."""
    kind = parse_bet_kind(bet)
    if kind not in paytable_for(spec.variant):
        offered = ", ".join(k.value for k in paytable_for(spec.variant).kinds)
        raise InputError(f"table {spec.id} does not offer the bet {kind.value}", hint=f"its bets: {offered}")
    Bet(kind, stake)
    if not spec.min_bet <= stake <= spec.max_bet:
        raise InputError(
            f"stake {stake} is outside the table limits {spec.min_bet}–{spec.max_bet}",
            hint=f"bet between {spec.min_bet} and {spec.max_bet} minor units",
        )
    return kind


def coup_from_cards(cards: Sequence[str]) -> CoupResult:
    """The coup the stored cards (in deal order) make."""
    return deal_coup(parse_cards(" ".join(cards)))


def dealer_entry_state(entered: Sequence[str]) -> CoupDealer:
    """A :class:`CoupDealer` holding the cards entered so far (R18)."""
    dealer = CoupDealer()
    for text in entered:
        dealer.enter(parse_cards(text)[0])
    return dealer


def enter_card(entered: Sequence[str], card: str, *, position: str | None = None) -> list[str]:
    """The entered cards after one more, refusing a card that is not due (R18)."""
    parsed = parse_cards(card)
    if len(parsed) != 1:
        raise InputError(f"enter one card at a time, got {len(parsed)}", hint="e.g. AS")
    dealer = dealer_entry_state(entered)
    try:
        at = None if position is None else Position(position)
    except ValueError:
        raise InputError(
            f"unknown position {position!r}", hint="one of: " + ", ".join(p.value for p in Position)
        ) from None
    if dealer.due is None:
        raise ProcedureError("the coup is complete: no card is due", hint="wait for the round to settle")
    dealer.enter(parsed[0], position=at)
    return [*entered, str(parsed[0])]


def settle_round_bets(result: CoupResult, bets: Sequence[tuple[int, str, int]], *, variant: str) -> list[SettledBet]:
    """Settle ``(bet id, kind, stake)`` triples on a coup with the variant's paytable (ties push)."""
    if not bets:
        return []
    settlements = settle_bets(
        result,
        [Bet(BetKind(kind), stake) for _, kind, stake in bets],
        paytable_for(variant),
        commission=CommissionMode.DEDUCTED,
        on_tie=TiePolicy.PUSH,
    )
    out = []
    for (bet_id, _, _), s in zip(bets, settlements, strict=True):
        if s.result is BetResult.STAY:
            raise ProcedureError("a bet cannot stay in action at this server", hint="use on_tie = push")
        out.append(
            SettledBet(
                bet_id=bet_id,
                outcome=s.result.value,
                paid=s.paid,
                commission=s.commission,
                owed=s.owed,
                returned=s.returned,
            )
        )
    return out
