"""Game-protection figures: what perfect knowledge and the best count win per shoe on each side bet, at a
few cut-card positions, so that a house can choose paytables and where to place the cut card.

The runs are small and seeded; their results are kept in :mod:`baccarat.analysis.protection_cache`, which
the par sheet's Markdown report reads (``baccarat odds --markdown`` runs no simulation). Regenerate the
cache with ``python -m baccarat.sim.protection`` (about a minute and a half on one core), then
``ruff format src/baccarat/analysis/protection_cache.py``.
"""

from __future__ import annotations

import pprint
import sys
from pathlib import Path
from typing import Any

from baccarat.bets import BetKind
from baccarat.shoe import ShoeConfig
from baccarat.sim.count_study import CountStudyJob, count_study

__all__ = ["CUT_CARDS", "RUN", "VARIANTS", "protection_figures", "write_cache"]

#: The variants, cut-card positions (cards behind the cut card) and run sizes of the cache.
VARIANTS = ("ez", "macau")
CUT_CARDS = (14, 40, 80)
RUN: dict[str, int] = {"decks": 8, "shoes": 2000, "sample_shoes": 400, "oracle_shoes": 200, "seed": 1, "levels": 3}


def _est(e: dict[str, Any] | None) -> list[float] | None:
    return None if e is None else [round(e["value"], 4), round(e["ci95"][0], 4), round(e["ci95"][1], 4)]


def _every_side_bet(variant: str) -> tuple[BetKind, ...]:
    from baccarat.analysis.par_sheet import resolve_pricing

    _, _, kinds = resolve_pricing(variant, None)
    return tuple(kind for kind in kinds if kind not in (BetKind.BANKER, BetKind.PLAYER))


def protection_figures(variant: str, cut_card: int, run: dict[str, int] | None = None) -> dict[str, Any]:
    """Per side bet: the oracle's and the best count's expected gain per shoe ([value, low, high] units)."""
    r = run or RUN
    job = CountStudyJob(
        variant=variant,
        bets=_every_side_bet(variant),
        config=ShoeConfig(decks=r["decks"], cut_card_from_end=cut_card),
        levels=r["levels"],
        shoes=r["shoes"],
        sample_shoes=r["sample_shoes"],
        oracle_shoes=r["oracle_shoes"],
        seed=r["seed"],
    )
    study = count_study(job).to_dict()
    out: dict[str, Any] = {}
    for name, bet in study["bets"].items():
        best = next(s for s in bet["systems"] if s["name"] == bet["best"])
        bets = best["whole_shoe"]["bets_per_shoe"]
        out[name] = {
            "oracle_per_shoe": _est(bet["oracle_expected_per_shoe"]),
            "count": best["name"] if bets > 0 else None,
            "tags": list(best["tags"].values()) if bets > 0 else None,
            "index": best["index_used"] if bets > 0 else None,
            "count_per_shoe": _est(best["whole_shoe"]["expected_per_shoe"]),
            "count_on_oracle_shoes": _est(best["expected_per_shoe_on_oracle_shoes"]),
        }
    return out


def write_cache(path: Path) -> None:
    """Run every variant at every cut-card position and write the cache module."""
    figures = {variant: {str(cut): protection_figures(variant, cut) for cut in CUT_CARDS} for variant in VARIANTS}
    body = pprint.pformat({"run": RUN, "figures": figures}, width=110, sort_dicts=False)
    path.write_text(
        '"""Cached game-protection figures (written by ``python -m baccarat.sim.protection``; do not edit).\n\n'
        "Per variant and cut card (cards behind it), per side bet: the oracle's and the best count's expected\n"
        'gain per shoe, [value, 95% low, 95% high] units of one unit bet, from the seeded run in ``run``."""\n\n'
        "from typing import Any\n\n"
        f"PROTECTION: dict[str, Any] = {body}\n",
        encoding="utf-8",
    )


if __name__ == "__main__":  # pragma: no cover - a maintenance script
    target = Path(__file__).resolve().parents[1] / "analysis" / "protection_cache.py"
    write_cache(Path(sys.argv[1]) if len(sys.argv) > 1 else target)
    print(f"wrote {target}")
