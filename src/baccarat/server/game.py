"""The engine as the server uses it: a table's bet menu and paytable, coups from stored cards, settlement.

Nothing here restates a rule: bets are parsed by :mod:`baccarat.bets`, settled by
:func:`baccarat.settlement.settle_bets` on the table's paytable, coups are dealt by
:func:`baccarat.coup.deal_coup`.

>>> result = coup_from_cards(["AS", "2H", "3D", "KC", "4S", "8D"])
>>> result.winner.value
'player'
>>> [s.outcome for s in settle_round_bets(result, [(1, "player", 100), (2, "banker", 100)], variant="macau")]
['win', 'lose']
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from baccarat.bets import Bet, BetKind
from baccarat.cards import parse_cards
from baccarat.coup import CoupResult, deal_coup
from baccarat.errors import ProcedureError
from baccarat.paytables import Paytable, format_pays
from baccarat.server.store import SettledBet
from baccarat.settlement import BetResult, CommissionMode, TiePolicy, settle_bets
from baccarat.table_config import TableConfig
from baccarat.variants import get_variant

__all__ = [
    "coup_from_cards",
    "menu",
    "paytable_for",
    "settle_round_bets",
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


def coup_from_cards(cards: Sequence[str]) -> CoupResult:
    """The coup the stored cards (in deal order) make."""
    return deal_coup(parse_cards(" ".join(cards)))


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
