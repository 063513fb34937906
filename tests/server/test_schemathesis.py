"""Schemathesis against the OpenAPI spec: no 5xx and no response outside the documented schema."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import schemathesis
from hypothesis import HealthCheck, given, settings
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import content_type_conformance, response_schema_conformance
from tests.server.conftest import register


@pytest.mark.slow
def test_openapi_fuzz(make_client: Any, tmp_path: Path) -> None:
    client = make_client(f"sqlite:///{tmp_path}/s.db", http_requests_per_second=10_000.0, http_burst=10_000)
    headers = register(client, "fuzz")
    schema = schemathesis.openapi.from_asgi("/openapi.json", client.app)
    failures: list[str] = []
    operations = 0
    for result in schema.get_all_operations():
        operation = result.ok()
        operations += 1

        @given(case=operation.as_strategy())
        @settings(max_examples=8, deadline=None, suppress_health_check=list(HealthCheck), database=None)
        def run(case: Any) -> None:
            case.headers = {**(case.headers or {}), **headers}
            response = case.call()
            case.validate_response(
                response, checks=(not_a_server_error, response_schema_conformance, content_type_conformance)
            )

        try:
            run()
        except Exception as error:  # collect every failing operation
            failures.append(f"{operation.label}: {str(error)[:600]}")
    assert operations >= 15
    assert not failures, "\n".join(failures)
