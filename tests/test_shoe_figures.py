"""Shoe-level figures: the cut-card effect of every bet and the coups per shoe (``simulate --shoe-figures``)."""

from __future__ import annotations

import json

import numpy as np
import pytest
from typer.testing import CliRunner

from baccarat.analysis import par_sheet
from baccarat.cli.app import app
from baccarat.errors import InputError
from baccarat.shoe import DealingMode, ShoeConfig
from baccarat.sim.kernel import deal_features
from baccarat.sim.shoe_figures import ShoeFiguresJob, shoe_figures

runner = CliRunner()


def test_a_continuous_shuffler_deals_every_coup_from_a_fresh_shoe_so_there_is_no_cut_card_effect() -> None:
    figures = shoe_figures(
        ShoeFiguresJob(variant="ez", shoes=30, seed=2, config=ShoeConfig(mode=DealingMode.CONTINUOUS))
    )
    sheet = par_sheet(8, variant="ez")
    for name, bet in figures.bets.items():
        exact = float(next(b for k, b in sheet.bets.items() if k.value == name).expected_value)
        assert bet.fresh == pytest.approx(exact, abs=1e-15)
        assert bet.mean_ev.value == pytest.approx(exact, abs=1e-12)
        assert bet.cut_card_effect.value == pytest.approx(0.0, abs=1e-12)
    assert figures.coups.mean == 1 and figures.coups.histogram == {1: 30}


def test_whole_shoes_come_close_to_the_fresh_figures_and_count_their_coups_like_the_kernel() -> None:
    config = ShoeConfig(cut_card_from_end=40)
    figures = shoe_figures(ShoeFiguresJob(variant="macau", shoes=60, seed=9, config=config))
    dealt = deal_features(config, seed=9, shoes=60).coups_per_shoe
    assert figures.coups.histogram == {
        int(v): int(c) for v, c in zip(*np.unique(dealt, return_counts=True), strict=True)
    }
    assert figures.coups.least == dealt.min() and figures.coups.most == dealt.max()
    assert figures.coups.mean == pytest.approx(float(dealt.mean()))
    banker = figures.bets["banker"]
    # the exact EV moves little from coup to coup: the cut-card effect is a few hundredths of a percent at most
    assert abs(banker.cut_card_effect.value) < 5e-4 and banker.mean_ev.std_error < 2e-4
    # the realised mean carries the coups' own noise: a far wider interval around the same figure
    assert banker.realised.std_error > 5 * banker.mean_ev.std_error
    low, high = banker.realised.interval
    assert low - 0.01 < banker.fresh < high + 0.01


def test_shoe_figures_are_reproducible_and_refuse_too_few_shoes() -> None:
    a = shoe_figures(ShoeFiguresJob(variant="ez", shoes=10, seed=4)).to_dict()
    b = shoe_figures(ShoeFiguresJob(variant="ez", shoes=10, seed=4)).to_dict()
    assert a == b
    with pytest.raises(InputError):
        ShoeFiguresJob(shoes=1)


def test_simulate_shoe_figures_as_json_and_its_refusals() -> None:
    result = runner.invoke(app, ["simulate", "--shoe-figures", "--shoes", "20", "--seed", "3", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["shoes"] == 20 and data["cut_card"] == 14
    assert sum(data["coups_per_shoe"]["histogram"].values()) == 20
    assert set(data["bets"]) >= {"banker", "player", "tie"}
    assert "cut_card_effect" in data["bets"]["tie"]
    text = runner.invoke(app, ["simulate", "--shoe-figures", "--shoes", "20", "--seed", "3"])
    assert text.exit_code == 0 and "Cut-card effect" in text.stdout and "Coups per shoe" in text.stdout
    refused = runner.invoke(app, ["simulate", "--shoe-figures", "--strategy", "flat"])
    assert refused.exit_code == 2
