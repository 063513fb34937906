"""Counting systems: tags fitted to the exact effects of removal, betting correlations, exact indices,
the count-driven simulation and ``baccarat count``."""

from __future__ import annotations

import json
import subprocess
import sys

import numpy as np
import pytest
from typer.testing import CliRunner

from baccarat.analysis import effects_of_removal
from baccarat.analysis.counting import PUBLISHED, CountSystem, betting_correlation, exact_index, fit_tags
from baccarat.bets import BetKind
from baccarat.cli.app import app
from baccarat.errors import InputError
from baccarat.sim.counting_sim import BETS, EXPECTED, count_plan, deal_and_count

EZ = effects_of_removal(8, variant="ez")
COUNTS = EZ.composition.rank_counts()
DRAGON, PANDA = BetKind.DRAGON7, BetKind.PANDA8
runner = CliRunner()


def _corr(system: CountSystem, kind: BetKind) -> float:
    return betting_correlation(system.tags, EZ.bets[kind].eor, COUNTS)


def test_the_published_counts_correlate_with_the_exact_eor_as_published() -> None:
    """Jacobson's Dragon 7 count: about 0.96; his Panda 8 count: about 0.99 (both balanced)."""
    assert _corr(PUBLISHED[DRAGON], DRAGON) == pytest.approx(0.96, abs=0.02)
    assert _corr(PUBLISHED[PANDA], PANDA) == pytest.approx(0.99, abs=0.02)
    assert PUBLISHED[DRAGON].balance(COUNTS) == PUBLISHED[PANDA].balance(COUNTS) == 0


@pytest.mark.parametrize(("kind", "levels"), [(DRAGON, 2), (DRAGON, 3), (PANDA, 4), (PANDA, 5)])
def test_a_fitted_count_of_as_many_levels_does_at_least_as_well_as_the_published_one(
    kind: BetKind, levels: int
) -> None:
    fitted = fit_tags(EZ.bets[kind].eor, COUNTS, levels=levels)
    assert _corr(fitted, kind) >= _corr(PUBLISHED[kind], kind) - 1e-12


@pytest.mark.parametrize("kind", [BetKind.BANKER, BetKind.PLAYER, BetKind.TIE, DRAGON, PANDA])
@pytest.mark.parametrize("levels", [1, 2, 3])
def test_fitted_counts_are_balanced_within_their_levels_and_improve_with_levels(kind: BetKind, levels: int) -> None:
    fitted = fit_tags(EZ.bets[kind].eor, COUNTS, levels=levels)
    assert fitted.balance(COUNTS) == 0
    assert max(abs(t) for t in fitted.tags) <= levels
    assert len(set(fitted.tags[9:])) == 1  # 10 J Q K have one effect on these bets, so one tag
    if levels > 1:
        assert _corr(fitted, kind) >= _corr(fit_tags(EZ.bets[kind].eor, COUNTS, levels=levels - 1), kind) - 1e-12
    sign = np.sign([float(e or 0) for e in EZ.bets[kind].eor])
    assert all(t == 0 or np.sign(t) == s for t, s in zip(fitted.tags, sign, strict=True))


def test_a_bet_without_effects_gets_no_count_and_bad_levels_are_refused() -> None:
    assert fit_tags(EZ.bets[BetKind.BANKER_PAIR].eor, COUNTS).tags == (0,) * 13
    with pytest.raises(InputError):
        fit_tags(EZ.bets[DRAGON].eor, COUNTS, levels=0)
    with pytest.raises(InputError):
        CountSystem("short", (1, 2))


def test_the_dragon_index_agrees_with_exact_evs_at_that_true_count() -> None:
    """Compositions met at the index's true count are +EV on average; two below, they are not."""
    system = PUBLISHED[DRAGON]
    plan = count_plan("ez", (DRAGON,), [system], [DRAGON], [None])
    run = deal_and_count(plan, seed=11, shoes=150, first_shoe=500, window=[(-1.0, 8.0)], max_samples=100_000)
    search = exact_index(run.samples[:, 1].tolist(), run.samples[:, 2].tolist())
    assert search.index == system.index == 4
    at, below = search.bin(search.index), search.bin(search.index - 2)
    assert at is not None and below is not None
    assert at.mean_ev > 0 > below.mean_ev
    assert search.crossing is not None and search.index - 1 < search.crossing <= search.index


def test_the_simulation_is_seeded_and_reproducible() -> None:
    plan = count_plan("ez", (DRAGON, PANDA), [PUBLISHED[DRAGON], PUBLISHED[PANDA]], [DRAGON, PANDA], [4.0, 10.0])
    a = deal_and_count(plan, seed=3, shoes=40)
    b = deal_and_count(plan, seed=3, shoes=40)
    c = deal_and_count(plan, seed=4, shoes=40)
    assert np.array_equal(a.per_shoe, b.per_shoe) and np.array_equal(a.coups, b.coups)
    assert not np.array_equal(a.coups, c.coups)
    # a count bets only at or above its index: an unreachable index never bets
    never = deal_and_count(count_plan("ez", (DRAGON,), [PUBLISHED[DRAGON]], [DRAGON], [None]), seed=3, shoes=40)
    assert never.per_shoe[..., BETS].sum() == 0 and np.array_equal(never.coups, a.coups)
    # the Dragon count wins where the shoe is deep: more expected gain in the last band than the first
    assert a.per_shoe[:, 0, -1, EXPECTED].sum() > a.per_shoe[:, 0, 0, EXPECTED].sum()


def test_count_command_reports_counts_indices_and_the_oracle_as_json() -> None:
    args = ["count", "--bet", "dragon7", "--shoes", "60", "--sample-shoes", "60", "--oracle-shoes", "6", "--json"]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    bet = data["bets"]["dragon7"]
    names = [s["name"] for s in bet["systems"]]
    assert names == ["fitted level-3 (= Jacobson Dragon 7)", "Jacobson Dragon 7"]
    jacobson = bet["systems"][1]
    assert jacobson["betting_correlation"] == pytest.approx(0.964, abs=0.002)
    assert jacobson["index_used"] == 4
    assert bet["oracle_expected_per_shoe"]["value"] > 0
    # on the same shoes, perfect knowledge wins at least what any count wins (it bets every +EV coup)
    for system in bet["systems"]:
        assert bet["oracle_expected_per_shoe"]["value"] >= system["expected_per_shoe_on_oracle_shoes"]["value"] - 1e-12
    assert len(jacobson["by_penetration"]) == 4
    again = runner.invoke(app, args)
    assert json.loads(again.stdout)["bets"] == data["bets"]


@pytest.mark.parametrize(
    "args",
    [
        ["--bet", "lucky6"],
        ["--bet", "nope"],
        ["--levels", "7"],
        ["--oracle-shoes", "50", "--shoes", "10"],
        ["--decks", "13"],
    ],
)
def test_count_command_refuses_bad_input_with_exit_status_2(args: list[str]) -> None:
    result = runner.invoke(app, ["count", *args])
    assert result.exit_code == 2
    assert "error" in result.output.lower() or "usage" in result.output.lower()


def test_count_help_loads_no_numpy() -> None:
    script = (
        "import sys\nsys.argv = ['baccarat', 'count', '--help']\nfrom baccarat.cli import main\n"
        "try:\n    main()\nexcept SystemExit:\n    pass\n"
        "print('LOADED', sorted(m for m in sys.modules if m.split('.')[0] in ('numpy', 'numba')))\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True)
    assert "--levels" in done.stdout
    assert done.stdout.strip().endswith("LOADED []")
