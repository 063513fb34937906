"""Settlement (R24–R32): every row of every paytable on planted cards, money, tie policy, and the vector form."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from baccarat.bets import Bet, BetFamily, BetKind
from baccarat.cards import ALL_CARDS, parse_cards
from baccarat.coup import CoupResult, Winner, deal_coup
from baccarat.errors import InputError
from baccarat.features import FEATURE_KEYS, CoupFeatures
from baccarat.paytables import BUILTIN_PAYTABLES, Paytable, builtin_paytable, parse_paytable
from baccarat.settlement import (
    LOSE,
    PUSH,
    BetResult,
    CommissionMode,
    FeatureArrays,
    OutcomeTable,
    Settlement,
    TiePolicy,
    outcome_table,
    settle_bets,
)

STAKE = 100

# Operator paytable for the bets that no shipped variant offers (R29, R31): loaded as data, no code.
EXTRAS = parse_paytable(
    {
        "name": "extras",
        "bets": {
            "lucky6": {"levels": [{"cards": 2, "pays": 12}, {"cards": 3, "pays": 20}]},
            "either_pair": {"pays": 5},
            "perfect_pair": {"pays": 25},
        },
    },
    source="extras (test)",
)


def coup(text: str) -> CoupResult:
    """A coup dealt by the engine from planted cards in shoe order."""
    return deal_coup(parse_cards(text))


def settle_one(cards: str, paytable: Paytable, kind: BetKind, stake: int = STAKE, **options: object) -> Settlement:
    return settle_bets(coup(cards), [Bet(kind, stake)], paytable, **options)[0]  # type: ignore[arg-type]


# Planted coups (hand-checked against R11–R17; P = Player, B = Banker).
P8_3C_B0_3C = "AS 2H 3D KC 4S 8D"  # P A 3 4 = 8 (three cards), B 2 K 8 = 0: Player by 8, six cards
B9_NAT_P5 = "2S 9H 3D KC"  # P 2 3 = 5, B 9 K = 9 natural: Banker by 4, four cards
TIE_NAT_9 = "4S 9H 5D KC"  # P 4 5 = 9, B 9 K = 9: a tie of two naturals
TIE_7 = "3D 3H 4S 4C"  # P 3 4 = 7, B 3 4 = 7: a tie, no natural, four cards
B6_2C_P5 = "KS 2H 2D 4S 3C"  # P K 2 3 = 5, B 2 4 = 6 stands on Player's third 3: Banker wins with two-card 6
B6_3C_P5 = "KS AH 2D 3S 3C 2C"  # P K 2 3 = 5 (face), B A 3 2 = 6 (ace): Banker wins with three-card 6
B7_3C_P5 = "KS AH 2D 3S 3C 3D"  # P K 2 3 = 5, B A 3 3 = 7: Banker wins with three-card 7
B7_2C_P5 = "KS 3H 2D 4S 3C"  # P K 2 3 = 5, B 3 4 = 7 stands: Banker wins with two-card 7
P9_NAT_B3 = "9S 8H KD 5C"  # P 9 K = 9 natural, B 8 5 = 3: Player natural, by 6
P9_3C_B0 = "KS KH QD QS 9C JC"  # P K Q 9 = 9, B K Q J = 0: Player by 9, no natural
P7_B0 = "3S KH 4D QC KD"  # P 7 stands, B K Q K = 0: Player by 7
P6_B0 = "2S KH 4D QC KD"  # P 6, B 0: Player by 6
P7_B2 = "3S KH 4D 2C KD"  # P 7, B K 2 K = 2: Player by 5
P6_B2 = "2S KH 4D 2C KD"  # P 6, B 2: Player by 4
P7_B4 = "3S KH 4D 4C KD"  # P 7, B K 4 K = 4: Player by 3
B9_3C_P0 = "KS KH QD QS KC 9D"  # P K Q K = 0, B K Q 9 = 9: Banker by 9, no natural
B_PAIR = "2S 9H 3D 9C"  # B 9 9 = 8 natural (a pair, suits differ), P 5
P_PAIR = "9S 2H 9D 3C"  # P 9 9 = 8 natural (a pair, suits differ), B 5
P_PERFECT = "9S 2H 9S 3C"  # P 9S 9S: a perfect pair (multi-deck shoe)
TIE_ACE_FACE = "AS AH KD QC 5S 5H"  # P A K 5 = 6, B A Q 5 = 6: a tie, both hands hold an A and a face, six cards

M, S, N, W, E = (builtin_paytable(name) for name in ("macau", "standard", "no_commission", "western", "ez"))
K = BetKind

# (rule, paytable, bet, cards, result, level, paid on a stake of 100): payouts hand-worked from docs/rules.md.
ROWS: list[tuple[str, Paytable, BetKind, str, BetResult, str, int]] = [
    # Banker and Player (R17, R24, R27) on the three Banker-commission tables.
    *(
        row
        for table in (M, S, W)
        for row in [
            ("r27", table, K.BANKER, B9_NAT_P5, BetResult.WIN, "win", 95),
            ("r17", table, K.BANKER, P8_3C_B0_3C, BetResult.LOSE, "", 0),
            ("r24", table, K.BANKER, TIE_7, BetResult.PUSH, "", 0),
            ("r17", table, K.PLAYER, P8_3C_B0_3C, BetResult.WIN, "win", 100),
            ("r17", table, K.PLAYER, B9_NAT_P5, BetResult.LOSE, "", 0),
            ("r24", table, K.PLAYER, TIE_NAT_9, BetResult.PUSH, "", 0),
            ("r17", table, K.TIE, TIE_7, BetResult.WIN, "tie", 800),
            ("r25", table, K.TIE, B9_NAT_P5, BetResult.LOSE, "", 0),
            ("r25", table, K.BANKER_PAIR, B_PAIR, BetResult.WIN, "pair", 1100),
            ("r25", table, K.BANKER_PAIR, P_PAIR, BetResult.LOSE, "", 0),
            ("r25", table, K.BANKER_PAIR, TIE_7, BetResult.LOSE, "", 0),
            ("r25", table, K.PLAYER_PAIR, P_PAIR, BetResult.WIN, "pair", 1100),
            ("r25", table, K.PLAYER_PAIR, B_PAIR, BetResult.LOSE, "", 0),
        ]
    ),
    # Big / Small, odd / even (bet table, R25), on standard and no_commission.
    *(
        row
        for table in (S, N)
        for row in [
            ("r25", table, K.BIG, P8_3C_B0_3C, BetResult.WIN, "win", 54),
            ("r25", table, K.BIG, B6_2C_P5, BetResult.WIN, "win", 54),
            ("r25", table, K.BIG, TIE_ACE_FACE, BetResult.WIN, "win", 54),
            ("r25", table, K.BIG, TIE_7, BetResult.LOSE, "", 0),
            ("r25", table, K.SMALL, B9_NAT_P5, BetResult.WIN, "win", 150),
            ("r25", table, K.SMALL, TIE_7, BetResult.WIN, "win", 150),
            ("r25", table, K.SMALL, B6_2C_P5, BetResult.LOSE, "", 0),
            ("r25", table, K.BANKER_ODD, B9_NAT_P5, BetResult.WIN, "win", 94),
            ("r25", table, K.BANKER_ODD, P8_3C_B0_3C, BetResult.LOSE, "", 0),
            ("r25", table, K.BANKER_EVEN, P8_3C_B0_3C, BetResult.WIN, "win", 94),
            ("r25", table, K.BANKER_EVEN, B9_NAT_P5, BetResult.LOSE, "", 0),
            ("r25", table, K.PLAYER_ODD, B9_NAT_P5, BetResult.WIN, "win", 96),
            ("r25", table, K.PLAYER_ODD, TIE_ACE_FACE, BetResult.LOSE, "", 0),
            ("r25", table, K.PLAYER_EVEN, P8_3C_B0_3C, BetResult.WIN, "win", 90),
            ("r25", table, K.PLAYER_EVEN, TIE_7, BetResult.LOSE, "", 0),
            # Dragon Bonus (R26).
            ("r26", table, K.PLAYER_DRAGON_BONUS, P9_NAT_B3, BetResult.WIN, "natural", 100),
            ("r26", table, K.PLAYER_DRAGON_BONUS, P9_3C_B0, BetResult.WIN, "win by 9", 3000),
            ("r26", table, K.PLAYER_DRAGON_BONUS, P8_3C_B0_3C, BetResult.WIN, "win by 8", 1000),
            ("r26", table, K.PLAYER_DRAGON_BONUS, P7_B0, BetResult.WIN, "win by 7", 600),
            ("r26", table, K.PLAYER_DRAGON_BONUS, P6_B0, BetResult.WIN, "win by 6", 400),
            ("r26", table, K.PLAYER_DRAGON_BONUS, P7_B2, BetResult.WIN, "win by 5", 200),
            ("r26", table, K.PLAYER_DRAGON_BONUS, P6_B2, BetResult.WIN, "win by 4", 100),
            ("r26", table, K.PLAYER_DRAGON_BONUS, P7_B4, BetResult.LOSE, "", 0),
            ("r26", table, K.PLAYER_DRAGON_BONUS, TIE_NAT_9, BetResult.PUSH, "", 0),
            ("r26", table, K.PLAYER_DRAGON_BONUS, TIE_7, BetResult.LOSE, "", 0),
            ("r26", table, K.PLAYER_DRAGON_BONUS, B9_NAT_P5, BetResult.LOSE, "", 0),
            ("r26", table, K.BANKER_DRAGON_BONUS, B9_NAT_P5, BetResult.WIN, "natural", 100),
            ("r26", table, K.BANKER_DRAGON_BONUS, B9_3C_P0, BetResult.WIN, "win by 9", 3000),
            *(
                ("r26", table, K.BANKER_DRAGON_BONUS, f"KS KH QD QS KC {n}D", BetResult.WIN, f"win by {n}", pays)
                for n, pays in [(8, 1000), (7, 600), (6, 400), (5, 200), (4, 100)]
            ),
            ("r26", table, K.BANKER_DRAGON_BONUS, B6_2C_P5, BetResult.LOSE, "", 0),
            ("r26", table, K.BANKER_DRAGON_BONUS, TIE_NAT_9, BetResult.PUSH, "", 0),
            ("r26", table, K.BANKER_DRAGON_BONUS, P8_3C_B0_3C, BetResult.LOSE, "", 0),
        ]
    ),
    ("r27", S, K.BANKER, B6_2C_P5, BetResult.WIN, "win", 95),
    # No commission (R28) and Super 6.
    ("r28", N, K.BANKER, B6_2C_P5, BetResult.WIN, "win with 6", 50),
    ("r28", N, K.BANKER, B6_3C_P5, BetResult.WIN, "win with 6", 50),
    ("r28", N, K.BANKER, B9_NAT_P5, BetResult.WIN, "win", 100),
    ("r28", N, K.BANKER, P8_3C_B0_3C, BetResult.LOSE, "", 0),
    ("r28", N, K.BANKER, TIE_7, BetResult.PUSH, "", 0),
    ("r28", N, K.PLAYER, P8_3C_B0_3C, BetResult.WIN, "win", 100),
    ("r28", N, K.PLAYER, B6_2C_P5, BetResult.LOSE, "", 0),
    ("r28", N, K.TIE, TIE_7, BetResult.WIN, "tie", 800),
    ("r28", N, K.TIE, B6_2C_P5, BetResult.LOSE, "", 0),
    ("r28", N, K.BANKER_PAIR, B_PAIR, BetResult.WIN, "pair", 1100),
    ("r28", N, K.BANKER_PAIR, P_PAIR, BetResult.LOSE, "", 0),
    ("r28", N, K.PLAYER_PAIR, P_PAIR, BetResult.WIN, "pair", 1100),
    ("r28", N, K.PLAYER_PAIR, B_PAIR, BetResult.LOSE, "", 0),
    ("r28", N, K.SUPER6, B6_2C_P5, BetResult.WIN, "win", 1200),
    ("r28", N, K.SUPER6, B6_3C_P5, BetResult.WIN, "win", 1200),
    ("r28", N, K.SUPER6, B7_3C_P5, BetResult.LOSE, "", 0),
    ("r28", N, K.SUPER6, TIE_ACE_FACE, BetResult.LOSE, "", 0),
    # Western letter bets (R30): the hand holds the cards, whoever wins; a tie changes nothing.
    ("r30", W, K.PLAYER_ACE, P8_3C_B0_3C, BetResult.WIN, "win", 400),
    ("r30", W, K.PLAYER_ACE, B6_3C_P5, BetResult.LOSE, "", 0),
    ("r30", W, K.BANKER_ACE, B6_3C_P5, BetResult.WIN, "win", 400),
    ("r30", W, K.BANKER_ACE, P8_3C_B0_3C, BetResult.LOSE, "", 0),
    ("r30", W, K.PLAYER_FACE, B6_3C_P5, BetResult.WIN, "win", 100),
    ("r30", W, K.PLAYER_FACE, P8_3C_B0_3C, BetResult.LOSE, "", 0),
    ("r30", W, K.BANKER_FACE, P8_3C_B0_3C, BetResult.WIN, "win", 100),
    ("r30", W, K.BANKER_FACE, B6_3C_P5, BetResult.LOSE, "", 0),
    ("r30", W, K.PLAYER_ACE_FACE, TIE_ACE_FACE, BetResult.WIN, "win", 1400),
    ("r30", W, K.PLAYER_ACE_FACE, P8_3C_B0_3C, BetResult.LOSE, "", 0),
    ("r30", W, K.BANKER_ACE_FACE, TIE_ACE_FACE, BetResult.WIN, "win", 1400),
    ("r30", W, K.BANKER_ACE_FACE, B6_3C_P5, BetResult.LOSE, "", 0),
    ("r30", W, K.BOTH_ACE, TIE_ACE_FACE, BetResult.WIN, "win", 2500),
    ("r30", W, K.BOTH_ACE, P8_3C_B0_3C, BetResult.LOSE, "", 0),
    ("r30", W, K.BOTH_FACE, TIE_ACE_FACE, BetResult.WIN, "win", 300),
    ("r30", W, K.BOTH_FACE, B6_3C_P5, BetResult.LOSE, "", 0),
    ("r30", W, K.BOTH_ACE_FACE, TIE_ACE_FACE, BetResult.WIN, "win", 20000),
    ("r30", W, K.BOTH_ACE_FACE, B6_3C_P5, BetResult.LOSE, "", 0),
    # EZ Baccarat (R31): no commission, Banker pushes on a three-card 7; Dragon 7, Panda 8.
    ("r31", E, K.BANKER, B7_3C_P5, BetResult.PUSH, "", 0),
    ("r31", E, K.BANKER, B7_2C_P5, BetResult.WIN, "win", 100),
    ("r31", E, K.BANKER, B9_NAT_P5, BetResult.WIN, "win", 100),
    ("r31", E, K.BANKER, P8_3C_B0_3C, BetResult.LOSE, "", 0),
    ("r31", E, K.BANKER, TIE_7, BetResult.PUSH, "", 0),
    ("r31", E, K.PLAYER, P8_3C_B0_3C, BetResult.WIN, "win", 100),
    ("r31", E, K.PLAYER, B7_3C_P5, BetResult.LOSE, "", 0),
    ("r31", E, K.TIE, TIE_NAT_9, BetResult.WIN, "tie", 800),
    ("r31", E, K.TIE, B7_3C_P5, BetResult.LOSE, "", 0),
    ("r31", E, K.BANKER_PAIR, B_PAIR, BetResult.WIN, "pair", 1100),
    ("r31", E, K.BANKER_PAIR, TIE_7, BetResult.LOSE, "", 0),
    ("r31", E, K.PLAYER_PAIR, P_PAIR, BetResult.WIN, "pair", 1100),
    ("r31", E, K.PLAYER_PAIR, TIE_7, BetResult.LOSE, "", 0),
    ("r31", E, K.DRAGON7, B7_3C_P5, BetResult.WIN, "win", 4000),
    ("r31", E, K.DRAGON7, B7_2C_P5, BetResult.LOSE, "", 0),
    ("r31", E, K.PANDA8, P8_3C_B0_3C, BetResult.WIN, "win", 2500),
    ("r31", E, K.PANDA8, P_PAIR, BetResult.LOSE, "", 0),
    # Lucky 6 (R29) and the R31 pair bets, from an operator paytable.
    ("r29", EXTRAS, K.LUCKY6, B6_2C_P5, BetResult.WIN, "two cards", 1200),
    ("r29", EXTRAS, K.LUCKY6, B6_3C_P5, BetResult.WIN, "three cards", 2000),
    ("r29", EXTRAS, K.LUCKY6, B7_3C_P5, BetResult.LOSE, "", 0),
    ("r31", EXTRAS, K.EITHER_PAIR, P_PAIR, BetResult.WIN, "pair", 500),
    ("r31", EXTRAS, K.EITHER_PAIR, B_PAIR, BetResult.WIN, "pair", 500),
    ("r31", EXTRAS, K.EITHER_PAIR, TIE_7, BetResult.LOSE, "", 0),
    ("r31", EXTRAS, K.PERFECT_PAIR, P_PERFECT, BetResult.WIN, "perfect pair", 2500),
    ("r31", EXTRAS, K.PERFECT_PAIR, P_PAIR, BetResult.LOSE, "", 0),
]


@pytest.mark.parametrize(
    ("rule", "paytable", "kind", "cards", "result", "level", "paid"),
    ROWS,
    ids=[f"{r[0]}-{r[1].name}-{r[2].value}-{r[4].value}-{r[3].replace(' ', '')}" for r in ROWS],
)
def test_r24_to_r31_paytable_rows_on_planted_cards(
    rule: str, paytable: Paytable, kind: BetKind, cards: str, result: BetResult, level: str, paid: int
) -> None:
    s = settle_one(cards, paytable, kind)
    assert (s.result, s.level, s.paid) == (result, level, paid)
    expected_returned = {BetResult.WIN: STAKE + paid, BetResult.PUSH: STAKE}.get(result, 0)
    assert s.returned == expected_returned


@pytest.mark.parametrize("paytable", [M, S, N, W, E, EXTRAS], ids=lambda t: t.name)
def test_every_level_of_every_paytable_is_hit_and_every_bet_can_lose(paytable: Paytable) -> None:
    """The rows above cover each paying level of each paytable, and a losing case of each bet."""
    hit = {(r[2], r[5]) for r in ROWS if r[1] is paytable and r[4] is BetResult.WIN}
    lost = {r[2] for r in ROWS if r[1] is paytable and r[4] is BetResult.LOSE}
    for terms in paytable:
        for level in terms.levels:
            assert (terms.kind, level.name) in hit, f"no row hits {terms.kind.value} {level.name!r}"
        assert terms.kind in lost, f"no losing row for {terms.kind.value}"


def test_r26_dragon_bonus_natural_beats_margin_level() -> None:
    # Player natural 9 against 3 is a win by 6, but a natural pays 1, not 4.
    s = settle_one(P9_NAT_B3, S, K.PLAYER_DRAGON_BONUS)
    assert (s.level, s.paid) == ("natural", 100)


def test_r26_dragon_bonus_pays_30_on_win_by_9() -> None:
    s = settle_one(P9_3C_B0, S, K.PLAYER_DRAGON_BONUS, stake=50)
    assert (s.result, s.paid, s.returned) == (BetResult.WIN, 1500, 1550)


def test_r27_commission_deducted_and_owed_net_the_same() -> None:
    deducted = settle_one(B9_NAT_P5, M, K.BANKER)
    owed = settle_one(B9_NAT_P5, M, K.BANKER, commission=CommissionMode.OWED)
    assert (deducted.paid, deducted.commission, deducted.returned, deducted.owed) == (95, 5, 195, 0)
    assert (owed.paid, owed.commission, owed.returned, owed.owed) == (100, 5, 200, 5)
    assert deducted.net == owed.net == 95


def test_r27_owed_commission_only_on_a_winning_banker_bet() -> None:
    player = settle_one(P8_3C_B0_3C, M, K.PLAYER, commission=CommissionMode.OWED)
    lost = settle_one(P8_3C_B0_3C, M, K.BANKER, commission=CommissionMode.OWED)
    assert (player.paid, player.commission) == (100, 0)
    assert (lost.paid, lost.commission, lost.net) == (0, 0, -STAKE)


def test_r32_a_fraction_of_a_minor_unit_is_rounded_down() -> None:
    banker = settle_one(B9_NAT_P5, M, K.BANKER, stake=10)  # 9.5 -> 9
    big = settle_one(P8_3C_B0_3C, S, K.BIG, stake=10)  # 5.4 -> 5
    small = settle_one(B9_NAT_P5, S, K.SMALL, stake=3)  # 4.5 -> 4
    six = settle_one(B6_2C_P5, N, K.BANKER, stake=3)  # 1.5 -> 1
    assert (banker.paid, banker.commission) == (9, 1)
    assert (big.paid, small.paid, six.paid) == (5, 4, 1)
    owed = settle_one(B9_NAT_P5, M, K.BANKER, stake=10, commission=CommissionMode.OWED)
    assert (owed.paid, owed.commission, owed.net) == (10, 1, 9)


def test_r32_exact_on_large_stakes() -> None:
    stake = 10**15 + 20
    s = settle_one(B9_NAT_P5, M, K.BANKER, stake=stake)
    assert s.paid == stake * 95 // 100
    assert Fraction(s.paid) == Fraction(stake) * Fraction(19, 20)


def test_r24_stay_leaves_banker_and_player_in_action_on_a_tie() -> None:
    bets = [Bet(K.BANKER, 200), Bet(K.PLAYER, 100), Bet(K.TIE, 10), Bet(K.PLAYER_DRAGON_BONUS, 30)]
    stay = settle_bets(coup(TIE_NAT_9), bets, S, on_tie=TiePolicy.STAY)
    assert [s.result for s in stay] == [BetResult.STAY, BetResult.STAY, BetResult.WIN, BetResult.PUSH]
    assert [s.returned for s in stay] == [0, 0, 90, 30]
    push = settle_bets(coup(TIE_NAT_9), bets, S, on_tie=TiePolicy.PUSH)
    assert [s.result for s in push] == [BetResult.PUSH, BetResult.PUSH, BetResult.WIN, BetResult.PUSH]
    assert [s.returned for s in push] == [200, 100, 90, 30]


def test_r24_stay_does_not_change_a_decided_coup_or_the_ez_push() -> None:
    decided = settle_one(B9_NAT_P5, M, K.BANKER, on_tie=TiePolicy.STAY)
    ez_push = settle_one(B7_3C_P5, E, K.BANKER, on_tie=TiePolicy.STAY)
    assert decided.result is BetResult.WIN
    assert (ez_push.result, ez_push.returned) == (BetResult.PUSH, STAKE)


def test_settle_accepts_features_and_feature_keys() -> None:
    result = coup(P8_3C_B0_3C)
    features = CoupFeatures.of(result)
    bets = [Bet(K.PLAYER_DRAGON_BONUS, 100), Bet(K.BIG, 50)]
    expected = settle_bets(result, bets, S)
    assert settle_bets(features, bets, S) == expected
    assert settle_bets(features.encode(), bets, S) == expected


def test_a_bet_the_paytable_does_not_offer_is_refused() -> None:
    with pytest.raises(InputError, match=r"super6 .*not offered by paytable 'macau'.*banker \(莊\)"):
        settle_bets(coup(B6_2C_P5), [Bet(K.BANKER, 100), Bet(K.SUPER6, 10)], M)
    with pytest.raises(InputError, match="feature key"):
        settle_bets(FEATURE_KEYS, [Bet(K.BANKER, 100)], M)


def test_settlement_to_dict_has_the_json_fields() -> None:
    s = settle_one(B9_NAT_P5, M, K.BANKER)
    assert s.to_dict() == {
        "bet": "banker",
        "stake": 100,
        "result": "win",
        "paid": 95,
        "commission": 5,
        "returned": 195,
        "level": "win",
    }


# --- the vector form ------------------------------------------------------------------------------


def test_feature_arrays_decode_every_key_like_coup_features() -> None:
    keys = np.arange(FEATURE_KEYS)
    vector = FeatureArrays.of_keys(keys)
    scalar = FeatureArrays.of([CoupFeatures.decode(int(k)) for k in keys])
    for name in vector.__dataclass_fields__:
        assert np.array_equal(getattr(vector, name), getattr(scalar, name)), name


@pytest.mark.parametrize("name", BUILTIN_PAYTABLES)
def test_outcome_table_shape_and_levels(name: str) -> None:
    paytable = builtin_paytable(name)
    table = outcome_table(paytable)
    assert isinstance(table, OutcomeTable)
    assert table is outcome_table(paytable)  # cached
    assert table.kinds == paytable.kinds
    for kind in table.kinds:
        index = table.index[kind]
        assert index.dtype == np.int8 and index.shape == (FEATURE_KEYS,)
        assert not index.flags.writeable
        assert index.min() >= PUSH and index.max() < len(table.levels[kind])
        assert set(np.unique(index)) >= {LOSE}
    assert table.levels[K.BANKER][-1].pays in (Fraction(19, 20), Fraction(1))


def test_outcome_table_of_a_new_paytable_covers_every_bet_kind() -> None:
    # A paytable not seen before (cache miss) with every bet kind; its build time is in benchmarks/bench_odds.py.
    data = {"name": "all", "bets": {kind.value: {"pays": 2} for kind in BetKind}}
    table = outcome_table(parse_paytable(data, source="all (test)"))
    assert set(table.kinds) == set(BetKind)
    assert all(table.index[kind].shape == (FEATURE_KEYS,) for kind in BetKind)


def test_outcome_table_main_bets_on_every_key() -> None:
    """Banker/Player/Tie in the vector form agree with the totals of every decoded key."""
    table = outcome_table(M)
    for key in range(0, FEATURE_KEYS, 97):
        f = CoupFeatures.decode(key)
        expected = {Winner.BANKER: (0, LOSE, LOSE), Winner.PLAYER: (LOSE, 0, LOSE), Winner.TIE: (PUSH, PUSH, 0)}
        got = tuple(int(table.index[kind][key]) for kind in (K.BANKER, K.PLAYER, K.TIE))
        assert got == expected[f.winner]


# --- properties -------------------------------------------------------------------------------------

cards_6 = st.lists(st.sampled_from(ALL_CARDS), min_size=6, max_size=6)
PAYTABLES = [M, S, N, W, E, EXTRAS]


@st.composite
def bets_on(draw: st.DrawFn, *, with_main_bets: bool = False) -> tuple[Paytable, list[Bet]]:
    paytable = draw(st.sampled_from([t for t in PAYTABLES if K.BANKER in t or not with_main_bets]))
    kinds = draw(st.lists(st.sampled_from(paytable.kinds), min_size=1, max_size=8))
    stakes = draw(st.lists(st.integers(1, 10**7), min_size=len(kinds), max_size=len(kinds)))
    return paytable, [Bet(kind, stake) for kind, stake in zip(kinds, stakes, strict=True)]


@settings(max_examples=150, deadline=None)
@given(cards=cards_6, table_bets=bets_on(), mode=st.sampled_from(CommissionMode), tie=st.sampled_from(TiePolicy))
def test_property_money_is_conserved_and_results_are_consistent(
    cards: list, table_bets: tuple[Paytable, list[Bet]], mode: CommissionMode, tie: TiePolicy
) -> None:
    paytable, bets = table_bets
    result = deal_coup(cards)
    settlements = settle_bets(result, bets, paytable, commission=mode, on_tie=tie)
    assert [s.bet for s in settlements] == bets
    staked = sum(b.stake for b in bets)
    in_action = sum(s.bet.stake for s in settlements if s.result is BetResult.STAY)
    house_pays = sum(s.paid for s in settlements)
    house_keeps = sum(s.kept for s in settlements)
    returned = sum(s.returned for s in settlements)
    assert returned + house_keeps + in_action == staked + house_pays
    for s in settlements:
        stake = s.bet.stake
        if s.result is BetResult.WIN:
            assert s.paid >= 0 and s.commission >= 0
            assert s.returned == stake + s.paid and s.level
            level = next(lv for lv in paytable.terms(s.bet.kind).levels if lv.name == s.level)
            assert s.net == stake * level.pays.numerator // level.pays.denominator
        else:
            assert s.paid == s.commission == 0 and s.level == ""
            assert s.returned == {BetResult.PUSH: stake}.get(s.result, 0)
        if s.result is BetResult.STAY:
            assert result.winner is Winner.TIE and s.bet.kind.spec.family is BetFamily.MAIN
    # No bet both wins and loses: Banker and Player never both win; each decided coup has one winner.
    by_kind = {s.bet.kind: s.result for s in settlements}
    assert not (by_kind.get(K.BANKER) is BetResult.WIN and by_kind.get(K.PLAYER) is BetResult.WIN)


@settings(max_examples=150, deadline=None)
@given(cards=cards_6, table_bets=bets_on(with_main_bets=True))
def test_property_push_policy_returns_banker_and_player_stakes_exactly_on_a_tie(
    cards: list, table_bets: tuple[Paytable, list[Bet]]
) -> None:
    paytable, bets = table_bets
    bets = [*bets, Bet(K.BANKER, 1234), Bet(K.PLAYER, 999)]
    result = deal_coup(cards)
    for s in settle_bets(result, bets, paytable, on_tie=TiePolicy.PUSH):
        if s.bet.kind in (K.BANKER, K.PLAYER) and result.winner is Winner.TIE:
            assert (s.result, s.returned, s.paid) == (BetResult.PUSH, s.bet.stake, 0)


@settings(max_examples=200, deadline=None)
@given(cards=cards_6, paytable=st.sampled_from(PAYTABLES))
def test_property_scalar_settlement_agrees_with_outcome_table(cards: list, paytable: Paytable) -> None:
    result = deal_coup(cards)
    key = CoupFeatures.of(result).encode()
    table = outcome_table(paytable)
    bets = [Bet(kind, 1000) for kind in paytable.kinds]
    for s in settle_bets(result, bets, paytable):
        code = int(table.index[s.bet.kind][key])
        if code == LOSE:
            assert s.result is BetResult.LOSE
        elif code == PUSH:
            assert s.result is BetResult.PUSH
        else:
            level = table.levels[s.bet.kind][code]
            assert (s.result, s.level) == (BetResult.WIN, level.name)
            assert s.paid == 1000 * level.pays
