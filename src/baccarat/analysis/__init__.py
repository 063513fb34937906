"""Exact odds: every ordered six-card deal counted by a compiled kernel, priced through the tables' settlement.

>>> from baccarat.analysis import par_sheet
>>> from baccarat.bets import BetKind
>>> sheet = par_sheet(8, variant="macau")
>>> sheet.total_ways, float(sheet.bets[BetKind.PLAYER].house_edge) > 0
(4998398275503360, True)
"""

from baccarat.analysis.eor import BetEffects, Countability, EffectsOfRemoval, effects_of_removal
from baccarat.analysis.exact import FeatureDistribution, Natural, falling_factorial, feature_ways, resolve_composition
from baccarat.analysis.par_sheet import (
    BetFigures,
    OutcomeFigures,
    ParSheet,
    ResultFigures,
    ResultKind,
    bet_figures,
    par_sheet,
    resolve_pricing,
)

__all__ = [
    "BetEffects",
    "BetFigures",
    "Countability",
    "EffectsOfRemoval",
    "FeatureDistribution",
    "Natural",
    "OutcomeFigures",
    "ParSheet",
    "ResultFigures",
    "ResultKind",
    "bet_figures",
    "effects_of_removal",
    "falling_factorial",
    "feature_ways",
    "par_sheet",
    "resolve_composition",
    "resolve_pricing",
]
