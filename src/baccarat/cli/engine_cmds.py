"""``baccarat shoe``: a whole shoe dealt with the full procedure, its coups and its roads."""

from __future__ import annotations

import sys
from typing import Annotated, Any

import typer

from baccarat.cli.app import PANEL_ENGINE, cli_errors, command, console, emit_json, source_for_seed
from baccarat.cli.text import BOLD, DIM, YELLOW, Styled, colour_enabled, echo, terminal_width
from baccarat.cli.views import WINNER_STYLE, coups_table
from baccarat.coup import CoupResult, Winner
from baccarat.dealing import DealtCoup, ShoeDealer
from baccarat.shoe import AfterCutCard, BurnMethod, DealingMode, ShoeConfig

__all__ = ["shoe", "shoe_summary"]


def _shoe_rows(coups: list[DealtCoup]) -> list[tuple[str, CoupResult, list[str]]]:
    """The table's rows: demonstration coups as D1, D2…, then the scored coups numbered from 1 (R5)."""
    rows = []
    cut_marked = False
    demos = scored = 0
    for coup in coups:
        notes = []
        if coup.demo:
            demos += 1
            notes.append("demonstration")
        else:
            scored += 1
        if coup.burned:
            notes.append(f"burned {' '.join(str(c) for c in coup.burned)}")
        if coup.cut_card_out and not cut_marked:
            notes.append("✂ cut card out")
            cut_marked = True
        if coup.last:
            notes.append("■ last coup")
        rows.append((f"D{demos}" if coup.demo else str(scored), coup.result, notes))
    return rows


def _print_procedure(dealer: ShoeDealer, colour: bool) -> None:
    """The shuffle, the cut and the burn before the first coup (the burns before each coup are in the table)."""
    burns = 0
    for event in dealer.events:
        kind = event.kind.value
        if kind == "burned":
            burns += 1
            if burns > 1:
                continue
            cards = [str(c) for c in event.cards]
            line = Styled(f"burned {len(cards)} card{'s' if len(cards) != 1 else ''}:", DIM)
            line = line.plus(f" {' '.join(cards)} ({event.detail})")
        elif kind in ("shuffled", "cut"):
            line = Styled(f"{kind}:", DIM).plus(f" {event.detail}")
        else:
            continue
        echo(line.render(colour=colour))
    if burns > 1:
        echo(Styled("burned before every coup:", DIM).plus(" one card each, shown in the Notes").render(colour=colour))


def shoe_summary(coups: list[DealtCoup]) -> dict[str, Any]:
    """Scored coups (demonstration coups left out) and how many each side won."""
    scored = [c for c in coups if not c.demo]
    counts = {w.value: sum(c.result.winner is w for c in scored) for w in Winner}
    return {"coups": len(scored), **counts}


@command(PANEL_ENGINE)
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
    from baccarat.cli.roads_cmd import roads_json
    from baccarat.road_render import render_scoreboard
    from baccarat.roads import Scoreboard

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
    width, colour = terminal_width(sys.stdout), colour_enabled(sys.stdout)
    _print_procedure(dealer, colour)
    title = f"Shoe {coups[0].shoe_number}: {decks} deck{'s' if decks != 1 else ''}"
    echo(coups_table(title, _shoe_rows(coups)).render(width=width, colour=colour))
    summary = shoe_summary(coups)
    if not summary["coups"]:
        echo(
            Styled("warning:", f"{BOLD};{YELLOW}").plus(
                f" the cut card ({cut_card} cards from the end) ended the shoe before any scored coup "
                "(give a smaller --cut-card)"
            ),
            stream=sys.stderr,
        )
    line = Styled(f"{summary['coups']} coups: ").plus(f"Banker {summary['banker']}", WINNER_STYLE[Winner.BANKER])
    line = line.plus(", ").plus(f"Player {summary['player']}", WINNER_STYLE[Winner.PLAYER])
    line = line.plus(", ").plus(f"Tie {summary['tie']}", WINNER_STYLE[Winner.TIE])
    echo(line.plus(f"; {dealer.shoe.remaining if dealer.shoe else 0} cards left in the shoe.").render(colour=colour))
    console().print(render_scoreboard(board))
