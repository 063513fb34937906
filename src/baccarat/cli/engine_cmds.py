"""``baccarat deal`` and ``baccarat shoe``: coups from given cards, and a whole shoe dealt with the full procedure."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer
from rich.table import Table
from rich.text import Text

from baccarat.cards import Card, parse_cards
from baccarat.cli.app import PANEL_ENGINE, app, cli_errors, console, emit_json, source_for_seed
from baccarat.cli.bets_cmds import plan_bets, settlement_table
from baccarat.cli.roads_cmd import roads_json
from baccarat.coup import CoupResult, Winner, deal_coups
from baccarat.dealing import DealtCoup, ShoeDealer
from baccarat.errors import InputError
from baccarat.road_render import render_scoreboard
from baccarat.roads import Scoreboard
from baccarat.settlement import CommissionMode
from baccarat.shoe import AfterCutCard, BurnMethod, DealingMode, ShoeConfig

__all__ = ["deal", "render_cards", "shoe"]

WINNER_STYLE = {Winner.BANKER: "bold red", Winner.PLAYER: "bold blue", Winner.TIE: "bold green"}


def render_cards(cards: tuple[Card, ...]) -> Text:
    """Cards with suit glyphs, red suits in red."""
    text = Text()
    for i, card in enumerate(cards):
        if i:
            text.append(" ")
        text.append(card.pretty, style="red" if card.suit.is_red else "bright_white")
    return text


def coup_notes(result: CoupResult) -> list[str]:
    notes = []
    if result.natural:
        notes.append("natural")
    if result.player_pair:
        notes.append("P pair")
    if result.banker_pair:
        notes.append("B pair")
    return notes


def coups_table(title: str, rows: list[tuple[str, CoupResult, list[str]]]) -> Table:
    table = Table(title=title, header_style="bold", show_lines=False)
    table.add_column("#", justify="right")
    table.add_column("Player 閒", justify="left")
    table.add_column("", justify="right")
    table.add_column("Banker 莊", justify="left")
    table.add_column("", justify="right")
    table.add_column("Result", justify="left")
    table.add_column("Notes", justify="left")
    for label, result, notes in rows:
        winner = result.winner
        table.add_row(
            label,
            render_cards(result.player.cards),
            str(result.player.total),
            render_cards(result.banker.cards),
            str(result.banker.total),
            Text(winner.value.capitalize(), style=WINNER_STYLE[winner]),
            ", ".join(notes + coup_notes(result)),
        )
    return table


@app.command(rich_help_panel=PANEL_ENGINE)
@cli_errors
def deal(
    cards: Annotated[str, typer.Option("--cards", "-c", help='Cards in shoe order, e.g. "AS 2H 3D KC 4S 8D".')],
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON (the stable interface of DESIGN.md).")] = False,
    reasons: Annotated[bool, typer.Option("--reasons/--no-reasons", help="Show why each hand drew or stood.")] = True,
    variant: Annotated[str, typer.Option(help="Variant whose bets and paytable apply (see `baccarat variants`).")] = (
        "macau"
    ),
    bet: Annotated[
        list[str] | None,
        typer.Option("--bet", help="A bet settled on every coup, KIND=STAKE in minor units (repeatable): 莊對=20."),
    ] = None,
    paytable: Annotated[Path | None, typer.Option(help="An operator paytable (TOML) instead of the variant's.")] = None,
    commission: Annotated[
        CommissionMode | None, typer.Option(help="Commission deducted or owed (R27); default: the variant's.")
    ] = None,
) -> None:
    """Deal consecutive coups from the given cards, in order (no shuffle, no burn), and settle any bets on each.

    Example: [bold]baccarat deal --cards "AS 2H 3D KC 4S 8D" --bet banker=100 --bet 閒對=20[/]
    """
    plan = plan_bets(variant, bet, paytable_path=paytable, commission=commission)
    parsed = parse_cards(cards)
    coups, unused = deal_coups(parsed)
    if not coups:
        raise InputError(
            f"too few cards to finish a coup: {len(parsed)} given",
            hint="give at least 4 cards in deal order (Player, Banker, Player, Banker, then third cards)",
        )
    settled = [plan.settle(c) for c in coups] if plan.bets else []
    if as_json:
        coup_dicts = [c.to_dict() for c in coups]
        for coup_dict, settlements in zip(coup_dicts, settled, strict=False):
            coup_dict["settlement"] = [s.to_dict() for s in settlements]
        extra = {"variant": plan.variant.name, "paytable": plan.paytable.name} if plan.bets else {}
        emit_json({"coups": coup_dicts, "unused": [str(c) for c in unused], **extra})
        return
    rows: list[tuple[str, CoupResult, list[str]]] = [(str(i), c, []) for i, c in enumerate(coups, start=1)]
    console.print(coups_table("Coups", rows))
    if settled:
        bet_rows = [(str(i), s) for i, settlements in enumerate(settled, start=1) for s in settlements]
        console.print(settlement_table(f"Bets: {plan.variant.title} {plan.variant.title_zh}", bet_rows))
    if reasons:
        for i, coup in enumerate(coups, start=1):
            console.print(f"[dim]{i}.[/] " + "; ".join(coup.reasons))
    if unused:
        console.print(f"Unused cards: {' '.join(str(c) for c in unused)}")


def _shoe_rows(coups: list[DealtCoup]) -> list[tuple[str, CoupResult, list[str]]]:
    rows = []
    cut_marked = False
    for coup in coups:
        notes = []
        if coup.demo:
            notes.append("demonstration")
        if coup.burned:
            notes.append(f"burned {' '.join(str(c) for c in coup.burned)}")
        if coup.cut_card_out and not cut_marked:
            notes.append("✂ cut card out")
            cut_marked = True
        if coup.last:
            notes.append("■ last coup")
        rows.append(("D" if coup.demo else str(coup.number), coup.result, notes))
    return rows


def shoe_summary(coups: list[DealtCoup]) -> dict[str, Any]:
    scored = [c for c in coups if not c.demo]
    counts = {w.value: sum(c.result.winner is w for c in scored) for w in Winner}
    return {"coups": len(scored), **counts}


@app.command(rich_help_panel=PANEL_ENGINE)
@cli_errors
def shoe(
    decks: Annotated[int, typer.Option(help="Decks in the shoe, 1–12.")] = 8,
    seed: Annotated[str | None, typer.Option(help="Seed for a reproducible shoe (integer or text).")] = None,
    burn: Annotated[BurnMethod, typer.Option(help="Burn method (R4): decks, first_card or fixed.")] = (
        BurnMethod.FIRST_CARD
    ),
    burn_count: Annotated[int, typer.Option(help="Cards to burn with --burn fixed (1–8).")] = 3,
    cut_card: Annotated[int, typer.Option("--cut-card", help="Cut card position, counted from the end.")] = 14,
    after_cut_card: Annotated[AfterCutCard, typer.Option(help="Last coup rule (R6).")] = AfterCutCard.ONE_MORE,
    demo: Annotated[int, typer.Option(help="Demonstration coups at the start (0–3, R5).")] = 0,
    burn_each_coup: Annotated[bool, typer.Option(help="Burn one card before every coup (R7).")] = False,
    pre_dealt: Annotated[bool, typer.Option(help="Deal with the pre-dealt six-card layout (R19).")] = False,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON instead of a table.")] = False,
) -> None:
    """Shuffle, cut, burn and deal a whole shoe with the full casino procedure.

    Example: [bold]baccarat shoe --decks 8 --seed 42[/]
    """
    config = ShoeConfig(
        decks=decks,
        cut_card_from_end=cut_card,
        burn=burn,
        burn_count=burn_count,
        demo_coups=demo,
        after_cut_card=after_cut_card,
        burn_each_coup=burn_each_coup,
        mode=DealingMode.PRE_DEALT if pre_dealt else DealingMode.SHOE,
    )
    dealer = ShoeDealer(config, source=source_for_seed(seed))
    coups = dealer.deal_shoe()
    board = Scoreboard(c.result for c in coups if not c.demo)  # demonstration coups are not scored (R5)
    if as_json:
        emit_json(
            {
                "config": config.to_dict(),
                "source": dealer.source.name,
                "events": [e.to_dict() for e in dealer.events],
                "coups": [c.to_dict() for c in coups],
                "summary": shoe_summary(coups),
                "roads": roads_json(board),
            }
        )
        return
    for event in dealer.events:
        if event.kind.value in ("shuffled", "cut", "burned"):
            cards = f" {' '.join(str(c) for c in event.cards)}" if event.cards else ""
            console.print(f"[dim]{event.kind.value}:[/] {event.detail}{cards}")
    console.print(coups_table(f"Shoe {coups[0].shoe_number}: {decks} decks", _shoe_rows(coups)))
    summary = shoe_summary(coups)
    console.print(
        f"{summary['coups']} coups: [red]Banker {summary['banker']}[/], "
        f"[blue]Player {summary['player']}[/], [green]Tie {summary['tie']}[/]; "
        f"{dealer.shoe.remaining if dealer.shoe else 0} cards left in the shoe."
    )
    console.print(render_scoreboard(board))
