"""The audit log: every house action and settings change with who, what, when and why, read back a page
at a time by the admin only; a void once a card is face up needs a reason (R18)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.server.conftest import admin, betting_round, register

from baccarat.server.clock import ManualClock
from baccarat.server.store.audit import Audit


def test_settings_changes_are_recorded_with_the_actor_and_paged(make_client: Any, tmp_path: Path) -> None:
    client = make_client(f"sqlite:///{tmp_path}/a.db")
    boss = admin(client)
    assert client.post("/api/admin/tables/macau/close", headers=boss).status_code == 200
    assert client.post("/api/admin/tables/macau/open", headers=boss).status_code == 200
    assert client.post("/api/admin/tables/macau/change-shoe", headers=boss).status_code == 200
    first = client.get("/api/admin/audit?limit=2", headers=boss).json()
    assert [e["action"] for e in first["entries"]] == ["settings.change_shoe", "settings.open"]
    assert first["total"] == 3 and first["next"] is not None
    assert {(e["actor"], e["role"], e["table_id"], e["status"]) for e in first["entries"]} == {
        ("admin", "admin", "macau", 200)
    }
    rest = client.get(f"/api/admin/audit?limit=2&before={first['next']}", headers=boss).json()
    assert [e["action"] for e in rest["entries"]] == ["settings.close"] and rest["next"] is None
    assert rest["entries"][0]["detail"] == {"open": False} and rest["entries"][0]["at"] > 0
    only = client.get("/api/admin/audit?table=live", headers=boss).json()
    assert only == {"entries": [], "next": None, "total": 0}


def test_only_the_admin_reads_the_audit_log(make_client: Any, tmp_path: Path) -> None:
    client = make_client(f"sqlite:///{tmp_path}/b.db")
    assert client.get("/api/admin/audit").status_code == 401
    refused = client.get("/api/admin/audit", headers=register(client, "pat"))
    assert refused.status_code == 403
    assert client.get("/api/admin/audit?limit=0", headers=admin(client)).status_code == 422


def test_r18_a_void_after_a_card_is_face_up_needs_a_reason_and_is_recorded(
    make_client: Any, tmp_path: Path, clock: ManualClock
) -> None:
    client = make_client(f"sqlite:///{tmp_path}/v.db", betting=1.5)
    boss, dee = admin(client), register(client, "dee")
    client.post("/api/admin/tables/live/open", headers=boss)
    current = betting_round(client, "live", left=1.0)
    bet = {"client_id": "d1", "bet": "player", "stake": 1000}
    assert client.post("/api/tables/live/bets", json=bet, headers=dee).status_code == 201
    clock.run_until(lambda: client.get(f"/api/rounds/{current['id']}").json()["status"] == "closed")
    assert client.post("/api/admin/tables/live/cards", json={"card": "AS"}, headers=boss).status_code == 200
    url = f"/api/admin/rounds/{current['id']}/void"
    bare = client.post(url, headers=boss)
    assert bare.status_code == 422, bare.text
    assert bare.json()["code"] == "void.reason_required" and bare.json()["params"]["exposed"] == ["player_1"]
    assert client.get(f"/api/rounds/{current['id']}").json()["status"] == "closed"  # not voided
    done = client.post(url, json={"reason": "card dropped on the floor"}, headers=boss)
    assert done.status_code == 200 and done.json()["refunded"] == 1000
    entries = client.get("/api/admin/audit", headers=boss).json()["entries"]
    voids = [e for e in entries if e["action"] == "table.void"]
    assert [(e["status"], e["reason"]) for e in voids] == [(200, "card dropped on the floor"), (422, None)]
    assert voids[0]["detail"]["exposed"] == ["player_1"] and voids[0]["round_id"] == current["id"]
    assert voids[1]["detail"]["refused"] == "void.reason_required"
    card = next(e for e in entries if e["action"] == "table.card")
    assert (card["actor"], card["detail"]["card"], card["table_id"]) == ("admin", "AS", "live")
    assert [e["action"] for e in entries][-1] == "settings.open"


def test_a_void_before_any_card_is_shown_takes_the_default_reason(
    make_client: Any, tmp_path: Path, clock: ManualClock
) -> None:
    client = make_client(f"sqlite:///{tmp_path}/w.db", betting=2.5)
    boss = admin(client)
    current = betting_round(client, "macau", left=1.5)
    assert client.post(f"/api/admin/rounds/{current['id']}/void", headers=boss).status_code == 200
    voided = client.get(f"/api/rounds/{current['id']}").json()
    assert voided["status"] == "voided" and voided["void_reason"] == "voided by the house"
    entry = client.get("/api/admin/audit", headers=boss).json()["entries"][0]
    assert (entry["action"], entry["reason"], entry["detail"]["exposed"]) == ("table.void", "voided by the house", [])


def test_the_audit_log_has_no_way_to_change_an_entry() -> None:
    public = {name for name in vars(Audit) if not name.startswith("_")}
    assert public == {"record", "page"}
