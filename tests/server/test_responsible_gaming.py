"""Responsible gaming as the server enforces it: a daily loss limit refuses the bet that would pass
it, a player tightens their own settings and only the house loosens them (audited), a play-time
reminder comes over the websocket, and a self-exclusion ends the sessions and refuses the log-in
until it ends, the house unable to shorten it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.server.conftest import admin, betting_round, receive, register, service_of

from baccarat.server.clock import ManualClock
from baccarat.server.store.limits import Limits


def _bet(client: Any, headers: dict[str, str], client_id: str, stake: int) -> Any:
    return client.post(
        "/api/tables/macau/bets", json={"client_id": client_id, "bet": "player", "stake": stake}, headers=headers
    )


def test_a_daily_loss_limit_refuses_the_bet_that_passes_it(
    make_client: Any, tmp_path: Path, clock: ManualClock
) -> None:
    client = make_client(f"sqlite:///{tmp_path}/rg.db", betting=30.0)
    ann, boss = register(client, "ann"), admin(client)
    assert client.get("/api/me/limits", headers=ann).json() == {
        "daily_loss_limit": None,
        "session_reminder_minutes": None,
        "excluded_until": None,
        "lost_today": 0,
        "left_today": None,
    }
    limits = client.put("/api/me/limits", json={"daily_loss_limit": 2000}, headers=ann)
    assert limits.status_code == 200 and limits.json()["left_today"] == 2000
    betting_round(client, "macau", left=5.0)
    assert _bet(client, ann, "r1", 1500).status_code == 201
    refused = _bet(client, ann, "r2", 1000)
    body = refused.json()
    assert refused.status_code == 409 and body["code"] == "limit.daily_loss"
    assert body["params"] == {"limit": 2000, "lost": 1500, "stake": 1000, "left": 500}
    assert client.get("/api/me", headers=ann).json()["balance"] == 100000 - 1500, "no money moved"
    assert _bet(client, ann, "r3", 500).status_code == 201
    # loosening is the house's
    looser = client.put("/api/me/limits", json={"daily_loss_limit": 5000}, headers=ann)
    assert looser.status_code == 403 and looser.json()["code"] == "limits.loosen_by_house"
    assert looser.json()["params"]["fields"] == ["daily_loss_limit"]
    assert client.put("/api/me/limits", json={"daily_loss_limit": 1000}, headers=ann).status_code == 200
    raised = client.put("/api/admin/players/ann/limits", json={"daily_loss_limit": 5000}, headers=boss)
    assert raised.status_code == 200 and raised.json()["left_today"] == 3000
    entry = client.get("/api/admin/audit", headers=boss).json()["entries"][0]
    assert entry["action"] == "staff.limits" and entry["detail"]["daily_loss_limit"] == 5000
    clock.advance(2.5)  # the other process's view of the settings is read again
    assert _bet(client, ann, "r4", 2000).status_code == 201


def test_a_play_time_reminder_comes_over_the_websocket(make_client: Any, tmp_path: Path, clock: ManualClock) -> None:
    client = make_client(f"sqlite:///{tmp_path}/rm.db", run_tables=False)  # only the reminder keeps time
    ann = register(client, "ann")
    assert client.put("/api/me/limits", json={"session_reminder_minutes": 5}, headers=ann).status_code == 200
    token = ann["Authorization"].split()[1]
    with client.websocket_connect("/ws/tables/macau") as ws:
        ws.send_json({"type": "auth", "token": token, "ref": 1})
        while (message := receive(clock, ws))["type"] != "authenticated":
            pass
        clock.advance(4 * 60)
        while (message := receive(clock, ws))["type"] != "my_play_reminder":
            pass
        assert message["every_minutes"] == 5 and message["minutes_played"] == 5
        assert message["lost_today"] == 0 and message["daily_loss_limit"] is None


def test_a_self_exclusion_ends_the_sessions_and_holds_until_it_ends(
    make_client: Any, tmp_path: Path, clock: ManualClock
) -> None:
    client = make_client(f"sqlite:///{tmp_path}/ex.db")
    ann, boss = register(client, "ann"), admin(client)
    excluded = client.put("/api/me/limits", json={"exclude_days": 1}, headers=ann)
    assert excluded.status_code == 200 and excluded.json()["excluded_until"] > clock.time() + 86_000
    assert client.get("/api/me", headers=ann).status_code == 401, "the session ended"
    login = client.post("/api/auth/login", json={"name": "ann", "password": "password-1"})
    assert login.status_code == 403 and login.json()["code"] == "account.self_excluded"
    kept = client.put("/api/admin/players/ann/limits", json={"daily_loss_limit": 5000}, headers=boss)
    assert kept.status_code == 200 and kept.json()["excluded_until"] == excluded.json()["excluded_until"]
    assert client.post("/api/auth/login", json={"name": "ann", "password": "password-1"}).status_code == 403
    # a day later (the stored end moved into the past: the tables need not run a day of rounds)
    store = service_of(client).store
    user_id = client.get("/api/admin/players?query=ann", headers=boss).json()["players"][0]["id"]
    store.limits.put(user_id, Limits(daily_loss_limit=5000, excluded_until=clock.time() - 1))
    assert client.post("/api/auth/login", json={"name": "ann", "password": "password-1"}).status_code == 200


def test_the_settings_are_read_once_however_many_bets_ask_while_they_are_stale() -> None:
    import asyncio
    from types import SimpleNamespace

    from baccarat.server.responsible import Responsible

    reads: list[int] = []

    class _Service:
        store = SimpleNamespace(limits=SimpleNamespace(all_set=lambda: {7: Limits(daily_loss_limit=500)}))

        async def read(self, fn: Any) -> Any:
            reads.append(1)
            await asyncio.sleep(0.01)  # the read takes a while: every bet meanwhile finds the settings stale
            return fn()

    async def main() -> list[Limits]:
        responsible = Responsible(_Service())  # type: ignore[arg-type]
        found = await asyncio.gather(*(responsible.of(user) for user in (7, 8) * 50))
        assert len(reads) == 1, "one read for the hundred checks"
        await responsible.of(7)
        assert len(reads) == 1, "fresh settings are not read again"
        responsible.forget()
        await responsible.of(7)
        assert len(reads) == 2, "settings changed here are read again at once"
        return found

    found = asyncio.run(main())
    assert found[0] == Limits(daily_loss_limit=500) and found[1] == Limits()
