"""The operator's reports: per table and UTC day, the rounds finished, the handle, the gross gaming
revenue (GGR), the hold, the theoretical win and how far the GGR is from it, overall and per bet.

Definitions (money in minor units):

* **handle**: the stakes of the settled bets (a voided round's refunded stakes are no handle);
* **GGR**: the house's win, ``stakes − returned to the players + commission owed``: the players' net
  loss. ``returned`` is what went back to the bettor at settlement (the stake and the winnings; a
  deducted commission is already withheld from it). With ``commission = "owed"`` (R27) a winning
  Banker bet is paid 1:1 and its commission is written in the commission box, a debt of the player
  to the house collected when they leave or cash out: the GGR counts it when it is written (on the
  round's day, as the ledger credits the house then), and ``commission_owed`` tells how much of the
  GGR it is;
* **hold**: GGR / handle;
* **theoretical win**: Σ stake × the bet's house edge, exact from the par sheet of the table's variant
  (its options included, ``macau+lucky6``) and deck count; with ``on_tie = "stay"`` (R24) a
  Banker or Player bet is settled only when its coup does not tie, so it is priced per resolved bet;
  a bet kind only a variant the table's bettors may switch to offers (R28) is priced by that variant,
  every other bet by the table's own (the stored bets do not say which variant their bettor played);
* **σ**: ``sqrt(Σ stake² × variance per unit)``, where the bets of one kind in one coup count as one
  bet of their summed stake (they win or lose together) and the rest are taken as independent (the
  Banker and Player bets of one coup are not: σ of a total is an approximation); the **deviation**
  is ``(GGR − theoretical) / σ``.

The functions here are pure: the sums come from :mod:`baccarat.server.store.reports`.
"""

from __future__ import annotations

import csv
import io
import math
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from datetime import date, timedelta
from functools import cache
from typing import Any

from baccarat.analysis.par_sheet import BetFigures, par_sheet
from baccarat.bets import BetFamily, BetKind
from baccarat.server.settings import TableSpec
from baccarat.server.store.reports import BetSums, RoundCounts
from baccarat.settlement import TiePolicy

__all__ = [
    "CSV_HEADER",
    "EPOCH",
    "BetPrice",
    "DayReport",
    "Figures",
    "Report",
    "bet_prices",
    "build_report",
    "csv_text",
    "day_number",
    "day_of",
    "parse_day",
    "table_prices",
]

#: Day 0 of the day numbers the queries give.
EPOCH = date(1970, 1, 1)


@dataclass(frozen=True, slots=True)
class BetPrice:
    """A bet's exact house edge and variance per unit stake (floats of the par sheet's fractions)."""

    edge: float
    variance: float


def _resolved(bet: BetFigures) -> BetPrice:
    """A bet priced per resolved coup (pushes taken out): edge and variance given no push."""
    resolved = 1 - bet.probability_push
    second = (bet.variance + bet.expected_value**2) / resolved  # E[X²] given no push (a push is 0)
    mean = bet.expected_value / resolved
    return BetPrice(float(-mean), float(second - mean * mean))


@cache
def bet_prices(variant: str, decks: int, stay_on_tie: bool = False) -> Mapping[str, BetPrice]:
    """Every bet of a variant priced exactly for a shoe of ``decks`` decks (cached), by bet kind.
    ``stay_on_tie``: the Banker and Player bets stay in action on a tie (R24), priced per resolved coup.

    >>> prices = bet_prices("macau", 8)
    >>> round(prices["banker"].edge, 6), round(prices["tie"].edge, 6)
    (0.010579, 0.143596)
    >>> round(bet_prices("macau", 8, True)["banker"].edge, 6)
    0.011692
    """
    sheet = par_sheet(decks, variant=variant)
    prices: dict[str, BetPrice] = {}
    for kind, bet in sheet.bets.items():
        if stay_on_tie and kind.spec.family is BetFamily.MAIN and bet.push_ways:
            prices[kind.value] = _resolved(bet)
        else:
            prices[kind.value] = BetPrice(float(bet.house_edge), float(bet.variance))
    return prices


def table_prices(spec: TableSpec) -> Mapping[str, BetPrice]:
    """The bets of a table priced: its variant's, then those only a variant its bettors may switch
    to offers (R28, a bet is priced by the first variant that has it)."""
    config = spec.table_config()
    stay = config.on_tie is TiePolicy.STAY
    merged: dict[str, BetPrice] = {}
    for name in config.variants:
        for kind, price in bet_prices(name, spec.decks, stay).items():
            merged.setdefault(kind, price)
    return merged


@dataclass(slots=True)
class Figures:
    """The sums of some settled bets: how many, handle, returned, commission owed, theoretical win
    and variance (minor units; the last two are floats). ``unpriced`` is the handle of bets no par
    sheet prices (a bet kind the table no longer offers): it adds nothing to the theoretical."""

    bets: int = 0
    handle: int = 0
    returned: int = 0
    commission_owed: int = 0
    theoretical: float = 0.0
    variance: float = 0.0
    unpriced: int = 0

    @property
    def ggr(self) -> int:
        """The house's win: stakes − returned + commission owed (the players' net loss)."""
        return self.handle - self.returned + self.commission_owed

    @property
    def hold(self) -> float | None:
        """GGR / handle (``None`` with no handle)."""
        return self.ggr / self.handle if self.handle else None

    @property
    def sigma(self) -> float:
        """The standard deviation of the GGR around the theoretical win."""
        return math.sqrt(self.variance)

    @property
    def deviation(self) -> float | None:
        """(GGR − theoretical) in standard deviations (``None`` when σ is 0)."""
        return (self.ggr - self.theoretical) / self.sigma if self.variance > 0 else None

    def add(self, other: Figures) -> None:
        """Add another set of bets' sums to these."""
        self.bets += other.bets
        self.handle += other.handle
        self.returned += other.returned
        self.commission_owed += other.commission_owed
        self.theoretical += other.theoretical
        self.variance += other.variance
        self.unpriced += other.unpriced

    @classmethod
    def of(cls, sums: BetSums, price: BetPrice | None) -> Figures:
        """The figures of one kind's sums, priced (or not, with ``None``)."""
        figures = cls(sums.count, sums.stake, sums.returned, sums.owed)
        if price is None:
            figures.unpriced = sums.stake
        else:
            figures.theoretical = sums.stake * price.edge
            figures.variance = sums.stake_squares * price.variance
        return figures

    def to_dict(self) -> dict[str, Any]:
        """The JSON shape of the API (``baccarat.server.api.report_models.FiguresOut``)."""
        return {
            "bets": self.bets,
            "handle": self.handle,
            "returned": self.returned,
            "commission_owed": self.commission_owed,
            "ggr": self.ggr,
            "hold": self.hold,
            "theoretical": self.theoretical,
            "sigma": self.sigma,
            "deviation": self.deviation,
            "unpriced": self.unpriced,
        }


@dataclass(slots=True)
class DayReport:
    """One table's day: its rounds settled and voided, its figures per bet kind and in all."""

    table_id: str
    day: date
    rounds_settled: int = 0
    rounds_voided: int = 0
    bets: dict[str, Figures] = field(default_factory=dict)
    total: Figures = field(default_factory=Figures)


@dataclass(slots=True)
class Report:
    """A report: one :class:`DayReport` per table and day (in that order), and the figures of all of
    them per bet kind and in all."""

    days: list[DayReport]
    bets: dict[str, Figures]
    total: Figures


def day_of(number: int) -> date:
    """The date of a day number (days since 1970-01-01, UTC)."""
    return EPOCH + timedelta(days=number)


def day_number(day: date) -> int:
    """The day number of a date (days since 1970-01-01)."""
    return (day - EPOCH).days


def parse_day(text: str) -> date:
    """A ``YYYY-MM-DD`` date; ``ValueError`` for anything else.

    >>> parse_day("2026-12-02")
    datetime.date(2026, 12, 2)
    >>> parse_day("2026-13-01")
    Traceback (most recent call last):
    ...
    ValueError: month must be in 1..12
    """
    if len(text) != 10 or text[4] != "-" or text[7] != "-":
        raise ValueError("not YYYY-MM-DD")
    return date.fromisoformat(text)


def build_report(
    sums: Iterable[BetSums],
    counts: Iterable[RoundCounts],
    prices_of: Callable[[str], Mapping[str, BetPrice] | None],
) -> Report:
    """The report of the queries' sums, each table's bets priced by ``prices_of(table id)`` (``None``:
    a table the lobby no longer has, its bets unpriced)."""
    days: dict[tuple[str, int], DayReport] = {}

    def day(table_id: str, number: int) -> DayReport:
        key = (table_id, number)
        if key not in days:
            days[key] = DayReport(table_id, day_of(number))
        return days[key]

    for count in counts:
        row = day(count.table_id, count.day)
        row.rounds_settled, row.rounds_voided = count.settled, count.voided
    by_bet: dict[str, Figures] = {}
    total = Figures()
    for item in sums:
        prices = prices_of(item.table_id) or {}
        figures = Figures.of(item, prices.get(item.kind))
        row = day(item.table_id, item.day)
        row.bets[item.kind] = figures
        row.total.add(figures)
        by_bet.setdefault(item.kind, Figures()).add(figures)
        total.add(figures)
    ordered = [days[key] for key in sorted(days)]
    return Report(ordered, dict(sorted(by_bet.items(), key=lambda kv: _bet_order(kv[0]))), total)


def _bet_order(kind: str) -> tuple[int, str]:
    """Bets in the order of the bet menu (unknown kinds last, by name)."""
    order = [k.value for k in BetKind]
    return (order.index(kind) if kind in order else len(order), kind)


#: The columns of the CSV report: one row per table, day and bet; money in minor units and as a decimal.
CSV_HEADER = (
    "table",
    "day",
    "bet",
    "rounds_settled",
    "rounds_voided",
    "bets",
    "handle",
    "handle_decimal",
    "returned",
    "returned_decimal",
    "commission_owed",
    "commission_owed_decimal",
    "ggr",
    "ggr_decimal",
    "hold",
    "theoretical",
    "theoretical_decimal",
    "sigma",
    "sigma_decimal",
    "deviation_sigma",
)


def _decimal(minor: int) -> str:
    """Minor units as a decimal amount: 12345 → ``123.45``, -5 → ``-0.05``."""
    units, cents = divmod(abs(minor), 100)
    return f"{'-' if minor < 0 else ''}{units}.{cents:02d}"


def _float(value: float | None, digits: int) -> str:
    return "" if value is None else f"{value:.{digits}f}"


def csv_text(report: Report) -> str:
    """The report as CSV (``CSV_HEADER``, then one row per table, day and bet kind)."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(CSV_HEADER)
    for row in report.days:
        for kind in sorted(row.bets, key=_bet_order):
            f = row.bets[kind]
            writer.writerow(
                [
                    row.table_id,
                    row.day.isoformat(),
                    kind,
                    row.rounds_settled,
                    row.rounds_voided,
                    f.bets,
                    f.handle,
                    _decimal(f.handle),
                    f.returned,
                    _decimal(f.returned),
                    f.commission_owed,
                    _decimal(f.commission_owed),
                    f.ggr,
                    _decimal(f.ggr),
                    _float(f.hold, 6),
                    _float(f.theoretical, 2),
                    _float(f.theoretical / 100, 4),
                    _float(f.sigma, 2),
                    _float(f.sigma / 100, 4),
                    _float(f.deviation, 4),
                ]
            )
    return out.getvalue()
