"""Input that Python's JSON reader takes but nothing should accept (NaN, Infinity, numbers that
overflow, lone surrogates, deep nesting): a 4xx with a code and a reason on every route and on the
websocket, never a 5xx, never a dropped connection. Refusals never echo what was sent."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from tests.server.conftest import close_open_clients, register
from tests.server.security_support import start

#: Bodies Python's ``json`` reads: each must be refused with a 4xx and a code.
HOSTILE = {
    "nan": '{"name": "ann_1", "password": NaN, "stake": NaN, "client_id": "c1", "bet": "banker"}',
    "infinity": '{"name": "ann_1", "password": "password-1", "stake": Infinity, "client_id": "c1", "bet": "banker"}',
    "minus_infinity": '{"stake": -Infinity, "client_id": "c1", "bet": "banker", "shoes": -Infinity}',
    "overflow": '{"stake": 1e999999, "client_id": "c1", "bet": "banker", "shoes": 1e999999, "seed": 1e999999}',
    "surrogate_value": '{"name": "an\\ud800n", "password": "pass\\udfffword", "client_id": "c\\ud800", "bet": "b\\ud83d"}',
    "surrogate_key": '{"\\ud800": 1, "name": "ann_1", "password": "password-1"}',
    "deep": '{"name": "ann_1", "password": "password-1", "x": ' + "[" * 3000 + "]" * 3000 + "}",
    "deep_at_limit": '{"x": ' + "[" * 40 + "]" * 40 + "}",
}


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    yield start(tmp_path, f"sqlite:///{tmp_path}/j.db", http_requests_per_second=10_000.0, http_burst=10_000)
    close_open_clients()


def _posts(client: TestClient) -> list[str]:
    spec = client.get("/openapi.json").json()
    paths = [path for path, item in spec["paths"].items() if "post" in item]
    return [path.replace("{table_id}", "macau").replace("{round_id}", "1") for path in paths]


@pytest.mark.parametrize("kind", sorted(HOSTILE))
def test_every_post_route_refuses_hostile_json_with_a_code(client: TestClient, kind: str) -> None:
    headers = {**register(client, "hostile"), "content-type": "application/json"}
    posts = _posts(client)
    assert len(posts) >= 15
    for path in posts:
        answer = client.post(path, content=HOSTILE[kind].encode(), headers=headers)
        assert 400 <= answer.status_code < 500, (path, answer.status_code, answer.text[:200])
        body = answer.json()
        assert body["code"] and body["detail"], (path, body)
        assert "\\ud800" not in answer.text and "pass" not in answer.text


def test_the_refusals_name_what_was_wrong(client: TestClient) -> None:
    def refusal(kind: str) -> dict[str, Any]:
        answer = client.post("/api/auth/login", content=HOSTILE[kind], headers={"content-type": "application/json"})
        return dict(answer.json())

    assert refusal("nan")["code"] == "request.not_json" and "NaN" in refusal("nan")["detail"]
    assert refusal("overflow")["code"] == "request.invalid" and "finite" in refusal("overflow")["detail"]
    assert "surrogate" in refusal("surrogate_value")["detail"]
    assert "nesting" in refusal("deep")["detail"] and "nesting" in refusal("deep_at_limit")["detail"]


def test_the_websocket_refuses_hostile_json_and_stays_open(client: TestClient) -> None:
    token = register(client, "wsuser")["Authorization"].split()[1]
    with client.websocket_connect("/ws/tables/macau") as ws:
        assert ws.receive_json()["type"] == "snapshot"
        ws.send_json({"type": "auth", "token": token})
        while ws.receive_json()["type"] != "authenticated":
            pass
        for text in (
            '{"type": "bet", "client_id": "c1", "bet": "banker", "stake": NaN}',
            '{"type": "bet", "client_id": "c1", "bet": "banker", "stake": Infinity}',
            '{"type": "bet", "client_id": "c1", "bet": "banker", "stake": 1e999999}',
            '{"type": "bet", "client_id": "c\\ud800", "bet": "banker", "stake": 100}',
            '{"type": "ping", "ref": "\\udc00"}',
            '{"type": "bet", "x": ' + "[" * 1500 + "]" * 1500 + "}",
            '{"type": "bet", "x": ' + "[" * 40 + "]" * 40 + "}",
            "[" * 2000 + "]" * 2000,
        ):
            ws.send_text(text)
            reply = _reply(ws)
            assert reply["type"] == "error" and 400 <= reply["status"] < 500 and reply["code"], (text[:40], reply)
            assert "\\udc00" not in json.dumps(reply) and "\udc00" not in str(reply)
        ws.send_json({"type": "ping", "ref": "still-here"})
        assert _reply(ws)["ref"] == "still-here"


def _reply(ws: Any) -> dict[str, Any]:
    """The next reply (public messages of the table skipped)."""
    while True:
        message = dict(ws.receive_json())
        if message["type"] in ("error", "pong"):
            return message


def test_validation_refusals_never_echo_the_input(client: TestClient) -> None:
    secret = "hunter2-SECRET"
    cases: list[tuple[str, dict[str, Any]]] = [
        ("/api/auth/register", {"name": "ann_2", "password": "short"}),  # too short
        ("/api/auth/register", {"name": "ann_2", "password": secret * 20}),  # too long
        ("/api/auth/register", {"name": f"bad name {secret}", "password": secret}),  # bad name
        ("/api/auth/login", {"name": "ann_2", "password": 12345678901}),  # not a string
        ("/api/auth/login", {"name": "ann_2", "password": secret, "extra": secret}),  # unknown field
        ("/api/auth/login", {"name": "ann_2", "password": [secret]}),
        ("/api/auth/password", {"old_password": secret, "new_password": "short"}),
    ]
    headers = register(client, "echo_check")
    for path, body in cases:
        answer = client.post(path, json=body, headers=headers)
        assert 400 <= answer.status_code < 500, (path, answer.text)
        text = answer.text
        assert secret not in text and "12345678901" not in text and "short" not in text.replace("too_short", "")
        assert "input" not in answer.json()
    with client.websocket_connect("/ws/tables/macau") as ws:
        assert ws.receive_json()["type"] == "snapshot"
        ws.send_json({"type": "auth", "token": headers["Authorization"].split()[1]})
        while ws.receive_json()["type"] != "authenticated":
            pass
        ws.send_json({"type": "bet", "client_id": secret + "!!", "bet": secret, "stake": "x"})
        assert secret not in json.dumps(_reply(ws))
