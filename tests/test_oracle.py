"""The perfect-knowledge bound against a slow reference: the engine's own shoes, a full par sheet at every coup."""

from __future__ import annotations

import json
from fractions import Fraction

import numpy as np
import pytest
from typer.testing import CliRunner

from baccarat.analysis import par_sheet
from baccarat.bets import BetKind
from baccarat.cli.app import app
from baccarat.composition import Composition
from baccarat.dealing import ShoeDealer
from baccarat.errors import InputError
from baccarat.features import CoupFeatures
from baccarat.rng import SeededSource
from baccarat.settlement import outcome_table
from baccarat.shoe import BurnMethod, ShoeConfig
from baccarat.sim.oracle import CHUNK_SHOES, DEPTH_BINS, OracleJob, oracle_chunk, oracle_plan, simulate_oracle
from baccarat.sim.strategies import parse_oracle
from baccarat.variants import get_variant


def _reference(
    config: ShoeConfig, variant: str, seed: int, shoes: int, burn_seen: bool
) -> tuple[np.ndarray, np.ndarray]:
    """Per shoe and bet: +EV coups, the sum of their exact EVs, the realised gain, from par sheets; and
    by tenth of the shoe where a coup starts, the +EV coups of each bet and (last column) the coups."""
    chosen = get_variant(variant)
    table = outcome_table(chosen.paytable)
    dealer = ShoeDealer(config, source=SeededSource(seed))
    out = np.zeros((shoes, len(chosen.bets), 3))
    depth = np.zeros((DEPTH_BINS, len(chosen.bets) + 1), dtype=np.int64)
    for s in range(shoes):
        dealer.new_shoe()
        assert dealer.shoe is not None
        seen = list(dealer.shoe.burned if burn_seen else dealer.shoe.burned[:1])
        if config.burn is not BurnMethod.FIRST_CARD and not burn_seen:
            seen = []
        position, size = len(dealer.shoe.burned), dealer.shoe.size
        for coup in dealer.deal_shoe():
            position += len(coup.burned)
            start, position = position, position + len(coup.result.player.cards) + len(coup.result.banker.cards)
            if burn_seen:
                seen.extend(coup.burned)
            if not coup.demo:
                depth[start * DEPTH_BINS // size, -1] += 1
                left = Composition.from_decks(config.decks).remove(seen)
                sheet = par_sheet(left, variant=variant)
                key = CoupFeatures.of(coup.result).encode()
                for row, kind in enumerate(chosen.bets):
                    ev = sheet.bets[kind].expected_value
                    if ev > 0:
                        depth[start * DEPTH_BINS // size, row] += 1
                        level = int(table.index[kind][key])
                        pays = (
                            Fraction(-1)
                            if level == -1
                            else Fraction(0)
                            if level == -2
                            else table.levels[kind][level].pays
                        )
                        out[s, row] += (1, float(ev), float(pays))
            seen.extend(coup.result.player.cards + coup.result.banker.cards)
    return out, depth


@pytest.mark.slow
@pytest.mark.parametrize(
    ("decks", "variant", "seed", "burn_seen"),
    [(2, "macau", 5, False), (2, "ez", 11, True), (1, "western", 2, False), (1, "standard", 9, True)],
)
def test_oracle_matches_par_sheets_figure_for_figure(decks: int, variant: str, seed: int, burn_seen: bool) -> None:
    config = ShoeConfig(decks=decks, cut_card_from_end=6)
    shoes = 3
    plan = oracle_plan(OracleJob(seed=seed, shoes=shoes, config=config, variant=variant, burn_seen=burn_seen))
    chunk = oracle_chunk(plan, 0, shoes)
    expected, depth = _reference(config, variant, seed, shoes, burn_seen)
    np.testing.assert_array_equal(chunk.depth, depth)
    assert chunk.per_shoe[:, :, 0].sum() > 0  # some bet was +EV somewhere, so the comparison means something
    np.testing.assert_array_equal(chunk.per_shoe[:, :, 0], expected[:, :, 0])
    np.testing.assert_allclose(chunk.per_shoe[:, :, 1], expected[:, :, 1], rtol=1e-12, atol=1e-15)
    np.testing.assert_allclose(chunk.per_shoe[:, :, 2], expected[:, :, 2], rtol=1e-12, atol=1e-12)


def test_burned_cards_seen_changes_what_the_oracle_knows() -> None:
    config = ShoeConfig(decks=1, cut_card_from_end=6, burn=BurnMethod.FIXED, burn_count=8)
    unseen = simulate_oracle(OracleJob(seed=4, shoes=6, config=config, variant="macau"), workers=1)
    seen = simulate_oracle(OracleJob(seed=4, shoes=6, config=config, variant="macau", burn_seen=True), workers=1)
    assert unseen.coups == seen.coups
    assert any(unseen.bets[b].positive_coups != seen.bets[b].positive_coups for b in unseen.bets)


def test_one_worker_and_two_give_the_same_figures() -> None:
    job = OracleJob(seed=8, shoes=70, config=ShoeConfig(decks=1), variant="ez", bets=(BetKind.DRAGON7,))
    one, two = simulate_oracle(job, workers=1), simulate_oracle(job, workers=2)
    assert list(one.bets) == ["dragon7"]
    assert one.to_dict()["bets"] == two.to_dict()["bets"]
    assert one.shoes == 70 and 0 < one.bets["dragon7"].positive_coups < one.coups


def test_parse_oracle_reads_bets_and_refuses_unknown_ones() -> None:
    assert parse_oracle("flat:banker") is None
    assert parse_oracle("oracle") == ()
    assert parse_oracle("oracle:tie,player_pair") == (BetKind.TIE, BetKind.PLAYER_PAIR)
    with pytest.raises(InputError):
        parse_oracle("oracle:nope")


def test_a_bet_the_variant_does_not_offer_is_refused() -> None:
    with pytest.raises(InputError):
        oracle_plan(OracleJob(seed=1, shoes=1, variant="macau", bets=(BetKind.DRAGON7,)))


def test_simulate_strategy_oracle_prints_the_run_as_json() -> None:
    args = ["simulate", "--strategy", "oracle:player_pair,tie", "--decks", "1", "--shoes", "40", "--seed", "3"]
    done = CliRunner().invoke(app, [*args, "--workers", "1", "--json"])
    assert done.exit_code == 0, done.output
    data = json.loads(done.stdout)
    job = OracleJob(seed=3, shoes=40, config=ShoeConfig(decks=1), bets=(BetKind.PLAYER_PAIR, BetKind.TIE))
    assert data["bets"] == simulate_oracle(job, workers=1).to_dict()["bets"]
    assert data["bets"]["player_pair"]["positive_coups"] > 0
    table = CliRunner().invoke(app, args)
    assert table.exit_code == 0 and "player_pair" in table.stdout


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["--strategy", "oracle", "--hands", "10"], "the oracle counts whole shoes"),
        (["--strategy", "oracle:nope"], "unknown bet 'nope'"),
    ],
)
def test_simulate_oracle_refuses_what_it_cannot_do(args: list[str], says: str) -> None:
    done = CliRunner().invoke(app, ["simulate", *args])
    assert done.exit_code == 2
    assert says in done.stderr


def test_burn_seen_needs_the_oracle() -> None:
    done = CliRunner().invoke(app, ["simulate", "--shoes", "1", "--burn-seen"])
    assert done.exit_code == 2 and "--burn-seen is a setting of the oracle" in done.stderr


def test_the_oracle_on_a_dask_cluster_gives_the_same_figures() -> None:
    from distributed import LocalCluster

    job = OracleJob(seed=6, shoes=2 * CHUNK_SHOES + 5, config=ShoeConfig(decks=1), variant="macau")
    local = simulate_oracle(job, workers=2)
    with LocalCluster(
        n_workers=2, threads_per_worker=1, processes=False, dashboard_address=None, protocol="tcp"
    ) as cluster:
        remote = simulate_oracle(job, scheduler=cluster.scheduler_address)
    assert remote.to_dict()["bets"] == local.to_dict()["bets"]
    assert remote.workers == 2 and remote.shoes == job.shoes


def test_the_penetration_bins_add_up_to_the_run() -> None:
    result = simulate_oracle(OracleJob(seed=12, shoes=40, config=ShoeConfig(decks=2), variant="ez"), workers=2)
    data = result.to_dict()["penetration"]
    assert sum(data["coups"]) == result.coups and data["bins"] == DEPTH_BINS
    for name, bet in result.bets.items():
        shares = data["coup_share"][name]
        positive = sum(round(share * coups) for share, coups in zip(shares, data["coups"], strict=True) if coups)
        assert positive == bet.positive_coups
    # coups start in every tenth of a shoe but the last few cards (behind the cut card)
    assert all(n > 0 for n in data["coups"][:9])
