"""The operator's reports: real rounds played on a test server, and the report's figures checked
against the ledger (the players' net loss), the stakes placed and the par sheets, as JSON and CSV."""

from __future__ import annotations

import csv
import io
import math
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import func, select
from tests.server.conftest import ADMIN_PASSWORD, admin, betting_round, close_open_clients, register, start_app

from baccarat.analysis.par_sheet import par_sheet
from baccarat.bets import BetKind
from baccarat.server.clock import ManualClock
from baccarat.server.schema import accounts, rounds, users
from baccarat.server.service import ServiceOptions
from baccarat.server.settings import load_lobby

TABLES = """
[server]
starting_balance = 100000
admin_password = "{admin}"

[[table]]
id = "macau"
name = "Macau"
variant = "macau"
dealing = "shoe"
betting_seconds = 1.0
settle_pause_seconds = 0.05
min_bet = 100
max_bet = 20000

[[table]]
id = "owed"
name = "Macau, Lucky 6, commission owed"
variant = "macau+lucky6"
dealing = "shoe"
decks = 6
commission = "owed"
betting_seconds = 1.0
settle_pause_seconds = 0.05
min_bet = 100
max_bet = 20000
"""

#: The bets of each round: (table, bet, stake) for each player.
PLAN = {
    "macau": [("banker", 1000), ("player", 500), ("tie", 100), ("banker_pair", 100)],
    "owed": [("banker", 2000), ("lucky6", 100), ("player", 300)],
}
ROUNDS = 3


@pytest.fixture
def client(db_url: str, tmp_path: Path, clock: ManualClock) -> Iterator[TestClient]:
    """A server with a deducted-commission Macau table and an owed-commission Macau + Lucky 6 table."""
    path = tmp_path / "tables.toml"
    path.write_text(TABLES.format(admin=ADMIN_PASSWORD), encoding="utf-8")
    yield start_app(ServiceOptions(db_url=db_url, lobby=load_lobby(path), clock=clock))
    close_open_clients()


def _engine(client: TestClient) -> Any:
    return client.app.state.service.store.engine  # type: ignore[attr-defined]


def _players_money(client: TestClient, *, owed: bool) -> int:
    """The players' money on the ledger: wallets and table purses (and, with ``owed``, minus the
    commission they owe to the commission box)."""
    player_ids = select(users.c.id).where(users.c.role == "player")
    wallets = select(users.c.wallet_id).where(users.c.role == "player")
    owed_ids = select(users.c.owed_id).where(users.c.role == "player")
    with _engine(client).connect() as conn:
        ids = [int(i) for i in conn.execute(player_ids).scalars()]
        names = [f"purse:{i}:%" for i in ids]
        total = int(conn.execute(select(func.sum(accounts.c.balance)).where(accounts.c.id.in_(wallets))).scalar_one())
        for pattern in names:
            total += int(
                conn.execute(
                    select(func.coalesce(func.sum(accounts.c.balance), 0)).where(accounts.c.name.like(pattern))
                ).scalar_one()
            )
        if owed:
            total += int(
                conn.execute(
                    select(func.coalesce(func.sum(accounts.c.balance), 0)).where(accounts.c.id.in_(owed_ids))
                ).scalar_one()
            )
    return total


def _day_of_round(client: TestClient, round_id: int) -> str:
    with _engine(client).connect() as conn:
        finished = conn.execute(select(rounds.c.finished_at).where(rounds.c.id == round_id)).scalar_one()
    return datetime.fromtimestamp(float(finished), UTC).date().isoformat()


def _wait_settled(client: TestClient, clock: ManualClock, round_id: int) -> None:
    clock.run_until(lambda: client.get(f"/api/rounds/{round_id}").json()["status"] == "settled")


def _play(client: TestClient, clock: ManualClock, players: list[dict[str, str]]) -> dict[str, Any]:
    """Play ``ROUNDS`` rounds on both tables, every player betting the plan; one more round of the
    Macau table is voided with a bet on it. Returns the stakes per table and bet, and the rounds."""
    stakes: dict[str, dict[str, int]] = {table: {} for table in PLAN}
    played: dict[str, list[int]] = {table: [] for table in PLAN}
    serial = 0
    for who in players:
        for table in PLAN:
            joined = client.post(f"/api/tables/{table}/join", json={"buy_in": 40000}, headers=who)
            assert joined.status_code == 201, joined.text
    for _ in range(ROUNDS):
        for table, bets in PLAN.items():
            current = betting_round(client, table)
            played[table].append(int(current["id"]))
            for who in players:
                for bet, stake in bets:
                    serial += 1
                    body = {"client_id": f"r{serial}", "bet": bet, "stake": stake}
                    answer = client.post(f"/api/tables/{table}/bets", json=body, headers=who)
                    assert answer.status_code == 201, answer.text
                    stakes[table][bet] = stakes[table].get(bet, 0) + stake
        for table in PLAN:
            _wait_settled(client, clock, played[table][-1])
    voided = betting_round(client, "macau", left=0.6)
    answer = client.post(
        "/api/tables/macau/bets", json={"client_id": "v1", "bet": "tie", "stake": 700}, headers=players[0]
    )
    assert answer.status_code == 201, answer.text
    assert client.post(f"/api/admin/rounds/{voided['id']}/void", json={"reason": "test"}, headers=admin(client)).json()[
        "ok"
    ]
    clock.run_until(lambda: client.get(f"/api/rounds/{voided['id']}").json()["status"] == "voided")
    return {"stakes": stakes, "played": played, "voided": int(voided["id"])}


def _sum(rows: list[dict[str, Any]], field: str, kind: str | None = None) -> Any:
    if kind is None:
        return sum(row["total"][field] for row in rows)
    return sum(row["bets"][kind][field] for row in rows if kind in row["bets"])


def test_report_matches_the_ledger_the_stakes_and_the_par_sheets(client: TestClient, clock: ManualClock) -> None:
    players = [register(client, "ann"), register(client, "bob")]
    before = _players_money(client, owed=True)
    assert before == 2 * 100000
    played = _play(client, clock, players)
    boss = admin(client)
    answer = client.get("/api/admin/reports", headers=boss)
    assert answer.status_code == 200, answer.text
    report = answer.json()
    by_table = {table: [row for row in report["days"] if row["table"] == table] for table in PLAN}
    # the rounds, on the UTC days they finished
    for table, ids in played["played"].items():
        days = {_day_of_round(client, r) for r in ids}
        assert {row["day"] for row in by_table[table]} >= days
        assert sum(row["rounds_settled"] for row in by_table[table]) >= ROUNDS
    assert sum(row["rounds_voided"] for row in by_table["macau"]) == 1
    # the handle is the stakes placed (the voided round's stake is none of it)
    for table, kinds in played["stakes"].items():
        for kind, staked in kinds.items():
            assert _sum(by_table[table], "handle", kind) == staked
        assert _sum(by_table[table], "handle") == sum(kinds.values())
    assert report["total"]["handle"] == sum(sum(k.values()) for k in played["stakes"].values())
    # the GGR is the players' net loss: on the ledger, with the commission they owe counted
    ggr = report["total"]["ggr"]
    assert ggr == before - _players_money(client, owed=True)
    owed = _sum(by_table["owed"], "commission_owed")
    assert _sum(by_table["macau"], "commission_owed") == 0
    assert report["total"]["commission_owed"] == owed
    assert ggr - owed == before - _players_money(client, owed=False)
    for table in PLAN:
        rows = by_table[table]
        assert _sum(rows, "ggr") == _sum(rows, "handle") - _sum(rows, "returned") + _sum(rows, "commission_owed")
        hold = rows[0]["total"]["hold"]
        assert hold == pytest.approx(rows[0]["total"]["ggr"] / rows[0]["total"]["handle"])
    # once the players leave the owed table the commission box is collected: the wallets and purses agree
    for who in players:
        assert client.post("/api/tables/owed/leave", headers=who).status_code == 200
    assert ggr == before - _players_money(client, owed=False)
    assert client.get("/api/admin/reports", headers=boss).json()["total"]["ggr"] == ggr
    # the theoretical win, recomputed from the exact par sheets of each table's variant and decks
    sheets = {"macau": par_sheet(8, variant="macau"), "owed": par_sheet(6, variant="macau+lucky6")}
    for table, kind in (("macau", "banker"), ("macau", "tie"), ("owed", "lucky6"), ("owed", "banker")):
        bet = sheets[table].bets[BetKind(kind)]
        staked = played["stakes"][table][kind]
        assert _sum(by_table[table], "theoretical", kind) == pytest.approx(staked * float(bet.house_edge), rel=1e-9)
        # the two players' stakes on one kind in one coup win or lose together: one stake of their sum
        stake_squares = sum((2 * s) ** 2 for k, s in PLAN[table] if k == kind) * ROUNDS
        sigma = math.sqrt(stake_squares * float(bet.variance))
        if len(by_table[table]) == 1:
            figures = by_table[table][0]["bets"][kind]
            assert figures["sigma"] == pytest.approx(sigma, rel=1e-9)
            assert figures["deviation"] == pytest.approx((figures["ggr"] - figures["theoretical"]) / sigma, rel=1e-9)
    # the overall per-bet figures add up the days'
    for kind, figures in report["bets"].items():
        assert figures["handle"] == sum(_sum(rows, "handle", kind) for rows in by_table.values())
    _check_csv(client, boss, report)


def _check_csv(client: TestClient, boss: dict[str, str], report: dict[str, Any]) -> None:
    answer = client.get("/api/admin/reports.csv", headers=boss)
    assert answer.status_code == 200, answer.text
    assert answer.headers["content-type"].startswith("text/csv")
    assert 'filename="report-all-tables-start-end.csv"' in answer.headers["content-disposition"]
    rows = list(csv.DictReader(io.StringIO(answer.text)))
    expected = [(d["table"], d["day"], kind) for d in report["days"] for kind in d["bets"]]
    assert sorted((r["table"], r["day"], r["bet"]) for r in rows) == sorted(expected)
    days = {(d["table"], d["day"]): d for d in report["days"]}
    for row in rows:
        figures = days[(row["table"], row["day"])]["bets"][row["bet"]]
        assert int(row["handle"]) == figures["handle"]
        assert int(row["ggr"]) == figures["ggr"]
        assert row["ggr_decimal"] == f"{figures['ggr'] / 100:.2f}"
        assert float(row["theoretical"]) == pytest.approx(figures["theoretical"], abs=0.01)
        assert int(row["rounds_settled"]) == days[(row["table"], row["day"])]["rounds_settled"]
    as_json = client.get("/api/admin/reports.csv", headers=boss | {"Accept": "application/json"}).json()
    assert as_json["header"][:3] == ["table", "day", "bet"] and len(as_json["rows"]) == len(rows)


def test_filters_and_refusals(client: TestClient, clock: ManualClock) -> None:
    ann = register(client, "ann")
    current = betting_round(client, "macau")
    body = {"client_id": "a1", "bet": "player", "stake": 400}
    assert client.post("/api/tables/macau/bets", json=body, headers=ann).status_code == 201
    clock.run_until(lambda: client.get(f"/api/rounds/{current['id']}").json()["status"] == "settled")
    boss = admin(client)
    day = _day_of_round(client, int(current["id"]))
    one = client.get(f"/api/admin/reports?table=macau&from={day}&to={day}", headers=boss).json()
    assert one["table"] == "macau" and one["from"] == day and one["to"] == day
    assert {row["table"] for row in one["days"]} == {"macau"} and one["total"]["handle"] == 400
    assert one["days"][0]["bets"]["player"]["bets"] == 1
    later = (datetime.fromisoformat(day) + timedelta(days=1)).date().isoformat()
    assert client.get(f"/api/admin/reports?from={later}", headers=boss).json()["days"] == []
    assert client.get("/api/admin/reports?table=owed", headers=boss).json()["total"]["handle"] == 0
    csv_answer = client.get(f"/api/admin/reports.csv?table=macau&from={day}", headers=boss)
    assert f'filename="report-macau-{day}-end.csv"' in csv_answer.headers["content-disposition"]
    for query in ("from=2026-02-30", "to=yesterday", f"from={later}&to={day}"):
        refused = client.get(f"/api/admin/reports?{query}", headers=boss)
        assert refused.status_code == 422, query
        assert refused.json()["code"] == "request.invalid"
        assert refused.json()["params"]["field"] == ("to" if query.startswith("to") or "&" in query else "from")
        assert client.get(f"/api/admin/reports.csv?{query}", headers=boss).status_code == 422
    for path in ("/api/admin/reports", "/api/admin/reports.csv"):
        assert client.get(path).status_code == 401
        assert client.get(path).json()["code"] == "auth.required"
        assert client.get(path, headers=ann).status_code == 403
        assert client.get(path, headers=ann).json()["code"] == "auth.forbidden"
