"""The `deal` and `shoe` commands: the stable JSON of docs/architecture.md and bad input (exit status 2)."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

import baccarat.cli  # noqa: F401  (registers the commands)
from baccarat.cli.app import app

runner = CliRunner()


def test_deal_json_follows_the_contract() -> None:
    result = runner.invoke(app, ["deal", "--cards", "AS 2H 3D KC 4S 8D", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    coup = data["coups"][0]
    assert coup["player"] == {"cards": ["AS", "3D", "4S"], "total": 8}
    assert coup["banker"] == {"cards": ["2H", "KC", "8D"], "total": 0}
    assert coup["winner"] == "player"
    assert coup["natural"] is False
    assert coup["cards_used"] == 6
    assert coup["player_pair"] is False and coup["banker_pair"] is False
    assert data["unused"] == []


def test_deal_consecutive_coups_and_unused_cards() -> None:
    result = runner.invoke(app, ["deal", "--cards", "9S 8H KD 5C 7S 7H KD KC 2S 2H", "--json"])
    data = json.loads(result.stdout)
    assert [c["winner"] for c in data["coups"]] == ["player", "tie"]
    assert data["unused"] == ["2S", "2H"]


def test_deal_table_output_shows_cards_and_reasons() -> None:
    result = runner.invoke(app, ["deal", "--cards", "5S 3H KD 2C 4S 8D"])
    assert result.exit_code == 0
    assert "Banker 5 draws: Player's third card is a 4" in " ".join(result.stdout.split())


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["deal", "--cards", "AS ZZ"], "unknown card 'ZZ' at position 2"),
        (["deal", "--cards", "AS 2H 3D"], "too few cards"),
        (["shoe", "--decks", "13"], "outside 1–12"),
        (["shoe", "--decks", "0"], "outside 1–12"),
        (["shoe", "--cut-card", "500"], "outside the shoe"),
        (["shoe", "--burn", "fixed", "--burn-count", "9"], "outside 1–8"),
        (["shoe", "--burn", "sideways"], "sideways"),
    ],
)
def test_bad_input_exits_2_with_a_message_and_no_traceback(args: list[str], message: str) -> None:
    result = runner.invoke(app, args)
    assert result.exit_code == 2
    assert message in " ".join(result.output.split())
    assert "Traceback" not in result.output


def test_shoe_json_is_reproducible_with_a_seed() -> None:
    first = json.loads(runner.invoke(app, ["shoe", "--seed", "42", "--json"]).stdout)
    second = json.loads(runner.invoke(app, ["shoe", "--seed", "42", "--json"]).stdout)
    assert first["coups"] == second["coups"]
    assert first["coups"][-1]["last"] is True
    assert sum(first["summary"][k] for k in ("banker", "player", "tie")) == first["summary"]["coups"]
    assert [e["kind"] for e in first["events"]][:3] == ["shuffled", "cut", "burned"]


def test_shoe_table_marks_the_cut_card_and_the_last_coup() -> None:
    result = runner.invoke(app, ["shoe", "--seed", "7", "--demo", "2"])
    assert result.exit_code == 0
    assert "cut card out" in result.stdout
    assert "last coup" in result.stdout
    assert "demonstration" in result.stdout


def test_shoe_numbers_scored_coups_from_1_after_the_demonstration_coups() -> None:
    result = runner.invoke(app, ["shoe", "--seed", "42", "--demo", "2", "--decks", "1"], env={"COLUMNS": "100"})
    assert result.exit_code == 0, result.output
    labels = [line.split()[0] for line in result.stdout.splitlines() if line.startswith((" D", "  1", "  2"))]
    assert labels[:4] == ["D1", "D2", "1", "2"]
    assert "Shoe 1: 1 deck" in result.stdout and "1 decks" not in result.stdout


def test_shoe_burns_before_each_coup_are_in_the_notes_not_a_list_of_lines() -> None:
    result = runner.invoke(app, ["shoe", "--seed", "42", "--burn-each-coup"])
    assert result.exit_code == 0, result.output
    head = result.stdout.split("Shoe 1")[0]
    burn_lines = [line for line in head.splitlines() if line.startswith("burned")]
    assert len(burn_lines) == 2  # the first burn, and one line saying where the others are
    first = next(line for line in head.splitlines() if line.startswith("burned "))
    count = int(first.split()[1])
    assert len(first.split(":")[1].split("(")[0].split()) == count  # as many cards as it says


def test_shoe_warns_when_the_cut_card_leaves_no_scored_coup() -> None:
    result = runner.invoke(app, ["shoe", "--decks", "1", "--cut-card", "51", "--seed", "1", "--demo", "2"])
    assert result.exit_code == 0
    assert "warning: the cut card (51 cards from the end) ended the shoe before any scored coup" in result.stderr
