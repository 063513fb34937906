"""The exact figures of every bet for the next coup of a partly dealt shoe, fast enough to follow a shoe live.

The same figures as a par sheet of the cards that remain (:func:`baccarat.analysis.par_sheet`), from a
kernel that counts only what the bets read (:mod:`baccarat.analysis._next_kernel`): a bet that reads both
the tableau and the pairs is priced from the full distribution instead.

>>> from baccarat.analysis import par_sheet
>>> pricing = next_coup_pricing("macau")
>>> fast = next_coup_figures(8, pricing, remove="5S 5H K 9D")
>>> slow = par_sheet(8, variant="macau", remove="5S 5H K 9D").bets
>>> all(fast[kind].expected_value == slow[kind].expected_value for kind in pricing.kinds)
True
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from fractions import Fraction
from functools import cache

import numpy as np
import numpy.typing as npt

from baccarat.analysis._next_kernel import PAIR_KEYS, TABLEAU_KEYS, next_coup_kernel
from baccarat.analysis.exact import Shoe, drawing_tables, falling_factorial, feature_ways, resolve_composition
from baccarat.analysis.par_sheet import BetFigures, bet_figures, figures_of_sums, resolve_pricing
from baccarat.bets import BetKind
from baccarat.cards import Card, Rank
from baccarat.errors import InputError
from baccarat.features import KEY_PLAYER_PAIR
from baccarat.paytables import Level, Paytable
from baccarat.settlement import outcome_table
from baccarat.variants import Variant

__all__ = ["NextCoupPricing", "next_coup_figures", "next_coup_pricing", "next_coup_sums"]

#: Marks, in the reduced index, the part of the coup a bet does not read.
SKIP = -3


@dataclass(frozen=True, eq=False)
class NextCoupPricing:
    """What the next-coup kernel needs for a set of bets (build it once with :func:`next_coup_pricing`).

    ``index``: int8 (TABLEAU_KEYS + PAIR_KEYS, bets) for the kernel; ``full_index``: int8 (FEATURE_KEYS, bets),
    each bet's level on every feature key (to settle a dealt coup); ``pays``: int64 (bets, columns), each
    result's net payout times ``scale[bet]`` (column 0 push, 1 lose, 2 + i level i); ``mixed``: the bets
    read both parts of the coup, priced from the full distribution; ``reads_face``: some bet reads the face
    flags (else the kernel counts tens with J/Q/K).
    """

    variant: str | None
    paytable: Paytable
    kinds: tuple[BetKind, ...]
    levels: tuple[tuple[Level, ...], ...]
    index: npt.NDArray[np.int8]
    full_index: npt.NDArray[np.int8]
    pays: npt.NDArray[np.int64]
    scale: npt.NDArray[np.int64]
    mixed: tuple[BetKind, ...]
    reads_face: bool = True

    @property
    def columns(self) -> int:
        return int(self.pays.shape[1])


def _reduced(levels: npt.NDArray[np.int8]) -> npt.NDArray[np.int8] | None:
    """A bet's levels on the reduced keys, or None when it reads both the tableau and the pairs."""
    grid = levels.reshape(16, 16, KEY_PLAYER_PAIR)  # ace/face bits, pair bits, totals and hand sizes
    out = np.full(TABLEAU_KEYS + PAIR_KEYS, SKIP, dtype=np.int8)
    if (grid == grid[:, :1, :]).all():
        out[:TABLEAU_KEYS] = grid[:, 0, :].reshape(-1)
    elif (grid == grid[:1, :, :1]).all():
        out[TABLEAU_KEYS:] = grid[0, :, 0]
    else:
        return None
    return out


@cache
def next_coup_pricing(
    variant: str | Variant | None = None,
    paytable: Paytable | None = None,
    kinds: tuple[BetKind, ...] | None = None,
) -> NextCoupPricing:
    """The pricing of a variant's bets (default ``macau``), or a paytable's, or ``kinds`` of them."""
    name, table, menu = resolve_pricing(variant, paytable)
    chosen = kinds or menu
    for kind in chosen:
        if kind not in menu:
            offered = ", ".join(k.value for k in menu)
            raise InputError(f"{name or table.name} does not offer {kind.value}", hint=f"choose among {offered}")
    outcomes = outcome_table(table)
    levels = tuple(outcomes.levels[kind] for kind in chosen)
    columns = 2 + max((len(lv) for lv in levels), default=0)
    index = np.full((TABLEAU_KEYS + PAIR_KEYS, len(chosen)), SKIP, dtype=np.int8)
    full = np.empty((outcomes.index[chosen[0]].shape[0], len(chosen)), dtype=np.int8)
    pays = np.zeros((len(chosen), columns), dtype=np.int64)
    scale = np.ones(len(chosen), dtype=np.int64)
    mixed: list[BetKind] = []
    for row, kind in enumerate(chosen):
        table.terms(kind)  # refuses a bet the paytable does not pay
        full[:, row] = outcomes.index[kind]
        reduced = _reduced(outcomes.index[kind])
        if reduced is None:
            mixed.append(kind)
        else:
            index[:, row] = reduced
        results = [Fraction(0), Fraction(-1), *(level.pays for level in levels[row])]
        den = int(np.lcm.reduce([r.denominator for r in results]))
        scale[row] = den
        pays[row, : len(results)] = [int(r * den) for r in results]
    for array in (index, full, pays, scale):
        array.setflags(write=False)
    return NextCoupPricing(name, table, chosen, levels, index, full, pays, scale, tuple(mixed), _reads_face(index))


def _reads_face(index: npt.NDArray[np.int8]) -> bool:
    """Whether a bet's level on the reduced tableau keys changes with the Player or Banker face flag."""
    grid = index[:TABLEAU_KEYS].reshape(2, 2, 2, 2, KEY_PLAYER_PAIR, -1)  # banker face, ace, player face, ace
    return not ((grid == grid[:1, :, :1]).all())


def next_coup_sums(counts: npt.NDArray[np.int64], pricing: NextCoupPricing) -> npt.NDArray[np.int64]:
    """Every bet's ways by result (push, lose, each level) for the next coup from ``counts`` (52 cards left).

    The bets of ``pricing.mixed`` are left at zero here (see :func:`next_coup_figures`).
    """
    player, banker = drawing_tables()
    scratch = np.empty((2, 11), dtype=np.int64)
    ways = np.empty(TABLEAU_KEYS + PAIR_KEYS, dtype=np.int64)
    out = np.empty((len(pricing.kinds), pricing.columns), dtype=np.int64)
    next_coup_kernel(counts, player, banker, pricing.index, not pricing.reads_face, scratch, ways, out)
    return out


def next_coup_figures(
    shoe: Shoe, pricing: NextCoupPricing, *, remove: str | Iterable[Card | Rank] | None = None
) -> dict[BetKind, BetFigures]:
    """The exact figures of the pricing's bets for the next coup: those of ``par_sheet(shoe, remove=…)``."""
    composition = resolve_composition(shoe, remove=remove)
    sums = next_coup_sums(np.array(composition.counts, dtype=np.int64), pricing)
    rows = [row for row, kind in enumerate(pricing.kinds) if kind not in pricing.mixed]
    kinds, levels = tuple(pricing.kinds[r] for r in rows), tuple(pricing.levels[r] for r in rows)
    figures = figures_of_sums(kinds, levels, sums[rows], falling_factorial(composition.total, 6))
    if pricing.mixed:
        figures.update(bet_figures(feature_ways(composition), pricing.paytable, pricing.mixed))
    return {kind: figures[kind] for kind in pricing.kinds}
