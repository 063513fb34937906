"""A dealer-paced table of any dealing (``shoe``, ``pre_dealt``, ``continuous``): it waits for its
dealer (or the admin) to open each round's betting, closes at the dealer's call or after
``betting_seconds``, and then deals the coup from its own provably fair shoe; a squeezed side's
cards are turned by the dealer when the squeeze time is up (R23). Card entry, the burn, the cut
card and a new shoe stay with dealer-entry tables; a table on its own timer refuses the dealer's
calls. The dealer's table list holds both kinds. Every call is audited."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from tests.server.conftest import ADMIN_PASSWORD, admin, register, service_of, start_app, wait_for

from baccarat.errors import InputError
from baccarat.server.clock import ManualClock
from baccarat.server.service import ServiceOptions
from baccarat.server.settings import Dealing, TableSpec, load_lobby

TABLES = f"""
[server]
starting_balance = 100000
admin_password = "{ADMIN_PASSWORD}"

[[table]]
id = "paced-shoe"
name = "Paced shoe"
variant = "macau"
dealing = "shoe"
dealer_paced = true
betting_seconds = 600
settle_pause_seconds = 0.05

[[table]]
id = "paced-predealt"
name = "Paced pre-dealt"
variant = "standard"
dealing = "pre_dealt"
dealer_paced = true
betting_seconds = 600
settle_pause_seconds = 0.05

[[table]]
id = "paced-cont"
name = "Paced continuous"
variant = "no_commission"
dealing = "continuous"
dealer_paced = true
betting_seconds = 600
settle_pause_seconds = 0.05

[[table]]
id = "paced-squeeze"
name = "Paced squeeze"
variant = "macau"
dealing = "shoe"
dealer_paced = true
betting_seconds = 600
settle_pause_seconds = 0.05
squeeze = true
squeeze_seconds = 10

[[table]]
id = "paced-short"
name = "Paced, short window"
variant = "macau"
dealing = "shoe"
dealer_paced = true
betting_seconds = 5
settle_pause_seconds = 0.05

[[table]]
id = "auto"
name = "On its own timer"
variant = "macau"
dealing = "shoe"
betting_seconds = 5
settle_pause_seconds = 0.05

[[table]]
id = "entry"
name = "Dealer entry"
variant = "macau"
dealing = "dealer_entry"
betting_seconds = 30
settle_pause_seconds = 0.05
"""

PACED = ["paced-shoe", "paced-predealt", "paced-cont"]


@pytest.fixture
def client(tmp_path: Path, clock: ManualClock) -> TestClient:
    """An app on the test's clock with dealer-paced tables of every dealing."""
    path = tmp_path / "tables.toml"
    path.write_text(TABLES, encoding="utf-8")
    return start_app(ServiceOptions(db_url=f"sqlite:///{tmp_path}/paced.db", lobby=load_lobby(path), clock=clock))


def _detail(client: TestClient, table: str) -> dict[str, Any]:
    return dict(client.get(f"/api/tables/{table}").json())


def _call(client: TestClient, table: str, what: str, headers: dict[str, str], body: Any = None) -> Any:
    """A dealer's call on a table: POST /api/dealer/tables/{table}/{what}."""
    return client.post(f"/api/dealer/tables/{table}/{what}", json=body, headers=headers)


def _betting(client: TestClient, table: str) -> dict[str, Any]:
    """Until the table's round is betting; returns the round."""
    return dict(wait_for(client, lambda: (r := _detail(client, table)["round"]) and r["status"] == "betting" and r))


def _settled(client: TestClient, round_id: int) -> dict[str, Any]:
    """Until the round is settled; returns it."""
    return dict(
        wait_for(client, lambda: (r := client.get(f"/api/rounds/{round_id}").json())["status"] == "settled" and r)
    )


@pytest.mark.parametrize("table", PACED)
def test_a_dealer_paced_table_waits_for_its_dealer_then_deals_from_its_own_shoe(
    client: TestClient, clock: ManualClock, table: str
) -> None:
    boss, ann = admin(client), register(client, "ann")
    lobby = {t["id"]: t for t in client.get("/api/tables").json()["tables"]}
    assert lobby[table]["dealer_paced"] is True
    # the table waits: no round opens by itself (a table on its own timer opens one within a second)
    clock.advance(20.0)
    detail = _detail(client, table)
    assert detail["round"] is None and detail["table"]["phase"] == "idle"
    close_early = _call(client, table, "close-betting", boss)
    assert close_early.status_code == 409 and close_early.json()["code"] == "betting.closed"
    opened = _call(client, table, "open-betting", boss)
    assert opened.status_code == 202, opened.text
    assert opened.json()["asked"] == "open_betting"
    current = _betting(client, table)
    assert current["closes_at"] == pytest.approx(clock.time() + 600, abs=2)
    again = _call(client, table, "open-betting", boss)
    assert again.status_code == 409 and again.json()["code"] == "round.in_progress"
    bet = {"client_id": f"{table}-1", "bet": "player", "stake": 1000, "round_id": current["id"]}
    assert client.post(f"/api/tables/{table}/bets", json=bet, headers=ann).status_code == 201
    clock.advance(20.0)  # the window stays open for as long as the dealer keeps it open
    assert _detail(client, table)["round"]["status"] == "betting"
    assert _call(client, table, "close-betting", boss).status_code == 202
    settled = _settled(client, int(current["id"]))
    # the coup came from the table's own provably fair shoe: the round's proof holds its commitment
    assert len(settled["result"]["cards"]) in (4, 5, 6)
    assert settled["proof"]["commitment"]
    history = client.get("/api/me/history?limit=5", headers=ann).json()["rounds"]
    mine = next(r for r in history if r["round_id"] == current["id"])
    assert mine["status"] == "settled" and mine["bets"][0]["returned"] is not None
    # and the table waits for its dealer again
    clock.advance(20.0)
    detail = _detail(client, table)
    assert detail["table"]["phase"] == "idle"
    assert detail["round"] is None or detail["round"]["id"] == current["id"]
    entries = client.get(f"/api/admin/audit?table={table}", headers=boss).json()["entries"]
    done = [(e["actor"], e["action"], e["status"]) for e in entries]
    assert ("admin", "table.open_betting", 202) in done and ("admin", "table.close_betting", 202) in done
    assert ("admin", "table.open_betting", 409) in done, "a refused call is audited too"


def test_betting_seconds_bound_a_dealer_paced_window(client: TestClient, clock: ManualClock) -> None:
    boss = admin(client)
    assert _call(client, "paced-short", "open-betting", boss).status_code == 202
    current = _betting(client, "paced-short")
    clock.advance(5.5)  # the dealer did not close it: the window closes itself after betting_seconds
    _settled(client, int(current["id"]))
    clock.advance(20.0)
    assert _detail(client, "paced-short")["table"]["phase"] == "idle", "and no next round opens by itself"


def test_a_dealer_assigned_to_a_paced_table_lists_and_runs_it(client: TestClient, clock: ManualClock) -> None:
    boss = admin(client)
    listed = client.get("/api/dealer/tables", headers=boss).json()["tables"]
    assert [(t["id"], t["dealing"], t["dealer_paced"]) for t in listed] == [
        ("paced-shoe", "shoe", True),
        ("paced-predealt", "pre_dealt", True),
        ("paced-cont", "continuous", True),
        ("paced-squeeze", "shoe", True),
        ("paced-short", "shoe", True),
        ("entry", "dealer_entry", False),
    ], "the dealer-entry and the dealer-paced tables, not those on their own timer"
    made = client.post(
        "/api/admin/dealers", json={"name": "dana", "password": "dealer-pass-1", "tables": ["paced-shoe"]}, headers=boss
    )
    assert made.status_code == 201, made.text
    answer = client.post("/api/auth/login", json={"name": "dana", "password": "dealer-pass-1"})
    dana = {"Authorization": f"Bearer {answer.json()['token']}"}
    assert [t["id"] for t in client.get("/api/dealer/tables", headers=dana).json()["tables"]] == ["paced-shoe"]
    clock.advance(1.0)
    view = client.get("/api/dealer/tables/paced-shoe", headers=dana).json()
    assert (view["phase"], view["dealer_paced"], view["round"]) == ("idle", True, None)
    assert view["next"] == "open_betting", "the table's shoe is its own: no new shoe or burn for the dealer"
    assert _call(client, "paced-shoe", "open-betting", dana).status_code == 202
    current = _betting(client, "paced-shoe")
    assert client.get("/api/dealer/tables/paced-shoe", headers=dana).json()["next"] == "close_betting"
    other = _call(client, "paced-cont", "open-betting", dana)
    assert other.status_code == 403 and other.json()["code"] == "dealer.not_assigned"
    assert _call(client, "paced-shoe", "close-betting", dana).status_code == 202
    _settled(client, int(current["id"]))
    entries = client.get("/api/admin/audit?table=paced-shoe", headers=boss).json()["entries"]
    assert {("dana", "table.open_betting"), ("dana", "table.close_betting")} <= {
        (e["actor"], e["action"]) for e in entries
    }


def test_card_entry_stays_with_dealer_entry_tables_and_a_timed_table_refuses_the_dealer(
    client: TestClient, clock: ManualClock
) -> None:
    boss, ann = admin(client), register(client, "ann")
    clock.advance(1.0)
    for what, body in [
        ("cards", {"card": "AS"}),
        ("cards/correct", {"card": "AS"}),
        ("cut-card", None),
        ("burn", {"card": "7S"}),
        ("new-shoe", None),
    ]:
        refused = _call(client, "paced-shoe", what, boss, body)
        assert refused.status_code == 409 and refused.json()["code"] == "table.not_dealer_entry", (what, refused.text)
    for what, body in [("open-betting", None), ("close-betting", None), ("reveal", {"side": "player"})]:
        refused = _call(client, "auto", what, boss, body)
        assert refused.status_code == 409 and refused.json()["code"] == "table.not_dealer_paced", (what, refused.text)
    assert client.get("/api/dealer/tables/auto", headers=boss).json()["code"] == "table.not_dealer_paced"
    player = _call(client, "paced-shoe", "open-betting", ann)
    assert player.status_code == 403 and player.json()["code"] == "auth.forbidden"


def test_the_dealer_turns_a_squeezed_side_of_a_paced_table_once_the_squeeze_time_is_up(
    client: TestClient, clock: ManualClock
) -> None:
    boss, ann = admin(client), register(client, "ann")
    clock.advance(1.0)
    assert _call(client, "paced-squeeze", "open-betting", boss).status_code == 202
    current = _betting(client, "paced-squeeze")
    assert client.post("/api/tables/paced-squeeze/join", json={"seat": 1}, headers=ann).status_code == 201
    bet = {"client_id": "sq1", "bet": "banker", "stake": 1000, "round_id": current["id"]}
    assert client.post("/api/tables/paced-squeeze/bets", json=bet, headers=ann).status_code == 201
    assert _call(client, "paced-squeeze", "close-betting", boss).status_code == 202
    base = "/api/dealer/tables/paced-squeeze"
    view = wait_for(client, lambda: (v := client.get(base, headers=boss).json())["next"] == "wait_reveal" and v)
    # Banker's cards lie face down for ann, who squeezes them; Player's, squeezed by nobody, lie face up
    assert view["reveal_due"] == "banker" and view["squeezers"]["banker"].startswith("a***")
    faces = {c["position"]: c["face_down"] for c in view["cards"]}
    assert faces == {"player_1": False, "player_2": False, "banker_1": True, "banker_2": True}
    early = _call(client, "paced-squeeze", "reveal", boss, {"side": "banker"})
    assert early.status_code == 409 and early.json()["code"] == "squeeze.time_left", early.text
    assert early.json()["rule"] == "R23"
    clock.advance(10.5)  # the squeeze time is up: the dealer turns them, and the round settles
    _settled(client, int(current["id"]))
    events = client.get("/api/tables/paced-squeeze/events?after=0&limit=200").json()["events"]
    reveals = [e for e in events if e["type"] == "card_revealed" and e.get("round_id") == current["id"]]
    assert reveals and all(e.get("by") is None for e in reveals), reveals


def test_the_squeezer_turns_the_cards_of_a_paced_table(client: TestClient, clock: ManualClock) -> None:
    boss, ann = admin(client), register(client, "ann")
    clock.advance(1.0)
    assert _call(client, "paced-squeeze", "open-betting", boss).status_code == 202
    current = _betting(client, "paced-squeeze")
    assert client.post("/api/tables/paced-squeeze/join", json={"seat": 2}, headers=ann).status_code == 201
    bet = {"client_id": "sq2", "bet": "player", "stake": 1000, "round_id": current["id"]}
    assert client.post("/api/tables/paced-squeeze/bets", json=bet, headers=ann).status_code == 201
    assert _call(client, "paced-squeeze", "close-betting", boss).status_code == 202
    base = "/api/dealer/tables/paced-squeeze"
    wait_for(client, lambda: client.get(base, headers=boss).json()["reveal_due"] == "player")
    turned = client.post("/api/tables/paced-squeeze/reveal", json={"side": "player"}, headers=ann)
    assert turned.status_code == 200, turned.text
    settled = _settled(client, int(current["id"]))
    assert len(settled["result"]["cards"]) >= 4


def test_the_next_round_may_be_opened_while_the_last_one_is_still_being_put_away(
    client: TestClient, clock: ManualClock
) -> None:
    """The console shows a settled round over at once; the dealer's call to open the next one is taken
    then, even before the table's loop has put the settled round away, and the round opens after."""
    boss = admin(client)
    clock.advance(1.0)
    assert _call(client, "paced-shoe", "open-betting", boss).status_code == 202
    current = _betting(client, "paced-shoe")
    assert _call(client, "paced-shoe", "close-betting", boss).status_code == 202
    _settled(client, int(current["id"]))
    runner = service_of(client).runners["paced-shoe"]

    def ask_while_put_away() -> dict[str, Any]:
        """The dealer's call at the moment the loop still holds the settled round (on the app's loop)."""
        runner.round = dict(current)
        try:
            return runner.ask_open_betting()
        finally:
            runner.round = None

    assert client.portal.call(ask_while_put_away)["asked"] == "open_betting"  # type: ignore[union-attr]
    following = wait_for(
        client,
        lambda: (
            (r := _detail(client, "paced-shoe")["round"])
            and r["id"] != current["id"]
            and r["status"] == "betting"
            and r
        ),
    )
    assert following["number"] == current["number"] + 1


def test_dealer_paced_is_a_setting_of_every_dealing() -> None:
    for dealing in Dealing:
        spec = TableSpec(id=f"t-{dealing.value}", name="T", dealing=dealing, dealer_paced=True)
        assert spec.to_dict()["dealer_paced"] is True
    with pytest.raises(InputError):
        TableSpec(id="t", name="T", dealer_paced=True, betting_seconds=601)
