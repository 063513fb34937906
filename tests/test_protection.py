"""The par sheet's game-protection section: cached oracle and count figures per side bet and cut card."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from baccarat.analysis import effects_of_removal, par_sheet
from baccarat.analysis.counting import PUBLISHED, fit_tags
from baccarat.analysis.protection_cache import PROTECTION
from baccarat.analysis.report import game_protection_lines, par_sheet_markdown
from baccarat.bets import BetKind
from baccarat.cli.app import app

runner = CliRunner()


def test_the_cached_counts_are_the_counts_the_code_fits_today() -> None:
    """The cache was written by this code: its fitted tags are what fit_tags gives now (else regenerate it)."""
    effects = effects_of_removal(PROTECTION["run"]["decks"], variant="ez")
    counts = effects.composition.rank_counts()
    for cut, bets in PROTECTION["figures"]["ez"].items():
        for name, bet in bets.items():
            if bet["count"] is None:
                continue
            kind = BetKind(name)
            fitted = fit_tags(effects.bets[kind].eor, counts, levels=PROTECTION["run"]["levels"]).tags
            assert tuple(bet["tags"]) in {fitted, PUBLISHED[kind].tags}, (cut, name)


@pytest.mark.parametrize("variant", list(PROTECTION["figures"]))
def test_more_cards_behind_the_cut_card_protect_the_side_bets(variant: str) -> None:
    figures = PROTECTION["figures"][variant]
    cuts = sorted(figures, key=int)
    for name in figures[cuts[0]]:
        oracle = [figures[cut][name]["oracle_per_shoe"][0] for cut in cuts]
        assert oracle == sorted(oracle, reverse=True), name
        # perfect knowledge never wins less than the count on the same shoes
        for cut in cuts:
            same = figures[cut][name]["count_on_oracle_shoes"]
            assert figures[cut][name]["oracle_per_shoe"][0] >= same[0] - 1e-9


def test_the_markdown_par_sheet_has_a_game_protection_section() -> None:
    text = par_sheet_markdown(par_sheet(8, variant="ez"))
    section = text[text.index("## Game protection") :]
    assert "| dragon7 | 14 |" in section and "| panda8 | 80 |" in section
    assert "cached" in section and "python -m baccarat.sim.protection" in section
    macau = game_protection_lines(par_sheet(8, variant="macau"))
    assert any(line.startswith("| banker_pair | 14 |") for line in macau)
    assert not any("dragon7" in line for line in macau)


def test_a_shoe_without_cached_figures_says_how_to_measure_them() -> None:
    lines = game_protection_lines(par_sheet(6, variant="ez"))
    assert lines[1] == "## Game protection"
    assert "baccarat count" in lines[-1]


def test_odds_markdown_prints_the_section() -> None:
    result = runner.invoke(app, ["odds", "--markdown", "--variant", "ez"])
    assert result.exit_code == 0, result.output
    assert "## Game protection" in result.stdout
