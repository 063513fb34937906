"""The dealer's console over REST (R18, R6): dealers created by the admin and assigned to tables,
a dealer-paced table waiting for its dealer to open betting, betting closed early, cards entered
with the position due and its reason, a wrong card refused, the last card corrected, the cut card,
a void with its reason; a player and a dealer of another table refused; every action audited;
suspension ends a session and refuses the log-in."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.server.conftest import ADMIN_PASSWORD, admin, register, start_app, wait_for

from baccarat.server.clock import ManualClock
from baccarat.server.service import ServiceOptions
from baccarat.server.settings import load_lobby

TABLES = f"""
[server]
starting_balance = 100000
admin_password = "{ADMIN_PASSWORD}"

[[table]]
id = "floor-1"
name = "Floor 1"
variant = "macau"
dealing = "dealer_entry"
dealer_paced = true
betting_seconds = 30
settle_pause_seconds = 0.05

[[table]]
id = "floor-3"
name = "Floor 3"
variant = "macau"
dealing = "dealer_entry"
dealer_paced = true
betting_seconds = 30
settle_pause_seconds = 0.05
squeeze = true
squeeze_seconds = 10

[[table]]
id = "floor-2"
name = "Floor 2"
variant = "macau"
dealing = "dealer_entry"
betting_seconds = 30
settle_pause_seconds = 0.05
"""


def _client(tmp_path: Path, clock: ManualClock) -> Any:
    path = tmp_path / "tables.toml"
    path.write_text(TABLES, encoding="utf-8")
    return start_app(ServiceOptions(db_url=f"sqlite:///{tmp_path}/floor.db", lobby=load_lobby(path), clock=clock))


def _login(client: Any, name: str, password: str) -> dict[str, str]:
    answer = client.post("/api/auth/login", json={"name": name, "password": password})
    assert answer.status_code == 200, answer.text
    return {"Authorization": f"Bearer {answer.json()['token']}"}


def _console(client: Any, headers: dict[str, str]) -> dict[str, Any]:
    answer = client.get("/api/dealer/tables/floor-1", headers=headers)
    assert answer.status_code == 200, answer.text
    return dict(answer.json())


def test_dealers_are_created_assigned_and_refused_elsewhere(tmp_path: Path, clock: ManualClock) -> None:
    client = _client(tmp_path, clock)
    boss, ann = admin(client), register(client, "ann")
    made = client.post(
        "/api/admin/dealers", json={"name": "dana", "password": "dealer-pass-1", "tables": ["floor-1"]}, headers=boss
    )
    assert made.status_code == 201, made.text
    assert made.json() == {"id": made.json()["id"], "name": "dana", "tables": ["floor-1"], "suspended": False}
    unknown = client.post(
        "/api/admin/dealers", json={"name": "dora", "password": "dealer-pass-1", "tables": ["nowhere"]}, headers=boss
    )
    assert unknown.status_code == 404 and unknown.json()["code"] == "table.not_found"
    assert client.post("/api/admin/dealers", json={"name": "x", "password": "p"}, headers=ann).status_code in (403, 422)
    dana = _login(client, "dana", "dealer-pass-1")
    assert [t["id"] for t in client.get("/api/dealer/tables", headers=dana).json()["tables"]] == ["floor-1"]
    assert client.get("/api/dealer/tables", headers=ann).status_code == 403
    other = client.get("/api/dealer/tables/floor-2", headers=dana)
    assert other.status_code == 403 and other.json()["code"] == "dealer.not_assigned"
    player = client.post("/api/dealer/tables/floor-1/cards", json={"card": "AS"}, headers=ann)
    assert player.status_code == 403 and player.json()["code"] == "auth.forbidden"
    # reassigned to the other table only
    moved = client.put("/api/admin/dealers/dana/tables", json={"tables": ["floor-2"]}, headers=boss)
    assert moved.status_code == 200 and moved.json()["tables"] == ["floor-2"]
    assert client.get("/api/dealer/tables/floor-1", headers=dana).json()["code"] == "dealer.not_assigned"
    assert [d["name"] for d in client.get("/api/admin/dealers", headers=boss).json()["dealers"]] == ["dana"]
    # suspension: the session ends and the log-in is refused, until it is lifted
    assert client.post("/api/admin/users/dana/suspension", json={"suspended": True}, headers=boss).status_code == 200
    assert client.get("/api/dealer/tables", headers=dana).status_code == 401
    refused = client.post("/api/auth/login", json={"name": "dana", "password": "dealer-pass-1"})
    assert refused.status_code == 403 and refused.json()["code"] == "account.suspended"
    assert client.post("/api/admin/users/dana/suspension", json={"suspended": False}, headers=boss).status_code == 200
    _login(client, "dana", "dealer-pass-1")
    players = client.get("/api/admin/players?query=an", headers=boss).json()
    assert players["total"] == 1 and players["players"][0]["name"] == "ann"
    assert players["players"][0]["wallet"] == 100000
    assert client.get("/api/admin/players/ann/history", headers=boss).json() == {"rounds": []}
    assert client.get("/api/admin/players/dana/history", headers=boss).json()["code"] == "player.not_found"
    actions = [e["action"] for e in client.get("/api/admin/audit", headers=boss).json()["entries"]]
    for action in ("staff.dealer_created", "staff.dealer_tables", "staff.suspended", "staff.reinstated"):
        assert action in actions


def test_a_dealer_runs_a_round_card_by_card(tmp_path: Path, clock: ManualClock) -> None:
    client = _client(tmp_path, clock)
    boss, ann = admin(client), register(client, "ann")
    client.post(
        "/api/admin/dealers", json={"name": "dana", "password": "dealer-pass-1", "tables": ["floor-1"]}, headers=boss
    )
    dana = _login(client, "dana", "dealer-pass-1")
    # a dealer-paced table waits for its dealer: a new shoe, its burn (R4), then betting
    clock.advance(2.0)
    assert _console(client, dana)["next"] == "new_shoe"
    early = client.post("/api/dealer/tables/floor-1/burn", json={"card": "7S"}, headers=dana)
    assert early.status_code == 409 and early.json()["code"] == "burn.not_now"
    assert client.post("/api/dealer/tables/floor-1/new-shoe", headers=dana).json()["next"] == "burn"
    no_card = client.post("/api/dealer/tables/floor-1/burn", headers=dana)
    assert no_card.status_code == 400 and no_card.json()["code"] == "burn.card_required"
    burned = client.post("/api/dealer/tables/floor-1/burn", json={"card": "7S"}, headers=dana).json()
    assert (burned["burned"], burned["next"], burned["shoe_number"]) == (7, "open_betting", 1)
    close_early = client.post("/api/dealer/tables/floor-1/close-betting", headers=dana)
    assert close_early.status_code == 409 and close_early.json()["code"] == "betting.closed"
    assert client.post("/api/dealer/tables/floor-1/open-betting", headers=dana).status_code == 202
    view = wait_for(client, lambda: (v := _console(client, dana))["phase"] == "betting" and v)
    assert view["round"]["status"] == "betting" and view["next"] == "close_betting"
    bet = {"client_id": "a1", "bet": "player", "stake": 1000}
    assert client.post("/api/tables/floor-1/bets", json=bet, headers=ann).status_code == 201
    assert client.post("/api/dealer/tables/floor-1/open-betting", headers=dana).json()["code"] == "round.in_progress"
    assert client.post("/api/dealer/tables/floor-1/close-betting", headers=dana).status_code == 202
    view = wait_for(client, lambda: (v := _console(client, dana))["phase"] == "dealing" and v)
    assert (view["due"], view["due_short"], view["totals"]) == ("player_1", "P1", {"player": 1000})
    url = "/api/dealer/tables/floor-1/cards"
    wrong = client.post(url, json={"card": "AS", "position": "banker_1"}, headers=dana)
    assert wrong.status_code == 409 and wrong.json()["code"] == "card.not_due" and wrong.json()["rule"] == "R18"
    for card in ["5S", "3H", "KD"]:
        assert client.post(url, json={"card": card}, headers=dana).status_code == 200
    corrected = client.post(f"{url}/correct", json={"card": "QD"}, headers=dana)
    assert corrected.status_code == 200 and corrected.json()["entered"] == ["5S", "3H", "QD"]
    same = client.post(f"{url}/correct", json={"card": "QD"}, headers=dana)
    assert same.status_code == 400 and same.json()["code"] == "card.same"
    assert client.post(url, json={"card": "2C"}, headers=dana).json()["due"] == "player_3"
    view = _console(client, dana)
    assert view["reasons"] == ["Player 5 draws: Player draws on 0–5 and stands on 6–7"]
    assert view["explained"] == [
        {"code": "player_two_cards", "params": {"total": 5, "draws": True}, "text": view["reasons"][0]}
    ]
    assert [c["short"] for c in view["cards"]] == ["P1", "B1", "P2", "B2"]
    cut = client.post("/api/dealer/tables/floor-1/cut-card", headers=dana).json()
    assert cut["cut_card_at"] == 1 and not cut["last_coup"], "one more coup after the cut card's (R6)"
    assert client.post(url, json={"card": "4S"}, headers=dana).json()["due"] == "banker_3"
    assert client.post(url, json={"card": "8D"}, headers=dana).json()["due"] is None  # Player 9 beats Banker 3
    me = wait_for(client, lambda: (m := client.get("/api/me", headers=ann).json())["balance"] == 101000 and m)
    assert me["balance"] == 101000
    assert wait_for(client, lambda: (v := _console(client, dana))["phase"] == "idle" and v)["last_coup"], (
        "the next is the last"
    )
    assert client.get("/api/tables/floor-1").json()["roads"]["results"] == "P"  # the physical shoe's roads
    assert client.post("/api/dealer/tables/floor-1/new-shoe", headers=dana).status_code == 200
    assert client.get("/api/tables/floor-1").json()["roads"]["results"] == ""  # a new shoe, new roads
    assert client.app.state.service.runners["floor-1"].scoreboard.to_dict()["results"] == ""
    entries = client.get("/api/admin/audit?table=floor-1", headers=boss).json()["entries"]
    done = [(e["actor"], e["action"], e["status"]) for e in reversed(entries)]
    assert ("dana", "table.open_betting", 202) in done and ("dana", "table.correct_card", 200) in done
    assert ("dana", "table.card", 409) in done, "a refused card is audited too"
    assert ("dana", "table.burn", 200) in done and ("dana", "table.new_shoe", 200) in done
    assert not any(action == "table.console" for _, action, _ in done), "reads are not audited"


def test_a_dealer_voids_a_round_with_a_reason_and_every_bet_comes_back(tmp_path: Path, clock: ManualClock) -> None:
    client = _client(tmp_path, clock)
    boss, ann = admin(client), register(client, "ann")
    client.post(
        "/api/admin/dealers", json={"name": "dana", "password": "dealer-pass-1", "tables": ["floor-1"]}, headers=boss
    )
    dana = _login(client, "dana", "dealer-pass-1")
    clock.advance(1.0)
    nothing = client.post("/api/dealer/tables/floor-1/void", json={"reason": "test"}, headers=dana)
    assert nothing.status_code == 409 and nothing.json()["code"] == "round.not_in_progress"
    client.post("/api/dealer/tables/floor-1/open-betting", headers=dana)
    wait_for(client, lambda: _console(client, dana)["phase"] == "betting")
    assert (
        client.post(
            "/api/tables/floor-1/bets", json={"client_id": "v1", "bet": "banker", "stake": 2000}, headers=ann
        ).status_code
        == 201
    )
    client.post("/api/dealer/tables/floor-1/close-betting", headers=dana)
    wait_for(client, lambda: _console(client, dana)["phase"] == "dealing")
    client.post("/api/dealer/tables/floor-1/cards", json={"card": "9S"}, headers=dana)
    no_reason = client.post("/api/dealer/tables/floor-1/void", headers=dana)
    assert no_reason.status_code == 422 and no_reason.json()["code"] == "void.reason_required"
    voided = client.post("/api/dealer/tables/floor-1/void", json={"reason": "card fell on the floor"}, headers=dana)
    assert voided.status_code == 200 and voided.json()["refunded"] == 2000
    wait_for(client, lambda: client.get("/api/me", headers=ann).json()["balance"] == 100000)
    entry = next(
        e for e in client.get("/api/admin/audit", headers=boss).json()["entries"] if e["action"] == "table.void"
    )
    assert (entry["actor"], entry["reason"]) == ("dana", "card fell on the floor")
    assert client.get("/api/admin/ledger", headers=boss).json()["ok"]


def test_the_dealer_turns_a_squeezed_side_once_the_squeeze_time_is_up(tmp_path: Path, clock: ManualClock) -> None:
    client = _client(tmp_path, clock)
    boss, ann = admin(client), register(client, "ann")
    base = "/api/dealer/tables/floor-3"
    clock.advance(1.0)
    client.post(f"{base}/open-betting", headers=boss)
    wait_for(client, lambda: client.get(base, headers=boss).json()["phase"] == "betting")
    client.post("/api/tables/floor-3/join", json={"seat": 1}, headers=ann)
    assert (
        client.post(
            "/api/tables/floor-3/bets", json={"client_id": "s1", "bet": "player", "stake": 1000}, headers=ann
        ).status_code
        == 201
    )
    client.post(f"{base}/close-betting", headers=boss)
    wait_for(client, lambda: client.get(base, headers=boss).json()["phase"] == "dealing")
    for card in ["5S", "3H", "KD", "2C"]:
        client.post(f"{base}/cards", json={"card": card}, headers=boss)
    view = client.get(base, headers=boss).json()
    assert view["next"] == "wait_reveal" and view["reveal_due"] == "player"
    assert [c["card"] for c in view["cards"] if c["position"].startswith("player")] == [None, None], "face down for ann"
    assert view["reveal_deadline"] > clock.time() and view["squeezers"]["player"].startswith("a***")
    early = client.post(f"{base}/reveal", json={"side": "player"}, headers=boss)
    assert early.status_code == 409, early.text
    clock.advance(10.5)
    view = client.get(base, headers=boss).json()
    assert view["reveal_due"] != "player", "the dealer turned Player's cards when the squeeze time ran out"
