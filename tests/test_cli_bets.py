"""``baccarat deal --variant --bet`` and ``baccarat variants`` (R24–R32 at the command line)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

import baccarat.cli  # noqa: F401  (registers the commands)
from baccarat.cli.app import app

runner = CliRunner()
CARDS = "AS 2H 3D KC 4S 8D 4S 9H 5D KC"  # coup 1: Player 8 by 8 (six cards); coup 2: a tie of naturals 9-9


def deal(*args: str) -> dict:
    result = runner.invoke(app, ["deal", "--cards", CARDS, "--json", *args])
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def test_deal_json_without_bets_is_unchanged() -> None:
    data = deal()
    assert set(data) == {"coups", "unused"}
    assert all("settlement" not in coup for coup in data["coups"])
    assert data["coups"][0]["winner"] == "player" and data["coups"][0]["cards_used"] == 6


def test_r24_r26_deal_settles_bets_on_every_coup() -> None:
    # stakes in currency units (1 is 1.00); the JSON keeps minor units
    data = deal("--variant", "standard", "--bet", "banker=1", "--bet", "閒龍寶=0.50", "--bet", "big=0.5")
    first, second = (coup["settlement"] for coup in data["coups"])
    assert first == [
        {"bet": "banker", "stake": 100, "result": "lose", "paid": 0, "commission": 0, "returned": 0, "level": ""},
        {
            "bet": "player_dragon_bonus",
            "stake": 50,
            "result": "win",
            "paid": 500,
            "commission": 0,
            "returned": 550,
            "level": "win by 8",
        },
        {"bet": "big", "stake": 50, "result": "win", "paid": 27, "commission": 0, "returned": 77, "level": "win"},
    ]
    assert [(s["bet"], s["result"], s["returned"]) for s in second] == [
        ("banker", "push", 100),
        ("player_dragon_bonus", "push", 50),
        ("big", "lose", 0),
    ]
    assert data["variant"] == "standard" and data["paytable"] == "standard"
    assert {"player", "banker", "winner", "natural", "cards_used", "player_pair", "banker_pair"} <= set(
        data["coups"][0]
    )


def test_r27_deal_with_owed_commission() -> None:
    result = runner.invoke(app, ["deal", "--cards", "2S 9H 3D KC", "--bet", "莊=1", "--commission", "owed", "--json"])
    assert result.exit_code == 0, result.output
    (s,) = json.loads(result.stdout)["coups"][0]["settlement"]
    assert (s["result"], s["paid"], s["commission"], s["returned"]) == ("win", 100, 5, 200)


def test_deal_rich_output_shows_the_settlement() -> None:
    result = runner.invoke(
        app,
        ["deal", "--cards", CARDS, "--variant", "standard", "--bet", "player_dragon_bonus=1,000"],
        env={"COLUMNS": "80"},
    )
    assert result.exit_code == 0, result.output
    assert "Bets: Standard 標準百家樂" in result.stdout
    assert "win by 8" in result.stdout and "11,000" in result.stdout  # 1,000 back and 10,000 won, in currency units
    assert max(len(line) for line in result.stdout.splitlines()) <= 80


def test_deal_with_an_operator_paytable(tmp_path: Path) -> None:
    path = tmp_path / "tie9.toml"
    path.write_text('name = "tie9"\n[bets.tie]\npays = 9\n', encoding="utf-8")
    data = deal("--paytable", str(path), "--bet", "tie=0.10")
    assert [coup["settlement"][0]["paid"] for coup in data["coups"]] == [0, 90]


@pytest.mark.parametrize(
    ("bet", "message"),
    [
        ("dragon=10", "unknown bet 'dragon'"),
        ("banker=0", "stake '0' must be positive"),
        ("banker=-5", "stake '-5' must be positive"),
        ("banker=1.555", "stake '1.555' has more than two decimals"),
        ("banker=ten", "stake 'ten' is not a number"),
        ("banker", "has no stake"),
        ("dragon7=10", "bet dragon7 (Dragon 7) is not offered by variant 'macau'"),
        ("超級六=10", "bet super6 (Super 6) is not offered by variant 'macau'"),
    ],
)
def test_bad_bets_are_refused_with_the_variant_menu_and_status_2(bet: str, message: str) -> None:
    result = runner.invoke(app, ["deal", "--cards", CARDS, "--bet", bet])
    assert result.exit_code == 2
    error = " ".join(result.stderr.split())
    assert message in error
    assert "banker (莊), player (閒), tie (和), banker_pair (莊對), player_pair (閒對)" in error
    assert "panda8" not in error  # the variant's menu, not every bet
    assert "Traceback" not in result.output


def test_unknown_variant_and_bad_paytable_exit_2(tmp_path: Path) -> None:
    result = runner.invoke(app, ["deal", "--cards", CARDS, "--variant", "vegas"])
    assert result.exit_code == 2 and "unknown variant 'vegas'" in result.stderr
    bad = tmp_path / "bad.toml"
    bad.write_text('name = "bad"\n[bets.tie]\npays = -1\n', encoding="utf-8")
    result = runner.invoke(app, ["deal", "--cards", CARDS, "--paytable", str(bad), "--bet", "tie=1"])
    assert result.exit_code == 2
    assert "bad.toml: bets.tie.pays: negative payout" in " ".join(result.stderr.split())


def test_variants_command_lists_every_variant_and_paytable() -> None:
    result = runner.invoke(app, ["variants"])
    assert result.exit_code == 0, result.output
    for title in (
        "澳門百家樂",
        "標準百家樂",
        "免佣百家樂",
        "西式百家樂",
        "EZ百家樂",
        "win by 9: 30",
        "three-card 7: push",
    ):
        assert title in result.stdout


def test_variants_json() -> None:
    result = runner.invoke(app, ["variants", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert [v["name"] for v in data["variants"]] == ["macau", "standard", "no_commission", "western", "ez"]
    nc = next(v for v in data["variants"] if v["name"] == "no_commission")
    banker = nc["bets"][0]
    assert [(lv["name"], lv["pays"]) for lv in banker["levels"]] == [("win with 6", 0.5), ("win", 1.0)]
    one = runner.invoke(app, ["variants", "western", "--json"])
    assert [v["name"] for v in json.loads(one.stdout)["variants"]] == ["western"]
    missing = runner.invoke(app, ["variants", "vegas"])
    assert missing.exit_code == 2 and "unknown variant" in missing.stderr


def test_deal_never_cuts_a_figure_at_80_columns() -> None:
    args = ["deal", "--cards", CARDS, "--variant", "standard", "--bet", "banker=1950000", "--bet", "閒龍寶=50"]
    result = runner.invoke(app, args, env={"COLUMNS": "80"})
    assert result.exit_code == 0, result.output
    assert "1,950,000" in result.stdout and "…" not in result.stdout
    assert "Commission" not in result.stdout  # an empty column is left out
    assert max(len(line) for line in result.stdout.splitlines()) <= 80


def test_variants_shows_limits_in_currency_units_and_json_in_minor_units() -> None:
    result = runner.invoke(app, ["variants", "macau"], env={"COLUMNS": "80"})
    assert result.exit_code == 0, result.output
    banker = next(line for line in result.stdout.splitlines() if line.startswith(" banker "))
    assert banker.split()[-2:] == ["100", "100,000"]
    assert max(len(line) for line in result.stdout.splitlines()) <= 80
    data = json.loads(runner.invoke(app, ["variants", "macau", "--json"]).stdout)
    banker_json = data["variants"][0]["bets"][0]
    assert (banker_json["bet"], banker_json["min"], banker_json["max"]) == ("banker", 10_000, 10_000_000)
