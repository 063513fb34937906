"""The plain mode driven through its prompts, the save file, and ``baccarat play`` on the command line."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from baccarat.bets import BetKind
from baccarat.cli import app
from baccarat.play.plain import run_plain
from baccarat.play.save import SaveError, load_session, save_session
from baccarat.play.session import GameSession, format_money

runner = CliRunner()


def play(session: GameSession, script: str, **kwargs: object) -> str:
    out = io.StringIO()
    run_plain(session, lines=io.StringIO(script), output=out, prompt="", **kwargs)  # type: ignore[arg-type]
    return out.getvalue()


def test_bet_deal_and_balance_through_the_prompts() -> None:
    session = GameSession(seed="11")
    out = play(session, "bet banker 100\nbet 閒對 10\nbalance\ndeal\nbalance\nquit\n")
    assert "Banker 莊: 100 on the table" in out
    assert "Player Pair 閒對: 10 on the table" in out
    assert "Balance 9,890; on the table 110 (banker 100, player_pair 10)" in out
    record = session.history[-1]
    assert session.balance == 1_000_000 - 11_000 + record.returned
    assert f"Balance {format_money(session.balance)}; no bets on the table" in out
    assert "Player's 1st card:" in out and "Banker's 2nd card:" in out
    assert record.result.reasons[0] in out
    assert "\x1b" not in out  # no colour codes when not a terminal


def test_bad_input_gets_a_message_and_changes_nothing() -> None:
    session = GameSession(seed="11")
    script = "\n".join(
        [
            "dance",
            "bet",
            "bet banker ten",
            "bet dragon7 10",
            "bet 大象 10",
            "bet player 999999",
            "bet banker 150",
            "bet tie 20000",
            "undo",
            "rebet",
            "deal now",
            "chip 7",
            "balance",
        ]
    )
    out = play(session, script + "\n")
    errors = [line for line in out.splitlines() if line.startswith("error:")]
    assert len(errors) == 12
    assert "unknown command 'dance'" in errors[0]
    assert "is not a number" in errors[2]
    assert "does not offer dragon7" in errors[3]
    # an unknown bet is answered with this variant's menu, not every bet of the rule book
    assert "unknown bet '大象'" in errors[4] and "player_pair (閒對))" in errors[4] and "dragon7" not in errors[4]
    assert "above the maximum 100,000" in errors[5]
    assert "not a multiple of the minimum 100" in errors[6]
    assert "nothing to undo" in errors[8] and "no bets to put back" in errors[9]
    assert "Balance 10,000; no bets on the table" in out
    assert session.bets == {} and session.balance == 1_000_000 and not session.history


def test_undo_rebet_clear_roads_history_help() -> None:
    session = GameSession(seed="12")
    out = play(
        session, "bet player 200\nbet tie 10\nundo\ndeal\nrebet\nclear\nroads\nhistory\nshoe\nhelp\nbets\nchip 500\n"
    )
    assert "Took back tie 10" in out
    assert "Bets back: player 200" in out and "Took back 200" in out
    assert "Big Road 大路" in out and "Cockroach Pig" in out
    assert "Shoe 1 coup 1:" in out and "cards left" in out
    assert "any but 8" in out  # the drawing table, generated from the tableau
    assert "banker (Banker 莊): pays 0.95" in out
    assert "in hand 500" in out and session.chip == 50_000
    assert session.bets == {}


def test_save_and_resume_round_trip(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    session = GameSession(seed="99", bankroll=500_000)
    for _ in range(4):
        session.place("banker", 10_000)
        session.deal()
    session.place("tie", 1_000)  # a bet left on the table when the game is saved
    session.select_chip(4)
    save_session(session, path)
    again = load_session(path)
    assert again.balance == session.balance and again.bets == {BetKind.TIE: 1_000}
    assert [r.result for r in again.history] == [r.result for r in session.history]
    assert again.board.to_dict() == session.board.to_dict()
    assert again.shoe_status() == session.shoe_status() and again.chip == session.chip
    assert again.last_bets == session.last_bets
    # the shoe itself is restored: the next coups are the ones the saved session would have dealt
    for game in (session, again):
        game.deal()
        game.rebet()
        game.deal()
    assert [r.result for r in again.history] == [r.result for r in session.history]
    assert again.balance == session.balance


def test_a_damaged_save_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    session = GameSession(seed="5")
    session.deal()
    save_session(session, path)
    data = json.loads(path.read_text(encoding="utf-8"))
    data["seed"] = "6"  # another shoe than the one the log recorded
    path.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(SaveError, match="differs from the coups recorded"):
        load_session(path)
    path.write_text("{", encoding="utf-8")
    with pytest.raises(SaveError, match="is not JSON"):
        load_session(path)
    with pytest.raises(SaveError, match="no saved game"):
        load_session(tmp_path / "missing.json")


def test_cli_plain_saves_and_resumes(tmp_path: Path) -> None:
    path = str(tmp_path / "game.json")
    first = runner.invoke(
        app,
        ["play", "--plain", "--seed", "3", "--bankroll", "2,000", "--save-file", path],
        input="bet banker 100\ndeal\n",
    )
    assert first.exit_code == 0, first.output
    balance = load_session(Path(path)).balance
    second = runner.invoke(app, ["play", "--plain", "--resume", "--save-file", path], input="balance\nhistory\nquit\n")
    assert second.exit_code == 0, second.output
    assert f"Balance {format_money(balance)}; no bets on the table" in second.output
    assert "Shoe 1 coup 1:" in second.output
    assert f"Saved to {path}; baccarat play --resume --save-file {path} continues it. Goodbye." in second.output


def test_cli_refuses_settings_on_resume_and_a_missing_save(tmp_path: Path) -> None:
    path = str(tmp_path / "none.json")
    result = runner.invoke(app, ["play", "--plain", "--resume", "--save-file", path])
    assert result.exit_code == 2 and "no saved game" in result.output
    result = runner.invoke(app, ["play", "--plain", "--resume", "--variant", "ez", "--save-file", path])
    assert result.exit_code == 2 and "--variant cannot change a resumed game" in result.output
    result = runner.invoke(app, ["play", "--plain", "--variant", "nope", "--no-save"])
    assert result.exit_code == 2 and "unknown variant 'nope'" in result.output


def test_resume_after_the_shoe_changed(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    session = GameSession(seed="77", decks=1)
    while session.table.state.shoe_number < 2:
        session.deal()
    save_session(session, path)
    again = load_session(path)
    assert again.shoe_status() == session.shoe_status()
    assert again.board.to_dict() == session.board.to_dict()  # the finished shoe's roads, until the next coup
    session.deal()
    again.deal()
    assert again.history[-1].result == session.history[-1].result and again.history[-1].shoe_number == 2


def test_piped_input_plays_line_by_line_without_plain() -> None:
    result = runner.invoke(app, ["play", "--no-save", "--seed", "3"], input="bet banker 100\ndeal\nquit\n")
    assert result.exit_code == 0, result.output
    assert "not a terminal: playing line by line" in result.stderr
    assert "Shoe 1 coup 1:" in result.stdout and "The game was not saved. Goodbye." in result.stdout


@pytest.mark.parametrize(
    ("bankroll", "message"),
    [
        ("-100", "bankroll '-100' must be positive"),
        ("0", "bankroll '0' must be positive"),
        ("ten", "bankroll 'ten' is not a number"),
        ("12.345", "bankroll '12.345' has more than two decimals"),
    ],
)
def test_a_bad_bankroll_exits_2_with_a_message(bankroll: str, message: str) -> None:
    result = runner.invoke(app, ["play", "--plain", "--no-save", "--bankroll", bankroll])
    assert result.exit_code == 2
    assert message in result.stderr and "Traceback" not in result.output


def test_going_broke_offers_to_add_funds() -> None:
    session = GameSession(seed="21", bankroll=1_000)
    out = play(session, "bet tie 10\ndeal\nbet tie 10\nadd\nadd 25.50\nbalance\n")
    assert session.balance == 1_000 + 2_550
    assert "less than the smallest bet (10): type add to add 10, or quit" in out
    assert "you have 0 available and cannot stake 10 (bet less, or type add to add funds)" in out
    assert "Added 10." in out and "Added 25.50." in out
    assert session.result == -1_000  # money brought is not money won
