"""Rate limits: keyed on the account or the client address (never on what a client says it is),
bounded in memory; log-in throttling with a growing lockout; registrations per address; the
starting balance a setting."""

from __future__ import annotations

import secrets
from collections.abc import Iterator
from pathlib import Path

import pytest
from tests.server.conftest import close_open_clients, register
from tests.server.security_support import Ticks, context_of, start

from baccarat.server.api.context import ASSET_FACTOR
from baccarat.server.api.throttle import Buckets
from baccarat.server.policy import Policy


@pytest.fixture(autouse=True)
def _close_apps() -> Iterator[None]:
    yield
    close_open_clients()


def test_random_authorization_headers_share_the_address_bucket(tmp_path: Path) -> None:
    ticks = Ticks()
    client = start(tmp_path, f"sqlite:///{tmp_path}/r.db", ticks=ticks, http_requests_per_second=1.0, http_burst=20)
    passed = 0
    for _ in range(400):
        headers = {"Authorization": f"Bearer {secrets.token_urlsafe(16)}"}
        answer = client.get("/api/tables", headers=headers)
        passed += answer.status_code == 200
        if answer.status_code == 429:
            assert answer.json()["code"] == "request.rate_limited"
    assert passed == 20  # the burst of one address, the time standing still
    ticks.advance(5.0)
    assert client.get("/api/tables").status_code == 200  # the address's bucket refills


def test_each_account_has_its_own_bucket_apart_from_its_address(tmp_path: Path) -> None:
    ticks = Ticks()
    client = start(tmp_path, f"sqlite:///{tmp_path}/a.db", ticks=ticks, http_requests_per_second=1.0, http_burst=10)
    ann = register(client, "ann")  # one address request each
    bob = register(client, "bob")
    while client.get("/api/tables").status_code == 200:  # use up the address
        pass
    assert client.get("/api/tables").status_code == 429
    ann_ok = sum(client.get("/api/me", headers=ann).status_code == 200 for _ in range(15))
    assert ann_ok == 10  # the account's own burst
    assert client.get("/api/me", headers=bob).status_code == 200  # bob's bucket is untouched by ann's


def test_the_browser_tables_files_have_a_larger_bucket_of_their_own(tmp_path: Path) -> None:
    """A page loads some eighty files: players sharing one address (a casino floor, a home) each load
    it, and the API's bucket is left to the API; the files' bucket is bounded too."""
    ticks = Ticks()
    client = start(tmp_path, f"sqlite:///{tmp_path}/f.db", ticks=ticks, http_requests_per_second=1.0, http_burst=10)
    files = ["/", "/js/app.js", "/js/views/table/page.js", "/css/cards.css"]
    served = [client.get(files[i % len(files)]).status_code for i in range(10 * ASSET_FACTOR + 5)]
    assert served[: 10 * ASSET_FACTOR] == [200] * (10 * ASSET_FACTOR) and set(served[10 * ASSET_FACTOR :]) == {429}
    assert client.get("/api/tables").status_code == 200  # the API's bucket is untouched
    ticks.advance(2.0)
    assert client.get("/js/app.js").status_code == 200  # refilled ASSET_FACTOR times as fast


def test_the_bucket_table_is_bounded_and_evicts_the_least_recently_seen() -> None:
    buckets = Buckets(rate=0.0, burst=2, capacity=100)
    assert buckets.allow("busy", now=0.0) and buckets.allow("busy", now=0.0)
    for i in range(5000):
        buckets.allow(f"k{i}", now=0.0)
        assert not buckets.allow("busy", now=0.0)  # an active client keeps its (empty) bucket
    assert len(buckets) == 100


def test_login_lockout_per_name_grows_and_ends(tmp_path: Path) -> None:
    ticks = Ticks()
    policy = Policy(login_failures_per_name=3, lockout_seconds=30.0, lockout_max_seconds=600.0)
    client = start(tmp_path, f"sqlite:///{tmp_path}/l.db", policy=policy, ticks=ticks)
    register(client, "ann", "right-password")

    def login(password: str) -> tuple[int, dict[str, object]]:
        answer = client.post("/api/auth/login", json={"name": "ann", "password": password})
        return answer.status_code, answer.json()

    assert [login("wrong-password")[0] for _ in range(3)] == [401, 401, 401]
    status, body = login("wrong-password")  # the fourth failure locks the name
    assert status == 401
    status, body = login("right-password")  # even the right password waits out the lock
    assert status == 429 and body["code"] == "auth.rate_limited"
    first = body["params"]["retry_after"]
    assert isinstance(first, int) and 0 < first <= 30
    ticks.advance(31.0)
    assert login("wrong-password")[0] == 401  # the fifth failure: a longer lock
    status, body = login("right-password")
    assert status == 429 and body["params"]["retry_after"] > first
    ticks.advance(61.0)
    assert login("right-password")[0] == 200  # the lock ended; success clears the name
    assert login("wrong-password")[0] == 401


def test_login_lockout_per_address_over_many_names(tmp_path: Path) -> None:
    ticks = Ticks()
    policy = Policy(login_failures_per_name=100, login_failures_per_address=5, lockout_seconds=60.0)
    client = start(tmp_path, f"sqlite:///{tmp_path}/la.db", policy=policy, ticks=ticks)
    register(client, "ann", "right-password")
    codes = [
        client.post("/api/auth/login", json={"name": f"guess{i}", "password": "password-x"}).status_code
        for i in range(8)
    ]
    assert codes[:6] == [401] * 6 and codes[6:] == [429, 429]
    locked = client.post("/api/auth/login", json={"name": "ann", "password": "right-password"})
    assert locked.status_code == 429 and locked.json()["code"] == "auth.rate_limited"
    ticks.advance(61.0)
    assert client.post("/api/auth/login", json={"name": "ann", "password": "right-password"}).status_code == 200


def test_registrations_are_limited_per_address(tmp_path: Path) -> None:
    ticks = Ticks()
    policy = Policy(registrations_per_address=3, registration_refill_seconds=600.0)
    client = start(tmp_path, f"sqlite:///{tmp_path}/g.db", policy=policy, ticks=ticks)
    for name in ("ann", "bob", "cid"):
        register(client, name)
    refused = client.post("/api/auth/register", json={"name": "dan", "password": "password-1"})
    assert refused.status_code == 429 and refused.json()["code"] == "request.rate_limited"
    assert 0 < refused.json()["params"]["retry_after"] <= 600
    assert client.post("/api/auth/login", json={"name": "dan", "password": "password-1"}).status_code == 401
    ticks.advance(601.0)
    register(client, "dan")


def test_registration_can_be_closed(tmp_path: Path) -> None:
    client = start(tmp_path, f"sqlite:///{tmp_path}/z.db", policy=Policy(registrations_per_address=0))
    refused = client.post("/api/auth/register", json={"name": "ann", "password": "password-1"})
    assert refused.status_code == 429 and refused.json()["params"]["retry_after"] is None


@pytest.mark.parametrize("balance", [0, 1234])
def test_the_starting_balance_is_a_setting(tmp_path: Path, balance: int) -> None:
    client = start(tmp_path, f"sqlite:///{tmp_path}/b{balance}.db", lobby={"starting_balance": balance})
    me = client.get("/api/me", headers=register(client, "ann")).json()
    assert me["balance"] == balance and me["wallet"] == balance
    assert context_of(client).service.store.ledger.check_ledger().ok
