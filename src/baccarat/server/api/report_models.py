"""Response bodies of the operator's reports (``/api/admin/reports``): money in integer minor units,
the theoretical win and σ as floats of minor units (see :mod:`baccarat.server.reports`)."""

from __future__ import annotations

from pydantic import BaseModel, Field

__all__ = ["BetNameOut", "FiguresOut", "ReportCsvOut", "ReportDayOut", "ReportOut"]


class BetNameOut(BaseModel):
    """A bet kind's names, to show it."""

    english: str
    chinese: str


class FiguresOut(BaseModel):
    """The figures of some settled bets."""

    bets: int = Field(description="How many bets were settled.")
    handle: int = Field(description="The stakes of the settled bets (minor units).")
    returned: int = Field(description="What went back to the players at settlement: stakes and winnings.")
    commission_owed: int = Field(description="Commission written in the commission box (R27), counted in the GGR.")
    ggr: int = Field(description="The house's win: handle − returned + commission owed (the players' net loss).")
    hold: float | None = Field(description="GGR / handle (null with no handle).")
    theoretical: float = Field(description="Σ stake × house edge (exact par sheet of the table's variant and decks).")
    sigma: float = Field(description="sqrt(Σ stake² × variance per unit): one standard deviation of the GGR.")
    deviation: float | None = Field(description="(GGR − theoretical) / σ (null when σ is 0).")
    unpriced: int = Field(description="Handle of bets no par sheet prices (not in the theoretical).")


class ReportDayOut(BaseModel):
    """One table's UTC day."""

    table: str
    day: str = Field(description="The UTC day the rounds finished, YYYY-MM-DD.")
    rounds_settled: int
    rounds_voided: int
    bets: dict[str, FiguresOut] = Field(description="The figures per bet kind.")
    total: FiguresOut


class ReportOut(BaseModel):
    """A report: one row per table and day (table, then day), and every row's figures per bet and in all."""

    table: str | None = Field(description="The table asked for (null: every table).")
    from_: str | None = Field(alias="from", description="The first day asked for (null: from the first).")
    to: str | None = Field(description="The last day asked for (null: to the last).")
    days: list[ReportDayOut]
    bets: dict[str, FiguresOut]
    total: FiguresOut
    names: dict[str, BetNameOut] = Field(description="The names of the bet kinds in the report.")


class ReportCsvOut(BaseModel):
    """The CSV report's rows as JSON (``reports.csv`` asked with ``Accept: application/json``)."""

    filename: str
    header: list[str]
    rows: list[list[str]]
