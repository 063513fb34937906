"""A player's daily loss limit holds however many bets arrive at once: on several websockets, at
two tables, in two processes of one PostgreSQL database (R21: a bet past a limit is refused,
naming it, and nothing else changes). The stake of an open bet is held against the limit; the
settlement turns it into a loss or gives it back, and a void gives it back (R18). And a
self-exclusion sent alone leaves the other settings as they are.

The apps run on the test's manual clock: a round's betting stays open while the test waits for
answers, and a round is played through as fast as it can be computed.
"""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import text
from tests.server.conftest import (
    ADMIN_PASSWORD,
    admin,
    betting_round,
    receive,
    register,
    service_of,
    start_app,
    wait_for,
)

from baccarat.bets import BetKind
from baccarat.server.clock import ManualClock
from baccarat.server.db import make_engine, migrate
from baccarat.server.ops import TableOp
from baccarat.server.responsible import Responsible
from baccarat.server.service import ServiceOptions
from baccarat.server.settings import load_lobby
from baccarat.server.store import Role, Store, TableWrite, unit_of_work
from baccarat.server.store.accounts import User
from baccarat.server.store.limits import BetsRefused, Limits
from baccarat.table_events import BetPlaced, BettorJoined

LIMIT = 1000
START = 100_000

_SERVER = f"""
[server]
starting_balance = {START}
admin_password = "{ADMIN_PASSWORD}"
"""

_TABLE = """
[[table]]
id = "{id}"
name = "{id}"
variant = "macau"
dealing = "shoe"
betting_seconds = 30
settle_pause_seconds = 0.05
min_bet = 100
max_bet = 20000
"""


def _app(db: str, tmp_path: Path, clock: ManualClock, *tables: str) -> TestClient:
    """An app running ``tables`` (macau rules, 30 s of betting) on ``db``."""
    path = tmp_path / f"tables-{'-'.join(tables)}.toml"
    path.write_text(_SERVER + "".join(_TABLE.format(id=t) for t in tables), encoding="utf-8")
    return start_app(ServiceOptions(db_url=db, lobby=load_lobby(path), clock=clock))


def _token(headers: dict[str, str]) -> str:
    return headers["Authorization"].split()[1]


def _limit(client: TestClient, headers: dict[str, str], amount: int = LIMIT) -> None:
    response = client.put("/api/me/limits", json={"daily_loss_limit": amount}, headers=headers)
    assert response.status_code == 200, response.text


def _until(clock: ManualClock, ws: Any, wanted: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
    """The next message of a websocket that ``wanted`` takes (the clock moving on while none comes)."""
    for _ in range(500):
        message = receive(clock, ws)
        if wanted(message):
            return dict(message)
    raise AssertionError("no such message")


@contextlib.contextmanager
def _sockets(clock: ManualClock, places: list[tuple[TestClient, str]], token: str) -> Iterator[list[Any]]:
    """A websocket to each ``(app, table)``, logged in with ``token``."""
    with contextlib.ExitStack() as stack:
        sockets = [stack.enter_context(app.websocket_connect(f"/ws/tables/{table}")) for app, table in places]
        for ws in sockets:
            ws.send_json({"type": "auth", "token": token, "ref": "auth"})
            _until(clock, ws, lambda m: m["type"] == "authenticated")
        yield sockets


def _bet_at_once(
    clock: ManualClock, sockets: list[Any], rounds: list[int], stake: int, tag: str
) -> list[dict[str, Any]]:
    """Send a bet of ``stake`` on each websocket (on ``rounds[i]``), all before any answer is read;
    each one's answer (``bet_ack`` or ``error``), in the same order."""
    for n, (ws, round_id) in enumerate(zip(sockets, rounds, strict=True)):
        bet = {"bet": "player", "stake": stake, "round_id": round_id}
        ws.send_json({"type": "bet", "ref": f"{tag}{n}", "client_id": f"{tag}{n}", **bet})
    return [
        _until(clock, ws, lambda m, ref=f"{tag}{n}": m.get("ref") == ref and m["type"] in ("bet_ack", "error"))
        for n, ws in enumerate(sockets)
    ]


def _one_taken(answers: list[dict[str, Any]]) -> None:
    """Exactly one bet accepted; every other refused by the daily loss limit, naming it."""
    accepted = [a for a in answers if a["type"] == "bet_ack"]
    refused = [a for a in answers if a["type"] == "error"]
    assert len(accepted) == 1 and accepted[0]["status"] == 201, answers
    assert len(refused) == len(answers) - 1, answers
    for refusal in refused:
        assert refusal["status"] == 409 and refusal["code"] == "limit.daily_loss", refusal
        assert refusal["params"] == {"limit": LIMIT, "lost": LIMIT, "stake": LIMIT, "left": 0}, refusal


def _stored(client: TestClient, user_id: int) -> tuple[int, int]:
    """How many bets of the user are stored, and their stakes together."""
    with service_of(client).store.engine.connect() as conn:
        count, staked = conn.execute(
            text("SELECT count(*), coalesce(sum(stake), 0) FROM bets WHERE user_id = :u"), {"u": user_id}
        ).one()
    return int(count), int(staked)


def _user_id(client: TestClient, headers: dict[str, str]) -> int:
    return int(client.get("/api/me", headers=headers).json()["id"])


def _kept_to_one_bet(client: TestClient, headers: dict[str, str]) -> None:
    """One bet of the limit stored and held, the balance moved by it alone, the ledger whole."""
    assert _stored(client, _user_id(client, headers)) == (1, LIMIT)
    assert client.get("/api/me", headers=headers).json()["balance"] == START - LIMIT
    limits = client.get("/api/me/limits", headers=headers).json()
    assert limits["lost_today"] == LIMIT and limits["left_today"] == 0
    assert service_of(client).store.ledger.check_ledger().ok


def _betting_at_once(clock: ManualClock, places: list[tuple[TestClient, str]]) -> list[int]:
    """The ids of rounds betting at each ``(app, table)`` at the same time, with 5 s left at least
    (the clock then stands still until the test moves it)."""

    def betting() -> list[int] | None:
        found = [app.get(f"/api/tables/{table}").json()["round"] for app, table in places]
        if all(r and r["status"] == "betting" and r["closes_at"] - clock.time() > 5.0 for r in found):
            return [int(r["id"]) for r in found]
        return None

    return clock.run_until(betting)


@pytest.fixture
def unchecked(monkeypatch: pytest.MonkeyPatch) -> None:
    """No check before a bet joins its table's queue: whatever is refused, the transaction that
    stores the bets refuses."""

    async def none(self: Responsible, user: User, stake: int) -> None:
        return None

    monkeypatch.setattr(Responsible, "check_bet", none)


def test_r21_ten_bets_at_once_on_ten_websockets_take_one_stake_under_the_daily_loss_limit(
    db_url: str, tmp_path: Path, clock: ManualClock
) -> None:
    client = _app(db_url, tmp_path, clock, "macau")
    ann = register(client, "ann")
    _limit(client, ann)
    with _sockets(clock, [(client, "macau")] * 10, _token(ann)) as sockets:
        current = betting_round(client, "macau", left=5.0)
        _one_taken(_bet_at_once(clock, sockets, [current["id"]] * 10, LIMIT, "m"))
    _kept_to_one_bet(client, ann)


def test_r21_ten_bets_at_once_at_two_tables_take_one_stake_even_unchecked_before_the_transaction(
    db_url: str, tmp_path: Path, clock: ManualClock, unchecked: None
) -> None:
    """SQLite: one app runs both tables. PostgreSQL: two apps on one schema, each running one
    table with its own connections and writer, so the two tables' bets are stored by two
    transactions at once."""
    if db_url.startswith("sqlite"):
        left = right = _app(db_url, tmp_path, clock, "left", "right")
    else:
        left = _app(db_url, tmp_path, clock, "left")
        right = _app(db_url, tmp_path, clock, "right")
    ann = register(left, "ann")
    _limit(left, ann)
    for app, table in ((left, "left"), (right, "right")):  # money at both tables, half the wallet each
        joined = app.post(f"/api/tables/{table}/join", json={"buy_in": START // 2}, headers=ann)
        assert joined.status_code == 201, joined.text
    with _sockets(clock, [(left, "left"), (right, "right")] * 5, _token(ann)) as sockets:
        rounds = _betting_at_once(clock, [(left, "left"), (right, "right")])
        _one_taken(_bet_at_once(clock, sockets, rounds * 5, LIMIT, "t"))
    _kept_to_one_bet(left, ann)


def _settled(client: TestClient, round_id: int) -> None:
    wait_for(client, lambda: client.get(f"/api/rounds/{round_id}").json().get("status") == "settled")


def _bet(client: TestClient, headers: dict[str, str], client_id: str, stake: int, side: str = "player") -> Any:
    body = {"client_id": client_id, "bet": side, "stake": stake}
    return client.post("/api/tables/macau/bets", json=body, headers=headers)


def test_r21_a_lost_stake_keeps_the_limit_used_and_a_won_one_gives_it_back(
    make_client: Any, tmp_path: Path, clock: ManualClock
) -> None:
    client = make_client(f"sqlite:///{tmp_path}/held.db", betting=30.0)
    players = {"player": register(client, "ann"), "banker": register(client, "bob")}
    for headers in players.values():
        _limit(client, headers)
    for number in range(20):  # until a round is not a tie (a tie pushes both stakes: both given back)
        current = betting_round(client, "macau", left=5.0)
        for side, headers in players.items():
            assert _bet(client, headers, f"r{number}", LIMIT, side).status_code == 201
            assert _bet(client, headers, f"x{number}", 100, side).json()["code"] == "limit.daily_loss"
        _settled(client, current["id"])
        lost = {side: client.get("/api/me/limits", headers=h).json()["lost_today"] for side, h in players.items()}
        if lost == {"player": 0, "banker": 0}:
            continue
        next_round = betting_round(client, "macau", left=5.0)
        loser = next(side for side, amount in lost.items() if amount == LIMIT)
        winner = next(side for side, amount in lost.items() if amount < 0)
        refused = _bet(client, players[loser], "after", 100, loser)
        assert refused.status_code == 409 and refused.json()["code"] == "limit.daily_loss"
        assert refused.json()["params"] == {"limit": LIMIT, "lost": LIMIT, "stake": 100, "left": 0}
        assert _bet(client, players[winner], "after", LIMIT, winner).status_code == 201
        assert next_round["id"] > current["id"]
        return
    raise AssertionError("twenty ties in a row")


def test_r18_a_voided_round_gives_its_stakes_back_to_the_limit(
    make_client: Any, tmp_path: Path, clock: ManualClock
) -> None:
    client = make_client(f"sqlite:///{tmp_path}/void.db", betting=30.0)
    ann, boss = register(client, "ann"), admin(client)
    _limit(client, ann)
    current = betting_round(client, "macau", left=5.0)
    assert _bet(client, ann, "v1", LIMIT).status_code == 201
    assert _bet(client, ann, "v2", LIMIT).json()["code"] == "limit.daily_loss"
    voided = client.post(f"/api/admin/rounds/{current['id']}/void", json={"reason": "misdeal"}, headers=boss)
    assert voided.status_code == 200, voided.text
    limits = client.get("/api/me/limits", headers=ann).json()
    assert limits["lost_today"] == 0 and limits["left_today"] == LIMIT
    betting_round(client, "macau", left=5.0)
    assert _bet(client, ann, "v3", LIMIT).status_code == 201


def test_a_self_exclusion_sent_alone_keeps_the_other_limits(make_client: Any, tmp_path: Path) -> None:
    client = make_client(f"sqlite:///{tmp_path}/alone.db")
    ann, boss = register(client, "ann"), admin(client)
    settings = {"daily_loss_limit": LIMIT, "session_reminder_minutes": 30}
    assert client.put("/api/me/limits", json=settings, headers=ann).status_code == 200
    # a field left out stays as it is; one sent as null is removed, which only the house may do
    reminder = client.put("/api/me/limits", json={"session_reminder_minutes": 15}, headers=ann)
    assert reminder.status_code == 200 and reminder.json()["daily_loss_limit"] == LIMIT
    removed = client.put("/api/me/limits", json={"daily_loss_limit": None}, headers=ann)
    assert removed.status_code == 403 and removed.json()["code"] == "limits.loosen_by_house"
    assert removed.json()["params"]["fields"] == ["daily_loss_limit"]
    excluded = client.put("/api/me/limits", json={"exclude_days": 1}, headers=ann)
    assert excluded.status_code == 200, excluded.text
    body = excluded.json()
    assert body["daily_loss_limit"] == LIMIT and body["session_reminder_minutes"] == 15
    assert body["excluded_until"] is not None
    stored = client.get("/api/admin/players/ann/limits", headers=boss).json()
    assert stored["daily_loss_limit"] == LIMIT and stored["excluded_until"] == body["excluded_until"]
    # the house, sending the limit alone, keeps the reminder and the exclusion
    raised = client.put("/api/admin/players/ann/limits", json={"daily_loss_limit": 5000}, headers=boss)
    assert raised.status_code == 200
    assert raised.json()["session_reminder_minutes"] == 15 and raised.json()["excluded_until"] == body["excluded_until"]


def _table_with_ann(store: Store, table: str, user: User) -> int:
    """Open a round at ``table`` and bring ann there with half her wallet; the round's id."""
    data = {"shoe_id": None, "cards": None, "layout": None, "betting_seconds": 30}
    round_id = store.commit_table(table, [TableWrite([], op=TableOp.OPEN, data=data)]).round_id
    assert round_id is not None
    joined = BettorJoined(at=0.0, bettor=user.name, balance=START // 2, seat=None, variant="macau")
    store.commit_table(table, [TableWrite([joined], round_id=round_id)])
    return round_id


def _bet_write(user: User, round_id: int, key: str) -> TableWrite:
    """A bet of the limit on the player's side, as the table's runner stores it."""
    placed = BetPlaced(
        at=0.0, round=1, bettor=user.name, kind=BetKind.PLAYER, amount=LIMIT, stake=LIMIT, spot=None, bet_id=key
    )
    return TableWrite([placed], round_id=round_id, bet_meta={key: (user.id, key, START)})


def _waiting_on_a_lock(store: Store, application: str) -> bool:
    """Whether a connection of ``application`` waits for a lock."""
    with store.engine.connect() as conn:
        found = conn.execute(
            text("SELECT count(*) FROM pg_stat_activity WHERE application_name = :a AND wait_event_type = 'Lock'"),
            {"a": application},
        ).scalar()
    return bool(found)


@pytest.mark.postgres
def test_r21_a_second_process_storing_a_bet_waits_for_the_first_and_counts_its_stake(
    pg_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two stores on one schema (as two processes: each its own engine and connections) store a
    bet of the limit for one player at two tables. The first is held after its bets are written
    and its hold taken, before it commits; the second waits for the first's lock, then counts the
    first's stake and is refused, having written nothing."""
    application = f"limits-second-{threading.get_ident()}"
    first, second = Store(make_engine(pg_url)), Store(make_engine(f"{pg_url}&application_name={application}"))
    migrate(first.engine)
    first.tables.ensure_tables(["left", "right"], open_by_default={})
    ann = first.accounts.create_user(name="ann", password_hash="x", role=Role.PLAYER, starting_balance=START)
    first.limits.put(ann.id, Limits(daily_loss_limit=LIMIT))
    rounds = {"left": _table_with_ann(first, "left", ann), "right": _table_with_ann(second, "right", ann)}
    written, go_on = threading.Event(), threading.Event()

    def pause(point: str) -> None:  # the first store's transaction, before its commit
        if point == "bets_uncommitted" and threading.current_thread().name == "first":
            written.set()
            assert go_on.wait(30)

    monkeypatch.setattr(unit_of_work, "crash_point", pause)
    outcomes: dict[str, object] = {}

    def store_bet(store: Store, table: str) -> None:
        try:
            outcomes[table] = store.commit_table(table, [_bet_write(ann, rounds[table], f"{table}-1")]).bet_ids
        except BetsRefused as refused:
            outcomes[table] = refused

    threads = [
        threading.Thread(target=store_bet, args=(first, "left"), name="first"),
        threading.Thread(target=store_bet, args=(second, "right"), name="second"),
    ]
    try:
        threads[0].start()
        assert written.wait(30)
        threads[1].start()
        tick = threading.Event()  # never set: a pause between two looks
        while not _waiting_on_a_lock(first, application):  # the second transaction waits for the first's lock
            assert threads[1].is_alive(), outcomes
            tick.wait(0.02)
        go_on.set()
        for thread in threads:
            thread.join(30)
        assert isinstance(outcomes["left"], dict) and set(outcomes["left"]) == {"left-1"}
        refused = outcomes["right"]
        assert isinstance(refused, BetsRefused), outcomes
        assert refused.refusals["right-1"].params == {"limit": LIMIT, "lost": LIMIT, "stake": LIMIT, "left": 0}
        with first.engine.connect() as conn:
            stored = conn.execute(text("SELECT round_id, stake FROM bets WHERE user_id = :u"), {"u": ann.id}).all()
        assert [tuple(r) for r in stored] == [(rounds["left"], LIMIT)]
        assert first.ledger.check_ledger().ok
    finally:
        go_on.set()
        first.engine.dispose()
        second.engine.dispose()


def test_a_bet_in_flight_when_its_player_excludes_themselves_is_refused_where_it_would_be_stored(
    db_url: str,
) -> None:
    """The transaction that stores a bet reads the player's row itself: an exclusion taken after
    the bet's checks (its settings as last read) refuses it there, and nothing is written."""
    store = Store(make_engine(db_url))
    try:
        migrate(store.engine)
        store.tables.ensure_tables(["left"], open_by_default={})
        ann = store.accounts.create_user(name="ann", password_hash="x", role=Role.PLAYER, starting_balance=START)
        round_id = _table_with_ann(store, "left", ann)
        until = time.time() + 86_400
        store.limits.put(ann.id, Limits(excluded_until=until))
        with pytest.raises(BetsRefused) as refused:
            store.commit_table("left", [_bet_write(ann, round_id, "late")])
        assert refused.value.refusals["late"].problem()["code"] == "account.self_excluded"
        assert refused.value.refusals["late"].problem()["params"] == {"until": until}
        with store.engine.connect() as conn:
            assert conn.execute(text("SELECT count(*) FROM bets")).scalar() == 0
        assert store.ledger.check_ledger().ok
    finally:
        store.engine.dispose()
