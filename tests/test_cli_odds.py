"""``baccarat odds``: the stable JSON of docs/architecture.md, CSV, Markdown, effects of removal and bad input (exit 2)."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from baccarat.cli import odds_cache
from baccarat.cli.app import app
from baccarat.cli.odds_cmd import DEFAULT_CUT_CARDS
from baccarat.shoe import ShoeConfig
from baccarat.variants import VARIANTS

runner = CliRunner()


@pytest.fixture(autouse=True)
def _own_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(odds_cache.CACHE_ENV, str(tmp_path / "odds-cache"))


PUBLISHED_WAYS = {"banker": 2_292_252_566_437_888, "player": 2_230_518_282_592_256, "tie": 475_627_426_473_216}


def odds_json(*args: str) -> dict[str, object]:
    result = runner.invoke(app, ["odds", *args, "--json"])
    assert result.exit_code == 0, result.output
    data: dict[str, object] = json.loads(result.stdout)
    return data


def test_r17_odds_json_follows_the_contract() -> None:
    data = odds_json("--decks", "8")
    assert data["decks"] == 8
    assert data["total_ways"] == 416 * 415 * 414 * 413 * 412 * 411
    outcomes = data["outcomes"]
    assert isinstance(outcomes, dict)
    assert {name: figures["ways"] for name, figures in outcomes.items()} == PUBLISHED_WAYS
    assert outcomes["banker"]["probability"] == PUBLISHED_WAYS["banker"] / data["total_ways"]  # full double precision
    bets = data["bets"]
    assert isinstance(bets, dict)
    assert list(bets) == ["banker", "player", "tie", "banker_pair", "player_pair"]
    banker = bets["banker"]
    assert banker["pays"] == 0.95
    assert round(banker["expected_value"], 6) == -0.010579
    assert banker["house_edge"] == -banker["expected_value"]
    assert {"probability_win", "std_dev"} <= set(banker)


@pytest.mark.parametrize("variant", [v.name for v in VARIANTS])
def test_odds_json_has_every_bet_of_the_variant(variant: str) -> None:
    data = odds_json("--variant", variant)
    menu = next(v for v in VARIANTS if v.name == variant).bets
    bets = data["bets"]
    assert isinstance(bets, dict)
    assert list(bets) == [kind.value for kind in menu]
    for figures in bets.values():
        results = figures["results"]
        assert sum(r["ways"] for r in results) == data["total_ways"]


def test_odds_remove_cards_from_the_shoe() -> None:
    data = odds_json("--remove", "5S 5H K")
    assert data["decks"] is None and data["cards"] == 413
    assert data["total_ways"] == 413 * 412 * 411 * 410 * 409 * 408


def test_odds_with_an_operator_paytable(tmp_path: Path) -> None:
    path = tmp_path / "tie9.toml"
    path.write_text('name = "tie9"\ntitle = "Tie 9 to 1"\n[bets.tie]\npays = 9\n', encoding="utf-8")
    data = odds_json("--paytable", str(path))
    bets = data["bets"]
    assert isinstance(bets, dict) and list(bets) == ["tie"]
    assert bets["tie"]["expected_value"] == pytest.approx(10 * PUBLISHED_WAYS["tie"] / data["total_ways"] - 1)


def test_odds_csv_carries_exact_ways_and_full_precision() -> None:
    result = runner.invoke(app, ["odds", "--csv", "--variant", "standard"])
    assert result.exit_code == 0, result.output
    rows = list(csv.DictReader(io.StringIO(result.stdout)))
    outcomes = {row["result"]: int(row["ways"]) for row in rows if row["section"] == "outcome"}
    assert outcomes == PUBLISHED_WAYS
    bets = [row["bet"] for row in rows if row["section"] == "bet"]
    assert len(bets) == 13 and "player_dragon_bonus" in bets
    levels = [row for row in rows if row["section"] == "result" and row["bet"] == "player_dragon_bonus"]
    assert [row["result"] for row in levels][:2] == ["natural", "win by 9"]
    assert sum(int(row["ways"]) for row in levels) == sum(outcomes.values())


def test_odds_markdown_is_a_par_sheet_document() -> None:
    result = runner.invoke(app, ["odds", "--markdown", "--variant", "ez"])
    assert result.exit_code == 0, result.output
    text = result.stdout
    assert text.startswith("# Par sheet: EZ Baccarat")
    assert "4,998,398,275,503,360" in text
    for heading in ("## Outcomes", "## Bets", "### Dragon 7", "## Naturals", "## Cards dealt"):
        assert heading in text


def test_odds_table_output() -> None:
    result = runner.invoke(app, ["odds", "--variant", "standard"])
    assert result.exit_code == 0, result.output
    assert "2,292,252,566,437,888" in result.stdout
    assert "player_dragon_bonus" in result.stdout and "win by 9" in result.stdout
    assert "1.058%" in result.stdout  # Banker's house edge, never cut by a narrow console


def test_odds_eor_table_and_json() -> None:
    result = runner.invoke(app, ["odds", "--eor", "--variant", "ez"])
    assert result.exit_code == 0, result.output
    assert "dragon7" in result.stdout and "Countab" in result.stdout
    data = odds_json("--eor", "--variant", "ez")
    bets = data["bets"]
    assert isinstance(bets, dict)
    assert set(bets["dragon7"]["eor"]) == set("A23456789TJQK")
    csv_result = runner.invoke(app, ["odds", "--eor", "--csv"])
    assert csv_result.exit_code == 0 and csv_result.stdout.startswith("bet,expected_value,A,2,")
    md_result = runner.invoke(app, ["odds", "--eor", "--markdown"])
    assert md_result.exit_code == 0 and "## Countability" in md_result.stdout


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--decks", "13"], "outside 1–12"),
        (["--decks", "0"], "outside 1–12"),
        (["--decks", "1", "--remove", "AS AS"], "cannot remove AS"),
        (["--decks", "1", "--remove", " ".join(["A"] * 5)], "no more of that rank"),
        (["--remove", "ZZ"], "unknown"),
        (["--variant", "nope"], "unknown variant"),
        (["--json", "--csv"], "one output format"),
        (["--paytable", "/no/such/table.toml"], "cannot read the file"),
        (["--paytable", "/"], "paytable /: cannot read the file"),
        (["--decks", "x"], "--decks: 'x' is not a whole number (see baccarat odds --help)"),
        (["--cut-card", "-5"], "--cut-card sets the cut card of --eor's countability summary"),
        (["--eor", "--cut-card", "-5"], "cut card at -5 cards from the end"),
        (["--eor", "--cut-card", "99999"], "cut card 99999 cards from the end is outside the shoe of 416 cards"),
    ],
)
def test_odds_bad_input_exits_2_with_a_message(args: list[str], message: str) -> None:
    result = runner.invoke(app, ["odds", *args])
    assert result.exit_code == 2
    assert message in " ".join(result.output.split())
    assert "Traceback" not in result.output


def test_the_default_cut_card_is_the_shoes() -> None:
    assert ShoeConfig().cut_card_from_end == DEFAULT_CUT_CARDS
    result = runner.invoke(app, ["odds", "--eor", "--json"])
    assert json.loads(result.stdout)["cut_cards"] == DEFAULT_CUT_CARDS


def test_odds_a_shoe_too_small_for_a_coup_exits_2() -> None:
    cards = " ".join(f"{rank}{suit}" for rank in "A23456789TJQ" for suit in "SHDC")  # 48 of 52 cards
    result = runner.invoke(app, ["odds", "--decks", "1", "--remove", cards])
    assert result.exit_code == 2
    assert "too small to deal a coup" in " ".join(result.output.split())


def test_odds_an_unreadable_paytable_exits_2(tmp_path: Path) -> None:
    path = tmp_path / "broken.toml"
    path.write_text("[bets.tie]\npays = -8\n", encoding="utf-8")
    result = runner.invoke(app, ["odds", "--paytable", str(path)])
    assert result.exit_code == 2
    assert "paytable" in result.output
