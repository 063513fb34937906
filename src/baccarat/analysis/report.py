"""Par sheets and effects of removal as text: CSV (every figure, full double precision) and Markdown
(a document an operator can hand to a regulator).

>>> from baccarat.analysis import par_sheet
>>> text = par_sheet_csv(par_sheet(8))
>>> text.splitlines()[0]
'section,bet,result,pays,ways,probability,expected_value,house_edge,house_edge_resolved,std_dev'
>>> "| Banker 莊 | 0.95 |" in par_sheet_markdown(par_sheet(8))
True
"""

from __future__ import annotations

import csv
import io
from fractions import Fraction
from typing import Any

from baccarat.analysis.eor import EffectsOfRemoval
from baccarat.analysis.par_sheet import ParSheet
from baccarat.cards import Rank
from baccarat.paytables import format_pays

__all__ = [
    "eor_csv",
    "eor_markdown",
    "game_protection_lines",
    "par_sheet_csv",
    "par_sheet_markdown",
    "shoe_description",
]

_CSV_COLUMNS = (
    "section",
    "bet",
    "result",
    "pays",
    "ways",
    "probability",
    "expected_value",
    "house_edge",
    "house_edge_resolved",
    "std_dev",
)


def _full(value: float | Fraction) -> str:
    """A float at full double precision (shortest repr that round-trips)."""
    return repr(float(value))


def shoe_description(decks: int | None, cards: int) -> str:
    """``8 decks (416 cards)`` or ``a partly dealt shoe of 413 cards``.

    >>> shoe_description(8, 416), shoe_description(None, 413)
    ('8 decks (416 cards)', 'a partly dealt shoe of 413 cards')
    """
    if decks is not None:
        return f"{decks} deck{'s' if decks != 1 else ''} ({cards} cards)"
    return f"a partly dealt shoe of {cards} cards"


def par_sheet_csv(sheet: ParSheet) -> str:
    """The par sheet as CSV: one row per outcome, per bet (its summary) and per result of each bet.

    ``section`` is ``outcome``, ``bet``, ``result``, ``natural`` or ``cards``; ``pays`` is net per unit
    stake (−1 for a loss); floats carry full double precision, ways are exact integers.
    """
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(_CSV_COLUMNS)
    total = sheet.total_ways
    writer.writerow(["total", "", "", "", total, "1.0", "", "", "", ""])
    for winner, outcome in sheet.outcomes.items():
        writer.writerow(["outcome", "", winner.value, "", outcome.ways, _full(outcome.probability), "", "", "", ""])
    for kind, bet in sheet.bets.items():
        writer.writerow(
            [
                "bet",
                kind.value,
                "win",
                format_pays(bet.pays),
                sum(r.ways for r in bet.results if r.result.value == "win"),
                _full(bet.probability_win),
                _full(bet.expected_value),
                _full(bet.house_edge),
                _full(bet.house_edge_resolved),
                repr(bet.std_dev),
            ]
        )
        for result in bet.results:
            writer.writerow(
                [
                    "result",
                    kind.value,
                    result.name,
                    format_pays(result.pays),
                    result.ways,
                    _full(result.probability),
                    "",
                    "",
                    "",
                    "",
                ]
            )
    for label, ways in sheet.naturals.items():
        writer.writerow(["natural", "", label, "", ways, _full(Fraction(ways, total)), "", "", "", ""])
    for cards, ways in sheet.cards.items():
        writer.writerow(["cards", "", str(cards), "", ways, _full(Fraction(ways, total)), "", "", "", ""])
    return out.getvalue()


def _pct(value: Fraction | float, digits: int = 4) -> str:
    return f"{float(value) * 100:.{digits}f}%"


def par_sheet_markdown(sheet: ParSheet) -> str:
    """The par sheet as a Markdown document: the shoe, the counting convention, every bet and result."""
    title = sheet.paytable.title or sheet.paytable.name
    zh = f" ({sheet.paytable.title_zh})" if sheet.paytable.title_zh and sheet.paytable.title_zh != title else ""
    shoe = shoe_description(sheet.decks, sheet.cards_in_shoe)
    lines = [
        f"# Par sheet: {title}{zh}",
        "",
        f"- Shoe: {shoe}",
        f"- Paytable: `{sheet.paytable.name}`" + (f" ({sheet.paytable.source})" if sheet.paytable.source else ""),
        f"- Counting: every ordered six-card deal from the shoe, unused cards included: {sheet.total_ways:,} deals",
        "- Drawing rules: the Macau tableau (docs/rules.md R12–R16); ties push Banker and Player bets (R24).",
        "- Figures are exact: probabilities are ways / deals; values are per unit stake, net of commission.",
        "",
        "## Outcomes",
        "",
        "| Outcome | Ways | Probability |",
        "|---|---:|---:|",
    ]
    for winner, outcome in sheet.outcomes.items():
        lines.append(f"| {winner.value.capitalize()} | {outcome.ways:,} | {float(outcome.probability):.10f} |")
    lines += [
        "",
        "## Bets",
        "",
        "| Bet | Pays | Win | Push | Lose | Expected value | House edge | Edge per resolved bet | Std. dev. |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for kind, bet in sheet.bets.items():
        lines.append(
            f"| {kind.label} | {format_pays(bet.pays)} | {float(bet.probability_win):.10f} | "
            f"{float(bet.probability_push):.10f} | {float(bet.probability_lose):.10f} | "
            f"{float(bet.expected_value):+.10f} | {_pct(bet.house_edge)} | {_pct(bet.house_edge_resolved)} | "
            f"{bet.std_dev:.6f} |"
        )
    lines += ["", "## Results of each bet", ""]
    for kind, bet in sheet.bets.items():
        lines += [
            f"### {kind.label} (`{kind.value}`)",
            "",
            "| Result | Net pays | Ways | Probability | Contribution to EV |",
            "|---|---:|---:|---:|---:|",
        ]
        for result in bet.results:
            contribution = result.pays * result.probability
            lines.append(
                f"| {result.name} | {format_pays(result.pays) if result.pays >= 0 else '-1'} | {result.ways:,} | "
                f"{float(result.probability):.10f} | {float(contribution):+.10f} |"
            )
        lines += ["", f"Expected value, exact: {bet.expected_value} per unit stake.", ""]
    lines += ["## Naturals (R12)", "", "| Natural | Ways | Probability |", "|---|---:|---:|"]
    for label, ways in sheet.naturals.items():
        lines.append(f"| {label} | {ways:,} | {float(Fraction(ways, sheet.total_ways)):.10f} |")
    lines += ["", "## Cards dealt", "", "| Cards | Ways | Probability |", "|---|---:|---:|"]
    for cards, ways in sheet.cards.items():
        lines.append(f"| {cards} | {ways:,} | {float(Fraction(ways, sheet.total_ways)):.10f} |")
    lines += game_protection_lines(sheet)
    return "\n".join(lines) + "\n"


def _units(figure: list[float] | None) -> str:
    if figure is None:
        return "–"
    value, low, high = figure
    return f"{value:+.3f} ({low:+.3f}…{high:+.3f})"


def _protection_row(name: str, cut: str, bet: dict[str, Any]) -> str:
    """One side bet at one cut card: the oracle, the best count, and what the oracle gains over it."""
    oracle, same = bet["oracle_per_shoe"], bet["count_on_oracle_shoes"]
    count = bet["count"] or "none reaches +EV"
    tags = " ".join(f"{t:+d}" if t else "0" for t in bet["tags"][:10]) if bet["tags"] else "–"
    index = "–" if bet["index"] is None else f"{bet['index']:g}"
    gap = "–" if oracle is None or same is None else f"{oracle[0] - same[0]:+.3f}"
    return (
        f"| {name} | {cut} | {_units(oracle)} | {count} | {tags} | {index} | {_units(bet['count_per_shoe'])} | {gap} |"
    )


def game_protection_lines(sheet: ParSheet) -> list[str]:
    """The par sheet's "Game protection" section: per side bet and cut card, what perfect knowledge (the
    oracle) and the best count win per shoe, from the cached runs of :mod:`baccarat.sim.protection`.

    >>> from baccarat.analysis import par_sheet
    >>> lines = game_protection_lines(par_sheet(8, variant="ez"))
    >>> lines[1], any(line.startswith("| dragon7 | 14 |") for line in lines)
    ('## Game protection', True)
    """
    from baccarat.analysis.protection_cache import PROTECTION

    lines = ["", "## Game protection", ""]
    cached = PROTECTION["figures"].get(sheet.variant or "") if sheet.decks == PROTECTION["run"]["decks"] else None
    if cached is None:
        return [
            *lines,
            "No cached figures for this shoe and paytable: run `baccarat count --variant VARIANT` and "
            "`baccarat simulate --strategy oracle` to measure what card counting and perfect knowledge win.",
        ]
    run = PROTECTION["run"]
    lines += [
        "What a player gains per shoe, in units of one unit bet, betting a side bet only when it is positive: with "
        "perfect knowledge of the cards seen (the oracle: every bet priced exactly at every coup) and with the best "
        "count (tags fitted to the exact effects of removal, or the published count when it does better; one unit "
        "at or above its index). Moving the cut card forward (more cards behind it) cuts both.",
        "",
        f"Simulated, not exact: {run['shoes']:,} shoes of {run['decks']} decks for the counts (seed {run['seed']}, "
        f"index search on {run['sample_shoes']:,} other shoes), the oracle on the first {run['oracle_shoes']:,} of "
        "them; 95% intervals. The figures are cached with the package (regenerate: "
        "`python -m baccarat.sim.protection`). *Oracle − count* compares the two on the same shoes.",
        "",
        "| Bet | Cut card | Oracle per shoe | Best count | Tags A…T | Index | Count per shoe | Oracle − count |",
        "|---|---:|---:|---|---|---:|---:|---:|",
    ]
    names = {kind.value for kind in sheet.bets}
    for cut, bets in cached.items():
        lines += [_protection_row(name, cut, bet) for name, bet in bets.items() if name in names]
    return lines


def eor_csv(effects: EffectsOfRemoval) -> str:
    """Effects of removal as CSV: one row per bet, the thirteen EoRs (full precision) and the summary."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    ranks = [rank.symbol for rank in Rank]
    writer.writerow(
        ["bet", "expected_value", *ranks, "sum_squared", "eor_sd", "betting_correlation", "positive_share", "countable"]
    )
    for kind, bet in effects.bets.items():
        c = bet.countability
        writer.writerow(
            [
                kind.value,
                _full(bet.expected_value),
                *("" if e is None else _full(e) for e in bet.eor),
                repr(c.sum_squared),
                repr(c.eor_sd),
                repr(c.betting_correlation),
                repr(c.positive_share),
                str(c.countable).lower(),
            ]
        )
    return out.getvalue()


def eor_markdown(effects: EffectsOfRemoval) -> str:
    """Effects of removal as Markdown: EoRs in percent of a unit stake, then the countability summary."""
    shoe = shoe_description(effects.decks, effects.composition.total)
    ranks = [rank.symbol for rank in Rank]
    lines = [
        f"# Effects of removal: {effects.paytable.title or effects.paytable.name}, {shoe}",
        "",
        "Change in expected value (percent of a unit stake) when one card of the rank leaves the shoe.",
        "",
        "| Bet | EV | " + " | ".join(ranks) + " |",
        "|---|---:|" + "---:|" * len(ranks),
    ]
    for kind, bet in effects.bets.items():
        cells = ["–" if e is None else f"{float(e) * 100:+.4f}" for e in bet.eor]
        lines.append(f"| {kind.value} | {_pct(bet.expected_value, 3)} | " + " | ".join(cells) + " |")
    lines += [
        "",
        f"## Countability (cut card {effects.cut_cards} cards from the end)",
        "",
        "| Bet | Σ EoR² | Level-1 tags A…K | Betting correlation | EV s.d. at the cut | Coups with +EV | Countable |",
        "|---|---:|---|---:|---:|---:|---|",
    ]
    for kind, bet in effects.bets.items():
        c = bet.countability
        tags = " ".join(f"{t:+d}" if t else "0" for t in c.tags)
        lines.append(
            f"| {kind.value} | {c.sum_squared:.3e} | {tags} | {c.betting_correlation:.3f} | "
            f"{_pct(c.sd_at_cut, 2)} | {_pct(c.positive_share, 2)} | {'yes' if c.countable else 'no'} |"
        )
    return "\n".join(lines) + "\n"
