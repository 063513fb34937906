"""The game's help: the rules in brief, the drawing table and the variant's payouts, all generated
from the engine's data (:mod:`baccarat.coup`'s tableau, the variant's paytable, the table's limits).

>>> drawing_rows()[3]
('3', 'any but 8', '8')
>>> player_rule()
'Player draws on 0–5 and stands on 6–7; a natural 8 or 9 on either side stops all drawing.'
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from baccarat.bets import BetKind
from baccarat.coup import BANKER_DRAWS_IF_PLAYER_STOOD, BANKER_DRAWS_ON_PLAYER_THIRD, PLAYER_DRAWS_ON
from baccarat.paytables import format_pays
from baccarat.play.money import format_money
from baccarat.table_config import TableConfig

__all__ = [
    "drawing_rows",
    "drawing_table",
    "pays_brief",
    "pays_text",
    "player_rule",
    "rules_renderable",
    "spot_rows",
]

_POINTS = frozenset(range(10))


def _ranges(values: Iterable[int]) -> str:
    """Point values as short ranges: ``0–2, 9``; ``any`` for all ten, ``–`` for none.

    >>> _ranges({0, 1, 2, 9}), _ranges(range(10)), _ranges(()), _ranges(set(range(10)) - {8})
    ('0–2, 9', 'any', '–', 'any but 8')
    """
    chosen = sorted(set(values))
    if not chosen:
        return "–"
    if set(chosen) == _POINTS:
        return "any"
    missing = sorted(_POINTS - set(chosen))
    if len(missing) == 1:
        return f"any but {missing[0]}"
    parts: list[str] = []
    start = prev = chosen[0]
    for value in [*chosen[1:], None]:
        if value is not None and value == prev + 1:
            prev = value
            continue
        parts.append(str(start) if start == prev else f"{start}–{prev}")
        if value is not None:
            start = prev = value
    return ", ".join(parts)


def player_rule() -> str:
    """Player's rule (R12, R13) in one sentence, from :data:`~baccarat.coup.PLAYER_DRAWS_ON`."""
    stands = sorted(set(range(8)) - PLAYER_DRAWS_ON)
    return (
        f"Player draws on {_ranges(PLAYER_DRAWS_ON)} and stands on {_ranges(stands)}; "
        "a natural 8 or 9 on either side stops all drawing."
    )


def drawing_rows() -> list[tuple[str, str, str]]:
    """Banker's rule (R14, R15) as rows: Banker's two-card total, Player's third cards on which Banker
    draws, and those on which it stands; the last row is "Player stood"."""
    rows = [
        (str(total), _ranges(draws), _ranges(_POINTS - draws))
        for total, draws in sorted(BANKER_DRAWS_ON_PLAYER_THIRD.items())
    ]
    stood_draws = _ranges(BANKER_DRAWS_IF_PLAYER_STOOD)
    stood_stands = _ranges(set(range(8)) - BANKER_DRAWS_IF_PLAYER_STOOD)
    rows.append(("Player stood", f"Banker draws on {stood_draws}", f"stands on {stood_stands}"))
    return rows


def drawing_table() -> Table:
    """The drawing table as a Rich table."""
    table = Table(title="Banker's third card 莊家補牌", header_style="bold")
    table.add_column("Banker total")
    table.add_column("draws when Player's 3rd card is")
    table.add_column("stands when it is")
    for row in drawing_rows():
        table.add_row(*row)
    return table


def pays_text(config: TableConfig, kind: BetKind) -> str:
    """What one bet pays at this table ("to 1"), every level, with the commission and pushes."""
    terms = config.get_variant().paytable.terms(kind)
    parts = []
    for level in terms.levels:
        text = format_pays(level.pays)
        if level.commission:
            text += f" ({format_pays(level.gross)} less {format_pays(level.commission * 100)}%)"
        parts.append(text if len(terms.levels) == 1 else f"{level.name} {text}")
    parts += [f"{push.name}: push" for push in terms.pushes]
    return "; ".join(parts)


def pays_brief(config: TableConfig, kind: BetKind) -> str:
    """What one bet pays in a few characters: ``0.95``, ``8``, or the range of its levels (``1–30``).

    >>> from baccarat.table_config import TableConfig
    >>> config = TableConfig(variant="standard")
    >>> pays_brief(config, BetKind.BANKER), pays_brief(config, BetKind.PLAYER_DRAGON_BONUS)
    ('0.95', '1–30')
    """
    levels = config.get_variant().paytable.terms(kind).levels
    low, high = min(level.pays for level in levels), max(level.pays for level in levels)
    return format_pays(low) if low == high else f"{format_pays(low)}–{format_pays(high)}"


def spot_rows(config: TableConfig) -> list[tuple[BetKind, str, str]]:
    """Each bet spot of the table: the bet, its payouts, and its limits in currency units."""
    rows = []
    for kind in config.get_variant().bets:
        limits = config.limit(kind)
        rows.append((kind, pays_text(config, kind), f"{format_money(limits.minimum)}–{format_money(limits.maximum)}"))
    return rows


def rules_renderable(config: TableConfig, *, keys: Sequence[tuple[str, str]] = ()) -> RenderableType:
    """The help screen: how to play, the drawing rules, the payouts and limits, and the keys."""
    variant = config.get_variant()
    intro = Text()
    intro.append(f"{variant.title} {variant.title_zh}\n", style="bold")
    intro.append(
        "Bet on Banker 莊, Player 閒, Tie 和 or a side bet, then deal. Two cards go to each hand, "
        "Player first (R11). A hand counts the last digit of its points: A = 1, 2–9 face value, 10 J Q K = 0 (R2). "
        "The higher total wins; equal totals tie (R17), and a tie returns Banker and Player bets (R24).\n"
    )
    intro.append(player_rule() + "\n")
    if config.banker_multiple_of_minimum:
        intro.append(
            f"Banker bets go in multiples of the table minimum {format_money(config.limit(BetKind.BANKER).minimum)} "
            "(R22). "
        )
    intro.append(
        f"The shoe holds {config.shoe.decks} decks; when the cut card comes out the shoe ends after "
        f"{'this coup' if config.shoe.after_cut_card.value == 'finish' else 'one more coup'} (R6)."
    )
    pays = Table(title="Bets and payouts (to 1) 賠率", header_style="bold")
    pays.add_column("Bet")
    pays.add_column("Pays")
    pays.add_column("Limits", justify="right")
    for kind, text, limits in spot_rows(config):
        pays.add_row(kind.label, text, limits)
    parts: list[RenderableType] = [intro, drawing_table(), pays]
    if keys:
        key_table = Table(title="Keys", header_style="bold")
        key_table.add_column("Key")
        key_table.add_column("Does")
        for key, what in keys:
            key_table.add_row(key, what)
        parts.append(key_table)
    return Group(*parts)
