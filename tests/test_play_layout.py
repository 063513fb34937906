"""The game's screen at the sizes people play at, through Textual's pilot: what must always be visible
(cards, stakes, balance, the keys), the keys doing the same thing at every size, the roads filling the
room they have, a window too small for the table, going broke and the help's key names.

Each size's screen is saved in ``test-artifacts/`` as SVG and as plain text (``play-80x24.svg``, ``.txt``).
"""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from rich.console import Console
from textual.widgets import DataTable, Static

from baccarat.bets import BetKind
from baccarat.play.app import MIN_SIZE, HelpScreen, PlayApp, layout_for
from baccarat.play.money import format_money
from baccarat.play.session import GameSession

ARTIFACTS = Path(__file__).resolve().parent.parent / "test-artifacts"
SIZES = [(80, 24), (120, 40), (200, 50)]
BAR = ["b Banker", "p Player", "t Tie", "d/Space Deal", "u Undo", "r Rebet", "c Clear", "−/+ Chip", "? Help", "q Quit"]


def screen_text(app: PlayApp) -> str:
    """The screen as the player sees it, one line of text per row."""
    strips = app.screen._compositor.render_strips()
    return "\n".join(strip.text.rstrip() for strip in strips)


def new_app(**kwargs: object) -> PlayApp:
    return PlayApp(GameSession(seed="21", **kwargs), reveal_delay=0)  # type: ignore[arg-type]


def _spot(screen: str, label: str) -> list[str]:
    """What follows a bet spot's label on its row of the screen."""
    line = next(line for line in screen.splitlines() if label in line)
    return line.split(label, 1)[1].split()


@pytest.mark.asyncio
@pytest.mark.parametrize("size", SIZES, ids=lambda size: f"{size[0]}x{size[1]}")
async def test_cards_stakes_balance_and_keys_are_on_screen(size: tuple[int, int]) -> None:
    app = new_app()
    async with app.run_test(size=size) as pilot:
        await pilot.press("b", "t", "d")  # 100 on Banker and on Tie, dealt
        await pilot.pause()
        await pilot.press("p", "p")  # 200 on Player for the next coup
        await pilot.pause()
        screen = screen_text(app)
        ARTIFACTS.mkdir(exist_ok=True)
        name = f"play-{size[0]}x{size[1]}"
        app.save_screenshot(f"{name}.svg", path=str(ARTIFACTS))
        (ARTIFACTS / f"{name}.txt").write_text(screen + "\n", encoding="utf-8")
    record = app.session.history[-1]
    lines = screen.splitlines()
    assert len(lines) == size[1] and max(len(line) for line in lines) <= size[0]
    for card in (*record.result.player.cards, *record.result.banker.cards):
        assert card.pretty in screen
    assert _spot(screen, "p  Player 閒")[:2] == ["1", "200"]  # its payout, then the stake on it
    assert f"Balance {format_money(app.session.balance)}" in screen
    assert "Big Road" in screen and "Banker wins" in screen
    for key in BAR:
        assert key in screen, key


@pytest.mark.asyncio
@pytest.mark.parametrize("size", SIZES, ids=lambda size: f"{size[0]}x{size[1]}")
async def test_every_key_means_the_same_at_every_size(size: tuple[int, int]) -> None:
    app = new_app()
    async with app.run_test(size=size) as pilot:
        session = app.session
        await pilot.press("b", "p", "t")
        assert session.bets == {BetKind.BANKER: 10_000, BetKind.PLAYER: 10_000, BetKind.TIE: 10_000}
        await pilot.press("u")
        assert session.bets == {BetKind.BANKER: 10_000, BetKind.PLAYER: 10_000}
        await pilot.press("c")
        assert session.bets == {}
        await pilot.press("minus")
        assert session.chip == 5_000
        await pilot.press("plus", "b", "d")
        assert [(s.kind, s.stake) for s in session.history[-1].settlements] == [(BetKind.BANKER, 10_000)]
        await pilot.press("r")
        assert session.bets == {BetKind.BANKER: 10_000}
        await pilot.press("space")
        assert len(session.history) == 2 and session.bets == {}
        await pilot.press("question_mark")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        await pilot.press("escape")
        await pilot.pause()
        assert not isinstance(app.screen, HelpScreen)


@pytest.mark.asyncio
async def test_the_roads_grow_with_the_window() -> None:
    widths = {}
    for size in SIZES:
        app = new_app()
        async with app.run_test(size=size) as pilot:
            await pilot.press("d")
            await pilot.pause()
            road_line = next(line for line in screen_text(app).splitlines() if " B  · " in line or " P  · " in line)
            widths[size] = road_line.count("·")
            screen = screen_text(app)
            assert "Big Road" in screen and "Ask 問路" in screen
            if size == (200, 50):
                assert all(road in screen for road in ("Big Eye Boy", "Small Road", "Cockroach Pig", "Bead Plate"))
    assert widths[(80, 24)] < widths[(120, 40)] < widths[(200, 50)]
    assert widths[(200, 50)] + 1 > 24  # columns: more than the 24 of a road of fixed width


@pytest.mark.asyncio
async def test_a_window_smaller_than_the_table_says_so_and_resizing_lays_it_out_again() -> None:
    app = new_app()
    async with app.run_test(size=(70, 20)) as pilot:
        screen = screen_text(app)
        assert f"at least {MIN_SIZE[0]} × {MIN_SIZE[1]}" in screen and "This one is 70 × 20" in screen
        assert "Balance" not in screen
        await pilot.resize_terminal(200, 50)
        await pilot.pause()
        spots = app.query_one("#spots", DataTable)
        assert [column.label.plain for column in spots.columns.values()] == ["Spot", "Pays", "Stake", "Limits"]
        await pilot.press("b")
        await pilot.resize_terminal(120, 40)
        await pilot.pause()
        assert [column.label.plain for column in spots.columns.values()] == ["Spot", "Pays", "Stake"]
        await pilot.resize_terminal(80, 24)
        await pilot.pause()
        screen = screen_text(app)
        assert [column.label.plain for column in spots.columns.values()] == ["Spot", "Pays", "Stake"]
        assert _spot(screen, "b  Banker 莊")[:2] == ["0.95", "100"]
        assert "Balance 9,900" in screen


def test_layouts() -> None:
    assert layout_for(80, 24).classes == ["-narrow", "-short"]
    assert layout_for(120, 40).classes == ["-medium"]
    assert layout_for(250, 70).classes == ["-wide"]
    assert "-tiny" in layout_for(79, 24).classes and "-tiny" in layout_for(80, 23).classes


@pytest.mark.asyncio
async def test_going_broke_offers_to_add_funds_and_a_deal_clears_the_last_message() -> None:
    app = new_app(bankroll=1_000)  # 10: one Tie bet at its minimum
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("1", "t")
        assert "10 on Tie" in app.message
        await pilot.press("d")
        await pilot.pause()
        assert "10 on Tie" not in app.message  # the last message does not stay after a deal
        assert app.session.balance == 0 and app.session.out_of_money
        assert "press a to add 10, or q to quit" in app.message
        assert "a Add funds" in screen_text(app)
        await pilot.press("a")
        assert app.session.balance == 1_000 and "Added 10" in app.message
        assert "a Add funds" not in screen_text(app)


@pytest.mark.asyncio
async def test_the_help_names_keys_as_they_are_written() -> None:
    app = new_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("question_mark")
        await pilot.pause()
        body = app.screen.query_one("#help-body", Static).content
    console = Console(width=120, record=True, file=io.StringIO(), color_system=None)
    console.print(body)
    text = console.export_text()
    for raw in ("question_mark", "minus", "d,space", "equals_sign", "1–9"):
        assert raw not in text
    assert "d or Space" in text and "1–6" in text and "take chip 1 to 6 in hand" in text
