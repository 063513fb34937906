"""The dealer's pace (a table's ``card_seconds``): the cards are turned over one at a time, in the
order of the deal, with a longer pause before a third card; without it, all at once."""

from __future__ import annotations

from itertools import pairwise
from pathlib import Path
from typing import Any

import pytest
from tests.server.conftest import ADMIN_PASSWORD, receive, start_app

from baccarat.errors import InputError
from baccarat.server.clock import ManualClock
from baccarat.server.service import ServiceOptions
from baccarat.server.settings import TableSpec, load_lobby

TABLES = """
[server]
starting_balance = 100000
admin_password = "{admin}"

[[table]]
id = "paced"
name = "Paced"
variant = "macau"
dealing = "shoe"
betting_seconds = 0.5
settle_pause_seconds = 0.05
card_seconds = {pace}
"""


def _coups(clock: ManualClock, ws: Any, count: int) -> list[list[float]]:
    """The times of the card_dealt messages of ``count`` settled coups, coup by coup."""
    coups: list[list[float]] = []
    cards: list[float] = []
    while len(coups) < count:
        message = receive(clock, ws)
        if message["type"] == "card_dealt":
            cards.append(float(message["ts"]))
        elif message["type"] == "round_settled":
            if cards:  # a coup whose cards this connection saw from the first
                coups.append(cards)
            cards = []
    return coups


@pytest.mark.parametrize("pace", [0.5, 0.0])
def test_cards_are_turned_at_the_tables_pace(tmp_path: Path, clock: ManualClock, pace: float) -> None:
    tables = tmp_path / "tables.toml"
    tables.write_text(TABLES.format(admin=ADMIN_PASSWORD, pace=pace), encoding="utf-8")
    client = start_app(ServiceOptions(db_url=f"sqlite:///{tmp_path}/p.db", lobby=load_lobby(tables), clock=clock))
    with client.websocket_connect("/ws/tables/paced") as ws:
        assert ws.receive_json()["type"] == "snapshot"
        coups = _coups(clock, ws, 8)
    assert all(len(times) in (4, 5, 6) for times in coups)
    assert any(len(times) > 4 for times in coups), "no third card in eight coups"
    for times in coups:
        gaps = [later - earlier for earlier, later in pairwise(times)]
        if pace == 0:
            assert gaps == [0.0] * len(gaps)  # one step: every card at the same moment
            continue
        first_four, third_cards = gaps[:3], gaps[3:]
        assert all(pace <= gap < 2 * pace for gap in first_four), gaps
        assert all(gap >= 2 * pace for gap in third_cards), gaps


def test_a_pace_outside_its_range_is_refused() -> None:
    with pytest.raises(InputError, match="card_seconds 11 is outside 0–10"):
        TableSpec(id="t", name="T", card_seconds=11)
