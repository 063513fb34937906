"""Every bad input on the command line gets one line on stderr, ``error: what (how to fix it)``, and exit
status 2: the engine's refusals and the parser's alike, never a traceback nor the parsing library's words."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from baccarat.cli.app import app
from baccarat.cli.server_cmds import PROOF_FIELDS
from baccarat.server.fairness_chain import CHAIN_FIELDS

runner = CliRunner()
LIBRARY_WORDS = ("Input should be", "Value error", "Invalid value for", "Usage:", "Try '", "╭─ Error")


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["odds", "--decks", "x"], "--decks: 'x' is not a whole number (see baccarat odds --help)"),
        (["shoe", "--cut-card", "1.5"], "--cut-card: '1.5' is not a whole number"),
        (
            ["deal", "--cards", "AS", "--commission", "sometimes"],
            "--commission: 'sometimes' is not one of deducted, owed",
        ),
        (["shoe", "--burn", "sideways"], "--burn: 'sideways' is not one of decks, first_card, fixed"),
        (["deal"], "--cards is required (see baccarat deal --help)"),
        (["dela"], "there is no command 'dela' (did you mean deal?)"),
        (["odds", "--deck", "8"], "there is no option --deck (did you mean --decks? see baccarat odds --help)"),
        (["odds", "--decks"], "--decks needs a value"),
        (["roads", "--results", "BP", "extra"], "unexpected argument extra"),
        (["serve", "--port", "70000"], "--port: 70000 is outside 1–65535"),
        (["play", "--plain", "--no-save", "--bankroll", "-100"], "bankroll '-100' must be positive"),
        (["odds", "--cut-card", "-5"], "--cut-card sets the cut card of --eor's countability summary"),
        (["odds", "--eor", "--cut-card", "99999"], "is outside the shoe of 416 cards"),
    ],
)
def test_bad_input_is_one_line_on_stderr_and_status_2(args: list[str], message: str) -> None:
    result = runner.invoke(app, args)
    assert result.exit_code == 2, result.output
    error = result.stderr.strip()
    assert error.startswith("error: ") and "\n" not in error
    assert message in error
    assert "Traceback" not in result.output
    assert not any(word in result.output for word in LIBRARY_WORDS)


def test_a_paytable_that_is_a_folder_is_refused_alike_by_odds_and_deal(tmp_path: Path) -> None:
    odds = runner.invoke(app, ["odds", "--paytable", str(tmp_path)])
    deal = runner.invoke(app, ["deal", "--cards", "9S 8H KD 5C", "--paytable", str(tmp_path), "--bet", "tie=1"])
    assert odds.exit_code == deal.exit_code == 2
    assert odds.stderr == deal.stderr and f"paytable {tmp_path}: cannot read the file" in odds.stderr


def test_verify_exits_2_on_an_incomplete_proof_and_1_on_a_wrong_one(tmp_path: Path) -> None:
    path = tmp_path / "proof.json"
    path.write_text(json.dumps({"commitment": "ab", "cards": ["AS"]}), encoding="utf-8")
    result = runner.invoke(app, ["verify", str(path)])
    assert result.exit_code == 2
    assert "the proof lacks server_seed, client_seed, config, first_shoe_number, coup_in_shoe" in result.stderr
    wrong = dict.fromkeys(PROOF_FIELDS + CHAIN_FIELDS, "x") | {
        "commitment": "00" * 32,
        "cards": ["AS"],
        "coup_in_shoe": 1,
    }
    path.write_text(json.dumps(wrong), encoding="utf-8")
    assert runner.invoke(app, ["verify", str(path)]).exit_code == 2  # no --commitment
    assert runner.invoke(app, ["verify", str(path), "--commitment", "00" * 32]).exit_code == 1


def test_the_proof_fields_are_those_the_verifier_reads() -> None:
    from baccarat.server import fairness

    assert PROOF_FIELDS == fairness._FIELDS


def test_no_args_shows_the_help() -> None:
    result = runner.invoke(app, [])
    assert result.exit_code == 2 and "Usage: baccarat" in result.stdout and "Mathematics" in result.stdout
