"""The table as a live dealer runs it: 請下注 / 停止下注 and the last five seconds called on the felt
(and heard once the player turns the sound on, a choice that survives a reload); tapping 問路 makes
the next mark blink on every road, where the server's roads would put it; the good roads the big road
ends with shown at the table; and on a phone (390×844) the countdown, a Big Road strip, the Player /
Tie / Banker spots and the chip tray with Confirm all on the first screen. No console errors."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from tests.web.conftest import Pit, freeze_at_seconds_left, hold_countdowns, new_context, open_in_page, watched_page

pytestmark = pytest.mark.browser

TABLE = "web-macau"
ROADS = ["bead_plate", "big_road", "big_eye_boy", "small_road", "cockroach_pig"]
#: Counts the tones the page's Web Audio starts.
AUDIO_SPY = """
(() => {
  window.__tones = 0;
  const Real = window.AudioContext;
  if (!Real) return;
  window.AudioContext = class extends Real {
    createOscillator() { const o = super.createOscillator(); const start = o.start.bind(o); o.start = (...a) => { window.__tones += 1; start(...a); }; return o; }
  };
})();
"""


#: How long a tap on 問路 makes the marks blink (js/views/table/roads.js ASK_MS).
ASK_MS = 3500


@pytest.fixture
def page(chromium: Any) -> Iterator[Any]:
    """A page in Traditional Chinese whose clock is Playwright's (it runs as the real one until a test
    moves it) and whose sockets go through the gate."""
    context = new_context(chromium, gate=True, locale="zh-TW", viewport={"width": 1280, "height": 900})
    context.add_init_script(AUDIO_SPY)
    context.clock.install()
    page = watched_page(context)
    yield page
    context.close()


def _open(page: Any, server: Any) -> None:
    page.goto(f"{server.url}/#/table/{TABLE}")
    page.wait_for_selector("[data-testid=spot-banker]")
    page.wait_for_selector("#conn[data-state=open]")


def _results(server: Any) -> str:
    return str(server.get(f"/api/tables/{TABLE}")["roads"]["results"])


def _at_least(server: Any, pit: Pit, coups: int) -> None:
    """Play rounds until the table's roads hold at least this many results (of the shoe in play)."""
    while len(_results(server)) < coups:
        pit.play(TABLE)


#: Writes down in ``window.__cuesShown`` each cue the felt shows from now on.
CUES_SHOWN = """() => {
  window.__cuesShown = [];
  const box = document.querySelector("[data-testid=cue]");
  new MutationObserver(() => {
    if (box.dataset.cue) window.__cuesShown.push(box.dataset.cue);
  }).observe(box, { attributes: true, attributeFilter: ["data-cue"] });
}"""


def test_the_dealers_calls_are_shown_and_heard_once_the_sound_is_on(page: Any, server: Any, pit: Pit) -> None:
    _open(page, server)
    toggle = page.locator("[data-testid=sound]")
    assert toggle.get_attribute("aria-pressed") == "false"  # off until the player turns it on
    # every cue the felt shows, written down as it is shown (a cue stays a few seconds only: on a busy
    # machine the page may take longer than that to be looked at)
    page.evaluate(CUES_SHOWN)
    open_in_page(pit, TABLE, page)
    page.wait_for_function("() => window.__cuesShown.includes('open')")
    assert page.evaluate("() => window.__tones") == 0
    toggle.click()
    assert toggle.get_attribute("aria-pressed") == "true"
    assert page.evaluate("() => localStorage.getItem('baccarat.sound')") == "on"
    # the last seconds, on the page's own clock: paused a little before them, then moved into them
    hold_countdowns(page)
    freeze_at_seconds_left(page, "[data-testid=countdown]", 6.5)
    page.clock.run_for(2000)
    page.wait_for_selector("[data-testid=cue][data-cue=second]")
    assert page.inner_text("[data-testid=cue]").strip() in {"1", "2", "3", "4", "5"}
    page.wait_for_selector("#phase-row.urgent, .phase-row.urgent", state="attached")
    pit.close(TABLE)  # betting closes, as the page's countdown said
    page.wait_for_selector("[data-testid=cue][data-cue=closed]")
    assert "停止下注" in page.inner_text("[data-testid=cue]")
    assert page.evaluate("() => window.__tones") > 0
    page.clock.resume()
    page.reload()
    page.wait_for_selector("[data-testid=sound][aria-pressed=true]")  # remembered
    for lang, words in (("zh-Hans", "声音开"), ("en", "Sound on"), ("zh-Hant", "聲音開")):
        page.select_option("[data-testid=lang]", lang)
        assert page.inner_text("[data-testid=sound]") == words, lang
    assert page.errors == [], page.errors


def test_asking_the_road_blinks_the_next_mark_where_the_server_puts_it(
    page: Any, server: Any, pit: Pit, artifacts: Path
) -> None:
    pit.finish(TABLE)
    _at_least(server, pit, 2)
    _open(page, server)
    page.wait_for_function("() => (document.querySelector('#roads')?.dataset.results || '').length >= 2")
    for side in ("banker", "player"):
        roads = server.get(f"/api/tables/{TABLE}")["roads"]
        page.click(f"[data-testid=ask-{side}]")
        page.wait_for_selector(f"#roads[data-asking={side}]")
        if page.get_attribute("#roads", "data-results") != roads["results"]:
            continue  # a round settled meanwhile: the roads the page shows are newer
        expected = {road for road in ROADS if roads["ask_at"][side][road] is not None}
        blinking = set(
            page.evaluate(
                "() => [...document.querySelectorAll('#roads figure[data-road]')].filter((f) => f.querySelector('g.asked')).map((f) => f.dataset.road)"
            )
        )
        assert blinking == expected, side
        mark = "B" if side == "banker" else "P"
        assert page.get_attribute("figure[data-road=big_road] g.asked", "data-asked") == mark
        for road in {"big_eye_boy", "small_road", "cockroach_pig"} & expected:
            assert page.get_attribute(f"figure[data-road={road}] g.asked", "data-asked") == roads["ask"][side][road]
        page.locator("#roads").screenshot(path=str(artifacts / f"table-ask-{side}.png"))
    page.clock.run_for(ASK_MS)  # the blinking stops by itself, a moment later on the page's clock
    page.wait_for_selector("#roads:not([data-asking])")
    assert page.query_selector("#roads g.asked") is None
    assert page.errors == [], page.errors


def test_the_good_roads_the_big_road_ends_with_are_shown_at_the_table(page: Any, server: Any, pit: Pit) -> None:
    pit.finish(TABLE)
    _at_least(server, pit, 1)
    _open(page, server)
    page.wait_for_function("() => (document.querySelector('#roads')?.dataset.results || '').length >= 1")
    for _ in range(5):
        table = server.get(f"/api/tables/{TABLE}")
        shown = page.get_attribute("[data-testid=table-alerts]", "data-patterns")
        if page.get_attribute("#roads", "data-results") == table["roads"]["results"]:
            break
    last = len(table["roads"]["big_road"]["columns"]) - 1
    expected = [
        run["pattern"]
        for run in sorted(table["stats"]["patterns"], key=lambda run: -run["coups"])
        if run["first_column"] + run["columns"] - 1 == last
    ]
    assert (shown or "").split() == expected
    assert page.errors == [], page.errors


@pytest.mark.parametrize("language", ["zh-Hant", "zh-Hans", "en"])
def test_on_a_phone_the_first_screen_holds_the_countdown_a_big_road_the_spots_and_the_chips(
    chromium: Any, server: Any, pit: Pit, artifacts: Path, language: str
) -> None:
    pit.betting(TABLE)  # while betting is open (between rounds the countdown is empty)
    context = new_context(
        chromium,
        locale={"zh-Hant": "zh-TW", "zh-Hans": "zh-CN", "en": "en-US"}[language],
        viewport={"width": 390, "height": 844},
        is_mobile=True,
        has_touch=True,
    )
    page = context.new_page()
    try:
        _open(page, server)
        page.wait_for_selector("[data-testid=road-strip] svg")
        page.wait_for_function("() => Number(document.querySelector('[data-testid=countdown]')?.dataset.seconds) >= 2")
        needed = ["countdown", "road-strip", "spot-player", "spot-tie", "spot-banker", "chip-100", "confirm"]
        # measured at one instant (the spots are drawn again as bets come in)
        boxes = page.evaluate(
            """(names) => Object.fromEntries(names.map((name) => {
              const el = document.querySelector(`[data-testid=${name}]`);
              const r = el && el.getBoundingClientRect();
              return [name, r && r.width > 0 ? { x: r.x, y: r.y, width: r.width, height: r.height } : null];
            }))""",
            needed,
        )
        page.screenshot(path=str(artifacts / f"table-phone-first-screen-{language}.png"))
        for name, box in boxes.items():
            assert box is not None and box["width"] > 0, name
            assert box["y"] >= 0 and box["y"] + box["height"] <= 844, f"{name} is below the first screen: {box}"
        assert page.evaluate("() => document.documentElement.scrollWidth") <= 391
    finally:
        context.close()
