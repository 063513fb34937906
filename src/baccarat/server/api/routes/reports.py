"""The operator's reports (role ``admin``): per table and UTC day, the rounds finished, handle, GGR,
hold, theoretical win and the difference in standard deviations, per bet and in all, as JSON and as
CSV (:mod:`baccarat.server.reports` says how each figure is counted)."""

from __future__ import annotations

import csv
import io
from collections.abc import Callable, Mapping
from datetime import date
from typing import Annotated, Any

from fastapi import APIRouter, Query, Request
from fastapi.responses import Response

from baccarat.bets import BetKind
from baccarat.server.api.deps import AdminUser, ContextDep
from baccarat.server.api.problems import ERRORS, Refusal
from baccarat.server.api.report_models import ReportCsvOut, ReportOut
from baccarat.server.reports import (
    BetPrice,
    Figures,
    Report,
    build_report,
    csv_text,
    day_number,
    parse_day,
    table_prices,
)
from baccarat.server.service import Service
from baccarat.server.store.reports import ReportQueries

__all__ = ["router"]

router = APIRouter(prefix="/api/admin", tags=["admin"], responses=ERRORS)

TableFilter = Annotated[
    str | None,
    Query(min_length=1, max_length=40, pattern=r"^[A-Za-z0-9_-]+$", description="Only this table; all when omitted."),
]
FromFilter = Annotated[
    str | None, Query(alias="from", max_length=10, description="First UTC day, YYYY-MM-DD (inclusive).")
]
ToFilter = Annotated[str | None, Query(max_length=10, description="Last UTC day, YYYY-MM-DD (inclusive).")]


def _day(text: str | None, name: str) -> date | None:
    """A filter's day, or a 422 ``request.invalid`` refusal naming the filter (as any malformed query)."""
    if text is None or text == "":
        return None
    try:
        return parse_day(text)
    except ValueError:
        raise Refusal(422, "request.invalid", f"{name}: not a date (YYYY-MM-DD)", params={"field": name}) from None


def _prices(service: Service) -> Callable[[str], Mapping[str, BetPrice] | None]:
    """Each table's bets priced (``None`` for a table the lobby does not have)."""

    def prices_of(table_id: str) -> Mapping[str, BetPrice] | None:
        spec = service.lobby.table(table_id)
        return None if spec is None else table_prices(spec)

    return prices_of


async def _report(context: ContextDep, table: str | None, first: str | None, last: str | None) -> Report:
    start, end = _day(first, "from"), _day(last, "to")
    if start is not None and end is not None and end < start:
        raise Refusal(422, "request.invalid", "to: a day before from", params={"field": "to"})
    service = context.service
    queries = ReportQueries(service.store.db)
    window: dict[str, Any] = {
        "table_id": table,
        "first_day": None if start is None else day_number(start),
        "last_day": None if end is None else day_number(end),
    }
    sums = await service.read(queries.bet_sums, **window)
    counts = await service.read(queries.round_counts, **window)
    return build_report(sums, counts, _prices(service))


def _figures(figures: Figures) -> dict[str, Any]:
    return figures.to_dict()


@router.get("/reports")
async def reports(
    _: AdminUser, context: ContextDep, table: TableFilter = None, first: FromFilter = None, to: ToFilter = None
) -> ReportOut:
    """The report per table and UTC day of the rounds' end (days inclusive; every day when omitted):
    rounds settled and voided, and per bet kind and in all the handle, GGR, hold, theoretical win and
    the GGR's difference from it in standard deviations."""
    report = await _report(context, table, first, to)
    days = [
        {
            "table": row.table_id,
            "day": row.day.isoformat(),
            "rounds_settled": row.rounds_settled,
            "rounds_voided": row.rounds_voided,
            "bets": {kind: _figures(f) for kind, f in row.bets.items()},
            "total": _figures(row.total),
        }
        for row in report.days
    ]
    body = {"table": table, "from": first or None, "to": to or None, "days": days}
    bets = {kind: _figures(f) for kind, f in report.bets.items()}
    names = {kind: _names(kind) for kind in report.bets}
    return ReportOut.model_validate(body | {"bets": bets, "total": _figures(report.total), "names": names})


def _names(kind: str) -> dict[str, str]:
    """A bet kind's English and Chinese names (its id for a kind the engine does not know)."""
    try:
        known = BetKind(kind)
    except ValueError:
        return {"english": kind, "chinese": kind}
    return {"english": known.english, "chinese": known.chinese}


def _filename(table: str | None, first: str | None, last: str | None) -> str:
    parts = ["report", table or "all-tables", first or "start", last or "end"]
    return "-".join(parts) + ".csv"


_CSV_RESPONSES: dict[int | str, dict[str, Any]] = {
    200: {
        "description": "The report as CSV (one row per table, day and bet; header row), or its rows as JSON "
        "when asked with `Accept: application/json`.",
        "content": {
            "text/csv": {"schema": {"type": "string"}},
        },
        "model": ReportCsvOut,
    }
}


@router.get("/reports.csv", response_class=Response, responses=_CSV_RESPONSES)
async def reports_csv(
    request: Request,
    _: AdminUser,
    context: ContextDep,
    table: TableFilter = None,
    first: FromFilter = None,
    to: ToFilter = None,
) -> Response:
    """The report as CSV, one row per table, day and bet kind, with a header row; money in minor units
    and as a decimal. Downloaded as ``report-TABLE-FROM-TO.csv``."""
    report = await _report(context, table, first, to)
    text, filename = csv_text(report), _filename(table, first, to)
    accept = request.headers.get("accept", "")
    if "application/json" in accept and "text/csv" not in accept:
        header, *rows = list(csv.reader(io.StringIO(text)))
        body = ReportCsvOut(filename=filename, header=header, rows=rows)
        return Response(body.model_dump_json(), media_type="application/json")
    disposition = f'attachment; filename="{filename}"'
    return Response(text, media_type="text/csv; charset=utf-8", headers={"Content-Disposition": disposition})
