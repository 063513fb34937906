"""The odds lab's endpoints (``baccarat.server.api.routes.lab``): good requests and bad input, through FastAPI's TestClient."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from baccarat.dealing import ShoeDealer
from baccarat.rng import ProvablyFairSource
from baccarat.server.api.problems import install_handlers
from baccarat.server.api.routes import lab
from baccarat.server.app import create_app
from baccarat.server.service import ServiceOptions
from baccarat.server.settings import load_lobby
from baccarat.shoe import ShoeConfig


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    app = FastAPI()
    install_handlers(app)
    app.include_router(lab.router)
    with TestClient(app) as test_client:
        yield test_client


def test_the_app_serves_the_lab(tmp_path: Path) -> None:
    app = create_app(ServiceOptions(db_url=f"sqlite:///{tmp_path}/lab.db", lobby=load_lobby(None)))
    paths = set(app.openapi()["paths"])
    assert {"/api/lab/odds", "/api/lab/simulate", "/api/lab/recompute", "/api/lab/options"} <= paths


def test_options_list_variants_and_bounds(client: TestClient) -> None:
    data = client.get("/api/lab/options").json()
    assert [v["name"] for v in data["variants"]][:2] == ["macau", "standard"]
    assert data["variants"][0]["title_zh"] == "澳門百家樂"
    assert data["max_shoes"] == lab.MAX_SHOES


def test_par_sheet_of_eight_decks(client: TestClient) -> None:
    response = client.get("/api/lab/odds", params={"decks": 8, "variant": "macau"})
    assert response.status_code == 200
    sheet = response.json()
    assert sheet["total_ways"] == 4998398275503360
    assert sheet["decks"] == 8
    assert sheet["bets"]["banker"]["house_edge"] == pytest.approx(0.010579, abs=1e-6)
    assert sheet["bets"]["player"]["house_edge"] == pytest.approx(0.012351, abs=1e-6)
    assert set(sheet["bets"]) == {"banker", "player", "tie", "banker_pair", "player_pair"}


def test_par_sheet_with_cards_removed(client: TestClient) -> None:
    sheet = client.get("/api/lab/odds?decks=8&variant=macau&remove=5S+K").json()
    assert sheet["cards"] == 414
    assert sheet["removed"] == "5S K"
    full = client.get("/api/lab/odds?decks=8&variant=macau").json()
    assert sheet["bets"]["banker"]["expected_value"] != full["bets"]["banker"]["expected_value"]


def test_par_sheet_of_a_builtin_paytable(client: TestClient) -> None:
    sheet = client.get("/api/lab/odds", params={"decks": 6, "paytable": "ez"}).json()
    assert "dragon7" in sheet["bets"]
    assert sheet["cards"] == 312


def test_par_sheet_of_a_posted_paytable(client: TestClient) -> None:
    body = {"paytable": 'name = "tie9"\n[bets.tie]\npays = 9\n', "decks": 8}
    response = client.post("/api/lab/odds", json=body)
    assert response.status_code == 200, response.text
    assert response.json()["bets"]["tie"]["pays"] == 9


@pytest.mark.parametrize(
    ("query", "status", "reason"),
    [
        ({"decks": 13}, 422, "less than or equal to 12"),
        ({"decks": 0}, 422, "greater than or equal to 1"),
        ({"variant": "nope"}, 400, "unknown variant 'nope'"),
        ({"paytable": "../../etc/passwd"}, 400, "unknown paytable"),
        ({"remove": "ZZ"}, 400, "ZZ"),
        ({"decks": 1, "remove": "AS AS"}, 400, "cannot remove AS"),
    ],
)
def test_par_sheet_refuses_bad_input(client: TestClient, query: dict[str, object], status: int, reason: str) -> None:
    response = client.get("/api/lab/odds", params=query)
    assert response.status_code == status
    assert reason in str(response.json()["detail"])


def test_posted_paytable_must_be_toml(client: TestClient) -> None:
    response = client.post("/api/lab/odds", json={"paytable": "name = = 1"})
    assert response.status_code == 400
    assert "not valid TOML" in response.json()["detail"]
    too_big = client.post("/api/lab/odds", json={"paytable": "#" * (lab.MAX_PAYTABLE_CHARS + 1)})
    assert too_big.status_code == 422


def test_simulation_is_seeded_and_charted(client: TestClient) -> None:
    body = {
        "strategy": "martingale:banker",
        "shoes": 10,
        "session_shoes": 2,
        "seed": 7,
        "bankroll": 1_000_000,
        "unit": 10_000,
    }
    first = client.post("/api/lab/simulate", json=body)
    assert first.status_code == 200, first.text
    data = first.json()
    assert data["shoes"] == 10 and data["hands"] > 500
    assert data["strategy"]["name"] == "martingale:banker"
    assert data["strategy"]["sessions"] == 5
    chart = data["chart"]
    assert 1 <= len(chart["paths"]) <= lab.CHART_SESSIONS
    assert len(chart["p50"]) == len(chart["paths"][0]) <= lab.CHART_POINTS + 1
    assert chart["paths"][0][0] == pytest.approx(10_000.0)
    assert client.post("/api/lab/simulate", json=body).json()["strategy"]["net"] == data["strategy"]["net"]


@pytest.mark.parametrize(
    ("body", "status", "reason"),
    [
        ({"shoes": lab.MAX_SHOES + 1}, 422, "less than or equal to"),
        ({"strategy": "labouchere"}, 400, "unknown strategy"),
        ({"bankroll": 100, "unit": 1000}, 400, "larger than the bankroll"),
        ({"unit": 1}, 400, "below the table minimum"),
        ({"variant": "nope"}, 400, "unknown variant"),
        ({"shoes": "many"}, 422, "valid integer"),
        ({"hands": 5}, 422, "Extra inputs"),
    ],
)
def test_simulation_refuses_bad_input(client: TestClient, body: dict[str, object], status: int, reason: str) -> None:
    response = client.post("/api/lab/simulate", json=body)
    assert response.status_code == status
    assert reason in str(response.json()["detail"])


def _proof(coup: int) -> dict[str, object]:
    source = ProvablyFairSource(server_seed="ab" * 32, client_seed="t:1")
    dealer = ShoeDealer(ShoeConfig(), source=source)
    dealt = [dealer.next_coup() for _ in range(coup)][-1]
    return {
        "commitment": source.commitment,
        "server_seed": "ab" * 32,
        "client_seed": "t:1",
        "config": ShoeConfig().to_dict(),
        "first_shoe_number": 1,
        "coup_in_shoe": coup,
        "cards": [str(c) for c in dealt.result.cards],
    }


def test_recompute_deals_the_shoe_again(client: TestClient) -> None:
    proof = _proof(3)
    data = client.post("/api/lab/recompute", json=proof).json()
    assert data["commitment_ok"] is True
    assert [c["number"] for c in data["coups"]] == [1, 2, 3]
    assert data["coups"][-1]["cards"] == proof["cards"]


def test_recompute_flags_a_wrong_seed_and_bad_input(client: TestClient) -> None:
    proof = _proof(2) | {"server_seed": "cd" * 32}
    data = client.post("/api/lab/recompute", json=proof).json()
    assert data["commitment_ok"] is False
    assert client.post("/api/lab/recompute", json=_proof(1) | {"coup_in_shoe": 0}).status_code == 422
    bad = client.post("/api/lab/recompute", json=_proof(1) | {"config": {"decks": 8}})
    assert bad.status_code == 400
    assert "shoe settings" in bad.json()["detail"]


def test_a_busy_lab_answers_429(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(lab, "_slots", asyncio.Semaphore(0))
    response = client.get("/api/lab/odds")
    assert response.status_code == 429
    assert "busy" in response.json()["detail"]


def test_a_variant_with_side_bet_options_is_priced_and_an_unknown_option_refused(client: TestClient) -> None:
    options = client.get("/api/lab/options").json()
    assert "lucky6" in options["variants"][0]["options"]
    sheet = client.get("/api/lab/odds", params={"decks": 8, "variant": "macau+lucky6"})
    assert sheet.status_code == 200, sheet.text
    assert "lucky6" in {b["bet"] if isinstance(b, dict) else b for b in sheet.json()["bets"]}
    refused = client.get("/api/lab/odds", params={"decks": 8, "variant": "macau+nothing"})
    assert refused.status_code == 400 and refused.json()["code"] == "variant.unknown"
    assert "does not offer option 'nothing'" in refused.json()["detail"]
