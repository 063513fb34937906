"""Variant options (R27, R29, R31): Lucky 6, Either Pair, Perfect Pair, Tie at 9 to 1 and Banker at 4%
offered, settled at the table, in ``deal``, ``play`` and ``simulate``, and priced exactly."""

from __future__ import annotations

import functools
import json
import math
from collections import Counter
from fractions import Fraction
from pathlib import Path

import pytest
from typer.testing import CliRunner

from baccarat.analysis import par_sheet
from baccarat.analysis.exact import falling_factorial
from baccarat.bets import Bet, BetKind
from baccarat.cards import ALL_CARDS, parse_cards
from baccarat.cli.app import app
from baccarat.composition import Composition
from baccarat.coup import CoupDealer, deal_coup
from baccarat.errors import InputError
from baccarat.features import CoupFeatures
from baccarat.paytables import builtin_options
from baccarat.play.app import PlayApp
from baccarat.play.save import restore_session, session_data
from baccarat.play.session import GameSession
from baccarat.settlement import BetResult, settle_bets
from baccarat.shoe import ShoeConfig
from baccarat.sim.kernel import deal_features
from baccarat.table import Phase, Table
from baccarat.table_config import DealSource, TableConfig
from baccarat.table_events import CoupSettled
from baccarat.variants import VARIANTS, get_variant

K = BetKind
runner = CliRunner()
ALL_OPTIONS = "lucky6+either_pair+perfect_pair+tie9+banker4"
NEW_BETS = (K.LUCKY6, K.EITHER_PAIR, K.PERFECT_PAIR)
# Every variant with every option it offers.
OPTION_VARIANTS = [f"{variant.name}+{'+'.join(variant.options)}" for variant in VARIANTS]

B6_2C_P5 = "KS 2H 2D 4S 3C"  # P K 2 3 = 5, B 2 4 = 6: Banker wins with a two-card 6
B6_3C_P5 = "KS AH 2D 3S 3C 2C"  # P K 2 3 = 5, B A 3 2 = 6: Banker wins with a three-card 6
P_PERFECT = "9S 2H 9S 3C"  # P 9S 9S: a perfect pair; B 2 3 = 5
TIE_7 = "3D 3H 4S 4C"  # P 3 4 = 7, B 3 4 = 7: a tie


# --- the menus ----------------------------------------------------------------------------------


def test_r29_r31_every_variant_offers_the_side_bet_options() -> None:
    for variant in VARIANTS:
        assert {"lucky6", "either_pair", "perfect_pair", "tie9"} <= set(variant.options)
        assert not set(NEW_BETS) & set(variant.bets)  # not on a menu until an option adds it
        extended = get_variant(f"{variant.name}+lucky6+either_pair+perfect_pair")
        assert extended.bets == (*variant.bets, *NEW_BETS)
        assert extended.limit(K.LUCKY6).minimum > 0


def test_r27_banker4_only_where_banker_pays_a_commission() -> None:
    assert [v.name for v in VARIANTS if "banker4" in v.options] == ["macau", "standard", "western"]
    for variant in VARIANTS:
        if "banker4" in variant.options:
            level = get_variant(f"{variant.name}+banker4").paytable.terms(K.BANKER).levels[0]
            assert (level.pays, level.commission) == (Fraction(24, 25), Fraction(1, 25))
        else:
            with pytest.raises(InputError, match="does not offer option 'banker4'"):
                get_variant(f"{variant.name}+banker4")


def test_r29_lucky6_pays_12_with_two_cards_20_with_three() -> None:
    terms = builtin_options()["lucky6"].terms.terms(K.LUCKY6)
    assert [(level.when.cards, level.pays) for level in terms.levels] == [(2, 12), (3, 20)]


def test_options_name_the_variant_in_one_order_and_are_checked() -> None:
    variant = get_variant("Macau+tie9+lucky6")
    assert variant is get_variant("macau+lucky6+tie9")
    assert variant.name == variant.paytable.name == "macau+lucky6+tie9"
    assert variant.chosen == ("lucky6", "tie9")
    assert variant.paytable.terms(K.TIE).levels[0].pays == 9
    for name, message in (("macau+tie9+tie9", "twice"), ("macau+nope", "does not offer option 'nope'")):
        with pytest.raises(InputError, match=message) as caught:
            get_variant(name)
        assert caught.value.code == "variant.unknown"


# --- exact prices against the engine ------------------------------------------------------------


@functools.cache
def small_shoe_ways() -> tuple[Composition, Counter[int]]:
    """Every deal of a small shoe with pairs, perfect pairs, sixes and ties, counted by the engine."""
    composition = Composition.from_cards(parse_cards("AS AS 5H 5H 6D KD 9C 8C 3S 3D"))
    left = {card: n for card, n in zip(ALL_CARDS, composition.counts, strict=True) if n}
    ways: Counter[int] = Counter()

    def extend(dealer: CoupDealer, weight: int) -> None:
        if dealer.due is None:
            used = len(dealer.cards)
            key = CoupFeatures.of(dealer.result()).encode()
            ways[key] += weight * falling_factorial(composition.total - used, 6 - used)
            return
        for card, n in left.items():
            if n:
                left[card] = n - 1
                child = CoupDealer(cards=dict(dealer.cards), reasons=list(dealer.reasons))
                child.enter(card)
                extend(child, weight * n)
                left[card] = n

    extend(CoupDealer(), 1)
    return composition, ways


@pytest.mark.parametrize("name", OPTION_VARIANTS)
def test_r29_r31_exact_prices_agree_with_settlement_of_every_deal_of_a_small_shoe(name: str) -> None:
    variant = get_variant(name)
    composition, ways = small_shoe_ways()
    total = sum(ways.values())
    stake = 100  # every payout here is a whole number of hundredths (R32)
    bets = [Bet(kind, stake) for kind in variant.bets]
    expected = dict.fromkeys(variant.bets, Fraction(0))
    for key, n in ways.items():
        for settlement in settle_bets(key, bets, variant.paytable):
            expected[settlement.bet.kind] += Fraction(settlement.net * n, stake * total)
    sheet = par_sheet(composition, variant=variant)
    assert {kind: bet.expected_value for kind, bet in sheet.bets.items()} == expected
    assert any(value != 0 for kind, value in expected.items() if kind in NEW_BETS or kind is K.TIE)


def test_r29_r31_dealt_frequencies_agree_with_the_exact_probabilities() -> None:
    """Coups dealt from seeded eight-deck shoes (the engine's shoes, dealt by the compiled kernel) and
    settled: each new bet wins (and each level pays) as often as the exact par sheet says, within
    five standard errors."""
    variant = get_variant(f"macau+{ALL_OPTIONS}")
    dealt = Counter(deal_features(ShoeConfig(decks=8), seed=2026, shoes=2_000).keys.tolist())
    coups = sum(dealt.values())
    bets = [Bet(kind, 100) for kind in variant.bets]
    levels: Counter[tuple[BetKind, str]] = Counter()
    for key, n in dealt.items():
        for settlement in settle_bets(key, bets, variant.paytable):
            if settlement.result is BetResult.WIN:
                levels[settlement.bet.kind, settlement.level or ""] += n
    sheet = par_sheet(8, variant=variant)
    checked = 0
    for kind in (*NEW_BETS, K.TIE, K.BANKER):
        for result in sheet.bets[kind].results:
            if result.name in ("push", "lose"):
                continue
            p = float(result.probability)
            observed = levels[kind, result.name] / coups
            assert abs(observed - p) < 5 * math.sqrt(p * (1 - p) / coups), (kind, result.name, observed, p)
            checked += 1
    assert checked == 6  # lucky6's two levels, either pair, perfect pair, tie, banker


def test_r29_r31_eight_deck_house_edges() -> None:
    sheet = par_sheet(8, variant=f"macau+{ALL_OPTIONS}")
    edges = {kind: round(float(bet.house_edge), 5) for kind, bet in sheet.bets.items()}
    # Tie at 9 to 1: 1 - 10 x P(tie); Banker at 4%: P(lose) - 0.96 x P(win), from the outcome ways.
    tie = float(sheet.outcomes[next(w for w in sheet.outcomes if w.value == "tie")].probability)
    assert edges[K.TIE] == round(1 - 10 * tie, 5)
    assert 0.0059 < edges[K.BANKER] < 0.0061 and 0.16 < edges[K.LUCKY6] < 0.17
    assert 0.13 < edges[K.EITHER_PAIR] < 0.14 and 0.13 < edges[K.PERFECT_PAIR] < 0.14


# --- the table, deal, play, simulate, odds --------------------------------------------------------


def _settle_at_table(variant: str, cards: str, bets: dict[str, int]) -> CoupSettled:
    config = TableConfig(variant=variant, deal_source=DealSource.DEALER_ENTRY, min_bet=100, max_bet=10_000)
    table = Table(config)
    table.join("ann", balance=100_000, seat=1, now=0)
    table.open_betting(now=1)
    for kind, stake in bets.items():
        table.place_bet("ann", kind, stake, now=2)
    events = table.close_betting(now=3)
    pending = parse_cards(cards)
    while table.phase is Phase.DEALING:
        events += table.deal_card(pending.pop(0), now=4)
    return next(e for e in events if isinstance(e, CoupSettled))


@pytest.mark.parametrize(
    ("cards", "bets", "paid"),
    [
        (B6_2C_P5, {"lucky6": 100, "banker": 1_000}, {"lucky6": 1_200, "banker": 960}),
        (B6_3C_P5, {"lucky6": 100, "either_pair": 100}, {"lucky6": 2_000, "either_pair": 0}),
        (P_PERFECT, {"perfect_pair": 100, "either_pair": 100}, {"perfect_pair": 2_500, "either_pair": 500}),
        (TIE_7, {"tie": 100, "banker": 1_000}, {"tie": 900, "banker": 0}),
    ],
)
def test_r29_r31_the_table_settles_the_new_bets(cards: str, bets: dict[str, int], paid: dict[str, int]) -> None:
    event = _settle_at_table(f"macau+{ALL_OPTIONS}", cards, bets)
    assert {s.kind.value: s.paid for s in event.settlements} == paid
    placed = [Bet(K(kind), stake) for kind, stake in bets.items()]
    expected = settle_bets(deal_coup(parse_cards(cards)), placed, get_variant(f"macau+{ALL_OPTIONS}").paytable)
    assert [s.paid for s in event.settlements] == [s.paid for s in expected]


def test_r29_the_terminal_game_plays_lucky6() -> None:
    session = GameSession(variant="macau+lucky6+perfect_pair", bankroll=1_000_000, seed="11")
    assert K.LUCKY6 in session.variant.bets and K.PERFECT_PAIR in session.variant.bets
    wins = 0
    for _ in range(120):
        session.place("lucky6", 1_000)
        record = session.deal()
        wins += record.returned > 0
    assert 0 < wins < 30  # Lucky 6 wins about one coup in 19
    restored = restore_session(json.loads(json.dumps(session_data(session))))
    assert restored.variant is session.variant and restored.balance == session.balance


def _deal(*args: str) -> dict:  # type: ignore[type-arg]
    result = runner.invoke(app, ["deal", "--cards", f"{B6_2C_P5} {P_PERFECT}", "--json", *args])
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def test_r29_r31_deal_with_a_paytable_offers_its_side_bets(tmp_path: Path) -> None:
    path = tmp_path / "house.toml"
    path.write_text(
        'name = "house"\n[bets.banker]\npays = 1\ncommission = 0.04\n[bets.tie]\npays = 9\n'
        "[[bets.lucky6.levels]]\ncards = 2\npays = 12\n[[bets.lucky6.levels]]\ncards = 3\npays = 20\n"
        "[bets.either_pair]\npays = 5\n[bets.perfect_pair]\npays = 25\n",
        encoding="utf-8",
    )
    bets = ["lucky6=1", "either_pair=1", "perfect_pair=1", "banker=10", "tie=1"]
    data = _deal("--paytable", str(path), *(arg for bet in bets for arg in ("--bet", bet)))
    paid = [{s["bet"]: s["paid"] for s in coup["settlement"]} for coup in data["coups"]]
    assert paid[0] == {"lucky6": 1_200, "either_pair": 0, "perfect_pair": 0, "banker": 960, "tie": 0}
    assert paid[1] == {"lucky6": 0, "either_pair": 500, "perfect_pair": 2_500, "banker": 0, "tie": 0}
    assert data["paytable"] == "house"


def test_r29_deal_with_an_option_and_refusals_exit_2() -> None:
    data = _deal("--option", "lucky6", "--bet", "lucky6=1")
    assert data["variant"] == "macau+lucky6" and data["coups"][0]["settlement"][0]["paid"] == 1_200
    result = runner.invoke(app, ["deal", "--cards", B6_2C_P5, "--bet", "lucky6=1"])
    assert result.exit_code == 2 and "not offered by variant 'macau'" in result.stderr
    result = runner.invoke(app, ["deal", "--cards", B6_2C_P5, "--variant", "ez", "--option", "banker4"])
    assert result.exit_code == 2 and "does not offer option 'banker4'" in " ".join(result.stderr.split())


def test_r29_r31_odds_and_simulate_price_the_options() -> None:
    result = runner.invoke(app, ["odds", "--variant", f"standard+{ALL_OPTIONS}", "--json"])
    assert result.exit_code == 0, result.output
    bets = json.loads(result.stdout)["bets"]
    assert {"lucky6", "either_pair", "perfect_pair"} <= set(bets)
    assert [r["name"] for r in bets["lucky6"]["results"] if r["result"] == "win"] == ["two-card 6", "three-card 6"]
    args = ["simulate", "--variant", f"macau+{ALL_OPTIONS}", "--shoes", "200", "--seed", "3", "--json"]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    assert "lucky6" in result.stdout and "perfect_pair" in result.stdout


@pytest.mark.asyncio
async def test_r29_r31_the_terminal_game_shows_and_takes_the_option_bets() -> None:
    app = PlayApp(GameSession(variant="macau+lucky6+either_pair+perfect_pair", seed="21"), reveal_delay=0)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        for _ in range(len(get_variant("macau").bets)):  # down the menu to the first option's spot
            await pilot.press("down")
        await pilot.press("enter", "d")
        await pilot.pause()
        screen = "\n".join(strip.text for strip in app.screen._compositor.render_strips())
    assert "Lucky 6 幸運六" in screen and "Perfect Pair" in screen
    (settlement,) = app.session.history[-1].settlements
    assert (settlement.kind, settlement.stake) == (K.LUCKY6, 10_000)
    expected = settle_bets(app.session.history[-1].result, [Bet(K.LUCKY6, 10_000)], app.session.variant.paytable)
    assert settlement.paid == expected[0].paid
