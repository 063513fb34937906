"""The compiled shoe kernel: whole shoes dealt with the engine's exact procedures, at native speed.

The private kernels (``_deal_shoe``, ``_record_kernel``, ``_count_kernel`` and the strategy
kernel ``_play_kernel``) are numba ``@njit(cache=True, nogil=True)`` functions: arrays in,
preallocated arrays out, no I/O and no hidden state. They release the GIL, so several threads
can run them at once.

They reproduce, bit for bit, what :class:`baccarat.dealing.ShoeDealer` does with a
:class:`baccarat.rng.SeededSource`: the SplitMix64-seeded xoshiro256** stream of each shoe
number, rejection-sampled ``randbelow``, Fisher–Yates from the last position, the cut of
:meth:`baccarat.shoe.Shoe.prepare`, the cut card, the three burn methods, the burn before each
coup, demonstration coups, the last-coup rule (with the pre-dealt layout, whose six cards bring
the cut card out when one of them lies behind it: R19, R6), the "not enough cards" rule and the
continuous shuffler. The drawing rules are not written here: :class:`KernelTables` tabulates them from the
functions of :mod:`baccarat.coup`, and the card attributes from :mod:`baccarat.cards`.

Every coup is recorded as its feature key, the encoding of :class:`baccarat.features.CoupFeatures`.

Where the time goes, and what keeps it short (a shoe of 8 decks, about 81 coups):

* The shuffle (415 draws). ``word % m`` is computed without a division (:func:`_fast_mod`,
  exact for every bound up to :data:`FASTMOD_MAX`, from constants tabulated once per shoe size),
  and a word of at least :data:`FASTMOD_MAX` is accepted without reading its rejection
  threshold, which is always smaller. The outcome-counting kernel shuffles ``_LANES`` shoes at
  once, their streams' words and remainders computed in vector registers
  (:func:`_lanes_shuffler`); a shoe whose stream drew a word the rejection rule might refuse
  (about one in 10**12) is shuffled again by the exact one-shoe :func:`_shuffle`.
* The coups. A coup reads its six possible cards at once and one lookup in a table built from
  :mod:`baccarat.coup` gives whether each side draws, the step to the next coup and the totals'
  part of the feature key (:func:`_draw_table`, :func:`_coup`), so the dependent chain from one
  coup to the next is short; array indices are unsigned to spare the negative-index checks on it.
* The outcome-counting kernel adds keys straight into the histogram (no per-coup arrays) and,
  without a hand limit, deals two shoes at a time, interleaved, so that their independent chains
  of operations overlap. The histogram does not depend on the order.
* Copies (the fresh deck, the cut) are plain loops (:func:`_copy`), and the lanes' rows are laid
  out so that no two lanes' cards at one position share their low 12 address bits
  (:func:`_lane_buffers`).

>>> from baccarat.dealing import ShoeDealer
>>> from baccarat.features import CoupFeatures
>>> from baccarat.rng import SeededSource
>>> from baccarat.shoe import ShoeConfig
>>> config = ShoeConfig(decks=8)
>>> dealt = deal_features(config, seed=42, first_shoe=1, shoes=2)
>>> engine = ShoeDealer(config, source=SeededSource(42))
>>> expected = [CoupFeatures.of(c.result).encode() for _ in range(2) for c in engine.deal_shoe()]
>>> dealt.keys.tolist() == expected
True
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Any

import numpy as np
import numpy.typing as npt
from llvmlite import ir  # type: ignore[import-untyped]
from numba import njit
from numba.core import config, types
from numba.core.codegen import get_host_cpu_features
from numba.extending import intrinsic

from baccarat.cards import ALL_CARDS, Rank
from baccarat.coup import banker_draws, player_draws
from baccarat.errors import InputError
from baccarat.features import (
    FEATURE_KEYS,
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
from baccarat.rng import GOLDEN_GAMMA, MASK64, SHOE_STRIDE
from baccarat.shoe import MIN_CARDS_FOR_COUP, AfterCutCard, BurnMethod, DealingMode, ShoeConfig, burn_value

__all__ = [
    "FLAG_CUT_CARD_OUT",
    "FLAG_DEMO",
    "FLAG_LAST",
    "DealtFeatures",
    "KernelTables",
    "ShoeTables",
    "count_features",
    "deal_features",
    "kernel_tables",
    "shoe_tables",
]

#: Coup flags recorded by :func:`deal_features`.
FLAG_DEMO = 1
FLAG_LAST = 2
FLAG_CUT_CARD_OUT = 4

# The packed card: point (bits 0-3; 4-5 clear, see :func:`_coup`), ace (6), face (7), rank (8-11),
# suit (12-13), card index (16-21), burn value of method (b) (24-27).
_POINT_MASK = 15
_ACE_SHIFT = 6
_FLAG_BITS = 3 << _ACE_SHIFT
_INDEX_SHIFT = 16
_BURN_SHIFT = 24
# Entries of the configuration vector.
_CONTINUOUS, _CUT_FROM_END, _BURN_METHOD, _BURN_N, _DEMO, _FINISH, _BURN_EACH, _LAID = range(8)
_BURN_FIRST_CARD = 1
# The bit of a ``draws`` word that says whether Banker draws when Player stood.
_STOOD_BIT = 12

_GOLDEN = np.uint64(GOLDEN_GAMMA)
_STRIDE = np.uint64(SHOE_STRIDE)
_MIX1 = np.uint64(0xBF58476D1CE4E5B9)
_MIX2 = np.uint64(0x94D049BB133111EB)
_U5 = np.uint64(5)
_U9 = np.uint64(9)
_S7 = np.uint64(7)
_S57 = np.uint64(57)
_S17 = np.uint64(17)
_S45 = np.uint64(45)
_S19 = np.uint64(19)
_S30 = np.uint64(30)
_S27 = np.uint64(27)
_S31 = np.uint64(31)


# --- compiled core ----------------------------------------------------------------------------

_M32 = np.uint64(0xFFFFFFFF)
_S32 = np.uint64(32)
_ONE = np.uint64(1)
_TWO = np.uint64(2)
_THREE = np.uint64(3)
_FOUR = np.uint64(4)
_MAX64 = np.uint64(MASK64)
#: The largest bound the division-free remainder :func:`_fast_mod` serves. A 64-bit word is first
#: folded to ``t = hi * (2**32 mod m) + lo < m * 2**32 <= 2**47``; then ``t mod m`` is computed
#: directly (Lemire, Kaser and Kurz, "Faster remainder by direct computation", 2019, theorem 1:
#: with ``c = ceil(2**F / m)``, ``t mod m = floor((c * t mod 2**F) * m / 2**F)`` for every
#: ``t < 2**N`` when ``F >= N + ceil(log2 m)``; here F = 64, N = 47, ceil(log2 m) <= 15).
FASTMOD_MAX = 1 << 15
_FASTMOD_WORD = np.uint64(FASTMOD_MAX)
# The coup table (``_draw_table``): the drawing part, index ``(player raw sum << 9) | (banker raw sum
# << 4) | point of the fifth card``, where a raw sum is the two first cards' points added (0-18);
# then Banker's total correction (19 rows of 16) and the pair bits (256 entries).
_CORR_AT = 19 << 9
_PAIRS_AT = _CORR_AT + 19 * 16
# The feature key's place values (KEY_*) come from baccarat.features, compile-time constants here.
# The coup table and _coup take of that layout: the totals and third-card fields fit in the 9 bits
# of a table entry, Banker's pair bits are Player's doubled, and each side's face bit is its ace
# bit doubled, so the packed cards' ace and face bits (6-7) times a factor give both at once.
_BANKER_PAIRS = KEY_BANKER_PAIR // KEY_PLAYER_PAIR
_PLAYER_ACE_FACE = KEY_PLAYER_ACE >> _ACE_SHIFT
_BANKER_ACE_FACE = KEY_BANKER_ACE >> _ACE_SHIFT
if not (
    KEY_PLAYER_PAIR <= 512
    and KEY_BANKER_PAIR == _BANKER_PAIRS * KEY_PLAYER_PAIR
    and KEY_BANKER_PERFECT_PAIR == _BANKER_PAIRS * KEY_PLAYER_PERFECT_PAIR
    and KEY_PLAYER_ACE == _PLAYER_ACE_FACE << _ACE_SHIFT
    and KEY_BANKER_ACE == _BANKER_ACE_FACE << _ACE_SHIFT
    and KEY_PLAYER_FACE == 2 * KEY_PLAYER_ACE
    and KEY_BANKER_FACE == 2 * KEY_BANKER_ACE
):  # pragma: no cover - a layout the coup table cannot hold
    raise ImportError("the feature key layout of baccarat.features does not fit the coup table of the kernel")


@njit(cache=True, nogil=True, error_model="numpy")
def _splitmix(sm: np.uint64) -> tuple[np.uint64, np.uint64]:  # pragma: no cover - compiled
    sm = sm + _GOLDEN
    z = sm
    z = (z ^ (z >> _S30)) * _MIX1
    z = (z ^ (z >> _S27)) * _MIX2
    return sm, z ^ (z >> _S31)


@njit(cache=True, nogil=True, error_model="numpy")
def _stream_state(
    seed: np.uint64, shoe_number: int
) -> tuple[np.uint64, np.uint64, np.uint64, np.uint64]:  # pragma: no cover
    sm = seed + np.uint64(shoe_number) * _STRIDE
    sm, s0 = _splitmix(sm)
    sm, s1 = _splitmix(sm)
    sm, s2 = _splitmix(sm)
    sm, s3 = _splitmix(sm)
    return s0, s1, s2, s3


@njit(cache=True, nogil=True, error_model="numpy")
def _mod_tables(
    size: int,
) -> tuple[npt.NDArray[np.uint64], npt.NDArray[np.uint64], npt.NDArray[np.uint64]]:  # pragma: no cover
    """For every bound ``m`` up to ``size + 1``: the rejection threshold ``(2**64 - m) mod m`` of
    randbelow, and the constants of :func:`_fast_mod`, ``2**32 mod m`` and ``ceil(2**64 / m) mod 2**64``.
    """
    thresh = np.zeros(size + 2, dtype=np.uint64)
    fold = np.zeros(size + 2, dtype=np.uint64)
    magic = np.zeros(size + 2, dtype=np.uint64)
    for m in range(1, size + 2):
        um = np.uint64(m)
        thresh[m] = (np.uint64(0) - um) % um
        fold[m] = (_ONE << _S32) % um
        magic[m] = _MAX64 // um + _ONE  # ceil(2**64 / m); wraps to 0 for m = 1, where every remainder is 0
    return thresh, fold, magic


def _mul_high_intrinsic(typingctx: Any, a: Any, b: Any) -> Any:  # pragma: no cover - compiled
    """The high 64 bits of the 128-bit product of two uint64: one ``mul`` instruction."""
    signature = types.uint64(types.uint64, types.uint64)

    def codegen(context: Any, builder: Any, sig: Any, args: Any) -> Any:
        wide = ir.IntType(128)
        product = builder.mul(builder.zext(args[0], wide), builder.zext(args[1], wide))
        return builder.trunc(builder.lshr(product, ir.Constant(wide, 64)), ir.IntType(64))

    return signature, codegen


_mul_high: Any = intrinsic(_mul_high_intrinsic)


@njit(cache=True, nogil=True, error_model="numpy", inline="always")
def _fast_mod(word: np.uint64, m: np.uint64, fold: np.uint64, magic: np.uint64) -> np.uint64:  # pragma: no cover
    """``word % m`` for ``1 <= m <= FASTMOD_MAX`` with three multiplications and no division.

    ``fold`` and ``magic`` are ``m``'s entries of :func:`_mod_tables`.
    """
    t = (word >> _S32) * fold + (word & _M32)
    remainder: np.uint64 = _mul_high(magic * t, m)
    return remainder


@njit(cache=True, nogil=True, error_model="numpy", inline="always")
def _xoshiro(
    s0: np.uint64, s1: np.uint64, s2: np.uint64, s3: np.uint64
) -> tuple[np.uint64, np.uint64, np.uint64, np.uint64, np.uint64]:  # pragma: no cover - compiled
    """One xoshiro256** step: the word and the new state."""
    x = s1 * _U5
    word = ((x << _S7) | (x >> _S57)) * _U9
    t = s1 << _S17
    s2 ^= s0
    s3 ^= s1
    s1 ^= s2
    s0 ^= s3
    s2 ^= t
    s3 = (s3 << _S45) | (s3 >> _S19)
    return word, s0, s1, s2, s3


@njit(cache=True, nogil=True, error_model="numpy", inline="always")
def _draw_word(
    th: np.uint64, s0: np.uint64, s1: np.uint64, s2: np.uint64, s3: np.uint64
) -> tuple[np.uint64, np.uint64, np.uint64, np.uint64, np.uint64]:  # pragma: no cover - compiled
    """The next xoshiro256** word not below the rejection threshold ``th``, and the new state."""
    while True:
        word, s0, s1, s2, s3 = _xoshiro(s0, s1, s2, s3)
        if word >= th:
            return word, s0, s1, s2, s3


@njit(cache=True, nogil=True, error_model="numpy", inline="always")
def _draw_small(
    thresh: npt.NDArray[np.uint64], m: int, s0: np.uint64, s1: np.uint64, s2: np.uint64, s3: np.uint64
) -> tuple[np.uint64, np.uint64, np.uint64, np.uint64, np.uint64]:  # pragma: no cover - compiled
    """:func:`_draw_word` for a bound ``m <= FASTMOD_MAX``, whose threshold is below ``m``: a word
    of at least ``FASTMOD_MAX`` is accepted without reading the threshold."""
    while True:
        word, s0, s1, s2, s3 = _xoshiro(s0, s1, s2, s3)
        if word >= _FASTMOD_WORD or word >= thresh[m]:
            return word, s0, s1, s2, s3


@njit(cache=True, nogil=True, error_model="numpy")
def _shuffle(
    cards: npt.NDArray[np.int64],
    n: int,
    thresh: npt.NDArray[np.uint64],
    fold: npt.NDArray[np.uint64],
    magic: npt.NDArray[np.uint64],
    s0: np.uint64,
    s1: np.uint64,
    s2: np.uint64,
    s3: np.uint64,
) -> tuple[np.uint64, np.uint64, np.uint64, np.uint64]:  # pragma: no cover - compiled
    """Fisher–Yates from the last position with xoshiro256** and rejection sampling; returns the state."""
    if n > FASTMOD_MAX:
        for i in range(n - 1, 0, -1):
            word, s0, s1, s2, s3 = _draw_word(thresh[i + 1], s0, s1, s2, s3)
            j = word % np.uint64(i + 1)  # unsigned: no negative-index check
            tmp = cards[i]
            cards[i] = cards[j]
            cards[j] = tmp
        return s0, s1, s2, s3
    for i in range(n - 1, 0, -1):
        m = i + 1
        word, s0, s1, s2, s3 = _draw_small(thresh, m, s0, s1, s2, s3)
        j = _fast_mod(word, np.uint64(m), fold[m], magic[m])  # unsigned: no negative-index check
        tmp = cards[i]
        cards[i] = cards[j]
        cards[j] = tmp
    return s0, s1, s2, s3


def _vector_lanes() -> int:
    """Shoes shuffled at once by :func:`_shuffle_lanes`: 16 where numba compiles for AVX-512 (two
    512-bit registers per state word), else 8, so that the 4 state words and the temporaries fit in
    the sixteen 256-bit registers of AVX2 (16 lanes there spill, and run at two thirds of the speed).
    Which does not change any result, only the grouping of shoes."""
    features = getattr(config, "CPU_FEATURES", None)  # numba's own choice (NUMBA_CPU_FEATURES, else the host's)
    if features is None:
        features = get_host_cpu_features()  # type: ignore[no-untyped-call]
    return 16 if "+avx512f" in str(features).split(",") else 8


#: Shoes shuffled at once by :func:`_shuffle_lanes`, one per lane of a vector of 64-bit integers.
_LANES = _vector_lanes()
#: The length of a lane's row, mod 512 eight-byte words (see :func:`_lane_buffers`).
_ROW_SKEW = 33


def _lanes_shuffler(lanes: int) -> Any:
    """The intrinsic ``shuffle(rows, n, consts, state) -> suspect`` that performs :func:`_shuffle` of
    ``lanes`` decks at once, the streams' words and remainders computed in vectors.

    ``rows[l, :n]`` (int64, C order) is lane ``l``'s deck and ``state[:, l]`` (a ``(4, lanes)``
    uint64 array) its xoshiro256** state, updated in place; ``consts[m] = (fold[m], magic[m])``
    (:func:`_mod_tables`). Returns a bit mask of the *suspect* lanes: those that drew a word below
    :data:`FASTMOD_MAX` at some step, the only words the rejection rule may refuse (every
    threshold is below the bound). The loop accepts every word, so a suspect lane's deck and state
    may be wrong (probability about ``n * 2**-49``): the caller shuffles it again with
    :func:`_shuffle`. The others are exact.

    Written as LLVM IR so that the four state words of all lanes stay in vector registers for the
    whole loop (numba has no vector type, and the auto-vectoriser did not reliably vectorise the
    lane loop, nor keep the state out of memory). Per step ``i`` (bound ``m = i + 1``):

    * the xoshiro256** step on ``<lanes x i64>`` vectors (shifts, rotates, xors; ``* 5`` and
      ``* 9`` become shifts and adds);
    * ``word % m`` as in :func:`_fast_mod`, with 32-bit multiplies where the operands allow:
      ``t = (word >> 32) * fold + (word & 0xFFFFFFFF) < 2**47`` (both factors below ``2**32``),
      ``x = magic * t mod 2**64`` (a full 64-bit product), and the high word of ``x * m`` as
      ``((x >> 32) * m + (((x & 0xFFFFFFFF) * m) >> 32)) >> 32``, which is exact: with
      ``x = a * 2**32 + b``, ``floor((a * m * 2**32 + b * m) / 2**64) = floor((a * m + floor(b * m
      / 2**32)) / 2**32)``, and ``a * m < 2**47`` cannot overflow;
    * the lanes' swaps of positions ``i`` and ``j``, one lane after the other.
    """

    def typer(typingctx: Any, rows: Any, n: Any, consts: Any, state: Any) -> Any:  # pragma: no cover - compiled
        if not (
            isinstance(rows, types.Array)
            and rows.ndim == 2
            and rows.layout == "C"
            and rows.dtype == types.int64
            and isinstance(n, types.Integer)
            and all(
                isinstance(a, types.Array) and a.ndim == 2 and a.layout == "C" and a.dtype == types.uint64
                for a in (consts, state)
            )
        ):
            return None
        signature = types.uint64(rows, n, consts, state)
        i64 = ir.IntType(64)
        i32 = ir.IntType(32)
        vec = ir.VectorType(i64, lanes)
        bits = ir.VectorType(ir.IntType(1), lanes)

        def codegen(context: Any, builder: Any, sig: Any, args: Any) -> Any:
            work = context.make_array(sig.args[0])(context, builder, args[0])
            count = context.cast(builder, args[1], sig.args[1], types.int64)
            table = builder.bitcast(context.make_array(sig.args[2])(context, builder, args[2]).data, i64.as_pointer())
            words = builder.bitcast(context.make_array(sig.args[3])(context, builder, args[3]).data, i64.as_pointer())
            row_bytes = builder.extract_value(work.strides, 0)
            start = builder.bitcast(work.data, ir.IntType(8).as_pointer())
            lane_rows = [
                builder.bitcast(builder.gep(start, [builder.mul(row_bytes, ir.Constant(i64, lane))]), i64.as_pointer())
                for lane in range(lanes)
            ]
            slots = [
                builder.bitcast(builder.gep(words, [ir.Constant(i64, k * lanes)]), vec.as_pointer()) for k in range(4)
            ]
            initial = [builder.load(slot, align=8) for slot in slots]

            def const(value: int) -> Any:
                return ir.Constant(vec, [value] * lanes)

            def splat(value: Any) -> Any:
                undef = ir.Constant(vec, ir.Undefined)
                one = builder.insert_element(undef, value, ir.Constant(i32, 0))
                return builder.shuffle_vector(one, undef, ir.Constant(ir.VectorType(i32, lanes), [0] * lanes))

            def rotl(value: Any, k: int) -> Any:
                return builder.or_(builder.shl(value, const(k)), builder.lshr(value, const(64 - k)))

            entry = builder.basic_block
            body = builder.append_basic_block("lanes.body")
            done = builder.append_basic_block("lanes.done")
            first = builder.sub(count, ir.Constant(i64, 1))
            builder.cbranch(builder.icmp_signed(">", first, ir.Constant(i64, 0)), body, done)

            builder.position_at_end(body)
            i = builder.phi(i64)
            s = [builder.phi(vec) for _ in range(4)]
            low = builder.phi(bits)
            s0, s1, s2, s3 = s
            x = builder.mul(s1, const(5))
            word = builder.mul(rotl(x, 7), const(9))
            t = builder.shl(s1, const(17))
            s2 = builder.xor(s2, s0)
            s3 = builder.xor(s3, s1)
            s1 = builder.xor(s1, s2)
            s0 = builder.xor(s0, s3)
            s2 = builder.xor(s2, t)
            s3 = rotl(s3, 45)
            new = [s0, s1, s2, s3]
            low_next = builder.or_(low, builder.icmp_unsigned("<", word, const(FASTMOD_MAX)))
            m = builder.add(i, ir.Constant(i64, 1))
            fold = builder.load(builder.gep(table, [builder.add(m, m)]))
            magic = builder.load(builder.gep(table, [builder.add(builder.add(m, m), ir.Constant(i64, 1))]))
            low32 = const(0xFFFFFFFF)
            vm = builder.and_(splat(m), low32)  # the masks let the multiplies be 32 x 32 -> 64 bits
            folded = builder.add(
                builder.mul(builder.lshr(word, const(32)), builder.and_(splat(fold), low32)), builder.and_(word, low32)
            )
            y = builder.mul(splat(magic), folded)
            below = builder.lshr(builder.mul(builder.and_(y, low32), vm), const(32))
            j = builder.lshr(builder.add(builder.mul(builder.lshr(y, const(32)), vm), below), const(32))
            for lane in range(lanes):
                at_i = builder.gep(lane_rows[lane], [i])
                at_j = builder.gep(lane_rows[lane], [builder.extract_element(j, ir.Constant(i32, lane))])
                card_i = builder.load(at_i)
                card_j = builder.load(at_j)
                builder.store(card_j, at_i)
                builder.store(card_i, at_j)
            following = builder.sub(i, ir.Constant(i64, 1))
            i.add_incoming(first, entry)
            i.add_incoming(following, body)
            for phi, before, after in zip(s, initial, new, strict=True):
                phi.add_incoming(before, entry)
                phi.add_incoming(after, body)
            low.add_incoming(ir.Constant(bits, [0] * lanes), entry)
            low.add_incoming(low_next, body)
            builder.cbranch(builder.icmp_signed(">", following, ir.Constant(i64, 0)), body, done)

            builder.position_at_end(done)
            final = []
            for before, after in zip(initial, new, strict=True):
                phi = builder.phi(vec)
                phi.add_incoming(before, entry)
                phi.add_incoming(after, body)
                final.append(phi)
            suspect = builder.phi(bits)
            suspect.add_incoming(ir.Constant(bits, [0] * lanes), entry)
            suspect.add_incoming(low_next, body)
            for slot, value in zip(slots, final, strict=True):
                builder.store(value, slot, align=8)
            return builder.zext(builder.bitcast(suspect, ir.IntType(lanes)), i64)

        return signature, codegen

    return intrinsic(typer)


_shuffle_lanes: Any = _lanes_shuffler(_LANES)


@njit(cache=True, nogil=True, error_model="numpy")
def _randbelow(
    bound: int,
    thresh: npt.NDArray[np.uint64],
    s0: np.uint64,
    s1: np.uint64,
    s2: np.uint64,
    s3: np.uint64,
) -> tuple[np.int64, np.uint64, np.uint64, np.uint64, np.uint64]:  # pragma: no cover - compiled
    word, s0, s1, s2, s3 = _draw_word(thresh[bound], s0, s1, s2, s3)
    return np.int64(word % np.uint64(bound)), s0, s1, s2, s3


@njit(cache=True, nogil=True, error_model="numpy")
def _draw_table(draws: npt.NDArray[np.int64], extra: int) -> npt.NDArray[np.int16]:  # pragma: no cover - compiled
    """The coup table of :func:`_coup`: the drawing rules of ``draws`` and most of the feature key,
    indexed by raw sums, then two small tables.

    Entry ``(rp << 9) | (rb << 4) | third`` (raw sums ``rp``, ``rb`` of the two first cards' points,
    0-18; ``third`` the point of the fifth card): bits 0-2 the step to the next coup, the cards the
    coup takes (4-6) plus ``extra`` (the burn before each coup, or 0); bit 3 Player draws; bit 4
    Banker draws; bits 5-13 the totals' and third cards' part of the key (``KEY_PLAYER_TOTAL * pt +
    KEY_BANKER_TOTAL * bt + KEY_PLAYER_THIRD_CARD * player draws + KEY_BANKER_THIRD_CARD * banker draws``);
    bit 14 set when both draw. The index gives both totals unless both draw: then Banker's third
    card is the sixth, and the entry holds ``rb mod 10`` for ``bt``, corrected by entry
    ``_CORR_AT + (rb << 4) + point of the sixth card``: ``KEY_BANKER_TOTAL * ((rb + point) mod 10 -
    rb mod 10)``. Entry ``_PAIRS_AT + v``, ``v`` bits 8-15 of two packed cards xor-ed:
    ``KEY_PLAYER_PAIR`` if their ranks are equal, plus ``KEY_PLAYER_PERFECT_PAIR`` if rank and suit
    are (twice that, ``_BANKER_PAIRS`` times, the Banker's).
    """
    table = np.zeros(_PAIRS_AT + 256, dtype=np.int16)
    for rp in range(19):
        for rb in range(19):
            word = draws[10 * (rp % 10) + rb % 10]
            pd = word & 1
            for third in range(10):
                shift = third + 1 if pd else _STOOD_BIT
                bd = (word >> shift) & 1
                pt = (rp + third * pd) % 10
                bt = rb % 10 if pd else (rb + third * bd) % 10
                partial = KEY_PLAYER_TOTAL * pt + KEY_BANKER_TOTAL * bt
                partial += KEY_PLAYER_THIRD_CARD * pd + KEY_BANKER_THIRD_CARD * bd
                table[(rp << 9) | (rb << 4) | third] = (
                    (4 + pd + bd + extra) | (pd << 3) | (bd << 4) | (partial << 5) | ((pd & bd) << 14)
                )
    for rb in range(19):
        for point in range(10):
            table[_CORR_AT + (rb << 4) + point] = KEY_BANKER_TOTAL * ((rb + point) % 10 - rb % 10)
    for v in range(256):
        table[_PAIRS_AT + v] = KEY_PLAYER_PAIR * ((v & 15) == 0) + KEY_PLAYER_PERFECT_PAIR * (v == 0)
    return table


@njit(cache=True, nogil=True, error_model="numpy", inline="always")
def _coup(shoe: npt.NDArray[np.int64], pos: int, table: npt.NDArray[np.int16]) -> tuple[int, int]:  # pragma: no cover
    """Deal one coup from ``pos`` of a packed shoe: returns ``(feature key, step)``, the step being
    the cards used plus the table's extra (see :func:`_draw_table`).

    Branch-free: the six cards a coup may use are read at once and one lookup in the coup table
    decides which of them count (the rules guarantee six cards remain when a coup starts) and
    gives the totals' part of the key, so the position of the next coup waits on a short chain
    of operations only. The packed card keeps bits 4-5 clear, so ``(c1 + c3) & 31`` is the raw
    sum of two points; its ace and face bits (6-7) OR-ed over a side's cards and multiplied give
    the key's bits 4-7. Indices are unsigned, which spares the negative-index check on that chain.
    """
    at = np.uint64(pos)
    c1 = shoe[at]
    c2 = shoe[at + _ONE]
    c3 = shoe[at + _TWO]
    c4 = shoe[at + _THREE]
    c5 = shoe[at + _FOUR]
    c6 = shoe[at + _U5]
    rb = (c2 + c4) & 31
    entry = np.int64(table[np.uint64((((c1 + c3) & 31) << 9) | (rb << 4) | (c5 & _POINT_MASK))])
    player_draws = (entry >> 3) & 1
    banker_draws = (entry >> 4) & 1
    banker_third = c5 + (c6 - c5) * player_draws
    player_flags = c1 | c3 | (c5 & -player_draws)
    banker_flags = c2 | c4 | (banker_third & -banker_draws)
    key = (
        ((entry >> 5) & 511)
        + (np.int64(table[np.uint64(_CORR_AT + ((rb << 4) | (c6 & _POINT_MASK)))]) & -(entry >> 14))
        + np.int64(table[np.uint64(_PAIRS_AT + (((c1 ^ c3) >> 8) & 255))])
        + _BANKER_PAIRS * np.int64(table[np.uint64(_PAIRS_AT + (((c2 ^ c4) >> 8) & 255))])
        + (player_flags & _FLAG_BITS) * _PLAYER_ACE_FACE
        + (banker_flags & _FLAG_BITS) * _BANKER_ACE_FACE
    )
    return key, int(entry & 7)


@njit(cache=True, nogil=True, error_model="numpy", inline="always")
def _copy(dst: npt.NDArray[np.int64], src: npt.NDArray[np.int64], count: int) -> None:  # pragma: no cover
    """``dst[:count] = src[:count]`` as a plain loop, which LLVM vectorises (behind a check that the
    two ranges do not overlap): numba's slice assignment copies element by element, about three
    times slower, and copies through a temporary when both sides view the same array."""
    for k in range(count):
        dst[k] = src[k]


@njit(cache=True, nogil=True, error_model="numpy")
def _cut_and_burn(
    work: npt.NDArray[np.int64],
    n: int,
    cfg: npt.NDArray[np.int64],
    thresh: npt.NDArray[np.uint64],
    s0: np.uint64,
    s1: np.uint64,
    s2: np.uint64,
    s3: np.uint64,
) -> tuple[int, int, int]:  # pragma: no cover - compiled
    """The cut and the burn of a shuffled deck in ``work`` (``2 * n`` long), with the stream's state.

    The cut is not a rotation: the cards before the cut are copied behind the shoe, which then
    lies at ``work[base : base + n]``. Returns ``(base, first coup position, turned)``: ``turned``
    is the position of the card turned face up by burn method (b), or -1. A continuous shuffler
    deals from position 0 of the shuffled deck, with no cut and no burn.
    """
    if cfg[_CONTINUOUS]:
        return 0, 0, -1
    quarter = n // 4
    span = n - 2 * quarter
    if span < 1:
        span = 1
    r, s0, s1, s2, s3 = _randbelow(span, thresh, s0, s1, s2, s3)
    cut_at = quarter + r
    _copy(work[n:], work, int(cut_at))
    turned = -1
    if cfg[_BURN_METHOD] == _BURN_FIRST_CARD:
        turned = 0
        burn = 1 + (work[cut_at] >> _BURN_SHIFT)
    else:
        burn = cfg[_BURN_N]
    return int(cut_at), int(burn if burn < n else n), turned


@njit(cache=True, nogil=True, error_model="numpy")
def _prepare_shoe(
    seed: np.uint64,
    shoe_number: int,
    fresh: npt.NDArray[np.int64],
    cfg: npt.NDArray[np.int64],
    thresh: npt.NDArray[np.uint64],
    fold: npt.NDArray[np.uint64],
    magic: npt.NDArray[np.uint64],
    work: npt.NDArray[np.int64],
) -> tuple[int, int, int]:  # pragma: no cover - compiled
    """Shuffle, cut and burn shoe ``shoe_number`` in ``work`` from the packed fresh deck (see :func:`_cut_and_burn`)."""
    n = fresh.shape[0]
    _copy(work, fresh, n)
    s0, s1, s2, s3 = _stream_state(seed, shoe_number)
    s0, s1, s2, s3 = _shuffle(work, n, thresh, fold, magic, s0, s1, s2, s3)
    return _cut_and_burn(work, n, cfg, thresh, s0, s1, s2, s3)


@njit(cache=True, nogil=True, error_model="numpy")
def _lane_buffers(
    n: int, fold: npt.NDArray[np.uint64], magic: npt.NDArray[np.uint64]
) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.uint64], npt.NDArray[np.uint64]]:  # pragma: no cover
    """The buffers of :func:`_prepare_lanes`: ``_LANES`` work rows of at least ``2 * n`` cards, the
    remainder constants side by side (``consts[m] = (fold[m], magic[m])``, one cache line for four
    bounds) and the lanes' states.

    A row is ``_ROW_SKEW`` (mod 512) eight-byte words long, so that the rows start 264 bytes apart
    modulo 4 KiB. The shuffle stores lane ``l``'s card ``i`` and then loads lane ``l + 1``'s: were
    the two addresses equal in their low 12 bits, the processor would take the load for one that
    depends on the store (4K aliasing) and wait; rows a multiple of 4 KiB long make the counting
    kernel three times slower.
    """
    width = 2 * n + (_ROW_SKEW - 2 * n) % 512
    rows = np.empty((_LANES, width), dtype=np.int64)
    consts = np.empty((n + 2, 2), dtype=np.uint64)
    for m in range(n + 2):
        consts[m, 0] = fold[m]
        consts[m, 1] = magic[m]
    return rows, consts, np.empty((4, _LANES), dtype=np.uint64)


@njit(cache=True, nogil=True, error_model="numpy")
def _prepare_lanes(
    seed: np.uint64,
    shoe_number: int,
    fresh: npt.NDArray[np.int64],
    cfg: npt.NDArray[np.int64],
    thresh: npt.NDArray[np.uint64],
    fold: npt.NDArray[np.uint64],
    magic: npt.NDArray[np.uint64],
    consts: npt.NDArray[np.uint64],
    rows: npt.NDArray[np.int64],
    state: npt.NDArray[np.uint64],
    bases: npt.NDArray[np.int64],
    starts: npt.NDArray[np.int64],
) -> None:  # pragma: no cover - compiled
    """:func:`_prepare_shoe` of shoes ``shoe_number … shoe_number + _LANES - 1`` at once
    (``n <= FASTMOD_MAX``): shoe ``shoe_number + l`` lies at ``rows[l, bases[l] : bases[l] + n]``
    and its first coup at ``starts[l]``. A lane that :func:`_shuffle_lanes` marks suspect is
    shuffled again by the exact :func:`_shuffle`, so every deck is the engine's.
    """
    n = fresh.shape[0]
    for lane in range(_LANES):
        _copy(rows[lane], fresh, n)
        state[0, lane], state[1, lane], state[2, lane], state[3, lane] = _stream_state(seed, shoe_number + lane)
    suspect = _shuffle_lanes(rows, n, consts, state)
    for lane in range(_LANES):
        row = rows[lane]
        s0, s1, s2, s3 = state[0, lane], state[1, lane], state[2, lane], state[3, lane]
        if (suspect >> np.uint64(lane)) & _ONE:
            _copy(row, fresh, n)
            s0, s1, s2, s3 = _stream_state(seed, shoe_number + lane)
            s0, s1, s2, s3 = _shuffle(row, n, thresh, fold, magic, s0, s1, s2, s3)
        bases[lane], starts[lane], _turned = _cut_and_burn(row, n, cfg, thresh, s0, s1, s2, s3)


@njit(cache=True, nogil=True, error_model="numpy")
def _deal_shoe(
    seed: np.uint64,
    shoe_number: int,
    fresh: npt.NDArray[np.int64],
    cfg: npt.NDArray[np.int64],
    table: npt.NDArray[np.int16],
    thresh: npt.NDArray[np.uint64],
    fold: npt.NDArray[np.uint64],
    magic: npt.NDArray[np.uint64],
    work: npt.NDArray[np.int64],
    keys: npt.NDArray[np.int64],
    starts: npt.NDArray[np.int64],
    flags: npt.NDArray[np.int64],
) -> tuple[int, int, int]:  # pragma: no cover - compiled
    """Deal shoe ``shoe_number`` and record its coups' keys, first positions and flags.

    The shoe's packed cards in final order lie at ``work[base : base + n]``. Returns
    ``(coups, turned, base)``: ``turned`` is the position of the card turned face up by burn
    method (b), or -1.
    """
    n = fresh.shape[0]
    base, pos, turned = _prepare_shoe(seed, shoe_number, fresh, cfg, thresh, fold, magic, work)
    shoe = work[base : base + n]
    if cfg[_CONTINUOUS]:
        key, _used = _coup(shoe, 0, table)
        keys[0] = key
        starts[0] = 0
        flags[0] = 0
        return 1, -1, 0
    cut_index = n - cfg[_CUT_FROM_END]
    burn_each = cfg[_BURN_EACH]
    needed = 6 + burn_each
    demo_coups = cfg[_DEMO]
    finish = cfg[_FINISH] != 0
    laid = cfg[_LAID]
    coups = 0
    cut_seen_at = -1
    while True:
        if burn_each and pos < n:
            pos += 1
        if n - pos < 6:
            break  # the engine raises "not enough cards for a coup" and ends the shoe
        key, used = _coup(shoe, pos, table)
        keys[coups] = key
        starts[coups] = pos
        cut_out = pos + laid > cut_index or pos + used > cut_index  # R19 layout laid, R6
        pos += used
        coups += 1
        if cut_out and cut_seen_at < 0:
            cut_seen_at = coups
        last = cut_seen_at >= 0 and (finish or coups > cut_seen_at)
        if n - pos < needed:
            last = True
        flags[coups - 1] = (
            (FLAG_DEMO if coups <= demo_coups else 0)
            | (FLAG_LAST if last else 0)
            | (FLAG_CUT_CARD_OUT if cut_out else 0)
        )
        if last:
            break
    return coups, turned, base


@njit(cache=True, nogil=True, error_model="numpy")
def _laid_cut(cut: int, cfg: npt.NDArray[np.int64]) -> int:  # pragma: no cover - compiled
    """The first coup position whose pre-dealt layout reaches past the cut card, less one: a coup
    starting beyond it brings the cut card out when its layout is laid (R19, R6). Without a layout
    no coup start can pass it (it is past the shoe's last card)."""
    laid = cfg[_LAID]
    return cut - laid if laid > 0 else 1 << 40


@njit(cache=True, nogil=True, error_model="numpy")
def _count_shoe(
    shoe: npt.NDArray[np.int64],
    pos: int,
    cfg: npt.NDArray[np.int64],
    table: npt.NDArray[np.int16],
    hist: npt.NDArray[np.int64],
    hands: int,
    hand_limit: int,
) -> int:  # pragma: no cover - compiled
    """Deal the coups of a prepared shoe from ``pos`` into ``hist`` (scored coups only), with the
    rules of :func:`_deal_shoe` but no per-coup output; returns ``hands`` plus the coups counted,
    stopping when it reaches ``hand_limit``.

    ``table`` is the drawing table with the burn before each coup included in the step from one
    coup to the next (``_draw_table(draws, cfg[_BURN_EACH])``), so ``pos`` always points at the
    next coup's first card. The cut card is out when ``pos > cut``, with ``cut`` = the cut
    card's index plus that burn, or when a coup starts past :func:`_laid_cut` (its pre-dealt
    layout reaches behind the cut card); the shoe has cards for a coup while ``pos <= n - 6``.
    """
    n = shoe.shape[0]
    if cfg[_CONTINUOUS]:
        key, _used = _coup(shoe, 0, table)
        hist[np.uint64(key)] += 1
        return hands + 1
    burn_each = cfg[_BURN_EACH]
    demo_coups = cfg[_DEMO]
    pos += burn_each
    cut = n - cfg[_CUT_FROM_END] + burn_each
    stop = min(cut, n - 6)
    early = _laid_cut(cut, cfg)
    coups = 0
    if pos > n - 6:
        return hands  # the engine raises "not enough cards for a coup" and ends the shoe
    start = pos
    while True:
        start = pos
        key, step = _coup(shoe, pos, table)
        pos += step
        coups += 1
        if coups > demo_coups:
            hist[np.uint64(key)] += 1
            hands += 1
            if hands == hand_limit:
                return hands
        if pos > stop or start > early:
            break
    cut_out = pos > cut or start > early
    if cut_out and cfg[_FINISH] == 0 and pos <= n - 6:  # one more coup after the cut card's
        key, step = _coup(shoe, pos, table)
        if coups + 1 > demo_coups:
            hist[np.uint64(key)] += 1
            hands += 1
    return hands


@njit(cache=True, nogil=True, error_model="numpy")
def _count_pair(
    a: npt.NDArray[np.int64],
    pos_a: int,
    b: npt.NDArray[np.int64],
    pos_b: int,
    cfg: npt.NDArray[np.int64],
    table: npt.NDArray[np.int16],
    hist: npt.NDArray[np.int64],
) -> int:  # pragma: no cover - compiled
    """:func:`_count_shoe` of two prepared shoes (not continuous) at once, with no hand limit: their
    coups alternate, so that the two chains of dependent positions overlap. Returns the hands."""
    n = a.shape[0]
    burn_each = cfg[_BURN_EACH]
    demo_coups = cfg[_DEMO]
    pos_a += burn_each
    pos_b += burn_each
    cut = n - cfg[_CUT_FROM_END] + burn_each
    stop = min(cut, n - 6)
    early = _laid_cut(cut, cfg)
    if pos_a > n - 6 or pos_b > n - 6:
        return _count_shoe(a, pos_a - burn_each, cfg, table, hist, 0, -1) + _count_shoe(
            b, pos_b - burn_each, cfg, table, hist, 0, -1
        )
    coups_a = coups_b = 0
    start_a = pos_a
    start_b = pos_b
    while True:
        start_a = pos_a
        start_b = pos_b
        key_a, step_a = _coup(a, pos_a, table)
        key_b, step_b = _coup(b, pos_b, table)
        pos_a += step_a
        pos_b += step_b
        coups_a += 1
        coups_b += 1
        if coups_a > demo_coups:
            hist[np.uint64(key_a)] += 1
            hist[np.uint64(key_b)] += 1
        if pos_a > stop or pos_b > stop or start_a > early or start_b > early:
            break
    while pos_a <= stop and start_a <= early:
        start_a = pos_a
        key_a, step_a = _coup(a, pos_a, table)
        pos_a += step_a
        coups_a += 1
        if coups_a > demo_coups:
            hist[np.uint64(key_a)] += 1
    while pos_b <= stop and start_b <= early:
        start_b = pos_b
        key_b, step_b = _coup(b, pos_b, table)
        pos_b += step_b
        coups_b += 1
        if coups_b > demo_coups:
            hist[np.uint64(key_b)] += 1
    one_more = cfg[_FINISH] == 0
    if (pos_a > cut or start_a > early) and one_more and pos_a <= n - 6:
        key_a, step_a = _coup(a, pos_a, table)
        coups_a += 1
        if coups_a > demo_coups:
            hist[np.uint64(key_a)] += 1
    if (pos_b > cut or start_b > early) and one_more and pos_b <= n - 6:
        key_b, step_b = _coup(b, pos_b, table)
        coups_b += 1
        if coups_b > demo_coups:
            hist[np.uint64(key_b)] += 1
    return int(max(coups_a - demo_coups, 0) + max(coups_b - demo_coups, 0))


@njit(cache=True, nogil=True, error_model="numpy")
def _buffers(
    deck: npt.NDArray[np.int8], packed: npt.NDArray[np.int64], draws: npt.NDArray[np.int64], extra: int
) -> tuple[
    npt.NDArray[np.int64],
    npt.NDArray[np.int16],
    npt.NDArray[np.uint64],
    npt.NDArray[np.uint64],
    npt.NDArray[np.uint64],
    npt.NDArray[np.int64],
]:  # pragma: no cover - compiled
    """What every kernel builds once per call: the packed fresh deck, the drawing table, the
    randbelow tables and a ``2 * n`` work buffer (``extra``: see :func:`_draw_table`)."""
    n = deck.shape[0]
    fresh = np.empty(n, dtype=np.int64)
    for i in range(n):
        fresh[i] = packed[deck[i]]
    thresh, fold, magic = _mod_tables(n)
    return fresh, _draw_table(draws, extra), thresh, fold, magic, np.empty(2 * n, dtype=np.int64)


@njit(cache=True, nogil=True, error_model="numpy")
def _record_kernel(
    seed: np.uint64,
    first_shoe: int,
    deck: npt.NDArray[np.int8],
    cfg: npt.NDArray[np.int64],
    packed: npt.NDArray[np.int64],
    draws: npt.NDArray[np.int64],
    out_keys: npt.NDArray[np.int64],
    out_flags: npt.NDArray[np.int64],
    out_counts: npt.NDArray[np.int64],
) -> int:  # pragma: no cover - compiled
    """Deal ``out_counts.size`` shoes and record every coup's key and flags; returns the coups."""
    n = deck.shape[0]
    fresh, table, thresh, fold, magic, work = _buffers(deck, packed, draws, 0)
    cap = n // 4 + 2
    keys = np.empty(cap, dtype=np.int64)
    starts = np.empty(cap, dtype=np.int64)
    flags = np.empty(cap, dtype=np.int64)
    total = 0
    for s in range(out_counts.shape[0]):
        coups, _turned, _base = _deal_shoe(
            seed, first_shoe + s, fresh, cfg, table, thresh, fold, magic, work, keys, starts, flags
        )
        for c in range(coups):
            out_keys[total + c] = keys[c]
            out_flags[total + c] = flags[c]
        out_counts[s] = coups
        total += coups
    return total


@njit(cache=True, nogil=True, error_model="numpy")
def _count_kernel(
    seed: np.uint64,
    first_shoe: int,
    shoes: int,
    hand_limit: int,
    deck: npt.NDArray[np.int8],
    cfg: npt.NDArray[np.int64],
    packed: npt.NDArray[np.int64],
    draws: npt.NDArray[np.int64],
    hist: npt.NDArray[np.int64],
) -> tuple[int, int]:  # pragma: no cover - compiled
    """Add the feature key of every scored (non-demonstration) coup to ``hist``.

    Stops after ``hand_limit`` coups (-1: no limit). Returns ``(hands, shoes started)``.
    """
    n = deck.shape[0]
    fresh, table, thresh, fold, magic, work = _buffers(deck, packed, draws, cfg[_BURN_EACH])
    hands = 0
    if hand_limit < 0 and n <= FASTMOD_MAX:
        # _LANES shoes at a time (the last group may shuffle shoes past the range, not counted);
        # their coups two shoes at a time, interleaved. The histogram does not depend on the order.
        rows, consts, state = _lane_buffers(n, fold, magic)
        bases = np.empty(_LANES, dtype=np.int64)
        starts = np.empty(_LANES, dtype=np.int64)
        for s in range(0, shoes, _LANES):
            _prepare_lanes(seed, first_shoe + s, fresh, cfg, thresh, fold, magic, consts, rows, state, bases, starts)
            group = min(_LANES, shoes - s)
            lane = 0
            while lane < group:
                a = rows[lane, bases[lane] : bases[lane] + n]
                if cfg[_CONTINUOUS] or lane + 1 == group:
                    hands = _count_shoe(a, starts[lane], cfg, table, hist, hands, -1)
                    lane += 1
                else:
                    b = rows[lane + 1, bases[lane + 1] : bases[lane + 1] + n]
                    hands += _count_pair(a, starts[lane], b, starts[lane + 1], cfg, table, hist)
                    lane += 2
        return hands, shoes
    for s in range(shoes):
        if hands == hand_limit:
            return hands, s
        base, pos, _turned = _prepare_shoe(seed, first_shoe + s, fresh, cfg, thresh, fold, magic, work)
        hands = _count_shoe(work[base : base + n], pos, cfg, table, hist, hands, hand_limit)
    return hands, shoes


# Strategy parameters (``params``), money in minor units.
(
    P_SELECT,
    P_BET,
    P_MIN_RUN,
    P_ON_LIMIT_RESET,
    P_RUIN_BELOW,
    P_BANKROLL,
    P_UNIT,
    P_STOP_LOSS,
    P_STOP_WIN,
    P_SESSION_SHOES,
    P_TRACK_STRIDE,
    P_SIZE,
) = range(12)
#: Selection rules (``params[P_SELECT]``).
SELECT_FIXED, SELECT_FOLLOW, SELECT_SEQUENCE, SELECT_COUNT = range(4)
# Columns of the per-session output.
(
    S_FINAL,
    S_MAX_DRAWDOWN,
    S_HANDS,
    S_BETS,
    S_WAGERED,
    S_NET,
    S_END,
    S_LIMIT_HITS,
    S_SIZE,
) = range(9)
#: How a session ended (``sessions[:, S_END]``).
END_PLAYED, END_RUINED, END_STOP_LOSS, END_STOP_WIN = range(4)
# Entries of the per-shoe batch sums (``shoe_sums``).
B_SHOES, B_NET, B_WAGERED, B_NET2, B_WAGERED2, B_CROSS, B_SIZE = range(7)


@njit(cache=True, nogil=True, error_model="numpy")
def _play_kernel(
    seed: np.uint64,
    first_shoe: int,
    hand_limit: int,
    deck: npt.NDArray[np.int8],
    cfg: npt.NDArray[np.int64],
    packed: npt.NDArray[np.int64],
    draws: npt.NDArray[np.int64],
    winner: npt.NDArray[np.int8],
    params: npt.NDArray[np.int64],
    follow: npt.NDArray[np.int64],
    sequence: npt.NDArray[np.int64],
    levels: npt.NDArray[np.int64],
    on_win: npt.NDArray[np.int64],
    on_loss: npt.NDArray[np.int64],
    outcome: npt.NDArray[np.int8],
    pays: npt.NDArray[np.int64],
    limits: npt.NDArray[np.int64],
    tags: npt.NDArray[np.float64],
    count_cfg: npt.NDArray[np.float64],
    hist: npt.NDArray[np.int64],
    sessions: npt.NDArray[np.int64],
    results: npt.NDArray[np.int64],
    money: npt.NDArray[np.int64],
    shoe_sums: npt.NDArray[np.float64],
    track: npt.NDArray[np.int64],
) -> tuple[int, int]:  # pragma: no cover - compiled
    """Play ``sessions.shape[0]`` sessions of a strategy, each ``params[P_SESSION_SHOES]`` shoes from ``first_shoe``.

    ``outcome[row, key]`` is the settlement level of the strategy's bet ``row`` (``LOSE`` -1,
    ``PUSH`` -2); a win nets ``stake * pays[row, 2 * level] // pays[row, 2 * level + 1]`` (rounded
    down, R32). ``limits[row]`` = (table minimum, table maximum, stake step). ``winner[key]``: 0
    Banker, 1 Player, 2 Tie. ``follow[last winner]`` is the bet row a follow rule places after
    ``params[P_MIN_RUN]`` equal results. ``tags``/``count_cfg`` (expected value off the top,
    threshold, cards in a full shoe less one) drive the count: the bet is placed when
    ``ev + (N - 1) / unseen * running count > threshold``. ``track[s, i]`` receives session
    ``s``'s bankroll after ``i * stride`` hands. Returns ``(hands, sessions started)``.
    """
    n = deck.shape[0]
    fresh, table, thresh, fold, magic, work = _buffers(deck, packed, draws, 0)
    cap = n // 4 + 2
    keys = np.empty(cap, dtype=np.int64)
    starts = np.empty(cap, dtype=np.int64)
    flags = np.empty(cap, dtype=np.int64)
    select = params[P_SELECT]
    counting = select == SELECT_COUNT
    fixed = params[P_BET]
    min_run = params[P_MIN_RUN]
    reset_on_limit = params[P_ON_LIMIT_RESET] != 0
    ruin_below = params[P_RUIN_BELOW]
    start = params[P_BANKROLL]
    unit = params[P_UNIT]
    stop_loss = params[P_STOP_LOSS]
    stop_win = params[P_STOP_WIN]
    per_session = params[P_SESSION_SHOES]
    stride = params[P_TRACK_STRIDE]
    tracked = track.shape[0]
    track_len = track.shape[1]
    top = levels.shape[0] - 1
    seq_len = sequence.shape[0]
    ev0 = count_cfg[0]
    threshold = count_cfg[1]
    full_less_one = count_cfg[2]
    hands = 0
    for s in range(sessions.shape[0]):
        if hands == hand_limit:
            return hands, s
        bankroll = start
        peak = start
        drawdown = 0
        played = 0
        bets = 0
        wagered = 0
        net_total = 0
        ended = END_PLAYED
        active = True
        level = 0
        limit_hits = 0
        session_hands = 0
        mark = stride  # the next multiple of the stride, and its point on the track
        point = 1
        for k in range(per_session):
            if hands == hand_limit:
                break
            coups, turned, base = _deal_shoe(
                seed,
                first_shoe + s * per_session + k,
                fresh,
                cfg,
                table,
                thresh,
                fold,
                magic,
                work,
                keys,
                starts,
                flags,
            )
            shoe = work[base : base + n]
            last_winner = -1
            run = 0
            decided = 0
            running = 0.0
            unseen = n
            if counting and turned >= 0:
                running += tags[(shoe[turned] >> _INDEX_SHIFT) & 63]
                unseen -= 1
            shoe_net = 0
            shoe_wagered = 0
            for c in range(coups):
                key = keys[c]
                if hands == hand_limit:
                    break
                if not flags[c] & FLAG_DEMO:
                    hist[key] += 1
                    hands += 1
                    session_hands += 1
                    row = -1
                    if active:
                        played += 1
                        if select == SELECT_FIXED:
                            row = fixed
                        elif select == SELECT_FOLLOW:
                            if last_winner >= 0 and run >= min_run:
                                row = follow[last_winner]
                        elif select == SELECT_SEQUENCE:
                            row = sequence[decided % seq_len]
                        elif ev0 + full_less_one / unseen * running > threshold:
                            row = fixed
                    if row >= 0:
                        desired = unit * levels[level]
                        if desired > limits[row, 1]:
                            limit_hits += 1
                            if reset_on_limit:
                                level = 0
                                desired = unit * levels[0]
                            else:
                                desired = limits[row, 1]
                        stake = desired if desired <= bankroll else bankroll
                        step = limits[row, 2]
                        if step != 1:
                            stake -= stake % step
                        if stake >= limits[row, 0]:
                            code = outcome[row, key]
                            if code >= 0:
                                net = stake * pays[row, 2 * code]
                                den = pays[row, 2 * code + 1]
                                if den != 1:
                                    net //= den
                                level = on_win[level]
                            elif code == -1:
                                net = -stake
                                level = on_loss[level]
                            else:
                                net = 0
                            if level > top:
                                level = top
                            results[row, code + 2] += 1
                            money[row, 0] += stake
                            money[row, 1] += net
                            bankroll += net
                            bets += 1
                            wagered += stake
                            net_total += net
                            shoe_net += net
                            shoe_wagered += stake
                            if bankroll > peak:
                                peak = bankroll
                            elif peak - bankroll > drawdown:
                                drawdown = peak - bankroll
                        if bankroll < ruin_below:
                            ended = END_RUINED
                            active = False
                        elif stop_loss > 0 and start - bankroll >= stop_loss:
                            ended = END_STOP_LOSS
                            active = False
                        elif stop_win > 0 and bankroll - start >= stop_win:
                            ended = END_STOP_WIN
                            active = False
                    if s < tracked and session_hands == mark:
                        if point < track_len:
                            track[s, point] = bankroll
                        mark += stride
                        point += 1
                    w = winner[key]  # the scoreboard: demonstration coups are not on it (R5)
                    if w < 2:
                        decided += 1
                        if w == last_winner:
                            run += 1
                        else:
                            last_winner = w
                            run = 1
                if counting:
                    used = 4 + key // KEY_PLAYER_THIRD_CARD % 2 + key // KEY_BANKER_THIRD_CARD % 2
                    for i in range(starts[c], starts[c] + used):
                        running += tags[(shoe[i] >> _INDEX_SHIFT) & 63]
                    unseen -= used
            shoe_sums[B_SHOES] += 1.0
            shoe_sums[B_NET] += shoe_net
            shoe_sums[B_WAGERED] += shoe_wagered
            shoe_sums[B_NET2] += float(shoe_net) * float(shoe_net)
            shoe_sums[B_WAGERED2] += float(shoe_wagered) * float(shoe_wagered)
            shoe_sums[B_CROSS] += float(shoe_net) * float(shoe_wagered)
        if s < tracked:
            i = session_hands // stride + 1
            while i < track_len:
                track[s, i] = bankroll
                i += 1
            track[s, 0] = start
        sessions[s, S_FINAL] = bankroll
        sessions[s, S_MAX_DRAWDOWN] = drawdown
        sessions[s, S_HANDS] = played
        sessions[s, S_BETS] = bets
        sessions[s, S_WAGERED] = wagered
        sessions[s, S_NET] = net_total
        sessions[s, S_END] = ended
        sessions[s, S_LIMIT_HITS] = limit_hits
    return hands, sessions.shape[0]


# --- public wrappers ----------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class KernelTables:
    """The engine's rules as arrays for the kernel, built from :mod:`baccarat.cards` and :mod:`baccarat.coup`.

    ``packed[card index]`` packs the card's point, ace and face flags, rank, suit, index and burn
    value (method (b)). ``draws[10 * p + b]`` tabulates :func:`baccarat.coup.player_draws` (bit 0)
    and :func:`baccarat.coup.banker_draws` on two-card totals ``p`` and ``b``: bit ``t + 1`` when
    Player's third card is ``t``, bit 12 when Player stood.

    >>> t = kernel_tables()
    >>> t.banker_draws(4, 3, 8), t.banker_draws(4, 3, 9), t.banker_draws(7, 5, None), t.player_draws(5, 7)
    (False, True, True, True)
    """

    packed: npt.NDArray[np.int64]
    draws: npt.NDArray[np.int64]

    def player_draws(self, player: int, banker: int) -> bool:
        """Whether Player draws on these two-card totals, read back from the table."""
        return bool(self.draws[10 * player + banker] & 1)

    def banker_draws(self, player: int, banker: int, third: int | None) -> bool:
        """Whether Banker draws, read back from the table (``third``: Player's third card's point, or None)."""
        bit = _STOOD_BIT if third is None else third + 1
        return bool(self.draws[10 * player + banker] >> bit & 1)


@cache
def kernel_tables() -> KernelTables:
    """The card and drawing-rule tables (built once)."""
    suits = {suit: i for i, suit in enumerate(dict.fromkeys(card.suit for card in ALL_CARDS))}
    packed = np.array(
        [
            card.point
            | int(card.rank is Rank.ACE) << _ACE_SHIFT
            | int(card.rank.is_face) << (_ACE_SHIFT + 1)
            | int(card.rank) << 8
            | suits[card.suit] << 12
            | card.index << _INDEX_SHIFT
            | burn_value(card) << _BURN_SHIFT
            for card in ALL_CARDS
        ],
        dtype=np.int64,
    )
    draws = np.zeros(100, dtype=np.int64)
    for p in range(10):
        for b in range(10):
            word = int(player_draws(p, b))
            for t in range(10):
                word |= int(banker_draws(b, t, player_total=p)) << (t + 1)
            word |= int(banker_draws(b, None, player_total=p)) << _STOOD_BIT
            draws[10 * p + b] = word
    packed.setflags(write=False)
    draws.setflags(write=False)
    return KernelTables(packed=packed, draws=draws)


@dataclass(frozen=True, slots=True)
class ShoeTables:
    """A shoe configuration as kernel input: the fresh-order deck and the configuration vector."""

    deck: npt.NDArray[np.int8]
    config: npt.NDArray[np.int64]
    size: int

    @property
    def max_coups(self) -> int:
        """An upper bound on coups per shoe (every coup takes at least four cards)."""
        return self.size // 4 + 2


def shoe_tables(config: ShoeConfig) -> ShoeTables:
    """Convert a :class:`ShoeConfig` for the kernel (the deck in the order :meth:`Composition.cards` gives).

    >>> t = shoe_tables(ShoeConfig(decks=1))
    >>> t.size, t.deck[:5].tolist()
    (52, [0, 1, 2, 3, 4])
    """
    deck = np.array([card.index for card in config.full_composition().cards()], dtype=np.int8)
    burn_n = config.decks if config.burn is BurnMethod.DECKS else config.burn_count
    vector = np.zeros(8, dtype=np.int64)
    vector[_CONTINUOUS] = config.mode is DealingMode.CONTINUOUS
    vector[_CUT_FROM_END] = config.cut_card_from_end
    vector[_BURN_METHOD] = {BurnMethod.DECKS: 0, BurnMethod.FIRST_CARD: _BURN_FIRST_CARD, BurnMethod.FIXED: 2}[
        config.burn
    ]
    vector[_BURN_N] = burn_n
    vector[_DEMO] = config.demo_coups
    vector[_FINISH] = config.after_cut_card is AfterCutCard.FINISH
    # The engine burns before each coup only in shoe mode (the pre-dealt layout forbids it, R8 has no burns).
    vector[_BURN_EACH] = config.burn_each_coup and config.mode is DealingMode.SHOE
    # The pre-dealt layout lays six cards before each coup: one behind the cut card brings it out (R19, R6).
    vector[_LAID] = MIN_CARDS_FOR_COUP if config.mode is DealingMode.PRE_DEALT else 0
    if deck.size < MIN_CARDS_FOR_COUP:  # pragma: no cover - ShoeConfig already refuses it
        raise InputError(f"a shoe of {deck.size} cards cannot deal a coup")
    deck.setflags(write=False)
    vector.setflags(write=False)
    return ShoeTables(deck=deck, config=vector, size=int(deck.size))


def check_seed(seed: int) -> np.uint64:
    """Validate an integer seed for the kernel (text seeds: :func:`baccarat.rng.seed_to_int` first)."""
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= MASK64:
        raise InputError(f"seed {seed!r} is out of range", hint="use an integer from 0 to 2**64 - 1")
    return np.uint64(seed)


def check_shoes(first_shoe: int, shoes: int) -> None:
    """Validate a range of shoe numbers."""
    if shoes < 0:
        raise InputError(f"{shoes} shoes is negative", hint="ask for zero or more shoes")
    if first_shoe < 0 or first_shoe + shoes > 2**62:
        raise InputError(f"shoe numbers from {first_shoe} are out of range", hint="start at shoe 1")


@dataclass(frozen=True, slots=True)
class DealtFeatures:
    """Every coup of a run of shoes: its feature key and flags (:data:`FLAG_DEMO` …), and coups per shoe."""

    keys: npt.NDArray[np.int64]
    flags: npt.NDArray[np.int64]
    coups_per_shoe: npt.NDArray[np.int64]


def deal_features(config: ShoeConfig, *, seed: int, first_shoe: int = 1, shoes: int) -> DealtFeatures:
    """Deal shoes ``first_shoe … first_shoe + shoes - 1`` and record every coup (demonstration coups too).

    A continuous shuffler deals one coup per shoe number, as :class:`baccarat.dealing.ShoeDealer` does.

    >>> dealt = deal_features(ShoeConfig(decks=8, demo_coups=2), seed=7, shoes=3)
    >>> int(dealt.coups_per_shoe.sum()) == dealt.keys.size, int((dealt.flags & FLAG_DEMO).astype(bool).sum())
    (True, 6)
    """
    useed = check_seed(seed)
    check_shoes(first_shoe, shoes)
    tables = kernel_tables()
    st = shoe_tables(config)
    out_keys = np.empty(shoes * st.max_coups, dtype=np.int64)
    out_flags = np.empty_like(out_keys)
    counts = np.zeros(shoes, dtype=np.int64)
    total = _record_kernel(
        useed,
        first_shoe,
        st.deck,
        st.config,
        tables.packed,
        tables.draws,
        out_keys,
        out_flags,
        counts,
    )
    return DealtFeatures(keys=out_keys[:total].copy(), flags=out_flags[:total].copy(), coups_per_shoe=counts)


def count_features(
    config: ShoeConfig, *, seed: int, first_shoe: int = 1, shoes: int, hand_limit: int = -1
) -> tuple[npt.NDArray[np.int64], int]:
    """A histogram over feature keys of every scored coup of a run of shoes, and the number of hands.

    ``hand_limit`` stops the run after that many scored coups (-1: none).

    >>> hist, hands = count_features(ShoeConfig(decks=8), seed=1, shoes=10)
    >>> int(hist.sum()) == hands > 600
    True
    """
    useed = check_seed(seed)
    check_shoes(first_shoe, shoes)
    tables = kernel_tables()
    st = shoe_tables(config)
    hist = np.zeros(FEATURE_KEYS, dtype=np.int64)
    hands, _ = _count_kernel(
        useed,
        first_shoe,
        shoes,
        hand_limit,
        st.deck,
        st.config,
        tables.packed,
        tables.draws,
        hist,
    )
    return hist, int(hands)
