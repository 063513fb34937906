"""Refusals: every 4xx (and 503) answer is ``{"code", "rule", "params", "detail"}``, on REST and on the websocket.

``code`` is stable and machine-readable (listed in ``docs/api.md``, registered in
:data:`baccarat.error_codes.CODES`); clients translate by it, never by ``detail``, which is the
English text. No answer ever echoes the input it refuses.

>>> refusal = Refusal(404, "table.not_found", "no table 'x'", params={"table": "x"})
>>> refusal.problem()
{'code': 'table.not_found', 'rule': None, 'params': {'table': 'x'}, 'detail': "no table 'x'"}
"""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from pydantic import ValidationError
from starlette.exceptions import HTTPException as StarletteHTTPException

from baccarat.error_codes import CODE_BY_STATUS, STATUS
from baccarat.errors import BaccaratError, ProcedureError
from baccarat.server.api.models import ErrorBody
from baccarat.server.refusals import Refusal

__all__ = [
    "ERRORS",
    "Refusal",
    "error_status",
    "install_handlers",
    "problem_of",
    "problem_response",
    "validation_problem",
]


def error_status(error: BaccaratError) -> int:
    """The HTTP status of an engine refusal: its code's (:data:`baccarat.error_codes.STATUS`), else 409
    for an action not possible now and 400 for bad input."""
    return STATUS.get(error.code, 409 if isinstance(error, ProcedureError) else 400)


def problem_of(error: BaccaratError | Refusal) -> tuple[int, dict[str, Any]]:
    """An error's status and answer."""
    if isinstance(error, Refusal):
        return error.status, error.problem()
    return error_status(error), error.problem()


def validation_problem(error: ValidationError | RequestValidationError) -> dict[str, Any]:
    """A malformed request's answer: where and what was wrong, never the value that was sent."""
    errors = error.errors()
    first = errors[0] if errors else {}
    where = ".".join(str(p) for p in first.get("loc", ()) if p != "body") or "body"
    what = str(first.get("msg", "malformed request"))
    return {
        "code": "request.invalid",
        "rule": None,
        "params": {"field": where},
        "detail": f"{where}: {what}",
    }


def problem_response(status: int, problem: dict[str, Any], headers: dict[str, str] | None = None) -> JSONResponse:
    """A refusal as an HTTP answer."""
    return JSONResponse(problem, status_code=status, headers=headers)


async def _refusal(_: Request, error: Exception) -> JSONResponse:
    assert isinstance(error, Refusal)
    return problem_response(error.status, error.problem())


async def _engine(_: Request, error: Exception) -> JSONResponse:
    assert isinstance(error, BaccaratError)
    status, problem = problem_of(error)
    return problem_response(status, problem)


async def _validation(_: Request, error: Exception) -> JSONResponse:
    assert isinstance(error, RequestValidationError)
    return problem_response(422, validation_problem(error))


async def _http(_: Request, error: Exception) -> JSONResponse:
    assert isinstance(error, StarletteHTTPException)
    code = CODE_BY_STATUS.get(error.status_code, "request.invalid")
    detail = str(error.detail) if error.status_code != 404 else "no such resource"
    problem: dict[str, Any] = {"code": code, "rule": None, "params": {}, "detail": detail}
    return problem_response(error.status_code, problem, headers=getattr(error, "headers", None))


def install_handlers(app: FastAPI) -> None:
    """Answer every refusal in the one shape."""
    app.add_exception_handler(Refusal, _refusal)
    app.add_exception_handler(BaccaratError, _engine)
    app.add_exception_handler(RequestValidationError, _validation)
    app.add_exception_handler(StarletteHTTPException, _http)


def _errors() -> dict[int | str, dict[str, Any]]:
    return {
        status: {"model": ErrorBody, "description": text}
        for status, text in (
            (400, "Bad input (the detail says what to fix)"),
            (401, "Not logged in"),
            (403, "Not allowed"),
            (404, "No such table or round"),
            (409, "Not possible now (betting closed, insufficient balance, …)"),
            (413, "Request too large"),
            (422, "Malformed request"),
            (429, "Too many requests"),
            (503, "The table's process did not answer (try again)"),
        )
    }


#: The refusals every route may answer, for the OpenAPI document.
ERRORS = _errors()
