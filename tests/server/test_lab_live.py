"""The lab's live advisor and oracle routes: the advisor's figures are `odds --remove`'s for the
same cards, a live table's public messages give the browser (views/lab/follow.js) and
`advise --follow` the same shoe, and the oracle route gives the CLI's figures with the +EV frequency
by penetration."""

from __future__ import annotations

import json
import random
import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from tests.server.conftest import wait_for

from baccarat.analysis import feature_ways, par_sheet
from baccarat.analysis.advisor import Advisor
from baccarat.cards import Card, Rank, Suit
from baccarat.cli.advise_follow import apply_message
from baccarat.server.clock import ManualClock
from baccarat.shoe import ShoeConfig
from baccarat.sim.oracle import OracleJob, simulate_oracle

FOLLOW = Path(__file__).resolve().parents[2] / "src/baccarat/web/js/views/lab/follow.js"


@pytest.fixture
def client(make_client: Callable[..., TestClient], tmp_path: Path) -> TestClient:
    return make_client(f"sqlite:///{tmp_path / 'lab.db'}")


@pytest.mark.parametrize("variant", ["macau", "ez", "standard+lucky6"])
def test_the_advice_is_the_par_sheet_of_the_cards_left(client: TestClient, variant: str) -> None:
    deck = [str(Card(rank, suit)) for rank in Rank for suit in Suit] * 8
    cards = random.Random(variant).sample(deck, 60)
    answer = client.post("/api/lab/advise", json={"variant": variant, "decks": 8, "cards": cards})
    assert answer.status_code == 200, answer.text
    advice = answer.json()
    sheet = par_sheet(feature_ways(8, remove=" ".join(cards)), variant=variant)
    assert advice["cards_seen"] == 60 and advice["cards_left"] == 416 - 60
    assert set(advice["bets"]) == {kind.value for kind in sheet.bets}
    for kind, figures in sheet.bets.items():
        assert advice["bets"][kind.value]["expected_value"] == float(figures.expected_value)
        assert advice["bets"][kind.value]["positive"] == (figures.expected_value > 0)
    assert advice["positive"] == [k for k, bet in advice["bets"].items() if bet["positive"]]


def test_a_card_the_shoe_no_longer_holds_is_refused_with_a_code(client: TestClient) -> None:
    answer = client.post("/api/lab/advise", json={"variant": "macau", "decks": 1, "cards": ["AS", "AS"]})
    assert answer.status_code == 400 and answer.json()["code"] and "AS" in answer.json()["detail"]
    answer = client.post("/api/lab/advise", json={"variant": "macau", "cards": ["ZZ"]})
    assert answer.status_code == 400 and answer.json()["code"]
    answer = client.post("/api/lab/advise", json={"variant": "nope", "cards": []})
    assert answer.status_code == 400 and answer.json()["code"] == "variant.unknown"
    assert client.post("/api/lab/advise", json={"decks": 13}).status_code == 422


def _follow_in_node(messages: list[dict[str, Any]]) -> dict[str, Any]:
    script = (
        f"import({json.dumps(FOLLOW.as_uri())}).then((m) => {{"
        " const f = new m.ShoeFollower(8);"
        f" for (const message of {json.dumps(messages)}) f.apply(message);"
        " process.stdout.write(JSON.stringify({cards: f.cards, decks: f.decks, last: f.last})); })"
    )
    return dict(json.loads(subprocess.run(["node", "-e", script], capture_output=True, text=True, check=True).stdout))


@pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")
def test_the_browser_and_the_cli_follow_a_live_table_to_the_same_shoe(
    make_client: Callable[..., TestClient], tmp_path: Path, clock: ManualClock
) -> None:
    client = make_client(f"sqlite:///{tmp_path / 'follow.db'}", betting=0.2)

    def settled() -> list[dict[str, Any]] | None:
        events, after = [], 0
        while True:
            page = client.get("/api/tables/macau/events", params={"after": after, "limit": 7}).json()
            events += page["events"]
            if page["last"] is None:
                break
            after = page["last"]
        return events if sum(e["type"] == "round_settled" for e in events) >= 4 else None

    events = wait_for(client, settled)
    advisor = Advisor(8, variant="macau")
    for message in events:
        apply_message(advisor, message)
    browser = _follow_in_node(events * 2)  # every stored event twice: each is applied once
    assert browser["last"] == max(e["id"] for e in events)
    assert len(browser["cards"]) == advisor.seen >= 16
    left = Advisor(browser["decks"], variant="macau")
    left.see(" ".join(browser["cards"]))
    assert left.left == advisor.left
    answer = client.post(
        "/api/lab/advise", json={"variant": "macau", "decks": browser["decks"], "cards": browser["cards"]}
    )
    assert answer.json()["bets"] == advisor.advice().to_dict()["bets"]


def test_the_oracle_route_gives_the_clis_figures_and_the_penetration(client: TestClient) -> None:
    answer = client.post("/api/lab/oracle", json={"variant": "ez", "decks": 2, "shoes": 6, "seed": 5})
    assert answer.status_code == 200, answer.text
    data = answer.json()
    expected = simulate_oracle(OracleJob(seed=5, shoes=6, config=ShoeConfig(decks=2), variant="ez"), workers=1)
    assert data["bets"] == expected.to_dict()["bets"]
    assert data["penetration"] == expected.to_dict()["penetration"]
    assert sum(data["penetration"]["coups"]) == data["coups"] == expected.coups
    assert data["names"]["dragon7"] == {"name": "Dragon 7", "name_zh": "龍7"}


def test_the_oracle_route_is_bounded_and_names_what_is_wrong(client: TestClient) -> None:
    assert client.post("/api/lab/oracle", json={"shoes": 101}).status_code == 422
    answer = client.post("/api/lab/oracle", json={"shoes": 1, "bets": ["nope"]})
    assert answer.status_code == 400 and answer.json()["code"] == "bet.unknown"
    only = client.post("/api/lab/oracle", json={"shoes": 1, "decks": 1, "bets": ["tie"], "seed": 1}).json()
    assert list(only["bets"]) == ["tie"]
