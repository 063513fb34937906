"""One player's action never touches another's: a job whose write fails fails alone (the others of
its group commit are stored), a client id sent again from an earlier round is answered by the
stored bet without a failed write or a rebuild of the table, and a bet that arrives after the
round's ``closes_at`` is refused even before the table has closed betting."""

from __future__ import annotations

import asyncio
from collections.abc import Coroutine
from pathlib import Path
from typing import Any, TypeVar

import pytest
from tests.server.conftest import betting_round, register, service_of

from baccarat.errors import BaccaratError
from baccarat.server.clock import ManualClock
from baccarat.server.runner import TableRunner
from baccarat.server.service import Service
from baccarat.server.store import User

T = TypeVar("T")


def _on_loop(service: Service, coroutine: Coroutine[Any, Any, T]) -> T:
    """Run a coroutine on the app's event loop and wait for its value."""
    assert service.hub.loop is not None
    return asyncio.run_coroutine_threadsafe(coroutine, service.hub.loop).result(timeout=30)


def _user(service: Service, name: str) -> User:
    found = service.store.accounts.password_hash_of(name)
    assert found is not None
    return found[0]


def _bet(client: Any, headers: dict[str, str], client_id: str, stake: int = 100) -> Any:
    body = {"client_id": client_id, "bet": "banker", "stake": stake}
    return client.post("/api/tables/macau/bets", json=body, headers=headers)


def test_a_failing_job_fails_alone_and_tells_no_one_else(make_client: Any, tmp_path: Path) -> None:
    client = make_client(f"sqlite:///{tmp_path}/m1.db", betting=30)
    service = service_of(client)
    players = [f"player{i}" for i in range(4)]
    for name in players:
        betting_round(client, "macau", left=2)
        assert _bet(client, register(client, name), f"{name}-first").status_code == 201
    register(client, "mallory")
    runner: TableRunner = service.runners["macau"]
    mallory = _user(service, "mallory")
    others = [_user(service, name) for name in players]

    async def together() -> list[Any]:
        # mallory brings more than her wallet holds: only the database's check finds it, in the
        # same group commit as the other players' bets
        join = runner.submit(lambda t, now: (t.join("mallory", balance=10**9, now=now), None))
        bets = [
            runner.place_bet(user, client_id=f"{user.name}-second", bet="player", stake=100, round_id=None)
            for user in others
        ]
        return await asyncio.gather(join, *bets, return_exceptions=True)

    betting_round(client, "macau", left=2)
    answers = _on_loop(service, together())
    assert isinstance(answers[0], BaccaratError) and "mallory" in answers[0].message
    for user, placed in zip(others, answers[1:], strict=True):
        assert not isinstance(placed, BaseException), placed
        assert placed.bet is not None and placed.bet["client_id"] == f"{user.name}-second"
    assert service.store.ledger.check_ledger().ok
    assert _user(service, "mallory") == mallory and "mallory" not in runner.table.state.bettors  # type: ignore[union-attr]


def test_a_client_id_from_an_earlier_round_is_answered_without_a_rebuild(
    make_client: Any, tmp_path: Path, clock: ManualClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    client = make_client(f"sqlite:///{tmp_path}/m2.db", betting=5)
    service = service_of(client)
    headers = register(client, "rhea")
    first = betting_round(client, "macau", left=1)
    placed = _bet(client, headers, "rhea-1")
    assert placed.status_code == 201
    clock.run_until(lambda: client.get("/api/tables/macau").json()["round"]["id"] != first["id"])
    betting_round(client, "macau", left=1)
    runner = service.runners["macau"]
    rebuilds: list[int] = []
    rebuild = runner._rebuild

    async def counted() -> Any:
        rebuilds.append(1)
        return await rebuild()

    monkeypatch.setattr(runner, "_rebuild", counted)
    for _ in range(5):
        again = _bet(client, headers, "rhea-1", stake=300)  # a later round, another stake: the stored bet
        assert again.status_code == 200 and again.json()["duplicate"] is True
        assert again.json()["bet"]["id"] == placed.json()["bet"]["id"] and again.json()["bet"]["stake"] == 100
    assert rebuilds == []
    assert service.store.ledger.check_ledger().ok


def test_a_bet_after_closes_at_is_refused_before_the_table_closes(
    make_client: Any, tmp_path: Path, clock: ManualClock
) -> None:
    client = make_client(f"sqlite:///{tmp_path}/l4.db", betting=5)
    service = service_of(client)
    headers = register(client, "lars")
    betting_round(client, "macau", left=1)
    assert _bet(client, headers, "lars-0").status_code == 201
    runner = service.runners["macau"]
    lars = _user(service, "lars")

    async def late() -> BaseException | None:
        assert runner.round is not None and runner.table is not None
        kept = runner.round
        runner.round = dict(kept, closes_at=clock.time() - 0.031)  # closed 31 ms ago; the loop has not got to it
        try:
            await runner.place_bet(lars, client_id="lars-late", bet="banker", stake=100, round_id=None)
        except BaseException as error:
            return error
        finally:
            runner.round = kept
        return None

    refused = _on_loop(service, late())
    assert isinstance(refused, BaccaratError) and refused.code == "betting.closed"
    assert "31 ms" in refused.message
    assert _bet(client, headers, "lars-1").status_code == 201  # in time: taken


def test_replayed_client_ids_leave_other_players_bets_prompt(make_client: Any, tmp_path: Path) -> None:
    """Five connections re-send a client id from an earlier round as fast as they are answered while
    another player bets: every replay is answered by the stored bet, the table is never rebuilt,
    and the other player's bets are acknowledged promptly (a generous bound: no timing is tight)."""
    import threading
    import time

    client = make_client(f"sqlite:///{tmp_path}/m2-load.db", betting=6, ws_messages_per_second=1000, ws_burst=1000)
    service = service_of(client)
    mallory, honest = register(client, "mallory"), register(client, "honest")
    first = betting_round(client, "macau", left=2)
    assert _bet(client, mallory, "old-id").status_code == 201
    runner = service.runners["macau"]
    while client.get("/api/tables/macau").json()["round"]["id"] == first["id"]:
        time.sleep(0.05)
    betting_round(client, "macau", left=5)
    restored, answers, stop = runner.restored, [], threading.Event()

    def replay() -> None:
        with client.websocket_connect("/ws/tables/macau") as ws:
            ws.receive_json()
            ws.send_json({"type": "auth", "token": mallory["Authorization"][7:]})
            for n in range(40):
                if stop.is_set():
                    break
                ws.send_json({"type": "bet", "ref": n, "client_id": "old-id", "bet": "banker", "stake": 100})
                while (message := ws.receive_json())["type"] not in ("bet_ack", "error"):
                    pass
                answers.append(message)

    threads = [threading.Thread(target=replay) for _ in range(5)]
    for thread in threads:
        thread.start()
    waits = []
    for n in range(10):
        started = time.perf_counter()
        assert _bet(client, honest, f"honest-{n}").status_code == 201
        waits.append(time.perf_counter() - started)
    stop.set()
    for thread in threads:
        thread.join(timeout=60)
    assert answers and all(a["type"] == "bet_ack" and a["duplicate"] for a in answers), answers[:3]
    assert runner.restored == restored  # no failed write, no rebuild
    assert max(waits) < 5.0, waits
