"""Milliseconds per full exact par sheet: every bet of every variant, for one shoe composition.

Run: ``.venv/bin/python benchmarks/bench_odds.py [--repeats N]``. One "par sheet" is the compiled
enumeration of every ordered six-card deal of an 8-deck shoe, then every bet of every variant
(macau, standard, no_commission, western, ez) priced with its expected value, house edges and
standard deviation. Partly dealt shoes are timed as well (a shoe is re-analysed after each coup).
The baseline is a straightforward pure-Python enumeration over point values that prices the main
bets only. The last line is ``odds_ms=<value>`` (median, full 8-deck shoe, after warm-up); the goal
is at most 10 ms.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable
from fractions import Fraction

from baccarat.analysis import feature_ways, par_sheet
from baccarat.bets import BetKind
from baccarat.composition import Composition
from baccarat.coup import banker_draws, player_draws
from baccarat.paytables import parse_paytable
from baccarat.rng import SeededSource, shuffle
from baccarat.settlement import outcome_table
from baccarat.variants import VARIANTS


def full_par_sheet(shoe: int | Composition) -> float:
    """Every bet of every variant for one shoe; returns a checksum so nothing is skipped."""
    dist = feature_ways(shoe)
    checksum = 0.0
    for variant in VARIANTS:
        sheet = par_sheet(dist, variant=variant)
        for bet in sheet.bets.values():
            checksum += float(bet.expected_value) + bet.std_dev + float(bet.house_edge_resolved)
    return checksum


def baseline_main_bets(decks: int) -> dict[str, Fraction]:
    """The straightforward way: nested loops over point values in pure Python, main bets only."""
    counts = [16 * decks] + [4 * decks] * 9
    total = 52 * decks
    banker = player = tie = 0
    for p1 in range(10):
        w1 = counts[p1]
        counts[p1] -= 1
        for b1 in range(10):
            w2 = w1 * counts[b1]
            counts[b1] -= 1
            for p2 in range(10):
                w3 = w2 * counts[p2]
                counts[p2] -= 1
                for b2 in range(10):
                    w4 = w3 * counts[b2]
                    if w4 == 0:
                        continue
                    counts[b2] -= 1
                    pt, bt = (p1 + p2) % 10, (b1 + b2) % 10
                    finals: list[tuple[int, int, int]] = []
                    if player_draws(pt, bt):
                        for p3 in range(10):
                            w5 = counts[p3]
                            if w5 == 0:
                                continue
                            counts[p3] -= 1
                            if banker_draws(bt, p3, player_total=pt):
                                finals.extend(((pt + p3) % 10, (bt + b3) % 10, w5 * counts[b3]) for b3 in range(10))
                            else:
                                finals.append(((pt + p3) % 10, bt, w5 * (total - 5)))
                            counts[p3] += 1
                    elif banker_draws(bt, None, player_total=pt):
                        finals.extend((pt, (bt + b3) % 10, counts[b3] * (total - 5)) for b3 in range(10))
                    else:
                        finals.append((pt, bt, (total - 4) * (total - 5)))
                    for p, b, w in finals:
                        if p > b:
                            player += w4 * w
                        elif b > p:
                            banker += w4 * w
                        else:
                            tie += w4 * w
                    counts[b2] += 1
                counts[p2] += 1
            counts[b1] += 1
        counts[p1] += 1
    all_ways = banker + player + tie
    return {
        "banker": Fraction(banker * 19 - player * 20, 20 * all_ways),
        "player": Fraction(player - banker, all_ways),
        "tie": Fraction(tie * 8 - banker - player, all_ways),
    }


def median_ms(func: Callable[[], object], repeats: int) -> float:
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        func()
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=50, help="timed repeats (the median is reported)")
    parser.add_argument("--baseline-repeats", type=int, default=3, help="timed repeats of the pure-Python baseline")
    args = parser.parse_args()

    start = time.perf_counter()
    full_par_sheet(8)  # warm-up: loads (or compiles) the kernels, builds the outcome tables
    warmup_ms = (time.perf_counter() - start) * 1000

    odds_ms = median_ms(lambda: full_par_sheet(8), args.repeats)
    kernel_ms = median_ms(lambda: feature_ways(8), args.repeats)
    cards = Composition.from_decks(8).cards()
    shuffle(cards, SeededSource(1).stream(0))
    partial = [Composition.from_cards(cards[dealt:]) for dealt in range(0, 400, 5)]
    partial_ms = statistics.median(
        median_ms(lambda c=c: full_par_sheet(c), 3) for c in partial[:: max(1, len(partial) // 16)]
    )
    twelve_ms = median_ms(lambda: full_par_sheet(12), max(5, args.repeats // 5))

    every_bet = parse_paytable({"name": "all", "bets": {k.value: {"pays": 2} for k in BetKind}}, source="benchmark")
    table_ms = median_ms(lambda: outcome_table.__wrapped__(every_bet), max(3, args.repeats // 10))

    baseline = baseline_main_bets(8)
    exact = par_sheet(8).bets
    assert all(
        exact[kind].expected_value == ev for kind, ev in ((k, baseline[k.value]) for k in exact if k.value in baseline)
    )
    baseline_ms = median_ms(lambda: baseline_main_bets(8), args.baseline_repeats)

    bets = sum(len(variant.bets) for variant in VARIANTS)
    print(f"first call (kernel load or compile, outcome tables): {warmup_ms:9.1f} ms")
    print(f"enumeration kernel alone, 8 decks:                  {kernel_ms:9.3f} ms")
    print(f"full par sheet, 8 decks ({bets} bets, {len(VARIANTS)} variants):     {odds_ms:9.3f} ms")
    print(f"full par sheet, partly dealt 8-deck shoes:          {partial_ms:9.3f} ms")
    print(f"full par sheet, 12 decks:                           {twelve_ms:9.3f} ms")
    print(f"outcome table of a new paytable ({len(BetKind)} bet kinds):  {table_ms:9.3f} ms")
    print(f"pure-Python baseline (point values, main bets only): {baseline_ms:8.1f} ms")
    print(f"speed-up over the baseline:                         {baseline_ms / odds_ms:9.0f}x")
    print(f"odds_ms={odds_ms:.3f}")


if __name__ == "__main__":
    main()
