"""``baccarat variants``: the variants, their bets, paytables and table limits (in currency units)."""

from __future__ import annotations

import sys
from typing import Annotated

import typer

from baccarat.cli.app import PANEL_ENGINE, cli_errors, command, emit_json
from baccarat.cli.text import Column, TextTable, colour_enabled, echo, terminal_width
from baccarat.paytables import format_pays
from baccarat.play.money import format_money
from baccarat.variants import VARIANTS, Variant, get_variant

__all__ = ["variants"]


def _caption(variant: Variant) -> str:
    """The variant's description and the options it still offers (``--variant macau+lucky6``)."""
    left = [name for name in variant.options if name not in variant.chosen]
    if not left:
        return variant.description
    return f"{variant.description} Options ({variant.name}+OPTION): {', '.join(left)}."


def _variant_table(variant: Variant) -> TextTable:
    title = f"{variant.title} {variant.title_zh} ({variant.name}), commission {variant.commission.value}"
    table = TextTable(
        title,
        [
            Column("Bet", fold=True),
            Column("名稱"),
            Column("Pays (to 1)", fold=True),
            Column("Min", justify="right"),
            Column("Max", justify="right"),
        ],
        caption=_caption(variant),
    )
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
            format_money(limits[kind].minimum),
            format_money(limits[kind].maximum),
        )
    return table


@command(PANEL_ENGINE)
@cli_errors
def variants(
    name: Annotated[str | None, typer.Argument(help="Show only this variant.")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON instead of tables.")] = False,
) -> None:
    """List the variants, their bets, paytables and table limits.

    Limits are in currency units (100 is 100.00); --json gives them in minor units (cents), as the table counts.

    Example: [bold]baccarat variants standard[/]
    """
    chosen = VARIANTS if name is None else (get_variant(name),)
    if as_json:
        emit_json({"variants": [variant.to_dict() for variant in chosen]})
        return
    width, colour = terminal_width(sys.stdout), colour_enabled(sys.stdout)
    for i, variant in enumerate(chosen):
        if i:
            echo()
        echo(_variant_table(variant).render(width=width, colour=colour))
