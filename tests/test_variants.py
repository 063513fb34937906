"""The variant registry (docs/rules.md, "The variants"; R21, R27, R32)."""

from __future__ import annotations

from fractions import Fraction

import pytest

from baccarat.bets import BetKind
from baccarat.errors import InputError
from baccarat.paytables import builtin_paytable
from baccarat.settlement import CommissionMode
from baccarat.variants import VARIANTS, BetLimits, Variant, get_variant, variant_names

K = BetKind
MACAU = [K.BANKER, K.PLAYER, K.TIE, K.BANKER_PAIR, K.PLAYER_PAIR]
STANDARD = [
    *MACAU,
    K.BIG,
    K.SMALL,
    K.BANKER_ODD,
    K.BANKER_EVEN,
    K.PLAYER_ODD,
    K.PLAYER_EVEN,
    K.PLAYER_DRAGON_BONUS,
    K.BANKER_DRAGON_BONUS,
]
LETTERS = [
    K.PLAYER_ACE,
    K.BANKER_ACE,
    K.PLAYER_FACE,
    K.BANKER_FACE,
    K.PLAYER_ACE_FACE,
    K.BANKER_ACE_FACE,
    K.BOTH_ACE,
    K.BOTH_FACE,
    K.BOTH_ACE_FACE,
]
MENUS = {
    "macau": set(MACAU),
    "standard": set(STANDARD),
    "no_commission": {*STANDARD, K.SUPER6},
    "western": {*MACAU, *LETTERS},
    "ez": {*MACAU, K.DRAGON7, K.PANDA8},
}


def test_the_variants_are_registered_in_menu_order() -> None:
    assert variant_names() == ("macau", "standard", "no_commission", "western", "ez")
    assert [v.name for v in VARIANTS] == list(variant_names())


@pytest.mark.parametrize("name", list(MENUS))
def test_variant_menus_follow_the_rules(name: str) -> None:
    variant = get_variant(name)
    assert set(variant.bets) == MENUS[name]
    assert variant.paytable is builtin_paytable(name)
    assert variant.title and variant.title_zh and variant.title != variant.title_zh
    assert variant.commission is CommissionMode.DEDUCTED  # R27's default


def test_r28_no_commission_banker_pays_one_except_on_six() -> None:
    levels = get_variant("no_commission").paytable.terms(K.BANKER).levels
    assert [(lv.name, lv.pays, lv.commission) for lv in levels] == [
        ("win with 6", Fraction(1, 2), 0),
        ("win", Fraction(1), 0),
    ]


def test_get_variant_is_lenient_on_case_and_dashes_and_lists_variants_on_error() -> None:
    assert get_variant("No-Commission").name == "no_commission"
    with pytest.raises(InputError, match=r"unknown variant 'vegas' \(variants: macau, standard, no_commission"):
        get_variant("vegas")


@pytest.mark.parametrize("variant", VARIANTS, ids=lambda v: v.name)
def test_r21_r32_default_limits_never_round(variant: Variant) -> None:
    """Every bet has limits; minimum and maximum are multiples of a step on which no payout rounds."""
    assert [limit.kind for limit in variant.limits] == list(variant.bets)
    for limit in variant.limits:
        assert 0 < limit.minimum < limit.maximum
        assert limit.minimum % limit.step == 0 and limit.maximum % limit.step == 0
        for level in variant.paytable.terms(limit.kind).levels:
            for amount in (level.pays, level.gross):
                assert (limit.step * amount).denominator == 1
                assert (limit.minimum * amount).denominator == 1


def test_r32_steps_of_the_fractional_payouts() -> None:
    standard = get_variant("standard")
    steps = {kind: standard.limit(kind).step for kind in (K.BANKER, K.BIG, K.SMALL, K.PLAYER_ODD, K.PLAYER_EVEN)}
    # 0.95 -> 20, 0.54 -> 50, 1.5 -> 2, 0.96 -> 25, 0.90 -> 10: hand-worked from the bet table.
    assert steps == {K.BANKER: 20, K.BIG: 50, K.SMALL: 2, K.PLAYER_ODD: 25, K.PLAYER_EVEN: 10}
    assert get_variant("no_commission").limit(K.BANKER).step == 2


def test_variant_refuses_a_bet_it_does_not_offer() -> None:
    macau = get_variant("macau")
    assert macau.offers(K.TIE) and not macau.offers(K.DRAGON7)
    with pytest.raises(InputError, match=r"dragon7 \(Dragon 7\) is not offered by variant 'macau'.*banker \(莊\)"):
        macau.limit(K.DRAGON7)


def test_a_variant_cannot_offer_a_bet_its_paytable_does_not_pay() -> None:
    with pytest.raises(InputError, match="super6"):
        Variant(
            name="broken",
            title="Broken",
            title_zh="壞",
            paytable=builtin_paytable("macau"),
            bets=(K.BANKER, K.SUPER6),
        )


def test_variant_with_explicit_limits_and_commission() -> None:
    paytable = builtin_paytable("macau")
    limits = (BetLimits(K.BANKER, 2_000, 100_000, 20),)
    variant = Variant(
        name="club",
        title="Club",
        title_zh="會所",
        paytable=paytable,
        bets=(K.BANKER,),
        commission=CommissionMode.OWED,
        limits=limits,
    )
    assert variant.limit(K.BANKER).minimum == 2_000
    assert variant.to_dict()["commission"] == "owed"


def test_variant_to_dict() -> None:
    data = get_variant("ez").to_dict()
    banker = data["bets"][0]
    assert (data["name"], data["title_zh"], banker["bet"], banker["name_zh"]) == ("ez", "EZ百家樂", "banker", "莊")
    assert banker["pushes"] == ["three-card 7"] and banker["levels"][0]["pays"] == 1
    assert get_variant("macau").to_dict()["bets"][0]["levels"][0] == {
        "name": "win",
        "pays": 0.95,
        "gross": "1",
        "commission": "0.05",
    }


def test_variant_json_pays_is_the_number_odds_json_gives() -> None:
    from baccarat.analysis.par_sheet import par_sheet

    for variant in VARIANTS:
        sheet = par_sheet(8, variant=variant).to_dict()
        for bet in variant.to_dict()["bets"]:
            odds = {result["name"]: result["pays"] for result in sheet["bets"][bet["bet"]]["results"]}
            for level in bet["levels"]:
                assert type(level["pays"]) is float and level["pays"] == odds[level["name"]], bet["bet"]
                exact = Fraction(level["gross"]) - Fraction(level["commission"])  # the exact text stays
                assert float(exact) == level["pays"]
