"""User names of any script (張三), NFKC-normalised and length-limited; the public sees them masked."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from tests.server.conftest import admin

from baccarat.server.auth import NAME_LENGTH
from baccarat.server.observer.names import display_name

PASSWORD = "password-123"


def _register(client: Any, name: str) -> Any:
    return client.post("/api/auth/register", json={"name": name, "password": PASSWORD})


def test_a_chinese_name_registers_logs_in_and_is_masked_for_the_public(make_client: Any, tmp_path: Path) -> None:
    client = make_client(f"sqlite:///{tmp_path}/n.db")
    made = _register(client, "張三")
    assert made.status_code == 201, made.text
    user = made.json()["user"]
    assert user["name"] == "張三" and user["display_name"] == display_name("張三")
    assert user["display_name"].startswith("張***") and "三" not in user["display_name"]
    assert client.post("/api/auth/login", json={"name": "張三", "password": PASSWORD}).status_code == 200
    assert _register(client, "張三").status_code == 409  # taken


def test_names_are_nfkc_normalised_so_one_person_has_one_name(make_client: Any, tmp_path: Path) -> None:
    client = make_client(f"sqlite:///{tmp_path}/n.db")
    made = _register(client, "ＡＮＮ２")  # full width
    assert made.status_code == 201 and made.json()["user"]["name"] == "ANN2"
    assert _register(client, "ANN2").status_code == 409, "the same name, typed another way"
    for typed in ("ANN2", "ＡＮＮ２"):
        assert client.post("/api/auth/login", json={"name": typed, "password": PASSWORD}).status_code == 200, typed
    decomposed = _register(client, "Jose\u0301")
    assert decomposed.status_code == 201 and decomposed.json()["user"]["name"] == "Jos\u00e9"
    assert _register(client, "ＡＤＭＩＮ").json()["code"] == "name.reserved"


def test_the_back_office_finds_a_player_however_the_name_is_typed(make_client: Any, tmp_path: Path) -> None:
    client = make_client(f"sqlite:///{tmp_path}/n.db")
    assert _register(client, "ANN2").status_code == 201
    headers = admin(client)
    for typed in ("ANN2", "ＡＮＮ２"):
        found = client.get(f"/api/admin/players/{typed}/history", headers=headers)
        assert found.status_code == 200, (typed, found.text)
    suspended = client.post(
        "/api/admin/users/ＡＮＮ２/suspension", json={"suspended": True, "reason": "test"}, headers=headers
    )
    assert suspended.status_code == 200 and suspended.json()["name"] == "ANN2", suspended.text
    assert client.get("/api/admin/players/BOB9/history", headers=headers).json()["code"] == "player.not_found"


@pytest.mark.parametrize(
    "name",
    ["a", "x" * (NAME_LENGTH[1] + 1), "張 三", "ann\t", "😀😀", "__", "\u0301ab", "ann<b>", "a\u200bb"],
)
def test_names_that_are_refused_say_why(make_client: Any, tmp_path: Path, name: str) -> None:
    client = make_client(f"sqlite:///{tmp_path}/n.db")
    refused = _register(client, name)
    assert refused.status_code == 400, (name, refused.text)
    body = refused.json()
    assert body["code"] == "name.invalid" and body["params"] == {"min": NAME_LENGTH[0], "max": NAME_LENGTH[1]}
    assert "2–32" in body["detail"] and (name not in refused.text or len(name) < 2), "the name typed is never echoed"
