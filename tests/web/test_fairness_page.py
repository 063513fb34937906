"""The fairness page checks a round against the commitment published before its shoe (R37): the one
given in the address, else the one the server shows, and says which."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

TABLE = "web-macau"


@pytest.fixture
def page(chromium: Any, server: Any) -> Iterator[Any]:
    context = chromium.new_context(locale="en-US", viewport={"width": 1280, "height": 900})
    context.set_default_timeout(20_000)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.errors = errors
    yield page
    context.close()


def _until(predicate: Any, what: str, seconds: float = 40) -> Any:
    deadline = time.monotonic() + seconds
    while not (value := predicate()):
        assert time.monotonic() < deadline, what
        time.sleep(0.3)
    return value


def _revealed_round(server: Any) -> tuple[int, str]:
    """A settled round of the table and its shoe's commitment as published while it was played, its
    shoe since ended (the seed revealed)."""
    detail = _until(lambda: (d := server.get(f"/api/tables/{TABLE}"))["round"] and d, "no round")
    published, round_id = detail["shoe"]["commitment"], int(detail["round"]["id"])
    _until(lambda: server.get(f"/api/rounds/{round_id}")["status"] in ("settled", "voided"), "round not over")
    headers = {"Authorization": f"Bearer {server.admin_token()}"}
    assert httpx.post(f"{server.url}/api/admin/tables/{TABLE}/change-shoe", headers=headers).status_code == 200
    _until(lambda: server.get(f"/api/rounds/{round_id}")["proof"]["server_seed"], "the shoe did not end")
    return round_id, published


def test_the_page_checks_the_round_against_the_published_commitment(page: Any, server: Any) -> None:
    round_id, published = _revealed_round(server)
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
