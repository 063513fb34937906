"""The compiled kernel that prices the next coup of a partly dealt shoe (private: arrays in, arrays out).

A bet of the builtin paytables reads either the tableau's features (totals, hand sizes, ace and face
flags) or the pair flags, never both. So the next coup is counted twice, each time over what its bets
read: the tableau over eleven classes of cards (A, 2…9, T and J/Q/K merged: a card counts only by
point, ace and face), and the pairs in closed form over the 52 cards. Both count ordered six-card deals,
unused cards included, as :mod:`baccarat.analysis.exact` does, so the figures are those of a par sheet.
The public wrapper is :mod:`baccarat.analysis.next_coup`.
"""

from __future__ import annotations

import numpy as np

from baccarat.analysis._kernel import _compiled
from baccarat.features import (
    KEY_BANKER_ACE,
    KEY_BANKER_FACE,
    KEY_BANKER_THIRD_CARD,
    KEY_BANKER_TOTAL,
    KEY_PLAYER_ACE,
    KEY_PLAYER_PAIR,
    KEY_PLAYER_THIRD_CARD,
    KEY_PLAYER_TOTAL,
)

__all__ = ["PAIR_KEYS", "TABLEAU_KEYS", "next_coup_kernel"]

#: Reduced tableau keys: the feature key without its four pair bits (``key % KEY_PLAYER_PAIR`` plus the
#: ace and face bits shifted down by four places).
TABLEAU_KEYS = KEY_PLAYER_PAIR * 16
#: Reduced pair keys: the four pair bits (player pair, banker pair, player perfect, banker perfect).
PAIR_KEYS = 16
_CLASSES = 11
_FACE = 10
_AF_SHIFT = KEY_PLAYER_ACE // KEY_PLAYER_PAIR  # ace/face bits sit 16 places above where the reduced key puts them


@_compiled
def _side_bits(first: int, second: int, third: int) -> int:
    """Ace and face flags of a hand by class (third = -1: no third card), as bits 0 (ace) and 1 (face)."""
    ace = first == 0 or second == 0 or third == 0
    face = first == _FACE or second == _FACE or third == _FACE
    return (1 if ace else 0) + (2 if face else 0)


@_compiled
def _deal_thirds(
    out: np.ndarray,
    w4: int,
    left: np.ndarray,
    a: int,
    c: int,
    b: int,
    d: int,
    player_draws: np.ndarray,
    banker_draws: np.ndarray,
    total: int,
) -> None:
    """Third cards (R13–R16) after Player's classes a, c and Banker's b, d: every finished coup into ``out``."""
    pt = ((a + 1 if a < 9 else 0) + (c + 1 if c < 9 else 0)) % 10
    bt = ((b + 1 if b < 9 else 0) + (d + 1 if d < 9 else 0)) % 10
    player_now = player_draws[pt, bt] != 0
    for x in range(-1, _CLASSES):
        if (x >= 0) != player_now or (x >= 0 and left[x] <= 0):
            continue
        wx = 1 if x < 0 else left[x]
        px = 0 if x < 0 else (x + 1 if x < 9 else 0)
        p_key = KEY_PLAYER_TOTAL * ((pt + px) % 10) + (KEY_PLAYER_THIRD_CARD if x >= 0 else 0)
        p_key += (KEY_PLAYER_ACE // _AF_SHIFT) * _side_bits(a, c, x)
        banker_now = banker_draws[pt, bt, px if x >= 0 else 10] != 0
        if x >= 0:
            left[x] -= 1
        for y in range(-1, _CLASSES):
            if (y >= 0) != banker_now or (y >= 0 and left[y] <= 0):
                continue
            wy = 1 if y < 0 else left[y]
            by = 0 if y < 0 else (y + 1 if y < 9 else 0)
            key = p_key + KEY_BANKER_TOTAL * ((bt + by) % 10) + (KEY_BANKER_THIRD_CARD if y >= 0 else 0)
            key += (KEY_BANKER_ACE // _AF_SHIFT) * _side_bits(b, d, y)
            if x < 0 and y < 0:
                multiplier = (total - 4) * (total - 5)
            elif x < 0 or y < 0:
                multiplier = wx * wy * (total - 5)
            else:
                multiplier = wx * wy
            out[key] += w4 * multiplier
        if x >= 0:
            left[x] += 1


@_compiled
def tableau_kernel(
    n: np.ndarray, player_draws: np.ndarray, banker_draws: np.ndarray, left: np.ndarray, out: np.ndarray
) -> None:
    """Ordered six-card deals by reduced tableau key from ``n`` (int64 (11,): cards left by class).

    ``left``: int64 (11,) work space; ``out``: int64 (TABLEAU_KEYS,), overwritten. First cards are
    enumerated by unordered pair of classes (x2 for distinct classes).
    """
    for i in range(out.shape[0]):
        out[i] = 0
    total = 0
    for i in range(_CLASSES):
        total += n[i]
        left[i] = n[i]
    for a in range(_CLASSES):
        wa = left[a]
        if wa <= 0:
            continue
        left[a] -= 1
        for c in range(a, _CLASSES):
            wc = left[c]
            if wc <= 0:
                continue
            left[c] -= 1
            wp = wa * wc * (1 if a == c else 2)
            for b in range(_CLASSES):
                wb = left[b]
                if wb <= 0:
                    continue
                left[b] -= 1
                for d in range(b, _CLASSES):
                    wd = left[d]
                    if wd > 0:
                        left[d] -= 1
                        w4 = wp * wb * wd * (1 if b == d else 2)
                        _deal_thirds(out, w4, left, a, c, b, d, player_draws, banker_draws, total)
                        left[d] += 1
                left[b] += 1
            left[c] += 1
        left[a] += 1


@_compiled
def _drop(c: int, m: int) -> int:
    """How much ``c·(c−1)`` falls when a count ``c`` loses ``m`` cards."""
    return c * (c - 1) - (c - m) * (c - m - 1)


@_compiled
def pair_kernel(counts: np.ndarray, out: np.ndarray) -> None:
    """Ordered six-card deals by the four pair bits, in closed form from ``counts`` (int64 (52,), rank-major).

    Player's first two cards are enumerated (52 x 52); Banker's pairs and perfect pairs among what is
    left are sums of ``c·(c−1)``, updated for the two cards Player took. ``out``: int64 (PAIR_KEYS,).
    """
    for i in range(out.shape[0]):
        out[i] = 0
    total = 0
    same_card = 0
    ranks = np.zeros(13, dtype=np.int64)
    for i in range(52):
        total += counts[i]
        same_card += counts[i] * (counts[i] - 1)
        ranks[i // 4] += counts[i]
    same_rank = 0
    for r in range(13):
        same_rank += ranks[r] * (ranks[r] - 1)
    rest = (total - 2) * (total - 3)
    unused = (total - 4) * (total - 5)
    for i in range(52):
        if counts[i] <= 0:
            continue
        for j in range(52):
            cj = counts[j] - (1 if i == j else 0)
            if cj <= 0:
                continue
            w = counts[i] * cj
            ri, rj = i // 4, j // 4
            if i == j:
                perfect_left = same_card - _drop(counts[i], 2)
            else:
                perfect_left = same_card - _drop(counts[i], 1) - _drop(counts[j], 1)
            if ri == rj:
                rank_left = same_rank - _drop(ranks[ri], 2)
            else:
                rank_left = same_rank - _drop(ranks[ri], 1) - _drop(ranks[rj], 1)
            player = (1 if ri == rj else 0) + (4 if i == j else 0)
            out[player] += w * (rest - rank_left) * unused
            out[player + 2] += w * (rank_left - perfect_left) * unused
            out[player + 2 + 8] += w * perfect_left * unused


@_compiled
def next_coup_kernel(
    counts: np.ndarray,
    player_draws: np.ndarray,
    banker_draws: np.ndarray,
    index: np.ndarray,
    merge_ten: bool,
    scratch: np.ndarray,
    ways: np.ndarray,
    out: np.ndarray,
) -> None:
    """Every bet's ways by result for the next coup from ``counts`` (int64 (52,): the cards left).

    ``merge_ten``: no bet reads the face flags, so tens are counted with J/Q/K (a tenth of the work less).

    ``index``: int8 (TABLEAU_KEYS + PAIR_KEYS, bets): a bet's level (>= 0), -1 (lose) or -2 (push) at
    each reduced key, and -3 where the bet does not read that part of the coup. ``scratch``: int64 (2, 11);
    ``ways``: int64 (TABLEAU_KEYS + PAIR_KEYS,), the counts by reduced key; ``out``: int64 (bets, levels + 2),
    column 0 push, 1 lose, 2 + i level i (the layout of ``price_kernel``); all three overwritten.
    """
    n = scratch[0]
    for i in range(_CLASSES):
        n[i] = 0
    for i in range(52):
        r = i // 4
        n[r if r < _FACE else _FACE] += counts[i]
    if merge_ten:
        n[_FACE] += n[_FACE - 1]
        n[_FACE - 1] = 0
    tableau_kernel(n, player_draws, banker_draws, scratch[1], ways[:TABLEAU_KEYS])
    pair_kernel(counts, ways[TABLEAU_KEYS:])
    for row in range(out.shape[0]):
        for col in range(out.shape[1]):
            out[row, col] = 0
    bets = index.shape[1]
    for key in range(ways.shape[0]):
        w = ways[key]
        if w == 0:
            continue
        for row in range(bets):
            level = index[key, row]
            if level >= -2:
                out[row, level + 2] += w


# a reduced tableau key keeps the ace/face bits 4 places lower than the feature key
assert KEY_PLAYER_ACE // _AF_SHIFT == KEY_PLAYER_PAIR
assert KEY_BANKER_FACE // _AF_SHIFT < TABLEAU_KEYS
