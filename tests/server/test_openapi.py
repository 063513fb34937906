"""The OpenAPI document: every route answers with a described body (a response schema for every
2xx answer) and every refusal in the one shape (``code``, ``rule``, ``params``, ``detail``)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient


@pytest.fixture
def client(make_client: Callable[..., TestClient], tmp_path: Path) -> TestClient:
    """A server on SQLite."""
    return make_client(f"sqlite:///{tmp_path}/api.db")


def _operations(document: dict[str, Any]) -> list[tuple[str, str, dict[str, Any]]]:
    return [
        (method.upper(), path, operation)
        for path, item in document["paths"].items()
        for method, operation in item.items()
        if method in {"get", "post", "put", "patch", "delete"}
    ]


def test_every_2xx_answer_has_a_schema(client: TestClient) -> None:
    document = client.get("/openapi.json").json()
    operations = _operations(document)
    assert len(operations) >= 25
    missing = []
    for method, path, operation in operations:
        for status, response in operation["responses"].items():
            if not status.startswith("2"):
                continue
            schema = response.get("content", {}).get("application/json", {}).get("schema")
            if not schema or schema == {}:
                missing.append(f"{method} {path} {status}")
    assert missing == []


def test_refusals_are_described_with_a_code(client: TestClient) -> None:
    document = client.get("/openapi.json").json()
    error = document["components"]["schemas"]["ErrorBody"]
    assert set(error["required"]) >= {"code", "detail"}
    assert set(error["properties"]) == {"code", "rule", "params", "detail"}
    for method, path, operation in _operations(document):
        if path.startswith("/api/lab"):
            continue
        assert "401" in operation["responses"] or "404" in operation["responses"], f"{method} {path}"


def test_a_refusal_carries_its_code(client: TestClient) -> None:
    answer = client.get("/api/tables/nowhere")
    assert answer.status_code == 404
    assert answer.json() == {
        "code": "table.not_found",
        "rule": None,
        "params": {"table": "nowhere"},
        "detail": "no table 'nowhere'",
    }
    assert client.get("/api/me").json()["code"] == "auth.required"
    assert client.get("/api/me", headers={"Authorization": "Bearer nope"}).json()["code"] == "auth.invalid"


def test_a_malformed_body_is_not_echoed(client: TestClient) -> None:
    secret = "s3cret-password-value"
    answer = client.post("/api/auth/register", json={"name": "", "password": secret})
    assert answer.status_code == 422
    body = answer.json()
    assert body["code"] == "request.invalid"
    assert body["params"]["field"] == "name"
    assert secret not in answer.text


def test_a_chunked_body_is_counted_as_it_streams(client: TestClient) -> None:
    def chunks() -> Any:
        for _ in range(64):
            yield b"x" * 1024

    answer = client.post("/api/auth/login", content=chunks(), headers={"Content-Type": "application/json"})
    assert answer.status_code == 413
    assert answer.json()["code"] == "request.too_large"
