"""The bets of ``baccarat deal --bet``: each checked against the variant's menu and paytable.

A stake is typed in currency units, as everywhere on the command line (``banker=100`` is 100.00,
``tie=2.5`` is 2.50, ``banker=1,000`` a thousand); the bets hold minor units (R32), and so does the JSON.
"""

from __future__ import annotations

from dataclasses import dataclass

from baccarat.bets import Bet, BetKind, bet_menu, parse_bet_kind
from baccarat.coup import CoupResult
from baccarat.errors import InputError
from baccarat.paytables import Paytable
from baccarat.play.money import parse_money
from baccarat.settlement import CommissionMode, Settlement, settle_bets
from baccarat.variants import Variant, get_variant

__all__ = ["BetPlan", "parse_stake_bet", "plan_bets"]

_HINT = "write KIND=STAKE with the stake in currency units, e.g. banker=100 or tie=2.50"


@dataclass(frozen=True, slots=True)
class BetPlan:
    """The bets to settle on every coup of ``baccarat deal``, with the variant's terms."""

    variant: Variant
    paytable: Paytable
    bets: tuple[Bet, ...]
    commission: CommissionMode

    def settle(self, coup: CoupResult) -> list[Settlement]:
        """Settle the bets on one coup."""
        return settle_bets(coup, self.bets, self.paytable, commission=self.commission)


def parse_stake_bet(text: str, *, menu: tuple[BetKind, ...]) -> Bet:
    """``KIND=STAKE`` with the stake in currency units, as a bet in minor units.

    >>> parse_stake_bet("莊=1,000", menu=(BetKind.BANKER,)), parse_stake_bet("banker=2.5", menu=(BetKind.BANKER,)).stake
    (Bet(kind=<BetKind.BANKER: 'banker'>, stake=100000), 250)
    """
    name, sep, stake = text.partition("=")
    if not sep or not name.strip():
        raise InputError(f"bet {text!r} has no stake", hint=_HINT)
    kind = parse_bet_kind(name, menu=menu)
    try:
        minor = parse_money(stake, what="stake")
    except InputError as error:
        raise InputError(f"bet {text!r}: {error.message}", hint=_HINT) from None
    return Bet(kind, minor)


def plan_bets(
    variant_name: str,
    bet_texts: list[str] | None,
    *,
    paytable: Paytable | None = None,
    commission: CommissionMode | None = None,
) -> BetPlan:
    """Check ``--variant``, ``--bet KIND=STAKE`` (each offered by the variant) and ``--paytable``.

    The variant offers its menu, with its options (``macau+lucky6``); with ``--paytable`` (read by
    :func:`~baccarat.cli.files.read_paytable`) the table offers the operator paytable's bets.

    >>> plan = plan_bets("standard", ["莊=100", "big=50"])
    >>> [(bet.kind.value, bet.stake) for bet in plan.bets], plan.paytable.name
    ([('banker', 10000), ('big', 5000)], 'standard')
    >>> plan_bets("macau+lucky6", ["lucky6=10"]).paytable.terms(BetKind.LUCKY6).levels[1].name
    'three-card 6'
    """
    variant = get_variant(variant_name)
    if paytable is not None:
        variant = variant.with_paytable(paytable)
    menu = f"the {variant.name} menu: {bet_menu(variant.bets)}"
    bets = []
    for text in bet_texts or []:
        try:
            bet = parse_stake_bet(text, menu=variant.bets)
        except InputError as error:
            unknown = error.message.startswith("unknown bet")
            message = f"{error.message} in variant {variant.name!r}" if unknown else error.message
            raise InputError(message, hint=error.hint if unknown else f"{error.hint}; {menu}") from None
        variant.check_bet(bet.kind)
        variant.paytable.terms(bet.kind)
        bets.append(bet)
    return BetPlan(variant, variant.paytable, tuple(bets), variant.commission if commission is None else commission)
