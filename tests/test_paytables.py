"""Paytables as data (R24–R32): the shipped tables, operator tables without code, and validation on load."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest

from baccarat.bets import Bet, BetKind
from baccarat.cards import parse_cards
from baccarat.coup import deal_coup
from baccarat.errors import InputError
from baccarat.paytables import (
    BUILTIN_PAYTABLES,
    Condition,
    Paytable,
    builtin_paytable,
    format_pays,
    load_paytable,
    parse_paytable,
)
from baccarat.settlement import BetResult, settle_bets

K = BetKind
F = Fraction


def pays(paytable: Paytable, kind: BetKind) -> list[tuple[str, Fraction]]:
    """(level name, net pays) of one bet."""
    return [(level.name, level.pays) for level in paytable.terms(kind).levels]


MAIN = {
    K.BANKER: [("win", F(19, 20))],
    K.PLAYER: [("win", F(1))],
    K.TIE: [("tie", F(8))],
    K.BANKER_PAIR: [("pair", F(11))],
    K.PLAYER_PAIR: [("pair", F(11))],
}
DRAGON = [("natural", F(1)), *((f"win by {m}", F(p)) for m, p in [(9, 30), (8, 10), (7, 6), (6, 4), (5, 2), (4, 1)])]
STANDARD = {
    **MAIN,
    K.BIG: [("win", F(54, 100))],
    K.SMALL: [("win", F(3, 2))],
    K.BANKER_ODD: [("win", F(94, 100))],
    K.BANKER_EVEN: [("win", F(94, 100))],
    K.PLAYER_ODD: [("win", F(96, 100))],
    K.PLAYER_EVEN: [("win", F(90, 100))],
    K.PLAYER_DRAGON_BONUS: DRAGON,
    K.BANKER_DRAGON_BONUS: DRAGON,
}
EXPECTED = {
    "macau": MAIN,
    "standard": STANDARD,
    "no_commission": {
        **STANDARD,
        K.BANKER: [("win with 6", F(1, 2)), ("win", F(1))],
        K.SUPER6: [("win", F(12))],
    },
    "western": {
        **MAIN,
        **{k: [("win", F(p))] for k, p in [(K.PLAYER_ACE, 4), (K.BANKER_ACE, 4), (K.PLAYER_FACE, 1)]},
        **{k: [("win", F(p))] for k, p in [(K.BANKER_FACE, 1), (K.PLAYER_ACE_FACE, 14), (K.BANKER_ACE_FACE, 14)]},
        **{k: [("win", F(p))] for k, p in [(K.BOTH_ACE, 25), (K.BOTH_FACE, 3), (K.BOTH_ACE_FACE, 200)]},
    },
    "ez": {
        **MAIN,
        K.BANKER: [("win", F(1))],
        K.DRAGON7: [("win", F(40))],
        K.PANDA8: [("win", F(25))],
    },
}


@pytest.mark.parametrize("name", BUILTIN_PAYTABLES)
def test_r24_to_r31_shipped_paytables_match_the_rules(name: str) -> None:
    paytable = builtin_paytable(name)
    assert paytable.name == name and paytable.source == f"builtin:{name}"
    assert {kind: pays(paytable, kind) for kind in paytable.kinds} == EXPECTED[name]
    assert paytable.title and paytable.title_zh


def test_r27_commission_is_five_percent_of_a_winning_banker_stake() -> None:
    for name in ("macau", "standard", "western"):
        (level,) = builtin_paytable(name).terms(K.BANKER).levels
        assert (level.gross, level.commission) == (1, F(1, 20))
    assert all(level.commission == 0 for level in builtin_paytable("no_commission").terms(K.BANKER).levels)


def test_r28_no_commission_six_is_a_level_on_banker_total_6() -> None:
    six, plain = builtin_paytable("no_commission").terms(K.BANKER).levels
    assert six.when == Condition(total=6) and plain.when == Condition()


def test_r31_ez_banker_pushes_on_three_card_7() -> None:
    (push,) = builtin_paytable("ez").terms(K.BANKER).pushes
    assert push.when == Condition(total=7, cards=3) and push.name == "three-card 7"


def test_r32_decimal_payouts_are_exact_fractions() -> None:
    for value, expected in [(0.54, F(27, 50)), ("0.95", F(19, 20)), ("3/2", F(3, 2)), (8, F(8))]:
        table = parse_paytable({"name": "t", "bets": {"big": {"pays": value}}})
        assert table.terms(K.BIG).levels[0].pays == expected
    assert format_pays(F(27, 50)) == "0.54"


# --- operator paytables: no code -------------------------------------------------------------------

OPERATOR = """
name = "house"
title = "House rules"
title_zh = "本場賠率"

[bets.tie]
pays = 9

[bets.super6]
pays = 15

[bets."莊"]
pays = 1
commission = "1/20"

# A different Dragon Bonus table: 25 on a win by 9, 0.5 on a win by 3, natural 1.
[[bets.banker_dragon_bonus.levels]]
natural = true
pays = 1

[[bets.banker_dragon_bonus.levels]]
margin = 9
pays = 25

[[bets.banker_dragon_bonus.levels]]
margin = 3
pays = 0.5
"""


def write(tmp_path: Path, text: str, name: str = "house.toml") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_r31_operator_paytable_from_any_path_needs_no_code(tmp_path: Path) -> None:
    table = load_paytable(write(tmp_path, OPERATOR))
    assert table.name == "house" and table.source.endswith("house.toml")
    assert table.kinds == (K.TIE, K.SUPER6, K.BANKER, K.BANKER_DRAGON_BONUS)
    assert [lv.name for lv in table.terms(K.BANKER_DRAGON_BONUS).levels] == ["natural", "win by 9", "win by 3"]

    def settle(cards: str, kind: BetKind) -> tuple[BetResult, int]:
        s = settle_bets(deal_coup(parse_cards(cards)), [Bet(kind, 100)], table)[0]
        return s.result, s.paid

    assert settle("3D 3H 4S 4C", K.TIE) == (BetResult.WIN, 900)  # Tie 9 to 1
    assert settle("KS 2H 2D 4S 3C", K.SUPER6) == (BetResult.WIN, 1500)  # Banker 6 beats 5: Super 6 at 15
    assert settle("KS KH QD QS KC 9D", K.BANKER_DRAGON_BONUS) == (BetResult.WIN, 2500)  # by 9, no natural
    assert settle("KS KH QD QS KC 4D", K.BANKER_DRAGON_BONUS) == (BetResult.LOSE, 0)  # by 4: no level here
    assert settle("KS 3H 2D 4S 3C", K.BANKER_DRAGON_BONUS) == (BetResult.LOSE, 0)  # 7 vs 5: by 2


def test_operator_paytable_margin_3_level(tmp_path: Path) -> None:
    table = load_paytable(write(tmp_path, OPERATOR))
    # P 3 K = 3, draws 8 -> 1; B 4 K = 4 stands on Player's third 8: Banker by 3, no natural.
    coup = deal_coup(parse_cards("3S 4H KD KC 8C"))
    assert (coup.player.total, coup.banker.total, coup.banker.size) == (1, 4, 2)
    (s,) = settle_bets(coup, [Bet(K.BANKER_DRAGON_BONUS, 100)], table)
    assert (s.result, s.level, s.paid) == (BetResult.WIN, "win by 3", 50)


def test_builtin_paytable_unknown_name() -> None:
    with pytest.raises(InputError, match=r"unknown paytable 'vegas'.*macau, standard"):
        builtin_paytable("vegas")


# --- validation: errors name the file and the field ---------------------------------------------------

BAD = [
    ("negative payout", 'name = "x"\n[bets.tie]\npays = -8\n', "bets.tie.pays", "negative payout -8"),
    ("zero payout", 'name = "x"\n[bets.tie]\npays = 0\n', "bets.tie.pays", "pays nothing"),
    ("unknown bet", 'name = "x"\n[bets.dragon]\npays = 1\n', "bets.dragon", "unknown bet 'dragon'"),
    ("missing pays", 'name = "x"\n[bets.tie]\n', "bets.tie.pays", "missing field"),
    (
        "missing level pays",
        'name = "x"\n[[bets.player_dragon_bonus.levels]]\nmargin = 9\n',
        "bets.player_dragon_bonus.levels[0].pays",
        "missing field",
    ),
    ("missing name", "[bets.tie]\npays = 8\n", "name", "missing field"),
    ("missing bets", 'name = "x"\n', "bets", "missing field"),
    ("bad type bool", 'name = "x"\n[bets.tie]\npays = true\n', "bets.tie.pays", "expected a number"),
    ("bad type text", 'name = "x"\n[bets.tie]\npays = "eight"\n', "bets.tie.pays", "not a number"),
    ("bad type name", "name = 5\n[bets.tie]\npays = 8\n", "name", "expected a non-empty string"),
    ("bad type levels", 'name = "x"\n[bets.tie]\nlevels = 5\n', "bets.tie.levels", "expected an array"),
    ("bad type bet", 'name = "x"\nbets = { tie = 8 }\n', "bets.tie", "expected a table"),
    (
        "bad condition type",
        'name = "x"\n[[bets.banker_dragon_bonus.levels]]\nmargin = "9"\npays = 30\n',
        "bets.banker_dragon_bonus.levels[0].margin",
        "expected a whole number 1–9",
    ),
    (
        "bad flag type",
        'name = "x"\n[[bets.banker_dragon_bonus.levels]]\nnatural = 1\npays = 1\n',
        "bets.banker_dragon_bonus.levels[0].natural",
        "expected true or false",
    ),
    (
        "condition the bet does not have",
        'name = "x"\n[[bets.tie.levels]]\nmargin = 2\npays = 8\n',
        "bets.tie.levels[0].margin",
        "unknown field",
    ),
    ("unknown field", 'name = "x"\n[bets.tie]\npays = 8\ncolour = "red"\n', "bets.tie.colour", "unknown field"),
    ("unknown top field", 'name = "x"\nodds = 1\n[bets.tie]\npays = 8\n', "odds", "unknown field"),
    (
        "commission too big",
        'name = "x"\n[bets.banker]\npays = 1\ncommission = 1\n',
        "bets.banker.commission",
        "leaves nothing",
    ),
    (
        "negative commission",
        'name = "x"\n[bets.banker]\npays = 1\ncommission = -0.05\n',
        "bets.banker.commission",
        "negative commission",
    ),
    ("bet twice", 'name = "x"\n[bets.banker]\npays = 1\n[bets."莊"]\npays = 1\n', "bets.莊", "given twice"),
    ("no bets", 'name = "x"\n[bets]\n', "bets", "no bets"),
]


@pytest.mark.parametrize(("case", "text", "field", "problem"), BAD, ids=[b[0] for b in BAD])
def test_invalid_paytable_is_refused_naming_file_and_field(
    tmp_path: Path, case: str, text: str, field: str, problem: str
) -> None:
    path = write(tmp_path, text, "bad.toml")
    with pytest.raises(InputError) as info:
        load_paytable(path)
    message = str(info.value)
    assert message.startswith(f"paytable {path}: {field}: "), message
    assert problem in message
    assert info.value.hint


def test_invalid_toml_and_missing_file(tmp_path: Path) -> None:
    path = write(tmp_path, "name = \n", "broken.toml")
    with pytest.raises(InputError, match=r"broken\.toml: not valid TOML"):
        load_paytable(path)
    with pytest.raises(InputError, match=r"missing\.toml: cannot read the file"):
        load_paytable(tmp_path / "missing.toml")
