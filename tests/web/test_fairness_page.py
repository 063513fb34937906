"""The fairness page checks a round against the commitment published before its shoe (R37): the one
given in the address, else the one the server shows, and says which."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from tests.web.conftest import Pit, new_context, until

TABLE = "web-macau"


@pytest.fixture
def page(chromium: Any, server: Any) -> Iterator[Any]:
    context = new_context(chromium, locale="en-US", viewport={"width": 1280, "height": 900})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.errors = errors
    yield page
    context.close()


def _revealed_round(server: Any, pit: Pit) -> tuple[int, str]:
    """A settled round of the table and its shoe's commitment as published while it was played, its
    shoe since ended (the seed revealed)."""
    round_id = pit.open(TABLE)
    published = server.get(f"/api/tables/{TABLE}")["shoe"]["commitment"]
    assert pit.settled(pit.close(TABLE))["status"] == "settled"
    assert server.post(f"/api/admin/tables/{TABLE}/change-shoe", server.admin_token()).status_code == 200
    pit.open(TABLE)  # the shoe ends as the next round opens
    until(lambda: server.get(f"/api/rounds/{round_id}")["proof"]["server_seed"], "the shoe did not end")
    return round_id, published


def test_the_page_checks_the_round_against_the_published_commitment(page: Any, server: Any, pit: Pit) -> None:
    round_id, published = _revealed_round(server, pit)
    page.goto(f"{server.url}/#/fairness/{round_id}/{published}")
    page.wait_for_selector("#verdict[data-ok=true]")
    assert page.get_attribute("#fair-against", "data-given") == "true"
    assert published in page.inner_text("#fair-against")
    assert page.input_value("#fair-published") == published
    page.goto(f"{server.url}/#/fairness/{round_id}/{'0' * 64}")
    page.wait_for_selector("#verdict[data-ok=false]")
    assert "published commitment" in page.inner_text("#verdict")
    page.goto(f"{server.url}/#/fairness/{round_id}")
    page.wait_for_selector("#verdict[data-ok=true]")
    assert page.get_attribute("#fair-against", "data-given") == "false"
    assert page.errors == []
