"""The house changes a table's limits and timing while the server runs: in force from the next
round (the bet under the new minimum refused, R21), shown in the lobby, refused when not valid,
put back to the tables file's with null, audited; a player may not."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.server.conftest import admin, betting_round, register

from baccarat.server.clock import ManualClock


def _bet(client: Any, headers: dict[str, str], client_id: str, stake: int) -> Any:
    body = {"client_id": client_id, "bet": "player", "stake": stake}
    return client.post("/api/tables/macau/bets", json=body, headers=headers)


def test_the_house_changes_the_limits_from_the_next_round(make_client: Any, tmp_path: Path, clock: ManualClock) -> None:
    client = make_client(f"sqlite:///{tmp_path}/s.db", betting=5.0)
    boss, ann = admin(client), register(client, "ann")
    url = "/api/admin/tables/macau/settings"
    assert client.put(url, json={"min_bet": 500}, headers=ann).status_code == 403
    bad = client.put(url, json={"min_bet": 30000}, headers=boss)  # over the table's maximum of 20000
    assert bad.status_code == 400 and bad.json()["code"] == "config.invalid"
    assert client.put(url, json={"betting_seconds": 0}, headers=boss).status_code == 422
    first = betting_round(client, "macau", left=2.0)
    changed = client.put(url, json={"min_bet": 500, "betting_seconds": 6.0}, headers=boss)
    assert changed.status_code == 200, changed.text
    assert changed.json()["changes"] == {"min_bet": 500, "betting_seconds": 6.0}
    assert changed.json()["settings"]["min_bet"] == 500
    assert _bet(client, ann, "b1", 100).status_code == 201, "the round in play keeps its limits"
    following = clock.run_until(
        lambda: (
            (r := client.get("/api/tables/macau").json()["round"])
            and r["id"] != first["id"]
            and r["status"] == "betting"
            and r
        )
    )
    refused = _bet(client, ann, "b2", 100)
    assert refused.status_code == 400 and refused.json()["code"] == "limit.min", refused.text
    assert _bet(client, ann, "b3", 500).status_code == 201
    assert abs(following["closes_at"] - clock.time() - 6.0) < 1.0, "the new betting time"
    lobby = {t["id"]: t for t in client.get("/api/tables").json()["tables"]}
    assert lobby["macau"]["min_bet"] == 500
    restored = client.put(url, json={"min_bet": None, "betting_seconds": None}, headers=boss)
    assert restored.json()["changes"] == {} and restored.json()["settings"]["min_bet"] == 100
    entries = [
        e
        for e in client.get("/api/admin/audit?table=macau", headers=boss).json()["entries"]
        if e["action"] == "settings.changed"
    ]
    assert [e["detail"]["after"] for e in entries] == [{}, {"min_bet": 500, "betting_seconds": 6.0}]
