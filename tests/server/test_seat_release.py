"""A seat is not held by an absent player: a seated bettor who bets on none of the last
``seat_release_rounds`` settled rounds leaves the table (the seat free again, their money back in
the wallet); a bettor who keeps betting keeps the seat."""

from __future__ import annotations

from pathlib import Path

from tests.server.conftest import ADMIN_PASSWORD, admin, betting_round, register, start_app

from baccarat.server.clock import ManualClock
from baccarat.server.service import ServiceOptions
from baccarat.server.settings import load_lobby

TABLES = """
[server]
starting_balance = 100000
admin_password = "{admin}"

[security]
seat_release_rounds = 2

[[table]]
id = "macau"
name = "Macau"
variant = "macau"
dealing = "shoe"
betting_seconds = 1.0
settle_pause_seconds = 0.05
"""


def test_a_seat_is_released_after_rounds_without_a_bet(tmp_path: Path, clock: ManualClock) -> None:
    tables = tmp_path / "tables.toml"
    tables.write_text(TABLES.format(admin=ADMIN_PASSWORD), encoding="utf-8")
    client = start_app(ServiceOptions(db_url=f"sqlite:///{tmp_path}/s.db", lobby=load_lobby(tables), clock=clock))
    sam, ida = register(client, "sam"), register(client, "ida")
    for headers, seat in ((sam, 1), (ida, 2)):
        assert (
            client.post("/api/tables/macau/join", json={"seat": seat, "buy_in": 5000}, headers=headers).status_code
            == 201
        )
    rounds: list[int] = []
    while True:
        current = betting_round(client, "macau", left=0.3)
        if current["id"] in rounds:
            clock.advance(0.1)
            continue
        rounds.append(current["id"])
        body = {"client_id": f"ida-{current['id']}", "bet": "banker", "stake": 100}
        assert client.post("/api/tables/macau/bets", json=body, headers=ida).status_code == 201
        sam_at = client.get("/api/tables/macau/me", headers=sam).json()
        if not sam_at["at_table"]:
            break
        assert sam_at["seat"] == 1 and len(rounds) <= 3, rounds
    assert len(rounds) == 3  # seated through two settled rounds without a bet, gone before the third
    me = client.get("/api/me", headers=sam).json()
    assert me["balance"] == me["wallet"] == 100000  # every unit back in the wallet
    assert client.get("/api/tables/macau/me", headers=ida).json()["seat"] == 2
    assert client.get("/api/admin/ledger", headers=admin(client)).json()["ok"] is True
