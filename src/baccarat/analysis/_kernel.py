"""The compiled enumeration kernels (private: arrays in, preallocated arrays out, no hidden state).

The public, typed wrappers live in :mod:`baccarat.analysis.exact` and :mod:`baccarat.analysis.par_sheet`.
The drawing rules are not written here: they arrive as arrays tabulated from :mod:`baccarat.coup`.
The work is split into a few compact functions: numba's compile time grows quickly with function size,
and the first run of ``baccarat odds`` pays it once (the machine code is then cached on disk).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar, cast

import numba
import numpy as np

from baccarat.features import (
    KEY_BANKER_ACE,
    KEY_BANKER_FACE,
    KEY_BANKER_PAIR,
    KEY_BANKER_PERFECT_PAIR,
    KEY_BANKER_THIRD_CARD,
    KEY_BANKER_TOTAL,
    KEY_PLAYER_ACE,
    KEY_PLAYER_FACE,
    KEY_PLAYER_PAIR,
    KEY_PLAYER_PERFECT_PAIR,
    KEY_PLAYER_THIRD_CARD,
    KEY_PLAYER_TOTAL,
)

__all__ = ["feature_ways_kernel", "price_kernel"]

F = TypeVar("F", bound=Callable[..., Any])


def _compiled(func: F) -> F:
    """Compile with numba, caching the machine code on disk (first use compiles, later runs load)."""
    return cast(F, numba.njit(cache=True, nogil=True, error_model="numpy")(func))


# The feature key's place values (KEY_*) come from baccarat.features, compile-time constants here.
# Third-card classes: 0 = A, 1..8 = 2..9, 9 = T, 10 = J/Q/K (a third card counts only by point, ace, face).
_FACE_CLASS = 10


@_compiled
def _four_card_weights(
    a: int,
    c: int,
    b: int,
    d: int,
    k: np.ndarray,
    fall: np.ndarray,
    perf: np.ndarray,
    both4: np.ndarray,
    weights: np.ndarray,
) -> bool:
    """Ordered ways to deal Player a, c and Banker b, d (a <= c, b <= d, counting both orders of distinct
    ranks), split by perfect pairs into ``weights`` (0: none, 1: Player's, 2: Banker's, 3: both).
    ``k`` holds how many cards of each rank the four take. Returns False when the shoe cannot deal them."""
    w4 = fall[a, k[a]]
    if c != a:
        w4 *= fall[c, k[c]]
    if b != a and b != c:
        w4 *= fall[b, k[b]]
    if d != a and d != c and d != b:
        w4 *= fall[d, k[d]]
    if w4 == 0:
        return False
    w4 *= (1 if a == c else 2) * (1 if b == d else 2)
    for cat in range(4):
        weights[cat] = 0
    if a == c and b == d and a == b:
        pp = perf[a, 4]
        weights[3] = both4[a]
        weights[1] = pp - both4[a]
        weights[2] = pp - both4[a]
        weights[0] = fall[a, 4] - 2 * pp + both4[a]
    elif a == c and b == d:
        pa = perf[a, 2]
        pb = perf[b, 2]
        weights[3] = pa * pb
        weights[1] = pa * (fall[b, 2] - pb)
        weights[2] = (fall[a, 2] - pa) * pb
        weights[0] = (fall[a, 2] - pa) * (fall[b, 2] - pb)
    elif a == c:
        weights[1] = perf[a, k[a]] * (w4 // fall[a, k[a]])
        weights[0] = w4 - weights[1]
    elif b == d:
        weights[2] = perf[b, k[b]] * (w4 // fall[b, k[b]])
        weights[0] = w4 - weights[2]
    else:
        weights[0] = w4
    return True


@_compiled
def _third_cards(
    out: np.ndarray,
    weights: np.ndarray,
    left: np.ndarray,
    pt: int,
    bt: int,
    flags: int,
    player_draws: np.ndarray,
    banker_draws: np.ndarray,
    total: int,
) -> None:
    """Deal the third cards (R13–R16) after two-card totals pt, bt and add every finished coup to ``out``.

    ``left`` holds the cards left by third-card class; class −1 stands for "no third card". ``flags``
    holds the pair digits and bit 0 / 1 / 2 / 3 for Player ace, Player face, Banker ace, Banker face
    among the first four cards. ``weights`` are the four-card ways by perfect-pair category.
    """
    player_draws_now = player_draws[pt, bt] != 0
    for x in range(-1, 11):
        if (x >= 0) != player_draws_now or (x >= 0 and left[x] <= 0):
            continue
        wx = 1 if x < 0 else left[x]
        px = 0 if x < 0 else (x + 1 if x < 9 else 0)
        p_ace = (flags & 1) != 0 or x == 0
        p_face = (flags & 2) != 0 or x == _FACE_CLASS
        p_key = KEY_PLAYER_TOTAL * ((pt + px) % 10) + (KEY_PLAYER_THIRD_CARD if x >= 0 else 0)
        p_key += (KEY_PLAYER_ACE if p_ace else 0) + (KEY_PLAYER_FACE if p_face else 0)
        banker_draws_now = banker_draws[pt, bt, px if x >= 0 else 10] != 0
        if x >= 0:
            left[x] -= 1
        for y in range(-1, 11):
            if (y >= 0) != banker_draws_now or (y >= 0 and left[y] <= 0):
                continue
            wy = 1 if y < 0 else left[y]
            b_ace = (flags & 4) != 0 or y == 0
            b_face = (flags & 8) != 0 or y == _FACE_CLASS
            by = 0 if y < 0 else (y + 1 if y < 9 else 0)
            key = p_key + KEY_BANKER_TOTAL * ((bt + by) % 10) + (KEY_BANKER_THIRD_CARD if y >= 0 else 0)
            key += (KEY_BANKER_ACE if b_ace else 0) + (KEY_BANKER_FACE if b_face else 0) + (flags >> 4)
            # the unused cards of the six-card deal: (N−4)(N−5) after four cards, N−5 after five
            if x < 0 and y < 0:
                multiplier = (total - 4) * (total - 5)
            elif x < 0 or y < 0:
                multiplier = wx * wy * (total - 5)
            else:
                multiplier = wx * wy
            out[key] += weights[0] * multiplier
            if flags >= 16:  # a pair: some of the ways are perfect pairs
                out[key + KEY_PLAYER_PERFECT_PAIR] += weights[1] * multiplier
                out[key + KEY_BANKER_PERFECT_PAIR] += weights[2] * multiplier
                out[key + KEY_PLAYER_PERFECT_PAIR + KEY_BANKER_PERFECT_PAIR] += weights[3] * multiplier
        if x >= 0:
            left[x] += 1


@_compiled
def feature_ways_kernel(
    ranks: np.ndarray,
    tables: np.ndarray,
    player_draws: np.ndarray,
    banker_draws: np.ndarray,
    scratch: np.ndarray,
    out: np.ndarray,
) -> None:
    """Fill ``out[key]`` with the ordered six-card deals (unused cards included) giving each feature key.

    ``ranks``: int64 (2, 13), by rank A..K: the cards left, and the ordered ways to deal four of them as
    two same-suit pairs. ``tables``: int64 (2, 13, 7), by rank and j = 0..6: the ordered ways to deal j
    cards of the rank, and the same with the first two a same-suit pair. ``player_draws``: uint8 (10, 10),
    Player's two-card total x Banker's two-card total -> Player draws. ``banker_draws``: uint8 (10, 10, 11),
    Player's two-card total x Banker's two-card total x Player's third-card point (10: Player stood)
    -> Banker draws. ``scratch``: int64 (3, 13), work space. ``out``: int64 (FEATURE_KEYS,), overwritten.

    First-two-card ranks are enumerated by unordered pair (x2 for distinct ranks); third cards by
    class (A, 2..9, T, and J/Q/K merged: a third card's rank matters only for its point, ace and face).
    Suits matter only for perfect pairs, which split the four-card weight combinatorially. Every
    product is a count of real deals, so nothing exceeds the total (checked by the caller to fit int64).
    """
    for i in range(out.shape[0]):
        out[i] = 0
    n = ranks[0]
    both4 = ranks[1]
    fall = tables[0]
    perf = tables[1]
    k = scratch[0]  # by rank: cards the first four take
    left = scratch[1]  # by third-card class (first 11 cells): cards left after the first four
    weights = scratch[2]  # first 4 cells: the four-card weight by perfect-pair category
    total = 0
    for r in range(13):
        k[r] = 0
        total += n[r]
    for a in range(13):
        for c in range(a, 13):
            k[a] += 1
            k[c] += 1
            for b in range(13):
                for d in range(b, 13):
                    k[b] += 1
                    k[d] += 1
                    if _four_card_weights(a, c, b, d, k, fall, perf, both4, weights):
                        for x in range(10):
                            left[x] = n[x] - k[x]
                        left[_FACE_CLASS] = n[10] - k[10] + n[11] - k[11] + n[12] - k[12]
                        pairs = (KEY_PLAYER_PAIR if a == c else 0) + (KEY_BANKER_PAIR if b == d else 0)
                        flags = (1 if a == 0 or c == 0 else 0) + (2 if a >= 10 or c >= 10 else 0)
                        flags += (4 if b == 0 or d == 0 else 0) + (8 if b >= 10 or d >= 10 else 0)
                        pt = ((a + 1 if a < 9 else 0) + (c + 1 if c < 9 else 0)) % 10
                        bt = ((b + 1 if b < 9 else 0) + (d + 1 if d < 9 else 0)) % 10
                        _third_cards(
                            out, weights, left, pt, bt, flags + (pairs << 4), player_draws, banker_draws, total
                        )
                    k[b] -= 1
                    k[d] -= 1
            k[a] -= 1
            k[c] -= 1


@_compiled
def price_kernel(index: np.ndarray, keys: np.ndarray, ways: np.ndarray, out: np.ndarray) -> None:
    """Sum ``ways`` by result: ``out[row, level + 2] += ways[key]`` for ``level = index[key, row]``.

    ``index``: int8 (FEATURE_KEYS, rows), per key and bet a level >= 0, -1 (lose) or -2 (push), as in an
    outcome table (stored key-major so that one key's bets are adjacent); ``keys``: int64, the feature
    keys to visit (those that occur); ``ways``: int64 (FEATURE_KEYS,); ``out``: int64 (rows, levels + 2),
    overwritten. Column 0 is push, column 1 lose, column 2 + i level i.
    """
    rows = index.shape[1]
    for row in range(out.shape[0]):
        for col in range(out.shape[1]):
            out[row, col] = 0
    for i in range(keys.shape[0]):
        key = keys[i]
        w = ways[key]
        for row in range(rows):
            out[row, index[key, row] + 2] += w
