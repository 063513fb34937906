"""Schemathesis against the OpenAPI spec: no 5xx and no response outside the documented schema, and
every POST operation it finds answers hostile JSON (NaN, Infinity, lone surrogates…) with a 4xx.

``make test`` tries 3 examples of each operation; ``make test-long`` the full 8."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
import schemathesis
from hypothesis import HealthCheck, given, settings
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import content_type_conformance, response_schema_conformance
from tests.server.conftest import register
from tests.server.test_security_input import HOSTILE

#: Examples of each operation: the quick run's, and the full run's (make test-long).
QUICK_EXAMPLES, FULL_EXAMPLES = 3, 8


@pytest.mark.slow
@pytest.mark.parametrize(
    "examples",
    [pytest.param(QUICK_EXAMPLES, id="quick"), pytest.param(FULL_EXAMPLES, id="full", marks=pytest.mark.long)],
)
def test_openapi_fuzz(make_client: Any, tmp_path: Path, examples: int) -> None:
    client = make_client(f"sqlite:///{tmp_path}/s.db", http_requests_per_second=10_000.0, http_burst=10_000)
    headers = register(client, "fuzz")
    # The lab's first simulation compiles (or loads) the simulator's kernels; do it before the
    # fuzzer's calls, whose read time-out is 10 s.
    warm = client.post("/api/lab/simulate", json={"strategy": "martingale:banker", "shoes": 2, "seed": 1})
    assert warm.status_code == 200, warm.text
    # the spec as served, its cases sent through the test's own client: the app runs once (an ASGI
    # schema would start the app's lifespan a second time, running its tables twice)
    schema = schemathesis.openapi.from_dict(client.get("/openapi.json").json())
    failures: list[str] = []
    operations = 0
    for result in schema.get_all_operations():
        operation = result.ok()
        operations += 1

        @given(case=operation.as_strategy())
        @settings(max_examples=examples, deadline=None, suppress_health_check=list(HealthCheck), database=None)
        def run(case: Any) -> None:
            case.headers = {**(case.headers or {}), **headers}
            response = client.request(**_request_of(case))
            case.validate_response(
                response, checks=(not_a_server_error, response_schema_conformance, content_type_conformance)
            )

        try:
            run()
        except Exception as error:  # collect every failing operation, with what each example raised
            inner = getattr(error, "exceptions", ())
            details = "; ".join(f"{type(e).__name__}: {str(e)[:400]}" for e in inner)
            failures.append(f"{operation.label}: {str(error)[:300]} {details}")
    assert operations >= 15
    failures += _hostile_bodies(client, schema, headers)
    assert not failures, "\n".join(failures)


def _request_of(case: Any) -> dict[str, Any]:
    """The case as the test client's request; its cookies, if any, in its own ``Cookie`` header (the
    client keeps no cookies between cases)."""
    request = dict(case.as_transport_kwargs(base_url="http://testserver"))
    cookies = request.pop("cookies", None)
    if cookies:
        cookie = "; ".join(f"{name}={value}" for name, value in cookies.items())
        request["headers"] = {**(request.get("headers") or {}), "cookie": cookie}
    return request


def _hostile_bodies(client: Any, schema: Any, headers: dict[str, str]) -> list[str]:
    """Every POST operation of the spec sent the JSON that Python reads but no route should take
    (NaN, Infinity, overflowing numbers, lone surrogates, deep nesting): each answered with a 4xx
    and a code, never a 5xx."""
    failures: list[str] = []
    posts = [r.ok() for r in schema.get_all_operations() if r.ok().method.upper() == "POST"]
    assert posts
    for operation in posts:
        path = re.sub(r"\{table_id\}", "macau", re.sub(r"\{round_id\}", "1", operation.path))
        for name, raw in HOSTILE.items():
            sent = {**headers, "content-type": "application/json"}
            answer = client.post(path, content=raw.encode(), headers=sent)
            if not 400 <= answer.status_code < 500 or "code" not in answer.json():
                failures.append(f"POST {path} with {name}: {answer.status_code} {answer.text[:200]}")
    return failures
