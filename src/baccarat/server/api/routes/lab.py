"""The odds lab of the browser table: exact par sheets, small simulations and shoe recomputation.

Everything here is pure computation on the engine's public APIs (:mod:`baccarat.analysis`,
:mod:`baccarat.sim`, :mod:`baccarat.dealing`); nothing reads or writes the table database. Sizes
are bounded and at most :data:`MAX_CONCURRENT` computations run at a time, so a request cannot
hog the server: a request that finds every slot busy is answered 429 at once.

>>> from fastapi import FastAPI
>>> from fastapi.testclient import TestClient
>>> client = TestClient(FastAPI(routes=router.routes))
>>> client.get("/api/lab/odds", params={"decks": 13}).status_code
422
"""

from __future__ import annotations

import asyncio
import math
import secrets
import tomllib
import warnings
from collections.abc import Callable
from functools import lru_cache
from typing import Annotated, Any, TypeVar

import numpy as np
from fastapi import APIRouter, Query
from pydantic import BaseModel, ConfigDict, Field, StrictInt, StrictStr

from baccarat.analysis import feature_ways, par_sheet
from baccarat.errors import BaccaratError
from baccarat.fairness import redeal
from baccarat.paytables import BUILTIN_PAYTABLES, builtin_paytable, parse_paytable
from baccarat.rng import verify_commitment
from baccarat.server.api.models import ErrorBody
from baccarat.server.api.problems import Refusal
from baccarat.shoe import ShoeConfig
from baccarat.sim.bankroll import Bankroll
from baccarat.sim.runner import SimulationJob, simulate
from baccarat.sim.strategies import Selection, Staking, Strategy
from baccarat.variants import get_variant, variant_names

__all__ = ["MAX_CONCURRENT", "MAX_SHOES", "router"]

T = TypeVar("T")

#: Most computations of the lab running at once (a request finding none free gets 429).
MAX_CONCURRENT = 2
#: Most shoes one simulation may deal (a few seconds on one core).
MAX_SHOES = 1000
#: Most sessions, and points per session, whose bankroll paths come back for the chart.
CHART_SESSIONS = 40
CHART_POINTS = 120
#: Most coups a shoe recomputation deals.
MAX_RECOMPUTE_COUPS = 1000
#: Largest paytable (TOML) a request may send.
MAX_PAYTABLE_CHARS = 8000

# --- answers -----------------------------------------------------------------------------------

_OPEN = ConfigDict(extra="allow")


class LabOptions(BaseModel):
    """What the lab offers: variants with their bets, paytables, stakings, selections, size bounds."""

    variants: list[dict[str, Any]]
    paytables: list[str]
    stakings: list[str]
    selections: list[str]
    examples: list[str]
    decks: dict[str, int]
    max_shoes: int
    max_paytable_chars: int


class ParSheetOut(BaseModel):
    """An exact par sheet (``ParSheet.to_dict``): every bet's probabilities, expected value and edge."""

    model_config = _OPEN
    decks: int
    variant: str | None
    paytable: str | None
    total_ways: int
    outcomes: dict[str, Any]
    bets: dict[str, Any]
    removed: str


class SimulationOut(BaseModel):
    """A small simulation's summary and the bankroll paths of some sessions for a chart."""

    model_config = _OPEN
    seed: int
    hands: int
    shoes: int
    variant: str
    decks: int
    outcomes: dict[str, Any]
    strategy: dict[str, Any] | None
    chart: dict[str, Any]


class RecomputedCoup(BaseModel):
    """One coup dealt again from the shoe's seeds."""

    number: int
    cards: list[str]
    winner: str
    player_total: int
    banker_total: int
    burned: list[str]
    demo: bool


class RecomputeOut(BaseModel):
    """Whether the seed matches the commitment, and the shoe's coups dealt again."""

    commitment_ok: bool
    coups: list[RecomputedCoup]


router = APIRouter(prefix="/api/lab", tags=["lab"])
_slots = asyncio.Semaphore(MAX_CONCURRENT)

LAB_ERRORS: dict[int | str, dict[str, Any]] = {
    400: {"model": ErrorBody, "description": "Bad input (the detail says what to fix)"},
    422: {"model": ErrorBody, "description": "Malformed request"},
    429: {"model": ErrorBody, "description": "The lab is busy; try again in a moment"},
}


async def _compute(fn: Callable[[], T]) -> T:
    """Run a computation on a worker thread, within the lab's concurrency bound; engine errors become 400."""
    if _slots.locked():
        raise Refusal(429, "lab.busy", "the odds lab is busy with other requests; try again in a moment")
    async with _slots:
        try:
            return await asyncio.get_running_loop().run_in_executor(None, fn)
        except BaccaratError as error:
            raise Refusal(400, error.code, str(error), rule=error.rule, params=error.params) from None


def _check_pricing(variant: str | None, paytable: str | None) -> None:
    if variant is not None:
        try:
            get_variant(variant)  # a base variant, or one with side-bet options: macau+lucky6+tie9
        except BaccaratError as error:
            raise Refusal(400, "variant.unknown", str(error), params={"variant": variant}) from None
    if paytable is not None and paytable not in BUILTIN_PAYTABLES:
        raise Refusal(
            400,
            "paytable.unknown",
            f"unknown paytable {paytable!r}; choose one of {', '.join(BUILTIN_PAYTABLES)}",
            params={"paytable": paytable},
        )


@lru_cache(maxsize=64)
def _sheet(decks: int, variant: str | None, paytable: str | None, remove: str | None) -> dict[str, Any]:
    table = builtin_paytable(paytable) if paytable is not None else None
    sheet = par_sheet(feature_ways(decks, remove=remove), variant=variant, paytable=table)
    return {**sheet.to_dict(), "decks": decks, "removed": remove or ""}


def _normalise_removal(remove: str | None) -> str | None:
    if remove is None:
        return None
    cleaned = " ".join(remove.replace("+", " ").replace(",", " ").split()).upper()
    return cleaned or None


@router.get("/options", summary="What the lab offers")
async def options() -> LabOptions:
    """Variants, paytables, stakings, selections and the size bounds of the lab."""
    return LabOptions.model_validate(
        {
            "variants": [
                {
                    "name": name,
                    "title": get_variant(name).title,
                    "title_zh": get_variant(name).title_zh,
                    "bets": [kind.value for kind in get_variant(name).bets],
                    "options": list(get_variant(name).options),
                }
                for name in variant_names()
            ],
            "paytables": list(BUILTIN_PAYTABLES),
            "stakings": [s.value for s in Staking],
            "selections": [s.value for s in Selection],
            "examples": ["flat:banker", "martingale:banker", "paroli:player", "flat:streak3", "flat:pattern=BBP"],
            "decks": {"min": 1, "max": 12},
            "max_shoes": MAX_SHOES,
            "max_paytable_chars": MAX_PAYTABLE_CHARS,
        }
    )


@router.get("/odds", responses=LAB_ERRORS, summary="The exact par sheet")
async def odds(
    decks: Annotated[int, Query(ge=1, le=12, description="Decks in the shoe")] = 8,
    variant: Annotated[str | None, Query(max_length=40, description="A variant (its menu and paytable)")] = None,
    paytable: Annotated[str | None, Query(max_length=40, description="A built-in paytable (all its bets)")] = None,
    remove: Annotated[str | None, Query(max_length=400, description='Cards dealt already, e.g. "5S K"')] = None,
) -> ParSheetOut:
    """The exact par sheet (every ordered six-card deal counted) of a variant or built-in paytable."""
    _check_pricing(variant, paytable)
    removal = _normalise_removal(remove)
    chosen = variant if variant is not None or paytable is not None else "macau"
    return ParSheetOut.model_validate(await _compute(lambda: _sheet(decks, chosen, paytable, removal)))


class PaytableBody(BaseModel):
    """An operator's paytable (TOML text, as in ``baccarat odds --paytable``) with the shoe to price it on."""

    model_config = ConfigDict(extra="forbid")
    paytable: StrictStr = Field(min_length=1, max_length=MAX_PAYTABLE_CHARS)
    decks: StrictInt = Field(default=8, ge=1, le=12)
    remove: StrictStr | None = Field(default=None, max_length=400)


@router.post("/odds", responses=LAB_ERRORS, summary="The exact par sheet of a posted paytable")
async def odds_of_paytable(body: PaytableBody) -> ParSheetOut:
    """The exact par sheet of an operator's paytable sent as TOML text."""
    try:
        data = tomllib.loads(body.paytable)
    except tomllib.TOMLDecodeError as error:
        raise Refusal(400, "paytable.invalid", f"the paytable is not valid TOML: {error}") from None
    removal = _normalise_removal(body.remove)

    def run() -> dict[str, Any]:
        table = parse_paytable(data, source="<request>")
        sheet = par_sheet(feature_ways(body.decks, remove=removal), paytable=table)
        return {**sheet.to_dict(), "decks": body.decks, "removed": removal or ""}

    return ParSheetOut.model_validate(await _compute(run))


class SimulateBody(BaseModel):
    """A small simulation: a strategy played for a few shoes in sessions from a bankroll (minor units)."""

    model_config = ConfigDict(extra="forbid")
    strategy: StrictStr = Field(default="flat:banker", min_length=1, max_length=80)
    variant: StrictStr = Field(default="macau", max_length=40)
    decks: StrictInt = Field(default=8, ge=1, le=12)
    shoes: StrictInt = Field(default=200, ge=1, le=MAX_SHOES)
    session_shoes: StrictInt = Field(default=5, ge=1, le=100)
    bankroll: StrictInt = Field(default=1_000_000, gt=0, le=10**12)
    unit: StrictInt = Field(default=10_000, gt=0, le=10**10)
    seed: StrictInt | None = Field(default=None, ge=0, lt=2**63)


def _chart(track: np.ndarray[Any, Any], stride: int) -> dict[str, Any]:
    """Bankroll paths thinned for the chart, with the 10th, 50th and 90th percentile at each point."""
    if track.size == 0:
        return {"hands_per_point": stride, "paths": [], "p10": [], "p50": [], "p90": []}
    step = max(1, int(np.ceil(track.shape[1] / CHART_POINTS)))
    thin = track[:, ::step]
    with warnings.catch_warnings():  # a column where every session has ended is all NaN
        warnings.simplefilter("ignore", RuntimeWarning)
        p10, p50, p90 = ([_finite(v) for v in np.nanpercentile(thin, q, axis=0)] for q in (10, 50, 90))
    paths = [[_finite(v) for v in row] for row in thin[:CHART_SESSIONS]]
    return {"hands_per_point": stride * step, "paths": paths, "p10": p10, "p50": p50, "p90": p90}


def _finite(value: Any) -> float | None:
    """A chart value for JSON: rounded, or ``None`` where a session has ended (NaN is not JSON)."""
    number = float(value)
    return round(number, 2) if math.isfinite(number) else None


@router.post("/simulate", responses=LAB_ERRORS, summary="Simulate a betting strategy")
async def simulate_strategy(body: SimulateBody) -> SimulationOut:
    """Play a strategy for up to :data:`MAX_SHOES` shoes on one core; the summary and bankroll paths for a chart."""
    _check_pricing(body.variant, None)
    if body.unit > body.bankroll:
        raise Refusal(400, "input.invalid", "the unit is larger than the bankroll; bet a unit of at most the bankroll")

    def run() -> dict[str, Any]:
        job = SimulationJob(
            seed=body.seed if body.seed is not None else secrets.randbits(62),
            config=ShoeConfig(decks=body.decks),
            variant=body.variant,
            shoes=body.shoes,
            strategy=Strategy.parse(body.strategy),
            bankroll=Bankroll(start=body.bankroll, unit=body.unit),
            session_shoes=body.session_shoes,
        )
        result = simulate(job, workers=1)
        data = result.to_dict()
        return {
            "seed": data["seed"],
            "hands": data["hands"],
            "shoes": data["shoes"],
            "variant": data["variant"],
            "decks": data["decks"],
            "outcomes": data["outcomes"],
            "strategy": data["strategy"],
            "chart": _chart(result.track, result.track_stride),
        }

    return SimulationOut.model_validate(await _compute(run))


class RecomputeBody(BaseModel):
    """A revealed shoe (the ``proof`` of ``/api/rounds/{id}``): deal it again from its seeds."""

    model_config = ConfigDict(extra="ignore")
    commitment: StrictStr = Field(min_length=1, max_length=128)
    server_seed: StrictStr = Field(min_length=1, max_length=256)
    client_seed: StrictStr = Field(min_length=1, max_length=256)
    config: dict[str, Any]
    first_shoe_number: StrictInt = Field(default=1, ge=1, le=2**31)
    coup_in_shoe: StrictInt = Field(ge=1, le=MAX_RECOMPUTE_COUPS)


@router.post("/recompute", responses=LAB_ERRORS, summary="Deal a revealed shoe again")
async def recompute(body: RecomputeBody) -> RecomputeOut:
    """Check the seed against the commitment and deal the shoe's coups 1…``coup_in_shoe`` again from the seeds."""

    def run() -> dict[str, Any]:
        dealer = redeal(
            body.config,
            server_seed=body.server_seed,
            client_seed=body.client_seed,
            first_shoe_number=body.first_shoe_number,
        )
        coups = []
        for _ in range(body.coup_in_shoe):
            dealt = dealer.next_coup()
            coups.append(
                {
                    "number": dealt.number,
                    "cards": [str(c) for c in dealt.result.cards],
                    "winner": dealt.result.winner.value,
                    "player_total": dealt.result.player.total,
                    "banker_total": dealt.result.banker.total,
                    "burned": [str(c) for c in dealt.burned],
                    "demo": dealt.demo,
                }
            )
        return {"commitment_ok": verify_commitment(body.commitment, body.server_seed), "coups": coups}

    return RecomputeOut.model_validate(await _compute(run))
