"""The road display board (#/display/ID) in the browser, without logging in: the last result with its
cards as the server settled it, on screen within a second of the ``round_settled`` and kept there while
the next round's betting counts down; the roads grown by it; the limits of the table's bet menu; the
three languages; landscape 1920×1080 and portrait 1080×1920 with nothing overlapping and no scrolling;
the board following the table again after its socket drops. No console errors."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from tests.web.conftest import Pit, new_context, watched_page

pytestmark = pytest.mark.browser

TABLE = "web-macau"
#: The longest the board waits before it tries to connect again (js/socket.js MAX_DELAY_MS).
MAX_RECONNECT_MS = 8000
LETTER = {"banker": "B", "player": "P", "tie": "T"}
# the two longest alerts the board may show at once (a dragon with a long mixed pattern cannot both end the
# big road; this is the box's capacity)
TWO_ALERTS = ["Two Banker, one Player · 12 hands", "Banker dragon · 12 in a row"]
SECTIONS = [
    "board-big-road",
    "board-bead-plate",
    "board-big-eye-boy",
    "board-small-road",
    "board-cockroach-pig",
    "board-last-result",
    "board-stats",
    "board-alerts",
    "board-limits",
]

# Records, for every round_settled the page's sockets receive, when it came and what the board showed
# just before the board took it (this listener runs before the page's own); when the board first
# showed each round as its last result, and the cards it showed of each round while it was dealt. Keeps the sockets so that a test can close them.
RECORDER = """
(() => {
  const Real = window.WebSocket;
  window.__sockets = [];
  window.__settled = {};
  window.__shown = {};
  window.WebSocket = class extends Real {
    constructor(url, protocols) {
      super(url, protocols);
      window.__sockets.push(this);
      this.addEventListener("message", (event) => {
        let m;
        try { m = JSON.parse(event.data); } catch { return; }
        if (m.type !== "round_settled") return;
        const bead = document.querySelector("[data-testid=board-bead-plate]");
        const big = document.querySelector("[data-testid=board-big-road]");
        window.__settled[m.round_id] = {
          at: performance.now(), results: m.roads.results, socket: window.__sockets.length, stats: m.stats,
          beforeResults: bead ? bead.dataset.results || "" : "", beforeRings: big ? Number(big.dataset.rings || 0) : 0,
        };
      });
    }
  };
  window.__live = {};
  new MutationObserver(() => {
    const box = document.querySelector("[data-testid=board-last-result]");
    const round = box && box.dataset.round;
    if (round && !(round in window.__shown)) window.__shown[round] = performance.now();
    if (box && box.dataset.live) window.__live[box.dataset.live] = box.dataset.cards;
  }).observe(document, { childList: true, subtree: true, attributes: true, attributeFilter: ["data-round", "data-live", "data-cards"] });
})();
"""


@pytest.fixture
def board(chromium: Any, server: Any) -> Iterator[Any]:
    """A page at 1920×1080 in Traditional Chinese, not logged in, that records console errors."""
    context = new_context(chromium, locale="zh-TW", viewport={"width": 1920, "height": 1080})
    context.add_init_script(RECORDER)
    page = watched_page(context)
    yield page
    context.close()


def _open(page: Any, server: Any, suffix: str = "") -> None:
    page.goto(f"{server.url}/#/display/{TABLE}{suffix}")
    page.wait_for_selector("[data-testid=board][data-conn=open]")
    page.wait_for_selector("[data-testid=board-bead-plate][data-coups]")


def _play_while_watching(page: Any, pit: Pit) -> str:
    """Play a round of the table while the board watches; its id, once the board's socket has had
    its round_settled."""
    round_id = str(pit.open(TABLE))
    pit.close(TABLE)
    page.wait_for_function("(id) => id in window.__settled", arg=round_id)
    return round_id


#: Whether every road is drawn within its box (as the board draws them for the size of the screen).
ROADS_FIT = """() => [...document.querySelectorAll('.board-road-box > svg')].every((el) => {
  const r = el.getBoundingClientRect(); const box = el.parentElement.getBoundingClientRect();
  return r.right <= box.right + 1 && r.bottom <= box.bottom + 1;
})"""


def _shown_round(page: Any) -> dict[str, Any]:
    """The last result as the board shows it."""
    return dict(
        page.evaluate(
            """() => {
              const box = document.querySelector('[data-testid=board-last-result]');
              const hand = (side) => box.querySelector(`.board-hand[data-side=${side}]`);
              const cards = (side) => [...hand(side).querySelectorAll('.card')].map((c) => c.dataset.card);
              return {
                round: box.dataset.round, winner: box.dataset.winner,
                winnerText: box.querySelector('[data-testid=board-winner]').textContent,
                player: cards('player'), banker: cards('banker'),
                playerTotal: Number(hand('player').dataset.total), bankerTotal: Number(hand('banker').dataset.total),
                playerPoints: hand('player').querySelector('.board-points').textContent,
              };
            }"""
        )
    )


def _layout_problems(page: Any, alerts: list[str] | None = None) -> list[str]:
    """Sections that overlap each other, leave the screen, or are empty, texts cut off, and any scrolling;
    with `alerts`, once the board is made to hold the most it may show: these alerts (in place of what
    the alerts box shows) and three cards in each hand."""
    return list(
        page.evaluate(
            """([ids, alerts]) => {
              const problems = [];
              if (alerts) {
                const box = document.querySelector('[data-testid=board-alerts]');
                box.querySelector('ul, .board-empty').replaceWith(Object.assign(document.createElement('ul'), { className: 'board-alert-list' }));
                for (const text of alerts) box.querySelector('ul').append(Object.assign(document.createElement('li'), { className: 'board-alert banker', textContent: text }));
                for (const hand of document.querySelectorAll('.board-cards')) {  // and three cards in each hand
                  while (hand.children.length < 3) hand.append(hand.firstElementChild.cloneNode(true));
                }
                const title = document.querySelector('[data-testid=board-last-result] .board-section-title');
                if (title) {  // and every badge a result may carry: natural and both pairs
                  title.querySelector('.board-badges')?.remove();
                  const badges = Object.assign(document.createElement('span'), { className: 'board-badges' });
                  for (const text of ['Natural', 'Banker pair', 'Player pair']) badges.append(Object.assign(document.createElement('span'), { className: 'board-badge', textContent: text }));
                  title.firstElementChild.textContent = 'Last hand · Round 888';
                  title.append(badges);
                }
              }
              const doc = document.documentElement;
              if (doc.scrollWidth > doc.clientWidth) problems.push(`horizontal scroll ${doc.scrollWidth} > ${doc.clientWidth}`);
              if (doc.scrollHeight > doc.clientHeight) problems.push(`vertical scroll ${doc.scrollHeight} > ${doc.clientHeight}`);
              const boxes = ids.map((id) => [id, document.querySelector(`[data-testid=${id}]`).getBoundingClientRect()]);
              boxes.push(['head', document.querySelector('.board-head').getBoundingClientRect()]);
              for (const [id, r] of boxes) {
                if (r.width < 100 || r.height < 60) problems.push(`${id} too small ${r.width}x${r.height}`);
                if (r.left < 0 || r.top < 0 || r.right > innerWidth + 0.5 || r.bottom > innerHeight + 0.5) problems.push(`${id} off screen`);
                const el = id === 'head' ? document.querySelector('.board-head') : document.querySelector(`[data-testid=${id}]`);
                if (!el.textContent.trim()) problems.push(`${id} empty`);
              }
              for (let i = 0; i < boxes.length; i += 1) for (let j = i + 1; j < boxes.length; j += 1) {
                const [a, p] = boxes[i]; const [b, q] = boxes[j];
                if (p.left < q.right - 1 && q.left < p.right - 1 && p.top < q.bottom - 1 && q.top < p.bottom - 1) problems.push(`${a} overlaps ${b}`);
              }
              for (const el of document.querySelectorAll('.board-road-box > svg')) {
                const r = el.getBoundingClientRect(); const box = el.parentElement.getBoundingClientRect();
                if (r.right > box.right + 1 || r.bottom > box.bottom + 1) problems.push(`a road spills out of its box`);
              }
              for (const el of document.querySelectorAll('.board-limit, .board-stat, .board-hand, .board-alert, .board-section-title')) {
                const r = el.getBoundingClientRect(); const box = el.closest('section').getBoundingClientRect();
                if (r.bottom > box.bottom + 1 || r.right > box.right + 1) problems.push(`${el.className} cut off`);
              }
              return problems;
            }""",
            [SECTIONS, alerts],
        )
    )


def _expected_limit(minor: int) -> str:
    return f"{minor / 100:,.2f}".removesuffix(".00")


def test_the_board_shows_each_result_as_it_settles(board: Any, server: Any, pit: Pit, artifacts: Path) -> None:
    page = board
    _open(page, server)
    assert not page.is_visible("header.top"), "the site's header is hidden on the board"
    round_id = _play_while_watching(page, pit)
    page.wait_for_selector(f"[data-testid=board-last-result][data-round='{round_id}']")
    timing = page.evaluate(f"() => [window.__settled['{round_id}'].at, window.__shown['{round_id}']]")
    assert timing[1] - timing[0] < 1000, (
        f"the board showed the result {timing[1] - timing[0]:.0f} ms after round_settled"
    )

    # the result as the server has it
    server_round = server.get(f"/api/rounds/{round_id}")
    result = server_round["result"]
    shown = _shown_round(page)
    assert shown["winner"] == result["winner"]
    assert shown["player"] == result["player"]["cards"]
    assert shown["banker"] == result["banker"]["cards"]
    assert (shown["playerTotal"], shown["bankerTotal"]) == (result["player"]["total"], result["banker"]["total"])
    assert shown["playerPoints"] == str(result["player"]["total"])
    assert shown["winnerText"] == {"banker": "莊贏", "player": "閒贏", "tie": "和局"}[result["winner"]]

    # while it was dealt, the board showed its cards as they came out
    live = page.evaluate(f"() => window.__live['{round_id}']")
    assert live, "the coup's cards were shown as they were dealt"
    assert result["cards"][: len(live.split())] == live.split()

    # the roads grew by it: the bead plate ends with it, the big road has one more ring (a tie: a slash)
    record = page.evaluate(f"() => window.__settled['{round_id}']")
    letter = LETTER[result["winner"]]
    bead = page.locator("[data-testid=board-bead-plate]")
    big = page.locator("[data-testid=board-big-road]")
    results = bead.get_attribute("data-results")
    assert results == record["results"]
    assert big.get_attribute("data-results") == record["results"]
    new_shoe = results == letter and record["beforeResults"] not in ("", letter)
    if not new_shoe:
        assert results == record["beforeResults"] + letter
        rings = int(big.get_attribute("data-rings") or 0)
        assert rings == record["beforeRings"] + (0 if letter == "T" else 1)
    beads = bead.locator("circle.bead")
    assert beads.count() >= 1
    assert f"bead-{letter}" in (beads.last.get_attribute("class") or "")
    if results.strip("T"):
        assert big.locator("circle.ring").count() >= 1
    else:  # only ties so far in this shoe: the big road shows them before its first ring
        assert big.locator("line.leading-tie").count() == 1

    # the next round's betting counts down with this result still on the board
    pit.open(TABLE)
    page.wait_for_function(
        "() => document.querySelector('[data-testid=board-phase]').dataset.status === 'betting'"
        " && Number(document.querySelector('[data-testid=board-countdown]').dataset.seconds) >= 1"
    )
    assert page.get_attribute("[data-testid=board-last-result]", "data-round") == round_id
    table = server.get(f"/api/tables/{TABLE}")
    shoe = int(page.get_attribute("[data-testid=board-shoe]", "data-shoe") or 0)
    assert shoe in (table["shoe"]["number"], table["shoe"]["number"] - 1)  # a new shoe may have started since
    assert f"第 {shoe} 靴" in (page.text_content("[data-testid=board-shoe]") or "")

    # the limits of each bet, as the table's menu has them
    rows = page.locator("[data-testid=board-limits] li[data-bet]")
    assert rows.count() == len(table["bets"])
    for i, bet in enumerate(table["bets"]):
        row = rows.nth(i)
        assert row.get_attribute("data-bet") == bet["bet"]
        assert (int(row.get_attribute("data-min") or -1), int(row.get_attribute("data-max") or -1)) == (
            bet["min"],
            bet["max"],
        )
        assert (
            row.locator(".board-limit-range").text_content()
            == f"{_expected_limit(bet['min'])} – {_expected_limit(bet['max'])}"
        )
        assert row.locator(".board-limit-name").text_content() == bet["chinese"]

    # the counts are the server's statistics of the shoe with this round (unless the next one settled since)
    if page.get_attribute("[data-testid=board-bead-plate]", "data-results") == record["results"]:
        stats = record["stats"]
        counts = page.evaluate(
            """() => Object.fromEntries([...document.querySelectorAll('[data-testid=board-stats] .board-stat')]
                 .map((el) => [el.dataset.stat, Number(el.querySelector('.board-stat-n').textContent)]))"""
        )
        assert (
            counts["banker"] == stats["banker"]
            and counts["player"] == stats["player"]
            and counts["tie"] == stats["tie"]
        )
        assert counts["banker-pair"] == stats["banker_pairs"] and counts["naturals"] == stats["naturals"]
        assert counts["longest-banker"] == stats["longest_banker_streak"]
        assert page.get_attribute("[data-testid=board-stats]", "data-coups") == str(len(record["results"]))

    assert _layout_problems(page) == []
    page.screenshot(path=str(artifacts / "display-board-landscape-zh-Hant.png"))
    assert page.errors == []


def test_the_board_in_three_languages_and_both_orientations(board: Any, server: Any, pit: Pit, artifacts: Path) -> None:
    page = board
    pit.play(TABLE)  # a last result to show
    _open(page, server)
    page.wait_for_selector("[data-testid=board-last-result][data-round]:not([data-round=''])")
    assert page.title().startswith("路單顯示屏")
    assert page.text_content("[data-testid=board-big-road] figcaption") == "大路"

    page.click("[data-testid=board-lang-en]")
    page.wait_for_function("() => document.documentElement.lang === 'en'")
    assert page.text_content("[data-testid=board-big-road] figcaption") == "Big Road"
    assert page.text_content("[data-testid=board-bead-plate] figcaption") == "Bead Plate"
    assert page.text_content("[data-testid=board-cockroach-pig] figcaption") == "Cockroach Pig"
    assert page.text_content("[data-testid=board-limits] h2") == "Bet limits"
    assert page.text_content("[data-testid=board-limits] li[data-bet=banker] .board-limit-name") == "Banker"
    winner = page.get_attribute("[data-testid=board-last-result]", "data-winner")
    assert (
        page.text_content("[data-testid=board-winner]")
        == {"banker": "Banker wins", "player": "Player wins", "tie": "Tie"}[winner or ""]
    )
    assert page.title().startswith("Road display board")
    assert page.get_attribute("[data-testid=board-lang-en]", "aria-pressed") == "true"
    assert _layout_problems(page) == []
    page.screenshot(path=str(artifacts / "display-board-landscape-en.png"))
    assert _layout_problems(page, alerts=TWO_ALERTS) == [], "the board holds the two longest alerts and six cards"

    page.click("[data-testid=board-lang-zh-Hans]")
    page.wait_for_function("() => document.documentElement.lang === 'zh-Hans'")
    assert page.text_content("[data-testid=board-bead-plate] figcaption") == "珠盘路"
    assert page.text_content("[data-testid=board-cockroach-pig] figcaption") == "曱甴路"
    assert page.text_content("[data-testid=board-limits] h2") == "各注限红"
    assert page.text_content("[data-testid=board-limits] li[data-bet=player] .board-limit-name") == "闲"
    assert page.text_content("[data-testid=board-stats] h2").startswith("本靴统计")

    page.set_viewport_size({"width": 1080, "height": 1920})
    page.wait_for_selector("[data-testid=board][data-orientation=portrait]")
    page.wait_for_function(ROADS_FIT)  # the roads are drawn again for their new boxes
    assert page.evaluate("() => document.documentElement.scrollWidth <= document.documentElement.clientWidth")
    assert _layout_problems(page) == []
    big = page.locator("[data-testid=board-big-road]").bounding_box()
    assert big is not None and big["width"] > 1000, "the big road spans the portrait screen"
    page.screenshot(path=str(artifacts / "display-board-portrait-zh-Hans.png"))
    assert _layout_problems(page, alerts=TWO_ALERTS) == []

    # the address may choose the language
    page.evaluate("() => localStorage.removeItem('baccarat.lang')")
    _open(page, server, "?lang=en")
    page.wait_for_function("() => document.documentElement.lang === 'en'")
    assert page.text_content("[data-testid=board-big-road] figcaption") == "Big Road"
    page.click("[data-testid=board-lang-zh-Hant]")  # leave the stored choice as the other tests expect it
    page.wait_for_function("() => document.documentElement.lang === 'zh-Hant'")
    assert page.errors == []


def test_the_board_shows_the_last_hand_on_arrival(board: Any, server: Any, pit: Pit) -> None:
    """Opened while betting is open, the board shows the table's last hand (cards and all) before any
    round settles: from the rounds just below the current one (GET /api/rounds/{id})."""
    page = board
    pit.play(TABLE)  # a last hand
    pit.open(TABLE)  # and a round betting (until the pit closes it) while the page opens
    table = server.get(f"/api/tables/{TABLE}")
    round_ = table["round"]
    assert round_ and round_["status"] == "betting" and table["roads"]["results"]
    _open(page, server)
    page.wait_for_selector("[data-testid=board-last-result][data-round]:not([data-round=''])")
    shown_id = page.get_attribute("[data-testid=board-last-result]", "data-round")
    assert page.evaluate("() => Object.keys(window.__settled)") == [], "shown before any round settled"
    # the newest settled round of this table below the current one
    assert shown_id is not None and int(shown_id) < round_["id"]
    for later in range(int(shown_id) + 1, round_["id"]):
        other = server.get(f"/api/rounds/{later}")
        assert other["table"] != TABLE or other["status"] != "settled", f"round {later} is newer"
    result = server.get(f"/api/rounds/{shown_id}")["result"]
    shown = _shown_round(page)
    assert (shown["winner"], shown["player"], shown["banker"]) == (
        result["winner"],
        result["player"]["cards"],
        result["banker"]["cards"],
    )
    assert page.errors == []


def test_the_board_follows_the_table_after_its_socket_drops(board: Any, server: Any, pit: Pit) -> None:
    page = board
    page.context.clock.install()
    _open(page, server)
    sockets = page.evaluate("() => window.__sockets.length")
    page.evaluate("() => { for (const ws of window.__sockets) ws.close(); }")
    page.wait_for_selector("[data-testid=board][data-conn=closed]")
    page.clock.fast_forward(MAX_RECONNECT_MS)  # the board's next try comes now, not after its wait
    page.wait_for_selector("[data-testid=board][data-conn=open]")
    assert page.evaluate("() => window.__sockets.length") > sockets

    # a round settled over the new socket shows on the board
    round_id = _play_while_watching(page, pit)
    assert page.evaluate(f"() => window.__settled['{round_id}'].socket") > sockets
    page.wait_for_selector(f"[data-testid=board-last-result][data-round='{round_id}']")
    result = server.get(f"/api/rounds/{round_id}")["result"]
    shown = _shown_round(page)
    assert (shown["winner"], shown["player"], shown["banker"]) == (
        result["winner"],
        result["player"]["cards"],
        result["banker"]["cards"],
    )
    record = page.evaluate(f"() => window.__settled['{round_id}']")
    assert page.get_attribute("[data-testid=board-bead-plate]", "data-results") == record["results"]
    assert page.errors == []


def test_a_table_the_server_does_not_have(board: Any, server: Any) -> None:
    page = board
    page.goto(f"{server.url}/#/display/no-such-table")
    page.wait_for_selector("[data-testid=board-notice]:not([hidden])")
    assert "no-such-table" in (page.text_content("[data-testid=board-notice]") or "")
    # leaving the board gives the page its header back
    page.goto(f"{server.url}/#/")
    page.wait_for_selector("header.top", state="visible")
    assert not page.evaluate("() => document.body.classList.contains('board-mode')")
