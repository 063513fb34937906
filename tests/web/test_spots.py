"""The bet spots as on a felt: each spot's limits; a bet of several levels (the no-commission Banker,
the Dragon Bonus) shows its best payout, every level on a tap of ⓘ or a hover; confirmed bets as chip
stacks; and once the round settles, this player's chips paid (a win) or collected (a loss), as the
server settled them. No console errors."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from tests.web.conftest import Pit, new_context, open_in_page, watched_page

pytestmark = pytest.mark.browser

TABLE = "web-nocomm"
#: Records each settled stack the page showed: its round, the bet, paid or collected, the amount.
STACKS_RECORDER = """
(() => {
  window.__stacks = [];
  new MutationObserver(() => {
    const round = document.getElementById("result")?.dataset.round;
    for (const el of document.querySelectorAll(".stack.settled")) {
      const bet = el.closest("[data-bet]").dataset.bet;
      const kind = el.classList.contains("paid") ? "paid" : el.classList.contains("push") ? "push" : "collected";
      const amount = Number(el.dataset.returned ?? el.dataset.collected);
      const seen = `${round}|${bet}|${kind}|${amount}`;
      if (!window.__stacks.includes(seen)) window.__stacks.push(seen);
    }
  }).observe(document, { childList: true, subtree: true });
})();
"""


@pytest.fixture
def player(chromium: Any, server: Any) -> Iterator[tuple[Any, str]]:
    """A page (Traditional Chinese) of a freshly registered player that records its settled stacks."""
    _, token = server.register("sp")
    context = new_context(chromium, token=token, locale="zh-TW", viewport={"width": 1280, "height": 900})
    context.add_init_script(STACKS_RECORDER)
    page = watched_page(context)
    yield page, token
    context.close()


def _money(minor: int) -> str:
    return f"{minor / 100:,.2f}"


def test_spots_show_limits_and_every_payout_level_on_demand(player: Any, server: Any, artifacts: Path) -> None:
    page, _ = player
    page.goto(f"{server.url}/#/table/{TABLE}")
    page.wait_for_selector("[data-testid=spot-banker]")
    menu = server.get(f"/api/tables/{TABLE}")["bets"]
    for entry in menu:
        limits = page.inner_text(f"[data-testid=limits-{entry['bet']}]")
        assert limits == f"{_money(entry['min'])}–{_money(entry['max'])}", entry["bet"]
    levels = [e for e in menu if len(e["pays"]) > 1]
    assert {e["bet"] for e in levels} >= {"banker", "player_dragon_bonus"}
    for entry in levels:
        best = max(float(level["pays"]) for level in entry["pays"])
        assert page.inner_text(f"[data-testid=spot-{entry['bet']}] .spot-pays") == f"最高 {best:g}:1"
    dragon = next(e for e in levels if e["bet"] == "player_dragon_bonus")
    table = page.locator("#pays-player_dragon_bonus")
    page.mouse.move(0, 0)
    assert not table.is_visible()
    page.click("[data-testid=pays-player_dragon_bonus]")  # a tap shows every level
    assert table.is_visible()
    assert page.get_attribute("[data-testid=pays-player_dragon_bonus]", "aria-expanded") == "true"
    rows = table.locator("dd").all_inner_texts()
    assert rows == [f"{level['pays']}:1" for level in dragon["pays"]]
    assert "天牌" in table.inner_text()
    page.screenshot(path=str(artifacts / "spots-paytable-zh-Hant.png"))
    page.select_option("[data-testid=lang]", "en")  # stays open through a redraw, in the new language
    assert table.is_visible() and "natural" in table.inner_text().lower()
    page.click("[data-testid=pays-player_dragon_bonus]")
    page.mouse.move(0, 0)  # (while the pointer is on the spot, the hover shows it)
    assert not table.is_visible()
    page.hover("[data-testid=spot-banker_dragon_bonus]")  # or a hover
    assert page.locator("#pays-banker_dragon_bonus").is_visible()
    assert page.errors == []


def test_chips_are_stacked_then_paid_or_collected(player: Any, server: Any, pit: Pit, artifacts: Path) -> None:
    page, token = player
    page.goto(f"{server.url}/#/table/{TABLE}")
    page.wait_for_selector("#conn[data-state=open]")
    page.click("#stand")
    page.wait_for_selector("#buy-in-dialog[open]")
    page.click("#buy-in-confirm")
    page.wait_for_selector("#seat-status[data-seat=standing]")
    round_id = open_in_page(pit, TABLE, page)
    page.click("[data-testid=chip-1000]")
    page.click("[data-testid=spot-banker]")
    page.click("[data-testid=chip-500]")
    page.click("[data-testid=spot-player]")
    page.click("[data-testid=spot-player]")
    page.click("[data-testid=confirm]")
    page.wait_for_selector("[data-testid=spot-player] .stack.confirmed[data-confirmed='1000']")
    discs = page.eval_on_selector_all(
        "[data-testid=spot-player] .stack.confirmed .disc", "ds => ds.map(d => d.className)"
    )
    assert discs == ["disc chip-1000"]
    page.screenshot(path=str(artifacts / "spots-stacks-zh-Hant.png"))
    assert int(server.get(f"/api/tables/{TABLE}")["round"]["id"]) == round_id
    pit.close(TABLE)
    rnd = pit.settled(round_id)
    assert rnd["status"] == "settled"
    history = server.get("/api/me/history?limit=5", token)["rounds"]
    mine = next(r for r in history if r["round_id"] == round_id)
    expected = set()
    for bet in mine["bets"]:
        returned = int(bet["returned"] or 0)
        kind = "paid" if returned > bet["stake"] else "push" if returned else "collected"
        expected.add(f"{round_id}|{bet['bet']}|{kind}|{returned or bet['stake']}")
    page.wait_for_function("(want) => want.every((w) => window.__stacks.includes(w))", arg=sorted(expected))
    assert rnd["result"]["winner"] in ("banker", "player", "tie")
    page.screenshot(path=str(artifacts / "spots-settled-zh-Hant.png"))
    assert page.errors == []
