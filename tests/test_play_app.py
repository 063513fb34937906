"""The terminal game driven through Textual's pilot: bets, deal, payouts, undo, rebet, refusals, help, snapshot."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from rich.console import Console
from textual.widgets import Static

from baccarat.bets import BetKind
from baccarat.play.app import HelpScreen, PlayApp
from baccarat.play.session import GameSession, format_money

ARTIFACTS = Path(__file__).resolve().parent.parent / "test-artifacts"
SIZE = (160, 48)


def text_of(app: PlayApp, selector: str) -> str:
    """The plain text a Static shows."""
    console = Console(width=200, record=True, file=io.StringIO(), color_system=None)
    console.print(app.query_one(selector, Static).content)
    return console.export_text()


def new_app(**kwargs: object) -> PlayApp:
    session = GameSession(seed="21", **kwargs)  # type: ignore[arg-type]
    return PlayApp(session, reveal_delay=0)


@pytest.mark.asyncio
async def test_place_deal_and_the_balance_changes_by_the_settled_amount() -> None:
    app = new_app()
    async with app.run_test(size=SIZE) as pilot:
        session = app.session
        start = session.balance
        await pilot.press("b", "t")  # the chip in hand (100) on Banker, then on Tie
        assert session.bets == {BetKind.BANKER: 10_000, BetKind.TIE: 10_000}
        assert session.balance == start - 20_000
        assert "on the table 200" in text_of(app, "#money")
        await pilot.press("d")
        await pilot.pause()
        record = session.history[-1]
        settled = sum(s.returned for s in record.settlements)
        assert session.balance == start - 20_000 + settled
        assert session.balance - start == record.net
        assert session.bets == {}
        assert f"Balance {format_money(session.balance)}" in text_of(app, "#money")
        result = text_of(app, "#result")
        assert "Banker 莊 100:" in result and "Tie 和 100:" in result
        for s in record.settlements:
            assert s.result.value in result
        cards = text_of(app, "#cards")
        assert str(record.result.player.total) in cards
        assert record.result.reasons[0] in cards
        assert "1.1" in text_of(app, "#history")


@pytest.mark.asyncio
async def test_undo_and_rebet() -> None:
    app = new_app()
    async with app.run_test(size=SIZE) as pilot:
        session = app.session
        await pilot.press("3", "p", "1", "t", "t")  # player 100, tie 10 twice
        assert session.bets == {BetKind.PLAYER: 10_000, BetKind.TIE: 2_000}
        await pilot.press("u")
        assert session.bets == {BetKind.PLAYER: 10_000, BetKind.TIE: 1_000}
        assert "Took back Tie" in app.message
        await pilot.press("d")
        await pilot.pause()
        after_deal = session.balance
        await pilot.press("r")
        assert session.bets == {BetKind.PLAYER: 10_000, BetKind.TIE: 1_000}
        assert session.balance == after_deal - 11_000
        await pilot.press("u")  # a rebet is undone at once
        assert session.bets == {} and session.balance == after_deal
        await pilot.press("u")
        assert "nothing to undo" in text_of(app, "#message")


@pytest.mark.asyncio
async def test_unknown_key_shows_a_message_and_changes_nothing() -> None:
    app = new_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("b")
        events, balance = len(app.session.table.events), app.session.balance
        await pilot.press("x")
        assert "Unknown key 'x'" in text_of(app, "#message")
        assert len(app.session.table.events) == events and app.session.balance == balance


@pytest.mark.asyncio
async def test_a_bet_beyond_the_bankroll_is_refused_on_screen() -> None:
    app = new_app(bankroll=15_000)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("p")
        events, balance = len(app.session.table.events), app.session.balance
        await pilot.press("p")
        message = text_of(app, "#message")
        assert "you have 50 available and cannot stake 100" in message and "press a to add funds" in message
        assert len(app.session.table.events) == events and app.session.balance == balance
        assert app.session.bets == {BetKind.PLAYER: 10_000}


@pytest.mark.asyncio
async def test_a_bet_beyond_the_limits_is_refused_on_screen() -> None:
    app = new_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("6", "t")  # a 5,000 chip on Tie: its maximum
        events, balance = len(app.session.table.events), app.session.balance
        await pilot.press("t")
        assert "above the maximum 5,000" in text_of(app, "#message")
        await pilot.press("2", "b")  # 50 on Banker: below its minimum 100 (R21)
        assert "below the minimum 100" in text_of(app, "#message")
        assert len(app.session.table.events) == events and app.session.balance == balance


@pytest.mark.asyncio
async def test_enter_on_a_spot_bets_there_and_help_shows_the_drawing_table() -> None:
    app = new_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("down", "down", "down", "enter")  # the fourth spot: Banker Pair
        assert app.session.bets == {BetKind.BANKER_PAIR: 10_000}
        await pilot.press("question_mark")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        body = app.screen.query_one("#help-body", Static)
        ARTIFACTS.mkdir(exist_ok=True)
        app.save_screenshot("play-help.svg", path=str(ARTIFACTS))
        svg = (ARTIFACTS / "play-help.svg").read_text(encoding="utf-8")
        assert "any&#160;but&#160;8" in svg and "Player&#160;stood" in svg
        assert body is not None
        await pilot.press("escape")
        await pilot.pause()
        assert not isinstance(app.screen, HelpScreen)


@pytest.mark.asyncio
async def test_main_screen_snapshot() -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    app = new_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("b", "d")
        await pilot.pause()
        app.save_screenshot("play-main.svg", path=str(ARTIFACTS))
    svg = (ARTIFACTS / "play-main.svg").read_text(encoding="utf-8")
    for label in ("Banker", "Player", "Tie", "Undo", "Rebet", "Clear", "Deal", "Help", "Quit", "Balance", "History"):
        assert f"{label}" in svg, label
    assert "Big&#160;Road" in svg and "Cockroach&#160;Pig" in svg and "cards&#160;left" in svg


@pytest.mark.asyncio
async def test_quit_saves_and_every_coup_saves() -> None:
    saved: list[int] = []
    session = GameSession(seed="4")
    app = PlayApp(session, save=lambda s: saved.append(len(s.history)), reveal_delay=0)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("d", "d")
        assert saved == [1, 2]
        await pilot.press("q")
        await pilot.pause()
    assert saved == [1, 2, 2]


@pytest.mark.asyncio
async def test_cards_are_revealed_one_by_one() -> None:
    app = PlayApp(GameSession(seed="8"), reveal_delay=0.25)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("b", "d")
        first = text_of(app, "#cards")
        assert "Dealing" in text_of(app, "#result")
        await pilot.pause(2.0)
        record = app.session.history[-1]
        assert "Dealing" not in text_of(app, "#result")
        final = text_of(app, "#cards")
        assert first != final and str(record.result.banker.total) in final
