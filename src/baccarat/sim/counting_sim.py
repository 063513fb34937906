"""Counts played on dealt shoes: the compiled loop behind ``baccarat count`` and the shoe-level figures.

The shoes are the simulator's own (:func:`baccarat.sim.kernel._deal_shoe`: shoe ``k`` from stream ``k`` of
the seed, bit for bit the oracle's shoes for the same seed). At every scored coup each count's true count
(running count per deck of cards not yet seen) is read; a count bets one unit when it is at or above its
index. A bet's exact expected value for the coup, from the cards not yet seen, is computed by the next-coup
kernel (:mod:`baccarat.analysis._next_kernel`) only where it is needed: where a count bets (its expected
gain), where a count's true count lies in the sampling window (the exact index search), or at every coup
(``price_all``: the shoe-level figures). The card turned face up by burn method (b) is seen; the cards
burned face down are not, unless ``burn_seen``.

>>> from baccarat.analysis.counting import PUBLISHED
>>> from baccarat.bets import BetKind
>>> plan = count_plan("ez", (BetKind.DRAGON7,), [PUBLISHED[BetKind.DRAGON7]], [BetKind.DRAGON7], [4.0])
>>> run = deal_and_count(plan, seed=5, shoes=3)
>>> run.per_shoe.shape, int(run.coups.sum()) > 200
((3, 1, 4, 3), True)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt
from numba import njit

from baccarat.analysis._next_kernel import PAIR_KEYS, TABLEAU_KEYS, next_coup_kernel
from baccarat.analysis.counting import CountSystem
from baccarat.analysis.exact import INT64_MAX, drawing_tables, falling_factorial
from baccarat.analysis.next_coup import NextCoupPricing, next_coup_pricing
from baccarat.bets import BetKind
from baccarat.errors import InputError
from baccarat.features import KEY_BANKER_THIRD_CARD, KEY_PLAYER_THIRD_CARD
from baccarat.shoe import ShoeConfig
from baccarat.sim import kernel as k

__all__ = ["BETS", "EXPECTED", "REALISED", "CountPlan", "CountRun", "count_plan", "deal_and_count"]

#: Per shoe, count and penetration band: bets placed, realised gain, expected gain (sum of exact EVs).
BETS, REALISED, EXPECTED = 0, 1, 2
#: Penetration bands by default: quarters of the shoe's cards (dealt before the coup).
DEFAULT_BANDS = 4


@dataclass(frozen=True, eq=False)
class CountPlan:
    """What the kernel needs: the pricing of the bets, the counts as tags per card, their indices and bets."""

    pricing: NextCoupPricing
    config: ShoeConfig
    systems: tuple[CountSystem, ...]
    kinds: tuple[BetKind, ...]
    tags: npt.NDArray[np.int64]
    index: npt.NDArray[np.float64]
    rows: npt.NDArray[np.int64]
    bands: int
    burn_seen: bool


def count_plan(
    variant: str,
    bets: tuple[BetKind, ...],
    systems: Sequence[CountSystem],
    kinds: Sequence[BetKind],
    indices: Sequence[float | None],
    *,
    config: ShoeConfig | None = None,
    bands: int = DEFAULT_BANDS,
    burn_seen: bool = False,
) -> CountPlan:
    """Plan counts ``systems`` (each on the bet of ``kinds`` at its index; ``None``: it never bets)."""
    config = config or ShoeConfig()
    pricing = next_coup_pricing(variant, kinds=bets)
    if pricing.mixed:
        names = ", ".join(kind.value for kind in pricing.mixed)
        raise InputError(
            f"cannot price {names} exactly at every coup", hint="leave out bets that read pairs and totals"
        )
    size = k.shoe_tables(config).size
    if int(np.abs(pricing.pays).max()) * falling_factorial(size, 6) > INT64_MAX:
        raise InputError(f"the payouts on {size} cards overflow exact 64-bit sums", hint="use fewer decks")
    if not 1 <= bands <= 20:
        raise InputError(f"{bands} penetration bands", hint="give 1 to 20")
    tags = np.array([[s.tags[i // 4] for i in range(52)] for s in systems], dtype=np.int64).reshape(len(systems), 52)
    index = np.array([np.inf if x is None else float(x) for x in indices], dtype=np.float64)
    rows = np.array([pricing.kinds.index(kind) for kind in kinds], dtype=np.int64)
    return CountPlan(pricing, config, tuple(systems), tuple(kinds), tags, index, rows, bands, burn_seen)


@njit(cache=True, nogil=True, error_model="numpy")
def _prices(
    counts: npt.NDArray[np.int64],
    left: int,
    tables: tuple[npt.NDArray[np.uint8], npt.NDArray[np.uint8]],
    index: npt.NDArray[np.int8],
    pays: npt.NDArray[np.int64],
    scale: npt.NDArray[np.int64],
    merge_ten: bool,
    work: tuple[npt.NDArray[np.int64], npt.NDArray[np.int64], npt.NDArray[np.int64]],
    ev: npt.NDArray[np.float64],
) -> None:  # pragma: no cover - compiled
    """Every bet's exact expected value for the coup about to be dealt from ``counts`` (``left`` cards)."""
    scratch, ways, sums = work
    next_coup_kernel(counts, tables[0], tables[1], index, merge_ten, scratch, ways, sums)
    n = left
    total = float(n * (n - 1) * (n - 2) * (n - 3) * (n - 4) * (n - 5))
    for row in range(sums.shape[0]):
        numerator = 0
        for col in range(sums.shape[1]):
            numerator += pays[row, col] * sums[row, col]
        ev[row] = numerator / (scale[row] * total)


@njit(cache=True, nogil=True, error_model="numpy")
def _needs_price(
    tc: npt.NDArray[np.float64], index: npt.NDArray[np.float64], window: npt.NDArray[np.float64], room: bool
) -> bool:  # pragma: no cover - compiled
    """Whether some count bets (or, with room for samples, lies in its sampling window) at these true counts."""
    for s in range(tc.shape[0]):  # noqa: SIM110 - a plain loop compiles; a generator would not
        if tc[s] >= index[s] or (room and window[s, 0] <= tc[s] <= window[s, 1]):
            return True
    return False


@njit(cache=True, nogil=True, error_model="numpy")
def _score_coup(
    shoe_out: npt.NDArray[np.float64],
    tc: npt.NDArray[np.float64],
    ev: npt.NDArray[np.float64],
    won: npt.NDArray[np.float64],
    plan: tuple[npt.NDArray[np.float64], npt.NDArray[np.int64], npt.NDArray[np.float64]],
    band: int,
    priced: bool,
    samples: npt.NDArray[np.float64],
    n_samples: npt.NDArray[np.int64],
) -> None:  # pragma: no cover - compiled
    """Add one coup to the counts' figures (``won``: each bet's realised result) and keep its samples."""
    index, rows, window = plan
    for s in range(tc.shape[0]):
        row = rows[s]
        if tc[s] >= index[s]:
            shoe_out[s, band, 0] += 1.0
            shoe_out[s, band, 1] += won[row]
            shoe_out[s, band, 2] += ev[row]
        if priced and window[s, 0] <= tc[s] <= window[s, 1] and n_samples[0] < samples.shape[0]:
            j = n_samples[0]
            samples[j, 0] = s
            samples[j, 1] = tc[s]
            samples[j, 2] = ev[row]
            n_samples[0] = j + 1


@njit(cache=True, nogil=True, error_model="numpy", inline="always")
def _see(
    card: int, counts: npt.NDArray[np.int64], rc: npt.NDArray[np.float64], tags: npt.NDArray[np.int64]
) -> None:  # pragma: no cover - compiled
    """A card is seen: it leaves the unseen cards and every count adds its tag."""
    counts[card] -= 1
    for q in range(tags.shape[0]):
        rc[q] += tags[q, card]


@njit(cache=True, nogil=True, error_model="numpy")
def _count_kernel(
    seed: np.uint64,
    first_shoe: int,
    shoe_arrays: tuple[npt.NDArray[np.int8], npt.NDArray[np.int64], npt.NDArray[np.int64], npt.NDArray[np.int64]],
    burn_seen: bool,
    price_all: bool,
    tables: tuple[npt.NDArray[np.uint8], npt.NDArray[np.uint8]],
    pricing: tuple[npt.NDArray[np.int8], npt.NDArray[np.int8], npt.NDArray[np.int64], npt.NDArray[np.int64], bool],
    counting: tuple[npt.NDArray[np.int64], npt.NDArray[np.float64], npt.NDArray[np.int64], npt.NDArray[np.float64]],
    out: tuple[npt.NDArray[np.float64], npt.NDArray[np.int64], npt.NDArray[np.float64]],
    samples: npt.NDArray[np.float64],
    n_samples: npt.NDArray[np.int64],
) -> None:  # pragma: no cover - compiled
    """Deal ``per_shoe.shape[0]`` shoes and play the counts on each (see :func:`deal_and_count`)."""
    deck, cfg, packed, draws = shoe_arrays
    index_r, full_index, pays, scale, merge_ten = pricing
    tags, index, rows, window = counting
    per_shoe, coups_out, all_out = out
    n = deck.shape[0]
    bands = coups_out.shape[1]
    fresh, table, thresh, fold, magic, work = k._buffers(deck, packed, draws, 0)
    cap = n // 4 + 2
    keys, starts, flags = np.empty(cap, np.int64), np.empty(cap, np.int64), np.empty(cap, np.int64)
    bets = pays.shape[0]
    buffers = (
        np.empty((2, 11), np.int64),
        np.empty(TABLEAU_KEYS + PAIR_KEYS, np.int64),
        np.empty((bets, pays.shape[1]), np.int64),
    )
    full = np.zeros(52, dtype=np.int64)
    for i in range(n):
        full[(fresh[i] >> 16) & 255] += 1
    counts = np.empty(52, dtype=np.int64)
    systems = tags.shape[0]
    rc, tc = np.zeros(systems, np.float64), np.zeros(systems, np.float64)
    ev, won = np.zeros(bets, np.float64), np.zeros(bets, np.float64)
    for s in range(per_shoe.shape[0]):
        ncoups, turned, base = k._deal_shoe(
            seed, first_shoe + s, fresh, cfg, table, thresh, fold, magic, work, keys, starts, flags
        )
        shoe = work[base : base + n]
        counts[:] = full
        left = n
        rc[:] = 0.0
        if turned >= 0 and not burn_seen:
            _see((shoe[turned] >> 16) & 255, counts, rc, tags)
            left -= 1
        seen = 0
        for c in range(ncoups):
            if burn_seen:
                for p in range(seen, starts[c]):
                    _see((shoe[p] >> 16) & 255, counts, rc, tags)
                    left -= 1
            key = keys[c]
            if not flags[c] & k.FLAG_DEMO:
                for q in range(systems):
                    tc[q] = 52.0 * rc[q] / left
                priced = price_all or _needs_price(tc, index, window, n_samples[0] < samples.shape[0])
                if priced:
                    _prices(counts, left, tables, index_r, pays, scale, merge_ten, buffers, ev)
                for row in range(bets):
                    won[row] = pays[row, full_index[key, row] + 2] / scale[row]
                    if price_all:
                        all_out[s, row, 0] += ev[row]
                        all_out[s, row, 1] += won[row]
                band = min(bands - 1, starts[c] * bands // n)
                coups_out[s, band] += 1
                _score_coup(per_shoe[s], tc, ev, won, (index, rows, window), band, priced, samples, n_samples)
            used = 4 + (key // KEY_PLAYER_THIRD_CARD) % 2 + (key // KEY_BANKER_THIRD_CARD) % 2
            for p in range(starts[c], starts[c] + used):
                _see((shoe[p] >> 16) & 255, counts, rc, tags)
                left -= 1
            seen = starts[c] + used


@dataclass(frozen=True, eq=False)
class CountRun:
    """A run's figures: ``per_shoe[shoe, count, band, :]`` (bets, realised, expected), ``coups[shoe, band]``
    (scored coups), ``priced[shoe, bet, :]`` (with ``price_all``: the sum over scored coups of each bet's exact
    EV and realised result), ``samples[i] = (count, true count, exact EV of its bet)``."""

    plan: CountPlan
    seed: int
    first_shoe: int
    per_shoe: npt.NDArray[np.float64]
    coups: npt.NDArray[np.int64]
    priced: npt.NDArray[np.float64]
    samples: npt.NDArray[np.float64]

    @property
    def shoes(self) -> int:
        return int(self.coups.shape[0])


def deal_and_count(
    plan: CountPlan,
    *,
    seed: int,
    shoes: int,
    first_shoe: int = 1,
    price_all: bool = False,
    window: Sequence[tuple[float, float]] | None = None,
    max_samples: int = 0,
) -> CountRun:
    """Deal shoes ``first_shoe …`` and play the plan's counts (one compiled call, one thread).

    ``window[count] = (low, high)``: keep up to ``max_samples`` (true count, exact EV) samples of coups whose
    true count lies in it. ``price_all``: price every bet exactly at every coup (the shoe-level figures).
    """
    useed = k.check_seed(seed)
    if isinstance(shoes, bool) or not 1 <= shoes <= 10**7:
        raise InputError(f"{shoes!r} shoes is outside 1–10,000,000", hint="ask for 1 to 10,000,000 shoes")
    k.check_shoes(first_shoe, shoes)
    systems = len(plan.systems)
    bounds = np.full((systems, 2), (np.inf, -np.inf), dtype=np.float64)
    if window is not None:
        bounds[:, :] = np.array(window, dtype=np.float64).reshape(systems, 2)
    tables, st, p = k.kernel_tables(), k.shoe_tables(plan.config), plan.pricing
    per_shoe = np.zeros((shoes, systems, plan.bands, 3), dtype=np.float64)
    coups = np.zeros((shoes, plan.bands), dtype=np.int64)
    priced = np.zeros((shoes, len(p.kinds), 2), dtype=np.float64)
    samples = np.zeros((max_samples, 3), dtype=np.float64)
    n_samples = np.zeros(1, dtype=np.int64)
    _count_kernel(
        useed,
        first_shoe,
        (st.deck, st.config, tables.packed, tables.draws),
        plan.burn_seen,
        price_all,
        drawing_tables(),
        (p.index, p.full_index, p.pays, p.scale, not p.reads_face),
        (plan.tags, plan.index, plan.rows, bounds),
        (per_shoe, coups, priced),
        samples,
        n_samples,
    )
    return CountRun(plan, seed, first_shoe, per_shoe, coups, priced, samples[: int(n_samples[0])].copy())
