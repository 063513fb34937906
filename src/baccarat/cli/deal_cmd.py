"""``baccarat deal``: coups from given cards, in order, and the bets settled on each.

Without bets it needs only the cards and the drawing rules, so it loads no more than those: the
variant, its paytable and the settlement tables are imported when a bet, a paytable, a commission
mode or another variant is given.

The module does without ``from __future__ import annotations``: its parameters' annotations are
objects when Typer reads them, not text that it would compile first.
"""

import sys
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from baccarat.cards import parse_cards
from baccarat.cli.app import PANEL_ENGINE, cli_errors, command, emit_json
from baccarat.cli.text import DIM, Styled, colour_enabled, echo, terminal_width, wrap_words
from baccarat.cli.views import coups_table, settlement_table
from baccarat.coup import CoupResult, deal_coups
from baccarat.errors import InputError

if TYPE_CHECKING:
    from baccarat.cli.betting import BetPlan
    from baccarat.settlement import Settlement

__all__ = ["DEFAULT_VARIANT", "CommissionChoice", "deal"]

#: The variant of ``--variant`` when none is given.
DEFAULT_VARIANT = "macau"


class CommissionChoice(StrEnum):
    """``--commission``: the values of :class:`baccarat.settlement.CommissionMode` (R27)."""

    DEDUCTED = "deducted"
    OWED = "owed"


def _plan(variant: str, bet: list[str] | None, paytable: Path | None, commission: CommissionChoice | None) -> "BetPlan":
    from baccarat.cli.betting import plan_bets
    from baccarat.cli.files import read_paytable
    from baccarat.settlement import CommissionMode

    mode = None if commission is None else CommissionMode(commission.value)
    table = None if paytable is None else read_paytable(paytable)
    return plan_bets(variant, bet, paytable=table, commission=mode)


@command(PANEL_ENGINE)
@cli_errors
def deal(
    cards: Annotated[str, typer.Option("--cards", "-c", help='Cards in shoe order, e.g. "AS 2H 3D KC 4S 8D".')],
    as_json: Annotated[
        bool,
        typer.Option("--json", help="Print JSON (a stable interface: fields are added, never renamed or removed)."),
    ] = False,
    reasons: Annotated[bool, typer.Option("--reasons/--no-reasons", help="Show why each hand drew or stood.")] = True,
    variant: Annotated[str, typer.Option(help="Variant whose bets and paytable apply (see `baccarat variants`).")] = (
        DEFAULT_VARIANT
    ),
    bet: Annotated[
        list[str] | None,
        typer.Option(
            "--bet",
            metavar="KIND=STAKE",
            help="A bet settled on every coup (repeatable): KIND=STAKE, the stake in currency units "
            "(banker=100 is 100.00; 莊對=2.50). --json gives every amount in minor units (cents).",
        ),
    ] = None,
    paytable: Annotated[
        Path | None, typer.Option(help="An operator paytable (TOML) instead of the variant's; offers all its bets.")
    ] = None,
    commission: Annotated[
        CommissionChoice | None, typer.Option(help="Commission deducted or owed (R27); default: the variant's.")
    ] = None,
    option: Annotated[
        list[str] | None,
        typer.Option(
            "--option",
            metavar="OPTION",
            help="A variant option (repeatable): lucky6, either_pair, perfect_pair, tie9, banker4 "
            "(the same as --variant macau+lucky6; see `baccarat variants`).",
        ),
    ] = None,
) -> None:
    """Deal consecutive coups from the given cards, in order (no shuffle, no burn), and settle any bets on each.

    Example: [bold]baccarat deal --cards "AS 2H 3D KC 4S 8D" --bet banker=100 --bet 閒對=20[/],
    [bold]baccarat deal --cards "KS 2H 2D 4S 3C" --option lucky6 --bet lucky6=10[/]
    """
    if option:
        variant = "+".join((variant, *option))
    chosen = bet or paytable is not None or commission is not None or variant != DEFAULT_VARIANT
    plan = _plan(variant, bet, paytable, commission) if chosen else None
    parsed = parse_cards(cards)
    coups, unused = deal_coups(parsed)
    if not coups:
        if len(parsed) < 4:
            hint = "give at least 4 cards in deal order (Player, Banker, Player, Banker, then third cards)"
        else:
            hint = "a hand draws a third card here: give the cards that follow in the shoe"
        raise InputError(f"too few cards to finish a coup: {len(parsed)} given", hint=hint)
    settled = [plan.settle(c) for c in coups] if plan is not None and plan.bets else []
    if as_json:
        coup_dicts = [c.to_dict() for c in coups]
        for coup_dict, settlements in zip(coup_dicts, settled, strict=False):
            coup_dict["settlement"] = [s.to_dict() for s in settlements]
        extra = {"variant": plan.variant.name, "paytable": plan.paytable.name} if plan is not None and plan.bets else {}
        emit_json({"coups": coup_dicts, "unused": [str(c) for c in unused], **extra})
        return
    _print_coups(coups, settled, plan, reasons=reasons)
    if unused:
        echo(f"Unused cards: {' '.join(str(c) for c in unused)}")


def _print_coups(
    coups: list[CoupResult], settled: "list[list[Settlement]]", plan: "BetPlan | None", *, reasons: bool
) -> None:
    width, colour = terminal_width(sys.stdout), colour_enabled(sys.stdout)
    rows: list[tuple[str, CoupResult, list[str]]] = [(str(i), c, []) for i, c in enumerate(coups, start=1)]
    echo(coups_table("Coups", rows).render(width=width, colour=colour))
    if settled and plan is not None:
        bet_rows = [(str(i), s) for i, settlements in enumerate(settled, start=1) for s in settlements]
        title = f"Bets: {plan.paytable.title} {plan.paytable.title_zh}".rstrip()
        echo(settlement_table(title, bet_rows).render(width=width, colour=colour))
    if reasons:
        for i, coup in enumerate(coups, start=1):
            label = f"{i}. "
            lines = wrap_words("; ".join(coup.reasons), max(20, width - len(label)))
            for n, line in enumerate(lines):
                prefix = Styled(label, DIM) if n == 0 else Styled(" " * len(label))
                echo(prefix.plus(line).render(colour=colour))
