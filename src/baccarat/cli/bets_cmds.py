"""``baccarat variants`` (the variants and their paytables), and the bets of ``baccarat deal --bet``."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Annotated

import typer
from rich.table import Table
from rich.text import Text

from baccarat.bets import Bet, bet_menu, parse_bet
from baccarat.cli.app import PANEL_ENGINE, app, cli_errors, console, emit_json
from baccarat.coup import CoupResult
from baccarat.errors import InputError
from baccarat.paytables import Paytable, format_pays, load_paytable
from baccarat.settlement import BetResult, CommissionMode, Settlement, settle_bets
from baccarat.variants import VARIANTS, Variant, get_variant

__all__ = ["BetPlan", "plan_bets", "settlement_table", "variants"]

RESULT_STYLE = {
    BetResult.WIN: "bold green",
    BetResult.LOSE: "red",
    BetResult.PUSH: "yellow",
    BetResult.STAY: "cyan",
}


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


def plan_bets(
    variant_name: str,
    bet_texts: list[str] | None,
    *,
    paytable_path: Path | None = None,
    commission: CommissionMode | None = None,
) -> BetPlan:
    """Check ``--variant``, ``--bet KIND=STAKE`` (each offered by the variant) and ``--paytable``.

    >>> plan = plan_bets("standard", ["莊=100", "big=50"])
    >>> [bet.kind.value for bet in plan.bets], plan.paytable.name
    (['banker', 'big'], 'standard')
    """
    variant = get_variant(variant_name)
    paytable = variant.paytable if paytable_path is None else load_paytable(paytable_path)
    menu = f"the {variant.name} menu: {bet_menu(variant.bets)}"
    bets = []
    for text in bet_texts or []:
        try:
            bet = parse_bet(text, menu=variant.bets)
        except InputError as error:
            unknown = error.message.startswith("unknown bet")
            message = f"{error.message} in variant {variant.name!r}" if unknown else error.message
            raise InputError(message, hint=error.hint if unknown else f"{error.hint}; {menu}") from None
        variant.check_bet(bet.kind)
        paytable.terms(bet.kind)
        bets.append(bet)
    return BetPlan(variant, paytable, tuple(bets), variant.commission if commission is None else commission)


def settlement_table(title: str, rows: list[tuple[str, Settlement]]) -> Table:
    """A Rich table of settlements, one row per bet (``rows``: coup label, settlement)."""
    table = Table(title=title, header_style="bold")
    for name, justify in [
        ("#", "right"),
        ("Bet", "left"),
        ("Stake", "right"),
        ("Result", "left"),
        ("Paid", "right"),
        ("Commission", "right"),
        ("Returned", "right"),
        ("Level", "left"),
    ]:
        table.add_column(name, justify=justify)  # type: ignore[arg-type]
    for label, s in rows:
        table.add_row(
            label,
            s.bet.kind.label,
            str(s.bet.stake),
            Text(s.result.value, style=RESULT_STYLE[s.result]),
            str(s.paid),
            f"{s.commission}{' owed' if s.owed else ''}" if s.commission else "",
            str(s.returned),
            s.level,
        )
    return table


def _variant_table(variant: Variant) -> Table:
    title = f"{variant.title} {variant.title_zh} ([bold]{variant.name}[/]), commission {variant.commission.value}"
    table = Table(title=title, header_style="bold", caption=variant.description or None)
    table.add_column("Bet")
    table.add_column("名稱")
    table.add_column("Pays (to 1)")
    table.add_column("Min", justify="right")
    table.add_column("Max", justify="right")
    limits = {limit.kind: limit for limit in variant.limits}
    for kind in variant.bets:
        terms = variant.paytable.terms(kind)
        pays = [
            f"{level.name}: {format_pays(level.pays)}"
            + (f" ({format_pays(level.commission * 100)}% commission)" if level.commission else "")
            for level in terms.levels
        ]
        pays += [f"{push.name}: push" for push in terms.pushes]
        table.add_row(
            f"{kind.value} ({kind.english})",
            kind.chinese,
            "\n".join(pays),
            str(limits[kind].minimum),
            str(limits[kind].maximum),
        )
    return table


@app.command(rich_help_panel=PANEL_ENGINE)
@cli_errors
def variants(
    name: Annotated[str | None, typer.Argument(help="Show only this variant.")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON instead of tables.")] = False,
) -> None:
    """List the variants, their bets and paytables (limits in minor units).

    Example: [bold]baccarat variants standard[/]
    """
    chosen = VARIANTS if name is None else (get_variant(name),)
    if as_json:
        emit_json({"variants": [variant.to_dict() for variant in chosen]})
        return
    for variant in chosen:
        console.print(_variant_table(variant))
